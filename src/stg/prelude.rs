//! The bundled Prelude, loaded before the user's modules unless `--no-prelude`.

/// The text of `programs/Prelude.stg`, compiled into the binary
/// (`stg-run --print-prelude` prints it).
pub const SOURCE: &str = include_str!("../../programs/Prelude.stg");

/// The name the Prelude's file has in messages: `<prelude>/Prelude.stg`,
/// a name no file on disk has, so that a message about the Prelude
/// (`at <prelude>/Prelude.stg:350:3`) is not taken for a file of the
/// current folder; `stg-run --print-prelude` shows the lines it cites.
pub const FILE_NAME: &str = "<prelude>/Prelude.stg";
