// SPDX-License-Identifier: Apache-2.0
// V. ytt list semantics (issue 40, 3): an imported data-values file keeps
// ytt's meaning. Items of a list without an annotation are appended to the
// list they overlay (ytt 0.32+); `#@overlay/replace` on the key replaces it;
// `#@overlay/append` appends; `#@overlay/match by=...` merges into, replaces
// or removes the items it matches. The form shows the merged list with the
// appended items marked; the export reproduces exactly that list (one
// `#@overlay/replace`, no item annotation left under it); `validate
// --print-values` gives the same list; a `#@schema/removed` key or a key the
// schema lacks is never in the Everything export.
// Fixture tests/form/fixtures/ytt-lists: app_domains defaults to
// [apps.example.com], services to [web 80, admin 9000], config.tags to [a].
import { after } from "node:test";
import path from "node:path";
import {
  test, form, open, closeBrowser, check, checkEqual, checksDone, importText, preview, until, exportMode, loadValues,
  reveal, FIX, run, SD, writeTmp, YAML,
} from "./harness.mjs";

after(async () => { console.log(`count: form V ytt-lists checks ${checksDone()}`); await closeBrowser(); });

const SRC = path.join(FIX, "ytt-lists/schema.yaml");
const HDR = "#@data/values\n---\n";
const parse = async (t) => { const d = await loadValues(t.replace(/^#@data\/values\n---\n/, "")); return d.length && d[0] ? d[0] : {}; };
async function reload(p) {
  await p.page.reload({ waitUntil: "domcontentloaded" });
  await p.page.waitForSelector('html[data-ready="1"]', { state: "attached" });
}
// the list at `key` that `validate --print-values` prints for the file
function printed(text) {
  const f = writeTmp("dv-" + Math.random().toString(36).slice(2) + ".yml", text);
  const r = run(SD, ["validate", SRC, f, "--print-values"]);
  return YAML.parse(r.out.split(/\n(?=[^\n]*: (?:valid|invalid))/)[0]);
}

const CASES = [
  ["no annotation: appended", HDR + "app_domains:\n- x.example.com\n",
    { app_domains: ["apps.example.com", "x.example.com"] }, { app_domains: [1] }],
  ["#@overlay/replace on the key: replaced", HDR + "#@overlay/replace\napp_domains:\n- x.example.com\n",
    { app_domains: ["x.example.com"] }, {}],
  ["#@overlay/append and #@overlay/match by=\"name\"", HDR + "services:\n#@overlay/match by=\"name\"\n- name: admin\n  port: 9001\n#@overlay/append\n- name: new\n  port: 1\n",
    { services: [{ name: "web", port: 80 }, { name: "admin", port: 9001 }, { name: "new", port: 1 }] }, { services: [2] }],
  ["#@overlay/match by=overlay.index(0) with #@overlay/remove; nested list appended", HDR + "services:\n#@overlay/match by=overlay.index(0)\n#@overlay/remove\n- name: web\nconfig:\n  tags:\n  - b\n",
    { services: [{ name: "admin", port: 9000 }], config: { tags: ["a", "b"] } }, { "config.tags": [1] }],
];

for (const [name, file, want, marks] of CASES) {
  test(`V ytt lists: ${name}`, async () => {
    const p = await open(form(SRC));
    try {
      await importText(p.page, file);
      const y = await until(() => preview(p.page), (t) => Object.keys(want).every((k) => t.includes(k + ":")), 4000, "imported");
      const got = await parse(y);
      for (const k of Object.keys(want)) checkEqual(got[k], want[k], `${name}: the export says the list ytt yields (${k})`);
      check(!/@overlay\/(?:append|match|remove)/.test(y), `${name}: no item annotation left under #@overlay/replace: ${y}`);
      for (const k of Object.keys(want)) if (Array.isArray(want[k])) checkEqual(y.split("\n").filter((l) => l === "#@overlay/replace").length >= 1, true, `${name}: #@overlay/replace`);
      // the form shows the merged list; appended items are marked
      for (const [lp, idx] of Object.entries(marks)) {
        await reveal(p.page, lp);
        const shown = await p.page.locator(`[data-path="${lp}"] > .sd-items > .sd-item[data-appended="true"]`).evaluateAll((els) => els.map((e) => Number(e.dataset.index)));
        checkEqual(shown, idx, `${name}: ${lp}: the appended items are marked`);
        const badge = await p.page.locator(`[data-path="${lp}"] .sd-appended`).first().textContent();
        checkEqual(badge, "appended", `${name}: the mark's words`);
      }
      if (want.app_domains) {
        await reveal(p.page, "app_domains[0]");
        checkEqual(await (await reveal(p.page, "app_domains[0]")).inputValue(), want.app_domains[0], `${name}: the first item shown`);
      }
      // validate --print-values applies the same rules
      const pv = printed(file);
      for (const k of Object.keys(want)) checkEqual(pv[k], want[k], `${name}: validate --print-values (${k})`);
      // the export imported again gives the same export
      await reload(p);
      await importText(p.page, y);
      const y2 = await until(() => preview(p.page), (t) => t === y, 4000, "export(import(export)) == export");
      checkEqual(y2, y, `${name}: export(import(export)) == export`);
    } finally { await p.close(); }
  });
}

test("V ytt lists: a #@schema/removed key or one the schema lacks is never in the Everything export", async () => {
  const p = await open(form(SRC));
  try {
    await exportMode(p.page, "Everything");
    const y0 = await until(() => preview(p.page), (t) => /app_domains/.test(t), 4000, "Everything");
    check(!/old_domain/.test(y0), `the removed key's default is not exported: ${y0}`);
    await importText(p.page, HDR + "old_domain: x\nnope: 1\napp_domains:\n- b.example.com\n");
    const y = await until(() => preview(p.page), (t) => /b\.example\.com/.test(t), 4000, "imported");
    const v = await parse(y);
    check(!("old_domain" in v) && !("nope" in v), `Everything leaves out removed and unknown keys: ${y}`);
    checkEqual(v.app_domains, ["apps.example.com", "b.example.com"], "Everything: the merged list");
    checkEqual(Object.keys(v).sort(), ["app_domains", "config", "services"], "Everything: the schema's keys");
  } finally { await p.close(); }
});
