//! Cost-centre stack operations at depth (issue 33): nanoseconds per push,
//! append and charge on stacks 10^3 to 10^6 deep, driving the accounting
//! the engines use directly (no program, no front end).
//!
//!     cargo run --release --example stack_ops_bench [DEPTH...]
//!
//! `bench/deep_stacks.sh` runs it; docs/PERFORMANCE.md records the figures.
//! For each depth N, with a fresh [`Accounting`] in stacks mode and cost
//! centres numbered from 2 (`MAIN` is 1):
//! - *new pushes*: N pushes of new cost centres, each on the last: a stack
//!   N + 1 deep (what a chain of N distinct `scc`s does);
//! - *pushes again*: the same N pushes from `MAIN` again (every result
//!   exists: the remembered case);
//! - *cut-backs*: on the deepest stack, N pushes of cost centres it holds,
//!   at pseudo-random depths (recursion returning to an enclosing function);
//! - *appends*: for each stack `s` of the chain, `append(s > x, s)`: a
//!   function built under `s` called one cost centre deeper (nothing to add,
//!   but the shared prefix must be found); and N appends of the chain's
//!   stacks at pseudo-random depths onto `MAIN > y` (each pushes what lies
//!   above `MAIN`, so these are timed per pushed cost centre);
//! - *charges*: a tick charged to each stack of the chain.

use std::hint::black_box;
use std::time::Instant;
use stg_run::internal::machine::CostCentreMode;
use stg_run::internal::machine::accounting::Accounting;

/// Nanoseconds per operation of `ops` operations done by `f`.
fn per_op(ops: usize, f: impl FnOnce()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_nanos() as f64 / ops as f64
}

fn main() {
    let depths: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a depth"))
        .collect();
    let depths = if depths.is_empty() {
        vec![1_000, 10_000, 100_000, 1_000_000]
    } else {
        depths
    };
    println!(
        "| depth | new pushes | pushes again | cut-backs | appends (prefix) | appends (per cost centre pushed) | charges |"
    );
    println!("|---|---|---|---|---|---|---|");
    for n in depths {
        let mut acct = Accounting::new(CostCentreMode::Stacks);
        let main = acct.main_entry;
        let cc = |i: usize| 2 + i as u32;
        let mut chain = Vec::with_capacity(n + 1);
        chain.push(main);
        let new = per_op(n, || {
            let mut s = main;
            for i in 0..n {
                s = acct.scc(s, cc(i));
                chain.push(s);
            }
        });
        let again = per_op(n, || {
            let mut s = main;
            for i in 0..n {
                s = acct.scc(s, cc(i));
            }
            assert_eq!(s, chain[n]);
        });
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move |m: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % m as u64) as usize
        };
        let deepest = chain[n];
        let targets: Vec<usize> = (0..n).map(|_| next(n)).collect();
        let cut = per_op(n, || {
            for &i in &targets {
                black_box(acct.scc(deepest, cc(i)));
            }
        });
        // `s > x` for each stack of the chain, made before timing.
        let deeper: Vec<u32> = chain.iter().map(|&s| acct.scc(s, cc(n))).collect();
        let prefix = per_op(n, || {
            for (i, &s) in chain.iter().enumerate().take(n) {
                let r = acct.enter_function(deeper[i], s);
                debug_assert_eq!(r, deeper[i]);
                black_box(r);
            }
        });
        let other = acct.scc(main, cc(n + 1));
        // A few long appends: N cost centres pushed in all.
        let mut starts = Vec::new();
        let mut pushed = 0;
        while pushed < n {
            let i = 1 + next(n);
            starts.push(i);
            pushed += i;
        }
        let long = per_op(pushed, || {
            for &i in &starts {
                black_box(acct.enter_function(other, chain[i]));
            }
        });
        let charge = per_op(n, || {
            for &s in &chain[..n] {
                acct.ctr(s).ticks += 1;
            }
        });
        println!(
            "| {n} | {new:.0} ns | {again:.0} ns | {cut:.0} ns | {prefix:.0} ns | {long:.0} ns | {charge:.1} ns |"
        );
    }
}
