// SPDX-License-Identifier: Apache-2.0
// tests/js-form/k8s_layer.test.mjs - validate's Kubernetes layer in the form
// (src/form/k8s_check.js) against `schemadoc validate` itself: the chart
// tests/form/fixtures/chart-k8s-own ships a schema that leaves `resources`
// open and says nothing of `affinity`; its rules document carries the layer
// ("k8s"). For a table of values files, each finding the form's layer makes
// (path, message, error or warning) must be one `validate --output json`
// makes, and the other way round. tests/suite-form.sh bundles and runs it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseValues } from "../../src/form/form_yaml.js";
import { K8sLayer } from "../../src/form/k8s_check.js";

const SD = process.env.SD || path.resolve("schemadoc");
const CHART = path.resolve("tests/form/fixtures/chart-k8s-own");
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "k8slayer-"));
// YAML as Helm reads values (1.1: `y` is a boolean), as the form imports them
const parse = (t) => parseValues(t).value;
const run = (args) => {
  try { return execFileSync(SD, args, { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 26 }).toString(); }
  catch (e) { return e.stdout ? e.stdout.toString() : ""; }
};

const CASES = [
  "resources:\n  limits:\n    cpu: 2 cores\n  limts:\n    memory: 1Gi\naffinity:\n  nodeAfinity: {}\n",
  "resources:\n  limits:\n    cpu: 500m\n    memory: 1Gi\n  requests:\n    cpu: 0.25\n",
  "resources:\n  limits: [1, 2]\n  claims:\n    - {}\n    - name: x\n      request: y\n      extra: 1\n",
  "affinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n      nodeSelectorTerms:\n        - matchExpressions:\n            - key: zone\n              operator: Inn\n              values: [a]\n",
  "affinity:\n  podAntiAffinity:\n    preferredDuringSchedulingIgnoredDuringExecution:\n      - weight: \"100\"\n        podAffinityTerm:\n          topologyKey: 5\n      - weight: 3000000000\n        podAffinityTerm: {topologyKey: zone}\n",
  "resources:\n  limits:\n    cpu: \"{{ .Values.cpu }}\"\n    memory: null\naffinity: null\n",
  "resources: 5\naffinity: [a]\n",
];

test("the form's Kubernetes layer makes validate's findings", () => {
  const rules = JSON.parse(run(["rules", CHART]));
  assert.ok(rules.k8s && rules.k8s.keys.length === 2, "the rules carry the layer: resources and affinity");
  const layer = new K8sLayer(rules.k8s, rules.named);
  const defaults = parse(fs.readFileSync(path.join(CHART, "values.yaml"), "utf8"));
  let compared = 0;
  CASES.forEach((text, i) => {
    const f = path.join(TMP, `case${i}.yaml`);
    fs.writeFileSync(f, text);
    const r = JSON.parse(run(["validate", CHART, f, "--output", "json"]))[0];
    const want = r.errors.concat(r.warnings).filter((e) => e.keyword === "kubernetes")
      .map((e) => (r.warnings.includes(e) ? "W " : "E ") + e.path + " " + e.message).sort();
    // the values as validate merges them: the user's file over values.yaml
    // (the defaults here are empty maps, so a shallow overlay is Helm's merge)
    const user = parse(text) || {};
    const values = Object.assign({}, defaults, user);
    for (const k of Object.keys(values)) if (values[k] === null) delete values[k];
    // a place the schema spoke of gets no second finding (form_check.js, check_k8s.c)
    const spoken = new Set(r.errors.concat(r.warnings).filter((e) => e.keyword !== "kubernetes").map((e) => e.path));
    const got = layer.check(values).filter((e) => !spoken.has(e.path)).map((e) => (e.warning ? "W " : "E ") + e.path + " " + e.message).sort();
    assert.deepEqual(got, want, `case ${i}:\n${text}`);
    compared += want.length;
  });
  assert.ok(compared >= 12, `findings compared: ${compared}`);
  console.log(`figure: k8s layer: the form's findings equal validate's on ${CASES.length} files (${compared} findings)`);
});
