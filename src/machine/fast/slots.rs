//! The fast engine's slot numbering: lowering gives every binding of a
//! lambda's body its own slot (`code.rs`); before the fast engine compiles
//! the program, [`number_slots`] gives each binding the lowest slot free
//! where it is bound instead, reusing the slots of variables the
//! reference engine's environment no longer holds there.
//!
//! Why: a case continuation keeps its environment in place up to its
//! highest saved slot ([`super::live::Liveness::keep`]), and a variable
//! saved across a case often has a high slot while the slots below it
//! hold variables dead after an earlier case. In the Prelude's `plusInt`
//!
//! ```text
//! plusInt = {} \r {a, b} -> case a of I# {a#} -> case b of I# {b#} -> ...
//! ```
//!
//! lowering gives `a`, `b`, `a#`, `b#` slots 0 to 3, and the continuation
//! of `case b of`, which saves `a#` alone, keeps three slots. The
//! reference engine's environment in `case a of`'s alternative holds only
//! `b` (what the continuation saved) and `a#`, so `a#` can take `a`'s slot
//! 0: the continuation of `case b of` then keeps one slot.
//!
//! What an environment holds where (`live.rs`, the reference engine's
//! environment): at a lambda's entry its free variables and arguments; a
//! `let` adds its binders; a `case`'s scrutinee runs in the case's
//! environment, and each alternative in the continuation's saved slots and
//! what its pattern binds. A binder takes the lowest slot not holding a
//! variable of that environment (the entry's slots stay where callers put
//! them), so every environment's variables keep distinct slots, and the
//! slots `live.rs` computes from the renumbered program hold exactly the
//! reference engine's variables: the collector's roots do not change.
//! Every environment keeps its length (`LambdaCode::slots`, a case's
//! `env_len`), which `--max-stack` counts: a binder's slot stays below it,
//! as the variables it must avoid are fewer than the lambda's slots.
//!
//! A scrutinee that binds variables runs in a copy of the environment
//! (above the continuation's kept slots), so what it binds only has to
//! avoid the case's environment, as in the alternatives' own bodies.
//!
//! The renumbered program is the fast engine's alone: `slot_names` stay
//! the lowering's (the reference engine's traces read them). A program
//! that is not the tree lowering makes (an expression reached twice, a
//! slot out of its lambda's range, a variable read before it is bound)
//! is left as it is. No recursion: the walk keeps its own stack.

use crate::machine::code::*;

/// What the walk does next: an expression evaluated in the environment
/// being numbered (`Same`), or an alternative of the case `case`, which
/// starts a new environment of the continuation's saved slots and the
/// alternative's binders (`alt` indexes `AltsKind::Alg`'s or `Prim`'s
/// alternatives; `DEFAULT` is the default).
#[derive(Clone, Copy)]
enum Walk {
    Same(ExprId),
    Alt { case: ExprId, alt: u32 },
}

const DEFAULT: u32 = u32::MAX;

/// The numbering under construction: `new[start + old]` for the slots of
/// the lambda being numbered bound so far (`UNSET` before), and the
/// environment being numbered, as the slots whose `mark` is `epoch` (a new
/// environment is a new epoch; the marks serve every lambda in turn),
/// `lowest` being at most its lowest free slot.
struct Numbering {
    new: Vec<u32>,
    start: usize,
    len: usize,
    mark: Vec<u32>,
    epoch: u32,
    lowest: usize,
}

const UNSET: u32 = u32::MAX;

impl Numbering {
    /// Number a lambda of `len` slots next, whose first `fixed` (free
    /// variables and arguments) stay where they are: the environment at
    /// its entry.
    fn lambda(&mut self, len: usize, fixed: usize) {
        self.start = self.new.len();
        self.len = len;
        self.new.resize(self.start + len, UNSET);
        if self.mark.len() < len {
            self.mark.resize(len, 0);
        }
        self.fresh();
        for s in 0..fixed.min(len) {
            self.new[self.start + s] = s as u32;
            self.mark[s] = self.epoch;
        }
    }

    /// Start a new, empty environment.
    fn fresh(&mut self) {
        self.epoch += 1;
        self.lowest = 0;
    }

    /// The new slot of the variable at old slot `old`, if bound.
    fn get(&self, old: u32) -> Option<u32> {
        if old as usize >= self.len {
            return None;
        }
        Some(self.new[self.start + old as usize]).filter(|&s| s != UNSET)
    }

    /// Does the current environment hold the variable at old slot `old`?
    fn holds(&self, old: u32) -> bool {
        self.get(old)
            .is_some_and(|s| self.mark[s as usize] == self.epoch)
    }

    /// Is `v` a global or a variable of the current environment?
    fn holds_var(&self, v: &VarRef) -> bool {
        match v {
            VarRef::Local(s) => self.holds(*s),
            VarRef::Global(_) => true,
        }
    }

    /// Are the local variables of `atoms` all in the current environment?
    fn holds_atoms(&self, atoms: &[AtomCode]) -> bool {
        atoms.iter().all(|a| match a {
            AtomCode::Var(v) => self.holds_var(v),
            AtomCode::Lit(_) => true,
        })
    }

    /// Put the variable at old slot `old` (bound before) in the current
    /// environment, at its new slot; `None` if it was not bound.
    fn hold(&mut self, old: u32) -> Option<()> {
        let s = self.get(old)?;
        self.mark[s as usize] = self.epoch;
        Some(())
    }

    /// Bind the variable at old slot `old` to the lowest slot free in the
    /// current environment; `None` if `old` is out of range or bound
    /// already, or no slot is free (neither happens with lowering's
    /// numbering: the environment holds fewer variables than there are
    /// slots).
    fn bind(&mut self, old: u32) -> Option<()> {
        if old as usize >= self.len || self.get(old).is_some() {
            return None;
        }
        // Slots are only added to an environment, so its lowest free slot
        // only grows: each environment's scan is linear in its size.
        while self.lowest < self.len && self.mark[self.lowest] == self.epoch {
            self.lowest += 1;
        }
        if self.lowest == self.len {
            return None;
        }
        self.mark[self.lowest] = self.epoch;
        self.new[self.start + old as usize] = self.lowest as u32;
        Some(())
    }
}

/// Renumber the slots of every lambda's body in `code` so that each
/// binding takes the lowest slot free where it is bound (see the module
/// doc); `code` is left as it is if it is not shaped as lowering makes it.
pub(crate) fn number_slots(code: &mut Code) {
    if let Some((owner, new, starts)) = numberings(code) {
        apply(code, &owner, &new, &starts);
    }
}

/// For each expression, the lambda whose body it is in (`NO_LAMBDA` for
/// the bodies of partial applications, constructor values and `main {}`);
/// the new slot numbers of all lambdas, lambda `l`'s old slot `s` at
/// `starts[l] + s`; `starts`.
type Numberings = (Vec<u32>, Vec<u32>, Vec<usize>);

const NO_LAMBDA: u32 = u32::MAX;

fn numberings(code: &Code) -> Option<Numberings> {
    let mut owner = vec![NO_LAMBDA; code.exprs.len()];
    // Each lambda's free variables are read in the environment of the one
    // `let` that binds it (or none, for a global): renumbered once.
    let mut bound = vec![false; code.lambdas.len()];
    let mut starts = Vec::with_capacity(code.lambdas.len());
    let mut n = Numbering {
        new: Vec::new(),
        start: 0,
        len: 0,
        mark: Vec::new(),
        epoch: 0,
        lowest: 0,
    };
    let mut work = Vec::new();
    for (l, lam) in code.lambdas.iter().enumerate() {
        let fixed = lam.free.len() + lam.arity as usize;
        n.lambda(lam.slots.max(fixed as u32) as usize, fixed);
        starts.push(n.start);
        work.clear();
        work.push(Walk::Same(lam.body));
        while let Some(w) = work.pop() {
            let mut e = match w {
                Walk::Same(e) => e,
                Walk::Alt { case, alt } => {
                    let ExprCode::Case {
                        alts,
                        default,
                        saves,
                        ..
                    } = &code.exprs.get(case as usize)?.code
                    else {
                        return None;
                    };
                    n.fresh();
                    for &s in saves {
                        n.hold(s)?;
                    }
                    match (alt, alts, default) {
                        (DEFAULT, _, Some(d)) => {
                            if let Some(s) = d.bind {
                                n.bind(s)?;
                            }
                            d.body
                        }
                        (i, AltsKind::Alg(alts), _) => {
                            let a = alts.get(i as usize)?;
                            for &s in &a.binds {
                                n.bind(s)?;
                            }
                            a.body
                        }
                        (i, AltsKind::Prim(alts), _) => alts.get(i as usize)?.1,
                        _ => return None,
                    }
                }
            };
            // The expressions evaluated in this environment, down to one
            // that binds nothing more.
            loop {
                let o = owner.get_mut(e as usize)?;
                if *o != NO_LAMBDA {
                    return None;
                }
                *o = l as u32;
                // Every variable read is one the environment holds (what
                // keeps the renumbering right: checked, not assumed).
                match &code.exprs[e as usize].code {
                    ExprCode::Let { binds, body, .. } => {
                        for b in binds {
                            n.bind(b.slot)?;
                            let seen = bound.get_mut(b.lambda as usize)?;
                            if std::mem::replace(seen, true) {
                                return None;
                            }
                        }
                        for b in binds {
                            let free = &code.lambdas.get(b.lambda as usize)?.free;
                            if !free.iter().all(|v| n.holds_var(v)) {
                                return None;
                            }
                        }
                        e = *body;
                    }
                    ExprCode::Scc { body, .. } => e = *body,
                    ExprCode::Case {
                        scrut,
                        alts,
                        default,
                        saves,
                        ..
                    } => {
                        if !saves.iter().all(|&s| n.holds(s)) {
                            return None;
                        }
                        let nalts = match alts {
                            AltsKind::Alg(a) => a.len(),
                            AltsKind::Prim(a) => a.len(),
                            AltsKind::DefaultOnly => 0,
                        };
                        work.extend((0..nalts as u32).map(|alt| Walk::Alt { case: e, alt }));
                        if default.is_some() {
                            work.push(Walk::Alt {
                                case: e,
                                alt: DEFAULT,
                            });
                        }
                        // The scrutinee now, in this environment (the
                        // alternatives start their own).
                        e = *scrut;
                    }
                    ExprCode::App { fun, args } => {
                        if !n.holds_var(fun) || !n.holds_atoms(args) {
                            return None;
                        }
                        break;
                    }
                    ExprCode::Con { args, .. } | ExprCode::Prim { args, .. } => {
                        if !n.holds_atoms(args) {
                            return None;
                        }
                        break;
                    }
                    ExprCode::Lit(_) | ExprCode::ApplyEnv => break,
                }
            }
        }
    }
    Some((owner, n.new, starts))
}

/// Rewrite every slot of the lambdas' bodies with its new number, and
/// the free variables of the lambdas a `let` binds with the `let`'s.
fn apply(code: &mut Code, owner: &[u32], new: &[u32], starts: &[usize]) {
    // Slots never bound (none, in a checked program) keep their number.
    let slot = |l: u32, s: u32| -> u32 {
        let start = starts.get(l as usize).copied().unwrap_or(new.len());
        let end = starts.get(l as usize + 1).copied().unwrap_or(new.len());
        match new.get(start..end).and_then(|n| n.get(s as usize)) {
            Some(&n) if n != UNSET => n,
            _ => s,
        }
    };
    let var = |l: u32, v: &mut VarRef| {
        if let VarRef::Local(s) = v {
            *s = slot(l, *s);
        }
    };
    let atoms = |l: u32, args: &mut [AtomCode]| {
        for a in args {
            if let AtomCode::Var(v) = a {
                var(l, v);
            }
        }
    };
    let mut frees = Vec::new();
    for (e, &l) in owner.iter().enumerate() {
        if l == NO_LAMBDA {
            continue;
        }
        match &mut code.exprs[e].code {
            ExprCode::Let { binds, .. } => {
                for b in binds {
                    b.slot = slot(l, b.slot);
                    frees.push((b.lambda, l));
                }
            }
            ExprCode::Case {
                alts,
                default,
                saves,
                ..
            } => {
                if let AltsKind::Alg(alts) = alts {
                    for a in alts {
                        for s in &mut a.binds {
                            *s = slot(l, *s);
                        }
                    }
                }
                if let Some(DefaultAlt { bind: Some(s), .. }) = default {
                    *s = slot(l, *s);
                }
                for s in saves.iter_mut() {
                    *s = slot(l, *s);
                }
                // Ascending, as `live.rs` reads them.
                saves.sort_unstable();
            }
            ExprCode::App { fun, args } => {
                var(l, fun);
                atoms(l, args);
            }
            ExprCode::Con { args, .. } | ExprCode::Prim { args, .. } => atoms(l, args),
            ExprCode::Scc { .. } | ExprCode::Lit(_) | ExprCode::ApplyEnv => {}
        }
    }
    for (bound, l) in frees {
        if let Some(lam) = code.lambdas.get_mut(bound as usize) {
            for v in &mut lam.free {
                var(l, v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::live::Liveness;
    use super::*;
    use crate::machine::lower::lower_text;
    use crate::stg::load::load;
    use crate::stg::source::SourceMap;

    fn global_body(code: &Code, name: &str) -> ExprId {
        let g = code.globals.iter().find(|g| g.name == name).unwrap();
        code.lambda(g.lambda).body
    }

    /// The first alternative of the algebraic case `e`.
    fn first_alt(code: &Code, e: ExprId) -> &AlgAlt {
        let ExprCode::Case {
            alts: AltsKind::Alg(alts),
            ..
        } = &code.expr(e).code
        else {
            panic!("not an algebraic case")
        };
        &alts[0]
    }

    /// The case in the first alternative of the case `e`.
    fn inner_case(code: &Code, e: ExprId) -> ExprId {
        first_alt(code, e).body
    }

    /// The Prelude's `plusInt`, called.
    const PROGRAM: &str = "main = {} \\u {} -> plusInt {one, one}\n\
         one = {} \\r {} -> I# {1#}\n\
         plusInt = {} \\r {a, b} ->\n  case a of\n    I# {a#} -> case b of\n                 \
         I# {b#} -> case +# {a#, b#} of\n                              r# -> I# {r#}\n";

    /// `plusInt`'s `case b of` keeps `a#` alone, in `a`'s slot: one slot
    /// of five (three before), and its liveness is the same set of
    /// variables.
    #[test]
    fn plus_int_keeps_one_slot() {
        let before = lower_text(PROGRAM);
        let mut after = before.clone();
        number_slots(&mut after);
        let outer = global_body(&before, "plusInt");
        let inner = inner_case(&before, outer);
        let keep = |c: &Code| {
            let l = Liveness::new(c);
            (l.keep(outer), l.keep(inner))
        };
        assert_eq!(keep(&before), (2, 3));
        assert_eq!(keep(&after), (2, 1));
        let ExprCode::Case { saves, env_len, .. } = &after.expr(inner).code else {
            panic!()
        };
        assert_eq!((saves.as_slice(), *env_len), (&[0][..], 5));
        // `a#` in slot 0, `b#` in `b`'s slot 1, `r#` in slot 0.
        assert_eq!(first_alt(&after, outer).binds, [0]);
        assert_eq!(first_alt(&after, inner).binds, [1]);
    }

    /// Slots are reused only where the reference engine's environment
    /// no longer holds their variable: a `let`'s binders avoid every
    /// variable of its environment, even those not read again.
    #[test]
    fn a_let_avoids_its_whole_environment() {
        let text = "main = {} \\u {} -> f {1#}\n\
             f = {} \\r {x} -> case x of\n  y -> let p = {y} \\u {} -> g {y}\n       in let q = {p} \\u {} -> g {p}\n          in q {}\n\
             g = {} \\r {a} -> a {}\n";
        let mut code = lower_text(text);
        number_slots(&mut code);
        let body = global_body(&code, "f");
        let ExprCode::Case {
            default: Some(d), ..
        } = &code.expr(body).code
        else {
            panic!()
        };
        // `x` (slot 0) is dead in the alternative: `y` takes it; `p` and
        // `q` then take 1 and 2, `q` not `p`'s slot though `p` is not read
        // after `q`'s closure is built.
        assert_eq!(d.bind, Some(0));
        let ExprCode::Let { binds, body, .. } = &code.expr(d.body).code else {
            panic!()
        };
        assert_eq!(binds[0].slot, 1);
        assert_eq!(code.lambda(binds[0].lambda).free, [VarRef::Local(0)]);
        let ExprCode::Let { binds, .. } = &code.expr(*body).code else {
            panic!()
        };
        assert_eq!(binds[0].slot, 2);
        assert_eq!(code.lambda(binds[0].lambda).free, [VarRef::Local(1)]);
    }

    /// Every example and benchmark program, with the Prelude, is shaped
    /// as the walk expects (none is left alone), and no environment grows.
    #[test]
    fn every_program_is_renumbered() {
        let dirs = ["programs", "bench/programs"];
        let mut n = 0;
        for dir in dirs {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_none_or(|e| e != "stg")
                    || path.file_name().is_some_and(|f| f == "Prelude.stg")
                {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let mut sources = SourceMap::new();
                let Ok(loaded) = load(&mut sources, &[("p.stg".into(), text)], true) else {
                    continue;
                };
                let code = crate::machine::lower::lower(&loaded.program).unwrap();
                let (_, new, starts) =
                    numberings(&code).unwrap_or_else(|| panic!("{} left alone", path.display()));
                for (l, lam) in code.lambdas.iter().enumerate() {
                    let end = starts.get(l + 1).copied().unwrap_or(new.len());
                    let len = end - starts[l];
                    assert!(
                        new[starts[l]..end]
                            .iter()
                            .all(|&s| s == UNSET || (s as usize) < len)
                    );
                    assert_eq!(
                        len,
                        lam.slots.max(lam.free.len() as u32 + lam.arity) as usize
                    );
                }
                n += 1;
            }
        }
        assert!(n > 30, "only {n} programs");
    }

    /// A program not shaped as lowering makes it is left as it is.
    #[test]
    fn an_expression_reached_twice_leaves_the_program_alone() {
        let mut code = lower_text(PROGRAM);
        // A second lambda with `plusInt`'s body, the same expressions.
        let g = code.globals.iter().find(|g| g.name == "plusInt").unwrap();
        let twin = code.lambda(g.lambda).clone();
        code.lambdas.push(twin);
        let before = format!("{:?}", code.exprs);
        number_slots(&mut code);
        assert_eq!(format!("{:?}", code.exprs), before);
    }
}
