//! A total, iterative depth-first view of a [`Profile`]'s call graph, shared
//! by the dump and the reports, and the individual and inherited sums the
//! reports show.
//!
//! It never recurses and never panics: child indices out of range, and
//! entries reached a second time (shared children or cycles, which no file can
//! express but a hand-built `Profile` could), are skipped.

use super::{Counters, Entry, Profile};

pub(crate) struct Tree {
    /// Entry indices in depth-first order from the root (children in the
    /// order they are listed). For a profile returned by `format::read` this
    /// is `0..entries.len()`.
    pub order: Vec<usize>,
    /// Depth of each entry (root = 0), by entry index; unreached entries 0.
    pub depth: Vec<usize>,
    /// Position of each entry in `order` (its number in the file), by entry
    /// index; `usize::MAX` for entries not reached from the root.
    pub number: Vec<usize>,
    /// The valid children of every entry, each entry's together, in
    /// listed order: [`Tree::kids`] gives one entry's.
    kid_list: Vec<usize>,
    /// Where each entry's children start in `kid_list`, and how many.
    kid_span: Vec<(u32, u32)>,
}

impl Tree {
    pub fn new(p: &Profile) -> Tree {
        let n = p.entries.len();
        let mut t = Tree {
            order: Vec::with_capacity(n),
            depth: vec![0; n],
            number: vec![usize::MAX; n],
            kid_list: Vec::with_capacity(n.saturating_sub(1)),
            kid_span: vec![(0, 0); n],
        };
        if n == 0 {
            return t;
        }
        let mut seen = vec![false; n];
        seen[0] = true;
        let mut stack = vec![0usize];
        while let Some(i) = stack.pop() {
            t.number[i] = t.order.len();
            t.order.push(i);
            let start = t.kid_list.len();
            for &c in &p.entries[i].children {
                let c = c as usize;
                if c < n && !seen[c] {
                    seen[c] = true;
                    t.depth[c] = t.depth[i] + 1;
                    t.kid_list.push(c);
                }
            }
            stack.extend(t.kid_list[start..].iter().rev());
            // Each entry is a child once, so the list holds fewer than
            // `n` entries, and `n` fits a `u32` (`format::read` refuses more).
            t.kid_span[i] = (start as u32, (t.kid_list.len() - start) as u32);
        }
        t
    }

    /// The valid children of entry `i`, in listed order.
    pub fn kids(&self, i: usize) -> &[usize] {
        let (start, len) = self.kid_span[i];
        &self.kid_list[start as usize..start as usize + len as usize]
    }
}

/// The six counters of [`Counters`], summed without overflow (in `u128`):
/// an entry's, a subtree's, a cost centre's over its entries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sums {
    pub ticks: u128,
    pub words: u128,
    pub tail: u128,
    pub strict: u128,
    pub lazy: u128,
    pub curried: u128,
}

impl Sums {
    pub fn of(c: &Counters) -> Sums {
        Sums {
            ticks: c.ticks as u128,
            words: c.words as u128,
            tail: c.tail_calls as u128,
            strict: c.strict_calls as u128,
            lazy: c.lazy_calls as u128,
            curried: c.curried_calls as u128,
        }
    }
    pub fn add(&mut self, o: &Sums) {
        self.ticks += o.ticks;
        self.words += o.words;
        self.tail += o.tail;
        self.strict += o.strict;
        self.lazy += o.lazy;
        self.curried += o.curried;
    }
}

/// Each entry's individual counters as [`Sums`], made when asked for
/// rather than held: a profile of millions of entries spared a second
/// vector of 96 bytes an entry.
#[derive(Clone, Copy)]
pub struct Individual<'a>(&'a [Entry]);

impl Individual<'_> {
    /// Entry `i`'s own counters.
    pub fn get(&self, i: usize) -> Sums {
        Sums::of(&self.0[i].counters)
    }
}

impl Tree {
    /// Each entry's individual and inherited (own plus its subtree's)
    /// counters, by entry index; entries not reached from the root have
    /// inherited = individual.
    pub fn sums<'a>(&self, p: &'a Profile) -> (Individual<'a>, Vec<Sums>) {
        let indiv = Individual(&p.entries);
        let mut inh: Vec<Sums> = p.entries.iter().map(|e| Sums::of(&e.counters)).collect();
        // Children before parents.
        for &i in self.order.iter().rev() {
            for &c in self.kids(i) {
                let child = inh[c];
                inh[i].add(&child);
            }
        }
        (indiv, inh)
    }
}
