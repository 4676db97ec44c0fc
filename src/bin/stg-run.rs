//! `stg-run`: check, print, run and profile `.stg` programs.
//!
//! Exit status: 0 success; 1 the program was rejected (static errors) or a
//! file could not be read or written (an input that is not a regular file
//! or is over `--max-input-size`, an output path refused before the run);
//! 2 a bad command line; 3 a runtime error or a limit stopped the run; 130
//! interrupted (Ctrl-C, SIGTERM, SIGHUP: at any moment, see
//! `stg_run::internal::cli::signals`). The profile is still written after 3 and 130.

use clap::{CommandFactory, FromArgMatches, Parser, ValueEnum};
use std::cell::RefCell;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use stg_run::internal::cli::memory::ExitOnRefusal;
use stg_run::internal::cli::signals::{self, INTERRUPTED};
use stg_run::internal::cli::stdio::{self, say};
use stg_run::internal::cli::{parse_size, parse_u64};
use stg_run::internal::files::{self, OutputPlan, Patience};
use stg_run::internal::machine::explain;
use stg_run::internal::machine::heap_profile::{
    self, HeapProfileBy, HeapProfileOptions, HeapProfileSink,
};
use stg_run::internal::machine::{self, CostCentreMode, Engine, RunOptions, TraceFormat};
use stg_run::internal::profile::cost_centre::CostCentreTable;
use stg_run::internal::profile::format;
use stg_run::internal::profile::side_file::{self, Clock, SideInfo};
use stg_run::internal::stg::auto_cc::{self, AutoCc};
use stg_run::internal::stg::diagnostic::{Diagnostic, render_listing};
use stg_run::internal::stg::load;
use stg_run::internal::stg::printer;
use stg_run::internal::stg::source::SourceMap;
use stg_run::internal::stop;

/// The headings `--help` groups the options under.
const PROGRAM: &str = "Program";
const RUNNING: &str = "Running";
const PROFILING: &str = "Profiling";
const HEAP: &str = "Heap profiles";
const WATCHING: &str = "Watching the machine";
const LIMITS: &str = "Limits";

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
    #[arg(help_heading = PROGRAM, long, conflicts_with = "print")]
    check: bool,

    /// Print the checked program back, with explicit free-variable lists and normalised flags
    /// (the user's modules, with the `scc`s --auto-cc adds).
    #[arg(help_heading = PROGRAM, long)]
    print: bool,

    /// Do not load the bundled Prelude.
    #[arg(help_heading = PROGRAM, long)]
    no_prelude: bool,

    /// Print the bundled Prelude's source (the file that messages call
    /// `<prelude>/Prelude.stg`) and exit.
    #[arg(help_heading = PROGRAM, long, exclusive = true)]
    print_prelude: bool,

    /// Which engine runs the program: the threaded `fast` one or the rule-at-a-time `reference` one.
    #[arg(help_heading = RUNNING, long, value_enum, default_value_t = EngineArg::Fast)]
    engine: EngineArg,

    /// Attribute costs to single cost centres (`flat`, the paper) or to cost-centre stacks (`stacks`, GHC).
    #[arg(help_heading = PROFILING, long, value_enum, default_value_t = CcArg::Flat)]
    cost_centres: CcArg,

    /// Add cost centres automatically: `top` wraps every top-level binding of the user's
    /// modules, `all` also every let(rec)-bound one (named `outer.inner`), like GHC's -fprof-auto.
    #[arg(help_heading = PROFILING, long, value_enum, default_value_t = AutoCcArg::None)]
    auto_cc: AutoCcArg,

    /// Write the binary call-graph profile to `<stem>.pgcl` in the current directory
    /// (stem of the last source file); read it with `stg-prof report`. Costs go to the
    /// cost centres of the program's `scc`s and of --auto-cc (without either, all to `CAF`).
    #[arg(help_heading = PROFILING, long)]
    profile: bool,

    /// Write the profile to PATH instead (implies --profile); `-` writes it to
    /// standard output, and the program's output then goes to standard error.
    #[arg(help_heading = PROFILING, long, value_name = "PATH")]
    profile_file: Option<PathBuf>,

    /// Make the profile and heap profile byte-identical from run to run, for golden files:
    /// clock-dependent header fields are written as 0 and the `.hp` date is fixed.
    #[arg(help_heading = PROFILING, long)]
    reproducible: bool,

    /// What a profile tick is: one machine step (`steps`, deterministic) or CPU cycles (`cycles`).
    #[arg(help_heading = PROFILING, long, value_enum, default_value_t = ClockArg::Steps)]
    clock: ClockArg,

    /// Stop with an error after N machine steps (default: no limit).
    #[arg(help_heading = LIMITS, long, value_name = "N", value_parser = parse_steps)]
    max_steps: Option<u64>,

    /// Largest heap, every space the collector holds at once, in bytes with an optional K, M or G
    /// suffix, like GHC's -M (default: 60% of the memory available: a memory cgroup's limit,
    /// else physical memory).
    #[arg(help_heading = LIMITS, long, value_name = "SIZE", value_parser = parse_size)]
    max_heap: Option<u64>,

    /// Largest machine stacks, in bytes with an optional K, M or G suffix, like GHC's -K, counted
    /// as 16 bytes a value (default: 20% of the memory available, at most a quarter of the
    /// address space left under `ulimit -v`).
    #[arg(help_heading = LIMITS, long, value_name = "SIZE", value_parser = parse_size)]
    max_stack: Option<u64>,

    /// Collect garbage at every allocation (slow; for testing the collector).
    #[arg(help_heading = RUNNING, long)]
    gc_stress: bool,

    /// Print every rule the machine fires to standard error: `text` (one line per step) or
    /// `json` (the whole run: a header with the program, then one line per step with all it
    /// changed; docs/TRACE-FORMAT.md). Implies --engine=reference.
    #[arg(help_heading = WATCHING, long, value_enum, num_args = 0..=1, require_equals = true, default_missing_value = "text", value_name = "FORMAT")]
    trace: Option<TraceArg>,

    /// Write the trace to PATH instead of standard error, so that error messages never mix
    /// with it (implies --trace, as text unless --trace=json says otherwise).
    #[arg(help_heading = WATCHING, long, value_name = "PATH")]
    trace_file: Option<PathBuf>,

    /// Write the explorer: one self-contained HTML page of the whole run (reference engine)
    /// to step through forwards and backwards in a browser, with the rule fired, the source,
    /// the stacks, the heap and the cost centres at every step (default FILE:
    /// `<stem>.html`). Runs stop at --max-steps, 100,000 unless given (at most 1,000,000).
    #[arg(help_heading = WATCHING, long, num_args = 0..=1, require_equals = true, value_name = "FILE.html")]
    explain: Option<Option<PathBuf>>,

    /// Print allocation, collection, residency, memory in use and timing statistics to standard
    /// error, like GHC's +RTS -s.
    #[arg(help_heading = RUNNING, long)]
    stats: bool,

    /// Take a census of the live heap every --heap-interval steps and write `<stem>.hp`
    /// (GHC's heap-profile format; draw it with `stg-prof heap` or hp2ps), grouped by the cost centre (or stack) that
    /// built each closure (`cc`), by closure kind (`kind`), by description (`descr`), by
    /// retainer set (`retainer`: the cost centres of the thunks holding each closure, SYSTEM
    /// for the stacks and globals, like GHC's -hr) or by the phase of each closure's life
    /// (`biography`: LAG, USE, DRAG, VOID, like GHC's -hb; written at the end of the run, when
    /// the phases are known).
    #[arg(help_heading = HEAP, long, value_enum, value_name = "BY")]
    heap_profile: Option<HeapByArg>,

    /// Steps between heap censuses (with --heap-profile).
    #[arg(help_heading = HEAP, long, value_name = "STEPS", default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    heap_interval: u64,

    /// List the diagnostics up to the N-th error, then say how many more
    /// errors and warnings there were; 0 lists them all (as GCC's -fmax-errors).
    #[arg(help_heading = LIMITS, long, value_name = "N", default_value_t = 100)]
    max_errors: usize,

    /// Longest band name of a stacks-mode heap profile by cost centre, like GHC's -L:
    /// `(n)inner/.../outer` is cut to N characters with `...`; `<stem>.hp.stacks`
    /// lists each band's whole stack. A retainer set's name, `(n)label,label`, is cut
    /// to N characters in all, as GHC cuts it.
    #[arg(help_heading = HEAP, long, value_name = "N", default_value_t = heap_profile::DEFAULT_LABEL_LENGTH as u64,
          value_parser = clap::value_parser!(u64).range(heap_profile::MIN_LABEL_LENGTH as u64..=heap_profile::MAX_LABEL_LENGTH as u64))]
    heap_label_length: u64,

    /// Largest heap profile (the .hp file and the stacks listing together), in bytes
    /// with an optional K, M or G suffix: censuses stop there, with a warning. 0 means the
    /// default, 1G.
    #[arg(help_heading = LIMITS, long, value_name = "SIZE", value_parser = parse_size, default_value = "1G")]
    max_heap_profile: u64,

    /// Count only the closures built under these cost centres in the heap profile (in stacks mode, a
    /// stack's innermost one), each a label (`go`) or qualified (`Main.go`), like GHC's `-hc<name>`;
    /// comma-separated or repeated.
    #[arg(help_heading = HEAP, long, value_name = "NAME,...", value_delimiter = ',',
          value_parser = clap::builder::NonEmptyStringValueParser::new())]
    heap_profile_cc: Vec<String>,

    /// Count only the closures of these descriptions in the heap profile (as
    /// `--heap-profile=descr` names them: `Cons`, `Main.go.acc`, `PAP(Prelude.map)`), like GHC's
    /// `-hd<descr>`; comma-separated or repeated.
    #[arg(help_heading = HEAP, long, value_name = "DESCR,...", value_delimiter = ',',
          value_parser = clap::builder::NonEmptyStringValueParser::new())]
    heap_profile_descr: Vec<String>,

    /// Colour diagnostics: `auto` colours when standard error is a terminal
    /// and NO_COLOR is not set.
    #[arg(help_heading = RUNNING, long, value_enum, default_value_t = ColorArg::Auto)]
    color: ColorArg,

    /// Refuse source files larger than SIZE (bytes, with an optional K, M or G suffix).
    #[arg(help_heading = LIMITS, long, value_name = "SIZE", value_parser = parse_size, default_value = "256M")]
    max_input_size: u64,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum EngineArg {
    Fast,
    Reference,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum HeapByArg {
    Cc,
    Kind,
    Descr,
    Retainer,
    Biography,
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
            "explain",
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
    for flag in [
        "heap_interval",
        "heap_label_length",
        "max_heap_profile",
        "heap_profile_cc",
        "heap_profile_descr",
    ] {
        if given(flag) && !heap {
            say(&format!("--{}", flag.replace('_', "-")), "--heap-profile");
        }
    }
    idle
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

/// Stacks for the worker thread, tried in turn. Syntax trees are dropped,
/// and some front-end walks run, recursively along `let`/`scc` chains (up to
/// the parser's limit of 100,000) and nested blocks (up to 1000); the
/// machine itself never recurses per step. Only the pages used are ever
/// touched, so a generous reservation costs nothing, but it takes address
/// space, which `ulimit -v` may not leave: then a smaller one. The last,
/// twice the main thread's usual 8 MiB, is ample: the deepest program the
/// parser accepts is loaded, printed and dropped in 8 MiB
/// (`tests/check_scale.rs`).
const WORKER_STACK_BYTES: [usize; 4] = [1 << 30, 256 << 20, 64 << 20, 16 << 20];

/// A refused allocation outside the heap and the stacks (which the machine
/// reserves fallibly, stopping at a limit with the profile) is a message
/// and status 1, not an abort (`cli::memory`).
#[global_allocator]
static ALLOCATOR: ExitOnRefusal = ExitOnRefusal {
    tool: "stg-run",
    advice: "The run ended there, without its profile. Give the process more memory or \
             address space (`ulimit -v`), or lower --max-heap and --max-stack, so that the \
             run stops at a limit with its profile written.",
};

/// Records, before Rust's runtime starts, whether standard output or error
/// was closed (`stg-run prog.stg >&-`): the runtime then opens `/dev/null`
/// on it, and the output would be lost without a word.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static NOTE_CLOSED_DESCRIPTORS: extern "C" fn() = stdio::note_closed_descriptors;

/// glibc's `malloc` raises its mmap threshold (up to 32 MiB) each time
/// a large block is freed (a census's side table, a grown vector's old
/// buffer; the collector's spaces are one mapping of their own); the
/// machine's stacks, vectors of tens of megabytes, then come from the
/// arena, where what they leave behind when they grow stays resident. A
/// fixed threshold keeps every large vector in a mapping of its own (the
/// pipeline benchmark: 177 -> 162 MB peak RSS).
///
/// And one arena for all threads: the machine runs on a worker thread,
/// and when `ulimit -v` leaves the arena no room to grow, glibc tries at
/// each `malloc` to make the thread a new arena (a 64 MiB reservation,
/// given and taken back), then maps the block on its own and unmaps it at
/// `free`: three system calls for each small allocation. The reference
/// engine, which allocates at each step, ran 29 s instead of 0.2 s under
/// a 200 MiB limit. With one arena, a full arena grows by mapping 1 MiB
/// at a time. The worker is the only thread that allocates much, so no
/// thread waits on another.
fn tune_malloc() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets tuning parameters of the allocator; it
    // is called first thing in `main`, before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

fn main() -> ExitCode {
    tune_malloc();
    signals::install("stg-run");
    let matches = stdio::parse_command_line(Cli::command(), "stg-run");
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    for warning in idle_flags(&cli, &matches) {
        say(&format!("stg-run: warning: {warning}\n"));
    }
    let cli = std::sync::Arc::new(cli);
    let mut worker = None;
    for bytes in WORKER_STACK_BYTES {
        let cli = cli.clone();
        worker = Some(
            std::thread::Builder::new()
                .name("stg-run".into())
                .stack_size(bytes)
                .spawn(move || run(&cli)),
        );
        if worker.as_ref().is_some_and(|w| w.is_ok()) {
            break;
        }
    }
    let outcome = match worker.expect("a stack size was tried") {
        Ok(handle) => handle.join(),
        Err(e) => {
            let least = WORKER_STACK_BYTES[WORKER_STACK_BYTES.len() - 1];
            say(&format!(
                "stg-run: cannot start the worker thread: {e}; its stack needs {least} bytes of \
                 address space, which the process's limit (ulimit -v) or the system's memory \
                 does not leave: raise the limit (ulimit -v) or free memory\n"
            ));
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

    let explain = match explain_settings(cli) {
        Ok(explain) => explain,
        Err(message) => {
            say(&format!("stg-run: {message}\n"));
            return Ok(ExitCode::from(2));
        }
    };

    let mut user_files = Vec::new();
    for path in &cli.files {
        let bytes = files::read_input(path, cli.max_input_size).map_err(|e| {
            // `--trace json` reads `json` as a file: the format needs `=`.
            // `--explain page.html` reads `page.html` as a program: so does
            // the page's name.
            let format = path.to_str().filter(|p| matches!(*p, "text" | "json"));
            let page = path.extension().is_some_and(|x| x == "html");
            match format {
                Some(format) if cli.trace.is_some() && !path.exists() => {
                    format!("{e}; to choose the trace's format write --trace={format}")
                }
                _ if page && cli.explain == Some(None) && !path.exists() => format!(
                    "{e}; to name the explorer page write --explain={}",
                    path.display()
                ),
                _ => e.to_string(),
            }
        })?;
        let text = String::from_utf8(bytes).map_err(|e| not_utf8(path, &e))?;
        user_files.push((path.display().to_string(), text));
    }

    // Where the results go is checked before the program is even loaded:
    // a profile that cannot be written is found before the run, not after.
    let runs = !cli.check && !cli.print;
    let outputs = match runs.then(|| Outputs::plan(cli, explain)).transpose() {
        Ok(outputs) => outputs,
        Err(message) => {
            say(&format!("stg-run: {message}\n"));
            return Ok(ExitCode::from(1));
        }
    };

    let mut sources = SourceMap::new();
    // A module that is only checked or printed needs no `main`. The texts
    // move into `sources`: held once.
    let needs_main = !(cli.check || cli.print);
    let loaded = load::load_owned(&mut sources, user_files, !cli.no_prelude, needs_main);
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
    let outputs = outputs.expect("planned for a run");

    let trace_format = match (cli.trace, &cli.trace_file) {
        (Some(t), _) => Some(t),
        (None, Some(_)) => Some(TraceArg::Text),
        (None, None) => None,
    };
    let options = RunOptions {
        engine: match (cli.engine, trace_format, &outputs.page) {
            (_, Some(_), _) | (_, _, Some(_)) | (EngineArg::Reference, _, _) => Engine::Reference,
            (EngineArg::Fast, None, None) => Engine::Fast,
        },
        cost_centres: match cli.cost_centres {
            CcArg::Flat => CostCentreMode::Flat,
            CcArg::Stacks => CostCentreMode::Stacks,
        },
        max_steps: match &outputs.page {
            Some(page) => Some(page.max_steps),
            None => cli.max_steps,
        },
        max_heap: cli.max_heap,
        max_stack: cli.max_stack,
        gc_stress: cli.gc_stress,
        final_collection: cli.stats,
        trace: trace_format.map(|t| match t {
            TraceArg::Text => TraceFormat::Text,
            TraceArg::Json => TraceFormat::Json,
        }),
        reproducible: cli.reproducible,
        heap_profile: cli.heap_profile.map(|by| match by {
            HeapByArg::Cc => HeapProfileBy::CostCentre,
            HeapByArg::Kind => HeapProfileBy::Kind,
            HeapByArg::Descr => HeapProfileBy::Descr,
            HeapByArg::Retainer => HeapProfileBy::Retainer,
            HeapByArg::Biography => HeapProfileBy::Biography,
        }),
        heap_interval: cli.heap_interval,
        heap_profile_options: HeapProfileOptions {
            job: outputs.stem.clone(),
            // Fixed under --reproducible so that runs give identical files.
            date: if cli.reproducible {
                "reproducible".to_string()
            } else {
                now_text()
            },
            label_length: cli.heap_label_length as usize,
            max_bytes: cli.max_heap_profile,
            only_cc: cli.heap_profile_cc.clone(),
            only_descr: cli.heap_profile_descr.clone(),
        },
        no_profile: outputs.profile.is_none(),
        clock: match cli.clock {
            ClockArg::Steps => machine::Clock::Steps,
            ClockArg::Cycles => machine::Clock::Cycles,
        },
        interrupt: Some(&stop::FLAG),
    };
    // Without a profile the clock measures nothing (a warning said so):
    // no engine is refused for it.
    if options.clock == machine::Clock::Cycles
        && options.engine == Engine::Reference
        && outputs.profile.is_some()
    {
        say(
            "stg-run: --clock=cycles is measured by the fast engine only; drop --engine=reference, --trace and --explain, or use --clock=steps\n",
        );
        return Ok(ExitCode::from(2));
    }

    // The trace goes to --trace-file if given (checked with the other
    // outputs before the program was loaded), else to standard error.
    let trace_file = match &outputs.trace {
        None => None,
        Some(path) => match std::fs::File::create(path) {
            Ok(file) => Some(io::BufWriter::new(file)),
            Err(e) => {
                say(&format!(
                    "stg-run: cannot write the trace to {}: {e}; choose another --trace-file\n",
                    path.display()
                ));
                return Ok(ExitCode::from(1));
            }
        },
    };

    // The heap profile is written as its censuses are taken, into
    // temporaries renamed over `<stem>.hp` (and its stacks listing) when
    // the run is over: a file under the final name is always whole.
    let mut heap_files = match HeapFiles::create(&outputs) {
        Ok(files) => files,
        Err(message) => {
            say(&format!("stg-run: {message}\n"));
            return Ok(ExitCode::from(1));
        }
    };
    // From here to the last result written, a first signal stops the run
    // and its results are still written (`cli::signals`).
    signals::begin_run();
    // The run, and the explorer page when --explain asks for one.
    let mut page = None;
    let mut run_machine = |out: &mut dyn Write, trace: &mut dyn Write| {
        let heap_sink = heap_files.as_mut().map(HeapFiles::sink);
        match (&outputs.page, heap_sink) {
            (None, None) => machine::run(&program, &sources, &options, out, trace),
            (None, Some(sink)) => {
                machine::run_with_heap_sink(&program, &sources, &options, out, trace, sink)
            }
            (Some(p), heap_sink) => {
                let title = Some(p.title.as_str());
                let explained =
                    explain::run(&program, &sources, &options, out, trace, title, heap_sink);
                page = explained.page;
                explained.result
            }
        }
    };
    let (result, flushed) = match (outputs.profile == Some(ProfileTo::Stdout), trace_file) {
        (_, Some(mut trace)) => {
            // The profile may take standard output: the program's output
            // then goes to standard error.
            let mut out = io::BufWriter::new(if outputs.profile == Some(ProfileTo::Stdout) {
                stdio::stderr(Patience::Run)
            } else {
                stdio::stdout(Patience::Run)
            });
            let result = run_machine(&mut out, &mut trace);
            let flushed = out.flush().and_then(|_| trace.flush());
            (result, flushed)
        }
        (true, None) => {
            // The profile takes standard output: the program's output and
            // the trace share standard error, through one buffer so that
            // their lines do not cut into each other.
            let err = RefCell::new(io::BufWriter::new(stdio::stderr(Patience::Run)));
            let result = run_machine(&mut Shared(&err), &mut Shared(&err));
            let flushed = err.borrow_mut().flush();
            (result, flushed)
        }
        (false, None) => {
            let mut out = io::BufWriter::new(stdio::stdout(Patience::Run));
            let mut trace = io::BufWriter::new(stdio::stderr(Patience::Run));
            let result = run_machine(&mut out, &mut trace);
            let flushed = out.flush().and_then(|_| trace.flush());
            (result, flushed)
        }
    };
    let side = side_info(&program, &sources, &options);
    let mut status = write_results(
        cli,
        &outputs,
        &result,
        &side,
        flushed,
        page.as_deref(),
        heap_files,
    );
    if signals::end_run() && status != INTERRUPTED {
        // The signal came after the machine's last look at the flag.
        say(
            "stg-run: interrupted (Ctrl-C or a termination signal) as the run ended; its output and results were written\n",
        );
        status = INTERRUPTED;
    }
    Ok(ExitCode::from(status))
}

/// Where the results of a run go, checked before it ([`Outputs::plan`]).
struct Outputs {
    profile: Option<ProfileTo>,
    /// The profile's side file (`NAME.pgcl.src`), beside a profile written
    /// to a regular file.
    side_file: Option<PathBuf>,
    /// `<stem>.hp`, with --heap-profile.
    heap_profile: Option<PathBuf>,
    /// `<stem>.hp.stacks`, the whole stacks a stacks-mode heap profile by
    /// cost centre names its bands after.
    heap_stacks: Option<PathBuf>,
    /// --trace-file.
    trace: Option<PathBuf>,
    /// --explain.
    page: Option<Explain>,
    /// The stem of the last source file, which names the `.hp` file and its job.
    stem: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum ProfileTo {
    File(PathBuf),
    /// `--profile-file -`.
    Stdout,
}

impl Outputs {
    /// Each file the run will write, checked: it can be created, is none of
    /// the program's source files and is not where another output goes.
    fn plan(cli: &Cli, page: Option<Explain>) -> Result<Outputs, String> {
        let stem = program_stem(cli.files.last().expect("clap requires a file"));
        let profile = match &cli.profile_file {
            Some(path) if path.as_os_str() == files::STDIN_NAME => Some(ProfileTo::Stdout),
            Some(path) => Some(ProfileTo::File(path.clone())),
            None if cli.profile => Some(ProfileTo::File(PathBuf::from(format!("{stem}.pgcl")))),
            None => None,
        };
        let heap_profile = cli
            .heap_profile
            .map(|_| PathBuf::from(format!("{stem}.hp")));
        let heap_stacks = (cli.heap_profile == Some(HeapByArg::Cc)
            && cli.cost_centres == CcArg::Stacks)
            .then(|| PathBuf::from(format!("{stem}.hp.stacks")));
        let mut plan = OutputPlan::new(&cli.files);
        let mut side_path = None;
        match &profile {
            Some(ProfileTo::File(path)) => {
                plan.add("the profile", path)?;
                // Its side file too, unless the profile goes to a device
                // (`/dev/null`), which gets none. The side file is extra:
                // one that cannot be written (a name one byte too long, say)
                // is warned about and the profile written without it.
                let regular = match std::fs::metadata(path) {
                    Ok(m) => m.is_file(),
                    Err(e) => e.kind() == io::ErrorKind::NotFound,
                };
                if regular {
                    let side = side_file::path_for(path);
                    match plan.add("the profile's side file", &side) {
                        Ok(()) => side_path = Some(side),
                        Err(e) => say(&format!(
                            "stg-run: warning: {e}; the profile is written without it \
                             (its reports will show no source locations)\n"
                        )),
                    }
                }
            }
            Some(ProfileTo::Stdout) if io::stdout().is_terminal() => {
                return Err(
                    "--profile-file -: standard output is a terminal, and a profile is \
                            binary; redirect it (> prog.pgcl) or pipe it (| stg-prof report -)"
                        .into(),
                );
            }
            _ => {}
        }
        if let Some(path) = &heap_profile {
            plan.add("the heap profile", path)?;
        }
        if let Some(path) = &heap_stacks {
            plan.add("the heap profile's stacks listing", path)?;
        }
        if let Some(path) = &cli.trace_file {
            plan.add("the trace", path)?;
        }
        if let Some(page) = &page {
            plan.add("the explorer page", &page.path)?;
        }
        Ok(Outputs {
            profile,
            side_file: side_path,
            heap_profile,
            heap_stacks,
            trace: cli.trace_file.clone(),
            page,
            stem,
        })
    }
}

/// A writer shared by the program's output and the trace, when both go to
/// standard error.
struct Shared<'a, W: Write>(&'a RefCell<W>);

impl<W: Write> Write for Shared<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

/// After a run: reports how it ended, then writes `--stats`, the profile
/// and the heap profile. Returns the exit status: the run's (3, 130) wins
/// over a failed write (1), since it says what happened to the program,
/// and the write's message is on stderr.
fn write_results(
    cli: &Cli,
    outputs: &Outputs,
    result: &machine::RunResult,
    side: &SideInfo,
    flushed: io::Result<()>,
    page: Option<&str>,
    heap_files: Option<HeapFiles>,
) -> u8 {
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
        // Output left in the buffer when a stop came is not a failure.
        if stop::Stopped::is(&e) {
            return None;
        }
        Some((machine::OutputStream::Result, e.kind(), e.to_string()))
    });
    let mut status = run_status.unwrap_or(0);
    let io_status = run_status.unwrap_or(1);
    // A closed pipe (`stg-run prog.stg | head`) is the reader's choice, not our failure.
    if let Some((stream, kind, message)) = write_failed
        && kind != io::ErrorKind::BrokenPipe
    {
        let line = match (stream, &outputs.trace) {
            (machine::OutputStream::Result, _) => {
                format!(
                    "cannot write the output: {message}{}",
                    disk_full(kind, None)
                )
            }
            (machine::OutputStream::Trace, None) => {
                format!("cannot write the trace: {message}{}", disk_full(kind, None))
            }
            (machine::OutputStream::Trace, Some(path)) => format!(
                "cannot write the trace to {}: {message}; the run stopped there, and the file \
                 ends where the trace was cut off{}",
                path.display(),
                disk_full(kind, Some("another --trace-file"))
            ),
        };
        say(&format!("stg-run: {line}\n"));
        status = io_status;
    }
    if cli.stats {
        say(&result.stats.to_string());
    }
    if let (Some(explain), Some(page)) = (&outputs.page, page)
        && !write_page(explain, page, result)
    {
        status = io_status;
    }
    match &outputs.profile {
        Some(ProfileTo::File(path)) => {
            let written = if names_standard_output(path) {
                // After the program's output, as through a pipe, not over it.
                write_profile_to_stdout(&result.profile)
            } else {
                format::write_file_atomic(path, &result.profile)
            };
            if let Err(e) = written {
                say(&format!(
                    "stg-run: cannot write the profile to {}: {e}{}\n",
                    path.display(),
                    disk_full(e.kind(), Some("another --profile-file"))
                ));
                status = io_status;
            } else if let Some(side_path) = &outputs.side_file
                && let Err(message) = write_side_file(side_path, side, result)
            {
                say(&message);
                status = io_status;
            }
        }
        Some(ProfileTo::Stdout) => match write_profile_to_stdout(&result.profile) {
            Err(e) if !stdio::is_closed_pipe(&e) => {
                say(&format!(
                    "stg-run: cannot write the profile to standard output: {e}\n"
                ));
                status = io_status;
            }
            _ => {}
        },
        None => {}
    }
    if let Some(files) = heap_files {
        let summary = result.heap_profile.as_ref();
        if let Some(warning) = summary.and_then(|h| h.budget_warning()) {
            say(&format!("stg-run: warning: {warning}\n"));
        }
        if let Some(limit) = summary.and_then(|h| h.side_table_limit.as_ref()) {
            say(&format!("stg-run: error: {limit}\n"));
            status = io_status;
        }
        for warning in summary.map(|h| h.unmatched_warnings()).unwrap_or_default() {
            say(&format!("stg-run: warning: {warning}\n"));
        }
        if let Err(message) = files.finish(summary.and_then(|h| h.error.as_ref())) {
            say(&format!("stg-run: {message}\n"));
            status = io_status;
        }
    }
    status
}

/// Writes `profile` to standard output (after whatever the run wrote there).
fn write_profile_to_stdout(profile: &stg_run::internal::profile::Profile) -> io::Result<()> {
    format::try_write(profile)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
        .and_then(|bytes| stdio::stdout(Patience::End).write_all(&bytes))
}

/// Is `path` standard output by name (`/dev/stdout`, `/dev/fd/1`,
/// `/proc/self/fd/1`) while standard output is a regular file
/// (`--profile-file /dev/stdout > run.out`)? The profile is then written
/// to standard output after the program's output, as it is through a pipe
/// or to a device; an atomic write would replace the file, and the
/// program's output with it.
fn names_standard_output(path: &Path) -> bool {
    matches!(
        path.to_str(),
        Some("/dev/stdout" | "/dev/fd/1" | "/proc/self/fd/1")
    ) && std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// What to do when a write failed because the disk is full (`kind`):
/// free space, or write `elsewhere` (a flag, a folder; `None` for
/// standard output and error). Empty for any other failure.
fn disk_full(kind: io::ErrorKind, elsewhere: Option<&str>) -> String {
    if !matches!(
        kind,
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded
    ) {
        return String::new();
    }
    match elsewhere {
        None => "; free some space on the disk it goes to".to_string(),
        Some(elsewhere) => {
            format!("; free some space on that disk, or write it elsewhere: {elsewhere}")
        }
    }
}

/// What `--explain` asks for.
struct Explain {
    /// Where the page goes.
    path: PathBuf,
    /// The page's title: the program's files.
    title: String,
    max_steps: u64,
}

/// `--explain`'s page, title and step limit (`--max-steps`, by default
/// [`explain::EXPLAIN_DEFAULT_STEPS`], at most [`explain::EXPLAIN_MAX_STEPS`]).
fn explain_settings(cli: &Cli) -> Result<Option<Explain>, String> {
    let Some(file) = &cli.explain else {
        return Ok(None);
    };
    let stem = program_stem(cli.files.last().expect("clap requires a file"));
    let path = file
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{stem}.html")));
    let max_steps = cli.max_steps.unwrap_or(explain::EXPLAIN_DEFAULT_STEPS);
    if max_steps > explain::EXPLAIN_MAX_STEPS {
        return Err(format!(
            "--explain holds at most {} steps (a page of a longer run is too large for a browser); give --max-steps={} or fewer",
            explain::EXPLAIN_MAX_STEPS,
            explain::EXPLAIN_MAX_STEPS
        ));
    }
    let title = cli
        .files
        .iter()
        .map(|f| f.display().to_string())
        .collect::<Vec<_>>()
        .join(" ");
    Ok(Some(Explain {
        path,
        title,
        max_steps,
    }))
}

/// Writes the explorer page (whole or not at all), saying where it is
/// and, when the step limit stopped the run, that it holds only the steps
/// up to it; false if it could not be written.
fn write_page(e: &Explain, page: &str, result: &machine::RunResult) -> bool {
    if let Err(err) = files::write_atomic(&e.path, page.as_bytes()) {
        say(&format!(
            "stg-run: cannot write the explorer page to {}: {err}{}\n",
            e.path.display(),
            disk_full(err.kind(), Some("another --explain=FILE.html"))
        ));
        return false;
    }
    let steps = result.stats.steps;
    let stopped = matches!(
        result.error.as_ref().map(|e| &e.kind),
        Some(machine::ErrorKind::StepLimit { .. })
    );
    if stopped {
        say(&format!(
            "stg-run: the explorer page {} shows the first {steps} steps only: the run was stopped there by --max-steps={}; give a larger --max-steps (at most {}) to see more\n",
            e.path.display(),
            e.max_steps,
            explain::EXPLAIN_MAX_STEPS
        ));
    } else {
        say(&format!(
            "stg-run: wrote the explorer page {} ({steps} steps): open it in a browser\n",
            e.path.display()
        ));
    }
    true
}

/// The heap profile's files, open while the run writes its censuses to
/// them (each a temporary until [`HeapFiles::finish`]).
struct HeapFiles {
    hp: (PathBuf, io::BufWriter<files::OutputFile>),
    stacks: Option<(PathBuf, io::BufWriter<files::OutputFile>)>,
    /// Where a profile that lists no stacks writes its (empty) listing.
    no_stacks: io::Sink,
}

impl HeapFiles {
    /// Opens the heap profile's files `outputs` planned, if any.
    fn create(outputs: &Outputs) -> Result<Option<HeapFiles>, String> {
        let open = |path: &PathBuf| {
            files::OutputFile::create(path)
                .map(|f| (path.clone(), io::BufWriter::new(f)))
                .map_err(|e| format!("cannot write the heap profile to {}: {e}", path.display()))
        };
        let Some(hp) = &outputs.heap_profile else {
            return Ok(None);
        };
        Ok(Some(HeapFiles {
            hp: open(hp)?,
            stacks: outputs.heap_stacks.as_ref().map(open).transpose()?,
            no_stacks: io::sink(),
        }))
    }

    fn sink(&mut self) -> HeapProfileSink<'_> {
        HeapProfileSink {
            hp: &mut self.hp.1,
            stacks: match &mut self.stacks {
                Some((_, w)) => w,
                None => &mut self.no_stacks,
            },
        }
    }

    /// Renames the files over their paths, unless a write to them failed
    /// (`failed`): then the temporaries are removed and nothing is left
    /// under the final names.
    fn finish(self, failed: Option<&io::Error>) -> Result<(), String> {
        let cannot = |path: &Path, e: &io::Error| {
            format!(
                "cannot write the heap profile to {}: {e}{}",
                path.display(),
                disk_full(
                    e.kind(),
                    Some("another folder (the heap profile goes to the current one)")
                )
            )
        };
        if let Some(e) = failed {
            return Err(cannot(&self.hp.0, e));
        }
        let mut first_error = None;
        for (path, writer) in std::iter::once(self.hp).chain(self.stacks) {
            let done = writer
                .into_inner()
                .map_err(|e| e.into_error())
                .and_then(files::OutputFile::finish);
            if let Err(e) = done {
                first_error.get_or_insert_with(|| cannot(&path, &e));
            }
        }
        first_error.map_or(Ok(()), Err)
    }
}

/// `stg-run --print-prelude`: the bundled Prelude's text on standard output.
fn print_prelude() -> Result<ExitCode, String> {
    write_stdout(stg_run::internal::stg::prelude::SOURCE)
}

/// Writes `text` to standard output (`--print`, `--print-prelude`). A
/// reader that closes the pipe (`| head`) ends it quietly, as for a run.
fn write_stdout(text: &str) -> Result<ExitCode, String> {
    match stdio::stdout(Patience::End).write_all(text.as_bytes()) {
        Err(e) if !stdio::is_closed_pipe(&e) => {
            Err(format!("cannot write to standard output: {e}"))
        }
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// Whether one of the user's modules defines `main`.
fn has_main(program: &stg_run::internal::stg::syntax::Program) -> bool {
    program
        .modules
        .iter()
        .filter(|m| !stg_run::internal::stg::check::is_prelude(m))
        .flat_map(|m| &m.bindings)
        .any(|b| b.name.name == "main")
}

/// What the side file `NAME.pgcl.src` says (src/profile/side_file.rs):
/// what a tick is and where each cost centre is in the source.
fn side_info(
    program: &stg_run::internal::stg::syntax::Program,
    sources: &SourceMap,
    options: &RunOptions,
) -> SideInfo {
    let table = CostCentreTable::new(program);
    SideInfo {
        clock: match options.clock {
            machine::Clock::Steps => Clock::Steps,
            machine::Clock::Cycles => Clock::Cycles,
        },
        locations: side_file::locations(&table, sources),
    }
}

/// Writes the side file to `side_path`.
fn write_side_file(
    side_path: &Path,
    side: &SideInfo,
    result: &machine::RunResult,
) -> Result<(), String> {
    files::write_atomic(side_path, side.to_text(&result.profile).as_bytes()).map_err(|e| {
        format!(
            "stg-run: cannot write the profile's source locations to {}: {e}\n",
            side_path.display()
        )
    })
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
    stg_run::internal::machine::heap_profile::hp_date(secs)
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
