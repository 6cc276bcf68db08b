// SPDX-License-Identifier: Apache-2.0
// hostile.test.mjs - the hostile set: schemas and values made to freeze a
// validator. The interpreter must finish within its bounds, with the error
// the C validator gives (the same message), and quickly:
//   - catastrophic patterns (exponential backtracking) on the values that trigger them;
//   - nesting deeper than maxDepth (3000 nested schema applications);
//   - 300,000-item uniqueItems (and a large enum), linear by value;
//   - $ref loops without progress ($ref to itself, two definitions in a
//     cycle, allOf back to the root).
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { compile } from "../../src/form/rules.js";

const SD = process.env.SD_REL && fs.existsSync(process.env.SD_REL) ? process.env.SD_REL : process.env.SD || "./schemadoc";
const tmp = fs.mkdtempSync(path.join(process.env.SD_TMP || "/tmp", "hostile-"));
let seq = 0;

function run(args) {
  try {
    return { out: execFileSync(SD, args, { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 }).toString(), status: 0 };
  } catch (e) {
    return { out: e.stdout ? e.stdout.toString() : "", status: e.status };
  }
}
const strip = (e) => ({ path: e.path, keyword: e.keyword, message: e.message,
  schemaLocation: e.schemaLocation !== undefined ? e.schemaLocation : e.schema_at, schemaPath: e.schemaPath });

// Validate `value` against `schema` with C and with the interpreter; both lists must agree.
function both(name, schema, value, budgetMs) {
  const sf = path.join(tmp, `${name}-${seq}.schema.json`), vf = path.join(tmp, `${name}-${seq++}.json`);
  fs.writeFileSync(sf, JSON.stringify(schema));
  fs.writeFileSync(vf, JSON.stringify(value));
  const c = JSON.parse(run(["validate", sf, vf, "--output", "json"]).out)[0];
  const rules = JSON.parse(run(["rules", sf]).out);
  const t0 = Date.now();
  const js = compile(rules).validate(value);
  const ms = Date.now() - t0;
  const fatal = js.filter((e) => e.fatal);
  assert.deepEqual(js.filter((e) => !e.fatal && !e.warning).map(strip), c.errors.map(strip), name);
  assert.equal(fatal.length, (c.inputErrors || []).length, `${name}: fatal errors`);
  if (fatal.length) assert.ok(c.inputErrors[0].endsWith(fatal[0].message), `${name}: ${fatal[0].message} / ${c.inputErrors[0]}`);
  assert.ok(ms < budgetMs, `${name}: ${ms} ms, more than ${budgetMs} ms`);
  console.log(`count: hostile ${name}: ${js.length} error(s) like C, ${ms} ms`);
  return js;
}

test("catastrophic patterns give up, as in C", () => {
  const schema = { type: "object", properties: {
    a: { pattern: "^(a+)+$" }, b: { pattern: "^(a|a)*$" }, c: { pattern: "^(\\w+\\s?)*$" },
    d: { pattern: "^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$" },
    e: { patternProperties: { "^(x+x+)+y$": { type: "string" } } } } };
  const js = both("redos", schema, { a: "a".repeat(40) + "!", b: "a".repeat(40) + "!", c: "word ".repeat(30) + "!",
    d: "a".repeat(40) + "!", e: { ["x".repeat(50)]: 1 } }, 15000);
  assert.ok(js.filter((e) => /gave up/.test(e.message)).length >= 3);
});

test("nesting deeper than the limit stops with C's error", () => {
  // 3,500 definitions, each applying the next: C stops at 3,000 nested
  // applications; so does the interpreter, or earlier where the JavaScript
  // stack runs out (docs/rules.md, "Bounds"), with the same message
  const defs = {};
  for (let i = 0; i < 3500; i++) defs["d" + i] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }] };
  defs.d3500 = { type: "string" };
  const sf = path.join(tmp, "deep.schema.json"), vf = path.join(tmp, "deep.json");
  fs.writeFileSync(sf, JSON.stringify({ $ref: "#/$defs/d0", $defs: defs }));
  fs.writeFileSync(vf, "1");
  const c = JSON.parse(run(["validate", sf, vf, "--output", "json"]).out)[0];
  const t0 = Date.now();
  const js = compile(JSON.parse(run(["rules", sf]).out)).validate(1);
  const f = js.filter((e) => e.fatal);
  assert.equal(f.length, 1);
  assert.equal(c.inputErrors.length, 1);
  const prefix = "validation nested deeper than 3000 schemas (at schema #/$defs/d";
  assert.ok(f[0].message.startsWith(prefix) && c.inputErrors[0].includes(prefix), f[0].message);
  assert.ok(Date.now() - t0 < 10000);
  console.log(`count: hostile deep-schema: C: ${c.inputErrors[0].replace(/.*\(at schema /, "").replace(")", "")}, JS: ${f[0].message.replace(/.*\(at schema /, "").replace(")", "")}`);
  // values nested deep within both stacks: fine, and the same
  let v = "leaf";
  for (let i = 0; i < 300; i++) v = { n: v };
  both("deep-value", { $ref: "#/$defs/n", $defs: { n: { oneOf: [{ type: "string" }, { type: "object", properties: { n: { $ref: "#/$defs/n" } } }] } } }, v, 10000);
  let w = 5;
  for (let i = 0; i < 300; i++) w = [w];
  both("deep-array", { items: { $ref: "#" }, type: ["array", "string"] }, w, 10000);
});

test("uniqueItems and enum over 300,000 items are linear", () => {
  const arr = Array.from({ length: 300000 }, (_, i) => (i % 2 ? "s" + i : i));
  arr.push(299998);
  both("unique-300k", { type: "array", uniqueItems: true }, arr, 10000);
  const objs = Array.from({ length: 100000 }, (_, i) => ({ k: i, v: [i, "x"] }));
  objs.push({ v: [5, "x"], k: 5 });
  both("unique-objects", { uniqueItems: true }, objs, 10000);
  const big = Array.from({ length: 50000 }, (_, i) => "value-" + i);
  both("enum-50k", { enum: big }, "value-49999x", 10000);
});

test("$ref loops without progress stop, as in C", () => {
  both("ref-self", { $ref: "#" }, 1, 5000);
  both("ref-cycle", { $ref: "#/$defs/a", $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } } }, {}, 5000);
  both("allof-root", { allOf: [{ $ref: "#" }] }, "x", 5000);
  both("ref-cycle-2019", { $schema: "https://json-schema.org/draft/2019-09/schema", $defs: { a: { $ref: "#/$defs/b", type: "object" }, b: { $ref: "#/$defs/a" } }, $ref: "#/$defs/a" }, {}, 5000);
  // recursion that descends into the value is fine
  both("ref-tree", { type: "object", additionalProperties: { $ref: "#" } }, { a: { b: { c: {} } }, d: 1 }, 5000);
});
