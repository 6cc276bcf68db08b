// SPDX-License-Identifier: Apache-2.0
// paritycases.mjs - the case list of the parity table, shared by the rules'
// parity (tests/js/parity.test.mjs: `validate --output json` == rules.js) and
// the form's (tests/form/c-validation.test.mjs: the same files imported into
// the form page == validate), so the two tables cannot drift. Each case:
//   { kind: "chart" | "file" | "ytt", label, source, files: [paths],
//     crd: [{ entry, group, version, kind, tag }] (kind "file" of a CRD, one per file),
//     notInForm: reason (when a form page cannot load the case as it is) }
// kind "chart": validate SOURCE FILES... (the files merged over values.yaml);
// kind "file": one result per document of each file (a schema or a CRD);
// kind "ytt": validate SCHEMA FILE (the file merged over the schema's defaults).
// Generated files (spoiled copies, CRD instances) are written under TMP.
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { loadValuesFile } from "./yamlvalues.mjs";
import { instances, spoil } from "./crdgen.mjs";

function rulesOf(SD, source) {
  try {
    return JSON.parse(execFileSync(SD, ["rules", source], { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 }).toString());
  } catch (e) {
    return { failed: e.stderr ? e.stderr.toString() : String(e) };
  }
}

// the documents of a values file as schemadoc counts them
export function documentsOf(file) {
  return loadValuesFile(file, fs.readFileSync(file, "utf8")).length;
}

export function parityCases({ SD, CORPUS, TMP, ROOT = "." }) {
  const cases = [];
  const inv = path.join(ROOT, "tests/rules/invalid");
  const files = fs.readdirSync(inv).filter((f) => f !== "schema.json").sort().map((f) => path.join(inv, f));
  cases.push({ kind: "file", label: "invalid", source: path.join(inv, "schema.json"), files });
  const chart = path.join(ROOT, "tests/rules/chart"), cv = path.join(ROOT, "tests/rules/chart-values");
  cases.push({ kind: "chart", label: "chart", source: chart, files: [] });
  for (const f of fs.readdirSync(cv).sort()) cases.push({ kind: "chart", label: `chart + ${f}`, source: chart, files: [path.join(cv, f)] });
  cases.push({ kind: "chart", label: "chart + bad.yaml + null-delete.yaml", source: chart, files: [path.join(cv, "bad.yaml"), path.join(cv, "null-delete.yaml")] });
  if (!fs.existsSync(path.join(CORPUS, "charts"))) return { cases, skipped: "no corpus at " + CORPUS };

  // charts with a schema (bjw-s: validate cannot open their relative refs under a remote $id offline)
  for (const name of fs.readdirSync(path.join(CORPUS, "charts")).sort()) {
    const dir = path.join(CORPUS, "charts", name);
    if (name.startsWith("_") || name.startsWith("bjw-s") ||
        !fs.existsSync(path.join(dir, "values.schema.json")) && !fs.existsSync(path.join(dir, "values.schema.yaml"))) continue;
    cases.push({ kind: "chart", label: name, source: dir, files: [] });
    // the chart's own values, spoiled: wrong types, typos, on its real schema
    const vy = path.join(dir, "values.yaml");
    if (fs.existsSync(vy)) {
      const bad = path.join(TMP, `${name}-spoiled.json`);
      fs.writeFileSync(bad, JSON.stringify(spoil(loadValuesFile(vy, fs.readFileSync(vy, "utf8"))[0].value || {})));
      cases.push({ kind: "chart", label: `${name} + spoiled`, source: dir, files: [bad] });
    }
    const ci = path.join(dir, "ci");
    if (fs.existsSync(ci))
      for (const f of fs.readdirSync(ci).filter((x) => /\.ya?ml$/.test(x)).sort())
        cases.push({ kind: "chart", label: `${name} + ${f}`, source: dir, files: [path.join(ci, f)] });
  }
  // CRDs: good and bad instances of each version
  for (const name of fs.readdirSync(path.join(CORPUS, "crds")).filter((x) => /\.ya?ml$/.test(x)).sort()) {
    const file = path.join(CORPUS, "crds", name);
    const rules = rulesOf(SD, file);
    if (rules.failed) { cases.push({ kind: "file", label: `crd ${name}`, source: file, files: [], failed: rules.failed }); continue; }
    const made = [], crd = [];
    const docs = loadValuesFile(file, fs.readFileSync(file, "utf8")).map((d) => d.value);
    for (const [entry, e] of Object.entries(rules.entries)) {
      // the version's schema as the generator's guide: rebuild it from the CRD file
      const doc = docs.find((d) => d && d.spec && d.spec.group === e.group);
      const ver = doc.spec.versions.find((x) => x.name === e.version);
      const schema = (ver.schema || doc.spec.validation || {}).openAPIV3Schema;
      const { good, bad } = instances(schema, `${e.group}/${e.version}`, e.kind);
      for (const [tag, inst] of [["good", good], ["bad", bad]]) {
        const f = path.join(TMP, `${name}-${entry.replace(/[^a-z0-9]/gi, "_")}-${tag}.json`);
        fs.writeFileSync(f, JSON.stringify(inst, null, 1));
        made.push(f);
        crd.push({ entry, group: e.group, version: e.version, kind: e.kind, tag });
      }
    }
    cases.push({ kind: "file", label: `crd ${name}`, source: file, files: made, crd });
  }
  // ytt schemas: defaults, and a spoiled overlay
  const yttFiles = execFileSync("grep", ["-rl", "--include=*.yml", "--include=*.yaml", "#@data/values-schema", path.join(CORPUS, "ytt")]).toString().trim().split("\n").sort();
  const empty = path.join(TMP, "empty.yaml");
  fs.writeFileSync(empty, "");
  yttFiles.forEach((schema, i) => {
    const rel = path.relative(CORPUS, schema);
    const rules = rulesOf(SD, schema);
    if (rules.failed) { cases.push({ kind: "ytt", label: `ytt ${rel}`, source: schema, files: [], failed: rules.failed }); return; }
    const e = rules.entries.values;
    const bad = path.join(TMP, `ytt-bad-${i}.json`);
    fs.writeFileSync(bad, JSON.stringify(spoil(e.defaults || {})));
    cases.push({ kind: "ytt", label: `ytt ${rel} defaults`, source: schema, files: [empty], defaults: e.defaults, defaultsTexts: e.defaultsTexts });
    cases.push({ kind: "ytt", label: `ytt ${rel} spoiled`, source: schema, files: [bad], defaults: e.defaults, defaultsTexts: e.defaultsTexts });
  });
  return { cases };
}
