//! Memory limits are limits (issue 27): a heap or stacks that grow without
//! end stop with status 3, a message naming the limit, and the profile
//! written, and the process's peak resident memory stays within the limit
//! (plus what the same binary takes for a program that needs nothing). The
//! child's peak is read from `wait4`'s resource usage. Without flags the
//! limits are shares of the memory available, a memory cgroup's limit
//! included: in a cgroup the run stops with status 3, not the OOM killer.
//! (Sized for CI: limits of tens of megabytes, a second or two each.)

mod cli_common;
mod profile_fixture;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use cli_common::scratch;
use stg_run::internal::profile::format;

/// A list that a top-level thunk keeps alive while `length` walks it:
/// the heap grows until the limit stops it.
const GROWING_HEAP: &str = "\
one = {} \\r {} -> I# {1#}
xs = {} \\u {} -> enumFrom {one}
main = {} \\u {} -> case length {xs} of n -> sum {xs}
";

/// A recursion that is not a tail call, on `Int#`s: the stacks grow, the
/// heap does not.
const GROWING_STACK: &str = "\
down = {} \\r {n#} ->
  case n# of
    0# -> 0#
    default -> case -# {n#, 1#} of
                 m# -> case down {m#} of
                         r# -> +# {r#, 1#}
main = {} \\u {} -> case down {4000000000000#} of r# -> I# {r#}
";

const QUICK: &str = "main = {} \\u {} -> I# {1#}\n";

/// What a finished child gave: its status code (`None`: killed by a
/// signal), standard error, and peak resident memory in bytes.
struct Finished {
    code: Option<i32>,
    signal: Option<i32>,
    stderr: String,
    peak_rss: u64,
}

/// Runs `program args`, waiting for it with `wait4` to read its peak
/// resident memory (so the `Child` itself is never waited for).
fn run_measured(program: &str, args: &[&str]) -> Finished {
    let mut command = Command::new(program);
    command.args(args);
    run_command(&mut command).unwrap_or_else(|e| panic!("{program} starts: {e}"))
}

/// [`run_measured`] of a command made ready, or why it did not start.
#[allow(clippy::zombie_processes)]
fn run_command(command: &mut Command) -> std::io::Result<Finished> {
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = pipe.read_to_string(&mut s);
        s
    });
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not yet waited for (std's `Child`
    // only waits when asked to); `status` and `usage` are valid, writable
    // and live for the call.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4: {}", std::io::Error::last_os_error());
    let stderr = reader.join().unwrap();
    Ok(Finished {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
        stderr,
        peak_rss: usage.ru_maxrss as u64 * 1024,
    })
}

/// `stg-run args` with its address space limited to `bytes`, as `ulimit
/// -v` limits it, or why that is impossible here.
fn run_address_limited(bytes: u64, args: &[&str]) -> Result<Finished, String> {
    let mut command = Command::new(stg_run());
    command.args(args);
    run_command(cli_common::limit_address_space(&mut command, bytes))
        .map_err(|e| format!("cannot limit the address space to {bytes} bytes: {e}"))
}

/// The address-space limit the stack tests run under: room for the
/// binary, a small heap and its worker thread's stack reservation, and
/// far less than the stacks' default share of memory would take.
const ADDRESS_SPACE: u64 = 1536 << 20;

/// A stack-growing run under [`ADDRESS_SPACE`] with `flags`, on both
/// engines: status 3, not an abort, the profile written, and both
/// engines' standard error the same, which it returns (`None`: skipped).
fn stack_run_in_limited_address_space(test: &str, flags: &[&str]) -> Option<String> {
    let mut stderrs = vec![];
    for engine in ["fast", "reference"] {
        let dir = scratch("robust_memory", &format!("{test}_{engine}"));
        let prog = write(&dir, "grow.stg", GROWING_STACK);
        let profile = dir.join("grow.pgcl");
        let mut args = vec![
            prog.to_str().unwrap(),
            "--engine",
            engine,
            "--max-heap",
            "64M",
            "--profile-file",
            profile.to_str().unwrap(),
        ];
        args.extend_from_slice(flags);
        let f = match run_address_limited(ADDRESS_SPACE, &args) {
            Ok(f) => f,
            Err(why) => {
                eprintln!("skipped: {why}");
                return None;
            }
        };
        assert_eq!(
            (f.code, f.signal),
            (Some(3), None),
            "{engine}: a runtime error, not an abort: {}",
            f.stderr
        );
        assert!(
            std::fs::metadata(&profile).is_ok_and(|m| m.len() > 0),
            "{engine}: the profile is written: {}",
            f.stderr
        );
        stderrs.push(f.stderr.replace(prog.to_str().unwrap(), "grow.stg"));
    }
    assert_eq!(stderrs[0], stderrs[1], "both engines stop alike");
    stderrs.pop()
}

/// The default `--max-stack` is at most a quarter of the address space
/// left under `ulimit -v` (as the heap's default is at most what the
/// system would reserve), so deep recursion stops at that limit instead
/// of the allocation of a grown stack aborting the process.
#[test]
fn the_default_max_stack_fits_the_address_space_limit() {
    let Some(stderr) = stack_run_in_limited_address_space("as_default", &[]) else {
        return;
    };
    assert!(
        stderr.contains("stack overflow: the stacks passed")
            && stderr.contains("of address space left under the process's limit (ulimit -v)"),
        "the limit is the address space's share, and says so: {stderr}"
    );
}

/// Under a `--max-stack` larger than the address space allows, the
/// stacks' growth fails cleanly: a stack overflow naming the memory the
/// system would not give, after the same steps on both engines.
#[test]
fn stacks_the_system_cannot_grow_stop_with_an_error() {
    let Some(stderr) = stack_run_in_limited_address_space("as_explicit", &["--max-stack", "64G"])
    else {
        return;
    };
    assert!(
        stderr.contains("stack overflow: the stacks passed")
            && stderr.contains("the system would not give them more memory")
            && stderr.contains("ulimit -v"),
        "the message says what ran out and what to do: {stderr}"
    );
}

fn stg_run() -> &'static str {
    env!("CARGO_BIN_EXE_stg-run")
}

/// Writes `text` to `dir/name`; its path.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The peak resident memory of a run that needs (almost) nothing: the
/// binary, its libraries, the Prelude and the first heap space.
fn baseline(dir: &Path, engine: &str) -> u64 {
    let quick = write(dir, "quick.stg", QUICK);
    let f = run_measured(stg_run(), &[quick.to_str().unwrap(), "--engine", engine]);
    assert_eq!(f.code, Some(0), "{}", f.stderr);
    f.peak_rss
}

/// Room for what the limited part does not count: the stacks of a
/// heap-growing run (or the heap of a stack-growing one), the profile
/// being built, allocator slack.
const SLACK: u64 = 4 << 20;

/// A growing run under `--max-heap`/`--max-stack` `limit`: status 3,
/// the message, the profile, and peak memory within the limit.
fn stops_within(test: &str, program: &str, flag: &str, limit: u64, message: &str) {
    for engine in ["fast", "reference"] {
        let dir = scratch("robust_memory", &format!("{test}_{engine}"));
        let base = baseline(&dir, engine);
        let prog = write(&dir, "grow.stg", program);
        let profile = dir.join("grow.pgcl");
        let limit_arg = limit.to_string();
        let f = run_measured(
            stg_run(),
            &[
                prog.to_str().unwrap(),
                "--engine",
                engine,
                flag,
                &limit_arg,
                "--profile-file",
                profile.to_str().unwrap(),
            ],
        );
        assert_eq!(f.code, Some(3), "{engine}: {}", f.stderr);
        assert!(
            f.stderr.contains(message) && f.stderr.contains(flag),
            "{engine}: the message names the limit: {}",
            f.stderr
        );
        assert!(
            f.stderr.contains(&format!("{limit} bytes")),
            "{engine}: the message gives the limit: {}",
            f.stderr
        );
        eprintln!(
            "{test} {engine}: peak RSS {} bytes, baseline {base}, limit {limit}",
            f.peak_rss
        );
        let written = std::fs::metadata(&profile).map(|m| m.len()).unwrap_or(0);
        assert!(written > 0, "{engine}: the profile is written");
        assert!(
            f.peak_rss <= base + limit + SLACK,
            "{engine}: peak RSS {} bytes passes the limit {limit} plus the baseline {base} and {SLACK}",
            f.peak_rss
        );
    }
}

#[test]
fn a_growing_heap_stays_within_max_heap() {
    stops_within(
        "heap",
        GROWING_HEAP,
        "--max-heap",
        24 << 20,
        "heap exhausted",
    );
}

#[test]
fn growing_stacks_stay_within_max_stack() {
    stops_within(
        "stack",
        GROWING_STACK,
        "--max-stack",
        24 << 20,
        "stack overflow",
    );
}

/// How to run a command inside a fresh memory cgroup limited to `bytes`,
/// or why that is impossible here. cgroup v1: a child of this process's
/// own memory cgroup, made directly (needs root); cgroup v2: a transient
/// scope made by `systemd-run` (needs systemd).
enum Cgroup {
    V1 { dir: PathBuf },
    SystemdRun,
}

impl Cgroup {
    fn make(bytes: u64) -> Result<Cgroup, String> {
        let cgroups = std::fs::read_to_string("/proc/self/cgroup").map_err(|e| e.to_string())?;
        let v1 = cgroups.lines().find_map(|l| {
            let mut parts = l.splitn(3, ':');
            parts.next()?;
            let controllers = parts.next()?;
            let path = parts.next()?;
            controllers
                .split(',')
                .any(|c| c == "memory")
                .then(|| path.to_string())
        });
        if let Some(path) = v1 {
            let mount = Path::new("/sys/fs/cgroup/memory");
            let own = mount.join(path.trim_start_matches('/'));
            let own = if own.is_dir() {
                own
            } else {
                mount.to_path_buf()
            };
            let dir = own.join(format!("stg-run-robust-memory-{}", std::process::id()));
            std::fs::create_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let cg = Cgroup::V1 { dir: dir.clone() };
            std::fs::write(dir.join("memory.limit_in_bytes"), bytes.to_string())
                .map_err(|e| format!("{}: {e}", dir.display()))?;
            // No swap to escape to, where the kernel has the file.
            let _ = std::fs::write(dir.join("memory.memsw.limit_in_bytes"), bytes.to_string());
            return Ok(cg);
        }
        let probe = Command::new("systemd-run")
            .args(["--scope", "--quiet", "-p", "MemoryMax=64M", "true"])
            .stderr(Stdio::null())
            .status();
        match probe {
            Ok(s) if s.success() => Ok(Cgroup::SystemdRun),
            _ => Err("no cgroup v1 memory controller and no working systemd-run".into()),
        }
    }

    /// `stg-run args` inside the cgroup.
    fn run(&self, bytes: u64, args: &[&str]) -> Finished {
        match self {
            Cgroup::V1 { dir } => {
                // The shell joins the cgroup, then becomes stg-run.
                let script = format!(
                    "echo $$ > '{}/cgroup.procs' && exec \"$0\" \"$@\"",
                    dir.display()
                );
                let mut all = vec!["-c", script.as_str(), stg_run()];
                all.extend_from_slice(args);
                run_measured("sh", &all)
            }
            Cgroup::SystemdRun => {
                let max = format!("MemoryMax={bytes}");
                let mut all = vec![
                    "--scope",
                    "--quiet",
                    "-p",
                    max.as_str(),
                    "-p",
                    "MemorySwapMax=0",
                    stg_run(),
                ];
                all.extend_from_slice(args);
                run_measured("systemd-run", &all)
            }
        }
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        if let Cgroup::V1 { dir } = self {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

#[test]
fn default_limits_in_a_memory_cgroup_stop_with_status_3() {
    const CGROUP_BYTES: u64 = 160 << 20;
    let cgroup = match Cgroup::make(CGROUP_BYTES) {
        Ok(c) => c,
        Err(why) => {
            eprintln!("skipped: cannot make a memory cgroup here ({why})");
            return;
        }
    };
    let dir = scratch("robust_memory", "cgroup");
    for (name, program, message) in [
        ("heap", GROWING_HEAP, "heap exhausted"),
        ("stack", GROWING_STACK, "stack overflow"),
    ] {
        let prog = write(&dir, &format!("{name}.stg"), program);
        let profile = dir.join(format!("{name}.pgcl"));
        let f = cgroup.run(
            CGROUP_BYTES,
            &[
                prog.to_str().unwrap(),
                "--profile-file",
                profile.to_str().unwrap(),
            ],
        );
        assert_eq!(
            (f.code, f.signal),
            (Some(3), None),
            "{name}: stopped by its limit, not killed: {}",
            f.stderr
        );
        assert!(
            f.stderr.contains(message)
                && f.stderr
                    .contains(&format!("{CGROUP_BYTES}-byte limit of the memory cgroup")),
            "{name}: the message names the default limit and the cgroup: {}",
            f.stderr
        );
        assert!(
            std::fs::metadata(&profile).is_ok_and(|m| m.len() > 0),
            "{name}: the profile is written"
        );
        eprintln!("cgroup {name}: peak RSS {} bytes", f.peak_rss);
        assert!(f.peak_rss <= CGROUP_BYTES, "{name}: {} bytes", f.peak_rss);
    }
}

/// Under an address-space limit below the worker thread's usual 1 GiB
/// stack reservation, `stg-run` starts its worker on a smaller stack
/// (which the deepest chain the parser accepts still fits) instead of
/// refusing to run at all.
#[test]
fn runs_under_an_address_space_limit_smaller_than_the_worker_stack() {
    const LIMIT: u64 = 900 << 20;
    let dir = scratch("robust_memory", "worker_stack");
    write(&dir, "quick.stg", QUICK);
    let mut chain = String::from("main = {} \\u {} ->\n");
    for _ in 0..stg_run::internal::stg::layout::MAX_CHAIN - 10 {
        chain.push_str("  let a = {} \\r {} -> Nil {}\n  in\n");
    }
    chain.push_str("  a\n");
    write(&dir, "chain.stg", &chain);
    for args in [&["quick.stg"][..], &["--print", "chain.stg"]] {
        let out = match cli_common::stg_run_address_limited(&dir, LIMIT, args) {
            Ok(out) => out,
            Err(why) => {
                eprintln!("skipped: {why}");
                return;
            }
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

/// `stg-prof` holds a whole profile in memory, tens of times its file's
/// size. When the system refuses it memory (here `ulimit -v` 100 MiB
/// against the 200 MB a report of a 500,000-deep chain takes), it says so
/// and what to do, with status 1: not Rust's abort (SIGABRT, status 134).
/// `merge` leaves no output behind. A small profile runs under the same
/// limit.
#[test]
fn stg_prof_out_of_memory_is_a_message_not_an_abort() {
    const LIMIT: u64 = 100 << 20;
    let chain = |depth| format::try_write(&profile_fixture::chain(depth)).unwrap();
    let dir = scratch("robust_memory", "stg_prof_oom");
    let small = dir.join("small.pgcl");
    std::fs::write(&small, chain(3)).unwrap();
    let big = dir.join("big.pgcl");
    std::fs::write(&big, chain(500_000)).unwrap();
    let merged = dir.join("merged.pgcl");
    let stg_prof = |args: &[&Path]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_stg-prof"));
        command.args(args).stdout(Stdio::null());
        run_command(cli_common::limit_address_space(&mut command, LIMIT))
    };
    let report = Path::new("report");
    match stg_prof(&[report, &small]) {
        Ok(f) => assert_eq!(f.code, Some(0), "a small profile fits: {}", f.stderr),
        Err(e) => {
            eprintln!("skipped: cannot limit the address space: {e}");
            return;
        }
    }
    let runs: [&[&Path]; 3] = [
        &[report, &big],
        &[Path::new("speedscope"), &big],
        &[Path::new("merge"), &big, &big, Path::new("-o"), &merged],
    ];
    for args in runs {
        let f = stg_prof(args).unwrap();
        assert_eq!(
            (f.code, f.signal),
            (Some(1), None),
            "{args:?}: {}",
            f.stderr
        );
        assert!(
            f.stderr
                .starts_with("stg-prof: out of memory: could not allocate ")
                && f.stderr.contains("raise the memory limit (`ulimit -v`)")
                && f.stderr.ends_with(".\n")
                && f.stderr.lines().count() == 1,
            "{args:?}: {}",
            f.stderr
        );
    }
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name != "small.pgcl" && name != "big.pgcl")
        .collect();
    assert!(left.is_empty(), "merge left {left:?}");
}

/// `sum` builds a list of 300,000 cells that stays live for `length`:
/// about 17 MB of heap, whose biographies' table (4 bytes a heap word in
/// use) grows with it.
const LIVE_LIST: &str = "\
one = {} \\r {} -> I# {1#}
limit = {} \\r {} -> I# {300000#}
main = {} \\u {} ->
  let xs = {} \\u {} -> enumFromTo {one, limit}
  in let s = {xs} \\u {} -> sum {xs}
         n = {xs} \\u {} -> length {xs}
     in divInt {s, n}
";

/// Runs under address-space limits from 64 MiB up, in steps of 8 MiB, of
/// a biographical and a retainer heap profile and of the explorer:
/// wherever the system refuses memory (the heap's reservation, which is
/// then smaller; the stacks; the biographies' table as it grows, or as a
/// major collection moves it; a census's or the page's own), the run ends
/// with a message and a status, never an abort. Before, a major
/// collection's move of the table (`Vec::split_off`), the retainer
/// census's work list and the explorer's records aborted the process
/// (SIGABRT) under some of these limits. Now a refused table or census
/// is given up, the censuses so far kept (status 1, the message says so),
/// and any other refusal is one line (status 1, `cli::memory`). Each scan
/// stops after three runs in a row that end well; the heap profiles' must
/// have seen a census given up.
#[test]
fn runs_under_address_space_limits_never_abort() {
    let dir = scratch("robust_memory", "address_space_scan");
    let prog = write(&dir, "live.stg", LIVE_LIST);
    let prog = prog.to_str().unwrap();
    let scans: [&[&str]; 3] = [
        &["--heap-profile=biography", "--heap-interval=1000000"],
        &["--heap-profile=retainer", "--heap-interval=1000000"],
        &["--explain=live.html", "--max-steps=200000"],
    ];
    for flags in scans {
        let (mut seen, mut gave_up, mut fine_in_a_row) = (vec![], 0, 0);
        let mut limit: u64 = 64 << 20;
        while fine_in_a_row < 3 {
            assert!(
                limit <= 2 << 30,
                "{flags:?}: no run ended well under 2 GiB: {seen:?}"
            );
            let mut command = Command::new(stg_run());
            command
                .args([prog, "--max-heap", "64M"])
                .args(flags)
                .current_dir(&dir);
            let f = match run_command(cli_common::limit_address_space(&mut command, limit)) {
                Ok(f) => f,
                Err(why) => {
                    eprintln!("skipped: cannot limit the address space: {why}");
                    return;
                }
            };
            let at = format!("{flags:?} at {} MiB", limit >> 20);
            assert_eq!(f.signal, None, "{at}: killed by a signal: {}", f.stderr);
            let table = f
                .stderr
                .contains("the biographical profile's table beside the heap")
                || f.stderr.contains(
                    "the retainers of the live closures, which the system would not give",
                );
            let refused = f
                .stderr
                .starts_with("stg-run: out of memory: could not allocate ")
                && f.stderr.lines().count() == 1
                && f.stderr.contains("without its profile");
            let explained = f
                .stderr
                .contains("stg-run: the explorer page live.html shows");
            match f.code {
                Some(0) => assert!(f.stderr.is_empty() || explained, "{at}: {}", f.stderr),
                Some(1) => assert!(table || refused, "{at}: {}", f.stderr),
                Some(3) => assert!(
                    f.stderr.starts_with("stg-run: runtime error: "),
                    "{at}: {}",
                    f.stderr
                ),
                other => panic!("{at}: status {other:?}: {}", f.stderr),
            }
            if table {
                gave_up += 1;
                assert!(
                    f.stderr.contains("ulimit -v") && dir.join("live.hp").exists(),
                    "{at}: the message says what to do, and the censuses so far are written: {}",
                    f.stderr
                );
            }
            // The explorer's run stops at --max-steps: status 3, with the page.
            let fine = f.code == Some(0) || (explained && f.code == Some(3));
            fine_in_a_row = if fine { fine_in_a_row + 1 } else { 0 };
            seen.push((limit >> 20, f.code));
            limit += 8 << 20;
        }
        if flags[0].starts_with("--heap-profile") {
            assert!(
                gave_up > 0,
                "{flags:?}: no limit made the census give up: {seen:?}"
            );
        }
        eprintln!("{flags:?}: {seen:?}");
    }
}

/// A heap that the system would not reserve at its `--max-heap` is
/// smaller, and when a program needs more, the error says that a larger
/// `--max-heap` would not help: the address space would.
#[test]
fn a_heap_the_system_would_not_reserve_says_what_would_help() {
    let dir = scratch("robust_memory", "heap_reserved_less");
    let prog = write(&dir, "live.stg", LIVE_LIST);
    let f = match run_address_limited(100 << 20, &[prog.to_str().unwrap(), "--max-heap", "1G"]) {
        Ok(f) => f,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    assert_eq!((f.code, f.signal), (Some(3), None), "{}", f.stderr);
    assert!(
        f.stderr.contains("heap exhausted")
            && f.stderr
                .contains("under the 1073741824 bytes --max-heap asked for")
            && f.stderr
                .contains("give the process more address space (ulimit -v)")
            && !f.stderr.contains("raise it with --max-heap"),
        "{}",
        f.stderr
    );
}
