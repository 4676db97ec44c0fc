//! The printer: a syntax tree back to the paper's notation.
