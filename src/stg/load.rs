//! The front-end driver: source texts to a checked program, or diagnostics.
