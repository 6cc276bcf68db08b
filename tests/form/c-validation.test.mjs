// SPDX-License-Identifier: Apache-2.0
// C. Validation (../shared/design/form.md): the form's errors equal
// `schemadoc validate --output json` on the same values; errors appear after
// interaction, not on a pristine load, and clear when the value is valid;
// clearing an optional field removes the key; one failing and one passing
// case for each keyword; the parity table of the rules (tests/js/parity.test.mjs,
// docs/rules.md) loaded through "Import values": Problems == validate.
import { after } from "node:test";
import fs from "node:fs";
import path from "node:path";
import {
  test,
  form, open, closeBrowser, signal, checked, check, checkEqual, checksDone, setField, importText, preview, problems, until,
  validate, writeTmp, SOURCES, CORPUS, ROOT, reveal, loadValues, hygiene, run, SD, SD_REL, TMP,
} from "./harness.mjs";

let parityTotal = 0, paritySame = 0, parityNote = "";
const parityMisses = [];
after(async () => {
  console.log(`count: form C validation checks ${checksDone()}`);
  console.log(`count: form parity ${paritySame}/${parityTotal} identical${parityNote}`);
  if (parityCapped.length) console.log(`figure: form parity cases with more errors than the Problems list shows: ${parityCapped.join("; ")}`);
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
// the plain schema's empty document lacks its required `name`: the heading
// says so (issue 33: "No problems" only when there are none); no field is
// marked before it is touched
const AT_LOAD = { schema: ["The empty document has 1 problem", 1] };
for (const kind of ["chart", "noschema", "ytt", "crd", "schema", "hostile"]) {
  test(`C ${kind}: a pristine load shows no errors`, async () => {
    const p = await open(form(kind));
    try {
      const pr = await problems(p.page);
      const [head, n] = AT_LOAD[kind] || ["No problems", 0];
      checkEqual(pr.heading, head, `${kind}: heading`);
      checkEqual(pr.items.length, n, `${kind}: entries`);
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
    const n0 = await signal(p.page, "checks");
    await c.click();
    await c.press("End");
    await c.pressSequentially("-rc1", { delay: 20 });
    await checked(p.page, n0);   // the update after the last keystroke ran
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
// The cases are the rules' parity table's (tests/js/paritycases.mjs, shared with
// tests/js/parity.test.mjs). A case of the rules table is one result of
// `validate --output json` (a chart: one per entry, its subcharts included; a
// schema or CRD file: one per document). Each is loaded into the form page of
// its source as a person would: the chart's values.yaml imported over itself
// for the defaults, the values files imported one after the other (import
// merges over the current values as Helm merges -f files), a CRD's version
// chosen in the "Version" select before its manifest is imported. Problems must
// list exactly validate's errors (lint findings, keywords unknownKey and
// deprecated, are not the validator's and are left out, as the rules' parity
// does). One page per source, reloaded between cases.
const LINT = new Set(["unknownKey", "deprecated"]);
const PROBLEMS_SHOWN = 500;   // src/form/form_check.js drawProblems
const parityCapped = [];
const notLoadable = new Map();   // reason -> [labels]
function cannot(reason, label, n = 1) {
  if (!notLoadable.has(reason)) notLoadable.set(reason, []);
  for (let i = 0; i < n; i++) notLoadable.get(reason).push(label);
}
// "PATH: message" lines of one result of validate (a subchart's keys under its alias)
function lines(r) {
  const sub = / \(subchart ([^)]+)\)$/.exec(r.file || "");
  return r.errors.filter((e) => !LINT.has(e.keyword)).map((e) => `${contractPath(e.path, sub ? [sub[1]] : [])}: ${e.message}`);
}
const prefixOf = (r) => { const sub = / \(subchart ([^)]+)\)$/.exec(r.file || ""); return sub ? contractPath("", [sub[1]]) : ""; };

// remote $refs of the corpus from its local copies, as tests/js/parity.test.mjs reads them
const MAPS = ["--map", `https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/=${CORPUS}/kubernetes/`,
  "--map", `https://raw.githubusercontent.com/=${CORPUS}/charts/_remote/raw.githubusercontent.com/`, "--offline",
  "--cache-dir", path.join(TMP, "cache"),
  // the Kubernetes types are a layer of the C validate the interpreter does
  // not run (docs/k8s.md): compared without it
  "--k8s-types", "off"];
function validateMapped(source, files) {
  const r = run(fs.existsSync(SD_REL) ? SD_REL : SD, ["validate", source, ...files, "--output", "json", ...MAPS]);
  if (!r.out) throw new Error(`validate ${source} ${files.join(" ")}: ${r.status} ${r.err}`);
  return JSON.parse(r.out);
}
async function freshPage(p) {
  await p.page.reload({ waitUntil: "domcontentloaded" });
  await p.page.waitForSelector('html[data-ready="1"]', { state: "attached" });
}
async function chooseVersion(page, version) {
  const value = await page.evaluate((v) => {
    const sel = document.getElementById("sd-version");
    const o = sel && [...sel.options].find((x) => x.textContent.split(" ")[0] === v);
    return o ? o.value : null;
  }, version);
  if (value === null) throw new Error(`no version ${version} in the "Version" select`);
  await page.getByLabel("Version", { exact: true }).selectOption(value);
}
// load FILES (in order) into the fresh page, compare Problems with the results of validate
async function formCase(p, source, files, label, version) {
  const results = validateMapped(source, files);
  const want = results.flatMap(lines);
  await freshPage(p);
  if (version) await chooseVersion(p.page, version);
  for (const f of files) await importText(p.page, fs.readFileSync(f, "utf8"), path.basename(f));
  const pr = await formProblems(p.page, want.length);
  const got = pr.items.map((i) => i.text);
  // the Problems list shows the first PROBLEMS_SHOWN errors (the heading counts them all):
  // beyond that, the shown ones must be validate's first ones, in validate's order
  const capped = want.length > PROBLEMS_SHOWN;
  const same = pr.heading === heading(want.length) && (capped
    ? JSON.stringify(got) === JSON.stringify(want.slice(0, PROBLEMS_SHOWN))
    : JSON.stringify([...got].sort()) === JSON.stringify([...want].sort()));
  if (capped) parityCapped.push(`${label} (${want.length} errors, first ${PROBLEMS_SHOWN} shown${same ? "" : ", NOT validate's first"})`);
  // per result (entry): the form's lines under the entry's alias, the rest the chart's own
  const prefixes = results.map(prefixOf);
  const owner = (line) => {
    let best = -1;
    prefixes.forEach((pre, i) => { if (pre && (line.startsWith(pre + ".") || line.startsWith(pre + "[") || line.startsWith(pre + ":")) && (best < 0 || pre.length > prefixes[best].length)) best = i; });
    return best >= 0 ? best : prefixes.indexOf("");
  };
  const perResult = capped ? results.map(() => same) : results.map((r, i) => {
    const w = lines(r).sort(), g = got.filter((l) => owner(l) === i).sort();
    return same || JSON.stringify(w) === JSON.stringify(g);
  });
  return { label, same, want, got, heading: pr.heading, results: results.length, identical: perResult.filter(Boolean).length };
}

async function parityTable() {
  const { parityCases, documentsOf } = await import("../js/paritycases.mjs");
  return { ...parityCases({ SD: fs.existsSync(SD_REL) ? SD_REL : SD, CORPUS, TMP, ROOT }), documentsOf };
}

test("C parity: every case of the rules' parity table a form can load shows validate's errors", { timeout: 1800000 }, async () => {
  const { cases, skipped, documentsOf } = await parityTable();
  if (skipped) console.log("SKIPPED: " + skipped);
  const pages = new Map();   // one page per source
  const page = async (source) => {
    if (!pages.has(source)) pages.set(source, await open(form(source, MAPS), { readyTimeout: 60000 }));
    return pages.get(source);
  };
  const tally = (r) => {
    parityTotal += r.results; paritySame += r.identical;
    if (r.identical < r.results) {
      const only = (a, b) => { const m = new Map(); for (const x of b) m.set(x, (m.get(x) || 0) + 1); return a.filter((x) => { const c = m.get(x) || 0; if (c) { m.set(x, c - 1); return false; } return true; }); };
      parityMisses.push(`${r.label}: heading "${r.heading}", ${r.got.length} in the form, ${r.want.length} from validate; only in the form ${JSON.stringify(only(r.got, r.want)).slice(0, 500)}; only from validate ${JSON.stringify(only(r.want, r.got)).slice(0, 500)}`);
    }
  };
  try {
    // FORM_PARITY_ONLY=REGEX: only the cases whose label matches (to look at one)
    const only = process.env.FORM_PARITY_ONLY ? new RegExp(process.env.FORM_PARITY_ONLY) : null;
    for (const k of cases.filter((c) => !only || only.test(c.label))) {
      if (k.failed) { cannot("schemadoc rules failed on the source", k.label); continue; }
      const p = await page(k.source);
      if (k.kind === "chart") {
        const vy = path.join(k.source, "values.yaml");
        const files = k.files.length ? k.files : fs.existsSync(vy) ? [vy] : [];
        tally(await formCase(p, k.source, files, k.label));
      } else if (k.kind === "ytt") {
        tally(await formCase(p, k.source, k.files, k.label));
      } else {
        for (const [i, f] of k.files.entries()) {
          const n = documentsOf(f);
          if (n !== 1) { cannot("a multi-document stream (validate checks each document, a form holds one)", `${k.label}: ${path.basename(f)}`, n); continue; }
          tally(await formCase(p, k.source, [f], `${k.label}: ${path.basename(f)}`, k.crd ? k.crd[i].version : null));
        }
      }
    }
    for (const p of pages.values()) checkEqual(await hygiene(p), [], `hygiene of ${p.url}`);
  } finally {
    for (const p of pages.values()) await p.close();
  }
  const k = [...notLoadable.values()].reduce((n, l) => n + l.length, 0);
  parityNote = ` (${k} cases of the rules table not loadable: ${[...notLoadable].map(([why, l]) => `${l.length} ${why}: ${[...new Set(l)].join(", ")}`).join("; ") || "none"})`;
  check(parityTotal >= 90, `parity table has ${parityTotal} cases`);
  checkEqual(parityMisses, [], `parity ${paritySame}/${parityTotal}`);
});
