//! The heap: closure layout, copying collector, statistics.
//!
//! Engine-independent: the reference engine (and later the fast engine) keep
//! their closures here and hand the collector their roots through [`Roots`].
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
//! # Exact pointers
//!
//! The language is untyped: a payload word may hold an `Int#` or a pointer.
//! Every word has a bit in a side **pointer bitmap**; the bit is set exactly
//! when the word holds a heap address. Info and cost-centre words never have
//! it set, so the collector can scan to-space word by word without knowing
//! object sizes, and an `Int#` is never mistaken for a pointer.
//!
//! # Collection
//!
//! Two semi-spaces, Cheney scan, iterative (no recursion). Indirections are
//! short-circuited: a reference to an indirection is replaced by a reference
//! to its target, so indirections never survive a collection. After a
//! collection the space grows (doubling) when live data passes
//! [`GROW_SHARE`] of it, never beyond what lets two semi-spaces and their
//! pointer bitmaps fit in the `--max-heap` limit (the old semi-space is
//! given back before a grown one is made, so no more is ever held); if the live
//! data plus the request do not fit under that limit, allocation fails with
//! [`HeapExhausted`]. Semi-spaces of [`FRESH_SPACE_WORDS`] or more are
//! allocated zeroed at each collection and freed after it, so that only the
//! words actually copied into them become resident memory.

use std::time::{Duration, Instant};

pub mod biography;
pub mod memory_limit;
pub mod retainer;

use biography::Biographies;

/// A heap word.
pub type Word = u64;
/// A word index into the current semi-space.
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
    /// The tags in the order of their bytes, from 1.
    const ALL: [Tag; 7] = [
        Tag::Lambda,
        Tag::Con,
        Tag::Pap,
        Tag::Ind,
        Tag::BlackHole,
        Tag::Entered,
        Tag::Forward,
    ];

    /// A range check and a load, where a `match` on the byte would be a
    /// jump through a table.
    #[inline(always)]
    fn from_u8(b: u8) -> Option<Tag> {
        Tag::ALL.get(b.wrapping_sub(1) as usize).copied()
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
    #[inline]
    pub fn encode(self) -> Word {
        (self.tag as u64) | ((self.n as u64 & 0xff_ffff) << 8) | ((self.index as u64) << 32)
    }
    #[inline]
    pub fn decode(w: Word) -> Option<Info> {
        Some(Info {
            tag: Tag::from_u8((w & 0xff) as u8)?,
            n: ((w >> 8) & 0xff_ffff) as u32,
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

/// Live data above this share of the semi-space makes it grow.
pub const GROW_SHARE: f64 = 0.5;
/// Semi-spaces of at least this many words (8 MiB) are allocated afresh
/// at each collection and freed after it, instead of being kept and reused.
pub const FRESH_SPACE_WORDS: usize = 1 << 20;
/// Initial semi-space size in words (capped by `--max-heap`).
pub const INITIAL_WORDS: usize = 1 << 16;

/// The machine's roots, visited by the collector, which rewrites each
/// pointer to the closure's new address. The machine hands them over a
/// run of values at a time (a stack, an environment; one value is a run of
/// one), so that the collector loops over each run without a call per
/// value.
pub trait Roots {
    fn visit_roots(&mut self, f: &mut dyn FnMut(&mut [Value]));
}

/// Allocation failed: live data plus the request exceed `--max-heap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapExhausted {
    pub live_bytes: u64,
    pub requested_bytes: u64,
    pub limit_bytes: u64,
}

/// Collector and allocator statistics (GHC's `+RTS -s`).
#[derive(Clone, Debug, Default)]
pub struct HeapStats {
    pub bytes_allocated: u64,
    pub bytes_copied: u64,
    pub collections: u64,
    /// The most live data measured. Every collection copies exactly what
    /// is live, so each one is a sample (GHC samples at its major
    /// collections; every collection here is major); the engines add one
    /// at the end of a run when asked (`RunOptions::final_collection`).
    pub max_residency_bytes: u64,
    /// Wall-clock time spent collecting.
    pub gc_time: Duration,
    /// CPU time of the collecting thread spent collecting.
    pub gc_cpu_time: Duration,
    /// The longest collection, wall-clock.
    pub max_pause: Duration,
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

pub struct Heap {
    words: Vec<Word>,
    /// One bit per word of `words`: set when the word is a pointer.
    ptr_bits: Vec<u64>,
    /// Next free word.
    hp: usize,
    /// Capacity of the semi-space in words.
    capacity: usize,
    /// Upper bound on `capacity` (from `--max-heap`; at least 16 words, so
    /// that the machine can start).
    max_words: usize,
    /// The limit as given, in bytes, for messages.
    limit_bytes: u64,
    /// Where a default limit came from, for messages (`None`: a flag).
    default_of: Option<String>,
    /// The other semi-space, kept between collections while it is smaller
    /// than [`FRESH_SPACE_WORDS`] (its contents are garbage; only its bitmap
    /// is cleared before use).
    spare: Vec<Word>,
    spare_bits: Vec<u64>,
    pub stats: HeapStats,
    /// The closures' biographies, kept only for
    /// `--heap-profile=biography` (see [`biography`]).
    biographies: Option<Box<Biographies>>,
}

fn bit_words(n: usize) -> usize {
    n.div_ceil(64)
}

impl Heap {
    /// A heap of at most `max_bytes` in all: each of the two semi-spaces
    /// may grow up to half of it (like GHC's `-M`, the copying reserve counts).
    pub fn new(max_bytes: u64) -> Heap {
        Heap::with_limit(&memory_limit::Limit {
            bytes: max_bytes,
            default_of: None,
        })
    }

    /// [`Heap::new`] with the limit in force (`--max-heap` or its default,
    /// [`memory_limit::heap_limit`]).
    pub fn with_limit(limit: &memory_limit::Limit) -> Heap {
        let max_bytes = limit.bytes;
        // Each word of a semi-space costs 8 bytes and its bit in the
        // pointer bitmap: two semi-spaces and their bitmaps fit in the limit.
        let max_words = ((max_bytes as u128 * 4 / 65) as usize).max(16);
        let capacity = INITIAL_WORDS.min(max_words);
        Heap {
            words: vec![0; capacity],
            ptr_bits: vec![0; bit_words(capacity)],
            hp: 0,
            capacity,
            max_words,
            limit_bytes: max_bytes,
            default_of: limit.default_of.clone(),
            spare: Vec::new(),
            spare_bits: Vec::new(),
            stats: HeapStats::default(),
            biographies: None,
        }
    }

    /// Keep the closures' biographies from now on (before any closure is
    /// allocated: closures allocated before have none).
    pub fn keep_biographies(&mut self) {
        self.biographies = Some(Box::new(Biographies::new(self.capacity)));
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

    pub fn free_words(&self) -> usize {
        self.capacity - self.hp
    }

    /// The address the next allocation will get.
    #[inline]
    pub fn next_addr(&self) -> Addr {
        self.hp as Addr
    }

    pub fn used_words(&self) -> usize {
        self.hp
    }

    /// The limit as given (both semi-spaces).
    pub fn max_bytes(&self) -> u64 {
        self.limit_bytes
    }

    /// Where the limit came from when no flag gave it, for messages.
    pub fn limit_default_of(&self) -> Option<&str> {
        self.default_of.as_deref()
    }

    /// Allocate a closure with the given info, cost centre and payload.
    /// Room must have been made with [`Heap::reserve`]; returns `None` (never
    /// panics) if it was not.
    ///
    /// Words at and above `hp` never have their pointer bit set (a
    /// collection starts to-space with a clear bitmap, and only allocated
    /// words get bits), so only the payload's pointers need bits here.
    #[inline]
    pub fn alloc(&mut self, info: Info, cc: u32, payload: &[Value]) -> Option<Addr> {
        self.alloc_with(info, cc, payload.len(), |i| payload[i])
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
        if a + size > self.capacity {
            return None;
        }
        let words = self.words.get_mut(a..a + size)?;
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
                    self.ptr_bits[j / 64] |= 1 << (j % 64);
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
        let n = payload.len();
        let size = closure_words(n);
        let a = self.hp;
        if a + size > self.capacity || n > 64 {
            return None;
        }
        let words = self.words.get_mut(a..a + size)?;
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
            self.ptr_bits[j / 64] |= bits << shift;
            if shift != 0 && bits >> (64 - shift) != 0 {
                self.ptr_bits[j / 64 + 1] |= bits >> (64 - shift);
            }
        }
        Some(a as Addr)
    }

    /// Make room for `words` words, collecting (and growing) if needed, or
    /// always collecting when `stress`.
    #[inline]
    pub fn reserve(
        &mut self,
        words: usize,
        stress: bool,
        roots: &mut dyn Roots,
    ) -> Result<(), HeapExhausted> {
        if !stress && self.hp + words <= self.capacity {
            return Ok(());
        }
        self.collect(words, roots)
    }

    #[inline]
    fn bit(&self, i: usize) -> bool {
        self.ptr_bits[i / 64] >> (i % 64) & 1 == 1
    }
    #[inline]
    fn set_bit(&mut self, i: usize) {
        self.ptr_bits[i / 64] |= 1 << (i % 64);
    }
    #[inline]
    fn clear_bit(&mut self, i: usize) {
        self.ptr_bits[i / 64] &= !(1 << (i % 64));
    }

    /// Clear the pointer bits of words `from..from + n` (`n >= 1`).
    #[inline(always)]
    fn clear_bits(&mut self, from: usize, n: usize) {
        let b = from % 64;
        if b + n <= 64 {
            // One bitmap word (a closure's payload, nearly always).
            self.ptr_bits[from / 64] &= !((u64::MAX >> (64 - n)) << b);
        } else {
            for i in from..from + n {
                self.clear_bit(i);
            }
        }
    }

    #[inline]
    fn in_range(&self, a: Addr) -> bool {
        // The two header words lie below `hp`: `a + 2 <= hp`.
        (a as usize) < self.hp.saturating_sub(1)
    }

    /// The info word of the closure at `a`, `None` if `a` is not a closure.
    #[inline(always)]
    pub fn info(&self, a: Addr) -> Option<Info> {
        if !self.in_range(a) {
            return None;
        }
        Info::decode(self.words[a as usize])
    }

    pub fn set_info(&mut self, a: Addr, info: Info) {
        self.words[a as usize] = info.encode();
    }

    #[inline]
    pub fn cc(&self, a: Addr) -> u32 {
        self.words[a as usize + 1] as u32
    }

    #[inline(always)]
    pub fn payload(&self, a: Addr, i: usize) -> Value {
        let j = a as usize + 2 + i;
        if self.bit(j) {
            Value::Ptr(self.words[j])
        } else {
            Value::Int(self.words[j] as i64)
        }
    }

    #[inline]
    pub fn set_payload(&mut self, a: Addr, i: usize, v: Value) {
        let j = a as usize + 2 + i;
        match v {
            Value::Int(k) => {
                self.words[j] = k as u64;
                self.clear_bit(j);
            }
            Value::Ptr(p) => {
                self.words[j] = p;
                self.set_bit(j);
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
    /// and decoded again on the fast engine's thunk entry).
    #[inline(always)]
    pub fn blackhole_as(&mut self, a: Addr, info: Info) {
        debug_assert_eq!(
            self.info(a).map(|i| (i.n, i.index)),
            Some((info.n, info.index))
        );
        self.clear_bits(a as usize + 2, info.n.max(1) as usize);
        self.set_info(a, info);
    }

    /// Overwrite the closure at `a` with an indirection to `target` (an update).
    #[inline]
    pub fn update_with_ind(&mut self, a: Addr, target: Addr) {
        if let Some(mut info) = self.info(a) {
            self.clear_bits(a as usize + 2, info.n.max(1) as usize);
            info.tag = Tag::Ind;
            self.set_info(a, info);
            self.words[a as usize + 2] = target;
            self.set_bit(a as usize + 2);
        }
    }

    /// Overwrite the black hole at `a` (a thunk under evaluation, whose
    /// payload words [`Heap::blackhole`] made non-pointers) with an
    /// indirection to `target`: [`Heap::update_with_ind`] without clearing
    /// the bits again.
    #[inline(always)]
    pub fn update_blackhole(&mut self, a: Addr, target: Addr) {
        let i = a as usize;
        match self.words.get(i) {
            Some(&w) if w & 0xff == Tag::BlackHole as u64 && i + 2 < self.hp => {
                self.words[i] = (w & !0xff) | Tag::Ind as u64;
                self.words[i + 2] = target;
                self.set_bit(i + 2);
            }
            _ => self.update_with_ind(a, target),
        }
    }

    /// Follow indirections from `a` (bounded; a cycle cannot be built by
    /// updates, the bound only guards against a corrupt heap).
    #[inline(always)]
    pub fn deref(&self, a: Addr) -> Addr {
        match self.words.get(a as usize) {
            Some(&w) if w & 0xff == Tag::Ind as u64 => {
                // One hop inline (an updated thunk); a chain out of line.
                let i = a as usize + 2;
                match self.words.get(i) {
                    Some(&t) if i < self.hp && self.bit(i) => match self.words.get(t as usize) {
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
        let w = *self.words.get(a as usize)?;
        if w & 0xff == Tag::Ind as u64 {
            let t = self.deref(a);
            return Some((t, self.info(t)?));
        }
        if !self.in_range(a) {
            return None;
        }
        Some((a, Info::decode(w)?))
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

    /// Cheney collection into a fresh semi-space, then grow if live data
    /// passes [`GROW_SHARE`] or `needed` does not fit.
    pub fn collect(&mut self, needed: usize, roots: &mut dyn Roots) -> Result<(), HeapExhausted> {
        let start = Instant::now();
        let start_cpu = thread_cpu_time();
        // A large to-space is a fresh zeroed allocation: the system gives
        // it untouched pages, so only the words copied into it become
        // resident (a reused space would keep all of its pages resident).
        let (to, to_bits) = if self.capacity >= FRESH_SPACE_WORDS {
            self.spare = Vec::new();
            self.spare_bits = Vec::new();
            (
                fresh_space(self.capacity),
                vec![0; bit_words(self.capacity)],
            )
        } else {
            let mut to = std::mem::take(&mut self.spare);
            to.resize(self.capacity, 0);
            let mut to_bits = std::mem::take(&mut self.spare_bits);
            to_bits.clear();
            to_bits.resize(bit_words(self.capacity), 0);
            (to, to_bits)
        };
        let from_bits = std::mem::take(&mut self.ptr_bits);
        let mut ev = Evacuation {
            from: std::mem::take(&mut self.words),
            from_bits,
            from_hp: self.hp,
            to,
            to_bits,
            free: 0,
        };
        roots.visit_roots(&mut |vs: &mut [Value]| {
            for v in vs {
                if let Value::Ptr(a) = *v {
                    *v = Value::Ptr(ev.evacuate(a));
                }
            }
        });
        // Cheney scan of to-space, pointer word by pointer word: the
        // bitmap says where they are, so runs of other words are skipped
        // a bitmap word at a time.
        let mut scan = 0usize;
        while scan < ev.free {
            let shift = scan % 64;
            let take = (64 - shift).min(ev.free - scan);
            let window = if take == 64 { !0 } else { (1u64 << take) - 1 };
            let bits = (ev.to_bits[scan / 64] >> shift) & window;
            if bits == 0 {
                scan += take;
                continue;
            }
            let i = scan + bits.trailing_zeros() as usize;
            let a = ev.to[i];
            ev.to[i] = ev.evacuate(a);
            scan = i + 1;
        }
        let Evacuation {
            from,
            from_bits,
            mut to,
            mut to_bits,
            free,
            ..
        } = ev;
        let live = free;
        if let Some(b) = &mut self.biographies {
            b.after_collection(&from, self.hp, self.capacity);
        }
        self.stats.collections += 1;
        self.stats.bytes_copied += live as u64 * 8;
        self.stats.max_residency_bytes = self.stats.max_residency_bytes.max(live as u64 * 8);

        // Grow if live data passes the share, or the request does not fit.
        let mut cap = self.capacity;
        while (live as f64 > cap as f64 * GROW_SHARE || live + needed > cap) && cap < self.max_words
        {
            cap = (cap * 2).min(self.max_words);
        }
        // Keep a small old space for the next collection; a large one, or
        // one that is growing, is given back now, before a grown space is
        // made, so that at no time more than two semi-spaces' worth is held.
        let spare = if cap == self.capacity && cap < FRESH_SPACE_WORDS {
            Some((from, from_bits))
        } else {
            drop((from, from_bits));
            None
        };
        if cap != self.capacity {
            // A fresh zeroed space with the live words copied in: resizing
            // would write (and make resident) every new word.
            let mut grown = fresh_space(cap);
            grown[..live].copy_from_slice(&to[..live]);
            to = grown;
            to_bits.resize(bit_words(cap), 0);
            self.capacity = cap;
            if let Some(b) = &mut self.biographies {
                b.resize(cap);
            }
        }
        self.words = to;
        self.ptr_bits = to_bits;
        self.hp = live;
        if let Some((from, from_bits)) = spare {
            self.spare = from;
            self.spare_bits = from_bits;
        }
        let pause = start.elapsed();
        self.stats.gc_time += pause;
        self.stats.max_pause = self.stats.max_pause.max(pause);
        self.stats.gc_cpu_time += thread_cpu_time().saturating_sub(start_cpu);
        if live + needed > self.capacity {
            return Err(HeapExhausted {
                live_bytes: live as u64 * 8,
                requested_bytes: needed as u64 * 8,
                limit_bytes: self.limit_bytes,
            });
        }
        Ok(())
    }
}

impl Heap {
    /// Visit every closure in allocation order: `(address, info, cost-centre
    /// word)`. Overwritten closures keep their size (an indirection or black
    /// hole keeps `n`), so the walk is exact. Right after a collection only
    /// live closures are present: that is a census of the live heap (for
    /// heap profiles). Indirections are visited too; skip them.
    pub fn walk(&self, f: &mut dyn FnMut(Addr, Info, u32)) {
        let mut a = 0usize;
        while a < self.hp {
            let Some(info) = Info::decode(self.words[a]) else {
                return;
            };
            f(a as Addr, info, self.words[a + 1] as u32);
            a += info.size();
        }
    }
}

/// A zeroed semi-space of `n` words, fresh from the system: its pages
/// become resident only when written. On Linux, large spaces ask for
/// transparent huge pages, so that filling one takes a page fault every
/// 2 MiB rather than every 4 KiB.
fn fresh_space(n: usize) -> Vec<Word> {
    let v = vec![0; n];
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = v.as_ptr() as usize;
        let end = start + n * 8;
        let from = start.next_multiple_of(HUGE);
        if end > from + HUGE {
            let len = (end - from) / HUGE * HUGE;
            // SAFETY: `from..from + len` lies inside `v`'s allocation, which
            // lives until `v` is dropped; `madvise` with MADV_HUGEPAGE only
            // advises the kernel how to back those pages and changes no
            // contents, so no Rust reference is invalidated. Its result is
            // ignored: a refusal leaves ordinary pages.
            unsafe {
                libc::madvise(from as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
            }
        }
    }
    v
}

/// A collection in progress: from-space, to-space, and the next free word
/// of to-space.
struct Evacuation {
    from: Vec<Word>,
    from_bits: Vec<u64>,
    from_hp: usize,
    to: Vec<Word>,
    to_bits: Vec<u64>,
    free: usize,
}

impl Evacuation {
    /// Evacuate the closure a pointer to `a` leads to (past indirections):
    /// copy it to to-space unless it was already, and return its new
    /// address. Every root and every pointer in to-space comes here, so
    /// the info word's tag byte and size are read directly.
    #[inline(always)]
    fn evacuate(&mut self, a: Addr) -> Addr {
        const IND: u64 = Tag::Ind as u64;
        const FORWARD: u64 = Tag::Forward as u64;
        let (from, from_bits) = (&mut self.from, &self.from_bits);
        // Short-circuit indirections (bounded walk).
        let mut a = a as usize;
        let mut w = 0;
        for _ in 0..1_000_000 {
            if a + 2 >= self.from_hp {
                return a as Addr;
            }
            w = from[a];
            if w & 0xff == IND && from_bits[(a + 2) / 64] >> ((a + 2) % 64) & 1 == 1 {
                a = from[a + 2] as usize;
            } else {
                break;
            }
        }
        match w & 0xff {
            FORWARD => return from[a + 2],
            t if Tag::from_u8(t as u8).is_none() => return a as Addr,
            _ => {}
        }
        let size = closure_words(((w >> 8) & 0xff_ffff) as usize);
        let new = self.free;
        if new + size > self.to.len() || a + size > from.len() {
            // Cannot happen: to-space is as large as from-space, and
            // closures lie within it.
            return a as Addr;
        }
        copy_words(&from[a..a + size], &mut self.to[new..new + size]);
        copy_bits(from_bits, a, &mut self.to_bits, new, size);
        self.free += size;
        // Forwarded: keep the size (n), clear the index.
        from[a] = (w & 0xff_ff_ff_00) | FORWARD;
        from[a + 2] = new as u64;
        new as Addr
    }
}

/// Copy a closure's words (a loop for the small closures that are nearly
/// all of them: `copy_from_slice` would call `memcpy`).
#[inline(always)]
fn copy_words(from: &[Word], to: &mut [Word]) {
    if from.len() <= 8 {
        for (t, f) in to.iter_mut().zip(from) {
            *t = *f;
        }
    } else {
        to.copy_from_slice(from);
    }
}

/// Set the bits of `to_bits` at `to + i` for every bit of `from_bits` set at
/// `from + i`, `i < n` (`to_bits` is clear there).
#[inline(always)]
fn copy_bits(from_bits: &[u64], from: usize, to_bits: &mut [u64], to: usize, n: usize) {
    let (mut i, end) = (from, from + n);
    while i < end {
        let shift = i % 64;
        let take = (64 - shift).min(end - i);
        let window = if take == 64 { !0 } else { (1u64 << take) - 1 };
        let mut bits = (from_bits[i / 64] >> shift) & window;
        while bits != 0 {
            let j = to + (i - from) + bits.trailing_zeros() as usize;
            to_bits[j / 64] |= 1 << (j % 64);
            bits &= bits - 1;
        }
        i += take;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct R(Vec<Value>);
    impl Roots for R {
        fn visit_roots(&mut self, f: &mut dyn FnMut(&mut [Value])) {
            f(&mut self.0);
        }
    }

    /// A 1 MiB heap with room for 100 words made (no roots to keep).
    fn heap_with_room() -> Heap {
        let mut h = Heap::new(1 << 20);
        h.reserve(100, false, &mut R(vec![])).unwrap();
        h
    }

    fn con(n: u32) -> Info {
        Info {
            tag: Tag::Con,
            n,
            index: 0,
        }
    }

    #[test]
    fn ints_are_not_pointers_and_inds_vanish() {
        let mut h = heap_with_room();
        let garbage = h.alloc(con(1), 0, &[Value::Int(7)]).unwrap();
        let leaf = h
            .alloc(con(2), 3, &[Value::Int(garbage as i64), Value::Int(-1)])
            .unwrap();
        let thunk = h.alloc(con(1), 0, &[Value::Int(0)]).unwrap();
        h.update_with_ind(thunk, leaf);
        let pair = h
            .alloc(con(2), 0, &[Value::Ptr(thunk), Value::Int(42)])
            .unwrap();
        let mut r = R(vec![Value::Ptr(pair)]);
        h.collect(0, &mut r).unwrap();
        let Value::Ptr(p) = r.0[0] else { panic!() };
        assert_eq!(h.payload(p, 1), Value::Int(42));
        let Value::Ptr(l) = h.payload(p, 0) else {
            panic!()
        };
        assert_eq!(h.info(l).unwrap().tag, Tag::Con);
        assert_eq!(h.cc(l), 3);
        assert_eq!(h.payload(l, 0), Value::Int(garbage as i64));
        // pair (4 words) + leaf (4 words); garbage and the indirection are gone.
        assert_eq!(h.used_words(), 8);
    }

    #[test]
    fn deref_info_is_deref_then_info() {
        let mut h = heap_with_room();
        let leaf = h.alloc(con(1), 0, &[Value::Int(5)]).unwrap();
        let one_hop = h.alloc(con(1), 0, &[Value::Int(0)]).unwrap();
        h.update_with_ind(one_hop, leaf);
        let two_hops = h.alloc(con(2), 0, &[Value::Int(0), Value::Int(0)]).unwrap();
        h.update_with_ind(two_hops, one_hop);
        let nullary = h.alloc(con(0), 0, &[]).unwrap();
        // Last, a payload word that would decode as a constructor's info
        // word: its address is not a closure's (in_range says so).
        h.alloc(con(1), 0, &[Value::Int(Tag::Con as i64)]).unwrap();
        // Every address up to past the end (payload words, whose low byte
        // is no tag, and addresses beyond the allocated words included).
        for a in 0..h.used_words() as Addr + 4 {
            let d = h.deref(a);
            let expected = h.info(d).map(|i| (d, i));
            assert_eq!(h.deref_info(a), expected, "address {a}");
        }
        assert_eq!(h.deref_info(two_hops).map(|(a, _)| a), Some(leaf));
        assert_eq!(h.deref_info(nullary).map(|(a, _)| a), Some(nullary));
    }

    #[test]
    fn long_chains_collect_without_recursion() {
        let mut h = Heap::new(1 << 30);
        let mut r = R(vec![Value::Int(0)]);
        for i in 0..200_000 {
            h.reserve(4, false, &mut r).unwrap();
            let tail = r.0[0];
            let a = h.alloc(con(2), 0, &[Value::Int(i), tail]).unwrap();
            r.0[0] = Value::Ptr(a);
        }
        h.collect(0, &mut r).unwrap();
        assert_eq!(h.used_words(), 200_000 * 4);
    }

    #[test]
    fn walk_visits_every_closure_once() {
        let mut h = heap_with_room();
        let a = h.alloc(con(0), 1, &[]).unwrap();
        let b = h
            .alloc(con(3), 2, &[Value::Int(1), Value::Ptr(a), Value::Int(3)])
            .unwrap();
        h.update_with_ind(b, a);
        let c = h
            .alloc(
                Info {
                    tag: Tag::Pap,
                    n: 2,
                    index: 0,
                },
                3,
                &[Value::Ptr(a), Value::Int(0)],
            )
            .unwrap();
        let mut seen = vec![];
        h.walk(&mut |addr, info, cc| seen.push((addr, info.tag, cc)));
        assert_eq!(
            seen,
            vec![(a, Tag::Con, 1), (b, Tag::Ind, 2), (c, Tag::Pap, 3)]
        );
    }

    #[test]
    fn exhaustion_is_an_error() {
        let mut h = Heap::new(64 * 16);
        let mut r = R(vec![]);
        let mut failed = false;
        for _ in 0..100 {
            if h.reserve(4, false, &mut r).is_err() {
                failed = true;
                break;
            }
            let a = h.alloc(con(2), 0, &[Value::Int(1), Value::Int(2)]).unwrap();
            r.0.push(Value::Ptr(a));
        }
        assert!(failed);
    }
}
