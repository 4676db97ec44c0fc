// Opens files in speedscope's own viewer (the npm package `speedscope`,
// dist/release/index.html, in headless Chromium) the way a person does,
// through its file chooser, and prints what it shows: for each file, one
// line of JSON {file, title, error} where title is the name speedscope
// gives the loaded profile (shown in its toolbar) and error any message
// it showed instead.
// Usage: node speedscope_import.mjs FILE...
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { launch } from "./chromium.mjs";

const require = createRequire(import.meta.url);
const index = pathToFileURL(require.resolve("speedscope/dist/release/index.html")).href;
const browser = await launch();
try {
  for (const file of process.argv.slice(2)) {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("dialog", async (d) => { errors.push(d.message()); await d.dismiss(); });
    await page.goto(index);
    await page.setInputFiles("input[type=file]", file);
    // Loaded: the toolbar names the profile; failed: an alert or an error.
    let title = null;
    for (let i = 0; i < 100 && title === null && errors.length === 0; i++) {
      await page.waitForTimeout(100);
      title = await page.evaluate(() => {
        const t = document.title;
        return / - speedscope$/.test(t) ? t.replace(/ - speedscope$/, "") : null;
      });
    }
    console.log(JSON.stringify({ file, title, error: errors.join("; ") || null }));
    await page.close();
  }
} finally {
  await browser.close();
}
