//! The front-end driver: source files in, a checked [`Program`] (or every
//! diagnostic) out.
//!
//! Steps: add each file to the [`SourceMap`]; parse each (the Prelude first,
//! when asked for, then the user's files in the order given); name each
//! module by its file stem; reject two modules with the same name, and a
//! module named `MAIN` (the built-in cost centre's); then, if every file
//! parsed without errors, run [`check_program`] (or [`check_library`],
//! which does not ask for `main`, for [`load_library`]). When a file has
//! syntax errors the checks are skipped: with part of a module missing they
//! would only add unbound-name noise. The result carries the warnings on
//! success; on failure the `Err` holds every error and warning, in the order
//! found (use [`crate::stg::diagnostic::render_all`] to print them in source
//! order).
//!
//! The module named `Prelude` is the Prelude wherever it comes from: with the
//! bundled Prelude loaded, a user file `Prelude.stg` is an error (two modules
//! named `Prelude`); without it (`--no-prelude`), a user file `Prelude.stg`
//! takes the bundled one's place (its names may be hidden by user bindings,
//! `main` is not looked for in it, and `--auto-cc` leaves it alone).

use std::collections::HashMap;
use std::path::Path;

use crate::stg::check::{PRELUDE_MODULE, check_library, check_program};
use crate::stg::diagnostic::Diagnostic;
use crate::stg::parser::parse_module;
use crate::stg::prelude;
use crate::stg::source::SourceMap;
use crate::stg::syntax::{FileId, Module, Program, Span};

/// The module of the built-in `MAIN` cost centre: no user module may take
/// its name.
pub const MAIN_MODULE: &str = "MAIN";

/// A program that passed every static check, with the warnings it got.
#[derive(Debug)]
pub struct Loaded {
    pub program: Program,
    pub warnings: Vec<Diagnostic>,
}

/// Loads, parses and checks a program. `user_files` are `(path, text)`
/// pairs; the module of each is named by the path's file stem.
pub fn load(
    sources: &mut SourceMap,
    user_files: &[(String, String)],
    with_prelude: bool,
) -> Result<Loaded, Vec<Diagnostic>> {
    load_with(sources, user_files, with_prelude, parse_module)
}

/// [`load`] ([`load_library`] when `needs_main` is false) taking the texts
/// over instead of copying them into `sources`: a caller with nothing else
/// to do with them holds each file's text once, not twice
/// (docs/PERFORMANCE.md, "Large valid input").
pub fn load_owned(
    sources: &mut SourceMap,
    user_files: Vec<(String, String)>,
    with_prelude: bool,
    needs_main: bool,
) -> Result<Loaded, Vec<Diagnostic>> {
    load_inner(sources, user_files, with_prelude, needs_main, parse_module)
}

/// [`load`] for a program that is checked or printed but not run: a
/// program with no `main` (a library module) passes
/// ([`crate::stg::check::check_library`]).
pub fn load_library(
    sources: &mut SourceMap,
    user_files: &[(String, String)],
    with_prelude: bool,
) -> Result<Loaded, Vec<Diagnostic>> {
    load_inner(
        sources,
        user_files.to_vec(),
        with_prelude,
        false,
        parse_module,
    )
}

/// The module name of a path: its file stem (`programs/nfib.stg` is `nfib`).
pub fn module_name(path: &str) -> String {
    Path::new(path)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string())
}

/// [`load`] with the parser passed in (so the driver is testable on its own).
pub fn load_with(
    sources: &mut SourceMap,
    user_files: &[(String, String)],
    with_prelude: bool,
    parse: impl Fn(FileId, &str, &str) -> (Option<Module>, Vec<Diagnostic>),
) -> Result<Loaded, Vec<Diagnostic>> {
    load_inner(sources, user_files.to_vec(), with_prelude, true, parse)
}

fn load_inner(
    sources: &mut SourceMap,
    user_files: Vec<(String, String)>,
    with_prelude: bool,
    needs_main: bool,
    parse: impl Fn(FileId, &str, &str) -> (Option<Module>, Vec<Diagnostic>),
) -> Result<Loaded, Vec<Diagnostic>> {
    let mut diags: Vec<Diagnostic> = Vec::new();
    let mut program = Program::default();
    let mut parsed_all = true;
    // Module name to the file that first defined it.
    let mut names: HashMap<String, FileId> = HashMap::new();

    let prelude = with_prelude.then(|| {
        (
            prelude::FILE_NAME.to_string(),
            prelude::SOURCE.to_string(),
            PRELUDE_MODULE.to_string(),
        )
    });
    let files = prelude
        .into_iter()
        .chain(user_files.into_iter().map(|(path, text)| {
            let name = module_name(&path);
            (path, text, name)
        }));

    for (path, text, name) in files {
        let file = sources.add(path.clone(), text);
        if name == MAIN_MODULE {
            diags.push(
                Diagnostic::error(
                    Span::new(file, 0, 0),
                    format!("a module cannot be named `{MAIN_MODULE}`"),
                )
                .with_label(format!("`{path}` would be module `{MAIN_MODULE}`"))
                .with_help(format!(
                    "`{MAIN_MODULE}` is the module of the built-in `MAIN` cost centre, and reports would mix the two: rename the file (a module is named by its file stem; `Main.stg` is fine)"
                )),
            );
            parsed_all = false;
            continue;
        }
        if let Some(&first) = names.get(&name) {
            let first_name = sources.file(first).name.clone();
            let help = if name == PRELUDE_MODULE {
                "`Prelude` is the bundled Prelude's name: rename your file, or run with --no-prelude to use your own Prelude".to_string()
            } else {
                "every module is named by its file stem, so two files cannot share a stem: rename one of them".to_string()
            };
            diags.push(
                Diagnostic::error(
                    Span::new(file, 0, 0),
                    if name == PRELUDE_MODULE && first_name == prelude::FILE_NAME {
                        format!(
                            "module `{name}` is loaded twice: from the bundled Prelude and from `{path}`"
                        )
                    } else {
                        format!(
                            "module `{name}` is loaded twice: from `{first_name}` and from `{path}`"
                        )
                    },
                )
                .with_label(format!("`{path}` is module `{name}`"))
                .with_related(
                    Span::new(first, 0, 0),
                    format!("`{first_name}` is module `{name}` too"),
                )
                .with_help(help),
            );
            parsed_all = false;
            continue;
        }
        names.insert(name.clone(), file);
        let (module, file_diags) = parse(file, &name, &sources.file(file).text);
        if file_diags.iter().any(Diagnostic::is_error) {
            parsed_all = false;
        }
        diags.extend(file_diags);
        match module {
            Some(module) => program.modules.push(module),
            None => parsed_all = false,
        }
    }

    if parsed_all {
        diags.extend(if needs_main {
            check_program(&mut program)
        } else {
            check_library(&mut program)
        });
    }
    if !parsed_all || diags.iter().any(Diagnostic::is_error) {
        return Err(diags);
    }
    Ok(Loaded {
        program,
        warnings: diags,
    })
}
