// SPDX-License-Identifier: Apache-2.0
// V. The one secret rule through the page (issue 40 §2): a chart made from
// every key path of tests/secret-keys.tsv (its values.yaml holds each path,
// its schema the description, writeOnly and format the list gives); each
// text field is masked exactly when its label is "secret". Then a known
// string is typed into each secret field: it is absent from localStorage
// (autosave), the values.yaml preview (both export modes), the --set line
// (a shell variable stands in: --set-string "auth.password=${AUTH_PASSWORD}")
// and the Changes list, and present in the downloaded file.
import { after } from "node:test";
import fs from "node:fs";
import path from "node:path";
import {
  test, form, open, closeBrowser, signal, saved, check, checkEqual, checksDone, control, preview, until, button, region, exportMode, hygiene, TMP, ROOT,
} from "./harness.mjs";
import { parsePath, pathText } from "../../src/form/form_path.js";

after(async () => { console.log(`count: form V secret rule checks ${checksDone()}`); await closeBrowser(); });

const rows = fs.readFileSync(path.join(ROOT, "tests/secret-keys.tsv"), "utf8").split("\n").filter((l) => l && !l.startsWith("#")).map((l) => {
  const [label, type, p, source, description] = l.split("\t");
  const [t, hint] = type.split("+");
  return { label, type: t, hint, path: p, segs: parsePath(p), source, description };
});

// the chart: values.yaml with every path, a schema with each node's type and hints
function makeChart() {
  const dir = path.join(TMP, "secretkeys");
  fs.mkdirSync(dir, { recursive: true });
  const root = {};
  const sorted = rows.slice().sort((a, b) => a.segs.length - b.segs.length);
  const used = [];
  for (const r of sorted) {
    let v = root, ok = true;
    for (let i = 0; i < r.segs.length - 1 && ok; i++) {
      const k = r.segs[i], next = r.segs[i + 1];
      if (v[k] === undefined) v[k] = typeof next === "number" ? [] : {};
      if (v[k] === null || typeof v[k] !== "object") ok = false; else v = v[k];
    }
    const last = r.segs[r.segs.length - 1];
    if (!ok || (v[last] !== undefined && typeof v[last] === "object" && v[last] !== null)) { if (ok && (r.type === "object" || r.type === "array")) used.push(r); continue; }
    v[last] = r.type === "string" ? "d" + used.length : r.type === "boolean" ? false : r.type === "integer" ? 1 : r.type === "object" ? {} : r.type === "array" ? [] : null;
    used.push(r);
  }
  const hints = new Map(rows.map((r) => [r.path, r]));
  const schema = (v, segs) => {
    const r = hints.get(pathText(segs));
    const s = {};
    if (Array.isArray(v)) { s.type = "array"; if (v.length) s.items = schema(v[0], segs.concat([0])); }
    else if (v !== null && typeof v === "object") { s.type = "object"; s.properties = {}; for (const k of Object.keys(v)) s.properties[k] = schema(v[k], segs.concat([k])); }
    else if (v !== null) s.type = typeof v === "number" ? "integer" : typeof v;
    if (r && r.description) s.description = r.description;
    if (r && r.hint === "writeOnly") s.writeOnly = true;
    if (r && r.hint === "password") s.format = "password";
    return s;
  };
  fs.writeFileSync(path.join(dir, "Chart.yaml"), "apiVersion: v2\nname: secretkeys\nversion: 0.1.0\n");
  fs.writeFileSync(path.join(dir, "values.yaml"), JSON.stringify(root, null, 1) + "\n");
  fs.writeFileSync(path.join(dir, "values.schema.json"), JSON.stringify({ $schema: "http://json-schema.org/draft-07/schema#", ...schema(root, []) }, null, 1));
  return { dir, used };
}
const chart = makeChart();
// the rows that are a text field in the page (strings, and untyped nulls)
const textRows = chart.used.filter((r) => r.type === "string" || r.type === "-");

async function expandAll(page) {
  await button(page, "Expand all").click();
  await until(() => page.evaluate(() => document.querySelectorAll("#sd-form details.sd-obj:not([open])").length), (n) => n === 0, 30000, "every object open");
}

// path -> "masked" | "clear" | "none" (no text control labelled with it)
function masks(page, paths) {
  return page.evaluate((paths) => {
    const out = {};
    for (const p of paths) {
      const w = document.querySelector(`[data-path="${CSS.escape(p)}"]`);
      const l = w && [...w.querySelectorAll("label[for]")].find((x) => x.textContent.trim() === p);
      const c = l && document.getElementById(l.htmlFor);
      if (!c || (c.tagName !== "INPUT" && c.tagName !== "TEXTAREA")) { out[p] = "none"; continue; }
      const m = c.tagName === "INPUT" ? c.type === "password" : getComputedStyle(c).webkitTextSecurity === "disc" || c.hidden;
      out[p] = m ? "masked" : "clear";
    }
    return out;
  }, paths);
}

test("V secret rule: every labelled key path through the page, masked exactly when it is a secret value", async () => {
  check(chart.used.length >= 300, `the chart holds ${chart.used.length} of ${rows.length} labelled paths`);
  const p = await open(form(chart.dir), { readyTimeout: 60000 });
  try {
    await expandAll(p.page);
    const got = await masks(p.page, textRows.map((r) => r.path));
    const wrong = textRows.filter((r) => got[r.path] !== (r.label === "secret" ? "masked" : "clear")).map((r) => `${r.path}: ${got[r.path]}, labelled ${r.label}`);
    checkEqual(wrong, [], `${textRows.length} text fields: masked exactly when labelled secret`);
    console.log(`figure: secret rule through the page: ${textRows.length - wrong.length} of ${textRows.length} text fields masked as labelled (${textRows.filter((r) => r.label === "secret").length} secret)`);
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

test("V secret rule: a secret typed is never in localStorage, the preview, the --set line or Changes; Download has it", async () => {
  const p = await open(form(chart.dir), { readyTimeout: 60000 });
  try {
    await expandAll(p.page);
    const secrets = textRows.filter((r) => r.label === "secret");
    const typed = new Map();
    const s0 = await signal(p.page, "saves");
    for (const [i, r] of secrets.entries()) {
      const s = `Kn0wn-S3cret-${i}-Zq`;
      const c = await control(p.page, r.path);
      await c.fill(s);
      await c.dispatchEvent("change");
      typed.set(r.path, s);
    }
    const last = [...typed.values()].pop();
    // the autosave after the last secret typed ran (not merely a first one)
    await saved(p.page, s0);
    const stored = await p.page.evaluate(() => Object.keys(localStorage).map((k) => k + "=" + localStorage.getItem(k)).join("\n"));
    const flags = await preview(p.page, "--set flags");
    const y1 = await preview(p.page);
    const changes = (await region(p.page, "Changes").textContent()) || "";
    await exportMode(p.page, "Everything");
    const y2 = await until(() => preview(p.page), (t) => t !== y1, 4000, "the Everything preview");
    const flags2 = await preview(p.page, "--set flags");
    for (const [where, text] of [["localStorage", stored], ["preview (only changes)", y1], ["preview (everything)", y2], ["--set (only changes)", flags], ["--set (everything)", flags2], ["Changes", changes]]) {
      const seen = [...typed].filter(([, s]) => text.includes(s)).map(([fp]) => fp);
      checkEqual(seen, [], `${where}: no typed secret in clear (${typed.size} typed)`);
    }
    check(/\n  password: "?\*{8}"?\n/.test(y1), "the preview shows auth.password masked");
    check(flags.includes('--set-string "auth.password=${AUTH_PASSWORD}"'), `the --set line has a shell variable for auth.password: ${flags.slice(0, 300)}`);
    check(/# secret values are not printed: set these shell variables first .*AUTH_PASSWORD \(auth\.password\)/.test(flags), "the --set line says which variables to set");
    check(/SASL_CLIENT_PASSWORDS \(sasl\.client\.passwords, as JSON\)/.test(flags), "a list of secrets is one variable holding its JSON");
    check(/auth\.password \(hidden\)/.test(changes), "Changes names the secret, hidden");
    // Download writes the real values
    await exportMode(p.page, "Only changes");
    const [dl] = await Promise.all([p.page.waitForEvent("download"), button(p.page, "Download values.yaml").click()]);
    const file = fs.readFileSync(await dl.path(), "utf8");
    const missing = [...typed].filter(([, s]) => !file.includes(s)).map(([fp]) => fp);
    checkEqual(missing, [], "the downloaded file has every typed secret");
    check(file.includes(last), "the last typed is there");
  } finally { await p.close(); }
});
