//! What the header comments of programs/*.stg say about cost attribution in
//! flat mode (the profiling paper's semantics), checked on the machine.
//! Tick counts are machine steps (the default clock), so they are exact and
//! the same on every machine; the assertions only compare orders of size.

mod machine_common;
use machine_common::*;
use stg_run::internal::machine::RunResult;
use stg_run::internal::profile::Counters;
use stg_run::internal::stg::auto_cc::AutoCc;

fn run_flat(name: &str) -> RunResult {
    let path = format!("programs/{name}.stg");
    let text = std::fs::read_to_string(&path).unwrap();
    let r = run_text(&path, &text, true, AutoCc::None, &flat());
    let expected = std::fs::read_to_string(format!("programs/{name}.stdout")).unwrap();
    assert_eq!(r.out, expected, "{name}");
    assert!(r.result.error.is_none(), "{name}: {:?}", r.result.error);
    r.result
}

fn cc(r: &RunResult, name: &str) -> Counters {
    flat_counters(r, name)
}

/// The thunks map builds under "foo" (the elements and the rest of the
/// list) are forced by the printer under MAIN, and charged to "foo".
#[test]
fn paper_map_scc_elements_are_charged_to_foo() {
    let r = run_flat("paper_map_scc");
    let foo = cc(&r, "foo");
    assert_eq!(foo.strict_calls, 1, "{}", tree_text(&r));
    assert_eq!(foo.lazy_calls, 4, "{}", tree_text(&r));
    assert_eq!(cc(&r, "MAIN").words, 0, "{}", tree_text(&r));
}

/// scc "foo" map (f x) (scc "bar" (map (g y) l)): both maps do real work,
/// each under its own cost centre.
#[test]
fn nested_scc_map_charges_each_map_to_its_own_scc() {
    let r = run_flat("nested_scc_map");
    let (foo, bar) = (cc(&r, "foo"), cc(&r, "bar"));
    assert_eq!(
        (foo.strict_calls, bar.strict_calls),
        (1, 1),
        "{}",
        tree_text(&r)
    );
    assert!(foo.ticks > 100 && bar.ticks > 100, "{}", tree_text(&r));
}

/// scc "foo" (map (scc "bar" (f x)) l): "bar" only evaluates the partial
/// application f x, once; the calls of f are charged to "foo".
#[test]
fn nested_scc_partial_charges_only_the_partial_application_to_bar() {
    let r = run_flat("nested_scc_partial");
    let (foo, bar) = (cc(&r, "foo"), cc(&r, "bar"));
    assert_eq!(bar.strict_calls, 1, "{}", tree_text(&r));
    assert!(bar.curried_calls >= 1, "{}", tree_text(&r));
    assert!(foo.ticks > 10 * bar.ticks, "{}", tree_text(&r));
}

/// scc "foo" (map (\y -> scc "bar" (f x y)) l): "bar" is entered once per
/// element evaluated.
#[test]
fn nested_scc_lambda_enters_bar_once_per_element() {
    let r = run_flat("nested_scc_lambda");
    assert_eq!(cc(&r, "bar").strict_calls, 5, "{}", tree_text(&r));
    assert_eq!(cc(&r, "foo").strict_calls, 1, "{}", tree_text(&r));
}

/// scc "foo" (g x, y): g x is forced by the printer, outside the scc, and
/// still charged to "foo".
#[test]
fn scc_pair_charges_the_suspended_component_to_foo() {
    let r = run_flat("scc_pair");
    let foo = cc(&r, "foo");
    assert!(foo.ticks > 300, "{}", tree_text(&r));
    assert!(foo.lazy_calls >= 1, "{}", tree_text(&r));
    assert!(cc(&r, "MAIN").ticks < 20, "{}", tree_text(&r));
}

/// The \s thunk b is built under "build" and entered under "use": its
/// cost (triangle 10) goes to "build".
#[test]
fn single_entry_thunk_costs_go_to_its_builder() {
    let r = run_flat("single_entry");
    let (build, used) = (cc(&r, "build"), cc(&r, "use"));
    assert_eq!(
        (build.strict_calls, used.strict_calls),
        (1, 1),
        "{}",
        tree_text(&r)
    );
    assert!(build.ticks > 5 * used.ticks, "{}", tree_text(&r));
}

/// The thunk k = scc "mk" (mulAdd {two}) is evaluated once: its second use
/// enters the partial application left by rule 17a.
#[test]
fn pap_update_evaluates_the_thunk_once() {
    let r = run_flat("pap_update");
    let mk = cc(&r, "mk");
    assert_eq!(mk.strict_calls, 1, "{}", tree_text(&r));
    assert!(mk.curried_calls >= 1, "{}", tree_text(&r));
}
