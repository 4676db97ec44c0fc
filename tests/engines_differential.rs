//! The fast engine means exactly what the reference engine means: for every
//! program in programs/ and tests/ghc/ (the twins kept there, and the
//! programs of several modules in its subdirectories), in flat and stacks
//! mode, with --auto-cc none and all, with and without gc_stress, and cut
//! short by --max-steps and --max-stack, both engines give the same output,
//! the same error message, the same step count and byte-identical
//! `--reproducible` profiles, the same heap profiles (by cost centre, kind
//! and description) and the same collector statistics (bytes allocated and
//! copied, collections, residency). (bench/run.sh compares the engines on
//! bench/programs.) Random programs: tests/engines_random.rs.

mod corpus;
mod engines_common;
use engines_common::*;
use stg_run::internal::machine::RunOptions;
use stg_run::internal::machine::heap_profile::HeapProfileBy;
use stg_run::internal::stg::auto_cc::AutoCc;

/// A program: its files, `(path, text)` in load order.
type Program = Vec<(String, String)>;

/// Every `.stg` file of `dir` as a program, and every subdirectory holding
/// `.stg` files as one program of several modules, all of its files loaded
/// in path order (tests/ghc/two_modules's Lib before Main, caf_function's A
/// before B, three_modules's Base, Main, Stats: the order changes no
/// output, only the numbering of profile entries, the same in both engines).
fn programs_in(dir: &str) -> Vec<Program> {
    let mut v: Vec<Program> = corpus::stg_paths(dir)
        .into_iter()
        .map(|p| corpus::read_all(&[p]))
        .collect();
    for d in corpus::module_dirs(dir) {
        v.push(corpus::read_all(&corpus::stg_paths(d)));
    }
    v
}

fn all_programs() -> Vec<Program> {
    let mut v = programs_in("programs");
    v.extend(programs_in("tests/ghc"));
    assert!(
        v.iter().any(|p| p.len() > 1),
        "no program of several modules"
    );
    assert!(v.iter().any(|p| p.len() > 2), "no program of three modules");
    v
}

/// Compare both engines on every program with the given mode and auto-cc:
/// a full run, a gc_stress run (programs up to `stress_steps` steps), runs
/// cut by --max-steps at a few points, heap profiles in each grouping and one
/// run by a small --max-stack (these last only for programs of up to
/// `EXTRA_RUNS_STEPS` steps).
fn check(programs: &[Program], stacks: bool, auto: AutoCc, stress_steps: u64) {
    let mut failures = Vec::new();
    for files in programs {
        let path = files
            .iter()
            .map(|f| f.0.as_str())
            .collect::<Vec<_>>()
            .join(" + ");
        let l = load_files(files, true, auto).unwrap_or_else(|e| panic!("{path}: {e}"));
        let what = format!("{path} stacks={stacks} auto={auto:?}");
        let base = mode_options(stacks, false);
        let full = match compare(&l, &base) {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("{what}: {e}"));
                continue;
            }
        };
        if full.steps <= stress_steps
            && let Err(e) = compare(&l, &mode_options(stacks, true))
        {
            failures.push(format!("{what} gc_stress: {e}"));
        }
        // The runs below repeat the whole program about eight times; on the
        // ten biggest programs (2.1 to 50 million steps: ghc_guide_fib,
        // life, lambda_nf, ...) they took half of this test's time while
        // covering no rule, cut or census the hundred smaller ones do not:
        // there, the full run above is the check.
        if full.steps > EXTRA_RUNS_STEPS {
            continue;
        }
        for cut in [1, full.steps / 2, full.steps.saturating_sub(1)] {
            let o = RunOptions {
                max_steps: Some(cut),
                ..base.clone()
            };
            if let Err(e) = compare(&l, &o) {
                failures.push(format!("{what} max_steps={cut}: {e}"));
            }
        }
        for by in [
            HeapProfileBy::CostCentre,
            HeapProfileBy::Kind,
            HeapProfileBy::Descr,
            HeapProfileBy::Retainer,
            HeapProfileBy::Biography,
        ] {
            let o = RunOptions {
                heap_profile: Some(by),
                heap_interval: (full.steps / 7).max(1),
                ..base.clone()
            };
            if let Err(e) = compare(&l, &o) {
                failures.push(format!("{what} heap profile {by:?}: {e}"));
            }
        }
        let o = RunOptions {
            max_stack: Some(2048),
            ..base.clone()
        };
        if let Err(e) = compare(&l, &o) {
            failures.push(format!("{what} max_stack=2K: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// gc_stress collects at every allocation: only for the smaller programs
/// in debug builds.
const STRESS_STEPS: u64 = 60_000;

/// Programs of more steps than this are compared by their full run only
/// (no cuts, heap profiles or small stack), in every mode.
const EXTRA_RUNS_STEPS: u64 = 2_000_000;

#[test]
fn flat_auto_none() {
    check(&all_programs(), false, AutoCc::None, STRESS_STEPS);
}

#[test]
fn flat_auto_all() {
    check(&all_programs(), false, AutoCc::All, STRESS_STEPS);
}

#[test]
fn stacks_auto_none() {
    check(&all_programs(), true, AutoCc::None, STRESS_STEPS);
}

#[test]
fn stacks_auto_all() {
    check(&all_programs(), true, AutoCc::All, STRESS_STEPS);
}

/// The fast engine runs several rules at a time, but only when no step of
/// them meets the step limit or a heap census: so a run cut at any step,
/// or with a census after any step, must still agree with the reference
/// engine. Every program of up to `SMALL` steps is cut at every step (flat
/// mode without `--auto-cc`, and stacks mode with `--auto-cc=all` at a
/// stride), and takes a census every 1, 2, 3 and 5 steps.
#[test]
fn every_step_boundary() {
    const SMALL: u64 = 1500;
    let mut failures = Vec::new();
    let mut tried = 0;
    for files in all_programs() {
        let path = files[0].0.clone();
        for (stacks, auto, stride) in [(false, AutoCc::None, 1), (true, AutoCc::All, 7)] {
            let l = load_files(&files, true, auto).unwrap();
            let base = mode_options(stacks, false);
            let full = match compare(&l, &base) {
                Ok(o) => o,
                Err(e) => {
                    failures.push(format!("{path}: {e}"));
                    continue;
                }
            };
            if full.steps > SMALL {
                continue;
            }
            tried += 1;
            for cut in (1..full.steps).step_by(stride) {
                let o = RunOptions {
                    max_steps: Some(cut),
                    ..base.clone()
                };
                if let Err(e) = compare(&l, &o) {
                    failures.push(format!("{path} stacks={stacks} max_steps={cut}: {e}"));
                    break;
                }
            }
            // A biography notes each use of a closure: a census after
            // every step sees the fast engine's ops note them where the
            // reference engine's rules do.
            for (by, interval) in [
                (HeapProfileBy::Descr, 1),
                (HeapProfileBy::Descr, 2),
                (HeapProfileBy::Descr, 3),
                (HeapProfileBy::Descr, 5),
                (HeapProfileBy::Biography, 1),
                (HeapProfileBy::Biography, 4),
                // A retainer census starts from the roots: after any step
                // the two engines' roots must reach the same closures
                // directly (not through a thunk in one of them only).
                (HeapProfileBy::Retainer, 1),
                (HeapProfileBy::Retainer, 3),
            ] {
                let o = RunOptions {
                    heap_profile: Some(by),
                    heap_interval: interval,
                    ..base.clone()
                };
                if let Err(e) = compare(&l, &o) {
                    failures.push(format!(
                        "{path} stacks={stacks} {by:?} census every {interval}: {e}"
                    ));
                }
            }
        }
    }
    assert!(tried >= 10, "only {tried} small programs");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A retainer census that needs more side memory than half of
/// `--max-heap` stops the profile: at the same census on both engines,
/// whose roots come in different orders over different heap layouts (the
/// traversal's sets made on the way differ, the sets it ends with do not).
#[test]
fn retainer_census_limits_agree() {
    let mut failures = Vec::new();
    let mut stopped = 0;
    for files in all_programs() {
        let path = files[0].0.clone();
        let l = load_files(&files, true, AutoCc::Top).unwrap();
        for (max_heap, interval) in [(40 << 10, 777), (100 << 10, 500), (300 << 10, 1000)] {
            let o = RunOptions {
                heap_profile: Some(HeapProfileBy::Retainer),
                heap_interval: interval,
                max_heap: Some(max_heap),
                ..mode_options(false, false)
            };
            match compare(&l, &o) {
                Ok(out) => {
                    stopped +=
                        usize::from(out.heap_profile.is_some_and(|h| h.contains("\nstopped: ")));
                }
                Err(e) => failures.push(format!("{path} --max-heap={max_heap}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The limits are small enough to stop many programs' profiles.
    assert!(stopped >= 20, "only {stopped} runs reached the limit");
}

#[test]
fn profiling_off_changes_nothing_but_the_profile() {
    for files in all_programs() {
        let path = &files[0].0;
        let l = load_files(&files, true, AutoCc::All).unwrap();
        let fast = stg_run::internal::machine::Engine::Fast;
        let on = run_engine(&l, fast, &mode_options(false, false));
        let off = run_engine(
            &l,
            fast,
            &RunOptions {
                no_profile: true,
                ..mode_options(false, false)
            },
        );
        assert_eq!(on.out, off.out, "{path}");
        assert_eq!(on.error, off.error, "{path}");
        assert_eq!(on.steps, off.steps, "{path}");
    }
}

/// `--clock=cycles` changes the ticks and the header, nothing else: the
/// same tree, calls and words as the steps clock; `--reproducible` zeroes
/// the header's frequency and overhead.
#[test]
fn cycles_clock_changes_only_ticks() {
    use stg_run::internal::machine::{self, Clock, Engine};
    use stg_run::internal::profile::Profile;
    let zero_ticks = |mut p: Profile| {
        for e in &mut p.entries {
            e.counters.ticks = 0;
        }
        p
    };
    for files in all_programs().into_iter().take(6) {
        let path = &files[0].0;
        let l = load_files(&files, true, AutoCc::All).unwrap();
        for stacks in [false, true] {
            let run = |clock: Clock, reproducible: bool| {
                let o = RunOptions {
                    engine: Engine::Fast,
                    clock,
                    reproducible,
                    ..mode_options(stacks, false)
                };
                let mut out = Vec::new();
                let r = machine::run(&l.program, &l.sources, &o, &mut out, &mut Vec::new());
                (out, r.profile)
            };
            let (o1, steps) = run(Clock::Steps, true);
            let (o2, cycles) = run(Clock::Cycles, false);
            assert_eq!(o1, o2, "{path}");
            assert!(cycles.frequency > 0, "{path}: no counter frequency");
            assert!(cycles.overhead > 0, "{path}: no overhead estimate");
            let total: u64 = cycles.entries.iter().map(|e| e.counters.ticks).sum();
            assert!(total > 0, "{path}: no cycles charged");
            let mut c = zero_ticks(cycles);
            c.frequency = 0;
            c.overhead = 0;
            assert_eq!(zero_ticks(steps), c, "{path}");
            let (_, rep) = run(Clock::Cycles, true);
            assert_eq!((rep.frequency, rep.overhead), (0, 0), "{path}");
        }
    }
}

/// Chains of `let`s, each the body of the one before, which the op loop
/// builds with one op of up to five steps (`Compiled::merge_lets`): a
/// chain of seven (two ops and the rule loop's), closures capturing the
/// `let`s before them, a `letrec` in the chain, an `scc` between two
/// chains, in a recursion that allocates enough to collect. Cut at every
/// step, with censuses, under GC stress, and with heaps so small that a
/// chain's block does not fit where one `let`'s does.
#[test]
fn chains_of_lets_agree() {
    let text = r#"
one = {} \r {} -> I# {1#}
go = {} \r {n, acc} ->
  case n of
    I# {n#} -> case n# of
      0# -> acc {}
      default ->
        let a = {n} \u {} -> minusInt {n, one}
            b = {n, acc} \u {} -> plusInt {n, acc}
        in let c = {a, b} \u {} -> plusInt {a, b}
           in letrec d = {c, e} \u {} -> case e of
                                            Cons {x, t} -> plusInt {c, x}
                     e = {c, d} \r {} -> Cons {c, d}
              in let f = {d} \u {} -> plusInt {d, one}
                 in let g = {f, a} \u {} -> minusInt {f, a}
                    in let h = {g} \r {} -> Cons {g, g}
                       in let i = {h, g} \u {} -> case h of
                                                    Cons {y, z} -> plusInt {y, g}
                          in scc "next" let j = {a} \u {} -> minusInt {a, one}
                                        in let k = {j, i} \u {} -> go {j, i}
                                           in k {}
n = {} \r {} -> I# {40#}
zero = {} \r {} -> I# {0#}
main = {} \u {} -> go {n, zero}
"#;
    for (stacks, auto) in [(false, AutoCc::None), (true, AutoCc::All)] {
        let l = load_text("lets.stg", text, true, auto).unwrap();
        let base = mode_options(stacks, false);
        let full = compare(&l, &base).unwrap_or_else(|e| panic!("stacks={stacks}: {e}"));
        assert_eq!(full.error, None);
        for cut in 1..full.steps {
            let o = RunOptions {
                max_steps: Some(cut),
                ..base.clone()
            };
            compare(&l, &o).unwrap_or_else(|e| panic!("stacks={stacks} cut {cut}: {e}"));
        }
        let mut opts = vec![mode_options(stacks, true)];
        for interval in [1, 2, 3] {
            opts.push(RunOptions {
                heap_profile: Some(HeapProfileBy::Descr),
                heap_interval: interval,
                ..base.clone()
            });
        }
        // Every 64 bytes: some limit stops the run at each `let` of the
        // chain, with the rule loop's (whose error names where the machine
        // is: after a chain's op, its last `let`).
        for bytes in (4096..24576).step_by(64) {
            opts.push(RunOptions {
                max_heap: Some(bytes),
                ..base.clone()
            });
        }
        for o in opts {
            compare(&l, &o).unwrap_or_else(|e| panic!("stacks={stacks}: {e}"));
        }
    }
}

/// Shapes the op loop leaves to the rule loop, mixed with ones it runs: a
/// function of ten arguments and a constructor of twelve fields (more than
/// an op carries), a CAF whose value is a partial application, applied
/// over-saturated by `map`, a `\s` thunk, a `letrec`. Cut at every few
/// steps, with censuses, in both modes.
#[test]
fn wide_calls_and_constructors_agree() {
    let text = r#"
f10 = {} \r {a, b, c, d, e, f, g, h, i, j} ->
  case plusInt {a, j} of
    r -> case r of
           I# {r#} -> T {a, b, c, d, e, f, g, h, i, j, r, a}
one = {} \r {} -> I# {1#}
two = {} \r {} -> I# {2#}
add3 = {} \r {x, y, z} -> let s = {x, y} \u {} -> plusInt {x, y} in plusInt {s, z}
pap = {} \u {} -> add3 {one, two}
main = {} \u {} ->
  let t = {} \u {} -> f10 {one, two, one, two, one, two, one, two, one, two} in
  case t of
    T {a, b, c, d, e, f, g, h, i, j, r, k} ->
      let p = \u {} -> pap {r} in
      let q = {p, k} \s {} -> plusInt {p, k} in
      case q of
        I# {n} -> let nb = \r {} -> I# {n} in
                  letrec l = \u {} -> Cons {nb, m}
                         m = \u {} -> take {nb, l} in
                  let w = \u {} -> map {pap, m} in
                  sum {w}
"#;
    for (stacks, auto) in [(false, AutoCc::None), (true, AutoCc::All)] {
        let l = load_text("wide.stg", text, true, auto).unwrap();
        let base = mode_options(stacks, false);
        let full = compare(&l, &base).unwrap_or_else(|e| panic!("stacks={stacks}: {e}"));
        assert_eq!(full.error, None);
        for cut in (1..full.steps).step_by(3) {
            let o = RunOptions {
                max_steps: Some(cut),
                ..base.clone()
            };
            compare(&l, &o).unwrap_or_else(|e| panic!("stacks={stacks} cut {cut}: {e}"));
        }
        for o in [
            mode_options(stacks, true),
            RunOptions {
                heap_profile: Some(HeapProfileBy::Descr),
                heap_interval: 4,
                ..base.clone()
            },
        ] {
            compare(&l, &o).unwrap_or_else(|e| panic!("stacks={stacks}: {e}"));
        }
    }
}
