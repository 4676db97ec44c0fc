//! The comparison of cost-centre trees with GHC's, shared by
//! tests/ghc_trees.rs (the hand-written twins) and tests/ghc_fuzz.rs (the
//! generated ones): GHC's `.prof` read as regenerate.sh's `.tree`, that
//! tree and stg-run's as sets of paths with entry counts, and their diff.
#![allow(dead_code)]

use crate::machine_common::in_prelude;
use std::collections::BTreeMap;
use stg_run::internal::profile::Profile;

pub type Tree = BTreeMap<String, u64>;

/// Paths (names joined with " > ") of a GHC .tree file, with entry counts;
/// with `modules`, each node is `name (Module)` (for programs of several
/// modules, whose CAF nodes differ only by module).
pub fn ghc_tree(text: &str, modules: bool) -> Tree {
    let mut tree = Tree::new();
    let mut stack: Vec<String> = Vec::new();
    let mut skip_below: Option<usize> = None;
    for line in text.lines() {
        let depth = line.len() - line.trim_start().len();
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (name, module, entries) = (fields[0], fields[1], fields[2].parse::<u64>().unwrap());
        if let Some(d) = skip_below {
            if depth > d {
                continue;
            }
            skip_below = None;
        }
        // GHC's IO action node directly under MAIN.
        if depth == 1 && name == "main" && entries == 0 {
            skip_below = Some(depth);
            continue;
        }
        stack.truncate(depth);
        // A pattern binding's tuple thunk: GHC's `f.(...)` is the twin's
        // `f.pat` (README.md, "Differences").
        let node = name.replace("(...)", "pat");
        stack.push(if modules {
            format!("{node} ({module})")
        } else {
            node
        });
        tree.insert(stack.join(" > "), entries);
    }
    tree
}

/// stg-run's tree as paths, as [`ghc_tree`] reads GHC's.
pub fn stg_tree(p: &Profile, modules: bool) -> Tree {
    let mut tree = Tree::new();
    let mut work = vec![(0u32, String::new())];
    while let Some((i, prefix)) = work.pop() {
        let e = &p.entries[i as usize];
        let cc = &p.cost_centres[e.cost_centre as usize - 1];
        let name = if modules {
            format!("{} ({})", cc.name, p.modules[cc.module as usize - 1])
        } else {
            cc.name.clone()
        };
        let path = if prefix.is_empty() {
            name
        } else {
            format!("{prefix} > {name}")
        };
        tree.insert(path.clone(), e.counters.strict_calls);
        for &c in &e.children {
            // The Prelude is a library: its `MAIN > CAF` node is left out,
            // as regenerate.sh leaves out GHC's `CAF GHC.Base` and the like.
            if i == 0 && in_prelude(p, c) {
                continue;
            }
            work.push((c, path.clone()));
        }
    }
    tree
}

/// `Err` listing every path on one side only or with other entry counts.
pub fn tree_diff(what: &str, ghc: &Tree, ours: &Tree) -> Result<(), String> {
    let mut msg = format!("{what}: trees differ\n");
    let clean = msg.len();
    for (path, n) in ghc {
        match ours.get(path) {
            None => msg.push_str(&format!("  only GHC:     {path} {n}\n")),
            Some(m) if m != n => msg.push_str(&format!("  GHC {n}, stg-run {m}: {path}\n")),
            _ => {}
        }
    }
    for (path, n) in ours {
        if !ghc.contains_key(path) {
            msg.push_str(&format!("  only stg-run: {path} {n}\n"));
        }
    }
    if msg.len() == clean { Ok(()) } else { Err(msg) }
}

/// The tree section of a GHC `.prof` as regenerate.sh's awk prints it:
/// `<indent>name module entries` per node, the top-level nodes of modules
/// other than `modules` (GHC's libraries, the RTS) and all below them left
/// out.
pub fn prof_to_tree(prof: &str, modules: &[&str]) -> String {
    let mut out = String::new();
    let mut in_tree = false;
    let mut skip: Option<usize> = None;
    for line in prof.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if !in_tree {
            in_tree = fields.len() >= 4
                && fields[..4] == ["COST", "CENTRE", "MODULE", "SRC"]
                && line.contains("no.");
            continue;
        }
        if fields.len() < 10 {
            continue;
        }
        let depth = line.len() - line.trim_start_matches(' ').len();
        if let Some(d) = skip {
            if depth > d {
                continue;
            }
            skip = None;
        }
        if depth == 1 && !modules.contains(&fields[1]) {
            skip = Some(depth);
            continue;
        }
        out.push_str(&format!(
            "{}{} {} {}\n",
            " ".repeat(depth),
            fields[0],
            fields[1],
            fields[fields.len() - 7]
        ));
    }
    out
}
