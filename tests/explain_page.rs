//! The explorer page (`stg-run --explain`) in a real browser: headless
//! Chromium, driven by `tests/explorer/drive.mjs` (playwright-core, which
//! `.ci/run` installs with `npm ci`; elsewhere these tests skip with a
//! message unless `STG_RUN_REQUIRE_CLIENTS` is set).
//!
//! - The walk of appendix A's rules 15 and 16 on `programs/paper_map_scc.stg`:
//!   at the first rule 15 the update frame shows the demanding cost centre
//!   and the heap shows the thunk black-holed; at its rule 16 the cost
//!   centre is restored and the thunk is an indirection to the
//!   constructor; stepping back shows every step exactly as before.
//!   `STG_EXPLAIN_SCREENSHOTS=DIR` keeps the screenshots of those two
//!   states there (`docs/` holds the ones the README shows).
//! - Pages of programs that fire the rules (15′, 16′, 17a, 17a′, both
//!   `scc` rules, a runtime error at the end), in flat mode and in stacks
//!   mode with `--auto-cc=all`: every step shown forwards and then
//!   backwards looks the same both ways, every closure's card opens, and
//!   no script fails.
//! - A 100,000-step page (nfib, stopped by the default step limit): its
//!   size is bounded (asserted); its load and step times are measured and
//!   printed, not asserted (the machine is shared).
//! - Without a browser: the page's default path, the checks before the
//!   run (never over an input), the step limit's bound and message, and
//!   a program whose text holds `</script>`.
//! - docs/TUTORIAL.md: the programs it names exist with their expected
//!   output, and the steps it sends the reader to fire the rules it says.

mod cli_common;
mod corpus;

use std::path::Path;
use std::process::Command;

use serde_json::Value as Json;

/// Is everything here: Chromium, Node and playwright-core?
fn browser() -> bool {
    cli_common::chromium() && cli_common::node_package("playwright-core")
}

/// `stg-run programs/<name>.stg --explain=<dir>/<name>.html ARGS`; the
/// page's path and stg-run's standard error.
fn page(dir: &Path, name: &str, args: &[&str]) -> (std::path::PathBuf, String) {
    let html = dir.join(format!("{name}.html"));
    let program = corpus::repo("programs").join(format!("{name}.stg"));
    let mut all = vec![
        program.display().to_string(),
        format!("--explain={}", html.display()),
    ];
    all.extend(args.iter().map(|a| a.to_string()));
    let out = cli_common::stg_run(&all);
    let stderr = cli_common::text(&out.stderr);
    assert!(html.exists(), "{name}: no page written; {stderr}");
    (html, stderr)
}

/// Run the driver; its report.
fn drive(args: &[&Path], mode: &str) -> Json {
    let out = Command::new("node")
        .arg(cli_common::explorer_dir().join("drive.mjs"))
        .arg(mode)
        .args(args)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "the driver failed: {}{}",
        cli_common::text(&out.stdout),
        cli_common::text(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the driver prints JSON")
}

fn text(j: &Json) -> &str {
    j.as_str().unwrap_or_else(|| panic!("text, not {j}"))
}

#[test]
fn rules_15_and_16_of_the_paper_in_the_browser() {
    if !browser() {
        return;
    }
    let dir = cli_common::scratch("explain_page", "walk");
    let (html, stderr) = page(&dir, "paper_map_scc", &[]);
    assert!(stderr.contains("wrote the explorer page"), "{stderr}");
    let shots = match std::env::var_os("STG_EXPLAIN_SCREENSHOTS") {
        Some(d) => std::path::PathBuf::from(d),
        None => dir.clone(),
    };
    let r = drive(&[&html, &shots], "walk");
    assert_eq!(
        r["errors"],
        Json::Array(vec![]),
        "no page errors, no network"
    );

    // The first rule 15: entering the thunk `main` under MAIN.
    let at15 = &r["at15"];
    assert_eq!(at15["rule"], "15", "{at15}");
    let thunk = text(&r["thunk"]);
    let frame = &at15["us"][0];
    assert_eq!(
        frame["class"], "new",
        "the frame was pushed by this step: {frame}"
    );
    let frame_text = text(&frame["text"]);
    assert!(
        frame_text.contains(&format!("update @{thunk}"))
            && frame_text.contains("saved cost centre MAIN"),
        "the update frame names the thunk and saves the demanding cost centre: {frame_text}"
    );
    // (The label is in capitals on the page.)
    let cc = text(&at15["cc"]).to_lowercase();
    assert!(
        cc.starts_with("current cost centre paper_map_scc.caf") && cc.contains("was main"),
        "the thunk's builder is current, MAIN was: {cc}"
    );
    let row = &at15["rows"][thunk];
    assert_eq!(row["kind"], "blackhole", "{row}");
    assert!(text(&row["text"]).contains("black hole"), "{row}");
    assert!(text(&row["class"]).contains("blackholed"), "{row}");
    assert!(
        text(&at15["explain"]).contains("becomes a black hole"),
        "{}",
        at15["explain"]
    );

    // Its rule 16: the update.
    let at16 = &r["at16"];
    assert_eq!(at16["rule"], "16", "{at16}");
    let cc = text(&at16["cc"]).to_lowercase();
    assert!(
        cc.starts_with("current cost centre main "),
        "the demanding cost centre the frame saved is current again: {cc}"
    );
    assert!(
        !at16["us"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| text(&f["text"]).contains(&format!("update @{thunk}"))),
        "the frame is popped: {}",
        at16["us"]
    );
    let row = &at16["rows"][thunk];
    assert_eq!(row["kind"], "indirection", "{row}");
    let row_text = text(&row["text"]);
    let target = row_text
        .split("→ @")
        .nth(1)
        .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
        .unwrap_or_else(|| panic!("an indirection shows its target: {row_text}"));
    let value = &at16["rows"][target];
    assert_eq!(value["kind"], "constructor", "{value}");
    assert!(text(&value["text"]).contains("Cons"), "{value}");
    assert!(
        text(&value["class"]).contains("alloc"),
        "built by this step: {value}"
    );

    // Back: every step looks as it did.
    assert_eq!(r["back"]["step"], at15["step"]);
    assert_eq!(
        r["back"]["markup"], at15["markup"],
        "the rule 15 state, exactly"
    );
    assert_eq!(
        r["back_differ"],
        Json::Array(vec![]),
        "steps that look different going back"
    );
    assert!(r["compared"].as_u64().unwrap() >= 10, "{}", r["compared"]);
}

#[test]
fn a_page_of_100000_steps_loads_and_steps() {
    if !browser() {
        return;
    }
    let dir = cli_common::scratch("explain_page", "long");
    let (html, stderr) = page(&dir, "nfib", &[]);
    assert!(
        stderr.contains("step limit of 100000 reached")
            && stderr.contains("shows the first 100000 steps only"),
        "{stderr}"
    );
    let bytes = std::fs::metadata(&html).unwrap().len();
    assert!(bytes < 20_000_000, "the page takes {bytes} bytes");
    let r = drive(&[&html], "time");
    assert_eq!(r["errors"], Json::Array(vec![]));
    assert_eq!(r["last_step"], 100_000);
    assert!(
        text(&r["banner"]).contains("stopped after 100,000 steps"),
        "{}",
        r["banner"]
    );
    assert!(
        text(&r["end"]).contains("step limit"),
        "the last position says why the run stopped: {}",
        r["end"]
    );
    eprintln!(
        "nfib, 100,000 steps: page {:.1} MB; load {} ms (script {:.0} ms); a step {} ms, back {} ms; to the end {} ms, to the start {} ms, to step 50,000 {} ms",
        bytes as f64 / 1e6,
        r["load_ms"],
        r["script_ms"].as_f64().unwrap_or(0.0),
        r["step_ms"],
        r["back_ms"],
        r["to_end_ms"],
        r["to_start_ms"],
        r["goto_ms"]
    );
}

#[test]
fn every_step_of_every_rule_shows_without_errors() {
    if !browser() {
        return;
    }
    let dir = cli_common::scratch("explain_page", "sweep");
    let mut pages = Vec::new();
    // Between them they fire every rule but 8 and 9 (which no program
    // here fires): 15′ and 16′ in single_entry_twice, which ends in an
    // error; 17a and 17a′ in pap_update; 7 in scc_pair; 10 to 13 and
    // scc= in manual_scc.
    for name in [
        "single_entry_twice",
        "paper_map_scc",
        "pap_update",
        "manual_scc",
        "scc_pair",
    ] {
        let (html, _) = page(&dir, name, &[]);
        pages.push(html);
        let stacks = dir.join(format!("{name}.stacks"));
        std::fs::create_dir_all(&stacks).unwrap();
        let (html, _) = page(&stacks, name, &["--cost-centres=stacks", "--auto-cc=all"]);
        pages.push(html);
    }
    let mut args: Vec<&Path> = vec![&pages[0]];
    args.extend(pages.iter().map(|p| p.as_path()));
    let r = drive(&args, "sweep");
    assert_eq!(r["errors"], Json::Array(vec![]), "script errors");
    for p in &pages {
        let seen = &r["pages"][p.to_str().unwrap()];
        let records = seen["records"].as_u64().unwrap();
        assert!(records > 20, "{}: {seen}", p.display());
        assert_eq!(
            seen["same_going_back"].as_u64(),
            Some(records),
            "{}: every step looks the same going back: {seen}",
            p.display()
        );
        assert!(seen["closures"].as_u64().unwrap() > 0, "{seen}");
    }
}

/// The command line, without a browser: the default path, the checks
/// before the run, the step limit's message, and a page that nothing in
/// the program's text can break out of.
#[test]
fn the_page_is_written_where_and_as_the_command_line_says() {
    let dir = cli_common::scratch("explain_page", "cli");
    let source = dir.join("tag_text.stg");
    // `</script>` and `<!--` in a comment: the page's data must not end there.
    let text = "-- </script><script>alert(1)</script> <!-- \nmain = {} \\u {} -> let x = {} \\r {} -> I# {1#} in x {}\n";
    std::fs::write(&source, text).unwrap();

    // `<stem>.html` in the working directory by default.
    let out = cli_common::stg_run_in(&dir, &["tag_text.stg", "--explain"]);
    let stderr = cli_common::text(&out.stderr);
    assert!(
        stderr.contains("wrote the explorer page tag_text.html"),
        "{stderr}"
    );
    let html = std::fs::read_to_string(dir.join("tag_text.html")).unwrap();
    assert_eq!(
        html.matches("</script>").count(),
        2,
        "only the page's own two script elements end"
    );
    assert!(!html.contains("<!-- "), "the program's `<!--` is escaped");
    for network in ["http://", "https://", "src=", "<link"] {
        assert!(!html.contains(network), "the page loads nothing: {network}");
    }

    // Never over an input, refused before the run (nothing printed).
    let out = cli_common::stg_run(&[
        source.display().to_string(),
        format!("--explain={}", source.display()),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = cli_common::text(&out.stderr);
    assert!(
        stderr.contains("cannot write the explorer page")
            && stderr.contains("one of the run's input files"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "the program did not run");
    assert_eq!(std::fs::read_to_string(&source).unwrap(), text);

    // Nor where another output goes.
    let out = cli_common::stg_run(&[
        source.display().to_string(),
        format!("--explain={}", dir.join("same").display()),
        format!("--trace-file={}", dir.join("same").display()),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(cli_common::text(&out.stderr).contains("written there too"));

    // At most 1,000,000 steps: a command-line error.
    let out = cli_common::stg_run(&[
        source.display().to_string(),
        "--explain".to_string(),
        "--max-steps=1000001".to_string(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        cli_common::text(&out.stderr).contains("--explain holds at most 1000000 steps"),
        "{}",
        cli_common::text(&out.stderr)
    );

    // A run the limit stops still writes its page, and says so.
    let page = dir.join("stopped.html");
    let out = cli_common::stg_run(&[
        corpus::repo("programs")
            .join("paper_map_scc.stg")
            .display()
            .to_string(),
        format!("--explain={}", page.display()),
        "--max-steps=10".to_string(),
    ]);
    assert_eq!(out.status.code(), Some(3));
    let stderr = cli_common::text(&out.stderr);
    assert!(
        stderr.contains("step limit of 10 reached")
            && stderr.contains("shows the first 10 steps only")
            && stderr.contains("--max-steps=10"),
        "{stderr}"
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("\"outcome\":\"step_limit\""),
        "the page's data ends at the limit"
    );
}

/// docs/TUTORIAL.md sends the reader to given steps of given programs:
/// every program it names is in `programs/` with its expected output, and
/// each step it names fires the rule it says (read from `--trace`, whose
/// step numbers the page shows).
#[test]
fn the_tutorials_steps_fire_the_rules_it_says() {
    let tutorial = std::fs::read_to_string(corpus::repo("docs").join("TUTORIAL.md")).unwrap();
    let named: std::collections::BTreeSet<&str> = tutorial
        .split("programs/")
        .skip(1)
        .filter_map(|rest| rest.split(".stg").next())
        .filter(|name| name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    assert!(named.len() >= 6, "{named:?}");
    for name in &named {
        for ext in ["stg", "stdout"] {
            let file = corpus::repo("programs").join(format!("{name}.{ext}"));
            assert!(file.exists(), "the tutorial names {}", file.display());
        }
    }
    let claims: &[(&str, &[(u64, &str)])] = &[
        (
            "paper_map_scc",
            &[
                (2, "15"),
                (4, "scc"),
                (12, "3"),
                (14, "16′"),
                (15, "16"),
                (16, "15"),
                (21, "2"),
                (28, "16"),
                (39, "16"),
            ],
        ),
        ("scc_pair", &[(6, "16′"), (8, "15")]),
        (
            "nested_scc_map",
            &[(10, "scc"), (16, "15"), (36, "16"), (61, "15"), (82, "16")],
        ),
        (
            "nested_scc_partial",
            &[(37, "15"), (38, "scc"), (40, "17a′"), (41, "17a")],
        ),
        (
            "nested_scc_lambda",
            &[(38, "scc"), (83, "scc"), (128, "scc")],
        ),
        (
            "pap_update",
            &[
                (10, "15"),
                (12, "17a"),
                (50, "15"),
                (91, "15"),
                (137, "17a′"),
                (138, "17a"),
            ],
        ),
    ];
    for (name, steps) in claims {
        assert!(named.contains(name), "{name}");
        let program = corpus::repo("programs").join(format!("{name}.stg"));
        let out = cli_common::stg_run(&[program.display().to_string(), "--trace".to_string()]);
        let trace = cli_common::text(&out.stderr);
        for (step, rule) in *steps {
            let fired = trace.lines().find_map(|line| {
                let mut words = line.split_whitespace();
                (words.next()? == step.to_string()).then(|| words.next())?
            });
            assert_eq!(fired, Some(*rule), "{name}: step {step}");
        }
    }
    // Step 39's rule 16 writes the `Cons` over the black hole of `@72`
    // (the page's ids are the JSON trace's): nothing is allocated.
    let program = corpus::repo("programs").join("paper_map_scc.stg");
    let out = cli_common::stg_run(&[program.display().to_string(), "--trace=json".to_string()]);
    let step = cli_common::text(&out.stderr)
        .lines()
        .filter_map(|l| serde_json::from_str::<Json>(l).ok())
        .find(|r| r["step"] == 39)
        .expect("a record of step 39");
    assert_eq!(step["heap"].get("alloc"), None, "{step}");
    let updated = &step["heap"]["update"][0];
    assert_eq!(
        (&updated["id"], &updated["kind"], &updated["con"]),
        (
            &Json::from(72),
            &Json::from("constructor"),
            &Json::from("Cons")
        ),
        "{step}"
    );
}
