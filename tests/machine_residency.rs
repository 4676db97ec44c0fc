//! What a case continuation keeps alive (rule 4): only its alternatives'
//! free variables, as GHC's does. A continuation around a walk of a list
//! whose alternatives do not use the list lets the walk free the cells as
//! it goes; one whose alternatives use it keeps the whole list. Measured
//! by heap censuses on both engines, which must agree to the byte. And what
//! an update frame keeps alive: its thunk, for the collector, only when
//! something else reaches it; for a census, always.

mod engines_common;

use engines_common::{Loaded, load_text};
use stg_run::internal::gc::{Heap, memory_limit};
use stg_run::internal::machine::heap_profile::HeapProfileBy;
use stg_run::internal::machine::{self, Engine, RunOptions};
use stg_run::internal::stg::auto_cc::AutoCc;

/// Elements of the list each program walks.
const N: u64 = 20_000;

/// `len` counts the list in a case whose alternative uses only the count:
/// under the old rule 4 (the continuation saved its whole environment)
/// `xs`, and the whole list with it, stayed live until the count was done.
fn counts_in_a_case(uses_list_after: bool) -> String {
    let alt = if uses_list_after {
        // The alternative looks at the list again: it must stay live.
        "n# -> case xs of\n            Cons {y, ys} -> I# {n#}\n            Nil {} -> I# {n#}"
    } else {
        "n# -> I# {n#}"
    };
    format!(
        "big = {{}} \\r {{}} -> I# {{{N}#}}\n\
         len = {{}} \\r {{xs}} ->\n  case lengthW {{xs, 0#}} of\n    {alt}\n\
         main = {{}} \\u {{}} ->\n  let xs = {{}} \\u {{}} -> enumFromTo {{one, big}}\n  in len {{xs}}\n\
         one = {{}} \\r {{}} -> I# {{1#}}\n"
    )
}

/// The largest census (live bytes) of a run, and its output.
fn peak(l: &Loaded, engine: Engine) -> (u64, String, Option<String>) {
    let options = RunOptions {
        engine,
        reproducible: true,
        heap_profile: Some(HeapProfileBy::Kind),
        heap_interval: 2_000,
        ..Default::default()
    };
    let mut out = Vec::new();
    let mut trace = Vec::new();
    let r = machine::run(&l.program, &l.sources, &options, &mut out, &mut trace);
    let hp = r.heap_profile.expect("a heap profile was asked for");
    // Each census's bytes: the sum of its band lines (`band<TAB>bytes`).
    let text = hp.hp_text.expect("kept in memory by machine::run");
    let mut peak = 0;
    let mut census = 0;
    for line in text.lines() {
        if line.starts_with("BEGIN_SAMPLE") {
            census = 0;
        } else if line.starts_with("END_SAMPLE") {
            peak = peak.max(census);
        } else if let Some((_, bytes)) = line.split_once('\t') {
            census += bytes.parse::<u64>().unwrap();
        }
    }
    (
        peak,
        String::from_utf8(out).unwrap(),
        r.error.map(|e| e.to_string()),
    )
}

fn peaks(uses_list_after: bool) -> u64 {
    let text = counts_in_a_case(uses_list_after);
    let l = load_text("len.stg", &text, true, AutoCc::None).unwrap();
    let (reference, out, error) = peak(&l, Engine::Reference);
    assert_eq!(error, None);
    assert_eq!(out, format!("{N}\n"));
    let (fast, out_fast, _) = peak(&l, Engine::Fast);
    assert_eq!(out_fast, out);
    assert_eq!(reference, fast, "both engines keep the same closures alive");
    reference
}

/// A cons cell is 4 words and its element (a closure with one free
/// variable) 3: the whole list is 56 bytes an element.
const LIST_BYTES: u64 = N * 56;

#[test]
fn a_continuation_does_not_keep_what_its_alternatives_do_not_use() {
    let peak = peaks(false);
    assert!(
        peak < 16 * 1024,
        "the walk frees the list as it goes: peak {peak} bytes (the list is {LIST_BYTES})"
    );
}

#[test]
fn a_continuation_keeps_what_its_alternatives_use() {
    let peak = peaks(true);
    assert!(
        // The censuses every 2,000 steps miss the last few cells.
        peak >= LIST_BYTES / 10 * 9,
        "the list stays live for the alternative: peak {peak} bytes (the list is {LIST_BYTES})"
    );
}

/// A run of `l` with `options`, and what it printed.
fn run_loaded(l: &Loaded, options: &RunOptions) -> (machine::RunResult, String) {
    let mut out = Vec::new();
    let mut trace = Vec::new();
    let r = machine::run(&l.program, &l.sources, options, &mut out, &mut trace);
    (r, String::from_utf8(out).unwrap())
}

/// `--stats`' maximum residency with and without the collection at the
/// end of the run (`RunOptions::final_collection`), on both engines, for
/// a program whose live data peaks at its end: a CAF holds the list it
/// counted. The collections during the run (at most a few, in a heap that
/// only grows) see the list half built; the one at the end sees it whole.
fn stats_residency(final_collection: bool) -> (u64, u64) {
    let text = format!(
        "big = {{}} \\r {{}} -> I# {{{N}#}}\n\
         one = {{}} \\r {{}} -> I# {{1#}}\n\
         xs = {{}} \\u {{}} -> enumFromTo {{one, big}}\n\
         main = {{}} \\u {{}} -> length {{xs}}\n"
    );
    let l = load_text("caf.stg", &text, true, AutoCc::None).unwrap();
    let options = RunOptions {
        final_collection,
        ..Default::default()
    };
    let (residency, collections, _) = collector_figures(&l, options, &format!("{N}\n"));
    (residency, collections)
}

/// The collector's figures of a run of `l` (maximum residency,
/// collections, bytes copied), the same on both engines, which print
/// `expected`.
fn collector_figures(l: &Loaded, options: RunOptions, expected: &str) -> (u64, u64, u64) {
    let mut got = Vec::new();
    for engine in [Engine::Reference, Engine::Fast] {
        let options = RunOptions {
            engine,
            ..options.clone()
        };
        let (r, out) = run_loaded(l, &options);
        assert_eq!(r.error, None);
        assert_eq!(out, expected);
        let s = r.stats;
        got.push((s.max_residency_bytes, s.collections, s.bytes_copied));
    }
    assert_eq!(got[0], got[1], "both engines keep the same closures");
    got[0]
}

#[test]
fn stats_residency_includes_the_end_of_the_run() {
    let (during, collections) = stats_residency(false);
    let (with_end, collections_end) = stats_residency(true);
    assert_eq!(
        collections_end,
        collections + 1,
        "one collection more, at the end"
    );
    assert!(
        with_end >= LIST_BYTES,
        "the list is live at the end: {with_end} bytes measured (the list is {LIST_BYTES})"
    );
    assert!(
        during < with_end,
        "the collections during the run saw less ({during} bytes) than the end ({with_end})"
    );
}

/// A `foldr` of `N` elements: `N` update frames deep at its deepest, each
/// frame's thunk (the fold of the rest) reached by nothing but its frame
/// (`plusInt` has taken it from its environment to evaluate it).
fn deep_fold() -> String {
    format!(
        "big = {{}} \\r {{}} -> I# {{{N}#}}\n\
         one = {{}} \\r {{}} -> I# {{1#}}\n\
         zero = {{}} \\r {{}} -> I# {{0#}}\n\
         main = {{}} \\u {{}} ->\n  let xs = {{}} \\u {{}} -> enumFromTo {{one, big}}\n  in foldr {{plusInt, zero, xs}}\n"
    )
}

/// The sum `deep_fold` prints.
const FOLD_SUM: u64 = N * (N + 1) / 2;

/// An update frame does not keep its thunk alive for the collector when
/// nothing else reaches it (docs/DECISIONS.md, "Dead updatees"): with a
/// collection at every allocation, `--stats`' maximum residency of the
/// deep fold stays far below one black hole (3 words) a frame, on both
/// engines alike.
#[test]
fn an_update_frame_alone_does_not_keep_its_thunk() {
    let l = load_text("fold.stg", &deep_fold(), true, AutoCc::None).unwrap();
    let options = RunOptions {
        gc_stress: true,
        ..Default::default()
    };
    let (residency, _, _) = collector_figures(&l, options, &format!("{FOLD_SUM}\n"));
    assert!(
        residency < N * 24 / 10,
        "the frames' thunks are not kept: {residency} bytes at most (one black hole a frame is {})",
        N * 24
    );
}

/// A heap census counts every thunk under evaluation, as GHC's does: the
/// deep fold's censuses see its black holes, one a frame.
#[test]
fn a_census_counts_the_thunks_under_evaluation() {
    let l = load_text("fold.stg", &deep_fold(), true, AutoCc::None).unwrap();
    let (reference, out, error) = peak(&l, Engine::Reference);
    assert_eq!(error, None);
    assert_eq!(out, format!("{FOLD_SUM}\n"));
    let (fast, _, _) = peak(&l, Engine::Fast);
    assert_eq!(reference, fast, "both engines keep the same closures alive");
    // The censuses every 2,000 steps miss the deepest frames.
    assert!(
        reference >= N * 24 / 10 * 9,
        "one black hole a frame: peak {reference} bytes for {N} frames"
    );
}

/// Run `text` (as `t.stg`) with each of `runs`: each fails with an
/// error that names the thunk `main.t`, defined on line `line`.
fn assert_error_names_t(text: &str, line: u32, runs: impl IntoIterator<Item = RunOptions>) {
    let l = load_text("t.stg", text, true, AutoCc::None).unwrap();
    let want = format!("while evaluating `main.t` at t.stg:{line}:");
    for options in runs {
        let (engine, gc_stress) = (options.engine, options.gc_stress);
        let e = run_loaded(&l, &options)
            .0
            .error
            .expect("the program fails")
            .to_string();
        assert!(e.contains(&want), "{engine:?} gc_stress={gc_stress}: {e}");
    }
}

/// A runtime error under a frame whose thunk a collection found dead
/// still names the thunk, as it did when the thunk was kept: the frame
/// keeps its lambda.
#[test]
fn an_error_under_a_dead_updatee_names_its_thunk() {
    let text = "main = {} \\u {} ->\n  let t = {} \\u {} -> let xs = {} \\u {} -> Nil {} in head {xs}\n  in case t {} of\n       I# {n} -> I# {n}\n";
    let runs = [Engine::Reference, Engine::Fast]
        .into_iter()
        .flat_map(|engine| {
            [false, true].map(|gc_stress| RunOptions {
                engine,
                gc_stress,
                ..Default::default()
            })
        });
    assert_error_names_t(text, 2, runs);
}

/// In a heap of 2^35 words or more (600 GB: address space reserved, only
/// what is written taken), whose own addresses may have a dead
/// updatee's form, a live updatee copied that high is still the thunk it
/// was: the error under its frame names it. (The collections of
/// `--gc-stress` copy `t` into the second old space, past 2^35 words,
/// while its frame is on the stack, after the list fills the first.)
#[test]
fn a_huge_heaps_high_addresses_are_not_dead_updatees() {
    // A mapping this size needs the kernel to reserve address space it is
    // not asked to back (`MAP_NORESERVE`), which strict overcommit or a
    // `ulimit -v` refuses; the heap then takes half, and half again, so
    // its addresses would stay low and the test would prove nothing.
    const ASKED: u64 = 600 << 30;
    let probe = Heap::with_limit(&memory_limit::heap_limit(Some(ASKED)));
    if probe.max_bytes() < ASKED {
        eprintln!(
            "skipped: the system reserved {} bytes of the {ASKED} asked for",
            probe.max_bytes()
        );
        return;
    }
    drop(probe);
    let text = "one = {} \\r {} -> I# {1#}\nn50 = {} \\r {} -> I# {50#}\nmain = {} \\u {} ->\n  let t = {} \\u {} -> let ys = {} \\u {} -> enumFromTo {one, n50}\n                      in case length {ys} of\n                           I# {k} -> let xs = {} \\u {} -> Nil {} in head {xs}\n  in case t {} of\n       I# {n} -> I# {n}\n";
    let runs = [Engine::Reference, Engine::Fast].map(|engine| RunOptions {
        engine,
        gc_stress: true,
        max_heap: Some(ASKED),
        ..Default::default()
    });
    assert_error_names_t(text, 4, runs);
}
