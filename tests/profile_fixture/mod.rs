//! Hand-built profiles shared by the profile tests.
#![allow(dead_code)]

use stg_run::internal::profile::{CostCentreDecl, Counters, Entry, Profile};

pub fn counters(
    ticks: u64,
    words: u64,
    tail: u64,
    strict: u64,
    lazy: u64,
    curried: u64,
) -> Counters {
    Counters {
        ticks,
        words,
        tail_calls: tail,
        strict_calls: strict,
        lazy_calls: lazy,
        curried_calls: curried,
    }
}

fn cc(module: u32, name: &str) -> CostCentreDecl {
    CostCentreDecl {
        module,
        name: name.to_string(),
    }
}

fn entry(cost_centre: u32, counters: Counters, children: &[u32]) -> Entry {
    Entry {
        cost_centre,
        counters,
        children: children.to_vec(),
    }
}

/// The shape of the GHC guide's second fib example, stacks mode:
/// MAIN > CAF > main > {main.g > fib, main.f > fib}, plus an unused
/// `CAF` of `Prelude`. main.g is listed first (file order) but main.f costs
/// far more, so a time-sorted report shows main.f first.
///
/// Totals: ticks 2+1+5+2+40+3+9000 = 9053, words 3+4+10+3+200+6+50000 = 50226.
pub fn fib() -> Profile {
    Profile {
        frequency: 1000,
        overhead: 0,
        modules: vec!["MAIN".into(), "Prelude".into(), "Main".into()],
        cost_centres: vec![
            cc(1, "MAIN"),   // 1
            cc(2, "CAF"),    // 2
            cc(3, "CAF"),    // 3
            cc(3, "main"),   // 4
            cc(3, "main.f"), // 5
            cc(3, "main.g"), // 6
            cc(3, "fib"),    // 7
        ],
        entries: vec![
            entry(1, counters(2, 3, 1, 0, 0, 0), &[1]),     // 0 MAIN
            entry(3, counters(1, 4, 2, 0, 1, 0), &[2]),     // 1 CAF Main
            entry(4, counters(5, 10, 7, 1, 0, 1), &[3, 5]), // 2 main
            entry(6, counters(2, 3, 4, 1, 0, 0), &[4]),     // 3 main.g
            entry(7, counters(40, 200, 5919, 1973, 0, 0), &[]), // 4 fib
            entry(5, counters(3, 6, 4, 1, 0, 0), &[6]),     // 5 main.f
            entry(7, counters(9000, 50000, 8077611, 2692537, 0, 12), &[]), // 6 fib
        ],
    }
}

/// A chain `depth` entries deep (root included), alternating two cost centres.
pub fn chain(depth: usize) -> Profile {
    let mut entries = Vec::with_capacity(depth);
    for i in 0..depth {
        let children = if i + 1 < depth {
            vec![(i + 1) as u32]
        } else {
            vec![]
        };
        entries.push(entry(
            1 + (i % 2) as u32,
            counters(1, 2, 3, 4, 5, 6),
            &children,
        ));
    }
    Profile {
        frequency: 0,
        overhead: 0,
        modules: vec!["MAIN".into(), "Main".into()],
        cost_centres: vec![cc(1, "MAIN"), cc(2, "loop")],
        entries,
    }
}

/// A profile of `n` entries over 1,000 cost centres, shaped like a big
/// program's: each entry's parent one of the few entries before it (a
/// deterministic pseudo-random walk, so trees are deep and wide), counters
/// pseudo-random. For the page's responsiveness on a large profile.
pub fn large(n: usize) -> Profile {
    let ncc = 1000u32;
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |m: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % m.max(1)
    };
    let mut entries: Vec<Entry> = Vec::with_capacity(n);
    entries.push(entry(1, counters(5, 5, 1, 0, 0, 0), &[]));
    for i in 1..n {
        let far = next(10) == 0;
        let back = 1 + next(if far { i as u64 } else { 8 });
        let parent = i.saturating_sub(back as usize);
        let cc = 2 + next(ncc as u64 - 1) as u32;
        let c = counters(next(1000), next(5000), next(50), next(20), next(5), next(3));
        entries.push(entry(cc, c, &[]));
        entries[parent].children.push(i as u32);
    }
    let mut cost_centres = vec![cc(1, "MAIN")];
    cost_centres.extend((2..=ncc).map(|i| cc(2, &format!("c{i}"))));
    Profile {
        frequency: 0,
        overhead: 0,
        modules: vec!["MAIN".into(), "Big".into()],
        cost_centres,
        entries,
    }
}
