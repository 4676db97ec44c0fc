//! The front end is linear: a generated program of many lines parses quickly,
//! and deep nesting fails fast with an error.
//!
//! The 100,000-line timing is an ignored test, meant for release builds:
//! `cargo test --release --test parser_scale -- --ignored --nocapture`.

use std::fmt::Write;
use std::time::{Duration, Instant};
use stg_run::stg::parser::parse_module;

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
#[ignore = "timing; run in release with --ignored --nocapture"]
fn hundred_thousand_lines() {
    let small = generate(10_000);
    let big = generate(100_000);
    let (t_small, _) = time_parse(&small);
    let mut best = Duration::MAX;
    for _ in 0..3 {
        let (t, n) = time_parse(&big);
        assert_eq!(n, 10_001);
        best = best.min(t);
    }
    println!(
        "{} lines, {} bytes: best of 3 {best:.2?} (10,000 lines: {t_small:.2?})",
        big.lines().count(),
        big.len()
    );
    assert!(best < Duration::from_secs(1), "100k lines took {best:?}");
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
        "let a = \\u {} -> x in ".repeat(depth)
    );
    for src in [parens, lets] {
        let t = Instant::now();
        let (m, d) = parse_module(0, "deep", &src);
        assert!(m.is_none());
        assert!(d[0].message.contains("nesting too deep"), "{:?}", d[0]);
        println!("{} bytes of deep nesting: {:.2?}", src.len(), t.elapsed());
    }
}
