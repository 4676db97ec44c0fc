//! The language: syntax tree, lexer and layout, parser, static checks, printer.

pub mod diagnostic;
pub mod source;
pub mod syntax;
