//! The tracer: an [`Observer`] of the reference engine that turns each
//! step into a [`Record`] of what it changed.
//!
//! It keeps a shadow of the machine in trace terms: every closure in the
//! heap by its stable [`ClosureId`] (with its current address), the map
//! from addresses to ids, and the stacks as the last record left them.
//! After a step it reads what can have changed and nothing else:
//!
//! - the heap: closures allocated since the last record (they lie above
//!   the allocation pointer it saw last), the closure the step entered
//!   (rules 15 and 15′ black-hole it) and the thunk of the update frame
//!   that was on top (rules 16 and 17a overwrite it); no other rule writes
//!   into an existing closure;
//! - the stacks: from the top down to the first item that is unchanged
//!   (stacks change at the top only);
//! - the counters of the entries the step can have charged: the entry
//!   current before and after it, and the one the last step charged (a
//!   row of frame pops charges the entry current before the row).
//!
//! A collection moves closures and frees the dead: the engine says where
//! each root went, and the tracer walks the live heap from the roots in
//! step with its shadow to learn every closure's new address; closures it
//! does not reach are freed (indirections among them: the collector
//! removes them). The cost is that of the collection itself.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io;
use std::rc::Rc;

use crate::gc::{Addr, Heap, Tag, Value};
use crate::machine::code::{Code, ExprId};
use crate::machine::explain::delta::*;
use crate::machine::explain::scope::Scopes;
use crate::machine::reference::{self, Observer, Rule, View};
use crate::machine::{ErrorKind, RuntimeError};
use crate::profile::Counters;

/// Where records go: the JSON writer, and through it the trace and the
/// page.
pub trait RecordSink {
    /// The run's program, before its first record.
    fn header(&mut self, header: &Header<'_>) -> io::Result<()>;
    fn record(&mut self, record: &Record<'_>) -> io::Result<()>;
}

/// What a trace says once, before its records: the program and the run's
/// settings.
pub struct Header<'c> {
    pub code: &'c Code,
    pub stacks_mode: bool,
    pub max_steps: Option<u64>,
    /// The closure of each global, by global id.
    pub globals: Vec<ClosureId>,
}

/// A fast hash for addresses and ids (the standard one is built to resist
/// chosen keys, which these are not).
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type WordMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// The control as the last record left it (what the next step's
/// environment can extend, and the closure an `Enter` names).
#[derive(Clone, Copy, Debug)]
enum Was {
    Eval(ExprId),
    Enter(Val),
    Other,
}

/// A case continuation as the tracer remembers it (its environment is in
/// the record that pushed it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ContKey {
    case: ExprId,
    as_height: usize,
    cc: u32,
    saved: usize,
}

pub struct Tracer<'c, 's> {
    code: &'c Code,
    scopes: Scopes,
    sink: &'s mut dyn RecordSink,
    stacks_mode: bool,
    max_steps: Option<u64>,
    next_id: ClosureId,
    /// Every closure in the heap: its address and contents.
    closures: WordMap<ClosureId, (Addr, Closure)>,
    ids: WordMap<Addr, ClosureId>,
    /// Closures at and above this address are new since the last record.
    next_new: Addr,
    /// Closures collections freed since the last record.
    freed: Vec<ClosureId>,
    /// Indirections collections removed since the last record, each with
    /// the closure references to it now name.
    forwarded: Vec<(ClosureId, ClosureId)>,
    was: Was,
    /// The last control said, unless it was an `Eval` (rules that pop
    /// frames leave the control as it was: a record then leaves it out).
    said: Option<Control<'c>>,
    args: Vec<Val>,
    rs: Vec<ContKey>,
    us: Vec<Frame>,
    cc: u32,
    /// The entry the last step charged its tick to.
    charged: Option<u32>,
    counters: Vec<Counters>,
    stacks_made: usize,
    /// What the program printed, and how much of it records have carried.
    output: Rc<RefCell<Vec<u8>>>,
    output_told: usize,
    /// Values naming no known closure (a fault of the tracer; each is
    /// written as closure 0).
    unknown: u64,
    /// Has the first record been made?
    begun: bool,
}

impl<'c, 's> Tracer<'c, 's> {
    /// A tracer of a run of `code`, sending its records to `sink`;
    /// `output` is what the run prints, as it prints it.
    pub fn new(
        code: &'c Code,
        stacks_mode: bool,
        max_steps: Option<u64>,
        sink: &'s mut dyn RecordSink,
        output: Rc<RefCell<Vec<u8>>>,
    ) -> Tracer<'c, 's> {
        Tracer {
            code,
            scopes: Scopes::new(code),
            sink,
            stacks_mode,
            max_steps,
            next_id: 1,
            closures: WordMap::default(),
            ids: WordMap::default(),
            next_new: 0,
            freed: Vec::new(),
            forwarded: Vec::new(),
            was: Was::Other,
            said: None,
            args: Vec::new(),
            rs: Vec::new(),
            us: Vec::new(),
            cc: 0,
            charged: None,
            counters: Vec::new(),
            stacks_made: 0,
            output,
            output_told: 0,
            unknown: 0,
            begun: false,
        }
    }

    /// Values the tracer could not name (0 unless it has a bug).
    pub fn unknown_values(&self) -> u64 {
        self.unknown
    }

    /// The last record: how the run ended, with what it printed last and
    /// what collections freed since the last step.
    fn end(&mut self, m: &View<'_>, outcome: Outcome) -> io::Result<()> {
        let mut r = Record::new(Event::End(outcome), m.steps);
        self.heap_delta(m, &mut r);
        r.output = self.new_output();
        self.sink.record(&r)
    }

    // ----- values and closures ------------------------------------------

    fn val(&mut self, v: Value) -> Val {
        match v {
            Value::Int(k) => Val::Int(k),
            Value::Ptr(a) => match self.ids.get(&a) {
                Some(&id) => Val::Ref(id),
                None => {
                    self.unknown += 1;
                    Val::Ref(0)
                }
            },
        }
    }

    /// The closure at `a`, in trace terms.
    fn read(&mut self, heap: &Heap, a: Addr) -> Closure {
        let Some(info) = heap.info(a) else {
            self.unknown += 1;
            return Closure {
                kind: Kind::Ind,
                cc: 0,
                values: vec![Val::Ref(0)],
            };
        };
        let (kind, n) = match info.tag {
            Tag::Lambda => (Kind::Lambda(info.index), info.n as usize),
            Tag::Con => (Kind::Con(info.index), info.n as usize),
            Tag::Pap => (Kind::Pap, info.n as usize),
            Tag::Ind | Tag::Forward => (Kind::Ind, 1),
            Tag::BlackHole => (Kind::BlackHole(info.index), 0),
            Tag::Entered => (Kind::Entered(info.index), 0),
        };
        let values = (0..n).map(|i| self.val(heap.payload(a, i))).collect();
        Closure {
            kind,
            cc: heap.cc(a),
            values,
        }
    }

    /// Follow indirections in the shadow (bounded, as the heap's own).
    fn deref(&self, mut id: ClosureId) -> ClosureId {
        for _ in 0..1_000_000 {
            match self.closures.get(&id) {
                Some((_, c)) if c.kind == Kind::Ind => match c.values.first() {
                    Some(Val::Ref(t)) => id = *t,
                    _ => break,
                },
                _ => break,
            }
        }
        id
    }

    /// Name the closures allocated since the last record, and read them
    /// (after naming them all: a `letrec`'s closures point at each other).
    fn allocated(&mut self, heap: &Heap) -> Vec<(ClosureId, Closure)> {
        let mut fresh = Vec::new();
        let mut a = self.next_new;
        let end = heap.next_addr();
        while a < end {
            let Some(info) = heap.info(a) else { break };
            let id = self.next_id;
            self.next_id += 1;
            self.ids.insert(a, id);
            fresh.push((id, a));
            a += info.size() as Addr;
        }
        self.next_new = end;
        fresh
            .into_iter()
            .map(|(id, a)| {
                let c = self.read(heap, a);
                self.closures.insert(id, (a, c.clone()));
                (id, c)
            })
            .collect()
    }

    /// The heap's change since the last record: `watch` are the closures
    /// the step may have overwritten.
    fn heap_delta(&mut self, m: &View<'_>, r: &mut Record<'c>) {
        r.heap.free = std::mem::take(&mut self.freed);
        r.heap.forward = std::mem::take(&mut self.forwarded);
        r.heap.alloc = self.allocated(m.heap);
    }

    fn overwritten(&mut self, heap: &Heap, watch: &[ClosureId], r: &mut Record<'c>) {
        for (i, &id) in watch.iter().enumerate() {
            if watch[..i].contains(&id) {
                continue;
            }
            let Some(&(a, ref old)) = self.closures.get(&id) else {
                continue;
            };
            let old = old.clone();
            let new = self.read(heap, a);
            if new != old {
                self.closures.insert(id, (a, new.clone()));
                r.heap.update.push((id, new));
            }
        }
    }

    // ----- control, stacks, counters -------------------------------------

    fn env(
        &mut self,
        env: &[Value],
        names: Vec<crate::machine::explain::scope::Binding<'c>>,
    ) -> Env<'c> {
        names
            .into_iter()
            .map(|b| {
                let v = env.get(b.slot as usize).copied().unwrap_or(Value::Int(0));
                (b.name, self.val(v))
            })
            .collect()
    }

    /// The control, its environment said as an extension of `base` where
    /// the rule keeps the environment it had (`base` is that `Eval`'s
    /// expression).
    fn control(&mut self, m: &View<'_>, base: Option<(EnvBase, ExprId)>) -> Control<'c> {
        match m.control {
            reference::Control::Eval(e, env) => {
                let code = self.code;
                let extended =
                    base.and_then(|(b, from)| Some((b, self.scopes.added(code, from, *e)?)));
                let env = match extended {
                    Some((base, added)) => EvalEnv::Extends {
                        base,
                        bind: self.env(env, added),
                    },
                    None => {
                        let names = self.scopes.visible(code, *e, env.len());
                        EvalEnv::Full(self.env(env, names))
                    }
                };
                self.was = Was::Eval(*e);
                Control::Eval { expr: *e, env }
            }
            reference::Control::Enter(v) => {
                let v = self.val(*v);
                self.was = Was::Enter(v);
                Control::Enter(v)
            }
            reference::Control::ReturnCon(c, ws) => {
                self.was = Was::Other;
                Control::ReturnCon(*c, ws.iter().map(|w| self.val(*w)).collect())
            }
            reference::Control::ReturnInt(k) => {
                self.was = Was::Other;
                Control::ReturnInt(*k)
            }
        }
    }

    /// `control` if it is not the control the last record left.
    fn changed(&mut self, control: Control<'c>) -> Option<Control<'c>> {
        if matches!(control, Control::Eval { .. }) {
            self.said = None;
            return Some(control);
        }
        if self.said.as_ref() == Some(&control) {
            return None;
        }
        self.said = Some(control.clone());
        Some(control)
    }

    fn frame(&mut self, f: &reference::Frame) -> Frame {
        Frame {
            update: f.update.map(|a| match self.val(Value::Ptr(a)) {
                Val::Ref(id) => id,
                Val::Int(_) => 0,
            }),
            as_height: f.as_base,
            rs_height: f.rs_base,
            cc: f.cc,
        }
    }

    /// How many items at the bottom of `old` and `new` agree, judged from
    /// the top down (`same(i)` compares item `i`): stacks change at the top.
    fn kept(old: usize, new: usize, same: &mut dyn FnMut(usize) -> bool) -> usize {
        let mut k = old.min(new);
        while k > 0 && !same(k - 1) {
            k -= 1;
        }
        k
    }

    fn stacks(&mut self, m: &View<'_>, r: &mut Record<'c>) {
        // as
        let new_args: Vec<Val> = {
            let old = self.args.len();
            let mut k = old.min(m.args.len());
            while k > 0 && self.val(m.args[k - 1]) != self.args[k - 1] {
                k -= 1;
            }
            r.args.pop = old - k;
            self.args.truncate(k);
            m.args[k..].iter().map(|v| self.val(*v)).collect()
        };
        self.args.extend_from_slice(&new_args);
        r.args.push = new_args;
        // rs (each stack compared from the top down only until its items
        // agree, so that a step costs what it changed, not the depth)
        let code = self.code;
        let key = |c: &reference::Cont| ContKey {
            case: c.case,
            as_height: c.as_height,
            cc: c.cc,
            saved: c.saved.len(),
        };
        let old = &self.rs;
        let k = Self::kept(old.len(), m.rs.len(), &mut |i| old[i] == key(&m.rs[i]));
        r.rs.pop = self.rs.len() - k;
        self.rs.truncate(k);
        for c in &m.rs[k..] {
            // Only what the continuation saves (rule 4): the names of the
            // case's scope in the slots of its alternatives' free variables.
            let env_len = reference::Cont::env_len(code, c.case).unwrap_or(0);
            let saved: Vec<u32> = c.saved_slots(code).map(|(s, _)| s).collect();
            let names = self
                .scopes
                .visible(code, c.case, env_len)
                .into_iter()
                .filter(|b| saved.contains(&b.slot))
                .collect();
            let env = self.env(&c.env(code), names);
            r.rs.push.push(Cont {
                case: c.case,
                env,
                as_height: c.as_height,
                cc: c.cc,
            });
            self.rs.push(key(c));
        }
        // us
        let old = self.us.len();
        let k = Self::kept(old, m.us.len(), &mut |i| {
            let f = self.frame(&m.us[i]);
            self.us[i] == f
        });
        r.us.pop = old - k;
        self.us.truncate(k);
        let frames: Vec<Frame> = m.us[k..].iter().map(|f| self.frame(f)).collect();
        self.us.extend_from_slice(&frames);
        r.us.push = frames;
    }

    fn counters(&mut self, m: &View<'_>, r: &mut Record<'c>, all: bool) {
        let mut entries: Vec<u32> = if all {
            let n = (self.code.cost_centres.len() + 1).max(m.acct.stacks.len());
            (0..n as u32).collect()
        } else {
            let mut e = vec![self.cc, m.cc];
            e.extend(self.charged);
            e
        };
        entries.sort_unstable();
        entries.dedup();
        for e in entries {
            let now = m.acct.counters_of(e);
            let i = e as usize;
            if self.counters.len() <= i {
                self.counters.resize(i + 1, Counters::default());
            }
            let was = self.counters[i];
            if now != was {
                let inc = Counters {
                    ticks: now.ticks.wrapping_sub(was.ticks),
                    words: now.words.wrapping_sub(was.words),
                    tail_calls: now.tail_calls.wrapping_sub(was.tail_calls),
                    strict_calls: now.strict_calls.wrapping_sub(was.strict_calls),
                    lazy_calls: now.lazy_calls.wrapping_sub(was.lazy_calls),
                    curried_calls: now.curried_calls.wrapping_sub(was.curried_calls),
                };
                if inc.ticks > 0 {
                    self.charged = Some(e);
                }
                self.counters[i] = now;
                r.counters.push((e, inc));
            }
        }
        if r.cc.is_some() || self.cc != m.cc {
            r.cc = Some(m.cc);
        }
        self.cc = m.cc;
        if self.stacks_mode {
            let n = m.acct.stacks.len();
            for id in self.stacks_made..n {
                let node = m.acct.stacks.node(id as u32);
                r.stacks.push(NewStack {
                    id: id as u32,
                    parent: node.parent,
                    cc: node.cc,
                });
            }
            self.stacks_made = n;
        }
    }

    fn new_output(&mut self) -> String {
        let out = self.output.borrow();
        let new = String::from_utf8_lossy(&out[self.output_told.min(out.len())..]).into_owned();
        self.output_told = out.len();
        new
    }
}

impl Observer for Tracer<'_, '_> {
    fn started(&mut self, m: &View<'_>) -> io::Result<()> {
        let mut r = Record::new(Event::Start, m.steps);
        self.next_new = 0;
        self.begun = true;
        self.heap_delta(m, &mut r);
        let globals = m
            .globals
            .iter()
            .map(|g| match self.val(*g) {
                Val::Ref(id) => id,
                Val::Int(_) => 0,
            })
            .collect();
        self.sink.header(&Header {
            code: self.code,
            stacks_mode: self.stacks_mode,
            max_steps: self.max_steps,
            globals,
        })?;
        let control = self.control(m, None);
        r.control = self.changed(control);
        self.stacks(m, &mut r);
        r.cc = Some(m.cc);
        self.counters(m, &mut r, true);
        r.output = self.new_output();
        self.sink.record(&r)
    }

    fn stepped(&mut self, m: &View<'_>, rule: Rule) -> io::Result<()> {
        let mut r = Record::new(Event::Step(rule), m.steps);
        // Before the stacks are read anew: what the step may have
        // overwritten, and the environment it may extend.
        let mut watch = Vec::new();
        if let Was::Enter(Val::Ref(id)) = self.was {
            watch.push(self.deref(id));
        }
        if let Some(id) = self.us.last().and_then(|f| f.update) {
            watch.push(id);
        }
        let base = match (rule, self.was) {
            (Rule::R3 | Rule::R4 | Rule::Scc | Rule::SccEq, Was::Eval(e)) => {
                Some((EnvBase::Control, e))
            }
            (Rule::R6 | Rule::R7 | Rule::R8 | Rule::R11 | Rule::R12 | Rule::R13, _) => {
                self.rs.last().map(|c| (EnvBase::Continuation, c.case))
            }
            _ => None,
        };
        self.heap_delta(m, &mut r);
        self.overwritten(m.heap, &watch, &mut r);
        let control = self.control(m, base);
        r.control = self.changed(control);
        self.stacks(m, &mut r);
        self.counters(m, &mut r, false);
        r.output = self.new_output();
        self.sink.record(&r)
    }

    fn forced(&mut self, m: &View<'_>) -> io::Result<()> {
        let mut r = Record::new(Event::Force, m.steps);
        self.heap_delta(m, &mut r);
        let control = self.control(m, None);
        r.control = self.changed(control);
        self.stacks(m, &mut r);
        self.counters(m, &mut r, false);
        r.output = self.new_output();
        self.sink.record(&r)
    }

    fn ended(&mut self, m: &View<'_>, error: Option<&RuntimeError>) -> io::Result<()> {
        let outcome = match error {
            None => Outcome::Halted,
            Some(e) => match e.kind {
                ErrorKind::StepLimit { limit } => Outcome::StepLimit {
                    limit,
                    rule: e.rule,
                },
                _ => Outcome::Error {
                    message: e.to_string(),
                    rule: e.rule,
                },
            },
        };
        self.end(m, outcome)
    }

    fn collected(&mut self, heap: &Heap, moves: &[(Value, Value)]) {
        // A collection before the first record (making the globals) is
        // seen by `started`, which reads the whole heap.
        if !self.begun {
            return;
        }
        let mut ids: WordMap<Addr, ClosureId> = WordMap::default();
        let mut work: Vec<(Addr, ClosureId)> = Vec::new();
        // Indirections the collector bypassed: a reference to one now
        // refers to its value.
        let mut forward: WordMap<ClosureId, ClosureId> = WordMap::default();
        let mut reach =
            |id: ClosureId, at: Addr, this: &Self, work: &mut Vec<(Addr, ClosureId)>| {
                let target = this.deref(id);
                if target != id {
                    forward.insert(id, target);
                }
                if ids.insert(at, target).is_none() {
                    work.push((at, target));
                }
            };
        for &(old, new) in moves {
            if let (Value::Ptr(o), Value::Ptr(n)) = (old, new) {
                match self.ids.get(&o) {
                    Some(&id) => reach(id, n, self, &mut work),
                    None => self.unknown += 1,
                }
            }
        }
        while let Some((a, id)) = work.pop() {
            let Some((_, c)) = self.closures.get(&id) else {
                self.unknown += 1;
                continue;
            };
            for (i, v) in c.values.iter().enumerate() {
                if let (Val::Ref(child), Value::Ptr(p)) = (*v, heap.payload(a, i)) {
                    reach(child, p, self, &mut work);
                }
            }
        }
        let live: WordMap<ClosureId, Addr> = ids.iter().map(|(&a, &id)| (id, a)).collect();
        let mut freed: Vec<ClosureId> = Vec::new();
        let fwd = |v: &mut Val| {
            if let Val::Ref(id) = v
                && let Some(&t) = forward.get(id)
            {
                *id = t;
            }
        };
        self.closures.retain(|id, (addr, c)| match live.get(id) {
            Some(&a) => {
                *addr = a;
                c.values.iter_mut().for_each(fwd);
                true
            }
            None => {
                freed.push(*id);
                false
            }
        });
        self.args.iter_mut().for_each(fwd);
        for f in &mut self.us {
            if let Some(id) = &mut f.update {
                let mut v = Val::Ref(*id);
                fwd(&mut v);
                if let Val::Ref(t) = v {
                    *id = t;
                }
            }
        }
        if let Was::Enter(v) = &mut self.was {
            fwd(v);
        }
        self.said = None;
        // Earlier forwards not yet told lead on to the new targets.
        for (_, t) in self.forwarded.iter_mut() {
            if let Some(&n) = forward.get(t) {
                *t = n;
            }
        }
        let mut forward: Vec<(ClosureId, ClosureId)> = forward.into_iter().collect();
        forward.sort_unstable();
        self.forwarded.extend(forward);
        freed.sort_unstable();
        self.freed.extend(freed);
        self.ids = ids;
        self.next_new = heap.next_addr();
    }
}
