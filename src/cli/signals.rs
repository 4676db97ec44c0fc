//! Ctrl-C (SIGINT), SIGTERM and SIGHUP, from the start of `main` to its
//! end: the tool ends with status 130 and a message, whatever it is doing.
//!
//! Outside a run (parsing the command line, reading and checking the
//! program, `--check`, `--print`, anything `stg-prof` does) a signal ends
//! the process at once. During a run and while its results are written,
//! the first signal requests a stop ([`crate::stop`]): the machine stops
//! at its next look at the flag, and the output, statistics and profile so
//! far are written, as after a step limit. A second signal ends the
//! process at once, unless it comes within [`SAME_SIGNAL`] of the first.
//!
//! The handler runs on the `ctrlc` crate's own thread, not in a signal
//! handler, so it may keep state, write and remove files.

use std::io::Write;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::{files, stop};

/// Exit status of a tool stopped by a signal: 128 + SIGINT, the shell's
/// convention.
pub const INTERRUPTED: u8 = 130;

/// Signals this close together are one request to stop: GNU `timeout`
/// sends its signal to the process and then to its whole process group,
/// so the run receives two within microseconds, where a person pressing
/// Ctrl-C twice takes far longer.
pub const SAME_SIGNAL: Duration = Duration::from_millis(250);

/// Whether a run (or the writing of its results) is going on: a signal
/// then requests a stop instead of ending the process.
static RUNNING: AtomicBool = AtomicBool::new(false);

/// The tool's name, for messages.
static TOOL: OnceLock<&'static str> = OnceLock::new();

/// Installs the handler; call it first thing in `main`. If it cannot be
/// installed, a signal keeps its default action (ending the process by
/// the signal) and the tool says so once.
pub fn install(tool: &'static str) {
    let _ = TOOL.set(tool);
    let mut first: Option<Instant> = None;
    let installed = ctrlc::set_handler(move || {
        match first {
            None => {
                first = Some(Instant::now());
                // The order matters: `end_run` clears RUNNING, then looks
                // at the flag; here the flag is set, then RUNNING looked
                // at. Either `end_run` sees the flag or this sees no run.
                stop::request();
                if !RUNNING.load(Ordering::SeqCst) {
                    exit_now("interrupted (Ctrl-C or a termination signal); stopped");
                }
            }
            Some(t) if t.elapsed() >= SAME_SIGNAL => exit_now(
                "interrupted again; stopped at once, without writing what was not yet written",
            ),
            Some(_) => {}
        }
    });
    if let Err(e) = installed {
        super::stdio::say(&format!(
            "{tool}: warning: cannot catch Ctrl-C and termination signals ({e}); \
             a signal will end the run without its profile\n"
        ));
    }
}

/// Marks the start of a run: from now until [`end_run`], a first signal
/// requests a stop ([`stop::FLAG`], which the run's options point at)
/// instead of ending the process.
pub fn begin_run() {
    RUNNING.store(true, Ordering::SeqCst);
}

/// Marks the end of a run and the writing of its results: a signal from
/// now on ends the process at once. Returns whether a stop was requested
/// during the run or after it (the status is then 130).
pub fn end_run() -> bool {
    RUNNING.store(false, Ordering::SeqCst);
    stop::requested()
}

/// Says `message` (prefixed with the tool's name) on standard error if it
/// takes it without waiting, removes the temporary files being written,
/// and ends the process with status 130 at once: no destructor runs and
/// nothing buffered is flushed (a flush could wait on a full pipe).
pub fn exit_now(message: &str) -> ! {
    let tool = TOOL.get().copied().unwrap_or("stg-run");
    let text = format!("{tool}: {message}\n");
    let mut err = files::WaitingWriter::borrowed(2, files::Patience::Run, None);
    let _ = err.write_all(text.as_bytes());
    files::remove_live_temporaries();
    // SAFETY: `_exit` ends the process; it is async-signal-safe and runs
    // no handlers, so it cannot wait on anything this process holds.
    unsafe { libc::_exit(INTERRUPTED.into()) }
}
