// SPDX-License-Identifier: Apache-2.0
// H. A big chart is usable (issue 33, docs/form.md): search filters the
// tree as you type (count, Enter / Shift+Enter, "no match"); the outline,
// skip links, Expand all / Collapse all, objects folded below the first
// level and built when opened (a generated 1,500-field chart interactive in
// time); the error right under its input and long descriptions folded;
// choices named; Enter and Tab in a new map key; the phone (indentation,
// icon buttons with names, no horizontal scroll on any corpus chart, CRD or
// the Deployment definition); print; the look (cards, an empty preview that
// says what to do, a side panel that stays in view, light and dark); what
// changed (the Changes region, its diff, "Only what I changed" with the
// defaults); and a change redraws only the fields whose errors changed and
// only the preview's lines that changed.
import { after } from "node:test";
import fs from "node:fs";
import path from "node:path";
import {
  test, form, open, closeBrowser, signal, checked, check, checkEqual, checksDone, setField, reveal, control, until, button, region,
  preview, problems, importText, hygiene, CORPUS,
} from "./harness.mjs";
import { searchTyping } from "./measure.mjs";

after(async () => { console.log(`count: form H big-chart checks ${checksDone()}`); await closeBrowser(); });

const visiblePaths = (pg) => pg.evaluate(() => [...document.querySelectorAll("[data-path]")]
  .filter((w) => w.getClientRects().length > 0 && !w.closest(".sd-hidden")).map((w) => w.dataset.path));
const focusedPath = (pg) => pg.evaluate(() => (document.activeElement.closest("[data-path]") || {}).dataset?.path || null);
const searchbox = (pg) => pg.getByRole("searchbox", { name: "Search fields", exact: true });

test("H search: typing narrows the tree to the matches and their ancestors, counts them, steps with Enter / Shift+Enter, says no match", async () => {
  const p = await open(form("chart"));
  try {
    const pg = p.page;
    const s = searchbox(pg);
    await s.click();
    await pg.keyboard.type("host");
    const count = pg.locator("#sd-search-count");
    await until(() => count.textContent(), (t) => /^\d+ match/.test(t), 3000, "a count");
    const shown = await visiblePaths(pg);
    check(shown.includes("ingress.hosts[0].host"), `a match deep in a list is shown: ${shown.join(", ")}`);
    check(shown.includes("ingress") && shown.includes("ingress.hosts"), "its ancestors are shown");
    check(!shown.includes("replicaCount") && !shown.includes("image.tag"), "fields that do not match are hidden");
    check(await pg.evaluate(() => document.querySelector('[data-path="ingress.hosts[0].host"]').classList.contains("sd-match")), "a match is marked");
    const meta = await pg.locator('[data-path="ingress.hosts"] .sd-meta').first().textContent();
    check(/at least 1 item$/.test(meta), `the constraint in words, singular for one: ${meta}`);
    const n = Number((await count.textContent()).match(/^\d+/)[0]);
    check(n >= 2, `${n} matches`);
    // Enter: the first match, focused; Enter again (from the search field): the next; Shift+Enter: back
    await s.press("Enter");
    const first = await until(() => focusedPath(pg), (x) => x, 3000, "Enter focuses a match");
    check(/^\d+ of \d+: /.test(await count.textContent()), `the count says which: ${await count.textContent()}`);
    await s.focus();
    await s.press("Enter");
    const second = await until(() => focusedPath(pg), (x) => x && x !== first, 3000, "Enter again: the next match");
    await s.focus();
    await s.press("Shift+Enter");
    await until(() => focusedPath(pg), (x) => x === first, 3000, "Shift+Enter: the previous match");
    check(first !== second, `Enter steps: ${first} -> ${second} -> back`);
    // no match
    await s.fill("no-such-key-anywhere");
    await until(() => count.textContent(), (t) => t === "No match", 3000, "no match");
    check(await pg.locator("#sd-filter-none").isVisible(), "the form says no field matches");
    checkEqual((await visiblePaths(pg)).length, 0, "nothing shown for no match");
    // emptied: every field again
    await s.fill("");
    const all = await until(() => visiblePaths(pg), (v) => v.includes("replicaCount") && v.includes("image.tag"), 3000, "all fields again");
    check(all.length > 10, "the search emptied shows the fields again");
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

test("H search on the generated 1,500-field chart: a deep field found as you type, within budget", { timeout: 180000 }, async () => {
  const p = await open(form("gen"), { readyTimeout: 60000 });
  try {
    const pg = p.page;
    const r = await searchTyping(pg, "cputag63");
    check(r !== null, "the page filters as you type (html[data-searched])");
    console.log(`figure: form generated chart: search as you type, per key median ${r.median.toFixed(1)} ms, worst ${r.worst.toFixed(1)} ms (${r.count})`);
    // make check runs on a shared, loaded machine: the median within 150 ms here (make bench: the target, 100 ms)
    check(r.median < 150, `search per key median ${r.median.toFixed(1)} ms (< 150)`);
    const shown = await until(() => visiblePaths(pg), (v) => v.some((x) => /cpuTag63$/.test(x)), 5000, "the deep match shown");
    const deep = shown.find((x) => /cpuTag63$/.test(x));
    check(deep.split(".").length >= 5, `the match is deep: ${deep}`);
    check(shown.length < 60, `only the matches and their ancestors are shown (${shown.length})`);
  } finally { await p.close(); }
});

test("H outline, skip links, folding: objects folded below the first level, built when opened; Expand all / Collapse all", async () => {
  const p = await open(form("chart"));
  try {
    const pg = p.page;
    const nav = pg.getByRole("navigation", { name: "Outline", exact: true });
    const links = await nav.getByRole("link").evaluateAll((as) => as.map((a) => a.textContent.trim()));
    const tops = await pg.evaluate(() => [...document.querySelectorAll(".sd-root > [data-path]")].map((w) => w.dataset.path));
    check(tops.length > 10, `${tops.length} top-level fields`);
    for (const t of tops) check(links.some((l) => l.startsWith(t)), `the outline links ${t}`);
    await nav.getByRole("link", { name: /^ingress/ }).click();
    await until(() => focusedPath(pg), (x) => x === "ingress", 3000, "an outline link focuses its field");
    for (const [name, target] of [["Skip to the fields", "sd-form"], ["Skip to Problems", "sd-problems"], ["Skip to Export", "sd-export"]]) {
      const href = await pg.getByRole("link", { name, exact: true }).getAttribute("href");
      checkEqual(href, "#" + target, `${name} -> #${target}`);
      check(await pg.locator("#" + target).count() === 1, `#${target} exists`);
    }
    // a top-level object is open; below it, objects start folded and unbuilt
    check(await pg.evaluate(() => document.querySelector('details[data-path="ingress"]').open), "a top-level object is open");
    const deep = await pg.evaluate(() => { const d = document.querySelector('details[data-path="ingress.hosts[0]"]'); return d ? { open: d.open } : null; });
    check(deep && deep.open, "a list's object item is open in a short list");
    const persist = await pg.evaluate(() => { const d = document.querySelector('[data-path="persistence"]'); return d && d.tagName; });
    checkEqual(persist, "DETAILS", "persistence is an object");
    // Collapse all, then Expand all
    await button(pg, "Collapse all").click();
    checkEqual(await pg.evaluate(() => document.querySelectorAll("#sd-form details[open]").length), 0, "Collapse all closes every object");
    await button(pg, "Expand all").click();
    // every object, but a recursive schema's past 12 levels
    await until(() => pg.evaluate(() => [...document.querySelectorAll("#sd-form details:not([open])")].filter((d) => d.dataset.path.split(/[.[]/).length <= 12).length), (n) => n === 0, 5000, "Expand all opens every object");
    check(await pg.locator('[data-path="ingress.hosts[0].host"]').count() === 1, "and builds their fields");
  } finally { await p.close(); }
  // folded objects below the first level: their fields not built until opened
  const q = await open(form("gen"), { readyTimeout: 60000 });
  try {
    const pg = q.page;
    const info = await pg.evaluate(() => {
      const d = document.querySelector(".sd-root > details > .sd-body details.sd-obj");
      return d ? { path: d.dataset.path, open: d.open, built: !!d.querySelector(":scope > .sd-body [data-path]") } : null;
    });
    check(info && !info.open && !info.built, `an object below the first level starts folded, its fields unbuilt: ${JSON.stringify(info)}`);
    await pg.locator(`details[data-path="${info.path}"] > summary`).click();
    await until(() => pg.evaluate((p) => !!document.querySelector(`details[data-path="${p}"] > .sd-body [data-path]`), info.path), (v) => v, 3000, "opened: built");
    check(true, "a folded object's fields are built when it is opened");
    const t = await pg.evaluate(() => ({ ready: window.__sdReadyAt, inter: window.__sdInteractiveAt, nodes: window.__sdNodesAtLoad }));
    console.log(`figure: form generated 1,500-field chart: ready ${t.ready.toFixed(0)} ms, interactive ${t.inter.toFixed(0)} ms after navigation, ${t.nodes} DOM nodes then`);
    check(t.nodes < 6000, `a bounded DOM at load: ${t.nodes} nodes (< 6000; the chart has 1,500 fields)`);
    // make check runs on a loaded machine: 2 s here; make bench prints the figure against its 1 s target
    check(t.inter < 2000, `interactive ${t.inter.toFixed(0)} ms after navigation (< 2000)`);
  } finally { await q.close(); }
});

test("H errors at the input: the error right under the control, before the description; a long description folds after a few lines", async () => {
  const p = await open(form("chart"));
  try {
    const pg = p.page;
    await setField(pg, "replicaCount", "0");
    await until(() => pg.locator("#f-replicaCount-e").isVisible(), (v) => v, 3000, "the error shows");
    const order = await pg.evaluate(() => [...document.getElementById("f-replicaCount").children].map((c) => c.className.split(" ")[0]));
    const ci = order.indexOf("sd-control"), ei = order.indexOf("sd-error"), di = order.indexOf("sd-desc");
    check(ci >= 0 && ei === ci + 1, `the error follows the control: ${order.join(" ")}`);
    check(di > ei, "the description comes after the error");
  } finally { await p.close(); }
  const q = await open(form("gen"), { readyTimeout: 60000 });
  try {
    const pg = q.page;
    const long = pg.locator(".sd-desc.sd-long").first();
    await until(() => long.count(), (n) => n > 0, 5000, "a long description");
    const folded = await long.evaluate((d) => ({ h: d.clientHeight, full: d.scrollHeight, lh: parseFloat(getComputedStyle(d).lineHeight) }));
    check(folded.full > folded.h && folded.h <= 3.5 * folded.lh, `a long description shows about three lines: ${JSON.stringify(folded)}`);
    const more = long.locator("xpath=following-sibling::button[1]");
    checkEqual(await more.getAttribute("aria-expanded"), "false", "a 'more' button, not expanded");
    check(/^more/.test((await more.textContent()).trim()), "it says more");
    await more.click();
    const open2 = await long.evaluate((d) => d.clientHeight >= d.scrollHeight - 1);
    check(open2, "more: the whole description");
    checkEqual(await more.getAttribute("aria-expanded"), "true", "aria-expanded after more");
  } finally { await q.close(); }
});

test("H choices named: by the required or own property, const, type; (empty) for \"\"; label and title apart; a branch's fields", async () => {
  const p = await open(form("choices"));
  try {
    const pg = p.page;
    const opts = async (name) => pg.getByRole("combobox", { name, exact: true }).evaluate((s) => [...s.options].slice(1).map((o) => o.textContent));
    checkEqual(await opts("Variant of probe"), ["exec", "httpGet", "tcpSocket"], "probe's branches by their property");
    checkEqual(await opts("Variant of logFormat"), ["json", "text", "(empty)"], "const branches by their value");
    checkEqual(await opts("Variant of target"), ["string", "integer"], "branches by their type");
    const all = await pg.evaluate(() => [...document.querySelectorAll("select option")].map((o) => o.textContent));
    check(!all.some((t) => /^Option \d+$/.test(t)), "no Option N anywhere");
    const mode = await control(pg, "mode");
    checkEqual(await mode.evaluate((s) => [...s.options].map((o) => o.textContent)), ["unset", "(empty)", "fast", "slow"], 'the enum value "" is (empty)');
    // the label and the title do not run together
    const gaps = await pg.evaluate(() => [...document.querySelectorAll(".sd-row, summary")].filter((r) => r.querySelector(".sd-title") && r.querySelector(".sd-path")).map((r) => {
      const a = r.querySelector(".sd-path").getBoundingClientRect(), b = r.querySelector(".sd-title").getBoundingClientRect();
      return a.top === b.top ? b.left - a.right : 99;
    }));
    check(gaps.length > 3 && gaps.every((g) => g >= 4), `a space between every path and its title: ${gaps.join(",")}`);
    // choosing a branch shows its fields
    await pg.getByRole("combobox", { name: "Variant of probe", exact: true }).selectOption({ label: "tcpSocket" });
    await reveal(pg, "probe.tcpSocket.port");
    check(await pg.locator('[data-path="probe.tcpSocket"]').count() === 1 && await pg.locator('[data-path="probe.httpGet"]').count() === 0, "the chosen branch's fields, not the old one's");
  } finally { await p.close(); }
});

test("H keyboard: Enter or Tab in a new map key moves to its value", async () => {
  const p = await open(form("choices"));
  try {
    const pg = p.page;
    for (const [key, k] of [["prometheus.io/scrape", "Tab"], ["team", "Enter"]]) {
      await button(pg, "Add entry to podAnnotations").click();
      const ki = pg.locator("input.sd-entry-key").last();
      await ki.focus();
      await pg.keyboard.type(key);
      await pg.keyboard.press(k);
      await pg.keyboard.type("true");
      const at = await focusedPath(pg);
      checkEqual(at, `podAnnotations["${key}"]`.replace(/^podAnnotations\["team"\]$/, "podAnnotations.team"), `${k}: the focus is in the value of ${key}`);
    }
    const y = await until(() => preview(pg), (t) => /team: "true"/.test(t), 3000, "both entries exported");
    check(/prometheus\.io\/scrape: "true"/.test(y), `key and value apart: ${y}`);
    check(!/scrapetrue/.test(y), "nothing typed into the key after Tab");
  } finally { await p.close(); }
});

// every corpus chart and CRD, and the Deployment definition; remote $refs
// from the corpus' offline copies (as suite-corpus reads them)
const MAPS = ["--offline",
  "--map", `https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/=${CORPUS}/kubernetes/`,
  "--map", `https://raw.githubusercontent.com/=${CORPUS}/charts/_remote/raw.githubusercontent.com/`];
function corpusSources() {
  const out = [];
  for (const c of fs.readdirSync(path.join(CORPUS, "charts"))) if (fs.existsSync(path.join(CORPUS, "charts", c, "Chart.yaml"))) out.push(path.join(CORPUS, "charts", c));
  for (const c of fs.readdirSync(path.join(CORPUS, "crds"))) out.push(path.join(CORPUS, "crds", c));
  out.push(path.join(CORPUS, "kubernetes/standalone/deployment-apps-v1.json"));
  return out;
}

test("H phone: no horizontal scroll at 320 and 390 px on every corpus chart, CRD and the Deployment definition, everything expanded", { timeout: 1200000 }, async () => {
  const srcs = corpusSources();
  check(srcs.length >= 20, `${srcs.length} sources`);
  const wide = [];
  for (const src of srcs) {
    for (const width of [320, 390]) {
      const p = await open(form(src, MAPS), { viewport: { width, height: 800 }, readyTimeout: 60000 });
      try {
        const pg = p.page;
        if (width === 320) {
          await pg.locator("#sd-outline-box > summary").click();   // the outline, folded on a phone, opened
          await button(pg, "Expand all").click();
          await pg.waitForFunction(() => !document.querySelector("#sd-form details:not([open])") || document.querySelectorAll("[data-path]").length > 4000, null, { timeout: 120000 });
        }
        const r = await pg.evaluate(() => ({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth, fields: document.querySelectorAll("[data-path]").length }));
        if (r.sw > r.cw) {
          const culprit = await pg.evaluate((cw) => [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > cw + 1 && !e.closest("pre, .sd-desc pre, table")).slice(0, 3).map((e) => e.tagName + "." + e.className + " " + (e.textContent || "").slice(0, 40)), r.cw);
          wide.push(`${path.basename(src)} @${width}: ${r.sw} > ${r.cw} (${culprit.join(" | ")})`);
        }
      } finally { await p.close(); }
    }
  }
  checkEqual(wide, [], "no horizontal scroll");
});

test("H phone: a depth-10 field keeps 280 px on a 390 px screen; per-field buttons are icons with names", async () => {
  const crd = path.join(CORPUS, "crds/monitoring.coreos.com_prometheuses.yaml");
  const p = await open(form(crd), { viewport: { width: 390, height: 844 }, readyTimeout: 60000 });
  try {
    const pg = p.page;
    const deep = "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values[0]";
    const y = "apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata:\n  name: x\nspec:\n  affinity:\n    nodeAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution:\n" +
      "        - weight: 1\n          preference:\n            matchExpressions:\n              - key: zone\n                operator: In\n                values:\n                  - a-very-long-zone-name\n";
    await importText(pg, y, "prom.yaml");
    await until(() => preview(pg, "manifest preview"), (t) => /a-very-long-zone-name/.test(t), 5000, "imported");
    const c = await reveal(pg, deep);
    const w = await c.evaluate((e) => e.getBoundingClientRect().width);
    const depth = deep.split(/[.[]/).length;
    check(depth >= 10, `depth ${depth}`);
    check(w >= 280, `the depth-${depth} control is ${w.toFixed(0)} px wide (>= 280)`);
    const sw = await pg.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    checkEqual(sw, 0, "no horizontal scroll with the deep field open");
    // per-field buttons: an icon and a name, no words
    const bad = await pg.evaluate(() => [...document.querySelectorAll(".sd-item-bar button, .sd-reset.sd-icon-btn, #sd-form .sd-icon-btn")].filter((b) =>
      !b.getAttribute("aria-label") || !b.querySelector("svg") || b.textContent.trim() !== "").map((b) => b.outerHTML.slice(0, 100)));
    checkEqual(bad, [], "icon buttons: an svg, an aria-label, no text");
    const names = await pg.evaluate(() => [...document.querySelectorAll(".sd-item-bar button")].map((b) => b.getAttribute("aria-label")));
    check(names.some((n) => /^Remove spec\.affinity/.test(n)) && names.some((n) => /^Move .* down$/.test(n)), `named by action and path: ${names.slice(0, 3).join("; ")}`);
  } finally { await p.close(); }
});

test("H print: values and descriptions, no buttons, no inputs' chrome, folded objects opened", async () => {
  const p = await open(form("chart"));
  try {
    const pg = p.page;
    // the folded objects a reader sees (not those inside a folded one: print builds deeper ones)
    const folded = () => pg.evaluate(() => [...document.querySelectorAll("#sd-form details:not([open])")]
      .filter((d) => !d.parentElement.closest("details:not([open])")).map((d) => d.dataset.path));
    const closedBefore = await folded();
    check(closedBefore.length > 0, `some objects start folded: ${closedBefore.join(", ")}`);
    await pg.evaluate(() => window.dispatchEvent(new Event("beforeprint")));
    await pg.emulateMedia({ media: "print" });
    const st = await pg.evaluate(() => {
      const vis = (sel) => [...document.querySelectorAll(sel)].filter((e) => getComputedStyle(e).display !== "none" && e.getClientRects().length > 0).length;
      const inp = getComputedStyle(document.querySelector("#f-image-tag-c") || document.querySelector("input[type=text]"));
      // of the side panel only the values preview prints (issue 40, 6)
      return { buttons: vis("button"), side: vis(".sd-side > :not(.sd-export-card), .sd-export-card > :not(.sd-preview)"), outline: vis(".sd-outline"), closed: document.querySelectorAll("#sd-form details:not([open])").length,
        border: inp.borderTopWidth, bg: inp.backgroundColor, desc: vis(".sd-desc"), values: vis("#sd-form input, #sd-form select"),
        closed12: [...document.querySelectorAll("#sd-form details:not([open])")].filter((d) => d.dataset.path.split(/[.[]/).length <= 12).length };
    });
    checkEqual([st.buttons, st.side, st.outline], [0, 0, 0], "no buttons, no side panel but its preview, no outline in print");
    checkEqual(st.border, "0px", "inputs print without a border");
    check(/rgba\(0, 0, 0, 0\)|transparent/.test(st.bg), `inputs print without a background: ${st.bg}`);
    check(st.desc > 5 && st.values > 10, `descriptions (${st.desc}) and values (${st.values}) printed`);
    checkEqual(st.closed12, 0, `every object opened for print (${closedBefore.length} were folded; a recursive schema's stop at 12 levels)`);
    await pg.emulateMedia({ media: "screen" });
    await pg.evaluate(() => window.dispatchEvent(new Event("afterprint")));
    checkEqual(await folded(), closedBefore, "folded again after print");
  } finally { await p.close(); }
});

test("H looks like a product: cards per top-level key, an empty preview that says what to do, a side panel that stays in view, light and dark", async () => {
  for (const scheme of ["light", "dark"]) {
    const p = await open(form("chart"), { colorScheme: scheme });
    try {
      const pg = p.page;
      const empty = pg.locator("#sd-preview-empty");
      check(await empty.isVisible(), `${scheme}: an untouched form says what to do`);
      checkEqual((await empty.textContent()).trim(), "Nothing changed yet: edit a field or import a values file.", `${scheme}: the words`);
      check(!(await pg.locator("#sd-preview").isVisible()), `${scheme}: no empty grey box`);
      const card = await pg.evaluate(() => {
        const c = getComputedStyle(document.querySelector(".sd-root > .sd-field"));
        return { radius: parseFloat(c.borderTopLeftRadius), border: c.borderTopWidth, bg: c.backgroundColor, page: getComputedStyle(document.body).backgroundColor };
      });
      check(card.radius >= 8 && card.border !== "0px" && card.bg !== card.page, `${scheme}: a top-level key is a card: ${JSON.stringify(card)}`);
      await setField(pg, "image.tag", "2.0");
      await until(() => empty.isVisible(), (v) => !v, 3000, "the placeholder leaves");
      check(await pg.locator("#sd-preview").isVisible(), `${scheme}: the preview once something changed`);
      // scrolled far down, the side panel is still in view
      await pg.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const top = await pg.evaluate(() => document.querySelector(".sd-side").getBoundingClientRect().top);
      check(top >= 0 && top < 100, `${scheme}: the side panel stays in view (top ${top.toFixed(0)})`);
    } finally { await p.close(); }
  }
});

test("H what changed: the Changes region with each default, its diff against values.yaml, and only the changed fields", async () => {
  const p = await open(form("chart"));
  try {
    const pg = p.page;
    await setField(pg, "image.tag", "2.0");
    await setField(pg, "service.port", "8080");
    const ch = region(pg, "Changes");
    await until(() => ch.getByRole("heading").first().textContent(), (t) => t === "2 changes", 3000, "2 changes");
    const items = await ch.locator("li").allTextContents();
    check(items.some((t) => /image\.tag "2\.0" default "1\.25"/.test(t)), `image.tag with its default: ${items.join(" | ")}`);
    check(items.some((t) => /service\.port 8080 default 80/.test(t)), "service.port with its default");
    await ch.getByRole("link", { name: "service.port" }).click();
    await until(() => focusedPath(pg), (x) => x === "service.port", 3000, "a change's link focuses its field");
    await ch.locator("summary").click();
    const diff = await until(() => pg.locator("#sd-diff").textContent(), (t) => /@@/.test(t), 3000, "the diff");
    check(/^-  tag: "1\.25"$/m.test(diff) && /^\+  tag: "2\.0"$/m.test(diff), `the diff against values.yaml: ${diff.slice(0, 300)}`);
    check(/^-  port: 80$/m.test(diff) && /^\+  port: 8080$/m.test(diff), "both changes in the diff");
    await pg.getByRole("checkbox", { name: "Only what I changed", exact: true }).check();
    const shown = await until(() => visiblePaths(pg), (v) => v.includes("image.tag") && !v.includes("replicaCount"), 3000, "only changed");
    check(shown.includes("service.port"), `only the changed fields (and their objects): ${shown.join(", ")}`);
    const was = await pg.locator('[data-path="image.tag"] .sd-was').textContent();
    checkEqual(was, "default: 1.25", "the default beside the changed value");
  } finally { await p.close(); }
});

test("H a keystroke redraws only the changed field and the preview's changed lines", async () => {
  const p = await open(form("kps"), { readyTimeout: 60000 });
  try {
    const pg = p.page;
    const c = await reveal(pg, "prometheus.prometheusSpec.retention");
    await c.click();
    await c.press("End");
    const n0 = await signal(pg, "checks");
    await pg.keyboard.type("x");
    await checked(pg, n0, 10000);   // the first change settles (the preview gets its line)
    await pg.evaluate(() => {
      window.__muts = { fields: new Set(), preview: 0, previewNodes: document.getElementById("sd-preview").childNodes.length };
      const mo = new MutationObserver((ms) => {
        for (const m of ms) {
          const inPre = m.target.closest ? m.target.closest("#sd-preview") : m.target.parentElement && m.target.parentElement.closest("#sd-preview");
          if (inPre) { window.__muts.preview += m.addedNodes.length + m.removedNodes.length + (m.type === "characterData" ? 1 : 0); continue; }
          const el = m.target.nodeType === 1 ? m.target : m.target.parentElement;
          const f = el && el.closest("[data-path]");
          if (f && el.closest("#sd-form")) window.__muts.fields.add(f.dataset.path);
        }
      });
      mo.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    const n1 = await signal(pg, "checks");
    await pg.keyboard.type("yz");
    await checked(pg, n1, 10000);   // past the pause after typing: the whole update ran
    const m = await pg.evaluate(() => ({ fields: [...window.__muts.fields], preview: window.__muts.preview, nodes: window.__muts.previewNodes }));
    const other = m.fields.filter((f) => !"prometheus.prometheusSpec.retention".startsWith(f));
    checkEqual(other, [], "no field but the edited one (and its ancestors) was touched");
    check(m.nodes > 0 && m.preview > 0 && m.preview <= 4, `the preview changed ${m.preview} nodes of ${m.nodes} (its one changed line)`);
  } finally { await p.close(); }
});
