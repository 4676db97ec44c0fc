//! Timing of the reference engine on the benchmark programs (ignored by
//! default; run with `cargo test --release --test machine_bench -- --ignored --nocapture`).

mod machine_common;
use machine_common::*;
use stg_run::stg::auto_cc::AutoCc;

#[test]
#[ignore]
fn bench_programs() {
    for entry in std::fs::read_dir("bench/programs").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("stg") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let expected = std::fs::read_to_string(path.with_extension("stdout")).unwrap_or_default();
        let t = std::time::Instant::now();
        let r = run_text(path.to_str().unwrap(), &text, true, AutoCc::None, &flat());
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{}: {} steps in {:.2}s ({:.1} M steps/s), {} collections, ok={}",
            path.display(),
            r.result.stats.steps,
            secs,
            r.result.stats.steps as f64 / secs / 1e6,
            r.result.stats.collections,
            r.out == expected && r.result.error.is_none()
        );
        assert_eq!(r.out, expected, "{:?}", r.result.error);
    }
}
