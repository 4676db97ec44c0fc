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
//! written as it is made, frame by frame, holding one stack of cost-centre
//! ids at a time and each cost centre's frame once. Its size is known
//! before a byte is written ([`folded_size`]), so that a caller can refuse
//! a deep recursion whose stacks would fill a disk.

use std::io::{self, Write};

use super::super::one_line;
use super::super::tree::Tree;
use super::super::{Entry, Profile};
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

/// Each cost centre's frame, made the first time it is asked for and kept
/// (an id the profile does not declare is made each time).
struct Frames<'a> {
    profile: &'a Profile,
    made: Vec<Option<String>>,
    unknown: String,
}

impl<'a> Frames<'a> {
    fn new(profile: &'a Profile) -> Self {
        Frames {
            profile,
            made: vec![None; profile.cost_centres.len() + 1],
            unknown: String::new(),
        }
    }

    fn get(&mut self, cc: u32) -> &str {
        let profile = self.profile;
        match self.made.get_mut(cc as usize) {
            Some(made) => made.get_or_insert_with(|| frame(profile, cc)),
            None => {
                self.unknown = frame(profile, cc);
                &self.unknown
            }
        }
    }
}

/// Writes the folded stacks of `profile` to `out`. Each cost centre's
/// frame is made once and the stack is held as cost-centre ids, each line
/// written frame by frame: memory is linear in the profile, however deep
/// its stacks and long its names (a line may be longer than all of it).
pub fn write_folded(profile: &Profile, weight: Weight, out: &mut dyn Write) -> io::Result<()> {
    let tree = Tree::new(profile);
    let mut out = io::BufWriter::new(out);
    let mut frames = Frames::new(profile);
    let mut path: Vec<u32> = Vec::new();
    for &i in &tree.order {
        let e = &profile.entries[i];
        path.truncate(tree.depth[i]);
        path.push(e.cost_centre);
        let w = weight_of(e, weight);
        if w == 0 {
            continue;
        }
        for (k, &cc) in path.iter().enumerate() {
            if k > 0 {
                out.write_all(b";")?;
            }
            out.write_all(frames.get(cc).as_bytes())?;
        }
        writeln!(out, " {w}")?;
    }
    out.flush()
}

/// How large the folded stacks of a profile are, worked out without making
/// them: the sum over the lines of their stacks' lengths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FoldedSize {
    /// Bytes [`write_folded`] writes.
    pub bytes: u128,
    /// Lines (entries with a non-zero weight).
    pub lines: u64,
    /// Frames on the longest line.
    pub deepest: usize,
}

/// The size of the output of [`write_folded`] for `profile` and `weight`,
/// in time and memory linear in the profile (a stack's length is its
/// parent's plus one frame).
pub fn folded_size(profile: &Profile, weight: Weight) -> FoldedSize {
    let tree = Tree::new(profile);
    let mut frames = Frames::new(profile);
    // Bytes of the stack at each depth on the current path, separators included.
    let mut path_len: Vec<u128> = Vec::new();
    let mut size = FoldedSize::default();
    for &i in &tree.order {
        let e = &profile.entries[i];
        let depth = tree.depth[i];
        path_len.truncate(depth);
        let cc = e.cost_centre;
        let own = frames.get(cc).len() as u128;
        let above = path_len.last().map_or(0, |&l| l + 1);
        path_len.push(above + own);
        let w = weight_of(e, weight);
        if w == 0 {
            continue;
        }
        // The stack, a space, the weight, a newline.
        size.bytes += above + own + 1 + w.to_string().len() as u128 + 1;
        size.lines += 1;
        size.deepest = size.deepest.max(depth + 1);
    }
    size
}

fn weight_of(e: &Entry, weight: Weight) -> u128 {
    match weight {
        Weight::Ticks => e.counters.ticks as u128,
        Weight::Bytes => e.counters.words as u128 * WORD_BYTES,
    }
}

/// The folded stacks as one string (see [`write_folded`]).
pub fn folded(profile: &Profile, weight: Weight) -> String {
    let mut out = Vec::new();
    // Writing to a vector cannot fail.
    let _ = write_folded(profile, weight, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}
