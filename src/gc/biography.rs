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
use crate::cli::memory::try_reserve_len;

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
    /// One entry per heap word in use, read at a closure's address
    /// ([`Biographies::index`]): the young generation's words, then the
    /// old generation's from its base up to the highest address it may
    /// hand out (the table grows with it, [`Biographies::cover`]); 0 for a
    /// closure no census has seen and nothing has used.
    entries: Vec<u32>,
    /// The young generation's end, and the old generation's base.
    young_end: usize,
    old_base: usize,
    /// The bytes the table needed when the system would not give them
    /// (the table is then dropped and every closure's past settled, as if
    /// the run had ended there: see [`Biographies::gave_up`]).
    gave_up: Option<u64>,
    /// The current era: censuses taken so far, plus one.
    era: u32,
    /// Per era, the change of the void and of the drag total there, in
    /// bytes.
    void: Vec<i64>,
    drag: Vec<i64>,
}

impl Biographies {
    /// Biographies of a heap whose young generation ends at `young_end`
    /// and whose old generation begins at `old_base`, with an empty table
    /// ([`Biographies::cover`] makes it).
    pub(super) fn new(young_end: usize, old_base: usize) -> Biographies {
        Biographies {
            entries: Vec::new(),
            young_end,
            old_base,
            gave_up: None,
            era: 1,
            void: vec![0; 2],
            drag: vec![0; 2],
        }
    }

    /// The entry of the word at `a` (past the table for an address in
    /// neither generation).
    #[inline(always)]
    fn index(&self, a: usize) -> usize {
        table_index(a, self.young_end, self.old_base)
    }

    /// The table's entries for every address below `end` (in the young
    /// generation, or the old generation's below `end`), with a
    /// reservation that fails rather than aborts: `Err` with the bytes
    /// the table needed.
    pub(super) fn cover(&mut self, end: usize) -> Result<(), u64> {
        if self.gave_up.is_some() {
            return Ok(());
        }
        let len = self.young_end + end.saturating_sub(self.old_base);
        if len > self.entries.len() {
            try_reserve_len(&mut self.entries, len).map_err(|_| len as u64 * 4)?;
            self.entries.resize(len, 0);
        }
        Ok(())
    }

    /// The bytes the table needed when the system would not give them,
    /// if it would not (the table is gone: no use is noted, and every
    /// closure of the heap then has died, as at the end of a run).
    pub fn gave_up(&self) -> Option<u64> {
        self.gave_up
    }

    /// The closure at `a`, of `bytes`, dies now (for every closure of the
    /// heap: before `Biographies::give_up`, and at the end of the run).
    pub fn dies_now(&mut self, a: Addr, bytes: u64) {
        let e = self
            .entries
            .get(self.index(a as usize))
            .copied()
            .unwrap_or(0);
        self.dies(e, bytes);
    }

    /// Give up the table, which needed `bytes` the system would not give,
    /// once every closure in it has died ([`Biographies::dies_now`]),
    /// which settles the censuses so far as if the run had ended here.
    pub(super) fn give_up(&mut self, bytes: u64) {
        self.entries = Vec::new();
        self.gave_up = Some(bytes);
    }

    /// The closure at `a` is used now.
    #[inline]
    pub(super) fn used(&mut self, a: Addr) {
        let i = self.index(a as usize);
        if let Some(e) = self.entries.get_mut(i) {
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
        let i = self.index(a as usize);
        let e = self.entries.get_mut(i)?;
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
    /// for the old generation now at `old_base..old_end`, zero beyond the
    /// copied closures. If the system would not give the new table, every
    /// closure dies now instead (the copied ones too): see
    /// [`Biographies::give_up`].
    ///
    /// The young generation's part of the table stays in place: only the
    /// entries of the young spaces collected are read and cleared (the
    /// rest of it is zero already), so a collection costs time in the
    /// closures it walks and the old generation, not in the young
    /// generation's size. A new table for the whole young generation at
    /// each collection (3 MiB, zeroed and faulted in) made a census every
    /// step of nfib take over 300 s against under 1 s by kind.
    pub(super) fn after_collection(
        &mut self,
        mem: &[Word],
        from: &[Range<usize>],
        old_base: usize,
        old_end: usize,
    ) {
        if self.gave_up.is_some() {
            return;
        }
        let young_end = self.young_end;
        // The old generation's entries before the collection, by address
        // less `from_base`; the table keeps the young generation's.
        // Moved out with a reservation that fails rather than aborts; when
        // it fails (`None`), they are read where they are, and the table
        // is given up.
        let from_base = self.old_base;
        let part = self.entries.get(young_end..).unwrap_or_default();
        let mut old = Vec::new();
        let old = try_reserve_len(&mut old, part.len()).is_ok().then(|| {
            old.extend_from_slice(part);
            old
        });
        if old.is_some() {
            self.entries.truncate(young_end);
        }
        let old_len = old_end - old_base;
        let len = young_end + old_len;
        // (Moved out, the table is the young generation's part alone.)
        let given = old.is_some() && try_reserve_len(&mut self.entries, len).is_ok();
        if given {
            self.entries.resize(len, 0);
        }
        for r in from {
            let mut a = r.start;
            while a + 2 < r.end.min(mem.len()) {
                let w = mem[a];
                let Some(tag) = Tag::from_u8((w & 0xff) as u8) else {
                    break;
                };
                let size = closure_words(((w >> 8) & 0xff_ffff) as usize);
                let e = if a < young_end {
                    self.entries.get(a).copied()
                } else {
                    a.checked_sub(from_base).and_then(|o| match &old {
                        Some(old) => old.get(o).copied(),
                        None => self.entries.get(young_end + o).copied(),
                    })
                }
                .unwrap_or(0);
                if tag == Tag::Forward && given {
                    let to = table_index(mem[a + 2] as usize, young_end, old_base);
                    if let Some(slot) = self.entries.get_mut(to) {
                        *slot = e;
                    }
                } else {
                    self.dies(e, size as u64 * 8);
                }
                a += size;
            }
            // The young spaces collected are empty now.
            let young = r.start.min(young_end)..r.end.min(young_end);
            if let Some(entries) = self.entries.get_mut(young) {
                entries.fill(0);
            }
        }
        self.old_base = old_base;
        if !given {
            self.entries = Vec::new();
            self.gave_up = Some(len as u64 * 4);
        }
    }

    /// At the end of the run, once every closure still live has died
    /// ([`Biographies::dies_now`]): the void and drag totals of each
    /// census `1..era`, by census.
    pub fn totals_at_end(&mut self) -> Vec<(u64, u64)> {
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

/// The entry of the word at `a` in a table of the young generation's
/// words (below `young_end`), then the old generation's from `old_base`
/// (`usize::MAX`, past any table, for an address in neither).
#[inline(always)]
fn table_index(a: usize, young_end: usize, old_base: usize) -> usize {
    if a < young_end {
        a
    } else {
        a.checked_sub(old_base)
            .map_or(usize::MAX, |o| o + young_end)
    }
}
