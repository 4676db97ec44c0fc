//! Every program shipped in the repository (programs/, bench/programs/,
//! tests/ghc/) and the bundled Prelude parse and pass the static checks with
//! no error and no warning, and every program has its expected output file.

mod corpus;

use std::fs;
use std::path::{Path, PathBuf};

use stg_run::internal::stg::diagnostic::render_all;
use stg_run::internal::stg::load::load;
use stg_run::internal::stg::source::SourceMap;

/// The `.stg` files of the repository's `dir`, the Prelude left out.
fn stg_files(dir: &str) -> Vec<PathBuf> {
    corpus::stg_paths(corpus::repo(dir))
}

fn loads_cleanly(path: &Path) -> Result<(), String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut sources = SourceMap::new();
    let name = path.to_string_lossy().into_owned();
    match load(&mut sources, &[(name.clone(), text)], true) {
        Ok(loaded) if loaded.warnings.is_empty() => Ok(()),
        Ok(loaded) => Err(format!(
            "{name}: warnings:\n{}",
            render_all(&loaded.warnings, &sources, false)
        )),
        Err(diags) => Err(format!("{name}:\n{}", render_all(&diags, &sources, false))),
    }
}

fn check_dir(dir: &str, min: usize) {
    let files = stg_files(dir);
    assert!(
        files.len() >= min,
        "expected at least {min} programs in {dir}, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for path in &files {
        if let Err(e) = loads_cleanly(path) {
            failures.push(e);
        }
        let stdout = path.with_extension("stdout");
        if !stdout.exists() {
            failures.push(format!(
                "{}: no expected output {}",
                path.display(),
                stdout.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn prelude_alone_loads_without_warnings() {
    let mut sources = SourceMap::new();
    let main = "main = {} \\u {} -> Nil {}\n".to_string();
    match load(&mut sources, &[("m.stg".to_string(), main)], true) {
        Ok(loaded) => assert!(
            loaded.warnings.is_empty(),
            "{}",
            render_all(&loaded.warnings, &sources, false)
        ),
        Err(diags) => panic!("{}", render_all(&diags, &sources, false)),
    }
}

#[test]
fn every_program_loads() {
    check_dir("programs", 12);
}

#[test]
fn every_bench_program_loads() {
    check_dir("bench/programs", 6);
}

#[test]
fn every_ghc_example_loads() {
    check_dir("tests/ghc", 1);
}

/// The twins of several modules (tests/ghc/*/), all modules of each loaded
/// together. (Their outputs are checked by tests/ghc_trees.rs.)
#[test]
fn every_program_of_several_modules_loads() {
    let dirs = corpus::module_dirs(corpus::repo("tests/ghc"));
    assert!(dirs.len() >= 8, "only {dirs:?}");
    let mut failures = Vec::new();
    for dir in &dirs {
        let mut sources = SourceMap::new();
        let files = corpus::read_all(&corpus::stg_paths(dir));
        match load(&mut sources, &files, true) {
            Ok(loaded) if loaded.warnings.is_empty() => {}
            Ok(loaded) => failures.push(render_all(&loaded.warnings, &sources, false)),
            Err(diags) => failures.push(render_all(&diags, &sources, false)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
