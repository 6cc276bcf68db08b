// SPDX-License-Identifier: Apache-2.0
// tests/js-form/secret_page.mjs SD CHART... - the reference page and the form
// mark the same secrets: for each chart, every entry of `SD CHART --format
// html` carries the badge "secret" exactly when the form's rule
// (src/form/secret_rule.js) calls its key path a secret value, given the
// model's hints (`SD CHART --format json`), walked as src/render/view.c
// walks it. Prints one `figure:` line and "N passed, N failed" per chart's
// check; exits 1 on a difference. Run by tests/suite-form.sh.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { classifyPath } from "../../src/form/secret_rule.js";

const [sd, ...charts] = process.argv.slice(2);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sd-secret-page-"));
let pass = 0, fail = 0, entries = 0, secrets = 0;

function hints(n) {
  const ts = Array.isArray(n.type) ? n.type.filter((t) => typeof t === "string") : [];
  const type = ts.length === 0 ? undefined : ts.includes("string") ? "string" : ts[0];
  return { type, format: (n.constraints || {}).format, writeOnly: n.writeOnly === true,
    description: typeof n.description === "string" ? n.description : undefined };
}

// path -> classified a secret value (any node of that path), as view.c walks
function walk(n, segs, out, depth) {
  if (!n || typeof n !== "object" || Array.isArray(n) || depth > 300) return;
  const k = typeof n.key === "string" ? n.key : null;
  const s = k === null ? segs : segs.concat([k.startsWith("[") ? 0 : k]);
  if (typeof n.path === "string") out.set(n.path, out.get(n.path) || classifyPath(s, hints(n)) === "secret");
  for (const c of n.properties || []) walk(c, s, out, depth + 1);
  for (const kw of ["allOf", "oneOf", "anyOf"]) for (const c of n[kw] || []) walk(c, s, out, depth + 1);
  for (const p of n.patternProperties || []) walk(p.node, s, out, depth + 1);
  for (const kw of ["additionalProperties", "items", "if", "then", "else"]) walk(n[kw], s, out, depth + 1);
}

const unescape = (t) => t.replace(/&quot;/g, "\"").replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

for (const chart of charts) {
  const model = JSON.parse(execFileSync(sd, [chart, "--format", "json"], { stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 30 }).toString());
  const page = path.join(tmp, "page.html");
  execFileSync(sd, [chart, "--format", "html", "-o", page], { stdio: "ignore" });
  const html = fs.readFileSync(page, "utf8");
  const js = new Map();
  walk(model.root, [], js, 0);
  const wrong = [];
  let n = 0, ns = 0;
  for (const m of html.matchAll(/<div class="entry-head">([\s\S]*?)<\/div>/g)) {
    const key = /<a class="key" href="[^"]*"><code>([\s\S]*?)<\/code><\/a>/.exec(m[1]);
    if (!key) continue;
    const p = unescape(key[1]);
    if (!js.has(p)) continue;            // definitions, the root
    const c = /badge-secret"/.test(m[1]);
    n++; if (c) ns++;
    if (c !== js.get(p)) wrong.push(p + ": page " + (c ? "secret" : "not") + ", form " + (js.get(p) ? "secret" : "not"));
  }
  entries += n; secrets += ns;
  if (wrong.length || n === 0) { fail++; console.log("FAIL: " + chart + " (" + n + " entries): " + wrong.slice(0, 10).join("; ")); }
  else pass++;
}
fs.rmSync(tmp, { recursive: true, force: true });
console.log("figure: secret rule, page and form agree on " + entries + " entries of " + charts.length + " charts and CRDs (" + secrets + " secret values)");
console.log(pass + " passed, " + fail + " failed");
process.exit(fail ? 1 : 0);
