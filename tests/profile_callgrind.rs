//! `stg-prof callgrind`: the profile in Valgrind's callgrind format.
//!
//! - A snapshot of the hand-built fib profile (its numbers worked below).
//! - Every program of `programs/`, flat and stacks: the file read back by a
//!   small parser written from the format's specification gives, per
//!   function, the cost centre's summed individual costs, and a summary
//!   equal to the root's inherited costs; every call has a count ≥ 1.
//! - The real client: `callgrind_annotate` (Valgrind's) reads the file and
//!   prints the same per-function self costs and totals as `stg-prof report
//!   --raw`, and, on a tree where every cost centre occurs once, inclusive
//!   costs equal to the report's inherited ones. Without `callgrind_annotate`
//!   on the `PATH` this part is skipped with a message, unless
//!   `STG_RUN_REQUIRE_CLIENTS` is set
//!   (`.ci/run` installs valgrind), where it fails.

mod cli_common;
mod corpus;
mod profile_fixture;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use cli_common::{have, stg_prof, stg_prof_run};
use stg_run::internal::profile::side_file::{self, SideInfo};
use stg_run::internal::profile::view::callgrind::callgrind;
use stg_run::internal::profile::{Profile, format};

/// The fib fixture (tests/profile_fixture): functions are `Module.name`;
/// `Prelude.CAF` has no entry and is not written. Edges and counts:
/// MAIN→Main.CAF called once (1 thunk entry, 0 scc entries: a CAF counts
/// its thunk entries), CAF→main 1, main→main.g 1, main→main.f 1,
/// main.g→fib 1973 and main.f→fib 2692537 (the two fib entries' scc
/// entries). Main.fib's own cost is both entries summed: 9040 ticks,
/// 50200 words = 401600 bytes, 2694510 entries, 8083530 calls, 12 PAPs.
/// The summary is the whole run: 9053 ticks, 50226 words = 401808 bytes.
#[test]
fn fib_fixture_snapshot() {
    insta::assert_snapshot!(callgrind(&profile_fixture::fib(), &SideInfo::default()));
}

/// What a callgrind file says: events, summary, self costs per function and
/// calls (caller, callee) → (count, inclusive costs).
#[derive(Debug, Default)]
struct Parsed {
    events: Vec<String>,
    summary: Vec<u128>,
    own: BTreeMap<String, Vec<u128>>,
    /// The line of each function's own costs.
    own_line: BTreeMap<String, u32>,
    /// The file (`fl=`) of each function.
    file: BTreeMap<String, String>,
    calls: BTreeMap<(String, String), (u128, Vec<u128>)>,
}

/// Reads the subset of the format the writer uses, from the specification:
/// `name=(id) text` defines a compressed name, `name=(id)` refers to it;
/// a cost line after `calls=` is the call's cost, other cost lines add to
/// the current function.
fn parse(text: &str) -> Parsed {
    let mut p = Parsed::default();
    let mut fn_names: BTreeMap<String, String> = BTreeMap::new();
    let mut file_names: BTreeMap<String, String> = BTreeMap::new();
    let mut current_file = String::new();
    let mut current = String::new();
    let mut callee = String::new();
    let mut pending_call: Option<u128> = None;
    let mut name = |value: &str| -> String {
        let value = value.trim();
        let close = value.find(')').expect("a compressed name");
        let id = value[1..close].to_string();
        let rest = value[close + 1..].trim();
        if rest.is_empty() {
            fn_names.get(&id).expect("name defined before use").clone()
        } else {
            fn_names.insert(id, rest.to_string());
            rest.to_string()
        }
    };
    let numbers = |line: &str| -> Vec<u128> {
        line.split_whitespace()
            .skip(1) // the position (line 0)
            .map(|n| n.parse().expect("a cost"))
            .collect()
    };
    for line in text.lines() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(v) = line.strip_prefix("events: ") {
            p.events = v.split_whitespace().map(String::from).collect();
        } else if let Some(v) = line.strip_prefix("summary: ") {
            p.summary = v.split_whitespace().map(|n| n.parse().unwrap()).collect();
        } else if let Some((key, v)) = line
            .split_once('=')
            .filter(|(k, _)| ["fl", "cfi"].contains(k))
        {
            // Files share one table of compressed names, `fl=` and `cfi=`.
            let close = v.find(')').expect("a compressed file name");
            let id = v[1..close].to_string();
            let rest = v[close + 1..].trim();
            if !rest.is_empty() {
                file_names.insert(id.clone(), rest.to_string());
            }
            if key == "fl" {
                current_file = file_names[&id].clone();
            }
        } else if let Some(v) = line.strip_prefix("fn=") {
            current = name(v);
            p.file.insert(current.clone(), current_file.clone());
        } else if let Some(v) = line.strip_prefix("cfn=") {
            callee = name(v);
        } else if let Some(v) = line.strip_prefix("calls=") {
            let count = v.split_whitespace().next().unwrap().parse().unwrap();
            pending_call = Some(count);
        } else if line.starts_with(|c: char| c.is_ascii_digit()) {
            let costs = numbers(line);
            assert_eq!(costs.len(), p.events.len(), "a cost per event: {line}");
            match pending_call.take() {
                Some(count) => {
                    let e = p
                        .calls
                        .entry((current.clone(), callee.clone()))
                        .or_insert((0, vec![0; costs.len()]));
                    e.0 += count;
                    e.1.iter_mut().zip(&costs).for_each(|(a, b)| *a += b);
                }
                None => {
                    let at = line.split_whitespace().next().unwrap().parse().unwrap();
                    p.own_line.insert(current.clone(), at);
                    let e = p.own.entry(current.clone()).or_insert(vec![0; costs.len()]);
                    e.iter_mut().zip(&costs).for_each(|(a, b)| *a += b);
                }
            }
        }
    }
    p
}

fn qualified(p: &Profile, cc: u32) -> String {
    let d = &p.cost_centres[cc as usize - 1];
    format!("{}.{}", p.modules[d.module as usize - 1], d.name)
}

/// Per cost centre (qualified), its entries' individual counters summed, in
/// the writer's event order.
fn own_costs(p: &Profile) -> BTreeMap<String, Vec<u128>> {
    let mut m: BTreeMap<String, Vec<u128>> = BTreeMap::new();
    for e in &p.entries {
        let c = &e.counters;
        let v = m.entry(qualified(p, e.cost_centre)).or_insert(vec![0; 6]);
        for (a, b) in v.iter_mut().zip([
            c.ticks,
            c.words * 8,
            c.strict_calls,
            c.lazy_calls,
            c.tail_calls,
            c.curried_calls,
        ]) {
            *a += b as u128;
        }
    }
    m
}

fn totals(p: &Profile) -> Vec<u128> {
    let mut t = vec![0u128; 6];
    for v in own_costs(p).values() {
        t.iter_mut().zip(v).for_each(|(a, b)| *a += b);
    }
    t
}

fn scratch(test: &str) -> PathBuf {
    cli_common::scratch("profile_callgrind", test)
}

/// The profile of `programs/<program>.stg` run with `mode_args` (programs
/// that stop on an error still write theirs).
fn profile_of(dir: &Path, program: &str, mode_args: &[&str]) -> PathBuf {
    cli_common::profile_of(dir, program, mode_args).0
}

/// Names come from any `.pgcl` file; one holding a line break must not
/// break the line-based format.
#[test]
fn names_stay_on_one_line() {
    let mut p = profile_fixture::fib();
    p.cost_centres[4].name = "main\nf\r\tx".into();
    p.modules[2] = "Ma\nin".into();
    let text = callgrind(&p, &SideInfo::default());
    assert!(text.contains("fn=(5) Ma in.main f  x\n"), "{text}");
    assert!(text.contains("cmd: Ma in\n"));
    let parsed = parse(&text);
    assert_eq!(parsed.summary, totals(&p));
}

#[test]
fn a_bad_file_is_an_error_naming_it() {
    let dir = scratch("bad");
    let file = dir.join("bad.pgcl");
    std::fs::write(&file, b"prof\x02").unwrap();
    for f in [file, dir.join("missing.pgcl")] {
        let out = stg_prof_run(&["callgrind"], &f);
        assert_eq!(out.status.code(), Some(1));
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&*f.to_string_lossy()), "{err}");
    }
}

const MODES: [(&str, &[&str]); 2] = [
    ("flat", &[]),
    ("stacks", &["--cost-centres=stacks", "--auto-cc=all"]),
];

#[test]
fn every_program_reads_back_to_its_profile() {
    let programs = corpus::program_names();
    for (mode, args) in MODES {
        let dir = scratch(&format!("all-{mode}"));
        for program in &programs {
            let file = profile_of(&dir, program, args);
            let profile = format::read(&std::fs::read(&file).unwrap()).unwrap();
            let text = stg_prof(&["callgrind"], &file);
            let parsed = parse(&text);
            assert_eq!(
                parsed.events,
                ["Ticks", "Bytes", "Entries", "Thunks", "Calls", "PAPs"]
            );
            // Each call's count is the report's entries of the callee's
            // entries under that caller (a CAF's, 0, its thunk entries).
            let mut want_calls: BTreeMap<(String, String), (u128, u128)> = BTreeMap::new();
            for e in &profile.entries {
                for &k in &e.children {
                    let k = &profile.entries[k as usize];
                    let c = want_calls
                        .entry((
                            qualified(&profile, e.cost_centre),
                            qualified(&profile, k.cost_centre),
                        ))
                        .or_default();
                    c.0 += k.counters.strict_calls as u128;
                    c.1 += k.counters.lazy_calls as u128;
                }
            }
            for (edge, (entries, thunks)) in &want_calls {
                let want = if *entries > 0 {
                    *entries
                } else {
                    (*thunks).max(1)
                };
                assert_eq!(parsed.calls[edge].0, want, "{program} {mode}: {edge:?}");
            }
            // Each function is at its cost centre's line in its source
            // file, where the side file knows it.
            let side = side_file::read_beside(&file, &profile).unwrap().unwrap();
            for (id, cc) in profile.cost_centres.iter().enumerate() {
                let name = qualified(&profile, id as u32 + 1);
                let Some(&line) = parsed.own_line.get(&name) else {
                    continue;
                };
                match side.location(id as u32 + 1) {
                    Some(l) => {
                        assert_eq!((line, &parsed.file[&name]), (l.line, &l.file), "{name}")
                    }
                    None => assert_eq!(line, 0, "{program} {mode}: {name} ({})", cc.name),
                }
            }
            assert_eq!(parsed.summary, totals(&profile), "{program} {mode}");
            assert_eq!(parsed.own, own_costs(&profile), "{program} {mode}");
            for ((from, to), (count, cost)) in &parsed.calls {
                assert!(*count >= 1, "{program} {mode}: {from} → {to} count 0");
                // A call costs at least the callee's own cost on that edge,
                // and never more than the whole run.
                for (c, t) in cost.iter().zip(&parsed.summary) {
                    assert!(c <= t, "{program} {mode}: {from} → {to} over the total");
                }
            }
            if mode == "flat" {
                // Flat: a star, MAIN calling every other cost centre that
                // has an entry, with exactly that entry's costs.
                for (name, own) in &parsed.own {
                    if name == "MAIN.MAIN" {
                        continue;
                    }
                    let call = &parsed.calls[&("MAIN.MAIN".to_string(), name.clone())];
                    assert_eq!(&call.1, own, "{program} flat: MAIN → {name}");
                }
                assert!(parsed.calls.keys().all(|(from, _)| from == "MAIN.MAIN"));
            }
        }
    }
}

/// `callgrind_annotate`'s rows, `ticks bytes … file:function` by function
/// (numbers with thousands separators, percentages in brackets), and the
/// `PROGRAM TOTALS` row under that name.
fn annotate_rows(text: &str) -> BTreeMap<String, Vec<u128>> {
    let mut rows = BTreeMap::new();
    for line in text.lines() {
        // Drop the "(12.34%)" groups.
        let mut clean = String::new();
        let mut depth = 0;
        for ch in line.chars() {
            match ch {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ if depth == 0 => clean.push(ch),
                _ => {}
            }
        }
        let words: Vec<&str> = clean.split_whitespace().collect();
        if words.len() < 7
            || !words[..6]
                .iter()
                .all(|w| w.chars().all(|c| c.is_ascii_digit() || c == ','))
        {
            continue;
        }
        let nums = words[..6]
            .iter()
            .map(|w| w.replace(',', "").parse().unwrap())
            .collect();
        let name = words[6..].join(" ");
        let name = match name.split_once(':') {
            Some((_file, function)) => function.to_string(),
            None => name,
        };
        rows.insert(name, nums);
    }
    rows
}

#[test]
fn callgrind_annotate_reads_what_the_report_says() {
    // `callgrind_annotate --version` prints its version (to standard error
    // in 3.19) and exits 255.
    let tool = "callgrind_annotate";
    if !have(tool, "--version", tool, "valgrind") {
        return;
    }
    let dir = scratch("annotate");
    for (program, (mode, args)) in [
        ("nfib", MODES[1]),
        ("queens", MODES[1]),
        ("paper_map_scc", MODES[0]),
    ] {
        let file = profile_of(&dir, program, args);
        let profile = format::read(&std::fs::read(&file).unwrap()).unwrap();
        let out_file = dir.join(format!("callgrind.out.{program}"));
        std::fs::write(&out_file, stg_prof(&["callgrind"], &file)).unwrap();
        let run = |inclusive: bool| -> BTreeMap<String, Vec<u128>> {
            let out = Command::new(tool)
                .args(["--threshold=100", "--auto=no"])
                .arg(format!(
                    "--inclusive={}",
                    if inclusive { "yes" } else { "no" }
                ))
                .arg(&out_file)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            annotate_rows(&String::from_utf8(out.stdout).unwrap())
        };

        // Self costs. callgrind_annotate lists functions by ticks until
        // 100% of them is covered, so those with no ticks may be left out
        // (or not, when they tie at 100%): they are compared on neither side.
        let mut own = run(false);
        assert_eq!(
            own.remove("PROGRAM TOTALS"),
            Some(totals(&profile)),
            "{program} {mode}: totals"
        );
        own.retain(|_, v| v[0] > 0);
        let mut want = own_costs(&profile);
        want.retain(|_, v| v[0] > 0);
        assert_eq!(own, want, "{program} {mode}: self costs");
        // The same figures as the report's top table with --raw (name,
        // module, %time, %alloc, ticks, bytes).
        let report = stg_prof(&["report", "--raw"], &file);
        let top: Vec<Vec<&str>> = report
            .lines()
            .take_while(|l| !l.contains("individual"))
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .filter(|w| w.len() == 7)
            .collect();
        let mut checked = 0;
        // name, module, SRC, %time, %alloc, ticks, bytes
        for w in &top[1..] {
            let name = format!("{}.{}", w[1], w[0]);
            if let Some(v) = own.get(&name) {
                assert_eq!(
                    (w[5], w[6]),
                    (&*v[0].to_string(), &*v[1].to_string()),
                    "{program}: {name}"
                );
                checked += 1;
            }
        }
        assert_eq!(
            checked,
            own.len(),
            "{program}: every function is in the report"
        );

        // Inclusive costs: on these trees every cost centre occurs once, so
        // a function's inclusive costs are its entry's inherited ones.
        if mode == "stacks" {
            let mut incl = run(true);
            incl.remove("PROGRAM TOTALS");
            assert!(incl.len() >= 5, "{program}: {incl:?}");
            for (name, v) in &incl {
                let entries: Vec<usize> = (0..profile.entries.len())
                    .filter(|&i| qualified(&profile, profile.entries[i].cost_centre) == *name)
                    .collect();
                assert_eq!(entries.len(), 1, "{program}: {name} occurs once");
                assert_eq!(
                    v,
                    &inherited_of(&profile, entries[0]),
                    "{program}: inclusive costs of {name}"
                );
            }
        }
    }
}

/// The inherited counters of entry `i`, in the writer's event order.
fn inherited_of(p: &Profile, i: usize) -> Vec<u128> {
    let mut acc = vec![0u128; 6];
    let mut stack = vec![i];
    while let Some(i) = stack.pop() {
        let c = &p.entries[i].counters;
        for (a, b) in acc.iter_mut().zip([
            c.ticks,
            c.words * 8,
            c.strict_calls,
            c.lazy_calls,
            c.tail_calls,
            c.curried_calls,
        ]) {
            *a += b as u128;
        }
        stack.extend(p.entries[i].children.iter().map(|&c| c as usize));
    }
    acc
}

/// The figures of a report's header: total ticks (steps) and bytes.
fn report_totals(report: &str) -> (u128, u128) {
    let figure = |key: &str| -> u128 {
        let line = report
            .lines()
            .find(|l| l.trim_start().starts_with(key))
            .unwrap_or_else(|| panic!("no `{key}` in\n{report}"));
        let after = line.split_once('=').unwrap().1;
        let word = after.split_whitespace().next().unwrap();
        word.replace(',', "").parse().unwrap()
    };
    (figure("total steps"), figure("total alloc"))
}

/// For every program, flat and stacks: `callgrind_annotate`'s PROGRAM
/// TOTALS are the report's total steps and bytes (and the other four
/// counters summed over the profile).
#[test]
fn callgrind_annotate_totals_are_the_reports_for_every_program() {
    let tool = "callgrind_annotate";
    if !have(tool, "--version", tool, "valgrind") {
        return;
    }
    for (mode, args) in MODES {
        let dir = scratch(&format!("annotate-all-{mode}"));
        for program in corpus::program_names() {
            let file = profile_of(&dir, &program, args);
            let profile = format::read(&std::fs::read(&file).unwrap()).unwrap();
            let out_file = dir.join(format!("callgrind.out.{program}"));
            std::fs::write(&out_file, stg_prof(&["callgrind"], &file)).unwrap();
            let out = Command::new(tool)
                .args(["--threshold=100", "--auto=no"])
                .arg(&out_file)
                .output()
                .unwrap();
            assert!(out.status.success(), "{program} {mode}");
            let rows = annotate_rows(&String::from_utf8(out.stdout).unwrap());
            let got = &rows["PROGRAM TOTALS"];
            assert_eq!(got, &totals(&profile), "{program} {mode}");
            let (steps, bytes) = report_totals(&stg_prof(&["report"], &file));
            assert_eq!((got[0], got[1]), (steps, bytes), "{program} {mode}");
        }
    }
}
