//! The oracle of SEMANTICS.md: for every program with a Haskell twin in
//! tests/ghc/, stg-run's cost-centre-stack tree (stacks mode) has the same
//! user cost centres, shape and entry counts as GHC's profile of the twin:
//! `--auto-cc=all` against `X.tree` (`ghc -prof -fprof-auto`) and
//! `--auto-cc=top` against `X.top.tree` (`-fprof-auto-top`).
//!
//! The GHC side is translated as tests/ghc/README.md says: the node
//! `MAIN > main` with 0 entries (GHC's IO action, with `showsPrec` below it)
//! has no counterpart and is dropped, and modules are ignored (GHC's `Main`
//! is the file stem in stg-run). Nodes are compared as the set of paths from
//! `MAIN` with their entry counts, so the order of children does not matter.

mod machine_common;
use machine_common::*;
use std::collections::BTreeMap;
use stg_run::machine::RunResult;
use stg_run::stg::auto_cc::AutoCc;

type Tree = BTreeMap<String, u64>;

/// Paths (names joined with " > ") of a GHC .tree file, with entry counts.
fn ghc_tree(text: &str) -> Tree {
    let mut tree = Tree::new();
    let mut stack: Vec<String> = Vec::new();
    let mut skip_below: Option<usize> = None;
    for line in text.lines() {
        let depth = line.len() - line.trim_start().len();
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (name, entries) = (fields[0], fields[2].parse::<u64>().unwrap());
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
        stack.push(name.to_string());
        tree.insert(stack.join(" > "), entries);
    }
    tree
}

fn stg_tree(r: &RunResult) -> Tree {
    let p = &r.profile;
    let mut tree = Tree::new();
    let mut work = vec![(0u32, String::new())];
    while let Some((i, prefix)) = work.pop() {
        let e = &p.entries[i as usize];
        let name = &p.cost_centres[e.cost_centre as usize - 1].name;
        let path = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix} > {name}")
        };
        tree.insert(path.clone(), e.counters.strict_calls);
        for &c in &e.children {
            work.push((c, path.clone()));
        }
    }
    tree
}

fn compare(name: &str, auto: AutoCc, suffix: &str) -> Result<(), String> {
    let stg = ["programs", "tests/ghc"]
        .iter()
        .map(|d| format!("{d}/{name}.stg"))
        .find(|p| std::path::Path::new(p).exists())
        .ok_or(format!("{name}: no .stg"))?;
    let text = std::fs::read_to_string(&stg).unwrap();
    let ghc = ghc_tree(&std::fs::read_to_string(format!("tests/ghc/{name}{suffix}")).unwrap());
    let r = run_text(&stg, &text, true, auto, &stacks());
    let ours = stg_tree(&r.result);
    let mut msg = format!("{name} ({suffix}): trees differ\n");
    let clean = msg.len();
    for (path, n) in &ghc {
        match ours.get(path) {
            None => msg.push_str(&format!("  only GHC:     {path} {n}\n")),
            Some(m) if m != n => msg.push_str(&format!("  GHC {n}, stg-run {m}: {path}\n")),
            _ => {}
        }
    }
    for (path, n) in &ours {
        if !ghc.contains_key(path) {
            msg.push_str(&format!("  only stg-run: {path} {n}\n"));
        }
    }
    if msg.len() == clean { Ok(()) } else { Err(msg) }
}

fn twins() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir("tests/ghc")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|n| n != "ghc_guide_fib")
        .collect();
    names.sort();
    names
}

fn check(auto: AutoCc, suffix: &str) {
    let failures: Vec<String> = twins()
        .iter()
        .filter_map(|n| compare(n, auto, suffix).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn twins_auto_cc_all_match_ghc_prof_auto() {
    check(AutoCc::All, ".tree");
}

#[test]
fn twins_auto_cc_top_match_ghc_prof_auto_top() {
    check(AutoCc::Top, ".top.tree");
}

/// The GHC guide's example at full size (2.7 million calls of fib).
#[test]
fn ghc_guide_fib_matches_ghc() {
    let mut failures = Vec::new();
    for (auto, suffix) in [(AutoCc::All, ".tree"), (AutoCc::Top, ".top.tree")] {
        if let Err(e) = compare("ghc_guide_fib", auto, suffix) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// GHC's `-fprof-auto` gives every function a cost centre, also one whose
/// body is a constructor application: queens' `extend.add` has 152 entries
/// in tests/ghc/queens.tree. Only constructor *values* (no arguments) get
/// none.
#[test]
fn function_with_constructor_body_gets_a_cost_centre() {
    let text = std::fs::read_to_string("programs/queens.stg").unwrap();
    let r = run_text("programs/queens.stg", &text, true, AutoCc::All, &stacks());
    let ours = stg_tree(&r.result);
    assert_eq!(
        ours.get("MAIN > CAF > main > queens > place > place.ext > extend > extend.add"),
        Some(&152),
        "{}",
        tree_text(&r.result)
    );
}
