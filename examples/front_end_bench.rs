//! The front end's speed on a generated 100,000-line program (issue 2):
//! parse, check, and the whole `load` (parse + check), each timed separately.
//!
//!     cargo run --release --example front_end_bench
//!
//! Prints one line per program shape; docs/PERFORMANCE.md records the figures.
//! Two shapes: 10,000 ten-line functions calling each other (wide), and one
//! `main` made of a 100,000-deep chain of `let`s (deep).

use std::time::Instant;
use stg_run::internal::stg::check::check_program;
use stg_run::internal::stg::load::load;
use stg_run::internal::stg::parser::parse_module;
use stg_run::internal::stg::source::SourceMap;
use stg_run::internal::stg::syntax::Program;

#[path = "../tests/generated_programs/mod.rs"]
mod generated_programs;
use generated_programs::{let_chain, many_functions};

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
