//! `--auto-cc`: which bindings get a cost centre, named how, and where the
//! `scc` goes.

use stg_run::internal::stg::auto_cc::{self, AutoCc};
use stg_run::internal::stg::load::load;
use stg_run::internal::stg::printer::print_program;
use stg_run::internal::stg::source::SourceMap;
use stg_run::internal::stg::syntax::{ExprKind, Program};

/// GHC's nested-function example (001, "main.f" and "main.g"), plus a
/// binding nested two deep, a constructor binding and a top-level value.
const PROGRAM: &str = r#"main = {} \u {} ->
  letrec f = {} \r {n} ->
           let h = {n} \u {} -> fib {n}
           in h {}
         g = {} \r {n} -> fib {n}
         pair = {f, g} \r {} -> Pair {f, g}
  in case f {thirty} of
       r -> scc "mine" (g {r})
fib = {} \r {n} -> n {}
thirty = {} \r {} -> I# {30#}
"#;

const PRELUDE_LIKE: &str = "lib_id = {} \\r {x} -> x {}\n";

fn loaded(mode: AutoCc) -> (SourceMap, Program) {
    let mut sources = SourceMap::new();
    let mut program = load(
        &mut sources,
        &[
            ("Prelude.stg".into(), PRELUDE_LIKE.into()),
            ("main.stg".into(), PROGRAM.into()),
        ],
        false,
    )
    .unwrap_or_else(|d| panic!("{} diagnostics: {}", d.len(), d[0].message))
    .program;
    auto_cc::apply(&mut program, mode);
    (sources, program)
}

#[test]
fn none_changes_nothing() {
    let (_, before) = loaded(AutoCc::None);
    let mut sources = SourceMap::new();
    let plain = load(
        &mut sources,
        &[
            ("Prelude.stg".into(), PRELUDE_LIKE.into()),
            ("main.stg".into(), PROGRAM.into()),
        ],
        false,
    )
    .expect("loads")
    .program;
    assert_eq!(print_program(&before), print_program(&plain));
}

#[test]
fn top_wraps_top_level_bindings_of_user_modules() {
    let (_, program) = loaded(AutoCc::Top);
    insta::assert_snapshot!(print_program(&program));
}

#[test]
fn all_names_nested_bindings_by_their_enclosing_chain() {
    let (_, program) = loaded(AutoCc::All);
    insta::assert_snapshot!(print_program(&program));
}

#[test]
fn inserted_scc_points_at_the_binding() {
    let (sources, program) = loaded(AutoCc::Top);
    let main = &program.modules[1].bindings[0];
    let ExprKind::Scc {
        label, label_span, ..
    } = &main.lambda.body.kind
    else {
        panic!("main's body is not wrapped");
    };
    assert_eq!(label, "main");
    assert_eq!(*label_span, main.name.span);
    assert_eq!(sources.location(main.lambda.body.span), "main.stg:1:1");
}
