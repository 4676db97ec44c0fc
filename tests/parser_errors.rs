//! Every kind of syntax error, rendered in full as the user sees it
//! (`Diagnostic::render` without colour). Each snapshot was read and judged on
//! "does it say where, what was expected, what was found, and what to do?".

use stg_run::internal::stg::parser::parse_module;
use stg_run::internal::stg::source::SourceMap;

/// Parses `text` as `test.stg` and renders every diagnostic.
fn errors(text: &str) -> String {
    let mut sources = SourceMap::new();
    let id = sources.add("test.stg", text);
    let (module, diags) = parse_module(id, "test", text);
    assert!(module.is_none(), "expected a syntax error in:\n{text}");
    assert!(!diags.is_empty());
    diags
        .iter()
        .map(|d| d.render(&sources, false))
        .collect::<Vec<_>>()
        .join("\n")
}

macro_rules! snap {
    ($name:ident, $src:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(errors($src));
        }
    };
}

// Unexpected token: an argument list without braces.
snap!(
    unexpected_token_args_without_braces,
    "main = {} \\u {} -> f x\n"
);
// Unexpected token: an expression where only an atom may go.
snap!(non_atom_argument, "main = {} \\u {} -> f {g {x}}\n");
// Missing `->` after the arguments.
snap!(missing_arrow, "f = {} \\r {x} x\n");
// Missing `->` in a case alternative.
snap!(
    missing_arrow_in_alt,
    "f = {} \\r {x} ->\n  case x of\n    Nil {} Nil\n"
);
// Missing update flag.
snap!(missing_flag, "f = {} {x} -> x\n");
// Unknown update flag.
snap!(unknown_flag, "f = {} \\x {x} -> x\n");
// Unclosed comment.
snap!(unclosed_comment, "{- a comment\nmain = {} \\u {} -> x\n");
// `{-1#}` opens a comment.
snap!(brace_minus_literal, "main = {} \\u {} -> f {-1#}\n");
// The same where the comment cuts a case short: only the comment is
// reported, not the parser's complaint at the end of what is left.
snap!(
    brace_minus_literal_in_a_scrutinee,
    "main = {} \\u {} -> case negate# {-5#} of r -> I# {r}\n"
);
// Unterminated string.
snap!(unterminated_string, "main = {} \\u {} -> scc \"abc\n");
// Bad escape.
snap!(bad_escape, "main = {} \\u {} -> scc \"a\\tb\" x\n");
// Literal out of range.
snap!(
    literal_out_of_range,
    "main = {} \\u {} -> 9223372036854775808#\n"
);
// Literal without `#`.
snap!(literal_without_hash, "main = {} \\u {} -> f {42}\n");
// Unknown primitive operation.
snap!(unknown_primitive, "main = {} \\u {} -> **# {x, y}\n");
// An operator without `#`.
snap!(operator_without_hash, "main = {} \\u {} -> + {x, y}\n");
// Unexpected character.
snap!(unexpected_character, "main = {} \\u {} -> f {x} ¤\n");
// Misspelt keyword.
snap!(
    did_you_mean_letrec,
    "main = {} \\u {} ->\n  leterc x = {} \\u {} -> y in x\n"
);
// Layout: an empty `let` block (bindings not indented right of the enclosing block).
snap!(
    empty_let_block,
    "main = {} \\u {} -> let\nx = {} \\u {} -> y\n  in x\n"
);
// Layout: empty case alternatives.
snap!(empty_case, "main = {} \\u {} -> case x of\nA -> y\n");
// Layout: a line left of the top level.
snap!(
    left_of_top_level,
    "  f = {} \\r {x} -> x\nmain = {} \\u {} -> f {one}\n"
);
// Layout: a continuation line not indented (the binding ends early).
snap!(continuation_not_indented, "main = {} \\u {} ->\nf {x}\n");
// Layout: `in` missing, the block's items misaligned.
snap!(
    misaligned_let_bindings,
    "main = {} \\u {} ->\n  let a = {} \\u {} -> x\n     b = {} \\u {} -> y\n  in a\n"
);
// Missing `)`.
snap!(missing_paren, "main = {} \\u {} -> (f {x}\n");
// Too deep.
snap!(
    too_deep,
    &format!(
        "main = {{}} \\u {{}} ->\n{}  x{}\n",
        "  (\n".repeat(1100),
        ")".repeat(1100)
    )
);
// Arguments before `=`.
snap!(args_before_equals, "f x = {} \\r {} -> x\n");
// A string outside scc.
snap!(string_not_scc, "main = {} \\u {} -> \"hello\"\n");
// scc without a label.
snap!(scc_without_label, "main = {} \\u {} -> scc f {x}\n");
// Several errors in one file: one per binding, the good bindings in between do not hide them.
snap!(
    several_errors,
    "f = {} \\r {x} x\ng = {} \\r {x} -> x\nh = {} {x} -> x\nmain = {} \\u {} -> f {1#, }\n"
);
// Several errors inside one binding: each alternative and each let binding is recovered separately.
snap!(
    several_errors_in_one_binding,
    "main = {} \\u {} ->\n  case x of\n    A {} -> f x\n    B {} -> let a = {} {} -> y\n                b = {} \\u {} -> g {1#, }\n            in a\n    C -> h {z}\n"
);
// Non-ASCII text before the error: the underline must still be under the error
// (spans are byte offsets; the renderer must count bytes, not characters).
snap!(
    non_ascii_before_error,
    "-- café, naïve, 日本\nf = {} \\r {x} -> «x»\n"
);
// Layout: an alternative indented further than the first one continues the previous line.
snap!(
    misaligned_alternative,
    "f = {} \\r {x} ->\n  case x of\n    A -> y\n     B -> z\n"
);

// Haskell habits get help in STG's terms.
// A lambda's arguments without braces.
snap!(lambda_args_without_braces, "f = {} \\r x y -> x {}\n");
// `where`.
snap!(haskell_where, "main = {} \\u {} -> f {1#} where f = 1#\n");
// `if … then … else`.
snap!(haskell_if, "main = {} \\u {} -> if x then 1# else 2#\n");
// List brackets.
snap!(haskell_list_brackets, "main = {} \\u {} -> f {[x, y]}\n");
// A keyword as a binding's name.
snap!(keyword_as_name, "case = {} \\u {} -> 1#\n");

// A line of generated code thousands of characters long is shown as a
// window around the place, not whole.
#[test]
fn long_line_shown_as_a_window() {
    let lets: String = (0..400)
        .map(|i| format!("let x{i} = {{}} \\r {{}} -> I# {{{i}#}} in "))
        .collect();
    let text = format!("main = {{}} \\u {{}} -> {lets}f {{x1 x2}}\n");
    let out = errors(&text);
    assert!(out.len() < 1000, "{} bytes", out.len());
    insta::assert_snapshot!(out);
}
// An alternative left of the others: the `case` block ends before it, and
// what is left of the binding cannot take it.
snap!(
    alternative_left_of_its_block,
    "main = {} \\u {} ->\n  case f {} of\n    Nil {} -> 0#\n  Cons {x, xs} -> 1#\nf = {} \\u {} -> Nil\n"
);
