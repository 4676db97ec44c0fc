//! `stg-prof dot`: the call graph for graphviz (`dot -Tsvg`), in the manner
//! of gprof2dot: one node per cost centre, one edge per caller and callee.
//!
//! - A **node** shows `Module.name`, its source location where the side
//!   file gives it, its inherited share of the run's time (the entries of
//!   the cost centre that are not inside another entry of it, so recursion
//!   is counted once), its individual share (summed over its entries, as
//!   the report's top table) and its `scc` entries. Its colour is its
//!   individual share: blue for little, through green and yellow, to red
//!   for all of it.
//! - An **edge** from caller to callee shows the callee's inherited share
//!   on that edge (the callee's entries under the caller's, summed) and
//!   their `scc` entries; its colour (the same scale) and width follow
//!   that share. Recursion is an edge from a node to itself.
//! - **Thresholds**, as gprof2dot's: nodes whose inherited share is below
//!   `node_threshold` percent are left out (the root never is), and edges
//!   below `edge_threshold` percent or touching a node left out. The
//!   defaults are gprof2dot's, 0.5% and 0.1%, so that a graph of thousands
//!   of cost centres stays one that `dot` lays out and a person reads.
//!
//! Names are written with control characters as spaces and DOT's escapes
//! (`\\`, `\"`), so that no name breaks the file, and cut to 1,000
//! characters, so that no label reaches the 16 KB a quoted string may take
//! in Graphviz 2.43.

use std::collections::HashMap;
use std::fmt::Write;

use super::super::side_file::SideInfo;
use super::super::tree::{Sums, Tree};
use super::super::{Profile, cut_to_chars, one_line};
use super::qualified_name;

/// What the graph leaves out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// Leave out nodes below this inherited share of the time, in percent.
    pub node_threshold: f64,
    /// Leave out edges below this share of the time, in percent.
    pub edge_threshold: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            node_threshold: 0.5,
            edge_threshold: 0.1,
        }
    }
}

/// A colour for a share in 0..=1: hue from blue (0) to red (1), brighter
/// in the middle, as gprof2dot's.
fn colour(share: f64) -> (String, &'static str) {
    let s = share.clamp(0.0, 1.0).sqrt();
    let hue = (1.0 - s) * 240.0;
    let (sat, val) = (0.45 + 0.5 * s, 0.95 - 0.25 * s);
    let c = val * sat;
    let x = c * (1.0 - ((hue / 60.0) % 2.0 - 1.0).abs());
    let m = val - c;
    let (r, g, b) = match (hue / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        _ => (x, 0.0, c),
    };
    let byte = |v: f64| ((v + m) * 255.0).round() as u8;
    let text = if s > 0.75 { "#ffffff" } else { "#000000" };
    (
        format!("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b)),
        text,
    )
}

/// The most characters of a name (or a file name, or the program's) a
/// label shows. Graphviz 2.43 (Debian's and Ubuntu's) refuses a quoted
/// string of 16,384 bytes or more ("syntax error ... scanning a quoted string (missing
/// endquote? longer than 16384?)"), and a label holds a name and a file
/// name of up to 4 bytes a character, escapes doubling `\` and `"`:
/// 1,000 characters each keep a node's label under 9,000 bytes.
const MAX_NAME_CHARS: usize = 1000;

/// `s` inside a DOT double-quoted string: cut to [`MAX_NAME_CHARS`]
/// characters (ending in `…`), control characters as spaces, `\` and
/// `"` escaped.
fn dot_text(s: &str) -> String {
    cut_to_chars(&one_line(s), MAX_NAME_CHARS)
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

fn pct(part: u128, total: u128) -> f64 {
    if total == 0 {
        0.0
    } else {
        part as f64 * 100.0 / total as f64
    }
}

/// The graphviz file for `profile`, with what `side` knows.
pub fn dot(profile: &Profile, side: &SideInfo, limits: Thresholds) -> String {
    let tree = Tree::new(profile);
    let (indiv, inh) = tree.sums(profile);
    let total = inh.first().copied().unwrap_or_default();
    let ncc = profile.cost_centres.len();
    let cc_of = |i: usize| (profile.entries[i].cost_centre as usize).wrapping_sub(1);

    // Per cost centre: individual sums, inherited time (entries not inside
    // another of the same cost centre), entries.
    let mut own = vec![Sums::default(); ncc];
    let mut inherited = vec![0u128; ncc];
    let mut on_stack = vec![0u32; ncc];
    // Per edge (caller, callee): inherited time, entries; in first-met order.
    let mut edges: Vec<((usize, usize), u128, u128)> = Vec::new();
    let mut edge_at: HashMap<(usize, usize), usize> = HashMap::new();
    // Depth first, entering and leaving, with an explicit stack.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    if !profile.entries.is_empty() {
        stack.push((0, 0));
    }
    while let Some(&(i, k)) = stack.last() {
        let c = cc_of(i);
        if k == 0 && c < ncc {
            own[c].add(&indiv.get(i));
            if on_stack[c] == 0 {
                inherited[c] += inh[i].ticks;
            }
            on_stack[c] += 1;
        }
        if let Some(&kid) = tree.kids(i).get(k) {
            stack.last_mut().unwrap().1 += 1;
            let callee = cc_of(kid);
            if c < ncc && callee < ncc {
                let at = *edge_at.entry((c, callee)).or_insert_with(|| {
                    edges.push(((c, callee), 0, 0));
                    edges.len() - 1
                });
                edges[at].1 += inh[kid].ticks;
                edges[at].2 += indiv.get(kid).strict;
            }
            stack.push((kid, 0));
        } else {
            if c < ncc {
                on_stack[c] -= 1;
            }
            stack.pop();
        }
    }

    let root = if profile.entries.is_empty() {
        usize::MAX
    } else {
        cc_of(0)
    };
    let shown: Vec<bool> = (0..ncc)
        .map(|c| {
            let used = own[c].strict > 0 || inherited[c] > 0 || own[c].words > 0;
            c == root || (used && pct(inherited[c], total.ticks) >= limits.node_threshold)
        })
        .collect();

    let program = profile.program_name();
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", dot_text(program));
    let _ = writeln!(
        out,
        "  graph [fontname=\"Helvetica\", label=\"{}: call graph by time (nodes under {}%, edges under {}% left out)\", labelloc=t];",
        dot_text(program),
        limits.node_threshold,
        limits.edge_threshold
    );
    out.push_str(
        "  node [shape=box, style=\"filled,rounded\", fontname=\"Helvetica\", fontsize=10];\n",
    );
    out.push_str("  edge [fontname=\"Helvetica\", fontsize=9, arrowsize=0.6];\n");
    for c in (0..ncc).filter(|&c| shown[c]) {
        let id = c as u32 + 1;
        let own_pct = pct(own[c].ticks, total.ticks);
        let (fill, text) = colour(own_pct / 100.0);
        let mut label = dot_text(&qualified_name(profile, id));
        if let Some(l) = side.location(id) {
            let _ = write!(
                label,
                "\\n{}",
                dot_text(&format!("{}:{}:{}", l.file, l.line, l.col))
            );
        }
        let _ = write!(
            label,
            "\\n{:.2}% inherited\\n{:.2}% individual\\n{}×",
            pct(inherited[c], total.ticks),
            own_pct,
            own[c].strict
        );
        let _ = writeln!(
            out,
            "  n{id} [label=\"{label}\", fillcolor=\"{fill}\", fontcolor=\"{text}\"];"
        );
    }
    for &((from, to), ticks, entries) in &edges {
        let share = pct(ticks, total.ticks);
        if !shown[from] || !shown[to] || share < limits.edge_threshold {
            continue;
        }
        let (col, _) = colour(share / 100.0);
        let _ = writeln!(
            out,
            "  n{} -> n{} [label=\"{share:.2}%\\n{entries}×\", color=\"{col}\", fontcolor=\"{col}\", penwidth={:.2}];",
            from + 1,
            to + 1,
            1.0 + 3.0 * share / 100.0
        );
    }
    out.push_str("}\n");
    out
}
