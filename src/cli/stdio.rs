//! Standard output and standard error as both tools write them: through
//! [`WaitingWriter`]s, so that a full pipe never holds off a signal, and
//! with a descriptor that was closed when the process started
//! (`stg-run prog.stg >&-`) reported as the write error it is, not
//! silently written to `/dev/null` (where Rust's runtime points a closed
//! standard descriptor before `main`).

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicU8, Ordering};

use crate::files::{Patience, WaitingWriter};

/// Bit `fd` is set when descriptor `fd` (0, 1 or 2) was closed when the
/// process started, before Rust's runtime opened `/dev/null` on it.
static CLOSED_AT_START: AtomicU8 = AtomicU8::new(0);

/// Records which of descriptors 0, 1 and 2 are closed. Runs before `main`
/// (each binary puts it in `.init_array`, which the C library runs before
/// Rust's runtime starts): it only asks the kernel and stores bits.
pub extern "C" fn note_closed_descriptors() {
    let mut closed = 0;
    for fd in 0..3 {
        // SAFETY: F_GETFD only reads the descriptor's flags.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
            closed |= 1 << fd;
        }
    }
    CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// Whether descriptor `fd` was closed when the process started.
fn closed_at_start(fd: i32) -> bool {
    CLOSED_AT_START.load(Ordering::Relaxed) & (1 << fd) != 0
}

/// Standard output, for a run's output (`Patience::Run`) or what is
/// written after it (`Patience::End`).
pub fn stdout(patience: Patience) -> WaitingWriter {
    let closed = closed_at_start(1).then_some("standard output");
    WaitingWriter::borrowed(1, patience, closed)
}

/// Standard error, as [`stdout`].
pub fn stderr(patience: Patience) -> WaitingWriter {
    let closed = closed_at_start(2).then_some("standard error");
    WaitingWriter::borrowed(2, patience, closed)
}

/// Writes `text` to standard error, ignoring failure: a closed standard
/// error (`stg-run ... 2>&1 | head -1`) must not panic (`eprint!` would)
/// and so lose the profile, which is written after these messages. After
/// a stop request it waits for room at most until `stop::GRACE` after it.
pub fn say(text: &str) {
    let _ = stderr(Patience::End).write_all(text.as_bytes());
}

/// Whether a write error is a reader that closed the pipe (`| head`): the
/// reader's choice, not the tool's failure, so it is passed over quietly.
pub fn is_closed_pipe(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::BrokenPipe
}

/// Parses the command line of `cmd`, or ends the process as clap would,
/// except that the help and the version are written like any output: a
/// failed write (`--help > /dev/full`, a closed standard output) is an
/// error with status 1 and one message, a closed pipe (`--help | head`)
/// is quiet, status 0.
pub fn parse_command_line(cmd: clap::Command, tool: &str) -> clap::ArgMatches {
    let e = match cmd.try_get_matches() {
        Ok(matches) => return matches,
        Err(e) => e,
    };
    use clap::error::ErrorKind::{DisplayHelp, DisplayVersion};
    if !matches!(e.kind(), DisplayHelp | DisplayVersion) {
        // Usage errors go to standard error, with status 2.
        e.exit();
    }
    let styled = e.render();
    let text = if io::stdout().is_terminal() {
        styled.ansi().to_string()
    } else {
        styled.to_string()
    };
    let status = match stdout(Patience::End).write_all(text.as_bytes()) {
        Err(e) if !is_closed_pipe(&e) => {
            say(&format!("{tool}: cannot write the help: {e}\n"));
            1
        }
        _ => 0,
    };
    std::process::exit(status)
}
