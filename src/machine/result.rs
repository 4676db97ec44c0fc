//! Printing the result (LANGUAGE.md "The result"), shared by both engines so
//! that they cannot print differently.
//!
//! When `main` halts in weak head normal form the engine hands the value to a
//! [`ResultPrinter`], which prints what it can (a constructor's name, `[`,
//! `,`) and keeps the fields still to be forced as pending work. The engine
//! then forces the next pending value from `Enter v` under `MAIN` with empty
//! stacks, and so on: the value is forced completely, left to right, and
//! printed as it is forced, with an explicit work stack rather than Rust
//! recursion. The pending values are roots for the collector.

use std::io::{self, Write};

use crate::gc::Value;
use crate::machine::code::{Code, ConId};

/// Pending work of the result printer.
#[derive(Clone, Debug)]
enum PrintItem {
    Text(&'static str),
    /// Force a value and print it at a precedence (0, or 11 inside a field).
    Force(Value, u8),
    /// Force a list tail: `]` for `Nil`, `,x...` for `Cons`.
    ListRest(Value),
    /// Close an improper list.
    CloseImproper,
}

/// Where the value being forced will be printed.
#[derive(Clone, Copy, Debug)]
enum PrintCtx {
    /// A value at a precedence.
    Value(u8),
    /// The tail of a list whose elements so far are printed.
    ListRest,
}

/// What the machine halted with.
pub(crate) enum Halted<'a> {
    Int(i64),
    Con(ConId, &'a [Value]),
    /// A function (or partial application) that has too few arguments.
    Function,
}

/// The printer's state between forcings.
#[derive(Debug)]
pub(crate) struct ResultPrinter {
    pending: Vec<PrintItem>,
    /// The context of the value being forced now.
    ctx: PrintCtx,
    text: String,
}

impl Default for ResultPrinter {
    fn default() -> ResultPrinter {
        ResultPrinter {
            pending: Vec::new(),
            ctx: PrintCtx::Value(0),
            text: String::new(),
        }
    }
}

impl ResultPrinter {
    /// Every value still to be forced, for the collector to visit and move.
    pub(crate) fn roots(&mut self, f: &mut dyn FnMut(&mut [Value])) {
        for item in &mut self.pending {
            match item {
                PrintItem::Force(v, _) | PrintItem::ListRest(v) => f(std::slice::from_mut(v)),
                PrintItem::Text(_) | PrintItem::CloseImproper => {}
            }
        }
    }

    /// Prints the value the machine halted with, then everything pending up
    /// to the next value that needs the machine. Returns that value, to be
    /// forced from `Enter v` under `MAIN` with empty stacks, or `None` when
    /// the result is complete (the newline written and `out` flushed).
    pub(crate) fn halted(
        &mut self,
        code: &Code,
        value: Halted<'_>,
        out: &mut dyn Write,
    ) -> io::Result<Option<Value>> {
        self.text.clear();
        self.print_halted(code, value);
        out.write_all(self.text.as_bytes())?;
        loop {
            match self.pending.pop() {
                None => {
                    out.write_all(b"\n")?;
                    out.flush()?;
                    return Ok(None);
                }
                Some(PrintItem::Text(t)) => out.write_all(t.as_bytes())?,
                Some(PrintItem::CloseImproper) => out.write_all(b"]")?,
                Some(PrintItem::Force(Value::Int(k), prec)) => {
                    out.write_all(int_text(k, prec).as_bytes())?
                }
                Some(PrintItem::Force(v, prec)) => {
                    self.ctx = PrintCtx::Value(prec);
                    return Ok(Some(v));
                }
                Some(PrintItem::ListRest(v)) => {
                    self.ctx = PrintCtx::ListRest;
                    return Ok(Some(v));
                }
            }
        }
    }

    /// Prints a halted value in the current context into `self.text`,
    /// pushing its fields as pending work (right to left, so they are forced
    /// left to right).
    fn print_halted(&mut self, code: &Code, value: Halted<'_>) {
        let ctx = self.ctx;
        match value {
            Halted::Int(k) => match ctx {
                PrintCtx::Value(p) => self.text.push_str(&int_text(k, p)),
                PrintCtx::ListRest => {
                    self.text.push('|');
                    self.text.push_str(&int_text(k, 0));
                    self.text.push(']');
                }
            },
            Halted::Function => match ctx {
                PrintCtx::Value(_) => self.text.push_str("<function>"),
                PrintCtx::ListRest => self.text.push_str("|<function>]"),
            },
            Halted::Con(c, ws) => {
                let name = code.con_name(c);
                let is_cons = name == "Cons" && ws.len() == 2;
                let is_nil = name == "Nil" && ws.is_empty();
                match ctx {
                    PrintCtx::ListRest if is_nil => self.text.push(']'),
                    PrintCtx::ListRest if is_cons => {
                        self.text.push(',');
                        self.pending.push(PrintItem::ListRest(ws[1]));
                        self.pending.push(PrintItem::Force(ws[0], 0));
                    }
                    PrintCtx::ListRest => {
                        // An improper list: `[1,2|tail]`.
                        self.text.push('|');
                        self.pending.push(PrintItem::CloseImproper);
                        self.print_con(name, ws, 0);
                    }
                    PrintCtx::Value(_) if is_nil => self.text.push_str("[]"),
                    PrintCtx::Value(_) if is_cons => {
                        self.text.push('[');
                        self.pending.push(PrintItem::ListRest(ws[1]));
                        self.pending.push(PrintItem::Force(ws[0], 0));
                    }
                    PrintCtx::Value(p) => self.print_con(name, ws, p),
                }
            }
        }
    }

    /// A constructor other than a list: `I# n` as `n`, `Name f1 f2` with
    /// Haskell's parentheses at precedence 11.
    fn print_con(&mut self, name: &str, ws: &[Value], prec: u8) {
        if name == "I#" && ws.len() == 1 {
            self.pending.push(PrintItem::Force(ws[0], prec));
            return;
        }
        if ws.is_empty() {
            self.text.push_str(name);
            return;
        }
        let paren = prec > 10;
        if paren {
            self.text.push('(');
            self.pending.push(PrintItem::Text(")"));
        }
        self.text.push_str(name);
        for w in ws.iter().rev() {
            self.pending.push(PrintItem::Force(*w, 11));
            self.pending.push(PrintItem::Text(" "));
        }
    }
}

/// An `Int#` as Haskell's `showsPrec` prints it: negative numbers in
/// parentheses at precedence 11.
pub(crate) fn int_text(k: i64, prec: u8) -> String {
    if k < 0 && prec > 6 {
        format!("({k})")
    } else {
        k.to_string()
    }
}
