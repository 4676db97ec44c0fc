//! `stg-prof diff` and `stg-prof merge`.
//!
//! - diff of a profile with itself prints nothing and exits 0 (with
//!   `--exit-code` too), for every program; of two runs of nfib with
//!   different inputs (15 and 14) it shows the expected deltas (nfib 15
//!   makes 1,973 calls, nfib 14 1,219: 754 more `nfib` entries, 377 more
//!   of each of its `let`s), in a reviewed snapshot; `--exit-code` gives 1
//!   there, `--min-change` hides what changed less; profiles of two
//!   programs are an error (status 2). `html --diff` shows the same rows
//!   in the page, sortable and filtered by its search (headless Chromium).
//! - merge of two `--reproducible` runs doubles every counter of every
//!   entry, for every program; merging random profiles of one cost-centre
//!   table sums every path's counters (a property test); profiles of two
//!   programs are an error naming the first difference; its output may
//!   be none of the files it reads, an input's side file included.

mod cli_common;
mod corpus;

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output};

use proptest::prelude::*;
use stg_run::internal::profile::merge::merge;
use stg_run::internal::profile::{CostCentreDecl, Counters, Entry, Profile, format};

fn stg_prof_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_stg-prof"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const STACKS: &[&str] = &["--cost-centres=stacks", "--auto-cc=all"];

#[test]
fn diff_of_a_profile_with_itself_is_empty() {
    let dir = cli_common::scratch("profile_diff_merge", "self");
    for program in corpus::program_names() {
        let (file, _) = cli_common::profile_of(&dir, &program, STACKS);
        let f = file.to_str().unwrap();
        let out = stg_prof_in(&dir, &["diff", f, f, "--exit-code"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{program}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{program}");
    }
}

/// nfib of 14 (`a/nfib.pgcl`) and of 15 (`b/nfib.pgcl`), stacks mode.
fn two_inputs(dir: &Path) {
    let source = std::fs::read_to_string(cli_common::program("nfib.stg")).unwrap();
    for (sub, n) in [("a", "14"), ("b", "15")] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        let variant = source.replace("I# {15#}", &format!("I# {{{n}#}}"));
        std::fs::write(dir.join(sub).join("nfib.stg"), variant).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_stg-run"))
            .arg(format!("{sub}/nfib.stg"))
            .args([
                "--reproducible",
                "--profile-file",
                &format!("{sub}/nfib.pgcl"),
            ])
            .args(STACKS)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
}

#[test]
fn diff_of_two_inputs_shows_the_expected_deltas() {
    let dir = cli_common::scratch("profile_diff_merge", "inputs");
    two_inputs(&dir);
    let out = stg_prof_in(&dir, &["diff", "a/nfib.pgcl", "b/nfib.pgcl"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let diff = text(&out.stdout);
    // Δentries is the sixth column of the cost-centre table.
    let delta_entries = |name: &str| -> String {
        let row = diff
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no row {name}:\n{diff}"));
        row.split_whitespace().nth(5).unwrap().to_string()
    };
    assert_eq!(delta_entries("nfib.nfib"), "+754");
    assert_eq!(delta_entries("nfib.nfib.n1"), "+377");
    // Unchanged: not shown, but counted.
    assert!(!diff.lines().any(|l| l.starts_with("nfib.main ")), "{diff}");
    assert!(
        diff.contains("\tunchanged   = 4 cost centres, 4 entries\n"),
        "{diff}"
    );
    insta::assert_snapshot!(diff);

    let out = stg_prof_in(&dir, &["diff", "a/nfib.pgcl", "b/nfib.pgcl", "--exit-code"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), diff);
    // A tolerance above every change: nothing shown, status 0.
    let out = stg_prof_in(
        &dir,
        &[
            "diff",
            "a/nfib.pgcl",
            "b/nfib.pgcl",
            "--exit-code",
            "--min-change",
            "100000000",
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    // A tolerance between: only the rows that changed that much.
    let out = stg_prof_in(
        &dir,
        &["diff", "a/nfib.pgcl", "b/nfib.pgcl", "--min-change", "5000"],
    );
    let some = text(&out.stdout);
    assert!(some.lines().count() < diff.lines().count(), "{some}");
    assert!(some.contains("(or changed by less than 5000)"), "{some}");
    assert!(!some.contains("nfib.nfib.r1"), "{some}");
}

/// The rows of one table of `stg-prof diff`'s text, with thousands
/// separators taken out: the page writes plain numbers.
fn text_table(diff: &str, header: &str) -> Vec<Vec<String>> {
    let mut lines = diff.lines().skip_while(|l| !l.starts_with(header)).skip(1);
    let mut rows = Vec::new();
    for l in lines.by_ref() {
        if l.is_empty() {
            break;
        }
        // The label may hold spaces (` > `): the last 8 fields are numbers.
        let fields: Vec<&str> = l.split_whitespace().collect();
        let (label, numbers) = fields.split_at(fields.len() - 8);
        let mut row = vec![label.join(" ")];
        row.extend(numbers.iter().map(|n| n.replace(',', "")));
        rows.push(row);
    }
    rows
}

fn page_rows(rows: &serde_json::Value) -> Vec<Vec<String>> {
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect()
        })
        .collect()
}

/// `stg-prof html --diff A B`: the page's two diff tables hold, in order,
/// the rows of `stg-prof diff A B`; a click on a header sorts them, the
/// search filters them; `-` reads one of the two; two programs are an
/// error.
#[test]
fn the_page_shows_the_diff() {
    let dir = cli_common::scratch("profile_diff_merge", "page");
    two_inputs(&dir);
    let diff = text(&stg_prof_in(&dir, &["diff", "a/nfib.pgcl", "b/nfib.pgcl"]).stdout);
    let out = stg_prof_in(&dir, &["html", "--diff", "a/nfib.pgcl", "b/nfib.pgcl"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = dir.join("diff.html");
    std::fs::write(&page, &out.stdout).unwrap();
    let html = text(&out.stdout);
    assert!(
        html.contains("Compared with a/nfib.pgcl: total ticks 71,281 → 115,390"),
        "the summary"
    );
    // Without --diff there is no such section.
    let plain = text(&stg_prof_in(&dir, &["html", "b/nfib.pgcl"]).stdout);
    assert!(!plain.contains("id=\"diff\""));

    // Two programs: an error, as for `stg-prof diff`.
    let (other, _) = cli_common::profile_of(&dir, "queens", STACKS);
    let out = stg_prof_in(
        &dir,
        &["html", "--diff", other.to_str().unwrap(), "b/nfib.pgcl"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("diff compares two runs of one program"),
        "{}",
        text(&out.stderr)
    );

    if !cli_common::browser_tools() {
        return;
    }
    let steps = serde_json::json!([
        {"do": "load"},
        {"do": "read"},
        {"do": "click", "selector": "#diff-ccs th[data-key=\"name\"]"},
        {"do": "read"},
        {"do": "fill", "selector": "#find", "value": "n1"},
        {"do": "read"},
    ]);
    let steps_file = dir.join("steps.json");
    std::fs::write(&steps_file, steps.to_string()).unwrap();
    let shots = dir.join("shots");
    std::fs::create_dir_all(&shots).unwrap();
    let v: serde_json::Value = serde_json::from_str(&cli_common::node(
        "profile_page.mjs",
        &[&page, &shots, &steps_file],
    ))
    .unwrap();
    assert_eq!(v["errors"], serde_json::json!([]), "errors in the page");
    let states = v["states"].as_array().unwrap();
    let ccs = text_table(&diff, "COST CENTRE");
    let entries = text_table(&diff, "CALL GRAPH ENTRY");
    assert_eq!(ccs.len(), 6, "{diff}");
    assert_eq!(page_rows(&states[0]["diffCcs"]), ccs);
    assert_eq!(page_rows(&states[0]["diffEntries"]), entries);
    // Sorted by name, A to Z.
    let names: Vec<String> = page_rows(&states[1]["diffCcs"])
        .into_iter()
        .map(|r| r[0].clone())
        .collect();
    let mut sorted = names.clone();
    sorted.sort_by_key(|n| n.to_lowercase());
    assert_eq!(names, sorted);
    assert_eq!(names.len(), ccs.len());
    // The search keeps the rows of cost centres whose name has "n1".
    let found = page_rows(&states[2]["diffCcs"]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0][0], "nfib.nfib.n1");
    let found = page_rows(&states[2]["diffEntries"]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0][0].ends_with("> nfib.nfib.n1"));
}

#[test]
fn profiles_of_two_programs_are_an_error() {
    let dir = cli_common::scratch("profile_diff_merge", "two_programs");
    let (nfib, _) = cli_common::profile_of(&dir, "nfib", STACKS);
    let (queens, _) = cli_common::profile_of(&dir, "queens", STACKS);
    let (a, b) = (nfib.to_str().unwrap(), queens.to_str().unwrap());
    let out = stg_prof_in(&dir, &["diff", a, b, "--exit-code"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("a profile of `nfib`") && err.contains("of `queens`"),
        "{err}"
    );
    assert!(out.stdout.is_empty());

    let out = stg_prof_in(&dir, &["merge", a, b, "-o", "both.pgcl"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("queens.pgcl: module 3 is `queens`") && err.contains("nfib.pgcl's is `nfib`"),
        "{err}"
    );
    assert!(!dir.join("both.pgcl").exists());
    // A missing file is named too.
    let out = stg_prof_in(&dir, &["diff", a, "missing.pgcl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("missing.pgcl"));
}

/// `merge -o` refuses every file the merge reads: an input profile and
/// also an input's side file (which it reads beside the profile), before
/// anything is written; both are left as they were.
#[test]
fn merge_refuses_to_write_over_an_inputs_side_file() {
    let dir = cli_common::scratch("profile_diff_merge", "over_side");
    let (nfib, _) = cli_common::profile_of(&dir, "nfib", STACKS);
    let side = dir.join("nfib.pgcl.src");
    let (profile_before, side_before) =
        (std::fs::read(&nfib).unwrap(), std::fs::read(&side).unwrap());
    let f = nfib.to_str().unwrap();
    for target in ["nfib.pgcl", "nfib.pgcl.src"] {
        let out = stg_prof_in(&dir, &["merge", f, f, "-o", target]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{target}: {err}");
        assert!(
            err.contains(&format!(
                "cannot write the merged profile to {target}: it is one of the run's input files"
            )),
            "{target}: {err}"
        );
        assert_eq!(std::fs::read(&nfib).unwrap(), profile_before, "{target}");
        assert_eq!(std::fs::read(&side).unwrap(), side_before, "{target}");
        assert!(!dir.join("nfib.pgcl.src.src").exists(), "{target}");
    }
}

/// A chain of `depth` entries below `MAIN`, cost centres c2 and c3 in
/// turn, each with `ticks` ticks.
fn deep_chain(depth: u32, ticks: u64) -> Profile {
    let entries = (0..=depth)
        .map(|i| Entry {
            cost_centre: if i == 0 { 1 } else { 2 + i % 2 },
            counters: Counters {
                ticks,
                ..Counters::default()
            },
            children: if i < depth { vec![i + 1] } else { vec![] },
        })
        .collect();
    Profile {
        frequency: 0,
        overhead: 0,
        modules: vec!["MAIN".into(), "m".into()],
        cost_centres: ["MAIN", "c2", "c3"]
            .iter()
            .enumerate()
            .map(|(i, name)| CostCentreDecl {
                module: if i == 0 { 1 } else { 2 },
                name: name.to_string(),
            })
            .collect(),
        entries,
    }
}

/// `diff` of two deep recursions, every entry changed: each row is one
/// line of bounded length, its path's middle left out (the paths' names
/// are held once, as a tree: a 20,000-deep chain held as a list of names
/// per entry took gigabytes).
#[test]
fn diff_of_deep_recursions_shows_each_entry_on_a_short_line() {
    let dir = cli_common::scratch("profile_diff_merge", "deep");
    let depth = 20_000;
    for (name, ticks) in [("a.pgcl", 1), ("b.pgcl", 2)] {
        std::fs::write(
            dir.join(name),
            format::try_write(&deep_chain(depth, ticks)).unwrap(),
        )
        .unwrap();
    }
    let out = stg_prof_in(&dir, &["diff", "a.pgcl", "b.pgcl"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let rows: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("MAIN.MAIN"))
        .collect();
    // Every entry, and the MAIN cost centre's row.
    assert_eq!(rows.len(), depth as usize + 2);
    assert!(report.lines().all(|l| l.len() < 400), "a long line");
    // The deepest entry: MAIN, 19,990 left out, then the last ten.
    let deepest = rows
        .iter()
        .find(|r| r.contains("… 19,990 more …"))
        .expect("the deepest entry's row");
    assert!(
        deepest.starts_with("MAIN.MAIN > … 19,990 more … > m.c3 > m.c2 > m.c3 > m.c2"),
        "{deepest}"
    );
    // A short path is shown whole.
    assert!(
        rows.iter()
            .any(|r| r.starts_with("MAIN.MAIN > m.c3 > m.c2 ")),
        "{}",
        &report[..2000]
    );
}

/// Every counter of the profile at `path`, by cost-centre path.
fn by_path(p: &Profile) -> HashMap<Vec<u32>, Counters> {
    let mut out = HashMap::new();
    let mut stack = vec![(0usize, vec![p.entries[0].cost_centre])];
    while let Some((i, path)) = stack.pop() {
        for &k in &p.entries[i].children {
            let mut kp = path.clone();
            kp.push(p.entries[k as usize].cost_centre);
            stack.push((k as usize, kp));
        }
        out.insert(path, p.entries[i].counters);
    }
    out
}

fn doubled(c: &Counters) -> Counters {
    let mut d = *c;
    d.add(c);
    d
}

#[test]
fn merge_of_two_reproducible_runs_doubles_every_counter() {
    for (mode, args) in [("flat", &[][..]), ("stacks", STACKS)] {
        let dir = cli_common::scratch("profile_diff_merge", &format!("double_{mode}"));
        for program in corpus::program_names() {
            let (one, _) = cli_common::profile_of(&dir, &program, args);
            let two = dir.join(format!("{program}.again.pgcl"));
            std::fs::copy(&one, dir.join("keep.pgcl")).unwrap();
            let (again, _) = cli_common::profile_of(&dir, &program, args);
            std::fs::rename(&again, &two).unwrap();
            std::fs::rename(dir.join("keep.pgcl"), &one).unwrap();
            let sum = dir.join(format!("{program}.sum.pgcl"));
            let out = stg_prof_in(
                &dir,
                &[
                    "merge",
                    one.to_str().unwrap(),
                    two.to_str().unwrap(),
                    "-o",
                    sum.to_str().unwrap(),
                ],
            );
            assert!(out.status.success(), "{program}: {}", text(&out.stderr));
            let read = |f: &Path| format::read(&std::fs::read(f).unwrap()).unwrap();
            let (a, m) = (read(&one), read(&sum));
            assert_eq!(m.cost_centres, a.cost_centres);
            assert_eq!(m.entries.len(), a.entries.len(), "{program} {mode}");
            let (pa, pm) = (by_path(&a), by_path(&m));
            for (path, c) in &pa {
                assert_eq!(pm[path], doubled(c), "{program} {mode}: {path:?}");
            }
            // The side file came along: the report shows sources.
            let report = cli_common::stg_prof(&["report"], &sum);
            assert!(
                report.contains("SRC") && report.contains("total steps"),
                "{report}"
            );
        }
    }
}

/// A random call tree over cost centres 1..=`ncc`, root `MAIN` (1).
fn random_profile(ncc: u32, shape: &[(usize, u32, [u16; 6])]) -> Profile {
    let mut entries = vec![Entry {
        cost_centre: 1,
        counters: Counters::default(),
        children: vec![],
    }];
    for &(parent, cc, c) in shape {
        let parent = parent % entries.len();
        let counters = Counters {
            ticks: c[0] as u64,
            words: c[1] as u64,
            tail_calls: c[2] as u64,
            strict_calls: c[3] as u64,
            lazy_calls: c[4] as u64,
            curried_calls: c[5] as u64,
        };
        entries.push(Entry {
            cost_centre: 1 + cc % ncc,
            counters,
            children: vec![],
        });
        let at = entries.len() as u32 - 1;
        entries[parent].children.push(at);
    }
    Profile {
        frequency: 0,
        overhead: 0,
        modules: vec!["MAIN".into(), "m".into()],
        cost_centres: (1..=ncc)
            .map(|i| CostCentreDecl {
                module: if i == 1 { 1 } else { 2 },
                name: if i == 1 {
                    "MAIN".into()
                } else {
                    format!("c{i}")
                },
            })
            .collect(),
        entries,
    }
}

/// Counters by path where siblings may repeat a cost centre: the k-th
/// child of a cost centre is keyed with k.
fn by_path_k(p: &Profile) -> HashMap<Vec<(u32, usize)>, Counters> {
    let mut out: HashMap<Vec<(u32, usize)>, Counters> = HashMap::new();
    let mut stack = vec![(0usize, vec![(1, 0)])];
    while let Some((i, path)) = stack.pop() {
        let mut seen: HashMap<u32, usize> = HashMap::new();
        for &k in &p.entries[i].children {
            let cc = p.entries[k as usize].cost_centre;
            let n = seen.entry(cc).or_insert(0);
            let mut kp = path.clone();
            kp.push((cc, *n));
            *n += 1;
            stack.push((k as usize, kp));
        }
        out.entry(path).or_default().add(&p.entries[i].counters);
    }
    out
}

proptest! {
    #[test]
    fn merge_sums_every_path(
        ncc in 2u32..6,
        a in proptest::collection::vec((0usize..40, 0u32..6, any::<[u16; 6]>()), 0..40),
        b in proptest::collection::vec((0usize..40, 0u32..6, any::<[u16; 6]>()), 0..40),
    ) {
        let (pa, pb) = (random_profile(ncc, &a), random_profile(ncc, &b));
        let m = merge(&[("a", &pa), ("b", &pb)]).unwrap();
        // The merge is a valid profile: it writes and reads back.
        let back = format::read(&format::try_write(&m).unwrap()).unwrap();
        prop_assert_eq!(&back, &m);
        let (ka, kb, km) = (by_path_k(&pa), by_path_k(&pb), by_path_k(&m));
        for (path, c) in &km {
            let mut want = ka.get(path).copied().unwrap_or_default();
            want.add(&kb.get(path).copied().unwrap_or_default());
            prop_assert_eq!(c, &want);
        }
        prop_assert!(ka.keys().chain(kb.keys()).all(|p| km.contains_key(p)));
        // A profile merged with itself: every counter doubled.
        let twice = merge(&[("a", &pa), ("a", &pa)]).unwrap();
        for (path, c) in by_path_k(&twice) {
            prop_assert_eq!(c, doubled(&ka[&path]));
        }
    }
}

/// An input without a side file (a profile copied alone, standard input)
/// names no clock: it merges with runs of either clock, first or not;
/// two inputs whose side files name different clocks are an error
/// wherever they are among the inputs.
#[test]
fn merge_checks_the_clocks_the_side_files_name() {
    let dir = cli_common::scratch("profile_diff_merge", "clocks");
    let (nfib, _) = cli_common::profile_of(&dir, "nfib", STACKS);
    let side = std::fs::read_to_string(dir.join("nfib.pgcl.src")).unwrap();
    assert!(side.contains("\nclock steps\n"), "{side}");
    std::fs::copy(&nfib, dir.join("cycles.pgcl")).unwrap();
    std::fs::write(
        dir.join("cycles.pgcl.src"),
        side.replace("\nclock steps\n", "\nclock cycles\n"),
    )
    .unwrap();
    std::fs::copy(&nfib, dir.join("alone.pgcl")).unwrap();
    for inputs in [
        ["alone.pgcl", "nfib.pgcl"],
        ["nfib.pgcl", "alone.pgcl"],
        ["alone.pgcl", "cycles.pgcl"],
    ] {
        let mut args = vec!["merge"];
        args.extend(inputs);
        args.extend(["-o", "sum.pgcl"]);
        let out = stg_prof_in(&dir, &args);
        assert!(out.status.success(), "{inputs:?}: {}", text(&out.stderr));
    }
    for inputs in [
        ["nfib.pgcl", "alone.pgcl", "cycles.pgcl"],
        ["alone.pgcl", "nfib.pgcl", "cycles.pgcl"],
    ] {
        let mut args = vec!["merge"];
        args.extend(inputs);
        args.extend(["-o", "sum.pgcl"]);
        let out = stg_prof_in(&dir, &args);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{inputs:?}: {err}");
        assert!(
            err.contains(
                "merge: cycles.pgcl counts ticks of the cycles clock, nfib.pgcl of the steps clock"
            ),
            "{inputs:?}: {err}"
        );
    }
}

/// The merged profile's side file is extra, as `stg-run`'s is: one that
/// cannot be written (here its name is longer than the file system
/// allows) is warned about and the sum written without it, not refused.
#[test]
fn merge_writes_the_sum_when_its_side_file_cannot_be() {
    let dir = cli_common::scratch("profile_diff_merge", "side_unwritable");
    let (nfib, _) = cli_common::profile_of(&dir, "nfib", STACKS);
    let f = nfib.to_str().unwrap();
    // 255 bytes: the most most file systems allow, so `.src` is too long.
    let name = format!("{}.pgcl", "s".repeat(250));
    let out = stg_prof_in(&dir, &["merge", f, f, "-o", &name]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: cannot write its side file to")
            && err.contains("the merged profile is written without it"),
        "{err}"
    );
    let sum = format::read(&std::fs::read(dir.join(&name)).unwrap()).unwrap();
    let one = format::read(&std::fs::read(&nfib).unwrap()).unwrap();
    assert_eq!(sum.cost_centres, one.cost_centres);
}
