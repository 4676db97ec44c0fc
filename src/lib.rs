//! stg-run: an interpreter for the STG machine, the abstract machine under
//! GHC, in the notation of the 1992 STG paper, with cost-centre profiling
//! built into its semantics: flat, as in Sansom and Peyton Jones's
//! *Profiling lazy functional languages*, or GHC's cost-centre stacks.
//!
//! Most people use the two programs, `stg-run` (check, print, trace and run
//! a program, write its profile) and `stg-prof` (read a profile: reports,
//! callgrind files, HTML pages, dumps); the repository's `README.md` shows
//! them, `docs/LANGUAGE.md` is the language and `docs/SEMANTICS.md` the
//! machine, rule by rule.
//!
//! This crate's library API drives the same machine from Rust: [`Run`]
//! loads, checks and runs a program and gives back its output, how it ended
//! ([`Exit`]) and its [`Profile`]; a [`Profile`] is read from and written to
//! `.pgcl` files and rendered as the reports `stg-prof` prints.
//!
//! # Run a program and read its profile
//!
//! ```
//! use stg_run::{AutoCc, CostCentreMode, Exit, ReportOptions, Run};
//!
//! // A module in the paper's notation: nfib 15 counts its own calls.
//! let outcome = Run::new(["programs/nfib.stg"])
//!     .auto_cc(AutoCc::Top) // a cost centre on every top-level binding
//!     .cost_centres(CostCentreMode::Stacks) // as GHC's -prof
//!     .profile()?;
//! assert_eq!(outcome.output, "1973\n");
//! assert_eq!(outcome.exit, Exit::Success);
//!
//! let profile = outcome.profile.expect("Run::profile builds one");
//! let report = profile.report(&ReportOptions { program: "nfib".into(), ..Default::default() });
//! // The call tree: nfib, entered 1973 times, under main.
//! assert!(report.lines().any(|l| l.trim_start().starts_with("nfib") && l.contains(" 1973 ")), "{report}");
//! # Ok::<(), stg_run::Error>(())
//! ```
//!
//! # Programs given as text, and their errors
//!
//! ```
//! use stg_run::{Error, Run};
//!
//! let program = "\
//! main = {} \\u {} -> scc \"square\" (timesInt {seven, seven})
//! seven = {} \\r {} -> I# {7#}
//! ";
//! let outcome = Run::from_source("square.stg", program).profile()?;
//! assert_eq!(outcome.output, "49\n");
//! let profile = outcome.profile.unwrap();
//! assert!(profile.cost_centres.iter().any(|cc| cc.name == "square"));
//!
//! // A program with static errors is not run; the error lists them with
//! // their places, as stg-run prints them.
//! let error = Run::from_source("typo.stg", "main = {} \\u {} -> sevn {}\n").run().unwrap_err();
//! assert!(matches!(error, Error::Rejected { errors: 1, .. }));
//! assert!(error.to_string().contains("typo.stg:1:"), "{error}");
//! # Ok::<(), stg_run::Error>(())
//! ```
//!
//! # Runtime errors and limits
//!
//! A runtime error or a limit does not lose the run: the output so far,
//! the statistics and the profile come back with an [`Exit::Error`] that
//! says what happened, where, and what usually fixes it.
//!
//! ```
//! use stg_run::{ErrorKind, Exit, Run};
//!
//! let outcome = Run::new(["programs/nfib.stg"]).max_steps(1000).profile()?;
//! let Exit::Error(error) = &outcome.exit else { panic!("nfib 15 takes more than 1000 steps") };
//! assert_eq!(error.kind, ErrorKind::StepLimit { limit: 1000 });
//! assert_eq!(outcome.exit.status(), 3); // stg-run's exit status
//! assert!(outcome.profile.is_some());
//! # Ok::<(), stg_run::Error>(())
//! ```
//!
//! # Golden files
//!
//! With [`Run::reproducible`] and the default clock (machine steps), a
//! profile is the same, byte for byte, on every run and every machine:
//! keep its report as a golden file and compare (`docs/GOLDEN.md` shows
//! this with `insta`, in a shell script and in CI).
//!
//! ```
//! use stg_run::{AutoCc, Profile, Run};
//!
//! let run = Run::new(["programs/queens.stg"]).auto_cc(AutoCc::Top).reproducible(true);
//! let bytes = run.profile()?.profile.unwrap().write()?;
//! assert_eq!(bytes, run.profile()?.profile.unwrap().write()?);
//! // Read back, it is the same profile; dump() shows every field, for diffs.
//! let profile = Profile::read(&bytes)?;
//! assert!(profile.dump().contains("queens"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The modules
//!
//! [`Run`], [`Profile`]'s methods and the types they name are the library
//! API. The implementation is in [`internal`], public only for the two
//! programs and the project's tests and not a stable interface:
//! `docs/ARCHITECTURE.md` maps it.

mod api;

pub use api::{DEFAULT_LIMIT_BYTES, Error, Exit, Outcome, ReadError, Run};
// Items that live in the implementation's modules, shown here as part of
// the API.
#[doc(inline)]
pub use api::{
    AutoCc, CostCentreDecl, CostCentreMode, Counters, Engine, Entry, ErrorKind, FormatError,
    Profile, ReportOptions, RuntimeError, SortBy, Stats, WriteError,
};

/// The interpreter's inner workings: the language, the machine, the
/// collector, the profile format and the command-line plumbing.
///
/// **Internal: not a stable interface.** The `stg-run` and `stg-prof`
/// binaries and the project's own tests use it, and it changes whenever the
/// implementation does. Programs that drive stg-run from Rust use the items
/// at the crate root instead.
#[path = "."]
pub mod internal {
    pub mod cli;
    pub mod files;
    pub mod gc;
    pub mod machine;
    pub mod profile;
    pub mod stg;
    pub mod stop;
}
#[allow(unused_imports)]
pub(crate) use internal::{cli, files, gc, machine, profile, stg, stop};
/// rustc's Fx hash, for the hash maps keyed by names and ids.
pub(crate) mod fx_hash;

/// The README's Rust example, run as a doc test so that it cannot drift.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
