// SPDX-License-Identifier: Apache-2.0
// harness.mjs - what every tests/form/*.test.mjs shares: one headless
// Chromium (Debian's /usr/bin/chromium driven by playwright-core from
// $(BUILD)/node, `make browser-deps`), the forms built once per process
// with `schemadoc SOURCE --format form -o FILE`, a page opened from file://
// with every request routed (anything but the document itself is recorded
// and aborted), console errors, page errors and CSP violations collected,
// and helpers that drive the page through the DOM names of the contract
// (docs/form.md): field controls by key path, regions, buttons.
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import assert from "node:assert/strict";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BUILD = process.env.SD_BUILD || "build";
export const SD = process.env.SD || path.join(ROOT, BUILD, "asan/schemadoc");
export const SD_REL = process.env.SD_REL || path.join(ROOT, "schemadoc");
export const CORPUS = path.resolve(ROOT, process.env.CORPUS || "../shared/corpus");
export const FIX = path.join(ROOT, "tests/form/fixtures");
export const TMP = fs.mkdtempSync(path.join(process.env.SD_TMP || "/tmp", "formtest-"));

const require = createRequire(path.join(ROOT, BUILD, "node") + "/");
let pw;
try { pw = require("playwright-core"); } catch {
  throw new Error(`playwright-core is not installed under ${BUILD}/node: run  make browser-deps`);
}
export const YAML = (() => {
  for (const w of ["yaml", "/usr/share/nodejs/yaml"]) { try { return createRequire(import.meta.url)(w); } catch { /* next */ } }
  throw new Error("the yaml library is not installed (Debian: node-yaml)");
})();

// The named sources: fixtures and the big real ones.
export const SOURCES = {
  chart: path.join(FIX, "chart"),
  basic: path.join(FIX, "chart-basic"),
  sections: path.join(FIX, "chart-sections"),
  choices: path.join(FIX, "chart-choices"),
  noschema: path.join(FIX, "chart-noschema"),
  k8s: path.join(FIX, "chart-k8s"),
  ytt: path.join(FIX, "ytt/schema.yaml"),
  crd: path.join(FIX, "crd/widgets.yaml"),
  schema: path.join(FIX, "schema/widget-config.schema.json"),
  hostile: path.join(FIX, "hostile"),
  kps: path.join(CORPUS, "charts/kube-prometheus-stack"),
  traefik: path.join(CORPUS, "charts/traefik"),
  // loki-sized (issue 40: about 1,100 fields, helm-docs comments, no
  // values.schema.json, one section per component): argo-cd, 1,156 fields
  loki: path.join(CORPUS, "charts/argo-cd"),
  deployment: path.join(CORPUS, "kubernetes/standalone/deployment-apps-v1.json"),
};
const BIG = new Set(["kps", "traefik", "deployment", "gen", "loki"]);
// a generated chart of 1,500 fields (tests/form/genchart.mjs), written once per process
import { genChart } from "./genchart.mjs";
let generated = null;
export function genSource() {
  if (!generated) generated = genChart(path.join(TMP, "generated"), 1500);
  return generated;
}

export function run(bin, args, opts = {}) {
  try {
    return { out: execFileSync(bin, args, { stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28, ...opts }).toString(), status: 0, err: "" };
  } catch (e) {
    return { out: e.stdout ? e.stdout.toString() : "", status: e.status, err: e.stderr ? e.stderr.toString() : String(e) };
  }
}

// the form page of a named source (or a path), built once per process
const built = new Map();
export function form(name, extra = []) {
  const key = name + "\0" + extra.join("\0");
  if (built.has(key)) return built.get(key);
  const src = name === "gen" ? genSource().dir : SOURCES[name] || name;
  const out = path.join(TMP, `${path.basename(String(name)).replace(/[^A-Za-z0-9_-]/g, "_")}-${built.size}.html`);
  // the fixtures through the sanitizer build; the corpus through the release
// binary (the sanitizer build is slow on 1 MB schemas)
  const bin = (BIG.has(name) || !path.resolve(src).startsWith(ROOT + "/tests/")) && fs.existsSync(SD_REL) ? SD_REL : SD;
  const r = run(bin, [src, "--format", "form", "-o", out, ...extra]);
  assert.equal(r.status, 0, `schemadoc ${src} --format form failed (${r.status}): ${r.err.slice(0, 2000)}`);
  assert.ok(fs.existsSync(out), `no ${out}`);
  built.set(key, out);
  return out;
}

let browserP = null;
export function browser() {
  if (!browserP) {
    browserP = pw.chromium.launch({
      executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    });
  }
  return browserP;
}
export async function closeBrowser() {
  if (browserP) { const b = await browserP; browserP = null; await b.close(); }
}

// Open a form page. Returns { page, context, issues } where issues holds
// requests (other than the document), console errors, page errors and CSP
// violations seen so far.
export async function open(file, opts = {}) {
  const b = await browser();
  const context = await b.newContext({
    viewport: opts.viewport || { width: 1280, height: 900 },
    colorScheme: opts.colorScheme || "light",
    reducedMotion: opts.reducedMotion || "no-preference",
    forcedColors: opts.forcedColors || "none",
    acceptDownloads: true,
    permissions: opts.permissions || [],
  });
  const url = pathToFileURL(file).href;
  const issues = { requests: [], console: [], pageErrors: [], csp: [] };
  await context.route("**/*", (route) => {
    const u = route.request().url();
    if (u === url || u === url + (opts.hash || "")) return route.continue();
    issues.requests.push(u);
    return route.abort();
  });
  await context.addInitScript(() => {
    // when the page says it is ready, and whether a value control is usable then
    new MutationObserver((ms, obs) => {
      if (document.documentElement.dataset.ready !== "1") return;
      window.__sdReadyAt = performance.now();
      window.__sdFirstEnabled = !!document.querySelector("[data-path] input:not([disabled]), [data-path] select:not([disabled]), [data-path] textarea:not([disabled])");
      obs.disconnect();
      // interactive: the main thread free after the flag: the next frame,
      // then a task posted from it (runs after that frame's paint)
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => {
          window.__sdInteractiveAt = performance.now();
          window.__sdNodesAtLoad = document.getElementsByTagName("*").length;
        };
        ch.port2.postMessage(0);
      });
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });
    window.__sdCsp = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      window.__sdCsp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const page = await context.newPage();
  page.on("console", (m) => { if (m.type() === "error") issues.console.push(m.text()); });
  page.on("pageerror", (e) => issues.pageErrors.push(String(e && e.stack || e)));
  // a page request that never went through route (e.g. a download or a data: image) also counts
  page.on("request", (r) => {
    const u = r.url();
    if (u !== url && !u.startsWith(url + "#") && !u.startsWith("data:") && !u.startsWith("blob:") && !issues.requests.includes(u)) issues.requests.push(u);
  });
  const t0 = Date.now();
  await page.goto(url + (opts.hash || ""), { waitUntil: "domcontentloaded" });
  await page.waitForSelector('html[data-ready="1"]', { timeout: opts.readyTimeout || 20000, state: "attached" });
  issues.loadMs = Date.now() - t0;
  return { page, context, issues, url, async close() { await context.close(); } };
}

// everything that went wrong so far, as a list of strings (empty = clean)
export async function hygiene(p) {
  const csp = await p.page.evaluate(() => window.__sdCsp || []);
  return [
    ...p.issues.requests.map((u) => `request: ${u}`),
    ...p.issues.console.map((t) => `console.error: ${t}`),
    ...p.issues.pageErrors.map((t) => `pageerror: ${t}`),
    ...csp.map((t) => `securitypolicyviolation: ${t}`),
  ];
}

// ---- paths -----------------------------------------------------------------
// "a.b[0]['x.y']" / 'a["x.y"].c' -> prefixes ["a", "a.b", "a.b[0]", ...]
export function prefixes(p) {
  const out = [];
  let i = 0;
  while (i < p.length) {
    if (p[i] === "[") {
      let j = i + 1;
      if (p[j] === '"') { j++; while (j < p.length && p[j] !== '"') { if (p[j] === "\\") j++; j++; } j++; }
      while (j < p.length && p[j] !== "]") j++;
      i = j + 1;
    } else {
      if (p[i] === ".") i++;
      while (i < p.length && p[i] !== "." && p[i] !== "[") i++;
    }
    out.push(p.slice(0, i));
  }
  return out;
}
// a key as it appears in a path: bare when it is a plain identifier, else ["..."]
export function keyPath(parent, key) {
  if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) return parent ? `${parent}.${key}` : key;
  return `${parent}[${JSON.stringify(key)}]`;
}

// Expand every collapsed object on the way to PATH (click its summary so the
// page's lazy rendering runs), then return the control's locator.
export async function reveal(page, p) {
  let linked = false;
  for (const pre of prefixes(p)) {
    // an item past a long list's first page (the form shows 50 at a time):
    // reached as a person would, by its deep link (#values.PATH)
    if (!linked && !(await page.evaluate((pre) => !!document.querySelector(`[data-path="${CSS.escape(pre)}"]`), pre)) && /\]$/.test(pre)) {
      await page.evaluate((p) => { location.hash = "#values." + p; }, p);
      await page.waitForTimeout(50);
      linked = true;
    }
    // as a person does: scroll to the object (an open object far down the
    // page builds its fields when it comes near the screen), open it if closed
    const clicked = await page.evaluate((pre) => {
      const w = document.querySelector(`[data-path="${CSS.escape(pre)}"]`);
      if (!w) return false;
      const d = w.tagName === "DETAILS" ? w : [...w.querySelectorAll("details")].find((x) => x.closest("[data-path]") === w);
      if (d && !d.open) { d.querySelector(":scope > summary").click(); return true; }
      if (d && !d.querySelector(":scope > .sd-body [data-path]")) { d.scrollIntoView({ block: "start" }); return true; }
      return false;
    }, pre);
    if (clicked) await page.waitForTimeout(50);
  }
  // an object (details) has no value control: its wrapper
  const isObject = await page.evaluate((p) => {
    const w = document.querySelector(`[data-path="${CSS.escape(p)}"]`);
    if (!w) return false;
    return ![...w.querySelectorAll("label[for]")].some((l) => {
      const t = l.textContent.trim();
      return t === p || t.startsWith(p) && !/^[A-Za-z0-9_.\[\]-]/.test(t.slice(p.length));
    });
  }, p);
  if (isObject) return page.locator(`[data-path="${p.replace(/["\\]/g, "\\$&")}"]`).first();
  return control(page, p);
}

// The value control of PATH: the element a label[for] whose text starts with
// PATH (followed by nothing or a non-path character) points at, inside the
// wrapper [data-path=PATH].
export async function controlId(page, p) {
  return page.evaluate((p) => {
    const w = document.querySelector(`[data-path="${CSS.escape(p)}"]`);
    const scope = w || document;
    for (const l of scope.querySelectorAll("label[for]")) {
      const t = l.textContent.trim();
      if (t === p || t.startsWith(p) && !/^[A-Za-z0-9_.\[\]-]/.test(t.slice(p.length))) return l.htmlFor;
    }
    return null;
  }, p);
}
export async function control(page, p, timeout = 5000) {
  const t0 = Date.now();
  for (;;) {
    const id = await controlId(page, p);
    if (id) return page.locator(`[id="${id.replace(/["\\]/g, "\\$&")}"]`);
    if (Date.now() - t0 > timeout) throw new Error(`no control labelled ${p}`);
    await page.waitForTimeout(50);
  }
}

// set a field's value as a person would: type (text), select (select), check
export async function setField(page, p, value) {
  const c = await reveal(page, p);
  const tag = await c.evaluate((e) => e.tagName + ":" + (e.type || ""));
  if (tag.startsWith("SELECT")) await c.selectOption(String(value));
  else if (tag === "INPUT:checkbox") await c.setChecked(!!value);
  else { await c.fill(String(value)); await c.dispatchEvent("change"); }
  return c;
}

// ---- regions and page controls ----------------------------------------------
export const region = (page, name) => page.getByRole("region", { name, exact: true });
export const button = (page, name) => page.getByRole("button", { name, exact: true });
export async function preview(page, name = "values.yaml preview") {
  return (await region(page, name).locator("pre").first().textContent()) || "";
}
// the export as Download writes it (the preview masks secret values; the
// file has them): "" when there is nothing to download
export async function downloadText(page) {
  const dl = page.waitForEvent("download", { timeout: 3000 }).catch(() => null);
  await page.getByRole("button", { name: /^Download / }).click();
  const d = await dl;
  return d ? fs.readFileSync(await d.path(), "utf8") : "";
}
export async function problems(page) {
  const r = region(page, "Problems");
  const heading = ((await r.getByRole("heading").first().textContent()) || "").trim();
  const items = await r.locator("a[href^='#']").evaluateAll((as) => as.map((a) => ({ text: a.textContent.trim(), href: a.getAttribute("href") })));
  return { heading, items };
}
// poll FN until PRED holds (returns the last value; throws with it on timeout)
export async function until(fn, pred, timeout = 4000, what = "condition") {
  const t0 = Date.now();
  let v;
  for (;;) {
    v = await fn();
    if (pred(v)) return v;
    if (Date.now() - t0 > timeout) throw new assert.AssertionError({ message: `timed out waiting for ${what}; last: ${JSON.stringify(v)}`.slice(0, 4000) });
    await new Promise((r) => setTimeout(r, 50));
  }
}
// The page's own signals (docs/form.md), for a test that checks that
// something did NOT happen: it must first know that the page is done.
// html[data-checks] counts the updates run (validation, Problems, preview),
// html[data-check-due] is set while one waits for a pause in typing;
// html[data-saves] counts the autosaves, html[data-save-due] while one is
// due. Read a count before the action, then wait past it.
export async function signal(page, name) {
  return page.evaluate((n) => Number(document.documentElement.dataset[n] || 0), name);
}
async function past(page, count, due, since, timeout, what) {
  const t0 = Date.now();
  // `due`: the flags of what is still to run (an update due leads to a save)
  const read = () => page.evaluate(([c, ds]) => ({ n: Number(document.documentElement.dataset[c] || 0), due: ds.some((d) => d in document.documentElement.dataset) }), [count, due]);
  const first = process.env.SD_LOG_SIGNALS ? await read() : null;
  const v = await until(read, (x) => x.n > since && !x.due, timeout, what);
  // SD_LOG_SIGNALS=1: how long each wait took, and where the page was when it began
  if (first) console.log(`# signal ${count}: ${since} before, ${first.n}${first.due ? " (one due)" : ""} at the wait, ${v.n} after ${Date.now() - t0} ms`);
  return v;
}
// the update after the changes made since `since` (signal(page, "checks")) ran
export async function checked(page, since, timeout = 5000) {
  return past(page, "checks", ["checkDue"], since, timeout, `an update after update ${since}`);
}
// the autosave after the changes made since `since` (signal(page, "saves")) ran
export async function saved(page, since, timeout = 5000) {
  return past(page, "saves", ["saveDue", "checkDue"], since, timeout, `an autosave after save ${since}`);
}
// every open object has drawn its members (details[data-built="1"])
export async function drawn(page, timeout = 5000) {
  return until(() => page.evaluate(() => document.querySelectorAll('details[open][data-built="0"]').length), (n) => n === 0, timeout, "the open objects drawn");
}
// the text `read()` gives once two reads 150 ms apart agree; fails when it
// has not settled within `timeout` (never hands back a moving value)
export async function settled(read, timeout = 3000, what = "the text to settle") {
  const t0 = Date.now();
  let a = await read();
  for (;;) {
    await new Promise((r) => setTimeout(r, 150));
    const b = await read();
    if (b === a) return b;
    if (Date.now() - t0 > timeout) throw new assert.AssertionError({ message: `timed out waiting for ${what}; last two reads differ: ${JSON.stringify([a, b])}`.slice(0, 4000) });
    a = b;
  }
}
export async function exportMode(page, mode) {
  await page.getByRole("radio", { name: mode, exact: true }).check();
}
export async function importText(page, text, name = "values.yaml") {
  await page.locator('input[type=file][aria-label="Import values file"]').setInputFiles({ name, mimeType: "application/x-yaml", buffer: Buffer.from(text) });
}

// YAML 1.1 as Helm reads values (the test helper the rules tests use)
export async function loadValues(text) {
  const { loadValuesFile } = await import("../js/yamlvalues.mjs");
  return loadValuesFile("x.yaml", text).map((d) => d.value);
}

// schemadoc validate SOURCE FILES --output json (release binary when there is one)
export function validate(source, files) {
  const r = run(fs.existsSync(SD_REL) ? SD_REL : SD, ["validate", source, ...files, "--output", "json"]);
  if (!r.out) throw new Error(`validate ${source} ${files.join(" ")}: ${r.status} ${r.err}`);
  return JSON.parse(r.out);
}
export function writeTmp(name, text) {
  const f = path.join(TMP, name);
  fs.writeFileSync(f, text);
  return f;
}

// test() that knows the form's known bugs (tests/form/known.mjs): such a test
// still runs; its failure prints "known failure: NAME: BUG: what failed" and
// does not fail the suite; its success prints "known bug gone: NAME" (remove
// the entry). FORM_STRICT=1 makes them ordinary tests.
import { KNOWN } from "./known.mjs";
import { test as nodeTest } from "node:test";
export function test(name, a, b) {
  const fn = b || a, opts = b ? a : {};
  const k = Object.keys(KNOWN).find((x) => name.startsWith(x));
  if (!k || process.env.FORM_STRICT) return nodeTest(name, opts, fn);
  return nodeTest(name, opts, async (t) => {
    try { await fn(t); } catch (e) {
      console.log(`known failure: ${name}: ${KNOWN[k]} -- ${String(e && e.message || e).split("\n")[0].slice(0, 200)}`);
      return;
    }
    console.log(`known bug gone: ${name} (remove it from tests/form/known.mjs)`);
  });
}

// count of assertions made through check() (printed as `count:` by each file)
let checks = 0;
export function check(cond, msg) { assert.ok(cond, msg); checks++; }
export function checkEqual(a, b, msg) { assert.deepStrictEqual(a, b, msg); checks++; }
export function checksDone() { return checks; }
