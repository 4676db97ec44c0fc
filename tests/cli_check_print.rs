//! `stg-run --check` and `--print` through the real binary (issues 2–3):
//! every program of `programs/` and LANGUAGE.md's example are accepted; bad
//! programs are rejected with exit status 1 and `file:line:col`; printing
//! gives a program that checks and prints to itself.

use std::path::{Path, PathBuf};

mod cli_common;
mod corpus;

use cli_common::{stg_run, text};
use corpus::programs;

fn programs_dir() -> PathBuf {
    corpus::repo("programs")
}

fn scratch(test: &str) -> PathBuf {
    cli_common::scratch("cli_check_print", test)
}

/// LANGUAGE.md, "Example" (prints `[2,4]`).
const LANGUAGE_MD_EXAMPLE: &str = include_str!("fixtures/language_md_example.stg");

#[test]
fn check_accepts_every_program() {
    for path in programs() {
        let out = stg_run(&[Path::new("--check"), &path]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{}: {stderr}", path.display());
        assert!(
            !stderr.contains("Error"),
            "{}: no error is reported: {stderr}",
            path.display()
        );
        assert!(out.stdout.is_empty(), "--check prints nothing on stdout");
    }
}

#[test]
fn language_md_example_checks_and_runs() {
    let dir = scratch("example");
    let file = dir.join("example.stg");
    std::fs::write(&file, LANGUAGE_MD_EXAMPLE).unwrap();
    let out = stg_run(&[Path::new("--check"), &file]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = stg_run(&[&file]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "[2,4]\n");
}

/// Bad programs: (file text, `line:col` the first error must name, a word of
/// its message).
const BAD: &[(&str, &str, &str)] = &[
    // Static error: unbound variable.
    (
        "main = {} \\u {} -> foo {}\n",
        "1:20",
        "unbound variable `foo`",
    ),
    // Syntax error on the second line.
    (
        "main = {} \\u {} ->\n  case of\n",
        "2:8",
        "no alternatives after `of`",
    ),
    // A non-recursive let whose binding uses its sibling.
    (
        "main = {} \\u {} ->\n  let a = {} \\r {} -> I# {1#}\n      b = {} \\u {} -> a {}\n  in b {}\n",
        "3:23",
        "refers to its own `let` group",
    ),
    // No main (a run's error only: `--check` accepts a library module,
    // tests/cli_newcomer.rs).
    (
        "one = {} \\r {} -> I# {1#}\n",
        "1:1",
        "no `main` is defined",
    ),
];

#[test]
fn check_rejects_bad_programs_with_file_line_col() {
    let dir = scratch("bad");
    for (i, (source, place, word)) in BAD.iter().enumerate() {
        let file = dir.join(format!("bad{i}.stg"));
        std::fs::write(&file, source).unwrap();
        let modes = if word.contains("no `main`") {
            vec![vec![]]
        } else {
            vec![vec!["--check"], vec![]]
        };
        for args in modes {
            let out = stg_run(&[&args[..], &[file.to_str().unwrap()]].concat());
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{source:?} {args:?}: {stderr}");
            let at = format!("{}:{place}", file.display());
            assert!(stderr.contains(&at), "{source:?}: `{at}` in:\n{stderr}");
            assert!(stderr.contains(word), "{source:?}: `{word}` in:\n{stderr}");
            // `--check` never runs the program, so it does not say so.
            let last = if args.is_empty() {
                "found; the program was not run"
            } else {
                "1 error found"
            };
            assert!(stderr.trim_end().ends_with(last), "{stderr}");
            assert!(out.stdout.is_empty());
        }
    }
    // An error in the second of two files names that file.
    let good = dir.join("lib.stg");
    std::fs::write(&good, "one = {} \\r {} -> I# {1#}\n").unwrap();
    let bad = dir.join("bad0.stg");
    let out = stg_run(&[Path::new("--check"), &good, &bad]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains(&format!("{}:1:20", bad.display())));
}

#[test]
fn check_and_print_together_is_a_usage_error() {
    let path = programs_dir().join("nfib.stg");
    let out = stg_run(&[Path::new("--check"), Path::new("--print"), &path]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("'--check' cannot be used with '--print'"));
}

/// `--print` of every program checks, and printing the printed text again
/// gives the same text (through the CLI, with the module's file name kept,
/// since the module name is the file stem).
#[test]
fn print_is_a_checked_fixed_point_for_every_program() {
    let dir = scratch("print");
    for path in programs() {
        let out = stg_run(&[Path::new("--print"), &path]);
        assert_eq!(out.status.code(), Some(0), "{}", path.display());
        let printed = text(&out.stdout);
        assert!(
            printed.contains("main = "),
            "{}: prints the module",
            path.display()
        );
        let again_file = dir.join(path.file_name().unwrap());
        std::fs::write(&again_file, &printed).unwrap();
        let checked = stg_run(&[Path::new("--check"), &again_file]);
        assert_eq!(
            checked.status.code(),
            Some(0),
            "{}: the printed program checks: {}",
            path.display(),
            text(&checked.stderr)
        );
        let again = stg_run(&[Path::new("--print"), &again_file]);
        assert_eq!(again.status.code(), Some(0));
        assert_eq!(
            text(&again.stdout),
            printed,
            "{}: --print is a fixed point",
            path.display()
        );
        // And the printed program runs like the original.
        let original = stg_run(&[&path]);
        let reprinted = stg_run(&[&again_file]);
        assert_eq!(original.status.code(), reprinted.status.code());
        assert_eq!(original.stdout, reprinted.stdout, "{}", path.display());
    }
}

/// The Prelude itself, printed on its own (`--no-prelude`), is a fixed point
/// too (it has no `main`, so it is checked with a `main` module after it).
#[test]
fn print_of_the_prelude_is_a_fixed_point() {
    let dir = scratch("prelude");
    let main = dir.join("m.stg");
    std::fs::write(&main, "main = {} \\u {} -> sum {xs}\nxs = {} \\u {} -> enumFromTo {one, ten}\none = {} \\r {} -> I# {1#}\nten = {} \\r {} -> I# {10#}\n").unwrap();
    let prelude = programs_dir().join("Prelude.stg");
    let first = stg_run(&[
        Path::new("--no-prelude"),
        Path::new("--print"),
        &prelude,
        &main,
    ]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let printed = text(&first.stdout);
    // Both modules are printed; split them back into files by the `main`
    // module's first binding.
    let cut = printed.find("main = ").expect("the main module is printed");
    let printed_prelude = dir.join("Prelude.stg");
    std::fs::write(&printed_prelude, &printed[..cut]).unwrap();
    let printed_main = dir.join("m2").join("m.stg");
    std::fs::create_dir_all(printed_main.parent().unwrap()).unwrap();
    std::fs::write(&printed_main, &printed[cut..]).unwrap();
    let second = stg_run(&[
        Path::new("--no-prelude"),
        Path::new("--print"),
        &printed_prelude,
        &printed_main,
    ]);
    assert_eq!(second.status.code(), Some(0), "{}", text(&second.stderr));
    assert_eq!(text(&second.stdout), printed);
    let run = stg_run(&[Path::new("--no-prelude"), &printed_prelude, &printed_main]);
    assert_eq!(text(&run.stdout), "55\n");
}
