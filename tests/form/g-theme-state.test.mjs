// SPDX-License-Identifier: Apache-2.0
// G. Theme and state (../shared/design/form.md), with provenance and
// navigation: the dark palette from prefers-color-scheme, a "Dark mode"
// toggle that persists (localStorage `schemadoc-theme`), "Reset all" and the
// per-field reset back to the chart defaults, provenance (default / set here
// / imported), "Only what I changed", search, deep links.
import { after } from "node:test";
import fs from "node:fs";
import path from "node:path";
import {
  test,
  form, open, closeBrowser, check, checkEqual, checksDone, setField, importText, preview, until, button,
  reveal, control, loadValues, run, SD, SOURCES, problems, region, CORPUS,
} from "./harness.mjs";

after(async () => { console.log(`count: form G theme/state checks ${checksDone()}`); await closeBrowser(); });

const bgLum = (page) => page.evaluate(() => {
  const c = getComputedStyle(document.body).backgroundColor === "rgba(0, 0, 0, 0)" ? getComputedStyle(document.documentElement).backgroundColor : getComputedStyle(document.body).backgroundColor;
  const [r, g, b] = c.match(/[\d.]+/g).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
});
const parse = async (t) => { const d = await loadValues(t); return d.length && d[0] ? d[0] : {}; };

test("G: the palette follows prefers-color-scheme; the Dark mode toggle persists", async () => {
  let p = await open(form("chart"), { colorScheme: "dark" });
  try {
    check(await bgLum(p.page) < 0.3, "dark scheme: a dark background");
  } finally { await p.close(); }
  p = await open(form("chart"), { colorScheme: "light" });
  try {
    check(await bgLum(p.page) > 0.7, "light scheme: a light background");
    const t = button(p.page, "Dark mode");
    checkEqual(await t.getAttribute("aria-pressed"), "false", "toggle off in a light scheme");
    await t.click();
    checkEqual(await t.getAttribute("aria-pressed"), "true", "toggle on");
    await until(() => bgLum(p.page), (l) => l < 0.3, 2000, "dark after the toggle");
    check(await p.page.evaluate(() => localStorage.getItem("schemadoc-theme")) !== null, "stored in localStorage schemadoc-theme");
    await p.page.reload({ waitUntil: "domcontentloaded" });
    await p.page.waitForSelector('html[data-ready="1"]', { state: "attached" });
    check(await bgLum(p.page) < 0.3, "dark after reload");
    checkEqual(await button(p.page, "Dark mode").getAttribute("aria-pressed"), "true", "toggle still on after reload");
    await button(p.page, "Dark mode").click();
    await until(() => bgLum(p.page), (l) => l > 0.7, 2000, "light again");
  } finally { await p.close(); }
});

test("G: provenance, per-field reset, Reset all", async () => {
  const p = await open(form("chart"));
  try {
    const pg = p.page;
    const prov = (fp) => pg.locator(`[data-path="${fp}"]`).first().getAttribute("data-provenance");
    checkEqual(await prov("replicaCount"), "default", "default provenance");
    check(!(await button(pg, "Reset replicaCount").isVisible().catch(() => false)), "no reset button on a default value");
    await setField(pg, "replicaCount", "5");
    await until(() => prov("replicaCount"), (v) => v === "set here", 2000, "set here");
    check(/set here/.test(await pg.locator('[data-path="replicaCount"] .sd-prov').first().textContent()), "provenance text: set here");
    await button(pg, "Reset replicaCount").click();
    checkEqual(await (await control(pg, "replicaCount")).inputValue(), "1", "per-field reset: the default");
    await until(() => prov("replicaCount"), (v) => v === "default", 2000, "default again");
    await importText(pg, "image:\n  tag: \"9\"\n");
    await until(() => prov("image.tag"), (v) => v === "imported", 3000, "imported");
    const y = await until(() => preview(pg), (t) => !/replicaCount/.test(t) && /tag/.test(t), 2000, "reset field left the overlay");
    checkEqual(await parse(y), { image: { tag: "9" } }, "only the import remains");
    await setField(pg, "debug", "true");
    await button(pg, "Reset all").click();
    await button(pg, "Yes, reset all").click();   // it asks first (v-session)
    const y2 = await until(() => preview(pg), (t) => t.trim() === "" || t.trim() === "{}", 3000, "Reset all: empty overlay");
    checkEqual(await parse(y2), {}, "Reset all: an empty overlay");
    checkEqual(await (await reveal(pg, "image.tag")).inputValue(), "1.25", "Reset all: image.tag default");
    checkEqual(await prov("image.tag"), "default", "Reset all: provenance default");
  } finally { await p.close(); }
});

test("G: Only what I changed; search; deep links", async () => {
  let p = await open(form("chart"));
  try {
    const pg = p.page;
    await setField(pg, "image.tag", "2.0");
    await pg.getByRole("checkbox", { name: "Only what I changed", exact: true }).check();
    const shown = await until(() => pg.evaluate(() => [...document.querySelectorAll("[data-path]")].filter((w) => w.offsetParent !== null && w.querySelector("label[for]")).map((w) => w.dataset.path)),
      (v) => v.includes("image.tag") && !v.includes("replicaCount"), 3000, "only changed fields");
    check(!shown.includes("debug"), `only changed fields shown: ${shown.join(",")}`);
    await pg.getByRole("checkbox", { name: "Only what I changed", exact: true }).uncheck();
    // search by path, by title, by description
    for (const [q, fp] of [["ingress.hosts", "ingress.hosts"], ["Volume size", null], ["Pull policy", "image.pullPolicy"], ["at most 20 characters", "image.tag"]]) {
      await pg.evaluate(() => { for (const d of document.querySelectorAll("details[open]")) d.open = false; });
      const s = pg.getByRole("searchbox", { name: "Search fields", exact: true });
      await s.fill(q);
      await s.press("Enter");
      if (!fp) continue;   // a field hidden by if/then: nothing to focus, no error
      const at = await until(() => pg.evaluate(() => (document.activeElement.closest("[data-path]") || {}).dataset?.path), (x) => x && x.startsWith(fp), 3000, `search ${q}`);
      check(at.startsWith(fp), `search "${q}" focuses ${fp}`);
    }
  } finally { await p.close(); }
  p = await open(form("chart"), { hash: "#values.ingress.hosts" });
  try {
    const at = await until(() => p.page.evaluate(() => {
      const a = document.activeElement;
      return { path: (a.closest("[data-path]") || {}).dataset?.path, visible: a.getBoundingClientRect().height > 0 };
    }), (x) => x.path && x.path.startsWith("ingress.hosts"), 3000, "deep link focus");
    check(at.visible, `deep link #values.ingress.hosts opens and focuses ${at.path}`);
  } finally { await p.close(); }
});

// The basic view (docs/form.md): the keys a chart marks for forms
// (`form: true`, tests/form/fixtures/chart-basic) with their ancestors,
// grouped by section; the values of the keys it leaves out are kept.
const shown = (pg) => pg.evaluate(() => [...document.querySelectorAll("#sd-form [data-path]")].map((e) => e.getAttribute("data-path")).sort());
const radio = (pg, name) => pg.getByRole("radiogroup", { name: "View" }).getByRole("radio", { name, exact: true });

test("G: the basic view shows the marked keys by section and keeps the others' values", async () => {
  const p = await open(form("basic"));
  try {
    const pg = p.page;
    checkEqual(await pg.getByRole("radiogroup", { name: "View" }).count(), 1, "a View switch");
    check(await radio(pg, "Basic").isChecked(), "Basic chosen by default");
    check(!(await radio(pg, "All fields").isChecked()), "All fields not chosen");
    checkEqual(await shown(pg), ["image", "image.tag", "replicaCount", "service", "service.type"], "only the marked keys and their ancestors");
    checkEqual(await pg.locator("#sd-form h2.sd-section").allTextContents(), ["Common parameters", "Image parameters", "Service parameters"], "grouped by section");
    await importText(pg, "image:\n  repository: myrepo\nextra:\n  note: changed\n");
    await setField(pg, "image.tag", "2.0");
    const y = await until(() => preview(pg), (t) => /myrepo/.test(t) && /2\.0/.test(t), 3000, "hidden values exported");
    const v = await parse(y);
    checkEqual(v, { image: { repository: "myrepo", tag: "2.0" }, extra: { note: "changed" } }, "the overlay keeps the hidden keys' values");
    await radio(pg, "All fields").check();
    await until(() => shown(pg), (s) => s.includes("extra.note") && s.includes("service.port"), 3000, "All fields shows every key");
    checkEqual(await (await control(pg, "image.repository")).inputValue(), "myrepo", "the imported hidden value in All fields");
    checkEqual(await (await control(pg, "image.tag")).inputValue(), "2.0", "the value typed in Basic");
    await radio(pg, "Basic").check();
    await until(() => shown(pg), (s) => !s.includes("extra.note"), 3000, "back to Basic");
    // a search for a key Basic leaves out switches to All fields
    await pg.locator("#sd-search").fill("service.port");
    await pg.locator("#sd-search").press("Enter");
    await until(() => radio(pg, "All fields").isChecked(), (c) => c, 3000, "search switches to All fields");
    checkEqual(await pg.evaluate(() => document.activeElement && document.activeElement.id), await controlIdOf(pg, "service.port"), "the found field has focus");
  } finally { await p.close(); }
});

const controlIdOf = (pg, path) => pg.evaluate((path) => { const l = [...document.querySelectorAll("label[for]")].find((x) => x.textContent.trim() === path); return l ? l.htmlFor : null; }, path);

test("G: a problem in a key the basic view leaves out is listed; its link switches to All fields", async () => {
  const p = await open(form("basic"));
  try {
    const pg = p.page;
    await importText(pg, "service:\n  port: 70000\n");
    const r = await until(() => problems(pg), (x) => x.items.some((i) => /^service\.port: /.test(i.text)), 3000, "the hidden key's problem");
    check(await radio(pg, "Basic").isChecked(), "still Basic after the import");
    check(!(await shown(pg)).includes("service.port"), "service.port not shown in Basic");
    await region(pg, "Problems").getByRole("link", { name: r.items.find((i) => /^service\.port: /.test(i.text)).text }).click();
    await until(() => radio(pg, "All fields").isChecked(), (c) => c, 3000, "the link switches to All fields");
    checkEqual(await pg.evaluate(() => document.activeElement && document.activeElement.id), await controlIdOf(pg, "service.port"), "the field has focus");
    checkEqual(await (await control(pg, "service.port")).getAttribute("aria-invalid"), "true", "marked invalid");
  } finally { await p.close(); }
});

test("G: without form: true, sections that leave keys out are the basic view", async () => {
  const p = await open(form("sections"));
  try {
    const pg = p.page;
    check(await radio(pg, "Basic").isChecked(), "Basic chosen by default");
    checkEqual(await shown(pg), ["image", "image.tag", "port", "replicaCount"], "the keys in a helm-docs @section");
    checkEqual(await pg.locator("#sd-form h2.sd-section").allTextContents(), ["Workload", "Networking"], "grouped by section");
    await radio(pg, "All fields").check();
    await until(() => shown(pg), (s) => s.includes("labels") && s.includes("image.pullPolicy"), 3000, "All fields shows every key");
  } finally { await p.close(); }
});

test("G: a Bitnami chart's form: true keys (corpus bitnami-nginx)", { skip: !fs.existsSync(path.join(CORPUS, "charts/bitnami-nginx")) && "no corpus" }, async () => {
  const p = await open(form(path.join(CORPUS, "charts/bitnami-nginx")));
  try {
    const pg = p.page;
    check(await radio(pg, "Basic").isChecked(), "Basic chosen by default");
    const s = await shown(pg);
    for (const k of ["replicaCount", "ingress.hostname", "metrics.serviceMonitor.enabled", "service.type", "podSecurityContext.fsGroup"])
      check(s.includes(k), `Basic shows ${k}`);
    for (const k of ["image", "service.ports", "ingress.tls", "podSecurityContext.fsGroupChangePolicy"])
      check(!s.includes(k), `Basic leaves out ${k}`);
    check(s.length <= 40, `a short form (${s.length} fields)`);
    check((await pg.locator("#sd-form h2.sd-section").count()) >= 3, "grouped under the chart's sections");
    await radio(pg, "All fields").check();
    await until(() => shown(pg), (x) => x.includes("image"), 3000, "All fields");
  } finally { await p.close(); }
});

test("G: no View switch when the chart marks nothing", async () => {
  const p = await open(form("chart"));
  try {
    checkEqual(await p.page.getByRole("radiogroup", { name: "View" }).count(), 0, "no View switch");
    checkEqual(await p.page.locator("input[name=sd-view]").count(), 0, "no view radios");
  } finally { await p.close(); }
});

test("G: --reference links each field to the html page's anchor of its key", async () => {
  let p = await open(form("basic", ["--reference", "values.html"]));
  try {
    const pg = p.page;
    const link = pg.getByRole("link", { name: "Reference: image.tag", exact: true });
    checkEqual(await link.getAttribute("href"), "values.html#image.tag", "href is URL#anchor");
    checkEqual(await link.getAttribute("target"), "_blank", "opens beside the form");
    await radio(pg, "All fields").check();
    await until(() => shown(pg), (s) => s.includes("extra.note"), 3000, "All fields");
    await reveal(pg, "extra.note");
    const hrefs = await pg.locator("a.sd-ref").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    check(hrefs.length >= 9, `a Reference link on every field (${hrefs.length})`);
    const html = run(SD, [SOURCES.basic, "--format", "html"]);
    checkEqual(html.status, 0, "the html page");
    const ids = new Set([...html.out.matchAll(/ id="([^"]*)"/g)].map((m) => m[1]));
    for (const h of hrefs) {
      check(h.startsWith("values.html#"), `href ${h}`);
      check(ids.has(decodeURIComponent(h.slice("values.html#".length))), `the html page has the anchor of ${h}`);
    }
  } finally { await p.close(); }
  p = await open(form("basic"));
  try {
    checkEqual(await p.page.locator("a.sd-ref").count(), 0, "no links without --reference");
  } finally { await p.close(); }
});
