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
import { instances, spoil } from "./crdgen.mjs";

const SD = process.env.SD_REL && fs.existsSync(process.env.SD_REL) ? process.env.SD_REL : process.env.SD || "./schemadoc";
const CORPUS = process.env.CORPUS || "../shared/corpus";
const tmp = fs.mkdtempSync(path.join(process.env.SD_TMP || "/tmp", "parity-"));
const MAPS = ["--map", `https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/=${CORPUS}/kubernetes/`,
  "--map", `https://raw.githubusercontent.com/=${CORPUS}/charts/_remote/raw.githubusercontent.com/`, "--offline",
  "--cache-dir", path.join(tmp, "cache")];

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

function chartCase(dir, files) {
  const label = `${path.basename(dir)}${files.length ? " + " + files.map((f) => path.basename(f)).join(" + ") : ""}`;
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
  // hand-made set
  const inv = "tests/rules/invalid";
  const files = fs.readdirSync(inv).filter((f) => f !== "schema.json").sort().map((f) => path.join(inv, f));
  fileCase(path.join(inv, "schema.json"), files, "invalid");
  chartCase("tests/rules/chart", []);
  for (const f of fs.readdirSync("tests/rules/chart-values").sort()) chartCase("tests/rules/chart", [path.join("tests/rules/chart-values", f)]);
  chartCase("tests/rules/chart", ["tests/rules/chart-values/bad.yaml", "tests/rules/chart-values/null-delete.yaml"]);

  if (!fs.existsSync(path.join(CORPUS, "charts"))) {
    console.log("SKIPPED: no corpus at " + CORPUS);
  } else {
    // charts with a schema (bjw-s: validate cannot open their relative refs under a remote $id offline)
    for (const name of fs.readdirSync(path.join(CORPUS, "charts")).sort()) {
      const dir = path.join(CORPUS, "charts", name);
      if (name.startsWith("_") || name.startsWith("bjw-s") ||
          !fs.existsSync(path.join(dir, "values.schema.json")) && !fs.existsSync(path.join(dir, "values.schema.yaml"))) continue;
      chartCase(dir, []);
      // the chart's own values, spoiled: wrong types, typos, on its real schema
      const vy = path.join(dir, "values.yaml");
      if (fs.existsSync(vy)) {
        const bad = path.join(tmp, `${name}-spoiled.json`);
        fs.writeFileSync(bad, JSON.stringify(spoil(loadValuesFile(vy, fs.readFileSync(vy, "utf8"))[0].value || {})));
        chartCase(dir, [bad]);
      }
      const ci = path.join(dir, "ci");
      if (fs.existsSync(ci))
        for (const f of fs.readdirSync(ci).filter((x) => /\.ya?ml$/.test(x)).sort()) chartCase(dir, [path.join(ci, f)]);
    }
    // CRDs: good and bad instances of each version
    for (const name of fs.readdirSync(path.join(CORPUS, "crds")).filter((x) => /\.ya?ml$/.test(x)).sort()) {
      const file = path.join(CORPUS, "crds", name);
      const rr = run(["rules", file]);
      const rules = JSON.parse(rr.out);
      const made = [];
      for (const [entry, e] of Object.entries(rules.entries)) {
        // the version's schema as the generator's guide: rebuild it from the CRD file
        const crd = loadValuesFile(file, fs.readFileSync(file, "utf8")).map((d) => d.value)
          .find((d) => d && d.spec && d.spec.group === e.group);
        const ver = crd.spec.versions.find((x) => x.name === e.version);
        const schema = (ver.schema || crd.spec.validation || {}).openAPIV3Schema;
        const { good, bad } = instances(schema, `${e.group}/${e.version}`, e.kind);
        for (const [tag, inst] of [["good", good], ["bad", bad]]) {
          const f = path.join(tmp, `${name}-${entry.replace(/[^a-z0-9]/gi, "_")}-${tag}.json`);
          fs.writeFileSync(f, JSON.stringify(inst, null, 1));
          made.push(f);
        }
      }
      fileCase(file, made, `crd ${name}`);
    }
    // ytt schemas: defaults, and a spoiled overlay
    const yttFiles = execFileSync("grep", ["-rl", "--include=*.yml", "--include=*.yaml", "#@data/values-schema", path.join(CORPUS, "ytt")]).toString().trim().split("\n").sort();
    for (const schema of yttFiles) {
      const rr = run(["rules", schema]);
      if (rr.status !== 0) { results.push([`ytt ${schema}`, false, { rulesFailed: rr.err }]); continue; }
      const e = JSON.parse(rr.out).entries.values;
      const empty = path.join(tmp, "empty.yaml"), bad = path.join(tmp, "ytt-bad-" + results.length + ".json");
      fs.writeFileSync(empty, "");
      fs.writeFileSync(bad, JSON.stringify(spoil(e.defaults || {})));
      yttCase(schema, [empty], `ytt ${path.relative(CORPUS, schema)} defaults`);
      yttCase(schema, [bad], `ytt ${path.relative(CORPUS, schema)} spoiled`);
    }
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
