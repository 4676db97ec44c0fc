//! The language: syntax tree, lexer and layout, parser, static checks, printer.

pub mod auto_cc;
pub mod check;
pub mod diagnostic;
pub mod layout;
pub mod lexer;
pub mod load;
pub mod parser;
pub mod prelude;
pub mod printer;
pub mod source;
pub mod syntax;
