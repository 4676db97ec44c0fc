//! Tokens of the `.stg` language: the lexer (longest match, nested comments).
//!
//! Written by hand (not with chumsky): the token rules are few, longest-match
//! and nested comments are simplest as a loop, and a hand lexer keeps precise
//! control over error recovery and over the line/column that layout needs.
//!
//! The lexer never fails: a malformed token becomes a diagnostic plus either a
//! best-effort token (an out-of-range literal lexes as `0#`, an unterminated
//! string as the text up to the end of the line) or [`Tok::Error`]. The parser
//! does not report its own errors in a binding after a lexical error there, so
//! one mistake is reported once.
//!
//! Columns count characters from 1; a tab advances to the next multiple of 8
//! (plus one), as in Haskell.

use crate::stg::diagnostic::Diagnostic;
use crate::stg::syntax::{FileId, Flag, PrimOp, Span};
use std::fmt;

/// One token. Names borrow from the source text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok<'a> {
    /// A variable such as `x`, `n#`, `go'`.
    Var(&'a str),
    /// A constructor such as `Nil`, `I#`.
    Con(&'a str),
    /// An integer literal `-?[0-9]+#`.
    Int(i64),
    /// A string literal, escapes already decoded.
    Str(String),
    Prim(PrimOp),
    Flag(Flag),
    Let,
    Letrec,
    In,
    Case,
    Of,
    Scc,
    Default,
    LBrace,
    RBrace,
    Comma,
    Equals,
    Arrow,
    LParen,
    RParen,
    Semi,
    /// Layout: a block opened by `let`, `letrec` or `of`.
    VOpen,
    /// Layout: a new item of the innermost block (a line at the block's column).
    VSemi,
    /// Layout: the end of the innermost block.
    VClose,
    /// A malformed token, already reported by the lexer.
    Error,
}

impl fmt::Display for Tok<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Tok::Var(s) => write!(f, "variable `{s}`"),
            Tok::Con(s) => write!(f, "constructor `{s}`"),
            Tok::Int(n) => write!(f, "literal `{n}#`"),
            Tok::Str(s) => write!(f, "string {s:?}"),
            Tok::Prim(op) => write!(f, "primitive `{}`", op.as_str()),
            Tok::Flag(fl) => write!(f, "update flag `{}`", fl.as_str()),
            Tok::Let => write!(f, "`let`"),
            Tok::Letrec => write!(f, "`letrec`"),
            Tok::In => write!(f, "`in`"),
            Tok::Case => write!(f, "`case`"),
            Tok::Of => write!(f, "`of`"),
            Tok::Scc => write!(f, "`scc`"),
            Tok::Default => write!(f, "`default`"),
            Tok::LBrace => write!(f, "`{{`"),
            Tok::RBrace => write!(f, "`}}`"),
            Tok::Comma => write!(f, "`,`"),
            Tok::Equals => write!(f, "`=`"),
            Tok::Arrow => write!(f, "`->`"),
            Tok::LParen => write!(f, "`(`"),
            Tok::RParen => write!(f, "`)`"),
            Tok::Semi => write!(f, "`;`"),
            Tok::VOpen => write!(f, "the start of a block"),
            Tok::VSemi => write!(f, "a new line at the block's column"),
            Tok::VClose => write!(f, "the end of the block"),
            Tok::Error => write!(f, "a malformed token"),
        }
    }
}

/// A token with its place: byte range, and 1-based line and column of its start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub tok: Tok<'a>,
    pub start: u32,
    pub end: u32,
    pub line: u32,
    pub col: u32,
}

/// Width of a tab stop for layout columns.
pub const TAB_WIDTH: u32 = 8;

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'\''
}

/// Whether `c` ends a line: LF or CR (CRLF is one break, which
/// the lexer takes whole).
pub fn is_line_break(c: u8) -> bool {
    c == b'\n' || c == b'\r'
}

fn is_symbol_char(c: u8) -> bool {
    matches!(
        c,
        b'+' | b'-'
            | b'*'
            | b'/'
            | b'%'
            | b'='
            | b'<'
            | b'>'
            | b'!'
            | b'&'
            | b'|'
            | b'^'
            | b'~'
            | b'.'
            | b':'
            | b'?'
            | b'@'
            | b'$'
    )
}

/// The list of primitive operations, for help texts.
pub fn known_primops() -> String {
    PrimOp::ALL
        .iter()
        .map(|op| format!("`{}`", op.as_str()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The lexer, run a token at a time ([`Lexer::next_token`]) so that the
/// front end never holds a whole file's tokens (docs/PERFORMANCE.md,
/// "Large valid input"); [`lex`] collects them all.
pub struct Lexer<'a> {
    file: FileId,
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// Current line (1-based) and the byte where it starts.
    line: u32,
    line_start: usize,
    /// Column cursor on the current line: byte `col_pos` is at column `col`.
    col_pos: usize,
    col: u32,
    /// Tokens lexed and not yet taken (at most one per step).
    tokens: std::collections::VecDeque<Token<'a>>,
    /// Every lexical error so far, in the order found.
    pub diags: Vec<Diagnostic>,
}

/// Splits `text` into tokens (no layout tokens yet), with every lexical error.
pub fn lex(file: FileId, text: &str) -> (Vec<Token<'_>>, Vec<Diagnostic>) {
    let mut lx = Lexer::new(file, text);
    let mut tokens = Vec::new();
    while let Some(t) = lx.next_token() {
        tokens.push(t);
    }
    (tokens, lx.diags)
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `text`.
    pub fn new(file: FileId, text: &'a str) -> Lexer<'a> {
        let mut lx = Lexer {
            file,
            src: text,
            bytes: text.as_bytes(),
            pos: 0,
            line: 1,
            line_start: 0,
            col_pos: 0,
            col: 1,
            tokens: std::collections::VecDeque::new(),
            diags: Vec::new(),
        };
        // A byte-order mark is not part of the text (and takes no column).
        if text.starts_with('\u{FEFF}') {
            lx.pos = 3;
            lx.line_start = 3;
            lx.col_pos = 3;
        }
        lx
    }

    /// The next token, or `None` at the end of the text; lexical errors met
    /// on the way are added to [`Lexer::diags`].
    pub fn next_token(&mut self) -> Option<Token<'a>> {
        loop {
            if let Some(t) = self.tokens.pop_front() {
                return Some(t);
            }
            if self.pos >= self.bytes.len() {
                return None;
            }
            self.step();
        }
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    /// A line break (LF, CR, or the LF of CRLF) at byte `i`.
    fn newline_at(&mut self, i: usize) {
        self.line += 1;
        self.line_start = i + 1;
        self.col_pos = i + 1;
        self.col = 1;
    }

    /// Column of byte `pos` on the current line (amortised linear: the cursor only moves forward).
    fn column(&mut self, pos: usize) -> u32 {
        if self.col_pos < self.line_start {
            self.col_pos = self.line_start;
            self.col = 1;
        }
        let mut col = self.col;
        for &b in &self.bytes[self.col_pos..pos] {
            if b == b'\t' {
                col = ((col - 1) / TAB_WIDTH + 1) * TAB_WIDTH + 1;
            } else if b & 0xC0 != 0x80 {
                // Count characters: skip UTF-8 continuation bytes.
                col += 1;
            }
        }
        self.col_pos = pos;
        self.col = col;
        col
    }

    fn push(&mut self, tok: Tok<'a>, start: usize, end: usize) {
        let col = self.column(start);
        self.tokens.push_back(Token {
            tok,
            start: start as u32,
            end: end as u32,
            line: self.line,
            col,
        });
    }

    fn peek(&self, off: usize) -> u8 {
        self.bytes.get(self.pos + off).copied().unwrap_or(0)
    }

    /// One step at `pos` (before the end): a token, a blank, a comment or
    /// a line break.
    fn step(&mut self) {
        let c = self.bytes[self.pos];
        match c {
            b'\n' | b'\r' => self.line_break(),
            b' ' | b'\t' | 0x0C => self.pos += 1,
            b'-' if self.peek(1) == b'-' => {
                while self.pos < self.bytes.len() && !is_line_break(self.bytes[self.pos]) {
                    self.pos += 1;
                }
            }
            b'{' if self.peek(1) == b'-' => self.block_comment(),
            b'-' if self.peek(1).is_ascii_digit() => self.number(),
            b'0'..=b'9' => self.number(),
            b'a'..=b'z' | b'_' | b'A'..=b'Z' => self.ident(),
            b'"' => self.string(),
            b'\\' => self.flag(),
            b'{' => self.single(Tok::LBrace),
            b'}' => self.single(Tok::RBrace),
            b',' => self.single(Tok::Comma),
            b'(' => self.single(Tok::LParen),
            b')' => self.single(Tok::RParen),
            b';' => self.single(Tok::Semi),
            _ if is_symbol_char(c) || c == b'#' => self.symbol(),
            _ => self.unexpected_char(),
        }
    }

    /// Past the line break at `pos`: LF, CR, or CRLF (one break, as in
    /// Haskell).
    fn line_break(&mut self) {
        if self.bytes[self.pos] == b'\r' && self.peek(1) == b'\n' {
            self.pos += 1;
        }
        self.newline_at(self.pos);
        self.pos += 1;
    }

    fn single(&mut self, tok: Tok<'a>) {
        self.push(tok, self.pos, self.pos + 1);
        self.pos += 1;
    }

    fn block_comment(&mut self) {
        let start = self.pos;
        let mut depth = 0usize;
        let n = self.bytes.len();
        while self.pos < n {
            let c = self.bytes[self.pos];
            if c == b'{' && self.peek(1) == b'-' {
                depth += 1;
                self.pos += 2;
            } else if c == b'-' && self.peek(1) == b'}' {
                depth -= 1;
                self.pos += 2;
                if depth == 0 {
                    return;
                }
            } else if is_line_break(c) {
                self.line_break();
            } else {
                self.pos += 1;
            }
        }
        // Unclosed: point at the opening `{-`.
        let mut d = Diagnostic::error(self.span(start, start + 2), "unclosed comment")
            .with_label("this `{-` is never closed by a matching `-}`");
        let after = &self.bytes[start + 2..];
        if after.first().is_some_and(|b| b.is_ascii_digit()) {
            d = d.with_help(
                "`{-` always opens a comment, as in Haskell: for a negative literal in braces write `{ -1#}`, with a space",
            );
        } else {
            d = d.with_help(
                "close the comment with `-}` (comments nest: every `{-` needs its own `-}`)",
            );
        }
        self.diags.push(d);
    }

    fn number(&mut self) {
        let start = self.pos;
        if self.bytes[self.pos] == b'-' {
            self.pos += 1;
        }
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        let digits_end = self.pos;
        let text = &self.src[start..digits_end];
        if self.peek(0) == b'#' {
            self.pos += 1;
        } else {
            self.diags.push(
                Diagnostic::error(
                    self.span(start, digits_end),
                    format!("integer literal `{text}` without `#`"),
                )
                .with_label("literals are unboxed `Int#`s and end in `#`")
                .with_help(format!(
                    "write `{text}#`; for a boxed integer write `I# {{{text}#}}`"
                )),
            );
        }
        let value = match text.parse::<i64>() {
            Ok(v) => v,
            Err(_) => {
                self.diags.push(
                    Diagnostic::error(self.span(start, self.pos), "literal out of range")
                        .with_label("does not fit in a 64-bit signed `Int#`")
                        .with_help(format!(
                            "integer literals must lie between {}# and {}#",
                            i64::MIN,
                            i64::MAX
                        )),
                );
                0
            }
        };
        self.push(Tok::Int(value), start, self.pos);
    }

    fn ident(&mut self) {
        let start = self.pos;
        self.pos += 1;
        while is_ident_char(self.peek(0)) {
            self.pos += 1;
        }
        if self.peek(0) == b'#' {
            self.pos += 1;
        }
        let text = &self.src[start..self.pos];
        let first = self.bytes[start];
        let tok = if first.is_ascii_uppercase() {
            Tok::Con(text)
        } else {
            match text {
                "let" => Tok::Let,
                "letrec" => Tok::Letrec,
                "in" => Tok::In,
                "case" => Tok::Case,
                "of" => Tok::Of,
                "scc" => Tok::Scc,
                "default" => Tok::Default,
                "negate#" => Tok::Prim(PrimOp::Negate),
                _ => Tok::Var(text),
            }
        };
        self.push(tok, start, self.pos);
    }

    fn string(&mut self) {
        let start = self.pos;
        self.pos += 1;
        let mut value = String::new();
        loop {
            let c = self.peek(0);
            if self.pos >= self.bytes.len() || is_line_break(c) {
                self.diags.push(
                    Diagnostic::error(self.span(start, self.pos), "unterminated string")
                        .with_label("this string has no closing `\"` on its line")
                        .with_help("close the string with `\"` before the end of the line (write a newline as `\\n`)"),
                );
                break;
            }
            if c == b'"' {
                self.pos += 1;
                break;
            }
            if c == b'\\' {
                let e = self.peek(1);
                match e {
                    b'"' => value.push('"'),
                    b'\\' => value.push('\\'),
                    b'n' => value.push('\n'),
                    b'r' => value.push('\r'),
                    _ => {
                        let esc_len = if e == 0 || is_line_break(e) {
                            1
                        } else {
                            1 + self.src[self.pos + 1..]
                                .chars()
                                .next()
                                .map_or(1, char::len_utf8)
                        };
                        self.diags.push(
                            Diagnostic::error(
                                self.span(self.pos, self.pos + esc_len),
                                "unknown escape in string",
                            )
                            .with_label("not one of `\\\"`, `\\\\`, `\\n`, `\\r`")
                            .with_help("strings allow only the escapes `\\\"`, `\\\\`, `\\n` and `\\r`; write a backslash as `\\\\`"),
                        );
                        if e == 0 || is_line_break(e) {
                            self.pos += 1;
                            continue;
                        }
                        self.pos += esc_len;
                        continue;
                    }
                }
                self.pos += 2;
                continue;
            }
            if c == 0 {
                self.diags.push(
                    Diagnostic::error(self.span(self.pos, self.pos + 1), "a NUL character in a string")
                        .with_label("NUL (byte 0)")
                        .with_help("remove it: a string is a cost-centre label, and the profile stores labels NUL-terminated"),
                );
                self.pos += 1;
                continue;
            }
            // Copy one whole character.
            let ch = self.src[self.pos..].chars().next().unwrap_or('\u{FFFD}');
            value.push(ch);
            self.pos += ch.len_utf8();
        }
        self.push(Tok::Str(value), start, self.pos);
    }

    fn flag(&mut self) {
        let start = self.pos;
        let c = self.peek(1);
        let flag = match c {
            b'u' => Some(Flag::Updatable),
            b's' => Some(Flag::SingleEntry),
            b'r' => Some(Flag::Reentrant),
            b'n' => Some(Flag::NonUpdatable),
            _ => None,
        };
        match flag {
            Some(f) if !is_ident_char(self.peek(2)) => {
                self.pos += 2;
                self.push(Tok::Flag(f), start, self.pos);
            }
            _ => {
                // Take the backslash and any letters after it as one bad token.
                self.pos += 1;
                while is_ident_char(self.peek(0)) {
                    self.pos += 1;
                }
                let text = &self.src[start..self.pos];
                self.diags.push(
                    Diagnostic::error(
                        self.span(start, self.pos),
                        format!("unknown update flag `{text}`"),
                    )
                    .with_label("not an update flag")
                    .with_help("a lambda needs an update flag: \\u, \\s, \\r or \\n"),
                );
                self.push(Tok::Error, start, self.pos);
            }
        }
    }

    fn symbol(&mut self) {
        let start = self.pos;
        while is_symbol_char(self.peek(0)) {
            self.pos += 1;
        }
        if self.peek(0) == b'#' {
            self.pos += 1;
        }
        let text = &self.src[start..self.pos];
        let tok = match text {
            "->" => Tok::Arrow,
            "=" => Tok::Equals,
            _ => match PrimOp::from_str(text) {
                Some(op) => Tok::Prim(op),
                None => {
                    let d = if text.ends_with('#') {
                        Diagnostic::error(
                            self.span(start, self.pos),
                            format!("unknown primitive operation `{text}`"),
                        )
                        .with_label("not a primitive operation")
                        .with_help(format!("the primitive operations are {}", known_primops()))
                    } else {
                        let mut d = Diagnostic::error(
                            self.span(start, self.pos),
                            format!("unexpected `{text}`"),
                        )
                        .with_label("not a token of the language");
                        if text == "-" && self.peek(0) == b'}' {
                            d = Diagnostic::error(
                                self.span(start, self.pos + 1),
                                "`-}` without an open comment",
                            )
                            .with_label("no `{-` before this closes")
                            .with_help("remove it, or open the comment with `{-`");
                            self.pos += 1;
                        } else if matches!(text, "=>" | "=>>" | "-->>") {
                            d = d.with_help("write `->` between arguments or pattern and body");
                        } else if let Some(op) = PrimOp::from_str(&format!("{text}#")) {
                            d = d.with_help(format!(
                                "primitive operations end in `#`: write `{}`",
                                op.as_str()
                            ));
                        } else {
                            d = d.with_help(format!(
                                "operators are written as primitive operations on `Int#`: {}",
                                known_primops()
                            ));
                        }
                        d
                    };
                    self.diags.push(d);
                    Tok::Error
                }
            },
        };
        self.push(tok, start, self.pos);
    }

    fn unexpected_char(&mut self) {
        let start = self.pos;
        let ch = self.src[start..].chars().next().unwrap_or('\u{FFFD}');
        self.pos += ch.len_utf8().max(1);
        // A whole run of characters that start no token is one error.
        let mut count = 1;
        while let Some(c) = self.src[self.pos..].chars().next() {
            let starts_token = c.is_ascii_alphanumeric()
                || c.is_ascii_whitespace()
                || (c.is_ascii() && (is_symbol_char(c as u8) || "_{}(),;\"#\\".contains(c)));
            if starts_token {
                break;
            }
            self.pos += c.len_utf8();
            count += 1;
        }
        let message = if count == 1 {
            format!("unexpected character {ch:?}")
        } else {
            format!("unexpected characters {:?}", &self.src[start..self.pos])
        };
        let help = if matches!(ch, '[' | ']') {
            "STG has no list syntax: a list is built with `Cons {x, xs}` and `Nil {}`, each cell bound with `let`"
        } else {
            "remove it; names use ASCII letters, digits, `_` and `'`"
        };
        self.diags.push(
            Diagnostic::error(self.span(start, self.pos), message)
                .with_label("not part of any token")
                .with_help(help),
        );
        self.push(Tok::Error, start, self.pos);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok<'_>> {
        let (t, d) = lex(0, s);
        assert!(d.is_empty(), "unexpected diagnostics: {d:?}");
        t.into_iter().map(|t| t.tok).collect()
    }

    fn errs(s: &str) -> Vec<String> {
        lex(0, s).1.into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn longest_match() {
        assert_eq!(
            toks("/=# /# -3# -# -> = ==# <=# <# >=# >#"),
            vec![
                Tok::Prim(PrimOp::Ne),
                Tok::Prim(PrimOp::Quot),
                Tok::Int(-3),
                Tok::Prim(PrimOp::Sub),
                Tok::Arrow,
                Tok::Equals,
                Tok::Prim(PrimOp::Eq),
                Tok::Prim(PrimOp::Le),
                Tok::Prim(PrimOp::Lt),
                Tok::Prim(PrimOp::Ge),
                Tok::Prim(PrimOp::Gt),
            ]
        );
        assert_eq!(
            toks("+#*#%#negate#"),
            vec![
                Tok::Prim(PrimOp::Add),
                Tok::Prim(PrimOp::Mul),
                Tok::Prim(PrimOp::Rem),
                Tok::Prim(PrimOp::Negate)
            ]
        );
    }

    #[test]
    fn names_keywords_flags() {
        assert_eq!(
            toks(
                "x n# go' _a I# Nil let letrec in case of scc default lets negate \\u \\s \\r \\n"
            ),
            vec![
                Tok::Var("x"),
                Tok::Var("n#"),
                Tok::Var("go'"),
                Tok::Var("_a"),
                Tok::Con("I#"),
                Tok::Con("Nil"),
                Tok::Let,
                Tok::Letrec,
                Tok::In,
                Tok::Case,
                Tok::Of,
                Tok::Scc,
                Tok::Default,
                Tok::Var("lets"),
                Tok::Var("negate"),
                Tok::Flag(Flag::Updatable),
                Tok::Flag(Flag::SingleEntry),
                Tok::Flag(Flag::Reentrant),
                Tok::Flag(Flag::NonUpdatable),
            ]
        );
        assert_eq!(
            toks("{x,y}->(f);"),
            vec![
                Tok::LBrace,
                Tok::Var("x"),
                Tok::Comma,
                Tok::Var("y"),
                Tok::RBrace,
                Tok::Arrow,
                Tok::LParen,
                Tok::Var("f"),
                Tok::RParen,
                Tok::Semi
            ]
        );
    }

    #[test]
    fn literals() {
        assert_eq!(
            toks("0# 42# -9223372036854775808# 9223372036854775807#"),
            vec![
                Tok::Int(0),
                Tok::Int(42),
                Tok::Int(i64::MIN),
                Tok::Int(i64::MAX)
            ]
        );
        assert_eq!(errs("9223372036854775808#"), vec!["literal out of range"]);
        assert_eq!(errs("-9223372036854775809#"), vec!["literal out of range"]);
        assert_eq!(errs("5"), vec!["integer literal `5` without `#`"]);
    }

    #[test]
    fn comments() {
        assert_eq!(toks("a -- b c\nd"), vec![Tok::Var("a"), Tok::Var("d")]);
        assert_eq!(
            toks("a {- b {- c -} d -} e"),
            vec![Tok::Var("a"), Tok::Var("e")]
        );
        assert_eq!(errs("a {- b {- c -} d"), vec!["unclosed comment"]);
        let (_, d) = lex(0, "f {-1#}");
        assert_eq!(d[0].span.range(), 2..4);
        assert!(d[0].help.as_deref().unwrap().contains("{ -1#}"));
    }

    #[test]
    fn strings() {
        assert_eq!(
            toks(r#""a\"b\\c\nd""#),
            vec![Tok::Str("a\"b\\c\nd".to_string())]
        );
        assert_eq!(errs("\"abc\nx"), vec!["unterminated string"]);
        assert_eq!(errs(r#""a\qb""#), vec!["unknown escape in string"]);
        assert_eq!(errs("\"a\0b\""), vec!["a NUL character in a string"]);
    }

    #[test]
    fn bad_tokens() {
        assert_eq!(errs("**#"), vec!["unknown primitive operation `**#`"]);
        assert_eq!(errs("<>#"), vec!["unknown primitive operation `<>#`"]);
        assert_eq!(errs("x ¤ y"), vec!["unexpected character '¤'"]);
        assert_eq!(errs("x ¤¤`é y"), vec!["unexpected characters \"¤¤`é\""]);
        assert_eq!(errs("\\x"), vec!["unknown update flag `\\x`"]);
        assert_eq!(errs("+"), vec!["unexpected `+`"]);
        assert_eq!(errs("x -} y"), vec!["`-}` without an open comment"]);
        let (t, _) = lex(0, "x -} y");
        assert_eq!(t.len(), 3);
    }

    #[test]
    fn byte_order_mark_and_crlf() {
        let (t, d) = lex(0, "\u{FEFF}a = b\r\nc\r\n");
        assert!(d.is_empty());
        let pos: Vec<(u32, u32)> = t.iter().map(|t| (t.line, t.col)).collect();
        assert_eq!(pos, vec![(1, 1), (1, 3), (1, 5), (2, 1)]);
    }

    /// CR, LF and CRLF are each one line break, in comments and strings
    /// too, and columns start again after each.
    #[test]
    fn every_line_ending_breaks_lines() {
        for nl in ["\n", "\r", "\r\n"] {
            let src = ["a = b", "-- c", "{- d", "-} \tc", "\"s", " e"].join(nl);
            let (t, d) = lex(0, &src);
            let pos: Vec<(u32, u32)> = t.iter().map(|t| (t.line, t.col)).collect();
            assert_eq!(
                pos,
                vec![(1, 1), (1, 3), (1, 5), (4, 9), (5, 1), (6, 2)],
                "{nl:?}"
            );
            let msgs: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
            assert_eq!(msgs, vec!["unterminated string"], "{nl:?}");
            assert_eq!(
                d[0].span.end as usize,
                src.find("\"s").unwrap() + 2,
                "{nl:?}"
            );
        }
        // Mixed, and a CR before CRLF: two breaks.
        let (t, _) = lex(0, "a\rb\r\nc\nd\r\r\ne");
        let lines: Vec<u32> = t.iter().map(|t| t.line).collect();
        assert_eq!(lines, vec![1, 2, 3, 4, 6]);
    }

    #[test]
    fn positions() {
        let (t, _) = lex(0, "ab\n\tc  d\n  é e");
        let pos: Vec<(u32, u32)> = t.iter().map(|t| (t.line, t.col)).collect();
        assert_eq!(pos, vec![(1, 1), (2, 9), (2, 12), (3, 3), (3, 5)]);
        assert_eq!((t[1].start, t[1].end), (4, 5));
    }
}
