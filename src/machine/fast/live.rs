//! Which slots of the fast engine's environments are live, for the
//! collector: the roots it hands over are exactly the reference engine's.
//!
//! The op loop keeps each environment in place in the value stack: a case
//! continuation records its frame as it is (no copy, no clearing) up to
//! its highest saved slot ([`Liveness::keep`]; the environments opened
//! until it returns reuse the slots above), and a return resumes in it. Rule 4's continuation saves only the
//! alternatives' free variables (`ExprCode::Case::saves`), so the other
//! slots of a continuation's frame are dead, and so are the slots a
//! resumed frame held that its alternative does not see. Instead of
//! clearing them at every push or return, the collector clears them when it
//! runs ([`Liveness::restrict`], from `St::visit_roots`): a slot is kept
//! only where the reference engine's environment holds it.
//!
//! What the reference engine's environment holds is known statically,
//! per expression. Within a lambda's body the variables of one
//! environment have distinct slots (lowering never reuses a slot, and the
//! fast engine's renumbering, `slots.rs`, reuses only the slots of
//! variables the environment no longer holds), so the slots that may be
//! non-zero while `e` is evaluated, `live(e)`, are:
//! - a body entered as a function or thunk (rules 2, 15, 15′): its free
//!   variables and arguments, the slots below `nfree + arity`; a
//!   constructor value's body: its fields; a partial application's body:
//!   every slot (its environment is exactly the closure's payload);
//! - `let(rec) binds in e`: `e` adds the bound slots;
//! - `case s of alts`: `s` runs in the same environment (or a copy of it);
//!   an alternative runs in the continuation's saved slots plus the ones
//!   its pattern binds.
//!
//! These sets are a tree of [`Node`]s (each adds slots to its parent's), so
//! the tables grow with the program's size, not with its nesting.

use crate::gc::Value;
use crate::machine::code::*;

use super::compile::NONE;

/// Slots added to the parent node's: all slots below `below`, and `n`
/// slots from `first` in [`Liveness::slots`]. With `small`, the whole set
/// (this node's and its ancestors') is the bits of `live`: every slot in
/// it is below 64, as nearly all are, and [`Liveness::restrict`] clears
/// the others from the mask without walking the nodes.
#[derive(Clone, Copy, Debug)]
struct Node {
    parent: u32,
    below: u32,
    first: u32,
    n: u32,
    small: bool,
    live: u64,
}

/// The liveness tables of a program (see the module doc).
#[derive(Default)]
pub(super) struct Liveness {
    /// `scope[e]`: the node of `live(e)`.
    scope: Vec<u32>,
    /// `saves[e]` for a case `e`: the node of the slots its continuation
    /// saves (`NONE` for other expressions).
    saves: Vec<u32>,
    /// `keep[e]` for a case `e`: one past the highest slot its
    /// continuation saves (0 for other expressions), the part of its
    /// environment the continuation keeps in place (`Frame` in `fast`).
    keep: Vec<u32>,
    nodes: Vec<Node>,
    slots: Vec<u32>,
    /// Scratch for [`Liveness::restrict`]: one mark per slot.
    marks: Vec<bool>,
}

/// The node whose environment is live in full (a partial application's
/// body).
const ALL: u32 = 0;

impl Liveness {
    pub fn new(code: &Code) -> Liveness {
        let mut l = Liveness {
            scope: vec![ALL; code.exprs.len()],
            saves: vec![NONE; code.exprs.len()],
            keep: code
                .exprs
                .iter()
                .map(|e| match &e.code {
                    // `saves` is ascending: its last slot is the highest.
                    ExprCode::Case { saves, .. } => {
                        saves.last().map_or(0, |&s| s.saturating_add(1))
                    }
                    _ => 0,
                })
                .collect(),
            ..Liveness::default()
        };
        let all = l.node(NONE, u32::MAX, &[]);
        debug_assert_eq!(all, ALL);
        let mut work = Vec::new();
        for lam in &code.lambdas {
            let below = lam.free.len() as u32 + lam.arity;
            work.push((lam.body, l.node(NONE, below, &[])));
        }
        for (c, &e) in code.con_bodies.iter().enumerate() {
            let arity = code.cons.get(c).map_or(0, |c| c.arity);
            work.push((e, l.node(NONE, arity, &[])));
        }
        work.push((code.main_app, l.node(NONE, 0, &[])));
        // `pap_app` keeps `ALL`.
        while let Some((e, node)) = work.pop() {
            let Some(expr) = code.exprs.get(e as usize) else {
                continue;
            };
            l.scope[e as usize] = node;
            match &expr.code {
                ExprCode::Let { binds, body, .. } => {
                    let slots: Vec<u32> = binds.iter().map(|b| b.slot).collect();
                    work.push((*body, l.node(node, 0, &slots)));
                }
                ExprCode::Scc { body, .. } => work.push((*body, node)),
                ExprCode::Case {
                    scrut,
                    alts,
                    default,
                    saves,
                    ..
                } => {
                    work.push((*scrut, node));
                    let saved = l.node(NONE, 0, saves);
                    l.saves[e as usize] = saved;
                    match alts {
                        AltsKind::Alg(alts) => {
                            for a in alts {
                                work.push((a.body, l.node(saved, 0, &a.binds)));
                            }
                        }
                        AltsKind::Prim(alts) => work.extend(alts.iter().map(|a| (a.1, saved))),
                        AltsKind::DefaultOnly => {}
                    }
                    if let Some(d) = default {
                        let bound: &[u32] = match &d.bind {
                            Some(s) => std::slice::from_ref(s),
                            None => &[],
                        };
                        work.push((d.body, l.node(saved, 0, bound)));
                    }
                }
                _ => {}
            }
        }
        l
    }

    /// A node adding `slots` (and every slot below `below`) to `parent`'s;
    /// `parent` itself when that adds nothing.
    fn node(&mut self, parent: u32, below: u32, slots: &[u32]) -> u32 {
        if parent != NONE && below == 0 && slots.is_empty() {
            return parent;
        }
        let first = self.slots.len() as u32;
        self.slots.extend_from_slice(slots);
        // The set as a mask, when all of it lies below slot 64.
        let (mut small, mut live) = match self.nodes.get(parent as usize) {
            Some(p) => (p.small, p.live),
            None => (true, 0),
        };
        small &= below <= 64 && slots.iter().all(|&s| s < 64);
        if small {
            live |= if below == 64 { !0 } else { (1u64 << below) - 1 };
            live |= slots.iter().fold(0, |m, &s| m | 1 << s);
        }
        self.nodes.push(Node {
            parent,
            below,
            first,
            n: slots.len() as u32,
            small,
            live: if small { live } else { 0 },
        });
        (self.nodes.len() - 1) as u32
    }

    /// The node of what is live while `e` is evaluated.
    pub fn scope(&self, e: ExprId) -> u32 {
        self.scope.get(e as usize).copied().unwrap_or(ALL)
    }

    /// The node of what the continuation of the case `e` saves.
    pub fn saves(&self, e: ExprId) -> u32 {
        match self.saves.get(e as usize) {
            Some(&n) if n != NONE => n,
            _ => ALL,
        }
    }

    /// `keep[e]`: the slots of its environment that the continuation of
    /// the case `e` keeps in place, one past the highest it saves (0 for
    /// an expression that is not a case, or not one of the program's).
    pub fn keep(&self, e: ExprId) -> u32 {
        self.keep.get(e as usize).copied().unwrap_or(0)
    }

    /// [`Liveness::keep`] without the bounds check.
    ///
    /// # Safety
    /// `e` is an expression of the program these tables were made for
    /// (`keep` has one entry per expression).
    #[inline(always)]
    pub unsafe fn keep_unchecked(&self, e: ExprId) -> u32 {
        debug_assert!((e as usize) < self.keep.len());
        // SAFETY: in range (see above).
        unsafe { *self.keep.get_unchecked(e as usize) }
    }

    /// Clear every slot of `env` outside the node `node`'s set.
    #[inline]
    pub fn restrict(&mut self, node: u32, env: &mut [Value]) {
        let Some(n) = self.nodes.get(node as usize) else {
            return;
        };
        if !n.small {
            return self.restrict_walking(node, env);
        }
        // The dead slots below 64 one bit at a time (a continuation's
        // environment has a few), the rest (none are live) at once.
        let len = env.len();
        let mut dead = !n.live;
        if len < 64 {
            dead &= (1u64 << len) - 1;
        }
        while dead != 0 {
            if let Some(v) = env.get_mut(dead.trailing_zeros() as usize) {
                *v = Value::Int(0);
            }
            dead &= dead - 1;
        }
        if let Some(rest) = env.get_mut(64..) {
            rest.fill(Value::Int(0));
        }
    }

    /// [`Liveness::restrict`] for any node: its set walked node by node.
    #[cold]
    fn restrict_walking(&mut self, node: u32, env: &mut [Value]) {
        let len = env.len();
        let Some(&n) = self.nodes.get(node as usize) else {
            return;
        };
        if n.parent == NONE && n.below == 0 {
            // A continuation's saved slots: one ascending list (lowering
            // sorts `saves`), walked beside the environment.
            let mut from = 0;
            for &s in &self.slots[n.first as usize..(n.first + n.n) as usize] {
                let s = (s as usize).min(len);
                env[from..s].fill(Value::Int(0));
                from = (s + 1).min(len);
            }
            env[from..].fill(Value::Int(0));
            return;
        }
        self.marks.clear();
        self.marks.resize(len, false);
        let mut at = node;
        while let Some(n) = self.nodes.get(at as usize).copied() {
            let below = (n.below as usize).min(len);
            if below == len {
                return;
            }
            self.marks[..below].fill(true);
            for &s in &self.slots[n.first as usize..(n.first + n.n) as usize] {
                if let Some(m) = self.marks.get_mut(s as usize) {
                    *m = true;
                }
            }
            at = n.parent;
        }
        for (v, &live) in env.iter_mut().zip(&self.marks) {
            if !live {
                *v = Value::Int(0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::lower::lower_text;

    /// f's slots: x 0, y 1, z 2 (the default's binder), w 3; two nested
    /// cases, the outer saving y alone.
    const TWO_CASES: &str = "main = {} \\u {} -> f {1#, 2#}\n\
         f = {} \\r {x, y} ->\n  case g {x} of\n    z -> case y {} of\n           w -> h {z, w}\n\
         g = {} \\r {a} -> a {}\n\
         h = {} \\r {a, b} -> +# {a, b}\n";

    fn live_after(l: &mut Liveness, node: u32, len: usize) -> Vec<bool> {
        let mut env: Vec<Value> = (0..len).map(|i| Value::Ptr(i as u64 + 1)).collect();
        l.restrict(node, &mut env);
        env.iter().map(|v| matches!(v, Value::Ptr(_))).collect()
    }

    /// The mask of a small node clears exactly what walking its nodes
    /// clears, for every node of a program and of synthetic chains whose
    /// sets reach slot 64 or beyond (walked), and every length around 64.
    #[test]
    fn the_mask_clears_what_walking_the_nodes_clears() {
        let code = lower_text(TWO_CASES);
        let mut l = Liveness::new(&code);
        let a = l.node(NONE, 0, &[0, 5, 63]);
        let b = l.node(a, 3, &[40]);
        let c = l.node(b, 64, &[]);
        let d = l.node(a, 0, &[64]);
        let e = l.node(NONE, 65, &[]);
        let f = l.node(e, 0, &[1]);
        assert!(l.nodes[a as usize].small && l.nodes[c as usize].small);
        assert!(!l.nodes[d as usize].small && !l.nodes[f as usize].small);
        for node in 0..l.nodes.len() as u32 {
            for len in (0..10).chain(60..70).chain([130]) {
                let mut by_mask: Vec<Value> = (0..len).map(|i| Value::Ptr(i as u64 + 1)).collect();
                let mut walked = by_mask.clone();
                l.restrict(node, &mut by_mask);
                l.restrict_walking(node, &mut walked);
                assert_eq!(by_mask, walked, "node {node} len {len}");
            }
        }
    }

    #[test]
    fn a_continuation_keeps_only_what_its_alternatives_read() {
        let code = lower_text(TWO_CASES);
        let mut l = Liveness::new(&code);
        let cases: Vec<ExprId> = (0..code.exprs.len() as u32)
            .filter(|&e| matches!(code.expr(e).code, ExprCode::Case { .. }))
            .collect();
        let outer = cases
            .iter()
            .copied()
            .find(|&e| matches!(&code.expr(e).code, ExprCode::Case { saves, .. } if saves == &[1]))
            .expect("the outer case saves y alone");
        let inner = cases
            .iter()
            .copied()
            .find(|&e| matches!(&code.expr(e).code, ExprCode::Case { saves, .. } if saves == &[2]))
            .expect("the inner case saves z alone");
        // Each keeps its environment up to its highest saved slot.
        assert_eq!((l.keep(outer), l.keep(inner)), (2, 3));
        // The outer continuation: y only.
        let n = l.saves(outer);
        assert_eq!(live_after(&mut l, n, 4), [false, true, false, false]);
        // While the inner case is evaluated: y and z (x died at the outer
        // case); its continuation keeps z.
        let n = l.scope(inner);
        assert_eq!(live_after(&mut l, n, 4), [false, true, true, false]);
        let n = l.saves(inner);
        assert_eq!(live_after(&mut l, n, 4), [false, false, true, false]);
        // The outer scrutinee runs in f's whole entry environment.
        let ExprCode::Case { scrut, .. } = code.expr(outer).code else {
            unreachable!()
        };
        let n = l.scope(scrut);
        assert_eq!(live_after(&mut l, n, 4), [true, true, false, false]);
    }
}
