//! Limits (--max-steps, --max-heap, --max-stack) and an interrupt (Ctrl-C)
//! stop the run with an error naming the limit and the flag; the profile so
//! far is still built; a
//! function value prints as `<function>`; stats and JSON trace render.

mod machine_common;
use machine_common::*;
use std::sync::atomic::{AtomicBool, Ordering};
use stg_run::internal::machine::{CostCentreMode, Engine, ErrorKind, RunOptions, TraceFormat};
use stg_run::internal::stg::auto_cc::AutoCc;

const LONG: &str = "one = {} \\r {} -> I# {1#}
big = {} \\r {} -> I# {100000#}
zero = {} \\r {} -> I# {0#}
main = {} \\u {} ->
  let l = {} \\u {} -> enumFromTo {one, big}
  in case length {l} of
       I# {n} -> scc \"fold\" (foldr {plusInt, zero, l})
";

#[test]
fn step_limit() {
    let r = run_text(
        "t.stg",
        LONG,
        true,
        AutoCc::None,
        &RunOptions {
            max_steps: Some(1000),
            ..flat()
        },
    );
    let e = r.result.error.expect("stops");
    assert_eq!(e.kind, ErrorKind::StepLimit { limit: 1000 });
    assert_eq!(e.step, 1000);
    assert!(e.to_string().contains("--max-steps"), "{e}");
    insta::assert_snapshot!("step_limit_message", e.to_string());
    let total: u64 = r
        .result
        .profile
        .entries
        .iter()
        .map(|e| e.counters.ticks)
        .sum();
    assert_eq!(total, 1000, "the profile so far is built");
}

/// A loop that never ends and allocates nothing that stays live.
const FOREVER: &str = "one = {} \\r {} -> I# {1#}
loop = {} \\r {n} -> case n of I# {k} -> case +# {k, 1#} of m -> let b = {m} \\r {} -> I# {m} in loop {b}
main = {} \\u {} -> scc \"spin\" (loop {one})
";

/// FOREVER on one engine with an interrupt flag (and `--max-steps`).
fn run_forever(engine: Engine, flag: &'static AtomicBool, max_steps: Option<u64>) -> Ran {
    run_text(
        "t.stg",
        FOREVER,
        true,
        AutoCc::None,
        &RunOptions {
            engine,
            interrupt: Some(flag),
            max_steps,
            ..flat()
        },
    )
}

/// A flag set before the run stops it before its first rule, on both
/// engines, with the profile built (MAIN and the module's CAF, no ticks).
#[test]
fn interrupt_set_before_the_run_stops_at_step_0() {
    static SET: AtomicBool = AtomicBool::new(true);
    for engine in [Engine::Reference, Engine::Fast] {
        let r = run_forever(engine, &SET, None);
        let e = r.result.error.expect("stops");
        assert_eq!(e.kind, ErrorKind::Interrupted, "{engine:?}");
        assert_eq!(e.step, 0, "{engine:?}");
        assert!(e.to_string().contains("interrupted"), "{e}");
        assert!(!r.result.profile.entries.is_empty(), "{engine:?}");
    }
}

/// A flag set by another thread while the machine loops stops the run soon
/// after (`--max-steps` is only a backstop so that a broken interrupt fails
/// instead of hanging), and the profile holds the steps done.
#[test]
fn interrupt_set_during_the_run_stops_it() {
    static FLAG: AtomicBool = AtomicBool::new(false);
    let backstop = 2_000_000_000;
    for engine in [Engine::Reference, Engine::Fast] {
        FLAG.store(false, Ordering::Relaxed);
        let setter = std::thread::spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(200));
            FLAG.store(true, Ordering::Relaxed);
        });
        let r = run_forever(engine, &FLAG, Some(backstop));
        setter.join().unwrap();
        let e = r.result.error.expect("stops");
        assert_eq!(e.kind, ErrorKind::Interrupted, "{engine:?}: {e}");
        assert!(e.step > 0 && e.step < backstop, "{engine:?}: {e}");
        let ticks: u64 = r
            .result
            .profile
            .entries
            .iter()
            .map(|e| e.counters.ticks)
            .sum();
        assert_eq!(
            ticks, e.step,
            "{engine:?}: every step done is in the profile"
        );
    }
}

#[test]
fn heap_limit() {
    let r = run_text(
        "t.stg",
        LONG,
        true,
        AutoCc::None,
        &RunOptions {
            max_heap: Some(256 * 1024),
            ..flat()
        },
    );
    let e = r.result.error.expect("stops");
    assert!(
        matches!(
            e.kind,
            ErrorKind::HeapLimit {
                limit_bytes: 262144,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("--max-heap"), "{e}");
    insta::assert_snapshot!("heap_limit_message", e.to_string());
    assert!(r.result.stats.collections > 0);
}

#[test]
fn stack_limit() {
    let r = run_text(
        "t.stg",
        LONG,
        true,
        AutoCc::None,
        &RunOptions {
            max_stack: Some(64 * 1024),
            ..stacks()
        },
    );
    let e = r.result.error.expect("stops");
    assert_eq!(
        e.kind,
        ErrorKind::StackLimit {
            limit_bytes: 65536,
            default_of: None
        }
    );
    let text = e.to_string();
    assert!(text.contains("--max-stack"), "{text}");
    insta::assert_snapshot!("stack_limit_message", text);
    // Stacks mode names the whole stack.
    assert!(
        text.contains("cost centre: MAIN > t.CAF > t.fold"),
        "{text}"
    );
}

#[test]
fn without_limits_it_finishes() {
    let r = run_text("t.stg", LONG, true, AutoCc::None, &flat());
    assert!(r.result.error.is_none(), "{:?}", r.result.error);
    assert_eq!(r.out, "5000050000\n");
    let s = r.result.stats.to_string();
    assert!(s.contains("bytes allocated in the heap"), "{s}");
    assert!(s.contains("collections"), "{s}");
}

#[test]
fn function_result_prints_as_function() {
    let src = "add = {} \\r {a, b} -> case +# {a, b} of r -> I# {r}
main = {} \\u {} -> add {1#}
";
    let r = run_text("t.stg", src, false, AutoCc::None, &flat());
    assert!(r.result.error.is_none(), "{:?}", r.result.error);
    assert_eq!(r.out, "<function>\n");
}

#[test]
fn json_trace_has_a_header_then_one_record_per_step() {
    let src = "main = {} \\u {} -> let x = {} \\r {} -> I# {1#} in x {}\n";
    let opts = RunOptions {
        trace: Some(TraceFormat::Json),
        cost_centres: CostCentreMode::Flat,
        ..flat()
    };
    let r = run_text("t.stg", src, false, AutoCc::None, &opts);
    let lines: Vec<&str> = r.trace.lines().collect();
    assert!(
        lines[0].starts_with("{\"format\":\"stg-run trace\",\"version\":1,"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("{\"event\":\"start\",\"step\":0,"),
        "{}",
        lines[1]
    );
    let steps: Vec<&&str> = lines
        .iter()
        .filter(|l| l.starts_with("{\"event\":\"step\""))
        .collect();
    assert_eq!(steps.len() as u64, r.result.stats.steps);
    for (i, l) in steps.iter().enumerate() {
        assert!(
            l.starts_with(&format!(
                "{{\"event\":\"step\",\"step\":{},\"rule\":",
                i + 1
            )),
            "{l}"
        );
        assert!(l.ends_with('}'), "{l}");
    }
    assert!(steps[1].contains("\"rule\":\"15\""), "{}", steps[1]);
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("{\"event\":\"end\",") && last.contains("\"outcome\":\"halted\""),
        "{last}"
    );
}

#[test]
fn flat_profile_lists_every_cost_centre() {
    let src = "main = {} \\u {} -> scc \"used\" (I# {1#})\nunused = {} \\u {} -> scc \"never\" (I# {2#})\n";
    let r = run_text("t.stg", src, false, AutoCc::None, &flat());
    let p = &r.result.profile;
    let names: Vec<_> = p.cost_centres.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["MAIN", "CAF", "used", "never"]);
    assert_eq!(p.modules, ["MAIN", "t"]);
    assert_eq!(p.frequency, 0, "reproducible");
    // Root MAIN; children: CAF and used (never has no cost), in id order.
    assert_eq!(p.entries[0].cost_centre, 1);
    let kids: Vec<u32> = p.entries[0]
        .children
        .iter()
        .map(|&i| p.entries[i as usize].cost_centre)
        .collect();
    assert_eq!(kids, [2, 3]);
    let ticks: u64 = p.entries.iter().map(|e| e.counters.ticks).sum();
    assert_eq!(ticks, r.result.stats.steps, "every step is charged once");
}

/// Heap profiles: a census every interval, grouped by kind, description or
/// cost centre; the leak shows as a growing group; the .hp text is GHC's
/// (read back with `stg-prof heap`'s reader).
#[test]
fn heap_profile_census() {
    use stg_run::internal::machine::heap_profile::{HeapProfileBy, HeapProfileOptions};
    use stg_run::internal::profile::view::heap_chart::{HeapFile, read_hp};
    let text = std::fs::read_to_string("programs/foldl_leak.stg").unwrap();
    let run = |by| {
        let o = RunOptions {
            heap_profile: Some(by),
            heap_interval: 5000,
            heap_profile_options: HeapProfileOptions {
                job: "foldl_leak".into(),
                ..HeapProfileOptions::default()
            },
            ..flat()
        };
        run_text("foldl_leak.stg", &text, true, AutoCc::None, &o)
    };
    let hp_of = |r: &Ran| -> (String, HeapFile) {
        let summary = r.result.heap_profile.as_ref().expect("asked for");
        let text = summary.hp_text.clone().expect("kept in memory");
        let hp = read_hp(&text).unwrap();
        assert_eq!(summary.censuses as usize, hp.times.len());
        (text, hp)
    };
    let r = run(HeapProfileBy::Kind);
    assert_eq!(r.out, "12502500\n");
    let (text_hp, hp) = hp_of(&r);
    assert!(hp.times.len() >= 3, "{hp:?}");
    assert_eq!(hp.times[0], 0.0);
    assert!(hp.times.windows(2).all(|w| w[0] < w[1]));
    let thunks = |i: usize| {
        hp.sample(i)
            .iter()
            .find(|g| g.0 == "THUNK")
            .map(|g| g.1)
            .unwrap_or(0.0)
    };
    let peak = (0..hp.times.len()).map(thunks).fold(0.0, f64::max);
    assert!(
        peak > 5000.0 * 24.0,
        "the leak's thunks are live at the peak: {hp:?}"
    );
    assert!(text_hp.starts_with("JOB \"foldl_leak\"\nDATE \"\"\nSAMPLE_UNIT \"steps\"\nVALUE_UNIT \"bytes\"\nBEGIN_SAMPLE 0.0\n"), "{text_hp}");
    let (_, d) = hp_of(&run(HeapProfileBy::Descr));
    // foldl's accumulator thunks are described by their binding's
    // qualified name; the boxed elements are I#. Static closures are not
    // counted.
    let any = |hp: &HeapFile, f: &dyn Fn(&str, f64) -> bool| {
        (0..hp.times.len()).any(|i| hp.sample(i).iter().any(|&(b, v)| f(b, v)))
    };
    assert!(
        any(&d, &|b, v| b == "Prelude.foldl.acc" && v > 100_000.0),
        "{d:?}"
    );
    assert!(!any(&d, &|b, _| b == "UNKNOWN"), "{d:?}");
    assert!(any(&d, &|b, _| b == "I#"), "{d:?}");
    assert!(d.sample(0).is_empty(), "{d:?}");
    let (_, c) = hp_of(&run(HeapProfileBy::CostCentre));
    assert!(
        !any(&c, &|b, _| !(b.ends_with("CAF") || b == "MAIN")),
        "{c:?}"
    );
    // A census does not change the profile.
    let plain = run_text("foldl_leak.stg", &text, true, AutoCc::None, &flat());
    assert_eq!(
        plain.result.profile,
        run(HeapProfileBy::Kind).result.profile
    );
}

/// Lowering takes space linear in the program: a function of 20,000
/// arguments, partially applied, has one body for all its partial
/// applications (one `f {x1..xk}` per `k` took 200 million atoms, about
/// 3 GB, before anything ran).
#[test]
fn many_arguments_lower_in_linear_space() {
    use stg_run::internal::machine::code::ExprCode;
    use stg_run::internal::machine::lower::lower;
    use stg_run::internal::stg::load::load;
    use stg_run::internal::stg::source::SourceMap;
    const N: usize = 20_000;
    let xs: Vec<String> = (0..N).map(|i| format!("x{i}")).collect();
    let text = format!(
        "wide = {{}} \\r {{{}}} -> x0 {{}}\n\
         one = {{}} \\r {{}} -> I# {{1#}}\n\
         main = {{}} \\u {{}} -> wide {{one, one}}\n",
        xs.join(", ")
    );
    let mut sources = SourceMap::new();
    let loaded = load(&mut sources, &[("wide.stg".into(), text.clone())], true)
        .unwrap_or_else(|d| panic!("{}", d[0].message));
    let code = lower(&loaded.program).expect("lowers");
    let atoms: usize = code
        .exprs
        .iter()
        .map(|e| match &e.code {
            ExprCode::App { args, .. }
            | ExprCode::Con { args, .. }
            | ExprCode::Prim { args, .. } => args.len(),
            _ => 0,
        })
        .sum();
    assert!(
        atoms < N,
        "{atoms} atoms in the code of a {N}-argument function"
    );
    // `main` is the partial application `wide {one, one}` (rule 17a).
    let r = run_text("wide.stg", &text, true, AutoCc::None, &flat());
    assert!(r.result.error.is_none(), "{:?}", r.result.error);
    assert_eq!(r.out, "<function>\n");
}

/// A limit met before `main`'s first rule fires names `main`'s definition,
/// not the first line of the Prelude (where the synthetic `main {}` used to
/// point), on both engines.
#[test]
fn a_limit_at_the_first_step_names_main() {
    let text = "nil = {} \\r {} -> Nil {}\nmain = {} \\u {} -> nil {}\n";
    for engine in [Engine::Fast, Engine::Reference] {
        for options in [
            RunOptions {
                max_steps: Some(0),
                engine,
                ..flat()
            },
            RunOptions {
                max_heap: Some(0),
                engine,
                ..flat()
            },
        ] {
            let r = run_text("t.stg", text, true, AutoCc::None, &options);
            let e = r.result.error.expect("stops at once");
            assert_eq!(e.location.as_deref(), Some("t.stg:2:8"), "{e}");
        }
    }
}

/// A rule the stack limit stops does not fire: none of its effects (a
/// thunk entry's count and cost centre, an `scc` entry, a call) reach the
/// profile or the message, exactly as when the step limit stops the
/// machine at the same step. Checked for every stack limit from 8 bytes up
/// to the program's need, so that each pushing rule (1, 4, 15, `scc`) is
/// the one stopped at some limit, on both engines, in both modes.
#[test]
fn a_rule_stopped_by_the_stack_limit_has_no_effect() {
    let text = "one = {} \\r {} -> I# {1#}
three = {} \\r {} -> I# {3#}
f = {} \\r {x} -> scc \"f\" (case plusInt {x, one} of r -> r {})
main = {} \\u {} ->
  let t = {} \\u {} -> f {three}
  in scc \"m\" (case t {} of I# {n} -> f {t})
";
    let mut rules = std::collections::BTreeSet::new();
    for engine in [Engine::Fast, Engine::Reference] {
        for base in [flat(), stacks()] {
            for bytes in (8..=256).step_by(8) {
                let by_stack = run_text(
                    "t.stg",
                    text,
                    true,
                    AutoCc::None,
                    &RunOptions {
                        engine,
                        max_stack: Some(bytes),
                        ..base.clone()
                    },
                );
                let Some(e) = by_stack.result.error else {
                    continue;
                };
                assert!(matches!(e.kind, ErrorKind::StackLimit { .. }), "{e}");
                rules.insert(e.rule);
                let by_steps = run_text(
                    "t.stg",
                    text,
                    true,
                    AutoCc::None,
                    &RunOptions {
                        engine,
                        max_steps: Some(e.step),
                        ..base.clone()
                    },
                );
                let s = by_steps.result.error.expect("stops at the same step");
                let what = format!("{engine:?} max_stack={bytes}: {e}");
                assert_eq!(
                    (s.rule, s.step, &s.location, &s.cost_centre),
                    (e.rule, e.step, &e.location, &e.cost_centre),
                    "{what}"
                );
                assert_eq!(
                    by_steps.result.profile.entries, by_stack.result.profile.entries,
                    "{what}"
                );
            }
        }
    }
    for rule in ["1", "4", "15", "scc"] {
        assert!(
            rules.contains(rule),
            "no limit stopped rule {rule}: {rules:?}"
        );
    }
}

#[test]
fn a_heap_limit_too_small_for_the_globals_says_so_in_both_engines() {
    for engine in [Engine::Fast, Engine::Reference] {
        let r = run_text(
            "t.stg",
            "main = {} \\u {} -> I# {1#}\n",
            true,
            AutoCc::None,
            &RunOptions {
                engine,
                max_heap: Some(2048),
                ..flat()
            },
        );
        let e = r.result.error.expect("stops");
        let ErrorKind::GlobalsDoNotFit {
            globals,
            needed_bytes,
            limit_bytes: 2048,
            live_capacity_bytes,
            reserved_less: false,
        } = e.kind
        else {
            panic!("{engine:?}: {e}");
        };
        assert!(globals > 1 && needed_bytes > 1024, "{engine:?}: {e}");
        // One old space: under half the limit, after the nursery and the bitmap.
        assert!(
            live_capacity_bytes < 1024 && needed_bytes > live_capacity_bytes,
            "{engine:?}: {e}"
        );
        assert_eq!(e.step, 0);
        let text = e.to_string();
        assert!(text.contains("top-level closures") && text.contains("--max-heap"));
        assert!(
            !text.contains("\n  at "),
            "no place before the first step: {text}"
        );
        assert!(!text.contains("rule"), "no rule fired or stopped: {text}");
    }
}

/// A limit's message suggests a larger value than the limit it names
/// (double, rounded up to a whole K, M or G), never a fixed example that
/// may be lower (`--max-stack 8G` used to suggest `--max-stack=1G`), and
/// none when no size the flag takes is larger.
#[test]
fn limit_messages_suggest_a_larger_limit() {
    let stack = |limit_bytes: u64| {
        ErrorKind::StackLimit {
            limit_bytes,
            default_of: None,
        }
        .to_string()
    };
    let heap = |limit_bytes: u64| {
        ErrorKind::HeapLimit {
            limit_bytes,
            live_bytes: limit_bytes / 3,
            default_of: None,
            reserved_less: false,
        }
        .to_string()
    };
    for (limit, example) in [
        (8 << 30, "=16G)"),
        (2 << 30, "=4G)"),
        (65536, "=128K)"),
        (5_055_236_500, "=10G)"),
        (1000, "=2K)"),
    ] {
        let s = stack(limit);
        assert!(s.contains(&format!("(e.g. --max-stack{example}")), "{s}");
        let h = heap(limit);
        assert!(h.contains(&format!("(e.g. --max-heap{example}")), "{h}");
    }
    for s in [stack(u64::MAX / 2), heap(u64::MAX)] {
        assert!(!s.contains("e.g."), "no size is larger: {s}");
    }
    let globals = ErrorKind::GlobalsDoNotFit {
        globals: 5000,
        needed_bytes: 120_000,
        limit_bytes: 65536,
        live_capacity_bytes: 20_000,
        reserved_less: false,
    }
    .to_string();
    assert!(globals.contains("(e.g. --max-heap=469K)"), "{globals}");
    // A heap the system would not reserve in full: more address space
    // helps, a larger --max-heap would not.
    let reserved_less = ErrorKind::GlobalsDoNotFit {
        globals: 65,
        needed_bytes: 1560,
        limit_bytes: 0,
        live_capacity_bytes: 0,
        reserved_less: true,
    }
    .to_string();
    assert!(
        reserved_less.ends_with(
            "the system would not reserve more address space for the heap: give the process \
             more (ulimit -v) or memory"
        ) && !reserved_less.contains("--max-heap"),
        "{reserved_less}"
    );
}
