// SPDX-License-Identifier: Apache-2.0
// tests/render/md_dialogs.mjs DIR - open each DIR/*.html (the Markdown pages
// of tests/render/md_blocks.py after libcmark-gfm with raw HTML allowed) in
// headless Chromium (playwright-core under $SD_BUILD/node, Debian's
// chromium) and fail when the page opens a dialog (the payloads call
// alert(): an img's onerror, a details' ontoggle, a script) or runs
// anything else of the chart's. Prints one line per page and
// "N passed, N failed" last.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const dir = process.argv[2];
const require = createRequire(path.resolve(process.env.SD_BUILD || "build", "node") + "/");
const pw = require("playwright-core");
const browser = await pw.chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
let passed = 0, failed = 0;
try {
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith(".html")).sort()) {
    const page = await browser.newPage();
    const dialogs = [];
    page.on("dialog", async (d) => { dialogs.push(d.message()); await d.dismiss(); });
    await page.goto("file://" + path.resolve(dir, f));
    await page.waitForTimeout(700);   // an img's error and a details' toggle fire after load
    const shown = await page.evaluate(() => document.body.innerText.length);
    if (dialogs.length || shown < 50) {
      failed++;
      console.log(`FAIL: ${f}: ${dialogs.length} dialogs (${dialogs.join(", ")}), ${shown} characters shown`);
    } else {
      passed++;
      console.log(`ok: ${f}: no dialog in Chromium`);
    }
    await page.close();
  }
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
