// SPDX-License-Identifier: Apache-2.0
// E. Output and import (../shared/design/form.md): the preview parses back
// (YAML 1.1, as Helm reads it) to the expected values; ambiguous scalars are
// quoted; the download's name and bytes; copy; import of good, unknown-key,
// broken and custom-tag files; export(import(export(import(x)))) ==
// export(import(x)) in both modes; an untouched form exports an empty overlay;
// "Everything" == the defaults merged with "Only changes" (Helm's merge, null deletes);
// the --set flags.
import { after } from "node:test";
import fs from "node:fs";
import { mergeValues } from "../../src/form/rules.js";
import {
  test,
  form, open, closeBrowser, signal, checked, check, checkEqual, checksDone, setField, importText, preview, until, button, region,
  exportMode, loadValues, reveal, hygiene, SOURCES, validate, writeTmp, problems,
} from "./harness.mjs";

after(async () => { console.log(`count: form E output checks ${checksDone()}`); await closeBrowser(); });

const parse = async (t) => { const d = await loadValues(t); return d.length ? d[0] : null; };
const isEmptyOverlay = async (t) => { const v = await parse(t); return v === null || (typeof v === "object" && Object.keys(v).length === 0); };
const ytt = (t) => t.replace(/^#@data\/values\s*\n(---\s*\n)?/, "");

async function reload(p) {
  await p.page.reload({ waitUntil: "domcontentloaded" });
  await p.page.waitForSelector('html[data-ready="1"]', { state: "attached" });
}

for (const [kind, dl, regionName] of [
  ["chart", "Download values.yaml", "values.yaml preview"],
  ["noschema", "Download values.yaml", "values.yaml preview"],
  ["ytt", "Download values.yaml", "values.yaml preview"],
  ["schema", "Download document.yaml", "values.yaml preview"],
  ["crd", "Download widget.yaml", "manifest preview"],
]) {
  test(`E ${kind}: untouched export, download name and bytes, copy`, async () => {
    const p = await open(form(kind));
    try {
      const y = await preview(p.page, regionName);
      if (kind === "crd") {
        const m = await parse(y);
        checkEqual([m.apiVersion, m.kind], ["example.com/v1", "Widget"], "crd: the manifest names its apiVersion and kind");
        check(m.metadata && "name" in m.metadata, "crd: metadata.name is there");
      } else if (kind === "ytt") {
        check(/^#@data\/values/.test(y), `ytt: the preview starts with #@data/values: ${y.slice(0, 40)}`);
        check(await isEmptyOverlay(ytt(y)), `ytt: untouched form exports an empty overlay: ${JSON.stringify(y)}`);
      } else {
        check(await isEmptyOverlay(y), `${kind}: untouched form exports an empty overlay: ${JSON.stringify(y)}`);
      }
      // download: an untouched form (a CRD's manifest aside) has nothing to
      // download and says so; after "Everything" is chosen too
      if (kind !== "crd") {
        let saved = false;
        p.page.on("download", () => { saved = true; });
        await button(p.page, dl).click();
        await until(() => p.page.getByRole("status").filter({ hasText: "Nothing to download" }).count(), (n) => n === 1, 3000, `${kind}: nothing to download`);
        checkEqual(await signal(p.page, "downloads"), 0, `${kind}: no empty file handed out`);
        checkEqual(saved, false, `${kind}: no empty file saved`);
        await importText(p.page, kind === "schema" ? "name: abc\n" : kind === "ytt" ? "name: other\n" : "replicaCount: 2\n");
        await until(() => preview(p.page, regionName), (t) => /: (abc|other|2)$/m.test(t), 3000, `${kind}: a value to download`);
      }
      const [d] = await Promise.all([p.page.waitForEvent("download"), button(p.page, dl).click()]);
      checkEqual(d.suggestedFilename(), dl.replace(/^Download /, ""), `${kind}: download file name`);
      const bytes = fs.readFileSync(await d.path(), "utf8");
      checkEqual(bytes, await preview(p.page, regionName), `${kind}: the download's bytes are the preview's`);
      // copy: the clipboard text equals the preview
      await p.page.evaluate(() => {
        window.__copied = null;
        const rec = (t) => { window.__copied = t; return Promise.resolve(); };
        if (navigator.clipboard) navigator.clipboard.writeText = rec;
        else Object.defineProperty(navigator, "clipboard", { value: { writeText: rec } });
        document.addEventListener("copy", (e) => { if (window.__copied === null) window.__copied = e.clipboardData && e.clipboardData.getData("text/plain") || String(getSelection()); });
      });
      await button(p.page, "Copy").click();
      const copied = await until(() => p.page.evaluate(() => window.__copied), (v) => v !== null, 3000, "copy");
      checkEqual(copied, await preview(p.page, regionName), `${kind}: copy equals the preview`);
      checkEqual(await hygiene(p), [], "hygiene");
    } finally { await p.close(); }
  });
}

test("E chart: the preview parses back to the values set; Everything = defaults merged with Only changes", async () => {
  const p = await open(form("chart"));
  try {
    await setField(p.page, "replicaCount", "3");
    await setField(p.page, "image.tag", "2.0");
    await setField(p.page, "debug", "true");
    await setField(p.page, "image.pullPolicy", "Always");
    const y = await until(() => preview(p.page), (t) => /pullPolicy/.test(t) && /debug/.test(t), 4000, "four values in the preview");
    checkEqual(await parse(y), { replicaCount: 3, image: { tag: "2.0", pullPolicy: "Always" }, debug: true }, "Only changes parses back");
    await exportMode(p.page, "Everything");
    const all = await until(() => preview(p.page), (t) => /clusterDomain/.test(t), 4000, "Everything");
    const defaults = await parse(fs.readFileSync(`${SOURCES.chart}/values.yaml`, "utf8"));
    checkEqual(await parse(all), mergeValues(defaults, await parse(y)), "Everything == defaults merged with Only changes");
    checkEqual(await p.page.getByRole("radio", { name: "Only changes", exact: true }).isChecked(), false, "radio moved");
  } finally { await p.close(); }
});

const AMBIGUOUS = ["yes", "no", "on", "off", "y", "n", "Y", "NO", "true", "False", "null", "~", "0123", "1e3", "0x1F", "12:30", "0o17", "1_000", ".inf", "-.5", "", " lead", "a: b", "#x", "- x"];

test("E chart: ambiguous scalars are quoted so YAML 1.1 reads strings back", async () => {
  const p = await open(form("chart"));
  try {
    for (const s of AMBIGUOUS) {
      if (s === "") continue;   // clearing removes the key (C)
      await setField(p.page, "image.tag", s);
      const read = async () => { const y = await preview(p.page); return { y, v: await parse(y) }; };
      const { y, v } = await until(read, (r) => r.v && r.v.image && r.v.image.tag === s, 3000, `tag ${s}`).catch(read);
      const line = y.split("\n").find((l) => /^\s+tag:/.test(l));
      checkEqual(v && v.image && v.image.tag, s, `tag ${JSON.stringify(s)} reads back as the string (line: ${line})`);
    }
    // a multi-line string and a dotted key
    await setField(p.page, "notes", "first line\nsecond: line\n");
    await importText(p.page, 'podAnnotations:\n  "nginx.ingress.kubernetes.io/rewrite-target": /\n');
    const y = await until(() => preview(p.page), (t) => /rewrite-target/.test(t), 4000, "dotted key");
    const v = await parse(y);
    checkEqual(v.podAnnotations["nginx.ingress.kubernetes.io/rewrite-target"], "/", "dotted key written as one key");
  } finally { await p.close(); }
});

test("E chart: --set flags escape dots in keys, are single-quoted and use --set-string for strings that look like other types", async () => {
  const p = await open(form("chart"));
  try {
    await importText(p.page, 'replicaCount: 2\nimage:\n  tag: "true"\npodAnnotations:\n  "nginx.ingress.kubernetes.io/rewrite-target": /\n');
    const flags = await until(async () => (await region(p.page, "--set flags").locator("pre").first().textContent()) || "", (t) => /rewrite-target/.test(t), 4000, "--set flags");
    check(flags.includes("--set 'podAnnotations.nginx\\.ingress\\.kubernetes\\.io/rewrite-target=/'"), `dots escaped, single-quoted: ${flags}`);
    check(flags.includes("--set 'replicaCount=2'"), `--set replicaCount=2: ${flags}`);
    check(flags.includes("--set-string 'image.tag=true'"), `--set-string image.tag=true: ${flags}`);
  } finally { await p.close(); }
});

test("E chart: import good / unknown key / broken YAML / custom tags", async () => {
  const p = await open(form("chart"));
  try {
    // good: fields populate, provenance "imported"
    await importText(p.page, "# mine\nreplicaCount: 4 # four\nimage:\n  tag: \"3.1\"\n");
    const y = await until(() => preview(p.page), (t) => /replicaCount: 4/.test(t), 4000, "imported values in the preview");
    checkEqual(await parse(y), { replicaCount: 4, image: { tag: "3.1" } }, "the import is the overlay");
    checkEqual(await (await reveal(p.page, "replicaCount")).inputValue(), "4", "replicaCount populated");
    checkEqual(await (await reveal(p.page, "image.tag")).inputValue(), "3.1", "image.tag populated");
    checkEqual(await p.page.locator('[data-path="replicaCount"]').getAttribute("data-provenance"), "imported", "provenance imported");
    check(/imported/.test(await p.page.locator('[data-path="replicaCount"] .sd-prov').first().textContent()), "provenance text imported");
    check(/# four|# mine/.test(y), `an imported file keeps its comments where untouched: ${y}`);
    // broken: an alert with line and column, state untouched
    await importText(p.page, "replicaCount: 5\nimage: [\n  tag: x\n", "broken.yaml");
    const alert = await until(async () => (await p.page.getByRole("alert").allTextContents()).join(" "), (t) => /line \d+, column \d+/.test(t), 4000, "YAML error alert");
    check(/line \d+, column \d+/.test(alert), `the alert names line and column: ${alert}`);
    checkEqual(await parse(await preview(p.page)), { replicaCount: 4, image: { tag: "3.1" } }, "state untouched by a broken file");
    // unknown keys: listed with did-you-mean
    await importText(p.page, "replicaCont: 2\nimage:\n  tagg: x\n", "typo.yaml");
    const unk = await until(async () => (await region(p.page, "Unknown keys").textContent().catch(() => "")) || "", (t) => /replicaCont/.test(t), 4000, "Unknown keys region");
    check(/replicaCont \(did you mean replicaCount\?\)/.test(unk), `did you mean replicaCount: ${unk}`);
    check(/image\.tagg \(did you mean image\.tag\?\)/.test(unk), `did you mean image.tag: ${unk}`);
    // custom tags: data, never code
    const n0 = await signal(p.page, "checks");
    await importText(p.page, 'image:\n  tag: !!python/object/apply:os.system ["echo pwned"]\nnotes: !custom "<script>window.__pwned=1</script>"\n', "tags.yaml");
    await checked(p.page, n0);   // the import ran to its update
    checkEqual(await p.page.evaluate(() => window.__pwned), undefined, "a custom tag ran nothing");
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

const ROUND = `# my values
replicaCount: 3   # three
image:
  tag: "yes"      # a string
  pullPolicy: Always
podAnnotations:
  "a.b/c": "on"
tags: [x, y]
selector:
  app: null
ingress:
  hosts:
    - host: example.com
      path: /x
notes: |
  multi
  line
`;

test("E chart: export(import(export(import(x)))) == export(import(x)) in both modes", async () => {
  const p = await open(form("chart"));
  try {
    for (const mode of ["Only changes", "Everything"]) {
      await reload(p);
      await exportMode(p.page, mode);
      await importText(p.page, ROUND);
      const e1 = await until(() => preview(p.page), (t) => /replicaCount: 3/.test(t), 4000, `${mode}: first export`);
      await reload(p);
      await exportMode(p.page, mode);
      await importText(p.page, e1);
      const e2 = await until(() => preview(p.page), (t) => /replicaCount: 3/.test(t), 4000, `${mode}: second export`);
      checkEqual(e2, e1, `${mode}: idempotent`);
      const v = await parse(e1);
      if (mode === "Only changes") {
        checkEqual(v.image.tag, "yes", "yes stays a string");
        checkEqual(v.podAnnotations["a.b/c"], "on", "on stays a string");
        check(v.selector && v.selector.app === null && /app: null/.test(e1), "null deletes a default: exported as key: null");
        checkEqual(v.notes, "multi\nline\n", "multi-line string");
      } else {
        check(!("app" in v.selector) || v.selector.app === null, "Everything: the deleted default is gone (or written as null)");
      }
    }
  } finally { await p.close(); }
});

test("E noschema: a chart without a schema: fields from values.yaml, typed as the defaults, exported", async () => {
  const p = await open(form("noschema"));
  try {
    await setField(p.page, "replicaCount", "3");
    await setField(p.page, "image.tag", "v2");
    await setField(p.page, "sampling", "0.5");
    await setField(p.page, "service.enabled", "false");
    const v = await parse(await until(() => preview(p.page), (t) => /sampling/.test(t) && /enabled/.test(t), 4000, "four values"));
    checkEqual(v, { replicaCount: 3, image: { tag: "v2" }, sampling: 0.5, service: { enabled: false } }, "typed as the defaults");
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

test("E schema: a plain JSON Schema's document: defaults not written until changed, edits exported", async () => {
  const p = await open(form("schema"));
  try {
    await setField(p.page, "name", "widget-1");
    await setField(p.page, "mode", "fast");
    const v = await parse(await until(() => preview(p.page), (t) => /fast/.test(t), 4000, "document"));
    checkEqual(v, { name: "widget-1", mode: "fast" }, "the document holds what was set");
    await setField(p.page, "name", "ab");
    const pr = await until(() => problems(p.page), (x) => x.items.length === 1, 3000, "minLength error");
    checkEqual(pr.items.map((i) => i.text), [`name: ${validate(SOURCES.schema, [writeTmp("doc.yaml", "name: ab\nmode: fast\n")])[0].errors[0].message}`], "message as validate");
  } finally { await p.close(); }
});

test("E chart: an imported file keeps its comments and key order where its keys were not touched", async () => {
  const p = await open(form("chart"));
  try {
    const text = "# top comment\nservice:\n  port: 8080 # the port\n# about tags\ntags:\n  - a\n  - b\nimage:\n  # the tag\n  tag: \"2\"\ndebug: true\n";
    await importText(p.page, text);
    await until(() => preview(p.page), (t) => /debug: true/.test(t), 4000, "imported");
    await setField(p.page, "replicaCount", "2");   // touch another key
    const y = await until(() => preview(p.page), (t) => /replicaCount: 2/.test(t), 4000, "edit after import");
    for (const c of ["# top comment", "# the port", "# about tags", "# the tag"]) check(y.includes(c), `comment kept: ${c}`);
    const order = y.split("\n").filter((l) => /^[A-Za-z]/.test(l)).map((l) => l.split(":")[0]).filter((k) => k !== "replicaCount");
    checkEqual(order, ["service", "tags", "image", "debug"], "the file's key order");
    checkEqual(await parse(y), { service: { port: 8080 }, tags: ["a", "b"], image: { tag: "2" }, debug: true, replicaCount: 2 }, "values");
  } finally { await p.close(); }
});
