//! The full-size programs of bench/programs/ print their .stdout. They take
//! seconds to minutes (queens 10, the 2000th prime, a million-element fold),
//! so they are ignored by default:
//!   cargo test --release --test bench_programs -- --ignored

mod machine_common;
use machine_common::*;
use stg_run::stg::auto_cc::AutoCc;

fn check(name: &str) {
    let path = format!("bench/programs/{name}.stg");
    let text = std::fs::read_to_string(&path).unwrap();
    let expected = std::fs::read_to_string(format!("bench/programs/{name}.stdout")).unwrap();
    let start = std::time::Instant::now();
    let r = run_text(&path, &text, true, AutoCc::None, &flat());
    eprintln!("{name}: {:?}", start.elapsed());
    assert!(
        r.result.error.is_none(),
        "{name}: {:?}",
        r.result.error.map(|e| e.to_string())
    );
    assert_eq!(r.out, expected, "{name}");
}

#[test]
#[ignore]
fn nfib30() {
    check("nfib30");
}

#[test]
#[ignore]
fn queens10() {
    check("queens10");
}

#[test]
#[ignore]
fn primes2000() {
    check("primes2000");
}

#[test]
#[ignore]
fn tak() {
    check("tak");
}

#[test]
#[ignore]
fn foldl_leak() {
    check("foldl_leak");
}

#[test]
#[ignore]
fn pipeline() {
    check("pipeline");
}
