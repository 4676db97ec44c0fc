//! Attribution tests from the profiling paper and the GHC guide.

mod machine_common;
use machine_common::*;
use stg_run::stg::auto_cc::AutoCc;

/// The GHC guide's example, small: main.f > fib and main.g > fib, entry
/// counts 2·fib(n) − 1 (fib 0 = fib 1 = 1). The STG version evaluates
/// `f 30` and `g 30` with `case`, not let-bound thunks, so --auto-cc=all
/// gives the guide's tree: `main.f` and `main.g` directly under `main`.
#[test]
fn ghc_guide_fib_stacks_small() {
    let text = std::fs::read_to_string("tests/ghc/ghc_guide_fib.stg")
        .unwrap()
        .replace("I# {30#}", "I# {12#}");
    let r = run_text("ghc_guide_fib.stg", &text, true, AutoCc::All, &stacks());
    assert!(r.result.error.is_none(), "{:?}", r.result.error);
    // fib 12 + fib 6 = 233 + 13
    assert_eq!(r.out, "246\n");
    let f = stack_counters(&r.result, &["MAIN", "CAF", "main", "main.f", "fib"])
        .unwrap_or_else(|| panic!("{}", tree_text(&r.result)));
    let g = stack_counters(&r.result, &["MAIN", "CAF", "main", "main.g", "fib"])
        .unwrap_or_else(|| panic!("{}", tree_text(&r.result)));
    assert_eq!(f.strict_calls, 2 * 233 - 1, "{}", tree_text(&r.result));
    assert_eq!(g.strict_calls, 2 * 13 - 1, "{}", tree_text(&r.result));
}

/// The full oracle: main.f > fib 2692537 entries, main.g > fib 1973.
/// Slow in a debug build: `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn ghc_guide_fib_stacks_full() {
    let text = std::fs::read_to_string("tests/ghc/ghc_guide_fib.stg").unwrap();
    let r = run_text("ghc_guide_fib.stg", &text, true, AutoCc::All, &stacks());
    assert!(r.result.error.is_none(), "{:?}", r.result.error);
    assert_eq!(r.out, "1347256\n");
    let f = stack_counters(&r.result, &["MAIN", "CAF", "main", "main.f", "fib"]).unwrap();
    let g = stack_counters(&r.result, &["MAIN", "CAF", "main", "main.g", "fib"]).unwrap();
    assert_eq!(f.strict_calls, 2692537);
    assert_eq!(g.strict_calls, 1973);
}
