//! The collector: when to collect (minor or major), and the Cheney copy
//! both kinds share. See the module doc of [`crate::gc`].

use std::ops::Range;

use super::stats::Timer;
use super::{
    Addr, HUGE_PAGE_WORDS, Heap, HeapExhausted, MAJOR_FACTOR, MIN_MAJOR_WORDS, Roots,
    STRESS_MAJOR_EVERY, Tag, Value, closure_words,
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
        // A minor collection needs room for everything young.
        let young = self.nursery_used() + self.aged.len();
        let major = major || self.majors_only || young > self.old_free();
        if major && self.may_compact(stress) {
            // A minor collection, then the old generation compacted:
            // timed as one major collection (`compact.rs`).
            let timer = Timer::start();
            let copied = self.minor_copy(roots);
            let kept = self.compact(roots);
            timer.stop(&mut self.stats, 1, (copied + kept) as u64 * 8);
        } else if major {
            self.major(roots, true);
        } else {
            self.minor(roots);
        }
        // The request leaves room for the next minor collection to
        // promote the aged closures; if it does not, a major collection
        // that promotes them all.
        if words + self.aged.len() > self.old_free() {
            self.major(roots, false);
            if words > self.old_free() {
                return Err(self.exhausted(words));
            }
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
        self.cover_biographies();
        Ok(())
    }

    /// A major collection that promotes everything (so that only live
    /// closures are left, none of them young: what a heap census walks),
    /// then `needed` words must fit (a census asks for none, so it cannot
    /// fail).
    pub fn collect(&mut self, needed: usize, roots: &mut dyn Roots) -> Result<(), HeapExhausted> {
        self.settle();
        self.major(roots, false);
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
    pub(super) fn settle(&mut self) {
        if self.in_old() {
            self.old_top = self.hp;
            self.hp = self.nursery_top;
            self.nursery_top = 0;
            self.lim = self.nursery_limit();
        }
    }

    /// Age the nursery's live closures (copy them into the empty survivor
    /// space, or, when it is full, promote them) and promote the aged ones
    /// still live to the old generation.
    fn minor(&mut self, roots: &mut dyn Roots) {
        let timer = Timer::start();
        let copied = self.minor_copy(roots);
        timer.stop(&mut self.stats, 0, copied as u64 * 8);
    }

    /// [`Heap::minor`]'s copy, untimed (a compacting major collection
    /// begins with one: `compact.rs`); returns the words copied.
    pub(super) fn minor_copy(&mut self, roots: &mut dyn Roots) -> usize {
        let young = self.hp;
        let promoted_from = self.old_top;
        let aged_from = self.aged.clone();
        let aged_to = self.other_survivor();
        let mut remembered = Vec::new();
        let mut ev = Evacuation {
            mem: &mut self.mem,
            bits: &mut self.bits,
            young_end: young,
            from_start: aged_from.start,
            from_len: aged_from.len(),
            also_start: 0,
            also_len: 0,
            free: promoted_from,
            end: self.old_base + self.old_size,
            aged_free: aged_to,
            aged_start: aged_to,
            aged_end: aged_to + self.survivor,
            age_from: young.saturating_sub(self.age_window),
            remembered: &mut remembered,
            shrink_black_holes: !self.keeps_black_hole_sizes,
        }
        .within_the_heap();
        let apart = !self.keeps_updatees
            && roots.visit_roots_but_updatees(true, &mut |vs| ev.evacuate_all(vs));
        if !apart {
            roots.visit_young_roots(&mut |vs| ev.evacuate_all(vs));
        }
        for &r in &self.remembered {
            ev.scan_closure(r as usize);
        }
        for a in std::mem::take(&mut self.remembered_words) {
            ev.scan_word(a as usize);
        }
        ev.scan(self.unscanned_from.min(promoted_from), aged_to);
        if apart {
            ev.settle_updatees(roots);
        }
        let (free, aged_free) = (ev.free, ev.aged_free);
        self.remembered_words = remembered;
        self.old_top = free;
        self.clear_aged();
        self.aged = aged_to..aged_free;
        self.reset_nursery(young);
        self.stats.bytes_promoted += (free - promoted_from) as u64 * 8;
        (free - promoted_from) + (aged_free - aged_to)
    }

    /// The start of the survivor space the aged closures are not in.
    fn other_survivor(&self) -> usize {
        if self.aged.start == self.nursery {
            self.nursery + self.survivor
        } else {
            self.nursery
        }
    }

    /// The aged closures have been copied out: their survivor space is
    /// empty, with a clear bitmap (its words are overwritten by the next
    /// copy into it, so they need not be cleared).
    fn clear_aged(&mut self) {
        let Range { start, end } = self.aged;
        self.bits[start / 64..end.div_ceil(64)].fill(0);
        self.aged = start..start;
    }

    /// Copy everything live into the empty old space, which becomes the
    /// old generation, and give the other back. With `age`, the nursery's
    /// closures are aged as in a minor collection (those that do not fit
    /// in the survivor space promoted), so that a major collection does
    /// not promote the closures the program is working on just then (the
    /// frontier of a lazy list, whose updates would otherwise keep each
    /// next stretch of it alive from the old generation until the next
    /// major collection: docs/PERFORMANCE.md); without, everything is
    /// promoted and the young generation is empty.
    pub(super) fn major(&mut self, roots: &mut dyn Roots, age: bool) {
        let timer = Timer::start();
        let young = self.hp;
        let from = self.old_base..self.old_top;
        let to = if self.old_base == self.young_end {
            self.young_end + self.old_size
        } else {
            self.young_end
        };
        let from_resident = self.old_resident.max(from.end);
        let spare_moved = self.move_spare_pages(from.end..from_resident, to);
        let aged_from = self.aged.clone();
        let age = age && !self.majors_only;
        let aged_to = if age { self.other_survivor() } else { 0 };
        let aged_end = if age { aged_to + self.survivor } else { 0 };
        let mut remembered = Vec::new();
        let mut ev = Evacuation {
            mem: &mut self.mem,
            bits: &mut self.bits,
            young_end: young,
            from_start: from.start,
            from_len: from.len(),
            also_start: aged_from.start,
            also_len: aged_from.len(),
            free: to,
            end: to + self.old_size,
            aged_free: aged_to,
            aged_start: aged_to,
            aged_end,
            age_from: young.saturating_sub(self.age_window),
            remembered: &mut remembered,
            shrink_black_holes: !self.keeps_black_hole_sizes,
        }
        .within_the_heap();
        let apart = !self.keeps_updatees
            && roots.visit_roots_but_updatees(false, &mut |vs| ev.evacuate_all(vs));
        if !apart {
            roots.visit_roots(&mut |vs| ev.evacuate_all(vs));
        }
        ev.scan(to, aged_to);
        if apart {
            ev.settle_updatees(roots);
        }
        let aged_free = ev.aged_free;
        let old_live = ev.free - to;
        if let Some(b) = &mut self.biographies {
            let collected = [0..young, aged_from, from.clone()];
            b.after_collection(&self.mem, &collected, to, to + old_live);
        }
        self.old_base = to;
        self.old_top = to + old_live;
        self.clear_aged();
        if age {
            self.aged = aged_to..aged_free;
        }
        self.remembered_words = remembered;
        self.reset_nursery(young);
        let live = old_live + self.aged.len();
        self.major_at = (old_live * MAJOR_FACTOR)
            .max(MIN_MAJOR_WORDS)
            .min(self.old_size);
        self.recycle_pages(from.clone(), from_resident, to + spare_moved.max(old_live));
        self.bits.release(from.start / 64..from.end.div_ceil(64));
        let s = &mut self.stats;
        s.max_residency_bytes = s.max_residency_bytes.max(live as u64 * 8);
        s.residency_samples += 1;
        timer.stop(&mut self.stats, 1, live as u64 * 8);
    }

    /// Before a major collection into the empty old space at `to`: move
    /// the pages of the old generation's space past its closures
    /// (`spare`, from its end to the end of its resident pages: moved
    /// there by the last major collection and not written since) to the
    /// start of `to`, where the copy writes first, so that the system
    /// neither faults nor zeroes them again. Returns the words moved.
    fn move_spare_pages(&mut self, spare: Range<usize>, to: usize) -> usize {
        if !self.moves_pages {
            return 0;
        }
        let spare = spare.start.next_multiple_of(HUGE_PAGE_WORDS)
            ..spare.end.next_multiple_of(HUGE_PAGE_WORDS);
        self.move_huge_pages(spare, to)
    }

    /// After a major collection: the pages of the emptied old space that
    /// its closures (`from`) filled are moved to the new old generation's
    /// space after its resident pages (the live data copied and the spare
    /// pages moved before, up to `resident`), where promotions write next,
    /// so that its fresh pages come without the system's page faults and
    /// zeroing (docs/PERFORMANCE.md, "Pages moved, not given back"). That
    /// keeps no more memory than the collection held at its end (both
    /// spaces' pages), so the peak is what it was when they were given
    /// back; and at most what the old generation and the next major
    /// collection can write before that collection (`2 * major_at`
    /// words), so a heap that shrinks gives memory back. A huge page only
    /// begun is not moved (a small heap keeps what it kept before). The
    /// pages not moved, up to `from_resident`, are given back, their words
    /// zero.
    fn recycle_pages(&mut self, from: Range<usize>, from_resident: usize, resident: usize) {
        const HUGE: usize = HUGE_PAGE_WORDS;
        let mut moved = 0;
        let mut resident_end = resident;
        if self.moves_pages {
            let dest = resident.next_multiple_of(HUGE);
            let cap = (self.old_base + self.old_size).min(self.old_base + 2 * self.major_at);
            let full = (from.end - from.start) / HUGE * HUGE;
            let n = full.min(cap.saturating_sub(dest)) / HUGE * HUGE;
            moved = self.move_huge_pages(from.start..from.start + n, dest);
            if moved > 0 {
                resident_end = dest + moved;
            }
        }
        self.old_resident = resident_end;
        let kept = from.start + moved;
        self.mem.release(kept..from_resident.max(kept));
    }

    /// Move the pages of `from` (whole huge pages) to start at `to`, a
    /// huge page at a time (each lies in one of the system's mappings,
    /// where a range of several might not). Returns the words moved, a
    /// prefix of `from`; at the first refusal it stops, and no page is
    /// moved again (the pages are then given back, as before).
    fn move_huge_pages(&mut self, from: Range<usize>, to: usize) -> usize {
        let mut moved = 0;
        while self.moves_pages && from.start + moved < from.end {
            let at = from.start + moved;
            if self.mem.move_pages(at..at + HUGE_PAGE_WORDS, to + moved) {
                moved += HUGE_PAGE_WORDS;
            } else {
                self.moves_pages = false;
            }
        }
        moved
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

/// Call the method `f` of the evacuation `ev` for this collection's kind:
/// `ALSO`, whether a second space besides the nursery and `from` is
/// collected (the aged closures in a major collection), and `AGE`, whether
/// the nursery's closures are aged (a survivor space to age them into).
/// Each kind's copy loop tests only what that kind has (a minor
/// collection never the `also` space; a major one that ages nothing
/// neither the age window nor the survivor space): the tests left out
/// are those that always fail for it, so every kind copies what it did.
macro_rules! specialised {
    ($ev:tt . $f:ident ( $($arg:expr),* )) => {
        match ($ev.also_len != 0, $ev.aged_start < $ev.aged_end) {
            (false, false) => $ev.$f::<false, false>($($arg),*),
            (false, true) => $ev.$f::<false, true>($($arg),*),
            (true, false) => $ev.$f::<true, false>($($arg),*),
            (true, true) => $ev.$f::<true, true>($($arg),*),
        }
    };
}

/// A collection in progress: what is being collected (`0..young_end`,
/// the nursery's words in use, and the `from` and `also` spaces: the aged
/// closures and, in a major collection, the old space), the old
/// to-space's next free word and end, and the survivor space the
/// nursery's closures are aged into (empty when they are not) with its
/// next free word. All in the heap's one region.
///
/// Its spaces are plain words (a start and a length, not ranges) so that
/// [`Evacuation::scan`] can copy the whole evacuation into locals.
struct Evacuation<'h> {
    mem: &'h mut [u64],
    bits: &'h mut [u64],
    young_end: usize,
    from_start: usize,
    from_len: usize,
    also_start: usize,
    also_len: usize,
    free: usize,
    end: usize,
    aged_free: usize,
    aged_start: usize,
    aged_end: usize,
    /// Nursery closures from this address on are aged; those below it,
    /// allocated earlier in the period, are promoted at once.
    age_from: usize,
    /// Old words found pointing to closures aged by this collection
    /// (held by the collection: the copy loop's locals hold a reference).
    remembered: &'h mut Vec<Addr>,
    /// Copy black holes and entered `\s` closures as closures of no
    /// payload ([`Heap::keep_black_hole_sizes`] clears it).
    shrink_black_holes: bool,
}

impl Evacuation<'_> {
    /// This collection, once its to-spaces are known to lie in the heap's
    /// region, a closure's first 3 words at any nursery address in use
    /// too, and every heap word to have a bit, with a spare bitmap word
    /// past them (what lets the copy loop read and write without bounds
    /// checks: [`Evacuation::fits`]).
    fn within_the_heap(self) -> Self {
        assert!(
            self.end <= self.mem.len()
                && self.aged_end <= self.mem.len()
                && self.free <= self.end
                && self.aged_free <= self.aged_end,
            "a to-space past the heap's end"
        );
        // (An empty heap, which has no room even for this, has no nursery
        // address in use either.)
        assert!(
            self.young_end == 0 || self.young_end + 2 <= self.mem.len(),
            "a nursery closure past the heap's end"
        );
        // (An empty heap, which has no closure to copy, has no bitmap.)
        assert!(
            self.mem.is_empty() || self.mem.len() + 64 <= self.bits.len() * 64,
            "a heap word without a bit, or no spare bitmap word past them"
        );
        self
    }

    /// The invariants `within_the_heap` checked, for the `debug_assert`s
    /// of the unchecked accesses: every word of `mem` has a bit (and a
    /// spare bitmap word follows), both to-spaces lie in `mem`, and so do
    /// the 3 words at any nursery address in use.
    fn fits(&self) -> bool {
        (self.mem.is_empty() || self.mem.len() + 64 <= self.bits.len() * 64)
            && self.free <= self.end
            && self.end <= self.mem.len()
            && self.aged_free <= self.aged_end
            && self.aged_end <= self.mem.len()
            && (self.young_end == 0 || self.young_end + 2 <= self.mem.len())
    }

    /// Is `a`, not in the nursery, in a space being collected (`from`,
    /// or with `ALSO` the `also` space)?
    #[inline(always)]
    fn collected_past_nursery<const ALSO: bool>(&self, a: usize) -> bool {
        debug_assert!(a >= self.young_end);
        a.wrapping_sub(self.from_start) < self.from_len
            || ALSO && a.wrapping_sub(self.also_start) < self.also_len
    }

    /// Evacuate every pointer of a run of roots.
    #[inline(always)]
    fn evacuate_all(&mut self, vs: &mut [Value]) {
        specialised!(self.evacuate_values(vs))
    }

    /// [`Evacuation::evacuate_all`] for one kind of collection.
    #[inline(always)]
    fn evacuate_values<const ALSO: bool, const AGE: bool>(&mut self, vs: &mut [Value]) {
        for v in vs {
            if let Value::Ptr(a) = *v {
                *v = Value::Ptr(self.evacuate::<ALSO, AGE>(a));
            }
        }
    }

    /// Once everything live but the updatees has been copied and
    /// scanned: each updatee the machine hands over (see "Updatees" in
    /// the module doc of [`crate::gc`]) that lies in a space collected
    /// is rewritten to its copy's place if something else reached it, or
    /// to a dead updatee if nothing did. Outside the spaces collected
    /// (an old one in a minor collection), it is left as it is. What is
    /// not a black hole (only ever a corrupt heap's) is evacuated as a
    /// root, and what that copies scanned.
    fn settle_updatees(&mut self, roots: &mut dyn Roots) {
        let (old_scan, aged_scan) = (self.free, self.aged_free);
        roots.visit_updatees(&mut |vs| specialised!(self.settle_values(vs)));
        if (self.free, self.aged_free) != (old_scan, aged_scan) {
            self.scan(old_scan, aged_scan);
        }
    }

    /// [`Evacuation::settle_updatees`] of a run of updatees.
    #[inline(always)]
    fn settle_values<const ALSO: bool, const AGE: bool>(&mut self, vs: &mut [Value]) {
        const FORWARD: u64 = Tag::Forward as u64;
        const BLACK_HOLE: u64 = Tag::BlackHole as u64;
        for v in vs {
            let Value::Ptr(a) = *v else { continue };
            let i = a as usize;
            if !(i < self.young_end || self.collected_past_nursery::<ALSO>(i))
                || i + 2 >= self.mem.len()
            {
                continue;
            }
            // SAFETY: `i + 2 < mem.len()`, just checked.
            let w = unsafe { *self.mem.get_unchecked(i) };
            *v = Value::Ptr(match w & 0xff {
                // SAFETY: as above.
                FORWARD => unsafe { *self.mem.get_unchecked(i + 2) },
                BLACK_HOLE => super::dead_updatee((w >> 32) as u32),
                _ => self.evacuate::<ALSO, AGE>(a),
            });
        }
    }

    /// Run `f` on a copy of this evacuation in locals, its free words
    /// written back at the end: the heap's words are written through a
    /// pointer the compiler cannot tell apart from one to `self`, so the
    /// fields of `self` would be loaded again after each write; a local's
    /// are not (unless its address is taken: nothing the copy loop calls
    /// takes it, and `remembered` is a reference).
    #[inline(always)]
    fn in_locals<R>(&mut self, f: impl FnOnce(&mut Evacuation<'_>) -> R) -> R {
        let mut ev = Evacuation {
            mem: &mut *self.mem,
            bits: &mut *self.bits,
            remembered: &mut *self.remembered,
            ..*self
        };
        let r = f(&mut ev);
        let (free, aged_free) = (ev.free, ev.aged_free);
        self.free = free;
        self.aged_free = aged_free;
        r
    }

    /// Evacuate the closure a pointer to `a` leads to (past indirections
    /// in the spaces collected): copy it to to-space unless it was
    /// already, and return its new address. A closure outside the spaces
    /// collected (an old one in a minor collection) stays where it is.
    #[inline(always)]
    fn evacuate<const ALSO: bool, const AGE: bool>(&mut self, a: Addr) -> Addr {
        const IND: u64 = Tag::Ind as u64;
        debug_assert!(self.fits());
        let mut a = a as usize;
        // Short-circuit indirections (bounded walk), but not from one
        // outside the nursery into it when aging: a root left pointing to
        // an aged closure must be handed to the next minor collection,
        // and a root not written since the last collection, which the
        // engine does not look at again, points to an aged or old
        // indirection (to be promoted), not to a nursery closure (to be
        // aged) (`Roots::visit_young_roots`). That indirection is kept.
        //
        // The nursery, where most pointers lead, is one compare, and its
        // closures have their own copy ([`Evacuation::copy`] with
        // `NURSERY`), which knows where they are: so that the compiler
        // keeps the compare a branch, not one `setcc` of several.
        let mut hops = 0u32;
        loop {
            if a < self.young_end {
                // SAFETY: `a + 2 < young_end + 2 <= mem.len() <= bits.len()
                // * 64` (`within_the_heap`: the nursery in use is not empty,
                // as `a < young_end`).
                let w = unsafe { *self.mem.get_unchecked(a) };
                if w & 0xff != IND {
                    return self.copy::<AGE, true>(a, w);
                }
                // An indirection's payload is a pointer
                // (`Heap::update_with_ind`, `Heap::update_blackhole`); were
                // it not, the next hop's tests would still keep the walk
                // within the heap.
                // SAFETY: `(a + 2) / 64 < bits.len()`, as above.
                debug_assert!(unsafe { bit(self.bits, a + 2) });
                // SAFETY: as above.
                a = unsafe { *self.mem.get_unchecked(a + 2) } as usize;
            } else {
                if !self.collected_past_nursery::<ALSO>(a) || a + 2 >= self.mem.len() {
                    return a as Addr;
                }
                // SAFETY: `a + 2 < mem.len() <= bits.len() * 64` (just
                // checked; `within_the_heap`).
                let w = unsafe { *self.mem.get_unchecked(a) };
                if w & 0xff != IND {
                    return self.copy::<AGE, false>(a, w);
                }
                // SAFETY: as above; the payload is a pointer, as above.
                debug_assert!(unsafe { bit(self.bits, a + 2) });
                // SAFETY: as above.
                let t = unsafe { *self.mem.get_unchecked(a + 2) } as usize;
                if AGE && t < self.young_end {
                    // The indirection kept.
                    return self.copy::<AGE, false>(a, w);
                }
                a = t;
            }
            hops += 1;
            if hops == 1_000_000 {
                // Cannot happen: no cycle of indirections.
                return a as Addr;
            }
        }
    }

    /// [`Evacuation::evacuate`] of the closure at `a` in a space collected
    /// (the nursery if `NURSERY`), not an indirection followed, whose info
    /// word is `w`: copy it unless it was already, and return its new
    /// address.
    ///
    /// `a + 2 < mem.len()` (`evacuate` checked it).
    #[inline(always)]
    fn copy<const AGE: bool, const NURSERY: bool>(&mut self, a: usize, w: u64) -> Addr {
        const IND: u64 = Tag::Ind as u64;
        const FORWARD: u64 = Tag::Forward as u64;
        // The black hole's tags are the two between these.
        const _: () =
            assert!(Tag::BlackHole as u64 == IND + 1 && Tag::Entered as u64 + 1 == FORWARD);
        debug_assert!(a + 2 < self.mem.len() && NURSERY == (a < self.young_end));
        let tag = w & 0xff;
        let n = ((w >> 8) & 0xff_ffff) as usize;
        // A lambda's closure, a constructor, a partial application or an
        // indirection kept is copied as it is: one compare for them all.
        if tag.wrapping_sub(1) >= IND {
            if tag == FORWARD {
                // SAFETY: `a + 2 < mem.len()` (`evacuate`'s checks).
                return unsafe { *self.mem.get_unchecked(a + 2) };
            }
            if tag > FORWARD || tag == 0 {
                // Cannot happen: not a closure.
                return a as Addr;
            }
            // A black hole or an entered `\s` closure (the tags past
            // `Ind`, short of `Forward`): copied small.
            if n > 1 && self.shrink_black_holes {
                return self.evacuate_black_hole::<AGE, NURSERY>(a, w);
            }
        }
        let size = closure_words(n);
        let Some(new) = self.room::<AGE, NURSERY>(a, size) else {
            return a as Addr;
        };
        // SAFETY: `a + size` and `new + size` are within `mem`, and the
        // two do not overlap (`Evacuation::room`); `mem.len() + 64 <=
        // bits.len() * 64` (`within_the_heap`: `mem` holds the closure).
        unsafe {
            copy_words(self.mem, a, new, size);
            copy_bits(self.bits, a, new, size);
        }
        self.forward(a, w, new)
    }

    /// [`Evacuation::evacuate`] of a black hole or an entered `\s`
    /// closure `w` at `a` with more than one payload word: copied as a
    /// closure of no payload (3 words, room for its later update's
    /// indirection), as its payload is dead (the environment evaluating it
    /// holds its free variables, `Heap::blackhole`) and has no pointer
    /// bits. Not when the heap keeps black holes' sizes (censuses).
    /// Inlined (a call would take the address of the copy loop's
    /// evacuation, held in locals), behind the one compare.
    #[inline(always)]
    fn evacuate_black_hole<const AGE: bool, const NURSERY: bool>(
        &mut self,
        a: usize,
        w: u64,
    ) -> Addr {
        let size = closure_words(0);
        let Some(new) = self.room::<AGE, NURSERY>(a, size) else {
            return a as Addr;
        };
        debug_assert!(
            (a + 2..a + 2 + ((w >> 8) & 0xff_ffff) as usize)
                .all(|i| self.bits[i / 64] >> (i % 64) & 1 == 0),
            "a black hole's payload holds no pointer"
        );
        // SAFETY: as in `evacuate`.
        unsafe {
            copy_words(self.mem, a, new, size);
            // Its info word with no payload words (so that walks step
            // over the 3 words it takes); no pointer bits to copy.
            *self.mem.get_unchecked_mut(new) = w & !(0xff_ffff << 8);
        }
        self.forward(a, w, new)
    }

    /// Where the closure at `a` of `size` words goes: a recent nursery
    /// closure's first survival is aged (if the survivor space has room),
    /// anything else promoted. `None` only for a corrupt heap. The
    /// closure and its new place lie within `mem` (to-spaces are within
    /// it: `Evacuation::within_the_heap`) and do not overlap.
    #[inline(always)]
    fn room<const AGE: bool, const NURSERY: bool>(
        &mut self,
        a: usize,
        size: usize,
    ) -> Option<usize> {
        debug_assert_eq!(NURSERY, a < self.young_end);
        // A nursery closure within the nursery in use (`young_end <=
        // mem.len()`: `within_the_heap`), which the loop holds anyway.
        let within = if NURSERY {
            self.young_end
        } else {
            self.mem.len()
        };
        if a + size > within {
            // Cannot happen: closures lie within the heap, the nursery's
            // below its allocation pointer.
            debug_assert!(false, "a closure past its space's end");
            return None;
        }
        let new;
        if AGE && NURSERY && a >= self.age_from && self.aged_free + size <= self.aged_end {
            new = self.aged_free;
            self.aged_free += size;
        } else {
            new = self.free;
            if new + size > self.end {
                // Cannot happen: the nursery's limit keeps room in the old
                // generation for all that is young, and an old space for
                // all that is live.
                debug_assert!(false, "to-space overflow");
                return None;
            }
            self.free += size;
        }
        debug_assert!(
            a + size <= new || new + size <= a,
            "from- and to-space overlap"
        );
        Some(new)
    }

    /// Leave a forwarding word at `a` (whose info word was `w`) to its
    /// copy at `new`: its size (n) kept, its index cleared. Returns `new`.
    #[inline(always)]
    fn forward(&mut self, a: usize, w: u64, new: usize) -> Addr {
        const FORWARD: u64 = Tag::Forward as u64;
        debug_assert!(a + 2 < self.mem.len());
        // SAFETY: the closure at `a` has at least 3 words, all within
        // `mem` (`Evacuation::room` checked it).
        unsafe {
            *self.mem.get_unchecked_mut(a) = (w & 0xff_ff_ff_00) | FORWARD;
            *self.mem.get_unchecked_mut(a + 2) = new as u64;
        }
        new as Addr
    }

    /// Cheney scan of both to-spaces, the old one from `old_scan` and the
    /// survivor space from `aged_scan`, until neither has closures left
    /// unscanned (each scan may copy into either), in locals
    /// ([`Evacuation::in_locals`]).
    fn scan(&mut self, old_scan: usize, aged_scan: usize) {
        self.in_locals(|ev| specialised!(ev.scan_spaces(old_scan, aged_scan)));
    }

    /// [`Evacuation::scan`]'s loop.
    #[inline(always)]
    fn scan_spaces<const ALSO: bool, const AGE: bool>(
        &mut self,
        mut old_scan: usize,
        mut aged_scan: usize,
    ) {
        loop {
            if AGE && aged_scan < self.aged_free {
                aged_scan = self.scan_space::<ALSO, AGE>(aged_scan, false);
            } else if old_scan < self.free {
                old_scan = self.scan_space::<ALSO, AGE>(old_scan, true);
            } else {
                return;
            }
        }
    }

    /// Cheney scan of the old to-space (`old`) or the survivor space from
    /// `scan` to its free word, which it moves, pointer word by pointer
    /// word: the bitmap says where they are. Each step reads the bitmap
    /// word `scan` is in again, from `scan` on (the copy of the last
    /// closure may have set bits in it, past the free word it moved), and
    /// goes to its first pointer short of the free word, or to the next
    /// bitmap word (at most the free word), so that a list copied one
    /// cell at a time, the free word a few words past the scan, costs no
    /// more than a closure of many pointers. Returns where it stopped (at
    /// most the free word). An old word left pointing to an aged closure
    /// is remembered.
    #[inline(always)]
    fn scan_space<const ALSO: bool, const AGE: bool>(
        &mut self,
        mut scan: usize,
        old: bool,
    ) -> usize {
        debug_assert!(self.fits());
        loop {
            let free = if old { self.free } else { self.aged_free };
            if scan >= free {
                return scan;
            }
            // SAFETY: `scan < free <= mem.len() <= bits.len() * 64`
            // (`within_the_heap`; the free words only grow by `room`,
            // which keeps them within their spaces' ends).
            let word = unsafe { *self.bits.get_unchecked(scan / 64) } >> (scan % 64);
            if word == 0 {
                scan = ((scan | 63) + 1).min(free);
                continue;
            }
            let i = scan + word.trailing_zeros() as usize;
            if i >= free {
                return free;
            }
            // SAFETY: `i < free <= mem.len()`, as above.
            unsafe { self.evacuate_word::<ALSO, AGE>(i, old) };
            scan = i + 1;
        }
    }

    /// Evacuate the pointers of the (old, remembered) closure at `a`.
    fn scan_closure(&mut self, a: usize) {
        let Some(&w) = self.mem.get(a) else { return };
        let size = closure_words(((w >> 8) & 0xff_ffff) as usize);
        for i in a + 2..(a + size).min(self.mem.len()) {
            self.scan_word(i);
        }
    }

    /// Evacuate what the old word `i` points to, if it is a pointer (a
    /// remembered word may since have been overwritten by an `Int#`, and
    /// its bit cleared), and remember the word if that closure is now
    /// aged.
    #[inline(always)]
    fn scan_word(&mut self, i: usize) {
        if i >= self.mem.len() || self.bits[i / 64] >> (i % 64) & 1 == 0 {
            return;
        }
        // SAFETY: `i < mem.len()`, just checked.
        unsafe { specialised!(self.evacuate_word(i, true)) };
    }

    /// Evacuate what the pointer word `i` points to and point it at the
    /// copy; if the word is `old` and the copy aged, remember the word
    /// for the next minor collection.
    ///
    /// # Safety
    ///
    /// `i < mem.len()`.
    #[inline(always)]
    unsafe fn evacuate_word<const ALSO: bool, const AGE: bool>(&mut self, i: usize, old: bool) {
        debug_assert!(i < self.mem.len());
        // SAFETY: `i < mem.len()` (the caller's contract).
        let new = self.evacuate::<ALSO, AGE>(unsafe { *self.mem.get_unchecked(i) });
        // SAFETY: as above; `evacuate` does not shrink `mem`.
        unsafe { *self.mem.get_unchecked_mut(i) = new };
        // Aged if below the survivor space's end: nothing an evacuation
        // returns lies below its start (the nursery's and the other
        // survivor space's closures are collected, so copied out).
        if AGE && old && (new as usize) < self.aged_end {
            debug_assert!(new as usize >= self.aged_start);
            self.remembered.push(i as Addr);
        }
    }
}

/// Is the pointer bit of word `i` set?
///
/// # Safety
///
/// `i / 64 < bits.len()`.
#[inline(always)]
unsafe fn bit(bits: &[u64], i: usize) -> bool {
    debug_assert!(i / 64 < bits.len());
    // SAFETY: the caller's contract.
    unsafe { *bits.get_unchecked(i / 64) >> (i % 64) & 1 == 1 }
}

/// Copy a closure's `n` words from `from` to `to` without bounds checks
/// (the collector has checked the closure and its room once), the small
/// closures that are nearly all of them in fixed-size moves: the first
/// three words, then for four to six words the last three (overlapping
/// the first in the destination, which writes those words twice with the
/// same values), so that the compiler does not make the common sizes one
/// call of `memcpy` with a variable length (about 30 instructions a
/// closure).
///
/// # Safety
///
/// `n >= 3`, `from + n <= mem.len()`, `to + n <= mem.len()`, and the two
/// ranges do not overlap.
#[inline(always)]
unsafe fn copy_words(mem: &mut [u64], from: usize, to: usize, n: usize) {
    debug_assert!(n >= 3 && from + n <= mem.len() && to + n <= mem.len());
    debug_assert!(from + n <= to || to + n <= from);
    let base = mem.as_mut_ptr();
    // SAFETY: both ranges lie in `mem` and do not overlap (the caller's
    // contract), so neither do their parts; `n - 3 >= 0`.
    unsafe {
        let (src, dst) = (base.add(from), base.add(to));
        dst.cast::<[u64; 3]>()
            .write_unaligned(src.cast::<[u64; 3]>().read_unaligned());
        if n > 3 {
            if n <= 6 {
                let (s, d) = (src.add(n - 3), dst.add(n - 3));
                d.cast::<[u64; 3]>()
                    .write_unaligned(s.cast::<[u64; 3]>().read_unaligned());
            } else {
                copy_large(src.add(3), dst.add(3), n - 3);
            }
        }
    }
}

/// The rest of a closure of more than 6 words, out of the copy loop.
///
/// # Safety
///
/// As [`std::ptr::copy_nonoverlapping`].
#[cold]
#[inline(never)]
unsafe fn copy_large(src: *const u64, dst: *mut u64, n: usize) {
    // SAFETY: the caller's contract.
    unsafe { std::ptr::copy_nonoverlapping(src, dst, n) }
}

/// Set the bits at `to + i` for every bit set at `from + i`, `i < n` (the
/// bits at `to` are clear). A closure of at most [`BYTE_WINDOW`] words
/// (nearly all of them) in one window of the bitmap read 8 bytes at a
/// time from the byte `from` is in, placed in one such window at `to`'s
/// byte: no word boundary to straddle, and nothing to place if empty.
/// Larger ones a bitmap word's window at a time, placed in the (at most
/// two) destination words it straddles.
///
/// # Safety
///
/// `n >= 1`, and both `from + n` and `to + n` are at most
/// `bits.len() * 64 - 64` (the bitmap has a spare word past them: the 8
/// bytes from a bit's byte lie within the bitmap).
#[inline(always)]
unsafe fn copy_bits(bits: &mut [u64], from: usize, to: usize, n: usize) {
    debug_assert!(n >= 1 && from.max(to) + n + 64 <= bits.len() * 64);
    if n <= BYTE_WINDOW {
        let base = bits.as_mut_ptr().cast::<u8>();
        // SAFETY: the 8 bytes from `from / 8` hold the bits `from / 8 * 8
        // .. from / 8 * 8 + 64`, below `from + 64 <= bits.len() * 64` (the
        // caller's contract), so they lie within the bitmap; likewise the
        // 8 bytes from `to / 8`. Bitmap words are little-endian bytes
        // (`from_le`, `to_le`), bit `i` in byte `i / 8` at `i % 8`; the
        // window from `from % 8 < 8` holds the `n <= 57` bits wanted.
        unsafe {
            let src = base.add(from / 8).cast::<u64>();
            let b = (u64::from_le(src.read_unaligned()) >> (from % 8)) & (!0 >> (64 - n));
            if b != 0 {
                let dst = base.add(to / 8).cast::<u64>();
                let d = u64::from_le(dst.read_unaligned()) | b << (to % 8);
                dst.write_unaligned(d.to_le());
            }
        }
        return;
    }
    // SAFETY: the caller's contract.
    unsafe { copy_bits_by_words(bits, from, to, n) }
}

/// [`copy_bits`] of a large closure, a bitmap word's window at a time,
/// out of the copy loop (so that the loop holds nothing for it).
///
/// # Safety
///
/// As [`copy_bits`].
#[cold]
#[inline(never)]
unsafe fn copy_bits_by_words(bits: &mut [u64], from: usize, to: usize, n: usize) {
    let (mut i, end) = (from, from + n);
    while i < end {
        let shift = i % 64;
        let take = (64 - shift).min(end - i);
        let window = if take == 64 { !0 } else { (1u64 << take) - 1 };
        // SAFETY: `i < from + n <= bits.len() * 64` (the caller's
        // contract); the window's destination, `to + (i - from) + take <=
        // to + n`, as in `place_bits`.
        unsafe {
            let b = (*bits.get_unchecked(i / 64) >> shift) & window;
            if b != 0 {
                place_bits(bits, b, to + (i - from), take);
            }
        }
        i += take;
    }
}

/// The most bits [`copy_bits`] copies in one 8-byte window: 64 less the
/// 7 a bit's place in its byte may take.
const BYTE_WINDOW: usize = 57;

/// Set the bits of `b` (its low `take` bits) at `j..j + take`, in the
/// (at most two) bitmap words that range straddles.
///
/// # Safety
///
/// `1 <= take <= 64` and `j + take <= bits.len() * 64`.
#[inline(always)]
unsafe fn place_bits(bits: &mut [u64], b: u64, j: usize, take: usize) {
    debug_assert!((1..=64).contains(&take) && j + take <= bits.len() * 64);
    let (w, s) = (j / 64, j % 64);
    // SAFETY: `j < j + take <= bits.len() * 64`, so `w < bits.len()`; a
    // second word only when `s + take > 64`, then `(w + 1) * 64 < j +
    // take`, so `w + 1 < bits.len()`.
    unsafe {
        *bits.get_unchecked_mut(w) |= b << s;
        if s + take > 64 {
            *bits.get_unchecked_mut(w + 1) |= b >> (64 - s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{copy_bits, copy_words};

    /// The window-at-a-time copy sets the same bits as one bit at a time,
    /// for every alignment of source and destination within a bitmap word
    /// and sizes that straddle one or two word boundaries.
    #[test]
    fn copy_bits_agrees_with_bit_by_bit() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for from in (0..130).step_by(7) {
            for to in 200..266 {
                for n in [1, 3, 5, 8, 56, 57, 58, 63, 64, 65, 130] {
                    let mut bits = vec![0u64; 8];
                    for w in &mut bits[..4] {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        *w = seed;
                    }
                    let mut want = bits.clone();
                    for i in 0..n {
                        if want[(from + i) / 64] >> ((from + i) % 64) & 1 == 1 {
                            want[(to + i) / 64] |= 1 << ((to + i) % 64);
                        }
                    }
                    // SAFETY: `from + n <= 260` and `to + n <= 396`, a
                    // spare word (64 bits) short of the 8 words' 512 bits.
                    unsafe { copy_bits(&mut bits, from, to, n) };
                    assert_eq!(bits, want, "from {from} to {to} n {n}");
                }
            }
        }
    }

    /// Each size is copied exactly, whichever way round the two lie, and
    /// nothing around the destination is touched.
    #[test]
    fn copy_words_copies_exactly_n_words() {
        for n in 3..12 {
            for (from, to) in [(2, 30), (30, 2)] {
                let mut mem: Vec<u64> = (0..48).collect();
                let mut want = mem.clone();
                want.copy_within(from..from + n, to);
                // SAFETY: both ranges lie in the 48 words and are apart.
                unsafe { copy_words(&mut mem, from, to, n) };
                assert_eq!(mem, want, "n {n} from {from} to {to}");
            }
        }
    }
}
