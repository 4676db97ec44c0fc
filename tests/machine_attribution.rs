//! Attribution tests from the profiling paper and the GHC guide.

mod machine_common;
use machine_common::*;
use stg_run::internal::machine::{RunOptions, TraceFormat};
use stg_run::internal::stg::auto_cc::AutoCc;

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
#[test]
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

fn prog(name: &str) -> String {
    std::fs::read_to_string(format!("programs/{name}.stg")).unwrap()
}

/// Section 3.2: the cost of evaluating an argument stays with the cost
/// centre that built it. `foo` costs the same whether the argument it
/// forces is cheap or expensive; the builder (CAF) pays the difference.
#[test]
fn paper_3_2_arguments_stay_with_their_builders() {
    let src = |n: u32| {
        format!(
            "one = {{}} \\r {{}} -> I# {{1#}}
n = {{}} \\r {{}} -> I# {{{n}#}}
main = {{}} \\u {{}} ->
  let a = {{}} \\u {{}} -> let l = {{}} \\u {{}} -> enumFromTo {{one, n}} in sum {{l}}
  in scc \"foo\" (plusInt {{a, one}})
"
        )
    };
    let small = run_text("t.stg", &src(10), true, AutoCc::None, &flat());
    let big = run_text("t.stg", &src(1000), true, AutoCc::None, &flat());
    assert_eq!(small.out, "56\n");
    assert_eq!(big.out, "500501\n");
    let (fs, fb) = (
        flat_counters(&small.result, "foo"),
        flat_counters(&big.result, "foo"),
    );
    assert_eq!(fs, fb, "foo's costs must not depend on the argument's");
    assert_eq!(fs.strict_calls, 1);
    let (cs, cb) = (
        flat_counters(&small.result, "CAF"),
        flat_counters(&big.result, "CAF"),
    );
    assert!(
        cb.ticks > cs.ticks + 1000,
        "the builder pays: {cs:?} vs {cb:?}"
    );
}

/// Section 3.3, first example: `scc "foo" map (f x) (scc "bar" (map (g y) l))`:
/// the calls of g go to bar, the calls of f to foo (seen in stacks mode
/// with --auto-cc=top, which names f and g); l is charged to CAF.
#[test]
fn paper_3_3_nested_scc_map() {
    let r = run_text(
        "nested_scc_map.stg",
        &prog("nested_scc_map"),
        true,
        AutoCc::Top,
        &stacks(),
    );
    assert_eq!(r.out, "[33,36,39,42,45]\n");
    let tree = tree_text(&r.result);
    let g = stack_counters(&r.result, &["MAIN", "CAF", "main", "foo", "bar", "g"])
        .unwrap_or_else(|| panic!("{tree}"));
    let f = stack_counters(&r.result, &["MAIN", "CAF", "main", "foo", "f"])
        .unwrap_or_else(|| panic!("{tree}"));
    assert_eq!(g.strict_calls, 5, "{tree}");
    assert_eq!(f.strict_calls, 5, "{tree}");
    assert!(
        stack_counters(&r.result, &["MAIN", "CAF", "main", "foo", "bar", "f"]).is_none(),
        "{tree}"
    );
    // Flat: each cost centre entered once.
    let r = run_text(
        "nested_scc_map.stg",
        &prog("nested_scc_map"),
        true,
        AutoCc::None,
        &flat(),
    );
    assert_eq!(flat_counters(&r.result, "foo").strict_calls, 1);
    assert_eq!(flat_counters(&r.result, "bar").strict_calls, 1);
}

/// Section 3.3, second example, both forms: `scc "bar" (f x)` evaluates
/// only the partial application under bar (entered once, cheap), while
/// `\y -> scc "bar" (f x y)` puts every complete call of f under bar.
#[test]
fn paper_3_3_partial_versus_lambda() {
    let p = run_text(
        "p.stg",
        &prog("nested_scc_partial"),
        true,
        AutoCc::None,
        &flat(),
    );
    let l = run_text(
        "l.stg",
        &prog("nested_scc_lambda"),
        true,
        AutoCc::None,
        &flat(),
    );
    assert_eq!(p.out, "[3,6,9,12,15]\n");
    assert_eq!(l.out, "[3,6,9,12,15]\n");
    let (pb, lb) = (
        flat_counters(&p.result, "bar"),
        flat_counters(&l.result, "bar"),
    );
    assert_eq!(pb.strict_calls, 1);
    assert_eq!(lb.strict_calls, 5);
    // The partial application f x reaches two frames back to back under
    // bar: 17a′ pops the scc's restore frame, 17a updates the thunk with
    // the PAP; both count as curried calls.
    assert_eq!(pb.curried_calls, 2, "{pb:?}");
    assert_eq!(lb.curried_calls, 0, "{lb:?}");
    assert!(
        lb.ticks > 5 * pb.ticks,
        "bar does the multiplications only in the lambda form: {pb:?} {lb:?}"
    );
}

/// Section 4: `scc "foo" (g x, y)`: the thunk `g x` is built under foo and
/// forced by the printer under MAIN, and its cost still goes to foo.
#[test]
fn paper_4_scc_pair() {
    let run = |x: u32| {
        let text = prog("scc_pair").replace(
            "x = {} \\r {} -> I# {10#}",
            &format!("x = {{}} \\r {{}} -> I# {{{x}#}}"),
        );
        run_text("scc_pair.stg", &text, true, AutoCc::None, &flat())
    };
    let (a, b) = (run(10), run(100));
    assert_eq!(a.out, "Pair 55 7\n");
    assert_eq!(b.out, "Pair 5050 7\n");
    let (ma, mb) = (
        flat_counters(&a.result, "MAIN"),
        flat_counters(&b.result, "MAIN"),
    );
    let (fa, fb) = (
        flat_counters(&a.result, "foo"),
        flat_counters(&b.result, "foo"),
    );
    assert_eq!(ma, mb, "the printer (MAIN) does not pay for g x");
    assert!(fb.ticks > fa.ticks + 500, "foo pays for g x: {fa:?} {fb:?}");
    // Thunks built under foo (g x and those g x builds) made foo current.
    assert!(
        fa.lazy_calls >= 1 && fb.lazy_calls > fa.lazy_calls,
        "{fa:?} {fb:?}"
    );
}

/// Hidden execution: a chain of frames popped back to back. Every closure
/// updated in the row gets (and its words are charged to) the cost centre
/// current before the first pop: `c`, not the demanding `b`, `a` or CAF.
#[test]
fn hidden_execution_update_chain() {
    let src = "main = {} \\u {} ->
  let t3 = {} \\u {} -> scc \"c\" (K {})
  in let t2 = {t3} \\u {} -> scc \"b\" (t3 {})
     in let t1 = {t2} \\u {} -> scc \"a\" (t2 {})
        in case t1 {} of K {} -> I# {1#}
";
    let r = run_text(
        "t.stg",
        src,
        false,
        AutoCc::None,
        &RunOptions {
            trace: Some(TraceFormat::Text),
            ..flat()
        },
    );
    assert_eq!(r.out, "1\n");
    let c = flat_counters(&r.result, "c");
    let b = flat_counters(&r.result, "b");
    let a = flat_counters(&r.result, "a");
    // Three updates with K (3 words each) under c; ticks: Eval K, then
    // 16′ 16 16′ 16 16′ 16 all charged to c.
    assert_eq!(c.words, 9, "{}", r.trace);
    assert_eq!(c.ticks, 7, "{}", r.trace);
    assert_eq!((a.words, b.words), (0, 0));
    // Under a (and b) only rule 1 (`t2 {}`) and rule 15 (entering t2) fire.
    assert_eq!((a.ticks, b.ticks), (2, 2), "{}", r.trace);
}

/// Building and summing a 1,000,000-element list with a right fold (a
/// million nested continuations) does not overflow the Rust stack.
#[test]
fn million_element_list() {
    let src = "one = {} \\r {} -> I# {1#}
big = {} \\r {} -> I# {1000000#}
zero = {} \\r {} -> I# {0#}
main = {} \\u {} ->
  let l = {} \\u {} -> enumFromTo {one, big}
  in case length {l} of
       I# {n} -> foldr {plusInt, zero, l}
";
    let r = run_text("t.stg", src, true, AutoCc::None, &flat());
    assert!(r.result.error.is_none(), "{:?}", r.result.error);
    assert_eq!(r.out, "500000500000\n");
}

/// Stacks mode, rule 17a: the partial application built under `mk` is
/// applied by 17a's own continuation, which appends its captured stack
/// (`... > m > mk`) to the demanding one (`... > m > use`): add runs under
/// `MAIN > CAF > m > use > mk > add`.
#[test]
fn stacks_17a_continuation_appends_pap_stack() {
    let src = "add = {} \\r {a, b} -> scc \"add\" (case +# {a, b} of r -> I# {r})
main = {} \\u {} ->
  scc \"m\" (let p = {} \\u {} -> scc \"mk\" (add {1#})
           in scc \"use\" (p {2#}))
";
    let r = run_text("t.stg", src, false, AutoCc::None, &stacks());
    assert_eq!(r.out, "3\n");
    let tree = tree_text(&r.result);
    let add = stack_counters(&r.result, &["MAIN", "CAF", "m", "use", "mk", "add"])
        .unwrap_or_else(|| panic!("{tree}"));
    assert_eq!(add.strict_calls, 1, "{tree}");
    // The PAP was built (17a) under m > mk, which also received the lazy call.
    let mk =
        stack_counters(&r.result, &["MAIN", "CAF", "m", "mk"]).unwrap_or_else(|| panic!("{tree}"));
    assert_eq!(mk.curried_calls, 1, "{tree}");
    let m = stack_counters(&r.result, &["MAIN", "CAF", "m"]).unwrap_or_else(|| panic!("{tree}"));
    assert_eq!(m.lazy_calls, 1, "entering p made m current: {tree}");
}

/// A user binding hides a Prelude binding for user code only; Prelude
/// code keeps using its own.
#[test]
fn user_bindings_hide_prelude_bindings_for_user_code_only() {
    let src = "one = {} \\r {} -> I# {1#}
three = {} \\r {} -> I# {3#}
foldl' = {} \\r {k, z, xs} -> Hidden {}
main = {} \\u {} ->
  let l = {} \\u {} -> enumFromTo {one, three}
  in let s = {l} \\u {} -> sum {l}
         h = {l} \\u {} -> foldl' {one, one, l}
     in P {s, h}
";
    let r = run_text("t.stg", src, true, AutoCc::None, &flat());
    assert!(r.result.error.is_none(), "{:?}", r.result.error);
    assert_eq!(r.out, "P 6 Hidden\n");
}

/// `scc "CAF"` is the module's `CAF` cost centre (one label, one cost
/// centre per module), not a second cost centre of the same name.
#[test]
fn scc_caf_is_the_modules_caf() {
    let text = "main = {} \\u {} -> scc \"CAF\" (Nil {})\n";
    let r = run_text("t.stg", text, false, AutoCc::None, &flat()).result;
    let cafs = r
        .profile
        .cost_centres
        .iter()
        .filter(|c| c.name == "CAF")
        .count();
    assert_eq!(cafs, 1, "{:?}", r.profile.cost_centres);
    // The thunk `main` (lazy call) and the annotation (strict call).
    let caf = flat_counters(&r, "CAF");
    assert_eq!((caf.lazy_calls, caf.strict_calls), (1, 1));
}
