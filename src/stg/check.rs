//! Static checks (LANGUAGE.md, "Static errors") and the two rewrites the
//! rest of the pipeline relies on: inferred free-variable lists and `\n`
//! normalised to `\r`/`\s`.
//!
//! [`check_program`] walks every module once, left to right, with a scoped
//! environment (a hash map from name to a stack of binders plus an undo log),
//! so it runs in time linear in the size of the program. It never stops at
//! the first problem: every error and warning of the run is returned.
//!
//! # Scoping and globals
//!
//! * A lambda form sees its free variables, its arguments and the globals.
//!   Inner binders (arguments, `let`/`letrec` bindings, case pattern
//!   variables) shadow outer locals and globals.
//! * The module named [`PRELUDE_MODULE`] is the Prelude; every other module is
//!   a user module. User code sees the top-level bindings of every user
//!   module, then the Prelude's (a user binding hides a Prelude binding of the
//!   same name; that is not a duplicate). Prelude code sees only the Prelude's
//!   own bindings. [`Globals::resolve`] implements exactly this rule for the
//!   later stages.
//!
//! # Free-variable lists
//!
//! * A variable of the body that resolves to a local of an enclosing scope is
//!   a free variable of the lambda. When the `{…}` list is omitted it is
//!   inferred; when given, a missing local is an error (pointing at the use,
//!   the list and the local's binder) and a listed local the body does not
//!   use is a warning ("declared but unused free variable"). A missing local
//!   is an error even when a global of the same name exists: the local
//!   shadows the global, so silently reading the global would be a trap.
//! * A name in the list that is not a local but a global is a **warning**
//!   ("globals are never listed"): it is harmless, since the lambda sees the
//!   globals anyway, and it is dropped from the list. A name in the list that
//!   is neither a local nor a global is an **error** (the lambda would capture
//!   nothing). A name listed twice is a warning.
//! * After checking, every lambda's `free` is `Some(list)` holding exactly the
//!   locals its body uses, in order of first use (a left-to-right walk of the
//!   body in which a nested lambda "uses" its own free variables at the place
//!   it is written). A given list is replaced by this list.
//!
//! # Flags
//!
//! `\u`/`\s` with arguments and `\r` without arguments whose body is not a
//! constructor application are errors; `\n` becomes `\r` when it has
//! arguments or its body is a constructor application, `\s` otherwise. After
//! a successful check no [`Flag::NonUpdatable`] remains.
//!
//! # Non-recursive `let`
//!
//! A `let` binding's lambda does not see the names of its own group. A name
//! that would be unbound but is defined by an enclosing non-recursive group
//! is reported as "use `letrec`". When such a name also has an outer
//! binding (a local or a global), it refers to that binding: that is ordinary
//! shadowing, as in ML's `let`, and is not reported.

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

use crate::fx_hash::FxHasher;
use crate::stg::diagnostic::Diagnostic;
use crate::stg::syntax::{
    Alt, Atom, Binding, Expr, ExprKind, Flag, Ident, Lambda, Module, Name, Pattern, Program, Span,
};

/// A hash map with a fast non-cryptographic hash (the checker hashes every
/// identifier it meets; SipHash's protection against collision attacks is not
/// needed for source code the user runs anyway).
type Map<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
type Set<K> = HashSet<K, BuildHasherDefault<FxHasher>>;

/// The name of the bundled Prelude module.
pub const PRELUDE_MODULE: &str = "Prelude";

/// How many unbound-variable errors get a "did you mean" suggestion (each
/// suggestion scans every name in scope, so it is capped to keep a program
/// with thousands of errors linear).
const MAX_SUGGESTIONS: usize = 200;

/// How many cells of edit-distance tables the unbound-variable suggestions
/// compute in all (a fraction of a second's work). A table costs the
/// product of the two names' lengths when they share a long prefix, so
/// without it 200 misspellings of 250-character names beside 200 such
/// globals (a 111 KB file) took 17 s to check, and 1,000-character ones
/// over 3 minutes; now every suggestion whose search does not fit in what
/// is left is not made (none is made from a search cut short, so which
/// name is suggested does not depend on the order names are compared in).
const MAX_SUGGEST_CELLS: usize = 100_000_000;

/// How many cells of edit-distance tables the search for misspelt
/// constructors (matched, never built) computes in all (a fraction of a
/// second's work). The search skips the names whose lengths are too far
/// apart and shares the rows of common prefixes (`BuiltIndex::closest`):
/// 20,000 alternatives `E0` ... `E19999` beside 20,000 built `D0` ...
/// `D19999`, which compared pair by pair took two minutes, take some
/// twenty million cells.
const MAX_CON_CELLS: usize = 200_000_000;

/// Runs every static check over the whole program, rewriting free-variable
/// lists and `\n` flags as described in the module documentation. Returns
/// every error and warning; the program is runnable only when none of them is
/// an error.
pub fn check_program(program: &mut Program) -> Vec<Diagnostic> {
    check(program, true)
}

/// [`check_program`] for a program that is not run (`stg-run --check` or
/// `--print`): a program with no `main` (a library module) is accepted.
/// A `main` that takes arguments is still an error.
pub fn check_library(program: &mut Program) -> Vec<Diagnostic> {
    check(program, false)
}

fn check(program: &mut Program, needs_main: bool) -> Vec<Diagnostic> {
    let mut checker = Checker::default();
    checker.collect_globals(program);
    checker.check_main(program, needs_main);
    for module in &mut program.modules {
        checker.check_module(module);
    }
    checker.report_arity_mismatches();
    checker.report_unbuilt_patterns();
    checker.diags
}

/// Where a global name resolves, following the rule in the module docs.
pub struct Globals {
    user: HashMap<Name, (usize, usize)>,
    prelude: HashMap<Name, (usize, usize)>,
}

impl Globals {
    /// Indexes the top-level bindings of a (checked) program. When a name is
    /// defined twice (which the checker reports), the first definition wins.
    pub fn new(program: &Program) -> Globals {
        let mut user = HashMap::new();
        let mut prelude = HashMap::new();
        for (m, module) in program.modules.iter().enumerate() {
            let table = if is_prelude(module) {
                &mut prelude
            } else {
                &mut user
            };
            for (b, binding) in module.bindings.iter().enumerate() {
                table.entry(binding.name.name.clone()).or_insert((m, b));
            }
        }
        Globals { user, prelude }
    }

    /// The `(module index, binding index)` that `name` denotes in code of the
    /// module `from` (an index into `program.modules`, or any module for
    /// which `from_prelude` says whether it is the Prelude).
    pub fn resolve(&self, from_prelude: bool, name: &str) -> Option<(usize, usize)> {
        if from_prelude {
            self.prelude.get(name).copied()
        } else {
            self.user
                .get(name)
                .or_else(|| self.prelude.get(name))
                .copied()
        }
    }
}

/// Whether a module is the bundled Prelude (by name).
pub fn is_prelude(module: &Module) -> bool {
    module.name == PRELUDE_MODULE
}

/// A local binder: an argument, a let(rec)-bound name or a pattern variable.
struct Binder {
    name: Name,
    span: Span,
    /// The lambda nesting depth it is bound at (1 = the body of a top-level
    /// binding).
    depth: usize,
}

/// The free variables found so far for one lambda being checked.
#[derive(Default)]
struct Frame {
    /// Binder ids, in order of first use.
    free: Vec<usize>,
    /// The first use of each, parallel to `free`.
    first_use: Vec<Span>,
    /// Membership for `free` once it grows large.
    set: Option<Set<usize>>,
}

impl Frame {
    fn contains(&self, id: usize) -> bool {
        match &self.set {
            Some(set) => set.contains(&id),
            None => self.free.contains(&id),
        }
    }

    fn add(&mut self, id: usize, span: Span) {
        if self.contains(id) {
            return;
        }
        self.free.push(id);
        self.first_use.push(span);
        if let Some(set) = &mut self.set {
            set.insert(id);
        } else if self.free.len() > 16 {
            self.set = Some(self.free.iter().copied().collect());
        }
    }
}

enum Resolved {
    Local(usize),
    Global,
    Unbound,
}

#[derive(Default)]
struct Checker {
    diags: Vec<Diagnostic>,
    /// Top-level names of the user modules: first definition and its module.
    user_globals: Map<Name, (Span, Name)>,
    /// Top-level names of the Prelude.
    prelude_globals: Map<Name, Span>,
    /// Whether the module being checked is the Prelude.
    in_prelude: bool,
    /// The first use of each constructor: arity and place.
    con_arity: Map<Name, (usize, Span)>,
    /// Uses of a constructor with an arity other than its first use's,
    /// grouped by (name, arity): the first such use and how many there are.
    arity_mismatches: Map<(Name, usize), (Span, usize)>,
    /// The keys of `arity_mismatches` in the order found.
    arity_mismatch_order: Vec<(Name, usize)>,
    /// Every constructor some expression of the program (Prelude included)
    /// builds.
    built: Set<Name>,
    /// The constructors matched by alternatives of the user's modules: the
    /// first such alternative of each, with its arity, in the order found.
    matched: Vec<(Name, usize, Span)>,
    /// The names in `matched`.
    matched_names: Set<Name>,
    /// Local binders of the current top-level binding, indexed by id.
    binders: Vec<Binder>,
    /// Name to the stack of binder ids in scope (innermost last).
    env: Map<Name, Vec<usize>>,
    /// Binder ids in the order they were brought into scope, for popping.
    scope_log: Vec<usize>,
    /// One frame per lambda being checked, outermost first.
    frames: Vec<Frame>,
    /// Names of the non-recursive `let` groups whose bindings are being
    /// checked, each with the place it is defined (innermost last).
    /// The value is (the binding's name, the group's first binding's name).
    pending_let: Map<Name, Vec<(Span, Span)>>,
    /// Groups already told to use `letrec`, by their first binding's span.
    letrec_reported: Set<Span>,
    suggestions_made: usize,
    /// Cells of edit-distance tables the suggestions have computed
    /// (at most [`MAX_SUGGEST_CELLS`]).
    suggest_cells: usize,
}

impl Checker {
    // ----- globals ---------------------------------------------------------

    fn collect_globals(&mut self, program: &Program) {
        // Sized once: a table that grows holds its old and new arrays at
        // once, at the front end's peak (docs/PERFORMANCE.md, "Large valid
        // input").
        let user_bindings = program
            .modules
            .iter()
            .filter(|m| !is_prelude(m))
            .map(|m| m.bindings.len())
            .sum();
        self.user_globals.reserve(user_bindings);
        for module in &program.modules {
            let module_name = Name::from(&module.name);
            // Duplicates inside one module.
            let mut seen: Map<&str, Span> = Map::default();
            seen.reserve(module.bindings.len());
            for binding in &module.bindings {
                let name = binding.name.name.as_str();
                if let Some(first) = seen.get(name) {
                    self.diags.push(
                        Diagnostic::error(
                            binding.name.span,
                            format!("`{name}` is defined twice in module `{}`", module.name),
                        )
                        .with_label("second definition")
                        .with_related(*first, "first definition")
                        .with_help(format!(
                            "rename or remove one of the two definitions of `{name}`"
                        )),
                    );
                    continue;
                }
                seen.insert(name, binding.name.span);
                if is_prelude(module) {
                    self.prelude_globals
                        .entry(binding.name.name.clone())
                        .or_insert(binding.name.span);
                    continue;
                }
                match self.user_globals.get(name) {
                    Some((first, first_module)) => {
                        self.diags.push(
                            Diagnostic::error(
                                binding.name.span,
                                format!(
                                    "`{name}` is defined in both module `{first_module}` and module `{}`",
                                    module.name
                                ),
                            )
                            .with_label(format!("defined again in module `{}`", module.name))
                            .with_related(*first, format!("first defined in module `{first_module}`"))
                            .with_help(format!(
                                "top-level names are global across all modules: rename one of the two `{name}`s"
                            )),
                        );
                    }
                    None => {
                        self.user_globals.insert(
                            binding.name.name.clone(),
                            (binding.name.span, module_name.clone()),
                        );
                    }
                }
            }
        }
    }

    fn check_main(&mut self, program: &Program, needs_main: bool) {
        let user_modules: Vec<&Module> =
            program.modules.iter().filter(|m| !is_prelude(m)).collect();
        let main = user_modules
            .iter()
            .flat_map(|m| m.bindings.iter())
            .find(|b| b.name.name == "main");
        match main {
            None if !needs_main => {}
            None => {
                let file = user_modules
                    .first()
                    .copied()
                    .or(program.modules.first())
                    .map_or(0, |m| m.file);
                let names: Vec<String> = user_modules
                    .iter()
                    .map(|m| format!("`{}`", m.name))
                    .collect();
                let message = if names.is_empty() {
                    "no user module, so there is no `main` to run".to_string()
                } else {
                    format!("no `main` is defined in {}", names.join(", "))
                };
                self.diags.push(
                    Diagnostic::error(Span::new(file, 0, 0), message)
                        .with_label("`main` is looked for in the user's modules")
                        .with_help(
                            "define the program's entry point, e.g. `main = {} \\u {} -> ...`: the run evaluates `main` and prints its value",
                        ),
                );
            }
            Some(main) if !main.lambda.args.is_empty() => {
                let args = &main.lambda.args;
                let span = args[0].span.to(args[args.len() - 1].span);
                self.diags.push(
                    Diagnostic::error(span, "`main` must not take arguments")
                        .with_label(format!("`main` takes {} here", plural(args.len(), "argument")))
                        .with_related(main.name.span, "`main` is defined here")
                        .with_help(
                            "the run evaluates `main` with no arguments: make it a thunk, e.g. `main = {} \\u {} -> ...`",
                        ),
                );
            }
            Some(_) => {}
        }
    }

    fn is_global(&self, name: &str) -> bool {
        self.prelude_globals.contains_key(name)
            || (!self.in_prelude && self.user_globals.contains_key(name))
    }

    // ----- modules and bindings -------------------------------------------

    fn check_module(&mut self, module: &mut Module) {
        self.in_prelude = is_prelude(module);
        for binding in &mut module.bindings {
            // Every scope opened for the previous binding has been closed, so
            // `env` holds only empty stacks; binder ids start again at 0.
            self.binders.clear();
            self.scope_log.clear();
            self.frames.clear();
            self.check_lambda(&binding.name, &mut binding.lambda);
        }
    }

    /// Brings a binder into scope at the current lambda depth.
    fn bind(&mut self, ident: &Ident) -> usize {
        let id = self.binders.len();
        self.binders.push(Binder {
            name: ident.name.clone(),
            span: ident.span,
            depth: self.frames.len(),
        });
        match self.env.get_mut(ident.name.as_str()) {
            Some(stack) => stack.push(id),
            None => {
                self.env.insert(ident.name.clone(), vec![id]);
            }
        }
        self.scope_log.push(id);
        id
    }

    /// Pops every binder brought into scope since `mark`.
    fn unbind_to(&mut self, mark: usize) {
        while self.scope_log.len() > mark {
            let id = self.scope_log.pop().unwrap_or_default();
            if let Some(stack) = self.env.get_mut(self.binders[id].name.as_str()) {
                stack.pop();
            }
        }
    }

    fn lookup_local(&self, name: &str) -> Option<usize> {
        self.env.get(name).and_then(|s| s.last().copied())
    }

    /// Reports a group of binders that bind the same name twice. In
    /// `message` and `help`, `{name}` stands for the name.
    fn check_distinct(&mut self, idents: &[Ident], message: &str, help: &str) {
        if idents.len() < 2 {
            return;
        }
        let mut seen: Map<&str, Span> = Map::default();
        for ident in idents {
            if let Some(first) = seen.get(ident.name.as_str()) {
                self.diags.push(
                    Diagnostic::error(ident.span, message.replace("{name}", &ident.name))
                        .with_label("bound again here")
                        .with_related(*first, "first bound here")
                        .with_help(help.replace("{name}", &ident.name)),
                );
            } else {
                seen.insert(&ident.name, ident.span);
            }
        }
    }

    fn check_flag(&mut self, name: &Ident, lambda: &mut Lambda) {
        let has_args = !lambda.args.is_empty();
        let con_body = matches!(lambda.body.kind, ExprKind::Con { .. });
        match lambda.flag {
            Flag::Updatable | Flag::SingleEntry if has_args => {
                let args = &lambda.args;
                let span = args[0].span.to(args[args.len() - 1].span);
                let (flag, what) = if lambda.flag == Flag::Updatable {
                    ("\\u", "an updatable thunk")
                } else {
                    ("\\s", "a single-entry thunk")
                };
                self.diags.push(
                    Diagnostic::error(
                        span,
                        format!(
                            "`{}` is marked `{flag}` ({what}) but takes arguments",
                            name.name
                        ),
                    )
                    .with_label("a thunk takes no arguments")
                    .with_related(name.span, "in this binding")
                    .with_help("a function is re-entrant: write `\\r` instead"),
                );
            }
            Flag::Reentrant if !has_args && !con_body => {
                self.diags.push(
                    Diagnostic::error(
                        lambda.body.span,
                        format!(
                            "`{}` is marked `\\r` with no arguments, but its body is not a constructor application",
                            name.name
                        ),
                    )
                    .with_label("this needs evaluating, so the closure is a thunk")
                    .with_related(name.span, "in this binding")
                    .with_help(
                        "`\\r` without arguments is only for values already in head normal form (`C {...}`): use `\\u` for a thunk that is updated, or `\\s` for one entered at most once",
                    ),
                );
            }
            Flag::NonUpdatable => {
                lambda.flag = if has_args || con_body {
                    Flag::Reentrant
                } else {
                    Flag::SingleEntry
                };
            }
            _ => {}
        }
    }

    /// Checks one lambda form bound to `name`, in the current scope (which
    /// holds the locals of the enclosing lambdas), and fills in its free list.
    fn check_lambda(&mut self, name: &Ident, lambda: &mut Lambda) {
        self.check_flag(name, lambda);

        // Resolve the given free list in the enclosing scope.
        let mut declared: Vec<(usize, Span)> = Vec::new();
        let mut list_span = None;
        if let Some(list) = &lambda.free {
            let start = lambda.span.start as usize;
            list_span = Some(match list.last() {
                Some(last) => Span::new(lambda.span.file, start, last.span.end as usize + 1),
                None => Span::new(lambda.span.file, start, start + 1),
            });
            for ident in list {
                match self.lookup_local(&ident.name) {
                    Some(id) => {
                        if let Some((_, first)) = declared.iter().find(|(d, _)| *d == id) {
                            self.diags.push(
                                Diagnostic::warning(
                                    ident.span,
                                    format!("free variable `{}` is listed twice", ident.name),
                                )
                                .with_label("listed again here")
                                .with_related(*first, "first listed here")
                                .with_help("remove the second one"),
                            );
                        } else {
                            declared.push((id, ident.span));
                        }
                    }
                    None if self.is_global(&ident.name) => {
                        self.diags.push(
                            Diagnostic::warning(
                                ident.span,
                                format!(
                                    "`{}` is a global, and globals are never listed as free variables",
                                    ident.name
                                ),
                            )
                            .with_label("global listed as a free variable")
                            .with_help(format!(
                                "remove `{}` from the list; the lambda sees every global anyway",
                                ident.name
                            )),
                        );
                    }
                    None => {
                        if !self.report_let_self_reference(ident) {
                            let mut diag = Diagnostic::error(
                                ident.span,
                                format!("free variable `{}` is not bound here", ident.name),
                            )
                            .with_label("no local or global of this name is in scope")
                            .with_help(format!(
                                "remove `{}` from the free-variable list, or bind it in an enclosing lambda, `let` or case alternative",
                                ident.name
                            ));
                            if let Some(close) = self.suggest(&ident.name) {
                                diag.help = Some(format!(
                                    "did you mean `{close}`? Otherwise remove `{}` from the list",
                                    ident.name
                                ));
                            }
                            self.diags.push(diag);
                        }
                    }
                }
            }
        }

        // The lambda's own scope: its arguments.
        self.check_distinct(
            &lambda.args,
            "duplicate argument `{name}`",
            "each argument needs its own name: rename one of the two `{name}`s",
        );
        self.frames.push(Frame::default());
        let mark = self.scope_log.len();
        for arg in &lambda.args {
            self.bind(arg);
        }
        self.check_expr(&mut lambda.body);
        self.unbind_to(mark);
        let frame = self.frames.pop().unwrap_or_default();

        // Compare with the given list.
        if let Some(list_span) = list_span {
            for (i, &id) in frame.free.iter().enumerate() {
                if declared.iter().any(|(d, _)| *d == id) {
                    continue;
                }
                let var = &self.binders[id].name;
                let mut fixed: Vec<Name> = lambda
                    .free
                    .iter()
                    .flatten()
                    .map(|v| v.name.clone())
                    .collect();
                fixed.push(var.clone());
                self.diags.push(
                    Diagnostic::error(
                        frame.first_use[i],
                        format!(
                            "`{var}` is used in `{}` but missing from its free-variable list",
                            name.name
                        ),
                    )
                    .with_label(format!("`{var}` is used here"))
                    .with_related(list_span, format!("`{var}` is not in this list"))
                    .with_related(
                        self.binders[id].span,
                        format!("`{var}` is bound here, outside the lambda"),
                    )
                    .with_help(format!(
                        "add it to the list: `{{{}}}`, or omit the list to have it inferred",
                        fixed.join(", ")
                    )),
                );
            }
            for &(id, span) in &declared {
                if !frame.contains(id) {
                    self.diags.push(
                        Diagnostic::warning(
                            span,
                            format!(
                                "declared but unused free variable `{}` in `{}`",
                                self.binders[id].name, name.name
                            ),
                        )
                        .with_label("the body never uses it")
                        .with_help("remove it from the free-variable list"),
                    );
                }
            }
        }

        // The free variables of this lambda are uses in the enclosing one.
        let depth = self.frames.len();
        if let Some(parent) = self.frames.last_mut() {
            for (i, &id) in frame.free.iter().enumerate() {
                if self.binders[id].depth < depth {
                    parent.add(id, frame.first_use[i]);
                }
            }
        }

        let free = frame
            .free
            .iter()
            .enumerate()
            .map(|(i, &id)| {
                let span = declared
                    .iter()
                    .find(|(d, _)| *d == id)
                    .map_or(frame.first_use[i], |(_, s)| *s);
                Ident::new(self.binders[id].name.clone(), span)
            })
            .collect();
        lambda.free = Some(free);
    }

    // ----- expressions ------------------------------------------------------

    /// Checks an expression. `let` bodies and `scc` bodies are followed in
    /// a loop, not by recursion: a chain of `let ... in let ... in ...` or
    /// `scc "a" scc "b" ...` is not bounded by the parser's nesting limit.
    /// Everything else nests only as deep as the parser allows.
    fn check_expr(&mut self, mut expr: &mut Expr) {
        // The scopes of a `let` chain end together, after its last body.
        let chain_mark = self.scope_log.len();
        loop {
            let span = expr.span;
            match &mut expr.kind {
                ExprKind::Let {
                    rec,
                    bindings,
                    body,
                } => {
                    if bindings.len() > 1 {
                        let names: Vec<Ident> = bindings.iter().map(|b| b.name.clone()).collect();
                        self.check_distinct(
                    &names,
                    if *rec {
                        "`{name}` is defined twice in one `letrec` group"
                    } else {
                        "`{name}` is defined twice in one `let` group"
                    },
                    "a group binds each name once: rename or remove one of the two `{name}`s",
                );
                    }
                    if *rec {
                        for b in bindings.iter() {
                            self.bind(&b.name);
                        }
                        for b in bindings.iter_mut() {
                            self.check_binding(b);
                        }
                    } else {
                        let group = bindings.first().map_or(span, |b| b.name.span);
                        for b in bindings.iter() {
                            self.pending_let
                                .entry(b.name.name.clone())
                                .or_default()
                                .push((b.name.span, group));
                        }
                        for b in bindings.iter_mut() {
                            self.check_binding(b);
                        }
                        for b in bindings.iter() {
                            if let Some(stack) = self.pending_let.get_mut(b.name.name.as_str()) {
                                stack.pop();
                            }
                        }
                        for b in bindings.iter() {
                            self.bind(&b.name);
                        }
                    }
                    expr = body;
                    continue;
                }
                ExprKind::Case { scrutinee, alts } => {
                    self.check_expr(scrutinee);
                    self.check_alts(span, alts);
                    for alt in alts.iter_mut() {
                        let mark = self.scope_log.len();
                        match &alt.pattern {
                            Pattern::Con { con, vars } => {
                                self.check_con_arity(con, vars.len());
                                if !self.in_prelude && !self.matched_names.contains(&con.name) {
                                    self.matched_names.insert(con.name.clone());
                                    self.matched.push((con.name.clone(), vars.len(), con.span));
                                }
                                self.check_distinct(
                                vars,
                                "pattern variable `{name}` is bound twice in one alternative",
                                "each field needs its own name: rename one of the two `{name}`s (an ignored field still needs a fresh name, such as `_1`)",
                            );
                                for v in vars {
                                    self.bind(v);
                                }
                            }
                            Pattern::Var(v) => {
                                self.bind(v);
                            }
                            Pattern::Lit(..) | Pattern::Default(_) => {}
                        }
                        self.check_expr(&mut alt.body);
                        self.unbind_to(mark);
                    }
                }
                ExprKind::Scc {
                    label,
                    label_span,
                    body,
                } => {
                    self.check_scc_label(label, *label_span);
                    expr = body;
                    continue;
                }
                ExprKind::App { fun, args } => {
                    self.use_var(fun);
                    self.check_atoms(args);
                }
                ExprKind::Con { con, args } => {
                    self.check_con_arity(con, args.len());
                    if !self.built.contains(&con.name) {
                        self.built.insert(con.name.clone());
                    }
                    self.check_atoms(args);
                }
                ExprKind::Prim { op, args, .. } => {
                    if args.len() != op.arity() {
                        let expected = op.arity();
                        let example = if expected == 1 { "{x}" } else { "{x, y}" };
                        self.diags.push(
                            Diagnostic::error(
                                span,
                                format!(
                                    "`{}` takes {expected} argument{}, but is given {}",
                                    op.as_str(),
                                    if expected == 1 { "" } else { "s" },
                                    args.len()
                                ),
                            )
                            .with_label(format!("applied to {}", plural(args.len(), "argument")))
                            .with_help(format!(
                                "a primitive is always saturated: write `{} {example}`",
                                op.as_str()
                            )),
                        );
                    }
                    self.check_atoms(args);
                }
                ExprKind::Lit(_) => {}
            }
            break;
        }
        self.unbind_to(chain_mark);
    }

    fn check_binding(&mut self, binding: &mut Binding) {
        let Binding { name, lambda } = binding;
        self.check_lambda(name, lambda);
    }

    fn check_atoms(&mut self, atoms: &[Atom]) {
        for atom in atoms {
            if let Atom::Var(v) = atom {
                self.use_var(v);
            }
        }
    }

    /// Labels that do not give a cost centre of their own: the empty one,
    /// and `CAF`, which is the module's built-in cost centre (LANGUAGE.md:
    /// one label, one cost centre in a module).
    fn check_scc_label(&mut self, label: &str, span: Span) {
        let (what, help) = match label {
            "" => (
                "an empty cost-centre label",
                "give it a name: reports show it as a blank line",
            ),
            "CAF" => (
                "`scc \"CAF\"` is the module's built-in CAF cost centre",
                "its costs merge with those of the module's top-level thunks; pick another name",
            ),
            _ => return,
        };
        self.diags.push(
            Diagnostic::warning(span, what.to_string())
                .with_label("this label")
                .with_help(help),
        );
    }

    fn check_con_arity(&mut self, con: &Ident, arity: usize) {
        match self.con_arity.get(con.name.as_str()) {
            Some(&(first, _)) if first != arity => {
                let key = (con.name.clone(), arity);
                match self.arity_mismatches.get_mut(&key) {
                    Some((_, count)) => *count += 1,
                    None => {
                        self.arity_mismatches.insert(key.clone(), (con.span, 1));
                        self.arity_mismatch_order.push(key);
                    }
                }
            }
            Some(_) => {}
            None => {
                self.con_arity.insert(con.name.clone(), (arity, con.span));
            }
        }
    }

    /// One error per constructor and wrong arity, at its first use, naming
    /// the first use of the constructor and how many uses are affected.
    fn report_arity_mismatches(&mut self) {
        for key in std::mem::take(&mut self.arity_mismatch_order) {
            let (name, arity) = &key;
            let Some(&(span, count)) = self.arity_mismatches.get(&key) else {
                continue;
            };
            let Some(&(first, first_span)) = self.con_arity.get(name) else {
                continue;
            };
            let fields = |n: usize| plural(n, "field");
            let more = if count > 1 {
                format!(
                    " (and in {} more place{})",
                    count - 1,
                    if count == 2 { "" } else { "s" }
                )
            } else {
                String::new()
            };
            self.diags.push(
                Diagnostic::error(
                    span,
                    format!(
                        "constructor `{name}` is used with {} here{more} but with {} elsewhere",
                        fields(*arity),
                        fields(first)
                    ),
                )
                .with_label(format!("{} here", fields(*arity)))
                .with_related(first_span, format!("first used with {} here", fields(first)))
                .with_help(format!(
                    "every use of `{name}` must have the same number of fields; if these are different constructors, give them different names"
                )),
            );
        }
    }

    /// Constructors need no declaration, so a misspelt one in a pattern is
    /// legal and its alternative silently never matches. When a user's
    /// alternative matches a constructor that no expression of the program
    /// builds, and a constructor of the same arity that is built has a close
    /// name, that is almost surely a typo: a warning says so. (Without a
    /// close name it may be a deliberately complete case, and nothing is
    /// said.) The close names are searched for in a [`BuiltIndex`], at most
    /// [`MAX_CON_CELLS`] cells of edit-distance tables in all: the constructors are
    /// taken in the order their first alternatives come, and those left
    /// when the budget is spent get no warning.
    fn report_unbuilt_patterns(&mut self) {
        let matched = std::mem::take(&mut self.matched);
        if matched.iter().all(|(name, _, _)| self.built.contains(name)) {
            return;
        }
        let index = BuiltIndex::new(&self.built, &self.con_arity);
        let mut rows = PrefixRows::default();
        let mut budget = MAX_CON_CELLS;
        for (name, arity, span) in matched {
            if self.built.contains(&name) {
                continue;
            }
            if let Some(close) = index.closest(&name, arity, &mut rows, &mut budget) {
                self.diags.push(
                    Diagnostic::warning(
                        span,
                        format!("no expression in the program builds a `{name}`, so this alternative never matches"),
                    )
                    .with_label(format!("`{name}` is only ever matched"))
                    .with_help(format!(
                        "did you mean `{close}`? Constructors need no declaration, so a misspelt one is a different constructor"
                    )),
                );
            }
        }
    }

    /// A variable occurrence in a body.
    fn use_var(&mut self, ident: &Ident) {
        match self.resolve(&ident.name) {
            Resolved::Local(id) => {
                let depth = self.frames.len();
                if self.binders[id].depth < depth
                    && let Some(frame) = self.frames.last_mut()
                {
                    frame.add(id, ident.span);
                }
            }
            Resolved::Global => {}
            Resolved::Unbound => {
                if self.report_let_self_reference(ident) {
                    return;
                }
                let mut diag =
                    Diagnostic::error(ident.span, format!("unbound variable `{}`", ident.name))
                        .with_label("not an argument, free variable, local binding or global");
                diag = match self.suggest(&ident.name) {
                    Some(close) => diag.with_help(format!(
                        "did you mean `{close}`? Otherwise define `{}`, at top level or in an enclosing `let`",
                        ident.name
                    )),
                    None => diag.with_help(format!(
                        "define `{}` at top level, or bind it in an enclosing lambda, `let` or case alternative",
                        ident.name
                    )),
                };
                self.diags.push(diag);
            }
        }
    }

    fn resolve(&self, name: &str) -> Resolved {
        if let Some(id) = self.lookup_local(name) {
            Resolved::Local(id)
        } else if self.is_global(name) {
            Resolved::Global
        } else {
            Resolved::Unbound
        }
    }

    /// When an unbound name is defined by an enclosing non-recursive `let`
    /// group, reports "use letrec" (once per group) and returns true.
    fn report_let_self_reference(&mut self, ident: &Ident) -> bool {
        let Some(&(def, group)) = self
            .pending_let
            .get(ident.name.as_str())
            .and_then(|s| s.last())
        else {
            return false;
        };
        if self.letrec_reported.insert(group) {
            self.diags.push(
                Diagnostic::error(
                    ident.span,
                    format!(
                        "`{}` refers to its own `let` group, but `let` is not recursive",
                        ident.name
                    ),
                )
                .with_label("used inside the group that defines it")
                .with_related(def, "defined by this non-recursive `let`")
                .with_help("use `letrec` instead of `let` for bindings that refer to each other or themselves"),
            );
        }
        true
    }

    /// A name in scope close to `name`, if there is one: none once
    /// [`MAX_SUGGESTIONS`] suggestions have been searched for or their
    /// tables have taken [`MAX_SUGGEST_CELLS`] cells (the search that
    /// reaches the limit suggests nothing).
    fn suggest(&mut self, name: &str) -> Option<String> {
        if self.suggestions_made >= MAX_SUGGESTIONS || self.suggest_cells >= MAX_SUGGEST_CELLS {
            return None;
        }
        self.suggestions_made += 1;
        // One edit per three characters: `xss` may be `xs`, but `y` is not `f`.
        let limit = name.chars().count() / 3;
        if limit == 0 {
            return None;
        }
        let locals = self
            .env
            .iter()
            .filter(|(_, stack)| !stack.is_empty())
            .map(|(n, _)| n.as_str());
        let prelude = self.prelude_globals.keys().map(Name::as_str);
        let user = self
            .user_globals
            .keys()
            .filter(|_| !self.in_prelude)
            .map(Name::as_str);
        let chars: Vec<char> = name.chars().collect();
        let mut letters = Letters::of(name);
        let mut rows = EditRows::default();
        let mut other = Vec::new();
        let mut budget = MAX_SUGGEST_CELLS - self.suggest_cells;
        let mut best: Option<(usize, &str)> = None;
        let mut spent = false;
        for c in locals.chain(prelude).chain(user) {
            if c == name
                || c.chars().count().abs_diff(chars.len()) > limit
                || letters.as_mut().is_some_and(|l| l.too_far(c, limit))
            {
                continue;
            }
            other.clear();
            other.extend(c.chars());
            match rows.within(&chars, &other, limit, &mut budget) {
                Ok(Some(d)) => best = Some(best.map_or((d, c), |b| b.min((d, c)))),
                Ok(None) => {}
                Err(Spent) => {
                    spent = true;
                    break;
                }
            }
        }
        self.suggest_cells = MAX_SUGGEST_CELLS - budget;
        if spent {
            self.suggest_cells = MAX_SUGGEST_CELLS;
            return None;
        }
        best.map(|(_, c)| c.to_string())
    }

    // ----- case alternatives ------------------------------------------------

    fn check_alts(&mut self, case_span: Span, alts: &[Alt]) {
        let first_con = alts
            .iter()
            .find(|a| matches!(a.pattern, Pattern::Con { .. }));
        let first_lit = alts.iter().find(|a| matches!(a.pattern, Pattern::Lit(..)));
        if let (Some(con), Some(lit)) = (first_con, first_lit) {
            let (later, earlier, later_kind, earlier_kind) = if con.span.start > lit.span.start {
                (con, lit, "constructor", "literal")
            } else {
                (lit, con, "literal", "constructor")
            };
            self.diags.push(
                Diagnostic::error(
                    pattern_span(&later.pattern, later.span),
                    "this case mixes constructor and literal alternatives",
                )
                .with_label(format!("a {later_kind} alternative"))
                .with_related(
                    pattern_span(&earlier.pattern, earlier.span),
                    format!("after a {earlier_kind} alternative"),
                )
                .with_help(
                    "a case scrutinises either a constructor value or an `Int#`: make every alternative match the same kind",
                ),
            );
        }

        let defaults: Vec<&Alt> = alts.iter().filter(|a| a.pattern.is_default()).collect();
        if defaults.len() > 1 {
            for extra in &defaults[1..] {
                self.diags.push(
                    Diagnostic::error(
                        pattern_span(&extra.pattern, extra.span),
                        "this case has more than one default alternative",
                    )
                    .with_label("another default")
                    .with_related(
                        pattern_span(&defaults[0].pattern, defaults[0].span),
                        "the first default",
                    )
                    .with_help("keep one default alternative, as the last one"),
                );
            }
        } else if let Some(default) = defaults.first()
            && let Some(last) = alts.last()
            && !last.pattern.is_default()
        {
            self.diags.push(
                Diagnostic::error(
                    pattern_span(&default.pattern, default.span),
                    "the default alternative must be the last one",
                )
                .with_label("default before other alternatives")
                .with_related(case_span_head(case_span), "in this case")
                .with_help("move it to the end: alternatives after a default could never match"),
            );
        }

        let mut cons: Map<&str, Span> = Map::default();
        let mut lits: Map<i64, Span> = Map::default();
        for alt in alts {
            let (key_span, first) = match &alt.pattern {
                Pattern::Con { con, .. } => {
                    let first = cons.get(con.name.as_str()).copied();
                    if first.is_none() {
                        cons.insert(&con.name, con.span);
                    }
                    (
                        con.span,
                        first.map(|f| (f, format!("constructor `{}`", con.name))),
                    )
                }
                Pattern::Lit(k, s) => {
                    let first = lits.get(k).copied();
                    if first.is_none() {
                        lits.insert(*k, *s);
                    }
                    (*s, first.map(|f| (f, format!("literal `{k}#`"))))
                }
                _ => continue,
            };
            if let Some((first, what)) = first {
                self.diags.push(
                    Diagnostic::error(
                        key_span,
                        format!("{what} has two alternatives in this case"),
                    )
                    .with_label("this alternative can never match")
                    .with_related(first, "the first alternative for it")
                    .with_help("remove one of them, or merge their bodies"),
                );
            }
        }
    }
}

fn pattern_span(pattern: &Pattern, alt_span: Span) -> Span {
    match pattern {
        Pattern::Con { con, vars } => match vars.last() {
            Some(v) => con.span.to(v.span),
            None => con.span,
        },
        Pattern::Lit(_, s) | Pattern::Default(s) => *s,
        Pattern::Var(v) => v.span,
    }
    .to(Span {
        end: alt_span.start,
        ..alt_span
    })
}

/// The `case` keyword of a case expression's span.
fn case_span_head(span: Span) -> Span {
    Span {
        end: span.start.saturating_add(4).min(span.end),
        ..span
    }
}

/// `1 field`, `2 fields`.
fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// The constructors some expression builds, each with its characters, in
/// lists by arity and length (in characters), each list sorted: the
/// candidates for a misspelt constructor's close name. Two names within
/// an edit distance of `k` have lengths within `k`, so a name is compared
/// only with the lists of its own arity and of lengths near its own, and
/// not with every built constructor (10,000 matched names beside 10,000
/// built ones of other lengths made 100 million comparisons, each
/// allocating).
struct BuiltIndex {
    lists: Map<(usize, usize), NameList>,
}

/// Names, each with its characters, sorted.
type NameList = Vec<(Name, Vec<char>)>;

impl BuiltIndex {
    /// Indexes `built` by the arity of each constructor's first use.
    fn new(built: &Set<Name>, con_arity: &Map<Name, (usize, Span)>) -> BuiltIndex {
        let mut lists: Map<(usize, usize), NameList> = Map::default();
        for name in built {
            if let Some(&(arity, _)) = con_arity.get(name) {
                let chars: Vec<char> = name.chars().collect();
                lists
                    .entry((arity, chars.len()))
                    .or_default()
                    .push((name.clone(), chars));
            }
        }
        for list in lists.values_mut() {
            list.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        }
        BuiltIndex { lists }
    }

    /// The built constructor of `arity` closest to `name` other than `name`
    /// itself, within one edit per three characters (at least one): the
    /// least edit distance, then the first name in `str` order, exactly as
    /// comparing `name` with every built constructor would choose. A list
    /// is walked in order as a trie: a name's table shares its rows with
    /// the name before it for their common prefix, and once a prefix's row
    /// is all above the distance still worth finding, every name that
    /// starts with it is skipped. Each cell of the tables computed costs
    /// one of `budget`; `None` when there is no such constructor, or when
    /// the budget ran out before the search could end.
    fn closest(
        &self,
        name: &str,
        arity: usize,
        rows: &mut PrefixRows,
        budget: &mut usize,
    ) -> Option<&Name> {
        let chars: Vec<char> = name.chars().collect();
        let len = chars.len();
        let limit = (len / 3).max(1);
        let mut best: Option<(usize, &Name)> = None;
        // Lengths nearest first, where the closest names most likely are:
        // a close one found early makes the search stop sooner.
        for step in 0..=2 * limit {
            let other_len = if step % 2 == 0 {
                len + step / 2
            } else if let Some(l) = len.checked_sub(step.div_ceil(2)) {
                l
            } else {
                continue;
            };
            if other_len.abs_diff(len) > best.map_or(limit, |(d, _)| d) {
                continue;
            }
            let Some(list) = self.lists.get(&(arity, other_len)) else {
                continue;
            };
            rows.start(&chars);
            let mut k = 0;
            'names: while let Some((other, other_chars)) = list.get(k) {
                if let Some((d, b)) = best {
                    // Distinct names are at least one edit apart: after a
                    // name one edit away, only a name before it in the
                    // (sorted) list can be chosen.
                    if d == 1 && other >= b {
                        break;
                    }
                }
                let bound = best.map_or(limit, |(d, _)| d);
                rows.keep_common_prefix(other_chars);
                while rows.depth() < other_chars.len() {
                    *budget = budget.checked_sub(len + 1)?;
                    if rows.push(&chars, other_chars[rows.depth()]) > bound {
                        // No name starting so is within `bound`.
                        let prefix = &other_chars[..rows.depth()];
                        k += list[k..].partition_point(|(_, c)| c.starts_with(prefix));
                        continue 'names;
                    }
                }
                if let Some(d) = rows.distance()
                    && d <= bound
                    && other != name
                    && best.is_none_or(|b| (d, other) < b)
                {
                    best = Some((d, other));
                }
                k += 1;
            }
        }
        best.map(|(_, c)| c)
    }
}

/// The rows of the edit-distance tables between a name and the names of a
/// sorted list, one after the other: row `i` holds the distances between
/// the name's prefixes and the first `i` characters of a name of the list,
/// so the rows of a prefix two names share are computed once.
#[derive(Default)]
struct PrefixRows {
    /// The characters whose rows are computed (a prefix of a list's name).
    prefix: Vec<char>,
    /// `rows[i]` for `i` up to `prefix.len()`; those beyond are kept only
    /// for their allocations.
    rows: Vec<Vec<usize>>,
}

impl PrefixRows {
    /// Starts the tables with `name`: only the empty prefix's row.
    fn start(&mut self, name: &[char]) {
        self.prefix.clear();
        if self.rows.is_empty() {
            self.rows.push(Vec::new());
        }
        self.rows[0].clear();
        self.rows[0].extend(0..=name.len());
    }

    /// How many characters of the list's name the rows cover.
    fn depth(&self) -> usize {
        self.prefix.len()
    }

    /// Keeps the rows of the prefix `other` shares with the last name.
    fn keep_common_prefix(&mut self, other: &[char]) {
        let common = self
            .prefix
            .iter()
            .zip(other)
            .take_while(|(a, b)| a == b)
            .count();
        self.prefix.truncate(common);
    }

    /// Computes the row of the prefix extended by `c`, and returns its
    /// least cell: when that is above a limit, so is every later row's
    /// (each row's least cell is at most one more than the row before's,
    /// and a swap reaches back two rows at the cost of one edit), and no
    /// name starting with this prefix is within the limit.
    fn push(&mut self, name: &[char], c: char) -> usize {
        let i = self.prefix.len() + 1;
        self.prefix.push(c);
        if self.rows.len() <= i {
            self.rows.push(Vec::new());
        }
        let (done, rest) = self.rows.split_at_mut(i);
        let cur = &mut rest[0];
        let prev = &done[i - 1];
        cur.clear();
        cur.push(i);
        let mut row_min = i;
        for j in 1..=name.len() {
            let cost = usize::from(name[j - 1] != c);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && name[j - 1] == self.prefix[i - 2] && name[j - 2] == c {
                v = v.min(done[i - 2][j - 2] + 1);
            }
            cur.push(v);
            row_min = row_min.min(v);
        }
        row_min
    }

    /// The edit distance between the name and the prefix.
    fn distance(&self) -> Option<usize> {
        self.rows.get(self.prefix.len())?.last().copied()
    }
}

/// Edit distance between `a` and `b`, if it is at most `limit`: insertions,
/// deletions, substitutions and swaps of two neighbours (`lenght` is one
/// edit from `length`) each count one (the optimal string alignment
/// distance).
#[cfg(test)]
fn edit_distance(a: &str, b: &str, limit: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut budget = usize::MAX;
    EditRows::default()
        .within(&a, &b, limit, &mut budget)
        .unwrap()
}

/// How many times each ASCII character occurs in a name: a lower bound
/// of its edit distance to another, without a table.
struct Letters {
    counts: [i32; 128],
    len: usize,
}

impl Letters {
    /// The letters of `name`, if it is ASCII (as every identifier is).
    fn of(name: &str) -> Option<Letters> {
        let mut counts = [0; 128];
        for b in name.bytes() {
            *counts.get_mut(usize::from(b))? += 1;
        }
        Some(Letters {
            counts,
            len: name.len(),
        })
    }

    /// Whether `other` is surely more than `limit` edits away: each edit
    /// (insertion, deletion, substitution, swap of neighbours) changes by
    /// at most one the characters one name has more of than the other.
    /// False for a name not ASCII. (The counts are taken down by
    /// `other`'s characters and put back, in time linear in its length.)
    fn too_far(&mut self, other: &str, limit: usize) -> bool {
        if !other.is_ascii() {
            return false;
        }
        // The characters of the name not matched by one of `other`, and
        // those of `other` not matched by one of the name.
        let (mut more, mut fewer) = (self.len, 0);
        for b in other.bytes() {
            let n = &mut self.counts[usize::from(b)];
            if *n > 0 {
                more -= 1;
            } else {
                fewer += 1;
            }
            *n -= 1;
        }
        for b in other.bytes() {
            self.counts[usize::from(b)] += 1;
        }
        more.max(fewer) > limit
    }
}

/// A search ran out of its budget of table cells.
#[derive(Debug)]
struct Spent;

/// The rows of the edit-distance table, kept from one comparison to the
/// next so that comparing a name with thousands allocates nothing.
#[derive(Default)]
struct EditRows {
    /// Rows i-2, i-1 and i of the table.
    before: Vec<usize>,
    prev: Vec<usize>,
    cur: Vec<usize>,
}

impl EditRows {
    /// The edit distance between `a` and `b`, if it is at most `limit`:
    /// insertions, deletions, substitutions and swaps of two neighbours
    /// (`lenght` is one edit from `length`) each count one (the optimal
    /// string alignment distance). Each row computed costs `b.len() + 1`
    /// cells of `budget`; `Err` when the next row would cost more than is left.
    fn within(
        &mut self,
        a: &[char],
        b: &[char],
        limit: usize,
        budget: &mut usize,
    ) -> Result<Option<usize>, Spent> {
        if a.len().abs_diff(b.len()) > limit {
            return Ok(None);
        }
        let EditRows { before, prev, cur } = self;
        before.clear();
        before.resize(b.len() + 1, 0);
        prev.clear();
        prev.extend(0..=b.len());
        cur.clear();
        cur.resize(b.len() + 1, 0);
        for i in 1..=a.len() {
            *budget = budget.checked_sub(b.len() + 1).ok_or(Spent)?;
            cur[0] = i;
            let mut row_min = cur[0];
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    cur[j] = cur[j].min(before[j - 2] + 1);
                }
                row_min = row_min.min(cur[j]);
            }
            if row_min > limit {
                return Ok(None);
            }
            std::mem::swap(before, prev);
            std::mem::swap(prev, cur);
        }
        let d = prev[b.len()];
        Ok((d <= limit).then_some(d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stg::syntax::PrimOp;
    use std::cell::Cell;

    thread_local!(static POS: Cell<usize> = const { Cell::new(0) });

    /// A fresh span, so every node of a hand-built tree has its own place.
    fn sp() -> Span {
        POS.with(|p| {
            let s = p.get();
            p.set(s + 2);
            Span::new(0, s, s + 1)
        })
    }
    fn id(n: &str) -> Ident {
        Ident::new(n, sp())
    }
    fn ex(kind: ExprKind) -> Expr {
        Expr { kind, span: sp() }
    }
    fn atoms(xs: &[&str]) -> Vec<Atom> {
        xs.iter().map(|x| Atom::Var(id(x))).collect()
    }
    fn app(f: &str, xs: &[&str]) -> Expr {
        ex(ExprKind::App {
            fun: id(f),
            args: atoms(xs).into(),
        })
    }
    fn con(c: &str, xs: &[&str]) -> Expr {
        ex(ExprKind::Con {
            con: id(c),
            args: atoms(xs).into(),
        })
    }
    fn lam(free: Option<&[&str]>, flag: Flag, args: &[&str], body: Expr) -> Lambda {
        Lambda {
            free: free.map(|f| f.iter().map(|x| id(x)).collect()),
            flag,
            args: args.iter().map(|x| id(x)).collect(),
            body,
            span: sp(),
        }
    }
    fn bind(name: &str, lambda: Lambda) -> Binding {
        Binding {
            name: id(name),
            lambda,
        }
    }
    fn let_(rec: bool, bindings: Vec<Binding>, body: Expr) -> Expr {
        ex(ExprKind::Let {
            rec,
            bindings: bindings.into(),
            body: Box::new(body),
        })
    }
    fn alt(pattern: Pattern, body: Expr) -> Alt {
        Alt {
            pattern,
            body,
            span: sp(),
        }
    }
    fn pcon(c: &str, xs: &[&str]) -> Pattern {
        Pattern::Con {
            con: id(c),
            vars: xs.iter().map(|x| id(x)).collect(),
        }
    }
    fn case(scrutinee: Expr, alts: Vec<Alt>) -> Expr {
        ex(ExprKind::Case {
            scrutinee: Box::new(scrutinee),
            alts: alts.into(),
        })
    }
    fn program(modules: Vec<(&str, Vec<Binding>)>) -> Program {
        Program {
            modules: modules
                .into_iter()
                .enumerate()
                .map(|(i, (name, bindings))| Module {
                    name: name.into(),
                    file: i as u32,
                    bindings,
                })
                .collect(),
        }
    }
    fn main_unit() -> Binding {
        bind(
            "main",
            lam(Some(&[]), Flag::Updatable, &[], con("Unit", &[])),
        )
    }
    fn free_of(l: &Lambda) -> Vec<String> {
        l.free
            .iter()
            .flatten()
            .map(|v| v.name.to_string())
            .collect()
    }
    fn messages(d: &[Diagnostic]) -> Vec<String> {
        d.iter()
            .map(|d| {
                format!(
                    "{}: {}",
                    if d.is_error() { "error" } else { "warning" },
                    d.message
                )
            })
            .collect()
    }
    /// The lambdas of a `let` expression's bindings.
    fn let_lambdas(e: &Expr) -> Vec<&Lambda> {
        match &e.kind {
            ExprKind::Let { bindings, .. } => bindings.iter().map(|b| &b.lambda).collect(),
            _ => panic!("not a let"),
        }
    }

    /// The paper's `map` with its inner free lists omitted.
    fn paper_map() -> Binding {
        let inner = let_(
            false,
            vec![
                bind("fy", lam(None, Flag::Updatable, &[], app("f", &["y"]))),
                bind(
                    "mfy",
                    lam(None, Flag::Updatable, &[], app("map", &["f", "ys"])),
                ),
            ],
            con("Cons", &["fy", "mfy"]),
        );
        let body = case(
            app("xs", &[]),
            vec![
                alt(pcon("Nil", &[]), con("Nil", &[])),
                alt(pcon("Cons", &["y", "ys"]), inner),
            ],
        );
        bind(
            "map",
            lam(Some(&[]), Flag::NonUpdatable, &["f", "xs"], body),
        )
    }

    #[test]
    fn infers_free_lists_and_normalises_flags() {
        let mut p = program(vec![("m", vec![paper_map(), main_unit()])]);
        let d = check_program(&mut p);
        assert!(d.is_empty(), "{:?}", messages(&d));
        let map = &p.modules[0].bindings[0].lambda;
        assert_eq!(map.flag, Flag::Reentrant);
        assert_eq!(free_of(map), Vec::<String>::new());
        let ExprKind::Case { alts, .. } = &map.body.kind else {
            panic!()
        };
        let inner = let_lambdas(&alts[1].body);
        assert_eq!(free_of(inner[0]), ["f", "y"]);
        assert_eq!(free_of(inner[1]), ["f", "ys"]);
    }

    #[test]
    fn free_variables_propagate_through_nested_lambdas_in_first_use_order() {
        // main = \u {} -> let a = .. ; b = .. in
        //   let g = \u {} -> let h = \u {} -> f {b, a} in h {} in g {}
        let h = bind("h", lam(None, Flag::Updatable, &[], app("f", &["b", "a"])));
        let g = bind(
            "g",
            lam(
                None,
                Flag::Updatable,
                &[],
                let_(false, vec![h], app("h", &[])),
            ),
        );
        let body = let_(
            false,
            vec![
                bind("a", lam(None, Flag::Reentrant, &[], con("A", &[]))),
                bind("b", lam(None, Flag::NonUpdatable, &[], con("B", &[]))),
            ],
            let_(false, vec![g], app("g", &[])),
        );
        let f = bind("f", lam(None, Flag::Reentrant, &["x", "y"], app("x", &[])));
        let mut p = program(vec![(
            "m",
            vec![f, bind("main", lam(None, Flag::Updatable, &[], body))],
        )]);
        let d = check_program(&mut p);
        assert!(d.is_empty(), "{:?}", messages(&d));
        let ExprKind::Let { body, .. } = &p.modules[0].bindings[1].lambda.body.kind else {
            panic!()
        };
        let g = let_lambdas(body)[0];
        assert_eq!(free_of(g), ["b", "a"]);
        let ExprKind::Let { bindings, .. } = &g.body.kind else {
            panic!()
        };
        assert_eq!(free_of(&bindings[0].lambda), ["b", "a"]);
        assert_eq!(
            free_of(&p.modules[0].bindings[0].lambda),
            Vec::<String>::new()
        );
    }

    #[test]
    fn missing_stray_and_global_free_variables() {
        let inner = let_(
            false,
            vec![bind(
                "t",
                lam(
                    Some(&["x", "z", "g"]),
                    Flag::Updatable,
                    &[],
                    app("g", &["x", "y"]),
                ),
            )],
            app("t", &[]),
        );
        let g = bind("g", lam(None, Flag::Reentrant, &["x", "y", "z"], inner));
        let mut p = program(vec![("m", vec![g, main_unit()])]);
        let d = messages(&check_program(&mut p));
        assert_eq!(
            d,
            [
                "warning: `g` is a global, and globals are never listed as free variables",
                "error: `y` is used in `t` but missing from its free-variable list",
                "warning: declared but unused free variable `z` in `t`",
            ]
        );
        // The list is rewritten to what the body uses.
        let ExprKind::Let { bindings, .. } = &p.modules[0].bindings[0].lambda.body.kind else {
            panic!()
        };
        assert_eq!(free_of(&bindings[0].lambda), ["x", "y"]);
    }

    #[test]
    fn shadowing_a_global_makes_a_free_variable() {
        // f = \r {map} -> let t = \u {} -> map {} in t {}: `map` is the argument.
        let inner = let_(
            false,
            vec![bind("t", lam(None, Flag::Updatable, &[], app("map", &[])))],
            app("t", &[]),
        );
        let mut p = program(vec![(
            "m",
            vec![
                paper_map(),
                bind("f", lam(None, Flag::Reentrant, &["map"], inner)),
                main_unit(),
            ],
        )]);
        assert!(check_program(&mut p).is_empty());
        let ExprKind::Let { bindings, .. } = &p.modules[0].bindings[1].lambda.body.kind else {
            panic!()
        };
        assert_eq!(free_of(&bindings[0].lambda), ["map"]);
    }

    #[test]
    fn let_is_not_recursive_but_letrec_is() {
        let body = |rec| {
            let_(
                rec,
                vec![bind("xs", lam(None, Flag::Updatable, &[], app("xs", &[])))],
                app("xs", &[]),
            )
        };
        let mut p = program(vec![(
            "m",
            vec![bind("main", lam(None, Flag::Updatable, &[], body(false)))],
        )]);
        assert_eq!(
            messages(&check_program(&mut p)),
            ["error: `xs` refers to its own `let` group, but `let` is not recursive"]
        );
        let mut p = program(vec![(
            "m",
            vec![bind("main", lam(None, Flag::Updatable, &[], body(true)))],
        )]);
        assert!(check_program(&mut p).is_empty());
    }

    #[test]
    fn flags_and_primitives() {
        let prim = ex(ExprKind::Prim {
            op: PrimOp::Add,
            op_span: sp(),
            args: atoms(&["x"]).into(),
        });
        let mut p = program(vec![(
            "m",
            vec![
                bind("a", lam(None, Flag::Updatable, &["x"], prim)),
                bind("b", lam(None, Flag::Reentrant, &[], app("a", &[]))),
                bind("c", lam(None, Flag::NonUpdatable, &[], app("a", &[]))),
                main_unit(),
            ],
        )]);
        let d = messages(&check_program(&mut p));
        assert_eq!(
            d,
            [
                "error: `a` is marked `\\u` (an updatable thunk) but takes arguments",
                "error: `+#` takes 2 arguments, but is given 1",
                "error: `b` is marked `\\r` with no arguments, but its body is not a constructor application",
            ]
        );
        assert_eq!(p.modules[0].bindings[2].lambda.flag, Flag::SingleEntry);
    }

    #[test]
    fn globals_across_modules_and_main() {
        let one = |n: &str| bind(n, lam(None, Flag::Reentrant, &[], con("One", &[])));
        // A user binding may hide a Prelude one; two user modules may not share one.
        let mut p = program(vec![
            ("Prelude", vec![one("x"), one("main")]),
            ("a", vec![one("x"), one("y")]),
            ("b", vec![one("y"), one("y")]),
        ]);
        assert_eq!(
            messages(&check_program(&mut p)),
            [
                "error: `y` is defined in both module `a` and module `b`",
                "error: `y` is defined twice in module `b`",
                "error: no `main` is defined in `a`, `b`",
            ]
        );
        let mut p = program(vec![(
            "a",
            vec![bind(
                "main",
                lam(None, Flag::Reentrant, &["x"], app("x", &[])),
            )],
        )]);
        assert_eq!(
            messages(&check_program(&mut p)),
            ["error: `main` must not take arguments"]
        );
    }

    #[test]
    fn prelude_code_does_not_see_user_globals() {
        let mut p = program(vec![
            (
                "Prelude",
                vec![bind("p", lam(None, Flag::Updatable, &[], app("u", &[])))],
            ),
            (
                "a",
                vec![
                    bind("u", lam(None, Flag::Reentrant, &[], con("U", &[]))),
                    main_unit(),
                ],
            ),
        ]);
        assert_eq!(
            messages(&check_program(&mut p)),
            ["error: unbound variable `u`"]
        );
        let g = Globals::new(&p);
        assert_eq!(g.resolve(false, "u"), Some((1, 0)));
        assert_eq!(g.resolve(true, "u"), None);
        assert_eq!(g.resolve(false, "p"), Some((0, 0)));
    }

    #[test]
    fn alternatives() {
        let lit = |k| alt(Pattern::Lit(k, sp()), con("A", &[]));
        let body = case(
            app("x", &[]),
            vec![
                alt(Pattern::Default(sp()), con("A", &[])),
                alt(pcon("A", &["p", "p"]), con("A", &[])),
                lit(1),
                lit(1),
                alt(Pattern::Var(id("v")), con("A", &[])),
            ],
        );
        let mut p = program(vec![(
            "m",
            vec![
                bind("f", lam(None, Flag::Reentrant, &["x", "x"], body)),
                main_unit(),
            ],
        )]);
        assert_eq!(
            messages(&check_program(&mut p)),
            [
                "error: duplicate argument `x`",
                "error: this case mixes constructor and literal alternatives",
                "error: this case has more than one default alternative",
                "error: literal `1#` has two alternatives in this case",
                "error: pattern variable `p` is bound twice in one alternative",
                "error: constructor `A` is used with 2 fields here but with 0 fields elsewhere",
            ]
        );
    }

    #[test]
    fn unbound_suggests_a_close_name() {
        let mut p = program(vec![(
            "m",
            vec![
                bind("f", lam(None, Flag::Reentrant, &["xs"], app("xss", &[]))),
                main_unit(),
            ],
        )]);
        let d = check_program(&mut p);
        assert_eq!(d[0].message, "unbound variable `xss`");
        assert!(
            d[0].help
                .as_deref()
                .unwrap_or("")
                .starts_with("did you mean `xs`?")
        );
    }

    #[test]
    fn edit_distance_limits() {
        assert_eq!(edit_distance("xs", "xs'", 1), Some(1));
        assert_eq!(edit_distance("lenght", "length", 2), Some(1));
        assert_eq!(edit_distance("Cosn", "Cons", 1), Some(1));
        assert_eq!(edit_distance("ab", "ba", 0), None);
        assert_eq!(edit_distance("abc", "xyz", 1), None);
        assert_eq!(edit_distance("a", "abcd", 1), None);
    }

    /// Pseudo-random numbers below `n`, from `seed` (a linear
    /// congruential generator: the tests' names are the same every run).
    fn numbers(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        }
    }

    #[test]
    fn letters_never_rule_out_a_close_name() {
        let mut next = numbers(987);
        let alphabet = ['a', 'b', 'c', '1', '_', '\u{e9}'];
        let (mut ruled_out, mut close) = (0, 0);
        for _ in 0..20_000 {
            let len = 1 + next(10) as usize;
            let a: Vec<char> = (0..len).map(|_| alphabet[next(6) as usize]).collect();
            // Half the time a few random edits of `a`, else another word.
            let mut b = a.clone();
            if next(2) == 0 {
                for _ in 0..next(4) {
                    let i = next(b.len() as u64 + 1) as usize;
                    match next(3) {
                        0 if i < b.len() => drop(b.remove(i)),
                        1 => b.insert(i, alphabet[next(6) as usize]),
                        _ if i + 1 < b.len() => b.swap(i, i + 1),
                        _ => {}
                    }
                }
            } else {
                let len = 1 + next(10) as usize;
                b = (0..len).map(|_| alphabet[next(6) as usize]).collect();
            }
            let (a, b): (String, String) = (a.into_iter().collect(), b.into_iter().collect());
            let limit = a.chars().count() / 3;
            let far = Letters::of(&a).is_some_and(|mut l| l.too_far(&b, limit));
            let d = edit_distance(&a, &b, limit);
            assert!(!(far && d.is_some()), "{a} and {b} are {d:?} apart");
            ruled_out += usize::from(far);
            close += usize::from(d.is_some());
        }
        assert!(
            ruled_out > 1_000 && close > 3_000,
            "{ruled_out} ruled out, {close} close"
        );
    }

    /// Misspellings of long names that share a long prefix with every
    /// global: each table costs the product of the lengths, and 200 of
    /// them beside 200 globals of 1,000 characters took over 3 minutes
    /// (release build). The suggestions stop when their cells are spent.
    #[test]
    fn suggestions_stop_when_their_cells_are_spent() {
        let long = "a".repeat(300);
        let mut bindings: Vec<Binding> = (0..200)
            .map(|i| {
                bind(
                    &format!("{long}{i:03}"),
                    lam(Some(&[]), Flag::Reentrant, &[], con("Unit", &[])),
                )
            })
            .collect();
        bindings.extend((0..200).map(|i| {
            bind(
                &format!("g{i}"),
                lam(
                    Some(&[]),
                    Flag::Updatable,
                    &[],
                    app(&format!("{long}x{i:03}"), &[]),
                ),
            )
        }));
        bindings.push(main_unit());
        let mut p = program(vec![("m", bindings)]);
        let started = std::time::Instant::now();
        let d = check_program(&mut p);
        let elapsed = started.elapsed();
        assert_eq!(d.len(), 200);
        let suggested = d
            .iter()
            .filter(|d| d.help.as_deref().unwrap_or("").starts_with("did you mean"))
            .count();
        // A table is 304 rows of 304 cells; a suggestion computes 200.
        // Without the budget, all 200 suggestions were made (in 25 s).
        assert_eq!(suggested, MAX_SUGGEST_CELLS / (200 * 304 * 304));
        assert_eq!(suggested, 5);
        assert!(elapsed.as_secs() < 60, "checking took {elapsed:?}");
    }

    /// An index of `names`, each built with the arity paired with it.
    fn built_index(names: &[(String, usize)]) -> BuiltIndex {
        let built: Set<Name> = names.iter().map(|(n, _)| Name::from(n)).collect();
        let con_arity: Map<Name, (usize, Span)> = names
            .iter()
            .map(|(n, a)| (Name::from(n), (*a, Span::default())))
            .collect();
        BuiltIndex::new(&built, &con_arity)
    }

    #[test]
    fn closest_built_is_what_comparing_every_name_chooses() {
        // Names from a small alphabet, so that many are close and many
        // tie; a few not ASCII.
        let mut next = numbers(12345);
        let alphabet = ['A', 'b', 'c', 'd', 'é', '1'];
        let word = |next: &mut dyn FnMut(u64) -> u64| -> String {
            let len = 1 + next(9) as usize;
            (0..len).map(|_| alphabet[next(6) as usize]).collect()
        };
        let names: Vec<(String, usize)> = (0..400)
            .map(|_| (word(&mut next), next(2) as usize))
            .collect();
        // Each name once, with its first arity (as the checker keeps it).
        let mut seen = Set::default();
        let names: Vec<(String, usize)> = names
            .into_iter()
            .filter(|(n, _)| seen.insert(n.clone()))
            .collect();
        let index = built_index(&names);
        let mut rows = PrefixRows::default();
        let mut found = 0;
        for _ in 0..400 {
            let query = word(&mut next);
            let arity = next(2) as usize;
            let limit = (query.chars().count() / 3).max(1);
            let every = names
                .iter()
                .filter(|(n, a)| *a == arity && *n != query)
                .filter_map(|(n, _)| Some((edit_distance(&query, n, limit)?, n.as_str())))
                .min()
                .map(|(_, n)| n);
            let mut budget = usize::MAX;
            let closest = index.closest(&query, arity, &mut rows, &mut budget);
            assert_eq!(closest.map(Name::as_str), every, "closest to {query}");
            found += usize::from(every.is_some());
        }
        assert!(found > 100, "only {found} queries had a close name");
    }

    #[test]
    fn closest_built_compares_only_names_of_near_lengths() {
        // `D0` ... `D999` are 2 to 4 characters long, `Qqqqqqqqqqqqq5` 14,
        // allowing 4 edits: no pair is worth comparing.
        let names: Vec<(String, usize)> = (0..1000).map(|i| (format!("D{i}"), 0)).collect();
        let index = built_index(&names);
        let mut rows = PrefixRows::default();
        let mut budget = 1000;
        assert_eq!(
            index.closest("Qqqqqqqqqqqqq5", 0, &mut rows, &mut budget),
            None
        );
        assert_eq!(budget, 1000);
        // `D` names of another arity are not candidates either.
        assert_eq!(index.closest("E5", 1, &mut rows, &mut budget), None);
        assert_eq!(budget, 1000);
        // `E5` is one edit from `D5`: after it, only names before it could
        // be chosen. Each row of `E5`'s table costs 3 cells: among the names
        // of its length, the row of `D`, then one of each of `D0` ... `D5`,
        // the others being already two edits away; among those of length 3,
        // `D`, then one row for each of `D1`, `D2`, `D3` and `D4`, which
        // stands for ten names, and it stops at `D50`. (None is of length 1.)
        let close = index.closest("E5", 0, &mut rows, &mut budget);
        assert_eq!(close.map(Name::as_str), Some("D5"));
        assert_eq!(1000 - budget, 3 * (7 + 5));
    }

    #[test]
    fn closest_built_gives_up_when_the_budget_is_spent() {
        let names: Vec<(String, usize)> = (0..100).map(|i| (format!("D{i}"), 0)).collect();
        let index = built_index(&names);
        let mut rows = PrefixRows::default();
        // Each row of `E7`'s table costs 3 cells: the budget pays for the
        // row of `D`, not for the next.
        let mut budget = 4;
        assert_eq!(index.closest("E7", 0, &mut rows, &mut budget), None);
        assert_eq!(budget, 1);
        assert_eq!(index.closest("E1", 0, &mut rows, &mut budget), None);
        let mut budget = 100;
        let close = index.closest("E7", 0, &mut rows, &mut budget);
        assert_eq!(close.map(Name::as_str), Some("D7"));
    }
}
