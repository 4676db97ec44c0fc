//! One tiny program per rule (and per runtime error), its text trace
//! snapshotted. Each snapshot was read: the rules fire in the order the
//! semantics demands.

mod machine_common;
use machine_common::*;

macro_rules! rule_test {
    ($name:ident, $src:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(stringify!($name), trace_of($src));
        }
    };
}

// Rules 1, 2, 3, 5, 15, 16: apply, enter a function, let, constructor,
// enter and update a thunk; the printer forces the Int# field.
rule_test!(
    rules_1_2_3_5_15_16,
    "main = {} \\u {} -> let x = {} \\r {} -> I# {1#} in id {x}
id = {} \\r {a} -> a {}
"
);

// Rules 4 and 6 (match), 7 (default binding the value: allocates), 8.
rule_test!(
    rules_4_6_7_8,
    "main = {} \\u {} ->
  case A {} of
    A {} -> case B {} of
              A {} -> Z {}
              v -> case C {} of
                     A {} -> Z {}
                     default -> v {}
"
);

// Rules 9, 10, 11, 12, 13, 14 on Int#.
rule_test!(
    rules_9_to_14,
    "main = {} \\u {} ->
  case +# {1#, 2#} of
    3# -> case 7# of
            0# -> Z {}
            n -> case n {} of
                   1# -> Z {}
                   default -> I# {n}
"
);

// Rule 15′ then 16′: a single-entry thunk is entered once, not updated.
rule_test!(
    rules_15s_16s,
    "main = {} \\u {} -> let s = {} \\s {} -> K {} in case s {} of K {} -> I# {5#}
"
);

// Rule 17a: a thunk evaluates to a partial application of a 2-argument
// function; the update builds a PAP and the continuation applies it.
rule_test!(
    rule_17a,
    "add = {} \\r {a, b} -> case +# {a, b} of r -> I# {r}
main = {} \\u {} -> let p = {} \\u {} -> add {1#} in p {2#}
"
);

// Rule 17a′: the same with a single-entry thunk (restore frame).
rule_test!(
    rule_17as,
    "add = {} \\r {a, b} -> case +# {a, b} of r -> I# {r}
main = {} \\u {} -> let p = {} \\s {} -> add {1#} in p {2#}
"
);

// scc pushes a restore frame; the same label again is scc= (no frame).
rule_test!(
    rules_scc_and_scc_eq,
    "main = {} \\u {} -> scc \"a\" (scc \"a\" (I# {1#}))
"
);

// A chain of update frames popped back to back (hidden execution):
// t1 = t2 = t3 = K; three 16s in a row.
rule_test!(
    update_chain,
    "main = {} \\u {} ->
  letrec t3 = {} \\u {} -> K {}
         t2 = {t3} \\u {} -> t3 {}
         t1 = {t2} \\u {} -> t2 {}
  in case t1 {} of K {} -> I# {1#}
"
);

// The result printer: showsPrec 11 parentheses, lists, negative numbers.
rule_test!(
    printer_shapes,
    "main = {} \\u {} ->
  letrec n = {} \\r {} -> I# { -5#}
         l0 = {} \\r {} -> Nil {}
         l1 = {n, l0} \\r {} -> Cons {n, l0}
         j = {n} \\r {} -> Just {n}
         p = {j, l1} \\r {} -> P {j, l1, 3#}
  in Just {p}
"
);

// ----- runtime errors -----

rule_test!(
    error_no_matching_alternative,
    "main = {} \\u {} -> case B {} of A {} -> Z {}
"
);
rule_test!(
    error_black_hole,
    "main = {} \\u {} -> letrec x = {x} \\u {} -> x {} in x {}
"
);
rule_test!(
    error_single_entry_twice,
    "main = {} \\u {} -> let s = {} \\s {} -> K {} in case s {} of K {} -> s {}
"
);
rule_test!(
    error_int_to_update_frame,
    "main = {} \\u {} -> let t = {} \\u {} -> 5# in case t {} of n -> I# {n}
"
);
rule_test!(
    error_constructor_with_pending_arguments,
    "main = {} \\u {} -> let k = {} \\r {} -> K {} in k {1#}
"
);
rule_test!(
    error_int_where_closure,
    "main = {} \\u {} -> let f = {} \\r {x} -> x {1#} in f {2#}
"
);
rule_test!(
    error_closure_where_int,
    "main = {} \\u {} -> let k = {} \\r {} -> K {} in case +# {k, 1#} of n -> I# {n}
"
);
rule_test!(
    error_literal_case_on_constructor,
    "main = {} \\u {} -> case K {} of 1# -> Z {}
"
);
rule_test!(
    error_algebraic_case_on_int,
    "main = {} \\u {} -> case 1# of K {} -> Z {}
"
);
rule_test!(
    error_function_in_case,
    "f = {} \\r {x} -> K {}
main = {} \\u {} -> case f {} of K {} -> Z {}
"
);
rule_test!(
    error_division_by_zero,
    "main = {} \\u {} -> case %# {1#, 0#} of n -> I# {n}
"
);

/// Stacks mode: scc pushes no frame; 17a's continuation appends the stack
/// the partial application captured (`m > mk`) to the demanding one.
#[test]
fn stacks_mode_trace() {
    let src = "add = {} \\r {a, b} -> scc \"add\" (case +# {a, b} of r -> I# {r})
main = {} \\u {} ->
  scc \"m\" (let p = {} \\u {} -> scc \"mk\" (add {1#})
           in scc \"use\" (p {2#}))
";
    let opts = stg_run::internal::machine::RunOptions {
        trace: Some(stg_run::internal::machine::TraceFormat::Text),
        ..stacks()
    };
    let r = run_text(
        "t.stg",
        src,
        false,
        stg_run::internal::stg::auto_cc::AutoCc::None,
        &opts,
    );
    insta::assert_snapshot!(
        "stacks_mode_trace",
        format!("{}output: {:?}\n", r.trace, r.out)
    );
}
