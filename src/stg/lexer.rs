//! Tokens of the `.stg` language: the lexer (longest match, nested comments).
