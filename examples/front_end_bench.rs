//! The front end's speed on a generated 100,000-line program (issue 2):
//! parse, check, and the whole `load` (parse + check), each timed separately.
//!
//!     cargo run --release --example front_end_bench
//!
//! Prints one line per program shape; docs/PERFORMANCE.md records the figures.
//! Two shapes: 10,000 ten-line functions calling each other (wide), and one
//! `main` made of a 100,000-deep chain of `let`s (deep).

use std::time::Instant;
use stg_run::stg::check::check_program;
use stg_run::stg::load::load;
use stg_run::stg::parser::parse_module;
use stg_run::stg::source::SourceMap;
use stg_run::stg::syntax::Program;

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

fn measure(name: &str, text: String) {
    let lines = text.lines().count();
    let start = Instant::now();
    let (module, diags) = parse_module(0, "big", &text);
    let parsed = start.elapsed();
    assert!(diags.is_empty(), "{name}: {}", diags[0].message);
    let mut program = Program {
        modules: vec![module.expect("parsed")],
    };
    let start = Instant::now();
    let diags = check_program(&mut program);
    let checked = start.elapsed();
    assert!(diags.is_empty(), "{name}: {}", diags[0].message);

    let start = Instant::now();
    let mut sources = SourceMap::new();
    let loaded = load(&mut sources, &[("big.stg".into(), text)], true);
    let whole = start.elapsed();
    assert!(loaded.is_ok(), "{name}: load failed");
    println!(
        "{name:<10} {lines:>7} lines: parse {:>7.1} ms, check {:>6.1} ms, load with Prelude {:>7.1} ms",
        parsed.as_secs_f64() * 1e3,
        checked.as_secs_f64() * 1e3,
        whole.as_secs_f64() * 1e3
    );
}

fn main() {
    // The generated programs nest deeply; give the thread the same 8 MiB a
    // main thread has, so the figures are what `stg-run --check` sees.
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(|| {
            measure("wide", many_functions(10_000));
            measure("deep", let_chain(100_000));
        })
        .expect("spawn")
        .join()
        .expect("benchmark thread");
}
