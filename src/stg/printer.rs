//! Prints syntax trees back as `.stg` source, in the paper's notation, with a
//! layout the parser reads back to the same tree (so `--print`, parse,
//! `--print` is a fixed point).
//!
//! Layout choices:
//!
//! * A binding is `name = {fvs} \flag {args} ->` followed by its body, on the
//!   same line when the body is simple (an application, constructor,
//!   primitive, literal, or `scc` of one of those), otherwise on the next
//!   line, indented two columns from the binding's name. The free-variable
//!   list is printed whenever the tree has one (always, after checking); the
//!   flag is printed as it is in the tree (normalised after checking).
//! * `let`/`letrec` bindings form a block aligned after the keyword; `in`
//!   goes on its own line under the keyword, followed by the body.
//! * `case e of` is followed by its alternatives on the following lines,
//!   two columns right of the `case`. A scrutinee that is not simple is
//!   parenthesised, since its own blocks must close before `of`.
//! * `scc "label" e`: a simple body is parenthesised, as in the paper's
//!   `scc "foo" (map {double, l})`; a `let` or `case` body starts on the next
//!   line, indented two columns (not indented inside a `let` chain), with no
//!   parentheses (`scc` extends as far
//!   right as possible, and this way every block column is fixed by leading
//!   spaces, never by a label's width); a chain `scc "a" scc "b" ...` stays
//!   on one line without parentheses (each `(` counts towards the parser's
//!   nesting limit). An `scc` that is a case scrutinee is parenthesised.
//! * Constructors and applications always show their braces (`Nil {}`).
//!   A first atom that is a negative literal gets a space after the brace
//!   (`{ -1#}`), since `{-` opens a comment.
//! * Labels are escaped with `\"`, `\\`, `\n` and `\r` (a carriage
//!   return is a line break in the source).
//!
//! Every line of an expression is printed right of every enclosing block's
//! column, which is what the layout rule needs.

use std::fmt::Write;

use crate::stg::syntax::{
    Alt, Atom, Binding, Expr, ExprKind, Ident, Lambda, Module, Pattern, Program,
};

/// One module as source text: its bindings at column 0, separated by blank
/// lines.
pub fn print_module(module: &Module) -> String {
    let mut p = Printer::default();
    for (i, binding) in module.bindings.iter().enumerate() {
        if i > 0 {
            p.out.push('\n');
        }
        p.binding(binding, 0);
        p.out.push('\n');
    }
    p.out
}

/// Every module, in load order, each introduced by a `-- module NAME`
/// comment line.
pub fn print_program(program: &Program) -> String {
    let mut out = String::new();
    for (i, module) in program.modules.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "-- module {}", module.name);
        out.push_str(&print_module(module));
    }
    out
}

/// A string literal with the language's escapes.
pub fn escape_label(label: &str) -> String {
    let mut s = String::with_capacity(label.len() + 2);
    s.push('"');
    for c in label.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

/// Whether an expression prints on one line with no block in it.
fn is_simple(mut expr: &Expr) -> bool {
    loop {
        match &expr.kind {
            ExprKind::App { .. }
            | ExprKind::Con { .. }
            | ExprKind::Prim { .. }
            | ExprKind::Lit(_) => return true,
            ExprKind::Scc { body, .. } => expr = body,
            ExprKind::Let { .. } | ExprKind::Case { .. } => return false,
        }
    }
}

#[derive(Default)]
struct Printer {
    out: String,
}

impl Printer {
    fn newline(&mut self, indent: usize) {
        self.out.push('\n');
        for _ in 0..indent {
            self.out.push(' ');
        }
    }

    fn idents(&mut self, idents: &[Ident]) {
        self.out.push('{');
        for (i, v) in idents.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.out.push_str(&v.name);
        }
        self.out.push('}');
    }

    fn atoms(&mut self, atoms: &[Atom]) {
        self.out.push('{');
        for (i, a) in atoms.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            match a {
                Atom::Var(v) => self.out.push_str(&v.name),
                Atom::Lit(k, _) => {
                    if i == 0 && *k < 0 {
                        self.out.push(' ');
                    }
                    let _ = write!(self.out, "{k}#");
                }
            }
        }
        self.out.push('}');
    }

    /// `name = lambda`, the cursor being at column `col` (where `name` goes).
    fn binding(&mut self, binding: &Binding, col: usize) {
        self.out.push_str(&binding.name.name);
        self.out.push_str(" = ");
        self.lambda(&binding.lambda, col + 2);
    }

    /// A lambda form; continuation lines of the body go at `indent`.
    fn lambda(&mut self, lambda: &Lambda, indent: usize) {
        if let Some(free) = &lambda.free {
            self.idents(free);
            self.out.push(' ');
        }
        self.out.push_str(lambda.flag.as_str());
        self.out.push(' ');
        self.idents(&lambda.args);
        self.out.push_str(" ->");
        if is_simple(&lambda.body) {
            self.out.push(' ');
            self.expr(&lambda.body, indent);
        } else {
            self.newline(indent);
            self.expr(&lambda.body, indent);
        }
    }

    /// An expression starting at the cursor, which is at column `col`; every
    /// enclosing block's column is left of `col`.
    ///
    /// `let` bodies and `scc` bodies are followed in a loop, since chains of
    /// them are not bounded by the parser's nesting limit. A chain
    /// `let .. in let .. in ..` keeps every `in` in the first `let`'s column;
    /// a chain of `scc`s stays on one line.
    fn expr(&mut self, mut expr: &Expr, mut col: usize) {
        // Where the `in` of a `let` goes: under the first `let` of a chain.
        let mut in_col = None;
        let mut close_parens = 0usize;
        loop {
            match &expr.kind {
                ExprKind::Let {
                    rec,
                    bindings,
                    body,
                } => {
                    let keyword = if *rec { "letrec " } else { "let " };
                    self.out.push_str(keyword);
                    let block = col + keyword.len();
                    for (i, b) in bindings.iter().enumerate() {
                        if i > 0 {
                            self.newline(block);
                        }
                        self.binding(b, block);
                    }
                    let at = *in_col.get_or_insert(col);
                    self.newline(at);
                    self.out.push_str("in ");
                    col = at + 3;
                    expr = body;
                    continue;
                }
                ExprKind::Scc { label, body, .. } => {
                    self.out.push_str("scc ");
                    self.out.push_str(&escape_label(label));
                    match &body.kind {
                        // A chain of `scc`s stays on one line, unparenthesised
                        // (parentheses count towards the nesting limit).
                        ExprKind::Scc { .. } => self.out.push(' '),
                        // `scc` extends as far right as possible, so a block
                        // body needs no parentheses; it starts on the next
                        // line so its block columns do not depend on the
                        // label's width.
                        // Inside a `let` chain, the next line stays at this
                        // column (the chain's `in`s stay in theirs), so a
                        // chain alternating `let` and `scc` does not drift
                        // right.
                        ExprKind::Let { .. } | ExprKind::Case { .. } => {
                            if in_col.is_none() {
                                col += 2;
                            }
                            self.newline(col);
                        }
                        // The paper's style: `scc "foo" (map {double, l})`.
                        _ => {
                            self.out.push_str(" (");
                            close_parens += 1;
                        }
                    }
                    expr = body;
                    continue;
                }
                ExprKind::Case { scrutinee, alts } => {
                    self.out.push_str("case ");
                    if is_simple(scrutinee) && !matches!(scrutinee.kind, ExprKind::Scc { .. }) {
                        self.expr(scrutinee, col + 5);
                    } else {
                        self.out.push('(');
                        self.expr(scrutinee, col + 6);
                        self.out.push(')');
                    }
                    self.out.push_str(" of");
                    for alt in alts {
                        self.newline(col + 2);
                        self.alt(alt, col + 2);
                    }
                }
                ExprKind::App { fun, args } => {
                    self.out.push_str(&fun.name);
                    self.out.push(' ');
                    self.atoms(args);
                }
                ExprKind::Con { con, args } => {
                    self.out.push_str(&con.name);
                    self.out.push(' ');
                    self.atoms(args);
                }
                ExprKind::Prim { op, args, .. } => {
                    self.out.push_str(op.as_str());
                    self.out.push(' ');
                    self.atoms(args);
                }
                ExprKind::Lit(k) => {
                    let _ = write!(self.out, "{k}#");
                }
            }
            break;
        }
        for _ in 0..close_parens {
            self.out.push(')');
        }
    }

    /// One alternative at block column `col`.
    fn alt(&mut self, alt: &Alt, col: usize) {
        match &alt.pattern {
            Pattern::Con { con, vars } => {
                self.out.push_str(&con.name);
                self.out.push(' ');
                self.idents(vars);
            }
            Pattern::Lit(k, _) => {
                let _ = write!(self.out, "{k}#");
            }
            Pattern::Var(v) => self.out.push_str(&v.name),
            Pattern::Default(_) => self.out.push_str("default"),
        }
        self.out.push_str(" ->");
        if is_simple(&alt.body) {
            self.out.push(' ');
            self.expr(&alt.body, col + 2);
        } else {
            self.newline(col + 2);
            self.expr(&alt.body, col + 2);
        }
    }
}
