// Drives a `stg-prof html` page in headless Chromium as a person would
// (clicks, typing), and prints what it saw as one JSON object for the Rust
// test (tests/profile_html.rs) to check, with timings in milliseconds.
// Usage: node profile_page.mjs PAGE.html SCREENSHOT_DIR|- STEPS.json
// STEPS.json: [{"do": ACTION, ...}] with ACTION one of
//   load                       open the page (fragment in "fragment")
//   click {"selector"}         click the first element matching it
//   fill {"selector","value"}  type a value into an input (fires input)
//   select {"selector","value"} set a value and fire change
//   read                       record the page's state (below)
//   shot {"name"}              screenshot (full page) into SCREENSHOT_DIR
//   time {"what","selector","value"?}  set a value (or click) and time
//                              the synchronous redraw inside the page
// A state records: the flame graph's frames (entry, left, width, text), the
// breadcrumb's entries, the rows of each table (entry or cost centre and
// cell texts; with --diff, the two diff tables' rows), the callers title,
// the address's fragment.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { launch } from "./chromium.mjs";

const [pagePath, shotDir, stepsPath] = process.argv.slice(2);
const steps = JSON.parse(readFileSync(stepsPath, "utf8"));
const url = pathToFileURL(pagePath).href;
const out = { states: [], timings: {}, errors: [] };
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (e) => out.errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") out.errors.push(m.text()); });
  for (const s of steps) {
    switch (s.do) {
      case "load": {
        const t0 = Date.now();
        await page.goto(url + (s.fragment || ""));
        out.timings.load = Date.now() - t0;
        out.timings.loadEvent = await page.evaluate(() => {
          const n = performance.getEntriesByType("navigation")[0];
          return Math.round(n.loadEventEnd - n.startTime);
        });
        break;
      }
      case "click":
        await page.click(s.selector);
        break;
      case "fill":
        await page.fill(s.selector, s.value);
        break;
      case "select":
        await page.evaluate(([sel, v]) => {
          const el = document.querySelector(sel);
          el.value = v;
          el.dispatchEvent(new Event("change"));
        }, [s.selector, s.value]);
        break;
      case "shot":
        await page.screenshot({ path: `${shotDir}/${s.name}.png`, fullPage: s.full !== false });
        break;
      case "time":
        out.timings[s.what] = await page.evaluate(([sel, v]) => {
          const el = document.querySelector(sel);
          const t0 = performance.now();
          if (v === undefined) el.click();
          else { el.value = v; el.dispatchEvent(new Event("input")); }
          return Math.round((performance.now() - t0) * 10) / 10;
        }, [s.selector, s.value]);
        break;
      case "read":
        out.states.push(await page.evaluate(() => {
          const rows = (sel, key) => [...document.querySelectorAll(sel + " tbody tr")]
            .filter((tr) => tr.dataset[key] !== undefined)
            .map((tr) => ({ id: Number(tr.dataset[key]), cells: [...tr.cells].map((td) => td.textContent) }));
          return {
            fragment: location.hash,
            frames: [...document.querySelectorAll("#flame .frame")].map((f) => ({
              entry: Number(f.dataset.entry),
              left: parseFloat(f.style.left),
              width: parseFloat(f.style.width),
              text: f.textContent,
              hit: f.classList.contains("hit"),
            })),
            crumbs: [...document.querySelectorAll("#crumbs .crumb")].map((b) => Number(b.dataset.entry)),
            ccs: rows("#ccs", "cc"),
            tree: rows("#tree", "entry"),
            callers: document.getElementById("callers").hidden ? null : rows("#callers-table", "entry"),
            callersTitle: document.getElementById("callers-title").textContent,
            hidden: document.getElementById("hidden").textContent,
            heap: !!document.querySelector("#heap polygon"),
            diffCcs: document.getElementById("diff-ccs") ? rows("#diff-ccs", "row") : null,
            diffEntries: document.getElementById("diff-entries") ? rows("#diff-entries", "row") : null,
          };
        }));
        break;
      default:
        throw new Error(`unknown step ${s.do}`);
    }
  }
} finally {
  await browser.close();
}
console.log(JSON.stringify(out));
