//! What the tests of the two binaries share: scratch directories, running
//! `stg-run` and `stg-prof`, and the real clients of the reports (Chromium,
//! Valgrind's `callgrind_annotate`, GHC's `hp2ps`), which a test skips with
//! a message where the tool is missing, unless `STG_RUN_REQUIRE_CLIENTS` is
//! set (`.ci/run` sets it and installs them), where it fails.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh, empty directory `<target tmp>/<group>/<test>`.
pub fn scratch(group: &str, test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(group)
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `programs/<name>`.
pub fn program(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("programs")
        .join(name)
}

/// Runs `stg-run programs/<program>.stg --reproducible --profile-file
/// <dir>/<program>.pgcl ARGS`; returns the profile's path and the run.
/// (Programs that stop on an error still write their profile.)
pub fn profile_of(dir: &Path, program_name: &str, args: &[&str]) -> (PathBuf, Output) {
    let file = dir.join(format!("{program_name}.pgcl"));
    let out = Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .arg(program(&format!("{program_name}.stg")))
        .args(["--reproducible", "--profile-file"])
        .arg(&file)
        .args(args)
        .output()
        .unwrap();
    assert!(
        file.exists(),
        "{program_name}: no profile written; {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (file, out)
}

/// Runs `stg-run ARGS`, unchecked.
pub fn stg_run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .args(args)
        .output()
        .expect("stg-run starts")
}

/// Make `command` run with its address space limited to `bytes`, as
/// `ulimit -v` limits it (`RLIMIT_AS`, soft and hard). Where the limit
/// cannot be set (a hard limit already lower, which an unprivileged
/// process cannot raise), the command fails to start with that error:
/// the test then skips with a message.
pub fn limit_address_space(command: &mut Command, bytes: u64) -> &mut Command {
    use std::os::unix::process::CommandExt;
    let limit = bytes as libc::rlim_t;
    // SAFETY: the closure runs in the child between `fork` and `exec`,
    // where it calls only `setrlimit`, which is async-signal-safe, on a
    // value it owns.
    unsafe {
        command.pre_exec(move || {
            let rl = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &rl) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        })
    }
}

/// Runs `stg-run ARGS` in `dir` with its address space limited to
/// `bytes` ([`limit_address_space`]), or says why it could not.
pub fn stg_run_address_limited(dir: &Path, bytes: u64, args: &[&str]) -> Result<Output, String> {
    limit_address_space(
        Command::new(env!("CARGO_BIN_EXE_stg-run"))
            .current_dir(dir)
            .args(args),
        bytes,
    )
    .output()
    .map_err(|e| format!("cannot limit the address space to {bytes} bytes: {e}"))
}

/// Output bytes as text (lossy: a test then shows what it got).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The number that begins `--stats`' first line containing `what` (in
/// `stderr`), its commas taken out: `stats_figure(e, "bytes maximum
/// residency")`.
pub fn stats_figure(stderr: &str, what: &str) -> u64 {
    let line = stderr
        .lines()
        .find(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no `{what}` in --stats:\n{stderr}"));
    line.split_whitespace()
        .next()
        .and_then(|n| n.replace(',', "").parse().ok())
        .unwrap_or_else(|| panic!("no number at the start of {line:?}"))
}

/// Runs `stg-run ARGS` in `dir`, which must succeed.
pub fn stg_run_in(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "stg-run {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs `stg-prof ARGS FILE`, unchecked.
pub fn stg_prof_run(args: &[&str], file: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stg-prof"))
        .args(args)
        .arg(file)
        .output()
        .unwrap()
}

/// `stg-prof ARGS FILE`'s standard output; it must succeed.
pub fn stg_prof(args: &[&str], file: &Path) -> String {
    let out = stg_prof_run(args, file);
    assert!(
        out.status.success(),
        "stg-prof {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Is `tool` here? It is if `tool PROBE` prints `says` (on either stream:
/// some tools print their version and exit non-zero). If not, fails where
/// `STG_RUN_REQUIRE_CLIENTS` is set, else says the test is skipped.
pub fn have(tool: &str, probe: &str, says: &str, package: &str) -> bool {
    let found = Command::new(tool)
        .arg(probe)
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&[o.stdout, o.stderr].concat()).contains(says));
    if !found {
        assert!(
            std::env::var_os("STG_RUN_REQUIRE_CLIENTS").is_none(),
            "{tool} is missing; .ci/run installs {package}"
        );
        eprintln!("skipped: {tool} not found (apt-get install {package})");
    }
    found
}

/// Headless Chromium, if it is here (see [`have`]).
pub fn chromium() -> bool {
    have("chromium", "--version", "Chromium", "chromium")
}

/// The flags every headless-Chromium test starts Chromium with: the list
/// of `tests/chromium_args.mjs`, which the Node drivers import, read from
/// that file so that there is one list.
fn chromium_args() -> Vec<&'static str> {
    let file = include_str!("../chromium_args.mjs");
    let list = file
        .split_once("CHROMIUM_ARGS = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("tests/chromium_args.mjs exports CHROMIUM_ARGS = [...]")
        .0;
    let args: Vec<&str> = list
        .split(',')
        .map(|a| a.trim().trim_matches('"'))
        .filter(|a| !a.is_empty())
        .collect();
    assert!(
        !args.is_empty() && args.iter().all(|a| a.starts_with("--")),
        "tests/chromium_args.mjs: CHROMIUM_ARGS should be a list of \"--flag\" strings, not {args:?}"
    );
    args
}

/// The DOM of the page at `url` after its scripts ran, from headless
/// Chromium with a fresh profile in `dir` (with the flags of
/// `tests/chromium_args.mjs`).
pub fn dump_dom(dir: &Path, url: &str) -> String {
    let out = Command::new("chromium")
        .arg("--headless")
        .args(chromium_args())
        .arg(format!(
            "--user-data-dir={}",
            dir.join("chromium").display()
        ))
        .arg("--dump-dom")
        .arg(url)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `tests/explorer`: the Node packages the explorer's tests use
/// (`package.json`; `npm ci` there installs them, as `.ci/run` does).
pub fn explorer_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/explorer")
}

/// Are Node and the package `name` of `tests/explorer` installed? If not,
/// fails where `STG_RUN_REQUIRE_CLIENTS` is set, else says the test is
/// skipped.
pub fn node_package(name: &str) -> bool {
    if !have("node", "--version", "v", "nodejs") {
        return false;
    }
    let found = explorer_dir()
        .join("node_modules")
        .join(name)
        .join("package.json")
        .exists();
    if !found {
        assert!(
            std::env::var_os("STG_RUN_REQUIRE_CLIENTS").is_none(),
            "the Node package {name} is missing: run `npm ci` in tests/explorer (.ci/run does)"
        );
        eprintln!("skipped: {name} not installed (run `npm ci` in tests/explorer)");
    }
    found
}

/// Runs `command` to its end with its output captured, and returns the
/// output with the child's peak resident set size in kilobytes (from
/// `wait4`, which reports that child's own figure, whatever other
/// children the test process runs at the same time).
// The child is waited for by `wait4`, which clippy does not know.
#[allow(clippy::zombie_processes)]
pub fn output_and_peak_rss(command: &mut Command) -> (Output, u64) {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            pipe.read_to_end(&mut bytes).unwrap();
            bytes
        })
    };
    let stdout = read(Box::new(child.stdout.take().unwrap()));
    let stderr = read(Box::new(child.stderr.take().unwrap()));
    let mut status = 0;
    // SAFETY: `rusage` is plain data that `wait4` fills in; the child is
    // ours and not yet waited for (`Child::wait` is never called).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "wait4 failed");
    use std::os::unix::process::ExitStatusExt;
    let output = Output {
        status: std::process::ExitStatus::from_raw(status),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    };
    (output, usage.ru_maxrss as u64)
}

/// A loop that never ends, with 20,000 list cells live (a CAF), so that a
/// census costs milliseconds: a run with a census at every step is slow
/// enough to signal or watch (robust_signals, robust_heap_profile).
pub const LIVE_SPIN: &str = "\
one = {} \\r {} -> I# {1#}
big = {} \\r {} -> I# {20000#}
xs = {} \\u {} -> enumFromTo {one, big}
loop = {} \\r {n} -> case n of I# {k} -> case +# {k, 1#} of m -> let b = {m} \\r {} -> I# {m} in loop {b}
main = {} \\u {} -> case length {xs} of I# {l} -> loop {one}
";

/// `tests/browser`, where the Node scripts that drive the real clients
/// live, with their npm packages (`npm ci --prefix tests/browser`).
pub fn browser_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

/// Node and the npm packages of `tests/browser` (playwright-core, ajv,
/// speedscope), with Chromium, if they are here (see [`have`]).
pub fn browser_tools() -> bool {
    let installed = browser_dir()
        .join("node_modules/playwright-core/package.json")
        .is_file()
        && browser_dir()
            .join("node_modules/speedscope/package.json")
            .is_file();
    if !installed {
        assert!(
            std::env::var_os("STG_RUN_REQUIRE_CLIENTS").is_none(),
            "tests/browser's npm packages are missing; .ci/run installs them (npm ci --prefix tests/browser)"
        );
        eprintln!("skipped: tests/browser/node_modules missing (npm ci --prefix tests/browser)");
        return false;
    }
    have("node", "--version", "v", "nodejs") && chromium()
}

/// Runs `node tests/browser/<script> ARGS`; it must succeed. Returns its
/// standard output.
pub fn node<S: AsRef<std::ffi::OsStr>>(script: &str, args: &[S]) -> String {
    let out = Command::new("node")
        .arg(browser_dir().join(script))
        .args(args)
        .output()
        .expect("node starts");
    assert!(
        out.status.success(),
        "node {script}: status {:?}\n{}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
