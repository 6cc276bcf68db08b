// screenshots.mjs - `make screenshots`: the form of a chart, a CRD and a ytt
// schema (tests/form/fixtures), light and dark, 1280 px and 390 px wide, into
// docs/form/KIND-SCHEME-WIDTH.png. The chart's shows one invalid field and an
// opened object so the error and nesting styles are in the picture.
import path from "node:path";
import fs from "node:fs";
import { form, open, closeBrowser, setField, reveal, ROOT } from "./harness.mjs";

const out = path.join(ROOT, "docs/form");
fs.mkdirSync(out, { recursive: true });
const made = [];
for (const kind of ["chart", "crd", "ytt"]) {
  for (const scheme of ["light", "dark"]) {
    for (const width of [1280, 390]) {
      const p = await open(form(kind), { colorScheme: scheme, viewport: { width, height: width > 500 ? 900 : 844 } });
      try {
        if (kind === "chart") {
          await setField(p.page, "replicaCount", "0");
          await reveal(p.page, "image.tag");
        }
        if (kind === "crd") await reveal(p.page, "spec.size").catch(() => null);
        await p.page.evaluate(() => window.scrollTo(0, 0));
        await p.page.waitForTimeout(200);
        const f = path.join(out, `${kind}-${scheme}-${width}.png`);
        await p.page.screenshot({ path: f });
        made.push(path.relative(ROOT, f));
      } finally { await p.close(); }
    }
  }
}
await closeBrowser();
console.log(made.join("\n"));
