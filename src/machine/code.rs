//! The resolved form of a program that the engines run: variables resolved
//! to environment slots or global indices, constructors to ids, `scc` labels
//! to cost-centre ids; spans and binding names kept for errors, traces and
//! heap-profile descriptions. Built once by [`crate::machine::lower`];
//! engine-independent (the fast engine compiles from it too).
//!
//! Environments: each lambda form's body runs in one flat environment of
//! `slots` values: its free variables first (slot `i` is free variable `i`),
//! then its arguments, then one slot per `let(rec)` binding and case binder
//! in its body. Lowering never reuses a slot within a body, so a slot names
//! one binding (the fast engine renumbers its copy so that a binding reuses
//! the slot of a variable its environment no longer holds: `fast/slots.rs`;
//! `slot_names` stay the lowering's). A case continuation saves only its alternatives' free variables
//! ([`ExprCode::Case::saves`]), as GHC's does (rule 4).

use crate::profile::cost_centre::{CcId, CostCentreTable};
use crate::stg::syntax::{Flag, PrimOp, Span};

pub type ExprId = u32;
pub type LambdaId = u32;
pub type ConId = u32;
pub type GlobalId = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarRef {
    Local(u32),
    Global(GlobalId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomCode {
    Var(VarRef),
    Lit(i64),
}

#[derive(Clone, Debug)]
pub struct LambdaCode {
    /// Description: the binding's name, `outer.inner` for nested bindings.
    pub name: String,
    pub flag: Flag,
    /// Where each free variable comes from in the allocating environment.
    pub free: Vec<VarRef>,
    pub arity: u32,
    /// Size of the environment the body runs in.
    pub slots: u32,
    /// The variable each slot holds, by its source name (free variables,
    /// arguments, then `let(rec)` binders and case binders in the order
    /// they were given slots): for traces, which show environments by name.
    pub slot_names: Vec<String>,
    pub body: ExprId,
    pub span: Span,
    /// Index in `Program::modules`.
    pub module: u32,
    /// A top-level binding: its one closure is static (not in heap profiles).
    pub top_level: bool,
}

#[derive(Clone, Debug)]
pub struct LetBind {
    pub slot: u32,
    pub lambda: LambdaId,
}

#[derive(Clone, Debug)]
pub struct AlgAlt {
    pub con: ConId,
    pub binds: Vec<u32>,
    pub body: ExprId,
}

#[derive(Clone, Debug)]
pub enum AltsKind {
    Alg(Vec<AlgAlt>),
    Prim(Vec<(i64, ExprId)>),
    /// Only a default alternative.
    DefaultOnly,
}

#[derive(Clone, Debug)]
pub struct DefaultAlt {
    /// `v -> e` binds `v` to this slot; `default -> e` binds nothing.
    pub bind: Option<u32>,
    pub body: ExprId,
}

#[derive(Clone, Debug)]
pub enum ExprCode {
    Let {
        rec: bool,
        binds: Vec<LetBind>,
        body: ExprId,
    },
    Case {
        scrut: ExprId,
        alts: AltsKind,
        default: Option<DefaultAlt>,
        /// The slots rule 4's continuation saves: the local variables free
        /// in the alternatives (bound outside them), ascending. The
        /// environment restricted to these is what the continuation keeps
        /// alive.
        saves: Vec<u32>,
        /// The size of the environment the case runs in (its lambda's
        /// `slots`): the alternatives run in one of this size, and
        /// `--max-stack` counts a continuation as this and 3.
        env_len: u32,
    },
    Scc {
        cc: CcId,
        body: ExprId,
    },
    App {
        fun: VarRef,
        args: Vec<AtomCode>,
    },
    Con {
        con: ConId,
        args: Vec<AtomCode>,
    },
    Prim {
        op: PrimOp,
        args: Vec<AtomCode>,
    },
    Lit(i64),
    /// `f {x1..xk}` over the environment `[f, x1..xk]`, `k` being the
    /// environment's length less one: the body of every partial
    /// application (rule 17a's `(f : xs) \r {} -> f xs`), one node for any
    /// number of arguments. Fires rule 1 like [`ExprCode::App`].
    ApplyEnv,
}

#[derive(Clone, Debug)]
pub struct ExprNode {
    pub code: ExprCode,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct GlobalCode {
    pub name: String,
    pub module: u32,
    pub lambda: LambdaId,
}

#[derive(Clone, Debug)]
pub struct ConInfo {
    pub name: String,
    pub arity: u32,
}

#[derive(Clone, Debug)]
pub struct Code {
    pub exprs: Vec<ExprNode>,
    pub lambdas: Vec<LambdaCode>,
    pub globals: Vec<GlobalCode>,
    pub cons: Vec<ConInfo>,
    /// The global `main`.
    pub main: GlobalId,
    /// The initial code, `main {}`.
    pub main_app: ExprId,
    /// [`ExprCode::ApplyEnv`]: the body of every partial application.
    pub pap_app: ExprId,
    /// `con_bodies[c]` is `c {x1..xn}` over `[x1..xn]`: the body of a
    /// constructor value closure `(vs \r {} -> c vs)` built by rules 7 and 16.
    pub con_bodies: Vec<ExprId>,
    pub cost_centres: CostCentreTable,
    /// Module names in load order.
    pub modules: Vec<String>,
}

impl Code {
    pub fn expr(&self, e: ExprId) -> &ExprNode {
        &self.exprs[e as usize]
    }
    pub fn lambda(&self, l: LambdaId) -> &LambdaCode {
        &self.lambdas[l as usize]
    }
    pub fn con_name(&self, c: ConId) -> &str {
        self.cons
            .get(c as usize)
            .map(|c| c.name.as_str())
            .unwrap_or("?")
    }
}
