//! The layout algorithm of LANGUAGE.md: blocks opened by `let`, `letrec`, `of` and the top level.
//!
//! Input: the lexer's tokens with line and column. Output: the same tokens with
//! virtual [`Tok::VOpen`], [`Tok::VSemi`] and [`Tok::VClose`] inserted for
//! `let`/`letrec`/`of` blocks, and the top level cut into items (one per
//! top-level binding) so that the parser can parse, and report errors in, each
//! binding on its own.
//!
//! The rules (LANGUAGE.md "Layout"):
//! - `let`, `letrec`, `of` open a block at the column of the next token; if that
//!   column is not right of the enclosing block's column, the block is empty.
//! - A line whose first token is at a block's column starts a new item of it;
//!   further left closes it (and every enclosing block it is also left of).
//! - `in` closes the innermost `let`/`letrec` block if it is still open (and any
//!   block opened inside it); `)` closes every block opened since its `(`.
//! - The top level is a block at the column of the first token. A line left of
//!   it is an error (reported here), and then treated as a new binding.
//!
//! One pass, a heap stack of open contexts, constant work per token apart from
//! pops (each context is pushed and popped once): linear time, no recursion.
//!
//! Nesting is limited: the open contexts (blocks, parentheses, `case`s
//! waiting for their `of`, `let`s waiting for their `in`) to [`MAX_DEPTH`],
//! and chains of `let … in` and `scc` bodies, which nest in the tree although
//! no block stays open (each extends to the end of its item), to
//! [`MAX_CHAIN`] per binding. Deeper input is reported as an error and the
//! binding is not parsed, so no later pass sees a deeper tree.

use crate::stg::diagnostic::Diagnostic;
use crate::stg::lexer::{Tok, Token};
use crate::stg::syntax::{FileId, Span};
use std::ops::Range;

/// Deepest nesting of blocks, parentheses and `case` scrutinees accepted.
pub const MAX_DEPTH: usize = 1000;

/// Longest chain of `let … in` / `letrec … in` bodies and `scc` bodies (which
/// nest in the tree without an open block) accepted in one binding, on top of
/// the [`MAX_DEPTH`] levels. Later passes must walk such chains iteratively.
/// Measured: dropping a 100,000-long `let` chain needs between 1 and 2 MiB of
/// stack in a release build (the main thread has 8 MiB), and about 1 MiB per
/// 10,000 levels in a debug build, so tests of very long chains should run on
/// a thread with a large stack.
pub const MAX_CHAIN: usize = 100_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    /// An open `let`/`letrec` (`is_let`) or `of` block at a column.
    Block {
        col: u32,
        is_let: bool,
    },
    /// A `let` whose block is already closed (or empty), waiting for its `in`.
    LetPending,
    /// A `case` waiting for its `of`.
    CasePending,
    Paren,
}

/// One top-level binding's tokens.
#[derive(Clone, Debug)]
pub struct Item {
    /// Range in [`Laid::tokens`].
    pub range: Range<usize>,
    /// Layout already reported an error that makes parsing pointless (too deep).
    pub poisoned: bool,
}

/// The laid-out token stream.
#[derive(Debug)]
pub struct Laid<'a> {
    pub tokens: Vec<Token<'a>>,
    pub items: Vec<Item>,
}

struct Layout<'a> {
    file: FileId,
    out: Vec<Token<'a>>,
    items: Vec<Item>,
    item_start: usize,
    poisoned: bool,
    stack: Vec<Ctx>,
    /// Per context: the `in`s and `scc`s in its current item (tree nesting
    /// without an open context); `top_extra` for the top level; `depth` is
    /// `stack.len()` plus all of them.
    extra: Vec<usize>,
    top_extra: usize,
    depth: usize,
    /// Indices into `stack` of the `Block`s, of the `let` blocks/`LetPending`s, of the `Paren`s.
    blocks: Vec<usize>,
    lets: Vec<usize>,
    parens: Vec<usize>,
    top_col: Option<u32>,
    diags: Vec<Diagnostic>,
}

/// A virtual token triggered by `at`: an empty span at its start.
fn virt<'a>(tok: Tok<'a>, at: &Token<'a>) -> Token<'a> {
    Token {
        tok,
        start: at.start,
        end: at.start,
        line: at.line,
        col: at.col,
    }
}

/// Inserts the layout tokens and splits the top level into bindings, all
/// kept ([`layout_items`] hands each binding over instead).
pub fn layout<'a>(
    file: FileId,
    tokens: Vec<Token<'a>>,
    text_len: usize,
) -> (Laid<'a>, Vec<Diagnostic>) {
    let mut laid = Laid {
        tokens: Vec::with_capacity(tokens.len() + tokens.len() / 4 + 4),
        items: Vec::new(),
    };
    let diags = layout_items(file, tokens, text_len, |item, poisoned, _| {
        let start = laid.tokens.len();
        laid.tokens.extend(item);
        laid.items.push(Item {
            range: start..laid.tokens.len(),
            poisoned,
        });
    });
    (laid, diags)
}

/// Inserts the layout tokens and splits the top level into bindings,
/// handing each binding's tokens to `on_item` as soon as the first token
/// after it is known, with whether it is poisoned and where that next token
/// starts (`text_len` after the last binding). Only the bindings not yet
/// handed over are held, so memory is bounded by the largest binding, not
/// by the file. Returns the layout errors.
pub fn layout_items<'a>(
    file: FileId,
    tokens: impl IntoIterator<Item = Token<'a>>,
    text_len: usize,
    mut on_item: impl FnMut(std::vec::Drain<'_, Token<'a>>, bool, usize),
) -> Vec<Diagnostic> {
    let mut l = Layout {
        file,
        out: Vec::new(),
        items: Vec::new(),
        item_start: 0,
        poisoned: false,
        stack: Vec::new(),
        extra: Vec::new(),
        top_extra: 0,
        depth: 0,
        blocks: Vec::new(),
        lets: Vec::new(),
        parens: Vec::new(),
        top_col: None,
        diags: Vec::new(),
    };
    let eof = Token {
        tok: Tok::VClose,
        start: text_len as u32,
        end: text_len as u32,
        line: u32::MAX,
        col: 0,
    };
    let mut pending_open: Option<bool> = None;
    let mut prev_line = 0u32;
    for t in tokens {
        let mut first_of_block = false;
        if let Some(is_let) = pending_open.take() {
            let enclosing = l.innermost_col();
            l.out.push(virt(Tok::VOpen, &t));
            if t.col > enclosing {
                l.push(Ctx::Block { col: t.col, is_let }, &t);
                first_of_block = true;
            } else {
                l.out.push(virt(Tok::VClose, &t));
                if is_let {
                    l.push(Ctx::LetPending, &t);
                }
            }
        }
        if t.line != prev_line && !first_of_block {
            l.new_line(&t);
        }
        prev_line = t.line;
        match t.tok {
            Tok::Let | Tok::Letrec => {
                pending_open = Some(true);
                l.out.push(t);
            }
            Tok::Of => {
                pending_open = Some(false);
                if l.stack.last() == Some(&Ctx::CasePending) {
                    l.pop();
                }
                l.out.push(t);
            }
            Tok::Case => {
                l.push(Ctx::CasePending, &t);
                l.out.push(t);
            }
            Tok::LParen => {
                l.push(Ctx::Paren, &t);
                l.out.push(t);
            }
            Tok::RParen => {
                if let Some(&p) = l.parens.last() {
                    l.pop_to(p, &t);
                }
                l.out.push(t);
            }
            Tok::In => {
                let paren = l.parens.last().copied();
                if let Some(&i) = l.lets.last()
                    && paren.is_none_or(|p| i > p)
                {
                    l.pop_to(i, &t);
                }
                l.nest(&t);
                l.out.push(t);
            }
            Tok::Scc => {
                l.nest(&t);
                l.out.push(t);
            }
            Tok::Semi if !l.blocks.is_empty() => {
                if let Some(Ctx::Block { .. }) = l.stack.last() {
                    l.reset_extra(l.stack.len() - 1);
                }
                l.out.push(t);
            }
            Tok::Semi if l.blocks.is_empty() && l.parens.is_empty() => {
                l.end_item();
            }
            _ => l.out.push(t),
        }
        l.hand_over(false, text_len, &mut on_item);
    }
    if pending_open.is_some() {
        l.out.push(virt(Tok::VOpen, &eof));
        l.out.push(virt(Tok::VClose, &eof));
    }
    while !l.stack.is_empty() {
        l.pop_emit(&eof);
    }
    l.end_item();
    l.hand_over(true, text_len, &mut on_item);
    l.diags
}

impl<'a> Layout<'a> {
    /// Hands over the finished items that the next token follows (every
    /// finished item when `at_end`), removing their tokens.
    fn hand_over(
        &mut self,
        at_end: bool,
        text_len: usize,
        on_item: &mut impl FnMut(std::vec::Drain<'_, Token<'a>>, bool, usize),
    ) {
        // Items are contiguous from the start of `out`: `shift` tokens are
        // gone from the front so far.
        let mut shift = 0;
        let mut done = 0;
        for item in &self.items {
            let next = match self.out.get(item.range.end - shift) {
                Some(t) => t.start as usize,
                None if at_end => text_len,
                None => break,
            };
            let len = item.range.len();
            on_item(self.out.drain(..len), item.poisoned, next);
            shift += len;
            done += 1;
        }
        if done > 0 {
            self.items.drain(..done);
            for item in &mut self.items {
                item.range = item.range.start - shift..item.range.end - shift;
            }
            self.item_start -= shift;
        }
    }

    fn innermost_col(&self) -> u32 {
        match self.blocks.last() {
            Some(&i) => match self.stack[i] {
                Ctx::Block { col, .. } => col,
                _ => 0,
            },
            None => self.top_col.unwrap_or(1),
        }
    }

    fn push(&mut self, ctx: Ctx, at: &Token<'a>) {
        let i = self.stack.len();
        match ctx {
            Ctx::Block { is_let, .. } => {
                self.blocks.push(i);
                if is_let {
                    self.lets.push(i);
                }
            }
            Ctx::LetPending => self.lets.push(i),
            Ctx::Paren => self.parens.push(i),
            Ctx::CasePending => {}
        }
        self.stack.push(ctx);
        self.extra.push(0);
        self.depth += 1;
        self.check_depth(at);
    }

    /// An expression that extends to the end of the current item (`in`'s body, `scc`'s body).
    fn nest(&mut self, at: &Token<'a>) {
        match self.extra.last_mut() {
            Some(e) => *e += 1,
            None => self.top_extra += 1,
        }
        self.depth += 1;
        self.check_depth(at);
    }

    /// A new item of the context at index `i`: its nesting count starts again.
    fn reset_extra(&mut self, i: usize) {
        self.depth -= self.extra[i];
        self.extra[i] = 0;
    }

    fn check_depth(&mut self, at: &Token<'a>) {
        if self.poisoned {
            return;
        }
        let chain = self.depth - self.stack.len();
        if chain > MAX_CHAIN {
            self.poisoned = true;
            self.diags.push(
                Diagnostic::error(
                    Span::new(self.file, at.start as usize, at.end as usize),
                    format!("`let … in` / `scc` chain too long (more than {MAX_CHAIN})"),
                )
                .with_label("the chain nests too deeply here")
                .with_help(format!(
                    "one binding may chain at most {MAX_CHAIN} `in`s and `scc`s: gather bindings into one `let` block, or split the chain into separate top-level bindings"
                )),
            );
        } else if self.stack.len() > MAX_DEPTH {
            self.poisoned = true;
            self.diags.push(
                Diagnostic::error(
                    Span::new(self.file, at.start as usize, at.end as usize),
                    format!("nesting too deep (more than {MAX_DEPTH} levels)"),
                )
                .with_label("this is nested too deeply")
                .with_help(format!(
                    "blocks, parentheses and `case`s may nest at most {MAX_DEPTH} deep: split the expression into separate bindings"
                )),
            );
        }
    }

    /// Pops the top context without emitting anything.
    fn pop(&mut self) -> Option<Ctx> {
        let ctx = self.stack.pop()?;
        let i = self.stack.len();
        self.depth -= 1 + self.extra.pop().unwrap_or(0);
        if self.blocks.last() == Some(&i) {
            self.blocks.pop();
        }
        if self.lets.last() == Some(&i) {
            self.lets.pop();
        }
        if self.parens.last() == Some(&i) {
            self.parens.pop();
        }
        Some(ctx)
    }

    /// Pops the top context, emitting `VClose` if it is a block.
    fn pop_emit(&mut self, at: &Token<'a>) -> Option<Ctx> {
        let ctx = self.pop()?;
        if let Ctx::Block { .. } = ctx {
            // An empty span right after the block's last token, so that spans
            // of the nodes that end with the block end with their last token.
            let end = self.out.last().map_or(at.start, |t| t.end);
            self.out.push(Token {
                tok: Tok::VClose,
                start: end,
                end,
                line: at.line,
                col: at.col,
            });
        }
        Some(ctx)
    }

    /// Pops contexts down to and including index `i`.
    fn pop_to(&mut self, i: usize, at: &Token<'a>) {
        while self.stack.len() > i {
            self.pop_emit(at);
        }
    }

    fn end_item(&mut self) {
        while !self.stack.is_empty() {
            let at = self.out.last().cloned();
            match at {
                Some(at) => {
                    self.pop_emit(&at);
                }
                None => {
                    self.pop();
                }
            }
        }
        if self.out.len() > self.item_start {
            self.items.push(Item {
                range: self.item_start..self.out.len(),
                poisoned: self.poisoned,
            });
        }
        self.item_start = self.out.len();
        self.poisoned = false;
        self.top_extra = 0;
        self.depth = 0;
    }

    /// The first token of a line: close blocks it is left of, start new items.
    fn new_line(&mut self, t: &Token<'a>) {
        loop {
            match self.blocks.last().copied() {
                Some(bi) => {
                    let (col, is_let) = match self.stack[bi] {
                        Ctx::Block { col, is_let } => (col, is_let),
                        _ => (0, false),
                    };
                    if t.col < col {
                        self.pop_to(bi, t);
                        if is_let {
                            self.push(Ctx::LetPending, t);
                        }
                        continue;
                    }
                    if t.col == col {
                        // A new item: whatever is still open inside the previous one ends.
                        while self.stack.len() > bi + 1 {
                            self.pop_emit(t);
                        }
                        self.reset_extra(bi);
                        if !matches!(
                            self.out.last().map(|t| &t.tok),
                            Some(Tok::VOpen | Tok::VSemi | Tok::Semi)
                        ) {
                            self.out.push(virt(Tok::VSemi, t));
                        }
                    }
                    return;
                }
                None => {
                    let Some(top) = self.top_col else {
                        self.top_col = Some(t.col);
                        return;
                    };
                    if t.col > top {
                        return;
                    }
                    if t.col < top {
                        self.diags.push(
                            Diagnostic::error(
                                Span::new(self.file, t.start as usize, t.end as usize),
                                format!("this line starts left of the top level (column {top})"),
                            )
                            .with_label(format!("at column {}", t.col))
                            .with_help(format!(
                                "top-level bindings start at the column of the first binding ({top}); indent continuation lines further right"
                            )),
                        );
                    }
                    self.end_item();
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stg::lexer::lex;

    /// Renders the laid-out tokens compactly: `{` `;` `}` for virtual tokens, `|` between items.
    fn show(src: &str) -> String {
        let (toks, d) = lex(0, src);
        assert!(d.is_empty());
        let (laid, d) = layout(0, toks, src.len());
        assert!(d.is_empty(), "{d:?}");
        let mut parts = Vec::new();
        for item in &laid.items {
            let s: Vec<String> = laid.tokens[item.range.clone()]
                .iter()
                .map(|t| match &t.tok {
                    Tok::VOpen => "{".to_string(),
                    Tok::VSemi => ";".to_string(),
                    Tok::VClose => "}".to_string(),
                    Tok::Semi => "';'".to_string(),
                    _ => src[t.start as usize..t.end as usize].to_string(),
                })
                .collect();
            parts.push(s.join(" "));
        }
        parts.join(" | ")
    }

    #[test]
    fn top_level_items() {
        assert_eq!(show("a = b\nc = d\n  e\n"), "a = b | c = d e");
        assert_eq!(show("  a = b\n  c = d"), "a = b | c = d");
        assert_eq!(show("a = b; c = d"), "a = b | c = d");
        assert_eq!(show(""), "");
    }

    #[test]
    fn let_blocks() {
        assert_eq!(
            show("m = let a = x\n        b = y\n    in a"),
            "m = let { a = x ; b = y } in a"
        );
        assert_eq!(show("m = let a = x in a"), "m = let { a = x } in a");
        assert_eq!(
            show("m = let a = x; b = y in a"),
            "m = let { a = x ';' b = y } in a"
        );
        // `in` on its own line left of the block, then nested lets.
        assert_eq!(
            show("m =\n  let a =\n        let b = c\n        in b\n  in a"),
            "m = let { a = let { b = c } in b } in a"
        );
    }

    #[test]
    fn case_blocks() {
        assert_eq!(
            show("f = case x of\n      A -> y\n      B -> z\ng = w"),
            "f = case x of { A -> y ; B -> z } | g = w"
        );
        assert_eq!(
            show("f = case x of A -> (case y of B -> e1); C -> e2"),
            "f = case x of { A -> ( case y of { B -> e1 } ) ';' C -> e2 }"
        );
        // Nested case closed by a line further left.
        assert_eq!(
            show("f = case x of\n  A -> case y of\n         B -> e\n  C -> d"),
            "f = case x of { A -> case y of { B -> e } ; C -> d }"
        );
        // `in` closes an `of` block inside the let block too.
        assert_eq!(
            show("f = let a = case x of A -> b in a"),
            "f = let { a = case x of { A -> b } } in a"
        );
    }

    #[test]
    fn tabs_advance_to_multiples_of_eight() {
        // `a` is at column 9; a tab at the start of a line also reaches column 9.
        assert_eq!(
            show("m = let a = x\n\tb = y\n  in a"),
            "m = let { a = x ; b = y } in a"
        );
        assert_eq!(
            show("m = let a = x\n  \tb = y\n  in a"),
            "m = let { a = x ; b = y } in a"
        );
    }

    #[test]
    fn parens_and_in() {
        // `)` closes the blocks opened inside it, `in` only the innermost let.
        assert_eq!(
            show("m = (let a = (case x of A -> y) in a)"),
            "m = ( let { a = ( case x of { A -> y } ) } in a )"
        );
        // An `in` inside parentheses does not close a let outside them.
        assert_eq!(show("m = let a = (in) in a"), "m = let { a = ( in ) } in a");
        // Explicit `;` and a new line at the column both separate items.
        assert_eq!(
            show("m = case x of A -> a; B -> b\n              C -> c"),
            "m = case x of { A -> a ';' B -> b ; C -> c }"
        );
    }

    #[test]
    fn empty_blocks() {
        // Block column not right of the enclosing one: empty.
        assert_eq!(show("f = case x of\nA -> y"), "f = case x of { } | A -> y");
        assert_eq!(show("f = let"), "f = let { }");
        assert_eq!(
            show("f = case x of\n  A -> case y of\n  B -> z"),
            "f = case x of { A -> case y of { } ; B -> z }"
        );
    }

    #[test]
    fn too_deep_is_an_error_not_a_crash() {
        let n = 100_000;
        let src = format!("m = {}x{}", "(".repeat(n), ")".repeat(n));
        let (toks, _) = lex(0, &src);
        let (laid, d) = layout(0, toks, src.len());
        assert_eq!(d.len(), 1);
        assert!(d[0].message.contains("nesting too deep"));
        assert!(laid.items[0].poisoned);
    }

    #[test]
    fn let_and_scc_chains_count_as_nesting() {
        let n = MAX_CHAIN + 10;
        for chain in ["let a = x in ", "scc \"l\" "] {
            let src = format!("m = {}x", chain.repeat(n));
            let (toks, _) = lex(0, &src);
            let (laid, d) = layout(0, toks, src.len());
            assert_eq!(d.len(), 1, "{chain}");
            assert!(laid.items[0].poisoned);
        }
        // A chain longer than the block nesting limit is fine, and so are
        // chains in separate items.
        let src = format!("m = {}x", "let a = x in ".repeat(MAX_DEPTH + 10));
        let (toks, _) = lex(0, &src);
        let (_, d) = layout(0, toks, src.len());
        assert!(d.is_empty());
        let src = format!(
            "m = case x of\n{}",
            "  A -> let a = x in let b = y in a\n".repeat(MAX_DEPTH + 10)
        );
        let (toks, _) = lex(0, &src);
        let (laid, d) = layout(0, toks, src.len());
        assert!(d.is_empty());
        assert!(!laid.items[0].poisoned);
    }

    #[test]
    fn left_of_top_level() {
        let src = "  a = b\nc = d";
        let (toks, _) = lex(0, src);
        let (laid, d) = layout(0, toks, src.len());
        assert_eq!(d.len(), 1);
        assert_eq!(laid.items.len(), 2);
    }
}
