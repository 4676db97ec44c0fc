//! The golden-file example of docs/GOLDEN.md, written as a user of the
//! library would write it, with the public API only (`stg_run::Run`,
//! `stg_run::Profile`): run a program with a reproducible profile, keep its
//! report as an `insta` snapshot, and fail when a change to the program or
//! to stg-run moves any number. With the default clock (machine steps) and
//! `reproducible(true)` the profile is the same on every run and machine,
//! so the snapshot is exact; `cargo insta review` shows a change as a diff.

use stg_run::{AutoCc, CostCentreMode, Exit, Profile, ReportOptions, Run};

/// The queens program's profile in stacks mode, a cost centre on every
/// top-level binding: the call tree GHC's `-prof -fprof-auto-top` shows.
#[test]
fn queens_profile_report_is_the_golden_one() {
    let outcome = Run::new(["programs/queens.stg"])
        .auto_cc(AutoCc::Top)
        .cost_centres(CostCentreMode::Stacks)
        .reproducible(true)
        .profile()
        .expect("queens.stg loads");
    assert_eq!(outcome.exit, Exit::Success);
    assert_eq!(
        outcome.output,
        "[[5,3,1,6,4,2],[4,1,5,2,6,3],[3,6,2,5,1,4],[2,4,6,1,3,5]]\n"
    );
    let profile = outcome.profile.expect("Run::profile builds one");

    // What a golden `.pgcl` file would hold reads back the same.
    let bytes = profile.write().expect("a run's profile is well formed");
    assert_eq!(Profile::read(&bytes).expect("reads back"), profile);

    let options = ReportOptions {
        program: "queens".into(),
        ..Default::default()
    };
    insta::assert_snapshot!(profile.report(&options));
}
