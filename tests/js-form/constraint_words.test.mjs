// SPDX-License-Identifier: Apache-2.0
// tests/js-form/constraint_words.test.mjs - the form says a field's
// constraints in the reference page's words: constraintWords
// (src/form/form_schema.js) reads the `words` column of keywords.def from
// src/form/rules_kw.js, as src/render/constraints.c reads it from the table.
// 1. every constraint row of the table: a schema holding it, the page's words
//    (`schemadoc --format html`) and the form's for the same model node
//    (`--format json`) are equal, and a row the page words is worded by the
//    form too; 2. the same comparison over every node of corpus schemas.
// Needs $SD (the schemadoc binary; default ./schemadoc) and $CORPUS.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { constraintWords } from "../../src/form/form_schema.js";
import { CONSTRAINTS, W_NONE, W_BOUNDS, W_RANGE, W_NUMBER, W_CODE, W_TRUE, W_OWN } from "../../src/form/rules_kw.js";

const SD = process.env.SD || path.resolve("schemadoc");
const CORPUS = path.resolve(process.env.CORPUS || "../shared/corpus");
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "cwords-"));

// the corpus's remote $refs from its local copies (as tests/suite-schema.sh reads them)
const MAPS = ["--offline", "--cache-dir", path.join(TMP, "cache"),
  "--map", `https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/=${CORPUS}/kubernetes/`,
  "--map", `https://raw.githubusercontent.com/=${CORPUS}/charts/_remote/raw.githubusercontent.com/`];
const run = (args) => execFileSync(SD, args.concat(MAPS), { maxBuffer: 1 << 28 }).toString();

// the page's words that do not come from the keyword table's constraints
// (enum, const, key patterns, the Kubernetes extensions: constraints.c)
const NOT_TABLE = /^(one of: |always |keys match |list type |unknown fields are kept$|an embedded Kubernetes object$)/;
const unhtml = (s) => s.replace(/<[^>]*>/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");

// id -> the page's constraint words of that entry
function pageWords(html) {
  const out = new Map();
  // each entry up to its end (a branch of a oneOf is an entry of its own)
  for (const [, rawId, p] of html.matchAll(/<article class="entry[^"]*" id="([^"]*)"([\s\S]*?)<\/article>/g)) {
    const id = unhtml(rawId);
    const m = p.match(/<dt>Constraints<\/dt><dd><ul class="sep">([\s\S]*?)<\/ul><\/dd>/);
    const words = m ? [...m[1].matchAll(/<li>([\s\S]*?)<\/li>/g)].map((x) => unhtml(x[1])).filter((w) => !NOT_TABLE.test(w)) : [];
    if (!out.has(id)) out.set(id, words);
  }
  return out;
}

// every model node that has an id, anywhere in the tree
function nodes(v, out = []) {
  if (Array.isArray(v)) { for (const x of v) nodes(x, out); return out; }
  if (v && typeof v === "object") {
    if (typeof v.id === "string" && typeof v.path === "string") out.push(v);
    for (const k of Object.keys(v)) nodes(v[k], out);
  }
  return out;
}

// compare the form's words with the page's for each node of SOURCE; returns
// [nodes compared, nodes with words]
function compare(src, what) {
  const page = pageWords(run([src, "--format", "html"]));
  const model = JSON.parse(run([src, "--format", "json"]));
  let n = 0, worded = 0;
  const seen = new Set();
  for (const node of nodes(model.root)) {
    if (seen.has(node.id) || !page.has(node.id)) continue;
    seen.add(node.id);
    const form = constraintWords(node);
    assert.deepEqual(form, page.get(node.id), `${what}: ${node.path || "(root)"} (${JSON.stringify(node.constraints || {})}): the form's words are the page's`);
    n++;
    if (form.length) worded++;
  }
  return [n, worded];
}

// a value each kind of row is worded with
function sample(name, words) {
  if (words === W_CODE) return "x-" + name;
  if (words === W_TRUE) return true;
  if (words === W_OWN) return name === "additionalProperties" ? false : name === "dependentRequired" ? { a: ["b", "c"] } : undefined;
  return 3;
}
const TYPE = ["number", "string", "array", "object"];   // by group, rules_kw.js G_*

test("every constraint row of keywords.def: the form words it as the page does", () => {
  assert.ok(CONSTRAINTS.length >= 20, `the table's constraint rows: ${CONSTRAINTS.length}`);
  const uppers = new Set(CONSTRAINTS.filter((r) => r[3] === W_RANGE).map((r) => r[5]));
  const bounds = CONSTRAINTS.some((r) => r[3] === W_BOUNDS);
  let worded = 0;
  for (const [name, , group, words] of CONSTRAINTS) {
    const v = sample(name, words);
    assert.notEqual(v, undefined, `${name}: a W_OWN row this test (and constraintWords) does not know`);
    const schema = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { f: { type: TYPE[group], [name]: v } } };
    if (name === "minContains" || name === "maxContains") schema.properties.f.contains = { type: "string" };
    if (name === "dependentRequired") schema.properties.f.properties = { a: {}, b: {}, c: {} };
    if (name === "exclusiveMinimum" || name === "exclusiveMaximum") schema.properties.f[name] = 3;
    const file = path.join(TMP, name + ".json");
    fs.writeFileSync(file, JSON.stringify(schema));
    const [n, w] = compare(file, name);
    assert.equal(n >= 1, true, `${name}: the field is on the page`);
    const f = nodes(JSON.parse(run([file, "--format", "json"])).root).find((x) => x.path === "f");
    const form = constraintWords(f);
    if (words !== W_NONE) {
      // a row the page words (W_BOUNDS, W_RANGE, W_NUMBER, W_CODE, W_TRUE, W_OWN) has words in the form
      assert.ok(w === 1 && form.length > 0, `${name}: worded by the page (${words}), not by the form: ${JSON.stringify(form)}`);
      worded++;
    } else {
      // a row without words of its own is the upper end of a range, one of
      // the number bounds, or one the page does not word either
      const part = uppers.has(name) || (bounds && group === 0 && /^(exclusiveM|maxim)/.test(name));
      assert.ok(part || form.length === 0, `${name}: W_NONE but worded`);
      if (part) assert.ok(form.length > 0, `${name}: part of a range but the form says nothing`);
    }
    assert.ok([W_NONE, W_BOUNDS, W_RANGE, W_NUMBER, W_CODE, W_TRUE, W_OWN].includes(words), `${name}: a words kind constraintWords knows`);
  }
  console.log(`# figure: ${worded} of ${CONSTRAINTS.length} constraint rows worded by their own row, each as the page words it`);
});

test("the corpus: the form's constraint words are the page's, node by node", () => {
  const sources = [
    path.join(CORPUS, "charts/traefik"),
    path.join(CORPUS, "charts/teutonet-base-cluster"),
    path.join(CORPUS, "crds/gateway.networking.k8s.io_httproutes.yaml"),
    path.join(CORPUS, "kubernetes/standalone/deployment-apps-v1.json"),
  ].filter((s) => fs.existsSync(s));
  assert.ok(sources.length >= 3, `corpus sources found: ${sources.length} (CORPUS=${CORPUS})`);
  let n = 0, worded = 0;
  for (const s of sources) {
    const [a, b] = compare(s, path.relative(CORPUS, s));
    n += a; worded += b;
  }
  assert.ok(worded >= 10, `nodes with constraint words: ${worded}`);
  console.log(`# figure: ${n} corpus nodes compared, ${worded} with constraint words, all equal to the page's`);
});
