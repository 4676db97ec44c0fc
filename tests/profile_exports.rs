//! `stg-prof speedscope`, `folded`, `json` and `dot`, each read by its real
//! client, for every program of `programs/`, flat and stacks:
//! - speedscope's files are valid against the JSON schema the npm package
//!   `speedscope` ships (with ajv: tests/browser/validate_speedscope.mjs);
//! - folded stacks are drawn by inferno's flame-graph library (the code of
//!   `inferno-flamegraph`), whose root holds every tick of the run;
//! - the GHC JSON has the layout of the `+RTS -pj` file GHC 9 wrote for
//!   `tests/ghc/nfib.hs` (`tests/fixtures/ghc_nfib.pj.json`, made with
//!   `ghc -prof -fprof-auto nfib.hs && ./nfib +RTS -pj`), field for field
//!   (tests/browser/ghc_json_layout.mjs);
//! - `dot -Tsvg` (graphviz) renders every graph, one SVG node per node.
//!
//! And speedscope's own viewer (in headless Chromium) opens all three of
//! nfib's speedscope, GHC JSON and folded files. Snapshots of the
//! hand-built fib profile show each output whole.
//!
//! Without node and `tests/browser/node_modules` (or without graphviz) those
//! parts are skipped with a message, unless `STG_RUN_REQUIRE_CLIENTS` is
//! set (`.ci/run` installs them), where they fail.

mod cli_common;
mod corpus;
mod profile_fixture;

use std::path::PathBuf;
use std::process::Command;

use cli_common::{browser_tools, have, node, stg_prof};
use stg_run::internal::profile::side_file::SideInfo;
use stg_run::internal::profile::view::dot::{Thresholds, dot};
use stg_run::internal::profile::view::folded::{Weight, folded, folded_size};
use stg_run::internal::profile::view::ghc_json::ghc_json;
use stg_run::internal::profile::view::speedscope::speedscope;
use stg_run::internal::profile::{Profile, format};

const MODES: [(&str, &[&str]); 2] = [
    ("flat", &[]),
    ("stacks", &["--cost-centres=stacks", "--auto-cc=all"]),
];

fn total_ticks(p: &Profile) -> u64 {
    p.entries.iter().map(|e| e.counters.ticks).sum()
}

/// inferno's SVG of folded stacks, and the sample count of its root.
fn inferno_svg(folded: &str) -> (String, u64) {
    let mut options = inferno::flamegraph::Options::default();
    let mut svg = Vec::new();
    inferno::flamegraph::from_lines(&mut options, folded.lines(), &mut svg)
        .expect("inferno reads the folded stacks");
    let svg = String::from_utf8(svg).unwrap();
    // The root frame's title: `all (1,234 samples, 100%)`.
    let root = svg
        .split("<title>all (")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .map_or(0, |n| n.replace(',', "").parse().unwrap());
    (svg, root)
}

#[test]
fn fixture_outputs() {
    let p = profile_fixture::fib();
    let side = SideInfo::default();
    insta::assert_snapshot!("folded_ticks", folded(&p, Weight::Ticks));
    insta::assert_snapshot!("folded_bytes", folded(&p, Weight::Bytes));
    insta::assert_snapshot!("dot", dot(&p, &side, Thresholds::default()));
    insta::assert_snapshot!("ghc_json", ghc_json(&p, &side));
    insta::assert_snapshot!("speedscope", speedscope(&p, &side));
}

#[test]
fn every_program_is_read_by_each_tool() {
    let dot_here = have("dot", "-V", "graphviz", "graphviz");
    let node_here = browser_tools();
    let mut speedscope_files: Vec<PathBuf> = Vec::new();
    let mut json_files: Vec<PathBuf> = Vec::new();
    for (mode, args) in MODES {
        let dir = cli_common::scratch("profile_exports", mode);
        for program in corpus::program_names() {
            let (file, _) = cli_common::profile_of(&dir, &program, args);
            let profile = format::read(&std::fs::read(&file).unwrap()).unwrap();

            let f = stg_prof(&["folded"], &file);
            let (_, root) = inferno_svg(&f);
            assert_eq!(root, total_ticks(&profile), "{program} {mode}: folded");
            // The size worked out before writing is the size written.
            assert_eq!(
                folded_size(&profile, Weight::Ticks).bytes,
                f.len() as u128,
                "{program} {mode}: folded size"
            );
            let by_bytes = stg_prof(&["folded", "--alloc"], &file);
            assert_eq!(
                folded_size(&profile, Weight::Bytes).bytes,
                by_bytes.len() as u128,
                "{program} {mode}: folded --alloc size"
            );

            let s = dir.join(format!("{program}.speedscope.json"));
            std::fs::write(&s, stg_prof(&["speedscope"], &file)).unwrap();
            speedscope_files.push(s);
            let j = dir.join(format!("{program}.prof.json"));
            std::fs::write(&j, stg_prof(&["json"], &file)).unwrap();
            json_files.push(j);

            if dot_here {
                let graph = stg_prof(&["dot"], &file);
                let g = dir.join(format!("{program}.dot"));
                std::fs::write(&g, &graph).unwrap();
                let out = Command::new("dot").arg("-Tsvg").arg(&g).output().unwrap();
                assert!(
                    out.status.success() && out.stderr.is_empty(),
                    "{program} {mode}: dot -Tsvg: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                let svg = String::from_utf8(out.stdout).unwrap();
                let nodes = graph
                    .lines()
                    .filter(|l| l.contains(" [label=") && !l.contains("->"))
                    .count();
                assert_eq!(
                    svg.matches("class=\"node\"").count(),
                    nodes,
                    "{program} {mode}"
                );
            }
        }
    }
    if node_here {
        let out = node("validate_speedscope.mjs", &speedscope_files);
        assert_eq!(
            out.lines().filter(|l| l.starts_with("ok ")).count(),
            speedscope_files.len(),
            "{out}"
        );
        let mut args = vec![corpus::repo("tests/fixtures/ghc_nfib.pj.json")];
        args.extend(json_files.iter().cloned());
        let out = node("ghc_json_layout.mjs", &args);
        assert_eq!(
            out.lines().filter(|l| l.starts_with("ok ")).count(),
            json_files.len(),
            "{out}"
        );
    }
}

/// The layout check fails where it should: a file missing a field.
#[test]
fn the_layout_check_can_fail() {
    if !browser_tools() {
        return;
    }
    let dir = cli_common::scratch("profile_exports", "layout_fails");
    let bad = dir.join("bad.json");
    let text = ghc_json(&profile_fixture::fib(), &SideInfo::default());
    std::fs::write(&bad, text.replace("\"is_caf\"", "\"is_kaf\"")).unwrap();
    let out = Command::new("node")
        .arg(cli_common::browser_dir().join("ghc_json_layout.mjs"))
        .arg(corpus::repo("tests/fixtures/ghc_nfib.pj.json"))
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("is_kaf"));
    let schema_bad = dir.join("bad.speedscope.json");
    let text = speedscope(&profile_fixture::fib(), &SideInfo::default());
    std::fs::write(
        &schema_bad,
        text.replace("\"type\":\"evented\"", "\"type\":\"eventful\""),
    )
    .unwrap();
    let out = Command::new("node")
        .arg(cli_common::browser_dir().join("validate_speedscope.mjs"))
        .arg(&schema_bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

/// speedscope's viewer opens what we write, with no error: its own format
/// and GHC's JSON (both named by the program) and folded stacks (named by
/// the file).
#[test]
fn speedscope_opens_all_three() {
    if !browser_tools() {
        return;
    }
    let dir = cli_common::scratch("profile_exports", "speedscope_app");
    let (file, _) = cli_common::profile_of(&dir, "nfib", MODES[1].1);
    let write = |name: &str, args: &[&str]| -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, stg_prof(args, &file)).unwrap();
        path
    };
    let files = [
        write("nfib.speedscope.json", &["speedscope"]),
        write("nfib.prof", &["json"]),
        write("nfib.folded.txt", &["folded"]),
    ];
    let out = node("speedscope_import.mjs", &files);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    let title = |l: &str| -> String {
        l.split("\"title\":")
            .nth(1)
            .unwrap()
            .split(",\"error\"")
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(title(lines[0]), "\"nfib\"", "{out}");
    assert_eq!(title(lines[1]), "\"nfib\"", "{out}");
    assert_eq!(title(lines[2]), "\"nfib.folded.txt\"", "{out}");
    assert!(
        lines.iter().all(|l| l.ends_with("\"error\":null}")),
        "{out}"
    );
}

/// `folded` holds one stack of cost-centre ids and each cost centre's
/// frame once, writing a line frame by frame: a 2,000-deep stack of two
/// cost centres, one with a 100,000-byte name, makes one line of 100 MB,
/// written under an address-space limit of 256 MiB (a line built whole,
/// and a frame copied for each level, took twice that).
#[test]
fn folded_streams_a_deep_stack_of_long_names() {
    use std::os::unix::process::CommandExt;
    use stg_run::internal::profile::{CostCentreDecl, Counters, Entry};
    let depth = 2000u32;
    let long = "x".repeat(100_000);
    let entries = (0..depth)
        .map(|i| Entry {
            cost_centre: if i == 0 { 1 } else { 2 + i % 2 },
            counters: Counters {
                ticks: u64::from(i == depth - 1),
                ..Counters::default()
            },
            children: if i + 1 < depth { vec![i + 1] } else { vec![] },
        })
        .collect();
    let profile = Profile {
        frequency: 0,
        overhead: 0,
        modules: vec!["MAIN".into(), "m".into()],
        cost_centres: [("MAIN", 1), (long.as_str(), 2), ("g", 2)]
            .iter()
            .map(|&(name, module)| CostCentreDecl {
                module,
                name: name.to_string(),
            })
            .collect(),
        entries,
    };
    let dir = cli_common::scratch("profile_exports", "folded_deep");
    let file = dir.join("deep.pgcl");
    std::fs::write(&file, format::try_write(&profile).unwrap()).unwrap();
    let out_path = dir.join("deep.folded");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_stg-prof"));
    cmd.arg("folded")
        .arg(&file)
        .stdout(std::fs::File::create(&out_path).unwrap());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs in the child.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 256 << 20,
                rlim_max: 256 << 20,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let written = std::fs::metadata(&out_path).unwrap().len();
    // MAIN.MAIN, then 999 long frames and 1,000 `m.g`s, joined by `;`.
    let long_frame = "m.".len() + long.len();
    let want = "MAIN.MAIN".len() + 999 * (1 + long_frame) + 1000 * (1 + "m.g".len()) + " 1\n".len();
    assert_eq!(written, want as u64);
    assert_eq!(folded_size(&profile, Weight::Ticks).bytes, want as u128);
    std::fs::remove_file(&out_path).unwrap();
}

/// A chain of recursive calls every one of which has ticks makes folded
/// stacks that grow with the square of its depth: 200,000 entries (a
/// 1.6 MB file) would take 200 GB. `folded` says so, with the numbers and
/// what to do, before writing a byte; `--max-output-size` lets it through.
#[test]
fn folded_refuses_output_past_its_limit() {
    let chain = profile_fixture::chain;
    let dir = cli_common::scratch("profile_exports", "folded_limit");
    let file = dir.join("chain.pgcl");
    std::fs::write(&file, format::try_write(&chain(200_000)).unwrap()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_stg-prof"))
        .arg("folded")
        .arg(&file)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty(), "nothing is written");
    // Line k (k = 0 .. 199,999) holds k + 1 frames of 9 bytes ("MAIN.MAIN"
    // and "Main.loop" by turns) and k `;`s, then " 1" and a newline.
    let n: u128 = 200_000;
    let want = 12 * n + 10 * (n * (n - 1) / 2);
    assert!(
        err.contains(&format!("({want} bytes) in 200000 lines")),
        "{err}"
    );
    assert!(err.contains("the longest 200000 frames deep"), "{err}");
    assert!(err.contains("--max-output-size allows 1024 MB"), "{err}");
    assert!(err.contains("stg-prof speedscope"), "{err}");

    // A smaller chain under a limit raised to what it needs, and one byte less.
    std::fs::write(&file, format::try_write(&chain(2_000)).unwrap()).unwrap();
    let n: u128 = 2_000;
    let need = 12 * n + 10 * (n * (n - 1) / 2);
    for (limit, ok) in [(need, true), (need - 1, false)] {
        let out = Command::new(env!("CARGO_BIN_EXE_stg-prof"))
            .arg("folded")
            .arg(format!("--max-output-size={limit}"))
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(out.status.success(), ok, "limit {limit}");
        let written = if ok { need } else { 0 };
        assert_eq!(out.stdout.len() as u128, written, "limit {limit}");
    }
}

/// Graphviz 2.43 refuses a quoted string of 16,384 bytes or more ("syntax
/// error ... longer than 16384?"), and a label is any string: names (and
/// file names, and the program's) are cut so that every quoted string of
/// the graph stays well under that, and `dot` draws it.
#[test]
fn dot_draws_names_too_long_for_graphviz() {
    use stg_run::internal::profile::side_file::{Clock, SrcLoc};
    use stg_run::internal::profile::{CostCentreDecl, Counters, Entry};
    let long = "\\\"é".repeat(20_000);
    let counters = |ticks| Counters {
        ticks,
        words: 1,
        strict_calls: 1,
        ..Counters::default()
    };
    let p = Profile {
        frequency: 0,
        overhead: 0,
        modules: vec!["MAIN".into(), long.clone()],
        cost_centres: vec![
            CostCentreDecl {
                module: 1,
                name: "MAIN".into(),
            },
            CostCentreDecl {
                module: 2,
                name: long.clone(),
            },
        ],
        entries: vec![
            Entry {
                cost_centre: 1,
                counters: counters(1),
                children: vec![1],
            },
            Entry {
                cost_centre: 2,
                counters: counters(10),
                children: vec![],
            },
        ],
    };
    let side = SideInfo {
        clock: Clock::Steps,
        locations: vec![
            None,
            Some(SrcLoc {
                file: long.clone(),
                line: 1,
                col: 1,
            }),
        ],
    };
    let graph = dot(&p, &side, Thresholds::default());
    // Every quoted string: between unescaped double quotes.
    let mut longest = 0;
    let (mut in_string, mut escaped, mut len) = (false, false, 0);
    for b in graph.bytes() {
        if in_string {
            len += 1;
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => {
                    in_string = false;
                    longest = longest.max(len);
                }
                _ => {}
            }
        } else if b == b'"' {
            (in_string, len) = (true, 0);
        }
    }
    assert!(longest < 16_000, "a quoted string of {longest} bytes");
    assert!(graph.contains("…"), "{}", &graph[..500]);
    if have("dot", "-V", "graphviz", "graphviz") {
        let dir = cli_common::scratch("profile_exports", "long_names");
        let g = dir.join("long.dot");
        std::fs::write(&g, &graph).unwrap();
        let out = Command::new("dot").arg("-Tsvg").arg(&g).output().unwrap();
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "dot -Tsvg: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
