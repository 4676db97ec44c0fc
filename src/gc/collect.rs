//! The collector: when to collect (minor or major), and the Cheney copy
//! both kinds share. See the module doc of [`crate::gc`].

use std::ops::Range;

use super::stats::Timer;
use super::{
    Addr, Heap, HeapExhausted, MAJOR_FACTOR, MIN_MAJOR_WORDS, Roots, STRESS_MAJOR_EVERY, Tag,
    Value, closure_words,
};

impl Heap {
    /// [`Heap::reserve`]'s slow path: collect, then make `hp..lim` hold
    /// `words` (in the nursery, or for a request larger than it, at the end
    /// of the old generation).
    #[cold]
    #[inline(never)]
    pub(super) fn make_room(
        &mut self,
        words: usize,
        stress: bool,
        roots: &mut dyn Roots,
    ) -> Result<(), HeapExhausted> {
        self.settle();
        if !stress && self.hp + words <= self.lim {
            return Ok(());
        }
        let major = if stress {
            self.stress_count += 1;
            self.stress_count.is_multiple_of(STRESS_MAJOR_EVERY)
        } else {
            // The old generation alone: counting the nursery would make
            // every collection major while the old generation is smaller
            // than the nursery.
            self.old_used() > self.major_at
        };
        // A minor collection needs room for everything in the nursery.
        let major = major || self.majors_only || self.nursery_used() > self.old_free();
        if major {
            self.major(roots);
        } else {
            self.minor(roots);
            if words > self.old_free() {
                self.major(roots);
            }
        }
        if words > self.old_free() {
            return Err(self.exhausted(words));
        }
        if self.hp + words > self.lim {
            // Larger than the nursery: at the end of the old generation,
            // scanned by the next minor collection (it may come to point
            // into the nursery through its free variables).
            self.nursery_top = self.hp;
            self.unscanned_from = self.unscanned_from.min(self.old_top);
            self.hp = self.old_top;
            self.lim = self.old_top + words;
        }
        Ok(())
    }

    /// A major collection, then `needed` words must fit (a heap census
    /// asks for none, so it cannot fail).
    pub fn collect(&mut self, needed: usize, roots: &mut dyn Roots) -> Result<(), HeapExhausted> {
        self.settle();
        self.major(roots);
        if needed > self.old_free() {
            return Err(self.exhausted(needed));
        }
        Ok(())
    }

    fn exhausted(&self, words: usize) -> HeapExhausted {
        HeapExhausted {
            live_bytes: self.old_used() as u64 * 8,
            requested_bytes: words as u64 * 8,
            limit_bytes: self.limit_bytes,
        }
    }

    /// The old generation's free words.
    pub(super) fn old_free(&self) -> usize {
        self.old_size - self.old_used()
    }

    /// End a large request's allocation in the old generation: the
    /// allocation pointer goes back to the nursery.
    fn settle(&mut self) {
        if self.in_old() {
            self.old_top = self.hp;
            self.hp = self.nursery_top;
            self.nursery_top = 0;
            self.lim = self.nursery_limit();
        }
    }

    /// Promote the nursery's live closures to the old generation.
    fn minor(&mut self, roots: &mut dyn Roots) {
        let timer = Timer::start();
        let young = self.hp;
        let promoted_from = self.old_top;
        let mut ev = Evacuation {
            mem: &mut self.mem,
            bits: &mut self.bits,
            young_end: young,
            from: 0..0,
            free: promoted_from,
            end: self.old_base + self.old_size,
        };
        roots.visit_young_roots(&mut |vs| ev.evacuate_all(vs));
        for &r in &self.remembered {
            ev.scan_closure(r as usize);
        }
        ev.scan(self.unscanned_from.min(promoted_from));
        let free = ev.free;
        self.old_top = free;
        self.reset_nursery(young);
        timer.stop(&mut self.stats, 0, (free - promoted_from) as u64 * 8);
    }

    /// Copy everything live into the empty old space, which becomes the
    /// old generation; give the other back.
    fn major(&mut self, roots: &mut dyn Roots) {
        let timer = Timer::start();
        let young = self.hp;
        let from = self.old_base..self.old_top;
        let to = if self.old_base == self.nursery {
            self.nursery + self.old_size
        } else {
            self.nursery
        };
        let mut ev = Evacuation {
            mem: &mut self.mem,
            bits: &mut self.bits,
            young_end: young,
            from: from.clone(),
            free: to,
            end: to + self.old_size,
        };
        roots.visit_roots(&mut |vs| ev.evacuate_all(vs));
        ev.scan(to);
        let live = ev.free - to;
        if let Some(b) = &mut self.biographies {
            b.after_collection(&self.mem, &[0..young, from.clone()], self.mem.len());
        }
        self.old_base = to;
        self.old_top = to + live;
        self.reset_nursery(young);
        self.major_at = (live * MAJOR_FACTOR)
            .max(MIN_MAJOR_WORDS)
            .min(self.old_size);
        // The old old space: given back, its words and bits zero for when
        // it is next copied into. (Keeping its pages, which the system
        // zeroes again when they are next written, saved collection time
        // but cost peak memory: docs/PERFORMANCE.md.)
        self.mem.release(from.clone());
        self.bits.release(from.start / 64..from.end.div_ceil(64));
        let s = &mut self.stats;
        s.max_residency_bytes = s.max_residency_bytes.max(live as u64 * 8);
        s.residency_samples += 1;
        timer.stop(&mut self.stats, 1, live as u64 * 8);
    }

    /// After a collection: the nursery (its first `used` words were in use)
    /// is empty, with a clear bitmap; nothing is remembered.
    fn reset_nursery(&mut self, used: usize) {
        self.bits[..used.div_ceil(64)].fill(0);
        self.hp = 0;
        self.lim = self.nursery_limit();
        self.remembered.clear();
        self.unscanned_from = usize::MAX;
    }
}

/// A collection in progress: what is being collected (the nursery's
/// `0..young_end` and, in a major collection, the old space `from`), and
/// the to-space's next free word and end. All in the heap's one region.
struct Evacuation<'h> {
    mem: &'h mut [u64],
    bits: &'h mut [u64],
    young_end: usize,
    from: Range<usize>,
    free: usize,
    end: usize,
}

impl Evacuation<'_> {
    /// Is `a` in a space being collected?
    #[inline(always)]
    fn collected(&self, a: usize) -> bool {
        a < self.young_end || a.wrapping_sub(self.from.start) < self.from.end - self.from.start
    }

    /// Evacuate every pointer of a run of roots.
    #[inline(always)]
    fn evacuate_all(&mut self, vs: &mut [Value]) {
        for v in vs {
            if let Value::Ptr(a) = *v {
                *v = Value::Ptr(self.evacuate(a));
            }
        }
    }

    /// Evacuate the closure a pointer to `a` leads to (past indirections
    /// in the spaces collected): copy it to to-space unless it was
    /// already, and return its new address. A closure outside the spaces
    /// collected (an old one in a minor collection) stays where it is.
    #[inline(always)]
    fn evacuate(&mut self, a: Addr) -> Addr {
        const IND: u64 = Tag::Ind as u64;
        const FORWARD: u64 = Tag::Forward as u64;
        let mut a = a as usize;
        let mut w = 0;
        // Short-circuit indirections (bounded walk).
        for _ in 0..1_000_000 {
            if !self.collected(a) || a + 2 >= self.mem.len() {
                return a as Addr;
            }
            w = self.mem[a];
            if w & 0xff == IND && self.bits[(a + 2) / 64] >> ((a + 2) % 64) & 1 == 1 {
                a = self.mem[a + 2] as usize;
            } else {
                break;
            }
        }
        match w & 0xff {
            FORWARD => return self.mem[a + 2],
            t if !(1..FORWARD).contains(&t) => return a as Addr,
            _ => {}
        }
        let size = closure_words(((w >> 8) & 0xff_ffff) as usize);
        let new = self.free;
        if new + size > self.end || a + size > self.mem.len() {
            // Cannot happen: the nursery's limit keeps room in the old
            // generation for all of it, and an old space for all that is
            // live; closures lie within the heap.
            debug_assert!(false, "to-space overflow");
            return a as Addr;
        }
        copy_words(self.mem, a, new, size);
        copy_bits(self.bits, a, new, size);
        self.free += size;
        // Forwarded: keep the size (n), clear the index.
        self.mem[a] = (w & 0xff_ff_ff_00) | FORWARD;
        self.mem[a + 2] = new as u64;
        new as Addr
    }

    /// Cheney scan of to-space from `scan` to `free` (which it moves),
    /// pointer word by pointer word: the bitmap says where they are, so
    /// runs of other words are skipped a bitmap word at a time.
    fn scan(&mut self, mut scan: usize) {
        while scan < self.free {
            let shift = scan % 64;
            let take = (64 - shift).min(self.free - scan);
            let window = if take == 64 { !0 } else { (1u64 << take) - 1 };
            let bits = (self.bits[scan / 64] >> shift) & window;
            if bits == 0 {
                scan += take;
                continue;
            }
            let i = scan + bits.trailing_zeros() as usize;
            let a = self.mem[i];
            self.mem[i] = self.evacuate(a);
            scan = i + 1;
        }
    }

    /// Evacuate the pointers of the (old, remembered) closure at `a`.
    fn scan_closure(&mut self, a: usize) {
        let Some(&w) = self.mem.get(a) else { return };
        let size = closure_words(((w >> 8) & 0xff_ffff) as usize);
        for i in a + 2..(a + size).min(self.mem.len()) {
            if self.bits[i / 64] >> (i % 64) & 1 == 1 {
                let p = self.mem[i];
                self.mem[i] = self.evacuate(p);
            }
        }
    }
}

/// Copy a closure's `n` words from `from` to `to` (a loop for the small
/// closures that are nearly all of them: `copy_within` would call
/// `memmove`).
#[inline(always)]
fn copy_words(mem: &mut [u64], from: usize, to: usize, n: usize) {
    if n <= 8 {
        for i in 0..n {
            mem[to + i] = mem[from + i];
        }
    } else {
        mem.copy_within(from..from + n, to);
    }
}

/// Set the bits at `to + i` for every bit set at `from + i`, `i < n` (the
/// bits at `to` are clear).
#[inline(always)]
fn copy_bits(bits: &mut [u64], from: usize, to: usize, n: usize) {
    let (mut i, end) = (from, from + n);
    while i < end {
        let shift = i % 64;
        let take = (64 - shift).min(end - i);
        let window = if take == 64 { !0 } else { (1u64 << take) - 1 };
        let mut b = (bits[i / 64] >> shift) & window;
        while b != 0 {
            let j = to + (i - from) + b.trailing_zeros() as usize;
            bits[j / 64] |= 1 << (j % 64);
            b &= b - 1;
        }
        i += take;
    }
}
