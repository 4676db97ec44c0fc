//! `stg-prof json`: the profile in the layout of GHC's JSON profile
//! (`+RTS -pj`; GHC user's guide, "JSON profile format"), so that tools
//! that read GHC's profiles (speedscope, profiteur) read ours. The layout
//! was copied from the `.prof` that GHC 9 writes for `tests/ghc/nfib.hs`.
//!
//! What fills each field:
//! - `program`: the program's name; `arguments`: `[program]`;
//!   `rts_arguments`: `[]`; `end_time`: `""` (the profile does not record
//!   when the run ended); `initial_capabilities`: `0`, as GHC writes for a
//!   non-threaded run.
//! - `total_ticks`: the run's ticks; `total_time`: seconds where the clock's
//!   frequency is known (`total_ticks` / frequency), else 0; `tick_interval`:
//!   microseconds per tick, rounded (GHC's unit), 0 where unknown or under
//!   a microsecond; `total_alloc`: bytes.
//! - `cost_centres`: every cost centre, `id` its 1-based id in the profile,
//!   `label` its name, `module`, `src_loc` from the side file (or GHC's
//!   `<built-in>`, `<entire-module>`, `<no location info>`), `is_caf` for
//!   the modules' `CAF`s.
//! - `profile`: the call tree, each node `{"id": cost centre, "entries":
//!   scc entries, "alloc": bytes, "ticks": ticks, "children": [...]}` with
//!   individual costs, as GHC's. The profile's other counters (thunk
//!   entries, calls, partial applications) have no field there and are
//!   left out. Nesting is written without recursion, however deep.

use std::fmt::Write;

use super::super::Profile;
use super::super::side_file::SideInfo;
use super::super::tree::Tree;
use super::json_string;
use super::report::WORD_BYTES;

/// GHC's JSON profile for `profile`, with what `side` knows.
pub fn ghc_json(profile: &Profile, side: &SideInfo) -> String {
    let tree = Tree::new(profile);
    let (_, inh) = tree.sums(profile);
    let total = inh.first().copied().unwrap_or_default();
    let program = profile.program_name();
    let mut out = String::new();
    out.push_str("{\n\"program\": ");
    json_string(&mut out, program);
    out.push_str(",\n\"arguments\": [");
    json_string(&mut out, program);
    out.push_str("],\n\"rts_arguments\": [],\n\"end_time\": \"\",\n\"initial_capabilities\": 0,\n");
    let (secs, interval) = if profile.frequency > 0 {
        (
            total.ticks as f64 / profile.frequency as f64,
            (1e6 / profile.frequency as f64).round() as u64,
        )
    } else {
        (0.0, 0)
    };
    let _ = write!(
        out,
        "\"total_time\": {secs:.2},\n\"total_ticks\": {},\n\"tick_interval\": {interval},\n\"total_alloc\": {},\n\"cost_centres\": [",
        total.ticks,
        total.words * WORD_BYTES
    );
    for (i, cc) in profile.cost_centres.iter().enumerate() {
        let id = i as u32 + 1;
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "\n{{\"id\": {id}, \"label\": ");
        json_string(&mut out, &cc.name);
        out.push_str(", \"module\": ");
        json_string(&mut out, profile.module_of(cc));
        out.push_str(", \"src_loc\": ");
        json_string(&mut out, &side.src_column(profile, id));
        let _ = write!(out, ", \"is_caf\": {}}}", cc.name == "CAF");
    }
    out.push_str("],\n\"profile\": ");
    if profile.entries.is_empty() {
        out.push_str("null");
    }
    // Depth first with an explicit stack of (entry, next child to write).
    let node = |out: &mut String, i: usize| {
        let e = &profile.entries[i];
        let _ = write!(
            out,
            "{{\"id\": {}, \"entries\": {}, \"alloc\": {}, \"ticks\": {}, \"children\": [",
            e.cost_centre,
            e.counters.strict_calls,
            e.counters.words as u128 * WORD_BYTES,
            e.counters.ticks
        );
    };
    let mut stack: Vec<(usize, usize)> = Vec::new();
    if !profile.entries.is_empty() {
        node(&mut out, 0);
        stack.push((0, 0));
    }
    while let Some(top) = stack.last_mut() {
        let (i, k) = *top;
        if let Some(&c) = tree.kids(i).get(k) {
            top.1 += 1;
            if k > 0 {
                out.push(',');
            }
            out.push('\n');
            node(&mut out, c);
            stack.push((c, 0));
        } else {
            out.push_str("]}");
            stack.pop();
        }
    }
    out.push_str("\n}\n");
    out
}
