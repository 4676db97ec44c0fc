//! A differential fuzzer against GHC's profiler (tests/ghc/README.md, "A
//! differential fuzzer"). `gen` makes, from a seed, one abstract program
//! printed as a Haskell twin and as its STG translation; here:
//!
//! - `generated_programs_run_on_both_engines` (no GHC): the STG of a few
//!   dozen seeds loads, terminates within the step limit (most of them) and
//!   gives the same output and profile on both engines, in the three
//!   auto-cc modes: this keeps the generator honest in CI.
//! - `fuzz_against_ghc` (ignored: needs `ghc` with profiling libraries):
//!   for the seeds of `GHC_FUZZ_SEEDS` (`0..200`, `7`, `3,9,12`), compiles
//!   each Haskell program with `-prof -fprof-auto`, `-fprof-auto-top` and
//!   `-fno-prof-auto`, runs it with `+RTS -pa` under three heap layouts
//!   ([`LAYOUTS`]), and compares its output and cost-centre tree with
//!   stg-run's in stacks mode (`--auto-cc=all`, `top`, `none`) on both
//!   engines. Every seed that differs is written to
//!   a kept directory (printed) with the diff.
//!
//!     GHC_FUZZ_SEEDS=0..200 cargo test --release --test ghc_fuzz -- --ignored --nocapture

mod engines_common;
#[path = "ghc_fuzz/gen.rs"]
mod generator;
mod ghc_common;
mod machine_common;

use engines_common::{compare, load_files, mode_options};
use ghc_common::{ghc_tree, prof_to_tree, stg_tree, tree_diff};
use std::path::{Path, PathBuf};
use std::process::Command;
use stg_run::internal::machine::RunOptions;
use stg_run::internal::profile::{Profile, format};
use stg_run::internal::stg::auto_cc::AutoCc;

/// A generated program that runs longer than this is skipped (a function
/// passed as a value may be called with a large fuel).
const MAX_STEPS: u64 = 2_000_000;

const MODES: [(AutoCc, &str, &str); 3] = [
    (AutoCc::All, "-fprof-auto", "all"),
    (AutoCc::Top, "-fprof-auto-top", "top"),
    (AutoCc::None, "-fno-prof-auto", "none"),
];

enum Run {
    /// Output and the profile (the same on both engines).
    Ok(String, Box<Profile>),
    /// Passed the step limit.
    TooLong,
}

/// Run the generated STG (`(file name, text)` per module, in load order)
/// on both engines in stacks mode: `Err` on a load error, a runtime error
/// other than the step limit, or engines that disagree in anything
/// observable (`engines_common::compare`).
fn run_stg(files: &[(String, String)], auto: AutoCc) -> Result<Run, String> {
    let loaded = load_files(files, true, auto).map_err(|e| format!("does not load: {e}"))?;
    let options = RunOptions {
        max_steps: Some(MAX_STEPS),
        ..mode_options(true, false)
    };
    let r =
        compare(&loaded, &options).map_err(|e| format!("the engines disagree ({auto:?}): {e}"))?;
    if let Some(e) = r.error {
        if r.steps >= MAX_STEPS {
            return Ok(Run::TooLong);
        }
        return Err(format!("runtime error ({auto:?}): {e}"));
    }
    let profile =
        format::read(&r.profile).map_err(|e| format!("the profile does not read back: {e}"))?;
    let out = String::from_utf8(r.out).map_err(|e| format!("the output is not UTF-8: {e}"))?;
    Ok(Run::Ok(out, Box::new(profile)))
}

#[test]
fn generated_programs_run_on_both_engines() {
    let mut too_long = 0;
    let seeds = 0..40u64;
    let n = seeds.end;
    for seed in seeds {
        let p = generator::Gen::program(seed);
        let files = generator::stg(&p);
        for (auto, _, _) in MODES {
            match run_stg(&files, auto) {
                Ok(Run::Ok(out, _)) => assert!(out.starts_with('['), "seed {seed}: {out}"),
                Ok(Run::TooLong) => {
                    too_long += 1;
                    break;
                }
                Err(e) => panic!("seed {seed}: {e}\n{files:?}"),
            }
        }
        // The Haskell side is only printed here; ghc checks it.
        let hs = generator::haskell(&p);
        assert_eq!(hs.len(), files.len(), "seed {seed}");
        assert!(hs.last().unwrap().1.contains("main ="));
    }
    assert!(
        too_long * 5 <= n,
        "{too_long} of {n} seeds passed the step limit"
    );
}

/// regenerate.sh's awk and [`prof_to_tree`] agree on the twins' profiles.
#[test]
fn prof_to_tree_reads_profiles_as_regenerate_sh() {
    let mut checked = 0;
    for e in std::fs::read_dir("tests/ghc").unwrap() {
        let p = e.unwrap().path();
        let name = p.to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".prof") {
            let tree = std::fs::read_to_string(format!("{stem}.tree")).unwrap();
            let prof = std::fs::read_to_string(&p).unwrap();
            assert_eq!(prof_to_tree(&prof, &["Main"]), tree, "{name}");
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} profiles");
}

fn seeds_from_env() -> Vec<u64> {
    let spec = std::env::var("GHC_FUZZ_SEEDS").unwrap_or_else(|_| "0..50".into());
    let mut seeds = Vec::new();
    for part in spec.split(',') {
        let part = part.trim();
        if let Some((a, b)) = part.split_once("..") {
            seeds.extend(a.parse::<u64>().unwrap()..b.parse::<u64>().unwrap());
        } else if !part.is_empty() {
            seeds.push(part.parse().unwrap());
        }
    }
    seeds
}

/// The heap layouts each compiled twin runs under (`+RTS` options beside
/// `-pa`): the default, a nursery of four blocks, and a 1 MB first stack
/// (which moves where the nursery's blocks end). GHC's tree can depend on
/// where a block ends: a heap check that fails at a block boundary
/// re-enters a thunk through the RTS's generic entry, and when that thunk
/// is a CAF whose value is a partial application, the application of the
/// pending arguments goes through a copy of the partial application made
/// under the appended stack (tests/ghc/README.md, "A differential fuzzer",
/// seed 386). A seed whose GHC trees differ between layouts agrees if
/// stg-run's tree is one of them.
const LAYOUTS: [&[&str]; 3] = [&[], &["-A16k"], &["-ki1m"]];

/// Compile the Haskell program of `dir` (`Main.hs` and the `modules` it
/// imports) in one mode and run it under each of [`LAYOUTS`]: its output
/// and its trees (regenerate.sh's `.tree` text, the top-level nodes of
/// `modules` kept), one per layout.
fn run_ghc(
    dir: &Path,
    modules: &[&str],
    flag: &str,
    tag: &str,
) -> Result<(String, Vec<String>), String> {
    let work = dir.join(format!("ghc-{tag}"));
    std::fs::create_dir_all(&work).unwrap();
    let exe = work.join("Main");
    let c = Command::new("ghc")
        .args(["-prof", flag, "-rtsopts", "-fforce-recomp", "-outputdir"])
        .arg(work.join("o"))
        .arg("-o")
        .arg(&exe)
        .arg(format!("-i{}", dir.display()))
        .arg(dir.join("Main.hs"))
        .output()
        .map_err(|e| format!("cannot run ghc: {e}"))?;
    if !c.status.success() {
        return Err(format!(
            "ghc {flag} failed:\n{}{}",
            String::from_utf8_lossy(&c.stdout),
            String::from_utf8_lossy(&c.stderr)
        ));
    }
    let mut output: Option<String> = None;
    let mut trees = Vec::new();
    for layout in LAYOUTS {
        let r = Command::new(&exe)
            .args(["+RTS", "-pa"])
            .args(layout)
            .arg("-RTS")
            .current_dir(&work)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
        if !r.status.success() {
            return Err(format!(
                "the Haskell program ({flag} {layout:?}) failed: {}",
                String::from_utf8_lossy(&r.stderr)
            ));
        }
        let out = String::from_utf8(r.stdout).unwrap();
        match &output {
            Some(first) if *first != out => {
                return Err(format!(
                    "the Haskell program ({flag}) prints {first:?} by default, {out:?} with {layout:?}"
                ));
            }
            _ => output = Some(out),
        }
        let prof = std::fs::read_to_string(work.join("Main.prof")).map_err(|e| e.to_string())?;
        trees.push(prof_to_tree(&prof, modules));
    }
    Ok((output.unwrap_or_default(), trees))
}

/// How a seed or pair that agrees is reported.
fn agreement(layout_dependent: bool) -> &'static str {
    if layout_dependent {
        "agree with one of GHC's trees, which depend on its heap layout"
    } else {
        "agree"
    }
}

enum Verdict {
    /// `layout_dependent`: GHC's own trees differed between [`LAYOUTS`]
    /// and stg-run's is one of them.
    Agree {
        layout_dependent: bool,
    },
    Skipped,
    Differ(String),
}

fn check_seed(seed: u64, root: &Path) -> Verdict {
    let p = generator::Gen::program(seed);
    let stg = generator::stg(&p);
    let dir = root.join(format!("seed{seed}"));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in generator::haskell(&p).iter().chain(&stg) {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let v = check_pair(&format!("seed {seed}"), &dir, &stg);
    if matches!(v, Verdict::Agree { .. }) {
        let _ = std::fs::remove_dir_all(&dir);
    }
    v
}

/// Compare the pair `dir/Main.hs` (with the modules it imports beside
/// it), `stg` (the texts of `dir`'s `.stg` files, `(file name, text)` in
/// load order, `Main.stg` last) in the three modes, writing GHC's trees
/// beside them (`Main.tree`, `Main.top.tree`, `Main.none.tree`;
/// `Main.top.2.tree` and so on for the other layouts when they differ).
/// With several modules, nodes are compared with their modules.
fn check_pair(what: &str, dir: &Path, stg: &[(String, String)]) -> Verdict {
    let modules: Vec<&str> = stg
        .iter()
        .map(|(name, _)| name.strip_suffix(".stg").unwrap_or(name))
        .collect();
    let mut report = String::new();
    let mut layout_dependent = false;
    for (auto, flag, tag) in MODES {
        let (out, r) = match run_stg(stg, auto) {
            Ok(Run::Ok(out, r)) => (out, r),
            Ok(Run::TooLong) => {
                let _ = std::fs::remove_dir_all(dir);
                return Verdict::Skipped;
            }
            Err(e) => {
                report.push_str(&format!("stg-run: {e}\n"));
                break;
            }
        };
        let (ghc_out, ghc_texts) = match run_ghc(dir, &modules, flag, tag) {
            Ok(x) => x,
            Err(e) => {
                report.push_str(&format!("{e}\n"));
                break;
            }
        };
        if ghc_out != out {
            report.push_str(&format!(
                "outputs differ ({flag}): GHC {ghc_out:?}, stg-run {out:?}\n"
            ));
        }
        let keep = modules.len() > 1;
        let ours = stg_tree(&r, keep);
        let trees: Vec<_> = ghc_texts.iter().map(|t| ghc_tree(t, keep)).collect();
        let varies = trees.iter().any(|t| *t != trees[0]);
        layout_dependent |= varies;
        // The default layout's tree always; the others' when they differ.
        let shown = if varies { trees.len() } else { 1 };
        let stem = if tag == "all" {
            "Main"
        } else {
            &format!("Main.{tag}")
        };
        for (i, text) in ghc_texts.iter().enumerate().take(shown) {
            let name = match i {
                0 => format!("{stem}.tree"),
                i => format!("{stem}.{}.tree", i + 1),
            };
            std::fs::write(dir.join(name), text).unwrap();
        }
        if trees.contains(&ours) {
            continue;
        }
        for (layout, ghc) in LAYOUTS.iter().zip(&trees).take(shown) {
            let what = format!("{what} ({flag} {layout:?} / --auto-cc={tag})");
            if let Err(d) = tree_diff(&what, ghc, &ours) {
                report.push_str(&d);
            }
        }
    }
    if report.is_empty() {
        Verdict::Agree { layout_dependent }
    } else {
        std::fs::write(dir.join("diff.txt"), &report).unwrap();
        Verdict::Differ(report)
    }
}

#[test]
#[ignore = "needs ghc with profiling libraries; GHC_FUZZ_SEEDS=0..200"]
fn fuzz_against_ghc() {
    let seeds = seeds_from_env();
    let root: PathBuf = std::env::var("GHC_FUZZ_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| std::env::temp_dir().join(format!("ghc_fuzz.{}", std::process::id())));
    std::fs::create_dir_all(&root).unwrap();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some(&seed) = seeds.get(i) else { break };
                    let v = check_seed(seed, &root);
                    match &v {
                        Verdict::Agree { layout_dependent } => {
                            eprintln!("seed {seed}: {}", agreement(*layout_dependent))
                        }
                        Verdict::Skipped => eprintln!("seed {seed}: skipped (step limit)"),
                        Verdict::Differ(d) => eprintln!("seed {seed}: DIFFER\n{d}"),
                    }
                    results.lock().unwrap().push((seed, v));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);
    let differ: Vec<u64> = results
        .iter()
        .filter(|r| matches!(r.1, Verdict::Differ(_)))
        .map(|r| r.0)
        .collect();
    let skipped = results
        .iter()
        .filter(|r| matches!(r.1, Verdict::Skipped))
        .count();
    let layout_dependent: Vec<u64> = results
        .iter()
        .filter(|r| {
            matches!(
                r.1,
                Verdict::Agree {
                    layout_dependent: true
                }
            )
        })
        .map(|r| r.0)
        .collect();
    eprintln!(
        "{} seeds: {} agree ({} where GHC's tree depends on its heap layout {:?}), {} skipped, {} differ {:?}; pairs kept in {}",
        results.len(),
        results.len() - skipped - differ.len(),
        layout_dependent.len(),
        layout_dependent,
        skipped,
        differ.len(),
        differ,
        root.display()
    );
    assert!(
        differ.is_empty(),
        "seeds that differ: {differ:?} (in {})",
        root.display()
    );
}

/// One hand-written pair (a reduced disagreement, say): the directory
/// `GHC_FUZZ_PAIR` holding `Main.hs` and `Main.stg` (and `Lib.hs` and
/// `Lib.stg` for a program of two modules), compared as the fuzzer
/// compares a seed, GHC's trees left beside them.
///
///     GHC_FUZZ_PAIR=/tmp/pair cargo test --release --test ghc_fuzz -- --ignored --nocapture pair
#[test]
#[ignore = "needs ghc and GHC_FUZZ_PAIR"]
fn compare_pair_with_ghc() {
    let Ok(dir) = std::env::var("GHC_FUZZ_PAIR") else {
        eprintln!("GHC_FUZZ_PAIR is not set");
        return;
    };
    let dir = PathBuf::from(dir);
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).map(|t| (f.to_string(), t));
    // `Lib.stg`, when there is one, before `Main.stg`, as the generator
    // writes them.
    let mut stg: Vec<(String, String)> = read("Lib.stg").into_iter().collect();
    stg.push(read("Main.stg").expect("GHC_FUZZ_PAIR has no Main.stg"));
    match check_pair(&dir.display().to_string(), &dir, &stg) {
        Verdict::Agree { layout_dependent } => eprintln!("{}", agreement(layout_dependent)),
        Verdict::Skipped => eprintln!("passed the step limit"),
        Verdict::Differ(d) => panic!("{d}"),
    }
}
