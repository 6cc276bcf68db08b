// SPDX-License-Identifier: Apache-2.0
// parity.test.mjs - the parity table: `schemadoc validate --output json` and
// src/form/rules.js on the same files must give identical error lists (path,
// key, keyword, message, schema location and pointer; warnings; fatal
// errors), result by result. The cases:
//   - every corpus chart with a schema: its values.yaml, then each CI values
//     file (ci/*.yaml) merged over it, as validate merges them;
//   - every CRD of the corpus, each version: a generated good and bad instance;
//   - every ytt schema of the corpus: its defaults, and a spoiled overlay;
//   - a hand-made invalid set (tests/rules/invalid: wrong type, enum miss,
//     unknown key with a typo, nested array item, oneOf with no match,
//     pattern miss, numbers as written, a YAML stream, JSON) and a chart with
//     subcharts (tests/rules/chart with tests/rules/chart-values).
// Values are read in JS as schemadoc reads them (yamlvalues.mjs, jsontext.mjs)
// and merged with rules.js's mergeValues; texts carry the numbers' text.
// Prints "count: parity N/N identical".
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { compile, mergeValues } from "../../src/form/rules.js";
import { loadValuesFile } from "./yamlvalues.mjs";
import { parityCases } from "./paritycases.mjs";

const SD = process.env.SD_REL && fs.existsSync(process.env.SD_REL) ? process.env.SD_REL : process.env.SD || "./schemadoc";
const CORPUS = process.env.CORPUS || "../shared/corpus";
const tmp = fs.mkdtempSync(path.join(process.env.SD_TMP || "/tmp", "parity-"));
const MAPS = ["--map", `https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/=${CORPUS}/kubernetes/`,
  "--map", `https://raw.githubusercontent.com/=${CORPUS}/charts/_remote/raw.githubusercontent.com/`, "--offline",
  "--cache-dir", path.join(tmp, "cache"),
  // the Kubernetes types are a layer of the C validate the interpreter does
  // not run (docs/k8s.md): compared without it
  "--k8s-types", "off"];

function run(args) {
  try {
    return { out: execFileSync(SD, args, { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 }).toString(), status: 0 };
  } catch (e) {
    return { out: e.stdout ? e.stdout.toString() : "", status: e.status, err: e.stderr ? e.stderr.toString() : "" };
  }
}

const strip = (e) => ({ path: e.path, key: e.key, keyword: e.keyword, message: e.message,
  schemaLocation: e.schemaLocation !== undefined ? e.schemaLocation : e.schema_at, schemaPath: e.schemaPath });

// texts of a merge: the over file's numbers win where it defines a value
function mergeTexts(baseTexts, over, overTexts) {
  const lookup = (v, ptr) => {
    if (ptr === "") return v;
    for (const seg of ptr.split("/").slice(1)) {
      const k = seg.replace(/~1/g, "/").replace(/~0/g, "~");
      if (v === null || typeof v !== "object" || !Object.prototype.hasOwnProperty.call(v, k)) return undefined;
      v = v[k];
    }
    return v;
  };
  const t = new Map(overTexts);
  for (const [p, x] of baseTexts) if (!t.has(p) && lookup(over, p) === undefined) t.set(p, x);
  return t;
}

const isMap = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const results = [];   // [label, identical, detail]

// `validate` lists findings by position (file, line, column) and adds the
// lint of check.c (keys nobody knows, deprecated keys: keywords unknownKey
// and deprecated), which is not the validator's: the interpreter is held to
// the validator's findings, compared in one canonical order.
const LINT = new Set(["unknownKey", "deprecated"]);
const canon = (list) => list.map((e) => [JSON.stringify(e), e]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((x) => x[1]);

function compare(label, cResult, jsList) {
  const js = canon(jsList.filter((e) => !e.warning && !e.fatal).map(strip));
  const jw = canon(jsList.filter((e) => e.warning).map(strip));
  const jf = jsList.filter((e) => e.fatal);
  const c = canon(cResult.errors.filter((e) => !LINT.has(e.keyword)).map(strip));
  const cw = canon((cResult.warnings || []).filter((e) => !LINT.has(e.keyword)).map(strip));
  const cf = cResult.inputErrors || [];
  let same = JSON.stringify(js) === JSON.stringify(c) && JSON.stringify(jw) === JSON.stringify(cw) && cResult.valid === jsList.valid;
  if (same && (jf.length || cf.length)) same = jf.length === 1 && cf.some((l) => l.endsWith(jf[0].message));
  results.push([label, same, same ? null : { js: js.concat(jw, jf), c: c.concat(cw), cInput: cf }, c.length, cw.length, cf.length]);
}

function chartCase(dir, files, label) {
  const r = run(["validate", dir, ...files, "--output", "json", ...MAPS]);
  const c = JSON.parse(r.out || "[]");
  const rr = run(["rules", dir, ...MAPS]);
  if (rr.status !== 0) { results.push([label, false, { rulesFailed: rr.err }]); return; }
  const v = compile(JSON.parse(rr.out));
  let value = null, texts = new Map();
  const vy = path.join(dir, "values.yaml");
  if (fs.existsSync(vy)) {
    const d = loadValuesFile(vy, fs.readFileSync(vy, "utf8"))[0];
    if (isMap(d.value)) { value = d.value; texts = d.texts; }
  }
  for (const f of files) {
    const d = loadValuesFile(f, fs.readFileSync(f, "utf8"))[0];
    if (isMap(d.value)) { texts = mergeTexts(texts, d.value, d.texts); value = mergeValues(value, d.value); }
  }
  if (value === null) value = {};
  const names = [...v.entries.keys()];
  assert.equal(c.length, names.length, `${label}: ${c.length} results from C, ${names.length} entries`);
  names.forEach((entry, i) => compare(`${label} [${entry}]`, c[i], v.validate(value, { entry, texts })));
}

function fileCase(source, files, label) {
  const r = run(["validate", source, ...files, "--output", "json", ...MAPS]);
  const c = JSON.parse(r.out || "[]");
  const rr = run(["rules", source, ...MAPS]);
  if (rr.status !== 0) { results.push([label, false, { rulesFailed: rr.err }]); return; }
  const v = compile(JSON.parse(rr.out));
  let k = 0;
  for (const f of files) {
    for (const d of loadValuesFile(f, fs.readFileSync(f, "utf8"))) {
      const value = d.value === null ? {} : d.value;
      compare(`${label}: ${path.basename(f)}#${k}`, c[k], v.validate(value, { texts: d.texts }));
      k++;
    }
  }
  assert.equal(k, c.length, `${label}: ${c.length} results from C, ${k} documents`);
}

function yttCase(schema, files, label) {
  const r = run(["validate", schema, ...files, "--output", "json"]);
  const c = JSON.parse(r.out || "[]");
  const rr = run(["rules", schema]);
  if (rr.status !== 0) { results.push([label, false, { rulesFailed: rr.err }]); return; }
  const rules = JSON.parse(rr.out);
  const v = compile(rules);
  const e = rules.entries.values;
  let value = e.defaults, texts = new Map(Object.entries(e.defaultsTexts || {}));
  for (const f of files) {
    const d = loadValuesFile(f, fs.readFileSync(f, "utf8"))[0];
    if (isMap(d.value)) { texts = mergeTexts(texts, d.value, d.texts); value = mergeValues(value, d.value); }
  }
  compare(label, c[0], v.validate(value === null ? {} : value, { texts }));
}


test("parity: C validate and the JS interpreter give identical lists", { timeout: 900000 }, () => {
  // the cases: tests/js/paritycases.mjs (shared with the form's parity, tests/form/c-validation.test.mjs)
  const { cases, skipped } = parityCases({ SD, CORPUS, TMP: tmp });
  if (skipped) console.log("SKIPPED: " + skipped);
  for (const k of cases) {
    if (k.failed) results.push([k.label, false, { rulesFailed: k.failed }]);
    else if (k.kind === "chart") chartCase(k.source, k.files, k.label);
    else if (k.kind === "file") fileCase(k.source, k.files, k.label);
    else yttCase(k.source, k.files, k.label);
  }
  const same = results.filter((r) => r[1]).length;
  const nerr = results.reduce((n, r) => n + (r[3] || 0), 0), nwarn = results.reduce((n, r) => n + (r[4] || 0), 0);
  const ninvalid = results.filter((r) => r[3] > 0).length, nfatal = results.reduce((n, r) => n + (r[5] || 0), 0);
  console.log(`count: parity ${same}/${results.length} identical`);
  console.log(`figure: parity compared ${nerr} errors (${ninvalid} invalid results), ${nwarn} warnings, ${nfatal} fatal errors`);
  if (process.env.SD_PARITY_VERBOSE) for (const r of results) console.log(`  ${r[0]}: ${r[3]} errors, ${r[4]} warnings`);
  for (const [label, ok, detail] of results)
    if (!ok) console.log(`DIFFERS: ${label}\n  ${JSON.stringify(detail).slice(0, 3000)}`);
  assert.ok(results.length >= 60, `only ${results.length} cases`);
  assert.ok(nerr > 500 && ninvalid > 30, "too few errors compared to mean much");
  assert.equal(same, results.length);
});
