//! The fast engine's compiled form of a program: one [`Op`] per expression
//! of [`Code`] (the op of expression `e` is `ops[e]`, so an `ExprId` is also
//! a program counter), specialised by what the expression's operands and
//! scrutinee are, for the op loop (`threaded.rs`).
//!
//! Every atom becomes an [`Opnd`]: an index into the value stack `vals`,
//! relative to the current environment for a local variable, absolute for a
//! global or a literal. The bottom of `vals` is the **constant area**: one
//! slot per global (its closure's address, moved by the collector like any
//! other root), then one slot per distinct literal used as an atom
//! (`Int#`s, which the collector skips). Reading any atom is then one
//! indexed load, with no match on its kind.
//!
//! An expression the op loop does not run fast compiles to [`Op::Rules`]:
//! the rule loop (`rules.rs`) fires its rule. So does any expression with a
//! local variable outside its environment (lowering never makes one; the
//! rule loop reads such a variable as `0#`).
//!
//! # Verified once, indexed without checks
//!
//! [`compile`] ends with [`Compiled::verify`], which checks every index the
//! op loop follows from one table into another: each op's operands,
//! alternatives, `let` closures and next expressions, each alternative's
//! bound slots and body, each lambda's body, `case_alts`. A program that
//! fails it (lowering never makes one) gets no ops at all: every
//! expression is left to the rule loop. The op loop then reads the tables
//! through the `unsafe` accessors below without bounds checks; each says
//! which verified fact makes it sound, and checks it with `debug_assert!`
//! in the builds `cargo test` makes.

use std::collections::HashMap;

use crate::gc::{Info, Tag, Value, Word, closure_words};
use crate::machine::accounting::Accounting;
use crate::machine::code::*;
use crate::profile::cost_centre::CcId;
use crate::stg::syntax::{Flag, PrimOp};

/// An atom as an index into `vals`: `LOCAL | slot` for a variable of the
/// current environment (relative to its base), otherwise the absolute
/// index of a global or a literal in the constant area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Opnd(pub u32);

impl Opnd {
    pub const LOCAL: u32 = 1 << 31;

    /// Slot `slot` of the current environment.
    #[inline(always)]
    pub const fn local(slot: u32) -> Opnd {
        Opnd(Self::LOCAL | slot)
    }

    /// The index of this operand in `vals` for an environment at `base`.
    ///
    /// A local's is `base + self.0 - LOCAL`, chosen by the tag, which the
    /// compiler turns into the operand plus `base - LOCAL` or 0 (the tag
    /// tested as the sign bit, a conditional move, an add): four
    /// instructions where masking the tag off and adding a masked base
    /// took six, a few times a step (docs/PERFORMANCE.md, "Operands
    /// decoded in four instructions, session 17").
    #[inline(always)]
    pub fn index(self, base: usize) -> usize {
        let o = self.0 as usize;
        let local = base.wrapping_add(o).wrapping_sub(Self::LOCAL as usize);
        if self.0 & Self::LOCAL != 0 { local } else { o }
    }
}

/// `NONE` in a `u32` field: no default alternative, no bound variable.
pub(super) const NONE: u32 = u32::MAX;

/// What a case's alternatives match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AltsOn {
    Con,
    Int,
    /// Only a default alternative.
    Default,
}

/// A case's alternatives: `n` of them from `first` in `con_alts` (for
/// `AltsOn::Con`) or `int_alts` (for `AltsOn::Int`), then the default.
#[derive(Clone, Copy, Debug)]
pub(super) struct Alts {
    pub on: AltsOn,
    pub first: u32,
    pub n: u32,
    /// The default's body, or `NONE`.
    pub default: ExprId,
    /// The slot the default binds (`v -> e`), or `NONE` (`default -> e`).
    pub default_bind: u32,
}

/// An algebraic alternative: its constructor, the slots its fields bind
/// (`nbinds` from `first_bind` in `bind_slots`), its body.
#[derive(Clone, Copy, Debug)]
pub(super) struct ConAlt {
    pub con: ConId,
    pub first_bind: u32,
    pub nbinds: u32,
    pub body: ExprId,
}

/// One closure a `let` builds: its info word (encoded: a lambda's closure
/// and its number of free variables), its slot, and where it lies in the
/// `let`'s block of words.
#[derive(Clone, Copy, Debug)]
pub(super) struct LetClosure {
    pub info: Word,
    pub slot: u32,
    pub offset: u32,
}

/// One free variable of a `let`'s closures: its operand, and the word of
/// the `let`'s block it goes to. A `let`'s are in one run, those in the
/// environment (local operands) first, so that each part is written in
/// one loop that knows which it reads.
#[derive(Clone, Copy, Debug)]
pub(super) struct LetField {
    pub opnd: Opnd,
    pub offset: u32,
}

/// The ops. Argument lists are `n` operands from `first` in `opnds`, in
/// source order.
#[derive(Clone, Copy, Debug)]
pub(super) enum Op {
    /// Left to the rule loop.
    Rules,
    /// `let(rec)` (rule 3): `n` closures from `first` in `lets`, `words`
    /// words in all, their free variables `nfields` from `fields` in
    /// `let_fields`, the first `nlocal` of them local operands and the
    /// rest constants. With `steps` above 1, a chain of that many `let`s,
    /// each the body of the one before, built at once (rule 3 as many
    /// times; see [`Compiled::merge_lets`]): `body` is the last one's, and
    /// `let_at[first]` the last one's expression (else the op's own).
    Let {
        first: u32,
        fields: u32,
        words: u32,
        body: ExprId,
        n: u16,
        nfields: u16,
        nlocal: u16,
        steps: u8,
    },
    /// `case x {} of alts` (`alts` are `case_alts` of the case).
    CaseVar { x: Opnd, alts: u32 },
    /// `case op {a, b} of alts` (`b == a` for `negate#`).
    CasePrim {
        op: PrimOp,
        a: Opnd,
        b: Opnd,
        alts: u32,
    },
    /// Any other `case`: push a continuation (rule 4) and evaluate
    /// `scrut`, in a copy of the environment when `copy` (a scrutinee that
    /// binds variables, as the rule loop does).
    Case { scrut: ExprId, copy: bool },
    /// `f {args}` where `f` is a global re-entrant function taking exactly
    /// these arguments: rules 1 and 2 with nothing to look at in the heap
    /// (a global function has no free variables and, in stacks mode, the
    /// empty stack, whose append changes nothing).
    CallGlobal { lam: LambdaId, first: u32, n: u32 },
    /// A superinstruction: `f {a, b}` where `f` is a global re-entrant
    /// function of the shape of the Prelude's `plusInt` or `ltInt` (see
    /// [`IntFn`]): when both arguments are evaluated boxed integers, rules
    /// 1, 2, then 4, 1, 2, 5, 6 twice, then 4, 14 and 11, 12 or 13 (15
    /// steps) at once, on to the primitive case's alternative; otherwise
    /// `CallGlobal { lam, first, n: 2 }`.
    CallIntFn { lam: LambdaId, first: u32, f: u32 },
    /// `f {args}`, anything else.
    App { f: Opnd, first: u32, n: u32 },
    /// `c {args}` (rule 5, then the return).
    Con { con: ConId, first: u32, n: u32 },
    /// A literal (rule 9, then the return).
    Lit(i64),
    /// `op {a, b}` (rule 14, then the return; `b == a` for `negate#`).
    Prim { op: PrimOp, a: Opnd, b: Opnd },
    /// `scc "l" e`.
    Scc { cc: CcId, body: ExprId },
    /// `scc "l" e` in stacks mode (where the rule pushes nothing on the
    /// machine's stacks, so nothing can stop it): the push of `l` onto the
    /// current stack remembered at the site, `scc_sites[site]`. When `e`
    /// is a call of a global function or a `case` of an expression
    /// (`CallGlobal`, `CallIntFn`, `Case`), its op runs in the same
    /// dispatch.
    SccPush { cc: CcId, body: ExprId, site: u32 },
}

/// What an [`Op::SccPush`] remembers: the current stack it last pushed
/// onto and the stack that push made (`push` is a function of the stack
/// and the cost centre alone: stacks are interned and never change). Most
/// `scc`s of `--auto-cc` open a thunk's body, always entered under the
/// stack the thunk was built under, so the last push is the next one.
/// With a profile, also the entries of `to` made here and not yet added
/// to its counters (added when the site remembers another push, and at
/// the end of the run).
#[derive(Clone, Copy, Debug)]
pub(super) struct SccSite {
    pub from: u32,
    pub to: u32,
    pub entries: u64,
}

impl SccSite {
    /// Add the entries counted here to the counters of the stack they
    /// entered (`to`), and start counting again from zero: when the site
    /// is about to remember another push, and at the end of the run.
    #[inline(always)]
    pub fn settle(&mut self, acct: &mut Accounting) {
        if self.entries != 0 {
            acct.ctr(self.to).strict_calls += self.entries;
            self.entries = 0;
        }
    }
}

/// The shape [`Op::CallIntFn`] stands for, recognised in the compiled
/// ops of a two-argument global function (whatever its name):
///
/// ```text
/// f = {} \r {a, b} -> case a of            -- e1: Op::CaseVar on slot 0
///                        C1 {x} -> case b of  -- e2: Op::CaseVar on slot 1
///                          C2 {y} -> case op {x, y} of alts3  -- e3: Op::CasePrim
/// ```
///
/// where `C1` and `C2` are the first alternatives of their cases, each
/// binding one field, `x`'s slot is neither `b`'s nor `y`'s, and the
/// primitive case reads exactly `x` and `y`.
#[derive(Clone, Copy, Debug)]
pub(super) struct IntFn {
    pub c1: ConId,
    pub s1: u32,
    /// The first case (`e1`, the function's body) and its alternative
    /// (`e2`, the second case).
    pub e1: ExprId,
    pub e2: ExprId,
    pub c2: ConId,
    pub s2: u32,
    pub op: PrimOp,
    /// The primitive case (`e3`), where the machine is when it chooses
    /// the alternative, and its alternatives.
    pub e3: ExprId,
    pub alts3: u32,
    /// The field of the first or second argument when the call's operand
    /// is a global value closure of constructor `c1` or `c2` whose field
    /// is a literal (`Compiled::static_field`: `ltInt {n, two}`), which
    /// the op loop then need not read from the heap: each call has a
    /// shape of its own.
    pub ka: Option<i64>,
    pub kb: Option<i64>,
    /// `Some(c)` when the primitive case has only a default that boxes
    /// its result (`r -> I# {r}`, as `plusInt`'s): the constructor a
    /// call of an [`IntThunk`] evaluates to is then `c {r}` whatever `r`
    /// is.
    pub boxes_result: Option<ConId>,
}

/// A thunk the op loop may evaluate where it is needed, without pushing its
/// frames: an updatable closure of no arguments whose body is an
/// [`Op::CallIntFn`] on its free variables or constants (recognised by its
/// shape, as [`IntFn`] is):
///
/// ```text
/// n1 = {n} \u {} -> minusInt {n, one}
/// ```
///
/// When the call would fire as `CallIntFn`'s shape fires it (both
/// arguments evaluated boxed values) and the alternative it reaches is a
/// constructor of at most one field, a `case` of the thunk is rules 4, 1
/// and 15, the call's 15 steps, rule 5, the update (16) and the return (6
/// or 8): the op loop does all 21 at once (`threaded.rs`,
/// `Machine::force_int_thunk`), at the case (`Op::CaseVar`) or at an
/// `Op::CallIntFn` of which it is an argument.
#[derive(Clone, Copy, Debug)]
pub(super) struct IntThunk {
    /// The function the body calls (a global lambda) and its shape, an
    /// index of `int_fns`.
    pub lam: LambdaId,
    pub f: u32,
    /// The call's operands in the thunk's environment: a free variable
    /// (`LOCAL | i`, `i` below the closure's number of free variables, so
    /// read from its payload) or a constant.
    pub a: Opnd,
    pub b: Opnd,
    /// The environment size of the function called (its `fun_env`).
    pub fun_env: u32,
    /// In stacks mode, the `scc` the body may open with (`--auto-cc=all`
    /// makes `{n} \u {} -> scc "f.n1" (minusInt {n, one})`): its
    /// [`Op::SccPush`]'s site and cost centre; `NONE` without one.
    pub scc_site: u32,
    pub scc_cc: CcId,
}

/// The compiled program.
pub(super) struct Compiled {
    pub ops: Vec<Op>,
    pub opnds: Vec<Opnd>,
    pub alts: Vec<Alts>,
    pub con_alts: Vec<ConAlt>,
    pub int_alts: Vec<(i64, ExprId)>,
    pub bind_slots: Vec<u32>,
    pub lets: Vec<LetClosure>,
    pub let_fields: Vec<LetField>,
    /// One entry per entry of `lets`: at the first closure of an
    /// `Op::Let`, the expression of its `let` (of a chain's, the last
    /// one's: where the machine is after it); `NONE` elsewhere.
    pub let_at: Vec<ExprId>,
    /// The constant area: the globals' slots are filled in when their
    /// closures are allocated; then the literals.
    pub constants: Vec<Value>,
    /// `case_alts[e]`: the alternatives of the case expression `e`.
    pub case_alts: Vec<u32>,
    /// `case_env_len[e]`: the environment's length of the case
    /// expression `e` (`ExprCode::Case::env_len`, its lambda's `slots`),
    /// the length of its continuation's environment; 0 for other
    /// expressions.
    pub case_env_len: Vec<u32>,
    /// The shapes of [`Op::CallIntFn`]s.
    pub int_fns: Vec<IntFn>,
    /// `int_thunk_of[l]`: the [`IntThunk`] lambda `l` is (an index of
    /// `int_thunks`), or `NONE`; one entry per lambda.
    pub int_thunk_of: Vec<u32>,
    pub int_thunks: Vec<IntThunk>,
    /// `value_field[l]`: for a value closure's lambda (re-entrant, no
    /// arguments, its body a constructor of at least one field, such as
    /// `enumFromTo`'s `{a#} \r {} -> I# {a#}`), the constructor and its
    /// first field's operand, a free variable (a payload word) or a
    /// constant; `(NONE, _)` for any other lambda. One entry per lambda.
    pub value_field: Vec<(ConId, Opnd)>,
    /// The sites of [`Op::SccPush`]es, written by the op loop.
    pub scc_sites: Vec<SccSite>,
    /// The largest environment an op runs in (a lambda's body, or a
    /// constructor value's when entered).
    pub max_env: usize,
}

impl Compiled {
    /// Is operand `o` in the constant area or within `max_env` slots of an
    /// environment's base?
    fn opnd_ok(&self, o: Opnd) -> bool {
        if o.0 & Opnd::LOCAL != 0 {
            ((o.0 & !Opnd::LOCAL) as usize) < self.max_env
        } else {
            (o.0 as usize) < self.constants.len()
        }
    }

    /// Check every index the op loop follows without a bounds check (see
    /// the module doc): `Err` names the first that is out of its table.
    pub fn verify(&self, code: &Code) -> Result<(), String> {
        let nexprs = code.exprs.len();
        let expr = |e: ExprId, what: &str| {
            if (e as usize) < nexprs {
                Ok(())
            } else {
                Err(format!("{what}: expression {e} of {nexprs}"))
            }
        };
        let range = |first: u32, n: u32, len: usize, what: &str| {
            if first as usize + n as usize <= len {
                Ok(())
            } else {
                Err(format!("{what}: {first}+{n} of {len}"))
            }
        };
        let slot = |s: u32, what: &str| {
            if (s as usize) < self.max_env {
                Ok(())
            } else {
                Err(format!("{what}: slot {s} of {}", self.max_env))
            }
        };
        if self.ops.len() != nexprs
            || self.case_alts.len() != nexprs
            || self.case_env_len.len() != nexprs
        {
            return Err("ops, case_alts or case_env_len: not one per expression".into());
        }
        if let Some(o) = self.opnds.iter().find(|o| !self.opnd_ok(**o)) {
            return Err(format!("operand {o:?} out of its area"));
        }
        let alts_ok = |a: u32| {
            if (a as usize) < self.alts.len() {
                Ok(())
            } else {
                Err(format!("alternatives {a} of {}", self.alts.len()))
            }
        };
        for (e, op) in self.ops.iter().enumerate() {
            let opnd = |o: Opnd| {
                if self.opnd_ok(o) {
                    Ok(())
                } else {
                    Err(format!("op {e}: operand {o:?}"))
                }
            };
            match *op {
                Op::Rules | Op::Lit(_) => {}
                Op::Let {
                    first,
                    n,
                    fields,
                    nfields,
                    nlocal,
                    words,
                    body,
                    steps,
                } => {
                    range(first, n.into(), self.lets.len(), "let")?;
                    range(fields, nfields.into(), self.let_fields.len(), "let fields")?;
                    expr(body, "let body")?;
                    if self.let_at.len() != self.lets.len() {
                        return Err("let_at is not one entry per let closure".into());
                    }
                    if steps == 0 || u64::from(steps) > MAX_OP_STEPS || n == 0 {
                        return Err(format!("op {e}: let of {steps} steps, {n} closures"));
                    }
                    // (`range` checked `first < lets.len()`, with `n > 0`.)
                    expr(self.let_at[first as usize], "let's expression")?;
                    // The closures lie one after another from offset 0 and
                    // fill the block of `words` words; the fields fill
                    // their payloads, each word once (the op loop writes
                    // each word at its offset without a check, and every
                    // word of the block).
                    let mut payload = vec![false; words as usize];
                    let mut end = 0usize;
                    for b in &self.lets[first as usize..][..n as usize] {
                        slot(b.slot, "let slot")?;
                        let info = Info::decode(b.info)
                            .filter(|i| i.tag == Tag::Lambda)
                            .ok_or_else(|| format!("op {e}: let info word {:#x}", b.info))?;
                        if info.index as usize >= code.lambdas.len() {
                            return Err(format!("op {e}: lambda {}", info.index));
                        }
                        if b.offset as usize != end {
                            return Err(format!("op {e}: let closure at {} not {end}", b.offset));
                        }
                        end += closure_words(info.n as usize);
                        if end > payload.len() {
                            return Err(format!(
                                "op {e}: let of {words} words, more in its closures"
                            ));
                        }
                        payload[b.offset as usize + 2..][..info.n as usize].fill(true);
                    }
                    if end != words as usize || nlocal > nfields {
                        return Err(format!(
                            "op {e}: let of {words} words, {end} in its closures"
                        ));
                    }
                    let free = &self.let_fields[fields as usize..][..nfields as usize];
                    for (i, f) in free.iter().enumerate() {
                        opnd(f.opnd)?;
                        if (f.opnd.0 & Opnd::LOCAL != 0) != (i < nlocal as usize) {
                            return Err(format!("op {e}: let field {i}: {:?}", f.opnd));
                        }
                        match payload.get_mut(f.offset as usize) {
                            Some(w) if *w => *w = false,
                            _ => return Err(format!("op {e}: let field at {}", f.offset)),
                        }
                    }
                    if payload.contains(&true) {
                        return Err(format!("op {e}: let payload word not written"));
                    }
                }
                Op::CaseVar { x, alts } => {
                    // A thunk entry pushes `alts` as the continuation's
                    // alternatives: they must be the case's.
                    if self.case_alts[e] != alts {
                        return Err(format!("op {e}: alternatives {alts} not the case's"));
                    }
                    opnd(x)?;
                    alts_ok(alts)?;
                }
                Op::CasePrim { a, b, alts, .. } => {
                    opnd(a)?;
                    opnd(b)?;
                    alts_ok(alts)?;
                }
                Op::Case { scrut, .. } => expr(scrut, "case scrutinee")?,
                Op::CallGlobal { lam, first, n } => {
                    if lam as usize >= code.lambdas.len() {
                        return Err(format!("op {e}: lambda {lam}"));
                    }
                    range(first, n, self.opnds.len(), "call")?;
                }
                Op::CallIntFn { lam, first, f } => {
                    if lam as usize >= code.lambdas.len() {
                        return Err(format!("op {e}: lambda {lam}"));
                    }
                    range(first, 2, self.opnds.len(), "call")?;
                    // (Each shape is checked below.)
                    if f as usize >= self.int_fns.len() {
                        return Err(format!("op {e}: integer function {f}"));
                    }
                }
                Op::App { f, first, n } => {
                    opnd(f)?;
                    range(first, n, self.opnds.len(), "application")?;
                }
                Op::Con { first, n, .. } => range(first, n, self.opnds.len(), "constructor")?,
                Op::Prim { a, b, .. } => {
                    opnd(a)?;
                    opnd(b)?;
                }
                Op::Scc { body, .. } => expr(body, "scc body")?,
                Op::SccPush { body, site, .. } => {
                    expr(body, "scc body")?;
                    range(site, 1, self.scc_sites.len(), "scc site")?;
                }
            }
        }
        for a in &self.alts {
            match a.on {
                AltsOn::Con => {
                    range(a.first, a.n, self.con_alts.len(), "alternatives")?;
                    for c in &self.con_alts[a.first as usize..(a.first + a.n) as usize] {
                        range(c.first_bind, c.nbinds, self.bind_slots.len(), "binds")?;
                        expr(c.body, "alternative")?;
                    }
                }
                AltsOn::Int => {
                    range(a.first, a.n, self.int_alts.len(), "alternatives")?;
                    for &(_, body) in &self.int_alts[a.first as usize..(a.first + a.n) as usize] {
                        expr(body, "alternative")?;
                    }
                }
                AltsOn::Default => {}
            }
            if a.default != NONE {
                expr(a.default, "default")?;
            }
            if a.default_bind != NONE {
                slot(a.default_bind, "default binder")?;
            }
        }
        if self.value_field.len() != code.lambdas.len() {
            return Err("value_field is not one entry per lambda".into());
        }
        for (l, &(c, o)) in self.value_field.iter().enumerate() {
            if c != NONE && o.0 & Opnd::LOCAL == 0 && !self.opnd_ok(o) {
                return Err(format!("lambda {l}: value field {o:?}"));
            }
        }
        for i in &self.int_fns {
            slot(i.s1, "integer function")?;
            slot(i.s2, "integer function")?;
            expr(i.e1, "integer function")?;
            expr(i.e2, "integer function")?;
            expr(i.e3, "integer function")?;
            alts_ok(i.alts3)?;
        }
        for &s in &self.bind_slots {
            slot(s, "bound field")?;
        }
        for &a in &self.case_alts {
            if a != NONE {
                alts_ok(a)?;
            }
        }
        for l in &code.lambdas {
            expr(l.body, "lambda body")?;
        }
        // Each thunk's call: a known lambda and shape, and operands the op
        // loop reads from the closure's payload or the constant area.
        if self.int_thunk_of.len() != code.lambdas.len() {
            return Err("int_thunk_of: not one per lambda".into());
        }
        for (l, &t) in self.int_thunk_of.iter().enumerate() {
            if t == NONE {
                continue;
            }
            let Some(t) = self.int_thunks.get(t as usize) else {
                return Err(format!("lambda {l}: integer thunk {t}"));
            };
            let nfree = code.lambdas[l].free.len() as u32;
            let operand_ok = |o: Opnd| {
                if o.0 & Opnd::LOCAL != 0 {
                    o.0 & !Opnd::LOCAL < nfree
                } else {
                    (o.0 as usize) < self.constants.len()
                }
            };
            if t.lam as usize >= code.lambdas.len()
                || t.f as usize >= self.int_fns.len()
                || (t.scc_site != NONE && t.scc_site as usize >= self.scc_sites.len())
                || !operand_ok(t.a)
                || !operand_ok(t.b)
            {
                return Err(format!("lambda {l}: integer thunk {t:?}"));
            }
        }
        Ok(())
    }

    /// The op of expression `pc`.
    ///
    /// # Safety
    /// `pc < ops.len()`: `pc` is a next expression read from a verified
    /// table (an op, an alternative, a lambda's body), or was checked.
    #[inline(always)]
    pub unsafe fn op(&self, pc: ExprId) -> Op {
        // SAFETY: the caller's `pc` is in range (see above).
        unsafe { *self.op_ref(pc) }
    }

    /// [`Compiled::op`] by reference, so that a `match` loads only the
    /// fields its arm uses.
    ///
    /// # Safety
    /// As [`Compiled::op`].
    #[inline(always)]
    pub unsafe fn op_ref(&self, pc: ExprId) -> &Op {
        debug_assert!((pc as usize) < self.ops.len());
        // SAFETY: the caller's `pc` is in range.
        unsafe { self.ops.get_unchecked(pc as usize) }
    }

    /// Operand `i` of an argument list.
    ///
    /// # Safety
    /// `i < opnds.len()`: `i` lies in the range `first..first + n` of a
    /// verified op or `let` closure.
    #[inline(always)]
    pub unsafe fn opnd(&self, i: u32) -> Opnd {
        debug_assert!((i as usize) < self.opnds.len());
        // SAFETY: in range by the caller's verified op (see above).
        unsafe { *self.opnds.get_unchecked(i as usize) }
    }

    /// The alternatives `a`.
    ///
    /// # Safety
    /// `a < alts.len()`: `a` is an op's (verified) or a continuation's,
    /// which is `case_alts` of its case (verified), not `NONE`.
    #[inline(always)]
    pub unsafe fn alts(&self, a: u32) -> &Alts {
        debug_assert!((a as usize) < self.alts.len());
        // SAFETY: in range (see above).
        unsafe { self.alts.get_unchecked(a as usize) }
    }

    /// The algebraic alternatives of `alts`.
    ///
    /// # Safety
    /// `alts` is an entry of `self.alts` with `on == AltsOn::Con`, whose
    /// range [`Compiled::verify`] checked.
    #[inline(always)]
    pub unsafe fn con_alts(&self, alts: &Alts) -> &[ConAlt] {
        // SAFETY: a verified range (see above).
        unsafe { run(&self.con_alts, alts.first, alts.n) }
    }

    /// The primitive alternatives of `alts`.
    ///
    /// # Safety
    /// `alts` is an entry of `self.alts` with `on == AltsOn::Int`, whose
    /// range [`Compiled::verify`] checked.
    #[inline(always)]
    pub unsafe fn int_alts(&self, alts: &Alts) -> &[(i64, ExprId)] {
        // SAFETY: a verified range (see above).
        unsafe { run(&self.int_alts, alts.first, alts.n) }
    }

    /// The slots an algebraic alternative binds, each below `max_env`.
    ///
    /// # Safety
    /// `alt` is an entry of `self.con_alts`, whose range
    /// [`Compiled::verify`] checked.
    #[inline(always)]
    pub unsafe fn bind_slots(&self, alt: &ConAlt) -> &[u32] {
        // SAFETY: a verified range (see above).
        unsafe { run(&self.bind_slots, alt.first_bind, alt.nbinds) }
    }

    /// The closures of a `let`.
    ///
    /// # Safety
    /// `first..first + n` is the range of a verified `Op::Let`.
    #[inline(always)]
    pub unsafe fn lets(&self, first: u32, n: u32) -> &[LetClosure] {
        // SAFETY: a verified range (see above).
        unsafe { run(&self.lets, first, n) }
    }

    /// Where the machine is after the `Op::Let` whose closures start at
    /// `first`: its `let`, or its chain's last.
    ///
    /// # Safety
    /// `first` is a verified `Op::Let`'s of at least one closure
    /// (`let_at` has an entry per closure).
    #[inline(always)]
    pub unsafe fn let_at(&self, first: u32) -> ExprId {
        debug_assert!((first as usize) < self.let_at.len());
        // SAFETY: in range (see above).
        unsafe { *self.let_at.get_unchecked(first as usize) }
    }

    /// The free variables of a `let`'s closures.
    ///
    /// # Safety
    /// `first..first + n` is the range of a verified `Op::Let`'s fields.
    #[inline(always)]
    pub unsafe fn let_fields(&self, first: u32, n: u32) -> &[LetField] {
        // SAFETY: a verified range (see above).
        unsafe { run(&self.let_fields, first, n) }
    }

    /// `case_alts[e]`: `NONE`, or an index of `alts` (verified).
    ///
    /// # Safety
    /// `e < case_alts.len()`, that is, `e` is an expression (a program
    /// counter, see [`Compiled::op`]).
    #[inline(always)]
    pub unsafe fn case_alts(&self, e: ExprId) -> u32 {
        debug_assert!((e as usize) < self.case_alts.len());
        // SAFETY: in range (see above).
        unsafe { *self.case_alts.get_unchecked(e as usize) }
    }

    /// `case_env_len[e]`.
    ///
    /// # Safety
    /// `e < case_env_len.len()`, that is, `e` is an expression (as for
    /// [`Compiled::case_alts`]).
    #[inline(always)]
    pub unsafe fn case_env_len(&self, e: ExprId) -> u32 {
        debug_assert!((e as usize) < self.case_env_len.len());
        // SAFETY: in range (see above).
        unsafe { *self.case_env_len.get_unchecked(e as usize) }
    }
}

impl Compiled {
    /// The site `site` of an `Op::SccPush`.
    ///
    /// # Safety
    /// `site` is the operand of a verified `Op::SccPush`.
    #[inline(always)]
    pub unsafe fn scc_site(&mut self, site: u32) -> &mut SccSite {
        debug_assert!((site as usize) < self.scc_sites.len());
        // SAFETY: in range (see above).
        unsafe { self.scc_sites.get_unchecked_mut(site as usize) }
    }

    /// The shape `f` of an `Op::CallIntFn`.
    ///
    /// # Safety
    /// `f` is the operand of a verified `Op::CallIntFn`.
    #[inline(always)]
    pub unsafe fn int_fn(&self, f: u32) -> &IntFn {
        debug_assert!((f as usize) < self.int_fns.len());
        // SAFETY: in range (see above).
        unsafe { self.int_fns.get_unchecked(f as usize) }
    }

    /// The [`IntThunk`] lambda `l` is, if any (`l` need not be verified).
    #[inline(always)]
    pub fn int_thunk(&self, l: LambdaId) -> Option<IntThunk> {
        match self.int_thunk_of.get(l as usize) {
            Some(&t) if t != NONE => {
                debug_assert!((t as usize) < self.int_thunks.len());
                // SAFETY: every entry of `int_thunk_of` other than `NONE`
                // is below `int_thunks.len()` (`Compiled::verify`).
                Some(unsafe { *self.int_thunks.get_unchecked(t as usize) })
            }
            _ => None,
        }
    }

    /// Turn each call of a global function of [`IntFn`]'s shape with two
    /// arguments into an [`Op::CallIntFn`] (before verification, which
    /// checks the new ops and shapes like the others).
    fn call_int_fns(&mut self, code: &Code) {
        let mut shapes: HashMap<LambdaId, Option<IntFn>> = HashMap::new();
        for e in 0..self.ops.len() {
            let Op::CallGlobal { lam, first, n: 2 } = self.ops[e] else {
                continue;
            };
            let shape = *shapes
                .entry(lam)
                .or_insert_with(|| self.int_fn_shape(code, lam));
            let Some(shape) = shape else {
                continue;
            };
            // One shape a call: with what it knows of its own arguments.
            let known = |i: u32, con: ConId| {
                let o = *self.opnds.get(i as usize)?;
                self.static_field(code, o, con)
            };
            let shape = IntFn {
                ka: known(first, shape.c1),
                kb: known(first + 1, shape.c2),
                ..shape
            };
            self.int_fns.push(shape);
            let f = (self.int_fns.len() - 1) as u32;
            self.ops[e] = Op::CallIntFn { lam, first, f };
        }
    }

    /// The field of the boxed value the constant operand `o` always is,
    /// when it is a global value closure `C {k#}` (`one = {} \r {} -> I#
    /// {1#}`: re-entrant, no arguments or free variables, its body a
    /// constructor `con` whose first field is a literal), as
    /// `Machine::boxed_field` reads it; such a closure is never updated.
    fn static_field(&self, code: &Code, o: Opnd, con: ConId) -> Option<i64> {
        if o.0 & Opnd::LOCAL != 0 {
            return None;
        }
        let g = code.globals.get(o.0 as usize)?;
        let lam = code.lambdas.get(g.lambda as usize)?;
        let value = matches!(lam.flag, Flag::Reentrant | Flag::NonUpdatable)
            && lam.arity == 0
            && lam.free.is_empty();
        let Some(&Op::Con { con: c, first, n }) = self.ops.get(lam.body as usize) else {
            return None;
        };
        if !value || c != con || n == 0 {
            return None;
        }
        let field = *self.opnds.get(first as usize)?;
        if field.0 & Opnd::LOCAL != 0 || (field.0 as usize) < code.globals.len() {
            return None;
        }
        match self.constants.get(field.0 as usize)? {
            Value::Int(k) => Some(*k),
            Value::Ptr(_) => None,
        }
    }

    /// Fill `value_field`: what an integer call's argument that is a value
    /// closure holds, found without the closure's body op
    /// (`Machine::boxed_field_at`).
    fn value_fields(&mut self, code: &Code) {
        self.value_field = (code.lambdas.iter())
            .map(|l| {
                let none = (NONE, Opnd(0));
                if l.flag == Flag::Updatable || l.flag == Flag::SingleEntry || l.arity != 0 {
                    return none;
                }
                let Some(&Op::Con { con, first, n }) = self.ops.get(l.body as usize) else {
                    return none;
                };
                match self.opnds.get(first as usize) {
                    // A local operand is a free variable (a value closure
                    // has no arguments) when below their number; the rule
                    // loop reads any other local as `0#`, left to it.
                    Some(&o)
                        if n > 0
                            && (o.0 & Opnd::LOCAL == 0
                                || ((o.0 & !Opnd::LOCAL) as usize) < l.free.len()) =>
                    {
                        (con, o)
                    }
                    _ => none,
                }
            })
            .collect();
    }

    /// The constructor and first field's operand of lambda `l` if it is a
    /// value closure's (`value_field`), else `None`.
    #[inline(always)]
    pub fn value_field(&self, l: LambdaId) -> Option<(ConId, Opnd)> {
        self.value_field
            .get(l as usize)
            .copied()
            .filter(|v| v.0 != NONE)
    }

    /// Find the [`IntThunk`]s: each updatable lambda of no arguments whose
    /// body is an [`Op::CallIntFn`] on its free variables or constants
    /// (after [`Compiled::call_int_fns`]; verification checks them).
    fn int_thunks(&mut self, code: &Code) {
        self.int_thunk_of = vec![NONE; code.lambdas.len()];
        for (l, lam) in code.lambdas.iter().enumerate() {
            if lam.flag != Flag::Updatable || lam.arity != 0 {
                continue;
            }
            let (scc_site, scc_cc, body) = match self.ops.get(lam.body as usize) {
                Some(&Op::SccPush { cc, body, site }) => (site, cc, body),
                _ => (NONE, 0, lam.body),
            };
            let Some(&Op::CallIntFn { lam: g, first, f }) = self.ops.get(body as usize) else {
                continue;
            };
            let nfree = lam.free.len() as u32;
            let operand = |i: u32| {
                let o = *self.opnds.get(i as usize)?;
                (o.0 & Opnd::LOCAL == 0 || o.0 & !Opnd::LOCAL < nfree).then_some(o)
            };
            let (Some(a), Some(b)) = (operand(first), operand(first + 1)) else {
                continue;
            };
            let Some(callee) = code.lambdas.get(g as usize) else {
                continue;
            };
            self.int_thunk_of[l] = self.int_thunks.len() as u32;
            self.int_thunks.push(IntThunk {
                lam: g,
                f,
                a,
                b,
                fun_env: env_size(callee),
                scc_site,
                scc_cc,
            });
        }
    }

    /// Build a chain of `let`s, each the body of the one before, with one
    /// op: nfib's three and tak's two `let`s before each call, which the
    /// loop would otherwise dispatch and allocate for one at a time.
    ///
    /// ```text
    /// let n1 = ... ; n2 = ...
    /// in let r1 = {n1} ... ; r2 = {n2} ...
    ///    in let s = {r1, r2} ...
    ///       in plusInt {s, one}
    /// ```
    ///
    /// The op at a chain's head becomes an `Op::Let` of all the chain's
    /// closures in one block, in the order the rule loop allocates them
    /// (each `let`'s closures after the one's before it), its `steps` the
    /// number of `let`s and its body the last one's. Its loop binds every
    /// name before it writes any field, so a later `let`'s fields read the
    /// closures of the earlier ones, as they do one `let` at a time; a
    /// `let` whose slot an earlier one of the chain binds or reads is not
    /// merged (its binding would change what the earlier fields read; the
    /// slot numbering never makes one). Nothing can happen between the
    /// `let`s of a chain (rule 3 reads nothing but the environment, and
    /// allocates under the same cost centre), so building them at once
    /// makes the same heap, counters and steps; where the op cannot fire
    /// (the heap's room for the whole block), the rule loop builds the
    /// head's `let` and the loop goes on at the next one, whose own op
    /// is left as it was. At most [`MAX_OP_STEPS`] `let`s a chain's op
    /// (a longer chain is several), and each closure is in at most two
    /// ops (its own `let`'s and its chain's), so the tables stay linear.
    fn merge_lets(&mut self) {
        // The `let`s that are some `let`'s body (not a chain's head).
        let mut inner = vec![false; self.ops.len()];
        for op in &self.ops {
            if let Op::Let { body, .. } = *op
                && let Some(b) = inner.get_mut(body as usize)
            {
                *b = true;
            }
        }
        // Each `let` is in one chain's walk at most (lowering makes a
        // tree; `done` ends a walk that would come round again).
        let mut done = vec![false; self.ops.len()];
        for (start, &is_inner) in inner.iter().enumerate() {
            if is_inner || !matches!(self.ops[start], Op::Let { .. }) {
                continue;
            }
            let mut next = Some(start as ExprId);
            while let Some(head) = next {
                let (group, after) = self.let_group(head);
                if group
                    .iter()
                    .any(|&e| std::mem::replace(&mut done[e as usize], true))
                {
                    break;
                }
                if group.len() > 1
                    && let Some(op) = self.merged_let(&group)
                {
                    self.ops[head as usize] = op;
                }
                next = after;
            }
        }
    }

    /// The `let`s from `head` that one op builds (see
    /// [`Compiled::merge_lets`]), and the `let` the next group starts at.
    fn let_group(&self, head: ExprId) -> (Vec<ExprId>, Option<ExprId>) {
        let mut group = vec![head];
        let mut bound = std::collections::HashSet::new();
        let mut read = std::collections::HashSet::new();
        let mut e = head;
        while let Some(&Op::Let {
            first,
            n,
            fields,
            nfields,
            body,
            ..
        }) = self.ops.get(e as usize)
        {
            let (lets, free) = (
                &self.lets[first as usize..][..n as usize],
                &self.let_fields[fields as usize..][..nfields as usize],
            );
            if e != head {
                if group.len() as u64 == MAX_OP_STEPS
                    || lets
                        .iter()
                        .any(|b| bound.contains(&b.slot) || read.contains(&b.slot))
                {
                    return (group, Some(e));
                }
                group.push(e);
            }
            bound.extend(lets.iter().map(|b| b.slot));
            read.extend(
                free.iter()
                    .filter(|f| f.opnd.0 & Opnd::LOCAL != 0)
                    .map(|f| f.opnd.0 & !Opnd::LOCAL),
            );
            e = body;
        }
        (group, None)
    }

    /// The op of the chain of `let`s `group` (see
    /// [`Compiled::merge_lets`]), its closures and fields added to the
    /// tables; `None` when its counts do not fit the op.
    fn merged_let(&mut self, group: &[ExprId]) -> Option<Op> {
        let mut lets = Vec::new();
        let mut fields = Vec::new();
        let (mut words, mut body) = (0u32, NONE);
        for &e in group {
            let Op::Let {
                first,
                n,
                fields: f,
                nfields,
                words: w,
                body: b,
                ..
            } = self.ops[e as usize]
            else {
                return None;
            };
            lets.extend(
                self.lets[first as usize..][..n as usize]
                    .iter()
                    .map(|c| LetClosure {
                        offset: c.offset + words,
                        ..*c
                    }),
            );
            fields.extend(
                self.let_fields[f as usize..][..nfields as usize]
                    .iter()
                    .map(|x| LetField {
                        offset: x.offset + words,
                        ..*x
                    }),
            );
            words = words.checked_add(w)?;
            body = b;
        }
        // The environment's operands first, as for one `let`.
        fields.sort_by_key(|f: &LetField| f.opnd.0 & Opnd::LOCAL == 0);
        let nlocal = fields
            .iter()
            .filter(|f| f.opnd.0 & Opnd::LOCAL != 0)
            .count();
        if lets.is_empty() {
            return None;
        }
        let n = u16::try_from(lets.len()).ok()?;
        let nfields = u16::try_from(fields.len()).ok()?;
        let nlocal = u16::try_from(nlocal).ok()?;
        let steps = u8::try_from(group.len()).ok()?;
        let first = self.lets.len() as u32;
        let first_field = self.let_fields.len() as u32;
        self.lets.extend(lets);
        self.let_at.resize(self.lets.len(), NONE);
        self.let_at[first as usize] = *group.last()?;
        self.let_fields.extend(fields);
        Some(Op::Let {
            first,
            fields: first_field,
            words,
            body,
            n,
            nfields,
            nlocal,
            steps,
        })
    }

    /// Turn back into `CallGlobal`s the [`Op::CallIntFn`]s that can never
    /// fire as a superinstruction: those whose first argument is a thunk
    /// the `let`s just before the call built, such as `s` in
    ///
    /// ```text
    /// let r1 = {n1} \u {} -> nfib {n1}
    ///     r2 = {n2} \u {} -> nfib {n2}
    /// in let s = {r1, r2} \u {} -> plusInt {r1, r2}
    ///    in plusInt {s, one}
    /// ```
    ///
    /// Nothing runs between a `let` and its body, so at the call the
    /// argument is still the thunk (kind `\u` or `\s`) the `let` made,
    /// which the first case of `IntFn`'s shape enters: `call_int_fn`
    /// would find it is not a value (`boxed_field`) and could not
    /// evaluate it in place (`int_arg`: not an [`IntThunk`], or one whose
    /// own operand is such a fresh thunk), then go on as `CallGlobal`
    /// does, after looking in vain (about two hundred instructions a call
    /// on nfib, docs/PERFORMANCE.md).
    /// Run after [`Compiled::int_thunks`], whose thunks' bodies are not
    /// `let` bodies (so none of them changes).
    fn doomed_int_calls(&mut self, code: &Code) {
        // Which expressions are a `let`'s body (a chain starts at the
        // others), and how many `let` bindings build each lambda's
        // closures.
        let mut let_body = vec![false; code.exprs.len()];
        let mut sites = vec![0u32; code.lambdas.len()];
        for e in &code.exprs {
            if let ExprCode::Let { binds, body, .. } = &e.code {
                if let Some(b) = let_body.get_mut(*body as usize) {
                    *b = true;
                }
                for b in binds {
                    if let Some(n) = sites.get_mut(b.lambda as usize) {
                        *n += 1;
                    }
                }
            }
        }
        for start in 0..code.exprs.len() as ExprId {
            if let_body[start as usize]
                || !matches!(code.exprs[start as usize].code, ExprCode::Let { .. })
            {
                continue;
            }
            // Each slot the chain of `let`s from `start` has bound so far:
            // is its closure a thunk no integer call can see through?
            let mut fresh: HashMap<u32, bool> = HashMap::new();
            let mut chain: Vec<(usize, &LetBind)> = Vec::new();
            let mut e = start;
            let mut group = 0;
            while let ExprCode::Let { rec, binds, body } = &code.exprs[e as usize].code {
                chain.extend(binds.iter().map(|b| (group, b)));
                group += 1;
                if *rec {
                    // A closure may name its own group: those slots are
                    // not known yet when its fields are looked at.
                    for b in binds {
                        fresh.remove(&b.slot);
                    }
                }
                let doomed: Vec<(u32, bool)> = binds
                    .iter()
                    .map(|b| (b.slot, self.doomed_thunk(code, b.lambda, &fresh)))
                    .collect();
                fresh.extend(doomed);
                e = *body;
            }
            if e == start {
                continue;
            }
            self.private_thunk_calls(code, &chain, e, &sites);
            let Some(&Op::CallIntFn { lam, first, .. }) = self.ops.get(e as usize) else {
                continue;
            };
            let Some(&a) = self.opnds.get(first as usize) else {
                continue;
            };
            let slot = a.0 & !Opnd::LOCAL;
            if a.0 & Opnd::LOCAL != 0 && fresh.get(&slot) == Some(&true) {
                self.ops[e as usize] = Op::CallGlobal { lam, first, n: 2 };
            }
        }
    }

    /// The second kind of call [`Compiled::doomed_int_calls`] turns back:
    /// the body of a thunk `s` of a chain of `let`s (`chain`, its
    /// bindings in order; `body`, what the chain evaluates) whose first
    /// argument is a thunk `r1` the chain built for `s` alone (in an
    /// earlier `let` than `s`'s):
    ///
    /// ```text
    /// let r1 = {n1} \u {} -> nfib {n1}
    /// in let s = {r1, r2} \u {} -> plusInt {r1, r2}
    ///    in plusInt {s, one}
    /// ```
    ///
    /// When `r1` is updatable or single-entry and no integer thunk, no
    /// other closure of the chain captures it, `body` does not read its
    /// slot, and `s` is updatable or single-entry (its body runs at most
    /// once) and built only here (`sites`, the `let` bindings of each
    /// lambda), then `s`'s payload holds the only reference to `r1`, so
    /// nothing can have evaluated `r1` when `s`'s body starts: its call
    /// finds a thunk it cannot see through, as at the `let`'s body. `s`
    /// is then no [`IntThunk`] either (it could never be evaluated in
    /// place: its operand is never a value before its body runs).
    fn private_thunk_calls(
        &mut self,
        code: &Code,
        chain: &[(usize, &LetBind)],
        body: ExprId,
        sites: &[u32],
    ) {
        // Each slot's bindings in the chain (how many, and the last), and
        // how many of the chain's closures capture it: counted once, so
        // that each thunk below is looked at in constant time (a chain may
        // be 100,000 `let`s long).
        let mut bound: HashMap<u32, (u32, usize, LambdaId)> = HashMap::new();
        let mut captures: HashMap<u32, u32> = HashMap::new();
        for &(group, b) in chain {
            let e = bound.entry(b.slot).or_insert((0, group, b.lambda));
            *e = (e.0 + 1, group, b.lambda);
            let Some(l) = code.lambdas.get(b.lambda as usize) else {
                return;
            };
            let mut slots: Vec<u32> = (l.free.iter())
                .filter_map(|v| match *v {
                    VarRef::Local(x) => Some(x),
                    VarRef::Global(_) => None,
                })
                .collect();
            slots.sort_unstable();
            slots.dedup();
            for x in slots {
                *captures.entry(x).or_default() += 1;
            }
        }
        // The slots the chain's body reads, found once when first needed
        // (`None` inside: it may read any).
        let mut body_reads: Option<Option<std::collections::HashSet<u32>>> = None;
        for &(s_group, s) in chain {
            let Some(ls) = code.lambdas.get(s.lambda as usize) else {
                continue;
            };
            let runs_once = matches!(ls.flag, Flag::Updatable | Flag::SingleEntry);
            if !runs_once || ls.arity != 0 || sites.get(s.lambda as usize) != Some(&1) {
                continue;
            }
            let call = match self.ops.get(ls.body as usize) {
                Some(&Op::SccPush { body, .. }) => body,
                _ => ls.body,
            };
            let Some(&Op::CallIntFn { lam, first, .. }) = self.ops.get(call as usize) else {
                continue;
            };
            let Some(&a) = self.opnds.get(first as usize) else {
                continue;
            };
            if a.0 & Opnd::LOCAL == 0 {
                continue;
            }
            let Some(&VarRef::Local(r1)) = ls.free.get((a.0 & !Opnd::LOCAL) as usize) else {
                continue;
            };
            // `r1`'s slot bound once in the chain, in an earlier `let`, to
            // such a thunk, and captured by `s` alone.
            let Some(&(1, r_group, r)) = bound.get(&r1) else {
                continue;
            };
            // (A thunk whose operands are fresh is not enough here: they
            // may be evaluated by the time `s` is entered.)
            let private = r_group < s_group
                && captures.get(&r1) == Some(&1)
                && self.doomed_thunk(code, r, &HashMap::new());
            if !private {
                continue;
            }
            // Nor read by the chain's body.
            let reads = body_reads.get_or_insert_with(|| slots_read(code, body));
            if reads.as_ref().is_none_or(|reads| reads.contains(&r1)) {
                continue;
            }
            self.ops[call as usize] = Op::CallGlobal { lam, first, n: 2 };
            if let Some(t) = self.int_thunk_of.get_mut(s.lambda as usize) {
                *t = NONE;
            }
        }
    }

    /// Is a closure of lambda `l`, just built with free variables read
    /// from an environment whose slots `fresh` tells of, a thunk that the
    /// first case of an [`IntFn`] shape can neither read as a value nor
    /// evaluate in place (see [`Compiled::doomed_int_calls`])?
    fn doomed_thunk(&self, code: &Code, l: LambdaId, fresh: &HashMap<u32, bool>) -> bool {
        let Some(lam) = code.lambdas.get(l as usize) else {
            return false;
        };
        match lam.flag {
            Flag::SingleEntry => return lam.arity == 0,
            Flag::Updatable if lam.arity == 0 => {}
            _ => return false,
        }
        let Some(t) = self.int_thunk(l) else {
            return true;
        };
        // An integer thunk: evaluated in place only if both operands are
        // values, so one of them a fresh thunk dooms it.
        [t.a, t.b].iter().any(|o| {
            o.0 & Opnd::LOCAL != 0
                && matches!(
                    lam.free.get((o.0 & !Opnd::LOCAL) as usize),
                    Some(VarRef::Local(s)) if fresh.get(s) == Some(&true)
                )
        })
    }

    /// The shape of the global function `lam` (two arguments, no free
    /// variables), if it is [`IntFn`]'s.
    fn int_fn_shape(&self, code: &Code, lam: LambdaId) -> Option<IntFn> {
        let l = code.lambdas.get(lam as usize)?;
        if l.arity != 2 || !l.free.is_empty() {
            return None;
        }
        // `case v of C {x} -> next` on slot `v`: `(C, x's slot, next)`.
        let unbox = |e: ExprId, v: u32| -> Option<(ConId, u32, ExprId)> {
            let Op::CaseVar { x, alts, .. } = *self.ops.get(e as usize)? else {
                return None;
            };
            let a = self.alts.get(alts as usize)?;
            if x != Opnd::local(v) || a.on != AltsOn::Con || a.n == 0 {
                return None;
            }
            let alt = self.con_alts.get(a.first as usize)?;
            if alt.nbinds != 1 {
                return None;
            }
            Some((
                alt.con,
                *self.bind_slots.get(alt.first_bind as usize)?,
                alt.body,
            ))
        };
        let (c1, s1, e2) = unbox(l.body, 0)?;
        let (c2, s2, e3) = unbox(e2, 1)?;
        let Op::CasePrim { op, a, b, alts } = *self.ops.get(e3 as usize)? else {
            return None;
        };
        let reads_x_y = a == Opnd::local(s1) && b == Opnd::local(s2);
        if !reads_x_y || s1 == 1 || s1 == s2 {
            return None;
        }
        Some(IntFn {
            c1,
            s1,
            e1: l.body,
            e2,
            c2,
            s2,
            op,
            e3,
            alts3: alts,
            ka: None,
            kb: None,
            boxes_result: self.boxes_result(alts),
        })
    }

    /// [`IntFn::boxes_result`] of the primitive case's alternatives
    /// `alts`.
    fn boxes_result(&self, alts: u32) -> Option<ConId> {
        let a = self.alts.get(alts as usize)?;
        if a.on != AltsOn::Default || a.default_bind == NONE {
            return None;
        }
        let Some(&Op::Con { con, first, n: 1 }) = self.ops.get(a.default as usize) else {
            return None;
        };
        (*self.opnds.get(first as usize)? == Opnd::local(a.default_bind)).then_some(con)
    }
}

/// The slots expression `e` may read, in its lambda's environment (not
/// into the bodies of the lambdas it builds): its atoms and functions, the
/// free variables of the closures it builds, what its continuations save.
/// (Every mention counts, even of a later binding of a slot: callers use
/// it to know a slot is not read.) `None` when it may read any slot (the
/// body of a partial application, which reads its whole environment).
/// Walks `e` with a work list, since `let` chains may be 100,000 long.
fn slots_read(code: &Code, e: ExprId) -> Option<std::collections::HashSet<u32>> {
    let mut reads = std::collections::HashSet::new();
    let mut work = vec![e];
    let var = |reads: &mut std::collections::HashSet<u32>, v: &VarRef| {
        if let VarRef::Local(x) = *v {
            reads.insert(x);
        }
    };
    let atoms = |reads: &mut std::collections::HashSet<u32>, args: &[AtomCode]| {
        for a in args {
            if let AtomCode::Var(VarRef::Local(x)) = *a {
                reads.insert(x);
            }
        }
    };
    while let Some(e) = work.pop() {
        let Some(node) = code.exprs.get(e as usize) else {
            continue;
        };
        match &node.code {
            ExprCode::Let { binds, body, .. } => {
                for b in binds {
                    if let Some(l) = code.lambdas.get(b.lambda as usize) {
                        l.free.iter().for_each(|v| var(&mut reads, v));
                    }
                }
                work.push(*body);
            }
            ExprCode::Case {
                scrut,
                alts,
                default,
                saves,
                ..
            } => {
                reads.extend(saves.iter().copied());
                work.push(*scrut);
                match alts {
                    AltsKind::Alg(alts) => work.extend(alts.iter().map(|a| a.body)),
                    AltsKind::Prim(alts) => work.extend(alts.iter().map(|a| a.1)),
                    AltsKind::DefaultOnly => {}
                }
                if let Some(d) = default {
                    work.push(d.body);
                }
            }
            ExprCode::Scc { body, .. } => work.push(*body),
            ExprCode::App { fun, args } => {
                var(&mut reads, fun);
                atoms(&mut reads, args);
            }
            ExprCode::Con { args, .. } | ExprCode::Prim { args, .. } => atoms(&mut reads, args),
            ExprCode::Lit(_) => {}
            ExprCode::ApplyEnv => return None,
        }
    }
    Some(reads)
}

/// The `n` entries of `table` from `first`, without a bounds check.
///
/// # Safety
/// `first + n <= table.len()` (a range [`Compiled::verify`] checked).
#[inline(always)]
unsafe fn run<T>(table: &[T], first: u32, n: u32) -> &[T] {
    let (from, to) = (first as usize, first as usize + n as usize);
    debug_assert!(to <= table.len());
    // SAFETY: in range by the caller's verified range.
    unsafe { table.get_unchecked(from..to) }
}

/// How many steps an op's fast path fires at most before its return (the
/// op loop leaves an op to the rule loop unless this many steps fit before
/// the step limit and the next census). `CaseVar` on a constructor value:
/// rules 4, 1, 2, 5 and the return.
pub(super) const MAX_OP_STEPS: u64 = 5;

struct Compiler<'c> {
    code: &'c Code,
    c: Compiled,
    literals: HashMap<i64, u32>,
    nglobals: u32,
    stacks: bool,
}

/// The size of the environment the body of `lam` runs in.
fn env_size(lam: &LambdaCode) -> u32 {
    lam.slots.max(lam.free.len() as u32 + lam.arity)
}

/// Compile `code`; `stacks`: for stacks mode (its `scc`s become
/// [`Op::SccPush`]).
pub(super) fn compile(code: &Code, stacks: bool) -> Compiled {
    let nglobals = code.globals.len() as u32;
    let mut k = Compiler {
        code,
        c: Compiled {
            ops: vec![Op::Rules; code.exprs.len()],
            opnds: Vec::new(),
            alts: Vec::new(),
            con_alts: Vec::new(),
            int_alts: Vec::new(),
            bind_slots: Vec::new(),
            lets: Vec::new(),
            let_fields: Vec::new(),
            let_at: Vec::new(),
            constants: vec![Value::Int(0); nglobals as usize],
            case_alts: vec![NONE; code.exprs.len()],
            case_env_len: code
                .exprs
                .iter()
                .map(|e| match e.code {
                    ExprCode::Case { env_len, .. } => env_len,
                    _ => 0,
                })
                .collect(),
            int_fns: Vec::new(),
            int_thunk_of: Vec::new(),
            int_thunks: Vec::new(),
            value_field: Vec::new(),
            scc_sites: Vec::new(),
            max_env: 0,
        },
        literals: HashMap::new(),
        nglobals,
        stacks,
    };
    // Each expression runs in the environment of the lambda whose body it
    // belongs to (nested lambdas have bodies of their own).
    let mut env_of = vec![None; code.exprs.len()];
    let mut work = Vec::new();
    for lam in &code.lambdas {
        work.push((lam.body, env_size(lam)));
    }
    for (c, &e) in code.con_bodies.iter().enumerate() {
        work.push((e, code.cons.get(c).map_or(0, |c| c.arity)));
    }
    work.push((code.main_app, 0));
    while let Some((e, size)) = work.pop() {
        let Some(slot) = env_of.get_mut(e as usize) else {
            continue;
        };
        match *slot {
            // Lowering gives every lambda body expressions of its own; one
            // reached from two environments would run with no locals.
            Some(s) if s != size => *slot = Some(0),
            Some(_) => continue,
            None => *slot = Some(size),
        }
        match &code.exprs[e as usize].code {
            ExprCode::Let { body, .. } | ExprCode::Scc { body, .. } => work.push((*body, size)),
            ExprCode::Case {
                scrut,
                alts,
                default,
                ..
            } => {
                work.push((*scrut, size));
                match alts {
                    AltsKind::Alg(alts) => work.extend(alts.iter().map(|a| (a.body, size))),
                    AltsKind::Prim(alts) => work.extend(alts.iter().map(|a| (a.1, size))),
                    AltsKind::DefaultOnly => {}
                }
                if let Some(d) = default {
                    work.push((d.body, size));
                }
            }
            _ => {}
        }
    }
    for (e, size) in env_of.into_iter().enumerate() {
        if let Some(size) = size {
            k.c.max_env = k.c.max_env.max(size as usize);
            let op = k.op(e as ExprId, size).unwrap_or(Op::Rules);
            k.c.ops[e] = op;
        }
    }
    k.c.value_fields(code);
    k.c.call_int_fns(code);
    k.c.int_thunks(code);
    k.c.doomed_int_calls(code);
    k.c.merge_lets();
    if let Err(e) = k.c.verify(code) {
        // Lowering never makes such a program; if it did, the rule loop
        // runs all of it, with its own checks.
        debug_assert!(false, "compiled tables: {e}");
        k.c.ops.fill(Op::Rules);
        k.c.case_alts.fill(NONE);
        k.c.int_thunk_of.fill(NONE);
    }
    k.c
}

impl Compiler<'_> {
    /// The operand of a variable, `None` for a local outside the
    /// environment of `size` slots.
    fn var(&self, v: VarRef, size: u32) -> Option<Opnd> {
        match v {
            VarRef::Local(i) if i < size => Some(Opnd::local(i)),
            VarRef::Local(_) => None,
            VarRef::Global(g) if g < self.nglobals => Some(Opnd(g)),
            VarRef::Global(_) => None,
        }
    }

    fn atom(&mut self, a: AtomCode, size: u32) -> Option<Opnd> {
        match a {
            AtomCode::Var(v) => self.var(v, size),
            AtomCode::Lit(k) => {
                let next = self.c.constants.len() as u32;
                let i = *self.literals.entry(k).or_insert(next);
                if i == next {
                    self.c.constants.push(Value::Int(k));
                }
                Some(Opnd(i))
            }
        }
    }

    /// Add an argument list to `opnds`: `(first, n)`.
    fn atoms(&mut self, args: &[AtomCode], size: u32) -> Option<(u32, u32)> {
        let ops = args
            .iter()
            .map(|a| self.atom(*a, size))
            .collect::<Option<Vec<_>>>()?;
        let first = self.c.opnds.len() as u32;
        self.c.opnds.extend(ops);
        Some((first, args.len() as u32))
    }

    /// The two operands of a primitive operation (`negate#` reads `a`
    /// twice; the rule loop reads a missing operand as `0#`, so an
    /// operation with another number of operands is left to it).
    fn prim_operands(&mut self, op: PrimOp, args: &[AtomCode], size: u32) -> Option<(Opnd, Opnd)> {
        match (op, args) {
            (PrimOp::Negate, [a]) => {
                let a = self.atom(*a, size)?;
                Some((a, a))
            }
            (PrimOp::Negate, _) => None,
            (_, [a, b]) => Some((self.atom(*a, size)?, self.atom(*b, size)?)),
            _ => None,
        }
    }

    fn alts(&mut self, case: ExprId, size: u32) -> Option<u32> {
        let ExprCode::Case { alts, default, .. } = &self.code.exprs[case as usize].code else {
            return None;
        };
        let (on, first, n) = match alts {
            AltsKind::Alg(alts) => {
                let first = self.c.con_alts.len() as u32;
                for a in alts {
                    if a.binds.iter().any(|&s| s >= size) {
                        return None;
                    }
                    let first_bind = self.c.bind_slots.len() as u32;
                    self.c.bind_slots.extend(&a.binds);
                    self.c.con_alts.push(ConAlt {
                        con: a.con,
                        first_bind,
                        nbinds: a.binds.len() as u32,
                        body: a.body,
                    });
                }
                (AltsOn::Con, first, alts.len() as u32)
            }
            AltsKind::Prim(alts) => {
                let first = self.c.int_alts.len() as u32;
                self.c.int_alts.extend(alts.iter().copied());
                (AltsOn::Int, first, alts.len() as u32)
            }
            AltsKind::DefaultOnly => (AltsOn::Default, 0, 0),
        };
        let (default, default_bind) = match default {
            Some(DefaultAlt { bind: Some(s), .. }) if *s >= size => return None,
            Some(d) => (d.body, d.bind.unwrap_or(NONE)),
            None => (NONE, NONE),
        };
        let i = self.c.alts.len() as u32;
        self.c.alts.push(Alts {
            on,
            first,
            n,
            default,
            default_bind,
        });
        self.c.case_alts[case as usize] = i;
        Some(i)
    }

    /// The op of expression `e`, in an environment of `size` slots.
    fn op(&mut self, e: ExprId, size: u32) -> Option<Op> {
        let code = self.code;
        Some(match &code.exprs[e as usize].code {
            ExprCode::Let { binds, body, .. } => {
                // Built aside, and kept only when every count fits the op
                // (a larger `let` is left to the rule loop).
                let mut lets = Vec::with_capacity(binds.len());
                let mut fields = Vec::new();
                let mut words: usize = 0;
                for b in binds {
                    let lam = code.lambdas.get(b.lambda as usize)?;
                    if b.slot >= size {
                        return None;
                    }
                    let nfree = lam.free.len();
                    let info = Info {
                        tag: Tag::Lambda,
                        n: u32::try_from(nfree).ok().filter(|&n| n <= Info::MAX_N)?,
                        index: b.lambda,
                    };
                    let offset = u32::try_from(words).ok()?;
                    for (i, v) in lam.free.iter().enumerate() {
                        fields.push(LetField {
                            opnd: self.var(*v, size)?,
                            offset: offset + 2 + i as u32,
                        });
                    }
                    lets.push(LetClosure {
                        info: info.encode(),
                        slot: b.slot,
                        offset,
                    });
                    words += closure_words(nfree);
                }
                // Local operands first (each field is written at its own
                // offset, so the order is free).
                fields.sort_by_key(|f: &LetField| f.opnd.0 & Opnd::LOCAL == 0);
                let nlocal = fields
                    .iter()
                    .filter(|f| f.opnd.0 & Opnd::LOCAL != 0)
                    .count();
                // (A `let` binds something: the op's `at` is read from its
                // first closure's entry in `let_at`.)
                let n = u16::try_from(lets.len()).ok().filter(|&n| n > 0)?;
                let nfields = u16::try_from(fields.len()).ok()?;
                let nlocal = u16::try_from(nlocal).ok()?;
                let words = u32::try_from(words).ok()?;
                let first = self.c.lets.len() as u32;
                let first_field = self.c.let_fields.len() as u32;
                self.c.lets.extend(lets);
                self.c.let_at.resize(self.c.lets.len(), NONE);
                if let Some(at) = self.c.let_at.get_mut(first as usize) {
                    *at = e;
                }
                self.c.let_fields.extend(fields);
                Op::Let {
                    first,
                    fields: first_field,
                    words,
                    body: *body,
                    n,
                    nfields,
                    nlocal,
                    steps: 1,
                }
            }
            ExprCode::Case { scrut, .. } => {
                let alts = self.alts(e, size)?;
                match &code.exprs[*scrut as usize].code {
                    ExprCode::App { fun, args } if args.is_empty() => Op::CaseVar {
                        x: self.var(*fun, size)?,
                        alts,
                    },
                    ExprCode::Prim { op, args } => {
                        let (a, b) = self.prim_operands(*op, args, size)?;
                        Op::CasePrim {
                            op: *op,
                            a,
                            b,
                            alts,
                        }
                    }
                    scrut_code => Op::Case {
                        scrut: *scrut,
                        // As the rule loop: a scrutinee that only reads
                        // atoms runs in the continuation's frame.
                        copy: !matches!(
                            scrut_code,
                            ExprCode::App { .. }
                                | ExprCode::Con { .. }
                                | ExprCode::Lit(_)
                                | ExprCode::Prim { .. }
                        ),
                    },
                }
            }
            ExprCode::App { fun, args } => {
                let (first, n) = self.atoms(args, size)?;
                match *fun {
                    VarRef::Global(g) => {
                        let lam = code
                            .globals
                            .get(g as usize)
                            .and_then(|gl| code.lambdas.get(gl.lambda as usize).map(|l| (gl, l)));
                        match lam {
                            Some((gl, l))
                                if matches!(l.flag, Flag::Reentrant | Flag::NonUpdatable)
                                    && l.arity == n
                                    && n > 0
                                    && l.free.is_empty() =>
                            {
                                Op::CallGlobal {
                                    lam: gl.lambda,
                                    first,
                                    n,
                                }
                            }
                            _ => Op::App {
                                f: self.var(*fun, size)?,
                                first,
                                n,
                            },
                        }
                    }
                    VarRef::Local(_) => Op::App {
                        f: self.var(*fun, size)?,
                        first,
                        n,
                    },
                }
            }
            ExprCode::Con { con, args } => {
                let (first, n) = self.atoms(args, size)?;
                Op::Con {
                    con: *con,
                    first,
                    n,
                }
            }
            ExprCode::Lit(k) => Op::Lit(*k),
            ExprCode::Prim { op, args } => {
                let (a, b) = self.prim_operands(*op, args, size)?;
                Op::Prim { op: *op, a, b }
            }
            ExprCode::Scc { cc, body } if self.stacks => {
                self.c.scc_sites.push(SccSite {
                    from: NONE,
                    to: NONE,
                    entries: 0,
                });
                Op::SccPush {
                    cc: *cc,
                    body: *body,
                    site: self.c.scc_sites.len() as u32 - 1,
                }
            }
            ExprCode::Scc { cc, body } => Op::Scc {
                cc: *cc,
                body: *body,
            },
            ExprCode::ApplyEnv => Op::Rules,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::lower::lower_text;

    const PROGRAM: &str = "main = {} \\u {} -> f {1#, 2#}\n\
        f = {} \\r {x, y} -> case +# {x, y} of\n  3# -> I# {x}\n  r -> let p = {r} \\u {} -> I# {r} in p {}\n";

    #[test]
    fn compiled_tables_pass_verification_and_a_bad_index_fails_it() {
        let code = lower_text(PROGRAM);
        let mut c = compile(&code, false);
        assert_eq!(c.verify(&code), Ok(()));
        assert!(c.ops.iter().any(|o| matches!(o, Op::CasePrim { .. })));
        // Each table the op loop reads unchecked, made to point past its
        // end, is caught.
        let bad = |f: &dyn Fn(&mut Compiled)| {
            let mut k = compile(&code, false);
            f(&mut k);
            assert!(k.verify(&code).is_err());
        };
        bad(&|k| k.opnds.push(Opnd::local(k.max_env as u32)));
        bad(&|k| k.opnds.push(Opnd(k.constants.len() as u32)));
        bad(&|k| k.bind_slots.push(k.max_env as u32));
        bad(&|k| k.case_alts[0] = k.alts.len() as u32);
        bad(&|k| k.alts[0].n += 100);
        bad(&|k| {
            let e = k.ops.len() as u32;
            k.ops[0] = Op::Scc { cc: 0, body: e };
        });
        bad(&|k| {
            k.ops.pop();
        });
        // A `let`'s closures and fields must fill its block exactly, each
        // word once, with the environment's operands first.
        assert!(c.ops.iter().any(|o| matches!(
            o,
            Op::Let {
                nfields: 1,
                nlocal: 1,
                ..
            }
        )));
        bad(&|k| k.let_fields[0].offset += 1);
        bad(&|k| k.let_fields[0].offset -= 1);
        bad(&|k| k.lets[0].offset += 1);
        bad(&|k| k.let_fields[0].opnd = Opnd(0));
        bad(&|k| {
            k.lets[0].info =
                Info::decode(k.lets[0].info).map_or(0, |i| Info { tag: Tag::Con, ..i }.encode())
        });
        bad(&|k| {
            for o in &mut k.ops {
                if let Op::Let { words, .. } = o {
                    *words += 1;
                }
            }
        });
        c.int_alts.clear();
        assert!(c.verify(&code).is_err());
    }

    const LETS: &str = r#"main = {} \u {} -> f {1#}
f = {} \r {x} ->
  let a = {x} \u {} -> I# {x}
      b = {} \r {} -> I# {2#}
  in let c = {a, b} \u {} -> g {a, b}
     in let d = {c, x} \u {} -> g {c, c}
        in d {}
g = {} \r {p, q} -> p {}
"#;

    /// The `Op::Let`s of `c` with their expressions, in expression order.
    fn let_ops(c: &Compiled) -> Vec<(usize, Op)> {
        (c.ops.iter().enumerate())
            .filter(|(_, o)| matches!(o, Op::Let { .. }))
            .map(|(e, o)| (e, *o))
            .collect()
    }

    #[test]
    fn a_chain_of_lets_is_one_op_and_each_let_keeps_its_own() {
        let code = lower_text(LETS);
        for stacks in [false, true] {
            let c = compile(&code, stacks);
            assert_eq!(c.verify(&code), Ok(()));
            let lets = let_ops(&c);
            assert_eq!(lets.len(), 3, "{lets:?}");
            // The head builds all four closures in three steps and goes on
            // to `d {}`, where the machine is after the third `let`; the
            // second and third keep their own ops of one step, for when
            // the rule loop builds the head's.
            let heads: Vec<_> = (lets.iter())
                .filter(|(_, o)| matches!(o, Op::Let { steps: 3, .. }))
                .collect();
            assert_eq!(heads.len(), 1);
            let (head, op) = heads[0];
            let Op::Let {
                first,
                n,
                nfields,
                nlocal,
                words,
                body,
                ..
            } = *op
            else {
                unreachable!()
            };
            // (`d` does not use `x`: lowering leaves it out of its free variables.)
            assert_eq!((n, nfields, nlocal, words), (4, 4, 4, 3 + 3 + 4 + 3));
            let ExprCode::Let { body: second, .. } = code.exprs[*head].code else {
                panic!("the head is a let");
            };
            let ExprCode::Let { body: third, .. } = code.exprs[second as usize].code else {
                panic!("the second is a let");
            };
            let ExprCode::Let { body: last, .. } = code.exprs[third as usize].code else {
                panic!("the third is a let");
            };
            assert_eq!((c.let_at[first as usize], body), (third, last));
            for e in [second, third] {
                assert!(matches!(c.ops[e as usize], Op::Let { steps: 1, .. }));
            }
            // The closures lie one after another, each `let`'s after the
            // one's before, as the rule loop allocates them.
            let offsets: Vec<u32> = c.lets[first as usize..][..4]
                .iter()
                .map(|b| b.offset)
                .collect();
            assert_eq!(offsets, [0, 3, 6, 10]);
        }
    }

    #[test]
    fn a_let_that_binds_a_slot_the_chain_reads_is_not_merged_and_a_bad_chain_fails_verification() {
        let code = lower_text(LETS);
        // The third `let`'s `d` given the slot of `x`, which the first
        // `let`'s `a` reads: built with the first two, `a` would capture
        // `d`. So the chain is two ops: the first two `let`s, and the third.
        let c = compile(&code, false);
        let (head, _) = *(let_ops(&c).iter())
            .find(|(_, o)| matches!(o, Op::Let { steps: 3, .. }))
            .expect("a chain's op");
        let mut moved = code.clone();
        let mut third = head as ExprId;
        for _ in 0..2 {
            let ExprCode::Let { body, .. } = moved.exprs[third as usize].code else {
                panic!("a chain of three lets");
            };
            third = body;
        }
        let x = 0;
        match &mut moved.exprs[third as usize].code {
            ExprCode::Let { binds, .. } => binds[0].slot = x,
            _ => panic!("a let"),
        }
        let c = compile(&moved, false);
        assert_eq!(c.verify(&moved), Ok(()));
        assert!(
            matches!(c.ops[head], Op::Let { steps: 2, body, .. } if body == third),
            "{:?}",
            c.ops[head]
        );
        assert!(matches!(c.ops[third as usize], Op::Let { steps: 1, .. }));
        // A chain's op of more steps than an op may take, or with its
        // expression past the program, fails verification.
        let bad = |f: &dyn Fn(&mut Compiled)| {
            let mut k = compile(&code, false);
            f(&mut k);
            assert!(k.verify(&code).is_err());
        };
        bad(&|k| {
            if let Op::Let { steps, .. } = &mut k.ops[head] {
                *steps = MAX_OP_STEPS as u8 + 1;
            }
        });
        bad(&|k| {
            if let Op::Let { steps, .. } = &mut k.ops[head] {
                *steps = 0;
            }
        });
        bad(&|k| {
            if let Op::Let { first, .. } = k.ops[head] {
                k.let_at[first as usize] = k.ops.len() as u32;
            }
        });
        bad(&|k| {
            k.let_at.pop();
        });
    }

    #[test]
    fn a_case_of_a_variable_with_alternatives_not_its_case_s_fails_verification() {
        let code = lower_text(
            "main = {} \\u {} -> case one {} of\n  I# {x} -> case one {} of\n    I# {y} -> I# {y}\n\
             one = {} \\r {} -> I# {1#}\n",
        );
        let mut k = compile(&code, false);
        assert_eq!(k.verify(&code), Ok(()));
        let cases: Vec<(usize, u32)> = (k.ops.iter().enumerate())
            .filter_map(|(e, o)| match o {
                Op::CaseVar { alts, .. } => Some((e, *alts)),
                _ => None,
            })
            .collect();
        assert_eq!(cases.len(), 2);
        // The first case's op given the second case's (valid)
        // alternatives: a thunk entry would push the wrong ones.
        let (e, x) = (cases[0].0, cases[0].1);
        k.ops[e] = match k.ops[e] {
            Op::CaseVar { x: o, .. } => Op::CaseVar {
                x: o,
                alts: cases[1].1,
            },
            _ => unreachable!(),
        };
        assert_ne!(x, cases[1].1);
        assert!(k.verify(&code).is_err());
    }

    #[test]
    fn an_scc_in_stacks_mode_has_a_site_and_a_site_past_the_table_fails_verification() {
        let code = lower_text(
            "main = {} \\u {} -> scc \"m\" (f {1#})\nf = {} \\r {x} -> scc \"f\" (I# {x})\n",
        );
        let flat = compile(&code, false);
        assert!(flat.ops.iter().all(|o| !matches!(o, Op::SccPush { .. })));
        assert_eq!(
            flat.ops
                .iter()
                .filter(|o| matches!(o, Op::Scc { .. }))
                .count(),
            2
        );
        let mut k = compile(&code, true);
        assert_eq!(k.verify(&code), Ok(()));
        let sites: Vec<u32> = k
            .ops
            .iter()
            .filter_map(|o| match o {
                Op::SccPush { site, .. } => Some(*site),
                _ => None,
            })
            .collect();
        assert_eq!(sites.len(), 2);
        assert_eq!(k.scc_sites.len(), 2);
        k.scc_sites.pop();
        assert!(k.verify(&code).is_err());
    }

    #[test]
    fn a_call_of_an_integer_function_is_recognised_by_its_shape() {
        // `add` has `plusInt`'s shape under another name; `swap` does
        // not (its primitive case reads `y` before `x`).
        let code = lower_text(
            "main = {} \\u {} -> let t = {} \\u {} -> swap {one, one} in add {one, t}\n\
             one = {} \\r {} -> I# {1#}\n\
             add = {} \\r {a, b} -> case a of\n  I# {x} -> case b of\n    I# {y} -> case +# {x, y} of\n      r -> I# {r}\n\
             swap = {} \\r {a, b} -> case a of\n  I# {x} -> case b of\n    I# {y} -> case -# {y, x} of\n      r -> I# {r}\n",
        );
        let c = compile(&code, false);
        assert_eq!(c.verify(&code), Ok(()));
        let calls: Vec<Op> = c
            .ops
            .iter()
            .copied()
            .filter(|o| matches!(o, Op::CallIntFn { .. } | Op::CallGlobal { .. }))
            .collect();
        assert_eq!(calls.len(), 2, "{calls:?}");
        assert_eq!(
            calls
                .iter()
                .filter(|o| matches!(o, Op::CallIntFn { .. }))
                .count(),
            1,
            "{calls:?}"
        );
        assert_eq!(c.int_fns.len(), 1);
        assert_eq!(c.int_fns[0].op, PrimOp::Add);
        // Its first argument is `one`, whose field is known when the
        // program is compiled; its second, a thunk, is not.
        assert_eq!((c.int_fns[0].ka, c.int_fns[0].kb), (Some(1), None));
        // A shape index past the table is caught.
        let mut k = compile(&code, false);
        for o in &mut k.ops {
            if let Op::CallIntFn { f, .. } = o {
                *f = 1;
            }
        }
        assert!(k.verify(&code).is_err());
    }

    #[test]
    fn a_thunk_of_an_integer_call_is_recognised_by_its_shape() {
        // `t` and `k` are `IntThunk`s (a free variable, constants); `r`
        // is single-entry, `s` calls a function of another shape, `l`'s
        // body is a `let`.
        let code = lower_text(
            r#"main = {} \u {} ->
  let x = {} \r {} -> I# {2#}
  in let t = {x} \u {} -> add {x, one}
         k = {} \u {} -> add {one, one}
         r = {x} \s {} -> add {x, one}
         s = {x} \u {} -> swap {x, one}
         l = {x} \u {} -> let y = {} \u {} -> I# {1#} in add {x, y}
     in add {t, k}
one = {} \r {} -> I# {1#}
add = {} \r {a, b} -> case a of
  I# {x} -> case b of
    I# {y} -> case +# {x, y} of
      r -> I# {r}
swap = {} \r {a, b} -> case a of
  I# {x} -> case b of
    I# {y} -> case -# {y, x} of
      r -> I# {r}
"#,
        );
        let c = compile(&code, false);
        assert_eq!(c.verify(&code), Ok(()));
        assert_eq!(c.int_thunk_of.len(), code.lambdas.len());
        assert_eq!(c.int_thunks.len(), 2, "{:?}", c.int_thunks);
        let local = c.int_thunks.iter().filter(|t| t.a.0 & Opnd::LOCAL != 0);
        assert_eq!(local.count(), 1);
        // A thunk's shape past the table, or reading past its free
        // variables, is caught.
        let bad = |f: &dyn Fn(&mut Compiled)| {
            let mut k = compile(&code, false);
            f(&mut k);
            assert!(k.verify(&code).is_err());
        };
        bad(&|k| {
            let t = k.int_thunk_of.iter_mut().find(|t| **t != NONE).unwrap();
            *t = k.int_thunks.len() as u32;
        });
        bad(&|k| k.int_thunks[0].a = Opnd::local(5));
        bad(&|k| k.int_thunks[0].f = k.int_fns.len() as u32);
        bad(&|k| {
            k.int_thunk_of.pop();
        });
        // In stacks mode, a thunk whose body is an `scc` of such a call is
        // one too, with its `scc`'s site; in flat mode (`Op::Scc`, which
        // pushes a restore frame) it is not.
        let code = lower_text(
            r#"main = {} \u {} ->
  let x = {} \r {} -> I# {2#}
  in let t = {x} \u {} -> scc "t" (add {x, one})
     in add {t, one}
one = {} \r {} -> I# {1#}
add = {} \r {a, b} -> case a of
  I# {x} -> case b of
    I# {y} -> case +# {x, y} of
      r -> I# {r}
"#,
        );
        let stacks = compile(&code, true);
        assert_eq!(stacks.verify(&code), Ok(()));
        assert_eq!(stacks.int_thunks.len(), 1);
        assert!((stacks.int_thunks[0].scc_site as usize) < stacks.scc_sites.len());
        let flat = compile(&code, false);
        assert!(flat.int_thunks.is_empty());
        let mut k = compile(&code, true);
        k.int_thunks[0].scc_site = k.scc_sites.len() as u32;
        assert!(k.verify(&code).is_err());
    }

    /// The op of the body of the lambda named `name` (after its `scc`, in
    /// stacks mode), and whether it is an [`IntThunk`].
    fn body_op(code: &Code, c: &Compiled, name: &str) -> (Op, bool) {
        let l = code.lambdas.iter().position(|l| l.name == name).unwrap();
        let op = match c.ops[code.lambdas[l].body as usize] {
            Op::SccPush { body, .. } => c.ops[body as usize],
            op => op,
        };
        (op, c.int_thunk(l as LambdaId).is_some())
    }

    #[test]
    fn a_value_closure_s_field_is_found_when_compiled() {
        // `x` holds its field in its payload, `one` as a constant; `t` is
        // a thunk, `p` a constructor of no fields, `f` a function.
        let code = lower_text(
            r#"main = {} \u {} -> case one {} of
  I# {n} -> let x = {n} \r {} -> I# {n}
                t = {n} \u {} -> I# {n}
                p = {} \r {} -> Nil {}
                f = {n} \r {y} -> I# {n}
            in f {x}
one = {} \r {} -> I# {1#}
"#,
        );
        let c = compile(&code, false);
        assert_eq!(c.verify(&code), Ok(()));
        assert_eq!(c.value_field.len(), code.lambdas.len());
        let field = |name: &str| {
            let l = code.lambdas.iter().position(|l| l.name == name).unwrap();
            c.value_field(l as LambdaId)
        };
        let (i_hash, x) = field("main.x").expect("a value closure");
        assert_eq!(code.con_name(i_hash), "I#");
        assert_eq!(x, Opnd::local(0));
        let (_, one) = field("one").expect("a value closure");
        assert_eq!(one.0 & Opnd::LOCAL, 0);
        assert_eq!(c.constants[one.0 as usize], Value::Int(1));
        for name in ["main.t", "main.p", "main.f", "main"] {
            assert_eq!(field(name), None, "{name}");
        }
        // A constant past the constant area fails verification.
        let mut k = compile(&code, false);
        let l = code.lambdas.iter().position(|l| l.name == "one").unwrap();
        k.value_field[l].1 = Opnd(k.constants.len() as u32);
        assert!(k.verify(&code).is_err());
        k.value_field.pop();
        assert!(k.verify(&code).is_err());
    }

    #[test]
    fn an_integer_call_that_can_only_find_a_fresh_thunk_is_a_plain_call() {
        // nfib's `plusInt {s, one}`: `s` is the `let`'s new thunk, whose
        // own first operand `r1` is a new thunk only `s` holds; `n1` (an
        // integer thunk on `n`) and `ltInt {n, two}` may find values.
        let nfib = |extra: &str| {
            format!(
                r#"nfib = {{}} \r {{n}} ->
  case ltInt {{n, two}} of
    True {{}} -> one {{}}
    False {{}} -> let n1 = {{n}} \u {{}} -> minusInt {{n, one}}
                    n2 = {{n}} \u {{}} -> minusInt {{n, two}}
                in let r1 = {{n1}} \u {{}} -> nfib {{n1}}
                       r2 = {{n2}} \u {{}} -> nfib {{n2}}
                   in let s = {{r1, r2}} \u {{}} -> plusInt {{r1, r2}}
                      in {extra}
one = {{}} \r {{}} -> I# {{1#}}
two = {{}} \r {{}} -> I# {{2#}}
main = {{}} \u {{}} -> nfib {{two}}
plusInt = {{}} \r {{a, b}} -> case a of
  I# {{x}} -> case b of
    I# {{y}} -> case +# {{x, y}} of
      r -> I# {{r}}
minusInt = {{}} \r {{a, b}} -> case a of
  I# {{x}} -> case b of
    I# {{y}} -> case -# {{x, y}} of
      r -> I# {{r}}
ltInt = {{}} \r {{a, b}} -> case a of
  I# {{x}} -> case b of
    I# {{y}} -> case <# {{x, y}} of
      0# -> False {{}}
      default -> True {{}}
"#
            )
        };
        let code = lower_text(&nfib("plusInt {s, one}"));
        for stacks in [false, true] {
            let c = compile(&code, stacks);
            assert_eq!(c.verify(&code), Ok(()));
            assert!(matches!(
                body_op(&code, &c, "nfib.n1"),
                (Op::CallIntFn { .. }, true)
            ));
            assert!(matches!(
                body_op(&code, &c, "nfib.s"),
                (Op::CallGlobal { .. }, false)
            ));
            let calls = |pick: fn(&Op) -> bool| c.ops.iter().filter(|o| pick(o)).count();
            // `ltInt`, `minusInt` twice: still integer calls; the two
            // `plusInt`s: plain calls of two arguments.
            assert_eq!(calls(|o| matches!(o, Op::CallIntFn { .. })), 3);
            assert_eq!(calls(|o| matches!(o, Op::CallGlobal { n: 2, .. })), 2);
        }
        // `r1` read again after the `let`s (`s` no longer holds the only
        // reference): `s`'s call may find it evaluated, the body's call
        // still cannot see through `s`.
        let code = lower_text(&nfib(
            "case plusInt {s, one} of I# {x} -> plusInt {r1, one}",
        ));
        let c = compile(&code, false);
        assert!(matches!(
            body_op(&code, &c, "nfib.s"),
            (Op::CallIntFn { .. }, true)
        ));
        // Nor when another closure captures `r1`; the body's call stays an
        // integer call when its first argument is a value (`\r {}`) or an
        // integer thunk on what may be values. (Integer calls: `ltInt`,
        // `n1`, `n2`, and then `s`'s, the body's, `w`'s.)
        for (body, s_plain, int_calls) in [
            (
                "let u = {r1} \\u {} -> nfib {r1} in plusInt {s, u}",
                false,
                4,
            ),
            ("let v = {} \\r {} -> I# {1#} in plusInt {v, s}", true, 4),
            (
                "let w = {n} \\u {} -> plusInt {n, one} in plusInt {w, s}",
                true,
                5,
            ),
        ] {
            let code = lower_text(&nfib(body));
            let c = compile(&code, false);
            assert_eq!(c.verify(&code), Ok(()));
            let (s_op, _) = body_op(&code, &c, "nfib.s");
            assert_eq!(matches!(s_op, Op::CallGlobal { .. }), s_plain, "{body}");
            let n = c
                .ops
                .iter()
                .filter(|o| matches!(o, Op::CallIntFn { .. }))
                .count();
            assert_eq!(n, int_calls, "{body}");
        }
    }

    #[test]
    fn operands_index_locals_from_the_base_and_constants_absolutely() {
        assert_eq!(Opnd::local(3).index(100), 103);
        assert_eq!(Opnd(7).index(100), 7);
        assert_eq!(Opnd::local(0).index(0), 0);
        // The largest slot and constant, and a base past 2^32.
        let (slot, base) = (Opnd::LOCAL - 1, 5usize << 32);
        assert_eq!(Opnd::local(slot).index(base), base + slot as usize);
        assert_eq!(Opnd(slot).index(base), slot as usize);
        assert_eq!(Opnd::local(0).index(base), base);
        assert_eq!(Opnd(0).index(base), 0);
    }
}
