//! What a trace says, engine-independent: the records the tracer makes
//! and the JSON writer and the page read. A run is a [`Record`] for its
//! start (the whole initial state), one per step and per demand of the
//! result printer (what changed), and one for its end.
//!
//! Closures are named by a stable [`ClosureId`], the order of their
//! allocation (from 1), not by their address: the collector moves closures,
//! a trace must not. An id is never reused.

use std::borrow::Cow;

use crate::machine::code::{ConId, ExprId, LambdaId};
use crate::machine::reference::Rule;
use crate::profile::Counters;

/// A closure's stable name: the number of its allocation, from 1.
pub type ClosureId = u64;

/// A value on a stack, in an environment or in a closure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    Int(i64),
    Ref(ClosureId),
}

/// What a closure is now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A lambda form's closure; `values` are its free variables.
    Lambda(LambdaId),
    /// A constructor value built by rule 7 or 16; `values` are its fields.
    Con(ConId),
    /// A partial application (rule 17a); `values` are the function and its
    /// arguments.
    Pap,
    /// An updated thunk (rules 16, 17a): `values` holds its value's closure.
    Ind,
    /// A `\u` thunk under evaluation (rule 15); no values (its free
    /// variables are in the environment that evaluates it).
    BlackHole(LambdaId),
    /// A `\s` thunk already entered (rule 15′); no values.
    Entered(LambdaId),
}

/// A closure: what it is, the cost centre (or stack) that built it, and
/// its payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Closure {
    pub kind: Kind,
    pub cc: u32,
    pub values: Vec<Val>,
}

/// Variables by name, outermost first, each name once.
pub type Env<'c> = Vec<(Cow<'c, str>, Val)>;

/// The environment of an `Eval`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalEnv<'c> {
    /// All of it.
    Full(Env<'c>),
    /// The environment of the previous `Eval` (rules 3, 4, scc) or of the
    /// case continuation this step popped (rules 6–8, 11–13), with these
    /// variables bound (or rebound) in addition.
    Extends { base: EnvBase, bind: Env<'c> },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnvBase {
    Control,
    Continuation,
}

/// The machine's code component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Control<'c> {
    Eval { expr: ExprId, env: EvalEnv<'c> },
    Enter(Val),
    ReturnCon(ConId, Vec<Val>),
    ReturnInt(i64),
}

/// A case continuation: the `case` whose alternatives wait, the
/// environment they keep, the argument-stack height and the cost centre
/// (stack) it restores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cont<'c> {
    pub case: ExprId,
    pub env: Env<'c>,
    pub as_height: usize,
    pub cc: u32,
}

/// An update frame (`update` names the thunk) or a restore frame: the
/// heights of `as` and `rs` it saved and the cost centre (stack) it saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub update: Option<ClosureId>,
    pub as_height: usize,
    pub rs_height: usize,
    pub cc: u32,
}

/// A stack's change: `pop` items off the top, then `push` these (bottom
/// first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StackDelta<T> {
    pub pop: usize,
    pub push: Vec<T>,
}

impl<T> Default for StackDelta<T> {
    fn default() -> Self {
        StackDelta {
            pop: 0,
            push: Vec::new(),
        }
    }
}

impl<T> StackDelta<T> {
    pub fn is_empty(&self) -> bool {
        self.pop == 0 && self.push.is_empty()
    }
}

/// The heap's change: what a collection did (it runs before the step's
/// rule allocates), then closures allocated and closures overwritten
/// (their new contents).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeapDelta {
    /// Closures a collection found dead.
    pub free: Vec<ClosureId>,
    /// Indirections a collection removed, each with its value: every
    /// reference to the first (on the stacks, in environments, in
    /// closures) now refers to the second. The first is among `free`.
    pub forward: Vec<(ClosureId, ClosureId)>,
    pub alloc: Vec<(ClosureId, Closure)>,
    pub update: Vec<(ClosureId, Closure)>,
}

impl HeapDelta {
    pub fn is_empty(&self) -> bool {
        self.alloc.is_empty()
            && self.update.is_empty()
            && self.free.is_empty()
            && self.forward.is_empty()
    }
}

/// A new cost-centre stack (stacks mode): its id, the stack it extends,
/// the cost centre on top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewStack {
    pub id: u32,
    pub parent: u32,
    pub cc: u32,
}

/// What a record is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The initial state (everything in it is new).
    Start,
    /// A rule fired.
    Step(Rule),
    /// The machine halted with a value; the result printer printed what it
    /// could and demands the next value.
    Force,
    /// The run ended.
    End(Outcome),
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The result is printed.
    Halted,
    /// `--max-steps` stopped it before `rule` fired.
    StepLimit { limit: u64, rule: &'static str },
    /// A runtime error (or another limit): its message, as printed.
    Error { message: String, rule: &'static str },
}

/// One record of a trace: an event and the state's change it made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record<'c> {
    pub event: Event,
    /// Steps fired so far.
    pub step: u64,
    pub control: Option<Control<'c>>,
    pub args: StackDelta<Val>,
    pub rs: StackDelta<Cont<'c>>,
    pub us: StackDelta<Frame>,
    /// The current cost centre (stack), when it changed.
    pub cc: Option<u32>,
    pub heap: HeapDelta,
    /// Counter increments, by entry.
    pub counters: Vec<(u32, Counters)>,
    /// Stacks mode: stacks made by this step.
    pub stacks: Vec<NewStack>,
    /// What the program printed since the last record.
    pub output: String,
}

impl<'c> Record<'c> {
    pub fn new(event: Event, step: u64) -> Record<'c> {
        Record {
            event,
            step,
            control: None,
            args: StackDelta::default(),
            rs: StackDelta::default(),
            us: StackDelta::default(),
            cc: None,
            heap: HeapDelta::default(),
            counters: Vec::new(),
            stacks: Vec::new(),
            output: String::new(),
        }
    }
}
