//! Generated programs of any size, shared by `tests/check_scale.rs`,
//! `tests/robust_heap_profile.rs` and `examples/front_end_bench.rs` (which
//! includes this file by path). Each user takes some of them.
#![allow(dead_code)]

/// `main` as a chain of `n` lets, each closing over the previous binding.
pub fn let_chain(n: usize) -> String {
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

/// `main` as a chain of `n` `let`s (`n` even) of integer thunks, each
/// `plusInt` of the one before, which only it holds (the shape the fast
/// engine's compiler looks for along a chain: `Compiled::doomed_int_calls`),
/// then `plusInt` of the last and `one`: its value is `n`.
pub fn int_thunk_chain(n: usize) -> String {
    let mut s = String::from(
        "one = {} \\r {} -> I# {1#}\n\
         plusInt = {} \\r {a, b} -> case a of\n  I# {x} -> case b of\n    I# {y} -> case +# {x, y} of\n      r -> I# {r}\n\
         main = {} \\u {} ->\n  let t0 = {} \\u {} -> I# {0#}\n",
    );
    for i in 1..n {
        s.push_str(&format!(
            "  in let t{i} = {{t{p}}} \\u {{}} -> plusInt {{t{p}, one}}\n",
            p = i - 1
        ));
    }
    s.push_str(&format!("  in plusInt {{t{}, one}}\n", n - 1));
    s
}

/// `n` ten-line functions calling each other, about `10 n` lines.
pub fn many_functions(n: usize) -> String {
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

/// `n` functions `f0` … `f{n-1}`, each building a list cell and calling
/// the next with the longer list, the last walking it `spins` times: under
/// `--cost-centres=stacks --auto-cc=top` the stacks go `n` deep, and every
/// level's cell stays live (a band of its own) while the last one runs.
pub fn deep_stacks(n: usize, spins: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        let next = if i + 1 < n {
            format!("f{} {{ys}}", i + 1)
        } else {
            "work {ys}".to_string()
        };
        s.push_str(&format!(
            "f{i} = {{}} \\r {{xs}} ->\n  let ys = {{xs}} \\n {{}} -> Cons {{one, xs}}\n  in case {next} of r -> r {{}}\n"
        ));
    }
    s.push_str(&format!(
        "one = {{}} \\r {{}} -> I# {{1#}}
nil = {{}} \\r {{}} -> Nil {{}}
work = {{}} \\r {{xs}} -> spin {{xs, {spins}#}}
spin = {{}} \\r {{xs, k#}} ->
  case k# of
    0# -> length {{xs}}
    default -> case length {{xs}} of
      n -> case -# {{k#, 1#}} of k1# -> spin {{xs, k1#}}
main = {{}} \\u {{}} -> f0 {{nil}}
"
    ));
    s
}
