//! Heap-profile restrictions (`--heap-profile-cc`, `--heap-profile-descr`,
//! GHC's `-hc<name>` and `-hd<descr>`), in every mode (retainer sets
//! included): a restricted profile counts
//! exactly the closures the unrestricted one puts in the bands it names,
//! census by census, on both engines alike; a name that matches nothing
//! is warned about.

mod cli_common;
mod engines_common;
mod heap_common;

use cli_common::{scratch, text};
use engines_common::{compare, load_text};
use heap_common::{Census, censuses};
use stg_run::internal::machine::heap_profile::{HeapProfileBy, HeapProfileOptions};
use stg_run::internal::machine::{CostCentreMode, RunOptions};
use stg_run::internal::stg::auto_cc::AutoCc;

/// `programs/NAME.stg`'s heap profile by `by`, restricted by `only_cc` and
/// `only_descr`, the same from both engines (checked).
fn profile(
    name: &str,
    mode: CostCentreMode,
    by: HeapProfileBy,
    only_cc: &[&str],
    only_descr: &[&str],
) -> Vec<Census> {
    let path = format!("{}/programs/{name}.stg", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap();
    let l = load_text(&path, &source, true, AutoCc::All).unwrap();
    let options = RunOptions {
        cost_centres: mode,
        heap_profile: Some(by),
        heap_interval: 500,
        heap_profile_options: HeapProfileOptions {
            only_cc: only_cc.iter().map(|s| s.to_string()).collect(),
            only_descr: only_descr.iter().map(|s| s.to_string()).collect(),
            ..HeapProfileOptions::default()
        },
        ..RunOptions::default()
    };
    let outcome = compare(&l, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
    censuses(&outcome.heap_profile.unwrap())
}

/// `censuses` with only the bands `keep` keeps.
fn filtered(censuses: &[Census], keep: impl Fn(&str) -> bool) -> Vec<Census> {
    censuses
        .iter()
        .map(|(step, bands)| {
            let kept = bands.iter().filter(|(b, _)| keep(b));
            (step.clone(), kept.map(|(b, v)| (b.clone(), *v)).collect())
        })
        .collect()
}

/// The bytes of each census.
fn totals(censuses: &[Census]) -> Vec<u64> {
    censuses.iter().map(|(_, b)| b.values().sum()).collect()
}

#[test]
fn a_cost_centre_restriction_keeps_its_band_of_every_census() {
    use CostCentreMode::Flat;
    let all = profile("foldl_leak", Flat, HeapProfileBy::CostCentre, &[], &[]);
    let band = "foldl_leak.main.xs";
    assert!(all.iter().any(|(_, b)| b.contains_key(band)), "{all:?}");
    let expected = filtered(&all, |b| b == band);
    // By label or by qualified name, alike.
    for name in ["main.xs", band] {
        let only = profile("foldl_leak", Flat, HeapProfileBy::CostCentre, &[name], &[]);
        assert_eq!(only, expected, "{name}");
    }
}

#[test]
fn a_description_restriction_keeps_its_bands_of_every_census() {
    use CostCentreMode::Flat;
    let all = profile("foldl_leak", Flat, HeapProfileBy::Descr, &[], &[]);
    let wanted = ["Prelude.foldl.acc", "I#"];
    let only = profile("foldl_leak", Flat, HeapProfileBy::Descr, &[], &wanted);
    let expected = filtered(&all, |b| wanted.contains(&b));
    assert!(
        totals(&expected).iter().any(|&t| t > 10_000),
        "{expected:?}"
    );
    assert_eq!(only, expected);
}

/// A profile by description restricted to a cost centre counts, census by
/// census, the bytes of that cost centre's band in the profile by cost
/// centre; both restrictions together count what both name.
#[test]
fn restrictions_cross_the_grouping() {
    use CostCentreMode::Flat;
    let by_cc = profile("foldl_leak", Flat, HeapProfileBy::CostCentre, &[], &[]);
    let of_main = filtered(&by_cc, |b| b == "foldl_leak.main");
    let descr_of_main = profile("foldl_leak", Flat, HeapProfileBy::Descr, &["main"], &[]);
    assert_eq!(totals(&descr_of_main), totals(&of_main));
    assert!(descr_of_main.iter().any(|(_, b)| b.len() > 1));
    for wanted in ["Prelude.foldl.acc", "BLACKHOLE"] {
        let both = profile(
            "foldl_leak",
            Flat,
            HeapProfileBy::Descr,
            &["main"],
            &[wanted],
        );
        assert_eq!(both, filtered(&descr_of_main, |b| b == wanted), "{wanted}");
    }
}

/// In stacks mode a closure is kept when its stack's innermost cost centre
/// is named, as GHC's `-hc` restriction does: the bands kept are those
/// whose name starts with it.
#[test]
fn in_stacks_mode_the_innermost_cost_centre_is_matched() {
    use CostCentreMode::Stacks;
    let all = profile("queens", Stacks, HeapProfileBy::CostCentre, &[], &[]);
    let innermost = |band: &str| {
        let rest = band.split_once(')').map_or(band, |(_, r)| r);
        rest.split('/').next().unwrap_or(rest).to_string()
    };
    let mut seen: Vec<String> = all
        .iter()
        .flat_map(|(_, b)| b.keys().map(|k| innermost(k)))
        .collect();
    seen.sort();
    seen.dedup();
    let name = seen
        .iter()
        .find(|n| n.as_str() != "MAIN" && !n.ends_with("CAF"))
        .expect("a band under a cost centre of the program")
        .clone();
    // Bands are numbered in the order they first appear, so the numbers
    // of a restricted profile are its own.
    let unnumbered = |censuses: Vec<Census>| -> Vec<Census> {
        let strip = |b: &str| b.split_once(')').map_or(b, |(_, r)| r).to_string();
        censuses
            .into_iter()
            .map(|(step, bands)| {
                (
                    step,
                    bands.into_iter().map(|(b, v)| (strip(&b), v)).collect(),
                )
            })
            .collect()
    };
    let only = profile("queens", Stacks, HeapProfileBy::CostCentre, &[&name], &[]);
    assert!(totals(&only).iter().any(|&t| t > 0), "{name}");
    assert_eq!(
        unnumbered(only),
        unnumbered(filtered(&all, |b| innermost(b) == name)),
        "{name}"
    );
}

/// A retainer profile restricted to a description counts, census by
/// census, the bytes of that description's band, each in the retainer
/// set the unrestricted profile puts it in: the traversal still runs over
/// the whole heap, only the counting is restricted.
#[test]
fn a_retainer_profile_is_restricted_like_the_others() {
    use CostCentreMode::Stacks;
    let wanted = "Prelude.foldl.acc";
    let by_descr = profile("foldl_leak", Stacks, HeapProfileBy::Descr, &[], &[]);
    let all = profile("foldl_leak", Stacks, HeapProfileBy::Retainer, &[], &[]);
    let only = profile(
        "foldl_leak",
        Stacks,
        HeapProfileBy::Retainer,
        &[],
        &[wanted],
    );
    let expected = totals(&filtered(&by_descr, |b| b == wanted));
    assert!(expected.iter().any(|&t| t > 10_000), "{by_descr:?}");
    assert_eq!(totals(&only), expected);
    // Set numbers are the profile's own: compare the sets' names.
    let strip = |b: &str| b.split_once(')').map_or(b, |(_, r)| r).to_string();
    for ((step, kept), (_, every)) in only.iter().zip(&all) {
        for (band, bytes) in kept {
            let whole: u64 = every
                .iter()
                .filter(|(b, _)| strip(b) == strip(band))
                .map(|(_, v)| v)
                .sum();
            assert!(
                *bytes <= whole,
                "step {step}: {band} {bytes} bytes, {whole} unrestricted"
            );
        }
    }
    // The thunks of the chain are held by the thunks of the chain (built
    // under main), the outermost by the machine's roots.
    let names: Vec<String> = only
        .iter()
        .flat_map(|(_, b)| b.keys().map(|k| strip(k)))
        .collect();
    assert!(names.iter().any(|n| n == "main"), "{names:?}");
}

#[test]
fn a_name_that_matches_nothing_is_warned_about() {
    let dir = scratch("heap_profile_restrict", "unmatched");
    let program = format!("{}/programs/foldl_leak.stg", env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .arg(&program)
        .args(["--heap-profile=descr", "--auto-cc=all"])
        .args([
            "--heap-profile-cc=main,nosuch",
            "--heap-profile-descr",
            "Nope",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "stg-run: warning: --heap-profile-cc nosuch: no census found a live closure built under \
         a cost centre of that name (a label, `go`, or qualified, `Main.go`, as `stg-prof report` \
         shows it)\n\
         stg-run: warning: --heap-profile-descr Nope: no census found a live closure of that \
         description (as `--heap-profile=descr` names them)\n"
    );
    let hp = std::fs::read_to_string(dir.join("foldl_leak.hp")).unwrap();
    let c = censuses(&hp);
    assert!(c.len() > 2 && c.iter().all(|(_, b)| b.is_empty()), "{hp}");
}
