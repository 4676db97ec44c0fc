//! The process's request to stop: set once, by the binaries' signal handler
//! (`cli::signals`) on Ctrl-C, SIGTERM or SIGHUP, and read by whatever may
//! otherwise keep the process busy: the engines (through
//! `RunOptions::interrupt`, which the binaries point at [`FLAG`]) and the
//! writers that wait for room in a pipe or a terminal
//! (`files::WaitingWriter`), which give up instead of waiting on.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Set by the first signal; never cleared.
pub static FLAG: AtomicBool = AtomicBool::new(false);

/// When the stop was requested.
static AT: OnceLock<Instant> = OnceLock::new();

/// How long, after a stop request, the end of a run may still wait for a
/// reader to make room for a message or a profile on standard output or
/// standard error (a terminal takes microseconds; a pipe nobody reads never
/// makes room): the run still ends within 100 ms of the signal, plus the
/// time its profile takes to write.
pub const GRACE: Duration = Duration::from_millis(50);

/// Requests a stop (from the signal handler's thread).
pub fn request() {
    let _ = AT.set(Instant::now());
    FLAG.store(true, Ordering::SeqCst);
}

/// Whether a stop was requested.
pub fn requested() -> bool {
    FLAG.load(Ordering::SeqCst)
}

/// How much of the [`GRACE`] after the stop request is left: `None` with
/// no request, zero once it has run out.
pub fn grace_left() -> Option<Duration> {
    if !requested() {
        return None;
    }
    let at = AT.get()?;
    Some(GRACE.saturating_sub(at.elapsed()))
}

/// The error of a write that gave up because a stop was requested while
/// it waited for room. The engines report an output error carrying it as
/// the interrupt it is (`machine::ErrorKind::output`).
#[derive(Debug)]
pub struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted while waiting for the reader to make room")
    }
}

impl std::error::Error for Stopped {}

impl Stopped {
    /// The `io::Error` a writer returns. Not `ErrorKind::Interrupted`,
    /// which `write_all` and `BufWriter` take for EINTR and retry.
    pub fn error() -> std::io::Error {
        std::io::Error::other(Stopped)
    }

    /// Whether `e` is a write that gave up on a stop request.
    pub fn is(e: &std::io::Error) -> bool {
        e.get_ref().is_some_and(|inner| inner.is::<Stopped>())
    }
}
