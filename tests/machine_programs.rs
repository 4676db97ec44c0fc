//! Every programs/*.stg prints its .stdout in both cost-centre modes and
//! under gc_stress; programs with a .exit of 3 stop with a runtime error.

mod corpus;
mod machine_common;
use machine_common::*;
use stg_run::internal::machine::RunOptions;
use stg_run::internal::stg::auto_cc::AutoCc;

fn check_all(options: &RunOptions, what: &str, skip_big: bool) {
    let mut n = 0;
    let mut failures = Vec::new();
    for path in corpus::stg_paths("programs") {
        let stem = corpus::stem(&path);
        let text = std::fs::read_to_string(&path).unwrap();
        if skip_big && text.contains("-- big") {
            continue;
        }
        let expected = std::fs::read_to_string(path.with_extension("stdout")).unwrap_or_default();
        let exit =
            std::fs::read_to_string(path.with_extension("exit")).unwrap_or_else(|_| "0".into());
        let r = run_text(path.to_str().unwrap(), &text, true, AutoCc::None, options);
        n += 1;
        if r.out != expected {
            failures.push(format!(
                "{stem} ({what}): printed {:?}, expected {:?}; error {:?}",
                r.out,
                expected,
                r.result.error.map(|e| e.to_string())
            ));
            continue;
        }
        let errored = r.result.error.is_some();
        if errored != (exit.trim() == "3") {
            failures.push(format!(
                "{stem} ({what}): error {:?}, expected exit {}",
                r.result.error.map(|e| e.to_string()),
                exit.trim()
            ));
        }
    }
    assert!(n > 0, "no programs found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn programs_flat() {
    check_all(&flat(), "flat", false);
}

#[test]
fn programs_stacks() {
    check_all(&stacks(), "stacks", false);
}

#[test]
fn programs_gc_stress() {
    check_all(
        &RunOptions {
            gc_stress: true,
            ..flat()
        },
        "gc_stress",
        true,
    );
}

/// Collection is invisible: with a collection at every allocation the
/// profile (every counter) is the same as without, in both modes.
#[test]
fn gc_stress_does_not_change_profiles() {
    for name in [
        "scc_pair",
        "nested_scc_map",
        "pap_update",
        "single_entry",
        "mergesort",
    ] {
        let text = std::fs::read_to_string(format!("programs/{name}.stg")).unwrap();
        for base in [flat(), stacks()] {
            let a = run_text(name, &text, true, AutoCc::Top, &base);
            let b = run_text(
                name,
                &text,
                true,
                AutoCc::Top,
                &RunOptions {
                    gc_stress: true,
                    ..base.clone()
                },
            );
            assert_eq!(a.out, b.out, "{name}");
            assert_eq!(a.result.profile, b.result.profile, "{name}");
            assert!(
                b.result.stats.collections > a.result.stats.collections,
                "{name}"
            );
        }
    }
}
