//! The chumsky parser: tokens (after layout) to the syntax tree.
//!
//! Pipeline: [`lexer::lex`] (hand-written) → [`layout::layout`] (virtual block
//! tokens, top level cut into bindings) → one chumsky parse per top-level
//! binding.
//!
//! Error recovery, in three layers:
//! - each top-level binding is parsed on its own, so every binding with a
//!   mistake gets its own error and a mistake never swallows the bindings
//!   after it;
//! - inside a binding, a `let` binding or `case` alternative that fails is
//!   skipped up to the next item of its block (chumsky `recover_with`), so one
//!   binding can report several errors;
//! - blocks with no items are reported by a scan of the tokens, with the
//!   indentation advice that is almost always the fix; parse errors in a
//!   binding after a lexical error or an empty block are not reported (they
//!   are consequences).
//!
//! Speed: each binding is first parsed with chumsky's `EmptyErr` (no error
//! bookkeeping); only a binding that fails is parsed again with `Rich` errors
//! to explain it. Both use the same grammar function.
//!
//! Stack: chumsky's `recursive` grows the stack on the heap when needed (its
//! default `stacker` feature), and layout rejects nesting deeper than
//! [`layout::MAX_DEPTH`] (counting `let … in` and `scc` chains too), so no
//! input can overflow the stack, whatever thread the parser runs on, and no
//! later pass sees a tree deeper than about that. `scc` chains are parsed by
//! repetition, not recursion.

use crate::stg::diagnostic::Diagnostic;
use crate::stg::layout;
use crate::stg::lexer::{self, Tok};
use crate::stg::syntax::*;
use chumsky::error::RichPattern;
use chumsky::input::{Input as _, MappedInput};
use chumsky::prelude::*;
use std::cell::RefCell;

type In<'t> = MappedInput<'t, Tok<'t>, SimpleSpan, &'t [(Tok<'t>, SimpleSpan)]>;

/// Parses one module: every syntax error found, and the module if there were none.
///
/// Returns `None` exactly when at least one error was reported. Diagnostics are
/// in source order.
pub fn parse_module(
    file: FileId,
    module_name: &str,
    text: &str,
) -> (Option<Module>, Vec<Diagnostic>) {
    // Tokens stream from the lexer through layout, and each top-level
    // binding's tokens are parsed in batches of about [`BATCH_TOKENS`], so
    // the front end never holds the whole file's tokens (docs/PERFORMANCE.md,
    // "Large valid input").
    let lexer = RefCell::new(lexer::Lexer::new(file, text));
    let tokens = std::iter::from_fn(|| lexer.borrow_mut().next_token());
    let mut batch = Batch::default();
    // Each name of the module is stored once (syntax::Name).
    let names = RefCell::new(Names::default());
    let mut bindings = Vec::new();
    let mut parse_diags = Vec::new();
    let layout_diags = layout::layout_items(file, tokens, text.len(), |item, poisoned, next| {
        let start = batch.toks.len();
        batch
            .toks
            .extend(item.map(|t| (t.tok, SimpleSpan::from(t.start as usize..t.end as usize))));
        batch.items.push(BatchItem {
            range: start..batch.toks.len(),
            poisoned,
            next,
        });
        if batch.toks.len() >= BATCH_TOKENS {
            batch.parse(
                file,
                text,
                &lexer.borrow().diags,
                &names,
                &mut bindings,
                &mut parse_diags,
            );
        }
    });
    let mut diags = lexer.into_inner().diags;
    batch.parse(file, text, &diags, &names, &mut bindings, &mut parse_diags);
    diags.extend(layout_diags);
    diags.extend(parse_diags);
    diags.sort_by_key(|d| d.span);
    if diags.iter().any(Diagnostic::is_error) {
        (None, diags)
    } else {
        (
            Some(Module {
                name: module_name.to_string(),
                file,
                bindings: shrunk(bindings),
            }),
            diags,
        )
    }
}

/// Tokens per batch of top-level bindings parsed together (a binding is
/// never split; the parsers are built once per batch).
const BATCH_TOKENS: usize = 1 << 12;

/// Top-level bindings' tokens waiting to be parsed.
#[derive(Default)]
struct Batch<'a> {
    toks: Vec<(Tok<'a>, SimpleSpan)>,
    items: Vec<BatchItem>,
}

/// One top-level binding in a [`Batch`].
struct BatchItem {
    /// Its tokens in [`Batch::toks`].
    range: std::ops::Range<usize>,
    /// Layout found it too deep to parse (already reported).
    poisoned: bool,
    /// Where the next binding starts (the end of the text for the last).
    next: usize,
}

impl<'a> Batch<'a> {
    /// Parses every binding of the batch into `bindings` (those without
    /// errors) and `parse_diags`, then empties it. `lex_diags` are the
    /// lexer's errors so far: a parse error in the same binding after one of
    /// them is almost always a consequence, so it is not reported.
    fn parse(
        &mut self,
        file: FileId,
        text: &str,
        lex_diags: &[Diagnostic],
        names: &RefCell<Names>,
        bindings: &mut Vec<Binding>,
        parse_diags: &mut Vec<Diagnostic>,
    ) {
        let lex_errors: Vec<u32> = lex_diags.iter().map(|d| d.span.start).collect();
        // The parsers borrow the tokens: gone before the batch is emptied.
        {
            // Two parsers: a fast one without error details for the (usual) bindings
            // that parse, and one with rich errors, run only on a binding that failed.
            let fast = binding_parser::<EmptyErr>(file, names);
            let parser = binding_parser::<Rich<Tok, SimpleSpan>>(file, names);
            for item in &self.items {
                if item.poisoned {
                    continue;
                }
                let slice = &self.toks[item.range.clone()];
                let (Some(first), Some(last)) = (slice.first(), slice.last()) else {
                    continue;
                };
                let (start, end) = (first.1.start, last.1.end);
                let empty_blocks = empty_block_errors(file, slice);
                let had_empty_block = !empty_blocks.is_empty();
                parse_diags.extend(empty_blocks);
                // A lex error up to the next binding counts for this one: an
                // unclosed `{-` swallows the rest of the file, so the binding ends
                // early at it and the parser's complaints there are its consequence.
                let next = item.next;
                let first_lex_error = lex_errors
                    .iter()
                    .copied()
                    .find(|&p| (start as u32..next.max(end + 1) as u32).contains(&p));
                // Where the consequences start: at the error, or at the binding's
                // end when the error lies beyond it.
                let cut = first_lex_error.map(|p| (p as usize).min(end));
                let eoi = SimpleSpan::from(end..end);
                if !had_empty_block
                    && first_lex_error.is_none()
                    && let Ok(b) = fast.parse(slice.split_token_span(eoi)).into_result()
                {
                    bindings.push(b);
                    continue;
                }
                let (out, errs) = parser
                    .parse(slice.split_token_span(eoi))
                    .into_output_errors();
                let ok = errs.is_empty() && !had_empty_block && first_lex_error.is_none();
                if !had_empty_block {
                    for e in errs {
                        if matches!(e.found(), Some(Tok::Error))
                            || cut.is_some_and(|c| c <= e.span().start.max(start))
                        {
                            continue;
                        }
                        parse_diags.push(to_diagnostic(file, text, &e, slice, end));
                    }
                }
                if let (Some(b), true) = (out, ok) {
                    bindings.push(b);
                }
            }
        }
        self.toks.clear();
        self.items.clear();
    }
}

/// Blocks with no items (`VOpen` then only separators then `VClose`): the
/// keyword before them is reported, with how to indent.
fn empty_block_errors(file: FileId, slice: &[(Tok, SimpleSpan)]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (i, (t, _)) in slice.iter().enumerate() {
        if *t != Tok::VOpen {
            continue;
        }
        let mut j = i + 1;
        while matches!(slice.get(j), Some((Tok::Semi | Tok::VSemi, _))) {
            j += 1;
        }
        if !matches!(slice.get(j), Some((Tok::VClose, _))) {
            continue;
        }
        let Some((kw, kw_span)) = i.checked_sub(1).and_then(|k| slice.get(k)) else {
            continue;
        };
        let (message, what) = match kw {
            Tok::Let => ("empty `let` block", "a `let` needs at least one binding"),
            Tok::Letrec => (
                "empty `letrec` block",
                "a `letrec` needs at least one binding",
            ),
            _ => (
                "no alternatives after `of`",
                "a `case` needs at least one alternative",
            ),
        };
        out.push(
            Diagnostic::error(Span::new(file, kw_span.start, kw_span.end), message)
                .with_label("nothing follows in this block")
                .with_help(format!(
                    "{what}: put the first on the same line, or on a line indented further right than the enclosing block (its column sets the block's column)"
                )),
        );
    }
    out
}

/// `v` without spare capacity: the tree keeps every list it parses, and a
/// list collected item by item has room for about twice its length (the
/// tree's lists inside bindings are boxed slices, which have none;
/// docs/PERFORMANCE.md, "Large valid input").
fn shrunk<T>(mut v: Vec<T>) -> Vec<T> {
    v.shrink_to_fit();
    v
}

fn binding_parser<'t, Er>(
    file: FileId,
    names: &'t RefCell<Names>,
) -> impl Parser<'t, In<'t>, Binding, extra::Err<Er>> + Clone
where
    Er: chumsky::error::Error<'t, In<'t>>
        + chumsky::label::LabelError<'t, In<'t>, &'static str>
        + chumsky::label::LabelError<'t, In<'t>, chumsky::DefaultExpected<'t, Tok<'t>>>
        + 't,
{
    let sp = move |s: SimpleSpan| Span::new(file, s.start, s.end);

    let name = move |text: &str| names.borrow_mut().intern(text);
    let var =
        select! { Tok::Var(v) = e => Ident::new(name(v), sp(e.span())) }.labelled("a variable");
    let con =
        select! { Tok::Con(c) = e => Ident::new(name(c), sp(e.span())) }.labelled("a constructor");
    let lit = select! { Tok::Int(n) = e => (n, sp(e.span())) }.labelled("a literal");
    let flag = select! { Tok::Flag(f) => f }.labelled("an update flag");
    let prim = select! { Tok::Prim(op) = e => (op, sp(e.span())) };
    let string = select! { Tok::Str(s) = e => (name(&s), sp(e.span())) }.labelled("a label string");

    let atom = choice((var.map(Atom::Var), lit.map(|(n, s)| Atom::Lit(n, s))));
    let atoms = atom
        .separated_by(just(Tok::Comma))
        .collect::<Vec<_>>()
        .map(Vec::into_boxed_slice)
        .delimited_by(just(Tok::LBrace), just(Tok::RBrace));
    let vars = var
        .separated_by(just(Tok::Comma))
        .collect::<Vec<_>>()
        .map(Vec::into_boxed_slice)
        .delimited_by(just(Tok::LBrace), just(Tok::RBrace));
    let sep = choice((just(Tok::Semi), just(Tok::VSemi)))
        .repeated()
        .at_least(1);

    let mut expr =
        Recursive::<chumsky::recursive::Indirect<In<'t>, Expr, extra::Err<Er>>>::declare();

    let lambda = vars
        .clone()
        .or_not()
        .then(flag)
        .then(vars.clone())
        .then_ignore(just(Tok::Arrow))
        .then(expr.clone())
        .map_with(move |(((free, flag), args), body), e| Lambda {
            free,
            flag,
            args,
            body,
            span: sp(e.span()),
        });
    let binding = var
        .then_ignore(just(Tok::Equals))
        .then(lambda)
        .map(|(name, lambda)| Binding { name, lambda });

    // Recovery inside a block: an item that fails is skipped up to the next
    // separator of its block (respecting nested blocks and parentheses), so
    // the other items of the block are still parsed and their errors reported.
    let skip_item = custom(|inp| {
        let before = inp.cursor();
        let mut depth = 0usize;
        loop {
            match inp.peek() {
                None => break,
                Some(Tok::VOpen | Tok::LParen) => depth += 1,
                Some(Tok::VClose | Tok::RParen) => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                }
                Some(Tok::VSemi | Tok::Semi) if depth == 0 => break,
                Some(_) => {}
            }
            inp.skip();
        }
        Ok(inp.span_since(&before))
    });
    let dummy_expr = move |span: Span| Expr {
        kind: ExprKind::Lit(0),
        span,
    };
    // An item must end at a separator or the block's end; failing that, the
    // item fails as a whole and is recovered.
    let item_end = choice((just(Tok::Semi), just(Tok::VSemi), just(Tok::VClose))).rewind();
    let bindings = binding
        .clone()
        .then_ignore(item_end.clone())
        .recover_with(via_parser(skip_item.map(move |s: SimpleSpan| {
            let span = sp(s);
            Binding {
                name: Ident::new("", span),
                lambda: Lambda {
                    free: None,
                    flag: Flag::Updatable,
                    args: Box::default(),
                    body: dummy_expr(span),
                    span,
                },
            }
        })))
        .separated_by(sep.clone())
        .allow_leading()
        .allow_trailing()
        .collect::<Vec<_>>()
        .map(Vec::into_boxed_slice)
        .delimited_by(just(Tok::VOpen), just(Tok::VClose));

    let pattern = choice((
        con.then(vars.clone().or_not())
            .map(|(con, vars)| Pattern::Con {
                con,
                vars: vars.unwrap_or_default(),
            }),
        lit.map(|(n, s)| Pattern::Lit(n, s)),
        var.map(Pattern::Var),
        just(Tok::Default).map_with(move |_, e| Pattern::Default(sp(e.span()))),
    ))
    .labelled("a pattern");
    let alt = pattern
        .then_ignore(just(Tok::Arrow))
        .then(expr.clone())
        .map_with(move |(pattern, body), e| Alt {
            pattern,
            body,
            span: sp(e.span()),
        });
    let alts = alt
        .then_ignore(item_end)
        .recover_with(via_parser(skip_item.map(move |s: SimpleSpan| {
            let span = sp(s);
            Alt {
                pattern: Pattern::Default(span),
                body: dummy_expr(span),
                span,
            }
        })))
        .separated_by(sep)
        .allow_leading()
        .allow_trailing()
        .collect::<Vec<_>>()
        .map(Vec::into_boxed_slice)
        .delimited_by(just(Tok::VOpen), just(Tok::VClose));

    let let_expr = choice((just(Tok::Let).to(false), just(Tok::Letrec).to(true)))
        .then(bindings)
        .then_ignore(just(Tok::In))
        .then(expr.clone())
        .map(|((rec, bindings), body)| ExprKind::Let {
            rec,
            bindings,
            body: Box::new(body),
        });
    let case_expr = just(Tok::Case)
        .ignore_then(expr.clone())
        .then_ignore(just(Tok::Of))
        .then(alts)
        .map(|(scrutinee, alts)| ExprKind::Case {
            scrutinee: Box::new(scrutinee),
            alts,
        });
    let app = var
        .then(atoms.clone().or_not())
        .map(|(fun, args)| ExprKind::App {
            fun,
            args: args.unwrap_or_default(),
        });
    let con_app = con
        .then(atoms.clone().or_not())
        .map(|(con, args)| ExprKind::Con {
            con,
            args: args.unwrap_or_default(),
        });
    let prim_app = prim
        .then(atoms)
        .map(|((op, op_span), args)| ExprKind::Prim { op, op_span, args });
    // A parenthesised expression keeps its own span, so that what is said
    // about it points at it, not at the `(`.
    let paren = expr
        .clone()
        .delimited_by(just(Tok::LParen), just(Tok::RParen));

    let simple = choice((
        choice((
            let_expr,
            case_expr,
            app,
            con_app,
            prim_app,
            lit.map(|(n, _)| ExprKind::Lit(n)),
        ))
        .map_with(move |kind, e| Expr {
            kind,
            span: sp(e.span()),
        }),
        paren,
    ))
    .labelled("an expression");

    // `scc "a" scc "b" e`: a chain of prefixes folded right, without recursion.
    let scc_prefix = just(Tok::Scc)
        .ignore_then(string)
        .map_with(move |l, e| (l, sp(e.span())));
    expr.define(
        scc_prefix
            .repeated()
            .collect::<Vec<_>>()
            // The body's span as written, with its parentheses: an `scc`
            // extends to the `)` (the body itself keeps its own span).
            .then(simple.map_with(move |body, e| (body, sp(e.span()))))
            .map(|(prefixes, (mut body, written)): (Vec<_>, (Expr, Span))| {
                for ((label, label_span), kw_span) in prefixes.into_iter().rev() {
                    body = Expr {
                        span: kw_span.to(written),
                        kind: ExprKind::Scc {
                            label,
                            label_span,
                            body: Box::new(body),
                        },
                    };
                }
                body
            })
            .labelled("an expression"),
    );

    binding.then_ignore(end())
}

const KEYWORDS: [&str; 7] = ["let", "letrec", "in", "case", "of", "scc", "default"];

/// Edit distance with transpositions (optimal string alignment), for "did you mean".
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * w + j] = if i == 0 {
                j
            } else if j == 0 {
                i
            } else {
                let mut v = (d[(i - 1) * w + j - 1] + usize::from(a[i - 1] != b[j - 1]))
                    .min(d[(i - 1) * w + j] + 1)
                    .min(d[i * w + j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v = v.min(d[(i - 2) * w + j - 2] + 1);
                }
                v
            };
        }
    }
    d[a.len() * w + b.len()]
}

/// Help for Haskell written where STG is expected: `if`, `where`, a lambda's
/// arguments without braces (the lexer says what to write for `[`).
fn haskell_habit(found: Option<&Tok>, prev: Option<&Tok>) -> Option<String> {
    match (found, prev) {
        (Some(Tok::Var("where")), _) => Some(
            "STG has no `where`: bind the names with `let … in` (or `letrec … in`) around the expression".to_string(),
        ),
        (Some(Tok::Var("then" | "else")), _) | (_, Some(Tok::Var("if"))) => Some(
            "STG has no `if`: scrutinise the Bool, `case c of True {} -> e1; False {} -> e2`".to_string(),
        ),
        (Some(Tok::Var(_)), Some(Tok::Flag(_))) => Some(
            "a lambda's arguments are written in braces after the update flag: `\\r {x, y} -> body`".to_string(),
        ),
        _ => None,
    }
}

/// A keyword token (`case`, `let`, …), which cannot be a name.
fn is_keyword(t: &Tok) -> bool {
    matches!(
        t,
        Tok::Let | Tok::Letrec | Tok::In | Tok::Case | Tok::Of | Tok::Scc | Tok::Default
    )
}

/// Is the item's second token `=` (so that its first was meant as a name)?
fn has_equals_next<S>(slice: &[(Tok, S)]) -> bool {
    matches!(slice.get(1), Some((Tok::Equals, _)))
}

fn did_you_mean(word: &str) -> Option<&'static str> {
    if word.len() > 12 {
        return None;
    }
    KEYWORDS.into_iter().find(|k| {
        let d = distance(word, k);
        d == 1 && k.len() > 2 || d == 2 && k.len() >= 5 && word.len() >= 4
    })
}

fn describe_found(found: Option<&Tok>) -> String {
    match found {
        None => "the end of the binding".to_string(),
        Some(t) => t.to_string(),
    }
}

fn describe_pattern(p: &RichPattern<Tok>) -> String {
    match p {
        RichPattern::Token(t) if matches!(**t, Tok::Semi | Tok::VSemi | Tok::VClose) => {
            "the end of the item".to_string()
        }
        RichPattern::Token(t) => (**t).to_string(),
        RichPattern::Label(l) => l.to_string(),
        RichPattern::Identifier(i) => format!("`{i}`"),
        RichPattern::Any => "any token".to_string(),
        RichPattern::SomethingElse => "something else".to_string(),
        RichPattern::EndOfInput => "the end of the binding".to_string(),
        _ => "something else".to_string(),
    }
}

/// Whether only blanks precede byte `pos` on its line.
fn starts_line(text: &str, pos: usize) -> bool {
    let before = &text.as_bytes()[..pos.min(text.len())];
    before
        .iter()
        .rev()
        .take_while(|&&b| !lexer::is_line_break(b))
        .all(|&b| b == b' ' || b == b'\t')
}

fn to_diagnostic(
    file: FileId,
    text: &str,
    e: &Rich<Tok, SimpleSpan>,
    slice: &[(Tok, SimpleSpan)],
    end: usize,
) -> Diagnostic {
    let span = Span::new(file, e.span().start, e.span().end);
    let found = e.found();
    if let chumsky::error::RichReason::Custom(msg) = e.reason() {
        return Diagnostic::error(span, msg.clone());
    }
    let mut expected: Vec<String> = e.expected().map(describe_pattern).collect();
    expected.sort();
    expected.dedup();
    let exp_text = match expected.split_last() {
        None => "something else".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {}", rest.join(", "), last),
    };
    let found_text = describe_found(found);
    let has = |t: &Tok| {
        e.expected()
            .any(|p| matches!(p, RichPattern::Token(x) if **x == *t))
    };
    let has_label = |l: &str| {
        e.expected()
            .any(|p| matches!(p, RichPattern::Label(x) if x == l))
    };
    // Where the error is in the binding's tokens, and the real token before it.
    let idx = match found {
        None => slice.len(),
        Some(_) => slice
            .iter()
            .position(|(_, s)| s.start >= e.span().start)
            .unwrap_or(slice.len()),
    };
    let prev = slice[..idx]
        .iter()
        .rev()
        .map(|(t, _)| t)
        .find(|t| !matches!(t, Tok::VOpen | Tok::VSemi | Tok::VClose));

    // The first token of a top-level item cannot start a binding.
    if idx == 0 {
        let d = Diagnostic::error(
            span,
            format!("expected a top-level binding `name = …`, found {found_text}"),
        )
        .with_label("a line at the top level's column starts a new binding");
        return match found {
            Some(k) if is_keyword(k) && has_equals_next(slice) => {
                d.with_help(format!("{k} is a keyword: give the binding another name"))
            }
            _ => d.with_help(
                "if this line continues the previous binding, indent it further right; a binding is `name = {free} \\flag {args} -> body`",
            ),
        };
    }

    // `name` then not `=`: a bad binding head, or a continuation line that is not indented.
    if idx == 1 && has(&Tok::Equals) {
        return Diagnostic::error(
            span,
            format!("expected `=` after the binding's name, found {found_text}"),
        )
        .with_label("expected `=`")
        .with_help(
            "a binding is `name = {free} \\flag {args} -> body` (arguments come after the update flag); if this line continues the previous binding, indent it further right",
        );
    }

    // A line indented further right than its block continues the previous
    // item; when it cannot, it was probably meant to start a new item.
    let ends_item = has(&Tok::VSemi) || has(&Tok::VClose);
    if found.is_some() && ends_item && starts_line(text, e.span().start) {
        return Diagnostic::error(
            span,
            format!("expected {exp_text}, found {found_text}"),
        )
        .with_label("this line continues the previous one")
        .with_help(
            "a line indented further right than its block's items continues the previous line; to start a new binding or alternative, align it exactly with the first one",
        );
    }

    // A line left of its block's column ends the block (and every block
    // right of it); if it is not at the top level's column either, what it
    // starts can only continue the binding, which had nothing left to take.
    let only_end = e.expected().all(|p| matches!(p, RichPattern::EndOfInput));
    if found.is_some() && only_end && starts_line(text, e.span().start) {
        return Diagnostic::error(
            span,
            format!("expected the end of the binding, found {found_text}"),
        )
        .with_label("this line is left of the block above it, so that block ended")
        .with_help(
            "items of one block (the alternatives of a `case`, the bindings of a `let`) start at the same column: align this line with the others; a new top-level binding starts at column 1",
        );
    }

    let mut help: Option<String> = haskell_habit(found, prev);
    for w in [found, prev].into_iter().flatten() {
        if help.is_some() {
            break;
        }
        if let Tok::Var(w) = w
            && let Some(k) = did_you_mean(w)
        {
            help = Some(format!("did you mean `{k}`?"));
            break;
        }
    }
    if help.is_none() {
        help = match (found, prev) {
            _ if has_label("an update flag") => Some(
                "a lambda needs an update flag: \\u, \\s, \\r or \\n, as in `f = {free} \\r {args} -> body`".to_string(),
            ),
            (Some(Tok::RBrace), Some(Tok::Comma)) => {
                Some("remove the `,` before `}`".to_string())
            }
            (Some(Tok::LBrace | Tok::LParen), _) if has(&Tok::RBrace) || has(&Tok::Comma) => Some(
                "arguments must be variables or literals: bind anything else with `let` first".to_string(),
            ),
            (Some(Tok::LParen | Tok::Con(_) | Tok::LBrace | Tok::Prim(_)), _)
                if has_label("a variable") && has_label("a literal") =>
            {
                Some("arguments must be variables or literals: bind anything else with `let` first".to_string())
            }
            (Some(Tok::Var(_) | Tok::Int(_) | Tok::Con(_)), Some(Tok::Var(_) | Tok::Con(_) | Tok::Prim(_)))
                if has(&Tok::LBrace) =>
            {
                Some("arguments are written in braces, separated by commas: `f {x, 1#}`".to_string())
            }
            (Some(Tok::Con(_)), _) if has_label("a variable") => Some(
                "names of variables and bindings start with a lowercase letter or `_`".to_string(),
            ),
            (Some(Tok::In), _) => Some(
                "this `in` belongs to no open `let`: check that the `let` is there and that its bindings line up at one column".to_string(),
            ),
            (Some(Tok::VSemi), _) => Some(
                "the next line is at the block's column, so it starts a new item; indent a continuation line further right".to_string(),
            ),
            (Some(Tok::VClose), _) if has(&Tok::In) => Some(
                "every `let`/`letrec` needs `in` and a body after its bindings".to_string(),
            ),
            (Some(Tok::VClose), _) => Some(
                "the next line is left of the block's column, so the block ends here; indent a continuation line further right".to_string(),
            ),
            (None, _) if !has(&Tok::RParen) => Some(
                "the binding ends here, because the next line starts at the top level's column (or the file ends); indent a continuation line further right".to_string(),
            ),
            _ if has(&Tok::Arrow) => Some(
                "write `->` before the body: `\\r {args} -> body` in a lambda, `pattern -> body` in a `case`".to_string(),
            ),
            _ if has(&Tok::Equals) => Some(
                "a binding is `name = {free} \\flag {args} -> body`: the arguments come after the update flag".to_string(),
            ),
            _ if has(&Tok::In) => Some(
                "a `let` block ends with `in` and the body; bindings of one block start at the same column".to_string(),
            ),
            _ if has(&Tok::Of) => Some("a `case` is written `case e of alternatives`".to_string()),
            _ if has(&Tok::RParen) => Some("close the parenthesis with `)`".to_string()),
            (Some(Tok::Str(_)), _) => {
                Some("strings are only allowed as `scc` labels: `scc \"label\" e`".to_string())
            }
            _ if has_label("a label string") => {
                Some("`scc` needs a label string: `scc \"label\" e`".to_string())
            }
            _ => None,
        };
    }
    let span = if found.is_none() {
        Span::new(file, end, end)
    } else {
        span
    };
    let mut d = Diagnostic::error(span, format!("expected {exp_text}, found {found_text}"))
        .with_label(format!("expected {exp_text}"));
    if let Some(h) = help {
        d = d.with_help(h);
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(src: &str) -> Module {
        let (m, d) = parse_module(0, "t", src);
        assert!(d.is_empty(), "{d:#?}");
        m.unwrap()
    }

    #[test]
    fn simple_bindings() {
        let m = parse_ok("main = {} \\u {} -> f {x, 1#}\nf = \\r {a,b} -> +# {a, b}");
        assert_eq!(m.bindings.len(), 2);
        assert_eq!(m.bindings[0].lambda.free, Some(Box::default()));
        assert_eq!(m.bindings[1].lambda.free, None);
        assert_eq!(m.bindings[1].lambda.args.len(), 2);
        match &m.bindings[1].lambda.body.kind {
            ExprKind::Prim { op, args, .. } => {
                assert_eq!(*op, PrimOp::Add);
                assert_eq!(args.len(), 2);
            }
            k => panic!("{k:?}"),
        }
    }

    #[test]
    fn scc_extends_right() {
        let m = parse_ok("m = \\u {} -> scc \"a\" scc \"b\" f {x}");
        match &m.bindings[0].lambda.body.kind {
            ExprKind::Scc { label, body, .. } => {
                assert_eq!(label, "a");
                assert!(matches!(&body.kind, ExprKind::Scc { label, .. } if label == "b"));
            }
            k => panic!("{k:?}"),
        }
    }

    /// Issue 30: what is said about a parenthesised expression (a runtime
    /// error of its `case`, a checker's error about it) points at the
    /// expression itself, not at the `(` (nor at a `((` of nested ones).
    #[test]
    fn parenthesised_expression_keeps_its_own_span() {
        let src = "m = \\u {} -> scc \"a\" ((case c of\n    X -> 1#))";
        let m = parse_ok(src);
        let ExprKind::Scc { body, .. } = &m.bindings[0].lambda.body.kind else {
            panic!("{:?}", m.bindings[0].lambda.body.kind)
        };
        assert!(
            matches!(body.kind, ExprKind::Case { .. }),
            "{:?}",
            body.kind
        );
        let case = src.find("case").unwrap();
        let end = src.find("1#").unwrap() + 2;
        assert_eq!(body.span.range(), case..end);
        // The `scc` itself extends to the last `)`.
        let scc = &m.bindings[0].lambda.body;
        assert_eq!(scc.span.range(), src.find("scc").unwrap()..src.len());
    }

    #[test]
    fn every_form() {
        let src = "f = {a, b} \\s {} ->\n  case g of\n    C {x, y} -> scc \"l\" h {x, -5#}\n    D -> (E)\n    F {} -> letrec r = \\r {z} -> r {z} in r\n    -1# -> 7#\n    v -> negate# {v}\n    default -> let q = \\n {} -> Nil in q\n";
        let m = parse_ok(src);
        let lam = &m.bindings[0].lambda;
        assert_eq!(lam.flag, Flag::SingleEntry);
        assert_eq!(lam.free.as_ref().map(|f| f.len()), Some(2));
        let ExprKind::Case { scrutinee, alts } = &lam.body.kind else {
            panic!()
        };
        assert!(
            matches!(&scrutinee.kind, ExprKind::App { fun, args } if fun.name == "g" && args.is_empty())
        );
        assert_eq!(alts.len(), 6);
        assert!(matches!(&alts[0].pattern, Pattern::Con { vars, .. } if vars.len() == 2));
        match &alts[0].body.kind {
            ExprKind::Scc { label, body, .. } => {
                assert_eq!(label, "l");
                assert!(matches!(&body.kind, ExprKind::App { args, .. }
                    if matches!(args[1], Atom::Lit(-5, _))));
            }
            k => panic!("{k:?}"),
        }
        assert!(
            matches!(&alts[1].pattern, Pattern::Con { con, vars } if con.name == "D" && vars.is_empty())
        );
        assert!(
            matches!(&alts[1].body.kind, ExprKind::Con { con, args } if con.name == "E" && args.is_empty())
        );
        assert!(matches!(
            &alts[2].body.kind,
            ExprKind::Let { rec: true, .. }
        ));
        assert!(matches!(alts[3].pattern, Pattern::Lit(-1, _)));
        assert!(matches!(alts[3].body.kind, ExprKind::Lit(7)));
        assert!(matches!(&alts[4].pattern, Pattern::Var(v) if v.name == "v"));
        assert!(
            matches!(&alts[4].body.kind, ExprKind::Prim { op: PrimOp::Negate, args, .. } if args.len() == 1)
        );
        assert!(matches!(alts[5].pattern, Pattern::Default(_)));
        let ExprKind::Let {
            rec: false,
            bindings,
            ..
        } = &alts[5].body.kind
        else {
            panic!()
        };
        assert_eq!(bindings[0].lambda.flag, Flag::NonUpdatable);
        // Spans: an alternative covers its pattern and body, a binding name its text.
        assert_eq!(&src[alts[3].span.range()], "-1# -> 7#");
        assert_eq!(&src[alts[0].body.span.range()], "scc \"l\" h {x, -5#}");
    }

    #[test]
    fn errors_return_no_module() {
        let (m, d) = parse_module(0, "t", "f = \\r {x} -> x\ng = {} {x} -> x\n");
        assert!(m.is_none());
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].span.range(), 23..24);
    }

    #[test]
    fn did_you_mean_keywords() {
        assert_eq!(did_you_mean("leterc"), Some("letrec"));
        assert_eq!(did_you_mean("lte"), Some("let"));
        assert_eq!(did_you_mean("xs"), None);
        assert_eq!(did_you_mean("f"), None);
    }
}
