//! The library API, re-exported at the crate root: [`Run`] runs a program
//! and gives back its output, how it ended ([`Exit`]) and its [`Profile`];
//! [`Profile`] reads and writes `.pgcl` files and renders the reports
//! `stg-prof` prints. Everything a program that drives stg-run from Rust
//! needs is here; the other modules are the implementation.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::files;
use crate::machine::{self, RunOptions};
use crate::profile;
use crate::stg::auto_cc;
use crate::stg::diagnostic;
use crate::stg::load;
use crate::stg::source::SourceMap;

#[doc(inline)]
pub use crate::machine::{CostCentreMode, Engine, ErrorKind, RuntimeError, Stats};
#[doc(inline)]
pub use crate::profile::format::{FormatError, WriteError};
#[doc(inline)]
pub use crate::profile::view::report::{Options as ReportOptions, SortBy};
#[doc(inline)]
pub use crate::profile::{CostCentreDecl, Counters, Entry, Profile};
#[doc(inline)]
pub use crate::stg::auto_cc::AutoCc;

/// The largest source file [`Run::new`] reads, and the most output a run
/// keeps, unless [`Run::max_input_size`] or [`Run::max_output`] says
/// otherwise: 256 MB, as `stg-run`'s `--max-input-size`.
pub const DEFAULT_LIMIT_BYTES: u64 = files::DEFAULT_MAX_INPUT_BYTES;

/// The stack of the thread a run's loading and checking use: deeply nested
/// programs (up to the front end's nesting limits) need room, as in
/// `stg-run` itself.
const WORKER_STACK_BYTES: usize = 1 << 30;

/// One run of a program, set up with builder methods and started with
/// [`Run::run`] (output and exit only) or [`Run::profile`] (with the
/// profile). The defaults are `stg-run`'s: the bundled Prelude, the fast
/// engine, flat cost centres, no automatic cost centres, steps as the
/// clock, no step limit, heap and stack limits from the machine's memory.
///
/// ```
/// use stg_run::{AutoCc, CostCentreMode, Run};
///
/// let outcome = Run::new(["programs/nfib.stg"])
///     .auto_cc(AutoCc::Top)
///     .cost_centres(CostCentreMode::Stacks)
///     .profile()?;
/// assert_eq!(outcome.output, "1973\n");
/// assert!(outcome.exit.is_success());
/// let profile = outcome.profile.expect("asked for");
/// assert!(profile.report(&Default::default()).contains("nfib"));
/// # Ok::<(), stg_run::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Run {
    files: Vec<Source>,
    prelude: bool,
    auto_cc: AutoCc,
    options: RunOptions,
    max_input: u64,
    max_output: u64,
}

/// A module of the program: a file to read, or text given directly.
#[derive(Clone, Debug)]
enum Source {
    File(PathBuf),
    Text { name: String, text: String },
}

impl Run {
    /// A run of the program made of `files` (`.stg` modules, each named
    /// by its file stem), read when the run starts.
    ///
    /// ```
    /// let outcome = stg_run::Run::new(["programs/nfib.stg"]).run()?;
    /// assert_eq!(outcome.output, "1973\n");
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    pub fn new<P: AsRef<Path>>(files: impl IntoIterator<Item = P>) -> Run {
        Run {
            files: files
                .into_iter()
                .map(|p| Source::File(p.as_ref().to_path_buf()))
                .collect(),
            prelude: true,
            auto_cc: AutoCc::None,
            options: RunOptions::default(),
            max_input: DEFAULT_LIMIT_BYTES,
            max_output: DEFAULT_LIMIT_BYTES,
        }
    }

    /// A run of one module given as text; `name` is its file name in
    /// messages (`double.stg`) and its stem names the module.
    ///
    /// ```
    /// let program = "main = {} \\u {} -> timesInt {two, two}\n\
    ///                two = {} \\r {} -> I# {2#}\n";
    /// let outcome = stg_run::Run::from_source("double.stg", program).run()?;
    /// assert_eq!(outcome.output, "4\n");
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    pub fn from_source(name: impl Into<String>, text: impl Into<String>) -> Run {
        Run::new(Vec::<PathBuf>::new()).source(name, text)
    }

    /// Adds a module given as text (see [`Run::from_source`]).
    ///
    /// ```
    /// let outcome = stg_run::Run::from_source("main.stg", "main = {} \\u {} -> answer {}\n")
    ///     .source("lib.stg", "answer = {} \\r {} -> I# {42#}\n")
    ///     .run()?;
    /// assert_eq!(outcome.output, "42\n");
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    pub fn source(mut self, name: impl Into<String>, text: impl Into<String>) -> Run {
        self.files.push(Source::Text {
            name: name.into(),
            text: text.into(),
        });
        self
    }

    /// Adds a module read from `path` when the run starts.
    ///
    /// ```
    /// let run = stg_run::Run::new(Vec::<&str>::new()).file("programs/nfib.stg");
    /// assert_eq!(run.run()?.output, "1973\n");
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    pub fn file(mut self, path: impl AsRef<Path>) -> Run {
        self.files.push(Source::File(path.as_ref().to_path_buf()));
        self
    }

    /// Flat cost centres (the paper's: costs go to the innermost cost
    /// centre, the default) or GHC's cost-centre stacks
    /// (`--cost-centres`).
    ///
    /// ```
    /// use stg_run::{AutoCc, CostCentreMode, Run};
    ///
    /// let profile = Run::new(["programs/nfib.stg"])
    ///     .auto_cc(AutoCc::Top)
    ///     .cost_centres(CostCentreMode::Stacks)
    ///     .profile()?
    ///     .profile
    ///     .unwrap();
    /// // In stacks mode `nfib` sits under `main`, which called it.
    /// let report = profile.report(&Default::default());
    /// assert!(report.contains("  nfib"), "{report}");
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    pub fn cost_centres(mut self, mode: CostCentreMode) -> Run {
        self.options.cost_centres = mode;
        self
    }

    /// Which bindings get a cost centre of their own (`--auto-cc`): none
    /// (only the program's `scc`s; the default), every top-level binding,
    /// or every binding.
    ///
    /// ```
    /// use stg_run::{AutoCc, Run};
    ///
    /// let profile = Run::new(["programs/nfib.stg"]).auto_cc(AutoCc::Top).profile()?.profile.unwrap();
    /// assert!(profile.cost_centres.iter().any(|cc| cc.name == "nfib"));
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    pub fn auto_cc(mut self, mode: AutoCc) -> Run {
        self.auto_cc = mode;
        self
    }

    /// Which engine runs the program (`--engine`): both give the same
    /// output, errors and profile.
    ///
    /// ```
    /// use stg_run::{Engine, Run};
    ///
    /// let run = Run::new(["programs/nfib.stg"]).reproducible(true);
    /// let fast = run.profile()?;
    /// let reference = run.clone().engine(Engine::Reference).profile()?;
    /// assert_eq!(fast.output, reference.output);
    /// // With reproducible(true), so that the clock's frequency is left out.
    /// assert_eq!(fast.profile, reference.profile);
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    pub fn engine(mut self, engine: Engine) -> Run {
        self.options.engine = engine;
        self
    }

    /// Without the bundled Prelude (`--no-prelude`): the program defines
    /// everything it uses.
    ///
    /// ```
    /// let run = stg_run::Run::new(["programs/nfib.stg"]).prelude(false);
    /// // nfib uses the Prelude's arithmetic.
    /// assert!(run.run().is_err());
    /// ```
    pub fn prelude(mut self, with_prelude: bool) -> Run {
        self.prelude = with_prelude;
        self
    }

    /// Stop after this many machine steps (`--max-steps`), with
    /// [`ErrorKind::StepLimit`]; the profile is still built.
    ///
    /// ```
    /// use stg_run::{ErrorKind, Exit, Run};
    ///
    /// let outcome = Run::new(["programs/nfib.stg"]).max_steps(100).profile()?;
    /// let Exit::Error(error) = &outcome.exit else { panic!("ran to the end") };
    /// assert_eq!(error.kind, ErrorKind::StepLimit { limit: 100 });
    /// assert!(outcome.profile.is_some());
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    pub fn max_steps(mut self, steps: u64) -> Run {
        self.options.max_steps = Some(steps);
        self
    }

    /// The most bytes the heap may take (its nursery, both old spaces and
    /// the pointer bitmap)
    /// (`--max-heap`).
    ///
    /// ```
    /// let outcome = stg_run::Run::new(["programs/nfib.stg"]).max_heap(1 << 20).run()?;
    /// assert!(outcome.exit.is_success());
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    pub fn max_heap(mut self, bytes: u64) -> Run {
        self.options.max_heap = Some(bytes);
        self
    }

    /// The most bytes the machine's three stacks may take (`--max-stack`).
    ///
    /// ```
    /// let outcome = stg_run::Run::new(["programs/nfib.stg"]).max_stack(1 << 20).run()?;
    /// assert!(outcome.exit.is_success());
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    pub fn max_stack(mut self, bytes: u64) -> Run {
        self.options.max_stack = Some(bytes);
        self
    }

    /// The largest source file read (`--max-input-size`; default
    /// [`DEFAULT_LIMIT_BYTES`]).
    ///
    /// ```
    /// let error = stg_run::Run::new(["programs/nfib.stg"]).max_input_size(10).run().unwrap_err();
    /// assert!(error.to_string().contains("over the limit"), "{error}");
    /// ```
    pub fn max_input_size(mut self, bytes: u64) -> Run {
        self.max_input = bytes;
        self
    }

    /// The most output kept (default [`DEFAULT_LIMIT_BYTES`]): a program
    /// that prints more stops with [`ErrorKind::Output`], keeping what it
    /// printed up to the limit.
    ///
    /// ```
    /// use stg_run::{ErrorKind, Exit, Run};
    ///
    /// let outcome = Run::new(["programs/nfib.stg"]).max_output(2).run()?;
    /// assert_eq!(outcome.output, "19");
    /// assert!(matches!(&outcome.exit, Exit::Error(e) if matches!(e.kind, ErrorKind::Output { .. })));
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    pub fn max_output(mut self, bytes: u64) -> Run {
        self.max_output = bytes;
        self
    }

    /// Whether the profile's clock-dependent header fields are zeroed
    /// (`--reproducible`; off by default), so that two runs give the same
    /// bytes: for golden files. With the default clock (steps) every
    /// counter is the same on every machine anyway.
    ///
    /// ```
    /// use stg_run::{AutoCc, Run};
    ///
    /// let run = Run::new(["programs/nfib.stg"]).auto_cc(AutoCc::Top).reproducible(true);
    /// let a = run.profile()?.profile.unwrap().write()?;
    /// let b = run.profile()?.profile.unwrap().write()?;
    /// assert_eq!(a, b);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reproducible(mut self, reproducible: bool) -> Run {
        self.options.reproducible = reproducible;
        self
    }

    /// Runs the program without profiling (the fast engine then does no
    /// counting): [`Outcome::profile`] is `None`.
    ///
    /// ```
    /// let outcome = stg_run::Run::new(["programs/nfib.stg"]).run()?;
    /// assert_eq!((outcome.output.as_str(), outcome.profile), ("1973\n", None));
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A file that cannot be read, or a program with static errors
    /// ([`Error`]); a runtime error is not an `Err` but an
    /// [`Exit::Error`].
    pub fn run(&self) -> Result<Outcome, Error> {
        self.start(false)
    }

    /// Runs the program and builds its profile, also after a runtime
    /// error or a limit.
    ///
    /// ```
    /// use stg_run::{AutoCc, Run};
    ///
    /// let outcome = Run::new(["programs/nfib.stg"]).auto_cc(AutoCc::Top).profile()?;
    /// let profile = outcome.profile.unwrap();
    /// let nfib = profile.cost_centres.iter().position(|cc| cc.name == "nfib").unwrap();
    /// let calls: u64 = profile
    ///     .entries
    ///     .iter()
    ///     .filter(|e| e.cost_centre as usize == nfib + 1)
    ///     .map(|e| e.counters.strict_calls)
    ///     .sum();
    /// assert_eq!(calls, 1973);
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Run::run`].
    pub fn profile(&self) -> Result<Outcome, Error> {
        self.start(true)
    }

    /// Loads, checks and runs on a thread with room for deep nesting.
    fn start(&self, profile: bool) -> Result<Outcome, Error> {
        std::thread::scope(|s| {
            let worker = std::thread::Builder::new()
                .name("stg-run".into())
                .stack_size(WORKER_STACK_BYTES)
                .spawn_scoped(s, || self.execute(profile));
            match worker {
                Ok(handle) => match handle.join() {
                    Ok(result) => result,
                    Err(panic) => std::panic::resume_unwind(panic),
                },
                // No thread to be had: run here (the nesting limits still
                // bound the recursion).
                Err(_) => self.execute(profile),
            }
        })
    }

    fn execute(&self, profile: bool) -> Result<Outcome, Error> {
        let mut user_files = Vec::with_capacity(self.files.len());
        for source in &self.files {
            user_files.push(match source {
                Source::Text { name, text } => (name.clone(), text.clone()),
                Source::File(path) => {
                    let bytes =
                        files::read_input(path, self.max_input).map_err(|e| Error::Read {
                            path: path.clone(),
                            message: e.to_string(),
                        })?;
                    let text = String::from_utf8(bytes).map_err(|e| Error::Read {
                        path: path.clone(),
                        message: format!(
                            "cannot read {}: it is not UTF-8 text (invalid byte at offset {})",
                            path.display(),
                            e.utf8_error().valid_up_to()
                        ),
                    })?;
                    (path.display().to_string(), text)
                }
            });
        }
        if user_files.is_empty() {
            return Err(Error::Rejected {
                errors: 1,
                listing: "no source files: give Run::new a path, or Run::from_source a module\n"
                    .to_string(),
            });
        }
        let mut sources = SourceMap::new();
        let loaded =
            load::load_owned(&mut sources, user_files, self.prelude, true).map_err(|diags| {
                Error::Rejected {
                    errors: diags.iter().filter(|d| d.is_error()).count(),
                    listing: diagnostic::render_all(&diags, &sources, false),
                }
            })?;
        let warnings = diagnostic::render_all(&loaded.warnings, &sources, false);
        let mut program = loaded.program;
        auto_cc::apply(&mut program, self.auto_cc);

        let mut options = self.options.clone();
        options.no_profile = !profile;
        let mut out = BoundedBuffer {
            bytes: Vec::new(),
            limit: self.max_output,
        };
        let result = machine::run(&program, &sources, &options, &mut out, &mut io::sink());
        Ok(Outcome {
            output: String::from_utf8_lossy(&out.bytes).into_owned(),
            exit: match result.error {
                None => Exit::Success,
                Some(error) => Exit::Error(error),
            },
            profile: profile.then_some(result.profile),
            stats: result.stats,
            warnings,
        })
    }
}

/// Output kept in memory, refused past a limit.
struct BoundedBuffer {
    bytes: Vec<u8>,
    limit: u64,
}

impl Write for BoundedBuffer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let room = usize::try_from(self.limit)
            .unwrap_or(usize::MAX)
            .saturating_sub(self.bytes.len());
        if room == 0 && !buf.is_empty() {
            return Err(io::Error::other(format!(
                "the output is over the limit of {} bytes; raise it with Run::max_output",
                self.limit
            )));
        }
        let n = buf.len().min(room);
        self.bytes.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What a run gave back.
///
/// ```
/// let outcome = stg_run::Run::new(["programs/no_match.stg"]).run()?;
/// // What was printed before the error stays.
/// assert_eq!(outcome.output, "[1,2,");
/// assert_eq!(outcome.exit.status(), 3);
/// assert!(outcome.stats.steps > 0);
/// # Ok::<(), stg_run::Error>(())
/// ```
#[derive(Debug)]
pub struct Outcome {
    /// What the program printed: the value of `main`, as far as it got.
    pub output: String,
    /// Whether the run ended well, and if not why.
    pub exit: Exit,
    /// The profile, from [`Run::profile`]; `None` from [`Run::run`].
    pub profile: Option<Profile>,
    /// Steps, allocation, collections and time (`--stats`).
    pub stats: Stats,
    /// The checker's warnings, rendered as `stg-run` prints them (empty
    /// when there are none).
    pub warnings: String,
}

/// How a run ended.
///
/// ```
/// use stg_run::{Exit, Run};
///
/// assert_eq!(Run::new(["programs/nfib.stg"]).run()?.exit, Exit::Success);
/// # Ok::<(), stg_run::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// `main`'s value was printed in full.
    Success,
    /// A runtime error, a limit, or a failed write of the output stopped
    /// the run; its `Display` is `stg-run`'s message.
    Error(RuntimeError),
}

impl Exit {
    /// Whether the run ended well.
    ///
    /// ```
    /// assert!(stg_run::Exit::Success.is_success());
    /// ```
    pub fn is_success(&self) -> bool {
        matches!(self, Exit::Success)
    }

    /// `stg-run`'s exit status for this ending: 0 success, 3 a runtime
    /// error or a limit, 130 an interrupt, 1 a failed write.
    ///
    /// ```
    /// let outcome = stg_run::Run::new(["programs/nfib.stg"]).max_steps(10).run()?;
    /// assert_eq!(outcome.exit.status(), 3);
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    pub fn status(&self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::Error(e) => match e.kind {
                ErrorKind::Interrupted => 130,
                ErrorKind::Output { .. } => 1,
                _ => 3,
            },
        }
    }
}

/// Why a program was not run.
///
/// ```
/// let error = stg_run::Run::from_source("bad.stg", "main = {} \\u {} -> nope {}\n")
///     .run()
///     .unwrap_err();
/// assert!(matches!(error, stg_run::Error::Rejected { errors: 1, .. }));
/// assert!(error.to_string().contains("nope"), "{error}");
/// ```
#[derive(Debug)]
pub enum Error {
    /// A source file could not be read; `message` says why and what to do.
    Read { path: PathBuf, message: String },
    /// The program has static errors: `listing` shows each with its place
    /// and a hint, as `stg-run` prints them (without colour).
    Rejected { errors: usize, listing: String },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Read { message, .. } => f.write_str(message),
            Error::Rejected { errors, listing } => write!(
                f,
                "{listing}{errors} error{} found; the program was not run",
                if *errors == 1 { "" } else { "s" }
            ),
        }
    }
}

impl std::error::Error for Error {}

/// Why a profile file could not be read.
///
/// ```
/// let error = stg_run::Profile::read_file("no-such.pgcl").unwrap_err();
/// assert!(error.to_string().contains("no-such.pgcl"), "{error}");
/// ```
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be read (missing, not a regular file, too large).
    Input(String),
    /// The bytes are not a well-formed profile.
    Format { path: PathBuf, error: FormatError },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Input(message) => f.write_str(message),
            ReadError::Format { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reading, writing and rendering profiles.
impl Profile {
    /// Decodes a `.pgcl` file's bytes.
    ///
    /// ```
    /// use stg_run::{AutoCc, Profile, Run};
    ///
    /// let profile = Run::new(["programs/nfib.stg"]).auto_cc(AutoCc::Top).profile()?.profile.unwrap();
    /// assert_eq!(Profile::read(&profile.write()?)?, profile);
    /// assert!(Profile::read(b"not a profile").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Bytes that are not a profile, with the offset and field where
    /// reading stopped.
    pub fn read(bytes: &[u8]) -> Result<Profile, FormatError> {
        profile::format::read(bytes)
    }

    /// Reads a `.pgcl` file of at most [`DEFAULT_LIMIT_BYTES`].
    ///
    /// ```
    /// use stg_run::{AutoCc, Profile, Run};
    ///
    /// let path = std::env::temp_dir().join(format!("stg-run-doc-{}.pgcl", std::process::id()));
    /// let profile = Run::new(["programs/nfib.stg"]).auto_cc(AutoCc::Top).profile()?.profile.unwrap();
    /// profile.write_file(&path)?;
    /// assert_eq!(Profile::read_file(&path)?, profile);
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A file that cannot be read, or is not a profile ([`ReadError`]).
    pub fn read_file(path: impl AsRef<Path>) -> Result<Profile, ReadError> {
        let path = path.as_ref();
        let bytes = files::read_input(path, DEFAULT_LIMIT_BYTES)
            .map_err(|e| ReadError::Input(e.to_string()))?;
        Profile::read(&bytes).map_err(|error| ReadError::Format {
            path: path.to_path_buf(),
            error,
        })
    }

    /// Encodes the profile as a `.pgcl` file's bytes.
    ///
    /// ```
    /// let profile = stg_run::Run::new(["programs/nfib.stg"]).profile()?.profile.unwrap();
    /// assert!(profile.write()?.starts_with(b"prof"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A profile that is not well formed (built by hand with ids out of
    /// range, say); a run's profile always is.
    pub fn write(&self) -> Result<Vec<u8>, WriteError> {
        profile::format::try_write(self)
    }

    /// Writes the profile to `path`, whole or not at all (a temporary file
    /// renamed over it).
    ///
    /// ```
    /// let path = std::env::temp_dir().join(format!("stg-run-doc-w{}.pgcl", std::process::id()));
    /// let profile = stg_run::Run::new(["programs/nfib.stg"]).profile()?.profile.unwrap();
    /// profile.write_file(&path)?;
    /// assert_eq!(std::fs::read(&path)?, profile.write()?);
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The file cannot be written, or the profile is not well formed.
    pub fn write_file(&self, path: impl AsRef<Path>) -> io::Result<()> {
        profile::format::write_file_atomic(path.as_ref(), self)
    }

    /// The report `stg-prof report` prints, laid out like GHC's `.prof`:
    /// the top cost centres, then the call tree. [`ReportOptions`] holds
    /// `stg-prof report`'s options (`program` names the run in the
    /// header).
    ///
    /// ```
    /// use stg_run::{AutoCc, ReportOptions, Run, SortBy};
    ///
    /// let profile = Run::new(["programs/nfib.stg"]).auto_cc(AutoCc::Top).profile()?.profile.unwrap();
    /// let options = ReportOptions { program: "nfib".into(), sort: SortBy::Alloc, ..Default::default() };
    /// let report = profile.report(&options);
    /// assert!(report.contains("COST CENTRE"));
    /// assert!(report.lines().any(|l| l.starts_with("nfib ")), "{report}");
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    pub fn report(&self, options: &ReportOptions) -> String {
        profile::view::report::report(self, options)
    }

    /// The profile as a callgrind file (`stg-prof callgrind`), for
    /// KCacheGrind or `callgrind_annotate`, named after the profile's
    /// program (its last module); without the side file's source lines.
    ///
    /// ```
    /// let profile = stg_run::Run::new(["programs/nfib.stg"]).profile()?.profile.unwrap();
    /// assert!(profile.callgrind().contains("events:"));
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    pub fn callgrind(&self) -> String {
        profile::view::callgrind::callgrind(self, &profile::side_file::SideInfo::default())
    }

    /// The profile as one HTML page (`stg-prof html`): the cost-centre
    /// table, the call tree, the flame graph and the callers view, titled
    /// with the profile's program (its last module).
    ///
    /// ```
    /// let profile = stg_run::Run::new(["programs/nfib.stg"]).profile()?.profile.unwrap();
    /// assert!(profile.html().starts_with("<!DOCTYPE html>"));
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    pub fn html(&self) -> String {
        profile::view::html::html(self, &profile::side_file::SideInfo::default(), None)
    }

    /// Every field of the profile as text, in file order (`stg-prof
    /// dump`): a diff of two dumps shows what changed.
    ///
    /// ```
    /// let profile = stg_run::Run::new(["programs/nfib.stg"]).profile()?.profile.unwrap();
    /// assert!(profile.dump().contains("CAF"));
    /// # Ok::<(), stg_run::Error>(())
    /// ```
    pub fn dump(&self) -> String {
        profile::view::dump::dump(self)
    }
}
