//! A total, iterative depth-first view of a [`Profile`]'s call graph, shared
//! by the dump and the reports, and the individual and inherited sums the
//! reports show.
//!
//! It never recurses and never panics: child indices out of range, and
//! entries reached a second time (shared children or cycles, which no file can
//! express but a hand-built `Profile` could), are skipped.

use super::{Counters, Profile};

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
    /// The valid children of each entry, by entry index, in listed order.
    pub kids: Vec<Vec<usize>>,
}

impl Tree {
    pub fn new(p: &Profile) -> Tree {
        let n = p.entries.len();
        let mut t = Tree {
            order: Vec::with_capacity(n),
            depth: vec![0; n],
            number: vec![usize::MAX; n],
            kids: vec![Vec::new(); n],
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
            let mut kids = Vec::new();
            for &c in &p.entries[i].children {
                let c = c as usize;
                if c < n && !seen[c] {
                    seen[c] = true;
                    t.depth[c] = t.depth[i] + 1;
                    kids.push(c);
                }
            }
            stack.extend(kids.iter().rev());
            t.kids[i] = kids;
        }
        t
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

impl Tree {
    /// Each entry's individual and inherited (own plus its subtree's)
    /// counters, by entry index; entries not reached from the root have
    /// inherited = individual.
    pub fn sums(&self, p: &Profile) -> (Vec<Sums>, Vec<Sums>) {
        let indiv: Vec<Sums> = p.entries.iter().map(|e| Sums::of(&e.counters)).collect();
        let mut inh = indiv.clone();
        // Children before parents.
        for &i in self.order.iter().rev() {
            for &c in &self.kids[i] {
                let child = inh[c];
                inh[i].add(&child);
            }
        }
        (indiv, inh)
    }
}
