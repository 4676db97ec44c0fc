//! Where the tests find their programs. Directories are listed, never
//! named file by file, so that a program added to `programs/` or a twin
//! added to `tests/ghc/` is covered by every test that walks them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `dir` of the repository (a path relative to its root).
pub fn repo(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)
}

/// The `.stg` files of `dir`, the Prelude left out, sorted by path.
pub fn stg_paths(dir: impl AsRef<Path>) -> Vec<PathBuf> {
    let dir = dir.as_ref();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "stg"))
        .filter(|p| p.file_stem().is_some_and(|s| s != "Prelude"))
        .collect();
    paths.sort();
    paths
}

/// Every program of `programs/` but the Prelude, sorted by path.
pub fn programs() -> Vec<PathBuf> {
    let paths = stg_paths(repo("programs"));
    assert!(paths.len() >= 10, "programs/ lists only {paths:?}");
    paths
}

/// The stems of [`programs`] (`nfib` for `programs/nfib.stg`).
pub fn program_names() -> Vec<String> {
    programs().iter().map(|p| stem(p)).collect()
}

/// A path's file stem.
pub fn stem(path: &Path) -> String {
    path.file_stem()
        .expect("a file name")
        .to_string_lossy()
        .into_owned()
}

/// The subdirectories of `dir` that hold `.stg` files (programs of several
/// modules, one module a file), sorted by path.
pub fn module_dirs(dir: impl AsRef<Path>) -> Vec<PathBuf> {
    let dir = dir.as_ref();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_dir() && !stg_paths(p).is_empty())
        .collect();
    dirs.sort();
    dirs
}

/// `(path, text)` of each file, as the loader takes a program's modules.
pub fn read_all(paths: &[PathBuf]) -> Vec<(String, String)> {
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()));
            (p.to_string_lossy().into_owned(), text)
        })
        .collect()
}
