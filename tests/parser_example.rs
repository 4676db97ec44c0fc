//! The example of LANGUAGE.md ("Example") parses to the expected structure.

use stg_run::internal::stg::parser::parse_module;
use stg_run::internal::stg::syntax::*;

const EXAMPLE: &str = include_str!("fixtures/language_md_example.stg");

fn names(ids: &[Ident]) -> Vec<&str> {
    ids.iter().map(|i| i.name.as_str()).collect()
}

#[test]
fn language_md_example() {
    let (m, d) = parse_module(0, "example", EXAMPLE);
    assert!(d.is_empty(), "{d:#?}");
    let m = m.unwrap();
    assert_eq!(m.name, "example");
    let tops: Vec<&str> = m.bindings.iter().map(|b| b.name.name.as_str()).collect();
    assert_eq!(tops, ["map", "double", "main"]);

    // map
    let map = &m.bindings[0].lambda;
    assert_eq!(map.flag, Flag::NonUpdatable);
    assert_eq!(map.free.as_deref().map(names), Some(vec![]));
    assert_eq!(names(&map.args), ["f", "xs"]);
    let ExprKind::Case { scrutinee, alts } = &map.body.kind else {
        panic!("map body is not a case: {:?}", map.body)
    };
    assert!(
        matches!(&scrutinee.kind, ExprKind::App { fun, args } if fun.name == "xs" && args.is_empty())
    );
    assert_eq!(alts.len(), 2);
    assert!(
        matches!(&alts[0].pattern, Pattern::Con { con, vars } if con.name == "Nil" && vars.is_empty())
    );
    assert!(
        matches!(&alts[0].body.kind, ExprKind::Con { con, args } if con.name == "Nil" && args.is_empty())
    );
    let Pattern::Con { con, vars } = &alts[1].pattern else {
        panic!()
    };
    assert_eq!(con.name, "Cons");
    assert_eq!(names(vars), ["y", "ys"]);
    let ExprKind::Let {
        rec,
        bindings,
        body,
    } = &alts[1].body.kind
    else {
        panic!()
    };
    assert!(!rec);
    assert_eq!(bindings.len(), 2);
    assert_eq!(bindings[0].name.name, "fy");
    assert_eq!(
        bindings[0].lambda.free.as_deref().map(names),
        Some(vec!["f", "y"])
    );
    assert_eq!(bindings[0].lambda.flag, Flag::Updatable);
    assert_eq!(bindings[1].name.name, "mfy");
    assert!(
        matches!(&bindings[1].lambda.body.kind, ExprKind::App { fun, args } if fun.name == "map" && args.len() == 2)
    );
    assert!(
        matches!(&body.kind, ExprKind::Con { con, args } if con.name == "Cons" && args.len() == 2)
    );

    // double: nested cases, primitive alternative r#
    let double = &m.bindings[1].lambda;
    assert_eq!(double.flag, Flag::Reentrant);
    let ExprKind::Case { alts, .. } = &double.body.kind else {
        panic!()
    };
    assert_eq!(alts.len(), 1);
    let ExprKind::Case {
        scrutinee,
        alts: inner,
    } = &alts[0].body.kind
    else {
        panic!()
    };
    assert!(
        matches!(&scrutinee.kind, ExprKind::Prim { op: PrimOp::Add, args, .. } if args.len() == 2)
    );
    assert!(matches!(&inner[0].pattern, Pattern::Var(v) if v.name == "r#"));

    // main: letrec of five, body scc "foo" (map {double, l})
    let main = &m.bindings[2].lambda;
    let ExprKind::Let {
        rec,
        bindings,
        body,
    } = &main.body.kind
    else {
        panic!()
    };
    assert!(rec);
    let bnames: Vec<&str> = bindings.iter().map(|b| b.name.name.as_str()).collect();
    assert_eq!(bnames, ["one", "two", "nil", "l2", "l"]);
    let ExprKind::Scc { label, body, .. } = &body.kind else {
        panic!()
    };
    assert_eq!(label, "foo");
    assert!(
        matches!(&body.kind, ExprKind::App { fun, args } if fun.name == "map" && args.len() == 2)
    );

    // Spans point at the source.
    let span = m.bindings[2].name.span;
    assert_eq!(&EXAMPLE[span.range()], "main");
    let lam = m.bindings[0].lambda.span;
    assert!(EXAMPLE[lam.range()].starts_with("{} \\n {f,xs} ->"));
    assert!(EXAMPLE[lam.range()].ends_with("in Cons {fy,mfy}"));
}
