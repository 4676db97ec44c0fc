//! Every programs/*.stg prints its .stdout in both cost-centre modes and
//! under gc_stress; programs with a .exit of 3 stop with a runtime error.

mod machine_common;
use machine_common::*;
use stg_run::machine::RunOptions;
use stg_run::stg::auto_cc::AutoCc;

fn check_all(options: &RunOptions, what: &str, skip_big: bool) {
    let mut n = 0;
    let mut failures = Vec::new();
    for entry in std::fs::read_dir("programs").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("stg") {
            continue;
        }
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        if stem == "Prelude" {
            continue;
        }
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
