// SPDX-License-Identifier: Apache-2.0
// fuzz_import.test.mjs - a fuzz target for the form's import: the YAML
// reader with its merge/alias budget (form_yaml.js parseValues) and the
// large-file reader beside it (form_bigyaml.js readLargeNow). A
// time-bounded mutation loop, seeded from hostile files (merge-key and
// alias bombs, a chain of merges, prototype-named keys, tags, deep
// nesting, the corpus's values files): byte flips, YAML tokens inserted,
// lines repeated, spliced and indented. Every input must
//  - return, not throw, within a time bound: {doc, value} or
//    {error: "line L, column C: ..."} with L and C inside the text;
//  - give plain JSON data that, written out in full, is at most
//    MERGE_BUDGET values (aliases and merges expanded), with
//    Object.prototype untouched;
//  - when the large-file reader takes it too, give the same value.
// FUZZ_IMPORT_SECONDS sets the time (default 3, for `make check`);
// FUZZ_IMPORT_SEED the seed (default: fixed, so a failure repeats). A
// failing input is written to $TMPDIR/fuzz-import-fail-N.yaml.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseValues, MERGE_BUDGET } from "../../src/form/form_yaml.js";
import { readLargeNow } from "../../src/form/form_bigyaml.js";

const SECONDS = Number(process.env.FUZZ_IMPORT_SECONDS || 3);
const PER_INPUT_MS = 5000;   // one input, on a loaded machine
let seed = Number(process.env.FUZZ_IMPORT_SEED || 41012);
function rnd(n) {   // xorshift32
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed % n;
}

function seeds() {
  const s = [];
  let m = "a0: &a0 {x: 10}\n";
  for (let i = 1; i <= 11; i++) m += `a${i}: &a${i} {<<: [${Array(10).fill("*a" + (i - 1)).join(", ")}]}\n`;
  s.push(m);
  let r = "a0: &a0 {x: 1}\n";
  for (let i = 1; i <= 8; i++) r += `a${i}: &a${i} {${Array.from({ length: 10 }, (_, j) => `k${j}: {<<: *a${i - 1}}`).join(", ")}}\n`;
  s.push(r);
  let c = "base: &a0 {x: 0}\n";
  for (let i = 1; i < 300; i++) c += `k${i}: &a${i}\n  <<: *a${i - 1}\n  x: ${i}\n`;
  s.push(c);
  let a = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (let i = 1; i <= 7; i++) a += `a${i}: &a${i} [${Array(10).fill("*a" + (i - 1)).join(", ")}]\n`;
  s.push(a);
  s.push("base: &b {a: 1, b: {c: 2}}\nq:\n  <<: *b\n  a: 3\nr: {<<: [*b], d: 4}\nls: &ls [*b, {z: 1}]\nm: {<<: *ls}\n");
  s.push("a: &a\n  b: 1\n  c:\n    <<: *a\n");
  s.push("constructor: {__proto__: {polluted: 1}, prototype: x}\n__proto__:\n  toString: 1\n  hasOwnProperty: [1]\n");
  s.push("a: !custom foo\nb: !!binary aGk=\nc: 2001-12-14\nd: !!set {x, y}\ne: !!omap [{a: 1}, {b: 2}]\nf: !!pairs [{a: 1}]\ng: yes\nh: 0x1F\ni: 1_000\nj: .inf\n");
  s.push("? [complex, key]\n: 1\n? {k: v}\n: 2\n\"<<\": literal\n'<<': quoted\n");
  s.push("list:\n  - a: 1\n    b: [1, 2, {c: d}]\n  - - nested\n    - 'q'\n  - |\n    block\n    text\n  - >-\n    folded\n");
  s.push("a: " + "[".repeat(300) + "]".repeat(300) + "\n");
  s.push("x: &x {a: *x}\n");
  s.push("--- a: 1\n...\n--- b: 2\n");
  s.push("%YAML 1.1\n---\nk: v\n");
  // the corpus's values files, when the corpus is there (a few KB of each)
  const corpus = process.env.CORPUS || "../shared/corpus";
  if (existsSync(join(corpus, "charts"))) {
    for (const d of readdirSync(join(corpus, "charts"))) {
      const f = join(corpus, "charts", d, "values.yaml");
      if (existsSync(f)) s.push(readFileSync(f, "utf8").slice(0, 6000));
    }
  }
  return s;
}

const TOKENS = ["<<: ", "*a0 ", "&a0 ", "*a1", "&x ", "*x", "[", "]", "{", "}", ", ", "- ", ": ", "? ", "\n", "\n  ", "\n    ",
  "!!set ", "!!omap ", "!!map ", "!!seq ", "!!str ", "!!int ", "!custom ", "#", "'", "\"", "|", ">", "---\n", "...\n",
  "__proto__", "constructor", "<<", "~", "null", "0x", "1e9999", "\t", "\r\n", "\u00a0", "\ufeff", "%", "@", "`"];

function mutate(t, pool) {
  const n = 1 + rnd(4);
  for (let k = 0; k < n; k++) {
    const i = t.length ? rnd(t.length + 1) : 0;
    switch (rnd(7)) {
      case 0: t = t.slice(0, i) + TOKENS[rnd(TOKENS.length)] + t.slice(i); break;
      case 1: t = t.slice(0, i) + t.slice(i + 1 + rnd(8)); break;
      case 2: t = t.slice(0, i) + String.fromCharCode(32 + rnd(95)) + t.slice(i + 1); break;
      case 3: {   // a line repeated
        const ls = t.split("\n"); const j = rnd(ls.length);
        ls.splice(j, 0, ...Array(1 + rnd(20)).fill(ls[j])); t = ls.join("\n"); break;
      }
      case 4: {   // spliced with another seed
        const o = pool[rnd(pool.length)];
        t = t.slice(0, i) + o.slice(rnd(o.length + 1)); break;
      }
      case 5: {   // a line indented or dedented
        const ls = t.split("\n"); const j = rnd(ls.length);
        ls[j] = rnd(2) ? "  " + ls[j] : ls[j].replace(/^ {1,2}/, ""); t = ls.join("\n"); break;
      }
      default: {   // an anchor name changed
        t = t.replace(/([*&])a(\d)/, (_, s, d) => s + "a" + ((+d + 1 + rnd(3)) % 10)); break;
      }
    }
  }
  return t.length > 200000 ? t.slice(0, 200000) : t;
}

// The values `v` is written out as, up to `cap` (shared parts counted each time).
function count(v, cap, depth = 0) {
  if (depth > 20000) return Infinity;
  if (v === null || typeof v !== "object") return 1;
  let n = 1;
  for (const x of Array.isArray(v) ? v : Object.values(v)) {
    n += count(x, cap - n, depth + 1);
    if (n > cap) return n;
  }
  return n;
}

function check(text) {
  const t0 = Date.now();
  const r = parseValues(text);
  const ms = Date.now() - t0;
  assert.ok(ms < PER_INPUT_MS, `took ${ms} ms`);
  assert.ok(r && typeof r === "object", "a result");
  if (r.error !== undefined) {
    assert.match(r.error, /^line \d+, column \d+: /);
    const lines = text.split("\n").length;
    assert.ok(r.line >= 1 && r.line <= lines + 1, `line ${r.line} of ${lines}`);
    assert.ok(r.col >= 1, `column ${r.col}`);
    return "refused";
  }
  assert.ok(count(r.value, MERGE_BUDGET) <= MERGE_BUDGET, "at most MERGE_BUDGET values written out");
  JSON.stringify(r.value);   // plain data (a cycle would throw)
  assert.equal(({}).polluted, undefined, "Object.prototype untouched");
  assert.equal(Object.prototype.toString.call({}), "[object Object]");
  let big = null;
  try {
    big = readLargeNow(text);
  } catch (e) {
    assert.fail("the large-file reader threw: " + e);
  }
  if (big) assert.deepEqual(big.value, r.value, "the large-file reader reads it the same");
  return "read";
}

test(`fuzz the import's YAML reader for ${SECONDS} s (FUZZ_IMPORT_SECONDS)`, () => {
  const pool = seeds();
  const stats = { read: 0, refused: 0, inputs: 0 };
  for (const s of pool) stats[check(s)]++;
  const end = Date.now() + SECONDS * 1000;
  let fails = 0;
  while (Date.now() < end) {
    const text = mutate(pool[rnd(pool.length)], pool);
    stats.inputs++;
    try {
      stats[check(text)]++;
    } catch (e) {
      const f = join(tmpdir(), `fuzz-import-fail-${fails++}.yaml`);
      writeFileSync(f, text);
      throw new Error(`${e.message} (input written to ${f})`);
    }
    if (stats.inputs % 50 === 0 && pool.length < 400) pool.push(text);   // keep some mutants as seeds
  }
  console.log(`count: fuzz import ${stats.inputs} inputs in ${SECONDS} s: ${stats.read} read, ${stats.refused} refused`);
});
