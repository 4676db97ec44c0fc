//! `stg-prof html`: the profile as one self-contained, interactive HTML page
//! (no network, no files beside it; the script is `view/html.js`, the style
//! `view/html.css`, both inlined).
//!
//! The page holds the profile as JSON (`<script type="application/json">`)
//! and draws, from it and one state kept in the address's fragment:
//! - a header: program, total steps (or seconds, or ticks: what a tick is,
//!   as the report says), total allocation, written in HTML too, so it
//!   reads without JavaScript;
//! - controls: search (by cost-centre name), the thresholds `min %time` and
//!   `min %alloc` (an entry is hidden with its subtree when its inherited
//!   share is below either, as `report --min-ticks/--min-words`; 1% and 0%
//!   at first), excluded cost centres (each a chip that brings it back),
//!   the flame graph's width (time or allocation);
//! - the flame graph, an icicle: the root on top, each entry under its
//!   parent as wide as its inherited time (or allocation), heaviest first;
//!   a click zooms into an entry's subtree, the breadcrumb above leads
//!   back, and a button opens the callers of the zoomed cost centre;
//! - the cost-centre table (individual costs summed over each cost
//!   centre's entries, as the report's top table), every column sortable
//!   by a click on its header; a click on a name opens its callers; "hide"
//!   excludes it;
//! - the callers (inverted) view of a cost centre: every stack that leads
//!   to it, with its share of the cost centre's time and allocation (an
//!   entry inside another of the same cost centre is marked recursive and
//!   not counted twice), sortable; a click on a stack's step zooms the
//!   flame graph there;
//! - the call tree (foldable, columns as `report --all-columns` plus SRC),
//!   sortable by its headers: siblings are ordered by the column;
//! - with `--heap FILE.hp`, the heap profile's chart under the tree;
//! - with `--diff BEFORE.pgcl` ([`html_with_diff`]), what changed from that
//!   run (`stg-prof diff`'s two tables: cost centres and call-graph
//!   entries, only those that changed, with every counter's change),
//!   sortable by their headers and filtered by the search.
//!
//! Search, thresholds and exclusions filter the table, the tree and the
//! flame graph alike (the callers view lists every stack).
//!
//! Figures are the report's: percentages of the whole run, entries = `scc`
//! entries. Entries are written in depth-first order with their parent, so
//! the script never recurses; it draws at most 2,000 tree rows, 300 table
//! rows and flame frames at least a pixel wide, so a profile of 100,000
//! entries stays responsive. Counters above 2^53 would lose precision in
//! JavaScript's numbers (a run of 285 years at 10^6 ticks per
//! microsecond); the text report has them exactly.

use std::fmt::Write;

use super::json_string;
use super::report::{WORD_BYTES, thousands};
use crate::profile::Profile;
use crate::profile::compare::Comparison;
use crate::profile::markup_text;
use crate::profile::side_file::{Clock, SideInfo};
use crate::profile::tree::{Sums, Tree};

/// The data the script reads: `{"ccs": [[name, module, src]], "entries":
/// [[cc, parent, ticks, words, tail, strict, lazy, curried]]}` with entries
/// in depth-first order (index = the report's `no.`, parent -1 for the
/// root), `cc` 0-based (-1 for an undeclared one).
fn data(profile: &Profile, side: &SideInfo) -> String {
    let tree = Tree::new(profile);
    let mut parent = vec![-1i64; profile.entries.len()];
    for &i in &tree.order {
        for &k in tree.kids(i) {
            parent[k] = tree.number[i] as i64;
        }
    }
    let mut out = String::new();
    out.push_str("{\"ccs\":[");
    for (i, cc) in profile.cost_centres.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('[');
        json_string(&mut out, &cc.name);
        out.push(',');
        json_string(&mut out, profile.module_of(cc));
        out.push(',');
        let src = if side.has_locations() {
            side.src_column(profile, i as u32 + 1)
        } else {
            String::new()
        };
        json_string(&mut out, &src);
        out.push(']');
    }
    out.push_str("],\"entries\":[");
    for (n, &i) in tree.order.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        let e = &profile.entries[i];
        let id = e.cost_centre as usize;
        let cc = if (1..=profile.cost_centres.len()).contains(&id) {
            id as i64 - 1
        } else {
            -1
        };
        let c = &e.counters;
        let _ = write!(
            out,
            "\n[{cc},{},{},{},{},{},{},{}]",
            parent[i],
            c.ticks,
            c.words,
            c.tail_calls,
            c.strict_calls,
            c.lazy_calls,
            c.curried_calls
        );
    }
    out.push_str("]}");
    out
}

/// The header's summary: what the run's ticks and allocation add up to.
fn summary(profile: &Profile, side: &SideInfo) -> String {
    let tree = Tree::new(profile);
    let (_, inh) = tree.sums(profile);
    let total = inh.first().copied().unwrap_or_default();
    let time = if side.clock == Clock::Steps {
        format!(
            "total steps {} (a tick is one machine step: %time is a share of the steps)",
            thousands(total.ticks)
        )
    } else if profile.frequency > 0 {
        let unit = if side.clock == Clock::Cycles {
            "cycles"
        } else {
            "ticks"
        };
        format!(
            "total time {:.2} s ({} {unit} at {} per second)",
            total.ticks as f64 / profile.frequency as f64,
            thousands(total.ticks),
            thousands(profile.frequency as u128)
        )
    } else {
        format!("total ticks {}", thousands(total.ticks))
    };
    format!(
        "{time}; total alloc {} bytes ({} words)",
        thousands(total.words * WORD_BYTES),
        thousands(total.words)
    )
}

/// A comparison shown in the page (`stg-prof html --diff BEFORE FILE`):
/// what changed from the run `before` (its name) to the page's profile.
pub struct DiffShown<'a> {
    pub comparison: &'a Comparison,
    pub before: &'a str,
    pub after: &'a str,
}

/// The comparison's data for the script: `{"a": name, "b": name, "ccs":
/// [[name, a, b]], "entries": [[path, a, b]]}`, each of `a` and `b` the
/// six counters ticks, words, entries, thunks, calls, paps; only the rows
/// with a change, in the comparison's order (largest change first).
fn diff_data(d: &DiffShown) -> String {
    let mut out = String::new();
    out.push_str("{\"a\":");
    json_string(&mut out, d.before);
    out.push_str(",\"b\":");
    json_string(&mut out, d.after);
    let counters = |out: &mut String, s: &Sums| {
        let _ = write!(
            out,
            "[{},{},{},{},{},{}]",
            s.ticks, s.words, s.strict, s.lazy, s.tail, s.curried
        );
    };
    for (key, rows, sep) in [
        ("ccs", &d.comparison.cost_centres, "."),
        ("entries", &d.comparison.entries, " > "),
    ] {
        let _ = write!(out, ",\"{key}\":[");
        let mut first = true;
        for r in rows.iter().filter(|r| r.changed_by(1)) {
            if !first {
                out.push(',');
            }
            first = false;
            out.push_str("\n[");
            json_string(&mut out, &d.comparison.paths.text(r.path, sep));
            out.push(',');
            counters(&mut out, &r.a);
            out.push(',');
            counters(&mut out, &r.b);
            out.push(']');
        }
        out.push(']');
    }
    out.push('}');
    out
}

/// The page for `profile`, titled with its program's name, with what
/// `side` knows; `heap_chart`, an SVG document (from
/// [`super::heap_chart::svg`]), is shown under the tree.
pub fn html(profile: &Profile, side: &SideInfo, heap_chart: Option<&str>) -> String {
    page(profile, side, heap_chart, None)
}

/// The page of [`html`] with a section that shows `diff`: the cost
/// centres and call-graph entries that changed from the run before, in two
/// tables sortable by their headers and filtered by the page's search.
pub fn html_with_diff(
    profile: &Profile,
    side: &SideInfo,
    heap_chart: Option<&str>,
    diff: &DiffShown,
) -> String {
    page(profile, side, heap_chart, Some(diff))
}

fn page(
    profile: &Profile,
    side: &SideInfo,
    heap_chart: Option<&str>,
    diff: Option<&DiffShown>,
) -> String {
    let program = profile.program_name();
    let mut out = String::new();
    out.push_str(HEAD);
    let _ = write!(
        out,
        "<title>{} – stg-run profile</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <header><h1>{}</h1><p id=\"summary\">{}</p></header>\n",
        markup_text(program),
        markup_text(program),
        markup_text(&summary(profile, side))
    );
    if let Some(d) = diff {
        let t = &d.comparison.total;
        let _ = writeln!(
            out,
            "<p id=\"diff-summary\">Compared with {}: total ticks {} → {}, total alloc {} → {} bytes.</p>",
            markup_text(d.before),
            thousands(t.a.ticks),
            thousands(t.b.ticks),
            thousands(t.a.words * WORD_BYTES),
            thousands(t.b.words * WORD_BYTES)
        );
    }
    out.push_str(BODY);
    if diff.is_some() {
        out.push_str(DIFF_BODY);
    }
    if let Some(svg) = heap_chart {
        out.push_str("<h2>Heap</h2>\n<div id=\"heap\">\n");
        out.push_str(svg);
        out.push_str("</div>\n");
    }
    out.push_str("<script type=\"application/json\" id=\"data\">");
    out.push_str(&data(profile, side));
    out.push_str("</script>\n");
    if let Some(d) = diff {
        out.push_str("<script type=\"application/json\" id=\"diff-data\">");
        out.push_str(&diff_data(d));
        out.push_str("</script>\n");
    }
    out.push_str("<script>");
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

const HEAD: &str = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta name=\"generator\" content=\"stg-prof html\">\n";

const STYLE: &str = include_str!("html.css");

const BODY: &str = r#"<div class="controls">
<label>Find <input id="find" type="search" placeholder="cost centre name" autocomplete="off"></label>
<label>min %time <input id="min-time" type="number" min="0" max="100" step="0.1" value="1"></label>
<label>min %alloc <input id="min-alloc" type="number" min="0" max="100" step="0.1" value="0"></label>
<label>Exclude <input id="exclude" list="cc-names" placeholder="cost centre" autocomplete="off"></label><datalist id="cc-names"></datalist>
<span id="excluded"></span>
<span class="width">Width <label><input type="radio" name="width" value="time" checked> time</label> <label><input type="radio" name="width" value="alloc"> alloc</label></span>
</div>
<noscript><p>This page draws its views with JavaScript; <code>stg-prof report</code> prints the same figures as text.</p></noscript>
<p id="hidden" class="note"></p>
<h2>Flame graph</h2>
<p class="note">The root on top, each entry under its parent, as wide as its inherited time (or allocation). Click an entry to zoom into it; the path above leads back.</p>
<nav id="crumbs" aria-label="zoom path"></nav>
<div id="flame" role="img" aria-label="flame graph"></div>
<section id="callers" hidden>
<h2 id="callers-title">Callers</h2>
<p class="note">Every stack that leads to the cost centre, with its share of the cost centre's time and allocation. <button id="callers-close" type="button">Close</button></p>
<table id="callers-table"><thead><tr><th class="name" data-key="stack">stack</th><th data-key="entries">entries</th><th data-key="share">share of time</th><th data-key="time">%time</th><th data-key="salloc">share of alloc</th><th data-key="alloc">%alloc</th></tr></thead><tbody></tbody></table>
</section>
<h2>Cost centres</h2>
<p class="note">Each cost centre's costs summed over its entries. Click a header to sort, a name for its callers.</p>
<table id="ccs"><thead><tr><th class="name" data-key="name">cost centre</th><th class="module" data-key="module">module</th><th class="src" data-key="src">src</th><th data-key="entries">entries</th><th data-key="time">%time</th><th data-key="alloc">%alloc</th><th class="extra" data-key="thunks">thunks</th><th class="extra" data-key="calls">calls</th><th class="extra" data-key="paps">paps</th><th class="extra" data-key="time">ticks</th><th class="extra" data-key="alloc">bytes</th><th></th></tr></thead><tbody></tbody></table>
<h2>Call tree</h2>
<p class="note">Percentages are of the whole run; entries are <code>scc</code> entries. Click an entry, or press Enter on it, to open or close it; click a header to order siblings by it.
<button id="open-all" type="button">Open all</button> <button id="close-all" type="button">Close all</button>
<label><input id="all-columns" type="checkbox"> thunks, calls, paps, ticks, bytes</label></p>
<table id="tree"><thead><tr><th class="name" data-key="name">cost centre</th><th class="module" data-key="module">module</th><th class="src">src</th><th data-key="no">no.</th><th data-key="entries">entries</th><th class="extra" data-key="thunks">thunks</th><th class="extra" data-key="calls">calls</th><th class="extra" data-key="paps">paps</th><th data-key="time">individual %time</th><th data-key="alloc">%alloc</th><th data-key="itime">inherited %time</th><th data-key="ialloc">%alloc</th><th class="extra" data-key="time">ticks</th><th class="extra" data-key="alloc">bytes</th><th></th></tr></thead><tbody></tbody></table>
"#;

/// The section of `--diff`: two tables the script fills.
const DIFF_BODY: &str = r#"<section id="diff">
<h2>Changes</h2>
<p class="note" id="diff-note"></p>
<h3>Cost centres</h3>
<table id="diff-ccs" class="diff"><thead><tr><th class="name" data-key="name">cost centre</th><th data-key="ta">ticks A</th><th data-key="tb">ticks B</th><th data-key="d0">Δticks</th><th data-key="d1">Δbytes</th><th data-key="d2">Δentries</th><th data-key="d3">Δthunks</th><th data-key="d4">Δcalls</th><th data-key="d5">Δpaps</th></tr></thead><tbody></tbody></table>
<h3>Call-graph entries</h3>
<table id="diff-entries" class="diff"><thead><tr><th class="name" data-key="name">entry</th><th data-key="ta">ticks A</th><th data-key="tb">ticks B</th><th data-key="d0">Δticks</th><th data-key="d1">Δbytes</th><th data-key="d2">Δentries</th><th data-key="d3">Δthunks</th><th data-key="d4">Δcalls</th><th data-key="d5">Δpaps</th></tr></thead><tbody></tbody></table>
</section>
"#;

const SCRIPT: &str = include_str!("html.js");
