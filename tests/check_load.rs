//! The front-end driver: file stems as module names, warnings on success,
//! every diagnostic on failure.

use stg_run::internal::stg::load::{load, module_name};
use stg_run::internal::stg::source::SourceMap;
use stg_run::internal::stg::syntax::Flag;

fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

#[test]
fn module_names_are_file_stems() {
    assert_eq!(module_name("programs/nfib.stg"), "nfib");
    assert_eq!(module_name("a.b.stg"), "a.b");
    assert_eq!(module_name("noext"), "noext");
}

#[test]
fn success_carries_warnings_and_a_checked_program() {
    let mut sources = SourceMap::new();
    let loaded = load(
        &mut sources,
        &files(&[
            ("lib/util.stg", "k = {} \\n {x, y} -> x {}\n"),
            (
                "main.stg",
                "main = {} \\n {} -> let t = {k, u} \\n {} -> k {u, u} in t {}\nu = {} \\r {} -> Unit {}\n",
            ),
        ]),
        false,
    )
    .unwrap_or_else(|d| panic!("{}", d[0].message));
    let names: Vec<&str> = loaded
        .program
        .modules
        .iter()
        .map(|m| m.name.as_str())
        .collect();
    assert_eq!(names, ["util", "main"]);
    let messages: Vec<&str> = loaded.warnings.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "`k` is a global, and globals are never listed as free variables",
            "`u` is a global, and globals are never listed as free variables",
        ]
    );
    // `\n` is normalised and the free lists are filled in.
    assert_eq!(
        loaded.program.modules[0].bindings[0].lambda.flag,
        Flag::Reentrant
    );
    let main = &loaded.program.modules[1].bindings[0].lambda;
    assert_eq!(main.flag, Flag::SingleEntry);
    assert_eq!(main.free.as_deref(), Some(&[][..]));
}

#[test]
fn syntax_errors_skip_the_checks() {
    let mut sources = SourceMap::new();
    let diags = load(
        &mut sources,
        &files(&[
            ("bad.stg", "f = {} \\r {x} -> case x of\n"),
            ("main.stg", "main = {} \\u {} -> undefined_thing {}\n"),
        ]),
        false,
    )
    .expect_err("a syntax error");
    assert!(
        diags.iter().all(|d| d.span.file == 0),
        "only bad.stg's errors"
    );
    assert!(!diags.is_empty());
}

#[test]
fn errors_and_warnings_of_every_file_come_together() {
    let mut sources = SourceMap::new();
    let diags = load(
        &mut sources,
        &files(&[
            (
                "a.stg",
                "f = {} \\r {x} -> let t = {x, x2} \\u {} -> x {} in t {}\n",
            ),
            ("b.stg", "main = {} \\u {} -> g {}\n"),
        ]),
        false,
    )
    .expect_err("errors");
    let mut messages: Vec<String> = diags
        .iter()
        .map(|d| format!("{}:{}", d.span.file, d.message))
        .collect();
    messages.sort();
    assert_eq!(
        messages,
        [
            "0:free variable `x2` is not bound here",
            "1:unbound variable `g`",
        ]
    );
}

#[test]
fn a_user_prelude_clashes_with_the_bundled_one() {
    let mut sources = SourceMap::new();
    let diags = load(
        &mut sources,
        &files(&[("mine/Prelude.stg", "main = {} \\u {} -> Unit {}\n")]),
        true,
    )
    .expect_err("two Preludes");
    assert_eq!(diags.len(), 1);
    assert!(
        diags[0]
            .message
            .starts_with("module `Prelude` is loaded twice")
    );
}
