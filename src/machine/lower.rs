//! Lowering a checked [`Program`] to [`Code`] (see `code.rs`).
//!
//! Global resolution: user code sees the user modules' bindings first, then
//! `Prelude`'s; Prelude code sees only Prelude's own bindings. Recursion here
//! follows the nesting of the source and is bounded by [`MAX_DEPTH`]; `run`
//! lowers on a thread with a large stack.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::fx_hash::FxHasher;
use crate::machine::code::*;
use crate::profile::cost_centre::CostCentreTable;
use crate::stg::syntax::{Atom, Expr, ExprKind, Flag, Lambda, Name, Pattern, Program, Span};

/// Deepest expression nesting lowered. Above anything the front end
/// accepts, so that a program `--check` passes also runs: a binding's
/// `let`/`scc` chains are at most `layout::MAX_CHAIN` (100,000) links and
/// its blocks nest at most `layout::MAX_DEPTH` (1000) deep, a few
/// expression levels each; `--auto-cc=all` adds at most one `scc` per
/// `let`. Lowering this deep needs about 500 MB of the lowering thread's
/// 1 GiB stack.
pub const MAX_DEPTH: usize = 300_000;

/// Why a program could not be lowered (it was not checked, or is too deep).
#[derive(Clone, Debug)]
pub struct LowerError {
    pub message: String,
    pub span: Span,
}

struct Lowerer {
    code: Code,
    con_ids: HashMap<String, ConId>,
    prelude: HashMap<String, GlobalId>,
    user: HashMap<String, GlobalId>,
}

/// The locals in scope in one body, and the slot each name denotes there:
/// a name's lookup is one hash probe, however many locals are in scope (a
/// list searched from its end made a `letrec` of 80,000 bindings, or a
/// chain of 100,000 `let`s each naming the first, quadratic).
#[derive(Default)]
struct Scope {
    /// Every binding in scope, in the order bound (what [`Scope::truncate`]
    /// undoes).
    order: Vec<Name>,
    /// Each name's slots, outermost first: the last one is in scope, the
    /// others are shadowed by it. A name whose list is empty is unbound (its
    /// entry is kept for the next binding of the name, in the next
    /// alternative say).
    slots: HashMap<Name, Vec<u32>, BuildHasherDefault<FxHasher>>,
}

impl Scope {
    /// How many bindings are in scope: a mark to [`Scope::truncate`] to.
    fn len(&self) -> usize {
        self.order.len()
    }

    /// Binds `name` to `slot`, shadowing any binding of the name in scope.
    fn push(&mut self, name: &Name, slot: u32) {
        self.order.push(name.clone());
        self.slots.entry(name.clone()).or_default().push(slot);
    }

    /// Unbinds everything bound since the scope had `mark` bindings,
    /// uncovering what they shadowed.
    fn truncate(&mut self, mark: usize) {
        while self.order.len() > mark {
            let Some(name) = self.order.pop() else { break };
            if let Some(stack) = self.slots.get_mut(&name) {
                stack.pop();
            }
        }
    }

    /// The slot of the innermost binding of `name` in scope.
    fn get(&self, name: &str) -> Option<u32> {
        self.slots.get(name).and_then(|stack| stack.last()).copied()
    }
}

struct Ctx {
    scope: Scope,
    next_slot: u32,
    /// The name of each slot given so far (`LambdaCode::slot_names`).
    slot_names: Vec<String>,
    module: u32,
    is_prelude: bool,
    /// Every local slot read so far in this body, in order (atoms, called
    /// variables, and the free variables a `let` captures): a case's
    /// `saves` are the reads logged while lowering its alternatives.
    reads: Vec<u32>,
    /// The cases of this body, whose `env_len` is its final slot count.
    cases: Vec<ExprId>,
}

impl Ctx {
    fn read(&mut self, v: VarRef) {
        if let VarRef::Local(s) = v {
            self.reads.push(s);
        }
    }

    fn read_atoms(&mut self, atoms: &[AtomCode]) {
        for a in atoms {
            if let AtomCode::Var(v) = a {
                self.read(*v);
            }
        }
    }
}

fn err<T>(message: impl Into<String>, span: Span) -> Result<T, LowerError> {
    Err(LowerError {
        message: message.into(),
        span,
    })
}

/// `text` (one file, no Prelude) loaded and lowered, for the engines'
/// unit tests; panics on an error, which such a test's program must not
/// have.
#[cfg(test)]
pub(crate) fn lower_text(text: &str) -> Code {
    let mut sources = crate::stg::source::SourceMap::new();
    let loaded = crate::stg::load::load(&mut sources, &[("t.stg".into(), text.into())], false)
        .unwrap_or_else(|d| panic!("{d:?}"));
    lower(&loaded.program).unwrap()
}

pub fn lower(program: &Program) -> Result<Code, LowerError> {
    let cost_centres = CostCentreTable::new(program);
    let mut l = Lowerer {
        code: Code {
            exprs: Vec::new(),
            lambdas: Vec::new(),
            globals: Vec::new(),
            cons: Vec::new(),
            main: 0,
            main_app: 0,
            pap_app: 0,
            con_bodies: Vec::new(),
            cost_centres,
            modules: program.modules.iter().map(|m| m.name.clone()).collect(),
        },
        con_ids: HashMap::new(),
        prelude: HashMap::new(),
        user: HashMap::new(),
    };
    // Globals first, so bodies can refer to any of them.
    for (mi, m) in program.modules.iter().enumerate() {
        for b in &m.bindings {
            let g = l.code.globals.len() as GlobalId;
            l.code.globals.push(GlobalCode {
                name: b.name.name.to_string(),
                module: mi as u32,
                lambda: 0,
            });
            let map = if m.name == "Prelude" {
                &mut l.prelude
            } else {
                &mut l.user
            };
            map.entry(b.name.name.to_string()).or_insert(g);
        }
    }
    let mut g = 0usize;
    for (mi, m) in program.modules.iter().enumerate() {
        let is_prelude = m.name == "Prelude";
        for b in &m.bindings {
            let lam = l.lambda(&b.lambda, &b.name.name, mi as u32, is_prelude, None, 0)?;
            l.code.globals[g].lambda = lam;
            g += 1;
        }
    }
    match l.user.get("main") {
        Some(&m) => l.code.main = m,
        None => {
            return err(
                "the program has no `main` in a user module: define `main = {} \\u {} -> ...`",
                Span::default(),
            );
        }
    }
    // The initial code `main {}` and synthetic bodies for partial
    // applications and constructor values.
    let main = l.code.main;
    // `main {}` is placed at `main`'s definition: errors before its first
    // step (a limit of 0 steps, a heap too small for the globals) name it.
    let main_span = l
        .code
        .globals
        .get(main as usize)
        .and_then(|g| l.code.lambdas.get(g.lambda as usize))
        .map_or(Span::default(), |lam| lam.span);
    l.code.main_app = l.push(
        ExprCode::App {
            fun: VarRef::Global(main),
            args: Vec::new(),
        },
        main_span,
    );
    l.code.pap_app = l.push(ExprCode::ApplyEnv, Span::default());
    for c in 0..l.code.cons.len() {
        let n = l.code.cons[c].arity;
        let args = (0..n).map(|i| AtomCode::Var(VarRef::Local(i))).collect();
        let e = l.push(
            ExprCode::Con {
                con: c as ConId,
                args,
            },
            Span::default(),
        );
        l.code.con_bodies.push(e);
    }
    Ok(l.code)
}

impl Lowerer {
    fn push(&mut self, code: ExprCode, span: Span) -> ExprId {
        self.code.exprs.push(ExprNode { code, span });
        (self.code.exprs.len() - 1) as ExprId
    }

    fn con(&mut self, name: &str, arity: usize, span: Span) -> Result<ConId, LowerError> {
        if let Some(&c) = self.con_ids.get(name) {
            if self.code.cons[c as usize].arity as usize != arity {
                return err(
                    format!(
                        "constructor `{name}` used with {arity} fields and with {}",
                        self.code.cons[c as usize].arity
                    ),
                    span,
                );
            }
            return Ok(c);
        }
        let c = self.code.cons.len() as ConId;
        self.code.cons.push(ConInfo {
            name: name.to_string(),
            arity: arity as u32,
        });
        self.con_ids.insert(name.to_string(), c);
        Ok(c)
    }

    fn resolve(&self, ctx: &Ctx, name: &str, span: Span) -> Result<VarRef, LowerError> {
        if let Some(s) = ctx.scope.get(name) {
            return Ok(VarRef::Local(s));
        }
        let g = if ctx.is_prelude {
            self.prelude.get(name)
        } else {
            self.user.get(name).or_else(|| self.prelude.get(name))
        };
        match g {
            Some(&g) => Ok(VarRef::Global(g)),
            None => err(
                format!("unbound variable `{name}` (was the program checked?)"),
                span,
            ),
        }
    }

    fn atom(&self, ctx: &Ctx, a: &Atom) -> Result<AtomCode, LowerError> {
        Ok(match a {
            Atom::Var(v) => AtomCode::Var(self.resolve(ctx, &v.name, v.span)?),
            Atom::Lit(k, _) => AtomCode::Lit(*k),
        })
    }

    /// Lower a lambda form; `outer` resolves its free variables.
    fn lambda(
        &mut self,
        lam: &Lambda,
        name: &str,
        module: u32,
        is_prelude: bool,
        outer: Option<&Ctx>,
        depth: usize,
    ) -> Result<LambdaId, LowerError> {
        let free_names = match &lam.free {
            Some(f) => f,
            None => {
                return err(
                    "lambda form without a free-variable list (was the program checked?)",
                    lam.span,
                );
            }
        };
        let mut free = Vec::new();
        for v in free_names {
            match outer {
                Some(o) => match self.resolve(o, &v.name, v.span)? {
                    r @ VarRef::Local(_) => free.push(r),
                    VarRef::Global(_) => {
                        return err(format!("free variable `{}` is a global", v.name), v.span);
                    }
                },
                None => {
                    return err(
                        format!("top-level binding `{name}` has free variable `{}`", v.name),
                        v.span,
                    );
                }
            }
        }
        if free.len() + lam.args.len() >= 1 << 24 {
            return err(
                "a lambda form with more than 16 million free variables and arguments",
                lam.span,
            );
        }
        if lam.flag == Flag::NonUpdatable {
            return err("`\\n` flag left by the checker", lam.span);
        }
        let mut ctx = Ctx {
            scope: Scope::default(),
            next_slot: 0,
            slot_names: Vec::new(),
            module,
            is_prelude,
            reads: Vec::new(),
            cases: Vec::new(),
        };
        for v in free_names.iter().chain(lam.args.iter()) {
            Self::bind(&mut ctx, &v.name);
        }
        let id = self.code.lambdas.len() as LambdaId;
        self.code.lambdas.push(LambdaCode {
            name: name.to_string(),
            flag: lam.flag,
            free,
            arity: lam.args.len() as u32,
            slots: 0,
            slot_names: Vec::new(),
            body: 0,
            span: lam.span,
            module,
            top_level: outer.is_none(),
        });
        let body = self.expr(&mut ctx, &lam.body, name, depth + 1)?;
        let lc = &mut self.code.lambdas[id as usize];
        lc.body = body;
        lc.slots = ctx.next_slot;
        lc.slot_names = ctx.slot_names;
        for c in ctx.cases {
            if let ExprCode::Case { env_len, .. } = &mut self.code.exprs[c as usize].code {
                *env_len = ctx.next_slot;
            }
        }
        Ok(id)
    }

    fn bind(ctx: &mut Ctx, name: &Name) -> u32 {
        let s = ctx.next_slot;
        ctx.next_slot += 1;
        ctx.scope.push(name, s);
        ctx.slot_names.push(name.to_string());
        s
    }

    fn expr(
        &mut self,
        ctx: &mut Ctx,
        e: &Expr,
        outer_name: &str,
        depth: usize,
    ) -> Result<ExprId, LowerError> {
        if depth > MAX_DEPTH {
            return err(
                format!(
                    "expression nested more than {MAX_DEPTH} deep; split it into separate top-level bindings"
                ),
                e.span,
            );
        }
        let code = match &e.kind {
            ExprKind::Let {
                rec,
                bindings,
                body,
            } => {
                let mark = ctx.scope.len();
                // letrec: the bindings see their own names; let: only the body does.
                let bind_all = |ctx: &mut Ctx| -> Vec<u32> {
                    bindings
                        .iter()
                        .map(|b| Self::bind(ctx, &b.name.name))
                        .collect()
                };
                let mut binds = if *rec { bind_all(ctx) } else { Vec::new() };
                let mut lams = Vec::new();
                for b in bindings {
                    let n = format!("{outer_name}.{}", b.name.name);
                    let lam = self.lambda(
                        &b.lambda,
                        &n,
                        ctx.module,
                        ctx.is_prelude,
                        Some(ctx),
                        depth + 1,
                    )?;
                    // Building the closure reads its free variables here.
                    for v in &self.code.lambdas[lam as usize].free {
                        ctx.read(*v);
                    }
                    lams.push(lam);
                }
                if !*rec {
                    binds = bind_all(ctx);
                }
                let body = self.expr(ctx, body, outer_name, depth + 1)?;
                ctx.scope.truncate(mark);
                let binds = binds
                    .into_iter()
                    .zip(lams)
                    .map(|(slot, lambda)| LetBind { slot, lambda })
                    .collect();
                ExprCode::Let {
                    rec: *rec,
                    binds,
                    body,
                }
            }
            ExprKind::Case { scrutinee, alts } => {
                let scrut = self.expr(ctx, scrutinee, outer_name, depth + 1)?;
                // Slots below `outside` were bound before the alternatives;
                // those the alternatives read are what rule 4 saves.
                let outside = ctx.next_slot;
                let first_read = ctx.reads.len();
                let mut alg = Vec::new();
                let mut prim = Vec::new();
                let mut default = None;
                for a in alts {
                    let mark = ctx.scope.len();
                    match &a.pattern {
                        Pattern::Con { con, vars } => {
                            let c = self.con(&con.name, vars.len(), con.span)?;
                            let binds = vars.iter().map(|v| Self::bind(ctx, &v.name)).collect();
                            let body = self.expr(ctx, &a.body, outer_name, depth + 1)?;
                            alg.push(AlgAlt {
                                con: c,
                                binds,
                                body,
                            });
                        }
                        Pattern::Lit(k, _) => {
                            let body = self.expr(ctx, &a.body, outer_name, depth + 1)?;
                            prim.push((*k, body));
                        }
                        Pattern::Var(v) => {
                            let s = Self::bind(ctx, &v.name);
                            let body = self.expr(ctx, &a.body, outer_name, depth + 1)?;
                            default = Some(DefaultAlt {
                                bind: Some(s),
                                body,
                            });
                        }
                        Pattern::Default(_) => {
                            let body = self.expr(ctx, &a.body, outer_name, depth + 1)?;
                            default = Some(DefaultAlt { bind: None, body });
                        }
                    }
                    ctx.scope.truncate(mark);
                }
                let alts = if !alg.is_empty() {
                    AltsKind::Alg(alg)
                } else if !prim.is_empty() {
                    AltsKind::Prim(prim)
                } else {
                    AltsKind::DefaultOnly
                };
                let mut saves: Vec<u32> = ctx.reads[first_read..]
                    .iter()
                    .copied()
                    .filter(|&s| s < outside)
                    .collect();
                saves.sort_unstable();
                saves.dedup();
                // `env_len` is known when the whole body is lowered.
                ctx.cases.push(self.code.exprs.len() as ExprId);
                ExprCode::Case {
                    scrut,
                    alts,
                    default,
                    saves,
                    env_len: 0,
                }
            }
            ExprKind::Scc {
                label,
                label_span,
                body,
            } => {
                let cc = match self.code.cost_centres.lookup(ctx.module as usize, label) {
                    Some(cc) => cc,
                    None => return err(format!("unknown cost centre `{label}`"), *label_span),
                };
                let body = self.expr(ctx, body, outer_name, depth + 1)?;
                ExprCode::Scc { cc, body }
            }
            ExprKind::App { fun, args } => {
                let f = self.resolve(ctx, &fun.name, fun.span)?;
                let args: Vec<AtomCode> = args
                    .iter()
                    .map(|a| self.atom(ctx, a))
                    .collect::<Result<_, _>>()?;
                ctx.read(f);
                ctx.read_atoms(&args);
                ExprCode::App { fun: f, args }
            }
            ExprKind::Con { con, args } => {
                let c = self.con(&con.name, args.len(), con.span)?;
                let args: Vec<AtomCode> = args
                    .iter()
                    .map(|a| self.atom(ctx, a))
                    .collect::<Result<_, _>>()?;
                ctx.read_atoms(&args);
                ExprCode::Con { con: c, args }
            }
            ExprKind::Prim { op, args, op_span } => {
                if args.len() != op.arity() {
                    return err(
                        format!("`{}` takes {} arguments", op.as_str(), op.arity()),
                        *op_span,
                    );
                }
                let args: Vec<AtomCode> = args
                    .iter()
                    .map(|a| self.atom(ctx, a))
                    .collect::<Result<_, _>>()?;
                ctx.read_atoms(&args);
                ExprCode::Prim { op: *op, args }
            }
            ExprKind::Lit(k) => ExprCode::Lit(*k),
        };
        Ok(self.push(code, e.span))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_shadows_and_uncovers() {
        let (x, y) = (Name::from("x"), Name::from("y"));
        let mut scope = Scope::default();
        assert_eq!(scope.get("x"), None);
        scope.push(&x, 0);
        scope.push(&y, 1);
        let mark = scope.len();
        scope.push(&x, 2);
        assert_eq!(scope.get("x"), Some(2));
        assert_eq!(scope.get("y"), Some(1));
        scope.truncate(mark);
        assert_eq!(scope.get("x"), Some(0));
        scope.push(&x, 3);
        assert_eq!(scope.get("x"), Some(3));
        scope.truncate(1);
        assert_eq!(scope.get("x"), Some(0));
        assert_eq!(scope.get("y"), None);
        scope.truncate(0);
        assert_eq!(scope.get("x"), None);
    }

    #[test]
    fn inner_bindings_shadow_outer_ones() {
        // `x` is the argument, then the `let`'s (whose lambda captures the
        // argument), then the alternative's: the slots say which.
        let code = lower_text(
            "main = {} \\u {} -> f {one}\n\
             one = {} \\r {} -> I# {1#}\n\
             f = {} \\r {x} -> let x = {x} \\r {} -> Just {x} in\n\
             \x20 case x of Just {x} -> x {}\n",
        );
        let f = code.globals.iter().find(|g| g.name == "f").unwrap();
        let lam = &code.lambdas[f.lambda as usize];
        assert_eq!(lam.slot_names, ["x", "x", "x"]);
        let ExprCode::Let { binds, body, .. } = &code.exprs[lam.body as usize].code else {
            panic!("f's body is a let");
        };
        // The `let`'s lambda captures the argument (slot 0 of f's body).
        assert_eq!(
            code.lambdas[binds[0].lambda as usize].free,
            [VarRef::Local(0)]
        );
        let ExprCode::Case { scrut, alts, .. } = &code.exprs[*body as usize].code else {
            panic!("the let's body is a case");
        };
        assert!(matches!(
            &code.exprs[*scrut as usize].code,
            ExprCode::App {
                fun: VarRef::Local(1),
                ..
            }
        ));
        let AltsKind::Alg(alg) = alts else {
            panic!("an algebraic case")
        };
        assert_eq!(alg[0].binds, [2]);
        assert!(matches!(
            &code.exprs[alg[0].body as usize].code,
            ExprCode::App {
                fun: VarRef::Local(2),
                ..
            }
        ));
    }
}
