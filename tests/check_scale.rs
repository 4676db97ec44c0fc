//! The front end on very large and very deep programs: no stack overflow
//! along `let`/`scc` chains (the parser stops them at its nesting limit, but
//! trees built by other means are not limited, and the checker, printer and
//! auto-cc walk those chains in loops). The speed of checking is measured by
//! `cargo run --release --example front_end_bench` (docs/PERFORMANCE.md).

use stg_run::internal::stg::auto_cc::{self, AutoCc};
use stg_run::internal::stg::check::check_program;
use stg_run::internal::stg::load::load;
use stg_run::internal::stg::parser::parse_module;
use stg_run::internal::stg::printer::print_module;
use stg_run::internal::stg::source::SourceMap;
use stg_run::internal::stg::syntax::{
    Atom, Binding, Expr, ExprKind, Flag, Ident, Lambda, Module, Program, Span,
};

mod generated_programs;
use generated_programs::{int_thunk_chain, let_chain, many_functions};

/// `main` as a chain of `n` nested `scc`s.
fn scc_chain(n: usize) -> String {
    let mut s = String::from("main = {} \\u {} ->\n");
    for i in 0..n {
        s.push_str(&format!("  scc \"l{i}\"\n"));
    }
    s.push_str("  Unit {}\n");
    s
}

/// Loads, prints (checking the print is a fixed point) and applies
/// `--auto-cc=all`.
fn front_end(text: &str) {
    let mut sources = SourceMap::new();
    let loaded = load(&mut sources, &[("deep.stg".into(), text.into())], false)
        .unwrap_or_else(|d| panic!("{} diagnostics, first: {}", d.len(), d[0].message));
    let mut program = loaded.program;
    let printed = print_module(&program.modules[0]);
    let (again, diags) = parse_module(0, "deep", &printed);
    assert!(
        diags.is_empty(),
        "printed program does not parse: {}",
        diags[0].message
    );
    let again = again.expect("parsed");
    assert_eq!(print_module(&again), printed);
    auto_cc::apply(&mut program, AutoCc::All);
}

/// Runs `f` on a thread with the main thread's usual 8 MiB stack.
fn on_main_sized_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no panic");
}

/// As deep as the parser accepts.
const PARSEABLE: usize = stg_run::internal::stg::layout::MAX_DEPTH - 10;

#[test]
fn long_let_chain() {
    on_main_sized_stack(|| front_end(&let_chain(PARSEABLE)));
}

#[test]
fn long_scc_chain() {
    on_main_sized_stack(|| front_end(&scc_chain(PARSEABLE)));
}

fn ex(kind: ExprKind) -> Expr {
    Expr {
        kind,
        span: Span::default(),
    }
}

/// `main = \u {} -> let x0 = .. in scc "s1" let x1 = {x0} .. in ..`,
/// `depth` levels deep, built directly (the parser would refuse it).
fn deep_tree(depth: usize) -> Program {
    let var = |i: usize| Ident::new(format!("x{i}"), Span::default());
    let mut body = ex(ExprKind::App {
        fun: var(depth - 1),
        args: Box::default(),
    });
    for i in (0..depth).rev() {
        let args = if i == 0 {
            vec![]
        } else {
            vec![Atom::Var(var(i - 1))]
        };
        let lambda = Lambda {
            free: None,
            flag: Flag::NonUpdatable,
            args: Box::default(),
            body: ex(ExprKind::Con {
                con: Ident::new(if i == 0 { "Nil" } else { "Box" }, Span::default()),
                args: args.into(),
            }),
            span: Span::default(),
        };
        body = ex(ExprKind::Let {
            rec: false,
            bindings: vec![Binding {
                name: var(i),
                lambda,
            }]
            .into(),
            body: Box::new(body),
        });
        if i % 2 == 1 {
            body = ex(ExprKind::Scc {
                label: format!("s{i}").into(),
                label_span: Span::default(),
                body: Box::new(body),
            });
        }
    }
    let main = Binding {
        name: Ident::new("main", Span::default()),
        lambda: Lambda {
            free: None,
            flag: Flag::Updatable,
            args: Box::default(),
            body,
            span: Span::default(),
        },
    };
    Program {
        modules: vec![Module {
            name: "deep".into(),
            file: 0,
            bindings: vec![main],
        }],
    }
}

#[test]
fn alternating_let_scc_chain_prints_and_parses_back() {
    let mut program = deep_tree(PARSEABLE / 2);
    assert!(check_program(&mut program).is_empty());
    let printed = print_module(&program.modules[0]);
    let (again, diags) = parse_module(0, "deep", &printed);
    assert!(diags.is_empty(), "{}", diags[0].message);
    let mut again = Program {
        modules: vec![again.expect("parsed")],
    };
    assert!(check_program(&mut again).is_empty());
    assert_eq!(print_module(&again.modules[0]), printed);
}

#[test]
fn deep_built_tree_is_walked_without_recursion() {
    on_main_sized_stack(|| {
        let mut program = deep_tree(100_000);
        let diags = check_program(&mut program);
        if let Some(d) = diags.first() {
            std::mem::forget(program);
            panic!("{}", d.message);
        }
        let printed = print_module(&program.modules[0]);
        assert!(printed.contains("x99999 = {x99998} \\r {} -> Box {x99998}"));
        // Alternating `let`s and `scc`s do not drift right.
        let widest = printed.lines().map(str::len).max().unwrap_or(0);
        assert!(widest < 80, "a line of {widest} characters");
        auto_cc::apply(&mut program, AutoCc::All);
        // Dropping a tree this deep recurses (the syntax tree has no
        // iterative Drop); that is not what this test is about.
        std::mem::forget(program);
    });
}

#[test]
fn inferred_free_lists_in_generated_program() {
    let (module, diags) = parse_module(0, "gen", &many_functions(3));
    assert!(diags.is_empty());
    let mut program = Program {
        modules: vec![module.expect("parsed")],
    };
    assert!(check_program(&mut program).is_empty());
    let printed = print_module(&program.modules[0]);
    assert!(printed.contains("acc2 = {y, acc} \\u {} ->"), "{printed}");
}

/// The fast engine's compiler looks along a `let` chain for thunks only
/// the next one holds (`Compiled::doomed_int_calls`), in time linear in
/// the chain: the longest chain the layout allows, of such thunks, runs to
/// its value in both engines (a quadratic look took minutes here).
#[test]
fn longest_chain_of_integer_thunks_compiles_and_runs() {
    use stg_run::internal::machine::{self, Engine, RunOptions};
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(|| {
            let n = stg_run::internal::stg::layout::MAX_CHAIN - 10;
            let text = int_thunk_chain(n);
            let mut sources = SourceMap::new();
            let loaded = load(&mut sources, &[("chain.stg".into(), text)], false)
                .unwrap_or_else(|d| panic!("{}", d[0].message));
            let mut outputs = Vec::new();
            for engine in [Engine::Fast, Engine::Reference] {
                let options = RunOptions {
                    engine,
                    ..RunOptions::default()
                };
                let mut out = Vec::new();
                let r = machine::run(
                    &loaded.program,
                    &sources,
                    &options,
                    &mut out,
                    &mut Vec::new(),
                );
                assert!(r.error.is_none(), "{engine:?}: {:?}", r.error);
                outputs.push((String::from_utf8(out).unwrap(), r.stats.steps));
            }
            assert_eq!(outputs[0], outputs[1]);
            assert_eq!(outputs[0].0.trim(), n.to_string());
        })
        .expect("spawn")
        .join()
        .expect("no panic");
}

/// A program the front end accepts also runs: a `let` chain as long as
/// the layout allows lowers, with `--auto-cc=all` too (which adds an `scc`
/// per `let`, doubling the depth). It stops at its first step here, by
/// `--max-steps`, not with "nested too deep".
#[test]
fn longest_chain_the_parser_accepts_also_lowers() {
    use stg_run::internal::machine::{self, ErrorKind, RunOptions};
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(|| {
            let text = let_chain(stg_run::internal::stg::layout::MAX_CHAIN);
            let mut sources = SourceMap::new();
            let loaded = load(&mut sources, &[("chain.stg".into(), text)], true)
                .unwrap_or_else(|d| panic!("{}", d[0].message));
            let mut program = loaded.program;
            auto_cc::apply(&mut program, AutoCc::All);
            let options = RunOptions {
                max_steps: Some(1),
                ..RunOptions::default()
            };
            let r = machine::run(
                &program,
                &sources,
                &options,
                &mut Vec::new(),
                &mut Vec::new(),
            );
            let kind = r.error.map(|e| e.kind);
            assert_eq!(kind, Some(ErrorKind::StepLimit { limit: 1 }));
        })
        .expect("spawn")
        .join()
        .expect("no panic");
}
