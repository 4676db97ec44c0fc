//! The fast engine's rule-at-a-time path: one rule per iteration, selected
//! exactly as the reference engine's `select` selects it (same checks, same
//! order, same errors).

use super::*;

impl<'a, const PROF: bool, const BIO: bool> Machine<'a, PROF, BIO> {
    // ----- the loop ------------------------------------------------------

    /// Run until the machine halts (`Ok`) or an error.
    pub(super) fn exec(&mut self) -> Result<(), RuntimeError> {
        let code = self.code;
        loop {
            if self.steps >= self.next_event {
                self.event()?;
            }
            if let Ctl::Eval(_) = self.s.ctl
                && self.run_ops()
            {
                continue;
            }
            match self.s.ctl {
                Ctl::Eval(e) => {
                    let node = &code.exprs[e as usize];
                    match &node.code {
                        ExprCode::App { fun, args } => {
                            let f = self.lookup(*fun);
                            match f {
                                Value::Ptr(_) => {
                                    // Rule 1.
                                    self.check_limits("1", args.len())?;
                                    self.at = e;
                                    let (vals, nglobals) = (&self.s.vals, self.nglobals);
                                    let (base, len) = (self.env_base, self.env_len);
                                    for a in args.iter().rev() {
                                        let v = read_atom(vals, base, len, nglobals, *a);
                                        self.s.args.push(v);
                                    }
                                    self.finish_rule1(f)?;
                                }
                                Value::Int(k) if args.is_empty() => {
                                    // Rule 10.
                                    if self.steps >= self.limit {
                                        return Err(self.step_limit("10"));
                                    }
                                    self.at = e;
                                    self.s.ctl = Ctl::RetInt(k);
                                    self.steps += 1;
                                }
                                Value::Int(k) => {
                                    return Err(self.error(
                                        ErrorKind::IntNotClosure { value: k },
                                        "1",
                                        Some(node.span),
                                    ));
                                }
                            }
                        }
                        ExprCode::ApplyEnv => {
                            // Rule 1 on a partial application's body,
                            // `f {x1..xk}` over `[f, x1..xk]`.
                            let (base, len) = (self.env_base, self.env_len);
                            let f = if len > 0 {
                                self.s.vals[base]
                            } else {
                                Value::Int(0)
                            };
                            if let Value::Int(k) = f {
                                return Err(self.error(
                                    ErrorKind::IntNotClosure { value: k },
                                    "1",
                                    Some(node.span),
                                ));
                            }
                            self.check_limits("1", len.saturating_sub(1))?;
                            self.at = e;
                            for i in (1..len).rev() {
                                let v = self.s.vals[base + i];
                                self.s.args.push(v);
                            }
                            self.finish_rule1(f)?;
                        }
                        ExprCode::Case { scrut, .. } => {
                            // Rule 4.
                            self.check_limits("4", self.env_len + 3)?;
                            // SAFETY: `e` is an expression: `code.exprs[e]` was read above.
                            unsafe { self.push_cont(e) };
                            // A scrutinee that binds variables runs in a copy
                            // of the frame (the reference engine clones it):
                            // what it binds is not kept alive by the
                            // continuation. One that only reads atoms (an
                            // application, constructor, literal or primitive
                            // operation) writes nothing, so it runs in the
                            // continuation's frame itself.
                            let binds = !matches!(
                                code.exprs[*scrut as usize].code,
                                ExprCode::App { .. }
                                    | ExprCode::Con { .. }
                                    | ExprCode::Lit(_)
                                    | ExprCode::Prim { .. }
                            );
                            if binds {
                                let (b, n) = (self.env_base, self.env_len);
                                self.env_base = self.s.vals.copy_env(b, n, self.floor());
                            }
                            self.s.ctl = Ctl::Eval(*scrut);
                            self.steps += 1;
                        }
                        ExprCode::Let { binds, body, .. } => {
                            // Rule 3.
                            if self.steps >= self.limit {
                                return Err(self.step_limit("3"));
                            }
                            let words = self.p.let_words[e as usize] as usize;
                            self.reserve(words, "3")?;
                            self.at = e;
                            let cc = self.cc;
                            // The closures go where the bump allocator puts
                            // them: bind every name first, so that each
                            // closure (of a letrec too) is built once, with
                            // its free variables filled in.
                            let mut next = self.heap.next_addr();
                            for b in binds {
                                self.set_slot(b.slot, Value::Ptr(next));
                                let n = self.p.lams.get(b.lambda as usize).map_or(0, |l| l.nfree);
                                next += closure_words(n as usize) as Addr;
                            }
                            for b in binds {
                                let free = code
                                    .lambdas
                                    .get(b.lambda as usize)
                                    .map_or(&[][..], |l| &l.free[..]);
                                let info = Info {
                                    tag: Tag::Lambda,
                                    n: free.len() as u32,
                                    index: b.lambda,
                                };
                                let (vals, nglobals) = (&self.s.vals, self.nglobals);
                                let (base, len) = (self.env_base, self.env_len);
                                let r = self.heap.alloc_with(info, cc, free.len(), |i| {
                                    read_var(vals, base, len, nglobals, free[i])
                                });
                                if r.is_none() {
                                    return Err(self.heap_full("3"));
                                }
                            }
                            debug_assert_eq!(next, self.heap.next_addr());
                            if PROF {
                                self.pend_words += words as u64;
                            }
                            self.s.ctl = Ctl::Eval(*body);
                            self.steps += 1;
                        }
                        ExprCode::Con { con, args } => {
                            // Rule 5.
                            if self.steps >= self.limit {
                                return Err(self.step_limit("5"));
                            }
                            self.at = e;
                            self.load_fields(args);
                            self.s.ctl = Ctl::RetCon(*con);
                            self.steps += 1;
                        }
                        ExprCode::Lit(k) => {
                            // Rule 9.
                            if self.steps >= self.limit {
                                return Err(self.step_limit("9"));
                            }
                            self.at = e;
                            self.s.ctl = Ctl::RetInt(*k);
                            self.steps += 1;
                        }
                        ExprCode::Prim { op, args } => {
                            // Rule 14.
                            if self.steps >= self.limit {
                                return Err(self.step_limit("14"));
                            }
                            self.at = e;
                            let Some(xs) = self.int_args(args) else {
                                return Err(self.error(
                                    ErrorKind::ClosureNotInt,
                                    "14",
                                    Some(node.span),
                                ));
                            };
                            let Some(r) = primitives::apply(*op, xs[0], xs[1]) else {
                                return Err(self.error(
                                    ErrorKind::DivisionByZero,
                                    "14",
                                    Some(node.span),
                                ));
                            };
                            self.s.ctl = Ctl::RetInt(r);
                            self.steps += 1;
                        }
                        ExprCode::Scc { cc: l, body } => {
                            let l = *l;
                            if self.mode == CostCentreMode::Flat && self.cc == l {
                                // Rule scc=.
                                if self.steps >= self.limit {
                                    return Err(self.step_limit("scc="));
                                }
                                self.at = e;
                                if PROF {
                                    self.ctr(l).strict_calls += 1;
                                }
                                self.s.ctl = Ctl::Eval(*body);
                                self.steps += 1;
                            } else {
                                // Rule scc.
                                let flat = self.mode == CostCentreMode::Flat;
                                self.check_limits("scc", if flat { 4 } else { 0 })?;
                                self.at = e;
                                match self.mode {
                                    CostCentreMode::Flat => {
                                        self.push_restore_frame();
                                        self.cc = l;
                                    }
                                    CostCentreMode::Stacks => {
                                        self.cc = self.acct.stacks.push(self.cc, l);
                                    }
                                }
                                if PROF {
                                    let cc = self.cc;
                                    self.ctr(cc).strict_calls += 1;
                                }
                                self.s.ctl = Ctl::Eval(*body);
                                self.steps += 1;
                                self.switch(self.cc);
                            }
                        }
                    }
                }
                Ctl::Enter(v) => {
                    if self.enter(v)? {
                        return Ok(());
                    }
                }
                Ctl::RetCon(c) => {
                    if self.rs_nonempty() {
                        let cont = self.top_cont();
                        let case = &code.exprs[cont.case() as usize];
                        if self.s.args.len() > cont.cont_as_height() {
                            return Err(self.error(
                                ErrorKind::PendingArguments {
                                    value: desc_value(code, c, &self.s.fields),
                                    pending: self.s.args.len() - cont.cont_as_height(),
                                },
                                "6",
                                Some(case.span),
                            ));
                        }
                        let ExprCode::Case { alts, default, .. } = &case.code else {
                            return Err(self.error(ErrorKind::ClosureNotInt, "6", Some(case.span)));
                        };
                        match alts {
                            AltsKind::Alg(alts) => {
                                if let Some(alt) = alts.iter().find(|a| a.con == c) {
                                    // Rule 6.
                                    if self.steps >= self.limit {
                                        return Err(self.step_limit("6"));
                                    }
                                    self.switch(self.cc);
                                    self.return_to(cont);
                                    for (i, slot) in alt.binds.iter().enumerate() {
                                        if let Some(&w) = self.s.fields.get(i) {
                                            self.set_slot(*slot, w);
                                        }
                                    }
                                    self.s.ctl = Ctl::Eval(alt.body);
                                    self.steps += 1;
                                    self.switch(self.cc);
                                    continue;
                                }
                            }
                            AltsKind::Prim(_) => {
                                return Err(self.error(
                                    ErrorKind::ConInLiteralCase {
                                        con: desc_value(code, c, &self.s.fields),
                                    },
                                    "11",
                                    Some(case.span),
                                ));
                            }
                            AltsKind::DefaultOnly => {}
                        }
                        match default {
                            Some(DefaultAlt {
                                bind: Some(slot),
                                body,
                            }) => {
                                // Rule 7.
                                if self.steps >= self.limit {
                                    return Err(self.step_limit("7"));
                                }
                                self.switch(self.cc);
                                let a = self.alloc_returned_con(c, self.cc, "7")?;
                                self.eval_default(cont, Some((*slot, Value::Ptr(a))), *body);
                            }
                            Some(DefaultAlt { bind: None, body }) => {
                                // Rule 8.
                                if self.steps >= self.limit {
                                    return Err(self.step_limit("8"));
                                }
                                self.switch(self.cc);
                                self.eval_default(cont, None, *body);
                            }
                            None => {
                                return Err(self.error(
                                    ErrorKind::NoMatchingAlternative {
                                        value: desc_value(code, c, &self.s.fields),
                                    },
                                    "6",
                                    Some(case.span),
                                ));
                            }
                        }
                    } else {
                        let pending = self.avail();
                        if pending > 0 {
                            return Err(self.error(
                                ErrorKind::PendingArguments {
                                    value: desc_value(code, c, &self.s.fields),
                                    pending,
                                },
                                "16",
                                None,
                            ));
                        }
                        match self.top_frame().map(|f| f.update()) {
                            None => return Ok(()),
                            Some(Some(u)) => {
                                // Rule 16.
                                if self.steps >= self.limit {
                                    return Err(self.step_limit("16"));
                                }
                                let fields = std::mem::take(&mut self.s.fields);
                                let in_place = self.update_in_place(u, c, &fields);
                                self.s.fields = fields;
                                if in_place {
                                    self.pop_frame();
                                } else {
                                    let v = self.alloc_returned_con(c, self.tick_cc, "16")?;
                                    // (The allocation may have collected:
                                    // the frame has the closure's address.)
                                    let f = self.pop_frame();
                                    if let Some(a) = f.update() {
                                        self.heap.update_with_ind(a, v);
                                    }
                                }
                                self.steps += 1;
                            }
                            Some(None) => {
                                // Rule 16′.
                                if self.steps >= self.limit {
                                    return Err(self.step_limit("16′"));
                                }
                                self.pop_frame();
                                self.steps += 1;
                            }
                        }
                    }
                }
                Ctl::RetInt(k) => {
                    if self.rs_nonempty() {
                        let cont = self.top_cont();
                        let case = &code.exprs[cont.case() as usize];
                        if self.s.args.len() > cont.cont_as_height() {
                            return Err(self.error(
                                ErrorKind::PendingArguments {
                                    value: format!("{k}#"),
                                    pending: self.s.args.len() - cont.cont_as_height(),
                                },
                                "11",
                                Some(case.span),
                            ));
                        }
                        let ExprCode::Case { alts, default, .. } = &case.code else {
                            return Err(self.error(
                                ErrorKind::ClosureNotInt,
                                "11",
                                Some(case.span),
                            ));
                        };
                        match alts {
                            AltsKind::Prim(alts) => {
                                if let Some((_, body)) = alts.iter().find(|a| a.0 == k) {
                                    // Rule 11.
                                    if self.steps >= self.limit {
                                        return Err(self.step_limit("11"));
                                    }
                                    self.switch(self.cc);
                                    self.return_to(cont);
                                    self.s.ctl = Ctl::Eval(*body);
                                    self.steps += 1;
                                    self.switch(self.cc);
                                    continue;
                                }
                            }
                            AltsKind::Alg(_) => {
                                return Err(self.error(
                                    ErrorKind::IntInAlgebraicCase { value: k },
                                    "6",
                                    Some(case.span),
                                ));
                            }
                            AltsKind::DefaultOnly => {}
                        }
                        match default {
                            Some(DefaultAlt {
                                bind: Some(slot),
                                body,
                            }) => {
                                // Rule 12.
                                if self.steps >= self.limit {
                                    return Err(self.step_limit("12"));
                                }
                                self.switch(self.cc);
                                self.eval_default(cont, Some((*slot, Value::Int(k))), *body);
                            }
                            Some(DefaultAlt { bind: None, body }) => {
                                // Rule 13.
                                if self.steps >= self.limit {
                                    return Err(self.step_limit("13"));
                                }
                                self.switch(self.cc);
                                self.eval_default(cont, None, *body);
                            }
                            None => {
                                return Err(self.error(
                                    ErrorKind::NoMatchingAlternative {
                                        value: format!("{k}#"),
                                    },
                                    "11",
                                    Some(case.span),
                                ));
                            }
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
                        match self.top_frame() {
                            None => return Ok(()),
                            Some(f) if f.update().is_some() => {
                                let span = f.update().and_then(|a| self.closure_span(a));
                                return Err(self.error(
                                    ErrorKind::IntUpdate { value: k },
                                    "16",
                                    span,
                                ));
                            }
                            Some(_) => {
                                // Rule 16′.
                                if self.steps >= self.limit {
                                    return Err(self.step_limit("16′"));
                                }
                                self.pop_frame();
                                self.steps += 1;
                            }
                        }
                    }
                }
            }
        }
    }

    /// The end of rule 1 (of `f {xs}` and of a partial application's body),
    /// once the arguments are on `as`: `Enter f`, count the call and the step.
    #[inline(always)]
    fn finish_rule1(&mut self, f: Value) -> Result<(), RuntimeError> {
        self.s.ctl = Ctl::Enter(f);
        if PROF {
            self.pend_calls += 1;
        }
        self.steps += 1;
        Ok(())
    }

    /// The `Enter` rules (2, 15, 15′, 17a, 17a′ and their errors): returns
    /// whether the machine halted (a function with too few arguments and
    /// no frame to update).
    #[inline]
    fn enter(&mut self, v: Value) -> Result<bool, RuntimeError> {
        let code = self.code;
        let a = match v {
            Value::Ptr(a) => self.heap.deref(a),
            Value::Int(k) => {
                return Err(self.error(ErrorKind::IntNotClosure { value: k }, "2", None));
            }
        };
        let Some(info) = self.heap.info(a) else {
            return Err(self.error(ErrorKind::ClosureNotInt, "2", None));
        };
        match info.tag {
            Tag::Lambda => {
                let Some(&lam) = self.p.lams.get(info.index as usize) else {
                    return Err(self.error(ErrorKind::ClosureNotInt, "2", None));
                };
                match lam.kind {
                    1 | 2 => {
                        let update = lam.kind == 1;
                        let rule = if update { "15" } else { "15′" };
                        self.check_limits(rule, 4)?;
                        self.switch(self.cc);
                        self.enter_thunk(a, lam, info.index, update);
                        self.steps += 1;
                        self.switch(self.cc);
                    }
                    _ => {
                        if self.avail() >= lam.arity as usize {
                            // Rule 2.
                            if self.steps >= self.limit {
                                return Err(self.step_limit("2"));
                            }
                            self.switch(self.cc);
                            if self.mode == CostCentreMode::Stacks {
                                let (args, floor) = (self.s.args.len(), self.top_as);
                                let fun = self.heap.cc(a);
                                let needed = lam.arity as usize;
                                self.cc = self.acct.call(self.cc, args, floor, needed, fun);
                            }
                            let base = self.open_function_env(a, lam) + lam.nfree as usize;
                            for i in 0..lam.arity as usize {
                                self.s.vals[base + i] = self.s.args.pop().unwrap_or(Value::Int(0));
                            }
                            self.s.ctl = Ctl::Eval(lam.body);
                            self.steps += 1;
                            self.switch(self.cc);
                        } else if self.rs_nonempty() {
                            // At the case that scrutinised it.
                            let case = code.expr(self.top_cont().case());
                            return Err(self.error(
                                ErrorKind::FunctionInCase {
                                    closure: code.lambda(info.index).name.clone(),
                                },
                                "17a",
                                Some(case.span),
                            ));
                        } else {
                            match self.top_frame() {
                                None => return Ok(true),
                                Some(f) if f.update().is_some() => {
                                    if self.steps >= self.limit {
                                        return Err(self.step_limit("17a"));
                                    }
                                    self.rule17a(a)?;
                                    self.steps += 1;
                                    if self.mode == CostCentreMode::Stacks {
                                        // Stacks mode: 17a ends its row (see
                                        // `rule17a`).
                                        self.switch(self.cc);
                                    }
                                }
                                Some(_) => {
                                    // Rule 17a′.
                                    if self.steps >= self.limit {
                                        return Err(self.step_limit("17a′"));
                                    }
                                    self.acct.end_calls_above(self.top_as);
                                    let ev = self.tick_cc;
                                    if PROF {
                                        self.ctr(ev).curried_calls += 1;
                                    }
                                    self.pop_frame();
                                    self.steps += 1;
                                }
                            }
                        }
                    }
                }
            }
            Tag::Con | Tag::Pap => {
                // Rule 2 on a constructor value or a partial application.
                if self.steps >= self.limit {
                    return Err(self.step_limit("2"));
                }
                self.switch(self.cc);
                let n = info.n as usize;
                if PROF {
                    self.note_use(a);
                }
                self.open_env(a, n, n);
                let body = if info.tag == Tag::Con {
                    code.con_bodies.get(info.index as usize).copied()
                } else {
                    if self.mode == CostCentreMode::Stacks {
                        let (args, floor) = (self.s.args.len(), self.top_as);
                        let (heap, acct) = (&self.heap, &mut self.acct);
                        self.cc = common::enter_pap(code, heap, acct, self.cc, a, args, floor);
                    }
                    Some(code.pap_app)
                };
                match body {
                    Some(b) => self.s.ctl = Ctl::Eval(b),
                    None => {
                        return Err(self.error(ErrorKind::ClosureNotInt, "2", None));
                    }
                }
                self.steps += 1;
                self.switch(self.cc);
            }
            Tag::BlackHole => {
                return Err(self.error(ErrorKind::Loop, "15", self.closure_span(a)));
            }
            Tag::Entered => {
                return Err(self.error(
                    ErrorKind::SingleEntryTwice {
                        closure: self.closure_desc(a),
                    },
                    "15′",
                    self.closure_span(a),
                ));
            }
            Tag::Ind | Tag::Forward => {
                return Err(self.error(ErrorKind::ClosureNotInt, "2", None));
            }
        }
        Ok(false)
    }

    /// The end of rules 7, 8, 12 and 13: return to the continuation, bind
    /// the default's variable if it has one, and `Eval` the default's body.
    #[inline]
    fn eval_default(&mut self, cont: Frame, bind: Option<(u32, Value)>, body: ExprId) {
        self.return_to(cont);
        if let Some((slot, v)) = bind {
            self.set_slot(slot, v);
        }
        self.s.ctl = Ctl::Eval(body);
        self.steps += 1;
        self.switch(self.cc);
    }

    /// The allocation of rules 7 and 16: the constructor `c` being
    /// returned, with the fields in `s.fields`, becomes a heap closure
    /// under the cost centre `cc` (a collection may run first), its words
    /// counted to the current entry.
    fn alloc_returned_con(
        &mut self,
        c: ConId,
        cc: u32,
        rule: &'static str,
    ) -> Result<Addr, RuntimeError> {
        let n = self.s.fields.len();
        self.drop_dead_envs();
        self.reserve(closure_words(n), rule)?;
        let fields = std::mem::take(&mut self.s.fields);
        let info = Info {
            tag: Tag::Con,
            n: n as u32,
            index: c,
        };
        let r = self.alloc(info, cc, &fields, rule);
        self.s.fields = fields;
        if PROF && r.is_ok() {
            self.pend_words += closure_words(n) as u64;
        }
        r
    }

    /// Rule 16's update of the black hole `u` with the constructor `c` of
    /// fields `fs`, by the evaluating entry, written over it when it has
    /// the room ([`Heap::update_blackhole_with_con`], which the reference
    /// engine tries first too), the dead environments dropped; `false`,
    /// nothing done, when it has not (the constructor is then allocated).
    #[inline(always)]
    pub(super) fn update_in_place(&mut self, u: Addr, c: ConId, fs: &[Value]) -> bool {
        let info = Info {
            tag: Tag::Con,
            n: fs.len() as u32,
            index: c,
        };
        if !self
            .heap
            .update_blackhole_with_con(u, info, self.tick_cc, fs)
        {
            return false;
        }
        self.drop_dead_envs();
        if PROF {
            self.pend_words += closure_words(fs.len()) as u64;
        }
        true
    }

    /// Rule 17a (the caller counts the step). The partial application gets
    /// the row's entry (`tick_cc`); in stacks mode the caller then ends the
    /// row, as the reference engine does, since the continuation applies
    /// the new partial application (a function entry).
    fn rule17a(&mut self, a: Addr) -> Result<(), RuntimeError> {
        // The function is applied next as a value returned to the frame.
        let k = self.avail();
        self.drop_dead_envs();
        self.reserve(closure_words(k + 1), "17a")?;
        // The collector may have moved `a`: take it from the control.
        let a = match self.s.ctl {
            Ctl::Enter(Value::Ptr(x)) => self.heap.deref(x),
            _ => a,
        };
        // The row's entry, and the stack the partial application captures
        // (see the reference engine).
        let ev = self.tick_cc;
        let captured = self
            .acct
            .end_calls_for_pap(self.top_as, ev, self.heap.cc(a));
        self.s.ctl = Ctl::Enter(Value::Ptr(a));
        let mut payload = std::mem::take(&mut self.scratch);
        payload.clear();
        payload.push(Value::Ptr(a));
        let len = self.s.args.len();
        for i in 0..k {
            payload.push(self.s.args[len - 1 - i]);
        }
        let r = self.alloc(
            Info {
                tag: Tag::Pap,
                n: (k + 1) as u32,
                index: 0,
            },
            captured,
            &payload,
            "17a",
        );
        self.scratch = payload;
        let pap = r?;
        if PROF {
            let c = self.ctr(ev);
            c.words += closure_words(k + 1) as u64;
            c.curried_calls += 1;
        }
        let f = self.pop_frame();
        if let Some(u) = f.update() {
            self.heap.update_with_ind(u, pap);
        }
        if self.mode == CostCentreMode::Stacks {
            // The continuation applies the partial application under the
            // frame's stack (see the reference engine).
            if let Some(needed) = common::args_needed(self.code, &self.heap, a) {
                let (args, floor) = (self.s.args.len(), self.top_as);
                self.acct.call_after_update(self.cc, args, floor, needed);
            }
            let fun = self.heap.cc(a);
            self.cc = self.acct.apply_pap(self.cc, captured, fun);
        }
        Ok(())
    }
}
