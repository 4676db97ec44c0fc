//! stg-run's heap profiles against GHC's, on the heap twins of
//! `tests/ghc/heap/` (each a directory: `Main.stg`, its Haskell twin
//! `Main.hs`, and GHC's `.hp` files, made by `tests/ghc/heap/regenerate.sh`
//! as its `ghc-rts` says).
//!
//! - By cost-centre stack (`Main.hc*.hp`, `+RTS -hc [-L n]`), for a twin
//!   with no `names.hc`: the bands that matter (a peak of at least 1% of
//!   the file's largest total; GHC's runtime and library bands are far
//!   below) have the same names, the `(n)` of each left out (GHC's stack
//!   numbers are its own), cut at the same length.
//! - By cost-centre stack and by retainer set (`+RTS -hc`, `-hr`), on the
//!   leaks of docs/SPACE.md: the same bands (GHC's names mapped by the
//!   twin's `names.hc` and `names.hr`, the `(n)` left out), each band's
//!   peak within a factor of 2 of GHC's in bytes.
//! - By description (`Main.hd.hp`, `+RTS -hd`) and by biography
//!   (`Main.hb.hp`, `+RTS -hb`), on the leaks of docs/SPACE.md: the same
//!   bands (descriptions mapped by the twin's `names`), peaks within a
//!   factor of 2 in bytes, the same phase dominating, but for the
//!   differences the twin's `names` and `phases` mark documented
//!   (tests/ghc/README.md, "Heap profiles").

mod corpus;
mod machine_common;

use std::collections::{BTreeMap, BTreeSet};
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

/// A band's name without the `(n)` GHC and stg-run put before a stack or
/// a retainer set.
fn without_number(name: &str) -> &str {
    match name.strip_prefix('(').and_then(|rest| rest.split_once(')')) {
        Some((n, rest)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => rest,
        _ => name,
    }
}

/// Each band's largest value over the samples, the bands of one name
/// without their `(n)` added together sample by sample (GHC's `-hr` has
/// two sets printed `mean.go` where two stacks have `mean.go` innermost).
fn peaks_by_name(hp: &HeapFile) -> BTreeMap<String, f64> {
    let mut per_sample: BTreeMap<(String, u32), f64> = BTreeMap::new();
    for v in &hp.values {
        let name = without_number(&hp.bands[v.band as usize]).to_string();
        *per_sample.entry((name, v.sample)).or_default() += v.value;
    }
    let mut peaks = BTreeMap::new();
    for ((name, _), value) in per_sample {
        let peak: &mut f64 = peaks.entry(name).or_default();
        *peak = peak.max(value);
    }
    peaks
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
        .map(|(name, _)| without_number(&name).to_string())
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
        // (A twin whose names differ is compared through its map, below.)
        if dir.join("names.hc").exists() {
            continue;
        }
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

/// A twin's file of lines `a<TAB>b[<TAB>c]`, `#` lines left out; none if
/// the twin has no such file.
fn table(dir: &Path, file: &str) -> Vec<Vec<String>> {
    let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
        return Vec::new();
    };
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// GHC's profile `name` of the twin in `dir`, read.
fn ghc_profile(dir: &Path, name: &str) -> HeapFile {
    let text = std::fs::read_to_string(dir.join(format!("Main.{name}.hp"))).unwrap();
    read_hp(&text).unwrap()
}

/// The bands whose peak is at least 5% of the file's largest total, with
/// their peaks, the `(n)` of each left out (bands of one name together).
fn large_bands(hp: &HeapFile) -> BTreeMap<String, f64> {
    let floor = largest_total(hp) / 20.0;
    peaks_by_name(hp)
        .into_iter()
        .filter(|(_, p)| *p >= floor)
        .collect()
}

/// Is `ours` within a factor of 2 of `ghc`?
fn within_2x(ours: f64, ghc: f64) -> bool {
    ours <= 2.0 * ghc && ghc <= 2.0 * ours
}

/// Compares the large bands of GHC's profiles made with `flag` (5% of
/// the largest total, on either side) with stg-run's under `options`,
/// GHC's names mapped by the twin's file `map`: the same bands once
/// mapped, each band's peak within a factor of 2 of GHC's in bytes, but
/// where `map` marks the difference documented (tests/ghc/README.md,
/// "Heap profiles"). Returns how many profiles were compared.
fn compare_mapped(flag: &str, map: &str, options: &RunOptions) -> usize {
    let mut compared = 0;
    for dir in twins() {
        for (name, flags) in ghc_profiles(&dir) {
            if !flags.iter().any(|f| f == flag) || !dir.join(map).exists() {
                continue;
            }
            let names = table(&dir, map);
            let ghc = large_bands(&ghc_profile(&dir, &name));
            let ours = large_bands(&stg_run_profile(&dir, options.clone()));
            let what = format!("{} {name}", dir.display());
            let mut mapped = BTreeSet::new();
            for (band, peak) in &ghc {
                let row = names.iter().find(|r| &r[0] == band);
                let row = row.unwrap_or_else(|| panic!("{what}: {band} not in {map}: {ours:?}"));
                let ours_band = &row[1];
                let ours_peak = *ours
                    .get(ours_band)
                    .unwrap_or_else(|| panic!("{what}: no large {ours_band}: {ours:?}"));
                let documented = row.get(2).is_some_and(|c| c == "documented");
                assert!(
                    documented || within_2x(ours_peak, *peak),
                    "{what}: {band} peaks at {peak} bytes, {ours_band} at {ours_peak}"
                );
                mapped.insert(ours_band.clone());
            }
            let unmapped: Vec<_> = ours.keys().filter(|b| !mapped.contains(*b)).collect();
            assert!(unmapped.is_empty(), "{what}: not in GHC's: {unmapped:?}");
            compared += 1;
        }
    }
    compared
}

/// Each twin with GHC's `-hd` profile: the bands that matter on either
/// side (5% of the largest total) are the same once GHC's names are
/// mapped by the twin's `names` file (GHC names a thunk after its code,
/// `<GHC.List.sat_s4op>`, stg-run after its binding), and each band's
/// peak is within a factor of 2 of GHC's in bytes, but where `names` marks
/// the difference documented (tests/ghc/README.md, "Heap profiles").
#[test]
fn descriptions_and_their_peaks_are_ghcs() {
    let options = RunOptions {
        heap_profile: Some(HeapProfileBy::Descr),
        heap_interval: 20_000,
        ..RunOptions::default()
    };
    let compared = compare_mapped("-hd", "names", &options);
    assert!(
        compared >= 3,
        "only {compared} profiles by description compared"
    );
}

/// Each leaking twin with GHC's `-hc` profile and a `names.hc`: stg-run's
/// stacks-mode profile by cost centre has the same bands that matter,
/// mapped, with peaks within a factor of 2 of GHC's.
#[test]
fn cost_centre_stacks_and_their_peaks_are_ghcs() {
    let options = RunOptions {
        heap_profile: Some(HeapProfileBy::CostCentre),
        heap_interval: 20_000,
        ..stacks()
    };
    let compared = compare_mapped("-hc", "names.hc", &options);
    assert!(compared >= 3, "only {compared} profiles by stack compared");
}

/// Each leaking twin with GHC's `-hr` profile: stg-run's stacks-mode
/// retainer profile has the same retainer sets that matter (GHC's labels
/// mapped by `names.hr`, the sets' numbers left out), with peaks within a
/// factor of 2 of GHC's.
#[test]
fn retainer_sets_and_their_peaks_are_ghcs() {
    let options = RunOptions {
        heap_profile: Some(HeapProfileBy::Retainer),
        heap_interval: 20_000,
        ..stacks()
    };
    let compared = compare_mapped("-hr", "names.hr", &options);
    assert!(compared >= 3, "only {compared} retainer profiles compared");
}

/// Each twin with GHC's `-hb` profile: each phase that matters on one
/// side (5% of the largest total) matters on the other, with a peak within
/// a factor of 2 of GHC's in bytes, and the same phase dominates (has the
/// largest peak), but where the twin's `phases` file marks a difference
/// documented (tests/ghc/README.md, "Heap profiles"). GHC's
/// `INHERENT_USE` (its run-time system's objects) has no counterpart.
#[test]
fn biographies_are_ghcs() {
    use stg_run::internal::machine::heap_profile::BIOGRAPHY_BANDS;
    let mut compared = 0;
    for dir in twins() {
        for (name, flags) in ghc_profiles(&dir) {
            if !flags.iter().any(|f| f == "-hb") {
                continue;
            }
            let phases = table(&dir, "phases");
            let documented = |phase: &str| phases.iter().any(|r| r[0] == phase);
            let ghc_hp = ghc_profile(&dir, &name);
            let ours_hp = stg_run_profile(
                &dir,
                RunOptions {
                    heap_profile: Some(HeapProfileBy::Biography),
                    heap_interval: 20_000,
                    ..RunOptions::default()
                },
            );
            let (ghc, ours) = (large_bands(&ghc_hp), large_bands(&ours_hp));
            let what = format!("{} {name}", dir.display());
            for phase in BIOGRAPHY_BANDS {
                if documented(phase) {
                    continue;
                }
                match (ghc.get(phase), ours.get(phase)) {
                    (None, None) => {}
                    (Some(g), Some(o)) => assert!(
                        within_2x(*o, *g),
                        "{what}: {phase} peaks at {g} bytes in GHC's, {o} in ours"
                    ),
                    (g, o) => panic!("{what}: {phase}: GHC's peak {g:?}, ours {o:?}"),
                }
            }
            let dominant = |hp: &HeapFile| {
                let peaks = peaks(hp);
                BIOGRAPHY_BANDS
                    .iter()
                    .max_by(|a, b| {
                        let p =
                            |n: &&str| peaks.iter().find(|(b, _)| b == *n).map_or(0.0, |(_, p)| *p);
                        p(a).total_cmp(&p(b))
                    })
                    .map(|s| s.to_string())
                    .unwrap()
            };
            let expected = match phases.iter().find(|r| r[0] == "dominant") {
                Some(r) => (r[1].clone(), r[2].clone()),
                None => (dominant(&ghc_hp), dominant(&ghc_hp)),
            };
            assert_eq!(
                (dominant(&ghc_hp), dominant(&ours_hp)),
                expected,
                "{what}: the dominant phases (GHC's, ours)"
            );
            compared += 1;
        }
    }
    assert!(compared >= 3, "only {compared} biographies compared");
}
