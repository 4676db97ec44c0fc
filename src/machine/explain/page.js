// The stg-run explorer: steps through a run of the STG machine, forwards
// and backwards, from the JSON trace embedded in this page (the records of
// docs/TRACE-FORMAT.md). States are kept as the trace gives them, as
// changes: going forward applies a record and keeps what it undoes; going
// back undoes. The heap view is built when shown, from the roots.
"use strict";

(function () {
  const started = performance.now();
  const DATA = JSON.parse(document.getElementById("trace").textContent);
  const parsed = performance.now();
  const H = DATA[0];
  const R = DATA.slice(1); // records: start, steps and forces, end
  const STACKS = H.cost_centres === "stacks";
  const RULES = new Map(H.rules.map((r) => [r.rule, r]));
  const GLOBAL_OF = new Map(); // closure id -> global (its name), as the run began
  H.globals.forEach((g) => GLOBAL_OF.set(g.closure, g));

  // ----- indices over the whole run (one pass) --------------------------
  const N = R.length;
  const ccAfter = new Int32Array(N); // the current entry after each record
  const posOfStep = new Int32Array(N + 1).fill(-1); // step -> position
  const builtAt = new Map(); // closure id -> position of its allocation
  const updatedAt = new Map(); // closure id -> positions that overwrote it
  const END = R[N - 1];
  {
    let cc = 0;
    for (let p = 0; p < N; p++) {
      const r = R[p];
      if (r.cc !== undefined) cc = r.cc;
      ccAfter[p] = cc;
      if (r.event === "step" || r.event === "start") posOfStep[r.step] = p;
      const h = r.heap;
      if (h) {
        if (h.alloc) for (const c of h.alloc) builtAt.set(c.id, p);
        if (h.update)
          for (const c of h.update) {
            let l = updatedAt.get(c.id);
            if (!l) updatedAt.set(c.id, (l = []));
            l.push(p);
          }
      }
    }
  }
  const LAST_STEP = END.step;

  // ----- the state, and moving through it -------------------------------
  const S = {
    pos: -1,
    control: null,
    as: [],
    rs: [],
    us: [],
    cc: 0,
    heap: new Map(),
    counters: new Map(),
    stacks: new Map([[0, { parent: null, cc: null }]]),
    output: "",
    globals: H.globals.map((g) => "@" + g.closure),
  };
  const undos = []; // undos[p]: how to go from position p back to p - 1

  function popPush(stack, delta, conv) {
    if (!delta) return null;
    const n = delta.pop || 0;
    const popped = n ? stack.splice(stack.length - n, n) : [];
    const pushed = delta.push ? delta.push.map(conv) : [];
    for (const x of pushed) stack.push(x);
    return { popped, pushed: pushed.length };
  }
  function unPopPush(stack, u) {
    if (!u) return;
    stack.length -= u.pushed;
    for (const x of u.popped) stack.push(x);
  }
  const same = (x) => x;

  function forwardAll(fwd) {
    const f = (v) => (fwd.has(v) ? fwd.get(v) : v);
    const env = (e) => {
      let changed = false;
      const out = {};
      for (const k in e) {
        out[k] = f(e[k]);
        if (out[k] !== e[k]) changed = true;
      }
      return changed ? out : e;
    };
    const c = S.control;
    if (c) {
      if (c.kind === "eval") S.control = { ...c, env: env(c.env) };
      else if (c.kind === "enter") S.control = { ...c, v: f(c.v) };
      else if (c.kind === "return_con") S.control = { ...c, fields: c.fields.map(f) };
    }
    S.as = S.as.map(f);
    S.rs = S.rs.map((k) => ({ ...k, env: env(k.env) }));
    S.us = S.us.map((fr) => (fr.update ? { ...fr, update: f(fr.update) } : fr));
    S.globals = S.globals.map(f);
    for (const [id, cl] of S.heap) {
      if (cl.values && cl.values.some((v) => fwd.has(v))) S.heap.set(id, { ...cl, values: cl.values.map(f) });
    }
  }

  function controlOf(c, prevControl) {
    if (c.eval !== undefined) {
      let env;
      if (c.env) env = c.env;
      else if (c.extends === "control") env = { ...prevControl.env, ...c.bind };
      else env = { ...S.rs[S.rs.length - 1].env, ...c.bind };
      return { kind: "eval", expr: c.eval, env };
    }
    if (c.enter !== undefined) return { kind: "enter", v: c.enter };
    if (c.return_con !== undefined) return { kind: "return_con", con: c.return_con, fields: c.fields };
    return { kind: "return_int", k: c.return_int };
  }

  // Apply record p (the state is at p - 1); returns its undo.
  function apply(p) {
    const r = R[p];
    const u = { control: S.control, cc: S.cc, output: S.output.length };
    const h = r.heap || {};
    if (h.forward || h.free) {
      // A collection: keep the whole state it rewrites.
      u.snapshot = { heap: new Map(S.heap), as: S.as, rs: S.rs, us: S.us, globals: S.globals, control: S.control };
      if (h.forward) forwardAll(new Map(h.forward.map(([a, b]) => ["@" + a, "@" + b])));
      if (h.free) for (const id of h.free) S.heap.delete(id);
      u.control = S.control;
    }
    if (r.control) S.control = controlOf(r.control, S.control);
    u.as = popPush(S.as, r.as, same);
    u.rs = popPush(S.rs, r.rs, same);
    u.us = popPush(S.us, r.us, same);
    if (r.cc !== undefined) S.cc = r.cc;
    if (h.alloc) for (const c of h.alloc) S.heap.set(c.id, c);
    if (h.update) {
      u.updated = h.update.map((c) => [c.id, S.heap.get(c.id)]);
      for (const c of h.update) S.heap.set(c.id, c);
    }
    if (r.counters) for (const c of r.counters) addCounters(c, 1);
    if (r.stacks) for (const s of r.stacks) S.stacks.set(s.id, { parent: s.parent, cc: s.cc });
    if (r.output) S.output += r.output;
    return u;
  }

  function addCounters(c, sign) {
    let t = S.counters.get(c[0]);
    if (!t) S.counters.set(c[0], (t = [0, 0, 0, 0, 0, 0]));
    for (let i = 1; i < c.length; i++) t[i - 1] += sign * c[i];
  }

  function undo(p) {
    const r = R[p];
    const u = undos[p];
    const h = r.heap || {};
    if (r.output) S.output = S.output.slice(0, u.output);
    if (r.stacks) for (const s of r.stacks) S.stacks.delete(s.id);
    if (r.counters) for (const c of r.counters) addCounters(c, -1);
    if (u.updated) for (const [id, old] of u.updated) S.heap.set(id, old);
    if (h.alloc) for (const c of h.alloc) S.heap.delete(c.id);
    S.cc = u.cc;
    unPopPush(S.us, u.us);
    unPopPush(S.rs, u.rs);
    unPopPush(S.as, u.as);
    S.control = u.control;
    if (u.snapshot) {
      const s = u.snapshot;
      S.heap = s.heap;
      S.as = s.as;
      S.rs = s.rs;
      S.us = s.us;
      S.globals = s.globals;
      S.control = s.control;
    }
  }

  function moveTo(p) {
    p = Math.max(0, Math.min(N - 1, p));
    while (S.pos < p) {
      S.pos++;
      undos[S.pos] = apply(S.pos);
    }
    while (S.pos > p) {
      undo(S.pos);
      S.pos--;
    }
  }

  // ----- names -----------------------------------------------------------
  const esc = (s) =>
    String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  const ccQualified = (id) => {
    const c = H.cost_centre_table[id - 1];
    if (!c) return "?";
    return c.module === "MAIN" ? c.name : c.module + "." + c.name;
  };
  function entryName(e) {
    if (!STACKS) return ccQualified(e);
    const names = [];
    let s = e;
    for (let i = 0; i < 10000 && s; i++) {
      const node = S.stacks.get(s);
      if (!node || node.cc === null) break;
      names.push(ccQualified(node.cc));
      s = node.parent;
    }
    return names.length ? names.reverse().join(" > ") : "(empty stack)";
  }
  const entryHtml = (e) => `<span class="cc">${esc(entryName(e))}</span>`;
  const idOf = (v) => (v[0] === "@" ? Number(v.slice(1)) : null);

  function closureLabel(id) {
    const g = globalName(id);
    if (g) return g;
    const c = S.heap.get(id) || lastKnown(id);
    if (!c) return "";
    if (c.kind === "constructor") return c.con;
    if (c.kind === "pap") return "PAP";
    if (c.kind === "indirection") return "IND";
    if (c.lambda !== undefined) return H.lambdas[c.lambda].name;
    return "";
  }
  function globalName(id) {
    const i = S.globals.indexOf("@" + id);
    return i >= 0 ? H.globals[i].name : null;
  }
  // A closure no longer in the heap: as it was built or last updated.
  function lastKnown(id) {
    const u = updatedAt.get(id);
    const p = u ? u[u.length - 1] : builtAt.get(id);
    if (p === undefined) return null;
    const h = R[p].heap;
    return (h.update || []).concat(h.alloc || []).find((c) => c.id === id) || null;
  }

  function valHtml(v) {
    const id = idOf(v);
    if (id === null) return `<span class="int">${esc(v)}</span>`;
    const label = closureLabel(id);
    const gone = !S.heap.has(id);
    return `<a class="ref${gone ? " gone" : ""}" data-ref="${id}" href="#" title="${esc(label)}">@${id}${
      label ? `<small>${esc(label)}</small>` : ""
    }</a>`;
  }
  const valName = (v) => {
    const id = idOf(v);
    if (id === null) return v;
    const l = closureLabel(id);
    return l ? `@${id} (${l})` : `@${id}`;
  };

  // ----- source ----------------------------------------------------------
  const files = H.files.map((f) => ({ name: f.name, text: f.text, map: null }));
  function utf16(file, byte) {
    const f = files[file];
    if (!f.map) {
      // Byte offset -> UTF-16 index (identity for ASCII text).
      const m = [];
      let b = 0;
      for (let i = 0; i < f.text.length; i++) {
        const cp = f.text.codePointAt(i);
        const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        for (let k = 0; k < n; k++) m[b + k] = i;
        b += n;
        if (cp >= 0x10000) i++;
      }
      m[b] = f.text.length;
      f.map = m;
    }
    return f.map[byte] ?? f.text.length;
  }
  const spanText = (sp) => files[sp.file].text.slice(utf16(sp.file, sp.start), utf16(sp.file, sp.end));
  const where = (sp) => `${files[sp.file].name.replace(/^.*\//, "")}:${sp.line}:${sp.col}`;
  function exprCode(e) {
    const x = H.exprs[e];
    if (x.code !== undefined && (!x.span || x.code !== undefined)) return x.code;
    return x.span ? spanText(x.span) : "?";
  }
  const short = (s, n = 70) => {
    s = s.replace(/\s+/g, " ").trim();
    return s.length > n ? s.slice(0, n - 1) + "…" : s;
  };

  // What the source panel shows: the span of the code in control, or of
  // the closure entered, or of the continuation a value returns to.
  function currentSpan() {
    const c = S.control;
    if (!c) return null;
    if (c.kind === "eval") {
      const x = H.exprs[c.expr];
      if (x.span && x.code === undefined) return x.span;
      if (x.span) return x.span;
    }
    if (c.kind === "enter") {
      const cl = S.heap.get(idOf(c.v));
      if (cl && cl.lambda !== undefined) return H.lambdas[cl.lambda].span;
    }
    const k = S.rs[S.rs.length - 1];
    if (k && H.exprs[k.case].span) return H.exprs[k.case].span;
    return null;
  }

  // ----- the rule, in words ---------------------------------------------
  const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;
  function kindWords(c) {
    if (!c) return "closure";
    switch (c.kind) {
      case "function":
        return `function of ${plural(H.lambdas[c.lambda].arity, "argument")}`;
      case "reentrant":
        return "re-entrant closure in head normal form";
      case "thunk":
        return H.lambdas[c.lambda].flag === "s" ? "single-entry thunk" : "updatable thunk";
      case "constructor":
        return "constructor value";
      case "pap":
        return "partial application";
      case "blackhole":
        return "black hole";
      case "entered":
        return "entered single-entry thunk";
      case "indirection":
        return "indirection";
    }
    return c.kind;
  }
  // The kind in a word or two, for the heap table.
  function kindShort(c) {
    switch (c.kind) {
      case "reentrant":
        return "value (\\r)";
      case "thunk":
        return H.lambdas[c.lambda].flag === "s" ? "thunk (\\s)" : "thunk (\\u)";
      case "pap":
        return "partial app.";
      case "blackhole":
        return "black hole";
      case "entered":
        return "entered (\\s)";
      default:
        return c.kind;
    }
  }
  const binds = (env) =>
    Object.keys(env)
      .map((k) => `<code>${esc(k)}</code>`)
      .join(", ");

  // The sentence for record p, the state being the one after it.
  function explain(p) {
    const r = R[p];
    const u = undos[p];
    const pre = { control: u ? u.control : null, cc: u ? u.cc : 0 };
    if (u && u.snapshot) pre.control = u.snapshot.control;
    const popped = (k) => (u && u[k] ? u[k].popped : []);
    const ccChanged = S.cc !== pre.cc;
    const c = S.control;
    switch (r.event) {
      case "start":
        return "The initial state: <code>Eval main {}</code> with empty stacks and <b>MAIN</b> the current cost centre. The heap holds the program's top-level closures (the Prelude's too), each carrying its module's <b>CAF</b> cost centre.";
      case "force":
        return `The machine halted with a value in head normal form. The result printer ${
          r.output ? `printed <code>${esc(r.output)}</code> and ` : ""
        }demands the next value to print: ${valHtml(c.v)}, entered with empty stacks under <b>MAIN</b>.`;
      case "end":
        return endText();
    }
    const ev = (x) => (x && x.kind === "eval" ? x : null);
    const preEval = ev(pre.control);
    const code = preEval ? `<code>${esc(short(exprCode(preEval.expr), 90))}</code>` : "";
    const ent = pre.control && pre.control.kind === "enter" ? pre.control.v : null;
    const entered = ent ? S.heap.get(idOf(ent)) || lastKnown(idOf(ent)) : null;
    const preCl = ent ? (undos[p].updated || []).find(([id]) => id === idOf(ent)) : null;
    const was = preCl ? preCl[1] : entered;
    const newEnv = c && c.kind === "eval" && r.control ? r.control.bind || r.control.env || {} : {};
    const frame = popped("us")[0];
    const cont = popped("rs")[0];
    const stackNote = ccChanged && STACKS ? ` The current stack becomes ${entryHtml(S.cc)}.` : "";
    switch (r.rule) {
      case "1": {
        const n = (u.as && u.as.pushed) || 0;
        return `Apply ${code}: push ${plural(n, "argument")} on the argument stack and enter ${valHtml(c.v)}.`;
      }
      case "2":
        return `Enter ${valHtml(ent)}, a ${kindWords(was)}, with the arguments it needs on the argument stack: pop them and evaluate its body${
          Object.keys(newEnv).length ? ` with ${binds(newEnv)} bound` : ""
        }. Entering an evaluated closure leaves the cost centre as it is: its small cost goes to the enterer.${stackNote}`;
      case "3": {
        const made = (r.heap && r.heap.alloc) || [];
        return `Allocate ${plural(made.length, "closure")} (${made.map((m) => valHtml("@" + m.id)).join(" ")}), each carrying the current cost centre ${entryHtml(
          pre.cc
        )}, their builder; evaluate the body with ${binds(newEnv)} bound.`;
      }
      case "4":
        return `Push a case continuation that saves the current cost centre ${entryHtml(
          pre.cc
        )} and the variables its alternatives need, then evaluate the scrutinee <code>${esc(short(exprCode(c.expr), 80))}</code>.`;
      case "5":
        return `Return the constructor <code>${esc(c.con)}</code> with ${plural(c.fields.length, "field")}.`;
      case "6":
      case "7":
      case "8": {
        const con = pre.control.con;
        const what =
          r.rule === "6"
            ? `the alternative for <code>${esc(con)}</code>${Object.keys(newEnv).length ? `, binding ${binds(newEnv)}` : ""}`
            : r.rule === "7"
              ? `the default, binding ${binds(newEnv)} to a new constructor closure ${valHtml(
                  "@" + r.heap.alloc[0].id
                )} (built under ${entryHtml(pre.cc)})`
              : "the default";
        return `Return <code>${esc(con)}</code> to the case continuation on top of the return stack: pop it, restore the cost centre it saved, ${entryHtml(
          S.cc
        )}, and evaluate ${what}.`;
      }
      case "9":
        return `Return the literal <code>${esc(c.k)}</code>.`;
      case "10":
        return `Return the <code>Int#</code> value of ${code}: <code>${esc(c.k)}</code>.`;
      case "11":
      case "12":
      case "13": {
        const k = pre.control.k;
        const what =
          r.rule === "11"
            ? `the alternative <code>${esc(k)}</code>`
            : r.rule === "12"
              ? `the default, binding ${binds(newEnv)} to <code>${esc(k)}</code>`
              : "the default";
        return `Return <code>${esc(k)}</code> to the case continuation on top of the return stack: pop it, restore its cost centre ${entryHtml(
          S.cc
        )}, and evaluate ${what}.`;
      }
      case "14":
        return `Compute ${code}: return <code>${esc(c.k)}</code>.`;
      case "15":
      case "15′": {
        const upd = r.rule === "15";
        return `Enter ${valHtml(ent)}, ${upd ? "an updatable" : "a single-entry"} thunk built under ${entryHtml(
          S.cc
        )}: push ${upd ? "an update frame" : "a restore frame (nothing to update)"} that saves the demanding cost centre ${entryHtml(
          pre.cc
        )}; ${upd ? `${valHtml(ent)} becomes a black hole` : `${valHtml(ent)} is marked entered`}; its builder's cost centre ${entryHtml(
          S.cc
        )} becomes current and its body is evaluated: the thunk's costs go to the cost centre that built it.`;
      }
      case "16": {
        const thunk = frame && frame.update;
        const made = r.heap.alloc && r.heap.alloc[0];
        // The black hole has the constructor's size: the constructor is
        // written over it (TRACE-FORMAT.md, `update`), nothing is allocated.
        const written = made
          ? `${valHtml(thunk)} is overwritten with an indirection to ${valHtml("@" + made.id)}, a new constructor closure carrying the evaluating cost centre ${entryHtml(
              made.cc
            )}`
          : `${valHtml(thunk)} is overwritten with the constructor itself (its black hole has the constructor's size, so no new closure is needed), carrying the evaluating cost centre ${entryHtml(
              r.heap.update[0].cc
            )}`;
        return `The constructor <code>${esc(c.con)}</code> meets the update frame of ${valHtml(thunk)} with empty argument and return stacks: ${written}; the frame is popped and the demanding cost centre it saved, ${entryHtml(S.cc)}, is current again.`;
      }
      case "16′":
        return `The value meets a restore frame: pop it, and the cost centre it saved, ${entryHtml(S.cc)}, is current again. Nothing is updated.`;
      case "17a": {
        const thunk = frame && frame.update;
        const made = r.heap.alloc[0];
        return `The function ${valHtml(c.v)} has too few arguments above the update frame of ${valHtml(thunk)}: ${valHtml(
          thunk
        )} is overwritten with an indirection to ${valHtml("@" + made.id)}, a partial application of it to the arguments there, carrying the evaluating cost centre ${entryHtml(
          made.cc
        )}; the frame is popped, ${entryHtml(S.cc)} is current again, and the function is entered again with the arguments below.`;
      }
      case "17a′":
        return `The function ${valHtml(c.v)} has too few arguments above a restore frame: pop it (${entryHtml(
          S.cc
        )} is current again) and enter the function again with the arguments below.`;
      case "scc":
        return STACKS
          ? `<code>scc</code>: push its cost centre on the current stack, which becomes ${entryHtml(S.cc)}, and count an entry; no frame.`
          : `<code>scc</code>: count an entry of ${entryHtml(S.cc)}, push a restore frame saving the current cost centre ${entryHtml(
              pre.cc
            )}, and make ${entryHtml(S.cc)} current for the expression inside.`;
      case "scc=":
        return `<code>scc</code> of ${entryHtml(S.cc)}, which is already current: count an entry; no frame (it would restore ${entryHtml(S.cc)} itself).`;
    }
    return "";
  }

  function endText() {
    switch (END.outcome) {
      case "halted":
        return `The run is over: the result is printed, after ${plural(END.step, "step")}.`;
      case "step_limit":
        return `The run was stopped here by the step limit (<code>--max-steps=${END.limit}</code>), before rule ${esc(
          END.rule
        )} fired: this page holds its first ${END.limit.toLocaleString("en")} steps. Run with a larger <code>--max-steps</code> (at most 1,000,000) to see more.`;
      default:
        return `The run stopped with an error:<pre class="error">${esc(END.message)}</pre>`;
    }
  }

  // ----- the heap on demand ---------------------------------------------
  function roots() {
    const out = [];
    const c = S.control;
    if (c) {
      if (c.kind === "eval") for (const k in c.env) out.push(c.env[k]);
      else if (c.kind === "enter") out.push(c.v);
      else if (c.kind === "return_con") out.push(...c.fields);
    }
    out.push(...S.as);
    for (const k of S.rs) for (const n in k.env) out.push(k.env[n]);
    for (const f of S.us) if (f.update) out.push(f.update);
    return out;
  }
  // Closures reachable from the machine's state (not from the globals,
  // which are always live): shown first.
  function reachable(from) {
    const seen = new Set();
    const work = [];
    for (const v of from) {
      const id = idOf(v);
      if (id !== null && !seen.has(id)) {
        seen.add(id);
        work.push(id);
      }
    }
    while (work.length) {
      const c = S.heap.get(work.pop());
      if (!c || !c.values) continue;
      for (const v of c.values) {
        const id = idOf(v);
        if (id !== null && !seen.has(id)) {
          seen.add(id);
          work.push(id);
        }
      }
    }
    return seen;
  }

  // ----- rendering ---------------------------------------------------------
  const app = document.getElementById("app");
  app.innerHTML = `
<header>
  <h1><span class="brand">stg-run explorer</span> <span id="title"></span></h1>
  <nav id="controls">
    <button id="first" title="The start (Home)">|◀</button>
    <button id="back" title="One step back (← or k)">◀ Back</button>
    <button id="fwd" class="primary" title="One step forward (→, j or space)">Step ▶</button>
    <button id="last" title="The end (End)">▶|</button>
    <label>Step <input id="goto" type="number" min="0" title="Jump to a step (g)"></label>
    <span id="where"></span>
    <span class="sep"></span>
    <label>Rule <select id="rule"></select></label>
    <button id="rprev" title="Previous firing of the rule (p)">◀</button>
    <button id="rnext" title="Next firing of the rule (n)">▶</button>
    <span class="sep"></span>
    <button id="ccprev" title="Previous change of cost centre (C)">◀ cc</button>
    <button id="ccnext" title="Next change of cost centre (c)">cc change ▶</button>
  </nav>
</header>
<div id="banner"></div>
<section id="explain"></section>
<main>
  <section id="source-panel" class="panel"><h2>Source <span id="files"></span></h2><div id="source"></div></section>
  <section id="machine" class="panel">
    <h2>Machine</h2>
    <div id="cc-now"></div>
    <div id="control"></div>
    <div id="stacks">
      <div><h3>Argument stack <small>as</small></h3><ol id="as" class="stack"></ol></div>
      <div><h3>Return stack <small>rs</small></h3><ol id="rs" class="stack"></ol></div>
      <div><h3>Update stack <small>us</small></h3><ol id="us" class="stack"></ol></div>
    </div>
  </section>
  <section id="heap-panel" class="panel">
    <h2>Heap <small id="heap-count"></small> <label class="opt"><input type="checkbox" id="show-all"> all closures</label></h2>
    <div id="closure"></div>
    <div id="heap"></div>
  </section>
  <section id="profile-panel" class="panel">
    <h2>Profile so far</h2>
    <div id="profile"></div>
    <h3>Output</h3><pre id="output"></pre>
  </section>
</main>
<footer>Keys: → j space step · ← k back · Home End · g go to step · n p next/previous firing of the rule · c C next/previous change of cost centre · b u where the selected closure was built / updated. Click any <span class="ref">@n</span> to see that closure.</footer>`;

  const $ = (id) => document.getElementById(id);
  $("title").textContent = H.files
    .filter((f) => !/Prelude\.stg$/.test(f.name))
    .map((f) => f.name.replace(/^.*\//, ""))
    .join(" ");
  document.title = $("title").textContent + " — stg-run explorer";
  {
    const sel = $("rule");
    const fired = new Set(R.filter((r) => r.rule && r.event === "step").map((r) => r.rule));
    for (const r of H.rules) {
      if (!fired.has(r.rule)) continue;
      const o = document.createElement("option");
      o.value = r.rule;
      o.textContent = `${r.rule} · ${r.name}`;
      sel.appendChild(o);
    }
  }
  if (END.outcome !== "halted") {
    $("banner").className = END.outcome === "step_limit" ? "limit" : "error";
    $("banner").innerHTML =
      END.outcome === "step_limit"
        ? `This run was stopped after ${END.limit.toLocaleString("en")} steps by <code>--max-steps</code>: the page holds those steps only.`
        : `This run ends with a runtime error at step ${END.step}: <code>${esc(END.message.split("\n")[0])}</code>`;
  }

  let selected = null; // a closure id
  let shownFile = -1;

  // Each file is laid out once; the code in control is marked with a
  // highlight (a Range), so a step does not lay the text out again.
  const fileViews = new Map();
  function fileView(i) {
    let v = fileViews.get(i);
    if (v) return v;
    const f = files[i];
    const div = document.createElement("div");
    div.className = "file";
    const gutter = document.createElement("pre");
    gutter.className = "gutter";
    const lines = f.text.split("\n").length;
    let nums = "";
    for (let n = 1; n <= lines; n++) nums += n + "\n";
    gutter.textContent = nums;
    const code = document.createElement("pre");
    code.className = "code";
    const text = document.createTextNode(f.text);
    code.appendChild(text);
    div.append(gutter, code);
    v = { div, text };
    fileViews.set(i, v);
    return v;
  }
  const canHighlight = typeof Highlight === "function" && window.CSS && CSS.highlights;

  function showFile(file, sp) {
    const box = $("source");
    const v = fileView(file);
    if (box.firstChild !== v.div) {
      box.replaceChildren(v.div);
      $("files").querySelectorAll("a").forEach((a) => a.classList.toggle("on", Number(a.dataset.file) === file));
    }
    const key = sp ? `${sp.start}-${sp.end}` : "";
    if (shownFile === file && box.dataset.span === key && box.dataset.file === String(file)) return;
    shownFile = file;
    box.dataset.file = file;
    box.dataset.span = key;
    if (!sp) {
      if (canHighlight) CSS.highlights.delete("here");
      return;
    }
    const range = new Range();
    range.setStart(v.text, utf16(file, sp.start));
    range.setEnd(v.text, utf16(file, sp.end));
    if (canHighlight) CSS.highlights.set("here", new Highlight(range));
    // Scroll the span into view, a third of the way down, unless it is in
    // view already: when the page is next drawn, so that stepping does
    // not lay the page out at every step.
    pendingScroll = range;
    if (!scrollQueued) {
      scrollQueued = true;
      requestAnimationFrame(() => {
        scrollQueued = false;
        const r = pendingScroll.getBoundingClientRect();
        const b = box.getBoundingClientRect();
        if (r.top < b.top + 8 || r.bottom > b.bottom - 8) box.scrollTop += r.top - b.top - b.height / 3;
        if (r.left < b.left || r.left > b.right - 40) box.scrollLeft = 0;
      });
    }
  }
  let pendingScroll = null;
  let scrollQueued = false;

  function renderSource() {
    if (!$("files").firstChild) {
      $("files").innerHTML = files
        .map((x, i) => `<a href="#" data-file="${i}">${esc(x.name.replace(/^.*\//, ""))}</a>`)
        .join("");
    }
    const sp = currentSpan();
    showFile(sp ? sp.file : Math.max(0, shownFile), sp);
  }

  function envHtml(env) {
    const ks = Object.keys(env);
    if (!ks.length) return `<span class="none">(empty)</span>`;
    return `<table class="env">${ks.map((k) => `<tr><th>${esc(k)}</th><td>${valHtml(env[k])}</td></tr>`).join("")}</table>`;
  }

  function renderMachine() {
    const r = R[S.pos];
    const u = undos[S.pos];
    const changed = S.pos > 0 && u && S.cc !== u.cc;
    $("cc-now").innerHTML = `<span class="label">current ${STACKS ? "cost-centre stack" : "cost centre"}</span> ${entryHtml(S.cc)}${
      changed ? ` <span class="was">was ${esc(entryName(u.cc))}</span>` : ""
    }`;
    const c = S.control;
    let ch = "";
    if (c.kind === "eval") {
      const x = H.exprs[c.expr];
      ch = `<div class="code-line"><b>Eval</b> <code>${esc(short(exprCode(c.expr), 400))}</code>${
        x.span && x.code === undefined ? ` <small>${esc(where(x.span))}</small>` : ""
      }</div><div class="label">environment</div>${envHtml(c.env)}`;
    } else if (c.kind === "enter") ch = `<div class="code-line"><b>Enter</b> ${valHtml(c.v)}</div>`;
    else if (c.kind === "return_con")
      ch = `<div class="code-line"><b>ReturnCon</b> <code>${esc(c.con)}</code> {${c.fields.map(valHtml).join(", ")}}</div>`;
    else ch = `<div class="code-line"><b>ReturnInt</b> <code>${esc(c.k)}</code></div>`;
    $("control").innerHTML = ch;

    const fresh = (k) => (u && u[k] ? u[k].pushed : 0);
    const stack = (el, items, n, item) => {
      const out = [];
      for (let i = items.length - 1; i >= 0; i--) {
        const isNew = i >= items.length - n;
        out.push(`<li class="${isNew ? "new" : ""}">${item(items[i], i)}</li>`);
      }
      const pops = u && u[el] ? u[el].popped.length : 0;
      $(el).innerHTML = (out.join("") || `<li class="none">(empty)</li>`) + (pops && r.event === "step" ? `<li class="popped">popped ${pops}</li>` : "");
    };
    stack("as", S.as, fresh("as"), (v) => valHtml(v));
    stack("rs", S.rs, fresh("rs"), (k) => {
      const x = H.exprs[k.case];
      return `<div><b>case</b> <code>${esc(short(exprCode(k.case), 50))}</code>${x.span ? ` <small>${esc(where(x.span))}</small>` : ""}</div>
        <div class="saved">restores ${entryHtml(k.cc)}</div>${envHtml(k.env)}`;
    });
    stack("us", S.us, fresh("us"), (f) =>
      f.update
        ? `<div><b>update</b> ${valHtml(f.update)}</div><div class="saved">saved cost centre ${entryHtml(f.cc)}</div><div class="heights">as ${f.as_height} · rs ${f.rs_height}</div>`
        : `<div><b>restore</b></div><div class="saved">saved cost centre ${entryHtml(f.cc)}</div><div class="heights">as ${f.as_height} · rs ${f.rs_height}</div>`
    );
  }

  function closureRow(id, c, mark) {
    const lam = c.lambda !== undefined ? H.lambdas[c.lambda] : null;
    let what = "";
    if (lam) what = `<code>${esc(lam.name)}</code>`;
    else if (c.kind === "constructor") what = `<code>${esc(c.con)}</code>`;
    let vals = "";
    const v = c.values || [];
    if ((c.kind === "function" || c.kind === "reentrant" || c.kind === "thunk") && lam)
      vals = v.map((x, i) => `<span class="fv"><i>${esc(lam.free[i] || "?")}</i>=${valHtml(x)}</span>`).join(" ");
    else if (c.kind === "pap") vals = `${valHtml(v[0])} applied to ${v.slice(1).map(valHtml).join(" ") || "nothing"}`;
    else if (c.kind === "indirection") vals = `→ ${valHtml(v[0])}`;
    else vals = v.map(valHtml).join(" ");
    const g = globalName(id);
    return `<tr data-id="${id}" data-kind="${c.kind}" class="${mark || ""}${selected === id ? " sel" : ""}">
      <td class="id"><a class="ref" data-ref="${id}" href="#">@${id}</a>${g ? `<small>${esc(g)}</small>` : ""}</td>
      <td><span class="kind k-${c.kind}" title="${esc(kindWords(c))}">${esc(kindShort(c))}</span></td>
      <td>${what}</td><td class="vals">${vals}</td><td>${entryHtml(c.cc)}</td></tr>`;
  }

  function renderHeap() {
    const r = R[S.pos];
    const h = r.heap || {};
    const marks = new Map();
    for (const c of h.alloc || []) marks.set(c.id, "alloc");
    for (const c of h.update || []) {
      const k = c.kind === "blackhole" || c.kind === "entered" ? "blackholed" : "updated";
      marks.set(c.id, k);
    }
    const all = $("show-all").checked;
    const live = reachable(roots());
    const globals = new Set(S.globals.map(idOf));
    let ids;
    if (all) ids = [...S.heap.keys()];
    else ids = [...live].filter((id) => !globals.has(id) || marks.has(id) || id === selected);
    for (const id of marks.keys()) if (!ids.includes(id) && S.heap.has(id)) ids.push(id);
    if (selected !== null && S.heap.has(selected) && !ids.includes(selected)) ids.push(selected);
    ids.sort((a, b) => b - a);
    const rows = ids.filter((id) => S.heap.has(id)).map((id) => closureRow(id, S.heap.get(id), marks.get(id)));
    $("heap-count").textContent = all
      ? `${S.heap.size} closures in the heap (garbage too, until a collection)`
      : `${rows.length} shown: those the stacks and control reach, and what this step touched; ${S.heap.size} in all`;
    $("heap").innerHTML = `<table class="heap"><thead><tr><th>closure</th><th>kind</th><th>code</th><th>free variables / fields</th><th>built by</th></tr></thead><tbody>${rows.join(
      ""
    )}</tbody></table>${h.free ? `<p class="gc">A collection freed ${plural(h.free.length, "closure")} before this step${h.forward ? ` and removed ${plural(h.forward.length, "indirection")}` : ""}.</p>` : ""}`;
    renderSelected();
  }

  function renderSelected() {
    const box = $("closure");
    if (selected === null) {
      box.innerHTML = "";
      return;
    }
    const id = selected;
    const c = S.heap.get(id);
    const b = builtAt.get(id);
    const ups = (updatedAt.get(id) || []).map((p) => `<a href="#" data-pos="${p}">step ${R[p].step}</a>`);
    const lam = c && c.lambda !== undefined ? H.lambdas[c.lambda] : null;
    box.innerHTML = `<div class="card"><b>@${id}</b> ${c ? esc(kindWords(c)) : "<i>not in the heap now</i>"} ${
      globalName(id) ? `(the global <code>${esc(globalName(id))}</code>)` : ""
    }
      <div>built ${b === undefined ? "?" : b === 0 ? "before the first step (a top-level closure)" : `<a href="#" data-pos="${b}">at step ${R[b].step}</a>`}${c ? ` by ${entryHtml(c.cc)}` : ""}${
        ups.length ? `; overwritten at ${ups.join(", ")}` : ""
      }</div>
      ${lam ? `<pre class="lam">${esc(spanText(lam.span))}</pre>` : ""}
      <button id="close-card" title="Close">×</button></div>`;
  }

  function renderProfile() {
    const rows = [...S.counters.entries()].filter(([, c]) => c.some((x) => x));
    rows.sort((a, b) => b[1][0] - a[1][0] || a[0] - b[0]);
    const r = R[S.pos];
    const charged = new Set((r.counters || []).map((c) => c[0]));
    $("profile").innerHTML = `<table class="prof"><thead><tr><th>${STACKS ? "stack" : "cost centre"}</th><th title="steps">ticks</th><th title="heap words allocated">words</th><th title="tail calls and returns">calls</th><th title="scc entries">entries</th><th title="thunk entries">thunks</th><th title="partial applications">paps</th></tr></thead><tbody>${rows
      .map(
        ([e, c]) =>
          `<tr class="${e === S.cc ? "current" : ""}${charged.has(e) ? " charged" : ""}"><td>${esc(entryName(e))}</td>${c
            .map((x) => `<td>${x.toLocaleString("en")}</td>`)
            .join("")}</tr>`
      )
      .join("")}</tbody></table>`;
    $("output").textContent = S.output || "";
  }

  function render() {
    const r = R[S.pos];
    const rule = r.event === "step" ? RULES.get(r.rule) : null;
    $("goto").value = r.step;
    $("where").innerHTML = `of ${LAST_STEP.toLocaleString("en")}${r.event === "force" ? " · printer" : r.event === "end" ? " · end" : ""}`;
    $("explain").innerHTML = `${
      rule
        ? `<div class="rule"><span class="num">${esc(r.rule)}</span> <span class="name">${esc(rule.name)}</span></div>`
        : `<div class="rule"><span class="num ev">${esc(r.event)}</span></div>`
    }<div class="says"><p>${explain(S.pos)}</p>${rule ? `<p class="paper">${esc(rule.says)}</p>` : ""}</div>`;
    $("explain").dataset.rule = r.rule || r.event;
    $("back").disabled = S.pos === 0;
    $("fwd").disabled = S.pos === N - 1;
    const t0 = performance.now();
    renderSource();
    const t1 = performance.now();
    renderMachine();
    const t2 = performance.now();
    renderHeap();
    const t3 = performance.now();
    renderProfile();
    const t4 = performance.now();
    timing.source = t1 - t0;
    timing.machine = t2 - t1;
    timing.heap = t3 - t2;
    timing.profile = t4 - t3;
    document.body.dataset.pos = S.pos;
    document.body.dataset.step = r.step;
  }

  // Milliseconds each part of the last move took.
  const timing = {};
  function go(p) {
    const t = performance.now();
    moveTo(p);
    timing.move = performance.now() - t;
    render();
  }
  const ruleNow = () => $("rule").value;
  function findRule(dir) {
    const want = ruleNow();
    for (let p = S.pos + dir; p >= 0 && p < N; p += dir) if (R[p].rule === want && R[p].event === "step") return go(p);
  }
  function findCc(dir) {
    for (let p = S.pos + dir; p > 0 && p < N; p += dir) if (ccAfter[p] !== ccAfter[p - 1]) return go(p);
  }
  function gotoStep(n) {
    n = Math.max(0, Math.min(LAST_STEP, n | 0));
    let p = posOfStep[n];
    if (p < 0) p = N - 1;
    go(p);
  }
  function select(id) {
    selected = id;
    renderHeap();
    const row = document.querySelector(`#heap tr[data-id="${id}"]`);
    if (row) row.scrollIntoView({ block: "nearest" });
  }

  $("first").onclick = () => go(0);
  $("back").onclick = () => go(S.pos - 1);
  $("fwd").onclick = () => go(S.pos + 1);
  $("last").onclick = () => go(N - 1);
  $("goto").onchange = () => gotoStep(Number($("goto").value));
  $("rnext").onclick = () => findRule(1);
  $("rprev").onclick = () => findRule(-1);
  $("ccnext").onclick = () => findCc(1);
  $("ccprev").onclick = () => findCc(-1);
  $("show-all").onchange = () => renderHeap();
  document.addEventListener("click", (e) => {
    const a = e.target.closest("[data-ref],[data-pos],[data-file],#close-card");
    if (!a) return;
    e.preventDefault();
    if (a.id === "close-card") {
      selected = null;
      renderHeap();
    } else if (a.dataset.ref !== undefined) select(Number(a.dataset.ref));
    else if (a.dataset.pos !== undefined) go(Number(a.dataset.pos));
    else if (a.dataset.file !== undefined) showFile(Number(a.dataset.file), null);
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") {
      if (e.key === "Escape") e.target.blur();
      return;
    }
    const k = e.key;
    const act = {
      ArrowRight: () => go(S.pos + 1),
      j: () => go(S.pos + 1),
      " ": () => go(S.pos + 1),
      ArrowLeft: () => go(S.pos - 1),
      k: () => go(S.pos - 1),
      Home: () => go(0),
      End: () => go(N - 1),
      n: () => findRule(1),
      p: () => findRule(-1),
      c: () => findCc(1),
      C: () => findCc(-1),
      g: () => $("goto").focus(),
      b: () => selected !== null && builtAt.has(selected) && go(builtAt.get(selected)),
      u: () => {
        const l = selected !== null && updatedAt.get(selected);
        if (!l) return;
        const next = l.find((p) => p > S.pos);
        go(next !== undefined ? next : l[0]);
      },
    }[k];
    if (act) {
      e.preventDefault();
      act();
    }
  });

  // For tests and the curious: the explorer from the console.
  window.explorer = {
    records: N,
    lastStep: LAST_STEP,
    go,
    gotoStep,
    position: () => S.pos,
    select,
    findRule: (rule, dir = 1) => {
      $("rule").value = rule;
      findRule(dir);
    },
    state: () => S,
    entryName,
    timing: () => ({ ...timing }),
  };
  const indexed = performance.now();
  go(0);
  window.explorerReady = performance.now() - started;
  window.explorerLoad = { parse: parsed - started, index: indexed - parsed, first: performance.now() - indexed };
  document.body.dataset.ready = "1";
})();
