//! The STG machine: state, the rules (reference engine), the fast engine, primitives.
