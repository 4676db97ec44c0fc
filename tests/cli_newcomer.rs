//! What a newcomer meets first on the command line: the Prelude's place in
//! messages and `--print-prelude`, `--check` of a library module, `stg-prof
//! help`, and the examples in both tools' `--help`, each run as written.

mod cli_common;

use cli_common::{scratch, stg_run, text};
use std::path::Path;
use std::process::Command;

fn stg_prof(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_stg-prof"))
        .args(args)
        .output()
        .expect("stg-prof starts")
}

/// A module with no `main`: a library.
const LIBRARY: &str = "double = {} \\r {x} -> plusInt {x, x}\n";

#[test]
fn prelude_errors_cite_the_prelude_not_a_path_on_disk() {
    let dir = scratch("cli_newcomer", "prelude_place");
    let prog = dir.join("h.stg");
    std::fs::write(
        &prog,
        "main = {} \\u {} -> letrec n = {} \\r {} -> Nil {} in head {n}\n",
    )
    .unwrap();
    let out = stg_run(&[&prog]);
    assert_eq!(out.status.code(), Some(3));
    let err = text(&out.stderr);
    let at = err
        .lines()
        .find_map(|l| l.trim().strip_prefix("at <prelude>/Prelude.stg:"))
        .unwrap_or_else(|| panic!("no `at <prelude>/Prelude.stg:` line in\n{err}"));
    assert!(err.contains("stg-run --print-prelude"), "{err}");
    // LINE:COL is a place in what --print-prelude prints: `head`'s case.
    let (line, col) = at.split_once(':').unwrap();
    let (line, col): (usize, usize) = (line.parse().unwrap(), col.parse().unwrap());
    let prelude = text(&stg_run(&["--print-prelude"]).stdout);
    let cited = prelude.lines().nth(line - 1).unwrap();
    assert!(cited[col - 1..].starts_with("case xs of"), "{cited}");
    assert!(
        prelude.lines().nth(line - 2).unwrap().starts_with("head ="),
        "line {line} is not in `head`"
    );
}

#[test]
fn print_prelude_prints_the_bundled_prelude() {
    let out = stg_run(&["--print-prelude"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty());
    let on_disk =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/Prelude.stg")).unwrap();
    assert_eq!(out.stdout, on_disk);
    // It prints and exits: a program named with it is a usage error.
    let out = stg_run(&["--print-prelude", "x.stg"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--print-prelude"));
}

#[test]
fn a_library_module_is_checked_and_printed_but_not_run() {
    let dir = scratch("cli_newcomer", "library");
    let lib = dir.join("lib.stg");
    std::fs::write(&lib, LIBRARY).unwrap();

    let out = stg_run(&["--check".as_ref(), lib.as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("no `main`") && err.contains("library"),
        "{err}"
    );

    let out = stg_run(&["--print".as_ref(), lib.as_os_str()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("double = {} \\r {x} ->"));

    // A run still needs `main`.
    let out = stg_run(&[&lib]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("no `main` is defined in `lib`"), "{err}");
    assert!(err.contains("the program was not run"), "{err}");

    // A library with errors is still rejected, and `main` with arguments
    // is still an error when only checked.
    std::fs::write(&lib, "f = {} \\r {x} -> g {x}\n").unwrap();
    let out = stg_run(&["--check".as_ref(), lib.as_os_str()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("unbound variable `g`"));
    std::fs::write(&lib, "main = {} \\r {x} -> x {}\n").unwrap();
    let out = stg_run(&["--check".as_ref(), lib.as_os_str()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("`main` must not take arguments"));

    // A program with `main` says nothing when it checks.
    std::fs::write(&lib, "main = {} \\u {} -> Unit {}\n").unwrap();
    let out = stg_run(&["--check".as_ref(), lib.as_os_str()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn stg_prof_help_works_with_and_without_a_subcommand() {
    // `help --help` explains `help`, as `X --help` explains any X.
    let out = stg_prof(&["help", "--help"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Usage: stg-prof help [COMMAND]"));

    // `help` is `--help`; `help X` is `X --help`.
    let help = stg_prof(&["help"]);
    assert!(help.status.success());
    assert_eq!(text(&help.stdout), text(&stg_prof(&["--help"]).stdout));
    for sub in ["report", "dump", "callgrind", "html", "heap", "help"] {
        let help = stg_prof(&["help", sub]);
        assert!(help.status.success(), "help {sub}");
        assert_eq!(
            text(&help.stdout),
            text(&stg_prof(&[sub, "--help"]).stdout),
            "stg-prof help {sub}"
        );
    }
    let out = stg_prof(&["help", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("nope"));
}

/// The lines after `Examples:` in a `--help` text.
fn examples(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Examples:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn help_examples_run_as_written() {
    let dir = scratch("cli_newcomer", "help_examples");
    std::os::unix::fs::symlink(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("programs"),
        dir.join("programs"),
    )
    .unwrap();
    std::fs::write(dir.join("mylib.stg"), LIBRARY).unwrap();
    let run_help = text(&stg_run(&["--help"]).stdout);
    let prof_help = text(&stg_prof(&["--help"]).stdout);
    let mut all = examples(&run_help);
    assert!(all.len() >= 2, "stg-run --help has examples:\n{run_help}");
    let prof = examples(&prof_help);
    assert!(
        prof.len() >= 2,
        "stg-prof --help has examples:\n{prof_help}"
    );
    all.extend(prof);
    let bin = Path::new(env!("CARGO_BIN_EXE_stg-run")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for example in &all {
        // --trace runs the reference engine already.
        assert!(
            !(example.contains("--trace") && example.contains("--engine")),
            "{example}"
        );
        let out = Command::new("sh")
            .args(["-c", &format!("{example} > /dev/null")])
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{example}: {}", text(&out.stderr));
    }
}

#[test]
fn flags_that_only_a_run_uses_are_warned_about_with_check() {
    let nfib = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/nfib.stg");
    let nfib = nfib.to_str().unwrap();
    let warned = |args: &[&str]| {
        let out = stg_run(&[&[nfib][..], args].concat());
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        text(&out.stderr)
    };
    let err = warned(&["--check", "--stats", "--max-steps=10", "--auto-cc=top"]);
    for flag in ["--stats", "--max-steps", "--auto-cc"] {
        assert!(
            err.contains(&format!(
                "warning: {flag} has no effect with --check or --print"
            )),
            "{flag}: {err}"
        );
    }
    // `--print` shows what --auto-cc adds: no warning for it.
    let err = warned(&["--print", "--auto-cc=top"]);
    assert!(err.is_empty(), "{err}");
}

#[test]
fn trace_format_without_equals_says_how_to_write_it() {
    let nfib = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/nfib.stg");
    let dir = scratch("cli_newcomer", "trace_format");
    let out = Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .arg(&nfib)
        .args(["--trace", "json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("write --trace=json"), "{err}");
}

#[test]
fn explain_page_without_equals_says_how_to_write_it() {
    let nfib = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/nfib.stg");
    let dir = scratch("cli_newcomer", "explain_page");
    let out = Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .arg(&nfib)
        .args(["--explain", "page.html"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("stg-run: cannot read page.html: ")
            && err.contains("; to name the explorer page write --explain=page.html"),
        "{err}"
    );
    assert!(!dir.join("page.html").exists() && !dir.join("nfib.html").exists());
}

#[test]
fn a_heap_profile_given_to_report_is_sent_to_heap() {
    let dir = scratch("cli_newcomer", "hp_to_report");
    let hp = dir.join("x.hp");
    std::fs::write(
        &hp,
        "JOB \"x\"\nDATE \"d\"\nSAMPLE_UNIT \"steps\"\nVALUE_UNIT \"bytes\"\n",
    )
    .unwrap();
    let out = stg_prof(&["report", hp.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("a heap profile: draw it with `stg-prof heap`"),
        "{err}"
    );
}
