// stg-prof html: the page's script (src/profile/view/html.rs embeds it).
// It reads the profile from the page's JSON and draws, from one state:
// the flame graph (an icicle: the root on top, each entry under its
// parent, as wide as its inherited time or allocation), the cost-centre
// table, the call tree and the callers of a cost centre. Search,
// thresholds and exclusions filter the table, the tree and the flame graph
// alike. The state lives in the address's fragment, so a link or a reload
// keeps the view. Nothing recurses: entries come parents first.
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
// An entry: [cc, parent, ticks, words, tail, strict, lazy, curried].
const E = D.entries;
const N = E.length;
const CC = 0, PARENT = 1, TICKS = 2, WORDS = 3, TAIL = 4, STRICT = 5, LAZY = 6, CURRIED = 7;
const ccName = c => c >= 0 && c < D.ccs.length ? D.ccs[c][0] : "?";
const ccModule = c => c >= 0 && c < D.ccs.length ? D.ccs[c][1] : "?";
const ccSrc = c => c >= 0 && c < D.ccs.length ? D.ccs[c][2] : "";
const qualified = c => ccModule(c) + "." + ccName(c);

// Depth, inherited sums and children, from the parents (children follow
// their parent in the data, so one pass each way).
const depth = new Uint32Array(N);
const inhT = new Float64Array(N), inhW = new Float64Array(N);
const kids = [];
for (let i = 0; i < N; i++) {
  kids.push([]);
  inhT[i] = E[i][TICKS];
  inhW[i] = E[i][WORDS];
  const p = E[i][PARENT];
  if (p >= 0) { depth[i] = depth[p] + 1; kids[p].push(i); }
}
for (let i = N - 1; i > 0; i--) {
  const p = E[i][PARENT];
  inhT[p] += inhT[i];
  inhW[p] += inhW[i];
}
const total = N ? [inhT[0], inhW[0]] : [0, 0];
const pct = (x, t) => t === 0 ? 0 : 100 * x / t;
const fmtPct = x => x.toFixed(1);
// Entries of each cost centre, and each cost centre's individual sums.
const ccEntries = D.ccs.map(() => []);
const ccSums = D.ccs.map(() => [0, 0, 0, 0, 0, 0]); // ticks words strict lazy tail curried
for (let i = 0; i < N; i++) {
  const c = E[i][CC];
  if (c < 0) continue;
  ccEntries[c].push(i);
  const s = ccSums[c];
  s[0] += E[i][TICKS]; s[1] += E[i][WORDS]; s[2] += E[i][STRICT];
  s[3] += E[i][LAZY]; s[4] += E[i][TAIL]; s[5] += E[i][CURRIED];
}

// ---------------------------------------------------------------- state
const S = {
  find: "", minTime: 1, minAlloc: 0, exclude: new Set(), width: "time",
  zoom: 0, callers: -1,
  ccSort: ["time", -1], treeSort: ["itime", -1], callersSort: ["share", -1],
};
const OPEN_DEPTH = 50;
// Without a side file there are no sources: no SRC columns.
if (!D.ccs.some(c => c[2])) document.body.classList.add("no-src");
const open = new Uint8Array(N);
for (let i = 0; i < N; i++) open[i] = depth[i] < OPEN_DEPTH ? 1 : 0;
const MAX_TREE_ROWS = 2000, MAX_TABLE_ROWS = 300, MAX_FLAME_ROWS = 80;
let showAllCcs = false;

function readFragment() {
  const q = new URLSearchParams(location.hash.slice(1));
  const num = (k, d) => { const v = parseFloat(q.get(k)); return isFinite(v) && v >= 0 && v <= 100 ? v : d; };
  S.find = q.get("find") || "";
  S.minTime = num("mintime", 1);
  S.minAlloc = num("minalloc", 0);
  S.exclude = new Set((q.get("exclude") || "").split(",").filter(x => x !== "").map(Number)
    .filter(c => Number.isInteger(c) && c >= 0 && c < D.ccs.length));
  S.width = q.get("width") === "alloc" ? "alloc" : "time";
  const z = Number(q.get("zoom"));
  S.zoom = Number.isInteger(z) && z >= 0 && z < N ? z : 0;
  const c = q.has("callers") ? Number(q.get("callers")) : -1;
  S.callers = Number.isInteger(c) && c >= 0 && c < D.ccs.length ? c : -1;
}
function writeFragment() {
  const q = new URLSearchParams();
  if (S.find) q.set("find", S.find);
  if (S.minTime !== 1) q.set("mintime", String(S.minTime));
  if (S.minAlloc !== 0) q.set("minalloc", String(S.minAlloc));
  if (S.exclude.size) q.set("exclude", [...S.exclude].join(","));
  if (S.width !== "time") q.set("width", S.width);
  if (S.zoom) q.set("zoom", String(S.zoom));
  if (S.callers >= 0) q.set("callers", String(S.callers));
  const frag = q.toString() ? "#" + q.toString() : "";
  if (location.hash !== frag) {
    // Some browsers refuse this for file: pages, which only loses the link.
    try { history.replaceState(null, "", frag || location.pathname + location.search); } catch (_) {}
  }
}

// ------------------------------------------------------------- filtering
// shown[i]: entry i passes the thresholds and exclusions, as does every
// ancestor; with a search, it also matches or has a match below it.
// hit[i]: its cost centre's name matches the search.
let shown = new Uint8Array(N), hit = new Uint8Array(N);
let hiddenCount = 0;
function filter() {
  const t = S.find.toLowerCase();
  shown = new Uint8Array(N);
  hit = new Uint8Array(N);
  for (let i = 0; i < N; i++) {
    const p = E[i][PARENT];
    const pass = i === 0 || (
      !S.exclude.has(E[i][CC]) &&
      pct(inhT[i], total[0]) >= S.minTime && pct(inhW[i], total[1]) >= S.minAlloc);
    shown[i] = pass && (p < 0 || shown[p]) ? 1 : 0;
    if (t && ccName(E[i][CC]).toLowerCase().includes(t)) hit[i] = 1;
  }
  if (t) {
    const keep = new Uint8Array(N);
    for (let i = N - 1; i >= 0; i--) {
      if (!shown[i]) continue;
      if (hit[i]) keep[i] = 1;
      if (keep[i] && E[i][PARENT] >= 0) keep[E[i][PARENT]] = 1;
    }
    shown = keep;
  }
  hiddenCount = 0;
  for (let i = 0; i < N; i++) if (!shown[i]) hiddenCount++;
  if (!shown[S.zoom]) S.zoom = 0;
}

// ----------------------------------------------------------------- sorting
// A sortable table: clicking a header sorts by its column (again: the
// other way). Headers carry data-key; `state` is [key, direction].
function sortHeaders(table, state, redraw) {
  for (const th of table.querySelectorAll("th[data-key]")) {
    th.tabIndex = 0;
    const go = () => {
      const k = th.dataset.key;
      if (state[0] === k) state[1] = -state[1];
      else { state[0] = k; state[1] = th.classList.contains("name") ? 1 : -1; }
      redraw();
    };
    th.addEventListener("click", go);
    th.addEventListener("keydown", ev => { if (ev.key === "Enter") go(); });
  }
}
function markSorted(table, state) {
  for (const th of table.querySelectorAll("th[data-key]")) {
    th.setAttribute("aria-sort", th.dataset.key === state[0] ? (state[1] > 0 ? "ascending" : "descending") : "none");
  }
}
function by(state, keyOf) {
  const dir = state[1];
  return (a, b) => {
    const ka = keyOf(a, state[0]), kb = keyOf(b, state[0]);
    if (ka < kb) return -dir;
    if (ka > kb) return dir;
    return a - b;
  };
}

// ------------------------------------------------------------------ cells
function cell(tr, text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}
function note(tbody, cols, text) {
  const tr = document.createElement("tr");
  const td = cell(tr, text, "note");
  td.colSpan = cols;
  tbody.appendChild(tr);
  return td;
}

// ------------------------------------------------------- cost-centre table
const ccTable = document.getElementById("ccs");
function ccKey(c, k) {
  const s = ccSums[c];
  switch (k) {
    case "name": return ccName(c).toLowerCase();
    case "module": return ccModule(c).toLowerCase();
    case "src": return ccSrc(c);
    case "entries": return s[2];
    case "alloc": return s[1];
    case "thunks": return s[3];
    case "calls": return s[4];
    case "paps": return s[5];
    default: return s[0];
  }
}
function drawCcs() {
  const t = S.find.toLowerCase();
  const ids = [];
  for (let c = 0; c < D.ccs.length; c++) {
    const s = ccSums[c];
    if (!ccEntries[c].length || S.exclude.has(c)) continue;
    if (t && !ccName(c).toLowerCase().includes(t)) continue;
    if (pct(s[0], total[0]) < S.minTime || pct(s[1], total[1]) < S.minAlloc) continue;
    ids.push(c);
  }
  ids.sort(by(S.ccSort, ccKey));
  const body = document.createElement("tbody");
  const rows = showAllCcs ? ids : ids.slice(0, MAX_TABLE_ROWS);
  for (const c of rows) {
    const s = ccSums[c];
    const tr = document.createElement("tr");
    tr.dataset.cc = c;
    const n = cell(tr, ccName(c), "name link");
    n.title = "Show the stacks that lead to " + qualified(c);
    n.addEventListener("click", () => { S.callers = c; update(); document.getElementById("callers").scrollIntoView(); });
    cell(tr, ccModule(c), "module");
    cell(tr, ccSrc(c), "src");
    cell(tr, String(s[2]));
    cell(tr, fmtPct(pct(s[0], total[0])));
    cell(tr, fmtPct(pct(s[1], total[1])));
    cell(tr, String(s[3]), "extra");
    cell(tr, String(s[4]), "extra");
    cell(tr, String(s[5]), "extra");
    cell(tr, String(s[0]), "extra");
    cell(tr, String(s[1] * 8), "extra");
    const x = document.createElement("button");
    x.type = "button";
    x.className = "exclude";
    x.textContent = "hide";
    x.title = "Exclude " + qualified(c) + " and everything under it";
    x.addEventListener("click", () => { S.exclude.add(c); update(); });
    cell(tr, "", "action").appendChild(x);
    body.appendChild(tr);
  }
  if (rows.length < ids.length) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = "Show all " + ids.length + " cost centres";
    b.addEventListener("click", () => { showAllCcs = true; drawCcs(); });
    note(body, 12, "").appendChild(b);
  }
  if (!ids.length) note(body, 12, "No cost centre passes the search and thresholds.");
  ccTable.replaceChild(body, ccTable.tBodies[0]);
  markSorted(ccTable, S.ccSort);
}

// ------------------------------------------------------------- call tree
const treeTable = document.getElementById("tree");
function entryKey(i, k) {
  const e = E[i];
  switch (k) {
    case "name": return ccName(e[CC]).toLowerCase();
    case "module": return ccModule(e[CC]).toLowerCase();
    case "no": return i;
    case "entries": return e[STRICT];
    case "time": return e[TICKS];
    case "alloc": return e[WORDS];
    case "ialloc": return inhW[i];
    case "thunks": return e[LAZY];
    case "calls": return e[TAIL];
    case "paps": return e[CURRIED];
    default: return inhT[i];
  }
}
function drawTree() {
  const body = document.createElement("tbody");
  const cmp = by(S.treeSort, entryKey);
  const searching = S.find !== "";
  const stack = N && shown[0] ? [0] : [];
  let rows = 0;
  while (stack.length && rows < MAX_TREE_ROWS) {
    const i = stack.pop(), e = E[i];
    const ks = kids[i].filter(k => shown[k]);
    const isOpen = searching || open[i] === 1;
    const tr = document.createElement("tr");
    tr.dataset.entry = i;
    tr.tabIndex = 0;
    const name = cell(tr, "", "name");
    name.style.paddingLeft = (0.3 + 1.1 * Math.min(depth[i], 40)) + "em";
    const tog = document.createElement("span");
    tog.className = "toggle";
    tog.textContent = ks.length ? (isOpen ? "▾" : "▸") : "";
    name.appendChild(tog);
    const label = document.createElement("span");
    label.textContent = (depth[i] > 40 ? "[" + depth[i] + "] " : "") + ccName(e[CC]);
    if (hit[i]) label.className = "hit";
    name.appendChild(label);
    cell(tr, ccModule(e[CC]), "module");
    cell(tr, ccSrc(e[CC]), "src");
    cell(tr, String(i));
    cell(tr, String(e[STRICT]));
    cell(tr, String(e[LAZY]), "extra");
    cell(tr, String(e[TAIL]), "extra");
    cell(tr, String(e[CURRIED]), "extra");
    cell(tr, fmtPct(pct(e[TICKS], total[0])));
    cell(tr, fmtPct(pct(e[WORDS], total[1])));
    cell(tr, fmtPct(pct(inhT[i], total[0])));
    cell(tr, fmtPct(pct(inhW[i], total[1])));
    cell(tr, String(e[TICKS]), "extra");
    cell(tr, String(e[WORDS] * 8), "extra");
    const bar = document.createElement("span");
    bar.className = "bar";
    bar.style.width = (total[0] ? 10 * inhT[i] / total[0] : 0) + "em";
    cell(tr, "", "bar-cell").appendChild(bar);
    body.appendChild(tr);
    rows++;
    if (isOpen) {
      ks.sort(cmp);
      for (let j = ks.length - 1; j >= 0; j--) stack.push(ks[j]);
    }
  }
  if (stack.length) note(body, 16, "More rows than " + MAX_TREE_ROWS + ": raise a threshold, search, or close entries to see the rest.");
  treeTable.replaceChild(body, treeTable.tBodies[0]);
  markSorted(treeTable, S.treeSort);
  document.getElementById("hidden").textContent = hiddenCount
    ? hiddenCount + " of " + N + " entries hidden by the thresholds" + (S.find ? " and the search" : "") + "."
    : "";
}
function toggle(tr) {
  if (!tr || !tr.dataset.entry || S.find) return;
  const i = Number(tr.dataset.entry);
  if (!kids[i].length) return;
  open[i] ^= 1;
  drawTree();
  const again = treeTable.querySelector('tr[data-entry="' + i + '"]');
  if (again) again.focus();
}
treeTable.addEventListener("click", ev => {
  const tr = ev.target.closest("tbody tr");
  if (tr) toggle(tr);
});
treeTable.addEventListener("keydown", ev => {
  const tr = ev.target.closest("tbody tr");
  if (tr && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); toggle(tr); }
});

// ------------------------------------------------------------ flame graph
const flame = document.getElementById("flame");
const crumbs = document.getElementById("crumbs");
const ROW = 18;
function hue(c) {
  // A warm colour per cost centre, stable across draws.
  let h = 0;
  const s = qualified(c);
  for (let k = 0; k < s.length; k++) h = (h * 31 + s.charCodeAt(k)) >>> 0;
  return "hsl(" + (10 + h % 45) + "," + (55 + h % 30) + "%," + (62 + (h >> 8) % 16) + "%)";
}
function weight(i) { return S.width === "alloc" ? inhW[i] : inhT[i]; }
function describe(i) {
  const e = E[i], c = e[CC];
  return qualified(c) + (ccSrc(c) ? " (" + ccSrc(c) + ")" : "") +
    "\ninherited: " + fmtPct(pct(inhT[i], total[0])) + "% time, " + fmtPct(pct(inhW[i], total[1])) + "% alloc" +
    "\nindividual: " + fmtPct(pct(e[TICKS], total[0])) + "% time, " + fmtPct(pct(e[WORDS], total[1])) + "% alloc" +
    "\nentries: " + e[STRICT] + "; entry no. " + i;
}
function drawFlame() {
  const W = Math.max(200, flame.clientWidth || 800);
  const z = S.zoom;
  const frag = document.createDocumentFragment();
  const zw = weight(z);
  let rows = 0, frames = 0;
  if (zw > 0 && shown[z]) {
    const scale = W / zw;
    // (entry, x) depth first; siblings heaviest first, hidden ones leaving
    // their gap so that every frame keeps its place.
    const stack = [[z, 0]];
    while (stack.length) {
      const [i, x] = stack.pop();
      const w = weight(i) * scale;
      const d = depth[i] - depth[z];
      if (w < 1 || d >= MAX_FLAME_ROWS) continue;
      rows = Math.max(rows, d + 1);
      const div = document.createElement("div");
      div.className = "frame" + (hit[i] ? " hit" : "");
      div.dataset.entry = i;
      div.style.left = x + "px";
      div.style.top = (d * ROW) + "px";
      div.style.width = Math.max(w - 1, 1) + "px";
      div.style.background = hue(E[i][CC]);
      div.textContent = w > 28 ? ccName(E[i][CC]) : "";
      div.title = describe(i);
      frag.appendChild(div);
      frames++;
      const ks = kids[i].slice().sort((a, b) => weight(b) - weight(a) || a - b);
      let cx = x;
      const next = [];
      for (const k of ks) {
        if (shown[k]) next.push([k, cx]);
        cx += weight(k) * scale;
      }
      for (let j = next.length - 1; j >= 0; j--) stack.push(next[j]);
    }
  }
  flame.replaceChildren(frag);
  flame.style.height = Math.max(rows, 1) * ROW + "px";
  flame.dataset.frames = frames;
  // The breadcrumb: the zoomed entry's ancestors, each a way back.
  const path = [];
  for (let i = z; i >= 0; i = E[i][PARENT]) path.push(i);
  path.reverse();
  const cf = document.createDocumentFragment();
  path.forEach((i, k) => {
    if (k) cf.appendChild(document.createTextNode(" › "));
    const b = document.createElement("button");
    b.type = "button";
    b.className = "crumb";
    b.dataset.entry = i;
    b.textContent = qualified(E[i][CC]);
    b.disabled = i === z;
    b.addEventListener("click", () => { S.zoom = i; update(); });
    cf.appendChild(b);
  });
  const c = E[z] ? E[z][CC] : -1;
  if (c >= 0) {
    const b = document.createElement("button");
    b.type = "button";
    b.id = "callers-of-zoom";
    b.textContent = "callers of " + qualified(c);
    b.addEventListener("click", () => { S.callers = c; update(); });
    cf.appendChild(document.createTextNode("  "));
    cf.appendChild(b);
  }
  crumbs.replaceChildren(cf);
}
flame.addEventListener("click", ev => {
  const f = ev.target.closest(".frame");
  if (f) { S.zoom = Number(f.dataset.entry); update(); }
});

// ---------------------------------------------------------------- callers
const callersBox = document.getElementById("callers");
const callersTable = document.getElementById("callers-table");
function drawCallers() {
  const c = S.callers;
  callersBox.hidden = c < 0;
  if (c < 0) return;
  // Its entries; one inside another of the same cost centre (recursion)
  // is counted once, in the outer one.
  const es = ccEntries[c];
  const inner = new Set();
  for (const i of es) {
    for (let p = E[i][PARENT]; p >= 0; p = E[p][PARENT]) if (E[p][CC] === c) { inner.add(i); break; }
  }
  let allT = 0, allW = 0;
  for (const i of es) if (!inner.has(i)) { allT += inhT[i]; allW += inhW[i]; }
  document.getElementById("callers-title").textContent =
    "Callers of " + qualified(c) + ": " + es.length + " stack" + (es.length === 1 ? "" : "s") + ", " +
    fmtPct(pct(allT, total[0])) + "% of the time, " + fmtPct(pct(allW, total[1])) + "% of the allocation";
  const key = (i, k) => {
    switch (k) {
      case "stack": return stackText(i);
      case "entries": return E[i][STRICT];
      case "time": return inhT[i];
      case "alloc": return inhW[i];
      case "salloc": return inner.has(i) ? -1 : inhW[i];
      default: return inner.has(i) ? -1 : inhT[i];
    }
  };
  const rows = es.slice().sort(by(S.callersSort, key));
  const body = document.createElement("tbody");
  for (const i of rows.slice(0, MAX_TABLE_ROWS)) {
    const tr = document.createElement("tr");
    tr.dataset.entry = i;
    const s = cell(tr, "", "name stack");
    const path = [];
    for (let p = i; p >= 0; p = E[p][PARENT]) path.push(p);
    path.reverse().forEach((p, k) => {
      if (k) s.appendChild(document.createTextNode(" › "));
      const a = document.createElement("span");
      a.className = "link";
      a.textContent = qualified(E[p][CC]);
      a.title = "Zoom the flame graph to this entry (no. " + p + ")";
      a.addEventListener("click", () => { S.zoom = p; update(); flame.scrollIntoView(); });
      s.appendChild(a);
    });
    cell(tr, String(E[i][STRICT]));
    cell(tr, inner.has(i) ? "(recursive)" : fmtPct(pct(inhT[i], allT)));
    cell(tr, fmtPct(pct(inhT[i], total[0])));
    cell(tr, inner.has(i) ? "(recursive)" : fmtPct(pct(inhW[i], allW)));
    cell(tr, fmtPct(pct(inhW[i], total[1])));
    body.appendChild(tr);
  }
  if (rows.length > MAX_TABLE_ROWS) note(body, 6, (rows.length - MAX_TABLE_ROWS) + " more stacks not shown.");
  callersTable.replaceChild(body, callersTable.tBodies[0]);
  markSorted(callersTable, S.callersSort);
}
function stackText(i) {
  const path = [];
  for (let p = i; p >= 0; p = E[p][PARENT]) path.push(qualified(E[p][CC]));
  return path.reverse().join(" › ");
}
document.getElementById("callers-close").addEventListener("click", () => { S.callers = -1; update(); });

// --------------------------------------------------------------- controls
const findBox = document.getElementById("find");
const minTimeBox = document.getElementById("min-time");
const minAllocBox = document.getElementById("min-alloc");
const excluded = document.getElementById("excluded");
const excludeBox = document.getElementById("exclude");
function drawControls() {
  if (document.activeElement !== findBox) findBox.value = S.find;
  if (document.activeElement !== minTimeBox) minTimeBox.value = S.minTime;
  if (document.activeElement !== minAllocBox) minAllocBox.value = S.minAlloc;
  for (const r of document.querySelectorAll("input[name=width]")) r.checked = r.value === S.width;
  const f = document.createDocumentFragment();
  for (const c of S.exclude) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "chip";
    b.dataset.cc = c;
    b.textContent = qualified(c) + " ✕";
    b.title = "Show " + qualified(c) + " again";
    b.addEventListener("click", () => { S.exclude.delete(c); update(); });
    f.appendChild(b);
  }
  excluded.replaceChildren(f);
}
const ccOptions = document.getElementById("cc-names");
for (let c = 0; c < D.ccs.length; c++) {
  if (!ccEntries[c].length) continue;
  const o = document.createElement("option");
  o.value = qualified(c);
  ccOptions.appendChild(o);
}
findBox.addEventListener("input", () => { S.find = findBox.value.trim(); update(); });
const number = (box, set) => box.addEventListener("input", () => {
  const v = parseFloat(box.value);
  set(isFinite(v) ? Math.min(Math.max(v, 0), 100) : 0);
  update();
});
number(minTimeBox, v => { S.minTime = v; });
number(minAllocBox, v => { S.minAlloc = v; });
excludeBox.addEventListener("change", () => {
  const name = excludeBox.value.trim();
  for (let c = 0; c < D.ccs.length; c++) if (qualified(c) === name || (ccName(c) === name && ccEntries[c].length)) S.exclude.add(c);
  excludeBox.value = "";
  update();
});
for (const r of document.querySelectorAll("input[name=width]")) {
  r.addEventListener("change", () => { S.width = r.value; update(); });
}
document.getElementById("open-all").addEventListener("click", () => { open.fill(1); drawTree(); });
document.getElementById("close-all").addEventListener("click", () => { open.fill(0); open[0] = 1; drawTree(); });
document.getElementById("all-columns").addEventListener("change", ev => {
  document.body.classList.toggle("all-columns", ev.target.checked);
});
sortHeaders(ccTable, S.ccSort, drawCcs);
sortHeaders(treeTable, S.treeSort, drawTree);
sortHeaders(callersTable, S.callersSort, drawCallers);
window.addEventListener("resize", () => drawFlame());
window.addEventListener("hashchange", () => { readFragment(); update(); });

// ------------------------------------------------------------ the diff
// With `stg-prof html --diff BEFORE`: the rows that changed from that run,
// [label, a, b] with a and b the six counters (ticks, words, entries,
// thunks, calls, paps). The search keeps the rows whose cost centre (the
// last of an entry's path) has a name that contains it, as elsewhere.
const diffData = document.getElementById("diff-data");
const DD = diffData ? JSON.parse(diffData.textContent) : null;
const diffSort = { ccs: ["d0", -1], entries: ["d0", -1] };
// A qualified name (`Module.name`) to the cost centre's name, from the
// page's profile; one it does not declare (only in the run before) is
// taken to end at the first dot after the module.
const nameOf = new Map(D.ccs.map((c, i) => [qualified(i), c[0]]));
function diffName(label) {
  const last = label.split(" > ").pop();
  return nameOf.has(last) ? nameOf.get(last) : last.slice(last.indexOf(".") + 1);
}
function diffKey(rows) {
  return (r, k) => {
    const [label, a, b] = rows[r];
    if (k === "name") return label.toLowerCase();
    if (k === "ta") return a[0];
    if (k === "tb") return b[0];
    const d = b[Number(k[1])] - a[Number(k[1])];
    return Math.abs(d) * (k === "d1" ? 8 : 1);
  };
}
const signed = x => (x > 0 ? "+" : "") + String(x);
function drawDiffTable(table, rows, state) {
  const t = S.find.toLowerCase();
  const ids = [];
  for (let r = 0; r < rows.length; r++) {
    if (!t || diffName(rows[r][0]).toLowerCase().includes(t)) ids.push(r);
  }
  ids.sort(by(state, diffKey(rows)));
  const body = document.createElement("tbody");
  for (const r of ids.slice(0, MAX_TABLE_ROWS)) {
    const [label, a, b] = rows[r];
    const tr = document.createElement("tr");
    tr.dataset.row = r;
    cell(tr, label, "name");
    cell(tr, String(a[0]));
    cell(tr, String(b[0]));
    for (let k = 0; k < 6; k++) cell(tr, signed((b[k] - a[k]) * (k === 1 ? 8 : 1)));
    body.appendChild(tr);
  }
  if (ids.length > MAX_TABLE_ROWS) note(body, 9, "… and " + (ids.length - MAX_TABLE_ROWS) + " more rows (stg-prof diff prints them all).");
  if (!ids.length) note(body, 9, rows.length ? "No changed row passes the search." : "Nothing changed.");
  table.replaceChild(body, table.tBodies[0]);
  markSorted(table, state);
}
function drawDiff() {
  if (!DD) return;
  document.getElementById("diff-note").textContent = "From " + DD.a + " (A) to " + DD.b +
    " (B): " + DD.ccs.length + " cost centres and " + DD.entries.length +
    " call-graph entries changed, largest change first (a click on a header sorts by it; Δ columns by the size of the change). bytes = words × 8.";
  drawDiffTable(document.getElementById("diff-ccs"), DD.ccs, diffSort.ccs);
  drawDiffTable(document.getElementById("diff-entries"), DD.entries, diffSort.entries);
}
if (DD) {
  sortHeaders(document.getElementById("diff-ccs"), diffSort.ccs, drawDiff);
  sortHeaders(document.getElementById("diff-entries"), diffSort.entries, drawDiff);
}

function update() {
  filter();
  writeFragment();
  drawControls();
  drawFlame();
  drawCcs();
  drawTree();
  drawCallers();
  drawDiff();
}
readFragment();
update();
