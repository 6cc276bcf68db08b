// SPDX-License-Identifier: Apache-2.0
// keywords.test.mjs - the keyword table (src/validate/keywords.def, read here
// as src/form/rules_kw.js) against the JavaScript interpreter: every row the
// rules carry reaches a record, every row rules.js reads itself is read, and
// every message a row claims is one both validators can say. It fails when a
// new row of the table has no JavaScript side. (suite-rules-js.sh checks that
// rules_kw.js is the table's current export.)
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { compile } from "../../src/form/rules.js";
import { KEYWORDS, F_COUNT, F_NUM, F_REC, F_RECS, F_FLAG, F_OWN } from "../../src/form/rules_kw.js";

const SD = process.env.SD || "./schemadoc";
const tmp = process.env.SD_TMP || fs.mkdtempSync("/tmp/sd-keywords-");
const read = (f) => fs.readFileSync(new URL("../../" + f, import.meta.url), "utf8");
const rulesJs = read("src/form/rules.js");
const walkJs = read("src/form/rules_walk.js") + read("src/form/rules_text.js") + rulesJs;
const cSide = fs.readdirSync(new URL("../../src/validate/", import.meta.url))
  .filter((f) => f.endsWith(".c")).map((f) => read("src/validate/" + f)).join("\n");
const messages = new Set(Object.keys(JSON.parse(execFileSync(SD, ["rules", "tests/rules/chart"],
  { stdio: ["ignore", "pipe", "ignore"] })).messages));
const GENERIC = new Set([F_COUNT, F_NUM, F_REC, F_RECS, F_FLAG]);
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("the table has rows, each well formed", () => {
  assert.ok(KEYWORDS.length >= 40, `${KEYWORDS.length} rows`);
  const names = new Set();
  for (const [name, key, kind, prop, need, msgs] of KEYWORDS) {
    assert.ok(!names.has(name), `${name}: one row`);
    names.add(name);
    assert.ok(key === 0 || typeof key === "string", `${name}: record key`);
    assert.ok(!GENERIC.has(kind) || typeof prop === "string", `${name}: a generic field names its property`);
    assert.ok(Number.isInteger(need), `${name}: need`);
    assert.ok(Array.isArray(msgs), `${name}: messages`);
  }
});

// schemadoc rules on a one-keyword schema, then compile(): the C export writes
// the keyword and the interpreter's record holds it where the walk reads it
test("every keyword the rules carry generically reaches the interpreter's record", () => {
  const value = { [F_COUNT]: 3, [F_NUM]: 2.5, [F_REC]: {}, [F_RECS]: [{}], [F_FLAG]: true };
  const empty = path.join(tmp, "kw-empty.json");
  fs.writeFileSync(empty, "{}");
  const blank = compile(JSON.parse(execFileSync(SD, ["rules", empty], { stdio: ["ignore", "pipe", "pipe"] }))).recs[0];
  let n = 0;
  for (const [name, key, kind, prop, need] of KEYWORDS) {
    if (key === 0 || !GENERIC.has(kind)) continue;
    const file = path.join(tmp, "kw-" + n++ + ".json");
    const val = name === "$ref" ? "#" : value[kind];
    fs.writeFileSync(file, JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", [name]: val }));
    const rules = JSON.parse(execFileSync(SD, ["rules", file], { stdio: ["ignore", "pipe", "pipe"] }));
    const j = rules.records[0];
    assert.ok(j[key] !== undefined, `${name}: the export writes "${key}"`);
    const v = compile(rules), s = v.recs[0];
    if (kind === F_COUNT) assert.equal(s[prop], 3, name);
    else if (kind === F_NUM) assert.equal(s[prop].v, 2.5, name);
    else if (kind === F_REC) assert.ok(s[prop] !== null && s[prop] === v.recs[j[key]], name);
    else if (kind === F_RECS) assert.deepEqual(s[prop], j[key].map((i) => v.recs[i]), name);
    else assert.equal(s[prop], true, name);
    assert.equal(s.need & need, need, `${name}: need bit`);
    assert.ok(Object.hasOwn(blank, prop), `${name}: a record without it has .${prop} (rules.js Rec)`);
    assert.ok(new RegExp("\\." + esc(prop) + "\\b").test(read("src/form/rules_walk.js")), `${name}: rules_walk.js reads .${prop}`);
  }
  assert.ok(n >= 25, `${n} keywords exported`);
  console.log(`count: keywords generic ${n}/${n} reach the interpreter`);
});

test("every keyword rules.js reads itself is read there", () => {
  let n = 0;
  for (const [name, key, kind] of KEYWORDS) {
    if (key === 0 || kind !== F_OWN) continue;
    n++;
    const k = esc(key);
    assert.ok(new RegExp(`\\bj\\.${k}\\b|\\bj\\["${k}"\\]|"${k}" in j`).test(rulesJs), `${name}: rules.js reads j.${key}`);
  }
  assert.ok(n >= 10, `${n} own rows`);
  console.log(`count: keywords own ${n}/${n} read by rules.js`);
});

// messages only one side says: the export renders enumText once for both
// (rules.c); PCRE2's own failures; a pattern JavaScript's RegExp refuses
const C_ONLY = new Set(["ENUM_SEP", "ENUM_MORE", "PATTERN_ERROR"]);
const JS_ONLY = new Set(["PATTERN_JS"]);

test("every message a keyword claims is in the catalogue and said by both validators", () => {
  let n = 0;
  for (const [name, , , , , msgs] of KEYWORDS) {
    for (const m of msgs) {
      n++;
      assert.ok(messages.has(m), `${name}: ${m} is in the rules' catalogue`);
      assert.ok(C_ONLY.has(m) || walkJs.includes(`"${m}"`), `${name}: the interpreter says ${m}`);
      assert.ok(JS_ONLY.has(m) || cSide.includes(`SD_MSG_${m}`), `${name}: the C validator says ${m}`);
    }
  }
  assert.ok(n >= 40, `${n} claims`);
  console.log(`count: keywords messages ${n}/${n} said`);
});
