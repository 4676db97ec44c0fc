//! The front end is linear: a generated program of many lines parses quickly,
//! and deep nesting fails fast with an error.
//!
//! The 100,000-line timing is a benchmark, not a test:
//! `cargo run --release --example front_end_bench` (docs/PERFORMANCE.md).

use std::fmt::Write;
use std::time::{Duration, Instant};
use stg_run::internal::stg::layout::MAX_CHAIN;
use stg_run::internal::stg::parser::parse_module;

/// About `lines` lines of ordinary code: 10-line functions with `case`, `let`, `letrec`, `scc`.
fn generate(lines: usize) -> String {
    let mut s = String::with_capacity(lines * 40);
    for i in 0..lines.div_ceil(10) {
        let _ = write!(
            s,
            "-- function {i}\n\
             f{i} = {{}} \\r {{x, ys}} ->\n\
            \x20 case x of\n\
            \x20   I# {{x#}} -> case +# {{x#, -1#}} of\n\
            \x20                  0# -> Nil {{}}\n\
            \x20                  n# -> let h = {{n#}} \\u {{}} -> I# {{n#}}\n\
            \x20                            t = {{ys}} \\u {{}} -> scc \"f{i}\" g {{ys, 1#}}\n\
            \x20                        in Cons {{h, t}}\n\
            \x20   default -> letrec l = {{l}} \\u {{}} -> Cons {{x, l}} in l\n\
            \n"
        );
    }
    s.push_str("main = {} \\u {} -> f0 {one, nil}\n");
    s
}

fn time_parse(src: &str) -> (Duration, usize) {
    let t = Instant::now();
    let (m, d) = parse_module(0, "big", src);
    let took = t.elapsed();
    assert!(d.is_empty(), "{:?}", d.first());
    (took, m.expect("parses").bindings.len())
}

#[test]
fn twenty_thousand_lines() {
    let src = generate(20_000);
    let (took, n) = time_parse(&src);
    assert_eq!(n, 2001);
    println!("20,000 lines: {took:.2?}");
}

#[test]
fn deep_nesting_fails_fast() {
    let depth = 100_000;
    let parens = format!(
        "m = \\u {{}} -> {}x{}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let lets = format!(
        "m = \\u {{}} -> {}x\n",
        "let a = \\u {} -> x in ".repeat(MAX_CHAIN + 1)
    );
    for src in [parens, lets] {
        let t = Instant::now();
        let (m, d) = parse_module(0, "deep", &src);
        assert!(m.is_none());
        assert!(d[0].message.contains("too"), "{:?}", d[0]);
        println!("{} bytes of deep nesting: {:.2?}", src.len(), t.elapsed());
    }
}

/// A long `let … in` chain (deeper than the block nesting limit) parses; the
/// tree is deep, so this runs on a thread with a large stack, as any pass over
/// such trees must (see `layout::MAX_CHAIN`).
#[test]
fn long_let_chain_parses() {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(|| {
            let n = 20_000;
            let mut src = String::from("main = {} \\u {} ->\n");
            for _ in 0..n {
                src.push_str("  let a = {} \\r {} -> Nil {}\n  in\n");
            }
            src.push_str("  a\n");
            let (m, d) = parse_module(0, "chain", &src);
            assert!(d.is_empty(), "{:?}", d.first());
            let mut depth = 0;
            let mut e = &m.as_ref().expect("parses").bindings[0].lambda.body;
            while let stg_run::internal::stg::syntax::ExprKind::Let { body, .. } = &e.kind {
                depth += 1;
                e = body;
            }
            assert_eq!(depth, n);
        })
        .expect("spawn")
        .join()
        .expect("no panic");
}
