//! Automatic cost centres (`--auto-cc`, SEMANTICS.md "Cost centres"; the
//! profiling paper's section 3.5, GHC's `-fprof-auto`).
//!
//! * [`AutoCc::Top`] wraps the body of every top-level binding of the user's
//!   modules in `scc "name"`. The `scc` goes inside the lambda, so for a
//!   function every call counts one entry, and for a thunk its (single)
//!   evaluation does.
//! * [`AutoCc::All`] does that and also wraps every `let`/`letrec`-bound
//!   closure, named by the chain of enclosing bindings joined with `.`, as
//!   GHC does (its `-fprof-auto` names a binding by its "declaration path"):
//!   `f` bound in `main`'s body is `main.f`, and `h` bound in that `f`'s body
//!   is `main.f.h`. Only bindings count as links of the chain; lambdas,
//!   cases and `scc`s in between do not.
//! * Constructor *values* (no arguments, body a constructor application) get
//!   no cost centre: they are in head normal form and entering them does no
//!   work. A *function* whose body is a constructor application does get
//!   one, as GHC's `-fprof-auto` gives it one (queens' `extend.add` has 152
//!   entries in tests/ghc/queens.tree); see docs/DECISIONS.md.
//! * The Prelude is never touched; run this after checking, so the
//!   free-variable lists are already complete (an `scc` binds no variable).
//!
//! The inserted `scc` has the binding's name as its label span and the span
//! from the binding's name to the end of the body as its own span, so runtime
//! messages about it point at the binding.

use crate::stg::check::is_prelude;
use crate::stg::syntax::{Binding, Expr, ExprKind, Name, Program};

/// Which bindings get an automatic cost centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AutoCc {
    /// None: only the program's own `scc`s.
    #[default]
    None,
    /// Every top-level binding of the user's modules.
    Top,
    /// Top-level and `let`/`letrec`-bound closures of the user's modules.
    All,
}

/// Inserts the automatic cost centres `mode` asks for.
pub fn apply(program: &mut Program, mode: AutoCc) {
    if mode == AutoCc::None {
        return;
    }
    for module in program.modules.iter_mut().filter(|m| !is_prelude(m)) {
        for binding in &mut module.bindings {
            let name = binding.name.name.clone();
            if mode == AutoCc::All {
                nested(&mut binding.lambda.body, &name);
            }
            wrap(binding, name);
        }
    }
}

/// Wraps a binding's body in `scc "label"` unless it is a constructor value.
fn wrap(binding: &mut Binding, label: Name) {
    let body = &mut binding.lambda.body;
    if binding.lambda.args.is_empty() && matches!(body.kind, ExprKind::Con { .. }) {
        return;
    }
    let span = if body.span.file == binding.name.span.file {
        binding.name.span.to(body.span)
    } else {
        binding.name.span
    };
    let inner = std::mem::replace(
        body,
        Expr {
            kind: ExprKind::Lit(0),
            span,
        },
    );
    body.kind = ExprKind::Scc {
        label,
        label_span: binding.name.span,
        body: Box::new(inner),
    };
}

/// Wraps every let(rec)-bound closure inside `expr`, whose enclosing binding
/// chain is `path`. `let` and `scc` bodies are followed in a loop (their
/// chains are not bounded by the parser's nesting limit).
fn nested(mut expr: &mut Expr, path: &str) {
    loop {
        match &mut expr.kind {
            ExprKind::Let { bindings, body, .. } => {
                for binding in bindings.iter_mut() {
                    let name = format!("{path}.{}", binding.name.name);
                    nested(&mut binding.lambda.body, &name);
                    wrap(binding, Name::from(name));
                }
                expr = body;
            }
            ExprKind::Scc { body, .. } => expr = body,
            ExprKind::Case { scrutinee, alts } => {
                nested(scrutinee, path);
                for alt in alts.iter_mut() {
                    nested(&mut alt.body, path);
                }
                return;
            }
            ExprKind::App { .. }
            | ExprKind::Con { .. }
            | ExprKind::Prim { .. }
            | ExprKind::Lit(_) => return,
        }
    }
}
