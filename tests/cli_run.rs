//! `stg-run` as a command: exit statuses (0 success, 1 rejected program or
//! unreadable/unwritable file, 2 bad command line, 3 runtime error or limit,
//! 130 interrupted;
//! the doc comment at the top of src/bin/stg-run.rs), `--help`, errors about
//! files and sizes, `--stats`, `--trace`, `--profile`'s default file.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use stg_run::internal::profile::format;

mod cli_common;
use cli_common::{stats_figure, stg_run, text};

fn programs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("programs")
}

fn program(name: &str) -> String {
    programs_dir()
        .join(format!("{name}.stg"))
        .to_str()
        .unwrap()
        .to_string()
}

fn scratch(test: &str) -> PathBuf {
    cli_common::scratch("cli_run", test)
}

fn total_ticks(file: &Path) -> u64 {
    let profile = format::read(&std::fs::read(file).unwrap()).unwrap();
    profile.entries.iter().map(|e| e.counters.ticks).sum()
}

/// `--profile-file` through a symbolic link replaces the file it names and
/// keeps the link.
#[cfg(unix)]
#[test]
fn profile_file_through_a_symlink_keeps_the_link() {
    let dir = scratch("symlink");
    std::fs::write(dir.join("target.pgcl"), "old").unwrap();
    let link = dir.join("link.pgcl");
    std::os::unix::fs::symlink("target.pgcl", &link).unwrap();
    let out = stg_run(&[
        program("paper_map_scc").as_str(),
        "--profile-file",
        link.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
    assert!(total_ticks(&dir.join("target.pgcl")) > 0);
}

/// A device is written to, not replaced by a file: `/dev/full`'s "no space
/// left" is an error (exit status 1, or the run's own status after a
/// runtime error), and the device is still there.
#[cfg(target_os = "linux")]
#[test]
fn profile_file_on_a_full_device_is_an_error() {
    use std::os::unix::fs::FileTypeExt;
    let full = Path::new("/dev/full");
    let is_device = |p: &Path| p.metadata().is_ok_and(|m| m.file_type().is_char_device());
    if !is_device(full) {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let out = stg_run(&[
        program("paper_map_scc").as_str(),
        "--profile-file",
        "/dev/full",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("cannot write the profile to /dev/full")
            && err.contains("No space left")
            && err.contains(
                "free some space on that disk, or write it elsewhere: another --profile-file"
            ),
        "{err}"
    );
    assert!(is_device(full), "/dev/full is still a device");
    // A trace that cannot be written stops the run, and the message names
    // the file.
    let out = stg_run(&[program("nfib").as_str(), "--trace-file", "/dev/full"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "stg-run: cannot write the trace to /dev/full: No space left on device (os error 28); \
         the run stopped there, and the file ends where the trace was cut off; free some \
         space on that disk, or write it elsewhere: another --trace-file\n"
    );
    // After a runtime error the run's status stays: 3, with both messages.
    let out = stg_run(&[program("no_match").as_str(), "--profile-file", "/dev/full"]);
    assert_eq!(out.status.code(), Some(3));
    let err = text(&out.stderr);
    assert!(
        err.contains("no matching alternative") && err.contains("No space left"),
        "{err}"
    );
}

/// A program whose output (the numbers 1 to 1,000,000) is far larger than
/// any pipe or output buffer, so writes fail during the run.
fn long_output_program(dir: &Path) -> PathBuf {
    let path = dir.join("long_output.stg");
    std::fs::write(
        &path,
        "main = {} \\u {} -> enumFromTo {one, big}\n\
         one = {} \\r {} -> I# {1#}\n\
         big = {} \\r {} -> I# {1000000#}\n",
    )
    .unwrap();
    path
}

/// A write of the result that fails during the run stops it with one
/// message and status 1, as a failed final flush does; it is not the
/// program's runtime error, and the profile is still written.
#[cfg(target_os = "linux")]
#[test]
fn output_on_a_full_device_is_one_write_error() {
    let dir = scratch("output_full");
    let prog = long_output_program(&dir);
    let prof = dir.join("p.pgcl");
    let out = Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .args([
            prog.as_os_str(),
            "--profile-file".as_ref(),
            prof.as_os_str(),
        ])
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(
        err,
        "stg-run: cannot write the output: No space left on device (os error 28); free some \
         space on the disk it goes to\n"
    );
    assert!(total_ticks(&prof) > 0);
}

/// A reader that closes the pipe early stops the run quietly (status 0),
/// and the profile of the part that ran is written.
#[cfg(unix)]
#[test]
fn closed_pipe_stops_the_run_quietly() {
    use std::io::Read;
    let dir = scratch("closed_pipe");
    let prog = long_output_program(&dir);
    let prof = dir.join("p.pgcl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .args([
            prog.as_os_str(),
            "--profile-file".as_ref(),
            prof.as_os_str(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 8];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    assert_eq!(&first, b"[1,2,3,4");
    // The read end is closed here (dropped above).
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
    assert!(total_ticks(&prof) > 0);
}

/// A directory named as the profile file: an error that says so.
#[test]
fn profile_file_that_is_a_directory_is_an_error() {
    let dir = scratch("profile_dir");
    let out = stg_run(&[
        program("paper_map_scc").as_str(),
        "--profile-file",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("it is a directory; give a file name"), "{err}");
}

#[test]
fn exit_status_0_success() {
    let out = stg_run(&[program("paper_map_scc")]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "[2,4]\n");
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn exit_status_1_rejected_program_or_unreadable_file() {
    let dir = scratch("status1");
    let bad = dir.join("bad.stg");
    std::fs::write(&bad, "main = {} \\u {} -> foo {}\n").unwrap();
    let out = stg_run(&[&bad]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "a rejected program does not run");

    // A missing file: one clear line naming it.
    let missing = dir.join("no_such_file.stg");
    let out = stg_run(&[&missing]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "stg-run: cannot read {}: No such file or directory (os error 2)\n",
            missing.display()
        )
    );
    // A directory is not a source file.
    let out = stg_run(&[&dir]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(&format!("stg-run: cannot read {}: ", dir.display())),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // Bytes that are not UTF-8: where the first bad one is, and what to do.
    let latin1 = dir.join("latin1.stg");
    std::fs::write(&latin1, b"-- ok\n-- caf\xe9\nmain = {} \\u {} -> I# {1#}\n").unwrap();
    let out = stg_run(&[&latin1]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "stg-run: cannot read {0}: not UTF-8 text (byte 12, at {0}:2:7, starts an invalid sequence); save the file as UTF-8\n",
            latin1.display()
        )
    );
}

#[test]
fn exit_status_2_bad_command_line() {
    let p = program("paper_map_scc");
    for args in [
        vec![],                              // no file
        vec!["--no-such-flag", &p],          // unknown flag
        vec!["--engine=turbo", &p],          // bad value
        vec!["--cost-centres", "trees", &p], // bad value
        vec!["--max-steps", "many", &p],     // not a number
        vec!["--trace=xml", &p],             // bad format
        vec!["--check", "--print", &p],      // conflicting
        vec!["--max-heap", "10Q", &p],       // bad suffix
    ] {
        let out = stg_run(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing runs");
    }
}

#[test]
fn bad_sizes_say_what_is_wrong() {
    let p = program("paper_map_scc");
    for (flag, value, says) in [
        (
            "--max-heap",
            "10Q",
            "unknown size suffix `Q`: use K, M or G",
        ),
        (
            "--max-stack",
            "lots",
            "is not a size: write bytes, or a number with K, M or G",
        ),
        ("--max-heap", "99999999999999G", "is too large"),
    ] {
        let out = stg_run(&[flag, value, &p]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        let first = stderr.lines().next().unwrap();
        assert!(
            first.contains(&format!("'{value}'")) && first.contains(flag) && first.contains(says),
            "{flag} {value}: {first}"
        );
    }
    // A size too small to start names the limit as given, not the heap's
    // internal minimum.
    let out = stg_run(&["--max-heap=0", &p]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("a heap limit of 0 bytes holds")
            && stderr.contains("raise it with --max-heap"),
        "{stderr}"
    );
    // Good sizes are accepted (and big enough for the program).
    for size in ["64M", "64m", "1G", "100000000"] {
        let out = stg_run(&["--max-heap", size, "--max-stack", size, &p]);
        assert_eq!(out.status.code(), Some(0), "{size}: {}", text(&out.stderr));
    }
}

#[test]
fn exit_status_3_runtime_error_or_limit() {
    let dir = scratch("status3");
    for (args, says) in [
        (
            vec![program("no_match")],
            "stg-run: runtime error: no matching alternative for Nil",
        ),
        (
            vec![program("single_entry_twice")],
            "stg-run: runtime error: single-entry (\\s) closure",
        ),
        (
            vec![program("nfib"), "--max-steps".into(), "100".into()],
            "stg-run: runtime error: step limit of 100 reached; raise it with --max-steps",
        ),
        (
            vec![program("nfib"), "--max-heap".into(), "8K".into()],
            "stg-run: runtime error: heap exhausted",
        ),
    ] {
        let file = dir.join("p.pgcl");
        let _ = std::fs::remove_file(&file);
        let mut all = args.clone();
        all.extend([
            "--profile-file".to_string(),
            file.to_str().unwrap().to_string(),
        ]);
        let out = stg_run(&all);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {stderr}");
        assert!(stderr.starts_with(says), "{args:?}: {stderr}");
        assert!(stderr.contains("\n  cost centre: "), "{stderr}");
        assert!(file.exists(), "{args:?}: the profile is still written");
        if args.iter().any(|a| a == "--max-steps") {
            assert_eq!(total_ticks(&file), 100);
        }
    }
}

/// The Cli struct's fields, as flags: every `name: type` field of
/// `struct Cli` in src/bin/stg-run.rs but `files`, `snake_case` → `--kebab-case`.
/// Read from the source so that a new flag must be documented here too.
fn declared_flags() -> Vec<String> {
    let source =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bin/stg-run.rs"))
            .unwrap();
    let body = source
        .split("struct Cli {")
        .nth(1)
        .and_then(|rest| rest.split("\n}").next())
        .expect("struct Cli in src/bin/stg-run.rs");
    let flags: Vec<String> = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//") && !l.starts_with("#["))
        .filter_map(|l| l.split_once(':').map(|(name, _)| name.trim()))
        .filter(|name| !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        .filter(|name| *name != "files")
        .map(|name| format!("--{}", name.replace('_', "-")))
        .collect();
    assert!(flags.len() >= 15, "found only {flags:?}");
    flags
}

#[test]
fn help_mentions_and_explains_every_flag() {
    let out = stg_run(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    insta::assert_snapshot!("stg_run_help", help);
    let lines: Vec<&str> = help.lines().collect();
    for flag in declared_flags() {
        // The flag's line, then its description on the next line.
        let at = lines
            .iter()
            .position(|l| {
                let l = l.trim_start();
                l.starts_with(&format!("{flag} "))
                    || l.starts_with(&format!("{flag}["))
                    || *l == flag
            })
            .unwrap_or_else(|| panic!("--help does not mention {flag}"));
        let description = lines.get(at + 1).map(|l| l.trim()).unwrap_or("");
        assert!(
            description.len() > 20,
            "{flag} has no description in --help: {description:?}"
        );
    }
    // The examples name programs that exist.
    for word in help
        .split_whitespace()
        .filter(|w| w.starts_with("programs/"))
    {
        assert!(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(word).exists(),
            "--help's example names {word}, which does not exist"
        );
    }
    // And the exit statuses of the doc comment.
    assert!(help.contains("Exit status: 0 success; 1 static errors or unreadable files; 2 bad command line; 3 runtime error or limit reached"));
}

#[test]
fn stats_print_ghc_style_statistics() {
    let dir = scratch("stats");
    let file = dir.join("p.pgcl");
    // A heap small enough that the collector runs.
    let out = stg_run(&[
        program("queens").as_str(),
        "--stats",
        "--max-heap",
        "256K",
        "--reproducible",
        "--profile-file",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    let number = |what: &str| stats_figure(&stderr, what);
    let allocated = number("bytes allocated in the heap");
    let copied = number("bytes copied during GC");
    let residency = number("bytes maximum residency");
    let collections = number(" collections");
    let steps = number("machine steps");
    for field in [
        "Tot time (elapsed)  Avg pause  Max pause",
        "  Gen  0 ",
        "  Gen  1 ",
        "  MUT     time ",
        "  GC      time ",
        "  Total   time ",
        "  %GC     time ",
        "  Alloc rate ",
        "  Productivity ",
        "% of total user, ",
    ] {
        assert!(stderr.contains(field), "no `{field}` in --stats:\n{stderr}");
    }
    let profile = format::read(&std::fs::read(&file).unwrap()).unwrap();
    let words: u64 = profile.entries.iter().map(|e| e.counters.words).sum();
    assert_eq!(allocated, words * 8, "allocation agrees with the profile");
    assert_eq!(steps, total_ticks(&file), "steps agree with the profile");
    assert!(collections > 0, "a 256K heap collects: {stderr}");
    assert!(copied > 0 && residency > 0, "{stderr}");
    // Both generations' lines: `Gen  N  <colls> colls, <bytes> bytes copied ...`.
    let generation = |n: u32| -> (u64, u64) {
        let line = stderr
            .lines()
            .find(|l| l.starts_with(&format!("  Gen  {n} ")))
            .unwrap_or_else(|| panic!("no `Gen  {n}` in --stats:\n{stderr}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        let num = |w: &str| w.replace(',', "").parse::<u64>().unwrap();
        assert_eq!(
            (words[3], words[5], words[6]),
            ("colls,", "bytes", "copied")
        );
        (num(words[2]), num(words[4]))
    };
    let (minor, promoted) = generation(0);
    let (major, copied_major) = generation(1);
    assert_eq!(minor + major, collections, "{stderr}");
    assert_eq!(promoted + copied_major, copied, "{stderr}");
    assert!(
        major > 0,
        "the census-free run still collects at its end: {stderr}"
    );
    assert!(
        stderr.contains(&format!("({major} sample(s))")),
        "every major collection is a residency sample: {stderr}"
    );
    assert!(
        residency <= 256 * 1024,
        "residency within --max-heap: {stderr}"
    );
    // Without --stats, nothing on stderr.
    let quiet = stg_run(&[program("queens")]);
    assert_eq!(text(&quiet.stderr), "");
}

/// `--stats`' "total memory in use" is the process's peak resident set,
/// in MiB: at least the largest live heap it sampled (the heap is in
/// memory), and not a unit off (KiB taken for bytes or bytes for KiB).
#[test]
fn stats_total_memory_in_use_holds_the_residency() {
    let dir = scratch("stats_memory");
    let prog = dir.join("mean.stg");
    // programs/mean_retained.stg on 400,000 elements: the list, held for
    // `length` while `sum` builds it, is about 22 MB at its largest.
    let source = std::fs::read_to_string(program("mean_retained")).unwrap();
    let limit = "limit = {} \\r {} -> I# {5000#}";
    assert!(source.contains(limit), "mean_retained.stg's limit moved");
    std::fs::write(
        &prog,
        source.replace(limit, "limit = {} \\r {} -> I# {400000#}"),
    )
    .unwrap();
    let out = stg_run(&[prog.to_str().unwrap(), "--stats"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(text(&out.stdout).trim(), "200000");
    let residency = stats_figure(&stderr, "bytes maximum residency");
    let in_use_mib = stats_figure(
        &stderr,
        "MiB total memory in use (the process's peak resident set)",
    );
    assert!(
        residency > 4 << 20,
        "a major collection saw a few MB of the list live: {stderr}"
    );
    assert!(
        in_use_mib << 20 >= residency,
        "the peak resident set holds the live heap: {stderr}"
    );
    assert!(
        in_use_mib < 1024,
        "a run of some MB does not take a GiB: {stderr}"
    );
}

#[test]
fn trace_prints_one_line_per_step() {
    let dir = scratch("trace");
    for format in ["--trace", "--trace=text", "--trace=json"] {
        let file = dir.join("p.pgcl");
        let out = stg_run(&[
            program("paper_map_scc").as_str(),
            format,
            "--profile-file",
            file.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(
            text(&out.stdout),
            "[2,4]\n",
            "the trace goes to stderr only"
        );
        let stderr = text(&out.stderr);
        let steps = total_ticks(&file);
        assert_eq!(steps, 62, "paper_map_scc takes 62 steps");
        if format == "--trace=json" {
            // A header, a start record, the steps, the printer's demands,
            // an end record (tests/explain_trace.rs checks them).
            assert!(
                stderr
                    .lines()
                    .all(|l| l.starts_with('{') && l.ends_with('}'))
            );
            let records = stderr.lines().filter(|l| l.contains("\"event\":\"step\""));
            assert_eq!(records.count() as u64, steps, "{format}");
        } else {
            assert_eq!(stderr.lines().count() as u64, steps, "{format}");
            for (i, line) in stderr.lines().enumerate() {
                let n: usize = line.split_whitespace().next().unwrap().parse().unwrap();
                assert_eq!(n, i + 1, "{line}");
            }
        }
    }
}

#[test]
fn trace_file_keeps_the_trace_apart_from_errors() {
    let dir = scratch("trace_file");
    for (format, first) in [("--trace", "     1 "), ("--trace=json", "{\"format\":")] {
        let file = dir.join("t.trace");
        let out = stg_run(&[
            program("no_match").as_str(),
            format,
            "--trace-file",
            file.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(3));
        let stderr = text(&out.stderr);
        assert!(
            stderr.starts_with("stg-run: runtime error: no matching alternative"),
            "only the error on stderr: {stderr}"
        );
        let trace = std::fs::read_to_string(&file).unwrap();
        assert!(trace.starts_with(first), "{format}: {trace}");
        // Nothing but the trace's own lines: JSON objects, or numbered steps.
        assert!(
            trace.lines().all(|l| if format == "--trace" {
                l.split_whitespace().next().unwrap().parse::<u64>().is_ok()
            } else {
                l.starts_with('{') && l.ends_with('}')
            }),
            "{format}: {trace}"
        );
    }
    // --trace-file alone traces as text.
    let file = dir.join("plain.trace");
    let out = stg_run(&[
        program("paper_map_scc").as_str(),
        "--trace-file",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stderr), "");
    let trace = std::fs::read_to_string(&file).unwrap();
    assert_eq!(trace.lines().count(), 62);
    // A file that cannot be made: a clear message, status 1, no run.
    let out = stg_run(&[
        program("paper_map_scc").as_str(),
        "--trace-file",
        dir.join("no/such/dir/t.trace").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("cannot write the trace to"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn profile_flag_writes_stem_pgcl_in_the_current_directory() {
    let dir = scratch("default_profile");
    let out = Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .args([program("paper_map_scc").as_str(), "--profile"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let file = dir.join("paper_map_scc.pgcl");
    assert_eq!(total_ticks(&file), 62);
    let profile = format::read(&std::fs::read(&file).unwrap()).unwrap();
    assert!(
        profile.frequency > 0,
        "without --reproducible the header carries the steps per second"
    );
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["paper_map_scc.pgcl", "paper_map_scc.pgcl.src"],
        "the profile and its side file (source locations), nothing else"
    );
}

/// A closed standard error (`stg-run ... 2>&1 | head -1`) must not make
/// `stg-run` panic before it writes the profile (it did: `eprint!` of the
/// statistics panicked with "failed printing to stderr", exit 101, and no
/// profile).
#[test]
fn closed_stderr_does_not_lose_the_profile() {
    let dir = scratch("closed_stderr");
    for program_name in ["paper_map_scc", "no_match"] {
        let file = dir.join(format!("{program_name}.pgcl"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_stg-run"))
            .args([
                program(program_name).as_str(),
                "--stats",
                "--profile-file",
                file.to_str().unwrap(),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the read end before the program has printed anything.
        drop(child.stderr.take());
        let status = child.wait().unwrap();
        let want = if program_name == "no_match" { 3 } else { 0 };
        assert_eq!(status.code(), Some(want), "{program_name}");
        assert!(file.exists(), "{program_name}: the profile is written");
    }
}

/// Ctrl-C (SIGINT) during a run that would never end: exit status 130, the
/// message on standard error, and the profile of the steps done written (as
/// after a step limit), not lost.
#[cfg(unix)]
#[test]
fn interrupt_writes_the_profile_and_exits_130() {
    interrupted_run("interrupt", "kill -INT $1");
}

/// GNU `timeout` signals the process, then its process group: two signals
/// microseconds apart are one request, and the profile is still written.
#[cfg(unix)]
#[test]
fn two_signals_at_once_still_write_the_profile() {
    interrupted_run("interrupt_twice", "kill -TERM $1; kill -TERM $1");
}

/// Runs a program that never ends, sends it the signals of the shell
/// command `signals` (`$1` is its process id) after half a second, and
/// checks that it stopped as an interrupt does.
#[cfg(unix)]
fn interrupted_run(name: &str, signals: &str) {
    use std::time::{Duration, Instant};
    let dir = scratch(name);
    let src = dir.join("spin.stg");
    std::fs::write(
        &src,
        "one = {} \\r {} -> I# {1#}\n\
         loop = {} \\r {n} -> case n of I# {k} -> case +# {k, 1#} of m -> let b = {m} \\r {} -> I# {m} in loop {b}\n\
         main = {} \\u {} -> loop {one}\n",
    )
    .unwrap();
    let file = dir.join("spin.pgcl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .args([
            src.to_str().unwrap(),
            "--profile-file",
            file.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Let it start and run a while, then press Ctrl-C.
    std::thread::sleep(Duration::from_millis(500));
    // The shell's builtin `kill` (every system has `sh`; not every one has
    // procps' /bin/kill).
    let kill = Command::new("sh")
        .args(["-c", signals, "sh", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("stg-run did not stop within 60 s of `{signals}`");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("runtime error: interrupted"), "{stderr}");
    let steps: u64 = stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("after "))
        .and_then(|l| l.strip_suffix(" steps"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a step count in {stderr}"));
    assert!(steps > 0, "{stderr}");
    assert_eq!(
        total_ticks(&file),
        steps,
        "the profile holds every step done"
    );
}

/// A flag that changes nothing in the run it is given to is named, with
/// what it needs; the run goes on (status 0) and its output is unchanged.
#[test]
fn flags_without_effect_are_warned_about() {
    let nfib = program("nfib");
    let cases: [(&[&str], &[&str]); 5] = [
        (
            &["--reproducible", "--clock=cycles"],
            &[
                "warning: --reproducible has no effect without --profile or --heap-profile",
                "warning: --clock has no effect without --profile",
            ],
        ),
        // The reference engine cannot measure cycles, but without a
        // profile nothing is measured: the warning alone, not a refusal.
        (
            &["--trace-file=trace.txt", "--clock=cycles"],
            &["warning: --clock has no effect without --profile"],
        ),
        (
            &["--heap-interval=5"],
            &["warning: --heap-interval has no effect without --heap-profile"],
        ),
        (
            &["--check", "--profile"],
            &["warning: --profile has no effect with --check or --print"],
        ),
        // Given where they count: no warning.
        (
            &["--heap-profile=kind", "--heap-interval=5", "--reproducible"],
            &[],
        ),
    ];
    let dir = scratch("flags_without_effect");
    for (flags, warnings) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_stg-run"))
            .arg(&nfib)
            .args(flags)
            .current_dir(&dir)
            .output()
            .expect("stg-run starts");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{flags:?}: {err}");
        assert_eq!(
            err.matches("warning:").count(),
            warnings.len(),
            "{flags:?}: {err}"
        );
        for w in warnings {
            assert!(err.contains(w), "{flags:?}: {err}");
        }
    }
}

/// A `--profile-file` in a folder that does not exist is refused before
/// the program runs (status 1, nothing printed), not found after the run.
#[test]
fn profile_file_in_a_missing_folder_is_refused_before_the_run() {
    let dir = scratch("profile_file_missing_folder");
    let path = dir.join("no such folder").join("p.pgcl");
    let out = stg_run(&[
        program("nfib").as_str(),
        "--profile-file",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "", "the program did not run");
    let err = text(&out.stderr);
    assert!(err.contains("no such folder does not exist"), "{err}");

    // A file where the folder should be.
    std::fs::write(dir.join("a file"), "").unwrap();
    let path = dir.join("a file").join("p.pgcl");
    let out = stg_run(&[
        program("nfib").as_str(),
        "--profile-file",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("a file is not a folder"));
}

/// `--max-heap-profile 0` is the default budget (1G), as `--help` says:
/// the censuses are taken and written, none is refused for size.
#[test]
fn max_heap_profile_zero_is_the_default_and_documented() {
    let help = text(&stg_run(&["--help"]).stdout);
    let words = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("0 means the default, 1G"), "{help}");
    let dir = scratch("max_heap_profile_zero");
    let out = Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .arg(program("nfib"))
        .args([
            "--heap-profile=kind",
            "--heap-interval=1000",
            "--max-heap-profile=0",
        ])
        .current_dir(&dir)
        .output()
        .expect("stg-run starts");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("size limit"), "{err}");
    let hp = std::fs::read_to_string(dir.join("nfib.hp")).unwrap();
    assert!(hp.matches("BEGIN_SAMPLE").count() > 1, "{hp}");
}
