//! The chumsky parser: tokens (after layout) to the syntax tree.
//!
//! Pipeline: [`lexer::lex`] (hand-written) → [`layout::layout`] (virtual block
//! tokens, top level cut into bindings) → one chumsky parse per top-level
//! binding. Parsing each binding separately is the error recovery: every
//! binding with a mistake gets its own error, and a mistake never swallows the
//! bindings after it. Inside a binding, an empty `let`/`case` block is reported
//! without stopping the parse.
//!
//! Stack: chumsky's `recursive` grows the stack on the heap when needed (its
//! default `stacker` feature), and layout rejects nesting deeper than
//! [`layout::MAX_DEPTH`], so no input can overflow the stack, whatever thread
//! the parser runs on. `scc` chains are parsed by repetition, not recursion.

use crate::stg::diagnostic::Diagnostic;
use crate::stg::layout::{self, MAX_DEPTH};
use crate::stg::lexer::{self, Tok};
use crate::stg::syntax::*;
use chumsky::error::RichPattern;
use chumsky::input::{Input as _, MappedInput};
use chumsky::prelude::*;

type In<'t> = MappedInput<'t, Tok<'t>, SimpleSpan, &'t [(Tok<'t>, SimpleSpan)]>;
type Extra<'t> = extra::Err<Rich<'t, Tok<'t>, SimpleSpan>>;

/// Parses one module: every syntax error found, and the module if there were none.
///
/// Returns `None` exactly when at least one error was reported. Diagnostics are
/// in source order.
pub fn parse_module(
    file: FileId,
    module_name: &str,
    text: &str,
) -> (Option<Module>, Vec<Diagnostic>) {
    let (tokens, mut diags) = lexer::lex(file, text);
    let (laid, layout_diags) = layout::layout(file, tokens, text.len());
    diags.extend(layout_diags);
    // Tokens that the lexer already reported: parse errors there are not repeated.
    let lex_error_at: std::collections::HashSet<u32> = laid
        .tokens
        .iter()
        .filter(|t| t.tok == Tok::Error)
        .map(|t| t.start)
        .collect();
    let toks: Vec<(Tok<'_>, SimpleSpan)> = laid
        .tokens
        .into_iter()
        .map(|t| (t.tok, SimpleSpan::from(t.start as usize..t.end as usize)))
        .collect();
    let parser = binding_parser(file);
    let mut bindings = Vec::with_capacity(laid.items.len());
    for item in &laid.items {
        if item.poisoned {
            continue;
        }
        let slice = &toks[item.range.clone()];
        let end = slice.last().map_or(text.len(), |(_, s)| s.end);
        let input = slice.split_token_span(SimpleSpan::from(end..end));
        let (out, errs) = parser.parse(input).into_output_errors();
        let mut item_errors = false;
        for e in errs {
            item_errors = true;
            if let Some(Tok::Error) = e.found() {
                continue;
            }
            if lex_error_at.contains(&(e.span().start as u32)) {
                continue;
            }
            diags.push(to_diagnostic(file, &e, slice, end));
        }
        if let (Some(b), false) = (out, item_errors) {
            bindings.push(b);
        }
    }
    diags.sort_by_key(|d| d.span);
    if diags.iter().any(Diagnostic::is_error) {
        (None, diags)
    } else {
        (
            Some(Module {
                name: module_name.to_string(),
                file,
                bindings,
            }),
            diags,
        )
    }
}

fn binding_parser<'t>(file: FileId) -> impl Parser<'t, In<'t>, Binding, Extra<'t>> + Clone {
    let sp = move |s: SimpleSpan| Span::new(file, s.start, s.end);

    let var = select! { Tok::Var(v) = e => Ident::new(v, sp(e.span())) }.labelled("a variable");
    let con = select! { Tok::Con(c) = e => Ident::new(c, sp(e.span())) }.labelled("a constructor");
    let lit = select! { Tok::Int(n) = e => (n, sp(e.span())) }.labelled("a literal");
    let flag = select! { Tok::Flag(f) => f }.labelled("an update flag");
    let prim = select! { Tok::Prim(op) = e => (op, sp(e.span())) };
    let string = select! { Tok::Str(s) = e => (s, sp(e.span())) }.labelled("a label string");

    let atom = choice((var.map(Atom::Var), lit.map(|(n, s)| Atom::Lit(n, s))));
    let atoms = atom
        .separated_by(just(Tok::Comma))
        .collect::<Vec<_>>()
        .delimited_by(just(Tok::LBrace), just(Tok::RBrace));
    let vars = var
        .separated_by(just(Tok::Comma))
        .collect::<Vec<_>>()
        .delimited_by(just(Tok::LBrace), just(Tok::RBrace));
    let sep = choice((just(Tok::Semi), just(Tok::VSemi)))
        .repeated()
        .at_least(1);

    let mut expr = Recursive::<chumsky::recursive::Indirect<In<'t>, Expr, Extra<'t>>>::declare();

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

    let bindings = binding
        .clone()
        .separated_by(sep.clone())
        .allow_leading()
        .allow_trailing()
        .collect::<Vec<_>>()
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
        .separated_by(sep)
        .allow_leading()
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(just(Tok::VOpen), just(Tok::VClose));

    let let_expr = choice((just(Tok::Let).to(false), just(Tok::Letrec).to(true)))
        .map_with(move |rec, e| (rec, sp(e.span())))
        .then(bindings)
        .validate(
            |((rec, kw), bindings): ((bool, Span), Vec<Binding>), _, emitter| {
                if bindings.is_empty() {
                    let kw_text = if rec { "letrec" } else { "let" };
                    emitter.emit(Rich::custom(
                        SimpleSpan::from(kw.range()),
                        format!("empty `{kw_text}` block"),
                    ));
                }
                (rec, bindings)
            },
        )
        .then_ignore(just(Tok::In))
        .then(expr.clone())
        .map(|((rec, bindings), body)| ExprKind::Let {
            rec,
            bindings,
            body: Box::new(body),
        });
    let case_expr = just(Tok::Case)
        .ignore_then(expr.clone())
        .then(just(Tok::Of).map_with(move |_, e| sp(e.span())))
        .then(alts)
        .validate(
            |((scrutinee, of), alts): ((Expr, Span), Vec<Alt>), _, emitter| {
                if alts.is_empty() {
                    emitter.emit(Rich::custom(
                        SimpleSpan::from(of.range()),
                        "no alternatives after `of`",
                    ));
                }
                ExprKind::Case {
                    scrutinee: Box::new(scrutinee),
                    alts,
                }
            },
        );
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
    let paren = expr
        .clone()
        .delimited_by(just(Tok::LParen), just(Tok::RParen))
        .map(|e: Expr| e.kind);

    let simple = choice((
        let_expr,
        case_expr,
        app,
        con_app,
        prim_app,
        lit.map(|(n, _)| ExprKind::Lit(n)),
        paren,
    ))
    .map_with(move |kind, e| Expr {
        kind,
        span: sp(e.span()),
    })
    .labelled("an expression");

    // `scc "a" scc "b" e`: a chain of prefixes folded right, without recursion.
    let scc_prefix = just(Tok::Scc)
        .ignore_then(string)
        .map_with(move |l, e| (l, sp(e.span())));
    expr.define(scc_prefix.repeated().collect::<Vec<_>>().then(simple).map(
        |(prefixes, mut body): (Vec<_>, Expr)| {
            for ((label, label_span), kw_span) in prefixes.into_iter().rev() {
                body = Expr {
                    span: kw_span.to(body.span),
                    kind: ExprKind::Scc {
                        label,
                        label_span,
                        body: Box::new(body),
                    },
                };
            }
            body
        },
    ));

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
        RichPattern::Token(t) => (**t).to_string(),
        RichPattern::Label(l) => l.to_string(),
        RichPattern::Identifier(i) => format!("`{i}`"),
        RichPattern::Any => "any token".to_string(),
        RichPattern::SomethingElse => "something else".to_string(),
        RichPattern::EndOfInput => "the end of the binding".to_string(),
        _ => "something else".to_string(),
    }
}

fn to_diagnostic(
    file: FileId,
    e: &Rich<Tok, SimpleSpan>,
    slice: &[(Tok, SimpleSpan)],
    end: usize,
) -> Diagnostic {
    let span = Span::new(file, e.span().start, e.span().end);
    let found = e.found();
    if let chumsky::error::RichReason::Custom(msg) = e.reason() {
        let help = if msg.contains("let") {
            "a `let`/`letrec` needs at least one binding, on the same line or on a line indented further right than the enclosing block"
        } else {
            "a `case` needs at least one alternative after `of`, on the same line or on a line indented further right than the enclosing block"
        };
        return Diagnostic::error(span, msg.clone())
            .with_label("no items in this block")
            .with_help(help);
    }
    let mut expected: Vec<String> = e.expected().map(describe_pattern).collect();
    expected.sort();
    expected.dedup();
    // Virtual layout tokens are hard to name as "expected": say what they mean.
    let exp_text = match expected.len() {
        0 => "something else".to_string(),
        1 => expected[0].clone(),
        _ => {
            let (last, rest) = expected.split_last().unwrap_or((&expected[0], &[]));
            format!("{} or {}", rest.join(", "), last)
        }
    };
    let found_text = describe_found(found);
    let message = format!("expected {exp_text}, found {found_text}");
    let has = |t: &Tok| {
        e.expected()
            .any(|p| matches!(p, RichPattern::Token(x) if **x == *t))
    };
    let has_label = |l: &str| {
        e.expected()
            .any(|p| matches!(p, RichPattern::Label(x) if x == l))
    };
    // The token before the error, for context-dependent help.
    let idx = slice.iter().position(|(_, s)| s.start >= e.span().start);
    let prev = match idx {
        Some(0) => None,
        Some(i) => Some(&slice[i - 1].0),
        None => slice.last().map(|(t, _)| t),
    };
    let mut help: Option<String> = None;
    if let Some(Tok::Var(w)) = found
        && let Some(k) = did_you_mean(w)
    {
        help = Some(format!("did you mean `{k}`?"));
    }
    if help.is_none() {
        help = match (found, prev) {
            _ if has_label("an update flag") => Some(
                "a lambda needs an update flag: \\u, \\s, \\r or \\n, as in `f = {free} \\r {args} -> body`".to_string(),
            ),
            (Some(Tok::Var(_) | Tok::Int(_)), Some(Tok::Var(_) | Tok::Con(_) | Tok::Prim(_)))
                if has(&Tok::LBrace) =>
            {
                Some("arguments are written in braces, separated by commas: `f {x, 1#}`".to_string())
            }
            (Some(Tok::LParen | Tok::Con(_) | Tok::LBrace | Tok::Prim(_)), _)
                if has_label("a variable") && has_label("a literal") =>
            {
                Some("arguments must be variables or literals: bind anything else with `let` first".to_string())
            }
            (Some(Tok::Con(_)), _) if has_label("a variable") && has(&Tok::Equals).not() => Some(
                "names of variables and bindings start with a lowercase letter or `_`".to_string(),
            ),
            _ if has(&Tok::Arrow) => Some(match prev {
                Some(Tok::RBrace) if found == Some(&Tok::Equals) => {
                    "write `->` between the arguments and the body: `\\r {x} -> body`".to_string()
                }
                _ => "write `->` before the body (`\\r {args} -> body`, or `pattern -> body` in a `case`)".to_string(),
            }),
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
            (Some(Tok::VSemi | Tok::VClose), _) | (None, _) => Some(
                "a line at or left of a block's column ends the item; indent continuation lines further right".to_string(),
            ),
            _ if has_label("a label string") => {
                Some("`scc` needs a label string: `scc \"label\" e`".to_string())
            }
            _ => None,
        };
    }
    let label = format!("expected {exp_text}");
    let span = if found.is_none() {
        Span::new(file, end, end)
    } else {
        span
    };
    let mut d = Diagnostic::error(span, message).with_label(label);
    if let Some(h) = help {
        d = d.with_help(h);
    }
    d
}

trait Not {
    fn not(self) -> bool;
}
impl Not for bool {
    fn not(self) -> bool {
        !self
    }
}

/// For tests and tools: how deep nesting may go before it is an error.
pub const NESTING_LIMIT: usize = MAX_DEPTH;

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
        assert_eq!(m.bindings[0].lambda.free, Some(vec![]));
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

    #[test]
    fn did_you_mean_keywords() {
        assert_eq!(did_you_mean("leterc"), Some("letrec"));
        assert_eq!(did_you_mean("lte"), Some("let"));
        assert_eq!(did_you_mean("xs"), None);
        assert_eq!(did_you_mean("f"), None);
    }
}
