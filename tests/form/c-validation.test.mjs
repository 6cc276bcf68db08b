// C. Validation (../shared/design/form.md): the form's errors equal
// `schemadoc validate --output json` on the same values; errors appear after
// interaction, not on a pristine load, and clear when the value is valid;
// clearing an optional field removes the key; one failing and one passing
// case for each keyword; the parity table of the rules (tests/js/parity.test.mjs,
// docs/rules.md) loaded through "Import values": Problems == validate.
import { after } from "node:test";
import { instances, spoil } from "../js/crdgen.mjs";
import fs from "node:fs";
import path from "node:path";
import {
  test,
  form, open, closeBrowser, check, checkEqual, checksDone, setField, importText, preview, problems, until,
  validate, writeTmp, SOURCES, CORPUS, ROOT, reveal, loadValues, hygiene,
} from "./harness.mjs";

let parityTotal = 0, paritySame = 0;
const parityMisses = [];
after(async () => {
  console.log(`count: form C validation checks ${checksDone()}`);
  console.log(`count: form parity ${paritySame}/${parityTotal} identical`);
  for (const m of parityMisses.slice(0, 10)) console.log(`parity miss: ${m}`);
  await closeBrowser();
});

// validate's JSON pointer as the contract's path (the fields' accessible names):
// identifier keys joined with ".", other keys as ["..."], indices as [i]
function contractPath(ptr, prefix = []) {
  const segs = [...prefix, ...(ptr === "" ? [] : ptr.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~")))];
  let p = "";
  for (const s of segs) {
    if (/^(0|[1-9][0-9]*)$/.test(s) && p) p += `[${s}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(s)) p += p ? `.${s}` : s;
    else p += `[${JSON.stringify(s)}]`;
  }
  return p || "(root)";
}
// "PATH: message" lines of validate's result (every entry; a subchart's keys under its alias)
function expected(results) {
  const out = [];
  for (const r of results) {
    const sub = / \(subchart ([^)]+)\)$/.exec(r.file || "");
    for (const e of r.errors) out.push(`${contractPath(e.path, sub ? [sub[1]] : [])}: ${e.message}`);
  }
  return out;
}
const heading = (n) => (n === 0 ? "No problems" : n === 1 ? "1 problem" : `${n} problems`);

async function formProblems(page, n) {
  return until(() => problems(page), (p) => p.heading === heading(n) && p.items.length === n, 4000, `Problems: ${heading(n)}`)
    .catch(async () => problems(page));
}

// ---- pristine load --------------------------------------------------------------
for (const kind of ["chart", "noschema", "ytt", "crd", "schema", "hostile"]) {
  test(`C ${kind}: a pristine load shows no errors`, async () => {
    const p = await open(form(kind));
    try {
      const pr = await problems(p.page);
      checkEqual(pr.heading, "No problems", `${kind}: heading`);
      checkEqual(pr.items.length, 0, `${kind}: no entries`);
      checkEqual(await p.page.locator('[aria-invalid="true"]').count(), 0, `${kind}: no aria-invalid`);
    } finally { await p.close(); }
  });
}

// ---- keyword table: typed values (the field's message = validate's) -----------------
// [path, typed text, overlay that validate gets, keyword]
const TYPED = [
  ["replicaCount", "0", "replicaCount: 0\n", "minimum"],
  ["replicaCount", "11", "replicaCount: 11\n", "maximum"],
  ["replicaCount", "3", "replicaCount: 3\n", null],
  ["image.repository", "Bad Repo", "image:\n  repository: Bad Repo\n", "pattern"],
  ["image.repository", "ghcr.io/x", "image:\n  repository: ghcr.io/x\n", null],
  ["image.tag", "x".repeat(21), `image:\n  tag: ${"x".repeat(21)}\n`, "maxLength"],
  ["image.tag", "x".repeat(20), `image:\n  tag: ${"x".repeat(20)}\n`, null],
  ["service.port", "0", "service:\n  port: 0\n", "exclusiveMinimum"],
  ["service.port", "65536", "service:\n  port: 65536\n", "exclusiveMaximum"],
  ["service.port", "65535", "service:\n  port: 65535\n", null],
  ["cpuShares", "0.7", "cpuShares: 0.7\n", "multipleOf"],
  ["cpuShares", "2.5", "cpuShares: 2.5\n", null],
  ["replicaCount", "1.5", "replicaCount: 1.5\n", "type"],
  ["replicaCount", "1e400", "replicaCount: 1e400\n", "type"],
];

test("C chart: each keyword fails and passes as validate says (typed)", async () => {
  const p = await open(form("chart"));
  try {
    for (const [fp, typed, overlay, keyword] of TYPED) {
      const c = await setField(p.page, fp, typed);
      const want = validate(SOURCES.chart, [writeTmp("typed.yaml", overlay)])[0].errors.filter((e) => e.key === fp);
      if (keyword) check(want.some((e) => e.keyword === keyword), `validate reports ${keyword} for ${fp}=${typed}`);
      if (want.length) {
        await until(() => c.getAttribute("aria-invalid"), (v) => v === "true", 3000, `${fp}=${typed}: aria-invalid`);
        const errText = () => c.evaluate((el) => (el.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean)
          .map((id) => document.getElementById(id)).filter((e) => e && e.classList.contains("sd-error")).map((e) => e.textContent.trim()).join("\n"));
        const desc = await until(errText, (t) => t === want.map((e) => e.message).join("\n"), 3000, `${fp}=${typed}: error text`).catch(errText);
        checkEqual(desc, want.map((e) => e.message).join("\n"), `${fp}=${typed}: the error text (aria-describedby .sd-error) is validate's message`);
      } else {
        await until(() => c.getAttribute("aria-invalid"), (v) => v !== "true", 3000, `${fp}=${typed}: valid`);
        check(true, `${fp}=${typed} valid`);
      }
    }
    // errors clear as soon as the value is valid, and no other field turned invalid on the way
    await setField(p.page, "replicaCount", "0");
    await setField(p.page, "replicaCount", "2");
    await setField(p.page, "service.port", "80");
    await setField(p.page, "cpuShares", "1");
    await setField(p.page, "image.tag", "1.25");
    await setField(p.page, "image.repository", "nginx");
    const pr = await formProblems(p.page, 0);
    checkEqual(pr.heading, "No problems", "all errors cleared");
    checkEqual(await p.page.locator('[aria-invalid="true"]').count(), 0, "no aria-invalid left");
  } finally { await p.close(); }
});

test("C chart: typing never flashes errors on unrelated fields", async () => {
  const p = await open(form("chart"));
  try {
    const rc = await setField(p.page, "replicaCount", "0");
    await until(() => rc.getAttribute("aria-invalid"), (v) => v === "true", 3000, "replicaCount invalid first");
    const c = await reveal(p.page, "image.tag");
    await p.page.evaluate(() => {
      window.__flash = [];
      new MutationObserver((ms) => { for (const m of ms) if (m.attributeName === "aria-invalid" && m.oldValue !== "true" && m.target.getAttribute("aria-invalid") === "true") window.__flash.push(m.target.id); })
        .observe(document.body, { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ["aria-invalid"] });
    });
    await c.click();
    await c.press("End");
    await c.pressSequentially("-rc1", { delay: 20 });
    await p.page.waitForTimeout(300);
    checkEqual(await p.page.evaluate(() => window.__flash), [], "no field became invalid while typing a valid tag");
    const pr = await problems(p.page);
    checkEqual(pr.items.map((i) => i.text), ["replicaCount: 0 is less than the minimum of 1"], "only the earlier error");
  } finally { await p.close(); }
});

test("C chart: clearing an optional field removes the key; a required string keeps \"\"", async () => {
  const p = await open(form("chart"));
  try {
    await setField(p.page, "fullnameOverride", "x");
    await until(() => preview(p.page), (t) => /fullnameOverride: x/.test(t), 3000, "fullnameOverride in the preview");
    await setField(p.page, "fullnameOverride", "");
    const y = await until(() => preview(p.page), (t) => !/fullnameOverride/.test(t), 3000, "fullnameOverride gone");
    const v = (await loadValues(y))[0] || {};
    check(!("fullnameOverride" in v), "the cleared optional key is absent (not \"\", not null)");
    await setField(p.page, "clusterDomain", "");
    const y2 = await until(() => preview(p.page), (t) => /clusterDomain/.test(t), 3000, "clusterDomain in the preview");
    checkEqual(((await loadValues(y2))[0] || {}).clusterDomain, "", "the required string keeps \"\"");
    checkEqual((await problems(p.page)).heading, "No problems", "\"\" is valid for clusterDomain");
  } finally { await p.close(); }
});

// ---- keyword table: imported values (Problems = validate) --------------------------
const IMPORTED = [
  ["enum", "image:\n  pullPolicy: Sometimes\n"],
  ["enum ok", "image:\n  pullPolicy: Always\n"],
  ["const", "schemaVersion: 3\n"],
  ["const ok", "schemaVersion: 2\n"],
  ["uniqueItems", "tags: [a, a]\n"],
  ["uniqueItems ok", "tags: [a, b]\n"],
  ["minItems", "tags: []\n"],
  ["maxItems", "tags: [a, b, c, d]\n"],
  ["maxItems ok", "tags: [a, b, c]\n"],
  ["minProperties", "selector:\n  app: null\n"],
  ["minProperties ok", "selector:\n  tier: db\n"],
  ["required", "image:\n  repository: null\nclusterDomain: null\n"],
  ["required ok", "clusterDomain: example.org\n"],
  ["dependentRequired", "tls:\n  certFile: a.pem\n"],
  ["dependentRequired ok", "tls:\n  certFile: a.pem\n  keyFile: a.key\n"],
  ["pattern", "image:\n  repository: UPPER\n"],
  ["minLength", "image:\n  repository: \"\"\n"],
  ["exclusiveMaximum", "service:\n  port: 65536\n"],
  ["multipleOf", "cpuShares: 0.3\n"],
  ["if/then", "ingress:\n  enabled: true\n"],
  ["if/then ok", "ingress:\n  enabled: true\n  className: nginx\n"],
  ["dependentSchemas", "metrics:\n  interval: 30s\n"],
  ["dependentSchemas ok", "metrics:\n  interval: 30s\n  scrapeTimeout: 10s\n"],
  ["oneOf", "storage:\n  kind: hostPath\n"],
  ["patternProperties", "labels:\n  Bad: x\n"],
  ["additionalProperties", "replicaCont: 2\n"],
  ["nested array item", "ingress:\n  hosts:\n    - host: -bad-\n      path: nope\n"],
];

async function importCase(p, source, file, label) {
  const want = expected(validate(source, [file]));
  await p.page.reload({ waitUntil: "domcontentloaded" });
  await p.page.waitForSelector('html[data-ready="1"]', { state: "attached" });
  await importText(p.page, fs.readFileSync(file, "utf8"), path.basename(file));
  const pr = await formProblems(p.page, want.length);
  const got = pr.items.map((i) => i.text);
  return { want, got, heading: pr.heading, same: JSON.stringify([...got].sort()) === JSON.stringify([...want].sort()) && pr.heading === heading(want.length), label };
}

test("C chart: each keyword fails and passes as validate says (imported)", async () => {
  const p = await open(form("chart"));
  try {
    for (const [label, text] of IMPORTED) {
      const r = await importCase(p, SOURCES.chart, writeTmp(`kw-${label.replace(/\W+/g, "_")}.yaml`, text), label);
      if (/ ok$/.test(label)) checkEqual(r.want, [], `${label}: validate accepts`);
      else check(r.want.length > 0, `${label}: validate rejects`);
      checkEqual({ heading: r.heading, items: [...r.got].sort() }, { heading: heading(r.want.length), items: [...r.want].sort() }, `${label}: Problems == validate`);
    }
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

// ---- the parity table through "Import values" -----------------------------------------

async function parityTable() {
  const rows = [];   // [source, [files], extra form args]
  const inv = path.join(ROOT, "tests/rules/invalid");
  // stream.yaml holds several documents: validate checks each, a form imports one values file
  rows.push([path.join(inv, "schema.json"), fs.readdirSync(inv).filter((f) => f !== "schema.json" && f !== "stream.yaml").sort().map((f) => path.join(inv, f)), []]);
  const chart = path.join(ROOT, "tests/rules/chart");
  rows.push([chart, fs.readdirSync(path.join(ROOT, "tests/rules/chart-values")).sort().map((f) => path.join(ROOT, "tests/rules/chart-values", f)), []]);
  const charts = path.join(CORPUS, "charts");
  if (fs.existsSync(charts)) {
    for (const name of fs.readdirSync(charts).sort()) {
      const dir = path.join(charts, name);
      if (name.startsWith("_") || name.startsWith("bjw-s") || name.startsWith("teutonet")) continue;
      if (!fs.existsSync(path.join(dir, "values.schema.json")) && !fs.existsSync(path.join(dir, "values.schema.yaml"))) continue;
      const ci = path.join(dir, "ci");
      const files = fs.existsSync(ci) ? fs.readdirSync(ci).filter((x) => /\.ya?ml$/.test(x)).sort().map((f) => path.join(ci, f)) : [];
      // and the chart's own values.yaml imported over itself (no change: validate's verdict on the defaults)
      rows.push([dir, [path.join(dir, "values.yaml"), ...files], []]);
    }
  }
  // CRDs: a generated good and bad manifest of the version the form opens with (the first served one)
  const crds = [SOURCES.crd];
  for (const f of ["cert-manager.io_certificates.yaml", "argoproj.io_appprojects.yaml", "monitoring.coreos.com_servicemonitors.yaml"])
    if (fs.existsSync(path.join(CORPUS, "crds", f))) crds.push(path.join(CORPUS, "crds", f));
  for (const file of crds) {
    const crd = (await loadValues(fs.readFileSync(file, "utf8"))).find((d) => d && d.kind === "CustomResourceDefinition");
    const ver = crd.spec.versions.find((v) => v.storage) || crd.spec.versions[0];
    const { good, bad } = instances(ver.schema.openAPIV3Schema, `${crd.spec.group}/${ver.name}`, crd.spec.names.kind);
    const made = [["good", good], ["bad", bad]].map(([tag, inst]) => writeTmp(`${path.basename(file, ".yaml")}-${tag}.json`, JSON.stringify(inst, null, 1)));
    rows.push([file, made, []]);
  }
  // ytt schemas: the defaults spoiled, as an overlay
  const ytts = [SOURCES.ytt];
  for (const d of ["carvel-ytt-examples/schema/schema.yml", "tanzu-community-edition/contour-1.22.3/schema.yaml", "tanzu-community-edition/metrics-server-0.6.2/schema.yaml"])
    if (fs.existsSync(path.join(CORPUS, "ytt", d))) ytts.push(path.join(CORPUS, "ytt", d));
  for (const schema of ytts) {
    const text = fs.readFileSync(schema, "utf8").split("\n").filter((l) => !/^\s*#@/.test(l)).join("\n");
    const defaults = (await loadValues(text)).find((d) => d && typeof d === "object") || {};
    rows.push([schema, [writeTmp(`${path.basename(path.dirname(schema))}-${path.basename(schema)}-spoiled.json`, JSON.stringify(spoil(defaults), null, 1))], []]);
  }
  return rows;
}

test("C parity: every values file of the rules' parity table, imported, shows validate's errors", { timeout: 600000 }, async () => {
  for (const [source, files, extra] of await parityTable()) {
    const file = form(source, extra);
    const p = await open(file, { readyTimeout: 30000 });
    try {
      for (const f of files) {
        parityTotal++;
        const r = await importCase(p, source, f, `${path.basename(source)} + ${path.basename(f)}`);
        if (r.same) paritySame++;
        else parityMisses.push(`${r.label}: form ${JSON.stringify(r.got).slice(0, 400)} / validate ${JSON.stringify(r.want).slice(0, 400)}`);
      }
    } finally { await p.close(); }
  }
  check(parityTotal >= 12, `parity table has ${parityTotal} files`);
  checkEqual(parityMisses, [], `parity ${paritySame}/${parityTotal}`);
});
