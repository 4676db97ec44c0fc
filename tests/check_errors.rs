//! One snapshot per kind of static error (LANGUAGE.md, "Static errors"),
//! each the full diagnostic as a user sees it.

use stg_run::internal::stg::diagnostic::render_all;
use stg_run::internal::stg::load::load;
use stg_run::internal::stg::source::SourceMap;

/// Loads `files` without the Prelude and renders every diagnostic; panics if
/// the load succeeded without any.
fn diagnostics(files: &[(&str, &str)]) -> String {
    let mut sources = SourceMap::new();
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    let diags = match load(&mut sources, &files, false) {
        Ok(loaded) => loaded.warnings,
        Err(diags) => diags,
    };
    assert!(!diags.is_empty(), "expected diagnostics, got none");
    render_all(&diags, &sources, false)
}

fn one(text: &str) -> String {
    diagnostics(&[("test.stg", text)])
}

const MAIN: &str = "main = {} \\u {} -> Unit {}\n";

fn with_main(text: &str) -> String {
    one(&format!("{text}{MAIN}"))
}

#[test]
fn unbound_variable_with_suggestion() {
    insta::assert_snapshot!(with_main(
        "len = {} \\r {xs} ->\n  case xss {} of\n    Nil {} -> 0#\n    default -> 1#\n"
    ));
}

#[test]
fn unbound_variable() {
    insta::assert_snapshot!(with_main("f = {} \\r {x} -> frobnicate {x}\n"));
}

#[test]
fn missing_free_variable() {
    insta::assert_snapshot!(with_main(
        "f = {} \\r {x, y} ->\n  let t = {x} \\u {} -> g {x, y}\n  in t {}\ng = {} \\r {a, b} -> a {}\n"
    ));
}

#[test]
fn stray_free_variable_is_a_warning() {
    insta::assert_snapshot!(with_main(
        "f = {} \\r {x, y} ->\n  let t = {x, y} \\u {} -> x {}\n  in t {}\n"
    ));
}

#[test]
fn global_in_free_list_is_a_warning() {
    insta::assert_snapshot!(with_main(
        "g = {} \\r {a} -> a {}\nf = {} \\r {x} ->\n  let t = {g, x} \\u {} -> g {x}\n  in t {}\n"
    ));
}

#[test]
fn scc_labels_without_a_cost_centre_of_their_own_are_warnings() {
    insta::assert_snapshot!(with_main(
        "f = {} \\r {x} -> scc \"CAF\" (scc \"\" (x {}))\n"
    ));
}

#[test]
fn misspelt_constructor_in_a_pattern_is_a_warning() {
    insta::assert_snapshot!(with_main(
        "sum = {} \\r {xs} ->\n  case xs {} of\n    Nil {} -> 0#\n    Cosn {y, ys} -> y {}\nl = {} \\r {} -> Cons {1#, l}\n"
    ));
}

#[test]
fn a_constructor_matched_but_never_built_without_a_close_name_is_not_reported() {
    // A complete case over a type some of whose constructors this program
    // never builds is not a mistake.
    let text = "f = {} \\r {m} ->\n  case m {} of\n    Nothing {} -> 0#\n    Just {x} -> x {}\n\
                main = {} \\u {} -> case f {j} of\n    n -> Unit {}\nj = {} \\r {} -> Just {1#}\n";
    let mut sources = SourceMap::new();
    let loaded = load(
        &mut sources,
        &[("test.stg".to_string(), text.to_string())],
        false,
    )
    .unwrap_or_else(|d| panic!("{}", render_all(&d, &sources, false)));
    assert!(
        loaded.warnings.is_empty(),
        "{}",
        render_all(&loaded.warnings, &sources, false)
    );
}

#[test]
fn unbound_name_in_free_list() {
    insta::assert_snapshot!(with_main(
        "f = {} \\r {x} ->\n  let t = {x, z} \\u {} -> x {}\n  in t {}\n"
    ));
}

#[test]
fn duplicate_binding_in_let_group() {
    insta::assert_snapshot!(with_main(
        "f = {} \\r {x} ->\n  letrec a = {x} \\u {} -> x {}\n         a = {} \\r {} -> Nil {}\n  in a {}\n"
    ));
}

#[test]
fn duplicate_top_level_binding() {
    insta::assert_snapshot!(with_main(
        "f = {} \\r {x} -> x {}\nf = {} \\r {y} -> y {}\n"
    ));
}

#[test]
fn same_name_in_two_modules() {
    insta::assert_snapshot!(diagnostics(&[
        ("lib.stg", "helper = {} \\r {x} -> x {}\n"),
        (
            "app.stg",
            "helper = {} \\r {y} -> y {}\nmain = {} \\u {} -> Unit {}\n"
        ),
    ]));
}

#[test]
fn same_module_twice() {
    insta::assert_snapshot!(diagnostics(&[
        ("a/util.stg", MAIN),
        ("b/util.stg", "id = {} \\r {x} -> x {}\n"),
    ]));
}

#[test]
fn a_module_named_like_the_main_cost_centre() {
    insta::assert_snapshot!(diagnostics(&[("MAIN.stg", MAIN)]));
}

#[test]
fn duplicate_argument() {
    insta::assert_snapshot!(with_main("f = {} \\r {x, y, x} -> x {}\n"));
}

#[test]
fn duplicate_pattern_variable() {
    insta::assert_snapshot!(with_main(
        "fst = {} \\r {p} ->\n  case p of\n    Pair {a, a} -> a {}\n"
    ));
}

#[test]
fn constructor_arity_mismatch() {
    insta::assert_snapshot!(with_main(
        "one = {} \\r {x} -> Cons {x, x}\ntwo = {} \\r {x} -> Cons {x}\nthree = {} \\r {y} -> Cons {y}\n"
    ));
}

#[test]
fn updatable_thunk_with_arguments() {
    insta::assert_snapshot!(with_main("f = {} \\u {x} -> x {}\n"));
}

#[test]
fn reentrant_closure_that_is_a_thunk() {
    insta::assert_snapshot!(with_main(
        "g = {} \\r {a} -> a {}\nf = {} \\r {} -> g {f}\n"
    ));
}

#[test]
fn mixed_alternatives() {
    insta::assert_snapshot!(with_main(
        "f = {} \\r {x} ->\n  case x {} of\n    Nil {} -> 0#\n    1# -> 1#\n"
    ));
}

#[test]
fn default_not_last() {
    insta::assert_snapshot!(with_main(
        "f = {} \\r {x} ->\n  case x {} of\n    other -> 0#\n    Nil {} -> 1#\n"
    ));
}

#[test]
fn two_defaults() {
    insta::assert_snapshot!(with_main(
        "f = {} \\r {x} ->\n  case x {} of\n    Nil {} -> 0#\n    default -> 1#\n    y -> 2#\n"
    ));
}

#[test]
fn duplicate_constructor_alternative() {
    insta::assert_snapshot!(with_main(
        "f = {} \\r {x} ->\n  case x {} of\n    Nil {} -> 0#\n    Cons {a, b} -> 1#\n    Nil {} -> 2#\n"
    ));
}

#[test]
fn duplicate_literal_alternative() {
    insta::assert_snapshot!(with_main(
        "f = {} \\r {x} ->\n  case x {} of\n    0# -> 0#\n    -1# -> 1#\n    0# -> 2#\n"
    ));
}

#[test]
fn primitive_with_wrong_number_of_arguments() {
    insta::assert_snapshot!(with_main("f = {} \\r {x} -> case +# {x} of r -> r {}\n"));
}

#[test]
fn no_main() {
    insta::assert_snapshot!(one("f = {} \\r {x} -> x {}\n"));
}

#[test]
fn main_with_arguments() {
    insta::assert_snapshot!(one("main = {} \\r {x} -> x {}\n"));
}

#[test]
fn let_referring_to_its_own_group() {
    insta::assert_snapshot!(with_main(
        "ones = {} \\u {} ->\n  let xs = {} \\u {} -> Cons {one, xs}\n      one = {} \\r {} -> I# {1#}\n  in xs {}\n"
    ));
}

#[test]
fn every_error_of_a_run_is_reported() {
    insta::assert_snapshot!(diagnostics(&[
        (
            "a.stg",
            "f = {} \\r {x, x} -> y {}\ng = {} \\u {z} -> Pair {z}\n"
        ),
        ("b.stg", "h = {} \\r {p} -> Pair {p, p}\n"),
    ]));
}

/// Issue 33: CR (classic Mac), LF and CRLF each end a line, in layout too:
/// the same program in each is the same program, and its error is at the
/// same line and column, with that line shown.
#[test]
fn every_line_ending_gives_the_same_program_and_positions() {
    let lines = [
        "main = {} \\u {} -> f {}",
        "f = {} \\u {} -> case 2# of",
        "  1# -> g {}",
        "  default -> let h = {} \\u {} -> Unit {}",
        "              in h",
    ];
    let lf = one(&lines.join("\n"));
    assert!(lf.contains("test.stg:3:9"), "{lf}");
    assert!(lf.contains("  1# -> g {}"), "{lf}");
    for nl in ["\r", "\r\n"] {
        assert_eq!(one(&lines.join(nl)), lf, "{nl:?}");
    }
}
