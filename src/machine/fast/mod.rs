//! The fast engine (`--engine=fast`, the default): the same rules as
//! [`crate::machine::reference`], with the same meaning, without its costs.
//!
//! # Design
//!
//! - **Code.** It runs the resolved program [`Code`] (variables are slots or
//!   global indices, constructors and cost centres ids), compiled once more
//!   (`compile.rs`) to one op per expression, specialised by the shape of
//!   the expression, with every atom an index into the value stack. No hash
//!   look-up, string compare or Rust allocation happens on the hot path.
//! - **Two loops over one state.** The op loop (`threaded.rs`) runs ops
//!   back to back from an `Eval` state, each firing all the rules it stands
//!   for at once, and returns values straight to the waiting alternative;
//!   an op that meets anything out of the ordinary (an error, a collection,
//!   the step limit, a census, a stack about to overflow, a rare shape)
//!   does nothing and stops. The rule loop (`rules.rs`, `Machine::exec`)
//!   then fires one rule at a time, each selected exactly as the reference
//!   engine's `select` selects it (same checks, same order, same errors),
//!   until the next `Eval`, where the op loop takes over again. Neither
//!   recurses per STG call.
//! - **Environments** live in one contiguous value stack (`values.rs`), not
//!   in per-step vectors, above its constant area (the globals' closures and
//!   the literals): entering a closure (rules 2, 15, 15′) opens a frame at
//!   the *floor* (the end of what the innermost case continuation keeps
//!   of its environment, or the height saved by the innermost update/restore
//!   frame, whichever is more recent); a case continuation (rule 4) records
//!   its frame; a return (6–8, 11–13) resumes in that frame and drops
//!   everything above it. A scrutinee that binds variables runs in a copy of
//!   the frame (so what it binds is not kept alive by the continuation, as
//!   in the reference engine); one that only reads atoms runs in the frame
//!   itself. The continuation saves only its alternatives' free variables:
//!   its other slots are dead, which the collector is told when it runs
//!   (`live.rs`), so no step pays for them. It keeps its frame in place
//!   only up to its highest saved slot, which is its floor ("Floors" at
//!   `Frame`): the environments opened until it returns (a scrutinee's
//!   copy too) reuse the slots above, and the return opens the frame to
//!   its length again, where the alternative binds what it reads beyond
//!   the saved slots. To keep that part short, the program's slots are
//!   renumbered before it is compiled (`slots.rs`): a binder takes the
//!   lowest slot free in the reference engine's environment where it is
//!   bound, often that of a variable dead after an earlier case.
//! - **One control stack** holds the paper's return stack and update stack
//!   (`Frame`): "`rs` empty" is "the top entry is not a continuation".
//! - **Returned constructor fields** go to one reused buffer when the rule
//!   loop returns them.
//! - **Ticks** (steps clock) are not added per step: `tick_cc` is the entry
//!   that accrues the running step count since `tick_mark`, and the count is
//!   charged only when the entry changes and at the end. In a row of frame
//!   pops (16/16′/17a/17a′, "hidden execution") `tick_cc` stays on the entry
//!   current before the row, which is also the evaluating cost centre the
//!   row's updates get; the first non-pop rule after the row moves it (in
//!   stacks mode so does 17a, which ends its row: see `rule17a`).
//!   Tail calls and allocated words of the hot rules accrue the same way
//!   (`pend_calls`, `pend_words`), so the common rules touch no counter.
//! - **Profiling off** (`RunOptions::no_profile`): the engine is built
//!   three times, `Machine<PROF, BIO>` with two const parameters, and
//!   `Machine<false, false>` has no counting code at all: no counter,
//!   pending count or tick mark is touched, `flush` is empty. The
//!   cost-centre register and `tick_cc` are still kept: errors name the
//!   current cost centre, and rule 16 gives the updated closure the
//!   evaluating cost centre, which heap profiles by cost centre show.
//! - **Biographies** (`--heap-profile=biography`) are noted only by
//!   `Machine<true, true>` (in `Machine::note_use`), which runs them with
//!   or without `--profile`: a use is noted where the counting code is
//!   (under `if PROF`), so their build counts too. A profiled run without
//!   them does not test at each use of a closure whether the heap keeps
//!   them (0.8% of a profiled queens' instructions, docs/PERFORMANCE.md).
//!
//! # Equivalence with the reference engine
//!
//! Output, runtime errors (kind, rule, cost centre, location, step), the
//! profile and the heap profile are the same by construction (each arm
//! mirrors a reference rule, in the same order of checks) and by test
//! (`tests/engines_differential.rs`, `tests/engines_random.rs`). The heap
//! sees the same allocations at the same points and the collector the same
//! live roots (a scrutinee runs in a copy of its frame, as the reference
//! engine clones it; dead frames, the slots of an environment that the
//! reference engine's does not hold, and a stale returned-fields buffer are
//! not roots), so collections, bytes copied, residency, heap censuses and the
//! point where `--max-heap` is exceeded agree too; only addresses differ
//! (roots are visited in another order), which nothing observable shows.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::cli::memory::try_reserve_len;
use crate::gc::{Addr, Heap, Info, Roots, Tag, Value, closure_words, memory_limit};
use crate::machine::accounting::Accounting;
use crate::machine::code::*;
use crate::machine::common;
use crate::machine::heap_profile::{HeapProfileSummary, HeapProfiler};
use crate::machine::primitives;
use crate::machine::result::{Halted, ResultPrinter};
use crate::machine::{
    Clock, CostCentreMode, ErrorKind, OutputStream, RunOptions, RuntimeError, Stats,
};
use crate::profile::{Counters, Profile};
use crate::stg::source::SourceMap;
use crate::stg::syntax::{Flag, Span};

mod compile;
mod live;
mod rules;
mod slots;
mod threaded;
mod values;

pub(crate) use slots::number_slots;

use values::ValueStack;

/// The control component; environments live in `vals`, constructor fields
/// in `fields`.
#[derive(Clone, Copy, Debug)]
enum Ctl {
    Eval(ExprId),
    Enter(Value),
    RetCon(ConId),
    RetInt(i64),
}

/// An entry of the control stack, which holds the paper's return stack
/// (case continuations) and update stack (update and restore frames) in
/// one, innermost last: "`rs` empty" is "no continuation above the top
/// frame", that is, the top entry is not a (plain) continuation. 16
/// bytes: a tagged word ([`Frame::word`]) and a word of what the entry
/// saves ([`Frame::aux`]: the height of `as` and the cost centre). A
/// continuation's length and alternatives are its case's, looked up by its
/// case when it returns ([`compile::Compiled::case_env_len`],
/// [`compile::Compiled::case_alts`]); a frame does not hold its `base` (see
/// "Floors"). Heights are `u32` ([`Machine::check_stack`] keeps them below
/// [`MAX_HEIGHT`]).
///
/// # Merged entries
///
/// A `case` of a thunk (`case_enter_thunk` in `threaded.rs`) pushes a
/// continuation and, at once, the thunk's update frame, with the same
/// height of `as` and the same cost centre: one *merged* entry holds both
/// (the continuation below, the update frame on top of it), when what it
/// saves fits its 16 bytes (an address below 2^[`MERGED_ADDR_BITS`], a
/// height of `as` below 2^[`MERGED_AS_BITS`], a cost centre below
/// 2^[`MERGED_CC_BITS`]; otherwise the two entries are pushed apart).
/// While it is the top entry the update frame is on top: `rs` is empty
/// ([`Frame::is_plain_cont`] is false), [`Frame::update`] is its closure,
/// and popping the frame (rules 16, 17a) leaves the plain continuation in
/// its place ([`Frame::unmerged`]). Everything that walks the stack sees
/// both: its environment is a continuation's ([`Frame::is_cont`],
/// [`Frame::base`], [`Frame::case`]), its closure an update frame's
/// ([`Frame::update`], [`Frame::set_update`]). `--max-stack` counts the two
/// entries' words, as the reference engine does.
///
/// # Floors
///
/// The floor while an entry is on top (the height of `vals` below which
/// environments are live, where the next environment opens) is, for an
/// update or restore frame, the floor when it was pushed: such a frame
/// does not move it, so it need not hold it (popping one leaves the
/// floor as it is). For a continuation it is `base + keep`, `keep` being
/// one past the highest slot it saves ([`live::Liveness::keep`]): the
/// slots of its environment above those are dead until the return (its
/// alternatives read only saved slots and the ones they bind), so the
/// environments opened meanwhile reuse them, and the return opens the
/// environment to its length again. A merged entry's is its
/// continuation's (the update frame on top does not move it). A
/// continuation's `base` is the floor of the entry below it (of the
/// constant area for the lowest): it is pushed in an environment opened
/// at the floor (a scrutinee's copy too) or resumed there. So popping a
/// continuation makes its `base` the floor ([`Machine::retop_after_pop`]),
/// and only a push needs `keep`. The collector, which needs the floor of
/// a frame deep in the stack, has it from [`St::floor_low`].
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// A continuation: its environment's base in `vals`
    /// (`vals[base..base + len]`, which the return resumes in) in the low half, its case
    /// expression in the high half (below 2^31, as every expression is:
    /// see [`AT_LAMBDA`]), so below [`MERGED_WORD`]. A merged entry: the
    /// same plus [`MERGED_WORD`] (its case below [`MERGED_CASES`], so the
    /// word below [`RESTORE_WORD`]). A restore frame: [`RESTORE_WORD`]. An
    /// update frame: [`UPDATE_TAG`] plus the closure to update's address
    /// (below 2^56: a heap word's index in an address space of at most
    /// 2^57 bytes, which is all that Linux gives a process on any 64-bit
    /// machine).
    word: u64,
    /// The height of `as` when pushed (what the entry saves of `as`) in
    /// the low half, the cost centre (stack) to restore in the high half.
    /// In a merged entry the same, in the low [`MERGED_AS_BITS`] bits of
    /// each half, and the update frame's closure in the bits above them
    /// ([`MERGED_AUX`] is the rest), so that popping the update frame
    /// leaves the continuation's with one mask ([`Frame::unmerged`]).
    aux: u64,
}

const _: () = assert!(std::mem::size_of::<Frame>() == 16);

/// [`Frame::word`]'s tag of a merged entry; every plain continuation's
/// word is below.
const MERGED_WORD: u64 = 1 << 63;
/// A merged entry's case is below this, which keeps its word below
/// [`RESTORE_WORD`].
const MERGED_CASES: usize = 0x7E00_0000;
/// [`Frame::word`] of a restore frame; every continuation's is below.
const RESTORE_WORD: u64 = 0xFE00_0000 << 32;
/// [`Frame::word`] of an update frame, less its closure's address.
const UPDATE_TAG: u64 = 0xFF00_0000 << 32;
/// The bits of a merged entry's [`Frame::aux`]: its update frame's
/// closure (a heap of up to 2^36 words, 512 GiB: [`Machine::merge`] is
/// false for a larger `--max-heap`), the height of `as` and the cost
/// centre.
const MERGED_ADDR_BITS: u32 = 36;
const MERGED_AS_BITS: u32 = 8;
const MERGED_CC_BITS: u32 = 20;
const _: () = assert!(MERGED_ADDR_BITS + MERGED_AS_BITS + MERGED_CC_BITS == 64);
/// The bits of a merged entry's [`Frame::aux`] that hold the height of
/// `as` (low half) and the cost centre (high half); the others hold the
/// address, its low [`MERGED_ADDR_LO`] bits in the low half.
const MERGED_AUX: u64 = ((1 << MERGED_AS_BITS) - 1) | (((1 << MERGED_CC_BITS) - 1) << 32);
const MERGED_ADDR_LO: u32 = 32 - MERGED_AS_BITS;

impl Frame {
    #[inline(always)]
    fn cont(case: ExprId, base: usize, as_height: usize, cc: u32) -> Frame {
        debug_assert!(case < 1 << 31 && base <= u32::MAX as usize);
        Frame {
            word: (case as u64) << 32 | base as u64,
            aux: as_height as u64 | (cc as u64) << 32,
        }
    }

    /// Can a merged entry save `as_height` and `cc` (its closure's
    /// address fits when [`Machine::merge`] is set)?
    #[inline(always)]
    fn merged_fits(as_height: usize, cc: u32) -> bool {
        (as_height as u64 | (cc as u64) << 32) & !MERGED_AUX == 0
    }

    /// The continuation for `case` merged with the update frame of the
    /// closure at `update` pushed on it (see "Merged entries"); `case`,
    /// `update`, `as_height` and `cc` fit ([`Machine::merge`],
    /// [`Frame::merged_fits`]).
    #[inline(always)]
    fn merged(case: ExprId, base: usize, update: Addr, as_height: usize, cc: u32) -> Frame {
        debug_assert!((case as usize) < MERGED_CASES && base <= u32::MAX as usize);
        debug_assert!(update < 1 << MERGED_ADDR_BITS && Frame::merged_fits(as_height, cc));
        Frame {
            word: MERGED_WORD | (case as u64) << 32 | base as u64,
            aux: as_height as u64 | (cc as u64) << 32 | Frame::merged_addr_bits(update),
        }
    }

    /// An update frame for the closure at `update`, or a restore frame.
    #[inline(always)]
    fn update_or_restore(update: Option<Addr>, as_height: usize, cc: u32) -> Frame {
        Frame {
            word: match update {
                Some(a) => {
                    debug_assert!(a < 1 << 56, "an address beyond 2^56 words");
                    UPDATE_TAG | a
                }
                None => RESTORE_WORD,
            },
            aux: as_height as u64 | (cc as u64) << 32,
        }
    }

    /// A case continuation, plain or merged (its environment is on the
    /// value stack)?
    #[inline(always)]
    fn is_cont(&self) -> bool {
        self.word < RESTORE_WORD
    }

    /// A plain case continuation (the top entry being one is "`rs` not
    /// empty")?
    #[inline(always)]
    fn is_plain_cont(&self) -> bool {
        self.word < MERGED_WORD
    }

    /// A continuation merged with an update frame?
    #[inline(always)]
    fn is_merged(&self) -> bool {
        self.word.wrapping_sub(MERGED_WORD) < RESTORE_WORD - MERGED_WORD
    }

    /// An update frame, alone or merged?
    #[inline(always)]
    fn is_update(&self) -> bool {
        self.word >= UPDATE_TAG || self.is_merged()
    }

    /// A continuation's case expression (plain or merged).
    #[inline(always)]
    fn case(&self) -> ExprId {
        debug_assert!(self.is_cont());
        (self.word >> 32) as u32 & !(1 << 31)
    }

    /// [`Frame::case`] of a plain continuation (the top entry when `rs` is
    /// not empty), without the merged entry's tag to mask off.
    #[inline(always)]
    fn cont_case(&self) -> ExprId {
        debug_assert!(self.is_plain_cont());
        (self.word >> 32) as u32
    }

    /// A continuation's environment's base in `vals`, the floor of the
    /// entry below it.
    #[inline(always)]
    fn base(&self) -> usize {
        debug_assert!(self.is_cont());
        self.word as u32 as usize
    }

    /// A merged entry's [`Frame::aux`] bits that hold the address `a`.
    #[inline(always)]
    fn merged_addr_bits(a: Addr) -> u64 {
        let lo = a & ((1 << MERGED_ADDR_LO) - 1);
        lo << MERGED_AS_BITS | (a >> MERGED_ADDR_LO) << (32 + MERGED_CC_BITS)
    }

    /// A merged entry's update frame's closure.
    #[inline(always)]
    fn merged_update(&self) -> Addr {
        debug_assert!(self.is_merged());
        let lo = (self.aux as u32 >> MERGED_AS_BITS) as u64;
        lo | (self.aux >> (32 + MERGED_CC_BITS)) << MERGED_ADDR_LO
    }

    /// What [`Frame::aux`] holds of the height of `as` and the cost
    /// centre (its address taken out of a merged entry's).
    #[inline(always)]
    fn saved(&self) -> u64 {
        if self.is_merged() {
            self.aux & MERGED_AUX
        } else {
            self.aux
        }
    }

    /// The height of `as` the entry saves.
    #[inline(always)]
    fn as_height(&self) -> usize {
        self.saved() as u32 as usize
    }

    /// The cost centre the entry restores.
    #[inline(always)]
    fn cc(&self) -> u32 {
        (self.saved() >> 32) as u32
    }

    /// [`Frame::as_height`] of a plain continuation (the top entry when
    /// `rs` is not empty), without the test for a merged entry.
    #[inline(always)]
    fn cont_as_height(&self) -> usize {
        debug_assert!(self.is_plain_cont());
        self.aux as u32 as usize
    }

    /// [`Frame::cc`] of a plain continuation.
    #[inline(always)]
    fn cont_cc(&self) -> u32 {
        debug_assert!(self.is_plain_cont());
        (self.aux >> 32) as u32
    }

    /// An update frame's closure, alone or merged.
    #[inline(always)]
    fn update(&self) -> Option<Addr> {
        if self.word >= UPDATE_TAG {
            Some(self.word - UPDATE_TAG)
        } else if self.is_merged() {
            Some(self.merged_update())
        } else {
            None
        }
    }

    /// Make an update frame's closure `a` (the collector moved it; a
    /// merged entry's fits, as every address does when merging is on).
    #[inline(always)]
    fn set_update(&mut self, a: Addr) {
        debug_assert!(self.is_update() && a < 1 << 56);
        if self.is_merged() {
            debug_assert!(a < 1 << MERGED_ADDR_BITS);
            self.aux = self.aux & MERGED_AUX | Frame::merged_addr_bits(a);
        } else {
            self.word = UPDATE_TAG | a;
        }
    }

    /// A merged entry's continuation alone: what is left when its update
    /// frame is popped.
    #[inline(always)]
    fn unmerged(&self) -> Frame {
        debug_assert!(self.is_merged());
        Frame {
            word: self.word & !MERGED_WORD,
            aux: self.aux & MERGED_AUX,
        }
    }

    /// A continuation's floor while it (or, merged, its update frame) is
    /// the top entry (see "Floors" above), `keep` being its case's
    /// [`live::Liveness::keep`].
    #[inline(always)]
    fn cont_floor(&self, keep: u32) -> usize {
        self.base() + keep as usize
    }
}

/// The words `--max-stack` counts for a continuation besides its
/// environment (whole, though it saves only some of its slots: its case's
/// `env_len`), and for an update or restore frame; the reference engine
/// counts the same.
const CONT_WORDS: usize = 3;
const FRAME_WORDS: usize = 4;

/// [`Machine::at`] names a lambda. (Every expression's id is below it,
/// which a continuation's [`Frame::word`] relies on too.)
const AT_LAMBDA: u32 = 1 << 31;

/// The largest stack height a frame may record (see [`Machine::check_stack`]):
/// with the slack for the environments opened between two checks, a
/// continuation's base stays below 2^32, the low half of its word. (The
/// value is the one from when the base was in the high half, below
/// [`RESTORE_WORD`]'s: `--max-stack` reaches as far as it did.)
const MAX_HEIGHT: usize = 0xFD00_0000;

/// Everything the collector must see.
struct St {
    ctl: Ctl,
    vals: ValueStack,
    fields: Vec<Value>,
    args: Vec<Value>,
    /// The control stack: continuations and frames.
    cs: Vec<Frame>,
    printer: ResultPrinter,
    /// Which environment slots are live (`live.rs`).
    live: live::Liveness,
    /// The current environment's place in `vals`, `(base, len)`, and
    /// the floor (`Machine::top_floor`): the machine sets them before it
    /// asks for a collection.
    env: (usize, usize),
    floor: usize,
    /// The lowest height of `cs` since the last visit of the roots (the
    /// pops lower it), and the current environment's base then: what lies
    /// below is unchanged since ([`St::since_last_visit`]).
    cs_low: usize,
    env_base_at_gc: usize,
    /// The floor while `cs[cs_low - 1]` is the top entry (set with
    /// `cs_low`), which is what an update or restore frame there saves of
    /// `vals` (a frame does not hold it: "Floors" at [`Frame`]).
    floor_low: usize,
    /// The slots of `vals` and the update frames of `cs` (their indices,
    /// ascending) that the last visit left pointing into the young
    /// generation, below `young_end` ([`crate::gc::Heap::young_end`]): to
    /// closures the last collection aged, which the next one moves again
    /// ([`St::visit_young_roots`]).
    young_vals: Vec<u32>,
    young_frames: Vec<u32>,
    young_end: Addr,
    /// Set by [`St::visit_but_updatees`] for [`St::visit_updatees`]: the
    /// first update frame whose closure it hands over (0: all of them),
    /// and `cs_low` at that visit (none below it is left young).
    frames_from: usize,
    frames_low: usize,
}

impl St {
    /// Clear the dead slots of the environments in `vals`, so that the
    /// collector keeps alive what the reference engine's environments
    /// hold: each continuation's saved slots, and in `Eval` of `e` the
    /// slots live in `e` (see `live.rs`).
    /// Only the environments that reach above `vals` height `low` are
    /// looked at (environment bases grow with the control stack's height:
    /// one below `low` ends by `low`).
    fn restrict_envs_from(&mut self, low: usize) {
        let eval = match self.ctl {
            Ctl::Eval(e) => Some(e),
            _ => None,
        };
        let (env_base, env_len) = self.env;
        let vals = self.vals.as_mut_slice();
        let top = vals.len();
        let last = self.cs.len().wrapping_sub(1);
        // One pass down from the top, until the first continuation whose
        // environment ends by `low`: every one below it does too. (The
        // order does not matter: each restriction only clears slots.)
        for (i, fr) in self.cs.iter().enumerate().rev() {
            if !fr.is_cont() {
                continue;
            }
            // Only the slots it keeps: those above are the environments
            // opened since (its saved slots are all below `keep`).
            let floor = fr.cont_floor(self.live.keep(fr.case()));
            if floor <= low {
                break;
            }
            let base = fr.base();
            // An atom-only scrutinee runs in its continuation's frame: in
            // `Eval` of it the frame is the current environment, restricted
            // below (it holds all the continuation saves).
            if i == last && eval.is_some() && base == env_base && fr.is_plain_cont() {
                continue;
            }
            let end = floor.min(top);
            if base < end {
                let node = self.live.saves(fr.case());
                self.live.restrict(node, &mut vals[base..end]);
            }
        }
        if let Some(e) = eval {
            let end = (env_base + env_len).min(top);
            if env_base < end && end > low {
                let node = self.live.scope(e);
                self.live.restrict(node, &mut vals[env_base..end]);
            }
        }
    }
}

impl St {
    /// Where the roots written since the last visit begin: the control
    /// stack's entries from the lowest height it had since (`cs_low`,
    /// kept by the pops), and `vals` from the environment the entry below
    /// them holds (a continuation's, or what an update or restore frame
    /// saved) or the one current at the last visit, whichever is lower.
    /// Below that, no environment has been current since (environment
    /// bases grow with the control stack's height, and an environment is
    /// current again only when its continuation is popped), so no slot
    /// there was written, and every environment there was restricted by
    /// the last visit or one before. Returns `(vals height, cs height)`.
    fn since_last_visit(&self) -> (usize, usize) {
        let cs_low = self.cs_low.min(self.cs.len());
        let low = match cs_low.checked_sub(1) {
            Some(i) => {
                let fr = &self.cs[i];
                let saved = if fr.is_cont() {
                    fr.base()
                } else {
                    self.floor_low
                };
                saved.min(self.env_base_at_gc)
            }
            None => 0,
        };
        (low.min(self.vals.len()), cs_low)
    }

    /// Hand over the roots: with `all`, every one; without, those written
    /// since the last visit and those the last visit left pointing into
    /// the young generation (`young_vals`, `young_frames`). Either way
    /// only the environments written since are restricted (the others
    /// were, and their live slots have not changed), and afterwards the
    /// roots that point into the young generation are noted for the next
    /// visit. Only the roots written since can point there: every older
    /// one pointed to an old or aged closure, and a collection leaves an
    /// old one old and promotes an aged one (see
    /// [`Roots::visit_young_roots`]); so a major collection's visit, too,
    /// looks for young roots only among those written since, not in the
    /// whole of a deep stack.
    fn visit(&mut self, all: bool, f: &mut dyn FnMut(&mut [Value])) {
        self.visit_but_updatees(all, f);
        self.visit_updatees(f);
    }

    /// [`St::visit`] but the update frames' closures, which
    /// [`St::visit_updatees`] hands over next.
    fn visit_but_updatees(&mut self, all: bool, f: &mut dyn FnMut(&mut [Value])) {
        let (low, cs_low) = self.since_last_visit();
        if let Ctl::Enter(v) = &mut self.ctl {
            f(std::slice::from_mut(v));
        }
        self.restrict_envs_from(low);
        let young_end = self.young_end;
        let is_young = |v: &Value| matches!(*v, Value::Ptr(a) if a < young_end);
        let vals = self.vals.as_mut_slice();
        let mut run = Vec::new();
        if all {
            f(vals);
            self.young_vals.clear();
        } else {
            // The older slots left pointing young, below `low` (those
            // above are handed over with the rest): in one run, each kept
            // for the next visit if it still points young.
            let below = self.young_vals.partition_point(|&i| (i as usize) < low);
            self.young_vals.truncate(below);
            run.extend(self.young_vals.iter().map(|&i| vals[i as usize]));
            f(&mut run);
            let mut kept = 0;
            for (k, v) in run.iter().enumerate() {
                let i = self.young_vals[k];
                vals[i as usize] = *v;
                if is_young(v) {
                    self.young_vals[kept] = i;
                    kept += 1;
                }
            }
            self.young_vals.truncate(kept);
            f(&mut vals[low..]);
        }
        for (i, v) in vals.iter().enumerate().skip(low) {
            if is_young(v) {
                self.young_vals.push(i as u32);
            }
        }
        // Returned fields are live only while they are being returned (a
        // stale buffer would keep garbage alive that the reference engine
        // drops).
        if let Ctl::RetCon(_) = self.ctl {
            f(&mut self.fields);
        }
        f(&mut self.args);
        self.printer.roots(f);
        // The update frames' closures are next ([`St::visit_updatees`]),
        // and the visit after this one starts from here.
        self.frames_from = if all { 0 } else { cs_low };
        self.frames_low = cs_low;
        self.cs_low = self.cs.len();
        self.floor_low = self.floor;
        self.env_base_at_gc = self.env.0;
    }

    /// The update frames' closures the last [`St::visit_but_updatees`]
    /// left out: the older frames left pointing young, in one run, then
    /// those pushed since that visit's last one (or all) in runs of at
    /// most `FRAME_RUN` frames, each put back in the same order (the
    /// collector sees the same closures in the same order as in one run;
    /// a deep stack's run takes no vector of its size).
    fn visit_updatees(&mut self, f: &mut dyn FnMut(&mut [Value])) {
        let (from, cs_low) = (self.frames_from, self.frames_low);
        let young_end = self.young_end;
        let mut run = Vec::new();
        let older = self.young_frames.partition_point(|&i| (i as usize) < from);
        self.young_frames.truncate(older);
        let older = std::mem::take(&mut self.young_frames);
        for &i in &older {
            run.extend(self.cs[i as usize].update().map(Value::Ptr));
        }
        f(&mut run);
        let mut moved = run.iter();
        for &i in &older {
            let fr = &mut self.cs[i as usize];
            if fr.is_update() && put_back(fr, moved.next(), young_end) {
                self.young_frames.push(i);
            }
        }
        // Below `cs_low` (a major collection's older frames), none is
        // left young.
        let at = cs_low.max(from);
        let young_frames = &mut self.young_frames;
        visit_update_frames(&mut self.cs, from, &mut run, f, young_end, |i| {
            debug_assert!(i >= at, "an older update frame left young");
            young_frames.push(i as u32);
        });
    }
}

/// The most update frames [`St::visit`] hands to the collector in one run.
const FRAME_RUN: usize = 4096;

/// Hand the collector the closures of the update frames `cs[from..]`, in
/// runs of at most [`FRAME_RUN`] frames (`run` the buffer), each put
/// back in the same order (the collector sees the same closures in the
/// same order as in one run; a deep stack's run takes no vector of its
/// size); `young(i)` for each frame `i` left pointing below `young_end`.
fn visit_update_frames(
    cs: &mut [Frame],
    from: usize,
    run: &mut Vec<Value>,
    f: &mut dyn FnMut(&mut [Value]),
    young_end: Addr,
    mut young: impl FnMut(usize),
) {
    let mut start = from;
    while start < cs.len() {
        let end = (start + FRAME_RUN).min(cs.len());
        let frames = &mut cs[start..end];
        run.clear();
        run.reserve(frames.len());
        for fr in frames.iter() {
            if let Some(a) = fr.update() {
                // SAFETY: `reserve` made room for one value a frame.
                unsafe {
                    let n = run.len();
                    run.as_mut_ptr().add(n).write(Value::Ptr(a));
                    run.set_len(n + 1);
                }
            }
        }
        f(run);
        // Put back: the `k`th update frame's closure is `run[k]` (the
        // collector keeps a run's length).
        let mut moved = run.iter();
        for (k, fr) in frames.iter_mut().enumerate() {
            if fr.is_update()
                && let Some(&Value::Ptr(b)) = moved.next()
            {
                fr.set_update(b);
                if b < young_end {
                    young(start + k);
                }
            }
        }
        start = end;
    }
}

/// Put the update frame `fr`'s closure back as the collector moved it
/// (`moved`, its entry in the run handed over); whether it now points
/// into the young generation (below `young_end`).
#[inline(always)]
fn put_back(fr: &mut Frame, moved: Option<&Value>, young_end: Addr) -> bool {
    match moved {
        Some(&Value::Ptr(b)) => {
            fr.set_update(b);
            b < young_end
        }
        _ => false,
    }
}

impl Roots for St {
    fn visit_roots(&mut self, f: &mut dyn FnMut(&mut [Value])) {
        self.visit(true, f);
    }

    /// What may have changed since the last visit
    /// ([`St::since_last_visit`]), and the older roots the last visit
    /// left pointing into the young generation: those point to closures
    /// it aged, which this collection moves again. Every other root
    /// points to the old generation: it pointed to an old or aged closure
    /// at the last visit, and an aged one is promoted by the collection
    /// after its aging (the collector does not short-circuit an
    /// indirection it promotes into a closure it ages).
    fn visit_young_roots(&mut self, f: &mut dyn FnMut(&mut [Value])) {
        self.visit(false, f);
    }

    fn visit_roots_but_updatees(&mut self, young: bool, f: &mut dyn FnMut(&mut [Value])) -> bool {
        self.visit_but_updatees(!young, f);
        true
    }

    fn visit_updatees(&mut self, f: &mut dyn FnMut(&mut [Value])) {
        St::visit_updatees(self, f);
    }

    /// Every root, as [`St::visit`] with `all` hands them over, but
    /// leaving what it notes for the next visit as it is: the collection
    /// moves only old closures within the old generation, so every root
    /// keeps pointing where it did, young or old. (It comes right after
    /// a minor collection's visit, so no environment was written since:
    /// there is none to restrict.)
    fn visit_roots_in_place(&mut self, f: &mut dyn FnMut(&mut [Value])) {
        if let Ctl::Enter(v) = &mut self.ctl {
            f(std::slice::from_mut(v));
        }
        f(self.vals.as_mut_slice());
        if let Ctl::RetCon(_) = self.ctl {
            f(&mut self.fields);
        }
        f(&mut self.args);
        // (No frame is noted: which point young does not change.)
        visit_update_frames(&mut self.cs, 0, &mut Vec::new(), f, 0, |_| {});
        self.printer.roots(f);
    }
}

/// A lambda's layout, precomputed.
#[derive(Clone, Copy, Debug)]
struct Lam {
    nfree: u32,
    arity: u32,
    /// Environment size when entered as a function (rule 2).
    fun_env: u32,
    /// Environment size when entered as a thunk (15, 15′).
    thunk_env: u32,
    body: ExprId,
    /// 0 reentrant, 1 updatable, 2 single-entry.
    kind: u8,
}

/// Tables compiled once from [`Code`].
struct Prepared {
    lams: Vec<Lam>,
    /// Words a `let` expression allocates (0 for other expressions).
    let_words: Vec<u32>,
}

impl Prepared {
    fn new(code: &Code) -> Prepared {
        let lams = code
            .lambdas
            .iter()
            .map(|l| {
                let nfree = l.free.len() as u32;
                Lam {
                    nfree,
                    arity: l.arity,
                    fun_env: l.slots.max(nfree + l.arity),
                    thunk_env: l.slots.max(nfree),
                    body: l.body,
                    kind: match l.flag {
                        Flag::Updatable => 1,
                        Flag::SingleEntry => 2,
                        Flag::Reentrant | Flag::NonUpdatable => 0,
                    },
                }
            })
            .collect();
        let let_words = code
            .exprs
            .iter()
            .map(|e| match &e.code {
                ExprCode::Let { binds, .. } => binds
                    .iter()
                    .map(|b| {
                        closure_words(
                            code.lambdas
                                .get(b.lambda as usize)
                                .map_or(0, |l| l.free.len()),
                        )
                    })
                    .sum::<usize>() as u32,
                _ => 0,
            })
            .collect();
        Prepared { lams, let_words }
    }
}

/// The fast engine's machine. `PROF`: it counts a profile; `BIO`: it
/// notes each use of a closure in the heap's biographies (only with
/// `PROF`, and exactly when the heap keeps them: [`Machine::new`] checks).
pub struct Machine<'a, const PROF: bool, const BIO: bool> {
    code: &'a Code,
    p: Prepared,
    /// The compiled program the op loop runs.
    k: compile::Compiled,
    /// The constant area's height (`vals[..const_top]`: the globals, then
    /// the literals; see `compile.rs`): the lowest floor.
    const_top: usize,
    /// `vals[..nglobals]` are the globals.
    nglobals: usize,
    sources: &'a SourceMap,
    heap: Heap,
    s: St,
    /// The control stack's top entry, kept at each push
    /// ([`Machine::push_frame`], [`Machine::push_cont_frame`]) and pop
    /// ([`Machine::retop_after_pop`]): is it a case continuation, the
    /// height of `vals` below which environments are live (the floor),
    /// and the argument-stack height it saved.
    top_cont: bool,
    top_floor: usize,
    top_as: usize,
    /// The current environment: `vals[env_base..env_base + env_len]`.
    env_base: usize,
    env_len: usize,
    cc: u32,
    mode: CostCentreMode,
    acct: Accounting,
    /// The entry accruing ticks since `tick_mark` (see the module doc).
    tick_cc: u32,
    tick_mark: u64,
    /// Tail calls and words accrued by `tick_cc` since `tick_mark`: rules
    /// 1, 3, 6–8, 11–13 run with `tick_cc == cc` (a return first ends any
    /// row of pops), and 16/17a charge the row's entry, which is `tick_cc`.
    /// (Words first, as in `Counters`, so that a charge adds both in one
    /// vector addition.)
    pend_words: u64,
    pend_calls: u64,
    /// `--clock=cycles`: ticks are counter cycles since `last_tsc`, minus
    /// the collector's time since `last_gc`.
    cycles: bool,
    last_tsc: u64,
    last_gc: std::time::Duration,
    tsc_hz: u64,
    tsc_overhead: u64,
    main_entry: u32,
    /// The heap profile's censuses (`--heap-profile`), written as taken.
    heap_profile: Option<HeapProfiler<'a>>,
    heap_interval: u64,
    /// Step of the next census (`u64::MAX` without heap profiling).
    next_census: u64,
    /// Ctrl-C: the flag and the step of its next look.
    interrupt: common::Interrupt,
    /// The first of `next_census` and `interrupt.next`: the loop head's one
    /// compare for both (and, with the step limit, the op loop's bound).
    next_event: u64,
    steps: u64,
    limit: u64,
    max_steps: Option<u64>,
    /// `--max-stack` in slots of 16 bytes (see [`Machine::stack_words`]).
    max_stack_words: u64,
    /// The stacks' room: words (as `--max-stack` counts them) up to
    /// which the stacks have their memory reserved, so that no push grows
    /// a vector (at most `max_stack_words`; [`Machine::grow_stacks`]).
    room_words: u64,
    /// The op loop's stack bound: `room_words`, lowered if needed so that
    /// under it no height a frame records can pass [`MAX_HEIGHT`] (see
    /// `threaded.rs`, `Machine::fits`).
    op_stack_words: u64,
    /// `--max-stack` or its default.
    max_stack: memory_limit::Limit,
    /// The words of the control stack, as `--max-stack` counts them.
    cs_words: usize,
    /// May a continuation and an update frame pushed together be one
    /// merged entry (see "Merged entries" at [`Frame`])? Every address
    /// the heap can hand out, and every case, fit one.
    merge: bool,
    gc_stress: bool,
    /// Where the machine is, for the span errors name: the expression
    /// last evaluated, or ([`AT_LAMBDA`] set) the lambda whose body a
    /// thunk entry began.
    at: u32,
    scratch: Vec<Value>,
    started: Instant,
    /// The thread's CPU clock when the run began.
    started_cpu: Duration,
    /// `RunOptions::final_collection`.
    final_collection: bool,
}

/// The value of `v` in the environment `vals[base..base + len]`, the
/// globals being `vals[..nglobals]` (slots out of range, which lowering
/// never produces, read as `0#`).
#[inline(always)]
fn read_var(vals: &ValueStack, base: usize, len: usize, nglobals: usize, v: VarRef) -> Value {
    match v {
        VarRef::Local(i) if (i as usize) < len => vals[base + i as usize],
        VarRef::Local(_) => Value::Int(0),
        VarRef::Global(g) if (g as usize) < nglobals => vals[g as usize],
        VarRef::Global(_) => Value::Int(0),
    }
}

#[inline(always)]
fn read_atom(vals: &ValueStack, base: usize, len: usize, nglobals: usize, a: AtomCode) -> Value {
    match a {
        AtomCode::Var(v) => read_var(vals, base, len, nglobals, v),
        AtomCode::Lit(k) => Value::Int(k),
    }
}

fn desc_value(code: &Code, c: ConId, ws: &[Value]) -> String {
    let mut s = code.con_name(c).to_string();
    for w in ws {
        match w {
            Value::Int(k) => s.push_str(&format!(" {k}#")),
            Value::Ptr(_) => s.push_str(" _"),
        }
    }
    s
}

impl<'a, const PROF: bool, const BIO: bool> Machine<'a, PROF, BIO> {
    /// Note a use of the closure at `a` in its biography: only the build
    /// for heap profiles by biography has any code here.
    #[inline(always)]
    fn note_use(&mut self, a: Addr) {
        if BIO {
            self.heap.used(a);
        }
    }

    /// This machine with `heap_profile` taking its censuses instead of the
    /// one kept in memory that [`Machine::new`] makes when
    /// `RunOptions::heap_profile` asks for one.
    pub fn with_heap_profiler(mut self, heap_profile: Option<HeapProfiler<'a>>) -> Self {
        self.heap_profile = heap_profile;
        self
    }

    pub fn new(
        code: &'a Code,
        sources: &'a SourceMap,
        options: &RunOptions,
    ) -> Machine<'a, PROF, BIO> {
        let heap_profile = crate::machine::heap_profiler(options, None);
        let acct = Accounting::new(options.cost_centres);
        let main_entry = acct.main_entry;
        let interrupt = common::Interrupt::new(options.interrupt);
        let heap = common::new_heap(options);
        // After the heap: its default leaves out the heap's reservation.
        let max_stack = memory_limit::stack_limit(options.max_stack);
        assert!(
            BIO == heap.keeps_biographies() && (PROF || !BIO),
            "the fast engine's build notes biographies exactly when its heap keeps them"
        );
        let merge = heap.address_end() <= 1 << MERGED_ADDR_BITS && code.exprs.len() <= MERGED_CASES;
        Machine {
            code,
            p: Prepared::new(code),
            k: compile::compile(code, options.cost_centres == CostCentreMode::Stacks),
            const_top: 0,
            nglobals: code.globals.len(),
            sources,
            s: St {
                ctl: Ctl::Eval(code.main_app),
                vals: ValueStack::with_capacity(1024),
                fields: Vec::with_capacity(16),
                args: Vec::with_capacity(1024),
                cs: Vec::with_capacity(1024),
                printer: ResultPrinter::default(),
                live: live::Liveness::new(code),
                env: (0, 0),
                floor: 0,
                cs_low: 0,
                floor_low: 0,
                env_base_at_gc: 0,
                young_vals: Vec::new(),
                young_frames: Vec::new(),
                young_end: heap.young_end(),
                frames_from: 0,
                frames_low: 0,
            },
            heap,
            top_cont: false,
            top_floor: 0,
            top_as: 0,
            env_base: 0,
            env_len: 0,
            cc: main_entry,
            mode: options.cost_centres,
            acct,
            tick_cc: main_entry,
            tick_mark: 0,
            pend_calls: 0,
            pend_words: 0,
            cycles: options.clock == Clock::Cycles && PROF,
            last_tsc: 0,
            last_gc: std::time::Duration::ZERO,
            tsc_hz: 0,
            tsc_overhead: 0,
            main_entry,
            heap_profile,
            heap_interval: if options.heap_interval == 0 {
                100_000
            } else {
                options.heap_interval
            },
            next_census: u64::MAX,
            interrupt,
            // No census is due before `run_inner` takes the first one.
            next_event: interrupt.next,
            steps: 0,
            limit: options.max_steps.unwrap_or(u64::MAX),
            max_steps: options.max_steps,
            // A slot of the stacks is a value's 16 bytes (see `stack_words`).
            max_stack_words: max_stack.bytes / 16,
            room_words: 0,
            op_stack_words: 0,
            max_stack,
            cs_words: 0,
            merge,
            gc_stress: options.gc_stress,
            at: code.main_app,
            scratch: Vec::new(),
            started: Instant::now(),
            started_cpu: Duration::ZERO,
            final_collection: options.final_collection,
        }
    }

    // ----- helpers -------------------------------------------------------

    #[inline]
    fn ctr(&mut self, e: u32) -> &mut Counters {
        self.acct.ctr(e)
    }

    /// Make `e` the entry that accrues ticks, charging the ticks so far.
    #[inline]
    fn switch(&mut self, e: u32) {
        if !PROF {
            // Nothing accrues: the entry only is kept (for rule 16's
            // closures and the errors), with no compare.
            self.tick_cc = e;
        } else if self.tick_cc != e {
            self.flush();
            self.tick_cc = e;
        }
    }

    /// Charge what `tick_cc` has accrued: ticks since `tick_mark`, pending
    /// tail calls and words. (Without profiling, nothing accrues.) Inline:
    /// with many cost centres (`--auto-cc=all`) the entry changes every few
    /// steps, and a call spilled and restored more registers than the
    /// charge itself takes (docs/PERFORMANCE.md, "Cheap stacks mode").
    #[inline(always)]
    fn flush(&mut self) {
        if PROF {
            let n = if self.cycles {
                self.cycles_since_last()
            } else {
                self.steps - self.tick_mark
            };
            let (calls, words) = (self.pend_calls, self.pend_words);
            let c = self.ctr(self.tick_cc);
            c.ticks += n;
            c.tail_calls += calls;
            c.words += words;
            self.tick_mark = self.steps;
            self.pend_calls = 0;
            self.pend_words = 0;
        }
    }

    /// Counter cycles since the last reading, less the collections since.
    #[inline(never)]
    fn cycles_since_last(&mut self) -> u64 {
        let now = read_tsc();
        let mut n = now.wrapping_sub(self.last_tsc);
        self.last_tsc = now;
        let gc = self.heap.stats.gc_time;
        if gc > self.last_gc {
            let gc_cycles = (gc - self.last_gc).as_secs_f64() * self.tsc_hz as f64;
            n = n.saturating_sub(gc_cycles as u64);
            self.last_gc = gc;
        }
        n
    }

    /// Measure the counter's frequency (against the monotonic clock, over
    /// 20 ms) and the cost of 1000 profiling events (a reading and a
    /// charge each), in counter ticks.
    fn calibrate_cycles(&mut self) {
        let t0 = Instant::now();
        let c0 = read_tsc();
        while t0.elapsed() < std::time::Duration::from_millis(20) {
            std::hint::spin_loop();
        }
        let c1 = read_tsc();
        let secs = t0.elapsed().as_secs_f64();
        self.tsc_hz = (c1.wrapping_sub(c0) as f64 / secs) as u64;
        let mut sink = Counters::default();
        let mut last = read_tsc();
        let start = last;
        for _ in 0..1000 {
            let now = read_tsc();
            sink.ticks += std::hint::black_box(now.wrapping_sub(last));
            last = now;
        }
        std::hint::black_box(sink);
        self.tsc_overhead = read_tsc().wrapping_sub(start);
        self.last_tsc = read_tsc();
        self.last_gc = self.heap.stats.gc_time;
    }

    fn cc_name(&self, e: u32) -> String {
        self.acct.name(e, &self.code.cost_centres)
    }

    #[cold]
    fn error(&self, kind: ErrorKind, rule: &'static str, span: Option<Span>) -> RuntimeError {
        let at = span.unwrap_or_else(|| self.span());
        // The control stack, innermost first.
        // (A merged entry is its update frame, then its continuation.)
        let awaiting = self.s.cs.iter().rev().flat_map(|f| {
            let thunk = f.update().map(common::Awaiting::Thunk);
            let case = f.is_cont().then(|| common::Awaiting::Case(f.case()));
            thunk.into_iter().chain(case)
        });
        RuntimeError {
            kind,
            rule,
            cost_centre: self.cc_name(self.cc).into(),
            location: common::location(self.sources, at),
            context: common::context(self.code, self.sources, &self.heap, at, awaiting),
            step: self.steps,
        }
    }

    /// The span of [`Machine::at`].
    fn span(&self) -> Span {
        if self.at & AT_LAMBDA != 0 {
            self.code
                .lambdas
                .get((self.at & !AT_LAMBDA) as usize)
                .map_or(Span::default(), |l| l.span)
        } else {
            self.code
                .exprs
                .get(self.at as usize)
                .map_or(Span::default(), |e| e.span)
        }
    }

    #[cold]
    fn step_limit(&self, rule: &'static str) -> RuntimeError {
        self.error(
            ErrorKind::StepLimit {
                limit: self.max_steps.unwrap_or(self.limit),
            },
            rule,
            self.here(),
        )
    }

    /// Where a limit stops the machine, before a rule fires: the expression
    /// it is about to evaluate (`None` elsewhere: [`Machine::at`]).
    fn here(&self) -> Option<Span> {
        match self.s.ctl {
            Ctl::Eval(e) => self.code.exprs.get(e as usize).map(|n| n.span),
            _ => None,
        }
    }

    #[inline]
    fn reserve(&mut self, words: usize, rule: &'static str) -> Result<(), RuntimeError> {
        self.s.env = (self.env_base, self.env_len);
        self.s.floor = self.top_floor;
        match self.heap.reserve(words, self.gc_stress, &mut self.s) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.error(common::heap_limit(&self.heap, Some(e)), rule, None)),
        }
    }

    #[inline]
    fn alloc(
        &mut self,
        info: Info,
        cc: u32,
        payload: &[Value],
        rule: &'static str,
    ) -> Result<Addr, RuntimeError> {
        match self.heap.alloc(info, cc, payload) {
            Some(a) => Ok(a),
            None => Err(self.heap_full(rule)),
        }
    }

    /// An allocation found no room (after [`Machine::reserve`] made it,
    /// which cannot happen).
    #[cold]
    fn heap_full(&self, rule: &'static str) -> RuntimeError {
        self.error(common::heap_limit(&self.heap, None), rule, None)
    }

    #[inline]
    fn lookup(&self, v: VarRef) -> Value {
        read_var(&self.s.vals, self.env_base, self.env_len, self.nglobals, v)
    }

    #[inline]
    fn atom(&self, a: AtomCode) -> Value {
        read_atom(&self.s.vals, self.env_base, self.env_len, self.nglobals, a)
    }

    /// Set the returned constructor fields to `args` read in the current
    /// environment.
    #[inline]
    fn load_fields(&mut self, args: &[AtomCode]) {
        let (vals, nglobals) = (&self.s.vals, self.nglobals);
        let (base, len) = (self.env_base, self.env_len);
        let fields = &mut self.s.fields;
        fields.clear();
        for a in args {
            fields.push(read_atom(vals, base, len, nglobals, *a));
        }
    }

    /// The (up to two) `Int#` operands of a primitive operation; `None` if
    /// one is a closure.
    #[inline]
    fn int_args(&self, args: &[AtomCode]) -> Option<[i64; 2]> {
        let mut xs = [0i64; 2];
        for (x, a) in xs.iter_mut().zip(args) {
            match self.atom(*a) {
                Value::Int(k) => *x = k,
                Value::Ptr(_) => return None,
            }
        }
        Some(xs)
    }

    #[inline]
    fn set_slot(&mut self, slot: u32, v: Value) {
        if (slot as usize) < self.env_len {
            self.s.vals[self.env_base + slot as usize] = v;
        }
    }

    /// Recompute the cached top (`top_cont`, `top_floor`, `top_as`) from
    /// the control stack's top entry, after the entry above it was
    /// popped, `floor` being the new top's floor: a popped continuation's
    /// `base`, or the floor as it was for a popped frame (see "Floors" at
    /// [`Frame`]).
    #[inline(always)]
    fn retop_after_pop(&mut self, floor: usize) {
        self.top_floor = floor;
        match self.s.cs.last() {
            Some(f) => {
                self.top_cont = f.is_plain_cont();
                self.top_as = f.as_height();
            }
            None => {
                self.top_cont = false;
                self.top_as = 0;
            }
        }
        debug_assert!(self.floor_of(self.s.cs.len()).is_none_or(|fl| fl == floor));
    }

    /// For debug checks: the floor while `cs[..height]` is the control
    /// stack, found from the nearest continuation below (`None` past 64
    /// frames, which the checks do not walk).
    fn floor_of(&self, height: usize) -> Option<usize> {
        for f in self.s.cs[..height].iter().rev().take(64) {
            if f.is_cont() {
                return Some(f.cont_floor(self.s.live.keep(f.case())));
            }
        }
        (height <= 64).then_some(self.const_top)
    }

    /// Push an update or restore frame, which becomes the top; it leaves
    /// the floor as it is.
    #[inline(always)]
    fn push_frame(&mut self, f: Frame) {
        debug_assert!(!f.is_cont());
        debug_assert!(
            self.floor_of(self.s.cs.len())
                .is_none_or(|fl| fl == self.top_floor)
        );
        self.cs_words += FRAME_WORDS;
        self.top_cont = false;
        self.top_as = f.as_height();
        self.s.cs.push(f);
    }

    /// The top entry, an update or restore frame, when `rs` is empty (the
    /// top is not a continuation); `None` when the control stack is empty.
    #[inline(always)]
    fn top_frame(&self) -> Option<Frame> {
        debug_assert!(!self.top_cont);
        self.s.cs.last().copied()
    }

    /// The top entry, a case continuation, when `rs` is not empty.
    #[inline(always)]
    fn top_cont(&self) -> Frame {
        debug_assert!(self.top_cont);
        *self.s.cs.last().expect("rs non-empty")
    }

    #[inline]
    fn rs_nonempty(&self) -> bool {
        self.top_cont
    }

    #[inline]
    fn avail(&self) -> usize {
        self.s.args.len().saturating_sub(self.top_as)
    }

    /// The height of `vals` below which environments are live.
    #[inline]
    fn floor(&self) -> usize {
        self.top_floor
    }

    /// Open a fresh environment of `size` slots at the floor for the
    /// closure at `a`, its first `nfree` slots its first `nfree` payload
    /// words, the others not bound yet; returns the environment's base in
    /// `vals`.
    #[inline(always)]
    fn open_env(&mut self, a: Addr, size: usize, nfree: usize) -> usize {
        let base = self.floor();
        let heap = &self.heap;
        let env = self.s.vals.open(base, size);
        let nfree = nfree.min(size);
        for (i, slot) in env[..nfree].iter_mut().enumerate() {
            *slot = heap.payload(a, i);
        }
        // The arguments go in next; the other slots stay unbound until
        // they are (the collector clears them meanwhile: `live.rs`).
        values::unbound(&mut env[nfree..]);
        self.env_base = base;
        self.env_len = size;
        base
    }

    /// Rule 2 on the function at `a` up to its arguments: open its
    /// environment with the free variables, and in stacks mode append the
    /// stack it captured (a function of arity ≥ 1). Returns the base; the
    /// caller puts the arguments after the free variables.
    #[inline(always)]
    fn open_function_env(&mut self, a: Addr, lam: Lam) -> usize {
        let captured = self.heap.cc(a);
        if PROF {
            self.note_use(a);
        }
        let base = self.open_env(a, lam.fun_env as usize, lam.nfree as usize);
        if lam.arity >= 1 && self.mode == CostCentreMode::Stacks {
            self.cc = self.acct.stacks.append(self.cc, captured);
        }
        base
    }

    /// Outside `Eval` the environments above the floor are dead: drop them
    /// so the collector does not keep what they point to.
    #[inline]
    fn drop_dead_envs(&mut self) {
        let fl = self.floor();
        self.s.vals.truncate(fl);
    }

    /// The stacks' size in slots, as `--max-stack` counts it (both
    /// engines alike): arguments, continuations with their environments
    /// and three slots, four slots an update or restore frame. A slot is
    /// 16 bytes, the size of a [`Value`], so the memory the stacks take
    /// (a value per slot, 16 bytes a frame) stays within the limit.
    #[inline]
    fn stack_words(&self) -> usize {
        self.s.args.len() + self.cs_words
    }

    /// The limits of a rule that pushes `words` on the stacks, checked
    /// before it fires, as the reference engine's `step` checks them: the
    /// step limit, then `--max-stack`. A rule either stops has none of its
    /// effects.
    #[inline]
    fn check_limits(&mut self, rule: &'static str, words: usize) -> Result<(), RuntimeError> {
        if self.steps >= self.limit {
            return Err(self.step_limit(rule));
        }
        self.check_stack(rule, words)
    }

    /// Would the stacks pass `--max-stack` after a rule pushes `words`
    /// more? If not, have they room for them (else make it)?
    #[inline]
    fn check_stack(&mut self, rule: &'static str, words: usize) -> Result<(), RuntimeError> {
        let words = self.stack_words() + words;
        // Frames keep heights as `u32`; the slack covers the environments
        // opened between two checks. (64 GiB of environments: a
        // `--max-stack` this large is out of reach of both engines anyway.)
        let height = self.s.vals.len().max(self.s.args.len());
        if words as u64 > self.room_words || height > MAX_HEIGHT {
            return self.grow_stacks(rule, words as u64, height);
        }
        Ok(())
    }

    /// The stacks would pass their room at `words`: the limit's error if
    /// they would pass `--max-stack` (or a height past [`MAX_HEIGHT`]),
    /// else more room (see [`common::next_stack_room`]), or the error
    /// saying the system would not give the memory for it.
    #[cold]
    #[inline(never)]
    fn grow_stacks(
        &mut self,
        rule: &'static str,
        words: u64,
        height: usize,
    ) -> Result<(), RuntimeError> {
        if words > self.max_stack_words || height > MAX_HEIGHT {
            return Err(self.stack_error(rule));
        }
        let room = common::next_stack_room(self.room_words, words, self.max_stack_words);
        let n = usize::try_from(room).unwrap_or(usize::MAX);
        // `args` holds at most a value a word, `cs` an entry every 3
        // words (a continuation's fewest), `vals` the constant area,
        // the continuations' environments (counted), the current one and
        // the room past its top (`values.rs`).
        let vals = (self.const_top + self.k.max_env + 256).saturating_add(n);
        let reserved = try_reserve_len(&mut self.s.args, n)
            .and_then(|()| try_reserve_len(&mut self.s.cs, n / 3 + 2))
            .and_then(|()| self.s.vals.try_reserve_len(vals));
        if reserved.is_err() {
            return Err(self.error(
                common::stack_memory(self.room_words, &self.max_stack),
                rule,
                self.here(),
            ));
        }
        self.room_words = room;
        self.set_op_stack_words();
        Ok(())
    }

    /// The op loop's stack bound (see `op_stack_words`).
    fn set_op_stack_words(&mut self) {
        let tallest = MAX_HEIGHT.saturating_sub(self.const_top + self.k.max_env);
        self.op_stack_words = self.room_words.min(tallest as u64);
    }

    // ----- rules shared by the rule loop and the op loop ----------------

    /// Pop the top case continuation and resume in its environment: count
    /// the return (to the entry current before it), restore its cost centre.
    #[inline]
    fn return_to(&mut self, cont: Frame) {
        let len = self.s.cs.len() - 1;
        // (Or the merged entry whose update frame `ret_con` popped.)
        debug_assert!(self.s.cs[len].word & !MERGED_WORD == cont.word && cont.is_plain_cont());
        self.s.cs.truncate(len);
        let base = cont.base();
        if len < self.s.cs_low {
            self.s.cs_low = len;
            self.s.floor_low = base;
        }
        self.retop_after_pop(base);
        let env_len = self.cont_len(cont);
        self.cs_words -= env_len + CONT_WORDS;
        if PROF {
            self.pend_calls += 1;
        }
        self.cc = cont.cont_cc();
        self.at = cont.cont_case();
        self.env_base = base;
        self.env_len = env_len;
        // The top back at the environment's end: the slots above what it
        // kept are dead, and the alternative binds before it reads them.
        self.s.vals.reopen(base + env_len);
    }

    /// A continuation's alternatives: its case's `case_alts` (`NONE`, or
    /// verified alternatives).
    #[inline(always)]
    fn cont_alts(&self, cont: Frame) -> u32 {
        // SAFETY: a continuation's case is an expression of the program
        // (`push_cont`'s contract, and `case_enter_thunk`'s), and
        // `case_alts` has one entry per expression (`Compiled::verify`).
        unsafe { self.k.case_alts(cont.cont_case()) }
    }

    /// A continuation's environment's length: its case's `env_len`, the
    /// length of the environment it was pushed in (a case runs in its
    /// lambda's environment of `slots` values, or a copy of it).
    #[inline(always)]
    fn cont_len(&self, cont: Frame) -> usize {
        // SAFETY: as in `cont_alts`; `case_env_len` has one entry per
        // expression too (`Compiled::verify`).
        unsafe { self.k.case_env_len(cont.cont_case()) as usize }
    }

    /// Push the case continuation of rule 4 for the case `e` (no step).
    ///
    /// # Safety
    /// `e` is an expression of the program (below `code.exprs.len()`).
    #[inline(always)]
    unsafe fn push_cont(&mut self, e: ExprId) {
        self.at = e;
        // SAFETY: `e` is an expression, and `keep` has one entry per
        // expression (`Liveness::new`).
        let keep = unsafe { self.s.live.keep_unchecked(e) };
        let cont = Frame::cont(e, self.env_base, self.s.args.len(), self.cc);
        self.push_cont_frame(cont, keep);
    }

    /// Push the continuation `cont`, which keeps `keep` slots of its
    /// environment, opened at the floor (see "Floors" at [`Frame`]).
    #[inline(always)]
    fn push_cont_frame(&mut self, cont: Frame, keep: u32) {
        debug_assert!(cont.is_plain_cont() && cont.base() == self.top_floor);
        debug_assert_eq!(keep, self.s.live.keep(cont.case()));
        debug_assert_eq!(self.cont_len(cont), self.env_len);
        self.cs_words += self.env_len + CONT_WORDS;
        self.top_cont = true;
        self.top_floor = cont.cont_floor(keep);
        self.top_as = cont.cont_as_height();
        self.s.cs.push(cont);
    }

    /// Push the restore frame of flat mode's rule `scc` (no step).
    #[inline(always)]
    fn push_restore_frame(&mut self) {
        let frame = Frame::update_or_restore(None, self.s.args.len(), self.cc);
        self.push_frame(frame);
    }

    /// Pop the top entry, an update or restore frame, restoring its cost
    /// centre.
    #[inline]
    fn pop_frame(&mut self) -> Frame {
        let f = *self.s.cs.last().expect("selected a pop rule with a frame");
        self.pop_top_frame(f);
        f
    }

    /// [`Machine::pop_frame`] of `f`, the top entry, read already. A
    /// merged entry's update frame leaves its continuation in its place
    /// (see "Merged entries" at [`Frame`]).
    #[inline(always)]
    fn pop_top_frame(&mut self, f: Frame) {
        if f.is_merged() {
            self.pop_merged_frame(f);
            return;
        }
        let len = self.s.cs.len() - 1;
        debug_assert!(self.s.cs[len].word == f.word && !f.is_cont());
        self.s.cs.truncate(len);
        if len < self.s.cs_low {
            self.s.cs_low = len;
            self.s.floor_low = self.top_floor;
        }
        // A frame leaves the floor as it is.
        self.retop_after_pop(self.top_floor);
        self.cs_words -= FRAME_WORDS;
        self.cc = f.cc();
    }

    /// Pop the update frame of `f`, the top entry, a merged one: its
    /// continuation is left in its place, and returned.
    #[inline(always)]
    fn pop_merged_frame(&mut self, f: Frame) -> Frame {
        debug_assert!(self.s.cs.last().is_some_and(|t| t.word == f.word) && f.is_merged());
        let cont = f.unmerged();
        // The continuation's floor and `as` height are the merged entry's.
        self.top_cont = true;
        self.cs_words -= FRAME_WORDS;
        self.cc = cont.cont_cc();
        self.write_unmerged_top();
        cont
    }

    /// Write the continuation of the top entry, a merged one whose update
    /// frame has been popped, in its place.
    #[inline(always)]
    fn write_unmerged_top(&mut self) {
        let len = self.s.cs.len() - 1;
        let cont = self.s.cs[len].unmerged();
        self.s.cs[len] = cont;
        // The entry changed: the collector takes it as pushed since its
        // last visit (the floor while `cs[len - 1]` is the top is the
        // continuation's base).
        if len < self.s.cs_low {
            self.s.cs_low = len;
            self.s.floor_low = cont.base();
        }
    }

    /// Rules 15 and 15′ (the caller checks the limits and counts the step).
    fn enter_thunk(&mut self, a: Addr, lam: Lam, index: LambdaId, update: bool) {
        self.push_frame_enter(a, lam, index, update);
        self.s.ctl = Ctl::Eval(lam.body);
    }

    /// Rules 15 and 15′ up to the stack check: push the frame, open the
    /// thunk's environment, black-hole it, make its cost centre current.
    #[inline(always)]
    fn push_frame_enter(&mut self, a: Addr, lam: Lam, index: LambdaId, update: bool) {
        self.open_env(a, lam.thunk_env as usize, lam.nfree as usize);
        let frame = Frame::update_or_restore(update.then_some(a), self.s.args.len(), self.cc);
        self.push_frame(frame);
        self.enter_opened(a, lam, index, update);
    }

    /// The end of rules 15 and 15′, the frame pushed and the environment
    /// opened: black-hole the thunk at `a` and make its cost centre
    /// current.
    #[inline(always)]
    fn enter_opened(&mut self, a: Addr, lam: Lam, index: LambdaId, update: bool) {
        // `lam` is the closure's lambda, `index` (its info word's index):
        // the info word is `Lambda`, `lam.nfree`, `index`.
        let tag = if update { Tag::BlackHole } else { Tag::Entered };
        if PROF {
            self.note_use(a);
        }
        self.cc = self.heap.blackhole_as(
            a,
            Info {
                tag,
                n: lam.nfree,
                index,
            },
        );
        if PROF {
            let cc = self.cc;
            self.ctr(cc).lazy_calls += 1;
        }
        self.at = AT_LAMBDA | index;
    }

    #[cold]
    fn stack_error(&self, rule: &'static str) -> RuntimeError {
        self.error(
            ErrorKind::StackLimit {
                limit_bytes: self.max_stack.bytes,
                default_of: self.max_stack.default_of.clone(),
            },
            rule,
            self.here(),
        )
    }

    fn closure_desc(&self, a: Addr) -> String {
        common::closure_desc(self.code, &self.heap, a)
    }

    fn closure_span(&self, a: Addr) -> Option<Span> {
        common::closure_span(self.code, &self.heap, a)
    }

    // ----- globals -------------------------------------------------------

    fn init_globals(&mut self) -> Result<(), RuntimeError> {
        match common::alloc_globals(&mut self.heap, self.code, &mut self.acct, &mut self.s) {
            Ok(globals) => {
                // The constant area: the globals, then the literals.
                let vals = &mut self.s.vals;
                vals.truncate(0);
                // Room for the op loop's unchecked slots (`values.rs`).
                vals.set_room(self.k.max_env);
                vals.extend_from_slice(&globals);
                vals.extend_from_slice(&self.k.constants[globals.len()..]);
                self.const_top = vals.len();
                self.set_op_stack_words();
                self.top_floor = self.const_top;
                self.env_base = self.const_top;
                self.env_len = 0;
                Ok(())
            }
            Err(kind) => Err(self.error(kind, "-", None)),
        }
    }

    // ----- driving and printing ------------------------------------------

    /// Run to the end: evaluate `main`, then force and print its value.
    pub fn run(&mut self, out: &mut dyn Write) -> Result<(), RuntimeError> {
        if self.cycles {
            self.calibrate_cycles();
        }
        self.started = Instant::now();
        self.started_cpu = crate::gc::thread_cpu_time();
        let r = self.run_inner(out);
        if self
            .heap_profile
            .as_ref()
            .is_some_and(|h| !h.has_sample_at(self.steps))
        {
            self.census();
        }
        if self.final_collection
            && !self
                .heap_profile
                .as_ref()
                .is_some_and(|h| h.has_sample_at(self.steps))
        {
            // The residency at the end (a census just taken has measured it).
            self.collect_now();
        }
        // Charge what is not yet charged: ticks, calls and words, and the
        // entries counted at `scc` sites (`threaded.rs`).
        self.flush();
        if PROF {
            for site in &mut self.k.scc_sites {
                site.settle(&mut self.acct);
            }
        }
        r
    }

    /// At the loop head, at `next_event`: the census that is due, or the
    /// look at the interrupt flag that is due (stopping the run if set).
    #[cold]
    #[inline(never)]
    fn event(&mut self) -> Result<(), RuntimeError> {
        if self.steps >= self.next_census {
            self.census();
        }
        if self.interrupt.stop_now(self.steps) {
            return Err(self.error(ErrorKind::Interrupted, "-", None));
        }
        self.next_event = self.next_census.min(self.interrupt.next);
        Ok(())
    }

    /// A heap census, as the reference engine takes it: collect (with the
    /// same roots: environments above the floor are dead outside `Eval`),
    /// then count what is live.
    #[cold]
    fn census(&mut self) {
        if !self.heap_profile.as_ref().is_some_and(|h| h.active()) {
            self.next_census = u64::MAX;
            self.next_event = self.next_census.min(self.interrupt.next);
            return;
        }
        self.collect_now();
        if let Some(h) = &mut self.heap_profile {
            h.census(
                &mut self.heap,
                self.code,
                &self.acct,
                self.steps,
                &mut self.s,
            );
        }
        self.next_census = self.steps.saturating_add(self.heap_interval);
        self.interrupt.look_soon(self.steps);
        self.next_event = self.next_census.min(self.interrupt.next);
    }

    /// Collect with nothing requested (which cannot fail for lack of
    /// room), with the roots the reference engine has: environments above
    /// the floor are dead outside `Eval`.
    fn collect_now(&mut self) {
        if !matches!(self.s.ctl, Ctl::Eval(_)) {
            self.drop_dead_envs();
        }
        self.s.env = (self.env_base, self.env_len);
        self.s.floor = self.top_floor;
        let _ = self.heap.collect(0, &mut self.s);
    }

    /// What the heap profile came to, when one was asked for.
    pub fn finish_heap_profile(&mut self) -> Option<HeapProfileSummary> {
        let heap = &mut self.heap;
        self.heap_profile.take().map(|h| h.finish(heap))
    }

    fn run_inner(&mut self, out: &mut dyn Write) -> Result<(), RuntimeError> {
        self.init_globals()?;
        if self.heap_profile.is_some() {
            self.census();
        }
        loop {
            self.exec()?;
            let halted = match self.s.ctl {
                Ctl::RetInt(k) => Halted::Int(k),
                Ctl::RetCon(c) => Halted::Con(c, &self.s.fields),
                Ctl::Enter(_) | Ctl::Eval(_) => Halted::Function,
            };
            match self.s.printer.halted(self.code, halted, out) {
                Ok(None) => return Ok(()),
                Ok(Some(v)) => self.force(v),
                Err(e) => {
                    return Err(self.error(ErrorKind::output(OutputStream::Result, &e), "-", None));
                }
            }
        }
    }

    fn force(&mut self, v: Value) {
        self.s.args.clear();
        self.s.cs.clear();
        self.s.cs_low = 0;
        self.retop_after_pop(self.const_top);
        self.s.vals.truncate(self.const_top);
        self.env_base = self.const_top;
        self.env_len = 0;
        self.cs_words = 0;
        self.cc = self.main_entry;
        self.switch(self.main_entry);
        self.s.ctl = Ctl::Enter(v);
    }

    // ----- results -------------------------------------------------------

    pub fn stats(&self) -> Stats {
        common::stats(self.steps, &self.heap, self.started, self.started_cpu)
    }

    pub fn profile(&self, reproducible: bool) -> Profile {
        let frequency = common::steps_frequency(self.steps, self.started, reproducible);
        let mut p = self.acct.profile(&self.code.cost_centres, frequency);
        if self.cycles && !reproducible {
            p.frequency = self.tsc_hz;
            p.overhead = self.tsc_overhead;
        }
        p
    }
}

/// The CPU's time-stamp counter.
#[cfg(target_arch = "x86_64")]
fn read_tsc() -> u64 {
    // SAFETY: `rdtsc` only reads the time-stamp counter into registers: it
    // has no memory effects and no preconditions, and every x86-64 CPU has it.
    unsafe { core::arch::x86_64::_rdtsc() }
}

/// Elsewhere: nanoseconds of a process-wide monotonic clock.
#[cfg(not(target_arch = "x86_64"))]
fn read_tsc() -> u64 {
    use std::sync::OnceLock;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `sum {n#}` nests `n` continuations of `case sum {m#} of r# -> +#
    /// {n#, r#}` (environment `n#`, `m#`, `r#`), each saving `n#` alone.
    const DEEP: &str = r"main = {} \u {} -> case sum {20000#} of r# -> I# {r#}
sum = {} \r {n#} ->
  case n# of
    0# -> 0#
    default -> case -# {n#, 1#} of
                 m# -> case sum {m#} of
                         r# -> +# {n#, r#}
";

    #[test]
    fn a_continuation_keeps_its_environment_only_up_to_its_highest_saved_slot() {
        let mut sources = SourceMap::new();
        let loaded = crate::stg::load::load(&mut sources, &[("t.stg".into(), DEEP.into())], false)
            .unwrap_or_else(|d| panic!("{d:?}"));
        let code = crate::machine::lower::lower(&loaded.program).unwrap();
        let options = RunOptions::default();
        let mut m = Machine::<false, false>::new(&code, &sources, &options);
        let mut out = Vec::new();
        m.run(&mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap().trim(), "200010000");
        // One slot a level (`n#`), not the environment's three: the
        // highest the value stack has been is about 20,000 slots (60,000
        // when a continuation kept its whole environment); the area
        // keeps `room` and a little more past it.
        let high = m.s.vals.area_len() - m.k.max_env;
        assert!(
            (20_000..25_000).contains(&high),
            "value stack's high-water mark {high}"
        );
    }
}
