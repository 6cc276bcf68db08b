// SPDX-License-Identifier: Apache-2.0
// measure.mjs - the form's performance figures in headless Chromium, shared
// by F (f-big.test.mjs, with budgets) and `make bench` (tests/bench-form.mjs):
// file size; navigation -> interactive (html[data-ready="1"] set, then the
// next frame and a task posted from it: the main thread is free, not just
// the flag set); DOM nodes then; the input-to-paint time of keystrokes in a
// deep field (the input event's timeStamp to a task posted from the next
// requestAnimationFrame, i.e. after that frame's paint), median and worst;
// the time the page's input handlers take (timeStamp to the end of
// dispatch); and search as you type: each key typed into "Search fields"
// until the page has applied the filter (html[data-searched] names the
// query) and painted it. Headless Chromium paints at 60 Hz, so an
// input-to-paint time includes the wait for the next frame (0-16.7 ms).
import fs from "node:fs";
import { open, reveal, form, problems, genSource } from "./harness.mjs";

export const BIG_FIELDS = {
  kps: "prometheus.prometheusSpec.retention",
  traefik: "providers.kubernetesCRD.ingressClass",
  loki: "server.ingress.hostname",
  deployment: "spec.template.spec.hostname",
  get gen() { return genSource().deepPath; },
};
// what each source's search bench types, one key at a time
export const SEARCHES = { kps: "retention", traefik: "ingressclass", deployment: "hostname", gen: "cputag", loki: "hostname" };

function stats(lat) {
  const s = [...lat].sort((a, b) => a - b);
  return { n: s.length, median: s[Math.floor(s.length / 2)], p90: s[Math.min(s.length - 1, Math.ceil(s.length * 0.9) - 1)], p95: s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)], worst: s[s.length - 1], all: lat };
}

export async function keystrokes(page, ctl, n = 50) {
  await ctl.click();
  await ctl.press("End");
  await page.evaluate(() => {
    window.__lat = [];
    window.__handler = [];
    if (window.__sdKeysListening)
      return;   // a second measurement on the page: the listeners are there
    window.__sdKeysListening = true;
    window.addEventListener("input", (e) => {
      if (e.target && e.target.id === "sd-search") return;
      const t0 = e.timeStamp;
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => window.__lat.push(performance.now() - t0);
        ch.port2.postMessage(0);
      });
    }, { capture: true });
    // the page's own input handlers: from the event's timeStamp to the end of
    // its dispatch (a bubbling listener on window runs after the field's)
    window.addEventListener("input", (e) => { if (!e.target || e.target.id !== "sd-search") window.__handler.push(performance.now() - e.timeStamp); });
  });
  const keys = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (let i = 0; i < n; i++) {
    await page.keyboard.press(keys[i % keys.length]);
    await page.waitForFunction((k) => window.__lat.length >= k, i + 1, { timeout: 10000 });
  }
  const lat = await page.evaluate(() => window.__lat);
  const hs = (await page.evaluate(() => window.__handler)).sort((a, b) => a - b);
  return Object.assign(stats(lat), { handlerMedian: hs[Math.floor(hs.length / 2)], handlerWorst: hs[hs.length - 1] });
}

// Type QUERY into "Search fields" one key at a time; each key's time runs
// from its input event to the paint after the page applied the filter for
// the text typed so far. null when the page does not filter as you type.
export async function searchTyping(page, query) {
  const box = page.locator("#sd-search");
  await box.click();
  await box.fill("");
  await page.evaluate(() => {
    window.__slat = [];
    const box = document.getElementById("sd-search");
    box.addEventListener("input", (e) => {
      const t0 = e.timeStamp, want = box.value;
      const done = () => {
        requestAnimationFrame(() => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => window.__slat.push(performance.now() - t0);
          ch.port2.postMessage(0);
        });
      };
      if (document.documentElement.dataset.searched === want) { done(); return; }
      const obs = new MutationObserver(() => {
        if (document.documentElement.dataset.searched !== want) return;
        obs.disconnect();
        done();
      });
      obs.observe(document.documentElement, { attributes: true, attributeFilter: ["data-searched"] });
    }, { capture: true });
  });
  for (let i = 0; i < query.length; i++) {
    await page.keyboard.press(query[i]);
    try {
      await page.waitForFunction((k) => window.__slat.length >= k, i + 1, { timeout: i === 0 ? 3000 : 10000 });
    } catch (e) {
      if (i === 0) return null;   // no data-searched: the page does not filter as you type
      throw e;
    }
  }
  const r = stats(await page.evaluate(() => window.__slat));
  r.count = await page.evaluate(() => { const c = document.getElementById("sd-search-count"); return c ? c.textContent : ""; });
  return r;
}

// "Expand all" on a page just made interactive: from the click to the paint
// after the page's last slice (html[data-expanded] changes when it is done),
// with the controls and the objects left closed then.
export async function expandAllTime(page) {
  return page.evaluate(() => new Promise((resolve) => {
    const html = document.documentElement, before = html.dataset.expanded || "";
    const obs = new MutationObserver(() => {
      if ((html.dataset.expanded || "") === before) return;
      obs.disconnect();
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => resolve({ ms: performance.now() - t0,
          controls: document.querySelectorAll("#sd-form input, #sd-form select, #sd-form textarea").length,
          closed: document.querySelectorAll("#sd-form details.sd-obj:not([open])").length });
        ch.port2.postMessage(0);
      });
    });
    obs.observe(html, { attributes: true, attributeFilter: ["data-expanded"] });
    const t0 = performance.now();
    document.getElementById("sd-expand-all").click();
  }));
}

// A keystroke to its check: each of `n` keys typed after a pause, from its
// input event to the paint after the check it causes has run (html
// [data-checks] counts the checks run). The page checks after a pause in
// typing (html[data-check-due] meanwhile: 150 ms, more on a costly check),
// or at once while an error is shown.
export async function keyToCheck(page, ctl, n = 10) {
  await ctl.click();
  await ctl.press("End");
  const out = [];
  for (let i = 0; i < n; i++) {
    // no check pending from earlier keys; the listeners in place before the key
    await page.waitForFunction(() => !document.documentElement.dataset.checkDue, null, { timeout: 10000 });
    await page.evaluate(() => { window.__sdCheck = new Promise((resolve, reject) => {
      setTimeout(() => reject(new Error("no check within 10 s of a key")), 10000);
      const html = document.documentElement, before = html.dataset.checks;
      let t0 = null;
      window.addEventListener("input", (e) => { if (t0 === null) t0 = e.timeStamp; }, { capture: true, once: true });
      const obs = new MutationObserver(() => {
        if (t0 === null || html.dataset.checks === before) return;
        obs.disconnect();
        requestAnimationFrame(() => {
          const ch = new MessageChannel();
          ch.port1.onmessage = () => resolve(performance.now() - t0);
          ch.port2.postMessage(0);
        });
      });
      obs.observe(html, { attributes: true, attributeFilter: ["data-checks"] });
    }); });
    await page.keyboard.press("abcdefghij"[i % 10]);
    out.push(await page.evaluate(() => window.__sdCheck));
    await page.waitForTimeout(50);
  }
  return stats(out);
}

export async function measure(name, deepPath = BIG_FIELDS[name], n = 50, opts = {}) {
  const file = form(name);
  const bytes = fs.statSync(file).size;
  const p = await open(file, { readyTimeout: 60000, initScript: true });
  try {
    await p.page.waitForFunction(() => window.__sdInteractiveAt !== undefined, null, { timeout: 60000 });
    const t = await p.page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0];
      return { ready: window.__sdReadyAt, interactive: window.__sdInteractiveAt, dcl: nav ? nav.domContentLoadedEventEnd : null, nodes: window.__sdNodesAtLoad, firstEnabled: window.__sdFirstEnabled };
    });
    const pristine = (await problems(p.page)).heading;
    const ctl = await reveal(p.page, deepPath);
    const k = await keystrokes(p.page, ctl, n);
    const check = opts.check ? await keyToCheck(p.page, ctl) : null;
    const search = SEARCHES[name] ? await searchTyping(p.page, SEARCHES[name]) : null;
    let expand = null;
    if (opts.expand) {
      // on a fresh page, as a user would press it first
      const q = await open(file, { readyTimeout: 60000, initScript: true });
      try {
        await q.page.waitForFunction(() => window.__sdInteractiveAt !== undefined, null, { timeout: 60000 });
        expand = await expandAllTime(q.page);
      } finally { await q.close(); }
    }
    return { name, bytes, readyMs: t.ready, interactiveMs: t.interactive, dclToInteractiveMs: Math.max(0, t.interactive - t.dcl), domNodes: t.nodes, pristine, firstEnabled: t.firstEnabled, keystroke: k, check, search, expand, issues: p.issues };
  } finally { await p.close(); }
}
