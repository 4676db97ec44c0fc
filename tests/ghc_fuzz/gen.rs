//! Random paired programs for the differential fuzzer against GHC
//! (tests/ghc_fuzz.rs, tests/ghc/README.md "A differential fuzzer"): one
//! abstract program, printed as a Haskell twin and as its STG translation,
//! following the twins' conventions so that GHC -O0's cost centres and
//! stg-run's auto-cc land on the same bindings.
//!
//! The subset (and what it leaves out, and why):
//! - Types: `Int`, one data type `D = A Int | B Int Int | F (Int -> Int)`,
//!   and functions `Int -> ... -> Int` (`Fn(k)`, k Ints to an Int). A
//!   top-level function takes a fuel `Int` first, then Ints, `D`s, `Fn(1)`s
//!   or `Fn(2)`s, and returns an `Int`, a `D` or a function; a local
//!   function takes Ints (with lists, lists too after the first) and
//!   returns an Int (a local function ending in a partial application may
//!   be eta-expanded by GHC: README's traps).
//! - Lists, in half of the programs (`Gen::lists`): `[Int]` as one more
//!   type of bindings, parameters and results, made and used by saturated
//!   calls of base's `enumFromTo`, `replicate`, `map`, `zipWith`, `take`,
//!   `drop`, `++`, `reverse`, `sum`, `length`, `foldr` and `foldl` (the
//!   STG Prelude's functions of the same names, `append` for `++`; one
//!   call in three is of these), by `[]` and `:` (`Nil`, `Cons`) under
//!   the rules for constructors below (`[]` also as an argument: the
//!   STG's global `nil`), and by cases on lists.
//! - Every argument is an atom (a variable or a literal): an unnamed lazy
//!   subexpression is a thunk without a cost centre in GHC and a named
//!   `let` in STG. Operands of `+`, `-`, `*`, `<`, `<=`, `==` and case
//!   scrutinees are atoms or calls (strict in both, so GHC's unnamed thunk
//!   and STG's `case` run under the same stack).
//! - Constructor applications appear only in tail position: a function's
//!   body, a case alternative. Never let-bound (con_binding), never the
//!   whole body of a thunk or CAF (top_con, where_const), never directly
//!   under an `scc`; `F` (a function field) only as a case alternative
//!   (box_scc, box_fun). No literal is bound by name.
//! - A let-bound thunk of function type that is (under its lets) a call of
//!   a top-level function or CAF or of a local function, a partial
//!   application GHC would compile as a function, gets an scc of its own
//!   (README's seed 8411).
//! - Each hand-written scc label is used once and named `sN`, no function's
//!   name (scc_same_name); every local name is unique in the program.
//! - Modules, in half of the programs (`module_split`, drawn apart like
//!   lists): the first top-level bindings, up to a point where none refers
//!   to a later one, go to a module `Lib` (`Lib.hs` with `data D`,
//!   `Lib.stg` with the constants), the rest and `main` to `Main`, which
//!   imports it. In half of those that have another such point before it,
//!   the bindings before that point go to a module `Base` of their own
//!   (with `data D` and the constants), which `Lib` and `Main` import.
//! - Termination: a top-level function's direct calls of itself or of a
//!   later function pass `n - 1` of its fuel `n` and happen only when
//!   `n > 0`; calls of earlier ones pass a small literal or the fuel. A
//!   CAF refers only to earlier top-level bindings, so no CAF depends on
//!   itself. Functions passed as values may still be called with any Int as
//!   fuel: a run that passes the step limit is skipped.
use std::collections::BTreeSet;
use std::fmt::Write;

/// splitmix64: a seed determines the program on every platform.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x9E37_79B9_7F4A_7C15)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    /// An index chosen with the given weights (0 weights never).
    fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut r = (self.next() % total as u64) as u32;
        for (i, &w) in weights.iter().enumerate() {
            if r < w {
                return i;
            }
            r -= w;
        }
        unreachable!()
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Ty {
    Int,
    D,
    /// `Int -> ... -> Int` with this many Ints.
    Fn(usize),
    /// `[Int]`, in programs with lists (`Gen::lists`).
    L,
}

impl Ty {
    fn hs(&self) -> String {
        match self {
            Ty::Int => "Int".into(),
            Ty::D => "D".into(),
            Ty::L => "[Int]".into(),
            Ty::Fn(k) => format!("({}Int)", "Int -> ".repeat(*k)),
        }
    }
}

#[derive(Clone, Debug)]
pub enum Atom {
    Lit(i64),
    Var(String),
    /// `[]` (the STG program's global `nil`).
    Nil,
}

#[derive(Clone, Copy, Debug)]
pub enum Op {
    Add,
    Sub,
    Mul,
}

#[derive(Clone, Copy, Debug)]
pub enum Cmp {
    Lt,
    Le,
    Eq,
}

#[derive(Clone, Debug)]
pub enum Expr {
    Atom(Atom),
    /// Operands are atoms or calls.
    Arith(Op, Box<Expr>, Box<Expr>),
    Call(String, Vec<Atom>),
    Con(&'static str, Vec<Atom>),
    /// `if a cmp b then t else e`, operands atoms or calls.
    If(Cmp, Box<Expr>, Box<Expr>, Box<Expr>, Box<Expr>),
    /// A case on a `D` or (with lists) an `[Int]`: scrutinee an atom or a
    /// call; alternatives; a default.
    CaseCon(Box<Expr>, Vec<Alt>, Option<Box<Expr>>),
    /// `case x of 0 -> ..; 1 -> ..; _ -> ..` on an Int variable.
    CaseInt(String, Vec<(i64, Expr)>, Box<Expr>),
    Let(Box<Bind>, Box<Expr>),
    Scc(String, Box<Expr>),
    /// main's result: the list of these Int variables.
    List(Vec<String>),
}

#[derive(Clone, Debug)]
pub struct Alt {
    con: &'static str,
    vars: Vec<String>,
    body: Expr,
}

#[derive(Clone, Debug)]
pub enum Bind {
    Thunk {
        name: String,
        ty: Ty,
        rhs: Expr,
    },
    Fun {
        name: String,
        params: Vec<(String, Ty)>,
        body: Expr,
        rec: bool,
    },
}

pub enum Top {
    Fun {
        name: String,
        params: Vec<(String, Ty)>,
        result: Ty,
        body: Expr,
    },
    Caf {
        name: String,
        ty: Ty,
        body: Expr,
    },
}

pub struct Program {
    pub seed: u64,
    pub tops: Vec<Top>,
    pub main: Expr,
    /// How many of `tops`, from the first, go to library modules (0: the
    /// program is one module, `Main`): the first [`Program::base`] to a
    /// module `Base`, the others to `Lib` ([`Program::libraries`]).
    pub lib: usize,
    /// How many of the first `lib` go to a module `Base` that `Lib` and
    /// `Main` import (0: none).
    pub base: usize,
}

impl Program {
    /// The library modules in load order (each imports those before it,
    /// and `Main` imports them all): name and the range of `tops` it holds.
    fn libraries(&self) -> Vec<(&'static str, std::ops::Range<usize>)> {
        [("Base", 0..self.base), ("Lib", self.base..self.lib)]
            .into_iter()
            .filter(|(_, r)| !r.is_empty())
            .collect()
    }
}

impl Top {
    fn name(&self) -> &str {
        match self {
            Top::Fun { name, .. } | Top::Caf { name, .. } => name,
        }
    }

    fn body(&self) -> &Expr {
        match self {
            Top::Fun { body, .. } | Top::Caf { body, .. } => body,
        }
    }
}

/// What a top-level binding looks like from the code after it.
#[derive(Clone)]
struct TopInfo {
    name: String,
    /// Arguments (a CAF has none).
    params: Vec<Ty>,
    result: Ty,
    is_fun: bool,
}

#[derive(Clone)]
struct LocalFn {
    name: String,
    params: Vec<Ty>,
    /// Takes a fuel first (a local recursive function).
    fuel: bool,
}

#[derive(Clone)]
struct Ctx {
    /// Index of the top-level binding being generated (tops.len() for main).
    cur: usize,
    in_fun: bool,
    /// The enclosing top-level function's fuel and, once it is known to be
    /// positive, its `n - 1`.
    n: Option<String>,
    n1: Option<String>,
    vars: Vec<(String, Ty)>,
    fns: Vec<LocalFn>,
    /// Inside the body of this local recursive function: it may be called
    /// only with `k1` (its fuel minus one), once known positive.
    self_rec: Option<(String, Option<String>)>,
}

pub struct Gen {
    rng: Rng,
    fresh: usize,
    sccs: usize,
    nest: usize,
    tops: Vec<TopInfo>,
    /// Lists and base's list functions are in this program (half the
    /// seeds, drawn from a stream of their own, so that a program without
    /// lists is the one the seed gave before lists were added).
    lists: bool,
    /// Let-bound thunks whose value is a function: never a whole
    /// expression (`Gen::expr_form`'s atoms), so that GHC cannot turn
    /// them into join points (seed 1084 of `17c2bc6`, README's traps).
    fn_thunks: BTreeSet<String>,
}

/// The list functions a program with lists calls, with their types: the
/// same names in base and in the STG Prelude (`append` is base's `++`),
/// each called saturated.
const LIST_FNS: [(&str, &[Ty], Ty); 12] = [
    ("enumFromTo", &[Ty::Int, Ty::Int], Ty::L),
    ("map", &[Ty::Fn(1), Ty::L], Ty::L),
    ("sum", &[Ty::L], Ty::Int),
    ("length", &[Ty::L], Ty::Int),
    ("foldr", &[Ty::Fn(2), Ty::Int, Ty::L], Ty::Int),
    ("foldl", &[Ty::Fn(2), Ty::Int, Ty::L], Ty::Int),
    ("zipWith", &[Ty::Fn(2), Ty::L, Ty::L], Ty::L),
    ("take", &[Ty::Int, Ty::L], Ty::L),
    ("drop", &[Ty::Int, Ty::L], Ty::L),
    ("append", &[Ty::L, Ty::L], Ty::L),
    ("reverse", &[Ty::L], Ty::L),
    ("replicate", &[Ty::Int, Ty::Int], Ty::L),
];

/// Whether `name` is one of [`LIST_FNS`].
fn is_list_fn(name: &str) -> bool {
    LIST_FNS.iter().any(|f| f.0 == name)
}

const CONS: [(&str, &[Ty]); 3] = [
    ("A", &[Ty::Int]),
    ("B", &[Ty::Int, Ty::Int]),
    ("F", &[Ty::Fn(1)]),
];

/// The list's constructors, by their STG names (`[]` and `:` in Haskell).
const LIST_CONS: [(&str, &[Ty]); 2] = [("Nil", &[]), ("Cons", &[Ty::Int, Ty::L])];

/// The constructors of a data type (`D` or `[Int]`).
fn cons_of(ty: &Ty) -> &'static [(&'static str, &'static [Ty])] {
    match ty {
        Ty::D => &CONS,
        Ty::L => &LIST_CONS,
        _ => unreachable!("only D and [Int] have constructors"),
    }
}

/// The Ints a value of type `params -> result` takes before an Int or D
/// (the result's own arguments added), and that final type.
fn flatten(params: &[Ty], result: &Ty) -> (Vec<Ty>, Ty) {
    let mut ps = params.to_vec();
    match result {
        Ty::Fn(k) => {
            ps.extend(std::iter::repeat_n(Ty::Int, *k));
            (ps, Ty::Int)
        }
        t => (ps, t.clone()),
    }
}

/// Whether `params[m..] -> fin` is a value of type `target`.
fn rest_is(params: &[Ty], fin: &Ty, m: usize, target: &Ty) -> bool {
    let rest = &params[m..];
    match target {
        Ty::Fn(k) => rest.len() == *k && rest.iter().all(|t| *t == Ty::Int) && *fin == Ty::Int,
        t => rest.is_empty() && fin == t,
    }
}

struct Callable {
    name: String,
    params: Vec<Ty>,
    fin: Ty,
    /// The first argument must be this variable (fuel of a recursion).
    first: Option<String>,
    /// The first argument is a fuel: a small literal or the context's fuel.
    fuel: bool,
}

impl Gen {
    pub fn new(seed: u64) -> Self {
        Gen {
            rng: Rng::new(seed),
            fresh: 0,
            sccs: 0,
            nest: 0,
            tops: Vec::new(),
            lists: Rng::new(seed ^ 0x4C49_5354).chance(50),
            fn_thunks: BTreeSet::new(),
        }
    }

    fn name(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    /// A type for a binding or a parameter: `[50, 15, 20, 15]` for Int, D,
    /// `Fn(1)`, `Fn(2)` (and 15 for `[Int]` with lists); `result` weights
    /// for a function's result.
    fn ty_weighted(&mut self, weights: [u32; 4]) -> Ty {
        let l = if self.lists { 15 } else { 0 };
        let [a, b, c, d] = weights;
        match self.rng.weighted(&[a, b, c, d, l]) {
            0 => Ty::Int,
            1 => Ty::D,
            2 => Ty::Fn(1),
            3 => Ty::Fn(2),
            _ => Ty::L,
        }
    }

    fn ty(&mut self) -> Ty {
        self.ty_weighted([50, 15, 20, 15])
    }

    pub fn program(seed: u64) -> Program {
        let mut g = Gen::new(seed);
        let count = 2 + g.rng.below(4);
        let mut tops = Vec::new();
        for i in 0..count {
            // The first is always a function; later ones CAFs a third of the time.
            if i > 0 && g.rng.chance(30) {
                let name = format!("c{}", i + 1);
                let ty = g.ty();
                let ctx = Ctx {
                    cur: i,
                    in_fun: false,
                    n: None,
                    n1: None,
                    vars: vec![],
                    fns: vec![],
                    self_rec: None,
                };
                let body = not_literal(g.expr(&ty, 3, &ctx, false));
                g.tops.push(TopInfo {
                    name: name.clone(),
                    params: vec![],
                    result: ty.clone(),
                    is_fun: false,
                });
                tops.push(Top::Caf { name, ty, body });
            } else {
                let name = format!("f{}", i + 1);
                let fuel = g.name("n");
                let mut params = vec![(fuel.clone(), Ty::Int)];
                for _ in 0..g.rng.below(3) {
                    let t = g.ty();
                    params.push((g.name("x"), t));
                }
                let result = g.ty_weighted([55, 15, 20, 10]);
                // Registered first: the body may call it (with n - 1).
                g.tops.push(TopInfo {
                    name: name.clone(),
                    params: params.iter().map(|p| p.1.clone()).collect(),
                    result: result.clone(),
                    is_fun: true,
                });
                let ctx = Ctx {
                    cur: i,
                    in_fun: true,
                    n: Some(fuel.clone()),
                    n1: None,
                    vars: params.clone(),
                    fns: vec![],
                    self_rec: None,
                };
                let body = if g.rng.chance(60) {
                    let base = g.expr(&result, 2, &ctx, true);
                    let n1 = g.name("n");
                    let mut rc = ctx.clone();
                    rc.n1 = Some(n1.clone());
                    rc.vars.push((n1.clone(), Ty::Int));
                    let rec = g.expr(&result, 3, &rc, true);
                    fuel_guard(fuel, base, n1, rec)
                } else {
                    g.expr(&result, 3, &ctx, true)
                };
                tops.push(Top::Fun {
                    name,
                    params,
                    result,
                    body,
                });
            }
        }
        // main: a few shared bindings, then the printed results.
        let ctx = Ctx {
            cur: tops.len(),
            in_fun: false,
            n: None,
            n1: None,
            vars: vec![],
            fns: vec![],
            self_rec: None,
        };
        let mut binds = Vec::new();
        let mut c = ctx.clone();
        for _ in 0..g.rng.below(4) {
            let b = g.bind(3, &c);
            g.scope(&mut c, &b);
            binds.push(b);
        }
        let mut results = Vec::new();
        for _ in 0..2 + g.rng.below(3) {
            let name = g.name("r");
            let rhs = not_literal(g.expr(&Ty::Int, 3, &c, false));
            binds.push(Bind::Thunk {
                name: name.clone(),
                ty: Ty::Int,
                rhs,
            });
            results.push(name);
        }
        let mut main = Expr::List(results);
        for b in binds.into_iter().rev() {
            main = Expr::Let(Box::new(b), Box::new(main));
        }
        let (base, lib) = module_split(seed, &tops);
        Program {
            seed,
            tops,
            main,
            lib,
            base,
        }
    }

    fn scope(&self, ctx: &mut Ctx, b: &Bind) {
        match b {
            Bind::Thunk { name, ty, .. } => ctx.vars.push((name.clone(), ty.clone())),
            Bind::Fun {
                name, params, rec, ..
            } => ctx.fns.push(LocalFn {
                name: name.clone(),
                params: params.iter().map(|p| p.1.clone()).collect(),
                fuel: *rec,
            }),
        }
    }

    /// A let binding: a thunk of any type or a local function.
    fn bind(&mut self, depth: usize, ctx: &Ctx) -> Bind {
        if self.rng.chance(30) {
            self.local_fn(None, depth, ctx)
        } else {
            let ty = self.ty();
            self.thunk(ty, depth, ctx)
        }
    }

    fn thunk(&mut self, ty: Ty, depth: usize, ctx: &Ctx) -> Bind {
        let name = self.name("v");
        let mut rhs = not_literal(self.expr(&ty, depth.saturating_sub(1), ctx, false));
        if let Ty::Fn(_) = ty {
            self.fn_thunks.insert(name.clone());
            // GHC eta-expands a thunk that is a partial application into a
            // function (seed 8411); its own scc keeps it a thunk. No draw:
            // every other program stays the one its seed gave before.
            if partial_application_of_known_function(&rhs) {
                rhs = self.scc(rhs);
            }
        }
        Bind::Thunk { name, ty, rhs }
    }

    /// A local function returning an Int: `ints` Int arguments (if None,
    /// one or two, and with lists an argument after the first may be a
    /// list); sometimes recursive with a fuel first.
    fn local_fn(&mut self, ints: Option<usize>, depth: usize, ctx: &Ctx) -> Bind {
        let name = self.name("g");
        let k = ints.unwrap_or(1 + self.rng.below(2));
        let rec = self.rng.chance(30);
        let mut params: Vec<(String, Ty)> = (0..k).map(|_| (self.name("x"), Ty::Int)).collect();
        if ints.is_none() && self.lists {
            for p in params.iter_mut().skip(1) {
                if self.rng.chance(30) {
                    p.1 = Ty::L;
                }
            }
        }
        let mut c = ctx.clone();
        c.vars.extend(params.iter().cloned());
        let d = depth.saturating_sub(1);
        let body = if rec {
            let fuel = params[0].0.clone();
            c.self_rec = Some((name.clone(), None));
            c.fns.push(LocalFn {
                name: name.clone(),
                params: params.iter().map(|p| p.1.clone()).collect(),
                fuel: true,
            });
            let base = self.expr(&Ty::Int, d, &c, false);
            let k1 = self.name("k");
            let mut rc = c.clone();
            rc.self_rec = Some((name.clone(), Some(k1.clone())));
            rc.vars.push((k1.clone(), Ty::Int));
            let step = self.expr(&Ty::Int, d.max(1), &rc, false);
            fuel_guard(fuel, base, k1, step)
        } else {
            self.expr(&Ty::Int, d, &c, false)
        };
        Bind::Fun {
            name,
            params,
            body: not_trivial(body),
            rec,
        }
    }

    /// Everything that can be applied in `ctx`, with its flattened type.
    fn callables(&self, ctx: &Ctx) -> Vec<Callable> {
        let mut out = Vec::new();
        for (j, t) in self.tops.iter().enumerate() {
            let (params, fin) = flatten(&t.params, &t.result);
            if params.is_empty() {
                continue;
            }
            if j < ctx.cur {
                out.push(Callable {
                    name: t.name.clone(),
                    params,
                    fin,
                    first: None,
                    fuel: t.is_fun,
                });
            } else if t.is_fun && ctx.in_fun && ctx.n1.is_some() {
                out.push(Callable {
                    name: t.name.clone(),
                    params,
                    fin,
                    first: ctx.n1.clone(),
                    fuel: true,
                });
            }
        }
        for f in &ctx.fns {
            let first = match &ctx.self_rec {
                Some((n, k1)) if *n == f.name => match k1 {
                    Some(k1) => Some(k1.clone()),
                    None => continue,
                },
                _ => None,
            };
            out.push(Callable {
                name: f.name.clone(),
                params: f.params.clone(),
                fin: Ty::Int,
                first,
                fuel: f.fuel,
            });
        }
        for (v, t) in &ctx.vars {
            if let Ty::Fn(k) = t {
                out.push(Callable {
                    name: v.clone(),
                    params: vec![Ty::Int; *k],
                    fin: Ty::Int,
                    first: None,
                    fuel: false,
                });
            }
        }
        if self.lists {
            for (name, params, fin) in LIST_FNS {
                out.push(Callable {
                    name: name.to_string(),
                    params: params.to_vec(),
                    fin,
                    first: None,
                    fuel: false,
                });
            }
        }
        out
    }

    /// Atoms of type `ty` in scope (top-level functions and CAFs that may
    /// be referred to as values included).
    fn atoms_of(&self, ty: &Ty, ctx: &Ctx) -> Vec<String> {
        let mut out: Vec<String> = ctx
            .vars
            .iter()
            .filter(|(_, t)| t == ty)
            .map(|(v, _)| v.clone())
            .collect();
        for (j, t) in self.tops.iter().enumerate() {
            if j >= ctx.cur {
                continue;
            }
            let (params, fin) = flatten(&t.params, &t.result);
            if rest_is(&params, &fin, 0, ty) {
                out.push(t.name.clone());
            }
        }
        if let Ty::Fn(k) = ty {
            for f in &ctx.fns {
                let own = matches!(&ctx.self_rec, Some((n, _)) if *n == f.name);
                let ints = f.params.iter().all(|t| *t == Ty::Int);
                if !own && !f.fuel && ints && f.params.len() == *k {
                    out.push(f.name.clone());
                }
            }
        }
        out
    }

    fn fuel_atom(&mut self, ctx: &Ctx) -> Atom {
        if let Some(n1) = &ctx.n1
            && self.rng.chance(60)
        {
            return Atom::Var(n1.clone());
        }
        if let Some(n) = &ctx.n
            && self.rng.chance(30)
        {
            return Atom::Var(n.clone());
        }
        Atom::Lit(self.rng.below(3) as i64)
    }

    /// An atom of type `ty`, maybe bound by a new `let` pushed on `pre`.
    fn atom(&mut self, ty: &Ty, depth: usize, ctx: &Ctx, pre: &mut Vec<Bind>) -> Atom {
        let have = self.atoms_of(ty, ctx);
        if *ty == Ty::Int && (have.is_empty() || self.rng.chance(35)) {
            return Atom::Lit(self.rng.below(4) as i64);
        }
        if !have.is_empty() && (depth == 0 || self.rng.chance(80)) {
            return Atom::Var(have[self.rng.below(have.len())].clone());
        }
        let b = match ty {
            Ty::Fn(k) if self.rng.chance(40) => {
                let mut b = self.local_fn(Some(*k), depth, ctx);
                if let Bind::Fun {
                    rec, body, params, ..
                } = &mut b
                    && *rec
                {
                    // A fuel-taking function called with any Int could run
                    // long: passed as a value, make it plain.
                    *rec = false;
                    let mut c = ctx.clone();
                    c.vars.extend(params.iter().cloned());
                    *body = not_trivial(self.expr(&Ty::Int, depth.saturating_sub(1), &c, false));
                }
                b
            }
            _ => self.thunk(ty.clone(), depth, ctx),
        };
        let name = match &b {
            Bind::Thunk { name, .. } | Bind::Fun { name, .. } => name.clone(),
        };
        pre.push(b);
        Atom::Var(name)
    }

    /// An argument of type `ty`: as [`Gen::atom`], or sometimes `[]` for a
    /// list. (Never a whole expression: a thunk or an scc around `[]` is a
    /// constructor trap, top_con or box_scc.)
    fn arg(&mut self, ty: &Ty, depth: usize, ctx: &Ctx, pre: &mut Vec<Bind>) -> Atom {
        if *ty == Ty::L && self.rng.chance(15) {
            return Atom::Nil;
        }
        self.atom(ty, depth, ctx, pre)
    }

    fn wrap(pre: Vec<Bind>, e: Expr) -> Expr {
        pre.into_iter()
            .rev()
            .fold(e, |e, b| Expr::Let(Box::new(b), Box::new(e)))
    }

    /// A call of type `ty` (None if nothing in scope gives one); its
    /// argument bindings pushed on `pre`.
    fn call(&mut self, ty: &Ty, depth: usize, ctx: &Ctx, pre: &mut Vec<Bind>) -> Option<Expr> {
        let mut options = Vec::new();
        for c in self.callables(ctx) {
            for m in 1..=c.params.len() {
                if rest_is(&c.params, &c.fin, m, ty) {
                    options.push((c.name.clone(), c.params.clone(), m, c.first.clone(), c.fuel));
                }
            }
        }
        if self.lists {
            // The library's twelve would crowd out the program's own
            // functions: one call in three is the library's, when there is
            // a choice.
            let pick_lib = self.rng.chance(33);
            let (some, all) = (
                options.iter().any(|o| is_list_fn(&o.0)),
                options.iter().all(|o| is_list_fn(&o.0)),
            );
            if some && !all {
                options.retain(|o| is_list_fn(&o.0) == pick_lib);
            }
        }
        if options.is_empty() {
            return None;
        }
        let (name, params, m, first, fuel) = options.swap_remove(self.rng.below(options.len()));
        let mut args = Vec::new();
        for (i, t) in params[..m].iter().enumerate() {
            let a = if i == 0 && first.is_some() {
                Atom::Var(first.clone().unwrap())
            } else if i == 0 && fuel {
                self.fuel_atom(ctx)
            } else {
                self.arg(t, depth.saturating_sub(1), ctx, pre)
            };
            args.push(a);
        }
        Some(Expr::Call(name, args))
    }

    /// An operand: an atom or a call returning an Int.
    fn operand(&mut self, depth: usize, ctx: &Ctx, pre: &mut Vec<Bind>) -> Expr {
        if depth > 0
            && self.rng.chance(40)
            && let Some(c) = self.call(&Ty::Int, depth - 1, ctx, pre)
        {
            return c;
        }
        Expr::Atom(self.atom(&Ty::Int, 0, ctx, pre))
    }

    fn scc(&mut self, e: Expr) -> Expr {
        self.sccs += 1;
        Expr::Scc(format!("s{}", self.sccs), Box::new(e))
    }

    /// An expression of type `ty`. `con_ok`: a bare constructor may be the
    /// whole expression (a function's body or a case alternative).
    fn expr(&mut self, ty: &Ty, depth: usize, ctx: &Ctx, con_ok: bool) -> Expr {
        let mut pre = Vec::new();
        let e = self.expr_inner(ty, depth, ctx, con_ok, &mut pre);
        Self::wrap(pre, e)
    }

    fn expr_inner(
        &mut self,
        ty: &Ty,
        depth: usize,
        ctx: &Ctx,
        con_ok: bool,
        pre: &mut Vec<Bind>,
    ) -> Expr {
        // Arguments need atoms, atoms may need bindings, bindings need
        // expressions: past this nesting, the simplest expression of the type.
        if self.nest > 5 {
            return self.fallback(ty, ctx, pre);
        }
        self.nest += 1;
        let e = self.expr_form(ty, depth, ctx, con_ok, pre);
        self.nest -= 1;
        e
    }

    fn expr_form(
        &mut self,
        ty: &Ty,
        depth: usize,
        ctx: &Ctx,
        con_ok: bool,
        pre: &mut Vec<Bind>,
    ) -> Expr {
        let d = depth.saturating_sub(1);
        let has_d = !self.atoms_of(&Ty::D, ctx).is_empty();
        let int_vars: Vec<String> = ctx
            .vars
            .iter()
            .filter(|(_, t)| *t == Ty::Int)
            .map(|(v, _)| v.clone())
            .collect();
        // 0 atom, 1 arith, 2 call, 3 if, 4 case on a D, 5 caseInt, 6 let,
        // 7 scc, 8 con, 9 case on a list (a weight 0 changes no draw: a
        // program without lists is the one its seed gave before).
        let deep = depth > 0;
        let w = |b: bool, x: u32| if b { x } else { 0 };
        let case_l = w(deep && self.lists, 1);
        let weights = match ty {
            Ty::Int => [
                2,
                w(deep, 2),
                4,
                w(deep, 2),
                w(deep && has_d, 1),
                w(deep && !int_vars.is_empty(), 1),
                w(deep, 3),
                w(deep, 1),
                0,
                case_l,
            ],
            Ty::D => [
                w(has_d, 1),
                0,
                3,
                3,
                w(deep && has_d, 1),
                0,
                w(deep, 2),
                w(deep, 1),
                w(con_ok, 2),
                case_l,
            ],
            Ty::Fn(_) => [
                2,
                0,
                4,
                w(deep, 2),
                w(deep && has_d, 1),
                0,
                w(deep, 3),
                w(deep, 1),
                0,
                case_l,
            ],
            Ty::L => [
                w(!self.atoms_of(&Ty::L, ctx).is_empty(), 1),
                0,
                4,
                w(deep, 2),
                w(deep && has_d, 1),
                0,
                w(deep, 3),
                w(deep, 1),
                w(con_ok, 2),
                case_l,
            ],
        };
        match self.rng.weighted(&weights) {
            0 => {
                let mut have = self.atoms_of(ty, ctx);
                have.retain(|v| !self.fn_thunks.contains(v));
                if *ty != Ty::Int && have.is_empty() {
                    return self.fallback(ty, ctx, pre);
                }
                if *ty == Ty::Int {
                    return Expr::Atom(self.atom(ty, 0, ctx, pre));
                }
                // As `atom` at depth 0 picks one.
                Expr::Atom(Atom::Var(have[self.rng.below(have.len())].clone()))
            }
            1 => {
                let op = match self.rng.weighted(&[5, 4, 1]) {
                    0 => Op::Add,
                    1 => Op::Sub,
                    _ => Op::Mul,
                };
                let a = self.operand(d, ctx, pre);
                let b = if matches!(op, Op::Mul) {
                    Expr::Atom(Atom::Lit(2))
                } else {
                    self.operand(d, ctx, pre)
                };
                Expr::Arith(op, Box::new(a), Box::new(b))
            }
            2 => match self.call(ty, d, ctx, pre) {
                Some(c) => c,
                None => self.fallback(ty, ctx, pre),
            },
            3 => {
                let cmp = match self.rng.below(3) {
                    0 => Cmp::Lt,
                    1 => Cmp::Le,
                    _ => Cmp::Eq,
                };
                let a = self.operand(d, ctx, pre);
                let b = self.operand(d, ctx, pre);
                let fcon = *ty == Ty::D;
                let t = self.alt_expr(ty, d, ctx, fcon);
                let e = self.alt_expr(ty, d, ctx, fcon);
                Expr::If(cmp, Box::new(a), Box::new(b), Box::new(t), Box::new(e))
            }
            4 => self.case_con(ty, &Ty::D, d, ctx, pre),
            5 => {
                let x = int_vars[self.rng.below(int_vars.len())].clone();
                let n = 1 + self.rng.below(2);
                let alts = (0..n)
                    .map(|i| (i as i64, self.alt_expr(ty, d, ctx, true)))
                    .collect();
                let def = self.alt_expr(ty, d, ctx, true);
                Expr::CaseInt(x, alts, Box::new(def))
            }
            6 => {
                // A let whose body is an expression of the type, or (for a
                // function type) the local function itself.
                if let Ty::Fn(k) = ty
                    && self.rng.chance(40)
                {
                    let b = self.local_fn(Some(*k), depth, ctx);
                    if let Bind::Fun {
                        name, rec: false, ..
                    } = &b
                    {
                        let v = Expr::Atom(Atom::Var(name.clone()));
                        return Expr::Let(Box::new(b), Box::new(v));
                    }
                    let mut c = ctx.clone();
                    self.scope(&mut c, &b);
                    let body = self.expr(ty, d, &c, false);
                    return Expr::Let(Box::new(b), Box::new(body));
                }
                let b = self.bind(d, ctx);
                let mut c = ctx.clone();
                self.scope(&mut c, &b);
                let body = self.expr(ty, d, &c, con_ok);
                Expr::Let(Box::new(b), Box::new(body))
            }
            7 => {
                let inner = self.expr(ty, d, ctx, false);
                self.scc(inner)
            }
            8 => self.con(ty, ctx, pre, false),
            _ => self.case_con(ty, &Ty::L, d, ctx, pre),
        }
    }

    /// A case of type `ty` on a value of the data type `on` (`D` or
    /// `[Int]`): the scrutinee an atom or a call, each constructor's
    /// alternative with a chance, a default if one is missing.
    fn case_con(&mut self, ty: &Ty, on: &Ty, d: usize, ctx: &Ctx, pre: &mut Vec<Bind>) -> Expr {
        let scrut = if self.rng.chance(50)
            && let Some(c) = self.call(on, d, ctx, pre)
        {
            c
        } else {
            Expr::Atom(self.atom(on, 0, ctx, pre))
        };
        let cons = cons_of(on);
        let mut alts = Vec::new();
        for &(con, fields) in cons {
            if self.rng.chance(70) {
                alts.push(self.con_alt(ty, con, fields, d, ctx));
            }
        }
        if alts.is_empty() {
            // `case d of _ -> e` does not force d in Haskell.
            let (con, fields) = cons[0];
            alts.push(self.con_alt(ty, con, fields, d, ctx));
        }
        let default = if alts.len() < cons.len() {
            Some(Box::new(self.alt_expr(ty, d, ctx, true)))
        } else {
            None
        };
        Expr::CaseCon(Box::new(scrut), alts, default)
    }

    /// The alternative `con fields -> body` of a case of type `ty`.
    fn con_alt(&mut self, ty: &Ty, con: &'static str, fields: &[Ty], d: usize, ctx: &Ctx) -> Alt {
        let vars: Vec<(String, Ty)> = fields.iter().map(|t| (self.name("y"), t.clone())).collect();
        let mut c = ctx.clone();
        c.vars.extend(vars.iter().cloned());
        let body = self.alt_expr(ty, d, &c, true);
        Alt {
            con,
            vars: vars.into_iter().map(|v| v.0).collect(),
            body,
        }
    }

    /// A case alternative (or branch of an if): a constructor may be the
    /// whole of it, `F` included when `fcon`.
    fn alt_expr(&mut self, ty: &Ty, depth: usize, ctx: &Ctx, fcon: bool) -> Expr {
        if matches!(ty, Ty::D | Ty::L) && self.rng.chance(50) {
            let mut pre = Vec::new();
            let e = self.con(ty, ctx, &mut pre, fcon);
            return Self::wrap(pre, e);
        }
        self.expr(ty, depth, ctx, true)
    }

    /// A constructor application of type `ty` (`F` only when `fcon`).
    fn con(&mut self, ty: &Ty, ctx: &Ctx, pre: &mut Vec<Bind>, fcon: bool) -> Expr {
        let cons = cons_of(ty);
        let n = if *ty == Ty::D && !fcon { 2 } else { cons.len() };
        let (con, fields) = cons[self.rng.below(n)];
        let args = fields.iter().map(|t| self.arg(t, 1, ctx, pre)).collect();
        Expr::Con(con, args)
    }

    /// Something of type `ty` when the chosen form was impossible.
    fn fallback(&mut self, ty: &Ty, ctx: &Ctx, pre: &mut Vec<Bind>) -> Expr {
        match ty {
            Ty::Int => Expr::Atom(Atom::Lit(self.rng.below(4) as i64)),
            Ty::D => {
                let a = self.operand(0, ctx, pre);
                let b = self.operand(0, ctx, pre);
                let t = self.con(ty, ctx, pre, true);
                let e = self.con(ty, ctx, pre, true);
                Expr::If(Cmp::Lt, Box::new(a), Box::new(b), Box::new(t), Box::new(e))
            }
            Ty::Fn(k) => {
                let b = self.local_fn(Some(*k), 0, ctx);
                let name = match &b {
                    Bind::Fun { name, .. } | Bind::Thunk { name, .. } => name.clone(),
                };
                pre.push(b);
                Expr::Atom(Atom::Var(name))
            }
            Ty::L => {
                let a = Atom::Lit(self.rng.below(2) as i64);
                let b = Atom::Lit(self.rng.below(4) as i64);
                Expr::Call("enumFromTo".into(), vec![a, b])
            }
        }
    }
}

/// A thunk or CAF whose body is a literal gets no cost centre in stg-run
/// and one in GHC (where_const): `k + 1` instead.
fn not_literal(e: Expr) -> Expr {
    match e {
        Expr::Atom(Atom::Lit(k)) => Expr::Arith(
            Op::Add,
            Box::new(Expr::Atom(Atom::Lit(k))),
            Box::new(Expr::Atom(Atom::Lit(1))),
        ),
        e => e,
    }
}

/// Whether a thunk of function type is, once GHC has floated its lets
/// out, a call of a top-level function or CAF or of a local function: a
/// partial application of a function GHC knows the arity of. Without an
/// scc of its own (`-fprof-auto-top`, `-prof`) GHC compiles such a thunk
/// as a function taking the rest, even at `-O0` (README's seed 8411: `v =
/// f4 1 2` becomes `\r [eta] f4 1 2 eta`). With `-prof` that includes
/// calls of top-level functions and CAFs whose own body is a partial
/// application: GHC raises their arity. A call of a parameter stays a
/// thunk (its arity is unknown; a field's too, not checked), as does a
/// call under a case or an `if`.
fn partial_application_of_known_function(e: &Expr) -> bool {
    match e {
        Expr::Let(_, body) => partial_application_of_known_function(body),
        Expr::Call(f, _) => is_global(f) || numbered(f, 'g'),
        _ => false,
    }
}

/// A local function whose body is (after its unused lets) a variable or a
/// literal loses an enclosing scc in GHC: `mkTick` pushes it into the
/// lambda as a scoping-only tick, which it drops over a trivial expression
/// (the lam_con_scc mechanism); `x + 0` instead.
fn not_trivial(e: Expr) -> Expr {
    match e {
        Expr::Atom(a) => Expr::Arith(
            Op::Add,
            Box::new(Expr::Atom(a)),
            Box::new(Expr::Atom(Atom::Lit(0))),
        ),
        Expr::Let(b, body) => Expr::Let(b, Box::new(not_trivial(*body))),
        e => e,
    }
}

/// How many top-level bindings, from the first, go to a module `Base` and
/// how many to `Base` and `Lib` together: `(base, lib)`, `(0, 0)` for
/// none. Half of the programs are split, drawn from a stream of their own
/// so that the program itself is the one the seed gave before modules: at
/// a point chosen among those where no binding before it refers to one
/// after it (Haskell modules cannot import each other; a binding may call
/// a later function), all of them into `Lib` always being one. Half of
/// those where such a point lies before `lib` also get a `Base`, cut at
/// one of them and drawn from a third stream, so the two-module split is
/// the one the seed gave before `Base`.
fn module_split(seed: u64, tops: &[Top]) -> (usize, usize) {
    let mut rng = Rng::new(seed ^ 0x4D4F_4455);
    if !rng.chance(50) {
        return (0, 0);
    }
    let refs: Vec<BTreeSet<String>> = tops.iter().map(|t| global_refs(t.body())).collect();
    let splits: Vec<usize> = (1..=tops.len())
        .filter(|&k| {
            refs[..k]
                .iter()
                .all(|r| tops[k..].iter().all(|t| !r.contains(t.name())))
        })
        .collect();
    let lib = splits[rng.below(splits.len())];
    let inner: Vec<usize> = splits.into_iter().filter(|&k| k < lib).collect();
    let mut rng = Rng::new(seed ^ 0x4241_5345);
    let base = if !inner.is_empty() && rng.chance(50) {
        inner[rng.below(inner.len())]
    } else {
        0
    };
    (base, lib)
}

/// The top-level bindings `e` refers to.
fn global_refs(e: &Expr) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    collect(e, &mut used, &mut BTreeSet::new());
    used.retain(|v| numbered(v, 'f') || numbered(v, 'c'));
    used
}

// ---------------------------------------------------------------- printing

fn is_global(name: &str) -> bool {
    numbered(name, 'f') || numbered(name, 'c') || is_list_fn(name)
}

/// Whether `name` is `prefix` followed by a number, as [`Gen::name`] and
/// [`Gen::program`] make them.
fn numbered(name: &str, prefix: char) -> bool {
    name.strip_prefix(prefix)
        .is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit()))
}

/// The local variables `e` refers to and does not bind.
fn free_vars(e: &Expr) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let mut bound = BTreeSet::new();
    collect(e, &mut used, &mut bound);
    used.retain(|v| !bound.contains(v) && !is_global(v));
    used
}

fn collect_atom(a: &Atom, used: &mut BTreeSet<String>) {
    if let Atom::Var(v) = a {
        used.insert(v.clone());
    }
}

fn collect(e: &Expr, used: &mut BTreeSet<String>, bound: &mut BTreeSet<String>) {
    match e {
        Expr::Atom(a) => collect_atom(a, used),
        Expr::Arith(_, a, b) => {
            collect(a, used, bound);
            collect(b, used, bound);
        }
        Expr::Call(f, args) => {
            used.insert(f.clone());
            args.iter().for_each(|a| collect_atom(a, used));
        }
        Expr::Con(_, args) => args.iter().for_each(|a| collect_atom(a, used)),
        Expr::If(_, a, b, t, f) => {
            for x in [a, b, t, f] {
                collect(x, used, bound);
            }
        }
        Expr::CaseCon(s, alts, def) => {
            collect(s, used, bound);
            for alt in alts {
                bound.extend(alt.vars.iter().cloned());
                collect(&alt.body, used, bound);
            }
            if let Some(d) = def {
                collect(d, used, bound);
            }
        }
        Expr::CaseInt(x, alts, def) => {
            used.insert(x.clone());
            for (_, a) in alts {
                collect(a, used, bound);
            }
            collect(def, used, bound);
        }
        Expr::Let(b, body) => {
            match &**b {
                Bind::Thunk { name, rhs, .. } => {
                    bound.insert(name.clone());
                    collect(rhs, used, bound);
                }
                Bind::Fun {
                    name, params, body, ..
                } => {
                    bound.insert(name.clone());
                    bound.extend(params.iter().map(|p| p.0.clone()));
                    collect(body, used, bound);
                }
            }
            collect(body, used, bound);
        }
        Expr::Scc(_, e) => collect(e, used, bound),
        Expr::List(vs) => used.extend(vs.iter().cloned()),
    }
}

fn hs_atom(a: &Atom) -> String {
    match a {
        Atom::Lit(n) => n.to_string(),
        Atom::Var(v) => v.clone(),
        Atom::Nil => "[]".into(),
    }
}

/// A constructor applied to `args` (variables, in a pattern): `[]` and
/// `(x : xs)` for the list's.
fn hs_con(con: &str, args: &[String]) -> String {
    match (con, args) {
        ("Nil", []) => "[]".into(),
        ("Cons", [x, xs]) => format!("({x} : {xs})"),
        _ => args.iter().fold(con.to_string(), |s, a| s + " " + a),
    }
}

fn hs_op(op: Op) -> &'static str {
    match op {
        Op::Add => "+",
        Op::Sub => "-",
        Op::Mul => "*",
    }
}

fn hs_cmp(c: Cmp) -> &'static str {
    match c {
        Cmp::Lt => "<",
        Cmp::Le => "<=",
        Cmp::Eq => "==",
    }
}

fn pad(ind: usize) -> String {
    " ".repeat(ind)
}

/// `(head a1 a2 …)`: a call or a constructor application.
fn hs_app(head: &str, args: &[Atom], out: &mut String) {
    out.push('(');
    out.push_str(head);
    for a in args {
        write!(out, " {}", hs_atom(a)).unwrap();
    }
    out.push(')');
}

/// A case's alternatives `pattern -> body`, one per line after the
/// first's `{` (written by the caller), then the closing `})`.
fn hs_alts<'a>(alts: impl Iterator<Item = (String, &'a Expr)>, ind: usize, out: &mut String) {
    for (i, (pat, body)) in alts.enumerate() {
        let sep = if i == 0 { " " } else { ";" };
        write!(out, "\n{}{sep} {pat} -> ", pad(ind + 2)).unwrap();
        hs(body, ind + 6, out);
    }
    out.push_str(" })");
}

/// Haskell, with explicit braces (layout plays no part) and every compound
/// expression in parentheses.
fn hs(e: &Expr, ind: usize, out: &mut String) {
    match e {
        Expr::Atom(a) => out.push_str(&hs_atom(a)),
        Expr::Arith(op, a, b) => {
            out.push('(');
            hs(a, ind, out);
            write!(out, " {} ", hs_op(*op)).unwrap();
            hs(b, ind, out);
            out.push(')');
        }
        Expr::Call(f, args) if f == "append" => hs_app("(++)", args, out),
        Expr::Call(f, args) => hs_app(f, args, out),
        Expr::Con(c, args) => match *c {
            "Nil" | "Cons" => {
                out.push_str(&hs_con(c, &args.iter().map(hs_atom).collect::<Vec<_>>()))
            }
            _ => hs_app(c, args, out),
        },
        Expr::If(cmp, a, b, t, f) => {
            out.push_str("(if ");
            hs(a, ind, out);
            write!(out, " {} ", hs_cmp(*cmp)).unwrap();
            hs(b, ind, out);
            write!(out, "\n{}then ", pad(ind + 2)).unwrap();
            hs(t, ind + 4, out);
            write!(out, "\n{}else ", pad(ind + 2)).unwrap();
            hs(f, ind + 4, out);
            out.push(')');
        }
        Expr::CaseCon(s, alts, def) => {
            out.push_str("(case ");
            let on_list = matches!(alts[0].con, "Nil" | "Cons");
            if on_list && matches!(**s, Expr::Call(..)) {
                // `enumFromTo 0 2` alone would default to `[Integer]`.
                out.push('(');
                hs(s, ind, out);
                out.push_str(" :: [Int])");
            } else {
                hs(s, ind, out);
            }
            out.push_str(" of {");
            let pats = alts
                .iter()
                .map(|alt| (hs_con(alt.con, &alt.vars), &alt.body));
            hs_alts(
                pats.chain(def.iter().map(|d| ("_".to_string(), &**d))),
                ind,
                out,
            );
        }
        Expr::CaseInt(x, alts, def) => {
            write!(out, "(case {x} of {{").unwrap();
            let pats = alts.iter().map(|(n, a)| (n.to_string(), a));
            hs_alts(pats.chain([("_".to_string(), &**def)]), ind, out);
        }
        Expr::Let(b, body) => {
            out.push_str("(let { ");
            match &**b {
                Bind::Thunk { name, ty, rhs } => {
                    // A `D` or list thunk used once as a scrutinee would be inlined
                    // into the case at -O0, and case-of-case would then push
                    // its scc into the constructor's fields (seed 734).
                    if matches!(ty, Ty::D | Ty::L) {
                        write!(out, "{{-# NOINLINE {name} #-}}; ").unwrap();
                    }
                    write!(out, "{name} :: {}; {name} = ", ty.hs()).unwrap();
                    hs(rhs, ind + 4, out);
                }
                Bind::Fun {
                    name, params, body, ..
                } => {
                    let sig: String = params.iter().map(|p| format!("{} -> ", p.1.hs())).collect();
                    let ps: String = params.iter().map(|p| format!(" {}", p.0)).collect();
                    write!(
                        out,
                        "{{-# NOINLINE {name} #-}}; {name} :: {sig}Int; {name}{ps} = "
                    )
                    .unwrap();
                    hs(body, ind + 4, out);
                }
            }
            write!(out, " }}\n{}in ", pad(ind + 1)).unwrap();
            hs(body, ind + 1, out);
            out.push(')');
        }
        Expr::Scc(l, e) => {
            write!(out, "({{-# SCC \"{l}\" #-}} ").unwrap();
            hs(e, ind + 2, out);
            out.push(')');
        }
        Expr::List(vs) => write!(out, "[{}]", vs.join(", ")).unwrap(),
    }
}

/// The Haskell twin: `(file name, text)` of `Base.hs` and `Lib.hs` (when
/// the program has those modules) and `Main.hs`, in the order the STG
/// loads them. The first module declares `data D`.
pub fn haskell(p: &Program) -> Vec<(String, String)> {
    let head = |file: &str| {
        format!(
            "-- Generated by tests/ghc_fuzz.rs (seed {}): twin of the {file}.stg beside it.\n",
            p.seed
        )
    };
    let data = "data D = A Int | B Int Int | F (Int -> Int)\n\n";
    let mut files = Vec::new();
    // The imports of the modules loaded so far.
    let mut imports = String::new();
    let module = |name: &str, imports: &str| {
        let mut text = head(name);
        if name != "Main" {
            write!(text, "module {name} where\n\n").unwrap();
        }
        if imports.is_empty() {
            text.push_str(data);
        } else {
            text.push_str(imports);
            text.push('\n');
        }
        text
    };
    for (name, range) in p.libraries() {
        let mut text = module(name, &imports);
        p.tops[range].iter().for_each(|t| hs_top(t, &mut text));
        files.push((format!("{name}.hs"), text));
        writeln!(imports, "import {name}").unwrap();
    }
    let mut main = module("Main", &imports);
    p.tops[p.lib..].iter().for_each(|t| hs_top(t, &mut main));
    main.push_str("main :: IO ()\nmain =\n  print\n    ");
    hs(&p.main, 4, &mut main);
    main.push('\n');
    files.push(("Main.hs".to_string(), main));
    files
}

fn hs_top(t: &Top, out: &mut String) {
    match t {
        Top::Fun {
            name,
            params,
            result,
            body,
        } => {
            let sig: String = params.iter().map(|p| format!("{} -> ", p.1.hs())).collect();
            let ps: String = params.iter().map(|p| format!(" {}", p.0)).collect();
            write!(
                out,
                "{{-# NOINLINE {name} #-}}\n{name} :: {sig}{}\n{name}{ps} =\n  ",
                result.hs()
            )
            .unwrap();
            hs(body, 2, out);
        }
        Top::Caf { name, ty, body } => {
            write!(
                out,
                "{{-# NOINLINE {name} #-}}\n{name} :: {}\n{name} =\n  ",
                ty.hs()
            )
            .unwrap();
            hs(body, 2, out);
        }
    }
    out.push_str("\n\n");
}

/// STG printer: layout by indentation, every compound construct starting
/// on a line of its own.
struct Stg {
    out: String,
    temps: usize,
}

fn stg_atom(a: &Atom) -> String {
    match a {
        Atom::Lit(n) => format!("int{n}"),
        Atom::Var(v) => v.clone(),
        Atom::Nil => "nil".into(),
    }
}

fn stg_atoms(args: &[Atom]) -> String {
    format!(
        "{{{}}}",
        args.iter().map(stg_atom).collect::<Vec<_>>().join(", ")
    )
}

impl Stg {
    /// A top-level binding, then a blank line.
    fn top(&mut self, t: &Top) {
        match t {
            Top::Fun {
                name, params, body, ..
            } => {
                let ps: Vec<String> = params.iter().map(|p| p.0.clone()).collect();
                self.lambda(0, name, &BTreeSet::new(), "r", &ps, body);
            }
            Top::Caf { name, body, .. } => self.lambda(0, name, &BTreeSet::new(), "u", &[], body),
        }
        self.out.push('\n');
    }

    fn line(&mut self, ind: usize, s: &str) {
        writeln!(self.out, "{}{s}", pad(ind)).unwrap();
    }

    /// An operand as an atom, with a `case` line evaluating a call first;
    /// returns the atom and the indentation to continue at.
    fn operand(&mut self, e: &Expr, ind: usize) -> (String, usize) {
        match e {
            Expr::Atom(a) => (stg_atom(a), ind),
            Expr::Call(f, args) => {
                self.temps += 1;
                let t = format!("t{}", self.temps);
                self.line(ind, &format!("case {f} {} of", stg_atoms(args)));
                self.line(ind + 2, &format!("{t} ->"));
                (t, ind + 4)
            }
            _ => unreachable!("operands are atoms or calls"),
        }
    }

    fn lambda(
        &mut self,
        ind: usize,
        name: &str,
        fvs: &BTreeSet<String>,
        flag: &str,
        params: &[String],
        body: &Expr,
    ) {
        let fv: Vec<&str> = fvs.iter().map(|s| s.as_str()).collect();
        self.line(
            ind,
            &format!(
                "{name} = {{{}}} \\{flag} {{{}}} ->",
                fv.join(", "),
                params.join(", ")
            ),
        );
        self.expr(body, ind + 2);
    }

    fn expr(&mut self, e: &Expr, ind: usize) {
        match e {
            Expr::Atom(Atom::Lit(n)) => self.line(ind, &format!("I# {{{n}#}}")),
            Expr::Atom(Atom::Var(v)) => self.line(ind, &format!("{v} {{}}")),
            Expr::Atom(Atom::Nil) => self.line(ind, "nil {}"),
            Expr::Arith(op, a, b) => {
                let (x, i) = self.operand(a, ind);
                let (y, i) = self.operand(b, i);
                let f = match op {
                    Op::Add => "plusInt",
                    Op::Sub => "minusInt",
                    Op::Mul => "timesInt",
                };
                self.line(i, &format!("{f} {{{x}, {y}}}"));
            }
            Expr::Call(f, args) => self.line(ind, &format!("{f} {}", stg_atoms(args))),
            Expr::Con(c, args) => self.line(ind, &format!("{c} {}", stg_atoms(args))),
            Expr::If(cmp, a, b, t, f) => {
                let (x, i) = self.operand(a, ind);
                let (y, i) = self.operand(b, i);
                let c = match cmp {
                    Cmp::Lt => "ltInt",
                    Cmp::Le => "leInt",
                    Cmp::Eq => "eqInt",
                };
                self.line(i, &format!("case {c} {{{x}, {y}}} of"));
                self.line(i + 2, "True {} ->");
                self.expr(t, i + 4);
                self.line(i + 2, "False {} ->");
                self.expr(f, i + 4);
            }
            Expr::CaseCon(s, alts, def) => {
                let scrut = match &**s {
                    Expr::Atom(a) => format!("{} {{}}", stg_atom(a)),
                    Expr::Call(f, args) => format!("{f} {}", stg_atoms(args)),
                    _ => unreachable!("scrutinees are atoms or calls"),
                };
                self.line(ind, &format!("case {scrut} of"));
                for alt in alts {
                    self.line(
                        ind + 2,
                        &format!("{} {{{}}} ->", alt.con, alt.vars.join(", ")),
                    );
                    self.expr(&alt.body, ind + 4);
                }
                if let Some(d) = def {
                    self.line(ind + 2, "default ->");
                    self.expr(d, ind + 4);
                }
            }
            Expr::CaseInt(x, alts, def) => {
                self.temps += 1;
                let p = format!("p{}#", self.temps);
                self.line(ind, &format!("case {x} {{}} of"));
                self.line(ind + 2, &format!("I# {{{p}}} ->"));
                self.line(ind + 4, &format!("case {p} of"));
                for (n, a) in alts {
                    self.line(ind + 6, &format!("{n}# ->"));
                    self.expr(a, ind + 8);
                }
                self.line(ind + 6, "default ->");
                self.expr(def, ind + 8);
            }
            Expr::Let(b, body) => {
                match &**b {
                    Bind::Thunk { name, rhs, .. } => {
                        self.line(ind, "let");
                        self.lambda(ind + 2, name, &free_vars(rhs), "u", &[], rhs);
                    }
                    Bind::Fun {
                        name,
                        params,
                        body,
                        rec,
                    } => {
                        let mut fvs = free_vars(body);
                        for p in params {
                            fvs.remove(&p.0);
                        }
                        self.line(ind, if *rec { "letrec" } else { "let" });
                        let ps: Vec<String> = params.iter().map(|p| p.0.clone()).collect();
                        self.lambda(ind + 2, name, &fvs, "r", &ps, body);
                    }
                }
                self.line(ind, "in");
                self.expr(body, ind);
            }
            Expr::Scc(l, e) => {
                self.line(ind, &format!("scc \"{l}\" ("));
                self.expr(e, ind + 2);
                self.line(ind, ")");
            }
            Expr::List(vs) => {
                // let l3 = {r3} \r {} -> Cons {r3, nil} in ... Cons {r1, l2}
                let mut tail = "nil".to_string();
                for (i, v) in vs.iter().enumerate().skip(1).rev() {
                    let l = format!("l{}", i + 1);
                    let fv = if tail == "nil" {
                        v.clone()
                    } else {
                        format!("{v}, {tail}")
                    };
                    self.line(ind, "let");
                    self.line(
                        ind + 2,
                        &format!("{l} = {{{fv}}} \\r {{}} -> Cons {{{v}, {tail}}}"),
                    );
                    self.line(ind, "in");
                    tail = l;
                }
                self.line(ind, &format!("Cons {{{}, {tail}}}", vs[0]));
            }
        }
    }
}

/// The STG program: `(file name, text)` of `Base.stg` and `Lib.stg` (when
/// the program has those modules) and `Main.stg`, in load order. The
/// constants `int0` to `int3` and `nil` are in the first.
pub fn stg(p: &Program) -> Vec<(String, String)> {
    let new = |file: &str| Stg {
        out: format!(
            "-- Generated by tests/ghc_fuzz.rs (seed {}); Haskell twin {file}.hs beside it.\n",
            p.seed
        ),
        temps: 0,
    };
    let libraries = p.libraries();
    let names: Vec<&str> = libraries.iter().map(|l| l.0).chain(["Main"]).collect();
    let mut s = new(names[0]);
    for n in 0..4 {
        writeln!(s.out, "int{n} = {{}} \\r {{}} -> I# {{{n}#}}").unwrap();
    }
    s.out.push_str("nil = {} \\r {} -> Nil {}\n\n");
    let mut files = Vec::new();
    for (i, (name, range)) in libraries.into_iter().enumerate() {
        p.tops[range].iter().for_each(|t| s.top(t));
        let done = std::mem::replace(&mut s, new(names[i + 1]));
        files.push((format!("{name}.stg"), done.out));
    }
    p.tops[p.lib..].iter().for_each(|t| s.top(t));
    s.lambda(0, "main", &BTreeSet::new(), "u", &[], &p.main);
    files.push(("Main.stg".to_string(), s.out));
    files
}

/// `if fuel <= 0 then base else let k = fuel - 1 in rec`: a recursion that
/// ends (`rec` calls back with `k`).
fn fuel_guard(fuel: String, base: Expr, k: String, rec: Expr) -> Expr {
    Expr::If(
        Cmp::Le,
        Box::new(Expr::Atom(Atom::Var(fuel.clone()))),
        Box::new(Expr::Atom(Atom::Lit(0))),
        Box::new(base),
        Box::new(Expr::Let(
            Box::new(Bind::Thunk {
                name: k,
                ty: Ty::Int,
                rhs: Expr::Arith(
                    Op::Sub,
                    Box::new(Expr::Atom(Atom::Var(fuel))),
                    Box::new(Expr::Atom(Atom::Lit(1))),
                ),
            }),
            Box::new(rec),
        )),
    )
}
