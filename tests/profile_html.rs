//! `stg-prof html`: the interactive page, checked in a real browser.
//!
//! Headless Chromium loads the page (`--dump-dom`, the DOM after the script
//! ran) and the tests read the tables it drew:
//! - every call-tree row shows the same no., entries and individual and
//!   inherited %time and %alloc as `stg-prof report`'s row of that entry,
//!   and the rows shown are exactly the entries whose ancestors all have at
//!   least 1% of the inherited time or allocation (the page's first view);
//! - `#find=TEXT` shows exactly the entries whose name contains TEXT and
//!   their ancestors, the matches marked;
//! - a cost centre named like markup (`</script><b>x</b>`) is shown as text
//!   and does not end the page's data early.
//!
//! Without `chromium` on the `PATH` the browser tests are skipped with a
//! message, unless `STG_RUN_REQUIRE_CLIENTS` is set (`.ci/run` sets it and
//! installs chromium), where they fail.

mod cli_common;
mod profile_fixture;

use std::path::{Path, PathBuf};

use cli_common::{chromium, dump_dom, stg_prof, stg_run_in};

use stg_run::profile::side_file::SideInfo;
use stg_run::profile::{CostCentreDecl, Profile, format, html::html};

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

/// `stg-prof report`'s tree rows by `no.`: [name, module, no., entries,
/// %time, %alloc, inherited %time, %alloc].
fn report_rows(report: &str) -> std::collections::BTreeMap<usize, Vec<String>> {
    report
        .lines()
        .skip_while(|l| !(l.starts_with("COST CENTRE") && l.contains(" no. ")))
        .skip(1)
        .map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
        .filter(|w| w.len() == 8)
        .map(|w| (w[2].parse().unwrap(), w))
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
        let open = |i: usize| {
            i == 0 || ((100 * inh[i].0 >= total.0 || 100 * inh[i].1 >= total.1) && depth(i) < 50)
        };
        let shown = |mut i: usize| {
            while let Some(p) = parent[i] {
                if !open(p) {
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
            // name, module, no., entries; then thunks, calls, paps (hidden
            // columns); then the four percentages.
            assert_eq!(
                [&cells[0], &cells[1], &cells[2], &cells[3]],
                [&r[0], &r[1], &r[2], &r[3]],
                "{program}: entry {entry}"
            );
            assert_eq!(
                &cells[7..11],
                &r[4..8],
                "{program}: entry {entry} percentages"
            );
        }

        // Find: the matches and their ancestors, every one open.
        let dom = page_dom(&dir, &page, "#find=.n");
        let rows = tree_rows(&dom);
        let name = |i: usize| -> &str {
            &profile.cost_centres[profile.entries[i].cost_centre as usize - 1].name
        };
        let mut keep = vec![false; profile.entries.len()];
        for i in 0..profile.entries.len() {
            if name(i).contains(".n") {
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
        let matching = (0..keep.len()).filter(|&i| name(i).contains(".n")).count();
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
