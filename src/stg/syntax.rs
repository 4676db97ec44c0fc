//! The syntax tree of the `.stg` language (LANGUAGE.md), with source spans.
//!
//! The parser builds it, the checker fills in what the source may omit
//! (free-variable lists, `\n` flags) and the printer prints it back. Every node
//! that a diagnostic can point at carries a [`Span`].

use std::sync::Arc;

/// Index of a source file in a [`crate::stg::source::SourceMap`].
pub type FileId = u32;

/// A byte range `start..end` in one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both (they must be in the same file).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// The text of a name (a variable, a constructor, an `scc` label): shared,
/// not copied. The parser interns each module's names ([`Names`]), so the
/// thousands of occurrences of `xs` in a file are one string, and an
/// occurrence costs one pointer and no allocation of its own (a `String` was
/// 24 bytes and a heap block per occurrence: the bulk of a large program's
/// tree, docs/PERFORMANCE.md, "Large valid input"). The text is boxed
/// behind the `Arc` so that the pointer is thin (8 bytes, not 16: an
/// [`Ident`] is 24 bytes). It reads as a `&str` (`Deref`), compares and
/// hashes as one.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name(Arc<Box<str>>);

impl Name {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::fmt::Debug for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self.0, f)
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name(Arc::new(Box::from(s)))
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name(Arc::new(s.into_boxed_str()))
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Name {
        Name::from(s.as_str())
    }
}

impl From<&Name> for Name {
    fn from(s: &Name) -> Name {
        s.clone()
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        &**self.0 == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        &**self.0 == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        **self.0 == **other
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == &**other.0
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == &**other.0
    }
}

/// One module's names, each stored once: [`Names::intern`] gives the same
/// [`Name`] for the same text.
#[derive(Default)]
pub struct Names {
    /// With the standard library's keyed hash: names are the input's own
    /// text, and crafted names must not make the look-ups collide.
    set: std::collections::HashSet<Name>,
}

impl Names {
    pub fn intern(&mut self, text: &str) -> Name {
        if let Some(name) = self.set.get(text) {
            return name.clone();
        }
        let name = Name::from(text);
        self.set.insert(name.clone());
        name
    }
}

/// A variable or constructor name with the place it was written.
#[derive(Clone, Debug)]
pub struct Ident {
    pub name: Name,
    pub span: Span,
}

impl Ident {
    pub fn new(name: impl Into<Name>, span: Span) -> Ident {
        Ident {
            name: name.into(),
            span,
        }
    }
}

/// Names compare by text only, so trees parsed from different text compare equal.
impl PartialEq for Ident {
    fn eq(&self, other: &Ident) -> bool {
        self.name == other.name
    }
}
impl Eq for Ident {}

/// The update flag of a lambda form (appendix A of the profiling paper).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flag {
    /// `\u`: updatable thunk.
    Updatable,
    /// `\s`: single-entry thunk, never updated, entered at most once.
    SingleEntry,
    /// `\r`: re-entrant: a function, or a value already in head normal form.
    Reentrant,
    /// `\n` of the 1992 STG paper; the checker rewrites it to `\r` or `\s`.
    NonUpdatable,
}

impl Flag {
    pub fn as_str(self) -> &'static str {
        match self {
            Flag::Updatable => "\\u",
            Flag::SingleEntry => "\\s",
            Flag::Reentrant => "\\r",
            Flag::NonUpdatable => "\\n",
        }
    }
}

/// `free \flag {args} -> body`.
#[derive(Clone, Debug)]
pub struct Lambda {
    /// The free-variable list as written; `None` when omitted. After checking
    /// it is always `Some`, in order of first use in the body.
    pub free: Option<Box<[Ident]>>,
    pub flag: Flag,
    pub args: Box<[Ident]>,
    pub body: Expr,
    /// From the free list (or flag) to the end of the body.
    pub span: Span,
}

impl PartialEq for Lambda {
    fn eq(&self, other: &Lambda) -> bool {
        self.free == other.free
            && self.flag == other.flag
            && self.args == other.args
            && self.body == other.body
    }
}
impl Eq for Lambda {}

/// `name = lambda`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    pub name: Ident,
    pub lambda: Lambda,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// Expressions compare by structure, not by where they were written.
impl PartialEq for Expr {
    fn eq(&self, other: &Expr) -> bool {
        self.kind == other.kind
    }
}
impl Eq for Expr {}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// `let` (`rec == false`) or `letrec` (`rec == true`).
    Let {
        rec: bool,
        bindings: Box<[Binding]>,
        body: Box<Expr>,
    },
    Case {
        scrutinee: Box<Expr>,
        alts: Box<[Alt]>,
    },
    /// `scc "label" body`.
    Scc {
        label: Name,
        label_span: Span,
        body: Box<Expr>,
    },
    /// `f {a1, ..., an}`; `f` alone means `f {}`.
    App { fun: Ident, args: Box<[Atom]> },
    /// `C {a1, ..., an}`, always saturated; `C` alone means `C {}`.
    Con { con: Ident, args: Box<[Atom]> },
    /// `op {a1, ..., an}`.
    Prim {
        op: PrimOp,
        op_span: Span,
        args: Box<[Atom]>,
    },
    /// `k#`.
    Lit(i64),
}

/// Compares structure only: the spans of labels and operators are ignored.
impl PartialEq for ExprKind {
    fn eq(&self, other: &ExprKind) -> bool {
        use ExprKind::*;
        match (self, other) {
            (
                Let {
                    rec: r1,
                    bindings: b1,
                    body: e1,
                },
                Let {
                    rec: r2,
                    bindings: b2,
                    body: e2,
                },
            ) => r1 == r2 && b1 == b2 && e1 == e2,
            (
                Case {
                    scrutinee: s1,
                    alts: a1,
                },
                Case {
                    scrutinee: s2,
                    alts: a2,
                },
            ) => s1 == s2 && a1 == a2,
            (
                Scc {
                    label: l1,
                    body: e1,
                    ..
                },
                Scc {
                    label: l2,
                    body: e2,
                    ..
                },
            ) => l1 == l2 && e1 == e2,
            (App { fun: f1, args: a1 }, App { fun: f2, args: a2 }) => f1 == f2 && a1 == a2,
            (Con { con: c1, args: a1 }, Con { con: c2, args: a2 }) => c1 == c2 && a1 == a2,
            (
                Prim {
                    op: o1, args: a1, ..
                },
                Prim {
                    op: o2, args: a2, ..
                },
            ) => o1 == o2 && a1 == a2,
            (Lit(k1), Lit(k2)) => k1 == k2,
            _ => false,
        }
    }
}
impl Eq for ExprKind {}

#[derive(Clone, Debug)]
pub enum Atom {
    Var(Ident),
    Lit(i64, Span),
}

impl PartialEq for Atom {
    fn eq(&self, other: &Atom) -> bool {
        match (self, other) {
            (Atom::Var(a), Atom::Var(b)) => a == b,
            (Atom::Lit(a, _), Atom::Lit(b, _)) => a == b,
            _ => false,
        }
    }
}
impl Eq for Atom {}

impl Atom {
    pub fn span(&self) -> Span {
        match self {
            Atom::Var(v) => v.span,
            Atom::Lit(_, s) => *s,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Alt {
    pub pattern: Pattern,
    pub body: Expr,
    pub span: Span,
}

impl PartialEq for Alt {
    fn eq(&self, other: &Alt) -> bool {
        self.pattern == other.pattern && self.body == other.body
    }
}
impl Eq for Alt {}

#[derive(Clone, Debug)]
pub enum Pattern {
    /// `C {x1, ..., xn} -> e`; `C -> e` means `C {} -> e`.
    Con { con: Ident, vars: Box<[Ident]> },
    /// `k# -> e`.
    Lit(i64, Span),
    /// `x -> e`: default binding the scrutinee's value.
    Var(Ident),
    /// `default -> e`.
    Default(Span),
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        match (self, other) {
            (Pattern::Con { con: a, vars: x }, Pattern::Con { con: b, vars: y }) => {
                a == b && x == y
            }
            (Pattern::Lit(a, _), Pattern::Lit(b, _)) => a == b,
            (Pattern::Var(a), Pattern::Var(b)) => a == b,
            (Pattern::Default(_), Pattern::Default(_)) => true,
            _ => false,
        }
    }
}
impl Eq for Pattern {}

impl Pattern {
    pub fn is_default(&self) -> bool {
        matches!(self, Pattern::Var(_) | Pattern::Default(_))
    }
}

/// The primitive operations on `Int#`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PrimOp {
    Add,
    Sub,
    Mul,
    Quot,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Negate,
}

impl PrimOp {
    pub const ALL: [PrimOp; 12] = [
        PrimOp::Add,
        PrimOp::Sub,
        PrimOp::Mul,
        PrimOp::Quot,
        PrimOp::Rem,
        PrimOp::Eq,
        PrimOp::Ne,
        PrimOp::Lt,
        PrimOp::Le,
        PrimOp::Gt,
        PrimOp::Ge,
        PrimOp::Negate,
    ];

    /// The operator as written in source, e.g. `+#`.
    pub fn as_str(self) -> &'static str {
        match self {
            PrimOp::Add => "+#",
            PrimOp::Sub => "-#",
            PrimOp::Mul => "*#",
            PrimOp::Quot => "/#",
            PrimOp::Rem => "%#",
            PrimOp::Eq => "==#",
            PrimOp::Ne => "/=#",
            PrimOp::Lt => "<#",
            PrimOp::Le => "<=#",
            PrimOp::Gt => ">#",
            PrimOp::Ge => ">=#",
            PrimOp::Negate => "negate#",
        }
    }

    /// The operation written `s`, if it is one (not `FromStr`: absence is no error here).
    #[allow(clippy::should_implement_trait)]
    pub fn from_str(s: &str) -> Option<PrimOp> {
        PrimOp::ALL.into_iter().find(|op| op.as_str() == s)
    }

    /// How many arguments the operation takes.
    pub fn arity(self) -> usize {
        if self == PrimOp::Negate { 1 } else { 2 }
    }
}

/// One source file's bindings; the module is named by the file stem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    pub name: String,
    pub file: FileId,
    pub bindings: Vec<Binding>,
}

/// All modules of a run, in load order (`Prelude` first when loaded).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Program {
    pub modules: Vec<Module>,
}

#[cfg(test)]
mod tests {
    use crate::stg::parser::parse_module;

    /// Trees compare by structure: the same program laid out differently (so
    /// every span differs) parses to equal trees, and a changed label does not.
    #[test]
    fn equality_ignores_spans() {
        let a = "main = {} \\u {} -> scc \"l\" (+# {1#, 2#})\n";
        let b = "main   =   {} \\u {}   ->\n    scc   \"l\"   ( +# { 1# ,  2# } )\n";
        let c = "main = {} \\u {} -> scc \"m\" (+# {1#, 2#})\n";
        let parse = |t: &str| parse_module(0, "m", t).0.expect("parses");
        assert_eq!(parse(a), parse(b));
        assert_ne!(parse(a), parse(c));
    }
}
