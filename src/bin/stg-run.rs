//! `stg-run`: check, print, run and profile `.stg` programs.
//!
//! Exit status: 0 success; 1 the program was rejected (static errors) or a
//! file could not be read or written; 2 a bad command line; 3 a runtime error
//! or a limit stopped the run; 130 the run was interrupted (Ctrl-C, SIGTERM,
//! SIGHUP). The profile is still written after 3 and 130.

use clap::{CommandFactory, FromArgMatches, Parser, ValueEnum};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use stg_run::machine::heap_profile::HeapProfileBy;
use stg_run::machine::{self, CostCentreMode, Engine, RunOptions, TraceFormat};
use stg_run::profile::format;
use stg_run::stg::auto_cc::{self, AutoCc};
use stg_run::stg::diagnostic::{Diagnostic, render_listing};
use stg_run::stg::load;
use stg_run::stg::printer;
use stg_run::stg::source::SourceMap;

#[derive(Parser, Debug)]
#[command(
    name = "stg-run",
    version,
    about = "Run STG-language programs on the STG machine, with cost-centre profiling",
    long_about = "Run STG-language programs (the 1992 STG paper's notation plus `scc`) on the \
                  STG machine, with cost-centre profiling built into its semantics.\n\n\
                  Every file named is a module (named by its file stem); the bundled Prelude \
                  is loaded first unless --no-prelude. The program runs by evaluating `main` \
                  and printing its value completely.",
    after_help = "Exit status: 0 success; 1 static errors or unreadable files; 2 bad command line; \
                  3 runtime error or limit reached; 130 interrupted by Ctrl-C, SIGTERM or SIGHUP \
                  (the profile is still written after 3 and 130).\n\
                  \n\
                  Examples:\n  \
                  stg-run programs/nfib.stg --profile --auto-cc=top && stg-prof report nfib.pgcl\n  \
                  stg-run programs/paper_map_scc.stg --trace\n  \
                  stg-run --check mylib.stg\n  \
                  stg-run --print-prelude"
)]
struct Cli {
    /// The `.stg` source files of the program (one module each).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,

    /// Parse and check only; print diagnostics; exit 0 if the program is valid, 1 if not.
    /// A module with no `main` is checked as a library (running needs a `main`).
    #[arg(long, conflicts_with = "print")]
    check: bool,

    /// Print the checked program back, with explicit free-variable lists and normalised flags
    /// (the user's modules, with the `scc`s --auto-cc adds).
    #[arg(long)]
    print: bool,

    /// Do not load the bundled Prelude.
    #[arg(long)]
    no_prelude: bool,

    /// Print the bundled Prelude's source (the file that messages call
    /// `<prelude>/Prelude.stg`) and exit.
    #[arg(long, exclusive = true)]
    print_prelude: bool,

    /// Which engine runs the program: the threaded `fast` one or the rule-at-a-time `reference` one.
    #[arg(long, value_enum, default_value_t = EngineArg::Fast)]
    engine: EngineArg,

    /// Attribute costs to single cost centres (`flat`, the paper) or to cost-centre stacks (`stacks`, GHC).
    #[arg(long, value_enum, default_value_t = CcArg::Flat)]
    cost_centres: CcArg,

    /// Add cost centres automatically: `top` wraps every top-level binding of the user's
    /// modules, `all` also every let(rec)-bound one (named `outer.inner`), like GHC's -fprof-auto.
    #[arg(long, value_enum, default_value_t = AutoCcArg::None)]
    auto_cc: AutoCcArg,

    /// Write the binary call-graph profile to `<stem>.pgcl` in the current directory
    /// (stem of the last source file); read it with `stg-prof report`. Costs go to the
    /// cost centres of the program's `scc`s and of --auto-cc (without either, all to `CAF`).
    #[arg(long)]
    profile: bool,

    /// Write the profile to PATH instead (implies --profile).
    #[arg(long, value_name = "PATH")]
    profile_file: Option<PathBuf>,

    /// Make the profile and heap profile byte-identical from run to run, for golden files:
    /// clock-dependent header fields are written as 0 and the `.hp` date is fixed.
    #[arg(long)]
    reproducible: bool,

    /// What a profile tick is: one machine step (`steps`, deterministic) or CPU cycles (`cycles`).
    #[arg(long, value_enum, default_value_t = ClockArg::Steps)]
    clock: ClockArg,

    /// Stop with an error after N machine steps (default: no limit).
    #[arg(long, value_name = "N", value_parser = parse_steps)]
    max_steps: Option<u64>,

    /// Largest heap, in bytes with an optional K, M or G suffix, like GHC's -M (default: 80% of memory).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_heap: Option<u64>,

    /// Largest machine stacks, in bytes with an optional K, M or G suffix, like GHC's -K (default: 80% of memory).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_stack: Option<u64>,

    /// Collect garbage at every allocation (slow; for testing the collector).
    #[arg(long)]
    gc_stress: bool,

    /// Print every rule the machine fires to standard error: `text` (one line per step) or
    /// `json` (the whole run: a header with the program, then one line per step with all it
    /// changed; docs/TRACE-FORMAT.md). Implies --engine=reference.
    #[arg(long, value_enum, num_args = 0..=1, require_equals = true, default_missing_value = "text", value_name = "FORMAT")]
    trace: Option<TraceArg>,

    /// Write the trace to PATH instead of standard error, so that error messages never mix
    /// with it (implies --trace, as text unless --trace=json says otherwise).
    #[arg(long, value_name = "PATH")]
    trace_file: Option<PathBuf>,

    /// Print allocation, collection and timing statistics to standard error, like GHC's +RTS -s.
    #[arg(long)]
    stats: bool,

    /// Take a census of the live heap every --heap-interval steps and write `<stem>.hp`
    /// (GHC's heap-profile format; draw it with `stg-prof heap` or hp2ps), grouped by the cost centre (or stack) that
    /// built each closure (`cc`), by closure kind (`kind`) or by description (`descr`).
    #[arg(long, value_enum, value_name = "BY")]
    heap_profile: Option<HeapByArg>,

    /// Steps between heap censuses (with --heap-profile).
    #[arg(long, value_name = "STEPS", default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    heap_interval: u64,

    /// List the diagnostics up to the N-th error, then say how many more
    /// errors and warnings there were; 0 lists them all (as GCC's -fmax-errors).
    #[arg(long, value_name = "N", default_value_t = 100)]
    max_errors: usize,

    /// Colour diagnostics: `auto` colours when standard error is a terminal
    /// and NO_COLOR is not set.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum EngineArg {
    Fast,
    Reference,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum CcArg {
    Flat,
    Stacks,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum AutoCcArg {
    None,
    Top,
    All,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ClockArg {
    Steps,
    /// CPU time-stamp-counter cycles, charged at each change of entry, GC excluded (fast engine).
    Cycles,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum TraceArg {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum HeapByArg {
    Cc,
    Kind,
    Descr,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum ColorArg {
    Auto,
    Always,
    Never,
}

/// Flags given on the command line that change nothing in this run, each
/// with what it would need: a user who types `--clock=cycles` without
/// `--profile` expects a profile.
fn idle_flags(cli: &Cli, matches: &clap::ArgMatches) -> Vec<String> {
    let given = |id: &str| matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
    let profile = cli.profile || cli.profile_file.is_some();
    let heap = cli.heap_profile.is_some();
    let runs = !cli.check && !cli.print;
    let mut idle = Vec::new();
    let mut say = |flag: &str, needs: &str| {
        idle.push(format!("{flag} has no effect without {needs}"));
    };
    if !runs {
        let mut flags = vec![
            "profile",
            "profile_file",
            "heap_profile",
            "heap_interval",
            "reproducible",
            "clock",
            "engine",
            "cost_centres",
            "max_steps",
            "max_heap",
            "max_stack",
            "gc_stress",
            "trace",
            "trace_file",
            "stats",
        ];
        // `--print` shows the automatic cost centres; `--check` adds none.
        if cli.check {
            flags.push("auto_cc");
        }
        for flag in flags {
            if given(flag) {
                let name = format!("--{}", flag.replace('_', "-"));
                idle.push(format!(
                    "{name} has no effect with --check or --print (nothing runs)"
                ));
            }
        }
        return idle;
    }
    if cli.reproducible && !profile && !heap {
        say("--reproducible", "--profile or --heap-profile");
    }
    if given("clock") && !profile {
        say("--clock", "--profile");
    }
    if given("heap_interval") && !heap {
        say("--heap-interval", "--heap-profile");
    }
    idle
}

/// `digits` as a `u64`, or the message for a number too large for one
/// (`too_large`) or for anything else (`not_a_number`).
fn parse_u64(digits: &str, too_large: String, not_a_number: String) -> Result<u64, String> {
    digits.parse().map_err(|e: std::num::ParseIntError| {
        if *e.kind() == std::num::IntErrorKind::PosOverflow {
            too_large
        } else {
            not_a_number
        }
    })
}

/// `--max-steps`: a whole number of steps.
fn parse_steps(text: &str) -> Result<u64, String> {
    let text = text.trim();
    parse_u64(
        text,
        format!("`{text}` is too large (at most {})", u64::MAX),
        format!("`{text}` is not a number of steps: write digits only, e.g. 1000000"),
    )
}

/// Parses `4096`, `512K`, `64M`, `2G` (powers of 1024, like GHC's RTS).
fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (digits, unit) = match text.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&text[..i], Some(c)),
        _ => (text, None),
    };
    // The number first, so that `lots` is "not a size", not "suffix `s`".
    let n = parse_u64(
        digits,
        format!("`{text}` is too large"),
        format!("`{text}` is not a size: write bytes, or a number with K, M or G"),
    )?;
    let shift = match unit.map(|c| c.to_ascii_uppercase()) {
        None | Some('B') => 0,
        Some('K') => 10,
        Some('M') => 20,
        Some('G') => 30,
        Some(_) => {
            let typed = unit.unwrap_or_default();
            return Err(format!("unknown size suffix `{typed}`: use K, M or G"));
        }
    };
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("`{text}` is too large"))
}

/// Stack for the worker thread. Syntax trees are dropped, and some front-end
/// walks run, recursively along `let`/`scc` chains (up to the parser's limit of
/// 100,000); the machine itself never recurses per step. Only the pages used
/// are ever touched, so a generous reservation costs nothing.
const WORKER_STACK_BYTES: usize = 1 << 30;

/// Set by the first Ctrl-C (SIGINT, SIGTERM or SIGHUP) during a run: the
/// machine stops at its next look (every 65,536 steps), and the output,
/// statistics and profile of the run so far are written as after a step
/// limit. A second signal ends the process at once, unless it comes within
/// [`SAME_SIGNAL`] of the first.
static INTERRUPT: AtomicBool = AtomicBool::new(false);

/// Signals this close together are one request to stop: GNU `timeout`
/// sends its signal to the process and then to its whole process group,
/// so the run receives two within microseconds, where a person pressing
/// Ctrl-C twice takes far longer.
const SAME_SIGNAL: std::time::Duration = std::time::Duration::from_millis(250);

/// Exit status of a run stopped by a signal: 128 + SIGINT, the shell's
/// convention.
const INTERRUPTED: u8 = 130;

/// glibc's `malloc` raises its mmap threshold (up to 32 MiB) each time
/// a large block is freed, as the collector frees its semi-spaces; the
/// machine's stacks, vectors of tens of megabytes, then come from the
/// arena, where what they leave behind when they grow stays resident. A
/// fixed threshold keeps every large vector in a mapping of its own (the
/// pipeline benchmark: 177 -> 162 MB peak RSS).
fn fixed_mmap_threshold() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets a tuning parameter of the allocator; it
    // is called first thing in `main`, before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

fn main() -> ExitCode {
    fixed_mmap_threshold();
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    for warning in idle_flags(&cli, &matches) {
        say(&format!("stg-run: warning: {warning}\n"));
    }
    let worker = std::thread::Builder::new()
        .name("stg-run".into())
        .stack_size(WORKER_STACK_BYTES)
        .spawn(move || run(&cli));
    let outcome = match worker {
        Ok(handle) => handle.join(),
        Err(e) => {
            say(&format!("stg-run: cannot start the worker thread: {e}\n"));
            return ExitCode::from(1);
        }
    };
    match outcome {
        Ok(Ok(code)) => code,
        Ok(Err(message)) => {
            say(&format!("stg-run: {message}\n"));
            ExitCode::from(1)
        }
        // A panic is a bug in stg-run; its message has already been printed.
        Err(_) => {
            say(
                "stg-run: internal error (a bug: please report it with the input that caused it)\n",
            );
            ExitCode::from(101)
        }
    }
}

fn run(cli: &Cli) -> Result<ExitCode, String> {
    if cli.print_prelude {
        return print_prelude();
    }
    let color = match cli.color {
        ColorArg::Always => true,
        ColorArg::Never => false,
        // https://no-color.org: a set, non-empty NO_COLOR turns colour off.
        ColorArg::Auto => {
            io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };

    let mut user_files = Vec::new();
    for path in &cli.files {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let text = String::from_utf8(bytes).map_err(|e| not_utf8(path, &e))?;
        user_files.push((path.display().to_string(), text));
    }

    let mut sources = SourceMap::new();
    // A module that is only checked or printed needs no `main`.
    let loaded = if cli.check || cli.print {
        load::load_library(&mut sources, &user_files, !cli.no_prelude)
    } else {
        load::load(&mut sources, &user_files, !cli.no_prelude)
    };
    let (mut program, warnings) = match loaded {
        Ok(loaded) => (loaded.program, loaded.warnings),
        Err(diagnostics) => {
            report(&diagnostics, &sources, color, cli.max_errors);
            let errors = diagnostics.iter().filter(|d| d.is_error()).count();
            let not_done = if cli.check {
                ""
            } else if cli.print {
                "; nothing was printed"
            } else {
                "; the program was not run"
            };
            say(&format!(
                "stg-run: {errors} error{} found{not_done}\n",
                if errors == 1 { "" } else { "s" }
            ));
            return Ok(ExitCode::from(1));
        }
    };
    report(&warnings, &sources, color, cli.max_errors);

    if cli.check {
        if !has_main(&program) {
            let files: Vec<String> = cli.files.iter().map(|f| f.display().to_string()).collect();
            say(&format!(
                "stg-run: checked {}: no errors; no `main` is defined, so this is a library module (a run needs a module that defines `main`)\n",
                files.join(", ")
            ));
        }
        return Ok(ExitCode::SUCCESS);
    }

    auto_cc::apply(
        &mut program,
        match cli.auto_cc {
            AutoCcArg::None => AutoCc::None,
            AutoCcArg::Top => AutoCc::Top,
            AutoCcArg::All => AutoCc::All,
        },
    );

    if cli.print {
        let text: String = program
            .modules
            .iter()
            .filter(|m| m.name != "Prelude" || cli.no_prelude)
            .map(printer::print_module)
            .collect();
        return write_stdout(&text);
    }

    // A profile that cannot be written for want of a folder is found
    // before the run, not after it.
    if let Some(path) = &cli.profile_file {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        if let Some(dir) = dir.filter(|d| !d.is_dir()) {
            let what = if dir.exists() {
                "is not a folder"
            } else {
                "does not exist"
            };
            say(&format!(
                "stg-run: cannot write the profile to {}: {} {what}; create it or choose another --profile-file\n",
                path.display(),
                dir.display()
            ));
            return Ok(ExitCode::from(1));
        }
    }

    let trace_format = match (cli.trace, &cli.trace_file) {
        (Some(t), _) => Some(t),
        (None, Some(_)) => Some(TraceArg::Text),
        (None, None) => None,
    };
    let options = RunOptions {
        engine: match (cli.engine, trace_format) {
            (_, Some(_)) | (EngineArg::Reference, _) => Engine::Reference,
            (EngineArg::Fast, None) => Engine::Fast,
        },
        cost_centres: match cli.cost_centres {
            CcArg::Flat => CostCentreMode::Flat,
            CcArg::Stacks => CostCentreMode::Stacks,
        },
        max_steps: cli.max_steps,
        max_heap: cli.max_heap,
        max_stack: cli.max_stack,
        gc_stress: cli.gc_stress,
        trace: trace_format.map(|t| match t {
            TraceArg::Text => TraceFormat::Text,
            TraceArg::Json => TraceFormat::Json,
        }),
        reproducible: cli.reproducible,
        heap_profile: cli.heap_profile.map(|by| match by {
            HeapByArg::Cc => HeapProfileBy::CostCentre,
            HeapByArg::Kind => HeapProfileBy::Kind,
            HeapByArg::Descr => HeapProfileBy::Descr,
        }),
        heap_interval: cli.heap_interval,
        no_profile: !(cli.profile || cli.profile_file.is_some()),
        clock: match cli.clock {
            ClockArg::Steps => machine::Clock::Steps,
            ClockArg::Cycles => machine::Clock::Cycles,
        },
        interrupt: Some(&INTERRUPT),
    };
    if options.clock == machine::Clock::Cycles && options.engine == Engine::Reference {
        say(
            "stg-run: --clock=cycles is measured by the fast engine only; drop --engine=reference and --trace, or use --clock=steps\n",
        );
        return Ok(ExitCode::from(2));
    }

    // Only the run catches signals (checking and printing end soon anyway).
    // If the handler cannot be installed, a signal keeps its default action
    // (ending the process without the profile).
    // The handler runs on the `ctrlc` crate's own thread, not in a signal
    // handler, so it may keep state.
    let mut first: Option<std::time::Instant> = None;
    let _ = ctrlc::set_handler(move || match first {
        None => {
            first = Some(std::time::Instant::now());
            INTERRUPT.store(true, Ordering::Relaxed);
        }
        Some(t) if t.elapsed() >= SAME_SIGNAL => std::process::exit(INTERRUPTED.into()),
        Some(_) => {}
    });
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let stderr = io::stderr();
    let mut trace: Box<dyn Write> = match &cli.trace_file {
        None => Box::new(io::BufWriter::new(stderr.lock())),
        Some(path) => match std::fs::File::create(path) {
            Ok(file) => Box::new(io::BufWriter::new(file)),
            Err(e) => {
                say(&format!(
                    "stg-run: cannot write the trace to {}: {e}; choose another --trace-file\n",
                    path.display()
                ));
                return Ok(ExitCode::from(1));
            }
        },
    };
    let result = machine::run(&program, &sources, &options, &mut out, &mut trace);
    let flushed = out.flush().and_then(|_| trace.flush());
    drop(out);
    drop(trace);

    // The run's status (3, 130) wins over a failed write (1): it says what
    // happened to the program, and the write's message is on stderr.
    // A write that failed during the run stopped it, but is not the
    // program's error: it is reported like a failed flush, once.
    let (run_status, write_failed) = match &result.error {
        None => (None, None),
        Some(error) => match &error.kind {
            machine::ErrorKind::Output {
                stream,
                io,
                message,
            } => (None, Some((*stream, *io, message.clone()))),
            kind => {
                // `RuntimeError`'s Display already starts with "runtime error:".
                say(&format!("stg-run: {error}\n"));
                let status = match kind {
                    machine::ErrorKind::Interrupted => INTERRUPTED,
                    _ => 3,
                };
                (Some(status), None)
            }
        },
    };
    let write_failed = write_failed.or_else(|| {
        let e = flushed.err()?;
        Some((machine::OutputStream::Result, e.kind(), e.to_string()))
    });
    let mut status = ExitCode::from(run_status.unwrap_or(0));
    let io_status = ExitCode::from(run_status.unwrap_or(1));
    // A closed pipe (`stg-run prog.stg | head`) is the reader's choice, not our failure.
    if let Some((stream, kind, message)) = write_failed
        && kind != io::ErrorKind::BrokenPipe
    {
        let what = match stream {
            machine::OutputStream::Result => "the output",
            machine::OutputStream::Trace => "the trace",
        };
        say(&format!("stg-run: cannot write {what}: {message}\n"));
        status = io_status;
    }
    if cli.stats {
        say(&result.stats.to_string());
    }
    let stem = program_stem(cli.files.last().expect("clap requires a file"));
    if cli.profile || cli.profile_file.is_some() {
        let path = match &cli.profile_file {
            Some(path) => path.clone(),
            None => PathBuf::from(format!("{stem}.pgcl")),
        };
        if let Err(e) = format::write_file_atomic(&path, &result.profile) {
            say(&format!(
                "stg-run: cannot write the profile to {}: {e}\n",
                path.display()
            ));
            status = io_status;
        }
    }
    if let Some(heap) = &result.heap_profile {
        let path = PathBuf::from(format!("{stem}.hp"));
        // The date is fixed under --reproducible so that runs give identical files.
        let date = if cli.reproducible {
            "reproducible".to_string()
        } else {
            now_text()
        };
        if let Err(e) = format::write_bytes_atomic(&path, heap.to_hp(&stem, &date).as_bytes()) {
            say(&format!(
                "stg-run: cannot write the heap profile to {}: {e}\n",
                path.display()
            ));
            status = io_status;
        }
    }
    Ok(status)
}

/// `stg-run --print-prelude`: the bundled Prelude's text on standard output.
fn print_prelude() -> Result<ExitCode, String> {
    write_stdout(stg_run::stg::prelude::SOURCE)
}

/// Writes `text` to standard output (`--print`, `--print-prelude`). A
/// reader that closes the pipe (`| head`) ends it quietly, as for a run.
fn write_stdout(text: &str) -> Result<ExitCode, String> {
    let mut stdout = io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => Err(format!("cannot write to standard output: {e}")),
    }
}

/// Whether one of the user's modules defines `main`.
fn has_main(program: &stg_run::stg::syntax::Program) -> bool {
    program
        .modules
        .iter()
        .filter(|m| !stg_run::stg::check::is_prelude(m))
        .flat_map(|m| &m.bindings)
        .any(|b| b.name.name == "main")
}

/// The message for a source file that is not UTF-8 text: where the first
/// bad byte is (line and column, as the diagnostics count them) and what to do.
fn not_utf8(path: &Path, e: &std::string::FromUtf8Error) -> String {
    let good = e.utf8_error().valid_up_to();
    let before = String::from_utf8_lossy(&e.as_bytes()[..good]);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!(
        "cannot read {}: not UTF-8 text (byte {good}, at {}:{line}:{col}, starts an invalid sequence); save the file as UTF-8",
        path.display(),
        path.display()
    )
}

/// Writes to standard error, ignoring failure: a closed standard error
/// (`stg-run ... 2>&1 | head -1`) must not panic (`eprint!` would) and so
/// lose the profile, which is written after these messages.
fn say(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// The stem of the last source file: it names `<stem>.pgcl` and `<stem>.hp`.
fn program_stem(last_source: &Path) -> String {
    last_source
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "stg".to_string())
}

/// The date and time now, for the `.hp` header's DATE.
fn now_text() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    stg_run::machine::heap_profile::hp_date(secs)
}

/// Lists the diagnostics up to the `max_errors`-th error (all with 0), and
/// says how many more there were.
fn report(diagnostics: &[Diagnostic], sources: &SourceMap, color: bool, max_errors: usize) {
    if diagnostics.is_empty() {
        return;
    }
    let listing = render_listing(
        diagnostics,
        sources,
        color,
        (max_errors > 0).then_some(max_errors),
    );
    say(&listing.text);
    let more = |n: usize, what: &str| match n {
        0 => None,
        1 => Some(format!("1 more {what}")),
        n => Some(format!("{n} more {what}s")),
    };
    let hidden: Vec<String> = [
        more(listing.hidden_errors, "error"),
        more(listing.hidden_warnings, "warning"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !hidden.is_empty() {
        say(&format!(
            "stg-run: {} not listed (the listing stops at error {max_errors}); --max-errors N lists more, --max-errors 0 lists all\n",
            hidden.join(" and ")
        ));
    }
}
