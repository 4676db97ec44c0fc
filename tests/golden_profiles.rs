//! Golden profiles: every program of `programs/` run through the real
//! binaries, `stg-run --reproducible --profile-file F` then
//! `stg-prof report --all-columns F`, in flat mode and in stacks mode with
//! `--auto-cc=all`, one snapshot per program per mode
//! (`golden_profiles__flat__<program>.snap`, `..__stacks__<program>.snap`).
//! Programs are found by listing the directory, so a new program is covered
//! (its snapshot must then be read and accepted).
//!
//! Also: the files the machine writes read back and write again to the same
//! bytes; `--reproducible` runs give identical files; the reference engine
//! writes the same file as the default one; a run stopped by a runtime error
//! or a limit still writes a whole, readable profile of the partial run; an
//! unwritable profile path fails cleanly.
//!
//! # What the snapshots show, worked by hand
//!
//! Accounting (SEMANTICS.md "What each profile entry counts", and the doc
//! comment of src/machine/reference.rs): a step's tick goes to the entry
//! current before the rule fires, except in a row of frame pops
//! (16/16′/17a/17a′ back to back) where every step of the row goes to the
//! entry current before the first pop ("hidden execution": SEMANTICS.md says
//! so of the updated closures' cost centre and of their allocation; the
//! machine also charges the row's ticks and paps there). A closure is
//! 2 + max(1, n) words. Report columns: entries = strict calls (scc
//! entries), thunks = lazy calls (15/15′ that made the entry current),
//! calls = rule 1 plus returns to a case continuation (6–8, 11–13), paps =
//! 17a/17a′, ticks, bytes = 8 × words. `stg-run --trace` prints the state
//! *before* each step, so outside pop rows the `cc=` of trace line k is the
//! entry step k is charged to. [`trace_accounts_for_every_counter`] checks
//! ticks, calls, entries, thunks and paps of every entry of every program,
//! in both modes, against the trace; the words were checked by hand below.
//!
//! ## paper_map_scc, flat (62 steps, 50 words)
//! - MAIN 6 ticks: steps 1–2 (`main {}` by rule 1, then entering the `main`
//!   thunk by rule 15) and the printer forcing fy, mfy, fy, mfy (rule 15 at
//!   steps 16, 29, 40, 53). 1 call: step 1.
//! - CAF 2 ticks (step 3 `letrec`, step 4 `scc`), 1 thunk (step 2 entered
//!   `main`, which carries CAF), 17 words: the letrec's one, two, nil (3
//!   words each) and l2, l (4 each).
//! - foo: 1 entry, 4 thunks (fy, mfy, fy, mfy, built under foo, entered by
//!   the printer under MAIN), 54 ticks = the 53 steps run under foo plus
//!   step 15: steps 14 (16′, the scc's restore frame) and 15 (16, main's
//!   update frame) are one row of pops, charged to foo, and main's update
//!   (a Cons, 4 words) is foo's. 33 words = two `let fy, mfy` (8 each) +
//!   updates main→Cons 4, fy→I# 3, mfy→Cons 4, fy→I# 3, mfy→Nil 3. 17 calls:
//!   rule 1 ten times (map's `xs` three times, `f {y}` and double's `x`
//!   twice each, `map {f,ys}` in mfy twice, the first `map {double,l}`),
//!   rule 6 five times (map's case three times, double's case twice), rule
//!   12 twice (double's `case +#`).
//!
//! ## paper_map_scc, stacks, auto-cc=all (71 steps)
//! No frame for scc in stacks mode, so 9 more steps (the auto scc's) and no
//! pop rows. MAIN 6 (as flat); MAIN>CAF 1 tick (the scc "main"); main 2
//! ticks (letrec, scc foo), 17 words (the letrec); foo 3 ticks (rule 1,
//! rule 2 into map, map's scc) 1 call; map: 3 entries (the first call, then
//! twice from map.mfy, where `push` cuts `…>map>map.mfy` back to `…>map`
//! because map is already on the stack), 4 thunks (fy, mfy thunks carry
//! `…>map`), 27 ticks, 27 words (2 lets of 8, updates main→Cons 4,
//! mfy→Cons 4, mfy→Nil 3); map.fy/map.mfy 2 entries, 3 ticks each time;
//! double 2 entries, 20 ticks, 6 words (the two fy→I# updates: the
//! evaluating stack is `…>map.fy>double`).
//!
//! ## scc_pair, flat (395 steps, 159 words)
//! Section 4's point: foo has 1 entry but gets 389 ticks and all 159 words:
//! the thunk gx, built under foo and forced by the printer under MAIN,
//! charges `g 10 = sum [1..10]` to foo. MAIN 5 ticks: steps 1, 2, forcing
//! gx (rule 15), entering y (rule 2) and `I# {7#}` (rule 5). CAF 1 tick (the
//! scc), 1 thunk (main). foo 12 thunks: gx, l, the 10 `rest` cells of
//! enumFromToW. Words: gx 3 + main→Pair 4 (pop row) + l 3 + sum's zero 3 +
//! 10 × (x 3 + rest 4) + updates l→Cons 4, 9 rest→Cons 36, rest→Nil 3 +
//! foldl'’s 10 accumulators (rule 7 binds `acc`: I#, 3 words each) 30 +
//! gx→I# 3 = 159. In stacks mode the same words split as foo 7, g 39, g.l 113.
//!
//! ## nested_scc_map, flat (403 steps)
//! foo 1 entry, 11 thunks (inner, and fy, mfy of the outer map ×5); bar 1
//! entry (inner is forced once), 10 thunks (the inner map's fy, mfy ×5).
//! Words: foo 84 = fx 3 + inner 3 + 5 × 8 (lets) + 5 fy→I# 15 + mfy updates
//! 4 × 4 + 3 + main→Cons 4 (pop row with foo's restore frame); bar 81 =
//! gy 3 + 40 + 15 + 19 + inner→Cons 4 (pop row with bar's frame); CAF 58 =
//! `l = [1..5]`: 5 × 7 + l→Cons 4 + 4 × 4 + 3; CAF's 7 thunks: main, l, 5
//! rests.
//! MAIN 12 ticks: steps 1–2 and the printer's 10 thunk entries.
//! In stacks mode f and g get the fy→I# updates (15 words each), since
//! the evaluating stack ends in `…>main.fx>f` / `…>main.inner.gy>g`.
//!
//! ## pap_update, flat (216 steps)
//! f's thunk (CAF) is entered once: add3 finds 2 arguments and f's update
//! frame: 17a, 1 pap for CAF, f becomes a 5-word PAP (add3, one, ten).
//! k = scc "mk" (mulAdd {two}): mulAdd finds 1 argument with mk's restore
//! frame on top: 17a′ then 17a for k's update frame, one row charged to mk:
//! mk 3 ticks (rule 1, 17a′, 17a), 1 call, 2 paps, 4 words (the PAP mulAdd
//! two). mk has 1 entry although k is used twice: the second use enters the
//! PAP, not the thunk. In stacks mode scc pushes no frame: only 17a, mk 1
//! pap and main.f 1 pap; applying a PAP appends its stack, which creates
//! `…>main.r4>main.k>mk` and `…>main.r5>main.k>mk`, where `main.k` is an
//! intermediate stack with no cost of its own (all zeros, as GHC shows).
//!
//! ## single_entry, flat (3978 steps)
//! build 1 entry, use 1 entry. build 12 thunks (b, l, 10 rests of
//! triangle 10): b, built under build, is entered once under use, and its
//! work stays build's. use 1 thunk (ab, a \s closure built and entered under
//! use), 10 words: ab 4 + c 3 + main→I# 3 (pop row: use's restore frame,
//! then main's update frame). CAF 105 thunks: main, a, p, t, and triangle
//! 100's l and 100 rests. t returns an Int# through its restore frame
//! (16′); single_entry_twice stops at the second entry of t, which is not
//! counted (CAF 2 thunks: main, t once).
//!
//! The exact numbers of each program are in its snapshot.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use stg_run::internal::profile::format;

mod cli_common;
mod corpus;

use cli_common::stg_run;
use corpus::program_names as programs;

fn programs_dir() -> PathBuf {
    corpus::repo("programs")
}

/// A fresh, empty directory for one test.
fn scratch(test: &str) -> PathBuf {
    cli_common::scratch("golden_profiles", test)
}

/// The exit status a program's run should have: `programs/<p>.exit` if
/// present, else 0.
fn expected_status(program: &str) -> i32 {
    match std::fs::read_to_string(programs_dir().join(format!("{program}.exit"))) {
        Ok(text) => text.trim().parse().expect("a .exit file holds a number"),
        Err(_) => 0,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Flat,
    Stacks,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Flat => "flat",
            Mode::Stacks => "stacks",
        }
    }
    fn args(self) -> &'static [&'static str] {
        match self {
            Mode::Flat => &[],
            Mode::Stacks => &["--cost-centres=stacks", "--auto-cc=all"],
        }
    }
}

/// Runs `program` in `mode` writing the profile to `file`; checks the exit
/// status and standard output against `programs/<p>.exit` / `.stdout`.
fn run_to(program: &str, mode: Mode, file: &Path, extra: &[&str]) -> Output {
    // From the repository's root, as `programs/<p>.stg`: the report's SRC
    // column shows the path as given, which must not be a scratch path.
    let src = format!("programs/{program}.stg");
    let mut args = vec![
        src.as_str(),
        "--reproducible",
        "--profile-file",
        file.to_str().unwrap(),
    ];
    args.extend_from_slice(mode.args());
    args.extend_from_slice(extra);
    let out = Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .args(&args)
        .current_dir(corpus::repo(""))
        .output()
        .expect("stg-run starts");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(expected_status(program)),
        "{program} ({}): exit status; stderr:\n{stderr}",
        mode.name()
    );
    let want = std::fs::read_to_string(programs_dir().join(format!("{program}.stdout")))
        .expect("every program has a .stdout");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        want,
        "{program} ({}): standard output",
        mode.name()
    );
    out
}

fn report(file: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_stg-prof"))
        .args(["report", "--all-columns"])
        .arg(file)
        .output()
        .expect("stg-prof starts");
    assert!(
        out.status.success(),
        "stg-prof report {}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("the report is UTF-8")
}

fn golden(mode: Mode) {
    let dir = scratch(mode.name());
    for program in programs() {
        // Named after the program so that the report's header names it.
        let file = dir.join(format!("{program}.pgcl"));
        run_to(&program, mode, &file, &[]);
        let text = report(&file);
        insta::with_settings!({
            description => format!(
                "stg-run programs/{program}.stg --reproducible {} --profile-file {program}.pgcl; stg-prof report --all-columns {program}.pgcl",
                mode.args().join(" ")
            ),
            omit_expression => true,
        }, {
            insta::assert_snapshot!(format!("{}__{program}", mode.name()), text);
        });
    }
}

#[test]
fn golden_flat() {
    golden(Mode::Flat);
}

#[test]
fn golden_stacks_auto_cc_all() {
    golden(Mode::Stacks);
}

// ---------------------------------------------------------------------------
// Every counter but words, re-derived from the trace.

/// Counters re-derived from a trace: ticks, calls, entries, thunks, paps.
type Derived = [u64; 5];

/// Re-derives, from `stg-run --trace` text on standard error, the counters
/// of each entry (keyed by the trace's `cc=`: `module.name`, or `MAIN`, or a
/// stack `A > B > C`), following the accounting described at the top of
/// this file. Independent of the machine's own bookkeeping.
fn derive_from_trace(stderr: &str) -> (u64, std::collections::BTreeMap<String, Derived>) {
    let mut steps: Vec<(String, String)> = Vec::new();
    for line in stderr.lines() {
        let mut tokens = line.split_whitespace();
        let (Some(n), Some(rule)) = (tokens.next(), tokens.next()) else {
            continue;
        };
        let Some((_, cc)) = line.rsplit_once(" cc=") else {
            continue;
        };
        if n.parse::<u64>().is_err() {
            continue;
        }
        assert_eq!(
            n.parse::<usize>().unwrap(),
            steps.len() + 1,
            "trace steps are numbered 1, 2, …: {line}"
        );
        steps.push((rule.to_string(), cc.trim().to_string()));
    }
    let mut derived: std::collections::BTreeMap<String, Derived> = Default::default();
    let mut row: Option<String> = None;
    for (i, (rule, cc)) in steps.iter().enumerate() {
        let next = steps.get(i + 1).map(|(_, cc)| cc.clone());
        let pop = matches!(rule.as_str(), "16" | "16′" | "17a" | "17a′");
        let charged = if pop {
            row.get_or_insert_with(|| cc.clone()).clone()
        } else {
            row = None;
            cc.clone()
        };
        derived.entry(charged.clone()).or_default()[0] += 1;
        if matches!(rule.as_str(), "1" | "6" | "7" | "8" | "11" | "12" | "13") {
            derived.entry(cc.clone()).or_default()[1] += 1;
        }
        // The entry a rule makes current is the `cc=` of the next line. The
        // last step of a run never enters a thunk or an scc (the machine
        // halts on a value), so `next` exists for these rules.
        if matches!(rule.as_str(), "scc" | "scc=") {
            derived
                .entry(next.clone().expect("a step follows an scc"))
                .or_default()[2] += 1;
        }
        if matches!(rule.as_str(), "15" | "15′") {
            derived
                .entry(next.expect("a step follows a thunk entry"))
                .or_default()[3] += 1;
        }
        if matches!(rule.as_str(), "17a" | "17a′") {
            derived.entry(charged).or_default()[4] += 1;
        }
    }
    (steps.len() as u64, derived)
}

/// The same counters, from the profile file, keyed as the trace keys them.
fn from_profile(
    profile: &stg_run::internal::profile::Profile,
    mode: Mode,
) -> std::collections::BTreeMap<String, Derived> {
    let name = |cc: u32| -> String {
        let decl = &profile.cost_centres[cc as usize - 1];
        if cc == 1 {
            decl.name.clone()
        } else {
            format!(
                "{}.{}",
                profile.modules[decl.module as usize - 1],
                decl.name
            )
        }
    };
    let mut out: std::collections::BTreeMap<String, Derived> = Default::default();
    // (entry, path to it), depth first without recursion.
    let mut todo = vec![(0usize, name(profile.entries[0].cost_centre))];
    while let Some((i, path)) = todo.pop() {
        let e = &profile.entries[i];
        let c = &e.counters;
        let key = match mode {
            Mode::Flat => name(e.cost_centre),
            Mode::Stacks => path.clone(),
        };
        let slot = out.entry(key).or_default();
        for (s, v) in slot.iter_mut().zip([
            c.ticks,
            c.tail_calls,
            c.strict_calls,
            c.lazy_calls,
            c.curried_calls,
        ]) {
            *s += v;
        }
        for &child in &e.children {
            let child_path = format!(
                "{path} > {}",
                name(profile.entries[child as usize].cost_centre)
            );
            todo.push((child as usize, child_path));
        }
    }
    out.retain(|_, v| v.iter().any(|&n| n > 0));
    out
}

fn read_profile(file: &Path) -> stg_run::internal::profile::Profile {
    let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    format::read(&bytes).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

fn trace_check(mode: Mode) {
    let dir = scratch(&format!("trace_{}", mode.name()));
    for program in programs() {
        let file = dir.join(format!("{program}.pgcl"));
        let out = run_to(&program, mode, &file, &["--trace"]);
        let (steps, derived) = derive_from_trace(&String::from_utf8_lossy(&out.stderr));
        let profile = read_profile(&file);
        let total: u64 = profile.entries.iter().map(|e| e.counters.ticks).sum();
        assert_eq!(total, steps, "{program} ({}): ticks = steps", mode.name());
        let recorded = from_profile(&profile, mode);
        assert_eq!(
            recorded,
            derived,
            "{program} ({}): [ticks, calls, entries, thunks, paps] per entry, profile (left) vs trace (right)",
            mode.name()
        );
    }
}

#[test]
fn trace_accounts_for_every_counter_flat() {
    trace_check(Mode::Flat);
}

#[test]
fn trace_accounts_for_every_counter_stacks() {
    trace_check(Mode::Stacks);
}

// ---------------------------------------------------------------------------
// The files themselves.

/// Reading then writing a file the machine wrote gives back its bytes; two
/// `--reproducible` runs give the same bytes; so does the reference engine.
fn files_check(mode: Mode) {
    let dir = scratch(&format!("files_{}", mode.name()));
    for program in programs() {
        let a = dir.join(format!("{program}.a.pgcl"));
        let b = dir.join(format!("{program}.b.pgcl"));
        let r = dir.join(format!("{program}.ref.pgcl"));
        run_to(&program, mode, &a, &[]);
        run_to(&program, mode, &b, &[]);
        run_to(&program, mode, &r, &["--engine=reference"]);
        let bytes = std::fs::read(&a).unwrap();
        let profile = format::read(&bytes).unwrap();
        assert!(
            format::write(&profile) == bytes,
            "{program} ({}): write(read(file)) differs from the file",
            mode.name()
        );
        assert_eq!(
            profile.frequency, 0,
            "{program}: --reproducible zeroes the frequency"
        );
        assert_eq!(
            profile.overhead, 0,
            "{program}: --reproducible zeroes the overhead"
        );
        assert!(
            std::fs::read(&b).unwrap() == bytes,
            "{program} ({}): two --reproducible runs differ",
            mode.name()
        );
        assert!(
            std::fs::read(&r).unwrap() == bytes,
            "{program} ({}): --engine=reference writes another profile",
            mode.name()
        );
    }
}

#[test]
fn files_round_trip_and_are_reproducible_flat() {
    files_check(Mode::Flat);
}

#[test]
fn files_round_trip_and_are_reproducible_stacks() {
    files_check(Mode::Stacks);
}

// ---------------------------------------------------------------------------
// Runs that stop early, and profiles that cannot be written.

/// `after N steps` in a runtime error message.
fn steps_in_message(stderr: &str) -> u64 {
    let rest = stderr
        .split("after ")
        .nth(1)
        .unwrap_or_else(|| panic!("no `after N steps` in:\n{stderr}"));
    rest.split_whitespace().next().unwrap().parse().unwrap()
}

/// `N bytes allocated in the heap` of `--stats`.
fn bytes_allocated(stderr: &str) -> u64 {
    cli_common::stats_figure(stderr, "bytes allocated in the heap")
}

fn total(profile: &stg_run::internal::profile::Profile) -> stg_run::internal::profile::Counters {
    let mut sum = stg_run::internal::profile::Counters::default();
    for e in &profile.entries {
        sum.add(&e.counters);
    }
    sum
}

#[test]
fn runtime_errors_still_write_the_partial_profile() {
    let dir = scratch("runtime_errors");
    for program in ["no_match", "single_entry_twice"] {
        assert_eq!(expected_status(program), 3);
        for mode in [Mode::Flat, Mode::Stacks] {
            let file = dir.join(format!("{program}.{}.pgcl", mode.name()));
            let out = run_to(program, mode, &file, &["--stats"]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains("runtime error"), "{stderr}");
            let profile = read_profile(&file);
            let sum = total(&profile);
            assert_eq!(
                sum.ticks,
                steps_in_message(&stderr),
                "{program}: ticks of the partial run"
            );
            assert_eq!(
                sum.words * 8,
                bytes_allocated(&stderr),
                "{program}: words of the partial run"
            );
            assert!(
                sum.ticks > 10,
                "{program}: the run did some work before failing"
            );
        }
    }
}

#[test]
fn step_limit_still_writes_the_partial_profile() {
    let dir = scratch("step_limit");
    for (program, mode) in [("nfib", Mode::Flat), ("paper_map_scc", Mode::Stacks)] {
        let file = dir.join(format!("{program}.pgcl"));
        let src = programs_dir().join(format!("{program}.stg"));
        let mut args = vec![
            src.to_str().unwrap(),
            "--reproducible",
            "--max-steps",
            "50",
            "--profile-file",
            file.to_str().unwrap(),
            "--stats",
        ];
        args.extend_from_slice(mode.args());
        let out = stg_run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{stderr}");
        assert!(
            stderr.contains("step limit of 50 reached; raise it with --max-steps"),
            "{stderr}"
        );
        assert_eq!(steps_in_message(&stderr), 50);
        let profile = read_profile(&file);
        let sum = total(&profile);
        assert_eq!(
            sum.ticks, 50,
            "{program}: exactly the 50 steps done are counted"
        );
        assert_eq!(sum.words * 8, bytes_allocated(&stderr));
        // The first 50 steps of the whole run, entry by entry: the same run
        // traced to step 50 accounts for every counter.
        let traced = stg_run(&[&args[..], &["--trace"]].concat());
        let (steps, derived) = derive_from_trace(&String::from_utf8_lossy(&traced.stderr));
        assert_eq!(steps, 50);
        assert_eq!(from_profile(&profile, mode), derived, "{program}");
    }
}

/// Entries of `dir` (names), sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn an_unwritable_profile_fails_cleanly_and_leaves_nothing() {
    let dir = scratch("unwritable");
    let src = programs_dir().join("paper_map_scc.stg");
    // A directory where the file should go, a missing directory, a regular
    // file used as a directory. (Permissions are not used: tests may run
    // as root.)
    std::fs::create_dir(dir.join("a_directory.pgcl")).unwrap();
    std::fs::write(dir.join("a_file"), "x").unwrap();
    let before = listing(&dir);
    for target in [
        dir.join("a_directory.pgcl"),
        dir.join("missing").join("p.pgcl"),
        dir.join("a_file").join("p.pgcl"),
    ] {
        let out = stg_run(&[
            src.to_str().unwrap(),
            "--profile-file",
            target.to_str().unwrap(),
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{}: {stderr}", target.display());
        // Each is found before the run starts (files::OutputPlan).
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "",
            "{}: the program runs only if the profile can be written",
            target.display()
        );
        assert_eq!(
            stderr,
            format!(
                "stg-run: cannot write the profile to {}: {}\n",
                target.display(),
                stderr.rsplit(": ").next().unwrap().trim_end()
            ),
            "one line naming the file and the reason"
        );
        assert_eq!(listing(&dir), before, "no temporary file is left behind");
        assert!(listing(&dir.join("a_directory.pgcl")).is_empty());
    }
}
