//! What both engines do alike outside the rules: allocate the globals'
//! static closures, describe a closure for messages, and place a span for an
//! error. Written once so that the engines' errors and profiles cannot drift
//! apart.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::gc::{Addr, Heap, HeapExhausted, Info, Roots, Tag, Value, closure_words};
use crate::machine::accounting::Accounting;
use crate::machine::code::{Code, ExprId};
use crate::machine::{ErrorKind, Stats};
use crate::stg::source::SourceMap;
use crate::stg::syntax::Span;

/// Allocates one static closure per global, carrying its module's static
/// entry (`CAF`, or the empty stack for a function in stacks mode), after
/// making room for them (`roots` are the machine's, empty at this point),
/// and every module's `MAIN > CAF` stack in stacks mode.
/// Static closures are not allocation by the program, so they are not
/// counted in the heap's statistics. When `--max-heap` leaves no room for
/// them: the error, which has no place or rule (no step has been taken).
pub(crate) fn alloc_globals(
    heap: &mut Heap,
    code: &Code,
    acct: &mut Accounting,
    roots: &mut dyn Roots,
) -> Result<Vec<Value>, ErrorKind> {
    let n = code.globals.len();
    let does_not_fit = |heap: &Heap| ErrorKind::GlobalsDoNotFit {
        globals: n,
        needed_bytes: (n * closure_words(0) * 8) as u64,
        limit_bytes: heap.max_bytes(),
        live_capacity_bytes: heap.live_capacity_bytes(),
        reserved_less: heap.reserved_less(),
    };
    if heap.reserve(n * closure_words(0), false, roots).is_err() {
        return Err(does_not_fit(heap));
    }
    let mut globals = Vec::with_capacity(n);
    for global in &code.globals {
        let lambda = code.lambda(global.lambda);
        let cc = acct.static_entry(&code.cost_centres, global.module as usize, lambda.arity > 0);
        let info = Info {
            tag: Tag::Lambda,
            n: 0,
            index: global.lambda,
        };
        let Some(a) = heap.alloc(info, cc, &[]) else {
            return Err(does_not_fit(heap));
        };
        heap.stats.bytes_allocated -= closure_words(0) as u64 * 8;
        globals.push(Value::Ptr(a));
    }
    acct.make_caf_stacks(&code.cost_centres);
    Ok(globals)
}

/// The stacks' room, in words as `--max-stack` counts them, that an
/// engine reserves first: it reserves its stacks' memory ahead, for so
/// many words, and reserves more only when a rule would pass it, so that
/// no push grows a stack (an allocation that fails is then an error, not
/// an abort).
pub(crate) const MIN_STACK_ROOM_WORDS: u64 = 1 << 16;

/// The stacks' next room, in words, when a rule would take them to
/// `words`, past `room`: double, or `words` if more, up to `max_words`
/// (`--max-stack`'s). Both engines grow at the same counts, so that
/// they stop at the same step when the system has no more memory.
pub(crate) fn next_stack_room(room: u64, words: u64, max_words: u64) -> u64 {
    room.saturating_mul(2)
        .max(words)
        .max(MIN_STACK_ROOM_WORDS)
        .min(max_words)
}

/// The error of stacks that could not grow past `room_words`.
pub(crate) fn stack_memory(room_words: u64, limit: &crate::gc::memory_limit::Limit) -> ErrorKind {
    ErrorKind::StackMemory {
        room_bytes: room_words.saturating_mul(16),
        limit_bytes: limit.bytes,
    }
}

/// The error of a heap that could not make room: `e` from the collector,
/// or (`None`: an allocation that found no room after a reservation made
/// it, which cannot happen) the heap's own figures.
/// The heap of a run: `--max-heap` (or its default), keeping the closures'
/// biographies when the run's heap profile is by biography, black holes'
/// sizes and every updatee when it takes heap censuses, and every
/// updatee when it is traced (see "Updatees" in [`crate::gc`]).
pub(crate) fn new_heap(options: &crate::machine::RunOptions) -> Heap {
    let mut heap = Heap::with_limit(&crate::gc::memory_limit::heap_limit(options.max_heap));
    if options.heap_profile == Some(crate::machine::heap_profile::HeapProfileBy::Biography) {
        heap.keep_biographies();
    }
    if options.heap_profile.is_some() {
        // A census counts a black hole at its full size, and every thunk
        // under evaluation (`keep_black_hole_sizes` keeps the updatees).
        heap.keep_black_hole_sizes();
    }
    if options.trace.is_some() {
        // The trace shows update frames' closures by address.
        heap.keep_updatees();
    }
    heap
}

pub(crate) fn heap_limit(heap: &Heap, e: Option<HeapExhausted>) -> ErrorKind {
    let (limit_bytes, live_bytes) = match e {
        Some(e) => (e.limit_bytes, e.live_bytes),
        None => (heap.max_bytes(), heap.used_words() as u64 * 8),
    };
    ErrorKind::HeapLimit {
        limit_bytes,
        live_bytes,
        default_of: heap.limit_default_of().map(Box::from),
        reserved_less: heap.reserved_less(),
    }
}

/// The closure at `a` as messages name it: its binding's name (`outer.inner`
/// for nested ones), its constructor, or its kind.
pub(crate) fn closure_desc(code: &Code, heap: &Heap, a: Addr) -> String {
    match heap.updatee_info(a) {
        Some(i) => match i.tag {
            Tag::Lambda | Tag::BlackHole | Tag::Entered => code
                .lambdas
                .get(i.index as usize)
                .map(|l| l.name.clone())
                .unwrap_or_default(),
            Tag::Con => code.con_name(i.index).to_string(),
            Tag::Pap => "PAP".to_string(),
            Tag::Ind => "IND".to_string(),
            Tag::Forward => "FORWARD".to_string(),
        },
        None => format!("@{a}?"),
    }
}

/// Where the lambda form of the closure at `a` is written, if it has one.
pub(crate) fn closure_span(code: &Code, heap: &Heap, a: Addr) -> Option<Span> {
    match heap.updatee_info(a) {
        Some(i) if matches!(i.tag, Tag::Lambda | Tag::BlackHole | Tag::Entered) => {
            code.lambdas.get(i.index as usize).map(|l| l.span)
        }
        _ => None,
    }
}

/// `file:line:col` of a span, when it names a file of this run. Synthetic
/// code (the bodies of partial applications and constructor values) has
/// the default span and no place.
pub(crate) fn location(sources: &SourceMap, span: Span) -> Option<String> {
    if span == Span::default() {
        None
    } else if (span.file as usize) < sources.files().count() {
        Some(sources.location(span))
    } else {
        None
    }
}

/// What a continuation or update frame on the stacks waits for: a case
/// expression, or the thunk (now a black hole) it will update.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Awaiting {
    Case(ExprId),
    Thunk(Addr),
}

/// An error's context (`RuntimeError::context`) when its place `at` is not
/// in the program's own files (the Prelude, or code the machine makes: a
/// constructor's or a partial application's body): the innermost of the
/// cases and thunks being evaluated (`awaiting`, innermost first) that is
/// the program's, so that an error inside a Prelude function (`head`
/// of an empty list) names where the program asked for it. With none of
/// the program's on the stacks, the demand came from running the program
/// itself: evaluating `main` and printing its value. Both engines hand over
/// their stacks in the same order, so they name the same one.
pub(crate) fn context(
    code: &Code,
    sources: &SourceMap,
    heap: &Heap,
    at: Span,
    awaiting: impl Iterator<Item = Awaiting>,
) -> Option<Box<str>> {
    let prelude = code
        .lambdas
        .iter()
        .find(|l| {
            code.modules
                .get(l.module as usize)
                .is_some_and(|m| m == "Prelude")
        })
        .map(|l| l.span.file);
    let users = |span: Span| location(sources, span).is_some() && Some(span.file) != prelude;
    if users(at) {
        return None;
    }
    let program = awaiting.into_iter().find_map(|w| match w {
        Awaiting::Case(e) => {
            let span = code.exprs.get(e as usize)?.span;
            users(span).then(|| format!("the case at {}", sources.location(span)).into())
        }
        Awaiting::Thunk(a) => {
            let span = closure_span(code, heap, a)?;
            users(span).then(|| {
                format!(
                    "`{}` at {}",
                    closure_desc(code, heap, a),
                    sources.location(span)
                )
                .into()
            })
        }
    });
    Some(program.unwrap_or_else(|| "`main`'s value, to print it".into()))
}

/// `--stats`: the heap's figures with the run's steps and times (`started`
/// and `started_cpu`: the wall clock and the thread's CPU clock when the
/// run began).
pub(crate) fn stats(steps: u64, heap: &Heap, started: Instant, started_cpu: Duration) -> Stats {
    let h = &heap.stats;
    let total = started.elapsed();
    let total_cpu = crate::gc::thread_cpu_time().saturating_sub(started_cpu);
    Stats {
        steps,
        bytes_allocated: h.bytes_allocated,
        bytes_copied: h.bytes_copied,
        collections: h.collections,
        generations: h.gens.clone(),
        max_residency_bytes: h.max_residency_bytes,
        residency_samples: h.residency_samples,
        peak_memory_bytes: crate::gc::peak_resident_bytes(),
        mutator_time: total.saturating_sub(h.gc_time),
        gc_time: h.gc_time,
        mutator_cpu_time: total_cpu.saturating_sub(h.gc_cpu_time),
        gc_cpu_time: h.gc_cpu_time,
        max_pause: h.max_pause,
    }
}

/// The steps clock's frequency for the profile header: steps per second of
/// this run, or 0 under `--reproducible` (it depends on the machine).
pub(crate) fn steps_frequency(steps: u64, started: Instant, reproducible: bool) -> u64 {
    let secs = started.elapsed().as_secs_f64();
    if reproducible || secs <= 0.0 {
        0
    } else {
        (steps as f64 / secs) as u64
    }
}

/// Most steps between two looks at the interrupt flag: about a millisecond
/// of the fast engine, at no measurable cost per step.
pub(crate) const INTERRUPT_POLL_STEPS: u64 = 1 << 16;

/// The time the steps between two looks at the interrupt flag should take:
/// when they take longer (steps made slow by a census at every step, a
/// trace, `--gc-stress`, deep stacks), the interval shrinks to match, so a
/// signal stops the run well within 100 ms whatever the steps cost.
const INTERRUPT_POLL_TIME: Duration = Duration::from_millis(5);

/// A request to stop the run (`RunOptions::interrupt`, set by the CLI on
/// Ctrl-C, SIGTERM or SIGHUP), looked at the top of each engine's loop
/// before a rule is selected, starting at step 0: every `interval` steps,
/// an interval that follows the clock (doubling while the steps between
/// two looks take less than a quarter of [`INTERRUPT_POLL_TIME`], shrunk
/// in proportion when they take more, between 1 and
/// [`INTERRUPT_POLL_STEPS`]), and after each census ([`Interrupt::look_soon`]).
/// Only where an interrupted run stops depends on when the flag is looked
/// at, and that depends on when the signal came anyway.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Interrupt {
    flag: Option<&'static AtomicBool>,
    /// The step of the next look (`u64::MAX` without a flag).
    pub next: u64,
    /// Steps from one look to the next.
    interval: u64,
    /// When the last look was.
    last: Instant,
}

impl Interrupt {
    pub fn new(flag: Option<&'static AtomicBool>) -> Interrupt {
        Interrupt {
            flag,
            next: if flag.is_some() { 0 } else { u64::MAX },
            interval: 1,
            last: Instant::now(),
        }
    }

    /// Whether the run must stop before step `steps`: a look at the flag
    /// when one is due (scheduling the next), else a compare.
    #[inline]
    pub fn stop_now(&mut self, steps: u64) -> bool {
        steps >= self.next && self.look(steps)
    }

    /// Makes the next look due at step `steps`: after work that may have
    /// taken long (a census), the flag is looked at before the next rule.
    #[inline]
    pub fn look_soon(&mut self, steps: u64) {
        if self.flag.is_some() {
            self.next = self.next.min(steps);
        }
    }

    #[cold]
    fn look(&mut self, steps: u64) -> bool {
        if self.flag.is_some_and(|f| f.load(Ordering::Relaxed)) {
            return true;
        }
        let now = Instant::now();
        let took = now.duration_since(self.last);
        self.last = now;
        self.interval = next_interval(self.interval, took);
        self.next = steps.saturating_add(self.interval);
        false
    }
}

/// The steps to the next look at the interrupt flag, given the `interval`
/// the last ones were apart and the time they `took`.
fn next_interval(interval: u64, took: Duration) -> u64 {
    let target = INTERRUPT_POLL_TIME.as_nanos() as u64;
    let took = took.as_nanos().min(u64::MAX as u128) as u64;
    if took > target {
        // `interval` is at most 2^16 and `target` 5 * 10^6: no overflow.
        (interval * target / took).max(1)
    } else if took < target / 4 {
        (interval * 2).min(INTERRUPT_POLL_STEPS)
    } else {
        interval
    }
}

/// The arguments the function or partial application `a` still takes
/// (`None` for anything else, or a partial application that lacks none).
pub fn args_needed(code: &Code, heap: &Heap, a: Addr) -> Option<usize> {
    let info = heap.info(a)?;
    match info.tag {
        Tag::Lambda => Some(code.lambdas.get(info.index as usize)?.arity as usize),
        Tag::Pap => {
            let stored = (info.n as usize).saturating_sub(1);
            let Value::Ptr(f) = heap.payload(a, 0) else {
                return None;
            };
            let f = heap.info(heap.deref(f)).filter(|i| i.tag == Tag::Lambda)?;
            let arity = code.lambdas.get(f.index as usize)?.arity as usize;
            arity.checked_sub(stored).filter(|&n| n > 0)
        }
        _ => None,
    }
}

/// Rule 2 on the partial application `pap` (payload `[f, x1..xk]`): the
/// entry its body runs under, given the argument stack's height `args` and
/// the `floor` below which arguments are not visible. Stacks mode: an
/// over-saturated application is recorded or finished
/// ([`Accounting::call`], with the arguments `f` still lacks), then the
/// partial application's captured stack is appended
/// ([`Accounting::apply_pap`]). Flat mode: `current`.
///
/// Rule 2 meets a partial application only when it is applied after the
/// 17a that built it (whose own continuation enters `f` directly): through
/// the thunk 17a updated. GHC applies such a closure by evaluating it first
/// (the apply code enters an updated thunk with a `stg_restore_cccs_eval`
/// frame, which hands the value to `stg_ap_0`), and `stg_ap_0` returns a
/// partial application whose stack is not the current one as a copy
/// stamped with the current stack with its own appended (`enterFunCCS`;
/// Note [Evaluating functions with profiling] in rts/Apply.cmm), which is
/// then applied: its stack appended again. The two appends end where one
/// does unless the first was cut back by recursion (a partial application
/// built under a CAF or another branch of the stack, twins `pap_reapply`,
/// `church`, `parser_comb`), so the captured stack is stamped that way
/// first. A partial application under its function's own stack is left
/// alone (see [`Accounting::apply_pap`]). GHC's collector short-cuts an
/// updated thunk, after which GHC applies the partial application directly
/// (one append); stg-run does not depend on when collections happen and
/// always stamps, which is what GHC does for a CAF, and for any thunk
/// until a collection.
pub fn enter_pap(
    code: &Code,
    heap: &Heap,
    acct: &mut Accounting,
    current: u32,
    pap: Addr,
    args: usize,
    floor: usize,
) -> u32 {
    let captured = heap.cc(pap);
    let f = match heap.payload(pap, 0) {
        Value::Ptr(f) => Some(heap.deref(f)),
        Value::Int(_) => None,
    };
    let fun = f.map_or(captured, |f| heap.cc(f));
    // GHC's `stg_ap_0` copy: the captured stack stamped onto the current one.
    let captured = if captured == fun {
        captured
    } else {
        acct.enter_function(current, captured)
    };
    let lacks = args_needed(code, heap, pap);
    let current = match lacks {
        Some(needed) => acct.call(current, args, floor, needed, fun),
        None => current,
    };
    acct.apply_pap(current, captured, fun)
}
