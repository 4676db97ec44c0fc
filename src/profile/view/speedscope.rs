//! `stg-prof speedscope`: the profile in speedscope's file format
//! (<https://www.speedscope.app/file-format-schema.json>, shipped in the
//! npm package `speedscope` as `dist/release/file-format-schema.json`), to
//! open at speedscope.app or in `speedscope FILE`.
//!
//! - **Frames** are the cost centres, named `Module.name`, with their file,
//!   line and column where the side file gives them.
//! - **Two profiles**, both *evented* (open and close events along one
//!   axis, the form that holds a call tree exactly and grows with the
//!   number of entries, not with their depth): time (ticks) and allocation
//!   (bytes). Each entry opens where its parent has got to, its children
//!   follow one after another, then its own (individual) cost, and it
//!   closes: its width is its inherited cost, as in the report. Entries
//!   with no cost of that kind are left out of that profile.
//! - **Units**: with the steps clock, or any clock of unknown frequency,
//!   time is in ticks (unit `none`); where the frequency is known (the
//!   cycles clock, or a file without side file that records one) it is in
//!   nanoseconds, rounded from the running total so that the events stay
//!   in order and end at the whole run.
//! - The file's `name` is the program's; `exporter` is `stg-prof VERSION`.

use std::fmt::Write;

use super::super::Profile;
use super::super::side_file::{Clock, SideInfo};
use super::super::tree::Tree;
use super::report::WORD_BYTES;
use super::{json_string, qualified_name};

/// The speedscope file for `profile`, with what `side` knows.
pub fn speedscope(profile: &Profile, side: &SideInfo) -> String {
    let tree = Tree::new(profile);
    let (_, inh) = tree.sums(profile);
    let program = profile.program_name();
    let mut out = String::new();
    out.push_str("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n");
    out.push_str("\"shared\":{\"frames\":[");
    for id in 1..=profile.cost_centres.len() as u32 {
        if id > 1 {
            out.push(',');
        }
        out.push_str("\n{\"name\":");
        json_string(&mut out, &qualified_name(profile, id));
        if let Some(l) = side.location(id) {
            out.push_str(",\"file\":");
            json_string(&mut out, &l.file);
            let _ = write!(out, ",\"line\":{},\"col\":{}", l.line, l.col);
        }
        out.push('}');
    }
    out.push_str("]},\n\"profiles\":[");
    let seconds = side.clock != Clock::Steps && profile.frequency > 0;
    let (unit, time_name) = if seconds {
        ("nanoseconds", "time")
    } else if side.clock == Clock::Steps {
        ("none", "time (machine steps)")
    } else {
        ("none", "time (ticks)")
    };
    let freq = profile.frequency as f64;
    let to_unit = |ticks: u128| -> u128 {
        if seconds {
            (ticks as f64 * 1e9 / freq).round() as u128
        } else {
            ticks
        }
    };
    evented(
        &mut out,
        profile,
        &tree,
        &format!("{program}: {time_name}"),
        unit,
        &|i| profile.entries[i].counters.ticks as u128,
        &|i| inh[i].ticks,
        &to_unit,
    );
    out.push(',');
    evented(
        &mut out,
        profile,
        &tree,
        &format!("{program}: allocation"),
        "bytes",
        &|i| profile.entries[i].counters.words as u128 * WORD_BYTES,
        &|i| inh[i].words * WORD_BYTES,
        &|b| b,
    );
    out.push_str("],\n\"name\":");
    json_string(&mut out, program);
    let _ = writeln!(
        out,
        ",\"activeProfileIndex\":0,\"exporter\":\"stg-prof {}\"}}",
        env!("CARGO_PKG_VERSION")
    );
    out
}

/// One evented profile: `own(i)` is entry `i`'s individual cost,
/// `inherited(i)` its subtree's, `to_unit` converts a running total.
#[allow(clippy::too_many_arguments)]
fn evented(
    out: &mut String,
    profile: &Profile,
    tree: &Tree,
    name: &str,
    unit: &str,
    own: &dyn Fn(usize) -> u128,
    inherited: &dyn Fn(usize) -> u128,
    to_unit: &dyn Fn(u128) -> u128,
) {
    let total = if profile.entries.is_empty() {
        0
    } else {
        inherited(0)
    };
    out.push_str("\n{\"type\":\"evented\",\"name\":");
    json_string(out, name);
    let _ = write!(
        out,
        ",\"unit\":\"{unit}\",\"startValue\":0,\"endValue\":{},\"events\":[",
        to_unit(total)
    );
    let ncc = profile.cost_centres.len() as u32;
    let frame = |i: usize| -> u32 {
        let id = profile.entries[i].cost_centre;
        // An undeclared cost centre (a hand-built profile) is shown as the
        // first frame rather than pointing past the list.
        if (1..=ncc).contains(&id) { id - 1 } else { 0 }
    };
    let mut first = true;
    let mut event = |out: &mut String, kind: char, i: usize, at: u128| {
        if !first {
            out.push(',');
        }
        first = false;
        let _ = write!(
            out,
            "\n{{\"type\":\"{kind}\",\"frame\":{},\"at\":{}}}",
            frame(i),
            to_unit(at)
        );
    };
    // Depth first with an explicit stack of (entry, next child to visit).
    let mut at: u128 = 0;
    let mut stack: Vec<(usize, usize)> = Vec::new();
    if total > 0 && ncc > 0 {
        event(out, 'O', 0, at);
        stack.push((0, 0));
    }
    while let Some(top) = stack.last_mut() {
        let (i, k) = *top;
        if let Some(&c) = tree.kids(i).get(k) {
            top.1 += 1;
            if inherited(c) > 0 {
                event(out, 'O', c, at);
                stack.push((c, 0));
            }
        } else {
            at += own(i);
            event(out, 'C', i, at);
            stack.pop();
        }
    }
    out.push_str("]}");
}
