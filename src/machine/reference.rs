//! The reference engine: SEMANTICS.md's rules, one per step.
//!
//! State `(code, as, rs, us, h, σ, cc)`: [`Control`] is the code; `as` is
//! one vector (top = last; the first argument of a call is on top), `rs`
//! holds case continuations, `us` update and restore frames. Frames save the
//! *heights* of `as` and `rs` ("empty `as`/`rs`" means "nothing above the
//! saved height"). A case continuation also saves the height of `as`, so the
//! scrutinee only sees arguments pushed after the `case` (a function whose
//! body is a `case` may be called with extra arguments).
//!
//! Cost accounting (engine-independent meaning, documented here):
//! - a step's **tick** goes to the entry current *before* the rule fires,
//!   except in a row of frame pops (16/16′/17a/17a′ back to back, "hidden
//!   execution") where every step of the row is charged to the entry current
//!   before the first of the row; in stacks mode a row ends with 17a, whose
//!   continuation applies the new partial application (a function entry):
//!   a pop after it starts a new row under the stack then current
//!   (docs/DECISIONS.md, as GHC);
//! - words: rules 3 and 7 to the current entry; 16 and 17a to the row's entry
//!   (which is also the cost centre the new closure gets);
//! - tail calls: rule 1 and 6–8, 11–13 to the entry current before the rule;
//! - strict calls: the entry made current by `scc`;
//! - lazy calls: the entry made current by 15/15′;
//! - curried calls: 17a/17a′, to the row's entry.
//!
//! The loop never recurses in Rust: one call of `Machine::step` per step.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::cli::memory::try_reserve_len;
use crate::gc::{Addr, Heap, HeapExhausted, Info, Roots, Tag, Value, closure_words, memory_limit};
use crate::machine::accounting::Accounting;
use crate::machine::code::*;
use crate::machine::common;
use crate::machine::heap_profile::{HeapProfileSummary, HeapProfiler};
use crate::machine::primitives;
use crate::machine::result::{Halted, ResultPrinter};
use crate::machine::{
    CostCentreMode, ErrorKind, OutputStream, RunOptions, RuntimeError, Stats, TraceFormat,
};
use crate::profile::{Counters, Profile};
use crate::stg::source::SourceMap;
use crate::stg::syntax::{Flag, Span};

/// The machine's code component.
#[derive(Clone, Debug)]
pub enum Control {
    Eval(ExprId, Vec<Value>),
    Enter(Value),
    ReturnCon(ConId, Vec<Value>),
    ReturnInt(i64),
}

/// A case continuation on `rs`.
#[derive(Clone, Debug)]
pub struct Cont {
    /// The `case` expression.
    pub case: ExprId,
    /// The environment restricted to the alternatives' free variables:
    /// the values of the case's `saves` slots, in that order. A boxed
    /// slice, not a `Vec`: a continuation takes no more memory than
    /// `--max-stack` counts for it (16 bytes a slot of the whole
    /// environment and 48 more: this struct's 32 and the allocator's 16).
    pub saved: Box<[Value]>,
    /// Height of `as` when pushed.
    pub as_height: usize,
    /// Cost centre (stack) to restore on return.
    pub cc: u32,
}

impl Cont {
    /// The size of the environment of the case `case`, which its
    /// alternatives run in (`None` if `case` is not a case).
    pub fn env_len(code: &Code, case: ExprId) -> Option<usize> {
        match &code.expr(case).code {
            ExprCode::Case { env_len, .. } => Some(*env_len as usize),
            _ => None,
        }
    }

    /// The saved slots and their values: `(slot, value)`, ascending.
    pub fn saved_slots<'c>(&'c self, code: &'c Code) -> impl Iterator<Item = (u32, Value)> + 'c {
        let saves: &[u32] = match &code.expr(self.case).code {
            ExprCode::Case { saves, .. } => saves,
            _ => &[],
        };
        saves.iter().copied().zip(self.saved.iter().copied())
    }

    /// The environment the alternatives run in: the saved values in their
    /// slots, every other slot `0#` (nothing reads it before binding it).
    pub fn env(&self, code: &Code) -> Vec<Value> {
        let mut env = vec![Value::Int(0); Self::env_len(code, self.case).unwrap_or(0)];
        for (s, v) in self.saved_slots(code) {
            if let Some(slot) = env.get_mut(s as usize) {
                *slot = v;
            }
        }
        env
    }
}

/// An update frame (`update = Some`) or a restore frame on `us`.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub update: Option<Addr>,
    pub as_base: usize,
    pub rs_base: usize,
    pub cc: u32,
}

/// The rules, named as in SEMANTICS.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    R1,
    R2,
    R3,
    R4,
    R5,
    R6,
    R7,
    R8,
    R9,
    R10,
    R11,
    R12,
    R13,
    R14,
    R15,
    R15s,
    R16,
    R16s,
    R17a,
    R17as,
    Scc,
    SccEq,
}

impl Rule {
    pub fn name(self) -> &'static str {
        match self {
            Rule::R1 => "1",
            Rule::R2 => "2",
            Rule::R3 => "3",
            Rule::R4 => "4",
            Rule::R5 => "5",
            Rule::R6 => "6",
            Rule::R7 => "7",
            Rule::R8 => "8",
            Rule::R9 => "9",
            Rule::R10 => "10",
            Rule::R11 => "11",
            Rule::R12 => "12",
            Rule::R13 => "13",
            Rule::R14 => "14",
            Rule::R15 => "15",
            Rule::R15s => "15′",
            Rule::R16 => "16",
            Rule::R16s => "16′",
            Rule::R17a => "17a",
            Rule::R17as => "17a′",
            Rule::Scc => "scc",
            Rule::SccEq => "scc=",
        }
    }
    /// Frame pops, which form "hidden execution" rows.
    pub fn is_pop(self) -> bool {
        matches!(self, Rule::R16 | Rule::R16s | Rule::R17a | Rule::R17as)
    }
}

/// Watches a run step by step: the explorer's trace
/// (`crate::machine::explain`) is one. The engine calls it at the points
/// below and otherwise runs exactly as without it; a run without one pays a
/// test of an `Option` per collection and per step. An error it returns
/// (it could not write) stops the run as a failed write of the trace does.
pub trait Observer {
    /// The globals are allocated (and the first census taken); no rule
    /// has fired.
    fn started(&mut self, m: &View<'_>) -> std::io::Result<()>;
    /// `rule` fired and was charged; a census due after it has not been
    /// taken yet.
    fn stepped(&mut self, m: &View<'_>, rule: Rule) -> std::io::Result<()>;
    /// The machine halted with a value and the result printer demands the
    /// next one: the state is `Enter v` under `MAIN` with empty stacks.
    fn forced(&mut self, m: &View<'_>) -> std::io::Result<()>;
    /// A collection ran: `moves` pairs the value of every root before and
    /// after it, in the order the roots were visited. It runs before the
    /// rule that asked for room changes anything (rules collect first, in
    /// `reserve`) or after `stepped` (a census).
    fn collected(&mut self, heap: &Heap, moves: &[(Value, Value)]);
    /// The run ended: halted with the result printed (`error` is `None`),
    /// or stopped by `error` before the rule it names fired. The state is
    /// the one after the last step (and a last census).
    fn ended(&mut self, m: &View<'_>, error: Option<&RuntimeError>) -> std::io::Result<()>;
}

/// What an [`Observer`] sees of the machine: its whole state, read-only.
pub struct View<'m> {
    pub code: &'m Code,
    pub control: &'m Control,
    /// `as`, top last.
    pub args: &'m [Value],
    /// `rs`, top last.
    pub rs: &'m [Cont],
    /// `us`, top last.
    pub us: &'m [Frame],
    /// The globals' closures, by global id.
    pub globals: &'m [Value],
    pub heap: &'m Heap,
    /// The current cost centre (flat) or stack (stacks mode).
    pub cc: u32,
    pub acct: &'m Accounting,
    /// Steps fired so far.
    pub steps: u64,
}

/// The machine's roots as a collection sees them, recording how each moved
/// (for an [`Observer`]).
struct WatchedRoots<'s> {
    state: &'s mut State,
    moves: Vec<(Value, Value)>,
}

impl Roots for WatchedRoots<'_> {
    fn visit_roots(&mut self, f: &mut dyn FnMut(&mut [Value])) {
        let moves = &mut self.moves;
        self.state.visit_roots(&mut |vs: &mut [Value]| {
            let before = vs.to_vec();
            f(vs);
            moves.extend(before.into_iter().zip(vs.iter().copied()));
        });
    }
}

/// Everything the collector must see.
struct State {
    control: Control,
    args: Vec<Value>,
    rs: Vec<Cont>,
    us: Vec<Frame>,
    globals: Vec<Value>,
    printer: ResultPrinter,
}

impl Roots for State {
    fn visit_roots(&mut self, f: &mut dyn FnMut(&mut [Value])) {
        self.visit_roots_but_updatees(false, f);
        self.visit_updatees(f);
    }

    /// Every root but the update frames' closures (a minor collection,
    /// `young`, gets them all too).
    fn visit_roots_but_updatees(&mut self, _young: bool, f: &mut dyn FnMut(&mut [Value])) -> bool {
        match &mut self.control {
            Control::Eval(_, env) | Control::ReturnCon(_, env) => f(env),
            Control::Enter(v) => f(std::slice::from_mut(v)),
            Control::ReturnInt(_) => {}
        }
        f(&mut self.args);
        for c in &mut self.rs {
            f(&mut c.saved);
        }
        f(&mut self.globals);
        self.printer.roots(f);
        true
    }

    fn visit_updatees(&mut self, f: &mut dyn FnMut(&mut [Value])) {
        for fr in &mut self.us {
            if let Some(a) = fr.update {
                let mut v = [Value::Ptr(a)];
                f(&mut v);
                if let [Value::Ptr(b)] = v {
                    fr.update = Some(b);
                }
            }
        }
    }
}

pub struct Machine<'a> {
    code: &'a Code,
    sources: &'a SourceMap,
    heap: Heap,
    s: State,
    /// Current cost centre (flat) or stack (stacks mode).
    cc: u32,
    /// The entry current before the first pop of the current row of pops.
    row_cc: Option<u32>,
    /// Counters, stacks and the profile (shared with the fast engine).
    acct: Accounting,
    /// The heap profile's censuses (`--heap-profile`), written as taken.
    heap_profile: Option<HeapProfiler<'a>>,
    heap_interval: u64,
    next_census: u64,
    steps: u64,
    max_steps: Option<u64>,
    /// Ctrl-C: looked at before a rule is selected, every so many steps.
    interrupt: common::Interrupt,
    /// `--max-stack` or its default.
    max_stack: memory_limit::Limit,
    /// Words held by `rs` (environments plus 3 words per continuation).
    rs_words: usize,
    /// The stacks' room: words (as `--max-stack` counts them) up to which
    /// the stacks have their memory reserved, so that no push grows a
    /// vector (see [`Machine::grow_stacks`]).
    room_words: u64,
    gc_stress: bool,
    trace: Option<TraceFormat>,
    /// Source of the last expression evaluated.
    span: Span,
    started: Instant,
    /// The thread's CPU clock when the run began.
    started_cpu: Duration,
    /// `RunOptions::final_collection`.
    final_collection: bool,
    observer: Option<&'a mut dyn Observer>,
}

impl<'a> Machine<'a> {
    /// This machine with `heap_profile` taking its censuses instead of the
    /// one kept in memory that [`Machine::new`] makes when
    /// `RunOptions::heap_profile` asks for one.
    pub fn with_heap_profiler(mut self, heap_profile: Option<HeapProfiler<'a>>) -> Self {
        self.heap_profile = heap_profile;
        self
    }

    pub fn new(code: &'a Code, sources: &'a SourceMap, options: &RunOptions) -> Machine<'a> {
        let heap_profile = crate::machine::heap_profiler(options, None);
        let acct = Accounting::new(options.cost_centres);
        let main_entry = acct.main_entry;
        Machine {
            code,
            sources,
            heap: common::new_heap(options),
            s: State {
                control: Control::Eval(code.main_app, Vec::new()),
                args: Vec::new(),
                rs: Vec::new(),
                us: Vec::new(),
                globals: Vec::new(),
                printer: ResultPrinter::default(),
            },
            cc: main_entry,
            row_cc: None,
            acct,
            heap_profile,
            heap_interval: if options.heap_interval == 0 {
                100_000
            } else {
                options.heap_interval
            },
            next_census: 0,
            steps: 0,
            max_steps: options.max_steps,
            interrupt: common::Interrupt::new(options.interrupt),
            // After the heap (above): its default leaves out the heap's
            // reservation.
            max_stack: memory_limit::stack_limit(options.max_stack),
            rs_words: 0,
            room_words: 0,
            gc_stress: options.gc_stress,
            // The JSON trace is the explorer's (`machine::explain`), an
            // observer of this engine.
            trace: options.trace.filter(|t| *t == TraceFormat::Text),
            span: code.expr(code.main_app).span,
            started: Instant::now(),
            started_cpu: Duration::ZERO,
            final_collection: options.final_collection,
            observer: None,
        }
    }

    /// Report every step to `observer` (see [`Observer`]).
    /// The observer follows the whole live heap at each collection, so
    /// every collection is then a major one.
    pub fn observed(mut self, observer: &'a mut dyn Observer) -> Machine<'a> {
        self.heap.collect_majors_only();
        self.observer = Some(observer);
        self
    }

    /// The state, for an observer (also after [`Machine::run`] returned).
    pub fn view(&self) -> View<'_> {
        View {
            code: self.code,
            control: &self.s.control,
            args: &self.s.args,
            rs: &self.s.rs,
            us: &self.s.us,
            globals: &self.s.globals,
            heap: &self.heap,
            cc: self.cc,
            acct: &self.acct,
            steps: self.steps,
        }
    }

    /// Tell the observer, if any, what `tell` says (it sees the state); a
    /// failure is a failed write of the trace.
    fn tell(
        &mut self,
        rule: &'static str,
        tell: impl FnOnce(&mut dyn Observer, &View<'_>) -> std::io::Result<()>,
    ) -> Result<(), RuntimeError> {
        if let Some(observer) = self.observer.take() {
            let r = tell(&mut *observer, &self.view());
            self.observer = Some(observer);
            if let Err(e) = r {
                return Err(self.error(ErrorKind::output(OutputStream::Trace, &e), rule, None));
            }
        }
        Ok(())
    }

    /// Run `gc` (a collection, or a reservation that may collect) over
    /// the roots, telling the observer, if any, where they moved.
    fn collecting<R>(&mut self, gc: impl FnOnce(&mut Heap, &mut dyn Roots) -> R) -> R {
        let Some(observer) = self.observer.take() else {
            return gc(&mut self.heap, &mut self.s);
        };
        let before = self.heap.stats.collections;
        let mut roots = WatchedRoots {
            state: &mut self.s,
            moves: Vec::new(),
        };
        let r = gc(&mut self.heap, &mut roots);
        if self.heap.stats.collections != before {
            observer.collected(&self.heap, &roots.moves);
        }
        self.observer = Some(observer);
        r
    }

    // ----- helpers -------------------------------------------------------

    fn ctr(&mut self, e: u32) -> &mut Counters {
        self.acct.ctr(e)
    }

    fn cc_name(&self, e: u32) -> String {
        self.acct.name(e, &self.code.cost_centres)
    }

    fn error(&self, kind: ErrorKind, rule: &'static str, span: Option<Span>) -> RuntimeError {
        let at = span.unwrap_or(self.span);
        RuntimeError {
            kind,
            rule,
            cost_centre: self.cc_name(self.cc).into(),
            location: common::location(self.sources, at),
            context: common::context(self.code, self.sources, &self.heap, at, self.awaiting()),
            step: self.steps,
        }
    }

    /// The continuations and update frames, innermost first: the
    /// continuations above a frame were pushed after it.
    fn awaiting(&self) -> impl Iterator<Item = common::Awaiting> + '_ {
        let (rs, us) = (&self.s.rs, &self.s.us);
        let mut r = rs.len();
        let mut f = us.len();
        std::iter::from_fn(move || {
            let frame_rs = f.checked_sub(1).map_or(0, |i| us[i].rs_base);
            if r > frame_rs {
                r -= 1;
                return Some(Some(common::Awaiting::Case(rs[r].case)));
            }
            f = f.checked_sub(1)?;
            Some(us[f].update.map(common::Awaiting::Thunk))
        })
        .flatten()
    }

    fn heap_error(&self, e: HeapExhausted, rule: &'static str) -> RuntimeError {
        self.error(common::heap_limit(&self.heap, Some(e)), rule, None)
    }

    fn reserve(&mut self, words: usize, rule: Rule) -> Result<(), RuntimeError> {
        let stress = self.gc_stress;
        self.collecting(|heap, roots| heap.reserve(words, stress, roots))
            .map_err(|e| self.heap_error(e, rule.name()))
    }

    fn alloc(
        &mut self,
        info: Info,
        cc: u32,
        payload: &[Value],
        rule: Rule,
    ) -> Result<Addr, RuntimeError> {
        match self.heap.alloc(info, cc, payload) {
            Some(a) => Ok(a),
            None => Err(self.error(common::heap_limit(&self.heap, None), rule.name(), None)),
        }
    }

    fn lookup(&self, env: &[Value], v: VarRef) -> Value {
        match v {
            VarRef::Local(i) => env.get(i as usize).copied().unwrap_or(Value::Int(0)),
            VarRef::Global(g) => self
                .s
                .globals
                .get(g as usize)
                .copied()
                .unwrap_or(Value::Int(0)),
        }
    }

    fn atom(&self, env: &[Value], a: AtomCode) -> Value {
        match a {
            AtomCode::Var(v) => self.lookup(env, v),
            AtomCode::Lit(k) => Value::Int(k),
        }
    }

    /// Base of the arguments visible to the code: above the top case
    /// continuation or the top frame, whichever is more recent.
    fn as_base(&self) -> usize {
        let frame_rs = self.s.us.last().map(|f| f.rs_base).unwrap_or(0);
        if self.s.rs.len() > frame_rs {
            self.s.rs.last().map(|c| c.as_height).unwrap_or(0)
        } else {
            self.s.us.last().map(|f| f.as_base).unwrap_or(0)
        }
    }

    fn avail(&self) -> usize {
        self.s.args.len().saturating_sub(self.as_base())
    }

    /// Is there a case continuation above the top frame?
    fn rs_nonempty(&self) -> bool {
        self.s.rs.len() > self.s.us.last().map(|f| f.rs_base).unwrap_or(0)
    }

    /// The words `rule` pushes on the stacks in the current state, as
    /// `--max-stack` counts them: rule 1 its arguments, rule 4 a
    /// continuation (its whole environment and 3, though it saves only the
    /// alternatives' free variables), rules 15, 15′ and flat mode's `scc` a
    /// frame (4). The other rules push nothing.
    #[inline]
    fn pushes(&self, rule: Rule) -> usize {
        match (rule, &self.s.control) {
            (Rule::R1, Control::Eval(e, env)) => match &self.code.expr(*e).code {
                ExprCode::App { args, .. } => args.len(),
                ExprCode::ApplyEnv => env.len().saturating_sub(1),
                _ => 0,
            },
            (Rule::R4, Control::Eval(_, env)) => env.len() + 3,
            (Rule::R15 | Rule::R15s, _) => 4,
            (Rule::Scc, _) if self.acct.mode == CostCentreMode::Flat => 4,
            _ => 0,
        }
    }

    /// Where a limit stops the machine: the expression it is about to
    /// evaluate (`None` elsewhere: the last place evaluated).
    fn here(&self) -> Option<Span> {
        match &self.s.control {
            Control::Eval(e, _) => Some(self.code.expr(*e).span),
            _ => None,
        }
    }

    /// Would the stacks, after `words` more, pass `--max-stack`? If not,
    /// have they room for them (else make it)?
    #[inline]
    fn check_stack(&mut self, rule: Rule, words: usize) -> Result<(), RuntimeError> {
        let words = self.s.args.len() + self.rs_words + self.s.us.len() * 4 + words;
        if words as u64 > self.room_words {
            return self.grow_stacks(rule, words as u64);
        }
        Ok(())
    }

    /// The stacks would pass their room at `words`: the limit's error if
    /// they would pass `--max-stack`, else more room (at the counts the
    /// fast engine takes it: [`common::next_stack_room`]), or the error
    /// saying the system would not give the memory for it.
    #[cold]
    #[inline(never)]
    fn grow_stacks(&mut self, rule: Rule, words: u64) -> Result<(), RuntimeError> {
        if words.saturating_mul(16) > self.max_stack.bytes {
            return Err(self.limit_error(
                ErrorKind::StackLimit {
                    limit_bytes: self.max_stack.bytes,
                    default_of: self.max_stack.default_of.clone(),
                },
                rule,
            ));
        }
        let room = common::next_stack_room(self.room_words, words, self.max_stack.bytes / 16);
        let n = usize::try_from(room).unwrap_or(usize::MAX);
        // `args` holds at most a value a word, `rs` a continuation every
        // 3 words, `us` a frame every 4.
        let reserved = try_reserve_len(&mut self.s.args, n)
            .and_then(|()| try_reserve_len(&mut self.s.rs, n / 3 + 2))
            .and_then(|()| try_reserve_len(&mut self.s.us, n / 4 + 2));
        if reserved.is_err() {
            return Err(
                self.limit_error(common::stack_memory(self.room_words, &self.max_stack), rule)
            );
        }
        self.room_words = room;
        Ok(())
    }

    /// A limit's error, before `rule` fires.
    #[cold]
    #[inline(never)]
    fn limit_error(&self, kind: ErrorKind, rule: Rule) -> RuntimeError {
        self.error(kind, rule.name(), self.here())
    }

    fn closure_desc(&self, a: Addr) -> String {
        common::closure_desc(self.code, &self.heap, a)
    }

    fn closure_span(&self, a: Addr) -> Option<Span> {
        common::closure_span(self.code, &self.heap, a)
    }

    fn value_desc(&self, c: ConId, ws: &[Value]) -> String {
        let mut s = self.code.con_name(c).to_string();
        for w in ws {
            match w {
                Value::Int(k) => s.push_str(&format!(" {k}#")),
                Value::Ptr(_) => s.push_str(" _"),
            }
        }
        s
    }

    // ----- globals -------------------------------------------------------

    fn init_globals(&mut self) -> Result<(), RuntimeError> {
        match common::alloc_globals(&mut self.heap, self.code, &mut self.acct, &mut self.s) {
            Ok(globals) => {
                self.s.globals = globals;
                Ok(())
            }
            Err(kind) => Err(self.error(kind, "-", None)),
        }
    }

    // ----- rule selection ------------------------------------------------

    /// Which rule fires on the current state; `None` when the machine halts.
    fn select(&self) -> Result<Option<Rule>, RuntimeError> {
        match &self.s.control {
            Control::Eval(e, env) => {
                let node = self.code.expr(*e);
                Ok(Some(match &node.code {
                    ExprCode::Let { .. } => Rule::R3,
                    ExprCode::Case { .. } => Rule::R4,
                    ExprCode::Scc { cc, .. } => {
                        if self.acct.mode == CostCentreMode::Flat && self.cc == *cc {
                            Rule::SccEq
                        } else {
                            Rule::Scc
                        }
                    }
                    ExprCode::ApplyEnv => match self.lookup(env, VarRef::Local(0)) {
                        Value::Ptr(_) => Rule::R1,
                        Value::Int(k) => {
                            return Err(self.error(
                                ErrorKind::IntNotClosure { value: k },
                                "1",
                                Some(node.span),
                            ));
                        }
                    },
                    ExprCode::App { fun, args } => match self.lookup(env, *fun) {
                        Value::Ptr(_) => Rule::R1,
                        Value::Int(_) if args.is_empty() => Rule::R10,
                        Value::Int(k) => {
                            return Err(self.error(
                                ErrorKind::IntNotClosure { value: k },
                                "1",
                                Some(node.span),
                            ));
                        }
                    },
                    ExprCode::Con { .. } => Rule::R5,
                    ExprCode::Lit(_) => Rule::R9,
                    ExprCode::Prim { .. } => Rule::R14,
                }))
            }
            Control::Enter(v) => {
                let a = match v {
                    Value::Ptr(a) => self.heap.deref(*a),
                    Value::Int(k) => {
                        return Err(self.error(ErrorKind::IntNotClosure { value: *k }, "2", None));
                    }
                };
                let info = match self.heap.info(a) {
                    Some(i) => i,
                    None => return Err(self.error(ErrorKind::ClosureNotInt, "2", None)),
                };
                match info.tag {
                    Tag::Con | Tag::Pap => Ok(Some(Rule::R2)),
                    Tag::BlackHole => Err(self.error(ErrorKind::Loop, "15", self.closure_span(a))),
                    Tag::Entered => Err(self.error(
                        ErrorKind::SingleEntryTwice {
                            closure: self.closure_desc(a),
                        },
                        "15′",
                        self.closure_span(a),
                    )),
                    Tag::Ind | Tag::Forward => Err(self.error(ErrorKind::ClosureNotInt, "2", None)),
                    Tag::Lambda => {
                        let lam = self.code.lambda(info.index);
                        match lam.flag {
                            Flag::Updatable => Ok(Some(Rule::R15)),
                            Flag::SingleEntry => Ok(Some(Rule::R15s)),
                            Flag::Reentrant | Flag::NonUpdatable => {
                                if self.avail() >= lam.arity as usize {
                                    Ok(Some(Rule::R2))
                                } else if self.rs_nonempty() {
                                    // At the case that scrutinised it.
                                    let case = self.s.rs.last().map(|c| self.code.expr(c.case));
                                    Err(self.error(
                                        ErrorKind::FunctionInCase {
                                            closure: lam.name.clone(),
                                        },
                                        "17a",
                                        case.map(|e| e.span),
                                    ))
                                } else {
                                    match self.s.us.last() {
                                        None => Ok(None),
                                        Some(f) if f.update.is_some() => Ok(Some(Rule::R17a)),
                                        Some(_) => Ok(Some(Rule::R17as)),
                                    }
                                }
                            }
                        }
                    }
                }
            }
            Control::ReturnCon(c, ws) => {
                if self.rs_nonempty() {
                    let cont = self.s.rs.last().expect("rs non-empty");
                    let case = self.code.expr(cont.case);
                    if self.s.args.len() > cont.as_height {
                        return Err(self.error(
                            ErrorKind::PendingArguments {
                                value: self.value_desc(*c, ws),
                                pending: self.s.args.len() - cont.as_height,
                            },
                            "6",
                            Some(case.span),
                        ));
                    }
                    let ExprCode::Case { alts, default, .. } = &case.code else {
                        return Err(self.error(ErrorKind::ClosureNotInt, "6", Some(case.span)));
                    };
                    match alts {
                        AltsKind::Alg(alts) if alts.iter().any(|a| a.con == *c) => {
                            return Ok(Some(Rule::R6));
                        }
                        AltsKind::Prim(_) => {
                            return Err(self.error(
                                ErrorKind::ConInLiteralCase {
                                    con: self.value_desc(*c, ws),
                                },
                                "11",
                                Some(case.span),
                            ));
                        }
                        _ => {}
                    }
                    match default {
                        Some(DefaultAlt { bind: Some(_), .. }) => Ok(Some(Rule::R7)),
                        Some(DefaultAlt { bind: None, .. }) => Ok(Some(Rule::R8)),
                        None => Err(self.error(
                            ErrorKind::NoMatchingAlternative {
                                value: self.value_desc(*c, ws),
                            },
                            "6",
                            Some(case.span),
                        )),
                    }
                } else {
                    let pending = self.avail();
                    if pending > 0 {
                        return Err(self.error(
                            ErrorKind::PendingArguments {
                                value: self.value_desc(*c, ws),
                                pending,
                            },
                            "16",
                            None,
                        ));
                    }
                    match self.s.us.last() {
                        None => Ok(None),
                        Some(f) if f.update.is_some() => Ok(Some(Rule::R16)),
                        Some(_) => Ok(Some(Rule::R16s)),
                    }
                }
            }
            Control::ReturnInt(k) => {
                if self.rs_nonempty() {
                    let cont = self.s.rs.last().expect("rs non-empty");
                    let case = self.code.expr(cont.case);
                    if self.s.args.len() > cont.as_height {
                        return Err(self.error(
                            ErrorKind::PendingArguments {
                                value: format!("{k}#"),
                                pending: self.s.args.len() - cont.as_height,
                            },
                            "11",
                            Some(case.span),
                        ));
                    }
                    let ExprCode::Case { alts, default, .. } = &case.code else {
                        return Err(self.error(ErrorKind::ClosureNotInt, "11", Some(case.span)));
                    };
                    match alts {
                        AltsKind::Prim(alts) if alts.iter().any(|a| a.0 == *k) => {
                            return Ok(Some(Rule::R11));
                        }
                        AltsKind::Alg(_) => {
                            return Err(self.error(
                                ErrorKind::IntInAlgebraicCase { value: *k },
                                "6",
                                Some(case.span),
                            ));
                        }
                        _ => {}
                    }
                    match default {
                        Some(DefaultAlt { bind: Some(_), .. }) => Ok(Some(Rule::R12)),
                        Some(DefaultAlt { bind: None, .. }) => Ok(Some(Rule::R13)),
                        None => Err(self.error(
                            ErrorKind::NoMatchingAlternative {
                                value: format!("{k}#"),
                            },
                            "11",
                            Some(case.span),
                        )),
                    }
                } else {
                    let pending = self.avail();
                    if pending > 0 {
                        return Err(self.error(
                            ErrorKind::PendingArguments {
                                value: format!("{k}#"),
                                pending,
                            },
                            "16′",
                            None,
                        ));
                    }
                    match self.s.us.last() {
                        None => Ok(None),
                        Some(f) if f.update.is_some() => {
                            let span = f.update.and_then(|a| self.closure_span(a));
                            Err(self.error(ErrorKind::IntUpdate { value: *k }, "16", span))
                        }
                        Some(_) => Ok(Some(Rule::R16s)),
                    }
                }
            }
        }
    }

    /// One step: select, trace, fire, charge. `Ok(None)` when halted.
    fn step(&mut self, trace: &mut dyn Write) -> Result<Option<Rule>, RuntimeError> {
        if self.interrupt.stop_now(self.steps) {
            return Err(self.error(ErrorKind::Interrupted, "-", None));
        }
        let rule = match self.select()? {
            Some(r) => r,
            None => return Ok(None),
        };
        // A limit stops the machine before the rule fires, with none of its
        // effects, at the expression it was about to evaluate.
        if let Some(limit) = self.max_steps
            && self.steps >= limit
        {
            return Err(self.limit_error(ErrorKind::StepLimit { limit }, rule));
        }
        let words = self.pushes(rule);
        if words > 0 {
            self.check_stack(rule, words)?;
        }
        if self.trace.is_some() {
            let line = self.trace_line(rule);
            if let Err(e) = writeln!(trace, "{line}") {
                return Err(self.error(
                    ErrorKind::output(OutputStream::Trace, &e),
                    rule.name(),
                    None,
                ));
            }
        }
        let pre = self.cc;
        if !rule.is_pop() {
            self.row_cc = None;
        }
        self.fire(rule)?;
        self.steps += 1;
        let charged = if rule.is_pop() {
            self.row_cc.unwrap_or(pre)
        } else {
            pre
        };
        self.ctr(charged).ticks += 1;
        if rule == Rule::R17a && self.acct.mode == CostCentreMode::Stacks {
            // Stacks mode: 17a ends its row (see `rule17a_update_pap`).
            self.row_cc = None;
        }
        self.tell(rule.name(), |o, m| o.stepped(m, rule))?;
        if self.heap_profile.is_some() && self.steps >= self.next_census {
            self.census();
        }
        Ok(Some(rule))
    }

    fn fire(&mut self, rule: Rule) -> Result<(), RuntimeError> {
        match rule {
            Rule::R1 => self.rule1_apply(),
            Rule::R2 => self.rule2_enter_reentrant(),
            Rule::R3 => self.rule3_let(),
            Rule::R4 => self.rule4_case(),
            Rule::R5 => self.rule5_constructor(),
            Rule::R6 => self.rule6_return_con_match(),
            Rule::R7 => self.rule7_return_con_default_bind(),
            Rule::R8 => self.rule8_return_con_default(),
            Rule::R9 => self.rule9_literal(),
            Rule::R10 => self.rule10_int_variable(),
            Rule::R11 => self.rule11_return_int_match(),
            Rule::R12 => self.rule12_return_int_default_bind(),
            Rule::R13 => self.rule13_return_int_default(),
            Rule::R14 => self.rule14_primop(),
            Rule::R15 => self.rule15_enter_updatable(),
            Rule::R15s => self.rule15s_enter_single_entry(),
            Rule::R16 => self.rule16_update_con(),
            Rule::R16s => self.rule16s_restore_return(),
            Rule::R17a => self.rule17a_update_pap(),
            Rule::R17as => self.rule17as_restore_pap(),
            Rule::Scc => self.rule_scc(),
            Rule::SccEq => self.rule_scc_eq(),
        }
    }

    fn take_control(&mut self) -> Control {
        std::mem::replace(&mut self.s.control, Control::ReturnInt(0))
    }

    fn take_eval(&mut self) -> (ExprId, Vec<Value>) {
        match self.take_control() {
            Control::Eval(e, env) => {
                self.span = self.code.expr(e).span;
                (e, env)
            }
            other => {
                self.s.control = other;
                (0, Vec::new())
            }
        }
    }

    // ----- the rules -----------------------------------------------------

    /// Rule 1: `Eval (f {xs}) ρ`: push the argument values on `as`; `Enter f`.
    fn rule1_apply(&mut self) -> Result<(), RuntimeError> {
        let (e, env) = self.take_eval();
        match &self.code.expr(e).code {
            ExprCode::App { fun, args } => {
                let f = self.lookup(&env, *fun);
                for a in args.iter().rev() {
                    let v = self.atom(&env, *a);
                    self.s.args.push(v);
                }
                self.s.control = Control::Enter(f);
            }
            ExprCode::ApplyEnv => {
                // `f {x1..xk}` over `[f, x1..xk]`.
                let f = self.lookup(&env, VarRef::Local(0));
                self.s.args.extend(env.iter().skip(1).rev());
                self.s.control = Control::Enter(f);
            }
            _ => {}
        }
        let cc = self.cc;
        self.ctr(cc).tail_calls += 1;
        Ok(())
    }

    /// Rule 2: `Enter a`, `a` re-entrant with n ≥ 0 arguments and enough on
    /// `as`: pop them; `Eval body` with free variables and arguments bound.
    /// Also enters constructor values (n = 0) and partial applications
    /// (`(f : xs) \r {} -> f xs`). Stacks mode: a function (n ≥ 1) or a
    /// partial application appends its captured stack.
    fn rule2_enter_reentrant(&mut self) -> Result<(), RuntimeError> {
        let Control::Enter(Value::Ptr(a)) = self.take_control() else {
            return Ok(());
        };
        let a = self.heap.deref(a);
        let Some(info) = self.heap.info(a) else {
            return Ok(());
        };
        let captured = self.heap.cc(a);
        // A use of the closure (its biography).
        self.heap.used(a);
        match info.tag {
            Tag::Lambda => {
                let lam = self.code.lambda(info.index);
                let nfree = lam.free.len();
                let mut env =
                    vec![Value::Int(0); (lam.slots as usize).max(nfree + lam.arity as usize)];
                for (i, slot) in env.iter_mut().enumerate().take(nfree) {
                    *slot = self.heap.payload(a, i);
                }
                // Stacks mode: an over-saturated call (`Accounting::call`),
                // also of an arity-0 closure, so that every application
                // finds its own arguments above the innermost one.
                let (args, floor) = (self.s.args.len(), self.as_base());
                let arity = lam.arity as usize;
                self.cc = self.acct.call(self.cc, args, floor, arity, captured);
                if lam.arity >= 1 {
                    self.cc = self.acct.enter_function(self.cc, captured);
                }
                for i in 0..lam.arity as usize {
                    env[nfree + i] = self.s.args.pop().unwrap_or(Value::Int(0));
                }
                self.s.control = Control::Eval(lam.body, env);
            }
            Tag::Con => {
                let env = (0..info.n as usize)
                    .map(|i| self.heap.payload(a, i))
                    .collect();
                self.s.control = Control::Eval(self.code.con_bodies[info.index as usize], env);
            }
            Tag::Pap => {
                let env: Vec<Value> = (0..info.n as usize)
                    .map(|i| self.heap.payload(a, i))
                    .collect();
                let (args, floor) = (self.s.args.len(), self.as_base());
                self.cc = common::enter_pap(
                    self.code,
                    &self.heap,
                    &mut self.acct,
                    self.cc,
                    a,
                    args,
                    floor,
                );
                self.s.control = Control::Eval(self.code.pap_app, env);
            }
            _ => {}
        }
        Ok(())
    }

    /// Rule 3: `Eval (let(rec) binds in e) ρ`: allocate one closure per
    /// binding, each carrying the current cost centre; `Eval e`.
    fn rule3_let(&mut self) -> Result<(), RuntimeError> {
        let Control::Eval(e, _) = &self.s.control else {
            return Ok(());
        };
        let ExprCode::Let { binds, body, .. } = &self.code.expr(*e).code else {
            return Ok(());
        };
        let words: usize = binds
            .iter()
            .map(|b| closure_words(self.code.lambda(b.lambda).free.len()))
            .sum();
        self.reserve(words, Rule::R3)?;
        let (_, mut env) = self.take_eval();
        let cc = self.cc;
        let mut addrs = Vec::with_capacity(binds.len());
        for b in binds {
            let lam = self.code.lambda(b.lambda);
            let info = Info {
                tag: Tag::Lambda,
                n: lam.free.len() as u32,
                index: b.lambda,
            };
            let zeros = vec![Value::Int(0); lam.free.len()];
            let a = self.alloc(info, cc, &zeros, Rule::R3)?;
            addrs.push(a);
            if let Some(slot) = env.get_mut(b.slot as usize) {
                *slot = Value::Ptr(a);
            }
        }
        for (b, &a) in binds.iter().zip(&addrs) {
            let lam = self.code.lambda(b.lambda);
            for (i, v) in lam.free.iter().enumerate() {
                let val = self.lookup(&env, *v);
                self.heap.set_payload(a, i, val);
            }
        }
        self.ctr(cc).words += words as u64;
        self.s.control = Control::Eval(*body, env);
        Ok(())
    }

    /// Rule 4: `Eval (case e of alts) ρ`: push `(alts, ρ′)`, ρ′ being ρ
    /// restricted to the free variables of `alts` (with the height of `as`
    /// and the current cost centre), on `rs`; `Eval e` in ρ.
    fn rule4_case(&mut self) -> Result<(), RuntimeError> {
        let (e, env) = self.take_eval();
        let ExprCode::Case { scrut, saves, .. } = &self.code.expr(e).code else {
            return Ok(());
        };
        debug_assert_eq!(Some(env.len()), Cont::env_len(self.code, e));
        let saved: Box<[Value]> = saves
            .iter()
            .map(|&s| env.get(s as usize).copied().unwrap_or(Value::Int(0)))
            .collect();
        self.rs_words += env.len() + 3;
        self.s.rs.push(Cont {
            case: e,
            saved,
            as_height: self.s.args.len(),
            cc: self.cc,
        });
        self.s.control = Control::Eval(*scrut, env);
        Ok(())
    }

    /// Rule 5: `Eval (c {xs}) ρ`: `ReturnCon c ws`.
    fn rule5_constructor(&mut self) -> Result<(), RuntimeError> {
        let (e, env) = self.take_eval();
        if let ExprCode::Con { con, args } = &self.code.expr(e).code {
            let ws = args.iter().map(|a| self.atom(&env, *a)).collect();
            self.s.control = Control::ReturnCon(*con, ws);
        }
        Ok(())
    }

    /// Pop the top continuation; returns it and the environment its
    /// alternatives run in: ρ′, its other slots `0#`.
    fn pop_cont(&mut self) -> (Cont, Vec<Value>) {
        let c = self
            .s
            .rs
            .pop()
            .expect("selected a return rule with a continuation");
        let env = c.env(self.code);
        self.rs_words = self.rs_words.saturating_sub(env.len() + 3);
        (c, env)
    }

    /// Charge a return to a case continuation and restore its cost centre.
    fn returned(&mut self, cont: &Cont) {
        let cc = self.cc;
        self.ctr(cc).tail_calls += 1;
        self.cc = cont.cc;
        self.span = self.code.expr(cont.case).span;
    }

    /// Rule 6: `ReturnCon c ws` meets an alternative for `c`: pop it; `Eval`
    /// the alternative with the fields bound.
    fn rule6_return_con_match(&mut self) -> Result<(), RuntimeError> {
        let Control::ReturnCon(c, ws) = self.take_control() else {
            return Ok(());
        };
        let (cont, mut env) = self.pop_cont();
        self.returned(&cont);
        if let ExprCode::Case {
            alts: AltsKind::Alg(alts),
            ..
        } = &self.code.expr(cont.case).code
            && let Some(alt) = alts.iter().find(|a| a.con == c)
        {
            for (slot, w) in alt.binds.iter().zip(ws) {
                if let Some(s) = env.get_mut(*slot as usize) {
                    *s = w;
                }
            }
            self.s.control = Control::Eval(alt.body, env);
        }
        Ok(())
    }

    /// Rule 7: `ReturnCon c ws`, no match, default `v -> e`: allocate a
    /// constructor closure for the value (current cost centre); bind `v`.
    fn rule7_return_con_default_bind(&mut self) -> Result<(), RuntimeError> {
        let n = match &self.s.control {
            Control::ReturnCon(_, ws) => ws.len(),
            _ => 0,
        };
        self.reserve(closure_words(n), Rule::R7)?;
        let Control::ReturnCon(c, ws) = self.take_control() else {
            return Ok(());
        };
        let cc = self.cc;
        let a = self.alloc(
            Info {
                tag: Tag::Con,
                n: n as u32,
                index: c,
            },
            cc,
            &ws,
            Rule::R7,
        )?;
        self.ctr(cc).words += closure_words(n) as u64;
        self.eval_bound_default(Value::Ptr(a));
        Ok(())
    }

    /// The shared end of rules 7 and 12: pop the continuation, bind its
    /// default's variable to the returned value, `Eval` the default's body.
    fn eval_bound_default(&mut self, value: Value) {
        let (cont, mut env) = self.pop_cont();
        self.returned(&cont);
        if let ExprCode::Case {
            default:
                Some(DefaultAlt {
                    bind: Some(slot),
                    body,
                }),
            ..
        } = &self.code.expr(cont.case).code
        {
            if let Some(s) = env.get_mut(*slot as usize) {
                *s = value;
            }
            self.s.control = Control::Eval(*body, env);
        }
    }

    /// Rule 8: `ReturnCon`, no match, `default -> e`: `Eval e`.
    fn rule8_return_con_default(&mut self) -> Result<(), RuntimeError> {
        self.take_control();
        let (cont, env) = self.pop_cont();
        self.returned(&cont);
        if let ExprCode::Case {
            default: Some(d), ..
        } = &self.code.expr(cont.case).code
        {
            self.s.control = Control::Eval(d.body, env);
        }
        Ok(())
    }

    /// Rule 9: `Eval k`: `ReturnInt k`.
    fn rule9_literal(&mut self) -> Result<(), RuntimeError> {
        let (e, _) = self.take_eval();
        if let ExprCode::Lit(k) = self.code.expr(e).code {
            self.s.control = Control::ReturnInt(k);
        }
        Ok(())
    }

    /// Rule 10: `Eval (x {})`, `x` bound to an `Int#`: `ReturnInt` its value.
    fn rule10_int_variable(&mut self) -> Result<(), RuntimeError> {
        let (e, env) = self.take_eval();
        if let ExprCode::App { fun, .. } = &self.code.expr(e).code
            && let Value::Int(k) = self.lookup(&env, *fun)
        {
            self.s.control = Control::ReturnInt(k);
        }
        Ok(())
    }

    /// Rule 11: `ReturnInt k` meets the alternative `k`: pop it; `Eval` it.
    fn rule11_return_int_match(&mut self) -> Result<(), RuntimeError> {
        let Control::ReturnInt(k) = self.take_control() else {
            return Ok(());
        };
        let (cont, env) = self.pop_cont();
        self.returned(&cont);
        if let ExprCode::Case {
            alts: AltsKind::Prim(alts),
            ..
        } = &self.code.expr(cont.case).code
            && let Some((_, body)) = alts.iter().find(|a| a.0 == k)
        {
            self.s.control = Control::Eval(*body, env);
        }
        Ok(())
    }

    /// Rule 12: `ReturnInt k`, no match, default `v -> e`: bind `v` to `k`
    /// (no allocation); `Eval e`.
    fn rule12_return_int_default_bind(&mut self) -> Result<(), RuntimeError> {
        let Control::ReturnInt(k) = self.take_control() else {
            return Ok(());
        };
        self.eval_bound_default(Value::Int(k));
        Ok(())
    }

    /// Rule 13: `ReturnInt k`, no match, `default -> e`: `Eval e`.
    fn rule13_return_int_default(&mut self) -> Result<(), RuntimeError> {
        self.rule8_return_con_default()
    }

    /// Rule 14: `Eval (op {x, y})`: `ReturnInt (x op y)`, wrapping; `/#`
    /// and `%#` truncate toward zero.
    fn rule14_primop(&mut self) -> Result<(), RuntimeError> {
        let (e, env) = self.take_eval();
        let node = self.code.expr(e);
        let ExprCode::Prim { op, args } = &node.code else {
            return Ok(());
        };
        let mut xs = [0i64; 2];
        for (i, a) in args.iter().enumerate().take(2) {
            match self.atom(&env, *a) {
                Value::Int(k) => xs[i] = k,
                Value::Ptr(_) => {
                    self.s.control = Control::Eval(e, env);
                    return Err(self.error(ErrorKind::ClosureNotInt, "14", Some(node.span)));
                }
            }
        }
        let Some(r) = primitives::apply(*op, xs[0], xs[1]) else {
            self.s.control = Control::Eval(e, env);
            return Err(self.error(ErrorKind::DivisionByZero, "14", Some(node.span)));
        };
        self.s.control = Control::ReturnInt(r);
        Ok(())
    }

    /// Push a frame and enter a thunk (rules 15 and 15′).
    fn enter_thunk(&mut self, update: bool) -> Result<(), RuntimeError> {
        let Control::Enter(Value::Ptr(a)) = self.take_control() else {
            return Ok(());
        };
        let a = self.heap.deref(a);
        let Some(info) = self.heap.info(a) else {
            return Ok(());
        };
        let lam = self.code.lambda(info.index);
        let mut env = vec![Value::Int(0); (lam.slots as usize).max(lam.free.len())];
        for (i, slot) in env.iter_mut().enumerate().take(lam.free.len()) {
            *slot = self.heap.payload(a, i);
        }
        self.s.us.push(Frame {
            update: if update { Some(a) } else { None },
            as_base: self.s.args.len(),
            rs_base: self.s.rs.len(),
            cc: self.cc,
        });
        self.heap.used(a);
        self.heap
            .blackhole(a, if update { Tag::BlackHole } else { Tag::Entered });
        self.cc = self.heap.cc(a);
        let cc = self.cc;
        self.ctr(cc).lazy_calls += 1;
        self.span = lam.span;
        self.s.control = Control::Eval(lam.body, env);
        Ok(())
    }

    /// Rule 15: `Enter a`, `a` is `\u`: push update frame `(as, rs, cc, a)`,
    /// empty `as`/`rs`; `cc := cc of a`; `Eval body`; `a` becomes a black hole.
    fn rule15_enter_updatable(&mut self) -> Result<(), RuntimeError> {
        self.enter_thunk(true)
    }

    /// Rule 15′: `Enter a`, `a` is `\s`: push restore frame `(as, rs, cc)`;
    /// `cc := cc of a`; `Eval body`; `a` is marked entered.
    fn rule15s_enter_single_entry(&mut self) -> Result<(), RuntimeError> {
        self.enter_thunk(false)
    }

    /// The cost centre a row of pops works under (hidden execution).
    fn evaluating(&mut self) -> u32 {
        let e = self.evaluating_cc();
        self.row_cc = Some(e);
        e
    }

    /// [`Machine::evaluating`] without starting the row.
    fn evaluating_cc(&self) -> u32 {
        self.row_cc.unwrap_or(self.cc)
    }

    fn pop_frame(&mut self) -> Frame {
        let f = self.s.us.pop().expect("selected a pop rule with a frame");
        self.cc = f.cc;
        f
    }

    /// Rule 16: `ReturnCon c ws` with `as`, `rs` empty and an update frame on
    /// top: overwrite `a_u` with the constructor (in place when the black
    /// hole has its size, else an indirection to a new constructor
    /// closure), with the evaluating cost centre; pop the frame,
    /// `cc := cc_u`.
    fn rule16_update_con(&mut self) -> Result<(), RuntimeError> {
        let n = match &self.s.control {
            Control::ReturnCon(_, ws) => ws.len(),
            _ => 0,
        };
        if let (Some(a), Control::ReturnCon(c, ws)) =
            (self.s.us.last().and_then(|f| f.update), &self.s.control)
        {
            let info = Info {
                tag: Tag::Con,
                n: n as u32,
                index: *c,
            };
            let ev = self.evaluating_cc();
            if self.heap.update_blackhole_with_con(a, info, ev, ws) {
                self.evaluating();
                self.ctr(ev).words += closure_words(n) as u64;
                self.pop_frame();
                return Ok(());
            }
        }
        self.reserve(closure_words(n), Rule::R16)?;
        let ev = self.evaluating();
        let (c, ws) = match &self.s.control {
            Control::ReturnCon(c, ws) => (*c, ws.clone()),
            _ => return Ok(()),
        };
        let v = self.alloc(
            Info {
                tag: Tag::Con,
                n: n as u32,
                index: c,
            },
            ev,
            &ws,
            Rule::R16,
        )?;
        self.ctr(ev).words += closure_words(n) as u64;
        let f = self.pop_frame();
        if let Some(a) = f.update {
            self.heap.update_with_ind(a, v);
        }
        Ok(())
    }

    /// Rule 16′: `ReturnCon` or `ReturnInt` with `as`, `rs` empty and a
    /// restore frame on top: pop it, `cc := cc_u`.
    fn rule16s_restore_return(&mut self) -> Result<(), RuntimeError> {
        self.evaluating();
        self.pop_frame();
        Ok(())
    }

    /// Rule 17a: `Enter a`, a function with more arguments than `as` holds,
    /// `rs` empty, update frame on top: overwrite `a_u` with a partial
    /// application `(f : xs1) \r {} -> f xs1` of `a` to `as` (evaluating cost
    /// centre); pop the frame; `cc := cc_u`; `Enter a` with `as ++ as_u`.
    /// Stacks mode: the continuation applies the new partial application, so
    /// its captured stack is appended.
    fn rule17a_update_pap(&mut self) -> Result<(), RuntimeError> {
        // The function is applied next as a value returned to the frame.
        let floor = self.as_base();
        let k = self.avail();
        self.reserve(closure_words(k + 1), Rule::R17a)?;
        let ev = self.evaluating();
        let Control::Enter(Value::Ptr(a)) = self.s.control else {
            return Ok(());
        };
        let a = self.heap.deref(a);
        // Stacks mode: the stack the partial application captures, which
        // over-saturated calls begun inside the frame change (their counts
        // stay with the row's entry, `ev`).
        let captured = self.acct.end_calls_for_pap(floor, ev, self.heap.cc(a));
        self.s.control = Control::Enter(Value::Ptr(a));
        let mut payload = Vec::with_capacity(k + 1);
        payload.push(Value::Ptr(a));
        let len = self.s.args.len();
        for i in 0..k {
            payload.push(self.s.args[len - 1 - i]);
        }
        let pap = self.alloc(
            Info {
                tag: Tag::Pap,
                n: (k + 1) as u32,
                index: 0,
            },
            captured,
            &payload,
            Rule::R17a,
        )?;
        let c = self.ctr(ev);
        c.words += closure_words(k + 1) as u64;
        c.curried_calls += 1;
        let f = self.pop_frame();
        if let Some(u) = f.update {
            self.heap.update_with_ind(u, pap);
        }
        // Stacks mode: the continuation applies the new partial application,
        // under the frame's stack.
        if let Some(needed) = common::args_needed(self.code, &self.heap, a) {
            let (args, floor) = (self.s.args.len(), self.as_base());
            self.acct.call_after_update(self.cc, args, floor, needed);
        }
        let fun = self.heap.cc(a);
        self.cc = self.acct.apply_pap(self.cc, captured, fun);
        Ok(())
    }

    /// Rule 17a′: as 17a with a restore frame on top: pop it, `cc := cc_u`;
    /// `Enter a` with `as ++ as_u`.
    fn rule17as_restore_pap(&mut self) -> Result<(), RuntimeError> {
        let floor = self.as_base();
        self.acct.end_calls_above(floor);
        let ev = self.evaluating();
        self.ctr(ev).curried_calls += 1;
        self.pop_frame();
        Ok(())
    }

    /// Rule scc: `Eval (scc l e)`. Flat mode: count one entry of `l`; push
    /// restore frame `(as, rs, cc)`; `cc := l`; `Eval e`. Stacks mode:
    /// `cc := push(cc, l)`, count an entry of the result; no frame.
    fn rule_scc(&mut self) -> Result<(), RuntimeError> {
        let (e, env) = self.take_eval();
        let ExprCode::Scc { cc: l, body } = &self.code.expr(e).code else {
            return Ok(());
        };
        match self.acct.mode {
            CostCentreMode::Flat => {
                self.s.us.push(Frame {
                    update: None,
                    as_base: self.s.args.len(),
                    rs_base: self.s.rs.len(),
                    cc: self.cc,
                });
                self.cc = *l;
            }
            CostCentreMode::Stacks => {
                self.cc = self.acct.scc(self.cc, *l);
            }
        }
        let cc = self.cc;
        self.ctr(cc).strict_calls += 1;
        self.s.control = Control::Eval(*body, env);
        Ok(())
    }

    /// Rule scc=: `Eval (scc l e)` with `l` already current (flat mode):
    /// count one entry of `l`; `Eval e`; no frame.
    fn rule_scc_eq(&mut self) -> Result<(), RuntimeError> {
        let (e, env) = self.take_eval();
        let ExprCode::Scc { cc: l, body } = &self.code.expr(e).code else {
            return Ok(());
        };
        self.ctr(*l).strict_calls += 1;
        self.s.control = Control::Eval(*body, env);
        Ok(())
    }

    // ----- driving and printing ------------------------------------------

    /// Run to the end: evaluate `main`, then force and print its value.
    pub fn run(&mut self, out: &mut dyn Write, trace: &mut dyn Write) -> Result<(), RuntimeError> {
        self.started = Instant::now();
        self.started_cpu = crate::gc::thread_cpu_time();
        let r = self.run_inner(out, trace);
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
            let _ = self.collecting(|heap, roots| heap.collect(0, roots));
        }
        let ended = self.tell("-", |o, m| o.ended(m, r.as_ref().err()));
        r.and(ended)
    }

    /// Collect, then take a census of the live heap (heap profiles).
    fn census(&mut self) {
        if !self.heap_profile.as_ref().is_some_and(|h| h.active()) {
            self.next_census = u64::MAX;
            return;
        }
        // A collection with nothing requested cannot fail for lack of room.
        let _ = self.collecting(|heap, roots| heap.collect(0, roots));
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
    }

    /// What the heap profile came to, when one was asked for.
    pub fn finish_heap_profile(&mut self) -> Option<HeapProfileSummary> {
        let heap = &mut self.heap;
        self.heap_profile.take().map(|h| h.finish(heap))
    }

    fn run_inner(
        &mut self,
        out: &mut dyn Write,
        trace: &mut dyn Write,
    ) -> Result<(), RuntimeError> {
        self.init_globals()?;
        if self.heap_profile.is_some() {
            self.census();
        }
        self.tell("-", |o, m| o.started(m))?;
        loop {
            if self.step(trace)?.is_some() {
                continue;
            }
            // Halted: a value in WHNF (or a function).
            let halted = match &self.s.control {
                Control::ReturnInt(k) => Halted::Int(*k),
                Control::ReturnCon(c, ws) => Halted::Con(*c, ws),
                Control::Enter(_) | Control::Eval(..) => Halted::Function,
            };
            match self.s.printer.halted(self.code, halted, out) {
                Ok(None) => return Ok(()),
                Ok(Some(v)) => {
                    self.force(v);
                    self.tell("-", |o, m| o.forced(m))?;
                }
                Err(e) => {
                    return Err(self.error(ErrorKind::output(OutputStream::Result, &e), "-", None));
                }
            }
        }
    }

    /// Start forcing `v` under `MAIN` with empty stacks.
    fn force(&mut self, v: Value) {
        self.s.args.clear();
        self.s.rs.clear();
        self.s.us.clear();
        self.rs_words = 0;
        self.cc = self.acct.main_entry;
        self.row_cc = None;
        self.s.control = Control::Enter(v);
    }

    // ----- results -------------------------------------------------------

    pub fn stats(&self) -> Stats {
        common::stats(self.steps, &self.heap, self.started, self.started_cpu)
    }

    /// The profile of the run so far (see [`Accounting::profile`]).
    pub fn profile(&self, reproducible: bool) -> Profile {
        let frequency = common::steps_frequency(self.steps, self.started, reproducible);
        self.acct.profile(&self.code.cost_centres, frequency)
    }

    // ----- trace ---------------------------------------------------------

    fn value_text(v: Value) -> String {
        match v {
            Value::Int(k) => format!("{k}#"),
            Value::Ptr(a) => format!("@{a}"),
        }
    }

    fn code_text(&self) -> String {
        match &self.s.control {
            Control::Eval(e, _) => {
                let node = self.code.expr(*e);
                let src = if node.span != Span::default()
                    && *e != self.code.main_app
                    && (node.span.file as usize) < self.sources.files().count()
                {
                    let f = self.sources.file(node.span.file);
                    f.text
                        .get(node.span.range())
                        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
                } else {
                    None
                };
                // Synthetic code (the initial `main {}`, placed at `main`'s
                // definition, partial applications, constructor values) has
                // no source text of its own.
                let vars = |n: usize, from: usize| {
                    (from..from + n)
                        .map(|i| format!("x{i}"))
                        .collect::<Vec<_>>()
                        .join(",")
                };
                let src = src.unwrap_or_else(|| match &node.code {
                    ExprCode::App {
                        fun: VarRef::Global(g),
                        args,
                    } => {
                        format!(
                            "{} {{{}}}",
                            self.code.globals[*g as usize].name,
                            vars(args.len(), 1)
                        )
                    }
                    ExprCode::App { args, .. } => format!("f {{{}}}", vars(args.len(), 1)),
                    ExprCode::ApplyEnv => {
                        let k = match &self.s.control {
                            Control::Eval(_, env) => env.len().saturating_sub(1),
                            _ => 0,
                        };
                        format!("f {{{}}}", vars(k, 1))
                    }
                    ExprCode::Con { con, args } => {
                        format!("{} {{{}}}", self.code.con_name(*con), vars(args.len(), 0))
                    }
                    _ => "<expr>".to_string(),
                });
                let short: String = src.chars().take(48).collect();
                if short.len() < src.len() {
                    format!("Eval {short}…")
                } else {
                    format!("Eval {short}")
                }
            }
            Control::Enter(v) => match v {
                Value::Ptr(a) => format!("Enter @{a} {}", self.closure_desc(self.heap.deref(*a))),
                Value::Int(k) => format!("Enter {k}#"),
            },
            Control::ReturnCon(c, ws) => format!(
                "ReturnCon {} {{{}}}",
                self.code.con_name(*c),
                ws.iter()
                    .map(|w| Self::value_text(*w))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Control::ReturnInt(k) => format!("ReturnInt {k}#"),
        }
    }

    /// The text trace's line for `rule`, about to fire.
    fn trace_line(&self, rule: Rule) -> String {
        let top_as = self
            .s
            .args
            .last()
            .map(|v| Self::value_text(*v))
            .unwrap_or_else(|| "-".into());
        let top_rs = self
            .s
            .rs
            .last()
            .map(|c| self.sources_loc(self.code.expr(c.case).span))
            .unwrap_or_else(|| "-".into());
        let top_us = self
            .s
            .us
            .last()
            .map(|f| match f.update {
                Some(a) => format!("upd@{a}"),
                None => "restore".into(),
            })
            .unwrap_or_else(|| "-".into());
        format!(
            "{:>6} {:<5} {:<60} as={}:{} rs={}:{} us={}:{} cc={}",
            self.steps + 1,
            rule.name(),
            self.code_text(),
            self.s.args.len(),
            top_as,
            self.s.rs.len(),
            top_rs,
            self.s.us.len(),
            top_us,
            self.cc_name(self.cc)
        )
    }

    fn sources_loc(&self, span: Span) -> String {
        if (span.file as usize) < self.sources.files().count() && span != Span::default() {
            self.sources.location(span)
        } else {
            "?".into()
        }
    }
}
