//! The chumsky parser: tokens (after layout) to the syntax tree.
