//! `stg-prof`: read a `.pgcl` call-graph profile written by `stg-run --profile`
//! (or by Clean) and print a GHC-style report, a field-by-field dump or a
//! callgrind file for KCacheGrind.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use stg_run::internal::cli::memory::ExitOnRefusal;
use stg_run::internal::cli::stdio::{self, say};
use stg_run::internal::cli::{parse_size, signals};
use stg_run::internal::files::{self, OutputPlan, Patience};
use stg_run::internal::profile::side_file::{self, Clock, SideInfo};
use stg_run::internal::profile::view::diff as view_diff;
use stg_run::internal::profile::view::folded::{self, Weight};
use stg_run::internal::profile::view::{callgrind, dump, heap_chart, html, report};
use stg_run::internal::profile::view::{dot, ghc_json, speedscope};
use stg_run::internal::profile::{MESSAGE_NAME_CHARS, excerpt};
use stg_run::internal::profile::{Profile, format};
use stg_run::internal::profile::{compare, merge};

/// Records, before Rust's runtime starts, whether standard output was
/// closed, so that `stg-prof ... >&-` is a write error, not silence.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static NOTE_CLOSED_DESCRIPTORS: extern "C" fn() = stdio::note_closed_descriptors;

#[derive(Parser)]
#[command(
    name = "stg-prof",
    version,
    about = "Read a .pgcl call-graph profile and print a report, a dump, an HTML page or a file for another tool; draw heap profiles",
    long_about = "Read a .pgcl call-graph profile (Clean's format, version 2, as written by \
                  `stg-run --profile`) and print a report laid out like GHC's .prof file, \
                  every field of the file, an interactive HTML page, or the profile for \
                  another tool: callgrind (KCacheGrind), speedscope, folded stacks \
                  (flamegraph.pl, inferno), GHC's JSON profile, graphviz; or draw a heap \
                  profile (.hp) as an SVG chart. Beside FILE.pgcl, stg-run writes \
                  FILE.pgcl.src (the clock, the cost centres' source locations), read when present.",
    after_help = "Examples:\n  \
                  stg-run programs/queens.stg --profile --auto-cc=top && stg-prof report queens.pgcl\n  \
                  stg-prof html queens.pgcl > queens.html\n  \
                  stg-prof merge queens.pgcl queens.pgcl -o twice.pgcl && stg-prof diff queens.pgcl twice.pgcl\n  \
                  stg-prof help report",
    disable_help_subcommand = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// A refused allocation is a message and status 1, not an abort: nothing
/// here allocates fallibly.
#[global_allocator]
static ALLOCATOR: ExitOnRefusal = ExitOnRefusal {
    tool: "stg-prof",
    advice: "A profile takes about 20 times its file's size in memory once read, \
             and a report or an export up to 55 times: raise the memory limit \
             (`ulimit -v`), or profile with fewer cost centres (--auto-cc, flat mode).",
};

/// The bound on what a subcommand reads (every one that reads a file
/// flattens it in).
#[derive(clap::Args)]
struct InputLimit {
    /// Refuse input files larger than SIZE (bytes, with an optional K, M or G suffix).
    #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = "256M")]
    max_input_size: u64,
}

#[derive(Subcommand)]
enum Command {
    /// Print a time and allocation report laid out like GHC's .prof.
    ///
    /// The header, the costliest cost centres, then the call tree with
    /// individual and inherited %time and %alloc. "entries" counts strict
    /// calls (scc entries); percentages are always of the whole run.
    Report {
        /// The profile file (.pgcl); `-` reads standard input.
        file: PathBuf,
        /// Order of siblings in the tree and of the top table: by inherited
        /// time (then allocation), by allocation (then time), or by entries
        /// (then time). Largest first.
        #[arg(long, value_enum, default_value_t = Sort::Time)]
        sort: Sort,
        /// Hide call-tree entries (with their subtrees) whose inherited ticks
        /// are below N. The root is always shown.
        #[arg(long, value_name = "N", default_value_t = 0)]
        min_ticks: u64,
        /// Hide call-tree entries (with their subtrees) whose inherited
        /// allocation is below N words. The root is always shown.
        #[arg(long, value_name = "N", default_value_t = 0)]
        min_words: u64,
        /// Hide every entry of the cost centre named NAME, with its subtree,
        /// and its row in the top table (repeatable). NAME is a name of the
        /// COST CENTRE column (hiding it in every module) or MODULE.NAME
        /// (in that module only); a NAME that names no cost centre of the
        /// profile is an error. Costs are not re-attributed:
        /// parents' inherited figures still include them.
        #[arg(long, value_name = "NAME")]
        exclude: Vec<String>,
        /// Add raw columns: individual ticks and bytes allocated (like GHC's -P).
        #[arg(long)]
        raw: bool,
        /// Add a "thunks" column: lazy calls (thunk entries that made the entry current).
        #[arg(long)]
        thunks: bool,
        /// Add a "calls" column: tail calls and returns.
        #[arg(long)]
        calls: bool,
        /// Add a "paps" column: curried calls (partial applications built).
        #[arg(long)]
        paps: bool,
        /// Show every extra column (--thunks --calls --paps --raw).
        #[arg(long)]
        all_columns: bool,
        /// Show at most N rows in the top cost-centre table (0: all with any
        /// time or allocation).
        #[arg(long, value_name = "N", default_value_t = 0)]
        top: usize,
        /// Indentation of the tree stops growing at depth N; deeper entries
        /// show their depth in brackets.
        #[arg(long, value_name = "N", default_value_t = 50)]
        max_indent: usize,
        #[command(flatten)]
        input: InputLimit,
    },
    /// Print every field of the file, one item per line, for debugging.
    ///
    /// The header, the modules, the cost centres, then the call graph
    /// depth-first.
    Dump {
        /// The profile file (.pgcl); `-` reads standard input.
        file: PathBuf,
        #[command(flatten)]
        input: InputLimit,
    },
    /// Print the profile in Valgrind's callgrind format, for KCacheGrind.
    ///
    /// For KCacheGrind, QCacheGrind or callgrind_annotate: cost centres are functions
    /// (`Module.name`), the call graph's edges are calls with their
    /// inherited costs; events Ticks, Bytes, Entries, Thunks, Calls, PAPs.
    /// Save it as `callgrind.out.NAME`, the name KCacheGrind looks for:
    /// `stg-prof callgrind nfib.pgcl > callgrind.out.nfib`.
    Callgrind {
        /// The profile file (.pgcl); `-` reads standard input.
        file: PathBuf,
        #[command(flatten)]
        input: InputLimit,
    },
    /// Print the profile as one self-contained interactive HTML page.
    ///
    /// A flame graph of the call tree (click to zoom, breadcrumb back), the
    /// callers of any cost centre, the cost-centre table (sorted by any
    /// column header) and the foldable call tree, with the same figures as
    /// `report`; search, minimum %time and %alloc and exclusions filter them
    /// all live. With --heap, a heap profile's chart too; with --diff, what
    /// changed from an earlier run. The page loads nothing from the network.
    /// `stg-prof html nfib.pgcl --heap nfib.hp > nfib.html`,
    /// `stg-prof html --diff before.pgcl after.pgcl > changes.html`.
    Html {
        /// The profile file (.pgcl); `-` reads standard input.
        file: PathBuf,
        /// Also show this heap profile (.hp, from `stg-run --heap-profile`)
        /// as a chart, under the call tree; `-` reads standard input.
        #[arg(long, value_name = "FILE.hp")]
        heap: Option<PathBuf>,
        /// Also show what changed from this earlier run of the program to
        /// FILE (`stg-prof diff BEFORE FILE`'s tables, sortable and
        /// searchable); `-` reads standard input.
        #[arg(long, value_name = "BEFORE.pgcl")]
        diff: Option<PathBuf>,
        #[command(flatten)]
        input: InputLimit,
    },
    /// Print the profile in speedscope's JSON file format.
    ///
    /// Open it at speedscope.app or with `speedscope FILE`: two evented profiles,
    /// time and allocation, over the call tree; frames are cost centres
    /// (`Module.name`) with their source locations.
    /// `stg-prof speedscope nfib.pgcl > nfib.speedscope.json`.
    Speedscope {
        /// The profile file (.pgcl); `-` reads standard input.
        file: PathBuf,
        #[command(flatten)]
        input: InputLimit,
    },
    /// Print the profile as folded stacks, for flamegraph.pl and inferno.
    ///
    /// `MAIN.MAIN;nfib.main;nfib.nfib 123`: one line per entry with its individual ticks (or bytes), for
    /// flamegraph.pl or inferno: `stg-prof folded nfib.pgcl | inferno-flamegraph > nfib.svg`.
    Folded {
        /// The profile file (.pgcl); `-` reads standard input.
        file: PathBuf,
        /// Weigh stacks by bytes allocated instead of ticks.
        #[arg(long)]
        alloc: bool,
        /// Refuse to write more than SIZE (bytes, with an optional K, M or
        /// G suffix). Each line holds its whole stack, so a deep recursion
        /// makes the output grow with its depth times its entries; the size
        /// is worked out before anything is written.
        #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = "1G")]
        max_output_size: u64,
        #[command(flatten)]
        input: InputLimit,
    },
    /// Print the profile in the layout of GHC's JSON profile (`+RTS -pj`).
    ///
    /// For tools that read GHC's profiles (speedscope, profiteur): cost
    /// centres with their source locations, the call tree with entries,
    /// ticks and bytes allocated.
    Json {
        /// The profile file (.pgcl); `-` reads standard input.
        file: PathBuf,
        #[command(flatten)]
        input: InputLimit,
    },
    /// Print the call graph for graphviz (`dot -Tsvg`).
    ///
    /// One node per cost centre
    /// (coloured by its individual share of the time), one edge per caller
    /// and callee (coloured and sized by the inherited share on it).
    /// `stg-prof dot nfib.pgcl | dot -Tsvg > nfib.svg`.
    Dot {
        /// The profile file (.pgcl); `-` reads standard input.
        file: PathBuf,
        /// Leave out cost centres whose inherited share of the time is
        /// below PERCENT (the root stays).
        #[arg(long, value_name = "PERCENT", default_value_t = 0.5, value_parser = percent)]
        node_threshold: f64,
        /// Leave out edges whose share of the time is below PERCENT.
        #[arg(long, value_name = "PERCENT", default_value_t = 0.1, value_parser = percent)]
        edge_threshold: f64,
        #[command(flatten)]
        input: InputLimit,
    },
    /// Compare two runs of one program, counter by counter.
    ///
    /// Entries are matched by cost-centre
    /// path, cost centres by name, the change of every counter (B − A),
    /// largest first. Prints nothing when nothing changed, like `diff`.
    /// Errors (unreadable files, profiles of two different programs) exit
    /// with status 2. `stg-prof diff before.pgcl after.pgcl`.
    Diff {
        /// The first profile (.pgcl): the "before"; `-` reads standard input.
        a: PathBuf,
        /// The second profile (.pgcl): the "after"; `-` reads standard input.
        b: PathBuf,
        /// Leave out rows whose every counter changed by less than N (a
        /// tolerance; 1 leaves out only the unchanged rows).
        #[arg(long, value_name = "N", default_value_t = 1)]
        min_change: u64,
        /// Exit with status 1 when a change is shown, 0 when none is (so
        /// that a script or a golden test can gate on it).
        #[arg(long)]
        exit_code: bool,
        #[command(flatten)]
        input: InputLimit,
    },
    /// Sum several runs of one program into one profile.
    ///
    /// Written to `-o FILE.pgcl` (with its side file, FILE.pgcl.src, when the first
    /// input has one): entries matched by cost-centre path, counters
    /// added. The profiles must declare the same modules and cost
    /// centres; the first difference is an error.
    /// `stg-prof merge run1.pgcl run2.pgcl -o both.pgcl`.
    Merge {
        /// The profiles (.pgcl), at least two; one of them may be `-`
        /// (standard input).
        #[arg(required = true, num_args = 2..)]
        files: Vec<PathBuf>,
        /// Where to write the sum (not one of the inputs).
        #[arg(short = 'o', long = "output", value_name = "FILE.pgcl")]
        output: PathBuf,
        #[command(flatten)]
        input: InputLimit,
    },
    /// Draw a heap profile (.hp) as an SVG chart, like hp2ps.
    ///
    /// The heap profile comes from `stg-run --heap-profile` or GHC's
    /// `+RTS -h`; the chart is stacked areas, one band per group, the
    /// largest at the bottom, at most 20 (the rest merged into OTHER).
    /// hp2ps reads the same files. `stg-prof heap foldl_leak.hp > foldl_leak.svg`.
    Heap {
        /// The heap profile (.hp); `-` reads standard input.
        file: PathBuf,
        #[command(flatten)]
        input: InputLimit,
        /// The chart's title (default: the program's name and the date, from the file).
        #[arg(long)]
        title: Option<String>,
        /// Bands drawn on their own; the smaller ones are merged into OTHER, as hp2ps's -m does.
        #[arg(long, value_name = "N", default_value_t = heap_chart::MAX_BANDS as u64,
              value_parser = clap::value_parser!(u64).range(1..=heap_chart::MAX_TOP as u64))]
        top: u64,
        /// Width of the picture, in pixels (the legend takes 270 of them).
        #[arg(long, value_name = "PIXELS", default_value_t = 960,
              value_parser = clap::value_parser!(u32).range(heap_chart::MIN_WIDTH as i64..=heap_chart::MAX_SIZE as i64))]
        width: u32,
        /// Height of the picture, in pixels (taller if the legend needs it).
        #[arg(long, value_name = "PIXELS", default_value_t = 540,
              value_parser = clap::value_parser!(u32).range(heap_chart::MIN_HEIGHT as i64..=heap_chart::MAX_SIZE as i64))]
        height: u32,
    },
    /// Print this help, or the help of a subcommand (`stg-prof help report`).
    Help {
        /// The subcommand to explain.
        #[arg(value_name = "COMMAND")]
        command: Option<String>,
    },
}

impl Command {
    /// `--max-input-size` of the subcommand (the default for `help`).
    fn max_input_size(&self) -> u64 {
        match self {
            Command::Report { input, .. }
            | Command::Dump { input, .. }
            | Command::Callgrind { input, .. }
            | Command::Html { input, .. }
            | Command::Speedscope { input, .. }
            | Command::Folded { input, .. }
            | Command::Json { input, .. }
            | Command::Dot { input, .. }
            | Command::Diff { input, .. }
            | Command::Merge { input, .. }
            | Command::Heap { input, .. } => input.max_input_size,
            Command::Help { .. } => files::DEFAULT_MAX_INPUT_BYTES,
        }
    }
}

/// A percentage, 0 to 100.
fn percent(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(p) if (0.0..=100.0).contains(&p) => Ok(p),
        _ => Err(format!("`{s}` is not a percentage from 0 to 100")),
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Sort {
    Time,
    Alloc,
    Entries,
}

/// The profile in `file` (`-`: standard input), read within `limit`
/// bytes, and its side file's information (the clock, the cost centres'
/// source locations: src/profile/side_file.rs), or none when there is no
/// side file (never for standard input); a side file that cannot be used
/// is warned about and done without.
fn load(file: &Path, limit: u64) -> Result<(Profile, SideInfo), String> {
    let bytes = files::read_input_or_stdin(file, limit).map_err(|e| format!("stg-prof: {e}"))?;
    let profile = format::read(&bytes).map_err(|e| format!("stg-prof: {}: {e}", shown(file)))?;
    if file.as_os_str() == files::STDIN_NAME {
        return Ok((profile, SideInfo::default()));
    }
    let side = match side_file::read_beside(file, &profile) {
        Ok(side) => side.unwrap_or_default(),
        Err(e) => {
            say(&format!(
                "stg-prof: warning: {e}; going on without source locations (stg-run writes \
                 the side file beside the profile: run it again to have them)\n"
            ));
            SideInfo::default()
        }
    };
    Ok((profile, side))
}

/// A file as messages name it: `standard input` for `-`.
fn shown(file: &Path) -> String {
    if file.as_os_str() == files::STDIN_NAME {
        "standard input".to_string()
    } else {
        file.display().to_string()
    }
}

/// The chart of the heap profile `file`, as SVG, and the program it is of
/// (its `JOB`).
fn heap_svg(
    file: &Path,
    limit: u64,
    options: &heap_chart::ChartOptions,
) -> Result<(String, String), String> {
    let bytes = files::read_input_or_stdin(file, limit).map_err(|e| format!("stg-prof: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| {
        format!(
            "stg-prof: {}: not a heap profile: a .hp file is text (stg-run --heap-profile \
             writes one); a .pgcl profile goes to `stg-prof report` or `html`",
            shown(file)
        )
    })?;
    let hp = heap_chart::read_hp(&text).map_err(|e| format!("stg-prof: {}: {e}", shown(file)))?;
    if let Some(line) = hp.cut_short {
        say(&format!(
            "stg-prof: {}: warning: the file was cut short: what begins on line {line} is \
             unfinished (a sample without END_SAMPLE, or a line cut off); drawing the {} \
             complete samples before it\n",
            shown(file),
            hp.times.len()
        ));
    }
    Ok((heap_chart::svg_with(&hp, options), hp.job))
}

/// Modules a warning names; the others are counted.
const MODULES_NAMED: usize = 8;

/// Warns when the heap profile `hp_file` is of a program (`job`, the stem
/// `stg-run` names it after) that has no module in the profile `p`: the
/// page would show two different runs side by side.
fn check_same_program(p: &Profile, file: &std::path::Path, job: &str, hp_file: &std::path::Path) {
    if !p.modules.iter().any(|m| m == job) {
        let quoted = |name: &str| format!("`{}`", excerpt(name, MESSAGE_NAME_CHARS));
        let modules: Vec<String> = p
            .modules
            .iter()
            .take(MODULES_NAMED)
            .map(|m| quoted(m))
            .collect();
        let more = match p.modules.len().saturating_sub(MODULES_NAMED) {
            0 => String::new(),
            n => format!(" and {n} more"),
        };
        say(&format!(
            "stg-prof: warning: {} is a heap profile of {}, but {} profiles the modules {}{more}; \
             the page shows them together all the same (check that both come from one run)\n",
            shown(hp_file),
            quoted(job),
            shown(file),
            modules.join(", ")
        ));
    }
}

/// An error naming every `--exclude` name that names no cost centre of the
/// profile in `file`, and where to find the names.
fn check_exclusions(
    p: &Profile,
    opts: &report::Options,
    file: &std::path::Path,
) -> Result<(), String> {
    let unknown = report::unknown_exclusions(p, opts);
    if unknown.is_empty() {
        return Ok(());
    }
    let mut msg = String::new();
    for name in unknown {
        msg.push_str(&format!(
            "stg-prof: --exclude {name}: {} has no cost centre named `{name}`\n",
            file.display()
        ));
    }
    msg.push_str(&format!(
        "stg-prof: `stg-prof report {}` shows the names (the COST CENTRE column); \
         --exclude takes one alone (every module's) or as MODULE.NAME (one module's)",
        file.display()
    ));
    Err(msg)
}

/// What a command writes to standard output.
type Output = Box<dyn FnOnce(&mut dyn Write) -> std::io::Result<()>>;

/// A text written whole.
fn text(t: String) -> Output {
    Box::new(move |w| w.write_all(t.as_bytes()))
}

/// `stg-prof help [COMMAND]`: exactly what `stg-prof [COMMAND] --help`
/// prints, by parsing that command line (clap prints the help and exits 0,
/// or reports an unknown subcommand and exits 2). clap's own `help`
/// subcommand is turned off because it refuses `stg-prof help --help`.
fn help(command: Option<String>) -> Result<Output, String> {
    let args = ["stg-prof".to_string()]
        .into_iter()
        .chain(command)
        .chain(["--help".to_string()]);
    Cli::parse_from(args);
    Err("stg-prof: help: no help was printed (a bug: please report it)".to_string())
}

/// `stg-prof diff`: status 0 (no change shown, or changes without
/// `--exit-code`), 1 (changes, with `--exit-code`) or 2 (an error).
fn diff_command(a: &Path, b: &Path, limit: u64, min_change: u64, exit_code: bool) -> ExitCode {
    let run = || -> Result<bool, String> {
        stdin_once(a, Some(b))?;
        let (pa, _) = load(a, limit)?;
        let (pb, _) = load(b, limit)?;
        let (na, nb) = (shown(a), shown(b));
        let c = compare::compare(&pa, &na, &pb, &nb).map_err(|e| format!("stg-prof: {e}"))?;
        let differs = view_diff::differs(&c, min_change as u128);
        emit(Box::new(move |w| {
            view_diff::write_diff(&c, &na, &nb, min_change as u128, w)
        }))?;
        Ok(differs)
    };
    match run() {
        Ok(true) if exit_code => ExitCode::from(1),
        Ok(_) => ExitCode::SUCCESS,
        Err(msg) => {
            say(&format!("{msg}\n"));
            ExitCode::from(2)
        }
    }
}

/// `stg-prof merge`: the sum of `files` written to `output`, with the
/// first input's side file.
fn merge_command(files: &[PathBuf], output: &Path, limit: u64) -> Result<(), String> {
    let stdin_uses = files
        .iter()
        .filter(|f| f.as_os_str() == files::STDIN_NAME)
        .count();
    if stdin_uses > 1 {
        return Err(
            "stg-prof: merge: `-` (standard input) is given more than once; it can be read \
             only once: give the others as files"
                .to_string(),
        );
    }
    // The output is checked before anything is read: it can be created and
    // is none of the files the merge reads, the profiles and their side
    // files (which would be overwritten).
    let read: Vec<PathBuf> = files
        .iter()
        .flat_map(|f| {
            let side = (f.as_os_str() != files::STDIN_NAME).then(|| side_file::path_for(f));
            std::iter::once(f.clone()).chain(side)
        })
        .collect();
    let mut plan = OutputPlan::new(&read);
    plan.add("the merged profile", output)
        .map_err(|e| format!("stg-prof: merge: {e}"))?;
    // Its side file goes beside it, unless it is a device (`/dev/null`).
    // The side file is extra, as for `stg-run`: one that cannot be written
    // (a name one byte too long, a folder that cannot be written) is
    // warned about and the sum written without it.
    let mut beside = match std::fs::metadata(output) {
        Ok(m) => m.is_file(),
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    };
    // Named now, before the sum replaces the file: `/dev/stdout` leads to
    // `sum.pgcl` now, and to `sum.pgcl (deleted)` after.
    let side_path = side_file::path_for(output);
    if beside && let Err(e) = plan.add("its side file", &side_path) {
        say(&format!(
            "stg-prof: merge: warning: {e}; the merged profile is written without it \
             (its reports will show no source locations)\n"
        ));
        beside = false;
    }
    let mut loaded = Vec::new();
    for f in files {
        let (p, side) = load(f, limit)?;
        loaded.push((shown(f), p, side));
    }
    let inputs: Vec<(&str, &Profile)> = loaded.iter().map(|(n, p, _)| (n.as_str(), p)).collect();
    let sum = merge::merge(&inputs).map_err(|e| format!("stg-prof: merge: {e}"))?;
    // An input without a side file (standard input, a profile copied
    // alone) names no clock: only two that name different ones conflict,
    // whichever places they have among the inputs.
    let clock_name = |c: Clock| match c {
        Clock::Steps => "steps",
        Clock::Cycles => "cycles",
        Clock::Unknown => "unknown",
    };
    let mut known = loaded.iter().filter(|(_, _, s)| s.clock != Clock::Unknown);
    if let Some((first_known, _, first_known_side)) = known.next()
        && let Some((name, _, side)) = known.find(|(_, _, s)| s.clock != first_known_side.clock)
    {
        return Err(format!(
            "stg-prof: merge: {name} counts ticks of the {} clock, {first_known} of the {} \
             clock (their side files say so): the sum would add steps to cycles; merge \
             runs of one clock (`stg-run --clock`)",
            clock_name(side.clock),
            clock_name(first_known_side.clock)
        ));
    }
    let (_, _, first_side) = &loaded[0];
    format::write_file_atomic(output, &sum)
        .map_err(|e| format!("stg-prof: merge: cannot write {}: {e}", output.display()))?;
    if beside && *first_side == SideInfo::default() {
        // No side file: none of an older profile of that name either.
        let _ = std::fs::remove_file(&side_path);
    } else if beside {
        files::write_atomic(&side_path, first_side.to_text(&sum).as_bytes())
            .map_err(|e| format!("stg-prof: merge: cannot write {}: {e}", side_path.display()))?;
    }
    Ok(())
}

fn main() -> ExitCode {
    signals::install("stg-prof");
    let matches = stdio::parse_command_line(Cli::command(), "stg-prof");
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    // Every input is read within --max-input-size: these shadow the two
    // readers with the limit applied.
    let limit = cli.command.max_input_size();
    let load = |file: &Path| load(file, limit);
    let heap_svg = |file: &Path, options: &heap_chart::ChartOptions| heap_svg(file, limit, options);
    let result: Result<Output, String> = match cli.command {
        Command::Help { command } => help(command),
        Command::Diff {
            a,
            b,
            min_change,
            exit_code,
            ..
        } => return diff_command(&a, &b, limit, min_change, exit_code),
        Command::Merge { files, output, .. } => {
            merge_command(&files, &output, limit).map(|()| text(String::new()))
        }
        // The dump and the report are written as they are made: a profile
        // of millions of entries gives a text of hundreds of megabytes.
        Command::Dump { file, .. } => {
            load(&file).map(|(p, _)| -> Output { Box::new(move |w| dump::write_dump(&p, w)) })
        }
        Command::Heap {
            file,
            title,
            top,
            width,
            height,
            ..
        } => {
            let options = heap_chart::ChartOptions {
                title,
                top: top as usize,
                width,
                height,
            };
            heap_svg(&file, &options).map(|(svg, _)| text(svg))
        }
        Command::Html {
            file, heap, diff, ..
        } => stdin_once(&file, heap.as_deref())
            .and_then(|()| stdin_once(&file, diff.as_deref()))
            .and_then(|()| match &heap {
                Some(h) => stdin_once(h, diff.as_deref()),
                None => Ok(()),
            })
            .and_then(|()| {
                heap.as_deref()
                    .map(|h| heap_svg(h, &heap_chart::ChartOptions::default()))
                    .transpose()
            })
            .and_then(|chart| {
                let (p, side) = load(&file)?;
                if let (Some((_, job)), Some(h)) = (&chart, &heap) {
                    check_same_program(&p, &file, job, h);
                }
                let svg = chart.as_ref().map(|(svg, _)| svg.as_str());
                let Some(before) = &diff else {
                    return Ok(html::html(&p, &side, svg));
                };
                let (pa, _) = load(before)?;
                let (na, nb) = (shown(before), shown(&file));
                let c = compare::compare(&pa, &na, &p, &nb)
                    .map_err(|e| format!("stg-prof: html --diff: {e}"))?;
                let shown_diff = html::DiffShown {
                    comparison: &c,
                    before: &na,
                    after: &nb,
                };
                Ok(html::html_with_diff(&p, &side, svg, &shown_diff))
            })
            .map(text),
        Command::Speedscope { file, .. } => load(&file)
            .map(|(p, side)| speedscope::speedscope(&p, &side))
            .map(text),
        Command::Folded {
            file,
            alloc,
            max_output_size,
            ..
        } => load(&file).and_then(|(p, _)| -> Result<Output, String> {
            let weight = if alloc { Weight::Bytes } else { Weight::Ticks };
            check_folded_size(&p, weight, max_output_size, &file)?;
            Ok(Box::new(move |w| folded::write_folded(&p, weight, w)))
        }),
        Command::Json { file, .. } => load(&file)
            .map(|(p, side)| ghc_json::ghc_json(&p, &side))
            .map(text),
        Command::Dot {
            file,
            node_threshold,
            edge_threshold,
            ..
        } => load(&file)
            .map(|(p, side)| {
                let limits = dot::Thresholds {
                    node_threshold,
                    edge_threshold,
                };
                dot::dot(&p, &side, limits)
            })
            .map(text),
        Command::Callgrind { file, .. } => load(&file)
            .map(|(p, side)| callgrind::callgrind(&p, &side))
            .map(text),
        Command::Report {
            file,
            sort,
            min_ticks,
            min_words,
            exclude,
            raw,
            thunks,
            calls,
            paps,
            all_columns,
            top,
            max_indent,
            ..
        } => load(&file).and_then(|(p, side)| {
            let opts = report::Options {
                program: p.program_name().to_string(),
                sort: match sort {
                    Sort::Time => report::SortBy::Time,
                    Sort::Alloc => report::SortBy::Alloc,
                    Sort::Entries => report::SortBy::Entries,
                },
                min_ticks,
                min_words,
                exclude,
                raw: raw || all_columns,
                thunks: thunks || all_columns,
                calls: calls || all_columns,
                paps: paps || all_columns,
                top,
                max_indent,
                side,
            };
            check_exclusions(&p, &opts, &file)?;
            Ok(Box::new(move |w: &mut dyn Write| report::write_report(&p, &opts, w)) as Output)
        }),
    };
    match result.and_then(emit) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            say(&format!("{msg}\n"));
            ExitCode::FAILURE
        }
    }
}

/// An error, before anything is written, when the folded stacks of `p`
/// would be larger than `limit` bytes.
fn check_folded_size(p: &Profile, weight: Weight, limit: u64, file: &Path) -> Result<(), String> {
    let size = folded::folded_size(p, weight);
    if size.bytes <= u128::from(limit) {
        return Ok(());
    }
    let bytes = u64::try_from(size.bytes)
        .map(files::bytes_text)
        .unwrap_or_else(|_| format!("{} bytes", size.bytes));
    let raise = match u64::try_from(size.bytes.div_ceil(1 << 20)) {
        Ok(mb) => format!("raise --max-output-size (e.g. --max-output-size={mb}M)"),
        Err(_) => "raise --max-output-size".to_string(),
    };
    Err(format!(
        "stg-prof: folded: the folded stacks of {} would take {bytes} in {} lines, \
         the longest {} frames deep; --max-output-size allows {}. \
         Each line holds its whole stack, so a deep recursion makes the output grow with \
         its depth times its entries: {raise}, or use `stg-prof speedscope`, \
         whose size grows with the entries alone",
        shown(file),
        size.lines,
        size.deepest,
        files::bytes_text(limit)
    ))
}

/// An error when two inputs both name standard input, which can be read once.
fn stdin_once(file: &Path, other: Option<&Path>) -> Result<(), String> {
    let is_stdin = |f: &Path| f.as_os_str() == files::STDIN_NAME;
    if is_stdin(file) && other.is_some_and(is_stdin) {
        return Err(
            "stg-prof: `-` (standard input) is given twice; it can be read only once: \
             give one of the two as a file"
                .to_string(),
        );
    }
    Ok(())
}

/// Writes a command's output to standard output and flushes it. A failed
/// write (a full disk, `> /dev/full`) is an error: the output is
/// incomplete. A closed pipe (`stg-prof report x.pgcl | head`) is the
/// reader's choice, not a failure: nothing is said and the status stays
/// 0, as for `stg-run`.
fn emit(output: Output) -> Result<(), String> {
    let mut out = std::io::BufWriter::new(stdio::stdout(Patience::End));
    match output(&mut out).and_then(|()| out.flush()) {
        Err(e) if !stdio::is_closed_pipe(&e) => {
            Err(format!("stg-prof: could not write the output: {e}"))
        }
        _ => Ok(()),
    }
}
