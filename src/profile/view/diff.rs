//! `stg-prof diff A.pgcl B.pgcl`: what changed between two runs of one
//! program (the comparison is src/profile/compare.rs), as text.
//!
//! Like `diff`, nothing is printed when nothing changed. Otherwise: a
//! header with the two runs' totals and their change, then two tables
//! sorted by change: cost centres (individual costs summed over their
//! entries) and call-graph entries (by cost-centre path, `MAIN.MAIN >
//! nfib.CAF > …`), each row with ticks and bytes in A and B and the change
//! (B − A, signed) of every counter: ticks, bytes, entries (`scc`
//! entries), thunks, calls, paps. Rows whose every counter changed by
//! less than `min_change` are left out (a tolerance); the header says how
//! many.

use std::io::{self, Write};

use super::super::compare::{Comparison, Row};
use super::super::one_line;
use super::report::{Align, WORD_BYTES, table, thousands};

/// `n` with a sign and thousands separators: `+1,234`, `-5`, `0`.
fn signed(n: i128) -> String {
    let s = thousands(n.unsigned_abs());
    match n.signum() {
        1 => format!("+{s}"),
        -1 => format!("-{s}"),
        _ => s,
    }
}

/// The change of `a` to `b` as a percentage of `a`, `new` where `a` is 0.
fn change_pct(a: u128, b: u128) -> String {
    if a == 0 {
        return if b == 0 { "0.0%".into() } else { "new".into() };
    }
    format!("{:+.1}%", (b as f64 - a as f64) * 100.0 / a as f64)
}

/// The rows of `rows` shown with `min_change`.
fn shown(rows: &[Row], min_change: u128) -> Vec<&Row> {
    rows.iter().filter(|r| r.changed_by(min_change)).collect()
}

/// Whether the comparison shows any change of at least `min_change`.
pub fn differs(c: &Comparison, min_change: u128) -> bool {
    !shown(&c.entries, min_change).is_empty() || !shown(&c.cost_centres, min_change).is_empty()
}

/// Writes the diff of `c` (`name_a` → `name_b`) to `out`: nothing where
/// nothing changed by `min_change` or more.
pub fn write_diff(
    c: &Comparison,
    name_a: &str,
    name_b: &str,
    min_change: u128,
    out: &mut dyn Write,
) -> io::Result<()> {
    let ccs = shown(&c.cost_centres, min_change);
    let entries = shown(&c.entries, min_change);
    if ccs.is_empty() && entries.is_empty() {
        return Ok(());
    }
    let t = &c.total;
    writeln!(
        out,
        "\t{} profile diff: {} → {}\n",
        one_line(&c.program),
        one_line(name_a),
        one_line(name_b)
    )?;
    writeln!(
        out,
        "\ttotal ticks = {} → {}  ({}, {})",
        thousands(t.a.ticks),
        thousands(t.b.ticks),
        signed(t.deltas()[0]),
        change_pct(t.a.ticks, t.b.ticks)
    )?;
    writeln!(
        out,
        "\ttotal alloc = {} → {} bytes  ({}, {})",
        thousands(t.a.words * WORD_BYTES),
        thousands(t.b.words * WORD_BYTES),
        signed(t.deltas()[1] * WORD_BYTES as i128),
        change_pct(t.a.words, t.b.words)
    )?;
    let hidden = (
        c.cost_centres.len() - ccs.len(),
        c.entries.len() - entries.len(),
    );
    writeln!(
        out,
        "\tunchanged   = {} cost centres, {} entries{}\n",
        hidden.0,
        hidden.1,
        if min_change > 1 {
            format!(" (or changed by less than {min_change})")
        } else {
            String::new()
        }
    )?;
    let head = |first: &str| -> Vec<String> {
        [
            first,
            "ticks A",
            "ticks B",
            "Δticks",
            "Δbytes",
            "Δentries",
            "Δthunks",
            "Δcalls",
            "Δpaps",
        ]
        .map(String::from)
        .to_vec()
    };
    let mut align = vec![Align::Left];
    align.extend([Align::Right; 8]);
    let cells = |name: String, r: &Row| -> Vec<String> {
        let d = r.deltas();
        vec![
            name,
            r.a.ticks.to_string(),
            r.b.ticks.to_string(),
            signed(d[0]),
            signed(d[1] * WORD_BYTES as i128),
            signed(d[2]),
            signed(d[3]),
            signed(d[4]),
            signed(d[5]),
        ]
    };
    if !ccs.is_empty() {
        let rows = |f: &mut dyn FnMut(&[String])| {
            for r in &ccs {
                f(&cells(one_line(&c.paths.text(r.path, ".")), r));
            }
        };
        table(out, &head("COST CENTRE"), &align, &[], &rows)?;
        writeln!(out)?;
    }
    if !entries.is_empty() {
        let rows = |f: &mut dyn FnMut(&[String])| {
            for r in &entries {
                f(&cells(one_line(&c.paths.text(r.path, " > ")), r));
            }
        };
        table(out, &head("CALL GRAPH ENTRY"), &align, &[], &rows)?;
    }
    Ok(())
}

/// The diff as one string (see [`write_diff`]).
pub fn diff(c: &Comparison, name_a: &str, name_b: &str, min_change: u128) -> String {
    let mut out = Vec::new();
    // Writing to a vector cannot fail.
    let _ = write_diff(c, name_a, name_b, min_change, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}
