//! Diagnostics in quantity, through the real binary (issue 27): the listing
//! stops after `--max-errors` errors (100 by default; 0 lists all) and says
//! how many more there were; warnings of a valid program are all listed and
//! the program still runs; labels far apart get snippets of their own, each
//! headed with its own `file:line:col`. How long rendering takes is measured
//! by `bench/diagnostics.sh` (docs/PERFORMANCE.md), not here.

use std::path::Path;

mod cli_common;

use cli_common::{stg_run, text};

fn scratch(test: &str) -> std::path::PathBuf {
    cli_common::scratch("cli_diagnostics", test)
}

/// `n` bindings with a syntax error each, and a valid `main`.
fn syntax_errors(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!("f{i} = {{}} \\n {{x}} -> = x\n"));
    }
    s.push_str("main = {} \\u {} -> Unit {}\n");
    s
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

#[test]
fn listing_stops_after_max_errors_and_says_how_many_more() {
    let dir = scratch("max_errors");
    let file = dir.join("errors.stg");
    std::fs::write(&file, syntax_errors(150)).unwrap();
    let file = file.to_str().unwrap();

    let out = stg_run(&["--check", file]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(count(&stderr, "Error: "), 100, "{stderr}");
    // The first 100 in source order: line 100 is listed, line 101 is not.
    assert!(stderr.contains("errors.stg:100:"), "{stderr}");
    assert!(!stderr.contains("errors.stg:101:"), "{stderr}");
    assert!(
        stderr.contains(
            "stg-run: 50 more errors not listed (the listing stops at error 100); \
             --max-errors N lists more, --max-errors 0 lists all\n"
        ),
        "{stderr}"
    );
    assert!(stderr.ends_with("stg-run: 150 errors found\n"), "{stderr}");

    let out = stg_run(&["--check", "--max-errors", "3", file]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(count(&stderr, "Error: "), 3, "{stderr}");
    assert!(stderr.contains("147 more errors not listed (the listing stops at error 3)"));

    // A run (not only --check) lists the same way.
    let out = stg_run(&["--max-errors", "149", file]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("stg-run: 1 more error not listed"),
        "{stderr}"
    );

    for all in [["--max-errors", "0"], ["--max-errors", "150"]] {
        let out = stg_run(&[&all[..], &[file]].concat());
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(count(&stderr, "Error: "), 150, "{all:?}");
        assert!(!stderr.contains("not listed"), "{all:?}: {stderr}");
    }

    let out = stg_run(&["--check", "--max-errors", "lots", file]);
    assert_eq!(out.status.code(), Some(2), "a bad number is a usage error");
    assert!(text(&out.stderr).contains("--max-errors"));
}

/// Warnings between and after the listed errors are counted with them.
#[test]
fn warnings_after_the_last_listed_error_are_counted() {
    let dir = scratch("mixed");
    let file = dir.join("mixed.stg");
    // An error, then a binding with an unused free variable (a warning),
    // then another error.
    std::fs::write(
        &file,
        "a = {} \\u {} -> unbound {}\n\
         b = {} \\n {x} -> let y = {x} \\u {} -> Unit {} in y\n\
         c = {} \\u {} -> unbound {}\n\
         main = {} \\u {} -> Unit {}\n",
    )
    .unwrap();
    let out = stg_run(&[Path::new("--check"), Path::new("--max-errors=1"), &file]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(count(&stderr, "Error: "), 1, "{stderr}");
    assert_eq!(count(&stderr, "Warning: "), 0, "{stderr}");
    assert!(
        stderr.contains("stg-run: 1 more error and 1 more warning not listed"),
        "{stderr}"
    );
}

/// A valid program with many warnings: every one is listed (the limit is on
/// errors), and the program runs.
#[test]
fn every_warning_of_a_valid_program_is_listed_and_it_runs() {
    let dir = scratch("warnings");
    let file = dir.join("warnings.stg");
    let n = 5_000;
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!(
            "f{i} = {{}} \\n {{x}} -> let y = {{x}} \\u {{}} -> Unit {{}} in y\n"
        ));
    }
    s.push_str("main = {} \\u {} -> I# {42#}\n");
    std::fs::write(&file, s).unwrap();
    let out = stg_run(&[&file]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{}", &stderr[..500]);
    assert_eq!(text(&out.stdout), "42\n");
    assert_eq!(
        count(&stderr, "Warning: declared but unused free variable"),
        n
    );
    assert!(!stderr.contains("not listed"));
}

/// A label more than 100 lines from the main one is shown in a snippet of
/// its own with its own place (before, ariadne walked every line between
/// them, once per diagnostic, and headed the snippet with the main label's
/// place); nearby ones share the snippet.
#[test]
fn far_labels_get_their_own_snippet_and_place() {
    let dir = scratch("far");
    let file = dir.join("far.stg");
    let mut s = String::from("-- é: characters are not bytes\nf = {} \\u {} -> Unit {}\n");
    for i in 0..150 {
        s.push_str(&format!("-- {i} é\n"));
    }
    s.push_str("f = {} \\u {} -> Unit {}\ng = {} \\u {} -> Unit {}\ng = {} \\u {} -> Unit {}\n");
    s.push_str("main = {} \\u {} -> Unit {}\n");
    std::fs::write(&file, s).unwrap();
    let out = stg_run(&[Path::new("--check"), &file]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    let far = format!(
        "Error: `f` is defined twice in module `far`\n     ╭─[ {name}:153:1 ]\n     │\n 153 │ f = {{}} \\u {{}} -> Unit {{}}\n     │ ┬  \n     │ ╰── second definition\n     │\n     ├─[ {name}:2:1 ]\n     │\n   2 │ f = {{}} \\u {{}} -> Unit {{}}\n     │ ┬  \n     │ ╰── first definition\n",
        name = file.display()
    );
    assert!(stderr.contains(&far), "{stderr}");
    // Two definitions of `g` two lines apart share one snippet, headed with
    // the main label's place.
    let near = format!(
        "     ╭─[ {name}:155:1 ]\n     │\n 154 │ g = {{}} \\u {{}} -> Unit {{}}\n     │ ┬  \n     │ ╰── first definition\n 155 │ g",
        name = file.display()
    );
    assert!(stderr.contains(&near), "{stderr}");
}

/// A related label on a line too long to show (generated code) makes the
/// diagnostic use the windowed layout, with that label as a note: ariadne
/// would print the whole line, and count its characters for every label.
#[test]
fn a_related_label_on_a_long_line_is_a_note() {
    let dir = scratch("long_related");
    let file = dir.join("long.stg");
    let padding = "é".repeat(5_000);
    std::fs::write(
        &file,
        format!(
            "f = {{}} \\u {{}} -> Unit {{}}; {{- {padding} -}} g = {{}} \\u {{}} -> Unit {{}}\n\
             g = {{}} \\u {{}} -> Unit {{}}\n\
             main = {{}} \\u {{}} -> Unit {{}}\n"
        ),
    )
    .unwrap();
    let out = stg_run(&[Path::new("--check"), &file]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.len() < 2_000, "{stderr}");
    let name = file.display();
    let expected = format!(
        "Error: `g` is defined twice in module `long`\n   ╭─[ {name}:2:1 ]\n   │\n 2 │ g = {{}} \\u {{}} -> Unit {{}}\n   │ ┬\n   │ ╰── second definition\n   │\n   │ Note: {name}:1:5033: first definition\n"
    );
    assert!(stderr.contains(&expected), "{stderr}");
}
