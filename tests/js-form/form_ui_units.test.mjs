// SPDX-License-Identifier: Apache-2.0
// tests/js-form/form_ui_units.test.mjs - the pure modules behind the form's
// big-chart work (no DOM): the export written in pieces (form_pieces.js)
// equals toYaml() of the whole on every corpus chart's values and after
// edits that reuse the cached pieces. tests/suite-form.sh bundles and runs it.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { parseValues, toYaml } from "../../src/form/form_yaml.js";
import { setAt, deleteAt, clone } from "../../src/form/form_values.js";
import { pieces, BLOCK } from "../../src/form/form_pieces.js";

const CORPUS = process.env.CORPUS || "../shared/corpus";

function corpusValues() {
  const out = [];
  const dir = path.join(CORPUS, "charts");
  for (const c of fs.readdirSync(dir)) {
    for (const f of ["values.yaml"].concat(fs.existsSync(path.join(dir, c, "ci")) ? fs.readdirSync(path.join(dir, c, "ci")).map((x) => "ci/" + x) : [])) {
      const p = path.join(dir, c, f);
      if (!fs.existsSync(p) || !/\.ya?ml$/.test(p)) continue;
      const r = parseValues(fs.readFileSync(p, "utf8"));
      if (!r.error) out.push([c + "/" + f, r.value]);
    }
  }
  return out;
}

function joined(v, cache, dirty) {
  const fresh = new Map();
  const s = [...pieces(v, cache, fresh, dirty)].join("");
  return { text: s, cache: fresh };
}

test("pieces: joined, they are toYaml() of the whole, on every corpus chart's values", () => {
  const all = corpusValues();
  assert.ok(all.length >= 14, `corpus values files: ${all.length}`);
  let n = 0;
  for (const [name, v] of all) {
    assert.equal(joined(v, new Map(), []).text, toYaml(v), name);
    n++;
  }
  assert.equal(n, all.length);
});

test("pieces: large lists and maps, nested, multi-line strings, odd keys", () => {
  const big = { env: [], annotations: {}, nested: { deeper: { list: [] } }, "a.b/c": "x", "": 1, "yes": "no", text: "a\n\nb\n" };
  for (let i = 0; i < 1000; i++) big.env.push({ name: "V" + i, value: i % 7 === 0 ? "line\n\n  indented\n" : "v" + i });
  for (let i = 0; i < 700; i++) big.annotations["k" + i + ".example.com/x"] = i % 3 ? "on" : "plain " + i;
  for (let i = 0; i < 900; i++) big.nested.deeper.list.push([i, "0x1F", null, { e: {} }]);
  big["k".repeat(1100)] = Array.from({ length: 600 }, (_, i) => i);   // a key toYaml writes with "? "
  const { text, cache } = joined(big, new Map(), []);
  assert.equal(text, toYaml(big));
  assert.ok(cache.size > 1000 / BLOCK, `${cache.size} pieces`);
});

test("pieces: after an edit, the cached pieces plus the rewritten ones are toYaml() again", () => {
  let v = { env: [], annotations: {}, top: 1 };
  for (let i = 0; i < 500; i++) v.env.push({ name: "V" + i, value: "v" + i });
  for (let i = 0; i < 500; i++) v.annotations["k" + i] = "a" + i;
  let r = joined(v, new Map(), []);
  const edits = [
    [["env", 250, "value"], "changed"],
    [["annotations", "k3"], "b"],
    [["annotations", "new.key"], "appended"],
    [["top"], 2],
    [["env", 499, "name"], undefined],
    [["annotations", "k400"], undefined],
    [["env"], [{ name: "only" }]],
    [["annotations", "k10"], { now: ["a", "map"] }],
  ];
  let reused = 0;
  for (const [segs, val] of edits) {
    if (val === undefined) deleteAt(v, segs); else v = setAt(v, segs, clone(val));
    const before = r.cache;
    r = joined(v, before, [segs]);
    assert.equal(r.text, toYaml(v), JSON.stringify(segs));
    for (const [id, p] of r.cache) if (before.get(id) && before.get(id).text === p.text) reused++;
  }
  assert.ok(reused > 10, `pieces reused across edits: ${reused}`);
  // a stale cache with no dirty path given is not trusted for a changed block composition
  const w = { a: 1 };
  const r1 = joined(w, new Map(), []);
  w.b = 2;
  assert.equal(joined(w, r1.cache, []).text, toYaml(w));
});

import { diffLines, lineDiff } from "../../src/form/form_diff.js";

test("line diff: the script turns a into b, is shortest on small cases, and makes unified hunks", () => {
  const apply = (ops) => ({ a: ops.filter((o) => o[0] !== "+").map((o) => o[1]), b: ops.filter((o) => o[0] !== "-").map((o) => o[1]) });
  let seed = 7;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
  for (let t = 0; t < 300; t++) {
    const a = Array.from({ length: rnd(30) }, () => "l" + rnd(6));
    const b = a.slice();
    for (let e = rnd(6); e > 0; e--) { const i = rnd(b.length + 1); if (rnd(2)) b.splice(i, 1); else b.splice(i, 0, "n" + rnd(6)); }
    const ops = diffLines(a, b);
    assert.deepEqual(apply(ops), { a, b });
  }
  assert.deepEqual(diffLines(["a", "b", "c"], ["a", "x", "c"]), [[" ", "a"], ["-", "b"], ["+", "x"], [" ", "c"]]);
  const a = Array.from({ length: 40 }, (_, i) => "line " + i + "\n");
  const b = a.slice();
  b[5] = "changed\n"; b.splice(30, 1);
  const hs = lineDiff(a, b, 3);
  assert.equal(hs.length, 2);
  assert.deepEqual([hs[0].a, hs[0].an, hs[0].b, hs[0].bn], [2, 7, 2, 7]);
  assert.deepEqual([hs[1].a, hs[1].an, hs[1].b, hs[1].bn], [27, 7, 27, 6]);
  assert.equal(lineDiff(a, a).length, 0);
});

import { readLargeNow } from "../../src/form/form_bigyaml.js";

test("large files: the sliced reader gives parseValues()'s values, or leaves the file to it", () => {
  let read = 0, left = 0;
  const texts = [];
  const dir = path.join(CORPUS, "charts");
  for (const c of fs.readdirSync(dir)) {
    for (const f of ["values.yaml"].concat(fs.existsSync(path.join(dir, c, "ci")) ? fs.readdirSync(path.join(dir, c, "ci")).map((x) => "ci/" + x) : [])) {
      const p = path.join(dir, c, f);
      if (fs.existsSync(p) && /\.ya?ml$/.test(p)) texts.push([c + "/" + f, fs.readFileSync(p, "utf8")]);
    }
  }
  const cases = [
    "a: yes\nb: 0x1F\nc: 1e3\nd: 2.50\ne: '012'\nf: ~\ng:\nh: [1, two, {x: 3}]\ni: {}\nj: []\nk: \"q\\n\"\nl: |\n  x\n\n  y\nm: >-\n  folded\n  text\n",
    "__proto__: 1\nnull: x\n1: y\ntrue: z\n",
    "# only a comment\n",
    "",
    "---\na: 1\n",
    "- 1\n- - 2\n  - 3\n- a: b\n",
    "a: &x 1\nb: *x\n",            // anchors: left to parseValues
    "a: !!str 1\n",                // tags
    "a: 1\na: 2\n",                // duplicate
    "<<: {a: 1}\n",                // merge key
    "a: [\n",                      // syntax error
    "a: 1\n---\nb: 2\n",           // two documents
    "? complex\n: 1\n",
    "a: [1,\n2]\n",              // a flow collection on two lines
    "a:\n\t- 1\n",              // a tab as indentation
    "a: \"x\"#c\n",             // a comment not after a space
    "a: b\n  c: d\n",            // a scalar on two lines
  ];
  cases.forEach((t, i) => texts.push(["case " + i, t]));
  let byLines = 0;
  for (const [name, t] of texts) {
    const want = parseValues(t);
    const lines = readLargeNow(t, "lines");
    if (lines !== null) {
      byLines++;
      assert.ok(!want.error, `${name}: read line by line although parseValues refuses it: ${want.error}`);
      assert.deepEqual(lines.value, want.value === undefined ? null : want.value, name + " (line by line)");
    }
    const got = readLargeNow(t);
    if (got === null) { left++; continue; }
    assert.ok(!want.error, `${name}: read although parseValues refuses it: ${want.error}`);
    assert.deepEqual(got.value, want.value === undefined ? null : want.value, name);
    read++;
  }
  assert.ok(read >= 30, `read ${read} of ${texts.length} (${left} left to parseValues)`);
  const refused = texts.filter(([, t]) => parseValues(t).error).length;
  assert.ok(left >= refused, `every text parseValues refuses is left to it (${left} left, ${refused} refused)`);
  assert.ok(left <= 16, `${left} texts left to parseValues`);
  console.log(`count: large-file reader: ${read} texts read as parseValues reads them (${byLines} line by line), ${left} left to it`);
  assert.ok(byLines >= 20, `${byLines} texts read line by line`);
  const r = readLargeNow("a: 2.50\nb: [0x10, 7]\nc: 1E6\n");
  assert.deepEqual([...r.texts], [["/a", "2.50"], ["/b/0", "0x10"], ["/c", "1E6"]]);
  const r2 = readLargeNow("a: 2.50\nb:\n  - 0x10\n  - 7\nc: 1E6\n", "lines");
  assert.deepEqual([...r2.texts], [["/a", "2.50"], ["/b/0", "0x10"], ["/c", "1E6"]]);
});

// random documents of the block subset the line reader takes: each read as parseValues reads it
test("large files: random block YAML, line by line = parseValues", () => {
  let seed = 12345;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
  const scalars = ["yes", "No", "on", "~", "null", "", "0x1F", "0o17", "017", "1e3", "1_000", "-1", "+2.5", ".inf", "-.Inf", ".NaN", "1:30", "2001-12-14",
    "plain text", "a:b", "http://x.y/z", "x # not", "'single ''q'''", '"dq \\t \\u00e9 \\""', '"a # b"', "{}", "[]", "true", "False", "-", "a-b", "1.", "0b101", "y", "Y", "n",
    "'#'", '"x: y"', "é unicode", "12:30:15", "0.5", "-0", "+1", "1__0", "a: b", "&x", "*y", "!t", "|", "- z", "'open", "tab\there"];
  const keys = ["a", "b c", "yes", "1", "x.y/z", '"q: k"', "'s k'", "null", "k-1", "_", "on", "0x10", "é", "<<", "'<<'", "a#b", "? q"];
  const gen = (depth, indent, out) => {
    const pad = " ".repeat(indent);
    if (depth > 3 || rnd(3) === 0) return null;
    if (rnd(2)) {
      const n = 1 + rnd(4);
      const used = new Set();
      for (let i = 0; i < n; i++) {
        let k = keys[rnd(keys.length)];
        while (used.has(k)) k = k + "x";
        used.add(k);
        const comment = rnd(6) === 0 ? "  # c" : "";
        if (rnd(3) === 0) {
          out.push(pad + k + ":" + comment);
          if (rnd(3) === 0) out.push(pad + "  # a comment");
          if (gen(depth + 1, indent + (rnd(4) === 0 ? 0 : 2), out) === null) out.push(pad + "  " + "- " + scalars[rnd(scalars.length)]);
        } else out.push(pad + k + ": " + scalars[rnd(scalars.length)] + comment);
      }
    } else {
      const n = 1 + rnd(4);
      for (let i = 0; i < n; i++) {
        if (rnd(3) === 0) {
          const sub = [];
          if (gen(depth + 1, indent + 2, sub) === null) { out.push(pad + "- " + scalars[rnd(scalars.length)]); continue; }
          out.push(pad + "- " + sub[0].slice(indent + 2));
          for (const l of sub.slice(1)) out.push(l);
        } else out.push(pad + "- " + scalars[rnd(scalars.length)]);
      }
    }
    return out;
  };
  let same = 0, left = 0, n = 0;
  for (let t = 0; t < 1500; t++) {
    const out = [];
    const r = gen(0, 0, out);
    if (!r || !out.length) continue;
    const text = out.join("\n") + "\n";
    const want = parseValues(text);
    const got = readLargeNow(text, "lines");
    n++;
    if (got === null) { left++; continue; }
    assert.ok(!want.error, `read although parseValues refuses it:\n${text}\n${want.error}`);
    assert.deepEqual(got.value, want.value === undefined ? null : want.value, text);
    same++;
  }
  console.log(`count: random block YAML: ${same} of ${n} read line by line as parseValues reads them, ${left} left to it`);
  assert.ok(same > n / 3, `${same} of ${n} read line by line`);
});

import { branchLabels, setDefs as setDefs2 } from "../../src/form/form_schema.js";

test("choices named: title, const/enum, the one required or own property, the type; never Option N", () => {
  setDefs2({});
  const probe = [
    { properties: [{ key: "exec", type: ["object"] }], constraints: { required: ["exec"] } },
    { properties: [{ key: "httpGet", type: ["object"] }, { key: "port", type: ["integer"] }] },
    { properties: [{ key: "tcpSocket", type: ["object"] }, { key: "port", type: ["integer"] }] },
  ];
  assert.deepEqual(branchLabels(probe), ["exec", "httpGet", "tcpSocket"]);
  assert.deepEqual(branchLabels([{ title: "By name", title_explicit: true, type: ["string"] }, { title: "Option 2", type: ["integer"] }]), ["By name", "integer"]);
  assert.deepEqual(branchLabels([{ const: "" }, { const: "a" }, { enum: ["x", "y"] }]), ["(empty)", "a", "x | y"]);
  assert.deepEqual(branchLabels([{ type: ["string"], constraints: { format: "date" } }, { type: ["array"], items: { type: ["string"] } }, { type: ["null"] }]), ["string (date)", "list of string", "null"]);
  assert.deepEqual(branchLabels([{ properties: [{ key: "kind", const: "A" }, { key: "x" }] }, { properties: [{ key: "kind", const: "B" }, { key: "x" }] }]), ["kind: A", "kind: B"]);
  const same = branchLabels([{ type: ["string"] }, { type: ["string"] }]);
  assert.deepEqual(same, ["string 1", "string 2"]);
  for (const l of [...same, ...branchLabels(probe)]) assert.ok(!/^Option \d+$/.test(l));
});
