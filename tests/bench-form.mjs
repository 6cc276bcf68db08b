// SPDX-License-Identifier: Apache-2.0
// bench-form.mjs - `make bench` figures for the interactive form (issue 33):
// for kube-prometheus-stack's values, traefik's schema, the Kubernetes
// Deployment definition and a generated chart of 1,500 fields
// (tests/form/genchart.mjs), in headless Chromium (tests/form/measure.mjs):
// the page's size, navigation -> interactive (the ready flag, then a frame
// and the next task), DOM nodes then, input-to-paint of 50 keystrokes in a
// deep field (median, worst), the page's input handlers, and search as you
// type (each key until the filter is painted: median, worst).
// and, for a loki-sized chart (argo-cd's 1,156 fields, issue 40), the time
// "Expand all" takes and a keystroke to its check painted.
// Targets (the issue): interactive < 1 s (loki-sized: 0.5 s, "Expand all" 1 s), keystroke median < 16 ms and worst
// < 50 ms, search < 100 ms per key.
import { measure, BIG_FIELDS } from "./form/measure.mjs";
import { closeBrowser } from "./form/harness.mjs";

const names = (process.env.BENCH_FORM || "loki kps traefik deployment gen").split(/\s+/).filter(Boolean);
const rounds = Number(process.env.BENCH_FORM_ROUNDS || 1);
const runs = new Map();   // source -> [measure]
const failed = new Map();
for (let r = 0; r < rounds; r++) {
  for (const name of names) {
    try {
      const m = await measure(name, undefined, 50, { expand: true, check: true });
      if (!runs.has(name)) runs.set(name, []);
      runs.get(name).push(m);
    } catch (e) {
      failed.set(name, "failed: " + String(e.message || e).split("\n")[0].slice(0, 160));
    }
  }
}
await closeBrowser();
// with several rounds (BENCH_FORM_ROUNDS), each figure is the median of the rounds
const med = (xs) => { const s = xs.filter((x) => typeof x === "number").sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : null; };
const ms = (x) => (x === undefined || x === null ? "n/a" : `${x.toFixed(x < 100 ? 1 : 0)} ms`);
const rows = [];
for (const name of names) {
  const ms0 = runs.get(name);
  if (!ms0) { rows.push([name, failed.get(name) || "failed"]); continue; }
  const f = (g) => med(ms0.map(g));
  rows.push([name, `${(ms0[0].bytes / 1024).toFixed(0)} KB`, ms(f((m) => m.readyMs)), ms(f((m) => m.interactiveMs)), String(f((m) => m.domNodes)),
    ms(f((m) => m.keystroke.median)), ms(f((m) => m.keystroke.worst)), ms(f((m) => m.keystroke.handlerMedian)), ms(f((m) => m.keystroke.handlerWorst)),
    ms(f((m) => (m.search ? m.search.median : null))), ms(f((m) => (m.search ? m.search.worst : null))),
    ms(f((m) => (m.expand ? m.expand.ms : null))), ms(f((m) => (m.check ? m.check.median : null))), ms(f((m) => (m.check ? m.check.worst : null))), BIG_FIELDS[name]]);
}
const head = ["source", "size", "ready flag", "interactive", "DOM nodes", "key med", "key worst", "handler med", "handler worst", "search med", "search worst", "expand all", "check med", "check worst", "deep field"];
console.log(head.map((h) => h.padEnd(13)).join(" "));
for (const r of rows) console.log(r.map((c) => String(c).padEnd(13)).join(" "));
console.log(`${rounds} round(s)${rounds > 1 ? ", each figure the median of the rounds" : ""}; interactive: navigation -> the ready flag, a frame and the next task;`);
console.log("key: input event -> after the next frame's paint (includes waiting for the 60 Hz frame); handler: the page's input handlers;");
console.log("search: each key typed until the filter is painted; expand all: on a fresh page, the click to the paint after its last slice;");
console.log("check: a key typed after a pause to the paint after its check (the page waits for a pause in typing: 150 ms, more on a costly check).");
console.log("Targets: interactive < 1000 ms (loki-sized, issue 40: < 500 ms), expand all (loki-sized) < 1000 ms, key median < 16 ms and worst < 50 ms,");
console.log("search < 100 ms per key");
// the loki-sized chart's figures against issue 40's goals, one line each
const loki = runs.get("loki");
if (loki) {
  const f = (g) => med(loki.map(g));
  const goal = (label, x, lim) => console.log(`figure: loki-sized chart (argo-cd, 1,156 fields): ${label} ${ms(x)} (goal < ${lim} ms: ${x !== null && x < lim ? "met" : "missed"})`);
  goal("time to interactive", f((m) => m.interactiveMs), 500);
  goal("Expand all", f((m) => (m.expand ? m.expand.ms : null)), 1000);
  console.log(`figure: loki-sized chart: a keystroke to its check painted: median ${ms(f((m) => m.check.median))}, worst ${ms(f((m) => m.check.worst))}; input to paint ${ms(f((m) => m.keystroke.median))}`);
}
