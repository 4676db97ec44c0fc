//! `stg-prof html`: the profile as one self-contained, interactive HTML page
//! (no network, no files beside it).
//!
//! The page holds the profile as JSON (`<script type="application/json">`)
//! and a small script that draws, from it:
//! - a header: program, total ticks (seconds where the clock's frequency is
//!   known), total allocation, written in HTML too, so it reads without
//!   JavaScript;
//! - the cost centres table (each cost centre's individual costs summed over
//!   its entries, like the text report's top table; the costliest 25, and a
//!   button for the rest), where a click on a name finds it in the tree;
//! - the call tree, folded: entries open and close with a click (or Enter);
//!   at first every entry with at least 1% of the inherited time or
//!   allocation is open, down to depth 50. Columns as `stg-prof report --all-columns`, plus a
//!   bar of inherited time.
//! - with `--heap FILE.hp`, the heap profile's chart (the SVG of
//!   `stg-prof heap`) under the tree;
//! - controls: find (shows the entries whose cost centre's name contains the
//!   text, with their ancestors, and marks them), sort (time, alloc,
//!   entries: the report's orders), open all / close all. The URL's
//!   fragment keeps the search, `#find=fib`, so a link can point at it.
//!
//! Figures are the report's: percentages of the whole run, entries = `scc`
//! entries. Entries are written in depth-first order with inherited sums
//! precomputed, so the script never recurses. Counters above 2^53 would
//! lose precision in JavaScript's numbers (a run of 285 years at 10^6
//! ticks per microsecond); the text report has them exactly.

use std::fmt::Write;

use super::Profile;
use super::markup_text;
use super::report::{WORD_BYTES, thousands};
use super::side_file::{Clock, SideInfo};
use super::tree::Tree;

/// `s` as a JSON string literal that is also safe inside a `<script>`
/// element: `<`, `>` and `&` are written as `\u` escapes, so no name can
/// close the element.
fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", ch as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The data the script reads: `{"program", "frequency", "ccs": [[name,
/// module]], "entries": [[cc, depth, ticks, words, tail, strict, lazy,
/// curried, inherited ticks, inherited words, [kids]]]}` with entries in
/// depth-first order (index = the report's `no.`), `cc` 0-based (-1 for an
/// undeclared one) and kids as indices.
fn data(profile: &Profile, program: &str) -> String {
    let tree = Tree::new(profile);
    let (indiv, inh) = tree.sums(profile);
    let mut out = String::new();
    out.push_str("{\"program\":");
    json_string(&mut out, program);
    let _ = write!(out, ",\"frequency\":{},\"ccs\":[", profile.frequency);
    for (i, cc) in profile.cost_centres.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('[');
        json_string(&mut out, &cc.name);
        out.push(',');
        json_string(&mut out, profile.module_of(cc));
        out.push(']');
    }
    out.push_str("],\"entries\":[");
    for (n, &i) in tree.order.iter().enumerate() {
        if n > 0 {
            out.push(',');
        }
        let id = profile.entries[i].cost_centre as usize;
        let cc = if (1..=profile.cost_centres.len()).contains(&id) {
            id as i64 - 1
        } else {
            -1
        };
        let s = &indiv[i];
        let _ = write!(
            out,
            "\n[{cc},{},{},{},{},{},{},{},{},{},[",
            tree.depth[i],
            s.ticks,
            s.words,
            s.tail,
            s.strict,
            s.lazy,
            s.curried,
            inh[i].ticks,
            inh[i].words
        );
        for (j, &k) in tree.kids[i].iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            let _ = write!(out, "{}", tree.number[k]);
        }
        out.push_str("]]");
    }
    out.push_str("]}");
    out
}

/// The page for `profile`, titled with its program's name, with what
/// `side` knows; `heap_chart`, an SVG document (from
/// [`super::heap_chart::svg`]), is shown under the tables.
pub fn html(profile: &Profile, side: &SideInfo, heap_chart: Option<&str>) -> String {
    let tree = Tree::new(profile);
    let (_, inh) = tree.sums(profile);
    let total = inh.first().copied().unwrap_or_default();
    let program = profile.program_name();
    let time = if side.clock == Clock::Steps {
        format!(
            "total steps {} (a tick is one machine step)",
            thousands(total.ticks)
        )
    } else if profile.frequency > 0 {
        format!(
            "total time {:.2} s ({} ticks at {} per second)",
            total.ticks as f64 / profile.frequency as f64,
            thousands(total.ticks),
            thousands(profile.frequency as u128)
        )
    } else {
        format!("total ticks {} (machine steps)", thousands(total.ticks))
    };
    let summary = format!(
        "{time}; total alloc {} bytes ({} words)",
        thousands(total.words * WORD_BYTES),
        thousands(total.words)
    );
    let mut out = String::new();
    out.push_str(HEAD);
    let _ = write!(
        out,
        "<title>{} – stg-run profile</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <header><h1>{}</h1><p id=\"summary\">{}</p></header>\n",
        markup_text(program),
        markup_text(program),
        markup_text(&summary)
    );
    out.push_str(BODY);
    if let Some(svg) = heap_chart {
        out.push_str("<h2>Heap</h2>\n<div id=\"heap\">\n");
        out.push_str(svg);
        out.push_str("</div>\n");
    }
    out.push_str("<script type=\"application/json\" id=\"data\">");
    out.push_str(&data(profile, program));
    out.push_str("</script>\n<script>");
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

const HEAD: &str = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<meta name=\"generator\" content=\"stg-prof html\">\n";

const STYLE: &str = r#"
body { font: 14px/1.4 system-ui, sans-serif; margin: 1em 2em; color: #222; }
h1 { font-size: 1.4em; margin: 0; }
h2 { font-size: 1.1em; margin: 1.2em 0 0.4em; }
#summary { margin: 0.2em 0 0.8em; color: #444; }
.controls { display: flex; gap: 1em; align-items: center; flex-wrap: wrap; }
input[type=search] { width: 16em; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 1px 0.6em; text-align: right; white-space: nowrap; }
th { border-bottom: 1px solid #999; font-weight: 600; }
td.name, th.name, td.module, th.module { text-align: left; }
#tree tbody tr { cursor: default; }
#tree tbody tr:hover, #top tbody tr:hover { background: #eef3ff; }
#tree tbody tr:focus { outline: 2px solid #7aa7ff; outline-offset: -2px; }
.toggle { display: inline-block; width: 1.1em; color: #666; }
.hit { background: #ffe98a; }
.bar { display: inline-block; height: 0.7em; background: #6f9ee8; vertical-align: middle; }
td.bar-cell { text-align: left; width: 10em; }
#top td.name { cursor: pointer; text-decoration: underline dotted; }
.extra { display: none; }
body.all-columns .extra { display: table-cell; }
.note { color: #666; font-size: 0.9em; }
"#;

const BODY: &str = r#"<div class="controls">
<label>Find <input id="find" type="search" placeholder="cost centre name" autocomplete="off"></label>
<label>Sort <select id="sort"><option value="time">time</option><option value="alloc">alloc</option><option value="entries">entries</option></select></label>
<button id="open-all" type="button">Open all</button>
<button id="close-all" type="button">Close all</button>
<label><input id="all-columns" type="checkbox"> thunks, calls, paps, ticks, bytes</label>
</div>
<noscript><p>This page draws its tables with JavaScript; <code>stg-prof report</code> prints the same figures as text.</p></noscript>
<h2>Cost centres</h2>
<table id="top"><thead><tr><th class="name">cost centre</th><th class="module">module</th><th>entries</th><th>%time</th><th>%alloc</th><th class="extra">ticks</th><th class="extra">bytes</th></tr></thead><tbody></tbody></table>
<h2>Call tree</h2>
<p class="note">Percentages are of the whole run; entries are <code>scc</code> entries. Click an entry, or press Enter on it, to open or close it.</p>
<table id="tree"><thead><tr><th class="name">cost centre</th><th class="module">module</th><th>no.</th><th>entries</th><th class="extra">thunks</th><th class="extra">calls</th><th class="extra">paps</th><th>individual %time</th><th>%alloc</th><th>inherited %time</th><th>%alloc</th><th class="extra">ticks</th><th class="extra">bytes</th><th></th></tr></thead><tbody></tbody></table>
"#;

const SCRIPT: &str = r##"
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const E = D.entries; // [cc, depth, ticks, words, tail, strict, lazy, curried, iticks, iwords, kids]
const CC = 0, DEPTH = 1, TICKS = 2, WORDS = 3, TAIL = 4, STRICT = 5, LAZY = 6, CURRIED = 7, ITICKS = 8, IWORDS = 9, KIDS = 10;
const total = E.length ? [E[0][ITICKS], E[0][IWORDS]] : [0, 0];
const ccName = c => c >= 0 && c < D.ccs.length ? D.ccs[c][0] : "?";
const ccModule = c => c >= 0 && c < D.ccs.length ? D.ccs[c][1] : "?";
const pct = (x, t) => t === 0 ? "0.0" : (100 * x / t).toFixed(1);
const open = new Uint8Array(E.length);
// First view: open what holds at least 1% of the time or allocation, down
// to depth OPEN_DEPTH (a recursion thousands deep stays folded there).
const OPEN_DEPTH = 50;
for (let i = 0; i < E.length; i++) {
  const big = 100 * E[i][ITICKS] >= total[0] || 100 * E[i][IWORDS] >= total[1];
  open[i] = (i === 0 || (big && E[i][DEPTH] < OPEN_DEPTH)) ? 1 : 0;
}
const findBox = document.getElementById("find");
const sortBox = document.getElementById("sort");
const tbody = document.querySelector("#tree tbody");
const topBody = document.querySelector("#top tbody");
const TOP_ROWS = 25;
let showAllTop = false;

function key(e, by) {
  if (by === "alloc") return [e[IWORDS], e[ITICKS]];
  if (by === "entries") return [e[STRICT], e[ITICKS]];
  return [e[ITICKS], e[IWORDS]];
}
function compare(a, b, by) {
  const ka = key(E[a], by), kb = key(E[b], by);
  return kb[0] - ka[0] || kb[1] - ka[1] || a - b;
}
function cell(tr, text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}

// Entries shown while finding: those whose name contains the text, and
// their ancestors (children come after their parent, so one backward pass).
function found(text) {
  const hit = new Uint8Array(E.length), keep = new Uint8Array(E.length);
  const t = text.toLowerCase();
  for (let i = E.length - 1; i >= 0; i--) {
    if (ccName(E[i][CC]).toLowerCase().includes(t)) { hit[i] = 1; keep[i] = 1; }
    for (const k of E[i][KIDS]) if (keep[k]) keep[i] = 1;
  }
  return [hit, keep];
}

function drawTree() {
  const by = sortBox.value, text = findBox.value.trim();
  const [hit, keep] = text ? found(text) : [null, null];
  const rows = document.createDocumentFragment();
  const stack = E.length ? [0] : [];
  while (stack.length) {
    const i = stack.pop(), e = E[i];
    if (keep && !keep[i]) continue;
    const kids = e[KIDS].filter(k => !keep || keep[k]);
    const isOpen = keep ? true : open[i] === 1;
    const tr = document.createElement("tr");
    tr.dataset.entry = i;
    tr.tabIndex = 0;
    const name = cell(tr, "", "name");
    name.style.paddingLeft = (0.3 + 1.1 * Math.min(e[DEPTH], 40)) + "em";
    const tog = document.createElement("span");
    tog.className = "toggle";
    tog.textContent = kids.length ? (isOpen ? "▾" : "▸") : "";
    name.appendChild(tog);
    const label = document.createElement("span");
    label.textContent = (e[DEPTH] > 40 ? "[" + e[DEPTH] + "] " : "") + ccName(e[CC]);
    if (hit && hit[i]) label.className = "hit";
    name.appendChild(label);
    cell(tr, ccModule(e[CC]), "module");
    cell(tr, String(i));
    cell(tr, String(e[STRICT]));
    cell(tr, String(e[LAZY]), "extra");
    cell(tr, String(e[TAIL]), "extra");
    cell(tr, String(e[CURRIED]), "extra");
    cell(tr, pct(e[TICKS], total[0]));
    cell(tr, pct(e[WORDS], total[1]));
    cell(tr, pct(e[ITICKS], total[0]));
    cell(tr, pct(e[IWORDS], total[1]));
    cell(tr, String(e[TICKS]), "extra");
    cell(tr, String(e[WORDS] * 8), "extra");
    const barCell = cell(tr, "", "bar-cell");
    const bar = document.createElement("span");
    bar.className = "bar";
    bar.style.width = (total[0] ? 10 * e[ITICKS] / total[0] : 0) + "em";
    barCell.appendChild(bar);
    rows.appendChild(tr);
    if (isOpen) {
      kids.sort((a, b) => compare(a, b, by));
      for (let j = kids.length - 1; j >= 0; j--) stack.push(kids[j]);
    }
  }
  tbody.replaceChildren(rows);
}

function drawTop() {
  const by = sortBox.value;
  const sums = D.ccs.map(() => [0, 0, 0]);
  for (const e of E) {
    if (e[CC] >= 0) { const s = sums[e[CC]]; s[0] += e[TICKS]; s[1] += e[WORDS]; s[2] += e[STRICT]; }
  }
  const ids = sums.map((_, c) => c).filter(c => sums[c][0] > 0 || sums[c][1] > 0);
  const k = c => by === "alloc" ? [sums[c][1], sums[c][0]] : by === "entries" ? [sums[c][2], sums[c][0]] : [sums[c][0], sums[c][1]];
  ids.sort((a, b) => { const ka = k(a), kb = k(b); return kb[0] - ka[0] || kb[1] - ka[1] || a - b; });
  const rows = document.createDocumentFragment();
  const shown = showAllTop ? ids : ids.slice(0, TOP_ROWS);
  for (const c of shown) {
    const tr = document.createElement("tr");
    const n = cell(tr, ccName(c), "name");
    n.title = "Find in the call tree";
    n.addEventListener("click", () => { findBox.value = ccName(c); update(); });
    cell(tr, ccModule(c), "module");
    cell(tr, String(sums[c][2]));
    cell(tr, pct(sums[c][0], total[0]));
    cell(tr, pct(sums[c][1], total[1]));
    cell(tr, String(sums[c][0]), "extra");
    cell(tr, String(sums[c][1] * 8), "extra");
    rows.appendChild(tr);
  }
  if (shown.length < ids.length) {
    const tr = document.createElement("tr");
    const td = cell(tr, "", "name");
    td.colSpan = 5;
    const more = document.createElement("button");
    more.type = "button";
    more.textContent = "Show all " + ids.length + " cost centres";
    more.addEventListener("click", () => { showAllTop = true; drawTop(); });
    td.appendChild(more);
    rows.appendChild(tr);
  }
  topBody.replaceChildren(rows);
}

function update() {
  const text = findBox.value.trim();
  const frag = text ? "#find=" + encodeURIComponent(text) : "";
  if (location.hash !== frag) {
    // Keep the search in the address; some browsers refuse this for
    // file: pages, which only loses the link.
    try { history.replaceState(null, "", frag || location.pathname + location.search); } catch (_) {}
  }
  drawTop();
  drawTree();
}

function toggle(tr) {
  if (!tr || findBox.value.trim()) return;
  const i = Number(tr.dataset.entry);
  if (!E[i][KIDS].length) return;
  open[i] ^= 1;
  drawTree();
  const again = tbody.querySelector('tr[data-entry="' + i + '"]');
  if (again) again.focus();
}

tbody.addEventListener("click", ev => toggle(ev.target.closest("tr")));
tbody.addEventListener("keydown", ev => {
  if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); toggle(ev.target.closest("tr")); }
});
findBox.addEventListener("input", update);
sortBox.addEventListener("change", update);
document.getElementById("open-all").addEventListener("click", () => { open.fill(1); findBox.value = ""; update(); });
document.getElementById("close-all").addEventListener("click", () => { open.fill(0); open[0] = 1; findBox.value = ""; update(); });
document.getElementById("all-columns").addEventListener("change", ev => {
  document.body.classList.toggle("all-columns", ev.target.checked);
});
const m = /^#find=(.*)$/.exec(location.hash);
if (m) findBox.value = decodeURIComponent(m[1]);
update();
"##;
