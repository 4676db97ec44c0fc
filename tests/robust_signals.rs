//! Ctrl-C, SIGTERM and SIGHUP stop `stg-run` (and `stg-prof`) with status
//! 130 and a message whatever they are doing: during a run whose steps are
//! slow (a census at every step), while the output waits on a pipe nobody
//! reads, while the results are written, and outside any run (printing,
//! checking, reading standard input), where the tool ends at once. Real
//! processes: the built binaries, signalled with `kill(2)`.
//!
//! The acceptance bound is 1 s from the signal to the end, profile written
//! (issue 27); the runs here take about 0.1 s in the debug build.
#![cfg(unix)]

mod cli_common;

use cli_common::{LIVE_SPIN, program, scratch, text};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};
use stg_run::internal::profile::format;

/// The most a tool may take from a signal to its end, results written.
const STOP_WITHIN: Duration = Duration::from_secs(1);

/// Time for a tool to get to where the test signals it (a few milliseconds
/// in fact; generous for a loaded machine).
const SETTLE: Duration = Duration::from_millis(700);

/// An infinite list, printed: the output never ends.
const NATS: &str = "\
one = {} \\r {} -> I# {1#}
main = {} \\u {} -> enumFrom {one}
";

fn write_program(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn stg_run() -> Command {
    Command::new(env!("CARGO_BIN_EXE_stg-run"))
}

fn signal(child: &Child, sig: libc::c_int) {
    // SAFETY: kill(2) with the child's own id.
    let r = unsafe { libc::kill(child.id() as libc::pid_t, sig) };
    assert_eq!(r, 0, "kill: {}", std::io::Error::last_os_error());
}

/// Waits for `child` to end; its status and how long it took. Kills it
/// and fails after a minute (a broken stop must fail, not hang).
fn wait(child: &mut Child) -> (ExitStatus, Duration) {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (status, started.elapsed());
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("the process did not end within 60 s of the signal");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The child's standard error to its end ("" when it is not piped).
fn stderr_of(child: &mut Child) -> String {
    let mut s = String::new();
    if let Some(mut err) = child.stderr.take() {
        err.read_to_string(&mut s).unwrap();
    }
    s
}

/// Starts `stg-run SRC ARGS --profile-file PROFILE`, standard error piped.
fn start(src: &Path, args: &[&str], profile: &Path, stdout: Stdio) -> Child {
    stg_run()
        .arg(src)
        .args(args)
        .arg("--profile-file")
        .arg(profile)
        .current_dir(profile.parent().unwrap())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Lets `child` get going, sends it `signals` and waits for its end: its
/// status, the time from the signal to the end, and its standard error
/// (read to its end first: a full pipe of trace must not hold the child).
fn signal_and_wait(child: &mut Child, signals: &[libc::c_int]) -> (ExitStatus, Duration, String) {
    std::thread::sleep(SETTLE);
    for &s in signals {
        signal(child, s);
    }
    let started = Instant::now();
    let stderr = stderr_of(child);
    let (status, _) = wait(child);
    (status, started.elapsed(), stderr)
}

/// The steps an interrupted run's message says it did.
fn steps_in(stderr: &str) -> u64 {
    stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("after "))
        .and_then(|l| l.strip_suffix(" steps"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a step count in {stderr}"))
}

fn total_ticks(profile: &Path) -> u64 {
    let p = format::read(&std::fs::read(profile).unwrap()).unwrap();
    p.entries.iter().map(|e| e.counters.ticks).sum()
}

/// Files in `dir` whose name ends in `.tmp`.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

/// The end every interrupted run must have: status 130 within the bound,
/// the message, the profile of the steps done written whole, and no
/// temporary file left.
fn assert_stopped_as_interrupted(status: ExitStatus, took: Duration, stderr: &str, profile: &Path) {
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(
        took < STOP_WITHIN,
        "stopped {took:?} after the signal; {stderr}"
    );
    assert!(stderr.contains("runtime error: interrupted"), "{stderr}");
    assert_eq!(
        total_ticks(profile),
        steps_in(stderr),
        "the profile holds every step done"
    );
    assert_eq!(temporaries(profile.parent().unwrap()), Vec::<String>::new());
}

/// A census at every step makes each step take about a millisecond: the
/// flag is still looked at within milliseconds (on a clock, not only every
/// 65,536 steps), and the heap profile is written too.
#[test]
fn a_run_of_slow_steps_stops_at_once() {
    let dir = scratch("robust_signals", "slow_steps");
    let src = write_program(&dir, "spin.stg", LIVE_SPIN);
    let profile = dir.join("spin.pgcl");
    for engine in ["fast", "reference"] {
        let args = ["--heap-profile=cc", "--heap-interval=1", "--engine", engine];
        let mut child = start(&src, &args, &profile, Stdio::null());
        let (status, took, stderr) = signal_and_wait(&mut child, &[libc::SIGINT]);
        assert_stopped_as_interrupted(status, took, &stderr, &profile);
        let hp = std::fs::read_to_string(dir.join("spin.hp")).unwrap();
        assert!(
            hp.contains("END_SAMPLE"),
            "{engine}: the heap profile is written"
        );
        std::fs::remove_file(&profile).unwrap();
    }
}

/// `timeout 2 stg-run prog | sleep 10`: standard output is a pipe that is
/// full and never read. The signal is acted on at once (not when the
/// reader goes away), with 130, the message and the profile. Also when the
/// signal comes twice at once (`timeout` signals the process, then its
/// group), and for SIGHUP.
#[test]
fn a_run_blocked_on_a_full_pipe_stops_at_once() {
    let dir = scratch("robust_signals", "full_pipe");
    let src = write_program(&dir, "nats.stg", NATS);
    let profile = dir.join("nats.pgcl");
    for signals in [
        &[libc::SIGTERM][..],
        &[libc::SIGTERM, libc::SIGTERM],
        &[libc::SIGHUP],
    ] {
        let mut child = start(&src, &[], &profile, Stdio::piped());
        // Held, never read: the pipe fills and the next write blocks.
        let _reader = child.stdout.take().unwrap();
        let (status, took, stderr) = signal_and_wait(&mut child, signals);
        assert_stopped_as_interrupted(status, took, &stderr, &profile);
        std::fs::remove_file(&profile).unwrap();
    }
}

/// The trace goes to standard error; when that pipe is full, a signal
/// still stops the run at once.
#[test]
fn a_trace_blocked_on_a_full_pipe_stops_at_once() {
    let dir = scratch("robust_signals", "full_trace");
    let src = write_program(&dir, "spin.stg", LIVE_SPIN);
    let profile = dir.join("spin.pgcl");
    let mut child = start(&src, &["--trace"], &profile, Stdio::null());
    let (status, took, stderr) = signal_and_wait(&mut child, &[libc::SIGINT]);
    // The message comes after what the pipe held of the trace.
    let last = stderr.rfind("stg-run: ").map_or("", |i| &stderr[i..]);
    assert_stopped_as_interrupted(status, took, last, &profile);
}

/// A signal that comes after the machine's last look, while the results
/// are written, still gives 130 and a message. Here the profile goes to a
/// FIFO that nobody opens: the wait for a reader ends with the signal.
#[test]
fn a_signal_while_the_results_are_written_gives_130() {
    let dir = scratch("robust_signals", "results");
    let fifo = dir.join("p.pgcl");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let mut child = start(&program("nfib.stg"), &[], &fifo, Stdio::piped());
    let (status, took, stderr) = signal_and_wait(&mut child, &[libc::SIGTERM]);
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(took < STOP_WITHIN, "{took:?}");
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(out, "1973\n", "the run itself ended");
    assert!(
        stderr.contains("cannot write the profile to")
            && stderr.contains("interrupted (Ctrl-C or a termination signal) as the run ended"),
        "{stderr}"
    );
}

/// A pipe whose buffer is already full: a write to its write end blocks
/// until the read end (returned first, to be held) is read.
fn full_pipe() -> (std::os::fd::OwnedFd, std::os::fd::OwnedFd) {
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    let mut fds = [0; 2];
    // SAFETY: pipe(2) fills the two descriptors, which are then owned.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let (r, w) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    let fd = w.as_raw_fd();
    // SAFETY: fcntl and write on a descriptor this function owns.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
        let chunk = [b'x'; 4096];
        while libc::write(fd, chunk.as_ptr().cast(), chunk.len()) > 0 {}
        libc::fcntl(fd, libc::F_SETFL, flags);
    }
    (r, w)
}

/// A program with one warning (an empty cost-centre label).
const ONE_WARNING: &str = "main = {} \\u {} -> scc \"\" (I# {1#})\n";

/// Outside a run a signal ends the tool at once, with 130 and the
/// message: `--print` waiting on a full pipe (SIGHUP) ...
#[test]
fn a_signal_during_print_ends_at_once() {
    let dir = scratch("robust_signals", "print");
    let src = write_program(&dir, "p.stg", ONE_WARNING);
    let (_reader, writer) = full_pipe();
    let mut child = stg_run()
        .arg(&src)
        .arg("--print")
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (status, took, stderr) = signal_and_wait(&mut child, &[libc::SIGHUP]);
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(took < STOP_WITHIN, "{took:?}");
    assert!(
        stderr.ends_with("stg-run: interrupted (Ctrl-C or a termination signal); stopped\n"),
        "{stderr}"
    );
}

/// ... `--check` while its warning waits on a full standard error
/// (SIGTERM; the message then has no room and only the status tells) ...
#[test]
fn a_signal_during_check_ends_at_once() {
    let dir = scratch("robust_signals", "check");
    let src = write_program(&dir, "w.stg", ONE_WARNING);
    let (_reader, writer) = full_pipe();
    let mut child = stg_run()
        .arg(&src)
        .arg("--check")
        .stdout(Stdio::null())
        .stderr(Stdio::from(writer))
        .spawn()
        .unwrap();
    let (status, took, _) = signal_and_wait(&mut child, &[libc::SIGTERM]);
    assert_eq!(status.code(), Some(130));
    assert!(took < STOP_WITHIN, "{took:?}");
}

/// ... and `stg-prof` reading a standard input that never comes.
#[test]
fn a_signal_while_stg_prof_waits_for_input_ends_at_once() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_stg-prof"))
        .args(["report", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Held open, never written.
    let _writer = child.stdin.take().unwrap();
    let (status, took, stderr) = signal_and_wait(&mut child, &[libc::SIGTERM]);
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(took < STOP_WITHIN, "{took:?}");
    assert_eq!(
        stderr,
        "stg-prof: interrupted (Ctrl-C or a termination signal); stopped\n"
    );
    assert_eq!(text(&child.wait_with_output().unwrap().stdout), "");
}
