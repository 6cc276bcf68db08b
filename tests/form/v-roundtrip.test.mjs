// SPDX-License-Identifier: Apache-2.0
// V. Values are never lost (issue 33): what the form exports comes back the
// same. For every source kind (a chart, a CRD, a ytt schema, a plain JSON
// Schema): export, import that file on a fresh page, export again: the
// bytes are identical, in both export modes. A ytt data-values file (the
// form's own export included) keeps one `#@data/values` header, and each
// key whose value is a list carries `#@overlay/replace` (ytt appends a data
// value's list items to the default list otherwise). Pins: after an import,
// a key the file sets stays in "Only changes" even when it equals the
// default; a key the user resets or deletes leaves.
import { after } from "node:test";
import fs from "node:fs";
import path from "node:path";
import {
  test, form, open, closeBrowser, settled, check, checkEqual, checksDone, setField, importText, preview, until, exportMode, loadValues,
  button, reveal, hygiene, YAML, CORPUS,
} from "./harness.mjs";

after(async () => { console.log(`count: form V round-trip checks ${checksDone()}`); await closeBrowser(); });

async function reload(p) {
  await p.page.reload({ waitUntil: "domcontentloaded" });
  await p.page.waitForSelector('html[data-ready="1"]', { state: "attached" });
}
const parse = async (t) => { const d = await loadValues(t.replace(/^#@data\/values\n---\n/, "")); return d.length && d[0] ? d[0] : {}; };

// [kind, preview region, fields to set]
const KINDS = [
  ["chart", "values.yaml preview", [["replicaCount", "3"], ["image.tag", "yes"], ["debug", "true"]]],
  ["crd", "manifest preview", [["metadata.name", "w1"], ["spec.size", "5"], ["spec.color", "1"]]],
  ["ytt", "values.yaml preview", [["name", "other"], ["replicas", "2"], ["image.ref", "nginx:2"]]],
  ["schema", "values.yaml preview", [["name", "widget-1"], ["count", "4"]]],
];

for (const [kind, regionName, fields] of KINDS) {
  test(`V ${kind}: export, import, export is byte-identical, in both modes`, async () => {
    const p = await open(form(kind));
    try {
      for (const mode of ["Only changes", "Everything"]) {
        await reload(p);
        await exportMode(p.page, mode);
        for (const [f, v] of fields) await setField(p.page, f, v);
        const last = fields[fields.length - 1][0].split(".").pop();
        const e1 = await until(() => preview(p.page, regionName), (t) => t.includes(last + ":"), 4000, `${kind} ${mode}: first export`);
        await reload(p);
        await exportMode(p.page, mode);
        await importText(p.page, e1);
        await until(() => preview(p.page, regionName), (t) => t.includes(last + ":"), 4000, `${kind} ${mode}: export after import`);
        // an import's steps (the merge, then the pins) each redraw the preview: read it once it settles
        const e2 = await settled(() => preview(p.page, regionName), 3000, `${kind} ${mode}: the preview after the import`);
        checkEqual(e2, e1, `${kind} ${mode}: export(import(export)) == export`);
        if (kind === "ytt") checkEqual(e2.split("#@data/values").length, 2, `ytt ${mode}: one header`);
      }
      checkEqual(await hygiene(p), [], "hygiene");
    } finally { await p.close(); }
  });
}

test("V ytt: a data-values file with its header imports and exports with one header; lists carry #@overlay/replace", async () => {
  const p = await open(form("ytt"));
  try {
    const file = "#@data/values\n---\n# my values\nname: mine\n#@overlay/append\nports:\n- name: web\n  port: 8080\n- name: admin\n  port: 9090\n";
    await importText(p.page, file);
    const y = await until(() => preview(p.page), (t) => /admin/.test(t), 4000, "imported");
    checkEqual(y.split("#@data/values").length, 2, `one #@data/values header: ${y}`);
    check(y.startsWith("#@data/values\n---\n"), "the header first");
    // the annotation sits on the key of each list, in place of the file's own #@overlay/append
    const doc = YAML.parseDocument(y.replace(/^#@data\/values\n---\n/, ""));
    const lists = doc.contents.items.filter((it) => YAML.isSeq(it.value));
    checkEqual(lists.map((it) => it.key.value), ["ports"], "one list");
    for (const it of lists) checkEqual(String(it.key.commentBefore || doc.contents.commentBefore || "").split("\n").filter((l) => /@overlay\//.test(l)), ["@overlay/replace"], `${it.key.value}: #@overlay/replace`);
    check(!/@overlay\/append/.test(y), "the append annotation is gone (ytt would add the items to the default list)");
    checkEqual((await parse(y)).ports, [{ name: "web", port: 8080 }, { name: "admin", port: 9090 }], "the list shown");
    // a list set on the page gets it too
    await reload(p);
    await reveal(p.page, "ports");
    await button(p.page, "Add item to ports").click();
    const y2 = await until(() => preview(p.page), (t) => /ports:/.test(t), 4000, "a list in the export");
    check(/#@overlay\/replace\nports:/.test(y2), `#@overlay/replace before ports: ${y2}`);
  } finally { await p.close(); }
});

test("V pins: keys an imported file sets stay in Only changes at their defaults; reset or deleted ones leave", async () => {
  const p = await open(form("chart"));
  try {
    // image.tag "1.25", service.type ClusterIP and tags [stable] are the chart's defaults
    await importText(p.page, 'image:\n  tag: "1.25"\nservice:\n  type: ClusterIP\ntags:\n  - stable\nreplicaCount: 3\n');
    const y = await until(() => preview(p.page), (t) => /replicaCount: 3/.test(t), 4000, "imported");
    checkEqual(await parse(y), { image: { tag: "1.25" }, service: { type: "ClusterIP" }, tags: ["stable"], replicaCount: 3 }, "pinned keys stay");
    checkEqual(await p.page.locator('[data-path="image.tag"]').getAttribute("data-provenance"), "imported", "a pinned default is 'imported'");
    // reset: the pin leaves with it
    await reveal(p.page, "image.tag");
    await button(p.page, "Reset image.tag").click();
    const y2 = await until(() => preview(p.page), (t) => !/tag:/.test(t), 4000, "image.tag reset");
    checkEqual(await parse(y2), { service: { type: "ClusterIP" }, tags: ["stable"], replicaCount: 3 }, "a reset key leaves the export");
    // delete: the pinned value leaves (the export says the default goes)
    const c = await reveal(p.page, "service.type");
    await c.selectOption("");
    const y3 = await until(() => preview(p.page), (t) => !/ClusterIP/.test(t), 4000, "service.type deleted");
    const v3 = await parse(y3);
    check(!v3.service || v3.service.type === null || !("type" in v3.service), `a deleted key is not exported as its old value: ${y3}`);
    checkEqual(v3.tags, ["stable"], "the other pin stays");
    // Everything is unchanged by pins; a second import keeps the first one's pins
    await importText(p.page, "debug: false\n");
    const y4 = await until(() => preview(p.page), (t) => /debug: false/.test(t), 4000, "second import");
    checkEqual((await parse(y4)).tags, ["stable"], "pins of the first import stay after a second");
  } finally { await p.close(); }
});

// The corpus' ytt data-values files on their schemas: imported, exported,
// imported again on a fresh page: the same bytes, one header, and every
// list under `#@overlay/replace`.
const YTT = path.join(CORPUS, "ytt");
const YTT_FILES = [
  ["carvel-ytt-examples/schema-arrays/schema.yml", "carvel-ytt-examples/schema-arrays/values.yml"],
  ["carvel-ytt-examples/data-values-multiple-envs/config/schema.yml", "carvel-ytt-examples/data-values-multiple-envs/envs/prod.yml"],
  ["tanzu-community-edition/vsphere-cpi-1.24.3/schema.yaml", "tanzu-community-edition/vsphere-cpi-1.24.3/sample-values/vsphere-cpi.yaml"],
  ["carvel-ytt-examples/data-values-directory/config/values-schema.yml", "carvel-ytt-examples/data-values-directory/values/appdev-overrides/values.yaml"],
];
test("V ytt corpus: data-values files round-trip byte-identical with one header, lists replaced", async () => {
  for (const [schema, values] of YTT_FILES) {
    const p = await open(form(path.join(YTT, schema)));
    try {
      for (const mode of ["Only changes", "Everything"]) {
        await reload(p);
        await exportMode(p.page, mode);
        const b1 = await preview(p.page);
        await importText(p.page, fs.readFileSync(path.join(YTT, values), "utf8"));
        const e1 = await until(() => preview(p.page), (t) => t !== b1, 6000, `${values} ${mode}: imported`);
        await reload(p);
        await exportMode(p.page, mode);
        const b2 = await preview(p.page);
        await importText(p.page, e1);
        const e2 = await until(() => preview(p.page), (t) => t !== b2 || t === e1, 6000, `${values} ${mode}: export imported`);
        checkEqual(e2, e1, `${values} ${mode}: export(import(export)) == export`);
        checkEqual(e1.split("#@data/values").length, 2, `${values} ${mode}: one header`);
        const doc = YAML.parseDocument(e1.replace(/^#@data\/values\n---\n/, ""));
        let lists = 0;
        YAML.visit(doc, { Pair(_, pr) {
          if (!YAML.isSeq(pr.value)) return;
          lists++;
          check(/@overlay\/replace/.test(String(pr.key.commentBefore || "")) || /@overlay\/replace\s*$/.test(String(doc.contents.commentBefore || "")), `${values}: ${pr.key.value} under #@overlay/replace`);
          return YAML.visit.SKIP;
        } });
        if (/schema-arrays/.test(values)) check(lists === 1, `${values}: the list of resources is there`);
      }
    } finally { await p.close(); }
  }
});
