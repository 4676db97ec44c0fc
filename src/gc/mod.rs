//! The heap: closure layout, the generational copying collector, and the
//! heap's statistics.
//!
//! Engine-independent: both engines keep their closures here, allocate by
//! bumping a pointer, and hand the collector their roots through [`Roots`].
//! Nothing a program can observe depends on the collector: output, errors,
//! profiles and heap censuses are what they were with one semi-space pair.
//!
//! # Layout
//!
//! A closure is `2 + max(1, n)` consecutive words: the **info word**, the
//! **cost-centre word** (a flat cost-centre id or a stack id, never a
//! pointer), then `n` payload words (at least one word is reserved so that any
//! closure can be overwritten in place by an indirection or a black hole).
//!
//! The info word packs `tag | n << 8 | index << 32`, see [`Info`]. The index
//! is a lambda id (lambda closures, black holes, entered `\s` closures) or a
//! constructor id (constructor values); for a partial application `n` counts
//! the function and its arguments.
//!
//! A black hole or an entered `\s` closure keeps the size it was allocated
//! with until a collection copies it: its payload is dead, so the copy is
//! of its two header words and one payload word (`n = 0`: room for the
//! indirection of its update), unless the heap keeps black holes' sizes for
//! heap censuses ([`Heap::keep_black_hole_sizes`]).
//!
//! # Exact pointers
//!
//! The language is untyped: a payload word may hold an `Int#` or a pointer.
//! Every word has a bit in a side **pointer bitmap**; the bit is set exactly
//! when the word holds a heap address. Info and cost-centre words never have
//! it set, so the collector can scan copied closures word by word without
//! knowing their sizes, and an `Int#` is never mistaken for a pointer.
//!
//! # Spaces
//!
//! An address is a word index into one region of memory reserved at start
//! for the whole `--max-heap` ([`region::Region`]; a page takes memory only
//! once written): the **young generation**, words `0..Y`, then two **old
//! spaces** of `S` words each, one of them the old generation, the other
//! empty. The young generation is the **nursery**, words `0..N`, where
//! closures are allocated, then two **survivor spaces** of `V` words each,
//! one holding the closures that have survived one minor collection (the
//! *aged* ones), the other empty. `N` is [`NURSERY_WORDS`] (less for a
//! small `--max-heap`), `V` is `N / SURVIVOR_FRACTION`, and `S` the rest
//! of the limit halved, after the pointer bitmap's share, so that every
//! space the heap ever holds at once fits in the limit.
//!
//! # Allocation
//!
//! A bump of the allocation pointer `hp` against its limit `lim`
//! ([`Heap::alloc_small`], [`Heap::free_words`]); when the next allocation
//! does not fit, the engine calls [`Heap::reserve`] (a compare, then the
//! out-of-line collector). The nursery's limit is `N`, or less when the old
//! generation has fewer words free than `N` plus the aged closures, so
//! that a minor collection always has room for everything it promotes. A
//! request larger than the nursery is placed directly in the old
//! generation (after a collection).
//!
//! # Collection
//!
//! Every collection but one kind is a Cheney copy, iterative (no
//! recursion), that short-circuits indirections: a reference to an
//! indirection being collected is replaced by a reference to its target,
//! so no indirection survives its collection. The other kind, a major
//! collection of a large old generation, marks and slides it in place
//! (`compact.rs`), short-circuiting indirections alike.
//!
//! - A **minor collection** collects the young generation: it copies the
//!   nursery's live closures allocated in its last sixteenth
//!   ([`AGE_WINDOW_FRACTION`]) into the empty survivor space (they are
//!   aged now; those that do not fit there go on to the old generation),
//!   the nursery's other live closures (which have lived through most of
//!   a period already) and the aged closures still live to the end of
//!   the old generation (promotion), so a closure allocated just before a
//!   collection is promoted at its second survival. The
//!   nursery is then empty and reused, never given back. Its roots are
//!   the engines' young roots ([`Roots::visit_young_roots`]: at least
//!   every root written since the last collection, and those the last
//!   one left pointing to a closure it aged) and the **remembered
//!   set**: the old closures written since the last collection to point
//!   into the young generation, and the old words that the last minor
//!   collection left pointing to aged closures (promoted closures that
//!   point to others aged with them, old closures remembered then). The
//!   only writes into an old closure are updates (rules 16 and 17a:
//!   [`Heap::update_with_ind`], [`Heap::update_blackhole`],
//!   [`Heap::update_blackhole_with_con`]) and filling a
//!   `letrec` closure's free variables ([`Heap::set_payload`]); each
//!   checks, in one compare, whether it makes an old closure point into
//!   the young generation (the write barrier).
//! - A **major collection** copies everything live, young and old, into
//!   the empty old space, which becomes the old generation (the nursery's
//!   survivors are aged as in a minor collection, so that the closures
//!   the program is working on are not promoted). The emptied old
//!   space's filled huge pages are then moved (not copied) to where the
//!   new old generation grows next, so that promotions and the next
//!   major collection write into pages the system need not fault in and
//!   zero again; the rest of it is given back to the system
//!   (`collect::recycle_pages`; given back whole where pages cannot be
//!   moved). It happens when the
//!   old generation passes [`MAJOR_FACTOR`] times the live data of the last
//!   major collection (at least [`MIN_MAJOR_WORDS`]), when a request does
//!   not fit otherwise, before each heap census (so a census sees exactly
//!   the live closures), and when the engines ask for one at the end of a
//!   run (`--stats`: so the maximum residency is exact at every major
//!   collection and at the end). Those last two promote everything,
//!   aging nothing ([`Heap::collect`]); so does a major collection that
//!   would otherwise leave too little room for a request and the next
//!   promotion. The maximum residency counts the aged closures.
//! - A **compacting major collection** is what a major collection that
//!   comes because the old generation passed its growth factor is, once
//!   the old generation holds [`compact::COMPACT_FROM_WORDS`] or more: a
//!   minor collection, then the old generation's live closures (marked
//!   from all the roots, through the aged closures) slid down to its
//!   start, the aged closures left where they are with their pointers
//!   updated. It holds no second old space, so a heap that is mostly
//!   live takes its size in memory at the collection, not twice it. It
//!   is timed and counted as one major collection; its bytes copied are
//!   the live data it keeps (moved or not), as a copying collection's
//!   are. `--gc-stress` makes every other major collection compacting,
//!   whatever the old generation's size.
//!
//! # Updatees
//!
//! The closure an update frame will update (its *updatee*) is a black
//! hole: a thunk under evaluation. When nothing but its update frames
//! reaches it, nothing can enter or read it again, and its update writes
//! a value no one will read. So a collection hands the updatees over
//! apart from the other roots ([`Roots::visit_roots_but_updatees`], then
//! [`Roots::visit_updatees`] once everything else live has been copied):
//! an updatee that was copied meanwhile (something else reaches it) is
//! kept, at its new place; one that was not is dead, and its frame gets
//! a **dead updatee** ([`dead_updatee`]), an address past the heap that
//! keeps the black hole's lambda ([`Heap::updatee_info`]: an error
//! raised under the frame still names the thunk). An update of a dead
//! updatee writes nothing but counts its words as allocated, as an update
//! in place does ([`Heap::update_blackhole_with_con`]); the indirection
//! and partial-application updates do nothing for it (they look up the
//! closure first). The deep stack of a non-tail-recursive function
//! (`foldr`'s) is then no longer copied and promoted one black hole a
//! level at each collection (docs/PERFORMANCE.md, "Dead updatees").
//! Heaps that take censuses, keep biographies or collect for an observer
//! keep every updatee ([`Heap::keep_updatees`]): a census counts a thunk
//! under evaluation as live, as GHC's does. So do heaps of 2^35 words or
//! more, whose own addresses may have a dead updatee's form (only an
//! address outside the heap is one: [`Heap::is_dead_updatee`]). A
//! compacting major collection marks from every root at once, and so
//! keeps the updatees it finds (the next copying collection drops those
//! that are dead).
//!
//! When even a major collection leaves no room for a request, allocation
//! fails with [`HeapExhausted`]. `--gc-stress` makes every reservation
//! collect: a minor collection, and a major one every
//! [`STRESS_MAJOR_EVERY`]th time.
//!
//! A heap that keeps biographies (`--heap-profile=biography`) or whose
//! collections an observer follows (the JSON trace) collects majors only
//! ([`Heap::collect_majors_only`]), which age nothing: each collection
//! then sees every closure that died, as those need.

use std::ops::Range;

pub mod biography;
mod collect;
pub mod compact;
pub mod memory_limit;
pub mod region;
pub mod retainer;
mod stats;
#[cfg(test)]
mod tests;

use std::time::Duration;

pub use stats::{GenStats, HeapStats};

use biography::Biographies;
use region::{HUGE_PAGE_WORDS, Region};

/// A heap word.
pub type Word = u64;
/// A word index into the heap's region (nursery, then the old spaces).
pub type Addr = u64;

/// A value as held by the machine outside the heap (stacks, environments):
/// either an unboxed `Int#` or a pointer to a closure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Int(i64),
    Ptr(Addr),
}

/// Closure kinds, the low byte of the info word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Tag {
    /// A lambda form's closure (`\u`, `\s` or `\r`); index = lambda id, n = free vars.
    Lambda = 1,
    /// A constructor value built by rules 7 and 16; index = constructor id, n = fields.
    Con = 2,
    /// A partial application built by rule 17a; payload = function, arguments.
    Pap = 3,
    /// An updated closure: payload word 0 points at its value.
    Ind = 4,
    /// A `\u` thunk under evaluation (rule 15); index = its lambda id.
    BlackHole = 5,
    /// A `\s` closure that has been entered (rule 15′); index = its lambda id.
    Entered = 6,
    /// Collector only: payload word 0 (of the from-space copy) is the new address.
    Forward = 7,
}

impl Tag {
    /// The first and last tag bytes: every byte between them is a tag.
    const FIRST: u8 = Tag::Lambda as u8;
    const LAST: u8 = Tag::Forward as u8;

    /// A range check only: the byte is the tag (a `match` on it would be
    /// a jump through a table, a table of the tags a dependent load that
    /// each `match` on the tag then compares again).
    #[inline(always)]
    fn from_u8(b: u8) -> Option<Tag> {
        if b.wrapping_sub(Tag::FIRST) <= Tag::LAST - Tag::FIRST {
            // SAFETY: `Tag` is `repr(u8)` with the discriminants
            // `FIRST..=LAST`, every one of them (the test
            // `every_tag_byte_decodes_to_its_tag` checks it), and `b` is
            // in that range.
            Some(unsafe { std::mem::transmute::<u8, Tag>(b) })
        } else {
            None
        }
    }
}

/// A decoded info word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Info {
    pub tag: Tag,
    /// Payload words in use.
    pub n: u32,
    pub index: u32,
}

impl Info {
    /// The largest `n` the info word holds (24 bits).
    pub const MAX_N: u32 = 0xff_ffff;

    #[inline]
    pub fn encode(self) -> Word {
        (self.tag as u64)
            | ((self.n as u64 & Self::MAX_N as u64) << 8)
            | ((self.index as u64) << 32)
    }
    #[inline]
    pub fn decode(w: Word) -> Option<Info> {
        Some(Info {
            tag: Tag::from_u8((w & 0xff) as u8)?,
            n: ((w >> 8) & Self::MAX_N as u64) as u32,
            index: (w >> 32) as u32,
        })
    }
    /// Words the closure occupies: `2 + max(1, n)`.
    pub fn size(self) -> usize {
        closure_words(self.n as usize)
    }
}

/// Words occupied by a closure with `n` payload words.
#[inline]
pub fn closure_words(n: usize) -> usize {
    2 + n.max(1)
}

/// The nursery's size in words (4 MiB, the two cores' L2 caches): a minor
/// collection comes after each 4 MiB allocated (chosen by measurement:
/// docs/PERFORMANCE.md).
pub const NURSERY_WORDS: usize = 1 << 19;
/// Each survivor space holds `1 / SURVIVOR_FRACTION` of the nursery: the
/// survivors of one minor collection beyond that are promoted at once
/// (chosen by measurement: docs/PERFORMANCE.md).
pub const SURVIVOR_FRACTION: usize = 4;
/// A minor collection ages only the survivors among the closures allocated
/// in the nursery's last `1 / AGE_WINDOW_FRACTION` (those allocated just
/// before it: a lazy list's frontier); the survivors allocated earlier have
/// lived through most of a period already and are promoted at once
/// (chosen by measurement: docs/PERFORMANCE.md).
pub const AGE_WINDOW_FRACTION: usize = 16;
/// A major collection comes when the old generation passes this many times
/// the live data of the last one (chosen by measurement:
/// docs/PERFORMANCE.md).
pub const MAJOR_FACTOR: usize = 3;
/// ... but not before the old generation holds this many words (4 MiB).
pub const MIN_MAJOR_WORDS: usize = 1 << 19;
/// `--gc-stress`: every reservation collects, every this many a major
/// collection.
pub const STRESS_MAJOR_EVERY: u64 = 8;
/// The smallest nursery and old space, whatever `--max-heap` says, so that
/// the machine can start (the limit's error then comes from the program).
const MIN_SPACE_WORDS: usize = 64;

/// The bit that marks a dead updatee (see "Updatees" above): its address
/// is this bit and the black hole's lambda id, past every address of a
/// heap of fewer words (a heap of this many words or more keeps its
/// updatees). Below 2^36, so that the fast engine's merged entries hold
/// it as they hold any address.
pub const DEAD_UPDATEE: Addr = 1 << 35;

/// The dead updatee of a black hole of the lambda `index`.
#[inline]
pub fn dead_updatee(index: u32) -> Addr {
    DEAD_UPDATEE | index as Addr
}

/// The machine's roots, visited by the collector, which rewrites each
/// pointer to the closure's new address. The machine hands them over a
/// run of values at a time (a stack, an environment; one value is a run of
/// one), so that the collector loops over each run without a call per
/// value.
pub trait Roots {
    fn visit_roots(&mut self, f: &mut dyn FnMut(&mut [Value]));

    /// The roots a minor collection needs: at least every value written
    /// since the last visit (of either kind), and every one the last visit
    /// left pointing into the young generation (below
    /// [`Heap::young_end`]): a closure the last collection aged, which
    /// this one moves again. Every other points to the old generation
    /// (the collector makes sure of it: it does not short-circuit an
    /// indirection it promotes into a closure it ages). By default all of
    /// them.
    fn visit_young_roots(&mut self, f: &mut dyn FnMut(&mut [Value])) {
        self.visit_roots(f)
    }

    /// Every root, for a collection that moves only old closures, within
    /// the old generation (a compacting major collection, right after a
    /// minor one, visits them twice: to mark, then to move): it leaves
    /// every root pointing where it pointed, young or old, so what the
    /// engine noted about which roots point into the young generation at
    /// the last visit stays true. By default all of them
    /// ([`Roots::visit_roots`]).
    fn visit_roots_in_place(&mut self, f: &mut dyn FnMut(&mut [Value])) {
        self.visit_roots(f)
    }

    /// The roots but the updatees (the closures of the update frames: see
    /// "Updatees" in the module doc), for a collection that hands those
    /// over next, in [`Roots::visit_updatees`]: with `young`, those
    /// [`Roots::visit_young_roots`] would hand over, otherwise those of
    /// [`Roots::visit_roots`]. `false`, having visited nothing, for a
    /// machine that cannot hand them over apart (the default): the
    /// collector then visits all its roots at once.
    fn visit_roots_but_updatees(&mut self, young: bool, f: &mut dyn FnMut(&mut [Value])) -> bool {
        let _ = (young, f);
        false
    }

    /// The updatees the last [`Roots::visit_roots_but_updatees`] left
    /// out, in the same collection: the collector rewrites each to its
    /// closure's new place or to a dead updatee.
    fn visit_updatees(&mut self, f: &mut dyn FnMut(&mut [Value])) {
        let _ = f;
    }
}

/// Words taken at the allocation pointer by [`Heap::take_block`], which
/// the caller fills with closures; it holds the heap borrowed meanwhile.
/// Its writes go through the pointers it was made with, which the writes
/// cannot change (the heap's own fields are not reloaded after each).
pub struct FreshBlock<'h> {
    /// The block's first word in `mem`.
    words: *mut Word,
    /// The pointer bitmap's first word.
    bits: *mut u64,
    /// The block's first word's address.
    addr: usize,
    #[cfg(debug_assertions)]
    len: usize,
    _heap: std::marker::PhantomData<&'h mut Heap>,
}

impl FreshBlock<'_> {
    /// The address of the block's first word.
    #[inline(always)]
    pub fn addr(&self) -> Addr {
        self.addr as Addr
    }

    /// Write a closure's header at offset `off` (words `off` and `off +
    /// 1`: the info word `info`, already encoded, and the cost centre),
    /// and 0 in its first payload word (what a closure of no free
    /// variables holds there; a closure with fields has it written again
    /// by [`FreshBlock::field`]).
    ///
    /// # Safety
    /// `off + 3 <= ` the block's length (a closure takes at least three
    /// words).
    #[inline(always)]
    pub unsafe fn header(&mut self, off: usize, info: Word, cc: u32) {
        #[cfg(debug_assertions)]
        debug_assert!(off + 3 <= self.len);
        // SAFETY: `off + 2` is within the block (the caller's bound), which
        // is within `mem` (`Heap::take_block`).
        unsafe {
            let w = self.words.add(off);
            w.write(info);
            w.add(1).write(cc as Word);
            w.add(2).write(0);
        }
    }

    /// Write the payload word at offset `off`: `v`'s word, and its pointer
    /// bit when it is a pointer (the bits of fresh words are clear: see
    /// [`Heap::alloc`]).
    ///
    /// # Safety
    /// `off <` the block's length.
    #[inline(always)]
    pub unsafe fn field(&mut self, off: usize, v: Value) {
        #[cfg(debug_assertions)]
        debug_assert!(off < self.len);
        let (w, bit) = match v {
            Value::Int(k) => (k as u64, 0),
            Value::Ptr(p) => (p, 1),
        };
        let j = self.addr + off;
        // SAFETY: `off` is within the block (the caller's bound), which is
        // within `mem`; `j < mem.len() <= bits.len() * 64` (`take_block`,
        // and `in_regions`' assertion), so `j / 64 < bits.len()`.
        unsafe {
            self.words.add(off).write(w);
            *self.bits.add(j / 64) |= bit << (j % 64);
        }
    }
}

/// Allocation failed: live data plus the request exceed `--max-heap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapExhausted {
    pub live_bytes: u64,
    pub requested_bytes: u64,
    pub limit_bytes: u64,
}

pub struct Heap {
    /// The nursery `0..nursery`, the two survivor spaces of `survivor`
    /// words each (up to `young_end`), then the two old spaces of
    /// `old_size` words each.
    mem: Region,
    /// One bit per word of `mem`: set when the word is a pointer.
    bits: Region,
    /// `mem.len() - 2` (0 for an empty heap): an address below it leaves
    /// room for a closure's two header words ([`Heap::in_range`]; kept
    /// here, as `mem` is never replaced, so that the check is one
    /// compare).
    header_end: usize,
    /// The allocation pointer and its limit: the next closure goes at `hp`
    /// if it ends by `lim`. Always `hp <= lim <= mem.len()` (the
    /// allocators write below `lim` without checking `mem`'s bounds). In the nursery (`lim <= nursery`), or, for a
    /// request larger than the nursery, at the end of the old generation.
    hp: usize,
    lim: usize,
    /// The nursery's size, `N`.
    nursery: usize,
    /// Each survivor space's size, `V`.
    survivor: usize,
    /// The young generation's end (`N + 2V`): an address below it is young.
    young_end: usize,
    /// A minor collection ages the nursery's survivors among the closures
    /// allocated in its last `age_window` words ([`AGE_WINDOW_FRACTION`]).
    age_window: usize,
    /// The aged closures (survivors of one minor collection): in use in
    /// one survivor space, from its start.
    aged: Range<usize>,
    /// While `hp` is in the old generation: the words in use in the nursery.
    nursery_top: usize,
    /// The old generation: `old_base..old_top` in use, at most `old_size`.
    old_base: usize,
    old_top: usize,
    old_size: usize,
    /// Old words in use past which the next collection is major.
    major_at: usize,
    /// One past the last word of the old generation's space whose page
    /// may be resident (written, or moved there by the last major
    /// collection): past it, and in the other old space, no page takes
    /// memory.
    old_resident: usize,
    /// The old spaces lie at multiples of [`region::HUGE_PAGE_WORDS`], so
    /// a major collection moves the emptied space's pages to where the
    /// old generation grows next (`Heap::recycle_pages`) rather than
    /// giving them back.
    moves_pages: bool,
    /// Old closures written since the last collection to point into the
    /// young generation.
    remembered: Vec<Addr>,
    /// Old words that the last minor collection left pointing to aged
    /// closures.
    remembered_words: Vec<Addr>,
    /// The first old closure placed directly in the old generation since
    /// the last collection (`usize::MAX`: none): from there to `old_top`,
    /// the next minor collection scans them as it scans promoted ones.
    unscanned_from: usize,
    /// `--gc-stress` collections so far.
    stress_count: u64,
    /// Every collection is major ([`Heap::collect_majors_only`]).
    majors_only: bool,
    /// Black holes keep their size when copied
    /// ([`Heap::keep_black_hole_sizes`]).
    keeps_black_hole_sizes: bool,
    /// Collections keep every updatee ([`Heap::keep_updatees`]; see
    /// "Updatees" in the module doc).
    keeps_updatees: bool,
    /// The limit in force, in bytes, for messages.
    limit_bytes: u64,
    /// Where a default limit came from, for messages (`None`: a flag).
    default_of: Option<String>,
    /// The system would not reserve the address space the limit asked
    /// for, so the limit is less (for messages: a larger `--max-heap`
    /// would not help).
    reserved_less: bool,
    pub stats: HeapStats,
    /// The closures' biographies, kept only for
    /// `--heap-profile=biography` (see [`biography`]).
    biographies: Option<Box<Biographies>>,
}

/// The process's peak resident set (its most memory in RAM at once so
/// far), in bytes, as the system counts it (`getrusage`'s `ru_maxrss`:
/// KiB on Linux, bytes on macOS); `None` if the system does not say.
pub fn peak_resident_bytes() -> Option<u64> {
    // SAFETY: `rusage` is plain data (integers and `timeval`s), for
    // which all zeroes is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid, writable `rusage` that lives for the
    // call; `getrusage` writes only it.
    let r = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    if r != 0 || usage.ru_maxrss <= 0 {
        return None;
    }
    let unit = if cfg!(target_os = "macos") { 1 } else { 1024 };
    Some(usage.ru_maxrss as u64 * unit)
}

/// CPU time (user and system) used so far by the calling thread: the
/// machine runs on one thread, so this is the run's CPU time, which the
/// machine's load does not inflate as it does wall-clock time.
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec that lives for the call;
    // `clock_gettime` writes only it. On failure it stays zero.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if r != 0 {
        return Duration::ZERO;
    }
    Duration::new(
        ts.tv_sec.max(0) as u64,
        ts.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

impl Heap {
    /// A heap of at most `max_bytes` in all (like GHC's `-M`: the nursery,
    /// both old spaces and the pointer bitmap count).
    pub fn new(max_bytes: u64) -> Heap {
        Heap::with_limit(&memory_limit::Limit {
            bytes: max_bytes,
            default_of: None,
        })
    }

    /// [`Heap::new`] with the limit in force (`--max-heap` or its default,
    /// [`memory_limit::heap_limit`]).
    pub fn with_limit(limit: &memory_limit::Limit) -> Heap {
        let mut bytes = limit.bytes;
        let mut default_of = limit.default_of.clone();
        loop {
            let (nursery, survivor, old_size) = Heap::sizes(bytes);
            let total = nursery + 2 * survivor + 2 * old_size;
            // The bitmap has a spare word past the heap's bits: the
            // collector copies a closure's bits 8 bytes at a time from the
            // byte of its first (`collect::copy_bits`).
            if let (Some(mem), Some(bits)) = (Region::new(total), Region::new(total / 64 + 1)) {
                let sizes = (nursery, survivor, old_size);
                let mut heap = Heap::in_regions(mem, bits, sizes, bytes, default_of);
                heap.reserved_less = bytes < limit.bytes;
                return heap;
            }
            // The system would not reserve that much address space (a limit
            // beyond it, or strict overcommit): the largest it will. (If it
            // will reserve none, an empty heap: the first allocation fails
            // with the heap limit's error.)
            bytes /= 2;
            if bytes == 0 {
                let (mem, bits) = (Region::empty(), Region::empty());
                let mut heap = Heap::in_regions(mem, bits, (0, 0, 0), 0, default_of);
                heap.reserved_less = true;
                return heap;
            }
            default_of = Some(match &limit.default_of {
                Some(_) => format!(
                    "the default: the most address space the system would reserve, under \
                     the {} bytes asked for",
                    limit.bytes
                ),
                None => format!(
                    "the most address space the system would reserve, under the {} bytes \
                     --max-heap asked for",
                    limit.bytes
                ),
            });
        }
    }

    /// The nursery's, each survivor space's and each old space's words
    /// for a limit of `bytes`: each word costs 8 bytes and its bit in the
    /// bitmap (65/8 bytes), and all are multiples of 64 so that no bitmap
    /// word is shared by two spaces.
    fn sizes(bytes: u64) -> (usize, usize, usize) {
        let words = (bytes as u128 * 8 / 65).min(usize::MAX as u128 / 4) as usize;
        let nursery = (NURSERY_WORDS.min(words / 4) / 64 * 64).max(MIN_SPACE_WORDS);
        let survivor = (nursery / SURVIVOR_FRACTION / 64 * 64).max(MIN_SPACE_WORDS);
        let young = nursery + 2 * survivor;
        let mut old_size = (words.saturating_sub(young) / 2 / 64 * 64).max(MIN_SPACE_WORDS);
        // A large old space: a multiple of a huge page (losing at most a
        // sixteenth of it), so that pages move between the two whole.
        if old_size >= 16 * HUGE_PAGE_WORDS {
            old_size = old_size / HUGE_PAGE_WORDS * HUGE_PAGE_WORDS;
        }
        (nursery, survivor, old_size)
    }

    fn in_regions(
        mut mem: Region,
        bits: Region,
        (nursery, survivor, old_size): (usize, usize, usize),
        limit_bytes: u64,
        default_of: Option<String>,
    ) -> Heap {
        // The bitmap has a bit for every word of the heap: what lets
        // `Heap::heap_word_bit` skip the bitmap's bounds check.
        assert!(mem.len() <= bits.len() * 64, "a heap word without a bit");
        // Huge pages for the nursery and the old spaces, each filled
        // whole; not for the survivor spaces, of which a minor collection
        // fills only what it ages (up to the age window's survivors), so
        // that small pages there take only what is written.
        mem.advise_huge(0..nursery);
        mem.advise_huge(nursery + 2 * survivor..mem.len());
        let young_end = nursery + 2 * survivor;
        // A dead updatee's address must lie past the heap's.
        let keeps_updatees = mem.len() as u64 >= DEAD_UPDATEE;
        let mut h = Heap {
            header_end: mem.len().saturating_sub(2),
            mem,
            bits,
            hp: 0,
            lim: 0,
            nursery,
            survivor,
            young_end,
            age_window: nursery / AGE_WINDOW_FRACTION,
            aged: nursery..nursery,
            nursery_top: 0,
            old_base: young_end,
            old_top: young_end,
            old_size,
            major_at: MIN_MAJOR_WORDS.min(old_size),
            old_resident: young_end,
            moves_pages: young_end.is_multiple_of(HUGE_PAGE_WORDS)
                && old_size.is_multiple_of(HUGE_PAGE_WORDS),
            remembered: Vec::new(),
            remembered_words: Vec::new(),
            unscanned_from: usize::MAX,
            stress_count: 0,
            majors_only: false,
            keeps_black_hole_sizes: false,
            keeps_updatees,
            limit_bytes,
            default_of,
            reserved_less: false,
            stats: HeapStats::default(),
            biographies: None,
        };
        h.lim = h.nursery_limit();
        h
    }

    /// Keep the closures' biographies from now on (before any closure is
    /// allocated: closures allocated before have none). Every collection
    /// is then major, so that each one settles the deaths of all the
    /// closures that died.
    pub fn keep_biographies(&mut self) {
        self.majors_only = true;
        self.keeps_black_hole_sizes = true;
        self.keeps_updatees = true;
        self.biographies = Some(Box::new(Biographies::new(self.young_end, self.old_base)));
        self.cover_biographies();
    }

    /// Make the biographies' table cover every address the heap may hand
    /// out now (the young generation, the old generation up to its top or
    /// a large request's end), or, when the system would not give the
    /// memory, give the table up (every closure dies now:
    /// [`Biographies::give_up`]).
    fn cover_biographies(&mut self) {
        let end = self.lim.max(self.old_top);
        let Some(b) = &mut self.biographies else {
            return;
        };
        if let Err(bytes) = b.cover(end) {
            let mut b = self.biographies.take().expect("biographies kept");
            self.walk(&mut |a, info, _| b.dies_now(a, info.size() as u64 * 8));
            b.give_up(bytes);
            self.biographies = Some(b);
        }
    }

    /// Copy black holes (and entered `\s` closures) at their full size
    /// from now on, for a run that takes heap censuses: a census counts a
    /// thunk under evaluation at the size it was allocated with
    /// (docs/DECISIONS.md, "A black hole keeps its size"). Otherwise a
    /// collection copies one as a closure of no payload (3 words), as its
    /// payload is dead; nothing else a program can observe changes, but
    /// the bytes copied and the residency count the smaller copies.
    pub fn keep_black_hole_sizes(&mut self) {
        self.keeps_black_hole_sizes = true;
        self.keeps_updatees = true;
    }

    /// Keep every updatee from now on, as a root like any other, for a
    /// run whose censuses count thunks under evaluation, or whose trace
    /// shows update frames' addresses: a collection then never makes one
    /// a dead updatee (see "Updatees" in the module doc). Nothing else a
    /// program can observe changes, but the bytes copied and the
    /// residency count the black holes kept.
    pub fn keep_updatees(&mut self) {
        self.keeps_updatees = true;
    }

    /// Whether the heap keeps the closures' biographies.
    pub fn keeps_biographies(&self) -> bool {
        self.biographies.is_some()
    }

    /// Take the closures' biographies out of the heap (to read the heap
    /// beside them); [`Heap::put_biographies`] puts them back.
    pub fn take_biographies(&mut self) -> Option<Box<Biographies>> {
        self.biographies.take()
    }

    pub fn put_biographies(&mut self, b: Option<Box<Biographies>>) {
        if b.is_some() {
            self.biographies = b;
        }
    }

    /// The closure at `a` is used (entered, or inspected by a `case`):
    /// noted in its biography when biographies are kept.
    #[inline]
    pub fn used(&mut self, a: Addr) {
        if let Some(b) = &mut self.biographies {
            b.used(a);
        }
    }

    /// One past the highest address a closure may have now: a table
    /// indexed by address (the retainer traversal's) needs this many
    /// entries.
    pub fn addr_end(&self) -> usize {
        self.old_end().max(self.nursery_used())
    }

    /// Words free before the next allocation needs [`Heap::reserve`].
    #[inline(always)]
    pub fn free_words(&self) -> usize {
        self.lim - self.hp
    }

    /// The address the next allocation will get.
    #[inline]
    pub fn next_addr(&self) -> Addr {
        self.hp as Addr
    }

    /// Words in use: the nursery's, the aged closures' and the old
    /// generation's (live or not).
    pub fn used_words(&self) -> usize {
        self.nursery_used() + self.aged.len() + self.old_used()
    }

    /// The limit in force (every space together).
    pub fn max_bytes(&self) -> u64 {
        self.limit_bytes
    }

    /// The most live data the heap can hold: one old space.
    pub fn live_capacity_bytes(&self) -> u64 {
        self.old_size as u64 * 8
    }

    /// The young generation's end: after a collection, a root that points
    /// below it points to a closure the collection aged
    /// ([`Roots::visit_young_roots`]).
    pub fn young_end(&self) -> Addr {
        self.young_end as Addr
    }

    /// One past the highest address the heap can ever hand out (the
    /// words of its region, reserved once for the whole `--max-heap`):
    /// every address, before and after any collection, is below it.
    pub fn address_end(&self) -> Addr {
        self.mem.len() as Addr
    }

    /// Where the limit came from when no flag gave it, for messages.
    pub fn limit_default_of(&self) -> Option<&str> {
        self.default_of.as_deref()
    }

    /// Is the limit less than was asked for, as the system would not
    /// reserve that much address space?
    pub fn reserved_less(&self) -> bool {
        self.reserved_less
    }

    /// Is the allocation pointer in the old generation (a large request)?
    #[inline]
    fn in_old(&self) -> bool {
        self.lim > self.nursery
    }

    fn nursery_used(&self) -> usize {
        if self.in_old() {
            self.nursery_top
        } else {
            self.hp
        }
    }

    fn old_end(&self) -> usize {
        if self.in_old() { self.hp } else { self.old_top }
    }

    fn old_used(&self) -> usize {
        self.old_end() - self.old_base
    }

    /// The nursery's limit: `N`, or the old generation's free words less
    /// the aged closures' if fewer (a minor collection must have room for
    /// all it promotes: at most the aged closures and the nursery).
    fn nursery_limit(&self) -> usize {
        let free = self.old_size - (self.old_top - self.old_base);
        let free = free.saturating_sub(self.aged.len());
        self.nursery.min(free).max(self.hp)
    }

    /// Make room for `words` words, collecting if needed, or always
    /// collecting when `stress`. The fast path is a compare; the collector
    /// is out of line.
    #[inline]
    pub fn reserve(
        &mut self,
        words: usize,
        stress: bool,
        roots: &mut dyn Roots,
    ) -> Result<(), HeapExhausted> {
        if !stress && self.hp + words <= self.lim {
            return Ok(());
        }
        self.make_room(words, stress, roots)
    }

    /// Allocate a closure with the given info, cost centre and payload.
    /// Room must have been made with [`Heap::reserve`]; returns `None` (never
    /// panics) if it was not.
    ///
    /// Words at and above `hp` never have their pointer bit set (each
    /// collection leaves the spaces it fills next with a clear bitmap, and
    /// only allocated words get bits), so only the payload's pointers need
    /// bits here.
    #[inline]
    pub fn alloc(&mut self, info: Info, cc: u32, payload: &[Value]) -> Option<Addr> {
        self.alloc_with(info, cc, payload.len(), |i| payload[i])
    }

    /// The constructor a return allocates (an update's value, rule 7's
    /// closure) in the op loop: one field (the `I#` of most updates)
    /// inline, others out of line ([`Heap::alloc_small_out_of_line`]), so
    /// that what the field loop sets up is not hoisted before the update's
    /// frame loop for every update (docs/PERFORMANCE.md, "The op loop's
    /// cold paths, session 11").
    #[inline(always)]
    pub fn alloc_returned_con(&mut self, info: Info, cc: u32, fields: &[Value]) -> Option<Addr> {
        match *fields {
            [f] => self.alloc_small(info, cc, &[f]),
            _ => self.alloc_small_out_of_line(info, cc, fields),
        }
    }

    /// [`Heap::alloc_small`] in a function of its own, for the op loop's
    /// updates and rule 7, which allocate one field inline and call this
    /// for the others: inlined into the update's frame loop, what the
    /// general path sets up was computed before the loop on every update
    /// (docs/PERFORMANCE.md, "The op loop's cold paths, session 11"). Two
    /// fields (a list's cons cell) are written without the general field
    /// loop, which LLVM vectorises at a cost of about 80 instructions for
    /// two.
    #[inline(never)]
    pub fn alloc_small_out_of_line(
        &mut self,
        info: Info,
        cc: u32,
        payload: &[Value],
    ) -> Option<Addr> {
        if let [v0, v1] = *payload {
            let a = self.hp;
            if a + 4 > self.lim {
                return None;
            }
            debug_assert!(self.lim <= self.mem.len());
            debug_assert_eq!(closure_words(2), 4);
            // SAFETY: `a + 4 <= lim <= mem.len()` (`Heap::lim`'s
            // invariant; `a <= lim`, so the sum does not overflow).
            let words = unsafe { self.mem.get_unchecked_mut(a..a + 4) };
            let (w0, bit0) = match v0 {
                Value::Int(k) => (k as u64, 0),
                Value::Ptr(p) => (p, 1),
            };
            let (w1, bit1) = match v1 {
                Value::Int(k) => (k as u64, 0),
                Value::Ptr(p) => (p, 1),
            };
            words[0] = info.encode();
            words[1] = cc as u64;
            words[2] = w0;
            words[3] = w1;
            self.hp += 4;
            self.stats.bytes_allocated += 4 * 8;
            self.or_heap_word_bit(a + 2, bit0);
            self.or_heap_word_bit(a + 3, bit1);
            return Some(a as Addr);
        }
        self.alloc_small(info, cc, payload)
    }

    /// `words` fresh words at the allocation pointer, taken at once for
    /// closures the caller writes into them next (a `let`'s, in the fast
    /// engine's op loop): one bump of the allocation pointer and of the
    /// bytes allocated, where [`Heap::alloc_with`] per closure checked the
    /// room, bumped both and set up its field loop each time
    /// (docs/PERFORMANCE.md, "The op loop, session 12").
    ///
    /// # Safety
    /// `words <= self.free_words()`, and the caller writes closures over
    /// every word of the block ([`FreshBlock::header`], then
    /// [`FreshBlock::field`] for each payload word) before the heap is
    /// used again: until then the block's words hold whatever was there.
    #[inline(always)]
    pub unsafe fn take_block(&mut self, words: usize) -> FreshBlock<'_> {
        debug_assert!(words <= self.free_words());
        debug_assert!(self.lim <= self.mem.len() && self.mem.len() <= self.bits.len() * 64);
        let a = self.hp;
        self.hp += words;
        self.stats.bytes_allocated += words as u64 * 8;
        FreshBlock {
            // SAFETY: `a + words <= lim <= mem.len()` (the caller's bound
            // and `Heap::lim`'s invariant), so `a` is within `mem`.
            words: unsafe { self.mem.as_mut_ptr().add(a) },
            bits: self.bits.as_mut_ptr(),
            addr: a,
            #[cfg(debug_assertions)]
            len: words,
            _heap: std::marker::PhantomData,
        }
    }

    /// [`Heap::alloc`] with payload word `i` given by `field(i)`, `i < n`.
    #[inline]
    pub fn alloc_with(
        &mut self,
        info: Info,
        cc: u32,
        n: usize,
        mut field: impl FnMut(usize) -> Value,
    ) -> Option<Addr> {
        let size = closure_words(n);
        let a = self.hp;
        if a + size > self.lim {
            return None;
        }
        debug_assert!(self.lim <= self.mem.len() && self.mem.len() <= self.bits.len() * 64);
        // SAFETY: `a + size <= lim <= mem.len()` (`Heap::lim`'s
        // invariant; `a + size` does not overflow, `a` being at most
        // `lim`).
        let words = unsafe { self.mem.get_unchecked_mut(a..a + size) };
        self.hp += size;
        self.stats.bytes_allocated += size as u64 * 8;
        words[0] = info.encode();
        words[1] = cc as u64;
        words[2] = 0;
        for (i, w) in words[2..2 + n].iter_mut().enumerate() {
            match field(i) {
                Value::Int(k) => *w = k as u64,
                Value::Ptr(p) => {
                    *w = p;
                    let j = a + 2 + i;
                    // SAFETY: `j < a + size <= mem.len() <= bits.len() *
                    // 64` (above, and `in_regions`' assertion).
                    unsafe { *self.bits.get_unchecked_mut(j / 64) |= 1 << (j % 64) };
                }
            }
        }
        Some(a as Addr)
    }

    /// [`Heap::alloc`] of a closure of at most 64 payload words, with one
    /// write of the pointer bitmap (two when the payload straddles two of
    /// its words). For the engines' hot rules; `None` when there is no room.
    /// It repeats [`Heap::alloc_with`]'s header writes on purpose: serving
    /// both from one function cost 2.5% more instructions per step, and
    /// even a shared `#[inline(always)]` header helper 0.3–0.7%
    /// (`bench/instructions.sh`), the payload slice being checked again.
    #[inline(always)]
    pub fn alloc_small(&mut self, info: Info, cc: u32, payload: &[Value]) -> Option<Addr> {
        if let [v] = *payload {
            // One field (an `I#`, every update of nfib's and tak's
            // thunks): no field loop and no bitmap word built, the field's
            // bit or'ed in directly.
            let a = self.hp;
            if a + 3 > self.lim {
                return None;
            }
            debug_assert!(self.lim <= self.mem.len());
            // SAFETY: `a + 3 <= lim <= mem.len()` (`Heap::lim`'s
            // invariant; `a <= lim`, so the sum does not overflow).
            let words = unsafe { self.mem.get_unchecked_mut(a..a + 3) };
            let (w, bit) = match v {
                Value::Int(k) => (k as u64, 0),
                Value::Ptr(p) => (p, 1),
            };
            words[0] = info.encode();
            words[1] = cc as u64;
            words[2] = w;
            self.hp += 3;
            self.stats.bytes_allocated += 3 * 8;
            self.or_heap_word_bit(a + 2, bit);
            return Some(a as Addr);
        }
        let n = payload.len();
        let size = closure_words(n);
        let a = self.hp;
        if a + size > self.lim || n > 64 {
            return None;
        }
        debug_assert!(self.lim <= self.mem.len());
        // SAFETY: as for one field.
        let words = unsafe { self.mem.get_unchecked_mut(a..a + size) };
        self.hp += size;
        self.stats.bytes_allocated += size as u64 * 8;
        words[0] = info.encode();
        words[1] = cc as u64;
        words[2] = 0;
        let mut bits = 0u64;
        for (i, (w, v)) in words[2..].iter_mut().zip(payload).enumerate() {
            match *v {
                Value::Int(k) => *w = k as u64,
                Value::Ptr(p) => {
                    *w = p;
                    bits |= 1 << i;
                }
            }
        }
        if bits != 0 {
            let j = a + 2;
            let shift = j % 64;
            self.bits[j / 64] |= bits << shift;
            if shift != 0 && bits >> (64 - shift) != 0 {
                self.bits[j / 64 + 1] |= bits >> (64 - shift);
            }
        }
        Some(a as Addr)
    }

    /// The pointer bit of a word `i` the caller has just read or written in
    /// `mem` (so `i < mem.len()`), without checking the bitmap's bounds
    /// again: `in_regions` asserts that the bitmap has a bit for every
    /// word of `mem`, and neither region is replaced after it.
    #[inline(always)]
    fn heap_word_bit(&self, i: usize) -> bool {
        debug_assert!(i < self.mem.len() && i / 64 < self.bits.len());
        // SAFETY: `i < mem.len() <= bits.len() * 64` (the caller's read
        // of `mem[i]` and `in_regions`' assertion), so `i / 64 <
        // bits.len()`.
        unsafe { *self.bits.get_unchecked(i / 64) >> (i % 64) & 1 == 1 }
    }

    /// Set the pointer bit of a word `i < mem.len()` the caller has just
    /// written when `bit` is 1 (leave it when 0), without the bitmap's
    /// bounds check (see [`Heap::heap_word_bit`] for why none is needed).
    #[inline(always)]
    fn or_heap_word_bit(&mut self, i: usize, bit: u64) {
        debug_assert!(i < self.mem.len() && i / 64 < self.bits.len() && bit <= 1);
        // SAFETY: as in `heap_word_bit`.
        unsafe { *self.bits.get_unchecked_mut(i / 64) |= bit << (i % 64) }
    }
    #[inline]
    fn set_bit(&mut self, i: usize) {
        self.bits[i / 64] |= 1 << (i % 64);
    }
    #[inline]
    fn clear_bit(&mut self, i: usize) {
        self.bits[i / 64] &= !(1 << (i % 64));
    }

    /// Clear the pointer bits of words `from..from + n` (`n >= 1`).
    #[inline(always)]
    fn clear_bits(&mut self, from: usize, n: usize) {
        let b = from % 64;
        if b + n <= 64 {
            // One bitmap word (a closure's payload, nearly always).
            self.bits[from / 64] &= !((u64::MAX >> (64 - n)) << b);
        } else {
            for i in from..from + n {
                self.clear_bit(i);
            }
        }
    }

    /// The write barrier: the old closure at `a` now points to `target`;
    /// remember it if `target` is young. One compare for the common case,
    /// a young closure written.
    #[inline(always)]
    fn barrier(&mut self, a: usize, target: Addr) {
        if a >= self.young_end && (target as usize) < self.young_end {
            self.remember(a);
        }
    }

    #[cold]
    #[inline(never)]
    fn remember(&mut self, a: usize) {
        self.remembered.push(a as Addr);
    }

    /// Can `a` be a closure's address (its two header words lie in the
    /// heap)? The machine only holds addresses the heap gave it; this keeps
    /// a corrupt one from reading outside the heap.
    #[inline(always)]
    fn in_range(&self, a: Addr) -> bool {
        (a as usize) < self.header_end
    }

    /// Is `a` a dead updatee ([`dead_updatee`]): outside the heap, of a
    /// dead updatee's form? (Not an address of the heap's own, which in a
    /// heap of 2^35 words or more may have that form, and which such a
    /// heap's update frames hold: it keeps its updatees.)
    #[inline]
    pub fn is_dead_updatee(&self, a: Addr) -> bool {
        !self.in_range(a) && a >> 35 == DEAD_UPDATEE >> 35
    }

    /// The info word of the closure at `a`, `None` if `a` is not a closure.
    #[inline(always)]
    pub fn info(&self, a: Addr) -> Option<Info> {
        if !self.in_range(a) {
            return None;
        }
        Info::decode(self.mem[a as usize])
    }

    /// [`Heap::info`] of an update frame's closure, a dead updatee
    /// included: the black hole of its lambda (of no payload), so that
    /// what describes a frame's thunk describes it alike.
    pub fn updatee_info(&self, a: Addr) -> Option<Info> {
        if self.is_dead_updatee(a) {
            return Some(Info {
                tag: Tag::BlackHole,
                n: 0,
                index: a as u32,
            });
        }
        self.info(a)
    }

    pub fn set_info(&mut self, a: Addr, info: Info) {
        self.mem[a as usize] = info.encode();
    }

    #[inline]
    pub fn cc(&self, a: Addr) -> u32 {
        self.mem[a as usize + 1] as u32
    }

    #[inline(always)]
    pub fn payload(&self, a: Addr, i: usize) -> Value {
        let j = a as usize + 2 + i;
        let w = self.mem[j];
        if self.heap_word_bit(j) {
            Value::Ptr(w)
        } else {
            Value::Int(w as i64)
        }
    }

    /// Write payload word `i` of the closure at `a` (a `letrec` closure's
    /// free variable), through the write barrier.
    #[inline]
    pub fn set_payload(&mut self, a: Addr, i: usize, v: Value) {
        let j = a as usize + 2 + i;
        match v {
            Value::Int(k) => {
                self.mem[j] = k as u64;
                self.clear_bit(j);
            }
            Value::Ptr(p) => {
                self.mem[j] = p;
                self.set_bit(j);
                self.barrier(a as usize, p);
            }
        }
    }

    /// Turn the closure at `a` into a black hole or an entered `\s` closure:
    /// its payload is no longer needed (the environment holds it), so its
    /// words stop being pointers.
    #[inline]
    pub fn blackhole(&mut self, a: Addr, tag: Tag) {
        if let Some(info) = self.info(a) {
            self.blackhole_as(a, Info { tag, ..info });
        }
    }

    /// [`Heap::blackhole`] for a caller that has read the closure's info
    /// word: `info` is that word with the new tag (so the word is not read
    /// and decoded again on the fast engine's thunk entry). Returns the
    /// closure's cost-centre word, which the thunk's entry makes current:
    /// read here under the one range check that covers both header words
    /// and the first payload word's bit.
    #[inline(always)]
    pub fn blackhole_as(&mut self, a: Addr, info: Info) -> u32 {
        debug_assert_eq!(
            self.info(a).map(|i| (i.n, i.index)),
            Some((info.n, info.index))
        );
        let i = a as usize;
        let n = info.n.max(1) as usize;
        if !self.in_range(a) {
            // Not a closure of this heap (only a corrupt address): the
            // checked accessors, as before.
            self.clear_bits(i + 2, n);
            self.set_info(a, info);
            return self.cc(a);
        }
        let from = i + 2;
        let b = from % 64;
        if b + n < 64 {
            // The payload's bits in one bitmap word, short of its last
            // bit (nearly always): `n < 64` ones rotated into place make
            // the mask, two shifts and no complement.
            debug_assert!(from / 64 < self.bits.len());
            // SAFETY: `from < mem.len() <= bits.len() * 64` (`in_range`
            // above and `in_regions`' assertion), so `from / 64 <
            // bits.len()`.
            unsafe {
                *self.bits.get_unchecked_mut(from / 64) &= (u64::MAX << n).rotate_left(b as u32)
            };
        } else {
            self.clear_bits(from, n);
        }
        // SAFETY: `i + 1 < mem.len()` (`in_range` above).
        unsafe {
            *self.mem.get_unchecked_mut(i) = info.encode();
            *self.mem.get_unchecked(i + 1) as u32
        }
    }

    /// Overwrite the closure at `a` with an indirection to `target` (an
    /// update), through the write barrier.
    #[inline]
    pub fn update_with_ind(&mut self, a: Addr, target: Addr) {
        if let Some(mut info) = self.info(a) {
            self.clear_bits(a as usize + 2, info.n.max(1) as usize);
            info.tag = Tag::Ind;
            self.set_info(a, info);
            self.mem[a as usize + 2] = target;
            self.set_bit(a as usize + 2);
            self.barrier(a as usize, target);
        }
    }

    /// Overwrite the black hole at `a` (a thunk under evaluation, whose
    /// payload words [`Heap::blackhole`] made non-pointers) with an
    /// indirection to `target`: [`Heap::update_with_ind`] without clearing
    /// the bits again. Through the write barrier.
    #[inline(always)]
    pub fn update_blackhole(&mut self, a: Addr, target: Addr) {
        let i = a as usize;
        // One range check for the three words (`in_range`: `i + 2 <
        // mem.len()`).
        if self.in_range(a) {
            // SAFETY: `i < i + 2 < mem.len()` (`in_range`).
            let w = unsafe { *self.mem.get_unchecked(i) };
            if w & 0xff == Tag::BlackHole as u64 {
                // SAFETY: as above.
                unsafe {
                    *self.mem.get_unchecked_mut(i) = (w & !0xff) | Tag::Ind as u64;
                    *self.mem.get_unchecked_mut(i + 2) = target;
                }
                self.or_heap_word_bit(i + 2, 1);
                self.barrier(i, target);
                return;
            }
        }
        self.update_with_ind(a, target)
    }

    /// Rule 16 in place: overwrite the black hole at `a` with the
    /// constructor `info` of cost centre `cc` and fields `fields`, when the
    /// black hole is exactly the constructor's size and the constructor has
    /// at most two fields (`I#`, `:`, pairs: nearly every update); `false`,
    /// nothing done, when not (or when the heap keeps biographies, whose
    /// records tell the thunk from the value it is updated with). The
    /// constructor's words count as allocated, as they do when it is
    /// allocated and the black hole made an indirection to it (the rule
    /// allocates them; here they take the updatee's place). Through the
    /// write barrier.
    ///
    /// Both engines make the same choice from the same heap (the black
    /// hole's size is in its info word), so they allocate, and collect,
    /// alike. Writing in place is what the rule says ("overwrite `a_u`
    /// with the constructor value"); the indirection was there only to
    /// have room for any value. In place, an old updatee points to nothing
    /// young unless a field does, so it keeps no young closure alive (an
    /// indirection to a fresh constructor is remembered and keeps the
    /// constructor alive to the next minor collection, which promotes it,
    /// though the updatee is often dead by then: its update frame was its
    /// only reference).
    #[inline(always)]
    pub fn update_blackhole_with_con(
        &mut self,
        a: Addr,
        info: Info,
        cc: u32,
        fields: &[Value],
    ) -> bool {
        let i = a as usize;
        // One range check for the header and the first payload word
        // (`in_range`: `i + 2 < mem.len()`), which is all a black hole of
        // one payload word has.
        if !self.in_range(a) || self.biographies.is_some() {
            return self.update_dead(a, info);
        }
        // SAFETY: `i < i + 2 < mem.len()` (`in_range`).
        let w = unsafe { *self.mem.get_unchecked(i) };
        let room = (w >> 8) & Info::MAX_N as u64;
        if w & 0xff != Tag::BlackHole as u64 {
            return false;
        }
        let from = i + 2;
        // A black hole's payload words hold no pointers
        // ([`Heap::blackhole_as`], and a collection's copy keeps their
        // bits), so only the fields' pointer bits are set.
        let young = match *fields {
            // The constructors of one payload word (`2 + max(1, n)`).
            [] | [_] if room <= 1 => {
                let (x, bit, young) = self.field_word(fields.first().copied());
                // SAFETY: `from < mem.len()` (`in_range`).
                unsafe { *self.mem.get_unchecked_mut(from) = x };
                self.or_heap_word_bit(from, bit);
                young
            }
            [v0, v1] if room == 2 && from + 1 < self.mem.len() => {
                let (x0, bit0, young0) = self.field_word(Some(v0));
                let (x1, bit1, young1) = self.field_word(Some(v1));
                // SAFETY: `from + 1 < mem.len()` (tested above).
                unsafe {
                    *self.mem.get_unchecked_mut(from) = x0;
                    *self.mem.get_unchecked_mut(from + 1) = x1;
                }
                self.or_heap_word_bit(from, bit0);
                self.or_heap_word_bit(from + 1, bit1);
                young0 | young1
            }
            _ => return false,
        };
        self.in_place_header(i, info, cc, young);
        true
    }

    /// [`Heap::update_blackhole_with_con`] of an address outside the heap:
    /// for a dead updatee, nothing to write (no one reads the closure),
    /// the constructor's words counted as allocated, as in place, and
    /// `true`; otherwise `false`.
    #[inline(never)]
    fn update_dead(&mut self, a: Addr, info: Info) -> bool {
        if !self.is_dead_updatee(a) {
            return false;
        }
        self.stats.bytes_allocated += info.size() as u64 * 8;
        true
    }

    /// A constructor field as the heap word it is written as, its pointer
    /// bit, and whether it points into the young generation (`None`: the
    /// payload word of a constructor without fields).
    #[inline(always)]
    fn field_word(&self, v: Option<Value>) -> (Word, u64, bool) {
        match v {
            None => (0, 0, false),
            Some(Value::Int(k)) => (k as u64, 0, false),
            Some(Value::Ptr(p)) => (p, 1, (p as usize) < self.young_end),
        }
    }

    /// What an update in place does besides its payload: the
    /// constructor's header over the closure at `i` (`i + 1 < mem.len()`,
    /// the caller's `in_range`), its words counted as allocated, and the
    /// write barrier (`young`: a field points into the young generation).
    #[inline(always)]
    fn in_place_header(&mut self, i: usize, info: Info, cc: u32, young: bool) {
        debug_assert!(i + 1 < self.mem.len());
        // SAFETY: `i + 1 < mem.len()` (the caller's `in_range`).
        unsafe {
            *self.mem.get_unchecked_mut(i) = info.encode();
            *self.mem.get_unchecked_mut(i + 1) = cc as u64;
        }
        self.stats.bytes_allocated += info.size() as u64 * 8;
        if young && i >= self.young_end {
            self.remember(i);
        }
    }

    /// [`Heap::update_blackhole_with_con`] for a thunk evaluated at once
    /// (whose info word is `thunk`, never made a black hole: nothing
    /// between its entry and its update could see one), with the
    /// constructor `info` of at most one field, `field`: what
    /// [`Heap::blackhole_as`] then [`Heap::update_blackhole_with_con`]
    /// leave, when the thunk has one payload word; `false`, nothing done,
    /// when not (then [`Heap::update_thunk`] to a constructor allocated).
    #[inline(always)]
    pub fn update_thunk_with_con(
        &mut self,
        a: Addr,
        thunk: Info,
        info: Info,
        cc: u32,
        field: Option<Value>,
    ) -> bool {
        debug_assert_eq!(self.info(a), Some(thunk));
        debug_assert!(info.n <= 1 && thunk.tag == Tag::Lambda);
        let i = a as usize;
        if thunk.n > 1 || !self.in_range(a) || self.biographies.is_some() {
            return false;
        }
        let (x, bit, young) = self.field_word(field);
        let from = i + 2;
        // SAFETY: `i + 2 < mem.len()` (`in_range`), so `from / 64 <
        // bits.len()` (`in_regions`' assertion: `mem.len() <= bits.len()
        // * 64`).
        unsafe {
            *self.mem.get_unchecked_mut(from) = x;
            // The thunk's free variable's bit cleared, the field's set.
            let w = self.bits.get_unchecked_mut(from / 64);
            *w = *w & !(1 << (from % 64)) | bit << (from % 64);
        }
        self.in_place_header(i, info, cc, young);
        true
    }

    /// Overwrite the thunk at `a`, whose info word is `info`, with an
    /// indirection to `target`, as [`Heap::blackhole_as`] then
    /// [`Heap::update_blackhole`] leave it (the thunk evaluated at once,
    /// with nothing between its entry and its update that could see the
    /// black hole): the info word with the indirection's tag, the payload's
    /// bits cleared but the first's, which points to `target`. Through the
    /// write barrier.
    #[inline(always)]
    pub fn update_thunk(&mut self, a: Addr, info: Info, target: Addr) {
        debug_assert_eq!(self.info(a), Some(info));
        let i = a as usize;
        let n = info.n.max(1) as usize;
        let from = i + 2;
        let b = from % 64;
        if !self.in_range(a) || b + n >= 64 {
            // A corrupt address, or a payload's bits across two bitmap
            // words: the two steps.
            self.blackhole_as(
                a,
                Info {
                    tag: Tag::BlackHole,
                    ..info
                },
            );
            self.update_blackhole(a, target);
            return;
        }
        // SAFETY: `from < mem.len() <= bits.len() * 64` (`in_range` above
        // and `in_regions`' assertion), so `from / 64 < bits.len()`; `i + 2
        // < mem.len()` (`in_range`).
        unsafe {
            let bits = self.bits.get_unchecked_mut(from / 64);
            *bits = (*bits & (u64::MAX << n).rotate_left(b as u32)) | 1 << b;
            *self.mem.get_unchecked_mut(i) = Info {
                tag: Tag::Ind,
                ..info
            }
            .encode();
            *self.mem.get_unchecked_mut(i + 2) = target;
        }
        self.barrier(i, target);
    }

    /// Follow indirections from `a` (bounded; a cycle cannot be built by
    /// updates, the bound only guards against a corrupt heap).
    #[inline(always)]
    pub fn deref(&self, a: Addr) -> Addr {
        match self.mem.get(a as usize) {
            Some(&w) if w & 0xff == Tag::Ind as u64 => {
                // One hop inline (an updated thunk); a chain out of line.
                let i = a as usize + 2;
                match self.mem.get(i) {
                    Some(&t) if self.heap_word_bit(i) => match self.mem.get(t as usize) {
                        Some(&w) if w & 0xff == Tag::Ind as u64 => self.deref_chain(t),
                        _ => t,
                    },
                    _ => self.deref_chain(a),
                }
            }
            _ => a,
        }
    }

    /// [`Heap::deref`] then [`Heap::info`] of the result, reading the info
    /// word once when `a` is not an indirection (the common case).
    #[inline(always)]
    pub fn deref_info(&self, a: Addr) -> Option<(Addr, Info)> {
        // One check for both the read here and `info`'s: a closure's
        // address (an indirection's too) leaves room for its header.
        if !self.in_range(a) {
            return None;
        }
        let w = self.mem[a as usize];
        if w & 0xff == Tag::Ind as u64 {
            let t = self.deref(a);
            return Some((t, self.info(t)?));
        }
        Some((a, Info::decode(w)?))
    }

    /// [`Heap::deref_info`] with its one hop (an updated thunk) made
    /// reading each word once, and anything else out of line: for the
    /// fast engine's integer calls, whose arguments are often thunks
    /// updated by the call before (in its other uses, the larger code
    /// costs more than it saves: docs/PERFORMANCE.md).
    #[inline(always)]
    pub fn deref_info_hop(&self, a: Addr) -> Option<(Addr, Info)> {
        if !self.in_range(a) {
            return None;
        }
        // SAFETY: `in_range(a)`: `a < header_end <= mem.len() - 2`.
        let w = unsafe { *self.mem.get_unchecked(a as usize) };
        if w & 0xff == Tag::Ind as u64 {
            let i = a as usize + 2;
            debug_assert!(i < self.mem.len());
            // SAFETY: `a < header_end = mem.len() - 2`, so `i < mem.len()`.
            let t = unsafe { *self.mem.get_unchecked(i) };
            if self.heap_word_bit(i) && self.in_range(t) {
                // SAFETY: `in_range(t)`.
                let wt = unsafe { *self.mem.get_unchecked(t as usize) };
                if wt & 0xff != Tag::Ind as u64 {
                    debug_assert_eq!(self.deref(a), t);
                    return Some((t, Info::decode(wt)?));
                }
            }
            return self.deref_info_chain(a);
        }
        Some((a, Info::decode(w)?))
    }

    /// [`Heap::deref_info`] of an indirection that is not one hop to a
    /// closure in the heap.
    #[cold]
    #[inline(never)]
    fn deref_info_chain(&self, a: Addr) -> Option<(Addr, Info)> {
        let t = self.deref(a);
        Some((t, self.info(t)?))
    }

    fn deref_chain(&self, mut a: Addr) -> Addr {
        for _ in 0..1_000_000 {
            match self.info(a) {
                Some(Info { tag: Tag::Ind, .. }) => match self.payload(a, 0) {
                    Value::Ptr(t) => a = t,
                    Value::Int(_) => return a,
                },
                _ => return a,
            }
        }
        a
    }

    /// Visit every closure, the nursery's, the aged ones, then the old
    /// generation's, each in allocation order: `(address, info,
    /// cost-centre word)`.
    /// Overwritten closures keep their size (an indirection or black hole
    /// keeps `n`; a black hole copied by a collection is copied with
    /// `n = 0` unless the heap keeps black holes' sizes, and an indirection
    /// over it keeps that), so the walk is exact. Right after a major collection
    /// ([`Heap::collect`]) only live closures are present: that is a census
    /// of the live heap (for heap profiles). Indirections are visited too;
    /// skip them.
    pub fn walk(&self, f: &mut dyn FnMut(Addr, Info, u32)) {
        let spaces = [
            0..self.nursery_used(),
            self.aged.clone(),
            self.old_base..self.old_end(),
        ];
        for r in spaces {
            self.walk_range(r, f);
        }
    }

    fn walk_range(&self, r: Range<usize>, f: &mut dyn FnMut(Addr, Info, u32)) {
        let mut a = r.start;
        while a < r.end {
            let Some(info) = Info::decode(self.mem[a]) else {
                return;
            };
            f(a as Addr, info, self.mem[a + 1] as u32);
            a += info.size();
        }
    }

    /// Make every collection a major one from now on: each then moves
    /// every live closure and removes every indirection, as an observer
    /// that follows the whole live heap at each collection (the JSON
    /// trace's tracer) expects. Nothing else a program can observe changes.
    pub fn collect_majors_only(&mut self) {
        self.majors_only = true;
        self.keeps_updatees = true;
    }
}
