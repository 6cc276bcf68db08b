// SPDX-License-Identifier: Apache-2.0
// regex.test.mjs - src/form/regex.js, the bounded matcher for risky patterns:
// the same answer as node's RegExp(src, "u") on random patterns and strings,
// and an answer within its bounds on catastrophic ones.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compileBounded } from "../../src/form/regex.js";

test("the bounded matcher answers as RegExp does", () => {
  const tokens = ["a", "b", "c", "-", "^", "$", ".", "*", "+", "?", "(", ")", "[", "]", "|", "{1}", "{1,2}", "{0,}",
    "*?", "+?", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<n>", "\\k<n>", "\\1", "\\d", "\\w", "\\s", "\\b", "[^a]",
    "[a-c]", "\\p{L}", "é", "😀", "x"];
  const alpha = ["a", "b", "c", "x", "-", " ", "é", "😀", "1", "_"];
  let seed = 7, pats = 0, checks = 0;
  const rnd = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };
  const bad = [];
  for (let i = 0; i < 40000 && bad.length < 10; i++) {
    let p = "";
    const n = 1 + Math.floor(rnd() * 7);
    for (let k = 0; k < n; k++) p += tokens[Math.floor(rnd() * tokens.length)];
    let re;
    try { re = new RegExp(p, "u"); } catch { continue; }
    pats++;
    const b = compileBounded(p, 1e6);
    for (let t = 0; t < 8; t++) {
      let s = "";
      const m = Math.floor(rnd() * 6);
      for (let k = 0; k < m; k++) s += alpha[Math.floor(rnd() * alpha.length)];
      checks++;
      const got = b.test(s), want = re.test(s) ? 1 : 0;
      if (got !== want) bad.push(`${JSON.stringify(p)} on ${JSON.stringify(s)}: ${got}, RegExp ${want}`);
    }
  }
  console.log(`count: regex.js agrees with RegExp on ${checks - bad.length}/${checks} matches (${pats} patterns)`);
  assert.deepEqual(bad, []);
  assert.ok(pats > 5000);
});

test("catastrophic patterns give up within the step limit", () => {
  for (const [p, s] of [["^(a+)+$", "a".repeat(40) + "!"], ["^(a|a)*$", "a".repeat(40) + "!"],
    ["^(\\w+\\s?)*$", "word ".repeat(20) + "!"], ["^(x+x+)+y$", "x".repeat(60) + "y!"]]) {
    const t = Date.now();
    assert.equal(compileBounded(p, 100000).test(s), -1, p);
    assert.ok(Date.now() - t < 5000, `${p} took ${Date.now() - t} ms`);
  }
  // long values on linear and possessive paths do not give up
  assert.equal(compileBounded("[0-9]+(ms|s|m|h|d|w|y)", 100000).test("1".repeat(20000)), 0);
  assert.equal(compileBounded("\\s*$", 100000).test(" ".repeat(30000) + "x"), 1);
  assert.equal(compileBounded("^.{2,}|[^./]$", 100000).test("x".repeat(50000)), 1);
});
