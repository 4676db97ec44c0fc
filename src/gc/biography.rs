//! Closures' biographies (`--heap-profile=biography`, GHC's `-hb`): for
//! each closure, whether it has been used and in which era (census
//! interval) it was last used, kept in a side table beside the heap and
//! moved by the collector, so that closures keep their size and the
//! `words` counter its meaning. Only a heap asked to keep biographies
//! has the table; without it nothing here runs.
//!
//! Röjemo and Runciman's phases: a closure is in its *lag* from its
//! creation to its first use, in *use* up to its last use, in *drag* from
//! its last use to its death, and *void* all its life if it is never used.
//! A census can tell only "used yet" from "not used yet"; the rest is known
//! when the closure dies. So, as GHC's LDV profiler does, a death settles
//! the closure's past: its size goes to the void (never used) or drag
//! (used, not since era `t`) ledger from the era it entered that phase to
//! the era of its death, as a difference at both ends; the censuses' void
//! and drag totals are the ledgers' running sums, known at the end of the
//! run, when every closure still live dies.
//!
//! An era is the time between two censuses: era `k` ends with census `k`
//! (the first census is census 1). A use in era `t` precedes census `t`,
//! so a closure last used in era `t` is dragged from census `t` on (GHC
//! counts it as used at census `t` too: DECISIONS.md).

use std::ops::Range;

use super::{Addr, Tag, Word, closure_words};

/// The entry's flag: the closure has been used (entered, or a `case` has
/// inspected it).
const USED: u32 = 1 << 31;
/// A census has seen the closure (and decided whether it is counted).
const SEEN: u32 = 1 << 30;
/// The censuses count the closure (it passed the profile's restriction
/// when first seen): its death is settled.
const COUNTED: u32 = 1 << 29;
/// The era: when not used, of the census that first counted it; when
/// used, of the last use.
const ERA: u32 = COUNTED - 1;

/// A closure's state as a census sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Not used yet: in its lag, or void.
    NotUsed,
    /// Used: in use, or drag.
    Used,
}

/// The side table and the ledgers of deaths (see the module doc).
#[derive(Debug)]
pub struct Biographies {
    /// One entry per heap word, read at a closure's address; 0 for a
    /// closure no census has seen and nothing has used.
    entries: Vec<u32>,
    /// The current era: censuses taken so far, plus one.
    era: u32,
    /// Per era, the change of the void and of the drag total there, in
    /// bytes.
    void: Vec<i64>,
    drag: Vec<i64>,
}

impl Biographies {
    pub(super) fn new(capacity: usize) -> Biographies {
        Biographies {
            entries: vec![0; capacity],
            era: 1,
            void: vec![0; 2],
            drag: vec![0; 2],
        }
    }

    /// The closure at `a` is used now.
    #[inline]
    pub(super) fn used(&mut self, a: Addr) {
        if let Some(e) = self.entries.get_mut(a as usize) {
            *e = (*e & (SEEN | COUNTED)) | USED | self.era;
        }
    }

    /// The current era (the number the next census will have).
    pub fn era(&self) -> u32 {
        self.era
    }

    /// A census sees the live closure at `a`: the first census to see it
    /// decides with `counts` whether the censuses count it. Returns its
    /// phase if counted.
    pub fn census_sees(&mut self, a: Addr, counts: impl FnOnce() -> bool) -> Option<Phase> {
        let era = self.era;
        let e = self.entries.get_mut(a as usize)?;
        if *e & SEEN == 0 {
            let counted = if counts() { COUNTED } else { 0 };
            // A closure not used yet is in its lag (or void) from this
            // census on; one used is, by the census after its creation,
            // used in this era.
            let at = if *e & USED != 0 { *e & ERA } else { era };
            *e = (*e & USED) | SEEN | counted | at;
        }
        if *e & COUNTED == 0 {
            None
        } else if *e & USED != 0 {
            Some(Phase::Used)
        } else {
            Some(Phase::NotUsed)
        }
    }

    /// The census of this era is taken: the next era begins. (Eras are
    /// bounded by the profile's size budget long before the era field is full.)
    pub fn next_era(&mut self) {
        self.era = (self.era + 1).min(ERA);
        let n = self.era as usize + 1;
        if self.void.len() < n {
            self.void.resize(n, 0);
            self.drag.resize(n, 0);
        }
    }

    /// The closure whose entry is `e`, of `bytes`, dies in this era.
    fn dies(&mut self, e: u32, bytes: u64) {
        if e & COUNTED == 0 {
            return;
        }
        let (from, to) = ((e & ERA) as usize, self.era as usize);
        let ledger = if e & USED != 0 {
            &mut self.drag
        } else {
            &mut self.void
        };
        let bytes = bytes as i64;
        if let Some(x) = ledger.get_mut(from) {
            *x += bytes;
        }
        if let Some(x) = ledger.get_mut(to) {
            *x -= bytes;
        }
    }

    /// After a (major) collection: move the entries of the closures it
    /// copied (the forwarding words left in the spaces collected, `from`,
    /// say where), settle the deaths of those it did not, and leave a table
    /// of `capacity` entries, zero beyond the copied closures.
    pub(super) fn after_collection(
        &mut self,
        mem: &[Word],
        from: &[Range<usize>],
        capacity: usize,
    ) {
        let old = std::mem::replace(&mut self.entries, vec![0; capacity]);
        for r in from {
            let mut a = r.start;
            while a + 2 < r.end.min(mem.len()) {
                let w = mem[a];
                let Some(tag) = Tag::from_u8((w & 0xff) as u8) else {
                    break;
                };
                let size = closure_words(((w >> 8) & 0xff_ffff) as usize);
                let e = old.get(a).copied().unwrap_or(0);
                if tag == Tag::Forward {
                    if let Some(slot) = self.entries.get_mut(mem[a + 2] as usize) {
                        *slot = e;
                    }
                } else {
                    self.dies(e, size as u64 * 8);
                }
                a += size;
            }
        }
    }

    /// At the end of the run every closure still live dies (`live`: their
    /// addresses and sizes in bytes); then the void and drag totals of
    /// each census `1..era`, by census.
    pub fn totals_at_end(
        &mut self,
        live: impl IntoIterator<Item = (Addr, u64)>,
    ) -> Vec<(u64, u64)> {
        for (a, bytes) in live {
            let e = self.entries.get(a as usize).copied().unwrap_or(0);
            self.dies(e, bytes);
        }
        let (mut void, mut drag) = (0i64, 0i64);
        (1..self.era as usize)
            .map(|k| {
                void += self.void.get(k).copied().unwrap_or(0);
                drag += self.drag.get(k).copied().unwrap_or(0);
                (void.max(0) as u64, drag.max(0) as u64)
            })
            .collect()
    }
}
