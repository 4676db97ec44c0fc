//! The variables in scope at each expression, by name: what a trace shows
//! of an environment.
//!
//! An environment is a flat vector of slots (`code.rs`); which of them an
//! expression can see, and what they are called, is fixed by the code: the
//! lambda form's free variables and arguments, then the `let(rec)` and case
//! binders on the way down to the expression. Those form a chain (a
//! persistent list, one node per binder, so the table is linear in the size
//! of the code however deep it nests). Built once per run, without
//! recursion.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::machine::code::{AltsKind, Code, ExprCode, ExprId};

/// No scope node: the empty scope.
const NONE: u32 = u32::MAX;

/// One binder: a slot, its name, the binders in scope around it.
#[derive(Clone, Copy, Debug)]
struct Node {
    slot: u32,
    /// The slot's name is `code.lambda(lambda).slot_names[slot]`.
    lambda: u32,
    parent: u32,
}

/// Which expression is where: for each expression of the program, the
/// innermost binder in scope there.
pub struct Scopes {
    nodes: Vec<Node>,
    /// Per expression: its innermost binder (or [`NONE`]).
    at: Vec<u32>,
    /// Per expression: is it the body of a constructor value?
    con_body: Vec<bool>,
}

/// A variable in scope: its name and the slot that holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding<'c> {
    pub name: Cow<'c, str>,
    pub slot: u32,
}

impl Scopes {
    pub fn new(code: &Code) -> Scopes {
        let mut s = Scopes {
            nodes: Vec::new(),
            at: vec![NONE; code.exprs.len()],
            con_body: vec![false; code.exprs.len()],
        };
        for &e in &code.con_bodies {
            if let Some(b) = s.con_body.get_mut(e as usize) {
                *b = true;
            }
        }
        let mut work: Vec<(ExprId, u32)> = Vec::new();
        for (l, lam) in code.lambdas.iter().enumerate() {
            let l = l as u32;
            let mut top = NONE;
            for slot in 0..(lam.free.len() as u32 + lam.arity) {
                top = s.bind(l, slot, top);
            }
            work.push((lam.body, top));
            while let Some((e, scope)) = work.pop() {
                let Some(at) = s.at.get_mut(e as usize) else {
                    continue;
                };
                *at = scope;
                match &code.expr(e).code {
                    ExprCode::Let { binds, body, .. } => {
                        let mut inner = scope;
                        for b in binds {
                            inner = s.bind(l, b.slot, inner);
                        }
                        work.push((*body, inner));
                    }
                    ExprCode::Case {
                        scrut,
                        alts,
                        default,
                        ..
                    } => {
                        work.push((*scrut, scope));
                        match alts {
                            AltsKind::Alg(alts) => {
                                for a in alts {
                                    let mut inner = scope;
                                    for &slot in &a.binds {
                                        inner = s.bind(l, slot, inner);
                                    }
                                    work.push((a.body, inner));
                                }
                            }
                            AltsKind::Prim(alts) => {
                                work.extend(alts.iter().map(|&(_, body)| (body, scope)));
                            }
                            AltsKind::DefaultOnly => {}
                        }
                        if let Some(d) = default {
                            let inner = match d.bind {
                                Some(slot) => s.bind(l, slot, scope),
                                None => scope,
                            };
                            work.push((d.body, inner));
                        }
                    }
                    ExprCode::Scc { body, .. } => work.push((*body, scope)),
                    ExprCode::App { .. }
                    | ExprCode::Con { .. }
                    | ExprCode::Prim { .. }
                    | ExprCode::Lit(_)
                    | ExprCode::ApplyEnv => {}
                }
            }
        }
        s
    }

    fn bind(&mut self, lambda: u32, slot: u32, parent: u32) -> u32 {
        self.nodes.push(Node {
            slot,
            lambda,
            parent,
        });
        (self.nodes.len() - 1) as u32
    }

    fn name(code: &Code, n: Node) -> &str {
        code.lambda(n.lambda)
            .slot_names
            .get(n.slot as usize)
            .map_or("?", String::as_str)
    }

    /// Every variable in scope at `e`, outermost first, a name shadowed by
    /// an inner binder left out. The machine's synthetic code has names of
    /// its own: a partial application's body `f {x1..xk}` (rule 17a's
    /// `(f : xs) \r {} -> f xs`) over `[f, x1..xk]` of `slots` values, a
    /// constructor value's `c {x1..xn}` over `[x1..xn]`.
    pub fn visible<'c>(&self, code: &'c Code, e: ExprId, slots: usize) -> Vec<Binding<'c>> {
        let numbered = |first: Option<&'static str>| {
            (0..slots)
                .map(|i| Binding {
                    name: match (i, first) {
                        (0, Some(f)) => Cow::Borrowed(f),
                        (i, Some(_)) => Cow::Owned(format!("x{i}")),
                        (i, None) => Cow::Owned(format!("x{}", i + 1)),
                    },
                    slot: i as u32,
                })
                .collect()
        };
        if e == code.pap_app {
            return numbered(Some("f"));
        }
        if self.is_con_body(e) {
            return numbered(None);
        }
        let mut out = self.chain(code, self.scope_of(e), NONE).unwrap_or_default();
        out.reverse();
        out
    }

    /// The variables in scope at `e` and not at `base`, outermost first,
    /// when the scope of `base` is the scope of `e` with binders added
    /// (`e` is the body of a `let` at `base`, or an alternative of the
    /// `case` at `base`, ...); `None` if it is not. A binder that shadows a
    /// name in `base`'s scope is among them.
    pub fn added<'c>(&self, code: &'c Code, base: ExprId, e: ExprId) -> Option<Vec<Binding<'c>>> {
        if self.is_synthetic(code, e) || self.is_synthetic(code, base) {
            return None;
        }
        let mut out = self.chain(code, self.scope_of(e), self.scope_of(base))?;
        out.reverse();
        Some(out)
    }

    fn is_synthetic(&self, code: &Code, e: ExprId) -> bool {
        e == code.pap_app || e == code.main_app || self.is_con_body(e)
    }

    fn is_con_body(&self, e: ExprId) -> bool {
        self.con_body.get(e as usize).copied().unwrap_or(false)
    }

    fn scope_of(&self, e: ExprId) -> u32 {
        self.at.get(e as usize).copied().unwrap_or(NONE)
    }

    /// The binders from `from` out to `to` (exclusive), innermost first,
    /// each name once; `None` when `to` is not on the way.
    fn chain<'c>(&self, code: &'c Code, from: u32, to: u32) -> Option<Vec<Binding<'c>>> {
        let mut out: Vec<Binding<'c>> = Vec::new();
        let mut seen: HashSet<&'c str> = HashSet::new();
        let mut n = from;
        while n != to {
            let node = *self.nodes.get(n as usize)?;
            let name = Self::name(code, node);
            if seen.insert(name) {
                out.push(Binding {
                    name: Cow::Borrowed(name),
                    slot: node.slot,
                });
            }
            n = node.parent;
        }
        Some(out)
    }
}
