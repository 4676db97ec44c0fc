//! A crate outside the repository's package, `tests/fixtures/api_user`,
//! with a path dependency on stg-run, is built with cargo and run: through
//! the public API only, it runs a program, writes its profile to a file,
//! reads it back and prints its report. This proves the API is enough for
//! a user's own project (nothing of the implementation's modules needed)
//! and that it builds as a dependency.
//!
//! The fixture builds into `target/api_user` (its own target folder:
//! cargo's lock on this one is held while the tests run); the first build
//! compiles the dependencies once, later ones only what changed.

use std::path::Path;
use std::process::Command;

#[test]
fn an_outside_crate_runs_a_program_and_reads_its_profile_through_the_api() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixture = root.join("tests/fixtures/api_user");
    let target = root.join("target/api_user");
    let profile = target.join("queens.pgcl");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args(["run", "--quiet", "--locked", "--manifest-path"])
        .arg(fixture.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        .arg("--")
        .arg(root.join("programs/queens.stg"))
        .arg(&profile)
        // The outer cargo's settings are for this package, not the fixture.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the fixture failed: {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status
    );
    let expected_output = std::fs::read_to_string(root.join("programs/queens.stdout")).unwrap();
    let mut lines = stdout.lines();
    assert_eq!(
        lines.next(),
        Some(format!("output: {}", expected_output.trim_end()).as_str()),
        "{stdout}"
    );
    assert_eq!(lines.next(), Some("status: 0"), "{stdout}");
    assert_eq!(lines.next(), Some("read back: same"), "{stdout}");
    let report: String = lines.map(|l| format!("{l}\n")).collect();

    // The report is the one stg-prof prints for the same profile.
    let prof = Command::new(env!("CARGO_BIN_EXE_stg-prof"))
        .arg("report")
        .arg(&profile)
        .output()
        .expect("stg-prof runs");
    assert!(
        prof.status.success(),
        "{}",
        String::from_utf8_lossy(&prof.stderr)
    );
    let from_cli = String::from_utf8_lossy(&prof.stdout);
    // Only the header's program name differs (the fixture names it).
    let body = |r: &str| {
        r.lines()
            .skip_while(|l| !l.starts_with("COST CENTRE"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        body(&report),
        body(&from_cli),
        "fixture:\n{report}\nstg-prof:\n{from_cli}"
    );
    // And it has the program's own cost centres, with entries.
    assert!(
        report
            .lines()
            .any(|l| l.trim_start().starts_with("queens ")),
        "{report}"
    );
}
