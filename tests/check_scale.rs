//! The front end on very large and very deep programs: no stack overflow
//! along `let`/`scc` chains (which the parser's nesting limit does not
//! bound), and checking in linear time.

use std::time::{Duration, Instant};

use stg_run::stg::auto_cc::{self, AutoCc};
use stg_run::stg::check::check_program;
use stg_run::stg::load::load;
use stg_run::stg::parser::parse_module;
use stg_run::stg::printer::print_module;
use stg_run::stg::source::SourceMap;
use stg_run::stg::syntax::Program;

/// `main` as a chain of `n` lets, each closing over the previous binding.
fn let_chain(n: usize) -> String {
    let mut s = String::from("main = {} \\u {} ->\n  let x0 = {} \\r {} -> I# {0#}\n");
    for i in 1..n {
        s.push_str(&format!(
            "  in let x{i} = {{x{p}}} \\r {{}} -> Cons {{x{p}, x{p}}}\n",
            p = i - 1
        ));
    }
    s.push_str(&format!("  in x{} {{}}\n", n - 1));
    s
}

/// `main` as a chain of `n` nested `scc`s.
fn scc_chain(n: usize) -> String {
    let mut s = String::from("main = {} \\u {} ->\n");
    for i in 0..n {
        s.push_str(&format!("  scc \"l{i}\"\n"));
    }
    s.push_str("  Unit {}\n");
    s
}

/// `n` ten-line functions calling each other, about `10 n` lines.
fn many_functions(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!(
            "f{i} = {{}} \\r {{xs, acc}} ->
  case xs {{}} of
    Nil {{}} -> acc {{}}
    Cons {{y, ys}} ->
      let acc2 = \\u {{}} ->
            case y {{}} of
              I# {{a#}} -> case acc {{}} of
                I# {{b#}} -> case +# {{a#, b#}} of s# -> I# {{s#}}
      in f{next} {{ys, acc2}}
",
            next = (i + 1) % n
        ));
    }
    s.push_str("main = {} \\u {} -> f0 {nil, zero}\nnil = {} \\r {} -> Nil {}\nzero = {} \\r {} -> I# {0#}\n");
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

#[test]
fn long_let_chain() {
    on_main_sized_stack(|| front_end(&let_chain(20_000)));
}

#[test]
fn long_scc_chain() {
    on_main_sized_stack(|| front_end(&scc_chain(20_000)));
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

/// Run with `cargo test --release --test check_scale -- --ignored`.
#[test]
#[ignore = "timing: meaningful in release builds only"]
fn checking_100k_lines_takes_well_under_a_second() {
    for (name, text) in [
        ("functions", many_functions(10_000)),
        ("let chain", let_chain(100_000)),
    ] {
        assert!(text.lines().count() >= 90_000);
        on_main_sized_stack(move || {
            let (module, diags) = parse_module(0, "big", &text);
            assert!(diags.is_empty());
            let mut program = Program {
                modules: vec![module.expect("parsed")],
            };
            let start = Instant::now();
            let diags = check_program(&mut program);
            let took = start.elapsed();
            eprintln!("{name}: checked in {took:?}");
            assert!(diags.is_empty());
            assert!(took < Duration::from_millis(700), "{name}: {took:?}");
        });
    }
}
