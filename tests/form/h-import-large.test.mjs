// SPDX-License-Identifier: Apache-2.0
// H. A large import stays responsive (issue 36 item 12, docs/form.md "A
// large file"): a values file of 100,000 list items, 100,000 map entries or
// 100,000 unknown keys is read a slice at a time with its progress shown; no
// task of the page runs over the budget of 200 ms (the Long Tasks API), the
// values all arrive (Download parsed back), the unknown keys are listed (the
// first ones and a count), and a field still edits right after.
// The file is made inside the page and handed to the file input there, so
// the tasks measured are the page's own (playwright's setInputFiles of a
// 4 MB buffer is itself a 2-3 s task of the renderer).
import { after } from "node:test";
import fs from "node:fs";
import {
  test, form, open, closeBrowser, check, checkEqual, checksDone, until, region, preview, setField, YAML, hygiene,
} from "./harness.mjs";

after(async () => { console.log(`count: form H large-import checks ${checksDone()}`); await closeBrowser(); });

const N = 100000;
const BUDGET_MS = 200;   // the longest task allowed while importing (issue 36)

// each case: the fixture, what the file holds (written in the page), and where it lands
const CASES = [
  { name: "list items", kind: "items", src: "noschema",
    count: (v) => (Array.isArray(v.env) ? v.env.length : -1), last: (v) => v.env && v.env[N - 1] && v.env[N - 1].name === `VAR_${N - 1}` },
  { name: "map entries", kind: "entries", src: "chart",
    count: (v) => (v.podAnnotations ? Object.keys(v.podAnnotations).filter((k) => k.startsWith("example.com/")).length : -1),
    last: (v) => v.podAnnotations && v.podAnnotations[`example.com/key-${N - 1}`] === `v${N - 1}` },
  { name: "unknown keys", kind: "unknown", src: "chart",
    count: (v) => Object.keys(v).filter((k) => k.startsWith("unknownKey")).length, last: (v) => v[`unknownKey${N - 1}`] === N - 1 },
];

for (const c of CASES) {
  test(`H import of ${N.toLocaleString("en")} ${c.name}: progress shown, no task over ${BUDGET_MS} ms, every value kept`, { timeout: 300000 }, async () => {
    const p = await open(form(c.src));
    try {
      const pg = p.page;
      const bytes = await pg.evaluate(({ kind, n }) => {
        const parts = [kind === "items" ? "env:\n" : kind === "entries" ? "podAnnotations:\n" : ""];
        for (let i = 0; i < n; i++) {
          parts.push(kind === "items" ? `  - name: VAR_${i}\n    value: v${i}\n` : kind === "entries" ? `  example.com/key-${i}: "v${i}"\n` : `unknownKey${i}: ${i}\n`);
        }
        window.__bigFile = new File(parts, "big.yaml", { type: "application/x-yaml" });
        return window.__bigFile.size;
      }, { kind: c.kind, n: N });
      check(bytes > 100000 * 15, `${c.name}: the file is ${bytes} bytes`);
      const t0 = Date.now();
      await pg.evaluate(() => {
        window.__long = [];
        new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(Math.round(e.duration)); }).observe({ type: "longtask" });
        window.__prog = [];
        const box = document.getElementById("sd-import-progress");
        new MutationObserver(() => { if (!box.hidden) window.__prog.push(box.textContent.trim()); })
          .observe(box, { subtree: true, childList: true, characterData: true, attributes: true });
        const dt = new DataTransfer();
        dt.items.add(window.__bigFile);
        const input = document.getElementById("sd-file");
        input.files = dt.files;
        input.dispatchEvent(new Event("change"));
      });
      await until(() => pg.evaluate(() => window.__prog.length > 0 && document.getElementById("sd-import-progress").hidden), (v) => v, 240000, "the import ends");
      const ms = Date.now() - t0;
      const r = await pg.evaluate(() => ({ long: window.__long, prog: [...new Set(window.__prog)] }));
      const worst = Math.max(0, ...r.long);
      const over = r.long.filter((d) => d > BUDGET_MS);
      console.log(`figure: form import of ${N.toLocaleString("en")} ${c.name}: ${ms} ms, ${r.prog.length} progress steps, longest task ${worst} ms, ${over.length} tasks over ${BUDGET_MS} ms (${over.join(", ")})`);
      // progress: said with its percentage, rising, more than a start and an end
      const pcts = r.prog.map((t) => Number((t.match(/^Importing big\.yaml: (\d+)%$/) || [])[1])).filter((x) => !Number.isNaN(x));
      check(pcts.length >= 5 && pcts.length === r.prog.length, `progress said as "Importing big.yaml: N%": ${r.prog.slice(0, 4).join(" | ")}`);
      check(pcts.every((x, i) => i === 0 || x >= pcts[i - 1]) && pcts[pcts.length - 1] >= 90, `the progress rises to the end: ${pcts.join(",")}`);
      // every value arrived: the download, parsed back
      const [dl] = await Promise.all([pg.waitForEvent("download"), pg.getByRole("button", { name: "Download values.yaml", exact: true }).click()]);
      // uniqueKeys: false: the library's duplicate check is quadratic (minutes on 100,000 keys)
      const v = YAML.parse(fs.readFileSync(await dl.path(), "utf8"), { uniqueKeys: false });
      checkEqual(c.count(v), N, `${c.name}: all ${N} in the download`);
      check(c.last(v), `${c.name}: the last one as written`);
      if (c.name === "unknown keys") {
        const items = await region(pg, "Unknown keys").locator("li").allTextContents();
        check(items.length > 10 && items[0] === "unknownKey0", `the unknown keys listed: ${items.slice(0, 2).join(", ")}`);
        check(/^and [\d,]+ more$/.test(items[items.length - 1]), `and the rest counted: ${items[items.length - 1]}`);
      }
      // still usable: a field edits and the preview follows
      await setField(pg, "image.repository", "after-import");
      await until(() => preview(pg), (t) => /repository: after-import/.test(t), 10000, "an edit after the import reaches the preview");
      check(true, "a field edits after the import");
      checkEqual(await hygiene(p), [], "hygiene");
      // last, so that the checks above run even while this one is a known failure (tests/form/known.mjs)
      checkEqual(over, [], `no task over ${BUDGET_MS} ms while importing ${c.name}`);
    } finally { await p.close(); }
  });
}
