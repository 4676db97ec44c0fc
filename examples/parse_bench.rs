//! Generates a 100,000-line `.stg` program and times `parse_module` on it.
//! Run with `cargo run --release --example parse_bench [lines]`.

use std::fmt::Write;
use std::time::Instant;
use stg_run::stg::parser::parse_module;

/// About `lines` lines of ordinary code: 10-line functions with `case`, `let`, `letrec`, `scc`.
fn generate(lines: usize) -> String {
    let mut s = String::with_capacity(lines * 40);
    let mut i = 0;
    while i * 10 < lines {
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
        i += 1;
    }
    s.push_str("main = {} \\u {} -> f0 {one, nil}\n");
    s
}

fn main() {
    let lines: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let src = generate(lines);
    let n = src.lines().count();
    for _ in 0..3 {
        let t = Instant::now();
        let (m, d) = parse_module(0, "big", &src);
        let took = t.elapsed();
        assert!(d.is_empty(), "{:?}", d.first());
        let m = m.expect("parses");
        println!(
            "{n} lines, {} bytes, {} bindings: parsed in {took:.2?}",
            src.len(),
            m.bindings.len()
        );
    }
    phases(&src);
    // Deep nesting: an error, not a crash, and fast.
    let depth = 100_000;
    let deep = format!(
        "m = \\u {{}} -> {}x{}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let t = Instant::now();
    let (_, d) = parse_module(0, "deep", &deep);
    println!(
        "{depth} nested parentheses: {} ({:.2?})",
        d[0].message,
        t.elapsed()
    );
    let mut deep = String::from("m = \\u {} ->\n");
    for k in 0..depth {
        let _ = writeln!(deep, "{}let a = \\u {{}} -> x in", " ".repeat(k % 50 + 1));
    }
    deep.push_str("  x\n");
    let t = Instant::now();
    let (_, d) = parse_module(0, "deep", &deep);
    println!(
        "{depth} nested lets: {:?} ({:.2?})",
        d.first().map(|d| &d.message),
        t.elapsed()
    );
}

#[allow(dead_code)]
fn phases(src: &str) {
    use stg_run::stg::{layout, lexer};
    let t = Instant::now();
    let (toks, _) = lexer::lex(0, src);
    let n = toks.len();
    let t1 = t.elapsed();
    let (laid, _) = layout::layout(0, toks, src.len());
    let t2 = t.elapsed();
    println!(
        "{n} tokens: lex {t1:.2?}, lex+layout {t2:.2?} ({} laid-out tokens)",
        laid.tokens.len()
    );
}
