// SPDX-License-Identifier: Apache-2.0
// ecma_re.test.mjs - src/validate/ecma_re.c (what the rules exporter and the
// `regex` format believe JavaScript accepts) against node's own RegExp(src,
// "u"), pattern by pattern: hand-picked cases, every pattern of the test
// suite and of the corpus, and a deterministic set of random token strings.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";

const B = process.env.SD_BUILD || "build";
const tmp = process.env.SD_TMP || fs.mkdtempSync("/tmp/sd-ecma-");

function patterns() {
  const out = new Set([
    "", "a", "^[a-z]+$", "(?<n>a)\\k<n>", "\\k<n>", "[\\d-x]", "[x-\\d]", "[\\d-]", "[-\\d]", "[\\w-\\d]",
    "\\u{10FFFF}", "\\u{110000}", "\\u{}", "\\u{0041", "\\uD800", "\\uDC00\\uD800", "[\\uD83D\\uDE00-\\uD83D\\uDE4F]",
    "(?<a>.)(?<b>.)\\k<b>", "(?<$x_1>a)", "(?<é>a)", "(?<a-b>a)", "(?<😀>a)", "\\8", "(a)\\1\\2", "\\00",
    "a{1}{2}", "a{1,}?", "a{0,0}", "a{99999999999}", "a{1,99999999999}", "x*?+", "(?:a)?", "(?=a)?", "(?!a)+",
    "[a-]", "[-]", "[]-]", "[]]", "[^-a]", "[\\]]", "[\\^]", "[\\$]", "[\\.]", "[\\/]", "[\\c]", "[\\cA]",
    "[\\0]", "[\\00]", "[\\1]", "[\\B]", "[\\k]", "\\k", "\\k<", "\\k<>", "(?<>a)", "(?", "(?:", "(?<", "(?<=",
    "\\p", "\\p{", "\\p{}", "\\p{L", "\\p{gc=}", "\\p{=L}", "\\p{General_Category=Letter}", "\\p{Script_Extensions=Latin}",
    "\\p{Any}", "\\p{Assigned}", "\\p{ASCII}", "\\P{Any}", "[\\p{L}]", "[^\\P{L}]", "\\p{L}{2}",
  ]);
  const suite = process.env.SD_RULES_SUITE;
  if (suite && fs.existsSync(suite))
    for (const line of fs.readFileSync(suite, "utf8").split("\n")) {
      if (!line) continue;
      const g = JSON.parse(line);
      if (g.rules) for (const p of g.rules.patterns) out.add(p.source);
      if (g.file === "regex.json" || g.file === "ecmascript-regex.json")
        for (const t of g.tests) { try { const d = JSON.parse(t.data); if (typeof d === "string") out.add(d); } catch { /* not a string */ } }
    }
  // random token strings, the same every run
  const tokens = ["a", "b", "0", "1", "9", "-", "^", "$", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|",
    "\\", ",", ":", "=", "!", "<", ">", "d", "D", "w", "W", "s", "S", "B", "p", "P", "k", "u", "x", "c",
    "{1}", "{1,2}", "{2,1}", "{,3}", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<n>", "\\k<n>", "\\p{L}",
    "\\u{41}", "\\u0041", "é", "\\d", "\\b", "\\1", "\\0", "[^", "\\-", "\\/", "\\.", "\\cA", "\\x4"];
  let seed = 12345;
  const rnd = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 4294967296; };
  for (let i = 0; i < 20000; i++) {
    let s = "";
    const n = 1 + Math.floor(rnd() * 6);
    for (let k = 0; k < n; k++) s += tokens[Math.floor(rnd() * tokens.length)];
    out.add(s);
  }
  return [...out];
}

test("ecma_re.c accepts exactly what RegExp(src, 'u') accepts", () => {
  const list = patterns();
  const inFile = path.join(tmp, "ecma-in.json"), outFile = path.join(tmp, "ecma-out.jsonl");
  fs.writeFileSync(inFile, JSON.stringify(list));
  execFileSync(path.join(B, "asan", "test_ecma_re"), { env: { ...process.env, SD_ECMA_RE_IN: inFile, SD_ECMA_RE_OUT: outFile } });
  const got = fs.readFileSync(outFile, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(got.length, list.length);
  const bad = [];
  list.forEach((p, i) => {
    let js = true;
    try { new RegExp(p, "u"); } catch { js = false; }
    if (!!got[i].ok !== js) bad.push(`${JSON.stringify(p)}: C says ${got[i].ok ? "valid" : "invalid"}, node says ${js ? "valid" : "invalid"}`);
  });
  console.log(`count: ecma_re agrees with node's RegExp on ${list.length - bad.length}/${list.length} patterns`);
  if (bad.length) console.log(bad.slice(0, 40).join("\n"));
  assert.equal(bad.length, 0);
});
