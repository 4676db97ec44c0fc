//! `stg-prof callgrind`: a profile in Valgrind's callgrind format, for
//! KCacheGrind, QCacheGrind and `callgrind_annotate`.
//!
//! The format is Valgrind's "Callgrind Format Specification" (version 1).
//! What maps to what:
//!
//! - **Functions** are cost centres, named `Module.name` (`nfib.nfib.n1`,
//!   `Prelude.CAF`): names must be unique across the file, and every module
//!   has its own `CAF`. The "file" of a function is its source file and its
//!   costs are at its source line, where the side file (`NAME.pgcl.src`)
//!   gives them, so KCacheGrind shows the source beside it; a `CAF` is in
//!   its module's file at line 0; otherwise (no side file, `MAIN`) the file
//!   is the module's name and the line 0.
//! - **Events**, per function and self (exclusive): `Ticks` (the profile's
//!   clock: machine steps, or counter cycles), `Bytes` allocated (words × 8),
//!   `Entries` (strict calls: `scc` entries, the report's "entries"),
//!   `Thunks` (thunk entries), `Calls` (tail calls and returns) and `PAPs`
//!   (partial applications built). A function's self cost is the sum over
//!   every entry of its cost centre in the call graph, as in the report's
//!   top table.
//! - **Calls** are the edges of the call graph: for every entry, an edge from
//!   its parent's cost centre to its own, with the entry's *inherited*
//!   costs (its subtree's) as the cost of the call, and as call count its
//!   `scc` entries, the report's "entries" of that entry. An edge whose
//!   entries are 0 (a `CAF`, only ever entered through its thunk) counts
//!   its thunk entries instead, and at least 1: the tools read `calls=0` as
//!   no call at all and would add the call's inherited cost to the
//!   caller's own cost. Edges between the same two cost centres are
//!   summed. A call is at the caller's line and goes to the callee's.
//!   In flat mode every cost centre is a child of `MAIN`, so the graph is a
//!   star; in stacks mode it is GHC's call tree folded into a graph.
//!   Recursion (a cost centre under itself) is kept as a call to itself, as
//!   Valgrind writes recursive calls: KCacheGrind detects the cycle, and
//!   `callgrind_annotate --inclusive=yes` counts such a call twice, as it
//!   does for Valgrind's own files.
//! - **Totals**: `summary:` is the whole run (the root's inherited costs), so
//!   percentages in the tools are of the whole run, as in the report.
//! - `cmd:` is the program's name (its last module), `desc:` says what a
//!   tick is.
//!
//! Functions are written in cost-centre order and calls in the order of the
//! callee's first entry, so the output is a function of the profile alone.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt::Write;

use super::report::WORD_BYTES;
use crate::profile::side_file::{Clock, SideInfo};
use crate::profile::tree::{Sums, Tree};
use crate::profile::{Profile, one_line};

/// The event names, in column order.
const EVENTS: [(&str, &str); 6] = [
    ("Ticks", "Clock ticks"),
    ("Bytes", "Bytes allocated"),
    ("Entries", "Entries (scc)"),
    ("Thunks", "Thunk entries"),
    ("Calls", "Tail calls and returns"),
    ("PAPs", "Partial applications built"),
];

fn columns(s: &Sums) -> [u128; 6] {
    [
        s.ticks,
        s.words * WORD_BYTES,
        s.strict,
        s.lazy,
        s.tail,
        s.curried,
    ]
}

fn cost_line(out: &mut String, line: u32, s: &Sums) {
    let _ = write!(out, "{line}");
    for c in columns(s) {
        let _ = write!(out, " {c}");
    }
    out.push('\n');
}

/// The callgrind file for `profile`, with the source files and lines of
/// `side` where it has them.
pub fn callgrind(profile: &Profile, side: &SideInfo) -> String {
    let tree = Tree::new(profile);
    let (indiv, inh) = tree.sums(profile);
    let ncc = profile.cost_centres.len();
    // Cost-centre index (0-based) of each entry; entries naming no declared
    // cost centre (which the reader refuses, but a hand-built profile may
    // hold) go to one extra function, "?".
    let cc_of = |i: usize| -> usize {
        let id = profile.entries[i].cost_centre as usize;
        if (1..=ncc).contains(&id) { id - 1 } else { ncc }
    };
    let module_of = |c: usize| -> &str {
        profile
            .cost_centres
            .get(c)
            .map_or("?", |cc| profile.module_of(cc))
    };
    // Each module's source file, from any of its located cost centres.
    let mut module_file: HashMap<u32, &str> = HashMap::new();
    for (c, cc) in profile.cost_centres.iter().enumerate() {
        if let Some(l) = side.location(c as u32 + 1) {
            module_file.entry(cc.module).or_insert(l.file.as_str());
        }
    }
    let file_of = |c: usize| -> &str {
        match side.location(c as u32 + 1) {
            Some(l) => l.file.as_str(),
            None => profile
                .cost_centres
                .get(c)
                .and_then(|cc| module_file.get(&cc.module).copied())
                .unwrap_or_else(|| module_of(c)),
        }
    };
    let line_of = |c: usize| side.location(c as u32 + 1).map_or(0, |l| l.line);
    let name_of = |c: usize| -> String {
        match profile.cost_centres.get(c) {
            Some(cc) => one_line(&format!("{}.{}", module_of(c), cc.name)),
            None => "?".to_string(),
        }
    };

    // Self costs per function, and calls per (caller, callee) in the order
    // the callee's entry is first met.
    let mut own = vec![Sums::default(); ncc + 1];
    let mut used = vec![false; ncc + 1];
    // (callee, scc entries, thunk entries, inherited costs)
    let mut calls: Vec<Vec<(usize, u128, u128, Sums)>> = vec![Vec::new(); ncc + 1];
    // Where each (caller, callee) edge is in `calls[caller]`: a caller may
    // have millions of distinct callees, so no linear search.
    let mut edge_at: HashMap<(usize, usize), usize> = HashMap::new();
    for &i in &tree.order {
        let c = cc_of(i);
        own[c].add(&indiv.get(i));
        used[c] = true;
        for &k in tree.kids(i) {
            let callee = cc_of(k);
            let edges = &mut calls[c];
            match edge_at.entry((c, callee)) {
                Entry::Occupied(at) => {
                    let e = &mut edges[*at.get()];
                    e.1 += indiv.get(k).strict;
                    e.2 += indiv.get(k).lazy;
                    e.3.add(&inh[k]);
                }
                Entry::Vacant(at) => {
                    at.insert(edges.len());
                    edges.push((callee, indiv.get(k).strict, indiv.get(k).lazy, inh[k]));
                }
            }
        }
    }

    let mut out = String::new();
    out.push_str("# callgrind format\nversion: 1\n");
    let _ = writeln!(out, "creator: stg-prof {}", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(out, "cmd: {}", one_line(profile.program_name()));
    match (side.clock, profile.frequency) {
        (Clock::Steps, _) => out.push_str("desc: Clock: machine steps (a tick is one step)\n"),
        (Clock::Cycles, 0) => out.push_str("desc: Clock: cycles (frequency not recorded)\n"),
        (Clock::Cycles, f) => {
            let _ = writeln!(out, "desc: Clock: cycles, {f} per second");
        }
        (Clock::Unknown, 0) => {
            out.push_str("desc: Clock: machine steps (or a clock of unrecorded frequency)\n")
        }
        (Clock::Unknown, f) => {
            let _ = writeln!(out, "desc: Clock: {f} ticks per second");
        }
    }
    out.push_str("positions: line\n");
    for (name, long) in EVENTS {
        let _ = writeln!(out, "event: {name} : {long}");
    }
    let names: Vec<&str> = EVENTS.iter().map(|e| e.0).collect();
    let _ = writeln!(out, "events: {}", names.join(" "));
    let total = inh.first().copied().unwrap_or_default();
    out.push_str("summary:");
    for c in columns(&total) {
        let _ = write!(out, " {c}");
    }
    out.push_str("\n\n");

    // Compressed names: the first mention of a file or function gives its
    // name after a number in brackets, later ones the number alone.
    // (Looked up by name: a profile may have as many files as cost centres.)
    let mut file_ids: HashMap<String, usize> = HashMap::new();
    let mut file_ref = |out: &mut String, key: &str, file: &str| match file_ids.get(file) {
        Some(id) => {
            let _ = writeln!(out, "{key}=({id})");
        }
        None => {
            let id = file_ids.len() + 1;
            file_ids.insert(file.to_string(), id);
            let _ = writeln!(out, "{key}=({id}) {}", one_line(file));
        }
    };
    let mut fn_named = vec![false; ncc + 1];
    let mut fn_ref = |out: &mut String, key: &str, c: usize| {
        if fn_named[c] {
            let _ = writeln!(out, "{key}=({})", c + 1);
        } else {
            fn_named[c] = true;
            let _ = writeln!(out, "{key}=({}) {}", c + 1, name_of(c));
        }
    };
    for c in 0..=ncc {
        if !used[c] {
            continue;
        }
        file_ref(&mut out, "fl", file_of(c));
        fn_ref(&mut out, "fn", c);
        cost_line(&mut out, line_of(c), &own[c]);
        for (callee, entries, thunks, cost) in &calls[c] {
            let count = if *entries > 0 {
                *entries
            } else {
                (*thunks).max(1)
            };
            file_ref(&mut out, "cfi", file_of(*callee));
            fn_ref(&mut out, "cfn", *callee);
            let _ = writeln!(out, "calls={count} {}", line_of(*callee));
            cost_line(&mut out, line_of(c), cost);
        }
        out.push('\n');
    }
    out
}
