//! `stg-prof html`: the interactive page, checked in a real browser.
//!
//! Headless Chromium loads the page (`--dump-dom`, the DOM after the script
//! ran) and the tests read the tables it drew:
//! - every call-tree row shows the same no., entries and individual and
//!   inherited %time and %alloc as `stg-prof report`'s row of that entry,
//!   and the rows shown are exactly the entries with at least 1% of the
//!   inherited time under ancestors that have it too, down to depth 50
//!   (the page's first view: the `min %time` threshold at 1%);
//! - `#find=TEXT` shows exactly those entries whose name contains TEXT and
//!   their ancestors, the matches marked;
//! - a cost centre named like markup (`</script><b>x</b>`) is shown as text
//!   and does not end the page's data early.
//!
//! Then a person's session, driven by playwright-core
//! (tests/browser/profile_page.mjs), on the stacks-mode profile of
//! tests/ghc/parser_comb.stg (combinators reached by many stacks): it
//! zooms the flame graph into a subtree by clicking it and back by the
//! breadcrumb, opens the callers of a cost centre and checks their rows,
//! raises `min %time` and checks what disappears, sorts the cost-centre
//! table by clicking headers, searches, and excludes a cost centre; it
//! takes the screenshots kept in docs/screenshots/. And on a profile of
//! 100,000 entries it measures how long the page takes to load and to
//! redraw after a search, a threshold, a zoom and a sort (printed; see
//! docs/PERFORMANCE.md).
//!
//! Without `chromium` on the `PATH` (or without tests/browser's npm
//! packages) the browser tests are skipped with a message, unless
//! `STG_RUN_REQUIRE_CLIENTS` is set (`.ci/run` sets it and installs them),
//! where they fail.

mod cli_common;
mod profile_fixture;

use std::path::{Path, PathBuf};

use cli_common::{chromium, dump_dom, stg_prof, stg_run_in};

use stg_run::internal::profile::side_file::SideInfo;
use stg_run::internal::profile::view::html::html;
use stg_run::internal::profile::{CostCentreDecl, Profile, format};

/// The DOM of `page` (with `fragment`) after its scripts ran.
fn page_dom(dir: &Path, page: &Path, fragment: &str) -> String {
    dump_dom(dir, &format!("file://{}{fragment}", page.display()))
}

/// The text of each cell of each row of the call tree: (entry, cells).
fn tree_rows(dom: &str) -> Vec<(usize, Vec<String>)> {
    let body = dom
        .split("<table id=\"tree\">")
        .nth(1)
        .expect("the call tree table");
    let body = body.split("</table>").next().unwrap();
    body.split("<tr data-entry=\"")
        .skip(1)
        .map(|row| {
            let entry = row[..row.find('"').unwrap()].parse().unwrap();
            let cells = row
                .split("<td")
                .skip(1)
                .map(|cell| {
                    let inner = &cell[cell.find('>').unwrap() + 1..];
                    let inner = &inner[..inner.find("</td>").unwrap()];
                    strip_tags(inner)
                })
                .collect();
            (entry, cells)
        })
        .collect()
}

fn strip_tags(s: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for ch in s.chars() {
        match ch {
            '<' => in_tag = true,
            '>' => in_tag = false,
            '▾' | '▸' if !in_tag => {}
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// `stg-prof report`'s tree rows by `no.`: [name, module, SRC, no.,
/// entries, %time, %alloc, inherited %time, %alloc].
fn report_rows(report: &str) -> std::collections::BTreeMap<usize, Vec<String>> {
    report
        .lines()
        .skip_while(|l| !(l.starts_with("COST CENTRE") && l.contains(" no. ")))
        .skip(1)
        .map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
        .filter(|w| w.len() == 9)
        .map(|w| (w[3].parse().unwrap(), w))
        .collect()
}

/// Parent of each entry (by file index, which for the machine's files is
/// the depth-first number).
fn parents(p: &Profile) -> Vec<Option<usize>> {
    let mut parent = vec![None; p.entries.len()];
    for (i, e) in p.entries.iter().enumerate() {
        for &c in &e.children {
            parent[c as usize] = Some(i);
        }
    }
    parent
}

fn inherited(p: &Profile) -> Vec<(u64, u64)> {
    let mut inh: Vec<(u64, u64)> = p
        .entries
        .iter()
        .map(|e| (e.counters.ticks, e.counters.words))
        .collect();
    for i in (0..p.entries.len()).rev() {
        for &c in &p.entries[i].children {
            let (t, w) = inh[c as usize];
            inh[i].0 += t;
            inh[i].1 += w;
        }
    }
    inh
}

/// The profile of `programs/<program>.stg` in stacks mode, `--auto-cc=all`.
fn profile_of(dir: &Path, program: &str) -> PathBuf {
    let (file, out) =
        cli_common::profile_of(dir, program, &["--cost-centres=stacks", "--auto-cc=all"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    file
}

#[test]
fn the_page_shows_what_the_report_says() {
    if !chromium() {
        return;
    }
    let dir = cli_common::scratch("profile_html", "report");
    for program in ["nfib", "queens", "scc_pair"] {
        let file = profile_of(&dir, program);
        let profile = format::read(&std::fs::read(&file).unwrap()).unwrap();
        let page = dir.join(format!("{program}.html"));
        std::fs::write(&page, stg_prof(&["html"], &file)).unwrap();
        let report = report_rows(&stg_prof(&["report"], &file));
        let (parent, inh) = (parents(&profile), inherited(&profile));
        let total = inh[0];
        let depth = |mut i: usize| {
            let mut d = 0;
            while let Some(p) = parent[i] {
                (d, i) = (d + 1, p);
            }
            d
        };
        // The first view: entries with at least 1% of the inherited time
        // (the `min %time` threshold), under ancestors that do too, the
        // open ones being those above depth 50.
        let passes = |i: usize| i == 0 || 100 * inh[i].0 >= total.0;
        let shown = |mut i: usize| {
            if !passes(i) {
                return false;
            }
            while let Some(p) = parent[i] {
                if !passes(p) || depth(p) >= 50 {
                    return false;
                }
                i = p;
            }
            true
        };

        let rows = tree_rows(&page_dom(&dir, &page, ""));
        let want: Vec<usize> = (0..profile.entries.len()).filter(|&i| shown(i)).collect();
        let mut got: Vec<usize> = rows.iter().map(|r| r.0).collect();
        got.sort();
        assert_eq!(got, want, "{program}: rows of the first view");
        for (entry, cells) in &rows {
            let r = &report[entry];
            // name, module, SRC, no., entries; then thunks, calls, paps
            // (hidden columns); then the four percentages.
            assert_eq!(&cells[0..5], &r[0..5], "{program}: entry {entry}");
            assert_eq!(
                &cells[8..12],
                &r[5..9],
                "{program}: entry {entry} percentages"
            );
        }

        // Find: the matches and their ancestors among the entries the
        // thresholds show, every one open.
        let dom = page_dom(&dir, &page, "#find=.n");
        let rows = tree_rows(&dom);
        let name = |i: usize| -> &str {
            &profile.cost_centres[profile.entries[i].cost_centre as usize - 1].name
        };
        let mut keep = vec![false; profile.entries.len()];
        let passes_all = |mut i: usize| {
            loop {
                if !passes(i) {
                    return false;
                }
                match parent[i] {
                    Some(p) => i = p,
                    None => return true,
                }
            }
        };
        for i in 0..profile.entries.len() {
            if name(i).contains(".n") && passes_all(i) {
                let mut j = Some(i);
                while let Some(k) = j {
                    keep[k] = true;
                    j = parent[k];
                }
            }
        }
        let want: Vec<usize> = (0..keep.len()).filter(|&i| keep[i]).collect();
        let mut got: Vec<usize> = rows.iter().map(|r| r.0).collect();
        got.sort();
        assert_eq!(got, want, "{program}: rows found by \".n\"");
        let marked = dom.matches("class=\"hit\"").count();
        let matching = (0..keep.len())
            .filter(|&i| name(i).contains(".n") && passes_all(i))
            .count();
        assert_eq!(marked, matching, "{program}: marked matches");
    }
}

#[test]
fn heap_chart_is_shown_under_the_tree() {
    let dir = cli_common::scratch("profile_html", "heap");
    let src = cli_common::program("foldl_leak.stg");
    stg_run_in(
        &dir,
        &[
            src.to_str().unwrap(),
            "--profile",
            "--heap-profile=descr",
            "--heap-interval=2000",
        ],
    );
    let pgcl = dir.join("foldl_leak.pgcl");
    let hp = dir.join("foldl_leak.hp");
    let with = stg_prof(&["html", "--heap", hp.to_str().unwrap()], &pgcl);
    let chart = stg_prof(&["heap"], &hp);
    assert!(with.contains(&format!("<div id=\"heap\">\n{chart}</div>")));
    assert!(!stg_prof(&["html"], &pgcl).contains("id=\"heap\""));

    if !chromium() {
        return;
    }
    let page = dir.join("with_heap.html");
    std::fs::write(&page, &with).unwrap();
    let dom = page_dom(&dir, &page, "");
    let heap = dom.split("<div id=\"heap\">").nth(1).expect("the chart");
    assert!(heap.contains("<polygon"), "{heap}");
    assert!(!tree_rows(&dom).is_empty());
}

/// A recursion 200 deep, each level holding all the time: the first view
/// opens it down to depth 50 only (51 rows), so a deep tree does not draw
/// thousands of rows at once.
#[test]
fn a_deep_tree_opens_to_depth_fifty() {
    if !chromium() {
        return;
    }
    let dir = cli_common::scratch("profile_html", "deep");
    let page = dir.join("deep.html");
    std::fs::write(
        &page,
        html(&profile_fixture::chain(200), &SideInfo::default(), None),
    )
    .unwrap();
    let rows = tree_rows(&page_dom(&dir, &page, ""));
    assert_eq!(rows.len(), 51);
}

#[test]
fn names_are_text_not_markup() {
    let mut p = profile_fixture::fib();
    p.cost_centres[4] = CostCentreDecl {
        module: 3,
        name: "</script><b>x</b>\"'&".into(),
    };
    p.modules[2] = "a<b>".into();
    let page = html(&p, &SideInfo::default(), None);
    // The data cannot close its element: only the two real closings.
    assert_eq!(page.matches("</script>").count(), 2);
    assert!(page.contains("<h1>a&lt;b&gt;</h1>"));

    if !chromium() {
        return;
    }
    let dir = cli_common::scratch("profile_html", "markup");
    let file = dir.join("markup.html");
    std::fs::write(&file, &page).unwrap();
    let dom = page_dom(&dir, &file, "");
    assert!(!dom.contains("<b>x</b>"), "the name became markup");
    let rows = tree_rows(&dom);
    assert!(
        rows.iter().any(|(_, c)| c[0] == "</script><b>x</b>\"'&"),
        "{rows:?}"
    );
    // Every entry of the fixture is drawn (all have ≥ 1% or sit under
    // entries that do, or are closed): at least the root and the name.
    assert!(rows.len() >= 2);
}

// ---------------------------------------------------------------------------
// A person's session, through playwright-core.

/// Runs tests/browser/profile_page.mjs on `page` with `steps`, screenshots
/// into `shots`; returns what it reported.
fn drive(dir: &Path, page: &Path, shots: &Path, steps: serde_json::Value) -> serde_json::Value {
    let steps_file = dir.join("steps.json");
    std::fs::write(&steps_file, steps.to_string()).unwrap();
    std::fs::create_dir_all(shots).unwrap();
    let out = cli_common::node("profile_page.mjs", &[page, shots, &steps_file]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("the driver prints JSON");
    assert_eq!(v["errors"], serde_json::json!([]), "errors in the page");
    v
}

fn ids(rows: &serde_json::Value) -> Vec<usize> {
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_u64().unwrap() as usize)
        .collect()
}

#[test]
fn a_session_zooms_opens_callers_moves_thresholds_and_sorts() {
    if !cli_common::browser_tools() {
        return;
    }
    let dir = cli_common::scratch("profile_html", "session");
    // A parser-combinator program (GHC twin), whose combinators are
    // reached by many stacks; run from the repository's root, so that
    // its sources read `tests/ghc/parser_comb.stg:…`.
    let file = dir.join("parser_comb.pgcl");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_stg-run"))
        .args([
            "tests/ghc/parser_comb.stg",
            "--reproducible",
            "--profile-file",
        ])
        .arg(&file)
        .args(["--cost-centres=stacks", "--auto-cc=all"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let profile = format::read(&std::fs::read(&file).unwrap()).unwrap();
    let page = dir.join("parser_comb.html");
    std::fs::write(&page, stg_prof(&["html"], &file)).unwrap();
    let (parent, inh) = (parents(&profile), inherited(&profile));
    let total = inh[0];
    let n = profile.entries.len();
    let path_to = |mut i: usize| {
        let mut p = vec![i];
        while let Some(q) = parent[i] {
            p.push(q);
            i = q;
        }
        p.reverse();
        p
    };
    let under = |mut i: usize, z: usize| loop {
        if i == z {
            return true;
        }
        match parent[i] {
            Some(p) => i = p,
            None => return false,
        }
    };
    // Zoom target: the entry with the most inherited time among those with
    // at least two children, below the root's first levels.
    let zoom = (0..n)
        .filter(|&i| path_to(i).len() >= 4 && profile.entries[i].children.len() >= 2)
        .max_by_key(|&i| (inh[i].0, std::cmp::Reverse(i)))
        .expect("a subtree to zoom into");
    let mut entries_of: std::collections::BTreeMap<u32, Vec<usize>> = Default::default();
    for (i, e) in profile.entries.iter().enumerate() {
        entries_of.entry(e.cost_centre).or_default().push(i);
    }
    // Callers: of the cost centres in the table (1% of the time or more),
    // the one with the most entries.
    let own_ticks = |c: u32| -> u64 {
        entries_of[&c]
            .iter()
            .map(|&i| profile.entries[i].counters.ticks)
            .sum()
    };
    let (&callers_cc, callers_entries) = entries_of
        .iter()
        .filter(|(c, _)| **c != 1 && 100 * own_ticks(**c) >= total.0)
        .max_by_key(|(c, v)| (v.len(), std::cmp::Reverse(**c)))
        .unwrap();
    let cc0 = callers_cc - 1;
    let name = |i: usize| {
        profile.cost_centres[profile.entries[i].cost_centre as usize - 1]
            .name
            .clone()
    };
    let excluded_name = name(zoom);
    let qualified_excluded = format!("parser_comb.{excluded_name}");

    let shots = dir.join("shots");
    let v = drive(
        &dir,
        &page,
        &shots,
        serde_json::json!([
            {"do": "load"},
            {"do": "read"},
            {"do": "shot", "name": "profile_page", "full": false},
            {"do": "click", "selector": format!("#flame .frame[data-entry=\"{zoom}\"]")},
            {"do": "read"},
            {"do": "shot", "name": "profile_page_zoomed", "full": false},
            {"do": "click", "selector": "#crumbs .crumb[data-entry=\"0\"]"},
            {"do": "read"},
            {"do": "click", "selector": format!("#ccs tbody tr[data-cc=\"{cc0}\"] td.name")},
            {"do": "read"},
            {"do": "shot", "name": "profile_page_callers", "full": false},
            {"do": "fill", "selector": "#min-time", "value": "10"},
            {"do": "read"},
            {"do": "shot", "name": "profile_page_threshold", "full": false},
            {"do": "fill", "selector": "#min-time", "value": "1"},
            {"do": "click", "selector": "#ccs th[data-key=\"entries\"]"},
            {"do": "read"},
            {"do": "click", "selector": "#ccs th[data-key=\"entries\"]"},
            {"do": "read"},
            {"do": "fill", "selector": "#find", "value": "pSat"},
            {"do": "read"},
            {"do": "fill", "selector": "#find", "value": ""},
            {"do": "select", "selector": "#exclude", "value": qualified_excluded},
            {"do": "read"},
        ]),
    );
    let states = v["states"].as_array().unwrap();
    let frames = |s: &serde_json::Value| -> Vec<usize> {
        s["frames"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["entry"].as_u64().unwrap() as usize)
            .collect()
    };
    // Above the threshold (1% of the time) under ancestors that are too.
    let passes = |i: usize, min: u64| {
        path_to(i)
            .iter()
            .all(|&j| j == 0 || 100 * inh[j].0 >= min * total.0)
    };

    // 0: the first view; the flame graph starts at the root, full width.
    let first = &states[0];
    let f0 = frames(first);
    assert_eq!(f0[0], 0);
    assert!(f0.iter().all(|&i| passes(i, 1)), "{f0:?}");
    assert!(f0.contains(&zoom));

    // 1: zoomed: the breadcrumb is the path to it, every frame is in its
    // subtree, and it spans the whole width (as the root did).
    let zoomed = &states[1];
    assert_eq!(ids_of(&zoomed["crumbs"]), path_to(zoom));
    let fz = frames(zoomed);
    assert_eq!(fz[0], zoom);
    assert!(fz.iter().all(|&i| under(i, zoom)), "{fz:?}");
    let width = |s: &serde_json::Value, i: usize| {
        s["frames"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["entry"] == i)
            .map(|f| f["width"].as_f64().unwrap())
            .unwrap()
    };
    assert_eq!(width(zoomed, zoom), width(first, 0));
    // A child's width is its share of the zoomed entry's time.
    for &k in &profile.entries[zoom].children {
        let k = k as usize;
        if fz.contains(&k) {
            let want = width(first, 0) * inh[k].0 as f64 / inh[zoom].0 as f64;
            assert!((width(zoomed, k) + 1.0 - want).abs() < 1.5, "child {k}");
        }
    }
    assert!(
        zoomed["fragment"]
            .as_str()
            .unwrap()
            .contains(&format!("zoom={zoom}"))
    );

    // 2: back to the root by the breadcrumb.
    assert_eq!(frames(&states[2])[0], 0);
    assert_eq!(ids_of(&states[2]["crumbs"]), vec![0]);

    // 3: the callers of the cost centre with the most entries: one row
    // per entry of it, each its stack.
    let callers = &states[3]["callers"];
    let mut got = ids(callers);
    got.sort();
    assert_eq!(&got, callers_entries, "callers rows");
    for row in callers.as_array().unwrap() {
        let i = row["id"].as_u64().unwrap() as usize;
        let stack: Vec<String> = path_to(i)
            .iter()
            .map(|&j| {
                let c = &profile.cost_centres[profile.entries[j].cost_centre as usize - 1];
                format!("{}.{}", profile.modules[c.module as usize - 1], c.name)
            })
            .collect();
        assert_eq!(row["cells"][0], stack.join(" › "));
        assert_eq!(
            row["cells"][1],
            profile.entries[i].counters.strict_calls.to_string()
        );
    }
    let title = states[3]["callersTitle"].as_str().unwrap();
    assert!(
        title.contains(&format!(": {} stack", callers_entries.len())),
        "{title} ({} entries)",
        callers_entries.len()
    );

    // 4: min %time 10: what is below 10% disappears from the tree and the
    // flame graph, and the cost centres below 10% from the table.
    let ten = &states[4];
    let want: Vec<usize> = (0..n).filter(|&i| passes(i, 10)).collect();
    let mut tree10 = ids(&ten["tree"]);
    tree10.sort();
    assert_eq!(tree10, want);
    assert!(frames(ten).iter().all(|&i| passes(i, 10)));
    assert!(ids(&states[0]["tree"]).len() > tree10.len());
    for row in ten["ccs"].as_array().unwrap() {
        let pct: f64 = row["cells"][4].as_str().unwrap().parse().unwrap();
        assert!(pct >= 9.95, "{row}");
    }

    // 5, 6: sorted by entries, descending then ascending.
    let entries_col = |s: &serde_json::Value| -> Vec<u64> {
        s["ccs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["cells"][3].as_str().unwrap().parse().unwrap())
            .collect()
    };
    let down = entries_col(&states[5]);
    assert!(
        down.len() > 3 && down.windows(2).all(|w| w[0] >= w[1]),
        "{down:?}"
    );
    let up = entries_col(&states[6]);
    assert!(up.windows(2).all(|w| w[0] <= w[1]), "{up:?}");

    // 7: search "pSat": the tree, the table and the flame graph keep the
    // matches and their ancestors alone.
    let found = &states[7];
    let keep = |i: usize| {
        passes(i, 1) && (0..n).any(|m| name(m).contains("pSat") && passes(m, 1) && under(m, i))
    };
    let mut t = ids(&found["tree"]);
    t.sort();
    assert_eq!(t, (0..n).filter(|&i| keep(i)).collect::<Vec<_>>());
    assert!(frames(found).iter().all(|&i| keep(i)));
    assert!(
        found["frames"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["hit"] == true)
    );
    assert!(
        found["ccs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["cells"][0].as_str().unwrap().contains("pSat"))
    );

    // 8: excluding the zoomed entry's cost centre hides its entries and
    // their subtrees everywhere.
    let ex = &states[8];
    let gone = |i: usize| path_to(i).iter().any(|&j| name(j) == excluded_name);
    assert!(ids(&ex["tree"]).iter().all(|&i| !gone(i)));
    assert!(frames(ex).iter().all(|&i| !gone(i)));
    assert!(ex["fragment"].as_str().unwrap().contains("exclude="));
}

fn ids_of(v: &serde_json::Value) -> Vec<usize> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect()
}

/// A profile of 100,000 entries: the page loads and redraws after a search,
/// a threshold, a zoom and a sort; the times are printed (a measurement,
/// not a limit: docs/PERFORMANCE.md records one).
#[test]
fn a_profile_of_100000_entries_stays_responsive() {
    if !cli_common::browser_tools() {
        return;
    }
    let dir = cli_common::scratch("profile_html", "large");
    let p = profile_fixture::large(100_000);
    let page = dir.join("large.html");
    std::fs::write(&page, html(&p, &SideInfo::default(), None)).unwrap();
    let v = drive(
        &dir,
        &page,
        &dir.join("shots"),
        serde_json::json!([
            {"do": "load"},
            {"do": "time", "what": "search", "selector": "#find", "value": "c12"},
            {"do": "time", "what": "search cleared", "selector": "#find", "value": ""},
            {"do": "time", "what": "min %time 0", "selector": "#min-time", "value": "0"},
            // With every cost centre shown (each has under 1% of the time).
            {"do": "time", "what": "sort", "selector": "#ccs th[data-key=\"entries\"]"},
            {"do": "read"},
            {"do": "time", "what": "min %time 1", "selector": "#min-time", "value": "1"},
            {"do": "time", "what": "zoom", "selector": "#flame .frame:nth-child(2)"},
        ]),
    );
    let size = std::fs::metadata(&page).unwrap().len();
    println!(
        "100,000 entries, a page of {} MB: timings in ms {}",
        size >> 20,
        v["timings"]
    );
    let s = &v["states"][0];
    assert!(!s["frames"].as_array().unwrap().is_empty());
    assert!(!s["tree"].as_array().unwrap().is_empty());
    // The sort timed a full table: the 300 rows the page draws at most.
    assert_eq!(s["ccs"].as_array().unwrap().len(), 300);
}
