//! The `stg-prof` command line: output, errors and exit status.

mod cli_common;
mod profile_fixture;

use std::path::PathBuf;
use std::process::{Command, Output};

use stg_run::internal::profile::format;
use stg_run::internal::profile::view::{dump::dump, report};

fn scratch(name: &str) -> PathBuf {
    cli_common::scratch("profile_cli", name)
}

fn run(dir: &PathBuf, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stg-prof"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn report_and_dump_print_what_the_library_prints() {
    let dir = scratch("ok");
    let p = profile_fixture::fib();
    format::write_file_atomic(&dir.join("fib.pgcl"), &p).unwrap();

    let out = run(&dir, &["dump", "fib.pgcl"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), dump(&p));

    let out = run(
        &dir,
        &[
            "report",
            "fib.pgcl",
            "--raw",
            "--min-ticks",
            "100",
            "--exclude",
            "CAF",
            "--sort",
            "alloc",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Titled with the program's name (its last module), not the file's.
    let opts = report::Options {
        program: "Main".into(),
        raw: true,
        min_ticks: 100,
        exclude: vec!["CAF".into()],
        sort: report::SortBy::Alloc,
        ..report::Options::default()
    };
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        report::report(&p, &opts)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn errors_name_the_file_and_exit_1() {
    let dir = scratch("err");
    let mut bytes = format::write(&profile_fixture::fib());
    bytes.truncate(30);
    std::fs::write(dir.join("cut.pgcl"), &bytes).unwrap();
    std::fs::write(dir.join("notes.txt"), b"hello world").unwrap();

    let mut all = String::new();
    for args in [
        &["report", "cut.pgcl"][..],
        &["dump", "notes.txt"][..],
        &["dump", "missing.pgcl"][..],
    ] {
        let out = run(&dir, args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(out.stdout.is_empty());
        all.push_str(&format!(
            "$ stg-prof {}\n{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    insta::assert_snapshot!(all);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn help_documents_every_report_flag() {
    let out = Command::new(env!("CARGO_BIN_EXE_stg-prof"))
        .args(["report", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for flag in [
        "--sort",
        "--min-ticks",
        "--min-words",
        "--exclude",
        "--raw",
        "--thunks",
        "--calls",
        "--paps",
        "--all-columns",
        "--top",
        "--max-indent",
    ] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
}

/// A `.hp` file small enough to write inline: two samples of one band.
const SMALL_HP: &str = "JOB \"Main\"\nDATE \"d\"\nSAMPLE_UNIT \"steps\"\nVALUE_UNIT \"bytes\"\n\
                        BEGIN_SAMPLE 0.0\nEND_SAMPLE 0.0\nBEGIN_SAMPLE 10.0\nfib\t64\nEND_SAMPLE 10.0\n";

/// Every subcommand, each with the inputs written by [`write_inputs`].
const EVERY_SUBCOMMAND: [&[&str]; 5] = [
    &["report", "fib.pgcl"],
    &["dump", "fib.pgcl"],
    &["callgrind", "fib.pgcl"],
    &["html", "fib.pgcl", "--heap", "fib.hp"],
    &["heap", "fib.hp"],
];

fn write_inputs(dir: &std::path::Path) {
    format::write_file_atomic(&dir.join("fib.pgcl"), &profile_fixture::fib()).unwrap();
    std::fs::write(dir.join("fib.hp"), SMALL_HP).unwrap();
}

#[test]
fn a_failed_write_to_standard_output_is_an_error() {
    let full = std::path::Path::new("/dev/full");
    if !full.exists() {
        eprintln!("skipped: no /dev/full on this system");
        return;
    }
    let dir = scratch("full");
    write_inputs(&dir);
    for args in EVERY_SUBCOMMAND {
        let out = Command::new(env!("CARGO_BIN_EXE_stg-prof"))
            .args(args)
            .current_dir(&dir)
            .stdout(std::fs::File::create(full).unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("stg-prof: could not write the output: ")
                && stderr.contains("No space left on device"),
            "{args:?}: {stderr}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = scratch("pipe");
    write_inputs(&dir);
    for args in EVERY_SUBCOMMAND {
        // The reading end is closed before stg-prof starts, so its first
        // write fails with a broken pipe, every time.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = Command::new(env!("CARGO_BIN_EXE_stg-prof"))
            .args(args)
            .current_dir(&dir)
            .stdout(writer)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn exclude_of_a_name_the_profile_lacks_is_an_error() {
    let dir = scratch("exclude");
    format::write_file_atomic(&dir.join("fib.pgcl"), &profile_fixture::fib()).unwrap();
    let out = run(
        &dir,
        &[
            "report",
            "fib.pgcl",
            "--exclude",
            "Main.fib",
            "--exclude",
            "nothere",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty());
    assert_eq!(
        stderr,
        "stg-prof: --exclude nothere: fib.pgcl has no cost centre named `nothere`\n\
         stg-prof: `stg-prof report fib.pgcl` shows the names (the COST CENTRE column); \
         --exclude takes one alone (every module's) or as MODULE.NAME (one module's)\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn html_warns_when_the_heap_profile_is_of_another_program() {
    let dir = scratch("job");
    write_inputs(&dir);
    // The fixture profiles modules MAIN, Prelude and Main; fib.hp is of
    // `Main`, other.hp of `fib`.
    let out = run(&dir, &["html", "fib.pgcl", "--heap", "fib.hp"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    std::fs::write(
        dir.join("other.hp"),
        SMALL_HP.replace("JOB \"Main\"", "JOB \"fib\""),
    )
    .unwrap();
    let out = run(&dir, &["html", "fib.pgcl", "--heap", "other.hp"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "stg-prof: warning: other.hp is a heap profile of `fib`, but fib.pgcl profiles the \
         modules `MAIN`, `Prelude`, `Main`; the page shows them together all the same \
         (check that both come from one run)\n"
    );
    // A job's name comes from the file: it is quoted escaped, and cut.
    let job = format!("a\u{1b}[31m{}", "b".repeat(5_000));
    std::fs::write(
        dir.join("other.hp"),
        SMALL_HP.replace("JOB \"Main\"", &format!("JOB \"{job}\"")),
    )
    .unwrap();
    let out = run(&dir, &["html", "fib.pgcl", "--heap", "other.hp"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr}");
    assert!(
        stderr.contains("heap profile of `a\\u{1b}[31mbbb") && stderr.contains("bbb…`, but"),
        "{stderr}"
    );
}
