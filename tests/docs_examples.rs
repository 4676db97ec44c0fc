//! The documentation's commands and examples, run as written, so that they
//! cannot drift from what the tools do: every command of `README.md` and
//! every example of `docs/LANGUAGE.md`, `docs/SEMANTICS.md` and
//! `docs/GOLDEN.md` (whose Rust example must also be the one
//! `tests/api_golden.rs` runs; the README's Rust example is a doc test of
//! the crate).
//!
//! What is run is chosen by the info string of each fenced block:
//!
//! - ```` ```sh ````: one command a line (blank lines and lines starting
//!   with `#` are skipped), run with `sh -c`; each must exit with status 0.
//!   `cargo run --release --bin NAME --` stands for the built binary NAME,
//!   and `cargo test` (what is running) is skipped.
//! - ```` ```console ````: lines `$ COMMAND`, each followed by what it
//!   prints: standard output and standard error together, as a terminal
//!   shows them. A line `...` stands for any number of lines; trailing
//!   spaces do not count.
//! - ```` ```stg ````: a module, written to the file its first line names
//!   (a comment `-- NAME.stg`) or else `example.stg`. When the next blocks
//!   are ```` ```output ```` and/or ```` ```error ````, `stg-run FILE` must
//!   print exactly the first on standard output and the second on standard
//!   error (nothing where a block is missing; trailing spaces do not
//!   count), with status 0 exactly when
//!   there is no error block or it holds warnings only. Otherwise the
//!   module is checked (`stg-run --check FILE`, which must pass without a
//!   word), unless a command of the next `console` block names the file
//!   (a module of a program of several, run there). A module that
//!   defines `main` must show its output.
//! - Any other block (```` ```text ````, none) is not run.
//!
//! Each document runs, block after block, in one fresh folder holding
//! `programs` (a link to the repository's), with the built `stg-run` and
//! `stg-prof` first on `PATH`; files a command writes stay there for the
//! next. So a line added to one of the README's `sh` blocks is tested
//! with nothing else to do.

mod cli_common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fenced block: its info string, its lines, and the line of the file
/// where it starts (for messages).
struct Block {
    info: String,
    lines: Vec<String>,
    line: usize,
}

/// The fenced blocks of a Markdown text, in order.
fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in markdown.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        match open.take() {
            None if fence => {
                open = Some(Block {
                    info: line.trim_start()[3..].trim().to_string(),
                    lines: Vec::new(),
                    line: i + 1,
                })
            }
            None => {}
            Some(block) if fence => out.push(block),
            Some(mut block) => {
                block.lines.push(line.to_string());
                open = Some(block);
            }
        }
    }
    assert!(open.is_none(), "a fenced block is not closed");
    out
}

/// A document's scratch folder and how to run commands in it.
struct Folder {
    dir: PathBuf,
    path: String,
}

impl Folder {
    fn new(test: &str) -> Folder {
        let dir = cli_common::scratch("docs_examples", test);
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        std::os::unix::fs::symlink(repo.join("programs"), dir.join("programs")).unwrap();
        let bin = Path::new(env!("CARGO_BIN_EXE_stg-run")).parent().unwrap();
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Folder { dir, path }
    }

    /// Runs `command` with `sh -c`, standard error into standard output
    /// when `merged`.
    fn sh(&self, command: &str, merged: bool) -> Output {
        let script = if merged {
            format!("exec 2>&1\n{command}")
        } else {
            command.to_string()
        };
        Command::new("sh")
            .args(["-c", &script])
            .current_dir(&self.dir)
            .env("PATH", &self.path)
            .env("NO_COLOR", "1")
            .output()
            .expect("sh starts")
    }
}

/// A README command as the test runs it: `cargo run --release --bin NAME
/// --` is the built binary; `None` for `cargo test`, which is running.
fn as_run(command: &str) -> Option<String> {
    if command.trim() == "cargo test" {
        return None;
    }
    let mut command = command.to_string();
    for name in ["stg-run", "stg-prof"] {
        command = command.replace(&format!("cargo run --release --bin {name} --"), name);
    }
    assert!(
        !command.contains("cargo "),
        "a README command runs cargo in a way this test does not know: {command}"
    );
    Some(command)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Does `actual` match `expected`, where a line `...` of `expected`
/// matches any number of lines? Trailing spaces are ignored.
fn matches(expected: &[String], actual: &[&str]) -> bool {
    // `fits[i][j]`: expected[i..] matches actual[j..].
    let (n, m) = (expected.len(), actual.len());
    let mut fits = vec![vec![false; m + 1]; n + 1];
    fits[n][m] = true;
    for i in (0..n).rev() {
        let wild = expected[i].trim() == "...";
        for j in (0..=m).rev() {
            fits[i][j] = if wild {
                fits[i + 1][j] || (j < m && fits[i][j + 1])
            } else {
                j < m && expected[i].trim_end() == actual[j].trim_end() && fits[i + 1][j + 1]
            };
        }
    }
    fits[0][0]
}

/// Runs every block of the document `name` (a path from the repository's
/// root) in a fresh folder; returns how many blocks were run.
fn run_document(name: &str, test: &str) -> usize {
    let markdown =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).unwrap();
    let blocks = blocks(&markdown);
    let folder = Folder::new(test);
    // The commands of the first console block after block `i`, which may
    // run the modules written before it.
    let next_console = |i: usize| -> Vec<&str> {
        blocks[i + 1..]
            .iter()
            .find(|b| b.info == "console")
            .map(|b| {
                b.lines
                    .iter()
                    .filter_map(|l| l.strip_prefix("$ "))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut ran = 0;
    let mut i = 0;
    while i < blocks.len() {
        let block = &blocks[i];
        let at = format!("{name}:{}", block.line);
        match block.info.as_str() {
            "sh" => {
                for line in &block.lines {
                    let line = line.trim();
                    if line.is_empty() || line.starts_with('#') {
                        continue;
                    }
                    let Some(command) = as_run(line) else {
                        continue;
                    };
                    let out = folder.sh(&command, false);
                    assert!(
                        out.status.success(),
                        "{at}: `{line}` failed ({}):\n{}{}",
                        out.status,
                        text(&out.stdout),
                        text(&out.stderr)
                    );
                    ran += 1;
                }
            }
            "console" => {
                let mut lines = block.lines.iter().peekable();
                while let Some(line) = lines.next() {
                    let command = line
                        .strip_prefix("$ ")
                        .unwrap_or_else(|| panic!("{at}: `{line}` is not a `$ command` line"));
                    let mut expected = Vec::new();
                    while let Some(l) = lines.next_if(|l| !l.starts_with("$ ")) {
                        expected.push(l.clone());
                    }
                    let out = folder.sh(command, true);
                    let actual = text(&out.stdout);
                    let actual: Vec<&str> = actual.lines().collect();
                    assert!(
                        matches(&expected, &actual),
                        "{at}: `{command}` printed\n{}\n--- where the document shows\n{}",
                        actual.join("\n"),
                        expected.join("\n")
                    );
                    ran += 1;
                }
            }
            "stg" => {
                let file = block
                    .lines
                    .first()
                    .and_then(|l| l.strip_prefix("-- "))
                    .filter(|f| f.ends_with(".stg") && !f.contains(' '))
                    .unwrap_or("example.stg")
                    .to_string();
                std::fs::write(folder.dir.join(&file), block.lines.join("\n") + "\n").unwrap();
                let mut output = None;
                let mut error = None;
                while let Some(next) = blocks.get(i + 1) {
                    let slot = match next.info.as_str() {
                        "output" => &mut output,
                        "error" => &mut error,
                        _ => break,
                    };
                    *slot = Some(next.lines.join("\n"));
                    i += 1;
                }
                let defines_main = block.lines.iter().any(|l| l.starts_with("main "));
                if output.is_some() || error.is_some() {
                    let out = folder.sh(&format!("stg-run {file}"), false);
                    // Line by line, trailing spaces left out (an editor
                    // may strip them from the document).
                    let lines = |s: &str| -> Vec<String> {
                        s.lines().map(|l| l.trim_end().to_string()).collect()
                    };
                    let expect = |shown: &Option<String>| lines(shown.as_deref().unwrap_or(""));
                    assert_eq!(
                        lines(&text(&out.stdout)),
                        expect(&output),
                        "{at}: the output of {file}; on standard error:\n{}",
                        text(&out.stderr)
                    );
                    assert_eq!(
                        lines(&text(&out.stderr)),
                        expect(&error),
                        "{at}: what {file} prints on standard error"
                    );
                    let warnings_only = error.as_ref().is_none_or(|e| e.starts_with("Warning"));
                    assert_eq!(out.status.success(), warnings_only, "{at}: {file}'s status");
                } else if !next_console(i).iter().any(|c| c.contains(&file)) {
                    assert!(
                        !defines_main,
                        "{at}: {file} defines `main`: show what it prints in an `output` block"
                    );
                    let out = folder.sh(&format!("stg-run --check {file}"), false);
                    let err = text(&out.stderr);
                    let library = err.contains("no `main` is defined");
                    assert!(
                        out.status.success()
                            && (err.is_empty() || library && err.lines().count() == 1),
                        "{at}: {file} does not check:\n{err}"
                    );
                }
                ran += 1;
            }
            "output" | "error" => panic!("{at}: an `{}` block follows no `stg` block", block.info),
            _ => {}
        }
        i += 1;
    }
    ran
}

#[test]
fn readme_commands_run_as_written() {
    let ran = run_document("README.md", "readme");
    assert!(ran >= 10, "only {ran} README commands found");
}

#[test]
fn language_examples_run_as_written() {
    let ran = run_document("docs/LANGUAGE.md", "language");
    assert!(ran >= 12, "only {ran} LANGUAGE.md examples found");
}

#[test]
fn semantics_examples_run_as_written() {
    let ran = run_document("docs/SEMANTICS.md", "semantics");
    assert!(ran >= 5, "only {ran} SEMANTICS.md examples found");
}

#[test]
fn golden_examples_run_as_written() {
    let ran = run_document("docs/GOLDEN.md", "golden");
    assert!(ran >= 8, "only {ran} GOLDEN.md commands found");
}

/// GOLDEN.md's Rust example is `tests/api_golden.rs`'s test: each line of
/// the `rust` block is a line of that file, in the same order, so the
/// example shown is the one that runs.
#[test]
fn golden_rust_example_is_the_api_golden_test() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(repo.join("docs/GOLDEN.md")).unwrap();
    let test = std::fs::read_to_string(repo.join("tests/api_golden.rs")).unwrap();
    let rust: Vec<Block> = blocks(&doc)
        .into_iter()
        .filter(|b| b.info == "rust")
        .collect();
    assert_eq!(rust.len(), 1, "GOLDEN.md should have one rust block");
    let mut file_lines = test.lines();
    for line in &rust[0].lines {
        assert!(
            file_lines.any(|l| l == line),
            "docs/GOLDEN.md:{}: the line `{line}` is not in tests/api_golden.rs (in this order)",
            rust[0].line
        );
    }
}

#[test]
fn wildcard_lines_match_any_number_of_lines() {
    let e = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(&e(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(matches(&e(&["a", "...", "d"]), &["a", "d"]));
    assert!(matches(&e(&["a  "]), &["a"]));
    assert!(!matches(&e(&["a", "...", "d"]), &["a", "b"]));
    assert!(!matches(&e(&["a"]), &["a", "b"]));
    assert!(!matches(&e(&[]), &["a"]));
}

/// SEMANTICS.md's table of rules names, for each rule, the function of the
/// reference engine that implements it: each must exist, and every rule
/// function must be in the table.
#[test]
fn semantics_rule_table_names_the_reference_engine_functions() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(repo.join("docs/SEMANTICS.md")).unwrap();
    let engine = std::fs::read_to_string(repo.join("src/machine/reference.rs")).unwrap();
    let named: Vec<&str> = doc
        .lines()
        .filter(|l| l.starts_with("| "))
        .filter_map(|l| l.trim_end().trim_end_matches('|').rsplit('|').next())
        // The cell is a link, [`NAME`](../src/machine/reference.rs).
        .filter(|cell| cell.trim().ends_with("](../src/machine/reference.rs)"))
        .filter_map(|cell| cell.split('`').nth(1))
        .collect();
    assert!(named.len() >= 22, "the table names {named:?}");
    for name in &named {
        assert!(
            engine.contains(&format!("fn {name}(")),
            "SEMANTICS.md names `{name}`, which src/machine/reference.rs does not define"
        );
    }
    for line in engine.lines() {
        if let Some(rest) = line.trim().strip_prefix("fn rule") {
            let name = format!("rule{}", rest.split('(').next().unwrap());
            assert!(
                named.contains(&name.as_str()),
                "SEMANTICS.md's table of rules does not name `{name}`"
            );
        }
    }
}
