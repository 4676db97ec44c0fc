//! The layout algorithm of LANGUAGE.md: blocks opened by `let`, `letrec`, `of` and the top level.
