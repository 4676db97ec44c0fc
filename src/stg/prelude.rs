//! The bundled Prelude, loaded before the user's modules unless `--no-prelude`.

/// The text of `programs/Prelude.stg`, compiled into the binary.
pub const SOURCE: &str = include_str!("../../programs/Prelude.stg");

/// The name the Prelude's file has in messages.
pub const FILE_NAME: &str = "programs/Prelude.stg";
