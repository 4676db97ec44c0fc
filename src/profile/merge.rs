//! `stg-prof merge`: the sum of several runs of one program, as one
//! profile (Racket's and Clean's `convertprofile`'s wish: profile a
//! program over many inputs, read it once).
//!
//! - **One program**: every profile must declare the same modules and the
//!   same cost centres (same modules, names and order) as the first; the
//!   first difference is the error, naming both files.
//! - **Entries** are matched by their cost-centre path from the root (the
//!   k-th child with a given cost centre matches the k-th: a file from
//!   Clean may list two), and their counters summed; a path in only some
//!   runs is kept with its counters. Children are written in cost-centre
//!   order, as stg-run writes them.
//! - **Header**: the frequency of the sum is its ticks over its seconds
//!   (each run's ticks over its frequency), so seconds add up; 0 (unknown)
//!   if any run's is. The overhead is the runs' mean weighted by ticks.
//!
//! Everything is iterative; counters that would pass `u64::MAX` are an
//! error, not a wrapped number.

use std::collections::HashMap;

use super::tree::Tree;
use super::{Counters, Entry, Profile};

/// Why profiles cannot be merged: the message names the files (`names`
/// given to [`merge`]) and the first difference.
pub type MergeError = String;

/// The sum of `profiles`, each `(name, profile)` with the name used in
/// messages. At least one.
pub fn merge(profiles: &[(&str, &Profile)]) -> Result<Profile, MergeError> {
    let (first_name, first) = *profiles.first().ok_or("no profile to merge")?;
    for &(name, p) in &profiles[1..] {
        same_program(first_name, first, name, p)?;
    }
    // The merged call graph as a trie: node → (cost centre, counters,
    // children), children found by (parent, cost centre, occurrence).
    let mut nodes: Vec<(u32, Counters, Vec<usize>)> = vec![(
        first.entries[0].cost_centre,
        Counters::default(),
        Vec::new(),
    )];
    let mut child_of: HashMap<(usize, u32, usize), usize> = HashMap::new();
    for &(name, p) in profiles {
        let tree = Tree::new(p);
        if p.entries[0].cost_centre != nodes[0].0 {
            return Err(format!(
                "{name}: its root is cost centre {}, {first_name}'s is {}: not runs of one program",
                p.entries[0].cost_centre, nodes[0].0
            ));
        }
        // Entry of `p` → node, in depth-first order (parents first).
        let mut node_of = vec![usize::MAX; p.entries.len()];
        node_of[0] = 0;
        for &i in &tree.order {
            let at = node_of[i];
            add(&mut nodes[at].1, &p.entries[i].counters, name)?;
            let mut seen: HashMap<u32, usize> = HashMap::new();
            for &k in tree.kids(i) {
                let cc = p.entries[k].cost_centre;
                let n = seen.entry(cc).or_insert(0);
                let key = (at, cc, *n);
                *n += 1;
                let node = match child_of.get(&key) {
                    Some(&node) => node,
                    None => {
                        nodes.push((cc, Counters::default(), Vec::new()));
                        let node = nodes.len() - 1;
                        nodes[at].2.push(node);
                        child_of.insert(key, node);
                        node
                    }
                };
                node_of[k] = node;
            }
        }
    }
    // Write the trie depth first, children in cost-centre order (stable,
    // so a file's repeated cost centres keep their order).
    let mut entries: Vec<Entry> = Vec::with_capacity(nodes.len());
    let mut index_of = vec![0u32; nodes.len()];
    let mut stack = vec![0usize];
    let mut order = Vec::with_capacity(nodes.len());
    while let Some(n) = stack.pop() {
        index_of[n] = order.len() as u32;
        order.push(n);
        let mut kids = std::mem::take(&mut nodes[n].2);
        kids.sort_by_key(|&k| nodes[k].0);
        stack.extend(kids.iter().rev());
        nodes[n].2 = kids;
    }
    for &n in &order {
        let (cc, counters, kids) = &nodes[n];
        entries.push(Entry {
            cost_centre: *cc,
            counters: *counters,
            children: kids.iter().map(|&k| index_of[k]).collect(),
        });
    }
    Ok(Profile {
        frequency: frequency(profiles),
        overhead: overhead(profiles),
        modules: first.modules.clone(),
        cost_centres: first.cost_centres.clone(),
        entries,
    })
}

/// Checks that `p` declares the modules and cost centres `first` does.
fn same_program(
    first_name: &str,
    first: &Profile,
    name: &str,
    p: &Profile,
) -> Result<(), MergeError> {
    let not_one = "not runs of one program";
    if p.modules.len() != first.modules.len() {
        return Err(format!(
            "{name} declares {} modules, {first_name} {}: {not_one}",
            p.modules.len(),
            first.modules.len()
        ));
    }
    for (i, (a, b)) in first.modules.iter().zip(&p.modules).enumerate() {
        if a != b {
            return Err(format!(
                "{name}: module {} is `{b}`, {first_name}'s is `{a}`: {not_one}",
                i + 1
            ));
        }
    }
    if p.cost_centres.len() != first.cost_centres.len() {
        return Err(format!(
            "{name} declares {} cost centres, {first_name} {}: {not_one} \
             (or of two versions of it)",
            p.cost_centres.len(),
            first.cost_centres.len()
        ));
    }
    for (i, (a, b)) in first.cost_centres.iter().zip(&p.cost_centres).enumerate() {
        if a != b {
            return Err(format!(
                "{name}: cost centre {} is `{}.{}`, {first_name}'s is `{}.{}`: {not_one} \
                 (or of two versions of it)",
                i + 1,
                p.module_of(b),
                b.name,
                first.module_of(a),
                a.name
            ));
        }
    }
    if p.entries.is_empty() || first.entries.is_empty() {
        return Err(format!("{name}: a profile with no root entry"));
    }
    Ok(())
}

/// `into += c`, or an error naming the file if a counter overflows.
fn add(into: &mut Counters, c: &Counters, name: &str) -> Result<(), MergeError> {
    let sum = |a: u64, b: u64| {
        a.checked_add(b).ok_or_else(|| {
            format!("{name}: the sum of a counter passes 2^64 - 1, the largest a profile holds")
        })
    };
    *into = Counters {
        ticks: sum(into.ticks, c.ticks)?,
        words: sum(into.words, c.words)?,
        tail_calls: sum(into.tail_calls, c.tail_calls)?,
        strict_calls: sum(into.strict_calls, c.strict_calls)?,
        lazy_calls: sum(into.lazy_calls, c.lazy_calls)?,
        curried_calls: sum(into.curried_calls, c.curried_calls)?,
    };
    Ok(())
}

/// The total ticks of a profile.
fn ticks(p: &Profile) -> u128 {
    p.entries.iter().map(|e| e.counters.ticks as u128).sum()
}

/// Ticks over seconds of the sum; 0 if any run's frequency is unknown.
fn frequency(profiles: &[(&str, &Profile)]) -> u64 {
    if profiles.iter().any(|(_, p)| p.frequency == 0) {
        return 0;
    }
    let total: u128 = profiles.iter().map(|(_, p)| ticks(p)).sum();
    let secs: f64 = profiles
        .iter()
        .map(|(_, p)| ticks(p) as f64 / p.frequency as f64)
        .sum();
    if secs > 0.0 {
        (total as f64 / secs).round() as u64
    } else {
        // No ticks at all: every run's frequency is as good; the first's.
        profiles[0].1.frequency
    }
}

/// The runs' overheads, their mean weighted by ticks (plain mean if no run
/// has ticks).
fn overhead(profiles: &[(&str, &Profile)]) -> u64 {
    let total: u128 = profiles.iter().map(|(_, p)| ticks(p)).sum();
    if total == 0 {
        let sum: u128 = profiles.iter().map(|(_, p)| p.overhead as u128).sum();
        return (sum / profiles.len() as u128) as u64;
    }
    let weighted: f64 = profiles
        .iter()
        .map(|(_, p)| p.overhead as f64 * ticks(p) as f64)
        .sum();
    (weighted / total as f64).round() as u64
}
