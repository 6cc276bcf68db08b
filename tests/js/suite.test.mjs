// SPDX-License-Identifier: Apache-2.0
// suite.test.mjs - the JSON-Schema-Test-Suite through src/form/rules.js, test
// by test against the expected verdict and against the C validator.
//
// Input: $SD_RULES_SUITE, the JSON lines tests/unit/test_rules_suite.c writes
// (per group: the exported rules; per test: the data as JSON text, the
// expected verdict, C's verdict, errors and warnings). For every test the
// interpreter must give C's verdict and C's exact error and warning lists
// (path, keyword, message, schema location and pointer); required tests must
// also get the expected verdict. Prints `count:` lines per draft.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { compile } from "../../src/form/rules.js";
import { parseJsonText } from "./jsontext.mjs";

const file = process.env.SD_RULES_SUITE;
const lines = file ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];

// Tests where the C and JS sides are known to differ, with the reason; they
// are reported, not counted as failures.
const KNOWN = [];
const known = (g, t) => KNOWN.find(([f, d]) => g.file === f && t.description.startsWith(d));

const strip = (e) => ({ path: e.path, key: e.key, keyword: e.keyword, message: e.message,
  schemaLocation: e.schemaLocation !== undefined ? e.schemaLocation : e.schema_at, schemaPath: e.schemaPath });

function runGroup(g) {
  const out = [];
  let v = null, err = null;
  if (!g.compileError) {
    try { v = compile(g.rules); } catch (e) { err = e; }
  }
  for (const t of g.tests) {
    const r = { want: t.valid, c: t.c.fatal ? "error" : t.c.valid, js: "error", same: false, detail: null };
    if (v) {
      try {
        const { value, texts } = parseJsonText(t.data);
        const list = v.validate(value, { texts });
        const fatal = list.some((e) => e.fatal);
        r.js = fatal ? "error" : list.valid;
        const errs = list.filter((e) => !e.warning && !e.fatal).map(strip);
        const warns = list.filter((e) => e.warning).map(strip);
        const cerrs = t.c.errors.map(strip), cwarns = t.c.warnings.map(strip);
        r.same = r.js === r.c && JSON.stringify(errs) === JSON.stringify(cerrs) &&
          JSON.stringify(warns) === JSON.stringify(cwarns) &&
          (!fatal || t.c.inputErrors.some((m) => list.find((e) => e.fatal).message === m));
        if (!r.same) r.detail = { js: errs.concat(warns), c: cerrs.concat(cwarns), jsFatal: list.filter((e) => e.fatal), cFatal: t.c.inputErrors };
      } catch (e) {
        r.detail = String(e && e.stack || e);
      }
    } else {
      r.same = r.c === "error";
      r.detail = err ? String(err) : null;
    }
    out.push([t, r]);
  }
  return out;
}

const drafts = new Map();
for (const g of lines) {
  if (!drafts.has(g.draft)) drafts.set(g.draft, []);
  drafts.get(g.draft).push(g);
}

test("the suite file is there", () => {
  assert.ok(file, "SD_RULES_SUITE is not set");
  assert.ok(lines.length > 1000, `only ${lines.length} groups in ${file}`);
  assert.deepEqual([...drafts.keys()], ["draft4", "draft6", "draft7", "draft2019-09", "draft2020-12"]);
});

for (const [draft, groups] of drafts) {
  test(draft, () => {
    let req = 0, reqOk = 0, same = 0, all = 0, fmt = 0, fmtOk = 0, fmtSameC = 0;
    const bad = [];
    for (const g of groups) {
      for (const [t, r] of runGroup(g)) {
        all++;
        if (r.same) same++;
        else if (known(g, t)) console.log(`known difference: ${draft} ${g.file}: ${t.description}: ${known(g, t)[2]}`);
        else bad.push(`${g.file}: ${g.group} / ${t.description}: JS ${r.js}, C ${r.c}, expected ${t.valid}` +
          (r.detail ? "\n    " + JSON.stringify(r.detail).slice(0, 1500) : ""));
        if (g.optional) {
          fmt++;
          if (r.js === t.valid) fmtOk++;
          if (r.js === r.c) fmtSameC++;
        } else {
          req++;
          if (r.js === t.valid) reqOk++;
          else if (r.same) bad.push(`${g.file}: ${g.group} / ${t.description}: JS and C both say ${r.js}, expected ${t.valid}`);
        }
      }
    }
    console.log(`count: ${draft} required ${reqOk}/${req} (JS)`);
    console.log(`count: ${draft} same errors as C ${same}/${all}`);
    console.log(`figure: ${draft} format ${fmtOk}/${fmt} (JS; the same verdict as C in ${fmtSameC}/${fmt})`);
    if (bad.length) console.log(bad.slice(0, 30).join("\n"));
    assert.equal(bad.length, 0, `${bad.length} tests differ`);
    assert.ok(req > 100 && all > req);
  });
}
