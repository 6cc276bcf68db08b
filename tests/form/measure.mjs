// measure.mjs - the form's performance figures in headless Chromium, shared
// by F (f-big.test.mjs, with budgets) and `make bench` (tests/bench-form.mjs):
// file size, navigation -> first field interactive (html[data-ready="1"] set
// and a value control enabled), DOMContentLoaded -> interactive, DOM nodes at
// load, and the input-to-paint time of keystrokes in a deep field (the input
// event's timeStamp to the frame after it: requestAnimationFrame, then a
// message-channel task after that frame's paint), median and worst; and the
// time the page's input handlers take (timeStamp to the end of dispatch).
// Headless Chromium paints at 60 Hz, so input-to-paint includes the wait for
// the next frame (0-16.7 ms) besides the page's work.
import fs from "node:fs";
import { open, reveal, form, problems } from "./harness.mjs";

export const BIG_FIELDS = {
  kps: "prometheus.prometheusSpec.retention",
  traefik: "providers.kubernetesCRD.ingressClass",
  deployment: "spec.template.spec.hostname",
};

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
      const t0 = e.timeStamp;
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => window.__lat.push(performance.now() - t0);
        ch.port2.postMessage(0);
      });
    }, { capture: true });
    // the page's own input handlers: from the event's timeStamp to the end of
    // its dispatch (a bubbling listener on window runs after the field's)
    window.addEventListener("input", (e) => window.__handler.push(performance.now() - e.timeStamp));
  });
  const keys = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (let i = 0; i < n; i++) {
    await page.keyboard.press(keys[i % keys.length]);
    await page.waitForFunction((k) => window.__lat.length >= k, i + 1, { timeout: 10000 });
  }
  const lat = await page.evaluate(() => window.__lat);
  const hs = (await page.evaluate(() => window.__handler)).sort((a, b) => a - b);
  const s = [...lat].sort((a, b) => a - b);
  return { handlerMedian: hs[Math.floor(hs.length / 2)], handlerWorst: hs[hs.length - 1], n: lat.length, median: s[Math.floor(s.length / 2)], p90: s[Math.min(s.length - 1, Math.ceil(s.length * 0.9) - 1)], p95: s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)], worst: s[s.length - 1], all: lat };
}

export async function measure(name, deepPath = BIG_FIELDS[name], n = 50) {
  const file = form(name);
  const bytes = fs.statSync(file).size;
  const p = await open(file, { readyTimeout: 60000, initScript: true });
  try {
    const t = await p.page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0];
      return { ready: window.__sdReadyAt, dcl: nav ? nav.domContentLoadedEventEnd : null, nodes: document.getElementsByTagName("*").length, firstEnabled: window.__sdFirstEnabled };
    });
    const pristine = (await problems(p.page)).heading;
    const ctl = await reveal(p.page, deepPath);
    const k = await keystrokes(p.page, ctl, n);
    return { name, bytes, interactiveMs: t.ready, dclToInteractiveMs: Math.max(0, t.ready - t.dcl), domNodes: t.nodes, pristine, firstEnabled: t.firstEnabled, keystroke: k, issues: p.issues };
  } finally { await p.close(); }
}
