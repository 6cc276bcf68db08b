// SPDX-License-Identifier: Apache-2.0
// incremental.test.mjs - validator.revalidate(value, pointer): after each
// change at `pointer`, exactly what validate(value) gives, doing less work.
// Changes are made both ways a form makes them: copying the objects on the
// path (the rest shared) and changing objects in place.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { compile } from "../../src/form/rules.js";
import { loadValuesFile } from "./yamlvalues.mjs";

const SD = process.env.SD_REL && fs.existsSync(process.env.SD_REL) ? process.env.SD_REL : process.env.SD || "./schemadoc";
const CORPUS = process.env.CORPUS || "../shared/corpus";
const rulesOf = (src) => JSON.parse(execFileSync(SD, ["rules", src], { stdio: ["ignore", "pipe", "ignore"] }));
const esc = (k) => String(k).replace(/~/g, "~0").replace(/\//g, "~1");

// every pointer of a value
function pointers(v, p = "", out = []) {
  out.push(p);
  if (v !== null && typeof v === "object")
    for (const k of Object.keys(v)) pointers(v[k], p + "/" + esc(k), out);
  return out;
}
const segs = (p) => p.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));

// a new value with `fn(old)` at `ptr`: objects on the path copied, the rest shared
function setCopy(v, ptr, fn) {
  const go = (x, ss) => {
    if (!ss.length) return fn(x);
    const c = Array.isArray(x) ? x.slice() : Object.assign({}, x);
    c[ss[0]] = go(x[ss[0]], ss.slice(1));
    return c;
  };
  return go(v, segs(ptr));
}
// the same change made in place
function setInPlace(v, ptr, fn) {
  const ss = segs(ptr);
  if (!ss.length) return fn(v);
  let x = v;
  for (const s of ss.slice(0, -1)) x = x[s];
  x[ss[ss.length - 1]] = fn(x[ss[ss.length - 1]]);
  return v;
}
const mutations = [(x) => (typeof x === "string" ? x + "!" : "text"), () => 123456, () => null, () => [1, "two"],
  () => ({ unexpected: true }), (x) => (typeof x === "number" ? -x : 0.5)];

function check(rules, value, entry, rounds, seed) {
  const v = compile(rules), plain = compile(rules);
  let rnd = seed;
  const next = () => { rnd = (Math.imul(rnd, 1103515245) + 12345) >>> 0; return rnd; };
  assert.deepEqual(v.revalidate(value, "", { entry }), plain.validate(value, { entry }));
  let saved = 0, full = 0;
  for (let i = 0; i < rounds; i++) {
    const ptrs = pointers(value);
    const p = ptrs[1 + (next() % (ptrs.length - 1))];
    const m = mutations[next() % mutations.length];
    value = i % 2 ? setCopy(value, p, m) : setInPlace(value, p, m);
    const got = v.revalidate(value, p, { entry }), want = plain.validate(value, { entry });
    assert.deepEqual(got, want, `after a change at ${p}`);
    full += plain.lastApplied;
    saved += plain.lastApplied - v.lastApplied;
  }
  return { full, saved };
}

test("revalidate gives validate's list after every change", () => {
  const inv = "tests/rules/invalid";
  const rules = rulesOf(path.join(inv, "schema.json"));
  for (const f of ["wrong-type.yaml", "nested-array.yaml", "numbers.yaml", "valid.yaml"]) {
    const value = loadValuesFile(f, fs.readFileSync(path.join(inv, f), "utf8"))[0].value;
    check(rules, value, undefined, 40, 17);
  }
  const chart = rulesOf("tests/rules/chart");
  const vals = loadValuesFile("bad.yaml", fs.readFileSync("tests/rules/chart-values/bad.yaml", "utf8"))[0].value;
  for (const entry of ["values", "charts/redis", "charts/db"]) check(chart, structuredClone(vals), entry, 30, 5);
});

test("revalidate runs less than validate on a large document", { skip: !fs.existsSync(path.join(CORPUS, "charts/traefik")) }, () => {
  const dir = path.join(CORPUS, "charts/traefik");
  const rules = rulesOf(dir);
  const value = loadValuesFile("values.yaml", fs.readFileSync(path.join(dir, "values.yaml"), "utf8"))[0].value;
  const { full, saved } = check(rules, value, undefined, 60, 99);
  console.log(`count: revalidate on traefik's values applied ${full - saved} records where validate applied ${full} (60 changes)`);
  assert.ok(saved > full / 2, `revalidate saved only ${saved} of ${full}`);
});
