//! The STG machine: state, the rules (reference engine), the result printer.
//!
//! Entry point: [`run`]. The program must be checked (`stg::check`) and have
//! had `stg::auto_cc::apply` run on it.
//!
//! # Observable choices (where the spec leaves room)
//!
//! - The result is printed as LANGUAGE.md "The result" says, streaming to
//!   `out` as it is forced, under `MAIN`, each field forced by the machine
//!   from `Enter v` with empty stacks (those steps count like any other).
//!   A function value (or a partial application) prints as `<function>`. A
//!   `Cons` whose tail turns out not to be a list prints as `[1,2|tail]`.
//! - Ticks: a step is charged to the entry current *before* its rule fires,
//!   except in a row of frame pops (16/16′/17a/17a′ back to back), which is
//!   charged to the entry current before the first of the row (hidden
//!   execution). See [`mod@reference`] for every counter.
//! - Rule 4 remembers the height of `as`: a scrutinee sees only arguments
//!   pushed after its `case`.
//! - `--max-heap` bounds every space the heap holds at once;
//!   `--max-stack` bounds the three stacks in 16-byte slots, the size of a
//!   value (one slot per argument, environment size + 3 slots per case
//!   continuation, 4 slots per frame), so that the memory the engines'
//!   stacks take stays within it. Without flags each is a share of the
//!   memory available ([`crate::gc::memory_limit`]).
//! - Rule 4's continuation saves only its alternatives' free variables
//!   (`ExprCode::Case::saves`), as GHC's does: a variable the alternatives
//!   never use is not kept alive by it. `--max-stack` still counts it as
//!   its whole environment and 3 (the fast engine keeps the frame whole).
//! - Text trace: one line per step, written *before* the rule fires: step
//!   number, rule, the code (source text of the expression, or the closure
//!   entered, or the value returned), then `as=depth:top rs=depth:case
//!   location us=depth:frame` and the current cost centre (stack). If the
//!   rule then fails, the error follows the line. JSON trace
//!   ([`explain`], docs/TRACE-FORMAT.md): a header with the program, then
//!   one record a line of what each step changed, closures named by
//!   allocation order.
//!
//! Layout: [`code`] is the resolved program both engines run, [`lower`]
//! builds it; [`mod@reference`] is the reference engine (one rule per step, rule
//! functions named after SEMANTICS.md's table); the heap lives in
//! [`crate::gc`]; cost-centre tables and stacks in
//! [`crate::profile::cost_centre`] and [`crate::profile::stacks`].

use std::fmt;
use std::io::Write;
use std::time::Duration;

use crate::profile::Profile;
use crate::stg::source::SourceMap;
use crate::stg::syntax::Program;

pub mod accounting;
pub mod code;
mod common;
pub mod explain;
pub mod fast;
pub mod heap_profile;
pub mod lower;
pub mod primitives;
pub mod reference;
mod result;

/// Which engine runs the program: the threaded interpreter [`fast`] (the
/// default; with a trace requested, the reference engine runs instead, as
/// only it traces) or the rule-at-a-time [`reference`](mod@reference)
/// engine. Both give the same output, errors, `--reproducible` profile and
/// heap profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Engine {
    Reference,
    #[default]
    Fast,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CostCentreMode {
    #[default]
    Flat,
    Stacks,
}

/// What a profile tick is (SEMANTICS.md, "Clocks").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Clock {
    /// One tick per machine step (deterministic).
    #[default]
    Steps,
    /// Time-stamp-counter cycles (x86-64; nanoseconds elsewhere), read at
    /// each change of entry, garbage collection excluded. Fast engine only:
    /// the reference engine counts steps whatever this says.
    Cycles,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceFormat {
    /// One line per step.
    Text,
    /// One JSON object per line per step.
    Json,
}

#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    pub engine: Engine,
    pub cost_centres: CostCentreMode,
    /// Stop with an error after this many steps.
    pub max_steps: Option<u64>,
    /// Bytes; default a share of the memory available
    /// (`gc::memory_limit::heap_limit`).
    pub max_heap: Option<u64>,
    /// Bytes; default a share of the memory available
    /// (`gc::memory_limit::stack_limit`).
    pub max_stack: Option<u64>,
    /// Collect at every allocation.
    pub gc_stress: bool,
    pub trace: Option<TraceFormat>,
    /// Zero every clock-dependent profile header field.
    pub reproducible: bool,
    /// Take a heap census (`--heap-profile`); `RunResult::heap_profile`.
    pub heap_profile: Option<heap_profile::HeapProfileBy>,
    /// Steps between censuses (`--heap-interval`); 0 means 100,000.
    pub heap_interval: u64,
    /// The heap profile's header, band names and size budget.
    pub heap_profile_options: heap_profile::HeapProfileOptions,
    /// No profile is wanted: the fast engine skips its counters (the
    /// profile it returns is then empty). Off by default, so a default
    /// `RunOptions` profiles; the CLI sets it unless --profile or
    /// --profile-file is given. The reference engine ignores it.
    pub no_profile: bool,
    pub clock: Clock,
    /// A request to stop: when the flag is set, the run stops before its
    /// next rule (within `common::INTERRUPT_POLL_STEPS` steps, and within
    /// about 5 ms however slow the steps are: see `common::Interrupt`) with
    /// [`ErrorKind::Interrupted`], and the profile is built as after any
    /// error. The CLI sets it on Ctrl-C (and SIGTERM, SIGHUP).
    pub interrupt: Option<&'static std::sync::atomic::AtomicBool>,
    /// Collect once more when the run ends (after its last census), so
    /// that [`Stats::max_residency_bytes`] includes the live data at the
    /// end, as GHC's final collection does: `--stats` sets it. Off by
    /// default: the collection copies the live heap once more.
    pub final_collection: bool,
}

/// Statistics of a run, printed like GHC's `+RTS -s` by `Display`.
///
/// Times come in pairs: CPU time of the thread that ran the machine (what
/// `+RTS -s` calls `time`, and what productivity is computed from) and
/// wall-clock time (`elapsed`), which a loaded machine inflates.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub steps: u64,
    pub bytes_allocated: u64,
    /// Both generations'.
    pub bytes_copied: u64,
    /// Both generations'.
    pub collections: u64,
    /// Generation 0 (the nursery: minor collections) and 1 (the old
    /// generation: major collections).
    pub generations: [crate::gc::GenStats; 2],
    /// The most live data measured: exact at each major collection, and
    /// at the end of the run under [`RunOptions::final_collection`].
    pub max_residency_bytes: u64,
    /// How many measures `max_residency_bytes` is the largest of.
    pub residency_samples: u64,
    /// The process's peak resident set when the run ended (heap, stacks,
    /// the collector's spaces and bitmap, the program): GHC's "total
    /// memory in use". `None` where the system does not say.
    pub peak_memory_bytes: Option<u64>,
    /// Wall-clock time outside the collector.
    pub mutator_time: Duration,
    /// Wall-clock time in the collector.
    pub gc_time: Duration,
    /// CPU time outside the collector.
    pub mutator_cpu_time: Duration,
    /// CPU time in the collector.
    pub gc_cpu_time: Duration,
    /// The longest collection, wall-clock.
    pub max_pause: Duration,
}

fn commas(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `part` as a percentage of `whole` (100 when `whole` is zero: a run too
/// short to measure spent all of it in the mutator).
fn percent(part: f64, whole: f64) -> f64 {
    if whole > 0.0 {
        100.0 * part / whole
    } else {
        100.0
    }
}

impl fmt::Display for Stats {
    /// GHC's `+RTS -s` layout and names, for the figures stg-run has
    /// (two generations; no INIT, EXIT, slop or parallel figures), plus
    /// the machine steps.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:>16} bytes allocated in the heap",
            commas(self.bytes_allocated)
        )?;
        writeln!(
            f,
            "{:>16} bytes copied during GC",
            commas(self.bytes_copied)
        )?;
        writeln!(
            f,
            "{:>16} bytes maximum residency ({} sample(s))",
            commas(self.max_residency_bytes),
            self.residency_samples
        )?;
        if let Some(bytes) = self.peak_memory_bytes {
            writeln!(
                f,
                "{:>16} MiB total memory in use (the process's peak resident set)",
                commas((bytes + (1 << 19)) >> 20)
            )?;
        }
        writeln!(f, "{:>16} collections", commas(self.collections))?;
        writeln!(f, "{:>16} machine steps", commas(self.steps))?;
        writeln!(f)?;
        let gc_cpu = self.gc_cpu_time.as_secs_f64();
        let gc_wall = self.gc_time.as_secs_f64();
        writeln!(
            f,
            "                                                       Tot time (elapsed)  Avg pause  Max pause"
        )?;
        for (i, g) in self.generations.iter().enumerate() {
            let avg_pause = if g.collections > 0 {
                g.elapsed.as_secs_f64() / g.collections as f64
            } else {
                0.0
            };
            writeln!(
                f,
                "  Gen  {i}  {:>10} colls, {:>17} bytes copied  {:6.3}s  {:6.3}s     {avg_pause:3.4}s    {:3.4}s",
                commas(g.collections),
                commas(g.bytes_copied),
                g.cpu.as_secs_f64(),
                g.elapsed.as_secs_f64(),
                g.max_pause.as_secs_f64()
            )?;
        }
        writeln!(f)?;
        let mut_cpu = self.mutator_cpu_time.as_secs_f64();
        let mut_wall = self.mutator_time.as_secs_f64();
        let total_cpu = mut_cpu + gc_cpu;
        let total_wall = mut_wall + gc_wall;
        writeln!(
            f,
            "  MUT     time  {mut_cpu:7.3}s  ({mut_wall:7.3}s elapsed)"
        )?;
        writeln!(f, "  GC      time  {gc_cpu:7.3}s  ({gc_wall:7.3}s elapsed)")?;
        writeln!(
            f,
            "  Total   time  {total_cpu:7.3}s  ({total_wall:7.3}s elapsed)"
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "  %GC     time     {:5.1}%  ({:.1}% elapsed)",
            100.0 - percent(mut_cpu, total_cpu),
            100.0 - percent(mut_wall, total_wall)
        )?;
        writeln!(f)?;
        let rate = if mut_cpu > 0.0 {
            (self.bytes_allocated as f64 / mut_cpu) as u64
        } else {
            0
        };
        writeln!(f, "  Alloc rate    {} bytes per MUT second", commas(rate))?;
        writeln!(f)?;
        writeln!(
            f,
            "  Productivity {:5.1}% of total user, {:.1}% of total elapsed",
            percent(mut_cpu, total_cpu),
            percent(mut_wall, total_wall)
        )
    }
}

/// What went wrong at run time (SEMANTICS.md, "Runtime errors").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// No alternative matches and there is no default.
    NoMatchingAlternative {
        value: String,
    },
    /// Entering a black hole: a thunk that needs its own value.
    Loop,
    /// Entering a `\s` closure a second time.
    SingleEntryTwice {
        closure: String,
    },
    /// `ReturnInt` meeting an update frame.
    IntUpdate {
        value: i64,
    },
    /// A constructor (or `Int#`) returned while arguments are pending.
    PendingArguments {
        value: String,
        pending: usize,
    },
    /// An `Int#` where a closure is needed.
    IntNotClosure {
        value: i64,
    },
    /// A closure where an `Int#` is needed.
    ClosureNotInt,
    /// A literal case scrutinising a constructor.
    ConInLiteralCase {
        con: String,
    },
    /// An algebraic case scrutinising an `Int#`.
    IntInAlgebraicCase {
        value: i64,
    },
    /// A case scrutinising a function.
    FunctionInCase {
        closure: String,
    },
    DivisionByZero,
    StepLimit {
        limit: u64,
    },
    /// `RunOptions::interrupt` was set (Ctrl-C).
    Interrupted,
    HeapLimit {
        limit_bytes: u64,
        live_bytes: u64,
        /// Where the limit came from (`None`: `--max-heap` gave it as it
        /// is; [`crate::gc::memory_limit::Limit`]). Boxed, to leave room
        /// for `reserved_less` in the error's size.
        default_of: Option<Box<str>>,
        /// The system would not reserve the address space asked for, so
        /// the limit is less: a larger `--max-heap` would not help.
        reserved_less: bool,
    },
    StackLimit {
        limit_bytes: u64,
        /// Where the limit came from (`None`: `--max-stack` gave it).
        default_of: Option<String>,
    },
    /// The stacks passed `room_bytes` (as `--max-stack` counts them),
    /// under their limit, and the system would not give them memory to
    /// grow.
    StackMemory {
        room_bytes: u64,
        limit_bytes: u64,
    },
    /// `--max-heap` leaves no room for the program's top-level closures,
    /// which are made before the first step.
    GlobalsDoNotFit {
        globals: usize,
        needed_bytes: u64,
        limit_bytes: u64,
        /// The most live data the heap holds under the limit (one old
        /// space: the rest is the nursery, the copy reserve and the
        /// pointer bitmap).
        live_capacity_bytes: u64,
        /// The system would not reserve the address space asked for (as
        /// in `HeapLimit`).
        reserved_less: bool,
    },
    /// Writing the result or the trace failed (the program itself is fine).
    Output {
        stream: OutputStream,
        io: std::io::ErrorKind,
        message: String,
    },
    /// The program could not be prepared (not checked, or too deeply nested).
    Prepare {
        message: String,
    },
}

/// Where a run writes: the result (`out`) or the trace (`trace`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputStream {
    Result,
    Trace,
}

impl fmt::Display for OutputStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutputStream::Result => "result",
            OutputStream::Trace => "trace",
        })
    }
}

impl ErrorKind {
    /// A failed write to `stream`; a write that gave up waiting for room
    /// because a stop was requested ([`crate::stop::Stopped`]) is the
    /// interrupt.
    pub fn output(stream: OutputStream, e: &std::io::Error) -> ErrorKind {
        if crate::stop::Stopped::is(e) {
            return ErrorKind::Interrupted;
        }
        ErrorKind::Output {
            stream,
            io: e.kind(),
            message: e.to_string(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeError {
    pub kind: ErrorKind,
    /// The rule that could not fire (`"-"` when none is concerned).
    pub rule: &'static str,
    /// The current cost centre, or `MAIN > ...` in stacks mode.
    pub cost_centre: Box<str>,
    /// `file:line:col` of the source involved, when known.
    pub location: Option<String>,
    /// When that source is not the program's own (the Prelude, or code the
    /// machine makes): the innermost case or thunk of the program that was
    /// being evaluated, as `the case at file:line:col` or `` `name` at
    /// file:line:col ``.
    pub context: Option<Box<str>>,
    /// Steps done before the error.
    pub step: u64,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::NoMatchingAlternative { value } => {
                write!(f, "no matching alternative for {value}")
            }
            ErrorKind::Loop => write!(
                f,
                "<<loop>>: a thunk demanded its own value (entered a black hole)"
            ),
            ErrorKind::SingleEntryTwice { closure } => {
                write!(f, "single-entry (\\s) closure `{closure}` entered twice")
            }
            ErrorKind::IntUpdate { value } => {
                write!(
                    f,
                    "an unboxed Int# ({value}) was returned to an update frame: a \\u thunk cannot evaluate to an Int#"
                )
            }
            ErrorKind::PendingArguments { value, pending } => {
                write!(
                    f,
                    "{value} was returned while {pending} {} pending: it was applied like a function",
                    if *pending == 1 {
                        "argument was"
                    } else {
                        "arguments were"
                    }
                )
            }
            ErrorKind::IntNotClosure { value } => {
                write!(f, "an Int# ({value}) where a closure is needed")
            }
            ErrorKind::ClosureNotInt => write!(f, "a closure where an Int# is needed"),
            ErrorKind::ConInLiteralCase { con } => {
                write!(f, "a literal case scrutinised the constructor {con}")
            }
            ErrorKind::IntInAlgebraicCase { value } => {
                write!(f, "an algebraic case scrutinised the Int# {value}")
            }
            ErrorKind::FunctionInCase { closure } => {
                write!(
                    f,
                    "a case scrutinised the function `{closure}` (it lacks arguments)"
                )
            }
            ErrorKind::DivisionByZero => write!(f, "division by zero"),
            ErrorKind::StepLimit { limit } => {
                write!(
                    f,
                    "step limit of {limit} reached; raise it with --max-steps"
                )
            }
            ErrorKind::Interrupted => write!(
                f,
                "interrupted (Ctrl-C or a termination signal); what was printed and the profile so far are kept"
            ),
            ErrorKind::HeapLimit {
                limit_bytes,
                live_bytes,
                default_of,
                reserved_less,
            } => {
                write!(
                    f,
                    "heap exhausted: {live_bytes} bytes live, limit {limit_bytes} bytes{}; ",
                    default_note(default_of.as_deref())
                )?;
                if *reserved_less {
                    write!(
                        f,
                        "give the process more address space (ulimit -v) or memory: a larger \
                         --max-heap would not be reserved either"
                    )
                } else {
                    write!(
                        f,
                        "raise it with --max-heap{}",
                        example("--max-heap", limit_bytes.saturating_mul(2))
                    )
                }
            }
            ErrorKind::StackLimit {
                limit_bytes,
                default_of,
            } => {
                write!(
                    f,
                    "stack overflow: the stacks passed {limit_bytes} bytes{}; raise the limit with --max-stack{}",
                    default_note(default_of.as_deref()),
                    example("--max-stack", limit_bytes.saturating_mul(2))
                )
            }
            ErrorKind::StackMemory {
                room_bytes,
                limit_bytes,
            } => write!(
                f,
                "stack overflow: the stacks passed {room_bytes} bytes and the system would not give them more memory (their limit is {limit_bytes} bytes); give the process more memory or address space (ulimit -v)",
            ),
            ErrorKind::GlobalsDoNotFit {
                globals,
                needed_bytes,
                limit_bytes,
                live_capacity_bytes,
                reserved_less,
            } => {
                write!(
                    f,
                    "the program's {globals} top-level closures (Prelude included, made before the first step) take {needed_bytes} bytes, more than the {live_capacity_bytes} bytes of live data a heap limit of {limit_bytes} bytes holds (the rest is the nursery, the collector's copy reserve and its pointer bitmap); "
                )?;
                if *reserved_less {
                    write!(
                        f,
                        "the system would not reserve more address space for the heap: give the process more (ulimit -v) or memory"
                    )
                } else {
                    write!(
                        f,
                        "raise it with --max-heap{}",
                        // A small heap holds live data of about a third of
                        // its limit: four times the globals fit.
                        example(
                            "--max-heap",
                            limit_bytes
                                .saturating_mul(2)
                                .max(needed_bytes.saturating_mul(4))
                        )
                    )
                }
            }
            ErrorKind::Output {
                stream, message, ..
            } => write!(f, "could not write the {stream}: {message}"),
            ErrorKind::Prepare { message } => write!(f, "cannot run the program: {message}"),
        }
    }
}

impl ErrorKind {
    /// What to do about it, for the error's last line; `None` where the
    /// message says it already.
    pub fn help(&self) -> Option<&'static str> {
        Some(match self {
            ErrorKind::NoMatchingAlternative { .. } => {
                "give the case an alternative for this value or a `default`, or see why the scrutinee can be it"
            }
            ErrorKind::Loop => {
                "the thunk needs its own value to compute it: look for a cycle through the bindings it refers to"
            }
            ErrorKind::SingleEntryTwice { .. } => {
                "a `\\s` closure may be entered once only; mark it `\\u` to update it and share its value"
            }
            ErrorKind::IntUpdate { .. } => {
                "box the value (`I# {x}`) where a thunk returns an Int#, or compute the Int# in a `case` instead of a thunk"
            }
            ErrorKind::PendingArguments { .. } => {
                "a call passed more arguments than the function that returned this value takes: check the call's arity"
            }
            ErrorKind::IntNotClosure { .. } => {
                "an Int# cannot be applied or evaluated as a closure: box it (`I# {x}`) where a value is expected"
            }
            ErrorKind::ClosureNotInt => {
                "primitive operations take Int#s: unbox the value first (`case x of I# {x#} -> ...`)"
            }
            ErrorKind::ConInLiteralCase { .. } => {
                "match constructors with constructor alternatives, or unbox first (`case x of I# {x#} -> case x# of ...`)"
            }
            ErrorKind::IntInAlgebraicCase { .. } => {
                "match an Int# with literal alternatives (`0# -> ...`) or box it (`I# {x}`)"
            }
            ErrorKind::FunctionInCase { .. } => {
                "a case needs a value: give the function all its arguments before scrutinising its result"
            }
            ErrorKind::DivisionByZero => {
                "test the divisor before dividing (`case d of 0# -> ...; default -> ...`)"
            }
            ErrorKind::StepLimit { .. }
            | ErrorKind::Interrupted
            | ErrorKind::HeapLimit { .. }
            | ErrorKind::StackLimit { .. }
            | ErrorKind::StackMemory { .. }
            | ErrorKind::GlobalsDoNotFit { .. }
            | ErrorKind::Output { .. }
            | ErrorKind::Prepare { .. } => return None,
        })
    }
}

/// ` (e.g. --max-heap=2G)`: `flag` at `bytes` or just above, written
/// with the largest suffix that keeps it whole (rounded up), so that the
/// example is never below the limit it raises; nothing when no size the
/// flag takes is that large.
fn example(flag: &str, bytes: u64) -> String {
    let size = [(30, "G"), (20, "M"), (10, "K")]
        .into_iter()
        .find(|&(shift, _)| bytes >> shift > 0)
        .map(|(shift, suffix)| (bytes.div_ceil(1 << shift), suffix))
        .filter(|&(n, suffix)| crate::cli::parse_size(&format!("{n}{suffix}")).is_ok());
    match size {
        Some((n, suffix)) => format!(" (e.g. {flag}={n}{suffix})"),
        None if bytes > 0 && bytes < 1 << 10 => format!(" (e.g. {flag}={bytes})"),
        None => String::new(),
    }
}

/// ` (the default: 60% of ...)` for a limit no flag gave as it is.
fn default_note(default_of: Option<&str>) -> String {
    match default_of {
        Some(of) => format!(" ({of})"),
        None => String::new(),
    }
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "runtime error: {}", self.kind)?;
        // Where the machine was says nothing about a failed write, nor
        // before the first step.
        if let Some(loc) = &self.location
            && !matches!(
                self.kind,
                ErrorKind::Output { .. } | ErrorKind::GlobalsDoNotFit { .. }
            )
        {
            write!(f, "\n  at {loc}")?;
        }
        if let Some(context) = &self.context {
            write!(f, "\n  while evaluating {context}")?;
        }
        let limit = matches!(
            self.kind,
            ErrorKind::StepLimit { .. }
                | ErrorKind::HeapLimit { .. }
                | ErrorKind::StackLimit { .. }
                | ErrorKind::StackMemory { .. }
        );
        if self.rule != "-" {
            if limit {
                // The rule could fire; the limit stopped the machine first.
                write!(f, "\n  stopped before rule {} fired", self.rule)?;
            } else {
                write!(f, "\n  rule {} could not fire", self.rule)?;
            }
        }
        write!(f, "\n  cost centre: {}", self.cost_centre)?;
        let steps = if self.step == 1 { "step" } else { "steps" };
        write!(f, "\n  after {} {steps}", self.step)?;
        let help = match self.kind {
            // The case is not the program's: a Prelude function met a value
            // it does not take.
            ErrorKind::NoMatchingAlternative { .. } if self.context.is_some() => Some(
                "a Prelude function was given a value it has no alternative for (`head` or `tail` of `Nil`, `index` past the end of a list): see the program's code named above (`stg-run --print-prelude` shows the Prelude's lines)",
            ),
            _ => self.kind.help(),
        };
        if let Some(help) = help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for RuntimeError {}

/// What a run gives back. The profile is always built, also after an error
/// or a limit.
pub struct RunResult {
    pub error: Option<RuntimeError>,
    pub profile: Profile,
    pub stats: Stats,
    /// What the heap profile came to, when `RunOptions::heap_profile` asked
    /// for one: with its text, from [`run`]; written to the sink, from
    /// [`run_with_heap_sink`].
    pub heap_profile: Option<heap_profile::HeapProfileSummary>,
}

/// Run `program`: evaluate `main`, print its value to `out` as it is forced
/// (LANGUAGE.md "The result"), write a trace to `trace` if asked. A heap
/// profile, if asked for, is kept in memory: its text is in
/// [`RunResult::heap_profile`].
pub fn run(
    program: &Program,
    sources: &SourceMap,
    options: &RunOptions,
    out: &mut dyn Write,
    trace: &mut dyn Write,
) -> RunResult {
    run_with(program, sources, options, out, trace, None)
}

/// [`run`], writing the heap profile (if asked for) to `sink` as each
/// census is taken.
pub fn run_with_heap_sink(
    program: &Program,
    sources: &SourceMap,
    options: &RunOptions,
    out: &mut dyn Write,
    trace: &mut dyn Write,
    sink: heap_profile::HeapProfileSink<'_>,
) -> RunResult {
    run_with(program, sources, options, out, trace, Some(sink))
}

/// The heap profiler `options` ask for, writing to `sink` (in memory
/// without one).
pub(crate) fn heap_profiler<'w>(
    options: &RunOptions,
    sink: Option<heap_profile::HeapProfileSink<'w>>,
) -> Option<heap_profile::HeapProfiler<'w>> {
    let by = options.heap_profile?;
    let settings = &options.heap_profile_options;
    Some(match sink {
        Some(sink) => heap_profile::HeapProfiler::to_sink(by, options.cost_centres, settings, sink),
        None => heap_profile::HeapProfiler::in_memory(by, options.cost_centres, settings),
    })
}

/// `sink` taken apart and built again, so that the writers' lifetime can
/// be shortened to the code's (a `&mut` to a writer cannot be shortened
/// where it stands).
pub(crate) fn shorten<'s, 'l: 's>(
    sink: Option<heap_profile::HeapProfileSink<'l>>,
) -> Option<heap_profile::HeapProfileSink<'s>> {
    sink.map(
        |heap_profile::HeapProfileSink { hp, stacks }| heap_profile::HeapProfileSink { hp, stacks },
    )
}

fn run_with(
    program: &Program,
    sources: &SourceMap,
    options: &RunOptions,
    out: &mut dyn Write,
    trace: &mut dyn Write,
    sink: Option<heap_profile::HeapProfileSink<'_>>,
) -> RunResult {
    if options.trace == Some(TraceFormat::Json) {
        return explain::run(program, sources, options, out, trace, None, sink).result;
    }
    let code = match lower_for_run(program, sources) {
        Ok(code) => code,
        Err(failed) => return *failed,
    };
    let heap = heap_profiler(options, shorten(sink));
    if options.engine == Engine::Fast && options.trace.is_none() {
        // The fast engine reuses slots where the reference engine's
        // environment no longer holds their variable (`fast/slots.rs`).
        let mut code = code;
        fast::number_slots(&mut code);
        // Three builds of the fast engine: without profiling, the loop has
        // no counting code at all; with it, only the build for biographies
        // notes each use of a closure. A biography run is that build with
        // or without a profile asked for (uses are noted where the
        // counting code is).
        let biography = options.heap_profile == Some(heap_profile::HeapProfileBy::Biography);
        return if biography {
            run_fast::<true, true>(&code, sources, options, heap, out, trace)
        } else if options.no_profile {
            run_fast::<false, false>(&code, sources, options, heap, out, trace)
        } else {
            run_fast::<true, false>(&code, sources, options, heap, out, trace)
        };
    }
    let mut m = reference::Machine::new(&code, sources, options).with_heap_profiler(heap);
    let error = m.run(out, trace).err();
    let _ = out.flush();
    let _ = trace.flush();
    RunResult {
        error,
        profile: m.profile(options.reproducible),
        stats: m.stats(),
        heap_profile: m.finish_heap_profile(),
    }
}

/// Lower `program` for a run, on a thread with room for its nesting; a
/// program that cannot be lowered gives the run's result, an error.
pub(crate) fn lower_for_run(
    program: &Program,
    sources: &SourceMap,
) -> Result<code::Code, Box<RunResult>> {
    // Lowering recurses along the source's nesting (bounded): give it room.
    // If no such thread can be made, lower here (MAX_DEPTH still bounds it).
    let lowered = std::thread::scope(|s| {
        match std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(s, || lower::lower(program))
        {
            Ok(h) => h.join().ok(),
            Err(_) => Some(lower::lower(program)),
        }
    });
    match lowered {
        Some(Ok(code)) => Ok(code),
        other => {
            let (message, location) = match other {
                Some(Err(e)) => (e.message, Some(sources.location(e.span))),
                _ => ("the lowering thread failed".to_string(), None),
            };
            let table = crate::profile::cost_centre::CostCentreTable::new(program);
            Err(Box::new(RunResult {
                error: Some(RuntimeError {
                    kind: ErrorKind::Prepare { message },
                    rule: "-",
                    cost_centre: "MAIN".into(),
                    location,
                    context: None,
                    step: 0,
                }),
                profile: accounting::empty_profile(&table),
                stats: Stats::default(),
                heap_profile: None,
            }))
        }
    }
}

/// Run the program on the fast engine's build `Machine<PROF, BIO>`.
fn run_fast<'a, const PROF: bool, const BIO: bool>(
    code: &'a code::Code,
    sources: &'a SourceMap,
    options: &RunOptions,
    heap: Option<heap_profile::HeapProfiler<'a>>,
    out: &mut dyn Write,
    trace: &mut dyn Write,
) -> RunResult {
    let mut m = fast::Machine::<PROF, BIO>::new(code, sources, options).with_heap_profiler(heap);
    let error = m.run(out).err();
    let _ = out.flush();
    let _ = trace.flush();
    RunResult {
        error,
        profile: m.profile(options.reproducible),
        stats: m.stats(),
        heap_profile: m.finish_heap_profile(),
    }
}
