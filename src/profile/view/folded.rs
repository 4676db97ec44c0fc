//! `stg-prof folded`: the profile as folded stacks, the input of Brendan
//! Gregg's `flamegraph.pl` and of inferno (`inferno-flamegraph`), and
//! which speedscope also reads.
//!
//! One line per call-graph entry with a non-zero weight: the cost centres
//! from the root to the entry as `Module.name`, joined by `;`, a space, and
//! the entry's *individual* ticks (or, with [`Weight::Bytes`], bytes
//! allocated), so that the tools' widths are inherited costs, as the
//! report's. The format has no escapes: in names, a `;` is written as `:`
//! and control characters as spaces. Entries appear in depth-first order;
//! the tools sum lines with the same stack. A line holds its whole stack,
//! so the output grows with the depth times the number of entries; it is
//! written as it is made, holding one stack at a time.

use std::io::{self, Write};

use super::super::Profile;
use super::super::one_line;
use super::super::tree::Tree;
use super::qualified_name;
use super::report::WORD_BYTES;

/// What the widths of the flame graph are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Weight {
    /// Clock ticks (steps or cycles).
    #[default]
    Ticks,
    /// Bytes allocated.
    Bytes,
}

/// A name as one frame of a folded stack.
fn frame(profile: &Profile, id: u32) -> String {
    one_line(&qualified_name(profile, id)).replace(';', ":")
}

/// Writes the folded stacks of `profile` to `out`.
pub fn write_folded(profile: &Profile, weight: Weight, out: &mut dyn Write) -> io::Result<()> {
    let tree = Tree::new(profile);
    let mut path: Vec<String> = Vec::new();
    let mut line = String::new();
    for &i in &tree.order {
        let e = &profile.entries[i];
        path.truncate(tree.depth[i]);
        path.push(frame(profile, e.cost_centre));
        let w = match weight {
            Weight::Ticks => e.counters.ticks as u128,
            Weight::Bytes => e.counters.words as u128 * WORD_BYTES,
        };
        if w == 0 {
            continue;
        }
        line.clear();
        for (k, name) in path.iter().enumerate() {
            if k > 0 {
                line.push(';');
            }
            line.push_str(name);
        }
        line.push(' ');
        line.push_str(&w.to_string());
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// The folded stacks as one string (see [`write_folded`]).
pub fn folded(profile: &Profile, weight: Weight) -> String {
    let mut out = Vec::new();
    // Writing to a vector cannot fail.
    let _ = write_folded(profile, weight, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}
