// Drives an explorer page (`stg-run --explain`) in headless Chromium
// (Debian's, through playwright-core, which downloads no browser) and
// prints what a student would see, as JSON, for tests/explain_page.rs to
// check.
//
//   node drive.mjs walk PAGE SHOTS   the paper_map_scc walk: first rule 15,
//                                     its rule 16, and back (screenshots in SHOTS)
//   node drive.mjs time PAGE          load and step times of a long run
//   node drive.mjs sweep PAGE...      show every step forwards, then backwards,
//                                     and every closure's card: no script errors
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "../chromium_args.mjs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [mode, page, shots] = process.argv.slice(2);
const pages = process.argv.slice(3);
const profile = mkdtempSync(join(tmpdir(), "stg-explorer-"));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: CHROMIUM_ARGS,
  viewport: { width: 1680, height: 1050 },
  deviceScaleFactor: 1,
});
const out = {};
try {
  const tab = browser.pages()[0] || (await browser.newPage());
  const errors = [];
  tab.on("pageerror", (e) => errors.push(String(e)));
  tab.on("requestfailed", (r) => errors.push(`request ${r.url()} failed`));
  tab.on("request", (r) => {
    if (!r.url().startsWith("file:")) errors.push(`the page asked the network for ${r.url()}`);
  });
  const t0 = Date.now();
  await tab.goto(pathToFileURL(page).href);
  await tab.waitForSelector("body[data-ready='1']", { timeout: 120000 });
  out.load_ms = Date.now() - t0;
  out.script_ms = await tab.evaluate(() => window.explorerReady);
  out.script_parts_ms = await tab.evaluate(() => window.explorerLoad);

  // What the page shows now: each panel's text, and its whole markup
  // (compared when the same step is shown again).
  const look = () =>
    tab.evaluate(() => {
      const text = (sel) => document.querySelector(sel)?.innerText ?? null;
      const html = (sel) => document.querySelector(sel)?.innerHTML ?? null;
      const row = (id) => {
        const tr = document.querySelector(`#heap tr[data-id="${id}"]`);
        return tr ? { kind: tr.dataset.kind, class: tr.className, text: tr.innerText } : null;
      };
      const us = [...document.querySelectorAll("#us li")].map((li) => ({ text: li.innerText, class: li.className }));
      const S = window.explorer.state();
      return {
        step: Number(document.body.dataset.step),
        rule: document.querySelector("#explain").dataset.rule,
        explain: text("#explain"),
        cc: text("#cc-now"),
        control: text("#control"),
        us,
        rows: Object.fromEntries(
          [...document.querySelectorAll("#heap tr[data-id]")].map((tr) => [tr.dataset.id, row(tr.dataset.id)])
        ),
        top_update: S.us.length ? S.us[S.us.length - 1].update : null,
        markup: [
          "#explain",
          "#machine",
          "#heap",
          "#profile-panel",
        ]
          .map(html)
          .concat([`source ${document.querySelector("#source").dataset.file} ${document.querySelector("#source").dataset.span}`])
          .join("\n"),
      };
    });

  if (mode === "walk") {
    // The first firing of rule 15: pick it in the rule list, then "n".
    await tab.selectOption("#rule", "15");
    await tab.keyboard.press("n");
    const at15 = await look();
    out.at15 = at15;
    await tab.screenshot({ path: join(shots, "explorer-rule15.png") });
    // The thunk it entered: click it, then "u" (where it was updated next).
    const thunk = at15.top_update.slice(1);
    await tab.click(`#us li a.ref[data-ref="${thunk}"]`);
    await tab.keyboard.press("u");
    out.at16 = await look();
    out.thunk = thunk;
    await tab.screenshot({ path: join(shots, "explorer-rule16.png") });
    // Back, one step at a time, to the rule 15: every step shown again
    // must look as it did going forward (with no closure selected, as at
    // first).
    await tab.click("#close-card");
    const forward = {};
    await tab.keyboard.press("Home");
    await tab.selectOption("#rule", "15");
    await tab.keyboard.press("n");
    for (let s = at15.step; s <= out.at16.step; s++) {
      const l = await look();
      forward[l.step] = l.markup;
      if (s < out.at16.step) await tab.keyboard.press("ArrowRight");
    }
    const differ = [];
    for (let s = out.at16.step; s >= at15.step; s--) {
      const l = await look();
      if (forward[l.step] !== l.markup) differ.push(l.step);
      if (s > at15.step) await tab.keyboard.press("ArrowLeft");
    }
    out.back = await look();
    out.back_differ = differ;
    out.compared = Object.keys(forward).length;
  } else if (mode === "time") {
    out.records = await tab.evaluate(() => window.explorer.records);
    out.last_step = await tab.evaluate(() => window.explorer.lastStep);
    // A step: the key press until the page shows the next step.
    const step = async (key) => {
      const before = await tab.evaluate(() => document.body.dataset.pos);
      const t = Date.now();
      await tab.keyboard.press(key);
      await tab.waitForFunction((b) => document.body.dataset.pos !== b, before);
      return Date.now() - t;
    };
    const times = [];
    for (let i = 0; i < 20; i++) times.push(await step("ArrowRight"));
    out.step_ms = times.sort((a, b) => a - b)[10];
    // The page's own time for a step forward and back (without the
    // browser's input and paint round trip).
    out.step_script_ms = await tab.evaluate(() => {
      const t = [];
      for (let i = 0; i < 21; i++) {
        const s = performance.now();
        window.explorer.go(window.explorer.position() + (i % 2 ? -1 : 1));
        t.push(performance.now() - s);
      }
      return t.sort((a, b) => a - b)[10];
    });
    out.step_parts_ms = await tab.evaluate(() => window.explorer.timing());
    let t = Date.now();
    await tab.keyboard.press("End");
    await tab.waitForFunction(() => document.body.dataset.pos === String(window.explorer.records - 1));
    out.to_end_ms = Date.now() - t;
    out.end = (await look()).explain;
    out.banner = await tab.evaluate(() => document.querySelector("#banner").innerText);
    const back = [];
    for (let i = 0; i < 20; i++) back.push(await step("ArrowLeft"));
    out.back_ms = back.sort((a, b) => a - b)[10];
    out.back_parts_ms = await tab.evaluate(() => window.explorer.timing());
    t = Date.now();
    await tab.keyboard.press("Home");
    await tab.waitForFunction(() => document.body.dataset.pos === "0");
    out.to_start_ms = Date.now() - t;
    t = Date.now();
    await tab.fill("#goto", "50000");
    await tab.press("#goto", "Enter");
    await tab.waitForFunction(() => document.body.dataset.step === "50000");
    out.goto_ms = Date.now() - t;
  }
  if (mode === "sweep") {
    out.pages = {};
    for (const p of pages) {
      if (p !== page) {
        await tab.goto(pathToFileURL(p).href);
        await tab.waitForSelector("body[data-ready='1']", { timeout: 120000 });
      }
      out.pages[p] = await tab.evaluate(() => {
        const e = window.explorer;
        const n = e.records;
        const seen = new Set();
        const markup = [];
        for (let p = 0; p < n; p++) {
          e.go(p);
          markup.push(document.querySelector("#machine").innerHTML + document.querySelector("#heap").innerHTML);
          for (const id of e.state().heap.keys()) seen.add(id);
        }
        let same = 0;
        for (let p = n - 1; p >= 0; p--) {
          e.go(p);
          if (document.querySelector("#machine").innerHTML + document.querySelector("#heap").innerHTML === markup[p]) same++;
        }
        // The cards of the last closures made (each re-draws the heap).
        for (const id of [...seen].sort((a, b) => b - a).slice(0, 25)) e.select(id);
        return { records: n, same_going_back: same, closures: seen.size, explained: document.querySelector("#explain").innerText.length };
      });
    }
  }
  out.errors = errors;
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(JSON.stringify(out));
