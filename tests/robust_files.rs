//! The files and streams of both tools, as a hostile user meets them:
//! inputs that are not regular files or are too large (refused at once,
//! exit 1), standard input for `stg-prof` and standard output for the
//! profile (`-`), output paths checked before the run (uncreatable, too
//! long, one of the run's own inputs, two outputs in one place), stale
//! temporaries of dead runs removed, and standard output closed or full
//! (one message, exit 1) or closed by its reader (quiet, exit 0). Each
//! case checks the status, the message, and that nothing was overwritten
//! and no temporary left. Real processes: the built binaries.
#![cfg(unix)]

mod cli_common;

use cli_common::{program, scratch, text};
use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn stg_run() -> Command {
    Command::new(env!("CARGO_BIN_EXE_stg-run"))
}

fn stg_prof() -> Command {
    Command::new(env!("CARGO_BIN_EXE_stg-prof"))
}

/// Runs `cmd` to its end, within 20 s (a tool that blocks on a FIFO or
/// reads /dev/zero fails the test instead of hanging it).
fn run(cmd: &mut Command) -> Output {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    finish(child)
}

fn finish(mut child: Child) -> Output {
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("the tool did not end within 20 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().unwrap()
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// Files in `dir` whose name ends in `.tmp`.
fn temporaries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    names.sort();
    names
}

/// A reproducible profile of nfib in `dir`, as `name`.
fn nfib_profile(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    let out = run(stg_run()
        .arg(program("nfib.stg"))
        .args(["--auto-cc=top", "--reproducible", "--profile-file"])
        .arg(&path));
    assert!(out.status.success(), "{}", text(&out.stderr));
    path
}

/// A heap profile of foldl_leak in `dir` (`foldl_leak.hp`).
fn heap_profile(dir: &Path) -> PathBuf {
    let out = run(stg_run()
        .arg(program("foldl_leak.stg"))
        .args([
            "--heap-profile=cc",
            "--heap-interval=1000",
            "--reproducible",
        ])
        .current_dir(dir));
    assert!(out.status.success(), "{}", text(&out.stderr));
    dir.join("foldl_leak.hp")
}

// ----- inputs ------------------------------------------------------------

/// /dev/zero, /dev/urandom, a directory and a FIFO are refused at once by
/// every reader of both tools, with exit 1 and a message naming the file
/// and what it is; nothing is read from them (a FIFO with no writer would
/// block the opening, /dev/zero never ends).
#[test]
fn inputs_that_are_not_regular_files_are_refused_at_once() {
    let dir = scratch("robust_files", "not_regular");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let profile = nfib_profile(&dir, "nfib.pgcl");
    let cases: [(&str, &str); 4] = [
        ("/dev/zero", "a character device"),
        ("/dev/urandom", "a character device"),
        (dir.to_str().unwrap(), "a directory"),
        (fifo.to_str().unwrap(), "a FIFO"),
    ];
    for (input, kind) in cases {
        let commands: Vec<(String, Command)> = vec![
            ("stg-run --check".into(), {
                let mut c = stg_run();
                c.args(["--check", input]);
                c
            }),
            ("stg-run".into(), {
                let mut c = stg_run();
                c.arg(program("nfib.stg")).arg(input);
                c
            }),
            ("stg-prof report".into(), {
                let mut c = stg_prof();
                c.args(["report", input]);
                c
            }),
            ("stg-prof dump".into(), {
                let mut c = stg_prof();
                c.args(["dump", input]);
                c
            }),
            ("stg-prof callgrind".into(), {
                let mut c = stg_prof();
                c.args(["callgrind", input]);
                c
            }),
            ("stg-prof heap".into(), {
                let mut c = stg_prof();
                c.args(["heap", input]);
                c
            }),
            ("stg-prof html --heap".into(), {
                let mut c = stg_prof();
                c.arg("html").arg(&profile).args(["--heap", input]);
                c
            }),
        ];
        for (what, mut cmd) in commands {
            let out = run(&mut cmd);
            let err = text(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{what} {input}: {err}");
            assert!(
                err.contains(&format!("cannot read {input}: it is {kind}")),
                "{what} {input}: {err}"
            );
            assert_eq!(err.lines().count(), 1, "{what} {input}: one message: {err}");
            assert_eq!(text(&out.stdout), "", "{what} {input}");
        }
    }
}

/// A file over --max-input-size is refused before it is read, with a
/// message giving its size, the limit and the flag; one of exactly the
/// limit is read. The default limit is 256 MB: a sparse file of 257 MB is
/// refused at once (without reading 257 MB).
#[test]
fn inputs_over_the_limit_are_refused_at_once() {
    let dir = scratch("robust_files", "too_large");
    let src = std::fs::read(program("nfib.stg")).unwrap();
    let size = src.len().to_string();
    let smaller = (src.len() - 1).to_string();
    let copy = dir.join("nfib.stg");
    std::fs::write(&copy, &src).unwrap();

    let out = run(stg_run().arg(&copy).args(["--max-input-size", &size]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run(stg_run().arg(&copy).args(["--max-input-size", &smaller]));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "stg-run: cannot read {}: it is {size} bytes, over the limit of {smaller} bytes on \
             input files; raise it with --max-input-size if the file is right\n",
            copy.display()
        )
    );

    let profile = nfib_profile(&dir, "nfib.pgcl");
    let len = std::fs::metadata(&profile).unwrap().len();
    for sub in SINGLE_PROFILE_SUBCOMMANDS {
        let out = run(stg_prof()
            .arg(sub)
            .arg(&profile)
            .args(["--max-input-size", &len.to_string()]));
        assert_eq!(out.status.code(), Some(0), "{sub}: {}", text(&out.stderr));
        let out = run(stg_prof()
            .arg(sub)
            .arg(&profile)
            .args(["--max-input-size", &(len - 1).to_string()]));
        assert_eq!(out.status.code(), Some(1), "{sub}");
        assert!(
            text(&out.stderr).contains("over the limit of"),
            "{sub}: {}",
            text(&out.stderr)
        );
    }

    let huge = dir.join("huge.stg");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(257 << 20)
        .unwrap();
    let out = run(stg_run().arg("--check").arg(&huge));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("it is 257 MB (269484032 bytes), over the limit of 256 MB"),
        "{}",
        text(&out.stderr)
    );
    let out = run(stg_prof().arg("dump").arg(&huge));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("over the limit of 256 MB"));
}

/// `diff` and `merge` read their profiles within the same limit (`diff`'s
/// errors exit with 2, as `diff(1)`'s do).
#[test]
fn diff_and_merge_read_within_the_limit() {
    let dir = scratch("robust_files", "limit_two");
    let profile = nfib_profile(&dir, "nfib.pgcl");
    let len = std::fs::metadata(&profile).unwrap().len();
    let smaller = (len - 1).to_string();
    let out = run(stg_prof()
        .arg("diff")
        .arg(&profile)
        .arg(&profile)
        .args(["--max-input-size", &len.to_string()]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run(stg_prof()
        .arg("diff")
        .arg(&profile)
        .arg(&profile)
        .args(["--max-input-size", &smaller]));
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("over the limit of"));
    let merged = dir.join("merged.pgcl");
    let out = run(stg_prof()
        .arg("merge")
        .arg(&profile)
        .arg(&profile)
        .arg("-o")
        .arg(&merged)
        .args(["--max-input-size", &smaller]));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("over the limit of"));
    assert!(!merged.exists());
}

/// The `stg-prof` subcommands that read one profile.
const SINGLE_PROFILE_SUBCOMMANDS: [&str; 8] = [
    "report",
    "dump",
    "callgrind",
    "html",
    "speedscope",
    "folded",
    "json",
    "dot",
];

/// Every `stg-prof` subcommand reads `-` as standard input, with the same
/// result as from the file, bounded by the same limit. Standard input has
/// no side file beside it (no source locations), so the file is read here
/// without its side file too.
#[test]
fn every_stg_prof_subcommand_reads_standard_input() {
    let dir = scratch("robust_files", "stdin");
    let profile = nfib_profile(&dir, "stdin.pgcl");
    std::fs::remove_file(dir.join("stdin.pgcl.src")).unwrap();
    let hp = heap_profile(&dir);
    for sub in SINGLE_PROFILE_SUBCOMMANDS {
        let file = run(stg_prof().arg(sub).arg(&profile));
        assert!(file.status.success());
        let piped = run_with_stdin(stg_prof().args([sub, "-"]), &profile);
        assert_eq!(
            piped.status.code(),
            Some(0),
            "{sub}: {}",
            text(&piped.stderr)
        );
        assert_eq!(text(&piped.stdout), text(&file.stdout), "{sub}");
    }
    let file = run(stg_prof().arg("heap").arg(&hp));
    let piped = run_with_stdin(stg_prof().args(["heap", "-"]), &hp);
    assert_eq!(piped.status.code(), Some(0), "{}", text(&piped.stderr));
    assert_eq!(piped.stdout, file.stdout);
    let file = run(stg_prof().arg("html").arg(&profile).arg("--heap").arg(&hp));
    let piped = run_with_stdin(stg_prof().args(["html", "-", "--heap"]).arg(&hp), &profile);
    assert_eq!(piped.stdout, file.stdout);
    let piped = run_with_stdin(
        stg_prof().arg("html").arg(&profile).args(["--heap", "-"]),
        &hp,
    );
    assert_eq!(piped.stdout, file.stdout);

    // Standard input is bounded too, and read once.
    let out = run_with_stdin(
        stg_prof().args(["dump", "-", "--max-input-size", "100"]),
        &profile,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "stg-prof: cannot read standard input: it gives more than 100 bytes, over the limit of \
         100 bytes on input files; raise it with --max-input-size if the file is right\n"
    );
    let out = run_with_stdin(stg_prof().args(["html", "-", "--heap", "-"]), &profile);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("given twice"));

    // diff and merge take `-` for one of their profiles, once.
    let out = run_with_stdin(stg_prof().args(["diff", "-"]).arg(&profile), &profile);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    let out = run_with_stdin(stg_prof().args(["diff", "-", "-"]), &profile);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("given twice"));
    let merged = dir.join("merged.pgcl");
    let out = run_with_stdin(
        stg_prof()
            .args(["merge", "-"])
            .arg(&profile)
            .arg("-o")
            .arg(&merged),
        &profile,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(merged.is_file());
    let out = run_with_stdin(
        stg_prof().args(["merge", "-", "-"]).arg("-o").arg(&merged),
        &profile,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("more than once"));
}

/// Runs `cmd` with standard input read from `input` (a pipe, fed by a
/// thread, so that standard input is not a regular file).
fn run_with_stdin(cmd: &mut Command, input: &Path) -> Output {
    let bytes = std::fs::read(input).unwrap();
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        // The tool may stop reading early (over the limit): ignore EPIPE.
        let _ = stdin.write_all(&bytes);
    });
    let out = finish(child);
    feeder.join().unwrap();
    out
}

/// `--profile-file -` writes the profile to standard output, byte for
/// byte the file `--profile-file p.pgcl` gets, and the program's output
/// goes to standard error.
#[test]
fn the_profile_goes_to_standard_output_with_a_dash() {
    let dir = scratch("robust_files", "profile_to_stdout");
    let file = nfib_profile(&dir, "nfib.pgcl");
    let out = run(stg_run().arg(program("nfib.stg")).args([
        "--auto-cc=top",
        "--reproducible",
        "--profile-file",
        "-",
    ]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(out.stdout, std::fs::read(&file).unwrap());
    assert_eq!(text(&out.stderr), "1973\n");
    assert!(!dir.join("-").exists() && !Path::new("-").exists());
}

/// `/dev/stdout` when standard output is a pipe: the link leads through
/// `/proc/self/fd/1` to `pipe:[N]`, which names no file; the output is
/// written to the pipe (it was refused: "no file can be created in
/// /proc/self/fd").
#[test]
fn dev_stdout_as_an_output_writes_to_a_pipe() {
    if !Path::new("/dev/stdout").exists() {
        return;
    }
    let dir = scratch("robust_files", "dev_stdout");
    let file = nfib_profile(&dir, "nfib.pgcl");
    let out = run(stg_run().arg(program("nfib.stg")).args([
        "--auto-cc=top",
        "--reproducible",
        "--profile-file",
        "/dev/stdout",
    ]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // The program's output, then the profile.
    let mut want = b"1973\n".to_vec();
    want.extend(std::fs::read(&file).unwrap());
    assert_eq!(out.stdout, want);
    let merged = dir.join("merged.pgcl");
    let out = run(stg_prof()
        .arg("merge")
        .arg(&file)
        .arg(&file)
        .arg("-o")
        .arg(&merged));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(stg_prof()
        .arg("merge")
        .arg(&file)
        .arg(&file)
        .args(["-o", "/dev/stdout"]));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(out.stdout, std::fs::read(&merged).unwrap());
    assert!(!Path::new("/dev/stdout.src").exists());
}

/// A profile written through a symbolic link has its side file beside the
/// file the link leads to, where a reader given either name finds it:
/// `-o /dev/stdout > sum.pgcl` puts it at `sum.pgcl.src` (it went to
/// `/dev/stdout.src`, or was refused where /dev cannot be written), and
/// `--profile-file latest.pgcl`, a link to `runs/1.pgcl`, at
/// `runs/1.pgcl.src`.
#[test]
fn a_profile_written_through_a_link_has_its_side_file_beside_the_file() {
    if !Path::new("/dev/stdout").exists() {
        return;
    }
    let dir = scratch("robust_files", "side_file_through_links");
    let file = nfib_profile(&dir, "nfib.pgcl");
    let side = std::fs::read(dir.join("nfib.pgcl.src")).unwrap();
    for (tool, args) in [
        (
            stg_run(),
            vec![
                program("nfib.stg").into_os_string(),
                "--auto-cc=top".into(),
                "--reproducible".into(),
                "--profile-file".into(),
                "/dev/stdout".into(),
            ],
        ),
        (
            stg_prof(),
            vec![
                "merge".into(),
                file.clone().into_os_string(),
                file.clone().into_os_string(),
                "-o".into(),
                "/dev/stdout".into(),
            ],
        ),
    ] {
        let mut tool = tool;
        let sum = dir.join("sum.pgcl");
        let _ = std::fs::remove_file(dir.join("sum.pgcl.src"));
        let child = tool
            .args(&args)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&sum).unwrap())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = finish(child);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            !text(&out.stderr).contains("warning"),
            "{}",
            text(&out.stderr)
        );
        assert!(!Path::new("/dev/stdout.src").exists());
        assert_eq!(
            std::fs::read(dir.join("sum.pgcl.src")).unwrap(),
            side,
            "{args:?}"
        );
        let written = std::fs::read(&sum).unwrap();
        if args[0] == "merge" {
            // The sum is all stg-prof writes there.
            assert!(
                stg_run::internal::profile::format::read(&written).is_ok(),
                "{args:?}"
            );
        } else {
            // stg-run writes the profile after the program's output, as
            // through a pipe (an atomic write replaced the file, and the
            // output with it).
            let mut want = b"1973\n".to_vec();
            want.extend(std::fs::read(&file).unwrap());
            assert_eq!(written, want, "{args:?}");
        }
    }
    std::fs::create_dir_all(dir.join("runs")).unwrap();
    let link = dir.join("latest.pgcl");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink("runs/1.pgcl", &link).unwrap();
    nfib_profile(&dir, "latest.pgcl");
    assert!(link.is_symlink());
    assert_eq!(std::fs::read(dir.join("runs/1.pgcl.src")).unwrap(), side);
    assert!(!dir.join("latest.pgcl.src").exists());
    // Read by the link's name, the report has the side file's locations.
    let report = run(stg_prof().arg("report").arg(&link));
    assert!(report.status.success(), "{}", text(&report.stderr));
    assert!(
        text(&report.stdout).contains("nfib.stg:"),
        "{}",
        text(&report.stdout)
    );
}

// ----- outputs checked before the run -------------------------------------

/// Runs nfib with `args` in `dir`; it must be refused before the run
/// (status 1, no output: the program did not run) with a message that
/// contains `says`.
fn refused_before_the_run(dir: &Path, args: &[&str], says: &str) {
    let out = run(stg_run()
        .arg(program("nfib.stg"))
        .args(args)
        .current_dir(dir));
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert_eq!(text(&out.stdout), "", "{args:?}: the program did not run");
    assert!(err.contains(says), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one message: {err}");
    assert_eq!(temporaries(dir), Vec::<String>::new(), "{args:?}");
}

/// A profile name of up to 255 bytes (the file-name limit) is written, its
/// temporary's name shortened to fit (its side file, where that name fits
/// too); a longer one is refused before the run.
#[test]
fn long_profile_names_are_written_or_refused_before_the_run() {
    let dir = scratch("robust_files", "long_names");
    for len in [230, 240, 243, 250, 255] {
        let name = format!("{}.pgcl", "p".repeat(len - 5));
        let out = run(stg_run()
            .arg(program("nfib.stg"))
            .args(["--profile-file", &name])
            .current_dir(&dir));
        assert_eq!(out.status.code(), Some(0), "{len}: {}", text(&out.stderr));
        assert!(dir.join(&name).is_file(), "{len}");
        assert_eq!(temporaries(&dir), Vec::<String>::new(), "{len}");
        // The side file's name is 4 bytes longer: where it does not fit,
        // the profile is written without it, with a warning.
        let side = dir.join(format!("{name}.src"));
        if len + 4 <= 255 {
            assert!(side.is_file(), "{len}");
        } else {
            assert!(
                text(&out.stderr).contains("the profile is written without it"),
                "{len}: {}",
                text(&out.stderr)
            );
        }
    }
    let name = format!("{}.pgcl", "p".repeat(256 - 5));
    refused_before_the_run(
        &dir,
        &["--profile-file", &name],
        "the file name is 256 bytes long, more than the 255 this file system allows",
    );
}

/// A profile or heap-profile path that cannot be created is found before
/// the run: a folder that does not exist, a file where the folder should
/// be, a folder where the file should be, a folder no file can be created
/// in (/proc, even for root).
#[test]
fn uncreatable_outputs_are_refused_before_the_run() {
    let dir = scratch("robust_files", "uncreatable");
    std::fs::write(dir.join("a file"), "").unwrap();
    std::fs::create_dir(dir.join("a folder")).unwrap();
    refused_before_the_run(
        &dir,
        &["--profile-file", "missing/p.pgcl"],
        "cannot write the profile to missing/p.pgcl: missing does not exist",
    );
    refused_before_the_run(
        &dir,
        &["--profile-file", "a file/p.pgcl"],
        "a file is not a folder",
    );
    refused_before_the_run(
        &dir,
        &["--profile-file", "a folder"],
        "cannot write the profile to a folder: it is a directory; give a file name",
    );
    refused_before_the_run(
        &dir,
        &["--profile-file", "/proc/p.pgcl"],
        "cannot write the profile to /proc/p.pgcl: no file can be created in /proc",
    );
    refused_before_the_run(
        Path::new("/proc"),
        &["--heap-profile=cc"],
        "cannot write the heap profile to nfib.hp: no file can be created in .",
    );
}

/// No output is written over one of the run's own input files, however
/// the path names it (the same name, another spelling, a symbolic link,
/// a hard link: compared by device and inode), and no two outputs share a
/// path. The source is left as it was.
#[test]
fn outputs_over_inputs_are_refused_before_the_run() {
    let dir = scratch("robust_files", "over_inputs");
    let text_before = std::fs::read(program("nfib.stg")).unwrap();
    let src = dir.join("prog.stg");
    std::fs::write(&src, &text_before).unwrap();
    std::os::unix::fs::symlink("prog.stg", dir.join("link.pgcl")).unwrap();
    std::fs::hard_link(&src, dir.join("hard.pgcl")).unwrap();
    for target in ["prog.stg", "./prog.stg", "link.pgcl", "hard.pgcl"] {
        let out = run(stg_run()
            .args(["prog.stg", "--profile-file", target])
            .current_dir(&dir));
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{target}: {err}");
        assert_eq!(text(&out.stdout), "", "{target}");
        assert!(
            err.contains(&format!(
                "cannot write the profile to {target}: it is one of the run's input files"
            )),
            "{target}: {err}"
        );
        assert_eq!(std::fs::read(&src).unwrap(), text_before, "{target}");
    }
    // The trace file too.
    let out = run(stg_run()
        .args(["prog.stg", "--trace-file", "hard.pgcl"])
        .current_dir(&dir));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr)
            .contains("cannot write the trace to hard.pgcl: it is one of the run's input files"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read(&src).unwrap(), text_before);
    // The heap profile is <stem>.hp: here the source itself.
    let hp_src = dir.join("leak.hp");
    std::fs::write(&hp_src, &text_before).unwrap();
    let out = run(stg_run()
        .args(["leak.hp", "--heap-profile=cc"])
        .current_dir(&dir));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains(
            "cannot write the heap profile to leak.hp: it is one of the run's input files"
        ),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read(&hp_src).unwrap(), text_before);
    // Two outputs in one place.
    let out = run(stg_run()
        .args(["prog.stg", "--heap-profile=cc", "--profile-file", "prog.hp"])
        .current_dir(&dir));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr)
            .contains("cannot write the heap profile to prog.hp: the profile is written there too"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.join("prog.hp").exists());
}

/// Temporaries `.NAME.PID.N.tmp` left by runs that were killed (SIGKILL)
/// while writing are removed by the next run that writes NAME, if their
/// process is gone; a live process's is left alone, and so are other
/// files' temporaries. Then no temporary of NAME is left: as a run makes
/// its own temporary only after removing the dead ones, runs killed at any
/// moment leave at most one.
#[test]
fn stale_temporaries_of_dead_runs_are_removed() {
    let dir = scratch("robust_files", "stale");
    let mut gone = Command::new("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    let live = std::process::id();
    let stale = [
        format!(".p.pgcl.{dead}.0.tmp"),
        format!(".p.pgcl.{dead}.7.tmp"),
    ];
    let kept = [
        format!(".p.pgcl.{live}.0.tmp"),
        format!(".q.pgcl.{dead}.0.tmp"),
        format!(".p.pgcl.{dead}.tmp"),
    ];
    for name in stale.iter().chain(&kept) {
        std::fs::write(dir.join(name), "partial").unwrap();
    }
    let out = run(stg_run()
        .arg(program("nfib.stg"))
        .args(["--profile-file", "p.pgcl"])
        .current_dir(&dir));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut want: Vec<String> = kept
        .iter()
        .filter(|n| n.ends_with(".tmp"))
        .cloned()
        .collect();
    want.sort();
    assert_eq!(temporaries(&dir), want);
    assert!(dir.join("p.pgcl").is_file());
}

// ----- standard output ----------------------------------------------------

/// Runs `cmd` with descriptor 1 closed, as `>&-` leaves it.
fn with_stdout_closed(cmd: &mut Command) -> Output {
    // SAFETY: close(2) only, between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::close(1);
            Ok(())
        });
    }
    let child = cmd
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    finish(child)
}

fn dev_full() -> std::fs::File {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap()
}

/// Closed standard output (`stg-run prog.stg >&-`): a write error, status
/// 1, one message; the profile is still written.
#[test]
fn a_closed_standard_output_is_a_write_error() {
    let dir = scratch("robust_files", "closed_stdout");
    let out = with_stdout_closed(
        stg_run()
            .arg(program("nfib.stg"))
            .args(["--profile-file", "p.pgcl"])
            .current_dir(&dir),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "stg-run: cannot write the output: standard output is closed\n"
    );
    assert!(dir.join("p.pgcl").is_file());
    let profile = nfib_profile(&dir, "nfib.pgcl");
    for (what, mut cmd) in [
        ("stg-run --help", {
            let mut c = stg_run();
            c.arg("--help");
            c
        }),
        ("stg-prof report", {
            let mut c = stg_prof();
            c.arg("report").arg(&profile);
            c
        }),
    ] {
        let out = with_stdout_closed(&mut cmd);
        assert_eq!(out.status.code(), Some(1), "{what}");
        assert!(
            text(&out.stderr).ends_with("standard output is closed\n"),
            "{what}: {}",
            text(&out.stderr)
        );
        assert_eq!(text(&out.stderr).lines().count(), 1, "{what}");
    }
}

/// A full device (`> /dev/full`): the help, the version, a run's output
/// and `stg-prof`'s reports are each a write error, status 1, one message.
#[test]
fn a_full_standard_output_is_a_write_error() {
    let dir = scratch("robust_files", "full_stdout");
    let profile = nfib_profile(&dir, "nfib.pgcl");
    let cases: Vec<(&str, Command)> = vec![
        ("stg-run --help", {
            let mut c = stg_run();
            c.arg("--help");
            c
        }),
        ("stg-run --version", {
            let mut c = stg_run();
            c.arg("--version");
            c
        }),
        ("stg-run", {
            let mut c = stg_run();
            c.arg(program("nfib.stg"));
            c
        }),
        ("stg-run --print", {
            let mut c = stg_run();
            c.arg(program("nfib.stg")).arg("--print");
            c
        }),
        ("stg-prof --help", {
            let mut c = stg_prof();
            c.arg("--help");
            c
        }),
        ("stg-prof report --help", {
            let mut c = stg_prof();
            c.args(["report", "--help"]);
            c
        }),
        ("stg-prof report", {
            let mut c = stg_prof();
            c.arg("report").arg(&profile);
            c
        }),
        ("stg-prof dump", {
            let mut c = stg_prof();
            c.arg("dump").arg(&profile);
            c
        }),
    ];
    for (what, mut cmd) in cases {
        let out = finish(
            cmd.stdin(Stdio::null())
                .stdout(dev_full())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap(),
        );
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{what}: {err}");
        assert!(err.contains("No space left on device"), "{what}: {err}");
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
    }
}

/// A reader that closes the pipe (`| head`) is the reader's choice: quiet,
/// status 0, for the help as for a run's output.
#[test]
fn a_reader_that_closes_the_pipe_is_quiet() {
    for args in [&["--help"][..], &["--version"], &["--print"]] {
        let mut child = stg_run()
            .arg(program("nfib.stg"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = finish(child);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(text(&out.stderr), "", "{args:?}");
    }
}
