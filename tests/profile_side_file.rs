//! The side file `NAME.pgcl.src` (src/profile/side_file.rs) through the
//! binaries: `stg-run` writes it beside the profile; `stg-prof` shows its
//! source locations (GHC's SRC column) and says what a tick is, and does
//! without it, with a warning where it is of another run or malformed.
//! Titles are the program's name whatever the profile file is called.

mod cli_common;

use std::path::Path;
use std::process::Command;

use cli_common::{scratch, stg_prof, stg_prof_run, text};

/// Runs `stg-run programs/<program>.stg ARGS --profile-file <dir>/<file>`
/// from the repository's root.
fn profile(dir: &Path, program: &str, file: &str, args: &[&str]) -> std::path::PathBuf {
    let path = dir.join(file);
    let out = Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .arg(format!("programs/{program}.stg"))
        .args(args)
        .arg("--profile-file")
        .arg(&path)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    path
}

const STACKS: &[&str] = &["--reproducible", "--cost-centres=stacks", "--auto-cc=all"];

#[test]
fn the_report_shows_sources_and_steps_and_the_programs_name() {
    let dir = scratch("profile_side_file", "shown");
    // A file name that is not the program's: the title is still `nfib`.
    let file = profile(&dir, "nfib", "tmp-3f9a.pgcl", STACKS);
    assert!(dir.join("tmp-3f9a.pgcl.src").is_file());
    let report = stg_prof(&["report"], &file);
    assert!(report.starts_with("\tnfib Time and Allocation Profiling Report\n"));
    assert!(report.contains("\ttotal steps =      115,390 "), "{report}");
    assert!(!report.contains("secs"));
    assert!(report.contains("COST CENTRE  MODULE   SRC  "), "{report}");
    // nfib's binding is at line 16, column 1 of programs/nfib.stg.
    assert!(report.contains("   nfib      nfib     programs/nfib.stg:16:1 "));
    assert!(report.contains("MAIN         MAIN     <built-in> "));
    assert!(report.contains(" CAF         nfib     <entire-module> "));
    let callgrind = stg_prof(&["callgrind"], &file);
    assert!(callgrind.contains("cmd: nfib\n"));
    assert!(callgrind.contains("desc: Clock: machine steps (a tick is one step)\n"));
    let page = stg_prof(&["html"], &file);
    assert!(page.contains("<title>nfib "));

    // Without the side file: no SRC column, ticks of an unknown clock.
    std::fs::remove_file(dir.join("tmp-3f9a.pgcl.src")).unwrap();
    let out = stg_prof_run(&["report"], &file);
    assert!(out.status.success() && out.stderr.is_empty());
    let report = text(&out.stdout);
    assert!(!report.contains("SRC"));
    assert!(report.contains("\ttotal ticks =      115,390        (clock frequency not recorded)"));
}

#[test]
fn a_side_file_of_another_run_or_malformed_is_done_without() {
    let dir = scratch("profile_side_file", "stale");
    let file = profile(&dir, "nfib", "nfib.pgcl", STACKS);
    let other = profile(&dir, "queens", "queens.pgcl", STACKS);
    let side = dir.join("nfib.pgcl.src");
    std::fs::copy(dir.join("queens.pgcl.src"), &side).unwrap();
    let out = stg_prof_run(&["report"], &file);
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("nfib.pgcl.src: it lists") && err.contains("of another run"),
        "{err}"
    );
    assert!(!text(&out.stdout).contains("SRC"));
    drop(other);

    for (bytes, says) in [
        (&b"not a side file\n"[..], "line 1 is not"),
        (
            &b"stg-run source locations 1\nclock sundials\n"[..],
            "line 2",
        ),
        (&b"\xff\xfe"[..], "not UTF-8"),
    ] {
        std::fs::write(&side, bytes).unwrap();
        let out = stg_prof_run(&["report"], &file);
        assert!(out.status.success());
        let err = text(&out.stderr);
        assert!(err.contains(says), "{err}");
        assert!(err.contains("going on without source locations"), "{err}");
    }
}

/// With the cycles clock (x86-64's time-stamp counter), the header gives
/// seconds, from the frequency the run measured.
#[test]
fn the_cycles_clock_is_shown_in_seconds() {
    let dir = scratch("profile_side_file", "cycles");
    let file = profile(&dir, "nfib", "nfib.pgcl", &["--clock=cycles"]);
    let report = stg_prof(&["report"], &file);
    let line = report.lines().nth(2).unwrap();
    assert!(
        line.starts_with("\ttotal time  = ")
            && line.contains(" secs   (")
            && line.contains(" cycles @ "),
        "{report}"
    );
    assert!(!report.contains("total steps"));
}

/// A profile written to a device gets no side file beside it.
#[test]
fn no_side_file_beside_a_device() {
    let dir = scratch("profile_side_file", "device");
    let out = Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .arg(cli_common::program("nfib.stg"))
        .args(["--profile-file", "/dev/null"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(!Path::new("/dev/null.src").exists());
}
