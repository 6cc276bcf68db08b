// SPDX-License-Identifier: Apache-2.0
// tests/js-form/form_units.test.mjs - the form's pure modules (no DOM):
// key paths and ids, values (get/set/delete, the overlay of a values file),
// YAML out (YAML 1.1 quoting), import (errors with line and column, custom
// tags as data), writing into an imported document (comments and order
// kept, idempotent; ytt's header and list annotations; pins), --set flags,
// merge-key bombs refused, keys named like Object.prototype's members as
// data, and the names that mark a secret. tests/suite-form.sh bundles this file
// with esbuild (the `yaml` package comes from Debian's node-yaml) and runs it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pathText, pathId, pointer, parsePath, segsOfPointer } from "../../src/form/form_path.js";
import { getAt, setAt, deleteAt, overlay, mergeValues, clone, equal, leafPaths, withPins } from "../../src/form/form_values.js";
import { parseValues, toYaml, syncYaml, ambiguous, MERGE_BUDGET } from "../../src/form/form_yaml.js";
import { setFlags } from "../../src/form/form_flags.js";
import { widget, chooseBranch, isSecret, isSecretKey, setDefs, res, extras } from "../../src/form/form_schema.js";

test("paths: text, ids, pointers and back", () => {
  const cases = [
    [["image", "tag"], "image.tag"],
    [["ingress", "hosts", 0, "host"], "ingress.hosts[0].host"],
    [["podAnnotations", "a.b/c"], 'podAnnotations["a.b/c"]'],
    [["x", "with space", "é"], 'x["with space"]["é"]'],
    [["q", 'say "hi"'], 'q["say \\"hi\\""]'],
    [["a-b", "_c"], "a-b._c"],
  ];
  for (const [segs, text] of cases) {
    assert.equal(pathText(segs), text);
    assert.deepEqual(parsePath(text), segs);
  }
  const ids = new Set();
  for (const segs of [["a.b"], ["a", "b"], ["a/b"], ["a~b"], ["a b"], ["ä"], ["a_2e_"], ["a", 0], ["a[0]"]]) {
    const id = pathId(segs);
    assert.match(id, /^[A-Za-z0-9_-]+$/);
    assert.ok(!ids.has(id), "unique id for " + JSON.stringify(segs));
    ids.add(id);
  }
  assert.equal(ids.size, 9);
  assert.equal(pointer(["a/b", "c~d", 1]), "/a~1b/c~0d/1");
  assert.deepEqual(segsOfPointer("/a~1b/0/x", { "a/b": [{ x: 1 }] }), ["a/b", 0, "x"]);
  assert.equal(parsePath("a..b["), null);
});

test("values: set, get, delete, and the overlay that makes them", () => {
  let v = {};
  v = setAt(v, ["a", "b"], 1);
  v = setAt(v, ["l", 0, "x"], "y");
  assert.deepEqual(v, { a: { b: 1 }, l: [{ x: "y" }] });
  assert.equal(getAt(v, ["l", 0, "x"]), "y");
  assert.equal(getAt(v, ["nope", "x"]), undefined);
  v = setAt(v, ["__proto__"], { polluted: true });
  assert.equal(({}).polluted, undefined);
  assert.deepEqual(Object.keys(v), ["a", "l", "__proto__"]);
  deleteAt(v, ["__proto__"]);
  const defaults = { image: { repository: "r", tag: "" }, replicas: 1, gone: "x", list: [1, 2] };
  const cur = clone(defaults);
  assert.equal(overlay(cur, defaults), undefined, "an untouched form is an empty overlay");
  cur.image.tag = "v2";
  delete cur.gone;
  cur.added = { k: "v" };
  cur.list = [1];
  const o = overlay(cur, defaults);
  assert.deepEqual(o, { image: { tag: "v2" }, list: [1], added: { k: "v" }, gone: null });
  assert.deepEqual(mergeValues(defaults, o), cur, "the overlay merged over the defaults is the values");
  assert.ok(equal({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }));
  assert.ok(!equal({ a: 1 }, { a: 1, b: 2 }));
});

test("YAML out: ambiguous scalars quoted for YAML 1.1 readers", () => {
  const words = ["yes", "no", "on", "off", "y", "n", "true", "false", "null", "~", "0123", "1e3", "0x1F", "12:30", "True", "NO", "", "1.5", ".inf", "2001-12-14"];
  for (const w of words) assert.ok(ambiguous(w), w);
  const v = {};
  words.forEach((w, i) => { v["k" + i] = w; });
  v["a.b"] = "plain";
  v.yes = "key";
  v.multi = "line1\nline2\n";
  const text = toYaml(v);
  for (const [i, w] of words.entries()) assert.ok(text.includes("k" + i + ': "' + w + '"') || text.includes("k" + i + ": '" + w + "'"), "quoted: " + w + " in\n" + text);
  assert.ok(text.includes("a.b: plain"));
  assert.ok(/"yes": key/.test(text), "a key that reads as a boolean is quoted");
  const back = parseValues(text);
  assert.deepEqual(back.value, v, "the text reads back as the same values");
  assert.equal(words.length, 20);
});

test("import: YAML 1.1, errors with line and column, custom tags are data", () => {
  assert.deepEqual(parseValues("a: yes\nb: on\nc: 0x1F\n").value, { a: true, b: true, c: 31 });
  const bad = parseValues("a: 1\nb: [1\nc: 2\n");
  assert.ok(bad.error, "a syntax error");
  assert.match(bad.error, /^line \d+, column \d+: /);
  const dup = parseValues("a: 1\na: 2\n");
  assert.ok(dup.error && /line 2, column 1/.test(dup.error), dup.error);
  const tags = parseValues("a: !custom foo\nb: !!binary aGk=\nc: 2001-12-14\nd: !!js/function 'function(){}'\n");
  assert.equal(tags.error, undefined);
  assert.deepEqual(tags.value, { a: "foo", b: "aGk=", c: "2001-12-14", d: "function(){}" });
  const bomb = parseValues("a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: &d [*c, *c]\ne: &e [*d, *d]\nf: &f [*e, *e]\ng: &g [*f, *f]\nh: [*g, *g]\n");
  assert.ok(bomb.error || bomb.value, "an alias bomb is refused or bounded");
});

test("export into an imported file keeps its comments and order; idempotent", () => {
  const defaults = { replicaCount: 1, image: { repository: "r", tag: "" }, service: { port: 80 } };
  const file = "# my values\nservice:\n  port: 8080 # the port\nimage:\n  tag: v1 # pinned\nextra: 1\n";
  const imp = parseValues(file);
  const values = mergeValues(clone(defaults), imp.value);
  // untouched: the file comes back as it was
  assert.equal(syncYaml(imp.doc, overlay(values, defaults)), file);
  // a change: the touched key changes, the rest keeps its comments and place
  values.image.tag = "v2";
  const out = syncYaml(imp.doc, overlay(values, defaults));
  assert.equal(out, "# my values\nservice:\n  port: 8080 # the port\nimage:\n  tag: v2 # pinned\nextra: 1\n");
  // export(import(export(import(x)))) == export(import(x)), both modes
  for (const mode of ["changes", "all"]) {
    const once = (text) => {
      const r = parseValues(text);
      const v = mergeValues(clone(defaults), r.value);
      return syncYaml(r.doc, mode === "all" ? v : overlay(v, defaults) || {});
    };
    const a = once(file);
    assert.equal(once(a), a, mode);
  }
  // a deleted default is written as key: null
  const v2 = clone(defaults);
  delete v2.service;
  assert.equal(toYaml(overlay(v2, defaults)), "service: null\n");
});

test("--set flags: single-quoted, keys and values escaped for strvals, the flag that keeps the type", () => {
  const f = setFlags({ ingress: { annotations: { "nginx.ingress.kubernetes.io/rewrite-target": "/" } }, tag: "1.0", on: true, n: 3,
    list: ["a", "b"], gone: null, s: "hello world", "a,b": "x,y", "k=[0]": "{v}", q: "it's", t: "TRUE", z: "007", f: 1.5, e: {}, l0: [],
    deep: { "": 1 }, big: 2 ** 60, nul: "a\u0000b" });
  const lines = f.split(" \\\n");
  assert.deepEqual(lines, [
    "--set 'ingress.annotations.nginx\\.ingress\\.kubernetes\\.io/rewrite-target=/'",
    "--set 'tag=1.0'",
    "--set 'on=true'",
    "--set 'n=3'",
    "--set-json 'list=[\"a\",\"b\"]'",
    "--set 'gone=null'",
    "--set 's=hello world'",
    "--set 'a\\,b=x\\,y'",
    "--set 'k\\=\\[0]=\\{v}'",
    "--set 'q=it'\\''s'",
    "--set-string 't=TRUE'",
    "--set-string 'z=007'",
    "--set-json 'f=1.5'",
    "--set-json 'e={}'",
    "--set-json 'l0=[]'",
    "--set-json 'deep={\"\":1}'",
    "--set-json 'big=1152921504606847000'",
    "--set-json 'nul=\"a\\u0000b\"'",
  ]);
  assert.equal(setFlags({}), "");
  assert.match(setFlags({ "": 1, x: Infinity }), /^# not expressible as flags \(use the values file\): the top-level key "", x \(Infinity\)$/);
  // 31 levels: Helm reads 30 names at most; the rest goes as JSON
  let v = { leaf: 1 };
  for (let i = 0; i < 31; i++) v = { ["k" + i]: v };
  const deep = setFlags(v);
  assert.match(deep, /^--set-json '(k\d+\.){29}k\d+=\{/);
});

test("merge keys: a merge-key bomb is refused with its place, ordinary merges are read", () => {
  let t = "a0: &a0 {x: 1}\n";
  for (let i = 1; i <= 11; i++) t += `a${i}: &a${i} {<<: [${Array(10).fill("*a" + (i - 1)).join(", ")}]}\n`;
  const t0 = Date.now();
  const r = parseValues(t);
  assert.ok(Date.now() - t0 < 5000, "refused quickly");
  assert.match(r.error || "", /^line \d+, column \d+: merge keys \(<<\) here expand to more than 1000000 values/);
  assert.equal(MERGE_BUDGET, 1000000);
  const ok = parseValues("base: &b {a: 1, b: {c: 2}}\nq:\n  <<: *b\n  a: 3\nr: {<<: [*b], d: 4}\n");
  assert.deepEqual(ok.value, { base: { a: 1, b: { c: 2 } }, q: { a: 3, b: { c: 2 } }, r: { a: 1, b: { c: 2 }, d: 4 } });
  const self = parseValues("a: &a\n  b: 1\n  c:\n    <<: *a\n");
  assert.ok(self.error, "a merge of the map it is in is refused");
});

test("merge keys: expanded nodes are counted, not merge keys (a chain of 2,000 merges reads, a real bomb is refused)", () => {
  // issue 41 item 12: each map merges the one before and sets its own x
  const pad = (i) => String(i).padStart(4, "0");
  let chain = "base: &a0000\n  x: 0\n";
  for (let i = 1; i < 2000; i++) chain += `k${pad(i)}: &a${pad(i)}\n  <<: *a${pad(i - 1)}\n  x: ${i}\n  y${i % 7}: ${i}\n`;
  assert.ok(chain.length > 70000, `${chain.length} bytes`);
  let t0 = Date.now();
  const r = parseValues(chain);
  const ms = Date.now() - t0;
  assert.equal(r.error, undefined, "read, not refused as a bomb");
  assert.equal(Object.keys(r.value).length, 2000);
  assert.deepEqual(r.value.k1999, { x: 1999, y0: 1995, y1: 1996, y2: 1997, y3: 1998, y4: 1999, y5: 1993, y6: 1994 });
  assert.deepEqual(Object.keys(r.value.k0008), ["x", "y1", "y2", "y3", "y4", "y5", "y6", "y0"], "merged keys in YAML 1.1's order");
  assert.ok(ms < 15000, `read in ${ms} ms`);
  // ten keys a level, each a merge of the level below: 10^11 values in 1.8 KB
  let bomb = "a0: &a0 {x: 1}\n";
  for (let i = 1; i <= 11; i++) bomb += `a${i}: &a${i} {${Array.from({ length: 10 }, (_, j) => `k${j}: {<<: *a${i - 1}}`).join(", ")}}\n`;
  t0 = Date.now();
  const b = parseValues(bomb);
  assert.match(b.error || "", /^line 7, column \d+: merge keys \(<<\) here expand to more than 1000000 values/);
  assert.ok(Date.now() - t0 < 5000, "refused quickly");
  // a list of aliases merged, an alias of a list of maps, and what is not a map
  const l = parseValues("a: &a {p: 1}\nb: &b {q: 2, p: 3}\nls: &ls [*a, *b]\nx: {<<: [*b, *a], r: 3}\nz: {<<: *ls}\n");
  assert.deepEqual(l.value.x, { q: 2, p: 3, r: 3 });
  assert.deepEqual(l.value.z, { p: 1, q: 2 });
  assert.match(parseValues("a: &a [1]\nx: {<<: *a}\n").error, /^line 2, column 5: merge sources must be maps/);
  assert.match(parseValues("x: {<<: *nope}\n").error, /^line 1, column \d+: .*nope/);
  // aliases inside a document with merges: the same expanded-values budget
  let ab = "m: &m {u: 1}\nn: {<<: *m}\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (let i = 1; i <= 7; i++) ab += `a${i}: &a${i} [${Array(10).fill("*a" + (i - 1)).join(", ")}]\n`;
  assert.match(parseValues(ab).error || "", /^line \d+, column \d+: aliases \(\*\) here expand to more than 1000000 values/);
});

test("keys named constructor, __proto__, prototype, hasOwnProperty, toString are data", () => {
  const NAMES = ["constructor", "__proto__", "prototype", "hasOwnProperty", "toString"];
  const text = NAMES.map((k) => `${k}:\n  ${NAMES.map((j) => `${j}: {${NAMES.map((i) => `${i}: ${k}.${j}.${i}`).join(", ")}}`).join("\n  ")}`).join("\n") + "\n";
  const r = parseValues(text);
  assert.equal(r.error, undefined);
  for (const k of NAMES) for (const j of NAMES) for (const i of NAMES) assert.equal(getAt(r.value, [k, j, i]), `${k}.${j}.${i}`);
  assert.equal(Object.getPrototypeOf(r.value), Object.prototype);
  assert.equal(({}).constructor, Object, "Object.prototype untouched");
  const back = parseValues(toYaml(r.value));
  assert.deepEqual(back.value, r.value, "written and read back");
  assert.deepEqual(overlay(clone(r.value), {}), r.value);
  assert.equal(leafPaths(r.value).length, 125);
});

test("ytt: the data-values header once, #@overlay/replace on each list, idempotent", () => {
  const v = { name: "x", tags: ["a", "b"], sub: { list: [1], k: 2 }, items: [{ inner: [1] }] };
  const out = toYaml(v, true);
  assert.equal(out, "#@data/values\n---\nname: x\n#@overlay/replace\ntags:\n  - a\n  - b\nsub:\n  #@overlay/replace\n  list:\n    - 1\n  k: 2\n#@overlay/replace\nitems:\n  - inner:\n      - 1\n");
  for (const file of [out, "# mine\n#@data/values\n---\n# first\nname: y\n#@overlay/append\ntags: [c]\n", "#@data/values\n---\n#@overlay/replace\ntags: []\n"]) {
    const once = (text) => { const r = parseValues(text); return syncYaml(r.doc, r.value, true); };
    const a = once(file);
    assert.equal(a.split("#@data/values").length, 2, "one header:\n" + a);
    assert.equal((a.match(/#@overlay\/replace/g) || []).length, (a.match(/^ *[A-Za-z]+:(\n *-| \[)/gm) || []).length, "one annotation per list:\n" + a);
    assert.equal(once(a), a, "idempotent");
  }
  assert.equal(toYaml(undefined, true), "#@data/values\n---\n");
});

test("pins: the keys a file sets stay in Only changes, even at their default", () => {
  const defaults = { storage: { type: "s3", size: 1 }, tags: ["a"], labels: {} };
  const file = { storage: { type: "s3" }, tags: ["a"], labels: {} };
  const pins = leafPaths(file);
  assert.deepEqual(pins, [["storage", "type"], ["tags"], ["labels"]]);
  const cur = mergeValues(clone(defaults), file);
  assert.deepEqual(withPins(overlay(cur, defaults), cur, pins), file);
  cur.storage.size = 2;
  assert.deepEqual(withPins(overlay(cur, defaults), cur, pins), { storage: { size: 2, type: "s3" }, tags: ["a"], labels: {} });
  delete cur.storage;
  assert.deepEqual(withPins(overlay(cur, defaults), cur, pins), { storage: null, tags: ["a"], labels: {} });
});

test("secrets: the names of secret values, not of Secrets", () => {
  for (const k of ["password", "adminPassword", "apiKey", "apikey", "token", "bearerToken", "secretKey", "privateKey", "secretAccessKey",
    "credentials", "clientSecret", "secret", "db_password", "root-password", "passphrase", "githubSecret", "bitbucketServerSecret"]) assert.ok(isSecretKey(k), k);
  for (const k of ["existingSecret", "existingSecretPasswordKey", "tlsSecretName", "secretName", "secretRef", "passwordKey", "tokenFile",
    "tokenTTL", "passwordSecret", "imagePullSecrets", "accessKey", "privateKeySecretRef", "secretKeyRef", "name",
    "extraEnvVarsSecret", "envFromSecret", "scriptsSecret", "certificatesSecret"]) assert.ok(!isSecretKey(k), k);
});

test("schema: widgets, secrets and oneOf branch choice", () => {
  setDefs({ "def-port": { type: ["integer"], constraints: { minimum: 1 } } });
  assert.equal(widget(res({ ref: "def-port" })), "integer");
  assert.equal(widget({ type: ["string"], kubernetes: { int_or_string: true } }), "intOrString");
  assert.equal(widget({ type: ["object"], additionalProperties: { type: ["string"] } }), "map");
  assert.equal(widget({ type: ["object"] }), "free");
  assert.equal(widget({ type: ["string", "null"] }), "string");
  assert.equal(widget({ type: ["boolean"] }), "boolean");
  assert.equal(widget({ enum: ["a", "b"] }), "enum");
  assert.ok(isSecret({ type: ["string"] }, "adminPassword"));
  assert.ok(isSecret({ type: ["string"], writeOnly: true }, "x"));
  assert.ok(!isSecret({ type: ["string"] }, "name"));
  const n = { oneOf: [
    { type: ["object"], properties: [{ key: "kind", const: "a" }, { key: "x", type: ["string"] }] },
    { type: ["object"], properties: [{ key: "kind", const: "b" }, { key: "y", type: ["string"] }] },
    { type: ["string"] }] };
  assert.equal(chooseBranch(n, { kind: "b" }), 1, "the const discriminator decides");
  assert.equal(chooseBranch(n, { kind: "a", x: "1" }), 0);
  assert.equal(chooseBranch(n, "text"), 2);
  assert.equal(chooseBranch(n, undefined), -1);
});

test("schema: if/then/else fields come and go with the data", () => {
  const n = { type: ["object"], properties: [{ key: "enabled", type: ["boolean"] }],
    if: { properties: [{ key: "enabled", const: true }], constraints: { required: ["enabled"] } },
    then: { properties: [{ key: "size", type: ["string"] }] },
    else: { properties: [{ key: "size", type: [] }] } };
  const off = extras(n, { enabled: false }), on = extras(n, { enabled: true });
  assert.deepEqual(off.props.map((p) => p.key), [], "else only takes size away");
  assert.deepEqual(on.props.map((p) => p.key), ["size"]);
  assert.notEqual(off.key, on.key, "the choice changes its key");
  assert.ok(on.all.includes("size"));
  assert.deepEqual(extras(n, {}).props, [], "a missing enabled fails the if (required)");
});

test("values: Helm's merge keeps a null for a new key, deletes a default under one; the check drops the kept ones", async () => {
  const { helmMerge, dropNewNulls } = await import("../../src/form/form_values.js");
  const base = { s3: { insecure: false }, endpoint: null, hosts: ["a"] };
  const over = { s3: { bucket: null, insecure: null }, endpoint: null, hosts: ["a", null], top: null };
  const m = helmMerge(base, over);
  assert.deepEqual(m, { s3: { bucket: null }, endpoint: null, hosts: ["a", null], top: null });
  assert.deepEqual(helmMerge(base, over, true).s3, { insecure: null, bucket: null }, "ytt: a null is a value");
  const d = dropNewNulls(m, base);
  assert.deepEqual(d, { s3: {}, endpoint: null, hosts: ["a", null] });
  assert.equal(d.hosts, m.hosts, "what holds no new null is shared");
  assert.equal(dropNewNulls(base, base), base, "none: the same object");
});

test("--set: a secret value is a shell variable, never printed", () => {
  const f = setFlags({ auth: { password: "pw-Zq", user: "u" }, sasl: { passwords: ["a-Zq"] } }, new Map([["/auth/password", 1], ["/sasl/passwords/0", 1]]));
  assert.ok(!f.includes("Zq"), f);
  assert.match(f, /^--set-string "auth\.password=\$\{AUTH_PASSWORD\}" \\\n--set 'auth\.user=u' \\\n--set-json "sasl\.passwords=\$\{SASL_PASSWORDS\}"\n# secret values are not printed: set these shell variables first .*: AUTH_PASSWORD \(auth\.password\), SASL_PASSWORDS \(sasl\.passwords, as JSON\)$/);
});
