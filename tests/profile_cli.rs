//! The `stg-prof` command line: output, errors and exit status.

mod profile_fixture;

use std::path::PathBuf;
use std::process::{Command, Output};

use stg_run::profile::{dump::dump, format, report};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stg-prof-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
    let opts = report::Options {
        program: "fib".into(),
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
