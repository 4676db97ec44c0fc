//! Biographical heap profiles (`--heap-profile=biography`, GHC's `-hb`):
//! each census's `LAG`, `USE`, `DRAG` and `VOID` add up to the live heap
//! that the census by description counts; when and how often the
//! collector runs changes nothing; a restriction counts the closures it
//! names; and the phases are the ones Röjemo and Runciman's definitions
//! give on programs whose closures' lives are known.

mod engines_common;
mod heap_common;

use std::collections::BTreeMap;

use heap_common::{Census, censuses};

use engines_common::{Loaded, compare, load_text};
use stg_run::internal::machine::heap_profile::{
    BIOGRAPHY_BANDS, HeapProfileBy, HeapProfileOptions,
};
use stg_run::internal::machine::{CostCentreMode, RunOptions};
use stg_run::internal::stg::auto_cc::AutoCc;

fn program(name: &str) -> Loaded {
    let path = format!("{}/programs/{name}.stg", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap();
    load_text(&path, &source, true, AutoCc::All).unwrap()
}

/// The heap profile of `l` by `by`, the same from both engines (checked).
fn profile(l: &Loaded, by: HeapProfileBy, interval: u64, options: RunOptions) -> Vec<Census> {
    let options = RunOptions {
        heap_profile: Some(by),
        heap_interval: interval,
        ..options
    };
    let outcome = compare(l, &options).unwrap_or_else(|e| panic!("{e}"));
    censuses(&outcome.heap_profile.unwrap())
}

fn total(bands: &BTreeMap<String, u64>) -> u64 {
    bands.values().sum()
}

/// The bytes of `band` in each census.
fn band(censuses: &[Census], band: &str) -> Vec<u64> {
    censuses
        .iter()
        .map(|(_, b)| b.get(band).copied().unwrap_or(0))
        .collect()
}

#[test]
fn every_census_has_the_four_phases_and_they_add_up_to_the_live_heap() {
    for name in ["foldl_leak", "queens", "mergesort", "fibs"] {
        let l = program(name);
        for mode in [CostCentreMode::Flat, CostCentreMode::Stacks] {
            let base = RunOptions {
                cost_centres: mode,
                ..RunOptions::default()
            };
            let bio = profile(&l, HeapProfileBy::Biography, 700, base.clone());
            let descr = profile(&l, HeapProfileBy::Descr, 700, base);
            assert!(bio.len() > 3, "{name}: {} censuses", bio.len());
            assert_eq!(bio.len(), descr.len(), "{name}");
            for ((step, b), (dstep, d)) in bio.iter().zip(&descr) {
                assert_eq!(step, dstep, "{name}");
                let names: Vec<&str> = b.keys().map(String::as_str).collect();
                let mut expected = BIOGRAPHY_BANDS.to_vec();
                expected.sort_unstable();
                assert_eq!(names, expected, "{name} at {step}");
                assert_eq!(total(b), total(d), "{name} {mode:?} at {step}: {b:?} {d:?}");
            }
        }
    }
}

/// A biography is settled from the closures' deaths, which the collector
/// finds: collecting at every allocation must give the same profile.
#[test]
fn collections_do_not_change_the_biography() {
    for name in ["foldl_leak", "mergesort"] {
        let l = program(name);
        let plain = profile(&l, HeapProfileBy::Biography, 500, RunOptions::default());
        let stressed = profile(
            &l,
            HeapProfileBy::Biography,
            500,
            RunOptions {
                gc_stress: true,
                ..RunOptions::default()
            },
        );
        assert_eq!(plain, stressed, "{name}");
    }
}

/// foldl's lazy accumulator: its thunks are built along the list and
/// used only when the sum is demanded at the end. Lag holds the heap while
/// the chain is built; each thunk once evaluated and its number wait as
/// drag for the chain's outer thunks; nothing is in use between two uses.
#[test]
fn foldl_leak_lags_then_drags() {
    let bio = profile(
        &program("foldl_leak"),
        HeapProfileBy::Biography,
        2000,
        RunOptions::default(),
    );
    let (lag, drag, used) = (band(&bio, "LAG"), band(&bio, "DRAG"), band(&bio, "USE"));
    let peak = |v: &[u64]| v.iter().copied().max().unwrap();
    let at = |v: &[u64]| v.iter().position(|&x| x == peak(v)).unwrap();
    assert!(peak(&lag) > 250_000, "{lag:?}");
    assert!(peak(&drag) > 100_000, "{drag:?}");
    assert!(at(&lag) < at(&drag), "lag peaks before drag: {bio:?}");
    assert!(peak(&used) < peak(&lag) / 100, "{used:?}");
    // The chain grows with the list: lag rises census after census.
    let rising = &lag[1..at(&lag)];
    assert!(rising.windows(2).all(|w| w[0] < w[1]), "{lag:?}");
}

/// Hand-made lives, each census after a known step: a thunk never entered
/// is void all its life; one entered later lags until then; a constructor
/// a `case` inspects twice is in use between the two, then drags while
/// something still holds it.
#[test]
fn phases_follow_the_definitions() {
    // `never` is held by `p` and never entered (void); `later` is
    // entered by the third case (lag until then), and its value, which
    // `p` holds, is never used (void); `p`, a constructor value, is
    // inspected by two cases (use between them) and held by the last
    // continuation for `ignore`, which does not use it (drag).
    let text = "\
spin = {} \\r {k} ->
  case k of
    0# -> 0#
    default -> case -# {k, 1#} of
                 m -> spin {m}

main = {} \\u {} ->
  let never = {} \\u {} -> I# {1#}
      later = {} \\u {} -> I# {2#}
  in let p = {never, later} \\r {} -> Pair {never, later}
  in case p of
       Pair {a, b} -> case spin {200#} of
         z -> case p of
           Pair {c, d} -> case spin {200#} of
             y -> case later of
               I# {w} -> case spin {200#} of
                 x -> ignore {p, never, x}

ignore = {} \\r {p, q, x} -> I# {x}
";
    let l = load_text("lives.stg", text, true, AutoCc::None).unwrap();
    let bio = profile(&l, HeapProfileBy::Biography, 50, RunOptions::default());
    let descr = profile(&l, HeapProfileBy::Descr, 50, RunOptions::default());
    assert!(bio.len() > 20, "{} censuses", bio.len());
    // Sizes: a thunk with no free variables is 3 words (24 bytes), `p` 4.
    let void = band(&bio, "VOID");
    let lag = band(&bio, "LAG");
    let used = band(&bio, "USE");
    let drag = band(&bio, "DRAG");
    let of = |name: &str| band(&descr, name);
    let (never, later) = (of("lives.main.never"), of("lives.main.later"));
    let pair = of("Pair");
    for i in 1..bio.len() - 1 {
        let step = &bio[i].0;
        // `never` is void whenever it is live, and so is `later`'s value.
        assert_eq!(void[i], never[i] + of("I#")[i], "void at {step}: {bio:?}");
        // `later` lags while it is a thunk not yet entered.
        assert!(lag[i] >= later[i], "lag at {step}");
        // `p`'s value is a constructor, used by the first case.
        assert!(used[i] + drag[i] >= pair[i], "pair at {step}");
    }
    assert!(void.contains(&24), "{void:?}");
    assert!(lag.iter().any(|&v| v >= 24), "{lag:?}");
    assert!(used.iter().any(|&v| v >= 32), "{used:?}");
    assert!(drag.iter().any(|&v| v >= 32), "{drag:?}");
    // In use before the second inspection, dragged after it.
    let first_drag = drag.iter().position(|&v| v >= 32).unwrap();
    let last_use = used.iter().rposition(|&v| v >= 32).unwrap();
    assert!(last_use < first_drag, "{bio:?}");
}

/// Restricted to a cost centre, a biography counts exactly that cost
/// centre's closures: its phases add up to the cost centre's band.
#[test]
fn a_restricted_biography_counts_the_closures_named() {
    let l = program("foldl_leak");
    let by_cc = profile(&l, HeapProfileBy::CostCentre, 1000, RunOptions::default());
    let only = |cc: &[&str], descr: &[&str]| RunOptions {
        heap_profile_options: HeapProfileOptions {
            only_cc: cc.iter().map(|s| s.to_string()).collect(),
            only_descr: descr.iter().map(|s| s.to_string()).collect(),
            ..HeapProfileOptions::default()
        },
        ..RunOptions::default()
    };
    let bio = profile(&l, HeapProfileBy::Biography, 1000, only(&["main"], &[]));
    let totals: Vec<u64> = bio.iter().map(|(_, b)| total(b)).collect();
    assert_eq!(totals, band(&by_cc, "foldl_leak.main"));
    assert!(totals.iter().any(|&t| t > 10_000), "{totals:?}");
    // By description: the accumulator's thunks, counted from the first
    // census that sees them to their death (also once entered, as black
    // holes), lag and then drag; the numbers they hold are left out.
    let acc = profile(
        &l,
        HeapProfileBy::Biography,
        1000,
        only(&[], &["Prelude.foldl.acc"]),
    );
    let all = profile(&l, HeapProfileBy::Biography, 1000, RunOptions::default());
    for ((step, a), (_, b)) in acc.iter().zip(&all) {
        assert!(total(a) <= total(b), "at {step}");
    }
    let peak_lag = band(&acc, "LAG").into_iter().max().unwrap();
    assert!(peak_lag > 100_000, "{acc:?}");
    assert!(
        band(&acc, "DRAG").into_iter().any(|d| d > 10_000),
        "{acc:?}"
    );
}
