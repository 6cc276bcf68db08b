// SPDX-License-Identifier: Apache-2.0
// tests/js-form/secret_rule.test.mjs - the one secret rule
// (src/form/secret_rule.js) on tests/secret-keys.tsv: real key paths from
// the corpus charts and schema-gen (and the keys issue 40 names), each
// labelled secret / name / none. Prints precision and recall of "secret"
// and of "name" as `figure:` lines (tests/suite-form.sh shows them); each
// must be 100%.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { classifyPath } from "../../src/form/secret_rule.js";
import { parsePath } from "../../src/form/form_path.js";

function rows() {
  return fs.readFileSync("tests/secret-keys.tsv", "utf8").split("\n").filter((l) => l !== "" && !l.startsWith("#")).map((l) => {
    const [label, type, path, source, description] = l.split("\t");
    const [t, hint] = type.split("+");
    return { label, path, source, segs: parsePath(path),
      hints: { type: t === "-" ? undefined : t, writeOnly: hint === "writeOnly" || undefined, format: hint === "password" ? "password" : undefined, description: description || undefined } };
  });
}

test("secret rule: the labelled key paths", () => {
  const list = rows();
  assert.ok(list.length >= 300, "at least 300 labelled paths (" + list.length + ")");
  const wrong = [];
  const score = { secret: { tp: 0, fp: 0, fn: 0 }, name: { tp: 0, fp: 0, fn: 0 } };
  for (const r of list) {
    assert.ok(r.segs, "path parses: " + r.path);
    const got = classifyPath(r.segs, r.hints);
    for (const c of ["secret", "name"]) {
      if (got === c && r.label === c) score[c].tp++;
      else if (got === c) score[c].fp++;
      else if (r.label === c) score[c].fn++;
    }
    if (got !== r.label) wrong.push(r.path + " (" + r.source + "): " + got + ", labelled " + r.label);
  }
  const pct = (a, b) => (b === 0 ? 100 : (100 * a) / b).toFixed(1) + "%";
  for (const c of ["secret", "name"]) {
    const s = score[c];
    console.log("figure: secret rule, " + c + ": precision " + pct(s.tp, s.tp + s.fp) + ", recall " + pct(s.tp, s.tp + s.fn) +
      " (" + s.tp + " of " + list.filter((r) => r.label === c).length + " labelled " + c + ", " + list.length + " paths)");
  }
  assert.deepEqual(wrong, []);
});
