//! The printer's output parses back to the tree it printed, and printing is a
//! fixed point on real programs.

use proptest::prelude::*;
use stg_run::internal::stg::parser::parse_module;
use stg_run::internal::stg::printer::print_module;
use stg_run::internal::stg::syntax::{
    Alt, Atom, Binding, Expr, ExprKind, Flag, Ident, Lambda, Module, Pattern, PrimOp, Span,
};

const S: Span = Span {
    file: 0,
    start: 0,
    end: 0,
};

fn ident(name: &str) -> Ident {
    Ident::new(name, S)
}

// ----- span erasure: the derived equality of some nodes compares spans ----

fn erase_ident(i: &mut Ident) {
    i.span = S;
}

fn erase_atoms(atoms: &mut [Atom]) {
    for a in atoms {
        match a {
            Atom::Var(v) => erase_ident(v),
            Atom::Lit(_, s) => *s = S,
        }
    }
}

fn erase_lambda(l: &mut Lambda) {
    l.span = S;
    for v in l.free.iter_mut().flatten() {
        erase_ident(v);
    }
    l.args.iter_mut().for_each(erase_ident);
    erase_expr(&mut l.body);
}

fn erase_expr(e: &mut Expr) {
    e.span = S;
    match &mut e.kind {
        ExprKind::Let { bindings, body, .. } => {
            for b in bindings {
                erase_ident(&mut b.name);
                erase_lambda(&mut b.lambda);
            }
            erase_expr(body);
        }
        ExprKind::Case { scrutinee, alts } => {
            erase_expr(scrutinee);
            for a in alts {
                a.span = S;
                match &mut a.pattern {
                    Pattern::Con { con, vars } => {
                        erase_ident(con);
                        vars.iter_mut().for_each(erase_ident);
                    }
                    Pattern::Lit(_, s) | Pattern::Default(s) => *s = S,
                    Pattern::Var(v) => erase_ident(v),
                }
                erase_expr(&mut a.body);
            }
        }
        ExprKind::Scc {
            label_span, body, ..
        } => {
            *label_span = S;
            erase_expr(body);
        }
        ExprKind::App { fun, args } => {
            erase_ident(fun);
            erase_atoms(args);
        }
        ExprKind::Con { con, args } => {
            erase_ident(con);
            erase_atoms(args);
        }
        ExprKind::Prim { op_span, args, .. } => {
            *op_span = S;
            erase_atoms(args);
        }
        ExprKind::Lit(_) => {}
    }
}

fn erase_module(m: &mut Module) {
    m.file = 0;
    for b in &mut m.bindings {
        erase_ident(&mut b.name);
        erase_lambda(&mut b.lambda);
    }
}

fn parse(text: &str) -> Result<Module, String> {
    let (module, diags) = parse_module(0, "m", text);
    let errors: Vec<String> = diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{}..{}: {}", d.span.start, d.span.end, d.message))
        .collect();
    match module {
        Some(m) if errors.is_empty() => Ok(m),
        _ => Err(format!("{errors:?}\n--- text ---\n{text}")),
    }
}

// ----- generators ------------------------------------------------------------

fn var() -> impl Strategy<Value = Ident> {
    prop::sample::select(vec!["x", "y", "f", "xs", "go'", "n#", "a_1", "z9", "_t"]).prop_map(ident)
}

fn con() -> impl Strategy<Value = Ident> {
    prop::sample::select(vec!["Nil", "Cons", "I#", "Just", "T2'", "A_b"]).prop_map(ident)
}

fn lit() -> impl Strategy<Value = i64> {
    prop_oneof![-5i64..5, any::<i64>(), Just(i64::MIN), Just(i64::MAX),]
}

fn atom() -> impl Strategy<Value = Atom> {
    prop_oneof![
        var().prop_map(Atom::Var),
        lit().prop_map(|k| Atom::Lit(k, S))
    ]
}

fn atoms() -> impl Strategy<Value = Vec<Atom>> {
    prop::collection::vec(atom(), 0..4)
}

/// Labels as the lexer accepts them: any character but NUL (a profile
/// stores labels NUL-terminated, so the lexer refuses one).
fn label() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "a", "Z", " ", "\"", "\\", "\n", "é", "{-", "--", "-}", "#", "_", "\t", "\r", "😀",
        ]),
        0..6,
    )
    .prop_map(|parts| parts.concat())
}

fn flag() -> impl Strategy<Value = Flag> {
    prop::sample::select(vec![
        Flag::Updatable,
        Flag::SingleEntry,
        Flag::Reentrant,
        Flag::NonUpdatable,
    ])
}

fn ex(kind: ExprKind) -> Expr {
    Expr { kind, span: S }
}

fn leaf() -> impl Strategy<Value = Expr> {
    prop_oneof![
        (var(), atoms()).prop_map(|(fun, args)| ex(ExprKind::App {
            fun,
            args: args.into()
        })),
        (con(), atoms()).prop_map(|(con, args)| ex(ExprKind::Con {
            con,
            args: args.into()
        })),
        (
            prop::sample::select(PrimOp::ALL.to_vec()),
            prop::collection::vec(atom(), 2)
        )
            .prop_map(|(op, mut args)| {
                args.truncate(op.arity());
                ex(ExprKind::Prim {
                    op,
                    op_span: S,
                    args: args.into(),
                })
            }),
        lit().prop_map(|k| ex(ExprKind::Lit(k))),
    ]
}

fn lambda(body: impl Strategy<Value = Expr>) -> impl Strategy<Value = Lambda> {
    (
        prop::option::of(prop::collection::vec(var(), 0..3)),
        flag(),
        prop::collection::vec(var(), 0..3),
        body,
    )
        .prop_map(|(free, flag, args, body)| Lambda {
            free: free.map(Vec::into_boxed_slice),
            flag,
            args: args.into(),
            body,
            span: S,
        })
}

fn binding(body: impl Strategy<Value = Expr>) -> impl Strategy<Value = Binding> {
    (var(), lambda(body)).prop_map(|(name, lambda)| Binding { name, lambda })
}

fn alts(body: BoxedStrategy<Expr>) -> impl Strategy<Value = Vec<Alt>> {
    let alt = |pattern: Pattern, body: Expr| Alt {
        pattern,
        body,
        span: S,
    };
    let algebraic = prop::collection::vec(
        (con(), prop::collection::vec(var(), 0..3), body.clone()),
        1..3,
    )
    .prop_map(move |alts| {
        alts.into_iter()
            .map(|(con, vars, body)| {
                alt(
                    Pattern::Con {
                        con,
                        vars: vars.into(),
                    },
                    body,
                )
            })
            .collect::<Vec<_>>()
    });
    let literal = prop::collection::vec((lit(), body.clone()), 1..3).prop_map(move |alts| {
        alts.into_iter()
            .map(|(k, body)| alt(Pattern::Lit(k, S), body))
            .collect::<Vec<_>>()
    });
    let default = prop::option::of((prop::option::of(var()), body)).prop_map(move |d| {
        d.map(|(v, body)| {
            alt(
                match v {
                    Some(v) => Pattern::Var(v),
                    None => Pattern::Default(S),
                },
                body,
            )
        })
    });
    (prop_oneof![algebraic, literal], default).prop_map(|(mut alts, default)| {
        alts.extend(default);
        alts
    })
}

fn expr() -> impl Strategy<Value = Expr> {
    leaf().prop_recursive(4, 40, 3, |inner| {
        prop_oneof![
            (
                any::<bool>(),
                prop::collection::vec(binding(inner.clone()), 1..3),
                inner.clone()
            )
                .prop_map(|(rec, bindings, body)| ex(ExprKind::Let {
                    rec,
                    bindings: bindings.into(),
                    body: Box::new(body)
                })),
            (inner.clone(), alts(inner.clone())).prop_map(|(scrutinee, alts)| ex(ExprKind::Case {
                scrutinee: Box::new(scrutinee),
                alts: alts.into()
            })),
            (label(), inner).prop_map(|(label, body)| ex(ExprKind::Scc {
                label: label.into(),
                label_span: S,
                body: Box::new(body)
            })),
        ]
    })
}

fn module() -> impl Strategy<Value = Module> {
    prop::collection::vec(binding(expr()), 1..4).prop_map(|bindings| Module {
        name: "m".into(),
        file: 0,
        bindings,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// print, then parse, gives back the tree.
    #[test]
    fn print_then_parse_is_identity(m in module()) {
        let text = print_module(&m);
        let mut back = parse(&text).map_err(TestCaseError::fail)?;
        erase_module(&mut back);
        prop_assert_eq!(&back, &m, "printed as:\n{}", text);
    }
}

// ----- real programs -----------------------------------------------------------

/// The example of LANGUAGE.md.
const SPEC_EXAMPLE: &str = include_str!("fixtures/language_md_example.stg");

/// print(parse(print(parse(text)))) == print(parse(text)), and the second
/// parse gives the same tree as the first.
fn assert_fixed_point(name: &str, text: &str) {
    let mut first = parse(text).unwrap_or_else(|e| panic!("{name} does not parse: {e}"));
    let printed = print_module(&first);
    let mut second =
        parse(&printed).unwrap_or_else(|e| panic!("{name} printed does not parse: {e}"));
    let reprinted = print_module(&second);
    assert_eq!(printed, reprinted, "{name}: printing is not a fixed point");
    erase_module(&mut first);
    erase_module(&mut second);
    assert_eq!(first, second, "{name}: printing changed the tree");
}

#[test]
fn spec_example_is_a_fixed_point() {
    assert_fixed_point("LANGUAGE.md example", SPEC_EXAMPLE);
}

#[test]
fn every_program_is_a_fixed_point() {
    // STG_PROGRAMS_DIR overrides the directory (to try other program sets).
    let dir = std::env::var("STG_PROGRAMS_DIR")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/programs").to_string());
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("programs/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "stg"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no programs/*.stg found");
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("readable");
        let name = path.display().to_string();
        assert_fixed_point(&name, &text);
        if path.file_stem().is_some_and(|s| s != "Prelude") {
            assert_checked_fixed_point(&name, &text);
        }
    }
}

/// After checking (free lists filled in, flags normalised), printing is a
/// fixed point too: print, load again, print gives the same text.
fn assert_checked_fixed_point(name: &str, text: &str) {
    use stg_run::internal::stg::load::load;
    use stg_run::internal::stg::source::SourceMap;
    let checked_print = |text: &str| {
        let mut sources = SourceMap::new();
        let loaded = load(
            &mut sources,
            &[("user.stg".to_string(), text.to_string())],
            true,
        )
        .unwrap_or_else(|d| {
            panic!(
                "{name} does not load:\n{}\n--- text ---\n{text}",
                stg_run::internal::stg::diagnostic::render_all(&d, &sources, false)
            )
        });
        let user = loaded.program.modules.last().expect("a user module");
        print_module(user)
    };
    let once = checked_print(text);
    let twice = checked_print(&once);
    assert_eq!(once, twice, "{name}: checked printing is not a fixed point");
}

#[test]
fn checked_spec_example_is_a_fixed_point() {
    assert_checked_fixed_point("example", SPEC_EXAMPLE);
}

#[test]
fn checked_spec_example_layout() {
    use stg_run::internal::stg::load::load;
    use stg_run::internal::stg::source::SourceMap;
    let mut sources = SourceMap::new();
    let loaded = load(
        &mut sources,
        &[("example.stg".into(), SPEC_EXAMPLE.into())],
        false,
    )
    .unwrap_or_else(|d| panic!("{} diagnostics", d.len()));
    insta::assert_snapshot!(print_module(&loaded.program.modules[0]));
}
