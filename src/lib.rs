//! stg-run: an interpreter for the STG machine with cost-centre profiling
//! built into its semantics. See `docs/ARCHITECTURE.md` for the map.

pub mod cli;
pub mod files;
pub mod gc;
pub mod machine;
pub mod profile;
pub mod stg;
pub mod stop;
