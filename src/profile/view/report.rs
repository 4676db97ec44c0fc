//! `stg-prof report`: a text report laid out like GHC's `.prof`.
//!
//! Three parts, as GHC's: a header (program, total time, total allocation),
//! the costliest cost centres (each cost centre's individual costs summed over
//! every entry of it in the call graph), and the call tree.
//!
//! Choices, where GHC or Clean leave room:
//! - `entries` is the strict-call count alone (`scc` entries: the paper's
//!   instances, GHC's entries). Thunk entries are *not* added, so a cost
//!   centre that is only ever re-entered through thunks (a `CAF`) shows 0
//!   entries, as in GHC. Thunk entries are the optional `thunks` column.
//! - `no.` is the entry's number in the file's depth-first order (root = 0),
//!   the numbering of `stg-prof dump` and of format error messages.
//! - Siblings are ordered like GHC's report (since GHC 7.4): by inherited
//!   ticks, descending, ties by inherited allocation, then file order.
//!   `--sort alloc` swaps the two keys; `--sort entries` orders by entries,
//!   then inherited ticks. The top table uses the same key on individual
//!   (aggregated) costs. (The examples in GHC's guide predate the sorting.)
//! - Percentages are always of the whole run, whatever is hidden.
//! - `min_ticks` / `min_words` hide every entry whose *inherited* ticks /
//!   words are below the threshold (and so its subtree), like Clean's
//!   `convertprofile --min-ticks/--min-words`; each threshold prunes on its
//!   own. The root is always shown.
//! - `exclude` hides every entry of a cost centre with that name, with its
//!   whole subtree, like `convertprofile --exclude`, and its row in the top
//!   table. A name is a label alone (`safe`: the cost centres of that label
//!   in every module) or qualified as `Module.label` (`queens.safe`: that
//!   module's only, the name `stg-prof callgrind` gives it). A name that
//!   names no cost centre of the profile is an error
//!   ([`unknown_exclusions`]), so a misspelling never passes for a filter.
//!   Nothing is re-attributed: a parent's inherited figures still include
//!   the hidden subtree.
//! - Names (cost centres, modules, the program) are printed with control
//!   characters as spaces, so that a label holding a newline or a tab
//!   keeps its row on one line and the columns aligned.
//! - Indentation (one space per level, as GHC) stops at `max_indent`; deeper
//!   entries are prefixed with their depth in brackets, e.g. `[1234] fib`.
//!
//! Everything is iterative and counts are summed in `u128`, so neither deep
//! trees nor counters near `u64::MAX` can overflow anything.

use std::io::{self, Write};

use crate::profile::side_file::{Clock, SideInfo};
use crate::profile::tree::{Sums, Tree};
use crate::profile::{CostCentreDecl, Profile, one_line};

/// Bytes per heap word.
pub const WORD_BYTES: u128 = 8;

/// Order of siblings in the tree and of rows in the top table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SortBy {
    /// Ticks, then allocation (GHC's order).
    #[default]
    Time,
    /// Allocation, then ticks.
    Alloc,
    /// Entries (strict calls), then ticks.
    Entries,
}

/// What the report shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Program name for the header.
    pub program: String,
    pub sort: SortBy,
    /// Hide entries whose inherited ticks are below this.
    pub min_ticks: u64,
    /// Hide entries whose inherited words are below this.
    pub min_words: u64,
    /// Hide entries of cost centres with these names, and their subtrees.
    pub exclude: Vec<String>,
    /// Add raw `ticks` and `bytes` columns (individual), like GHC's `-P`.
    pub raw: bool,
    /// Add a `thunks` column: lazy calls (thunk entries).
    pub thunks: bool,
    /// Add a `calls` column: tail calls and returns.
    pub calls: bool,
    /// Add a `paps` column: curried calls (partial applications built).
    pub paps: bool,
    /// Rows in the top table; 0 = every cost centre with any time or
    /// allocation.
    pub top: usize,
    /// Indentation stops growing at this depth.
    pub max_indent: usize,
    /// The side file's clock and source locations: with locations, both
    /// tables get GHC's SRC column.
    pub side: SideInfo,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            program: String::new(),
            sort: SortBy::Time,
            min_ticks: 0,
            min_words: 0,
            exclude: Vec::new(),
            raw: false,
            thunks: false,
            calls: false,
            paps: false,
            top: 0,
            max_indent: 50,
            side: SideInfo::default(),
        }
    }
}

fn pct(part: u128, total: u128) -> String {
    if total == 0 {
        return "0.0".to_string();
    }
    format!("{:.1}", part as f64 * 100.0 / total as f64)
}

/// `1234567` → `1,234,567`.
pub(crate) fn thousands(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Sort key: larger first.
fn key(sort: SortBy, s: &Sums) -> (u128, u128) {
    match sort {
        SortBy::Time => (s.ticks, s.words),
        SortBy::Alloc => (s.words, s.ticks),
        SortBy::Entries => (s.strict, s.ticks),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    Right,
}

/// A table's rows, handed one by one to the function given (see [`table`]).
pub(crate) type Rows<'a> = dyn Fn(&mut dyn FnMut(&[String])) + 'a;

/// Lays out rows in columns separated by two spaces (one after a
/// left-aligned column is not enough to read names apart, GHC uses at least
/// one; we use two everywhere for simplicity). `rows(f)` hands each row's
/// cells to `f`, in order, and is called twice: once to measure the
/// columns, once to write the rows, so that a table of any length takes no
/// memory for its rows (a profile may hold millions of entries). Returns
/// the number of rows.
pub(crate) fn table(
    out: &mut dyn Write,
    head: &[String],
    align: &[Align],
    over: &[(usize, &str)],
    rows: &Rows,
) -> io::Result<usize> {
    let n = head.len();
    let mut width: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    let mut count = 0;
    rows(&mut |r: &[String]| {
        count += 1;
        for (w, cell) in width.iter_mut().zip(r) {
            *w = (*w).max(cell.chars().count());
        }
    });
    let render = |cells: &[String], line: &mut String| {
        line.clear();
        for i in 0..n {
            let cell = cells.get(i).map(String::as_str).unwrap_or("");
            let pad = width[i].saturating_sub(cell.chars().count());
            if i > 0 {
                line.push_str("  ");
            }
            match align[i] {
                Align::Left => {
                    line.push_str(cell);
                    line.extend(std::iter::repeat_n(' ', pad));
                }
                Align::Right => {
                    line.extend(std::iter::repeat_n(' ', pad));
                    line.push_str(cell);
                }
            }
        }
        line.truncate(line.trim_end().len());
        line.push('\n');
    };
    // Labels over groups of columns: each label ends where the last column of
    // its group ends.
    if !over.is_empty() {
        let mut line = String::new();
        for &(last_col, label) in over {
            let end: usize = width[..=last_col].iter().sum::<usize>() + 2 * last_col;
            let start = end.saturating_sub(label.chars().count());
            let len = line.chars().count();
            let gap = if start > len {
                start - len
            } else if len > 0 {
                1
            } else {
                0
            };
            line.extend(std::iter::repeat_n(' ', gap));
            line.push_str(label);
        }
        writeln!(out, "{line}")?;
    }
    let mut line = String::new();
    render(head, &mut line);
    out.write_all(line.as_bytes())?;
    let mut result = Ok(());
    rows(&mut |r: &[String]| {
        if result.is_ok() {
            render(r, &mut line);
            result = out.write_all(line.as_bytes());
        }
    });
    result.map(|()| count)
}

/// Whether `name` (an `exclude` name) names `cc`: its label alone, or
/// `Module.label`.
fn names(profile: &Profile, cc: &CostCentreDecl, name: &str) -> bool {
    cc.name == name
        || name
            .strip_prefix(profile.module_of(cc))
            .and_then(|rest| rest.strip_prefix('.'))
            == Some(cc.name.as_str())
}

/// The names of `opts.exclude` that name no cost centre declared in
/// `profile` (neither as a label nor as `Module.label`), in the order given.
/// A cost centre the file declares but no entry uses is a name of the
/// profile, so excluding it is not an error (it hides nothing).
pub fn unknown_exclusions<'a>(profile: &Profile, opts: &'a Options) -> Vec<&'a str> {
    opts.exclude
        .iter()
        .filter(|x| !profile.cost_centres.iter().any(|cc| names(profile, cc, x)))
        .map(String::as_str)
        .collect()
}

/// The header's first line of figures: what the ticks add up to, in the
/// clock's own unit. With the steps clock, steps (never seconds, even where
/// the header records steps per second); with the cycles clock, seconds
/// where the frequency is known; without a side file, seconds where the
/// frequency is known (Clean's and older files), else ticks.
fn write_total_time(
    profile: &Profile,
    side: &SideInfo,
    ticks: u128,
    out: &mut dyn Write,
) -> io::Result<()> {
    let unit = match side.clock {
        Clock::Steps => {
            return writeln!(
                out,
                "\ttotal steps = {:>12}        (a tick is one machine step: %time is a share of the steps)",
                thousands(ticks)
            );
        }
        Clock::Cycles => "cycles",
        Clock::Unknown => "ticks",
    };
    if profile.frequency > 0 {
        let secs = ticks as f64 / profile.frequency as f64;
        writeln!(
            out,
            "\ttotal time  = {secs:>12.2} secs   ({} {unit} @ {} {unit}/sec)",
            thousands(ticks),
            thousands(profile.frequency as u128)
        )
    } else {
        writeln!(
            out,
            "\ttotal {unit:<6}= {:>12}        (clock frequency not recorded)",
            thousands(ticks)
        )
    }
}

/// The report for `profile`, as one string (see [`write_report`]).
pub fn report(profile: &Profile, opts: &Options) -> String {
    let mut out = Vec::new();
    // Writing to a vector cannot fail.
    let _ = write_report(profile, opts, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Write the report for `profile` to `out` as it goes, holding no more
/// than a row of it at a time.
pub fn write_report(profile: &Profile, opts: &Options, out: &mut dyn Write) -> io::Result<()> {
    let tree = Tree::new(profile);
    let n = profile.entries.len();
    let (indiv, inh) = tree.sums(profile);
    let total = if n > 0 { inh[0] } else { Sums::default() };

    let cc_name = |id: u32| -> &str { profile.cost_centre(id).map_or("?", |c| c.name.as_str()) };
    let cc_module = |id: u32| -> &str {
        profile
            .cost_centre(id)
            .map_or("?", |c| profile.module_of(c))
    };
    let excluded = |id: u32| {
        profile
            .cost_centre(id)
            .is_some_and(|cc| opts.exclude.iter().any(|x| names(profile, cc, x)))
    };

    // Header.
    let program = if opts.program.is_empty() {
        "<program>"
    } else {
        &opts.program
    };
    writeln!(
        out,
        "\t{} Time and Allocation Profiling Report\n",
        one_line(program)
    )?;
    write_total_time(profile, &opts.side, total.ticks, out)?;
    writeln!(
        out,
        "\ttotal alloc = {:>12} bytes  ({} words)",
        thousands(total.words * WORD_BYTES),
        thousands(total.words)
    )?;
    if profile.overhead > 0 {
        writeln!(
            out,
            "\toverhead    = {:>12} ticks per 1000 profiling events (estimated)",
            thousands(profile.overhead as u128)
        )?;
    }
    // Say what the options hide, so a partial tree is never mistaken for the
    // whole one.
    let mut hidden: Vec<String> = Vec::new();
    if opts.min_ticks > 0 {
        hidden.push(format!("entries with inherited ticks < {}", opts.min_ticks));
    }
    if opts.min_words > 0 {
        hidden.push(format!("entries with inherited words < {}", opts.min_words));
    }
    if !opts.exclude.is_empty() {
        hidden.push(format!(
            "cost centre{} {} with subtrees",
            if opts.exclude.len() == 1 { "" } else { "s" },
            one_line(&opts.exclude.join(", "))
        ));
    }
    if !hidden.is_empty() {
        writeln!(out, "\thidden      = {}", hidden.join("; "))?;
    }
    writeln!(out)?;

    // GHC's SRC column, where the side file gave the locations.
    let src = opts.side.has_locations();

    // Top cost centres: individual costs summed per cost centre.
    let mut per_cc: Vec<Sums> = vec![Sums::default(); profile.cost_centres.len()];
    for &i in &tree.order {
        if let Some(s) = per_cc.get_mut((profile.entries[i].cost_centre as usize).wrapping_sub(1)) {
            s.add(&indiv.get(i));
        }
    }
    let mut top: Vec<usize> = (0..per_cc.len())
        .filter(|&c| {
            let s = &per_cc[c];
            (s.ticks > 0 || s.words > 0 || (opts.sort == SortBy::Entries && s.strict > 0))
                && !excluded(c as u32 + 1)
        })
        .collect();
    top.sort_by(|&a, &b| key(opts.sort, &per_cc[b]).cmp(&key(opts.sort, &per_cc[a])));
    if opts.top > 0 {
        top.truncate(opts.top);
    }
    {
        let mut head: Vec<String> = ["COST CENTRE", "MODULE"].map(String::from).to_vec();
        let mut align = vec![Align::Left, Align::Left];
        if src {
            head.push("SRC".into());
            align.push(Align::Left);
        }
        if opts.sort == SortBy::Entries {
            head.push("entries".into());
            align.push(Align::Right);
        }
        head.extend(["%time", "%alloc"].map(String::from));
        align.extend([Align::Right, Align::Right]);
        if opts.raw {
            head.extend(["ticks", "bytes"].map(String::from));
            align.extend([Align::Right, Align::Right]);
        }
        let rows = |f: &mut dyn FnMut(&[String])| {
            for &c in &top {
                let s = &per_cc[c];
                let id = c as u32 + 1;
                let mut r = vec![one_line(cc_name(id)), one_line(cc_module(id))];
                if src {
                    r.push(one_line(&opts.side.src_column(profile, id)));
                }
                if opts.sort == SortBy::Entries {
                    r.push(s.strict.to_string());
                }
                r.push(pct(s.ticks, total.ticks));
                r.push(pct(s.words, total.words));
                if opts.raw {
                    r.push(s.ticks.to_string());
                    r.push((s.words * WORD_BYTES).to_string());
                }
                f(&r);
            }
        };
        table(out, &head, &align, &[], &rows)?;
    }
    writeln!(out)?;

    // The tree.
    let shown = |i: usize| -> bool {
        if excluded(profile.entries[i].cost_centre) {
            return false;
        }
        i == 0 || (inh[i].ticks >= opts.min_ticks as u128 && inh[i].words >= opts.min_words as u128)
    };
    let mut head: Vec<String> = ["COST CENTRE", "MODULE"].map(String::from).to_vec();
    let mut align = vec![Align::Left, Align::Left];
    if src {
        head.push("SRC".into());
        align.push(Align::Left);
    }
    head.extend(["no.", "entries"].map(String::from));
    align.extend([Align::Right, Align::Right]);
    if opts.thunks {
        head.push("thunks".into());
        align.push(Align::Right);
    }
    if opts.calls {
        head.push("calls".into());
        align.push(Align::Right);
    }
    if opts.paps {
        head.push("paps".into());
        align.push(Align::Right);
    }
    let indiv_col = head.len() + 1;
    head.extend(["%time", "%alloc", "%time", "%alloc"].map(String::from));
    align.extend([Align::Right; 4]);
    let mut over = vec![(indiv_col, "individual"), (indiv_col + 2, "inherited")];
    if opts.raw {
        head.extend(["ticks", "bytes"].map(String::from));
        align.extend([Align::Right, Align::Right]);
        over.push((indiv_col + 4, "raw"));
    }

    // Depth first from the root, siblings in the sort order: walked twice
    // by `table`, the same way each time.
    let rows = |f: &mut dyn FnMut(&[String])| {
        let mut stack: Vec<usize> = Vec::new();
        if n > 0 && shown(0) {
            stack.push(0);
        }
        while let Some(i) = stack.pop() {
            let e = &profile.entries[i];
            let depth = tree.depth[i];
            let name = cc_name(e.cost_centre);
            let mut label = " ".repeat(depth.min(opts.max_indent));
            if depth > opts.max_indent {
                label.push_str(&format!("[{depth}] "));
            }
            label.push_str(&one_line(name));
            let s = &indiv.get(i);
            let mut r = vec![label, one_line(cc_module(e.cost_centre))];
            if src {
                r.push(one_line(&opts.side.src_column(profile, e.cost_centre)));
            }
            r.push(tree.number[i].to_string());
            r.push(s.strict.to_string());
            if opts.thunks {
                r.push(s.lazy.to_string());
            }
            if opts.calls {
                r.push(s.tail.to_string());
            }
            if opts.paps {
                r.push(s.curried.to_string());
            }
            r.push(pct(s.ticks, total.ticks));
            r.push(pct(s.words, total.words));
            r.push(pct(inh[i].ticks, total.ticks));
            r.push(pct(inh[i].words, total.words));
            if opts.raw {
                r.push(s.ticks.to_string());
                r.push((s.words * WORD_BYTES).to_string());
            }
            f(&r);

            let mut kids: Vec<usize> = tree.kids(i).iter().copied().filter(|&c| shown(c)).collect();
            // Stable sort keeps file order among equals.
            kids.sort_by(|&a, &b| {
                let ka = if opts.sort == SortBy::Entries {
                    (indiv.get(a).strict, inh[a].ticks)
                } else {
                    key(opts.sort, &inh[a])
                };
                let kb = if opts.sort == SortBy::Entries {
                    (indiv.get(b).strict, inh[b].ticks)
                } else {
                    key(opts.sort, &inh[b])
                };
                kb.cmp(&ka)
            });
            stack.extend(kids.iter().rev());
        }
    };
    if n > 0 && shown(0) {
        table(out, &head, &align, &over, &rows)?;
    } else {
        writeln!(
            out,
            "(every entry of the call graph is hidden by the options)"
        )?;
    }
    Ok(())
}
