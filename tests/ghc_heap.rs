//! stg-run's heap profiles against GHC's, on the heap twins of
//! `tests/ghc/heap/` (each a directory: `Main.stg`, its Haskell twin
//! `Main.hs`, and GHC's `.hp` files, made by `tests/ghc/heap/regenerate.sh`
//! as its `ghc-rts` says).
//!
//! - By cost-centre stack (`Main.hc*.hp`, `+RTS -hc [-L n]`): the bands
//!   that matter (a peak of at least 1% of the file's largest total; GHC's
//!   runtime and library bands are far below) have the same names, the
//!   `(n)` of each left out (GHC's stack numbers are its own), cut at the
//!   same length.

mod corpus;
mod machine_common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use machine_common::{run_text, stacks};
use stg_run::internal::machine::RunOptions;
use stg_run::internal::machine::heap_profile::{HeapProfileBy, HeapProfileOptions};
use stg_run::internal::profile::view::heap_chart::{HeapFile, read_hp};
use stg_run::internal::stg::auto_cc::AutoCc;

/// The heap twins, sorted.
fn twins() -> Vec<PathBuf> {
    let dirs = corpus::module_dirs(corpus::repo("tests/ghc/heap"));
    assert!(!dirs.is_empty(), "no heap twins in tests/ghc/heap");
    dirs
}

/// GHC's profiles of a twin: (name, RTS flags), from its `ghc-rts`.
fn ghc_profiles(dir: &Path) -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(dir.join("ghc-rts")).unwrap();
    text.lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let name = words.next()?.to_string();
            Some((name, words.map(str::to_string).collect()))
        })
        .collect()
}

/// Each band's largest value over the samples.
fn peaks(hp: &HeapFile) -> Vec<(String, f64)> {
    let mut peak = vec![0.0f64; hp.bands.len()];
    for v in &hp.values {
        peak[v.band as usize] = peak[v.band as usize].max(v.value);
    }
    hp.bands.iter().cloned().zip(peak).collect()
}

/// The largest total of a sample.
fn largest_total(hp: &HeapFile) -> f64 {
    let mut totals = vec![0.0; hp.times.len()];
    for v in &hp.values {
        totals[v.sample as usize] += v.value;
    }
    totals.into_iter().fold(0.0, f64::max)
}

/// The names of the bands whose peak is at least 1% of the largest total,
/// a stack's `(n)` left out.
fn bands_that_matter(hp: &HeapFile) -> BTreeSet<String> {
    let floor = largest_total(hp) / 100.0;
    peaks(hp)
        .into_iter()
        .filter(|(_, p)| *p >= floor)
        .map(|(name, _)| match name.strip_prefix('(') {
            Some(rest) => rest[rest.find(')').map_or(0, |i| i + 1)..].to_string(),
            None => name,
        })
        .collect()
}

/// stg-run's heap profile of the twin in `dir`.
fn stg_run_profile(dir: &Path, options: RunOptions) -> HeapFile {
    let text = std::fs::read_to_string(dir.join("Main.stg")).unwrap();
    let ran = run_text("Main.stg", &text, true, AutoCc::All, &options);
    let want = std::fs::read_to_string(dir.join("Main.stdout")).unwrap();
    assert_eq!(ran.out, want, "{}", dir.display());
    let summary = ran.result.heap_profile.expect("asked for");
    read_hp(&summary.hp_text.expect("kept in memory")).unwrap()
}

#[test]
fn stacks_mode_band_names_are_ghcs() {
    let mut compared = 0;
    for dir in twins() {
        for (name, flags) in ghc_profiles(&dir) {
            if !flags.iter().any(|f| f == "-hc") {
                continue;
            }
            let label_length = flags
                .iter()
                .find_map(|f| f.strip_prefix("-L")?.parse().ok())
                .unwrap_or(25);
            let ghc_text = std::fs::read_to_string(dir.join(format!("Main.{name}.hp"))).unwrap();
            let ghc = bands_that_matter(&read_hp(&ghc_text).unwrap());
            let ours = bands_that_matter(&stg_run_profile(
                &dir,
                RunOptions {
                    heap_profile: Some(HeapProfileBy::CostCentre),
                    heap_interval: 200_000,
                    heap_profile_options: HeapProfileOptions {
                        label_length,
                        ..HeapProfileOptions::default()
                    },
                    ..stacks()
                },
            ));
            assert_eq!(ours, ghc, "{} {name}", dir.display());
            compared += 1;
        }
    }
    assert!(compared >= 2, "only {compared} profiles by stack compared");
}
