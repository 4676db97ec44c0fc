//! The compacting major collection: the old generation collected where
//! it lies, by marking its live closures and sliding them down, rather
//! than copied into the other old space. See the module doc of
//! [`crate::gc`], "Collection", for when it runs.
//!
//! A copying major collection holds, at its end, the pages of the old
//! generation it collected and those of the copy of what is live: twice
//! the live data when most of it is live. Sliding holds only the old
//! generation's pages, a mark bit a word (1/64 of them) and a count of
//! live words for every 64 words (1/128).
//!
//! It follows a minor collection (so the nursery is empty), in five
//! passes:
//!
//! 1. **Mark** from the roots every live closure of the old generation
//!    and of the survivor space: a bit for each of its words (for a black
//!    hole or an entered `\s` closure its first 3 only, the size the copy
//!    would give it: its payload is dead). A pointer to an old
//!    indirection whose value is old is short-circuited, as the copy
//!    does; one whose value is young (aged) is kept, for the reason the
//!    copy keeps it ([`super::Roots::visit_young_roots`]). The mark stack
//!    has a bound (`mark_stack_bound`); a closure marked past it is
//!    left unscanned, and marking then scans every marked closure again
//!    until none is left so (the classic recovery from mark-stack
//!    overflow: the live closures marked are the same either way).
//! 2. **Count** the live words before each 64 of the old generation: a
//!    live word's new address is the old generation's base plus the live
//!    words before it (a table entry and a `popcount`).
//! 3. **Update** the roots, the live aged closures' pointers into the old
//!    generation, and the remembered old words (those that point to aged
//!    closures) that are live, to the new addresses.
//! 4. **Slide** every live old word down to its new address, in address
//!    order, its pointer updated and its bit with it: a word never lands
//!    on a live word not yet moved (each lands at or below where it was).
//! 5. Clear the pointer bits past the last live word, and give back the
//!    pages past what the old generation will fill before the next major
//!    collection.
//!
//! The aged closures stay where they are: they are young, and the next
//! minor collection moves them. Those no root reaches are left as they
//! were (no collection reads a closure it does not reach).

use std::ops::Range;

use super::{
    Addr, HUGE_PAGE_WORDS, Heap, MAJOR_FACTOR, MIN_MAJOR_WORDS, Roots, Tag, Value, closure_words,
};

/// A major collection compacts when the old generation holds at least
/// this many words (32 MiB); a smaller one is copied, which takes fewer
/// instructions (the 10^6 pipeline's major collections, on an old
/// generation of about 16 MB, take 2.5% more of the run's instructions
/// compacting: docs/PERFORMANCE.md), and whose second space is small.
pub const COMPACT_FROM_WORDS: usize = 1 << 22;

/// Mark bits for a range of words starting at a multiple of 64.
struct Marks {
    base: usize,
    len: usize,
    words: Vec<u64>,
}

impl Marks {
    fn new(r: Range<usize>) -> Marks {
        debug_assert!(r.start.is_multiple_of(64));
        Marks {
            base: r.start,
            len: r.len(),
            // Zeroed memory from the system: its pages take memory only
            // where a mark is set.
            words: vec![0; r.len().div_ceil(64)],
        }
    }

    #[inline(always)]
    fn contains(&self, a: usize) -> bool {
        a.wrapping_sub(self.base) < self.len
    }

    #[inline(always)]
    fn is_marked(&self, a: usize) -> bool {
        let i = a - self.base;
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    /// Mark the words `a..a + n` (within the range).
    #[inline(always)]
    fn mark(&mut self, a: usize, n: usize) {
        let (mut i, end) = (a - self.base, a - self.base + n);
        // Nearly every closure: within one mark word.
        if i % 64 + n < 64 {
            self.words[i / 64] |= ((1u64 << n) - 1) << (i % 64);
            return;
        }
        while i < end {
            let take = (64 - i % 64).min(end - i);
            let ones = if take == 64 {
                !0
            } else {
                ((1u64 << take) - 1) << (i % 64)
            };
            self.words[i / 64] |= ones;
            i += take;
        }
    }

    fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// The most closures the mark stack holds while marking an old
/// generation of `old_words` words: a 64th of it (as many bytes as its
/// mark bits), and at least 65,536. Marking pushes a closure's fields
/// last first, so that a list whose cells hold their tail last (as every
/// constructor the Prelude builds) takes a few entries; a structure that
/// takes more (a list that holds its tail first, a wide tree) is marked
/// in more than one pass ([`Compaction::rescan`]).
pub(super) fn mark_stack_bound(old_words: usize) -> usize {
    (old_words / 64).max(1 << 16)
}

/// A compaction in progress.
struct Compaction<'h> {
    mem: &'h mut [u64],
    bits: &'h mut [u64],
    /// Below it, an address is young.
    young_end: usize,
    old: Marks,
    aged: Marks,
    stack: Vec<usize>,
    bound: usize,
    overflowed: bool,
    /// Mark black holes and entered `\s` closures as closures of no
    /// payload (3 words), as the copy copies them.
    shrink_black_holes: bool,
    /// Live words before each 64 of the old generation (pass 2).
    before: Vec<u32>,
}

impl Compaction<'_> {
    #[inline(always)]
    fn bit(&self, i: usize) -> bool {
        self.bits[i / 64] >> (i % 64) & 1 == 1
    }

    /// Mark the closure a pointer to `a` leads to (past old indirections
    /// into the old generation) and return where the pointer should lead.
    #[inline(always)]
    fn trace(&mut self, a: usize) -> usize {
        const IND: u64 = Tag::Ind as u64;
        let mut a = a;
        // A bounded walk: no cycle of indirections exists.
        for _ in 0..1_000_000 {
            if self.old.contains(a) {
                let w = self.mem[a];
                if w & 0xff == IND {
                    let t = self.mem[a + 2] as usize;
                    if t >= self.young_end {
                        a = t;
                        continue;
                    }
                }
                self.mark_old(a, w);
                return a;
            }
            if self.aged.contains(a) && !self.aged.is_marked(a) {
                let n = ((self.mem[a] >> 8) & 0xff_ffff) as usize;
                let size = closure_words(n).min(self.aged.base + self.aged.len - a);
                self.aged.mark(a, size);
                self.push(a);
            }
            return a;
        }
        a
    }

    /// Mark the old closure at `a`, whose info word is `w`, unless it is.
    #[inline(always)]
    fn mark_old(&mut self, a: usize, w: u64) {
        if self.old.is_marked(a) {
            return;
        }
        let tag = w & 0xff;
        let n = ((w >> 8) & 0xff_ffff) as usize;
        let mut size = closure_words(n);
        let black_hole = tag == Tag::BlackHole as u64 || tag == Tag::Entered as u64;
        if black_hole && n > 1 && self.shrink_black_holes {
            debug_assert!(
                (a + 2..a + 2 + n).all(|i| !self.bit(i)),
                "a black hole's payload holds no pointer"
            );
            // Its info word with no payload words, so that a walk steps
            // over the 3 words it keeps.
            self.mem[a] = w & !(0xff_ffff << 8);
            size = closure_words(0);
        }
        let size = size.min(self.old.base + self.old.len - a);
        self.old.mark(a, size);
        self.push(a);
    }

    /// Push a closure just marked, to scan its fields; past the stack's
    /// bound it is left marked but unscanned, for [`Compaction::rescan`].
    #[inline(always)]
    fn push(&mut self, a: usize) {
        if self.stack.len() >= self.bound {
            self.overflowed = true;
        } else {
            self.stack.push(a);
        }
    }

    /// After the stack overflowed: scan every marked closure again (the
    /// fields of those scanned already lead to marked closures, so
    /// tracing them again changes nothing), until a pass leaves none
    /// unscanned. Marked closures are found by their bits: each run of
    /// marked words is whole closures (a black hole's size shrunk with
    /// its marks).
    fn rescan(&mut self) {
        while self.overflowed {
            self.overflowed = false;
            for space in [0, 1] {
                let (base, len, nwords) = {
                    let m = if space == 0 { &self.old } else { &self.aged };
                    (m.base, m.len, m.words.len())
                };
                let mut a = base;
                while a < base + len {
                    let k = (a - base) / 64;
                    let m = if space == 0 { &self.old } else { &self.aged };
                    let w = m.words[k] >> ((a - base) % 64);
                    if w == 0 {
                        if k + 1 >= nwords {
                            break;
                        }
                        a = base + (k + 1) * 64;
                        continue;
                    }
                    a += w.trailing_zeros() as usize;
                    let n = ((self.mem[a] >> 8) & 0xff_ffff) as usize;
                    self.scan_fields(a);
                    self.drain();
                    a += closure_words(n);
                }
            }
        }
    }

    /// Mark from the pointers of a run of roots, each root's closures
    /// marked before the next (so that the stack holds one root's
    /// work at a time).
    fn mark_from(&mut self, vs: &mut [Value]) {
        for v in vs {
            if let Value::Ptr(a) = *v {
                *v = Value::Ptr(self.trace(a as usize) as Addr);
                self.drain();
            }
        }
    }

    /// Scan the closures on the mark stack until it is empty (or has
    /// overflowed): each pointer field short-circuited and its closure
    /// marked, the last field first, so that the first is popped first.
    fn drain(&mut self) {
        while let Some(c) = self.stack.pop() {
            self.scan_fields(c);
        }
    }

    /// Trace the pointer fields of the marked closure at `c`, the last
    /// first, each short-circuited where it should be.
    #[inline(always)]
    fn scan_fields(&mut self, c: usize) {
        let n = ((self.mem[c] >> 8) & 0xff_ffff) as usize;
        let space = if self.old.contains(c) {
            &self.old
        } else {
            &self.aged
        };
        let end = (c + closure_words(n)).min(space.base + space.len);
        for i in (c + 2..end).rev() {
            if self.bit(i) {
                let v = self.mem[i] as usize;
                let t = self.trace(v);
                if t != v {
                    self.mem[i] = t as u64;
                }
            }
        }
    }

    /// Pass 2: the live words before each 64 of the old generation.
    fn count(&mut self) {
        let mut sum = 0u32;
        self.before = self
            .old
            .words
            .iter()
            .map(|w| {
                let b = sum;
                sum += w.count_ones();
                b
            })
            .collect();
    }

    /// The new address of what a pointer to `a` leads to: an old
    /// closure's after the slide; anything else's where it is.
    #[inline(always)]
    fn forward(&self, a: u64) -> u64 {
        let a = a as usize;
        if !self.old.contains(a) {
            return a as u64;
        }
        let i = a - self.old.base;
        let below = self.old.words[i / 64] & ((1u64 << (i % 64)) - 1);
        (self.old.base + self.before[i / 64] as usize + below.count_ones() as usize) as u64
    }

    fn forward_all(&self, vs: &mut [Value]) {
        for v in vs {
            if let Value::Ptr(a) = *v {
                *v = Value::Ptr(self.forward(a));
            }
        }
    }

    /// Pass 3's aged closures: each pointer word of a live one updated.
    fn forward_aged(&mut self) {
        let base = self.aged.base;
        for k in 0..self.aged.words.len() {
            let mut m = self.aged.words[k] & self.bits[base / 64 + k];
            while m != 0 {
                let i = base + 64 * k + m.trailing_zeros() as usize;
                self.mem[i] = self.forward(self.mem[i]);
                m &= m - 1;
            }
        }
    }

    /// Pass 4: slide the live words down; returns the old generation's
    /// new end.
    fn slide(&mut self) -> usize {
        let base = self.old.base;
        let mut dest = base;
        for k in 0..self.old.words.len() {
            let m = self.old.words[k];
            if m == 0 {
                continue;
            }
            let at = base + 64 * k;
            // Read before this run's writes, which land at or below each
            // word still to be read.
            let pointers = self.bits[at / 64];
            // Each run of live words: moved whole (unless it stays where
            // it is), then its pointers updated where they landed, its
            // bits written with it.
            let mut mm = m;
            while mm != 0 {
                let j = mm.trailing_zeros() as usize;
                let len = ((!(mm >> j)).trailing_zeros() as usize).min(64 - j);
                let run = if len == 64 { !0 } else { (1u64 << len) - 1 };
                let from = at + j;
                if dest != from {
                    // Down, so a word-by-word copy from the first is a
                    // move; a short run's is cheaper than `memmove`'s call.
                    if len <= 8 {
                        for t in 0..len {
                            self.mem[dest + t] = self.mem[from + t];
                        }
                    } else {
                        self.mem.copy_within(from..from + len, dest);
                    }
                }
                let p = (pointers >> j) & run;
                write_bits(self.bits, dest, p, len);
                let mut q = p;
                while q != 0 {
                    let i = dest + q.trailing_zeros() as usize;
                    self.mem[i] = self.forward(self.mem[i]);
                    q &= q - 1;
                }
                dest += len;
                mm &= !(run << j);
            }
        }
        dest
    }
}

/// Write the `len` bits `p` (`len <= 64`) into `bits` from bit `at` on,
/// clearing those of them `p` does not set (the slide lands on words
/// whose bits are stale; the copy's `collect::place_bits` only sets bits,
/// in a to-space whose bits are clear).
#[inline(always)]
fn write_bits(bits: &mut [u64], at: usize, p: u64, len: usize) {
    let (k, o) = (at / 64, at % 64);
    let run = if len == 64 { !0 } else { (1u64 << len) - 1 };
    bits[k] = bits[k] & !(run << o) | p << o;
    if o + len > 64 {
        let rest = o + len - 64;
        let high = (1u64 << rest) - 1;
        bits[k + 1] = bits[k + 1] & !high | p >> (64 - o);
    }
}

impl Heap {
    /// Whether a major collection that `make_room` chose compacts: when
    /// the old generation holds at least [`COMPACT_FROM_WORDS`] (under
    /// `--gc-stress`, every other major collection, whatever its size);
    /// not in a heap whose collections are all major and copied
    /// (biographies, the trace), nor when the old generation's word
    /// counts would not fit the count table's 32 bits, nor when the young
    /// generation would not fit in the old one (the minor collection it
    /// begins with could not promote it all).
    pub(super) fn may_compact(&self, stress: bool) -> bool {
        let young = self.nursery_used() + self.aged.len();
        let turn = if stress {
            (self.stress_count / super::STRESS_MAJOR_EVERY) % 2 == 1
        } else {
            self.old_used() >= COMPACT_FROM_WORDS
        };
        turn && !self.majors_only && self.old_size < u32::MAX as usize && young <= self.old_free()
    }

    /// A compacting major collection, after the minor one
    /// ([`Heap::minor_copy`]) that emptied the nursery (see the module
    /// doc). Returns the old generation's live words: what it reports as
    /// copied (moved or not: the words that move depend on where the
    /// closures happened to lie, which the engines' different orders of
    /// roots make differ, and a copying collection reports all it keeps).
    pub(super) fn compact(&mut self, roots: &mut dyn Roots) -> usize {
        debug_assert!(self.hp == 0 && !self.in_old() && self.remembered.is_empty());
        let old = self.old_base..self.old_top;
        let mut c = Compaction {
            mem: &mut self.mem,
            bits: &mut self.bits,
            young_end: self.young_end,
            old: Marks::new(old.clone()),
            aged: Marks::new(self.aged.clone()),
            stack: Vec::new(),
            bound: mark_stack_bound(old.len()),
            overflowed: false,
            shrink_black_holes: !self.keeps_black_hole_sizes,
            before: Vec::new(),
        };
        roots.visit_roots_in_place(&mut |vs| c.mark_from(vs));
        c.rescan();
        c.count();
        roots.visit_roots_in_place(&mut |vs| c.forward_all(vs));
        c.forward_aged();
        self.remembered_words
            .retain(|&w| c.old.contains(w as usize) && c.old.is_marked(w as usize));
        for w in &mut self.remembered_words {
            *w = c.forward(*w);
        }
        let top = c.slide();
        let aged_live = c.aged.count();
        drop(c);
        // Pass 5: no bits past the live words (the allocators and the
        // copy write bits only where they are set).
        if !top.is_multiple_of(64) {
            self.bits[top / 64] &= (1u64 << (top % 64)) - 1;
        }
        self.bits.release(top.div_ceil(64)..old.end.div_ceil(64));
        let old_live = top - old.start;
        self.old_top = top;
        self.major_at = (old_live * MAJOR_FACTOR)
            .max(MIN_MAJOR_WORDS)
            .min(self.old_size);
        // The pages the old generation fills again before the next major
        // collection are kept (what it held at its fullest, no more);
        // those past them given back.
        let resident = self.old_resident.max(old.end);
        // (Whole huge pages given back: a huge page split in two would
        // be one no longer.)
        let keep = (self.old_base + self.major_at)
            .max(top)
            .next_multiple_of(HUGE_PAGE_WORDS)
            .min(resident);
        self.mem.release(keep..resident);
        self.old_resident = keep;
        self.lim = self.nursery_limit();
        let live = old_live + aged_live;
        let s = &mut self.stats;
        s.max_residency_bytes = s.max_residency_bytes.max(live as u64 * 8);
        s.residency_samples += 1;
        old_live
    }
}
