//! The op loop: the fast engine's threaded path. It runs the compiled ops
//! (`compile.rs`) from an `Eval` state, one op after another, with no
//! control state in between: an op that produces a value returns it at once
//! (to a case continuation's alternative, through update and restore
//! frames), and a call or a thunk entry goes straight on to the body.
//!
//! Every op fires the rules the rule loop (`rules.rs`) would fire, with the
//! same effects on every part of the state (stacks, environments, heap,
//! cost centre, counters, steps, the span errors name), in one go. An op
//! runs only when nothing can go wrong on the way: it first checks that
//! each of its rules would fire, that no error, collection, step limit or
//! census falls inside it, and that the stacks stay within `--max-stack`;
//! if not, the op loop stops where it is (an op boundary, or in a return
//! between two frames) and the rule loop fires the next rule. So every
//! error, limit, collection and census happens in the rule loop, at the
//! step and in the state where the reference engine meets it.
//!
//! Checks the ops make, in terms of the rules they fire:
//! - steps: the loop runs an op only if [`MAX_OP_STEPS`] more steps fit
//!   before the step limit and the next event (census or interrupt look),
//!   and each step of a return only if one more fits;
//! - stacks: [`Machine::fits`] bounds what rules 1, 4, 15 and `scc` would
//!   check after they push;
//! - heap: allocation only when the heap has room without a collection
//!   (and never under `--gc-stress`);
//! - the rest (arities, kinds of closure, matching alternatives, pending
//!   arguments) is what the rule loop's selection looks at.

use super::compile::{Alts, AltsOn, ConAlt, IntThunk, MAX_OP_STEPS, NONE, Op, Opnd};
use super::*;
use crate::profile::cost_centre::CcId;
use crate::stg::syntax::PrimOp;

/// Most fields of a constructor the op loop returns, and most arguments of
/// a call it makes (more go through the rule loop).
const MAX_FIELDS: usize = 8;

/// Which alternative of a case a returned constructor selects.
enum ConSel {
    /// Rule 6.
    Alt(ConAlt),
    /// Rule 8 (`default -> e`).
    Default(ExprId),
    /// Rule 7 (`v -> e`): `v` is bound to a new constructor closure.
    DefaultBind(u32, ExprId),
    /// No rule fires: a runtime error, left to the rule loop.
    Fail,
}

/// A value an op returns, handed to the op loop's one return point
/// (`ret_con`, `ret_int` inlined there once): a constructor and the number
/// of its fields (in the loop's field buffer), or an `Int#`.
#[derive(Clone, Copy)]
enum Ret {
    Con(ConId, usize),
    Int(i64),
}

/// What [`Machine::app`] leaves the op loop to do.
enum Flow {
    /// Go on to this op.
    Go(ExprId),
    /// Return this value.
    Ret(Ret),
    /// Stop: the machine is in `Eval` of the op or in a return.
    Stop,
}

/// Which alternative of a case a returned `Int#` selects: the body and,
/// for rule 12, the slot the default binds.
enum IntSel {
    Body(ExprId, Option<u32>),
    Fail,
}

/// Steps of a `case` of an [`IntThunk`] evaluated in place
/// ([`Machine::force_int_thunk`]): rules 4, 1 and 15, the call's 15, rule
/// 5, the update and the return.
const FORCE_STEPS: u64 = 21;

/// What an [`IntThunk`] evaluates to (`Machine::int_thunk_value`): the
/// constructor the alternative its call reaches builds, with its field if
/// it has one, the two closures the call's cases read (for the heap's
/// record of use), and the environment size of the function it calls.
#[derive(Clone, Copy)]
struct Forced {
    con: ConId,
    field: Option<Value>,
    used: [Addr; 2],
    fun_env: u32,
    /// The thunk's free variables (its info word's `n`).
    nfree: u32,
    /// Its body's `scc` in stacks mode (`IntThunk::scc_site`), or `NONE`.
    scc_site: u32,
    scc_cc: CcId,
}

impl Forced {
    /// The steps its evaluation takes ([`FORCE_STEPS`], one more with an
    /// `scc`).
    #[inline(always)]
    fn steps(&self) -> u64 {
        FORCE_STEPS + (self.scc_site != NONE) as u64
    }
}

/// What [`Machine::int_fn_body`] did.
enum IntBody {
    /// The call fired: the alternative to go on to.
    Fired(ExprId),
    /// Nothing done; the first argument is a boxed value (its closure and
    /// field), the second is not.
    First(Addr, Value),
    /// Nothing done.
    Neither,
}

/// An argument of an [`Op::CallIntFn`] as its first two cases take it
/// (`Machine::int_arg`).
#[derive(Clone, Copy)]
enum IntArg {
    /// A boxed value: the closure and its field.
    Value(Addr, Value),
    /// An [`IntThunk`] (its address and lambda) and what it evaluates
    /// to: its case evaluates it in place.
    Thunk(Addr, LambdaId, Forced),
    /// The second argument, the same thunk as the first: a value by the
    /// time its case looks at it.
    Same,
}

impl<'a, const PROF: bool, const BIO: bool> Machine<'a, PROF, BIO> {
    /// Would the stacks, after a rule pushes `words` more words (as
    /// `--max-stack` counts them), pass [`Machine::check_stack`]? (It may
    /// say no where the check would pass; the rule loop then fires the
    /// rule.)
    ///
    /// Only the count is compared, with a bound that also keeps the
    /// heights within [`MAX_HEIGHT`]: `as` and `rs` hold at most one entry
    /// per word counted, and `vals` holds the constant area, the
    /// environments of the case continuations (counted) and the current
    /// environment, which in the op loop is a lambda's or a constructor
    /// value's, at most `max_env` slots.
    #[inline(always)]
    fn fits(&self, words: usize) -> bool {
        (self.stack_words() + words) as u64 <= self.op_stack_words
    }

    /// The value of operand `o` in the current environment.
    ///
    /// # Safety
    /// `o` is an operand of the verified tables (`Compiled::verify`: a
    /// local slot below `max_env`, or in the constant area).
    #[inline(always)]
    unsafe fn value_of(&self, o: Opnd) -> Value {
        // SAFETY: `env_base` is a base the machine holds and the slot is
        // below the room the value stack keeps past its high-water mark
        // (`values.rs`), or the index is in the constant area.
        unsafe { self.s.vals.get(o.index(self.env_base)) }
    }

    /// The value of operand `i` of an argument list.
    ///
    /// # Safety
    /// `i` lies in the range of a verified op or `let` closure.
    #[inline(always)]
    unsafe fn opnd_value(&self, i: u32) -> Value {
        // SAFETY: `i` is in range (the caller's verified op), and the
        // operands in `opnds` are verified.
        unsafe { self.value_of(self.k.opnd(i)) }
    }

    /// Set slot `slot` of the current environment.
    ///
    /// # Safety
    /// `slot` was read from the verified tables (below `max_env`).
    #[inline(always)]
    unsafe fn set_local(&mut self, slot: u32, v: Value) {
        // SAFETY: as in `value_of`.
        unsafe { self.s.vals.set(self.env_base + slot as usize, v) }
    }

    /// # Safety
    /// `alts` is an entry of the verified `Compiled::alts`.
    #[inline(always)]
    unsafe fn select_con(&self, alts: &Alts, c: ConId) -> ConSel {
        match alts.on {
            AltsOn::Con => {
                // SAFETY: `alts` is verified and on constructors.
                let con_alts = unsafe { self.k.con_alts(alts) };
                // Most cases have one or two alternatives: the first is
                // looked at without a loop.
                if let Some(alt) = con_alts.first()
                    && alt.con == c
                {
                    return ConSel::Alt(*alt);
                }
                if let Some(alt) = con_alts.iter().skip(1).find(|a| a.con == c) {
                    return ConSel::Alt(*alt);
                }
            }
            AltsOn::Int => return ConSel::Fail,
            AltsOn::Default => {}
        }
        match (alts.default, alts.default_bind) {
            (NONE, _) => ConSel::Fail,
            (body, NONE) => ConSel::Default(body),
            (body, slot) => ConSel::DefaultBind(slot, body),
        }
    }

    /// # Safety
    /// `alts` is an entry of the verified `Compiled::alts`.
    #[inline(always)]
    unsafe fn select_int(&self, alts: &Alts, k: i64) -> IntSel {
        match alts.on {
            AltsOn::Int => {
                // SAFETY: `alts` is verified and on `Int#`s.
                let int_alts = unsafe { self.k.int_alts(alts) };
                if let Some(&(_, body)) = int_alts.iter().find(|a| a.0 == k) {
                    return IntSel::Body(body, None);
                }
            }
            AltsOn::Con => return IntSel::Fail,
            AltsOn::Default => {}
        }
        match (alts.default, alts.default_bind) {
            (NONE, _) => IntSel::Fail,
            (body, NONE) => IntSel::Body(body, None),
            (body, slot) => IntSel::Body(body, Some(slot)),
        }
    }

    /// Bind an alternative's fields (rule 6) in the current environment.
    ///
    /// # Safety
    /// `alt` is an entry of the verified `Compiled::con_alts`.
    #[inline(always)]
    unsafe fn bind_fields(&mut self, alt: &ConAlt, fs: &[Value]) {
        // SAFETY: `alt` is verified; its slots are below `max_env`.
        let slots = unsafe { self.k.bind_slots(alt) };
        let base = self.env_base;
        for (slot, &w) in slots.iter().zip(fs) {
            // SAFETY: a verified slot of the current environment (see
            // `value_of`).
            unsafe { self.s.vals.set(base + *slot as usize, w) };
        }
    }

    /// Run ops from the current `Eval` state until one cannot run here.
    /// Leaves the machine in the state the rule loop would have reached
    /// after the same steps (`Eval` of the next op, or a return between
    /// two frames). Returns whether any step was taken.
    ///
    /// Out of line: inlined into the rule loop (`rules.rs`), its one
    /// caller, the two loops shared one register allocation, and the op
    /// loop ran 0.3-1.2% more instructions (docs/PERFORMANCE.md).
    #[inline(never)]
    pub(super) fn run_ops(&mut self) -> bool {
        let Ctl::Eval(mut pc) = self.s.ctl else {
            return false;
        };
        // From here on every program counter comes from the verified
        // tables (`Compiled::verify`); this one comes from the rule loop.
        if pc as usize >= self.k.ops.len() {
            return false;
        }
        let start = self.steps;
        let budget = self.limit.min(self.next_event);
        let op_end = self.op_end();
        // The fields of a constructor being returned, or the arguments of
        // a call (set up once: an array per op cost a `memset`).
        let mut fs = [Value::Int(0); MAX_FIELDS];
        'ops: loop {
            if self.steps >= op_end {
                break 'ops;
            }
            // SAFETY: `pc` was checked above or read from a verified table.
            let ret = 'op: {
                let next = match *unsafe { self.k.op_ref(pc) } {
                    Op::Rules => break 'ops,
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
                        // Rule 3, when the heap has room without a
                        // collection (`steps` times for a chain of `let`s).
                        if self.gc_stress || self.heap.free_words() < words as usize {
                            break 'ops;
                        }
                        // Where the machine is after it: the `let`, or the
                        // chain's last (so that an error after it names the
                        // place one `let` at a time would). SAFETY: a
                        // verified `let`'s (of at least one closure).
                        self.at = unsafe { self.k.let_at(first) };
                        let (cc, base) = (self.cc, self.env_base);
                        // SAFETY: the ranges of a verified `let`.
                        let (lets, free) = unsafe {
                            (
                                self.k.lets(first, n.into()),
                                self.k.let_fields(fields, nfields.into()),
                            )
                        };
                        // All its closures' words at once. SAFETY: the heap
                        // has room (above); `Compiled::verify` checked that
                        // the closures fill the `words` words one after
                        // another and the fields fill their payloads, so
                        // the two loops write every word of the block, each
                        // within it.
                        let mut block = unsafe { self.heap.take_block(words as usize) };
                        let at = block.addr();
                        // The slots through a pointer held in a register:
                        // the block's writes would have the stack's area
                        // pointer loaded again after each.
                        let area = self.s.vals.area_ptr();
                        // Bind every name first (letrec) and write each
                        // closure's header, then each free variable, as the
                        // rule loop builds each closure.
                        for b in lets {
                            let i = base + b.slot as usize;
                            debug_assert!(i < self.s.vals.len());
                            // SAFETY: a verified slot, within the area as
                            // in `value_of`; a verified closure of the
                            // block (above).
                            unsafe {
                                area.add(i).write(Value::Ptr(at + b.offset as Addr));
                                block.header(b.offset as usize, b.info, cc);
                            }
                        }
                        // The environment's, then the constants.
                        debug_assert!(nlocal as usize <= free.len());
                        // SAFETY: `nlocal <= nfields` (verified).
                        let (locals, consts) = unsafe { free.split_at_unchecked(nlocal as usize) };
                        for f in locals {
                            let i = base + (f.opnd.0 & !Opnd::LOCAL) as usize;
                            debug_assert!(i < self.s.vals.len());
                            // SAFETY: a verified local operand, within the
                            // area as in `value_of`; a verified payload word
                            // of the block (above).
                            unsafe { block.field(f.offset as usize, area.add(i).read()) };
                        }
                        for f in consts {
                            let i = f.opnd.0 as usize;
                            debug_assert!(i < self.s.vals.len());
                            // SAFETY: a verified constant operand, in the
                            // constant area; a verified payload word of the
                            // block (above).
                            unsafe { block.field(f.offset as usize, area.add(i).read()) };
                        }
                        if PROF {
                            self.pend_words += words as u64;
                        }
                        self.steps += u64::from(steps);
                        body
                    }
                    Op::CaseVar { x, alts, .. } => {
                        // SAFETY: a verified operand.
                        let v = unsafe { self.value_of(x) };
                        // SAFETY: the op's verified alternatives.
                        match unsafe { self.case_var(pc, v, alts) } {
                            Some(next) => next,
                            None => break 'ops,
                        }
                    }
                    Op::CasePrim { op, a, b, alts } => {
                        // Rules 4, 14 and 11, 12 or 13.
                        // SAFETY: verified operands.
                        let Some(r) = (unsafe { self.prim(op, a, b) }) else {
                            break 'ops;
                        };
                        // SAFETY: the op's verified alternatives.
                        match unsafe { self.case_int(pc, alts, r) } {
                            Some(next) => next,
                            None => break 'ops,
                        }
                    }
                    Op::Case { scrut, copy, .. } => {
                        // SAFETY: `pc` is an expression.
                        let Some(next) = (unsafe { self.case_cont(pc, scrut, copy) }) else {
                            break 'ops;
                        };
                        // A scrutinee that is an integer call (`case ltInt
                        // {n, two} of`), in the same dispatch: the case's
                        // step and the call's fit in `MAX_OP_STEPS`. If the
                        // call cannot fire, the loop stops in `Eval` of it.
                        pc = next;
                        // SAFETY: `next` is a verified expression.
                        match *unsafe { self.k.op_ref(next) } {
                            Op::CallIntFn { lam, first, f } => {
                                // SAFETY: the op's verified lambda, range
                                // and shape.
                                match unsafe { self.call_int_fn(next, lam, first, f, op_end) } {
                                    Some(next) => next,
                                    None => break 'ops,
                                }
                            }
                            _ => next,
                        }
                    }
                    Op::CallGlobal { lam, first, n } => {
                        // SAFETY: the op's verified lambda and range.
                        match unsafe { self.call_global(pc, lam, first, n as usize, &mut fs) } {
                            Some(next) => next,
                            None => break 'ops,
                        }
                    }
                    Op::CallIntFn { lam, first, f } => {
                        // SAFETY: the op's verified lambda, range and shape.
                        match unsafe { self.call_int_fn(pc, lam, first, f, op_end) } {
                            Some(next) => next,
                            None => break 'ops,
                        }
                    }
                    Op::App { f, first, n } => {
                        // SAFETY: a verified operand.
                        let v = unsafe { self.value_of(f) };
                        // SAFETY: the op's verified range.
                        match unsafe { self.app(pc, v, first, n as usize, &mut fs) } {
                            Flow::Go(next) => next,
                            Flow::Ret(r) => break 'op r,
                            Flow::Stop => return self.steps != start,
                        }
                    }
                    Op::Con { con, first, n } => {
                        // Rule 5, then the return.
                        let n = n as usize;
                        if n > MAX_FIELDS {
                            break 'ops;
                        }
                        for (i, x) in fs.iter_mut().enumerate().take(n) {
                            // SAFETY: `i < n`, the op's verified range.
                            *x = unsafe { self.opnd_value(first + i as u32) };
                        }
                        self.at = pc;
                        self.steps += 1;
                        break 'op Ret::Con(con, n);
                    }
                    Op::Lit(k) => {
                        // Rule 9, then the return.
                        self.at = pc;
                        self.steps += 1;
                        break 'op Ret::Int(k);
                    }
                    Op::Prim { op, a, b } => {
                        // Rule 14, then the return.
                        // SAFETY: verified operands.
                        let Some(r) = (unsafe { self.prim(op, a, b) }) else {
                            break 'ops;
                        };
                        self.at = pc;
                        self.steps += 1;
                        break 'op Ret::Int(r);
                    }
                    Op::Scc { cc: l, body } => {
                        let flat = self.mode == CostCentreMode::Flat;
                        if flat && self.cc == l {
                            // Rule scc=.
                            if PROF {
                                self.ctr(l).strict_calls += 1;
                            }
                        } else {
                            // Rule scc.
                            if !self.fits(if flat { 4 } else { 0 }) {
                                break 'ops;
                            }
                            if flat {
                                self.push_restore_frame();
                                self.cc = l;
                            } else {
                                self.cc = self.acct.stacks.push(self.cc, l);
                            }
                            if PROF {
                                let cc = self.cc;
                                self.ctr(cc).strict_calls += 1;
                            }
                        }
                        self.at = pc;
                        self.steps += 1;
                        self.switch(self.cc);
                        body
                    }
                    Op::SccPush { cc: l, body, site } => {
                        // Rule scc, in stacks mode: it pushes nothing on
                        // the machine's stacks, so no check can stop it.
                        // SAFETY: the op's verified site.
                        let to = unsafe { self.scc_site_push(site, l, self.cc) };
                        self.cc = to;
                        self.at = pc;
                        self.steps += 1;
                        // `switch(to)` without its compare: the stack
                        // almost always changes, and where it does not,
                        // charging now adds what a later charge would.
                        self.flush();
                        self.tick_cc = to;
                        // The op the `scc` wraps, in the same dispatch
                        // when it is a call of a global function (most
                        // `scc`s of `--auto-cc` open a function's or a
                        // thunk's body): the scc's step and the call's
                        // fit in `MAX_OP_STEPS`. If the call cannot fire,
                        // the loop stops in `Eval` of it.
                        pc = body;
                        // SAFETY: `body` is a verified expression.
                        match *unsafe { self.k.op_ref(body) } {
                            Op::CallGlobal { lam, first, n } => {
                                // SAFETY: the op's verified lambda and range.
                                match unsafe {
                                    self.call_global(body, lam, first, n as usize, &mut fs)
                                } {
                                    Some(next) => next,
                                    None => break 'ops,
                                }
                            }
                            Op::CallIntFn { lam, first, f } => {
                                // SAFETY: the op's verified lambda, range
                                // and shape.
                                match unsafe { self.call_int_fn(body, lam, first, f, op_end) } {
                                    Some(next) => next,
                                    None => break 'ops,
                                }
                            }
                            Op::Case { scrut, copy, .. } => {
                                // SAFETY: `body` is an expression.
                                match unsafe { self.case_cont(body, scrut, copy) } {
                                    Some(next) => next,
                                    None => break 'ops,
                                }
                            }
                            _ => body,
                        }
                    }
                };
                pc = next;
                continue 'ops;
            };
            // The one return point: to the waiting alternative, through
            // update and restore frames.
            let next = match ret {
                Ret::Con(c, n) => self.ret_con(c, &fs[..n], budget),
                Ret::Int(k) => self.ret_int(k, budget),
            };
            match next {
                Some(next) => pc = next,
                None => return true,
            }
        }
        self.s.ctl = Ctl::Eval(pc);
        self.steps != start
    }

    /// Rule scc in stacks mode at the site `site` of `scc "l"`: the stack
    /// `from` with `l` pushed, remembered at the site (`SccSite`). The
    /// entry is counted at the site (with a profile), and added to the
    /// stack's counters when the site remembers another push.
    ///
    /// # Safety
    /// `site` is a verified `Op::SccPush`'s.
    #[inline(always)]
    unsafe fn scc_site_push(&mut self, site: u32, l: CcId, from: u32) -> u32 {
        // SAFETY: a verified site.
        let memo = unsafe { self.k.scc_site(site) };
        if memo.from == from {
            if PROF {
                memo.entries += 1;
            }
            return memo.to;
        }
        let mut old = *memo;
        let to = self.acct.stacks.push(from, l);
        *memo = compile::SccSite {
            from,
            to,
            entries: PROF as u64,
        };
        if PROF {
            old.settle(&mut self.acct);
        }
        to
    }

    /// The op loop's bound: an op runs while `steps + MAX_OP_STEPS <=
    /// budget` (the step limit, or the next census or interrupt look, both
    /// fixed while the op loop runs), that is while `steps < op_end` (one
    /// comparison per op).
    #[inline(always)]
    fn op_end(&self) -> u64 {
        let budget = self.limit.min(self.next_event);
        budget.saturating_add(1).saturating_sub(MAX_OP_STEPS)
    }

    /// Rule 4 for the `Op::Case` at `pc`: push its continuation and go on
    /// to `scrut`, in a copy of the environment when `copy`. `None`
    /// (nothing done) when the stacks might not fit.
    ///
    /// # Safety
    /// `pc` is an expression.
    #[inline(always)]
    unsafe fn case_cont(&mut self, pc: ExprId, scrut: ExprId, copy: bool) -> Option<ExprId> {
        let (b, n) = (self.env_base, self.env_len);
        if !self.fits(n + 3) {
            return None;
        }
        // SAFETY: `pc` is an expression.
        unsafe { self.push_cont(pc) };
        if copy {
            self.env_base = self.s.vals.copy_env(b, n, self.floor());
        }
        self.steps += 1;
        Some(scrut)
    }

    /// Rules 1 and 2 for `f {args}` (op `pc`, `n` arguments from `first`)
    /// with `f` the global re-entrant function of lambda `lam` taking
    /// exactly `n`: a global function has no free variables, and its
    /// stack (the empty one) appends nothing. `None` (nothing done) when
    /// the stacks might not fit.
    ///
    /// # Safety
    /// `lam` and `first..first + n` are a verified call's.
    #[inline(always)]
    unsafe fn call_global(
        &mut self,
        pc: ExprId,
        lam: LambdaId,
        first: u32,
        n: usize,
        fs: &mut [Value; MAX_FIELDS],
    ) -> Option<ExprId> {
        // SAFETY: the op's verified lambda.
        let l = unsafe { self.global_lam(lam) };
        if n > MAX_FIELDS || !self.fits(n) {
            return None;
        }
        // The arguments go through the loop's buffer: the new environment
        // may overlap the one they are read from.
        for (i, x) in fs.iter_mut().enumerate().take(n) {
            // SAFETY: `i < n`, the op's verified range.
            *x = unsafe { self.opnd_value(first + i as u32) };
        }
        self.enter_global(pc, l, &fs[..n]);
        Some(l.body)
    }

    /// The lambda `lam` of the program.
    ///
    /// # Safety
    /// `lam` is a verified lambda, below the number of lambdas.
    #[inline(always)]
    unsafe fn global_lam(&self, lam: LambdaId) -> Lam {
        debug_assert!((lam as usize) < self.p.lams.len());
        // SAFETY: `lam` verified below the number of lambdas, which is
        // `p.lams`'s length.
        unsafe { *self.p.lams.get_unchecked(lam as usize) }
    }

    /// Rules 1 and 2 of a known call from the op `pc`: the function `l`'s
    /// environment opened with the arguments `xs` (read before, as it may
    /// overlap theirs; `fits` checked), two steps.
    #[inline(always)]
    fn enter_global(&mut self, pc: ExprId, l: Lam, xs: &[Value]) {
        self.at = pc;
        if PROF {
            self.pend_calls += 1;
        }
        self.open_env_with(l.fun_env as usize, xs);
        self.steps += 2;
    }

    /// The superinstruction [`Op::CallIntFn`] (op `pc`): the call of
    /// `lam` (shape `f`, arguments `first` and `first + 1`) as
    /// `CallGlobal`, then the first three ops of its body at once when
    /// each of them would fire in turn: the loop would reach them with the
    /// steps to spare (13 steps, the last of the three at `steps + 10`),
    /// both arguments are boxed values with the constructors the cases
    /// expect, one field each (a constructor, or an arity-0 re-entrant
    /// closure whose body is one, such as `one`), the primitive operation
    /// succeeds and an alternative takes its result. Then it has every
    /// effect of the two `CaseVar`s and the `CasePrim` (the slots bound,
    /// the steps, where the machine is, the pending calls, the closures
    /// used) and returns the alternative to go on to; otherwise the
    /// function's body, where the loop goes on op by op. `None` when the
    /// call itself does not fire (nothing done).
    ///
    /// Out of line: inlined, the loop grows past what LLVM inlines the
    /// heap's accessors into (docs/PERFORMANCE.md).
    ///
    /// # Safety
    /// `lam`, `first` and `f` are a verified `Op::CallIntFn`'s.
    #[inline(never)]
    unsafe fn call_int_fn(
        &mut self,
        pc: ExprId,
        lam: LambdaId,
        first: u32,
        f: u32,
        op_end: u64,
    ) -> Option<ExprId> {
        // `call_global` of two arguments, which stay in locals for the
        // three ops after the call (the loop's buffer took two stores and
        // two loads, and the `case`s read them back from the environment).
        // SAFETY: the op's verified lambda.
        let l = unsafe { self.global_lam(lam) };
        if !self.fits(2) {
            return None;
        }
        // Both read before the new environment opens: it may overlap the
        // one they are read from.
        // SAFETY: the op's verified range of two operands.
        let (x0, x1) = unsafe { (self.opnd_value(first), self.opnd_value(first + 1)) };
        self.enter_global(pc, l, &[x0, x1]);
        // A function of two arguments (`IntFn`'s shape): its slots 0 and 1
        // are the arguments, which the `case`s read.
        debug_assert!(l.arity == 2 && l.fun_env >= 2);
        // An argument that is not a value may be a thunk to evaluate in
        // place; if not, on to the body. (Tail calls: nothing of this
        // function's is needed after them.) SAFETY: the op's verified
        // shape, and as for `int_fn_body`.
        unsafe {
            match self.int_fn_body(f, op_end, x0, x1) {
                IntBody::Fired(next) => Some(next),
                IntBody::First(a, x) => Some(self.int_fn_forcing_second(lam, f, op_end, a, x)),
                IntBody::Neither => Some(self.int_fn_forcing(lam, f, op_end)),
            }
        }
    }

    /// The three ops of [`Machine::call_int_fn`] after the call: fired,
    /// or nothing done, with the first argument's closure and field when
    /// it is a boxed value and the second is not (which
    /// [`Machine::int_fn_forcing_second`] need not decode again).
    ///
    /// # Safety
    /// `f` is a verified shape, of the function whose body the machine is
    /// about to evaluate (its environment is the current one, `va` and
    /// `vb` its slots 0 and 1).
    #[inline(always)]
    unsafe fn int_fn_body(&mut self, f: u32, op_end: u64, va: Value, vb: Value) -> IntBody {
        if self.steps + 10 >= op_end {
            return IntBody::Neither;
        }
        // The three `case`s check the same (nothing is pushed between).
        if !self.fits(self.env_len + 3) {
            return IntBody::Neither;
        }
        // The shape in place, each field read where it is needed: most
        // calls that do not fire stop at the first argument (a thunk), and
        // a copy of the whole shape up front went through the stack frame.
        // SAFETY: a verified shape.
        let sh = unsafe { self.k.int_fn(f) };
        // `va` and `vb` are the arguments, slots 0 and 1, as the two
        // `CaseVar`s read them (the first binds neither slot 1 nor the
        // second's slot: `IntFn`). An argument that is not a value may be
        // a thunk to evaluate in place.
        let Some((a, x)) = self.boxed_arg(va, sh.c1, sh.ka) else {
            return IntBody::Neither;
        };
        let Some((b, y)) = self.boxed_arg(vb, sh.c2, sh.kb) else {
            return IntBody::First(a, x);
        };
        // SAFETY: a verified shape.
        let Some((r, body, bind)) = (unsafe { self.int_call_result(sh, x, y) }) else {
            return IntBody::Neither;
        };
        let (s1, s2, e3) = (sh.s1, sh.s2, sh.e3);
        // It fires.
        if PROF {
            self.note_use(a);
            self.note_use(b);
            // Rules 1 and 6 of each `case`, the primitive case's return.
            self.pend_calls += 5;
        }
        // SAFETY: a verified slot (the shape's).
        unsafe { self.set_local(s1, x) };
        // SAFETY: the shape's (see `int_call_ends`).
        unsafe { self.int_call_ends(s2, y, bind, r, e3) };
        self.steps += 13;
        IntBody::Fired(body)
    }

    /// The primitive operation of a call of shape `sh` on the fields `x`
    /// and `y` its cases bind: `None` unless both are `Int#`s and the
    /// operation succeeds (errors are the rule loop's).
    #[inline(always)]
    fn int_prim(sh: &compile::IntFn, x: Value, y: Value) -> Option<i64> {
        let (Value::Int(xi), Value::Int(yi)) = (x, y) else {
            return None;
        };
        primitives::apply(sh.op, xi, yi)
    }

    /// The primitive case of a call of shape `sh` on the fields `x` and
    /// `y` ([`Machine::int_prim`]) when an alternative takes its result:
    /// the result, and the alternative's body and default binder.
    ///
    /// # Safety
    /// `sh` is a verified shape.
    #[inline(always)]
    unsafe fn int_call_result(
        &self,
        sh: &compile::IntFn,
        x: Value,
        y: Value,
    ) -> Option<(i64, ExprId, Option<u32>)> {
        let r = Self::int_prim(sh, x, y)?;
        // SAFETY: the shape's verified alternatives.
        match unsafe { self.select_int(self.k.alts(sh.alts3), r) } {
            IntSel::Body(body, bind) => Some((r, body, bind)),
            IntSel::Fail => None,
        }
    }

    /// The end of an integer call's three cases once they fire: the second
    /// case's field `y` bound to `s2`, the primitive case's default binder
    /// (if it binds) to the result `r`, and the machine at the primitive
    /// case `e3`.
    ///
    /// # Safety
    /// `s2`, `bind` and `e3` are a verified shape's (`IntFn`) and its
    /// primitive case's alternative's.
    #[inline(always)]
    unsafe fn int_call_ends(&mut self, s2: u32, y: Value, bind: Option<u32>, r: i64, e3: ExprId) {
        // SAFETY: verified slots (the shape's, the default binder).
        unsafe {
            self.set_local(s2, y);
            if let Some(slot) = bind {
                self.set_local(slot, Value::Int(r));
            }
        }
        self.at = e3;
    }

    /// [`Machine::int_fn_body`] when an argument is not a boxed value: a
    /// thunk of [`IntThunk`]'s shape whose call would fire is evaluated in
    /// place of its case's 5 steps, as [`Machine::force_int_thunk`] does
    /// (21 steps each); then the call goes on as `int_fn_body` does, and
    /// returns the alternative to go on to. Otherwise (an argument is
    /// neither, or the thunks' steps, stacks or constructors do not fit)
    /// nothing is done, and it returns `body`, the function's.
    ///
    /// # Safety
    /// As [`Machine::int_fn_body`]; `lam` and `f` are the verified
    /// `Op::CallIntFn`'s, `op_end` the op loop's bound.
    #[inline(always)]
    unsafe fn int_fn_forcing(&mut self, lam: LambdaId, f: u32, op_end: u64) -> ExprId {
        // The arguments and the body found again from the machine
        // (`int_fn_body` did nothing): kept in registers across it, they
        // cost every call spills (the shape and the bound, passed from
        // `call_int_fn`, measured cheaper). The arguments are slots 0 and 1 of the
        // function's environment (`IntFn`'s shape: it has at least two);
        // the body is read only where nothing was done.
        // SAFETY: see above.
        let (va, vb) = unsafe {
            (
                self.s.vals.get(self.env_base),
                self.s.vals.get(self.env_base + 1),
            )
        };
        // SAFETY: as this function's; the op's verified lambda.
        unsafe {
            match self.int_fn_forced(f, op_end, va, vb) {
                Some(next) => next,
                None => self.global_lam(lam).body,
            }
        }
    }

    /// [`Machine::int_fn_forcing`] when `int_fn_body` found the first
    /// argument a boxed value (its closure `a` and field `x`), as
    /// `int_arg` would find it.
    ///
    /// # Safety
    /// As [`Machine::int_fn_forcing`].
    #[inline(always)]
    unsafe fn int_fn_forcing_second(
        &mut self,
        lam: LambdaId,
        f: u32,
        op_end: u64,
        a: Addr,
        x: Value,
    ) -> ExprId {
        // SAFETY: as in `int_fn_forcing`.
        let vb = unsafe { self.s.vals.get(self.env_base + 1) };
        // SAFETY: as this function's; the op's verified lambda.
        unsafe {
            match self.int_fn_forced_second(f, op_end, a, x, vb) {
                Some(next) => next,
                None => self.global_lam(lam).body,
            }
        }
    }

    /// [`Machine::int_fn_forced_with`] when the first argument is a boxed
    /// value (its closure `a`, field `x`): the second, which
    /// `int_fn_body` found is not one, can only be an [`IntThunk`] to
    /// evaluate in place, so the general path's choices are made once.
    ///
    /// # Safety
    /// As [`Machine::int_fn_body`].
    #[inline(always)]
    unsafe fn int_fn_forced_second(
        &mut self,
        f: u32,
        op_end: u64,
        a: Addr,
        x: Value,
        vb: Value,
    ) -> Option<ExprId> {
        // SAFETY: a verified shape.
        let sh = unsafe { self.k.int_fn(f) };
        let IntArg::Thunk(t, index, forced) = self.int_arg(vb, sh.c2, sh.kb)? else {
            return None;
        };
        let y = forced.field?;
        // SAFETY: a verified shape.
        let (r, body, bind) = unsafe { self.int_call_result(sh, x, y) }?;
        let (s1, s2, e1, e2, e3) = (sh.s1, sh.s2, sh.e1, sh.e2, sh.e3);
        // As `int_fn_forced_with` checks for one thunk.
        if self.steps + 5 + forced.steps() >= op_end
            || self.gc_stress
            || self.heap.free_words() < closure_words(1)
            || !self.fits(self.env_len + CONT_WORDS + FRAME_WORDS + 3 + forced.fun_env as usize)
        {
            return None;
        }
        // It fires: the first case.
        if PROF {
            self.note_use(a);
            self.pend_calls += 2;
        }
        self.steps += 5;
        // SAFETY: the shape's verified slot.
        unsafe { self.set_local(s1, x) };
        // The second, the thunk evaluated in place.
        if self.force_int_thunk(t, index, &forced).is_none() {
            // Not so: the room was checked above (see `int_fn_forced_with`).
            debug_assert!(false, "room for the second thunk's constructor");
            self.at = e1;
            return Some(e2);
        }
        // SAFETY: the shape's.
        unsafe { self.int_call_prim_case(s2, y, bind, r, e3) };
        Some(body)
    }

    /// [`Machine::int_fn_forcing`], `None` where nothing is done.
    ///
    /// # Safety
    /// As [`Machine::int_fn_body`].
    #[inline(always)]
    unsafe fn int_fn_forced(
        &mut self,
        f: u32,
        op_end: u64,
        va: Value,
        vb: Value,
    ) -> Option<ExprId> {
        // SAFETY: a verified shape.
        let sh = unsafe { self.k.int_fn(f) };
        let arg_a = self.int_arg(va, sh.c1, sh.ka)?;
        // SAFETY: as this function's.
        unsafe { self.int_fn_forced_with(f, op_end, arg_a, vb) }
    }

    /// [`Machine::int_fn_forced`] with the first argument found
    /// (`arg_a`).
    ///
    /// # Safety
    /// As [`Machine::int_fn_body`].
    #[inline(always)]
    unsafe fn int_fn_forced_with(
        &mut self,
        f: u32,
        op_end: u64,
        arg_a: IntArg,
        vb: Value,
    ) -> Option<ExprId> {
        // SAFETY: a verified shape.
        let sh = unsafe { self.k.int_fn(f) };
        let arg_b = match (arg_a, vb) {
            // Evaluated by the first case, the same thunk is a value at
            // the second (its constructor is `c1`).
            (IntArg::Thunk(t, ..), Value::Ptr(p)) if self.heap.deref(p) == t => {
                if sh.c2 != sh.c1 {
                    return None;
                }
                IntArg::Same
            }
            _ => self.int_arg(vb, sh.c2, sh.kb)?,
        };
        let field = |arg: IntArg| match arg {
            IntArg::Value(_, x) => Some(x),
            IntArg::Thunk(.., forced) => forced.field,
            IntArg::Same => None,
        };
        let x = field(arg_a)?;
        let y = match arg_b {
            IntArg::Same => x,
            arg => field(arg)?,
        };
        // SAFETY: a verified shape.
        let (r, body, bind) = unsafe { self.int_call_result(sh, x, y) }?;
        // (What is needed of the shape once the machine changes.)
        let (s1, s2, e1, e2, e3) = (sh.s1, sh.s2, sh.e1, sh.e2, sh.e3);
        // What the thunks take on top of the call's 13 steps: 16 steps
        // more each (`int_fn_body` checked the 13), their constructors'
        // room, and the stacks while each is evaluated.
        let (mut steps, mut words, mut fun_env) = (10, 0, 0);
        for arg in [&arg_a, &arg_b] {
            if let IntArg::Thunk(.., forced) = arg {
                steps += forced.steps() - 5;
                words += closure_words(1);
                fun_env = fun_env.max(forced.fun_env as usize);
            }
        }
        if self.steps + steps >= op_end
            || self.gc_stress
            || self.heap.free_words() < words
            || !self.fits(self.env_len + CONT_WORDS + FRAME_WORDS + 3 + fun_env)
        {
            return None;
        }
        // It fires: the first case.
        let made = match arg_a {
            IntArg::Value(a, _) => {
                if PROF {
                    self.note_use(a);
                    self.pend_calls += 2;
                }
                self.steps += 5;
                None
            }
            IntArg::Thunk(t, index, forced) => Some(self.force_int_thunk(t, index, &forced)?),
            IntArg::Same => return None,
        };
        // SAFETY: the shape's verified slot.
        unsafe { self.set_local(s1, x) };
        // The second.
        match arg_b {
            IntArg::Value(b, _) => {
                if PROF {
                    self.note_use(b);
                    self.pend_calls += 2;
                }
                self.steps += 5;
            }
            IntArg::Thunk(t, index, forced) => {
                if self.force_int_thunk(t, index, &forced).is_none() {
                    // Not so: the room for both constructors was checked
                    // above. Were it not there, the machine is at the
                    // second case, as the first case's return leaves it.
                    debug_assert!(false, "room for the second thunk's constructor");
                    self.at = e1;
                    return Some(e2);
                }
            }
            IntArg::Same => {
                if PROF {
                    // The case reads the constructor the first one's
                    // update made.
                    if let Some(v) = made {
                        self.note_use(v);
                    }
                    self.pend_calls += 2;
                }
                self.steps += 5;
            }
        }
        // SAFETY: the shape's.
        unsafe { self.int_call_prim_case(s2, y, bind, r, e3) };
        Some(body)
    }

    /// The primitive case of an integer call whose arguments were
    /// evaluated in place (rules 4, 14 and 11, 12 or 13), and the end of
    /// the call ([`Machine::int_call_ends`]).
    ///
    /// # Safety
    /// As [`Machine::int_call_ends`].
    #[inline(always)]
    unsafe fn int_call_prim_case(
        &mut self,
        s2: u32,
        y: Value,
        bind: Option<u32>,
        r: i64,
        e3: ExprId,
    ) {
        if PROF {
            self.pend_calls += 1;
        }
        // SAFETY: the caller's.
        unsafe { self.int_call_ends(s2, y, bind, r, e3) };
        self.steps += 3;
    }

    /// An argument of an [`Op::CallIntFn`] whose case expects constructor
    /// `con` with one field: a boxed value, or an [`IntThunk`] that
    /// evaluates to one. `None` for anything else.
    #[inline(always)]
    fn int_arg(&self, v: Value, con: ConId, known: Option<i64>) -> Option<IntArg> {
        if known.is_some() {
            let (a, x) = self.boxed_arg(v, con, known)?;
            return Some(IntArg::Value(a, x));
        }
        let Value::Ptr(p) = v else {
            return None;
        };
        let (a, info) = self.heap.deref_info_hop(p)?;
        if info.tag == Tag::Lambda
            && let Some(&lam) = self.p.lams.get(info.index as usize)
            && lam.kind == 1
        {
            let forced = self.int_thunk_value(a, self.k.int_thunk(info.index)?, lam.nfree)?;
            return (forced.con == con && forced.field.is_some())
                .then_some(IntArg::Thunk(a, info.index, forced));
        }
        let (a, x) = self.boxed_field_at(a, info, con)?;
        Some(IntArg::Value(a, x))
    }

    /// What the [`IntThunk`] `t` at `a` evaluates to, if its call would
    /// fire as [`Op::CallIntFn`]'s shape fires it (both operands, read
    /// from its payload or the constants, evaluated boxed values; the
    /// primitive operation succeeds and an alternative takes its result)
    /// and that alternative is a constructor of at most one field, read
    /// from what the call's environment holds then. Nothing is done.
    #[inline(always)]
    fn int_thunk_value(&self, a: Addr, t: IntThunk, nfree: u32) -> Option<Forced> {
        // The thunk's environment when its body starts: its free
        // variables (`Compiled::verify`: below its payload's length).
        // SAFETY: a verified thunk's operands.
        let operand = |o: Opnd| unsafe { self.payload_opnd(a, o) };
        // SAFETY: a verified thunk's shape.
        let sh = unsafe { self.k.int_fn(t.f) };
        // The second operand first (nothing here has an effect, so the
        // order is free): the one most often not yet a value (queens'
        // `cpd = {c, d} \u {} -> plusInt {c, d}`, whose `d` is the thunk
        // `d1` before `cpd` is first needed), where the first is a list's
        // element or a variable the caller evaluated.
        let vb = operand(t.b);
        let (a1, y) = self.boxed_arg(vb, sh.c2, sh.kb)?;
        let va = operand(t.a);
        let (a0, x) = self.boxed_arg(va, sh.c1, sh.ka)?;
        let r = Self::int_prim(sh, x, y)?;
        debug_assert_eq!(t.fun_env, {
            // SAFETY: a verified thunk's lambda.
            unsafe { self.global_lam(t.lam) }.fun_env
        });
        let (con, field) = match sh.boxes_result {
            // `r -> C {r}`, known when the program was compiled.
            Some(con) => {
                debug_assert_eq!(
                    self.int_call_built(sh, r, [va, vb, x, y]),
                    Some((con, Some(Value::Int(r))))
                );
                (con, Some(Value::Int(r)))
            }
            None => self.int_call_built(sh, r, [va, vb, x, y])?,
        };
        Some(Forced {
            con,
            field,
            used: [a0, a1],
            fun_env: t.fun_env,
            nfree,
            scc_site: t.scc_site,
            scc_cc: t.scc_cc,
        })
    }

    /// The constructor (and its field, if it has one) that the
    /// alternative taking `r` of a call of shape `sh` builds, its fields
    /// read from the call's slots as its ops leave them (the arguments
    /// `va` and `vb`, then the fields `x` and `y` and the primitive result
    /// bound in that order); `None` for an alternative of another kind, or
    /// a constructor of more fields.
    fn int_call_built(
        &self,
        sh: &compile::IntFn,
        r: i64,
        [va, vb, x, y]: [Value; 4],
    ) -> Option<(ConId, Option<Value>)> {
        // SAFETY: the shape's verified alternatives.
        let IntSel::Body(body, bind) = (unsafe { self.select_int(self.k.alts(sh.alts3), r) })
        else {
            return None;
        };
        // SAFETY: an alternative's body (verified).
        let Op::Con { con, first, n } = (unsafe { self.k.op(body) }) else {
            return None;
        };
        let field = match n {
            0 => None,
            1 => {
                // SAFETY: the verified range of the `Con`'s one operand.
                let o = unsafe { self.k.opnd(first) };
                let s = o.0 & !Opnd::LOCAL;
                Some(if o.0 & Opnd::LOCAL == 0 {
                    // SAFETY: a verified constant operand.
                    unsafe { self.s.vals.get(o.0 as usize) }
                } else if bind == Some(s) {
                    Value::Int(r)
                } else if s == sh.s2 {
                    y
                } else if s == sh.s1 {
                    x
                } else if s == 1 {
                    vb
                } else if s == 0 {
                    va
                } else {
                    return None;
                })
            }
            _ => return None,
        };
        Some((con, field))
    }

    /// Evaluate the thunk at `a` (lambda `index`), an [`IntThunk`] whose
    /// value is `forced`, in place of a `case` of it: rules 4, 1 and
    /// 15 (the case's continuation and the thunk's update frame pushed,
    /// the thunk black-holed, its cost centre current), its call's 15
    /// steps, rule 5, the update (16) and the return to the continuation
    /// (6 or 8): [`FORCE_STEPS`] steps, with every effect of those rules
    /// on the heap, the cost centres and the counters, and nothing pushed
    /// or popped (the continuation's environment is the current one, and
    /// those opened above it are dead); one step more for its body's `scc`
    /// in stacks mode (`Op::SccPush`). The caller binds the alternative's
    /// fields and sets `at`; it checked the steps and the stacks (the
    /// continuation and update frame, then the call's cases:
    /// `fits(env_len + 7 + 3 + forced.fun_env)`). Returns the constructor
    /// the update made (`a` itself when written over it); `None` (nothing
    /// done) when the heap has no
    /// room for it without a collection, or under `--gc-stress`.
    #[inline(always)]
    fn force_int_thunk(&mut self, a: Addr, index: LambdaId, forced: &Forced) -> Option<Addr> {
        // The room for the update's constructor first, so that none means
        // nothing done.
        let fields = forced.field.as_slice();
        let size = closure_words(fields.len());
        // (Room for the constructor is asked for even when the update
        // writes it over the thunk: without it the rule loop fires the
        // rules, to the same effect.)
        if self.gc_stress || self.heap.free_words() < size {
            return None;
        }
        // Rules 4, 1 and 15: the thunk's cost centre current (its black
        // hole is not written: the update below leaves what the update
        // of the black hole would, and nothing looks at it in between).
        let tcc = self.heap.cc(a);
        if PROF {
            self.note_use(a);
            self.ctr(tcc).lazy_calls += 1;
            self.pend_calls += 1;
        }
        self.steps += 3;
        let saved = self.cc;
        self.switch(tcc);
        if forced.scc_site != NONE {
            // Rule scc (stacks mode), the body's, as `Op::SccPush` fires
            // it. SAFETY: a verified thunk's site.
            let to = unsafe { self.scc_site_push(forced.scc_site, forced.scc_cc, tcc) };
            self.steps += 1;
            self.flush();
            self.tick_cc = to;
        }
        // The call (rules 1, 2; 4, 1, 2, 5, 6 twice; 4, 14, 11-13), rule 5
        // and the update (16), which allocates the constructor by the
        // evaluating entry and leaves the case's cost centre current again.
        if PROF {
            self.note_use(forced.used[0]);
            self.note_use(forced.used[1]);
            self.pend_calls += 6;
            self.pend_words += size as u64;
        }
        self.steps += 17;
        let info = Info {
            tag: Tag::Con,
            n: fields.len() as u32,
            index: forced.con,
        };
        let thunk = Info {
            tag: Tag::Lambda,
            n: forced.nfree,
            index,
        };
        // The update writes the constructor over the thunk when it has the
        // room, as the rules' would over its black hole
        // (`Heap::update_blackhole_with_con`).
        let v = if self
            .heap
            .update_thunk_with_con(a, thunk, info, self.tick_cc, forced.field)
        {
            a
        } else {
            // SAFETY: `size <= free_words()` (checked above, and nothing
            // was allocated since); the header (which writes 0 in the
            // first payload word) and the field, if any, write every word
            // of the block, as `Heap::alloc_small` would.
            let v = unsafe {
                let mut block = self.heap.take_block(size);
                block.header(0, info.encode(), self.tick_cc);
                if let Some(x) = forced.field {
                    block.field(2, x);
                }
                block.addr()
            };
            self.heap.update_thunk(a, thunk, v);
            v
        };
        // Rule 6 or 8: the return.
        self.switch(saved);
        if PROF {
            self.pend_calls += 1;
        }
        self.steps += 1;
        Some(v)
    }

    /// [`Machine::boxed_field`] of an argument of a call whose shape
    /// `known`s its field (`IntFn::ka`, `IntFn::kb`): then it is a global
    /// value closure, which the heap need not be read for.
    #[inline(always)]
    fn boxed_arg(&self, v: Value, con: ConId, known: Option<i64>) -> Option<(Addr, Value)> {
        match known {
            Some(k) => {
                let known = (Self::known_closure(v), Value::Int(k));
                debug_assert_eq!(self.boxed_field(v, con), Some(known));
                Some(known)
            }
            None => self.boxed_field(v, con),
        }
    }

    /// The closure of an argument whose field a shape knows: a global's,
    /// never updated (so never an indirection), which the heap's record
    /// of use is told of with a profile.
    #[inline(always)]
    fn known_closure(v: Value) -> Addr {
        debug_assert!(matches!(v, Value::Ptr(_)));
        match v {
            Value::Ptr(p) => p,
            Value::Int(_) => 0,
        }
    }

    /// What `case v of C {x} -> ...` binds `x` to when `v` is a boxed
    /// value with constructor `con` and at least one field (the closure,
    /// and the field): a constructor, or an arity-0 re-entrant closure
    /// whose body is one (its atoms read as `CaseVar` reads them). `None`
    /// for anything else (a thunk, another constructor).
    #[inline(always)]
    fn boxed_field(&self, v: Value, con: ConId) -> Option<(Addr, Value)> {
        let Value::Ptr(p) = v else {
            return None;
        };
        let (a, info) = self.heap.deref_info_hop(p)?;
        self.boxed_field_at(a, info, con)
    }

    /// [`Machine::boxed_field`] of the closure at `a` (no indirection),
    /// whose info word is `info`.
    #[inline(always)]
    fn boxed_field_at(&self, a: Addr, info: Info, con: ConId) -> Option<(Addr, Value)> {
        match info.tag {
            Tag::Con if info.index == con && info.n >= 1 => Some((a, self.heap.payload(a, 0))),
            Tag::Lambda => {
                // A value closure: its body's first atom, as `closure_atom`
                // reads it (found when the program was compiled).
                let (c, o) = self.k.value_field(info.index)?;
                if c != con {
                    return None;
                }
                // SAFETY: a verified value field (`Compiled::value_fields`:
                // a free variable or a constant).
                Some((a, unsafe { self.payload_opnd(a, o) }))
            }
            _ => None,
        }
    }

    /// Operand `o` in the environment of the closure at `a` whose locals
    /// are its free variables: a constant, or a word of its payload.
    ///
    /// # Safety
    /// A constant `o` is a verified one, in the constant area.
    #[inline(always)]
    unsafe fn payload_opnd(&self, a: Addr, o: compile::Opnd) -> Value {
        if o.0 & compile::Opnd::LOCAL == 0 {
            // SAFETY: the caller's.
            unsafe { self.s.vals.get(o.0 as usize) }
        } else {
            self.heap.payload(a, (o.0 & !compile::Opnd::LOCAL) as usize)
        }
    }

    /// Operand `i` of the body of the closure at `a` (of lambda `lam`),
    /// read in its environment: a constant, one of its free variables, or
    /// `0#` for a slot the body binds later (the rule loop's reading).
    ///
    /// # Safety
    /// `i` is in the verified range of an op of `lam`'s body.
    #[inline(always)]
    unsafe fn closure_atom(&self, a: Addr, lam: Lam, i: u32) -> Value {
        // SAFETY: in range (see above).
        let o = unsafe { self.k.opnd(i) };
        if o.0 & compile::Opnd::LOCAL == 0 {
            // SAFETY: a verified constant operand, in the constant area.
            unsafe { self.s.vals.get(o.0 as usize) }
        } else if o.0 & !compile::Opnd::LOCAL < lam.nfree {
            self.heap.payload(a, (o.0 & !compile::Opnd::LOCAL) as usize)
        } else {
            Value::Int(0)
        }
    }

    /// Open a fresh environment of `size` slots at the floor, its first
    /// slots `xs` (a global function's arguments), the rest not bound yet.
    #[inline(always)]
    fn open_env_with(&mut self, size: usize, xs: &[Value]) {
        let base = self.floor();
        let env = self.s.vals.open(base, size);
        let n = xs.len().min(size);
        // Element by element: a few slots, where `copy_from_slice` would
        // call `memcpy`.
        for (slot, x) in env.iter_mut().zip(&xs[..n]) {
            *slot = *x;
        }
        values::unbound(&mut env[n..]);
        self.env_base = base;
        self.env_len = size;
    }

    /// `case x {} of alts` (op `pc`) with `x` bound to `v`. Without a
    /// continuation when the value is at hand: an `Int#` (rules 4, 10 and
    /// 11–13), a constructor value or a re-entrant arity-0 closure whose
    /// body is a constructor application (4, 1, 2, 5 and 6 or 8). With one
    /// when `x` is a thunk (4, 1, 15: on to its body). `None`: left to the
    /// rule loop.
    ///
    /// # Safety
    /// `pc` is an expression and `alts` its verified alternatives (the
    /// operands of an `Op::CaseVar` at `pc`).
    #[inline(always)]
    unsafe fn case_var(&mut self, pc: ExprId, v: Value, alts: u32) -> Option<ExprId> {
        match v {
            // SAFETY: verified alternatives.
            Value::Int(k) => unsafe { self.case_int(pc, alts, k) },
            Value::Ptr(p) => {
                let (a, info) = self.heap.deref_info(p)?;
                match info.tag {
                    Tag::Con => {
                        // Rules 2 and 5 read the fields from the heap.
                        // SAFETY: verified alternatives.
                        let next = unsafe {
                            self.case_value(
                                pc,
                                alts,
                                info.index,
                                info.n as usize,
                                #[inline(always)]
                                |m, i| m.heap.payload(a, i),
                            )
                        };
                        // (Used only if the op fires.)
                        if PROF && next.is_some() {
                            self.note_use(a);
                        }
                        next
                    }
                    Tag::Lambda => {
                        let lam = *self.p.lams.get(info.index as usize)?;
                        match lam.kind {
                            0 if lam.arity == 0 => {
                                // A value such as `one = {} \r {} -> I# {1#}`:
                                // rule 5 reads the body's atoms in the
                                // closure's environment (its free
                                // variables, then `0#` slots).
                                // SAFETY: a lambda's body (verified).
                                let Op::Con { con, first, n } = (unsafe { self.k.op(lam.body) })
                                else {
                                    return None;
                                };
                                // SAFETY: verified alternatives; `i < n`,
                                // the verified range of the `Con` op, whose
                                // constant operands are in the constant
                                // area.
                                let next = unsafe {
                                    self.case_value(
                                        pc,
                                        alts,
                                        con,
                                        n as usize,
                                        #[inline(always)]
                                        |m, i| m.closure_atom(a, lam, first + i as u32),
                                    )
                                };
                                // (Used only if the op fires.)
                                if PROF && next.is_some() {
                                    self.note_use(a);
                                }
                                next
                            }
                            1 | 2 => {
                                // An integer thunk whose call would fire:
                                // evaluated where it is.
                                // Rules 4, 1 and 15.
                                let n = self.env_len;
                                if !self.fits(n + 3 + 4) {
                                    return None;
                                }
                                // SAFETY: `pc` is the op's expression.
                                Some(unsafe { self.case_enter_thunk(pc, a, lam, info.index) })
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                }
            }
        }
    }

    /// The end of a case on an evaluated value, the constructor `con` with
    /// `n` fields `field(i)`: rules 4, 1, 2, 5 and 6 or 8, binding the
    /// fields straight into the environment (a case whose scrutinee only
    /// reads atoms runs in the continuation's frame). `None` for rule 7
    /// (it allocates) or no alternative (an error).
    ///
    /// # Safety
    /// `alts` is an index of the verified `Compiled::alts`.
    #[inline(always)]
    unsafe fn case_value(
        &mut self,
        pc: ExprId,
        alts: u32,
        con: ConId,
        n: usize,
        field: impl Fn(&Self, usize) -> Value,
    ) -> Option<ExprId> {
        if !self.fits(self.env_len + 3) {
            return None;
        }
        // SAFETY: verified alternatives.
        let body = match unsafe { self.select_con(self.k.alts(alts), con) } {
            ConSel::Alt(alt) => {
                // SAFETY: `alt` is a verified entry of `con_alts`.
                let slots = unsafe { self.k.bind_slots(&alt) };
                for (i, &slot) in slots.iter().enumerate().take(n) {
                    let v = field(self, i);
                    // SAFETY: a verified slot (see `value_of`).
                    unsafe { self.s.vals.set(self.env_base + slot as usize, v) };
                }
                alt.body
            }
            ConSel::Default(body) => body,
            ConSel::DefaultBind(..) | ConSel::Fail => return None,
        };
        self.at = pc;
        self.steps += 5;
        if PROF {
            self.pend_calls += 2;
        }
        Some(body)
    }

    /// Rule 14's result, `op {a, b}`; `None` when an operand is not an
    /// `Int#` or the operation fails (errors are the rule loop's).
    ///
    /// # Safety
    /// `a` and `b` are verified operands.
    #[inline(always)]
    unsafe fn prim(&self, op: PrimOp, a: Opnd, b: Opnd) -> Option<i64> {
        // SAFETY: verified operands.
        let (Value::Int(x), Value::Int(y)) =
            (unsafe { self.value_of(a) }, unsafe { self.value_of(b) })
        else {
            return None;
        };
        primitives::apply(op, x, y)
    }

    /// The end of a case on the `Int#` `k` at hand (the case `pc` of a
    /// variable or of a primitive operation): rule 4 with 10 or 14 before
    /// it, then 11, 12 or 13. `None` when no alternative matches (an
    /// error) or the stacks might not fit.
    ///
    /// # Safety
    /// `alts` is an index of the verified `Compiled::alts`.
    #[inline(always)]
    unsafe fn case_int(&mut self, pc: ExprId, alts: u32, k: i64) -> Option<ExprId> {
        if !self.fits(self.env_len + 3) {
            return None;
        }
        // SAFETY: verified alternatives.
        let IntSel::Body(body, bind) = (unsafe { self.select_int(self.k.alts(alts), k) }) else {
            return None;
        };
        if let Some(slot) = bind {
            // SAFETY: a verified default binder.
            unsafe { self.set_local(slot, Value::Int(k)) };
        }
        self.at = pc;
        self.steps += 3;
        if PROF {
            self.pend_calls += 1;
        }
        Some(body)
    }

    /// Rules 4, 1 and 15 (or 15′) of the `case x {} of alts` at `pc` on
    /// the thunk at `a` (after the stack check): the case continuation and
    /// the thunk's frame pushed together, as one merged entry when it is
    /// an update frame and they fit one (see "Merged entries" at `Frame`),
    /// else as two (one check of the control stack's room); its cached top
    /// and word count set once, then its entry (`at` ends at the lambda,
    /// the scrutinee's `at` in between is overwritten before anything
    /// reads it). Returns the thunk's body, or when that is a call of a
    /// global function that fits, the function's body with the call made
    /// ([`Machine::thunk_calls_global`]).
    ///
    /// # Safety
    /// `pc` is the case's expression (an expression of the program, which
    /// the continuation's return looks its `case_alts` and `case_env_len`
    /// up by; the `Op::CaseVar` at `pc` has its verified alternatives:
    /// `Compiled::verify` checks they are the same).
    #[inline(always)]
    unsafe fn case_enter_thunk(
        &mut self,
        pc: ExprId,
        a: Addr,
        lam: Lam,
        index: LambdaId,
    ) -> ExprId {
        let update = lam.kind == 1;
        let as_height = self.s.args.len();
        let (base, len) = (self.env_base, self.env_len);
        let cc = self.cc;
        // The thunk's environment opens at the continuation's floor (see
        // "Floors" at `Frame`).
        debug_assert_eq!(base, self.top_floor);
        // SAFETY: `pc` is an expression, and `keep` has one entry per
        // expression (`Liveness::new`).
        let env_top = base + unsafe { self.s.live.keep_unchecked(pc) } as usize;
        debug_assert_eq!(self.cont_len(Frame::cont(pc, base, as_height, cc)), len);
        self.cs_words += len + CONT_WORDS + FRAME_WORDS;
        self.top_cont = false;
        self.top_floor = env_top;
        self.top_as = as_height;
        let cs = &mut self.s.cs;
        if update && self.merge && Frame::merged_fits(as_height, cc) {
            // `merge`: `pc` is below `MERGED_CASES` and `a` below
            // 2^MERGED_ADDR_BITS.
            cs.push(Frame::merged(pc, base, a, as_height, cc));
        } else {
            let cont = Frame::cont(pc, base, as_height, cc);
            let frame = Frame::update_or_restore(update.then_some(a), as_height, cc);
            cs.reserve(2);
            let len = cs.len();
            // SAFETY: `reserve(2)` made room for two more entries past
            // `len`; both are written before the length takes them in.
            unsafe {
                let top = cs.as_mut_ptr().add(len);
                top.write(cont);
                top.add(1).write(frame);
                cs.set_len(len + 2);
            }
        }
        // SAFETY: a lambda's body (verified).
        if let Some(next) = unsafe { self.thunk_calls_global(a, lam, index, update) } {
            return next;
        }
        self.open_env(a, lam.thunk_env as usize, lam.nfree as usize);
        self.case_entry_ends(a, lam, index, update);
        lam.body
    }

    /// The end of rules 4, 1 and 15 of a `case` entering the thunk at `a`
    /// (its frames pushed, its environment or its body's opened): the
    /// thunk black-holed, its cost centre current, the three steps and
    /// the entry's call charged to the entry before it.
    #[inline(always)]
    fn case_entry_ends(&mut self, a: Addr, lam: Lam, index: LambdaId, update: bool) {
        self.enter_opened(a, lam, index, update);
        if PROF {
            self.pend_calls += 1;
        }
        self.steps += 3;
        self.switch(self.cc);
    }

    /// The end of a thunk's entry by a `case` (rules 4, 1 and 15, its
    /// frames pushed) when its body is a call of a global function that
    /// fits (`Op::CallGlobal`, whose rules 1 and 2 then fire in the same
    /// dispatch, 5 steps in all): the function's environment opened with
    /// the arguments read straight from the thunk's payload and the
    /// constants, without the thunk's own environment, which the body
    /// would only read them from (the rule loop's reading of each operand,
    /// [`Machine::closure_atom`]). Every effect of the two entries is
    /// made, in the rules' order: the thunk black-holed and its cost
    /// centre current, the steps and calls of the entry charged to the
    /// entry before it, the call's to the thunk's, `at` at the call.
    /// Returns the function's body; `None` (nothing done) when the body
    /// is another op or the call's arguments do not fit.
    ///
    /// # Safety
    /// `lam` is the lambda of the thunk at `a` (`index`), whose body is a
    /// verified expression.
    #[inline(always)]
    unsafe fn thunk_calls_global(
        &mut self,
        a: Addr,
        lam: Lam,
        index: LambdaId,
        update: bool,
    ) -> Option<ExprId> {
        // SAFETY: a verified expression.
        let Op::CallGlobal { lam: g, first, n } = *(unsafe { self.k.op_ref(lam.body) }) else {
            return None;
        };
        if !self.fits(n as usize) {
            return None;
        }
        // SAFETY: the op's verified lambda.
        let f = unsafe { self.global_lam(g) };
        // Rules 1 and 2's environment, opened where the thunk's would
        // have been (the floor), its slots written after it is open: the
        // arguments come from the thunk's payload in the heap and from
        // the constant area, at the bottom of the value stack below the
        // floor, so nothing they are read from is overwritten.
        let base = self.floor();
        let size = f.fun_env as usize;
        let n = (n as usize).min(size);
        let env = self.s.vals.open(base, size);
        values::unbound(&mut env[n..]);
        for i in 0..n {
            // SAFETY: `i < n`, the verified range of the op's operands.
            let v = unsafe { self.closure_atom(a, lam, first + i as u32) };
            // SAFETY: `base + i < base + size`, the top `open` set.
            unsafe { self.s.vals.set(base + i, v) };
        }
        self.env_base = base;
        self.env_len = size;
        self.case_entry_ends(a, lam, index, update);
        // Rules 1 and 2, as `enter_global` makes them.
        self.at = lam.body;
        if PROF {
            self.pend_calls += 1;
        }
        self.steps += 2;
        Some(f.body)
    }

    /// Rule 15 or 15′ on the thunk at `a` (after the stack check): returns
    /// its body.
    #[inline(always)]
    fn enter_thunk_op(&mut self, a: Addr, lam: Lam, index: LambdaId) -> ExprId {
        self.push_frame_enter(a, lam, index, lam.kind == 1);
        self.steps += 1;
        self.switch(self.cc);
        lam.body
    }

    /// `f {args}` (op `pc`, `n` arguments from `first`) with `f` bound to
    /// `v`: rule 10 for an `Int#`; rules 1 and 2 for a re-entrant closure
    /// given exactly its arguments; 1 and 15 for a thunk; 1, 2 and 5 for a
    /// constructor value, then its return. `None` when the op loop stops:
    /// in `Eval` of this op (`ctl` is set) or in a return.
    ///
    /// # Safety
    /// `first..first + n` is the verified range of the `Op::App` at `pc`.
    #[inline(always)]
    unsafe fn app(
        &mut self,
        pc: ExprId,
        v: Value,
        first: u32,
        n: usize,
        fs: &mut [Value; MAX_FIELDS],
    ) -> Flow {
        let code = self.code;
        let stop = |m: &mut Self| {
            m.s.ctl = Ctl::Eval(pc);
            Flow::Stop
        };
        let p = match v {
            Value::Int(k) if n == 0 => {
                // Rule 10.
                self.at = pc;
                self.steps += 1;
                return Flow::Ret(Ret::Int(k));
            }
            Value::Int(_) => return stop(self),
            Value::Ptr(p) => p,
        };
        let Some((a, info)) = self.heap.deref_info(p) else {
            return stop(self);
        };
        match info.tag {
            Tag::Lambda => {
                let Some(&lam) = self.p.lams.get(info.index as usize) else {
                    return stop(self);
                };
                match lam.kind {
                    0 if lam.arity as usize == n && n <= MAX_FIELDS => {
                        // Rules 1 and 2. An arity-0 closure with arguments
                        // pending below would record an over-saturated
                        // call (stacks mode): left to the rule loop.
                        if (n == 0 && self.avail() != 0) || !self.fits(n) {
                            return stop(self);
                        }
                        // The arguments go through the loop's buffer: the new
                        // environment may overlap the one they are read from.
                        for (i, x) in fs.iter_mut().enumerate().take(n) {
                            // SAFETY: `i < n`, the op's verified range.
                            *x = unsafe { self.opnd_value(first + i as u32) };
                        }
                        self.at = pc;
                        if PROF {
                            self.pend_calls += 1;
                        }
                        let base = self.open_function_env(a, lam) + lam.nfree as usize;
                        for (slot, x) in self.s.vals[base..base + n].iter_mut().zip(&fs[..n]) {
                            *slot = *x;
                        }
                        self.steps += 2;
                        self.switch(self.cc);
                        Flow::Go(lam.body)
                    }
                    1 | 2 if n == 0 => {
                        // Rules 1 and 15.
                        if !self.fits(4) {
                            return stop(self);
                        }
                        self.at = pc;
                        if PROF {
                            self.pend_calls += 1;
                        }
                        self.steps += 1;
                        Flow::Go(self.enter_thunk_op(a, lam, info.index))
                    }
                    _ => stop(self),
                }
            }
            Tag::Con if n == 0 && (info.n as usize) <= MAX_FIELDS => {
                // Rules 1, 2 and 5, then the return.
                let k = info.n as usize;
                if PROF {
                    self.note_use(a);
                }
                for (i, f) in fs.iter_mut().enumerate().take(k) {
                    *f = self.heap.payload(a, i);
                }
                if PROF {
                    self.pend_calls += 1;
                }
                self.drop_dead_envs();
                self.at = code
                    .con_bodies
                    .get(info.index as usize)
                    .copied()
                    .unwrap_or(u32::MAX);
                self.steps += 3;
                Flow::Ret(Ret::Con(info.index, k))
            }
            _ => stop(self),
        }
    }

    /// Rule 16's update of the black hole `u` with the constructor `c` of
    /// fields `fs`, by the evaluating cost centre: written over it when it
    /// has the room ([`Heap::update_blackhole_with_con`], which the
    /// reference engine tries first too), else allocated
    /// ([`Machine::alloc_update`]) with `u` made an indirection to it;
    /// `false` (nothing done) when the rule loop must fire it.
    #[inline(always)]
    fn update_con(&mut self, u: Addr, c: ConId, fs: &[Value]) -> bool {
        if self.update_in_place(u, c, fs) {
            return true;
        }
        let Some(v) = self.alloc_update(c, fs) else {
            return false;
        };
        self.heap.update_blackhole(u, v);
        true
    }

    /// Rule 16's constructor `c` with fields `fs`, allocated by the
    /// evaluating cost centre when the heap has room (`alloc_small` says
    /// so: it allocates only without a collection), the dead
    /// environments dropped; `None` (nothing done) when the rule loop
    /// must fire it.
    #[inline(always)]
    fn alloc_update(&mut self, c: ConId, fs: &[Value]) -> Option<Addr> {
        if self.gc_stress {
            return None;
        }
        let ev = self.tick_cc;
        let info = Info {
            tag: Tag::Con,
            n: fs.len() as u32,
            index: c,
        };
        let v = self.heap.alloc_returned_con(info, ev, fs)?;
        self.drop_dead_envs();
        if PROF {
            self.pend_words += closure_words(fs.len()) as u64;
        }
        Some(v)
    }

    /// Return the constructor `c` with fields `fs`: to the innermost case
    /// continuation (rules 6, 7, 8: `Some` of the alternative to evaluate
    /// next), through update and restore frames on the way (16, 16′).
    /// `None` when the op loop stops in the return (the rule loop takes
    /// over from `ReturnCon c fs`: an error, a collection, a step limit or
    /// event, or the machine halting).
    fn ret_con(&mut self, c: ConId, fs: &[Value], budget: u64) -> Option<ExprId> {
        // A merged entry whose update frame was popped, its continuation
        // not yet written back in its place (see below).
        let mut unwritten = false;
        'ret: {
            // Update and restore frames first (rules 16, 16′), in a loop
            // of their own: what it sets up (the size and info word of the
            // constructor an update allocates) is then not computed on a
            // return straight to a continuation.
            let cont = if self.top_cont {
                self.top_cont()
            } else {
                loop {
                    if self.steps >= budget {
                        break 'ret;
                    }
                    if self.avail() > 0 {
                        break 'ret;
                    }
                    let Some(f) = self.top_frame() else {
                        break 'ret;
                    };
                    if f.is_merged() {
                        // Rule 16 on a merged entry's update frame: its
                        // continuation, left on top, is the one returned
                        // to next. It is written back in the entry's place
                        // only if the op loop stops before the return
                        // pops it (`unwritten`): the machine is otherwise
                        // as `pop_merged_frame` leaves it.
                        if !self.update_con(f.merged_update(), c, fs) {
                            break 'ret;
                        }
                        let cont = f.unmerged();
                        self.top_cont = true;
                        self.cs_words -= FRAME_WORDS;
                        self.cc = cont.cont_cc();
                        unwritten = true;
                        self.steps += 1;
                        break cont;
                    }
                    match f.update() {
                        Some(u) => {
                            // Rule 16.
                            if !self.update_con(u, c, fs) {
                                break 'ret;
                            }
                            self.pop_top_frame(f);
                            self.steps += 1;
                        }
                        None => {
                            // Rule 16′.
                            self.pop_top_frame(f);
                            self.steps += 1;
                        }
                    }
                    if self.top_cont {
                        break self.top_cont();
                    }
                }
            };
            if self.steps >= budget {
                break 'ret;
            }
            let a = self.cont_alts(cont);
            if self.s.args.len() > cont.cont_as_height() || a == NONE {
                break 'ret;
            }
            // SAFETY: a continuation's alternatives are `case_alts` of
            // its case (`push_cont`), verified, and not `NONE`.
            let sel = unsafe { self.select_con(self.k.alts(a), c) };
            let (body, bind) = match sel {
                ConSel::Alt(alt) => {
                    // Rule 6.
                    self.switch(self.cc);
                    self.return_to(cont);
                    // SAFETY: `alt` is a verified entry of `con_alts`.
                    unsafe { self.bind_fields(&alt, fs) };
                    (alt.body, None)
                }
                ConSel::Default(body) => {
                    // Rule 8.
                    self.switch(self.cc);
                    self.return_to(cont);
                    (body, None)
                }
                ConSel::DefaultBind(slot, body) => {
                    // Rule 7, when the heap has room.
                    let size = closure_words(fs.len());
                    if self.gc_stress || self.heap.free_words() < size {
                        break 'ret;
                    }
                    self.switch(self.cc);
                    self.drop_dead_envs();
                    let info = Info {
                        tag: Tag::Con,
                        n: fs.len() as u32,
                        index: c,
                    };
                    let Some(a) = self.heap.alloc_returned_con(info, self.cc, fs) else {
                        break 'ret;
                    };
                    if PROF {
                        self.pend_words += size as u64;
                    }
                    self.return_to(cont);
                    (body, Some((slot, Value::Ptr(a))))
                }
                ConSel::Fail => break 'ret,
            };
            if let Some((slot, v)) = bind {
                self.set_slot(slot, v);
            }
            self.steps += 1;
            self.switch(self.cc);
            return Some(body);
        }
        if unwritten {
            self.write_unmerged_top();
        }
        self.s.fields.clear();
        self.s.fields.extend_from_slice(fs);
        self.s.ctl = Ctl::RetCon(c);
        None
    }

    /// Return the `Int#` `k`: as [`Machine::ret_con`], with rules 11, 12,
    /// 13 and 16′.
    fn ret_int(&mut self, k: i64, budget: u64) -> Option<ExprId> {
        loop {
            if self.steps >= budget {
                break;
            }
            if self.top_cont {
                let cont = self.top_cont();
                let a = self.cont_alts(cont);
                if self.s.args.len() > cont.cont_as_height() || a == NONE {
                    break;
                }
                // SAFETY: as in `ret_con`.
                let IntSel::Body(body, bind) = (unsafe { self.select_int(self.k.alts(a), k) })
                else {
                    break;
                };
                // Rules 11, 12, 13.
                self.switch(self.cc);
                self.return_to(cont);
                if let Some(slot) = bind {
                    self.set_slot(slot, Value::Int(k));
                }
                self.steps += 1;
                self.switch(self.cc);
                return Some(body);
            }
            if self.avail() > 0 {
                break;
            }
            match self.top_frame() {
                Some(f) if f.update().is_none() => {
                    // Rule 16′.
                    self.pop_frame();
                    self.steps += 1;
                }
                _ => break,
            }
        }
        self.s.ctl = Ctl::RetInt(k);
        None
    }
}
