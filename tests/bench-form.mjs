// bench-form.mjs - `make bench` figures for the interactive form (issue 33):
// for kube-prometheus-stack's values, traefik's schema, the Kubernetes
// Deployment definition and a generated chart of 1,500 fields
// (tests/form/genchart.mjs), in headless Chromium (tests/form/measure.mjs):
// the page's size, navigation -> interactive (the ready flag, then a frame
// and the next task), DOM nodes then, input-to-paint of 50 keystrokes in a
// deep field (median, worst), the page's input handlers, and search as you
// type (each key until the filter is painted: median, worst).
// Targets (the issue): interactive < 1 s, keystroke median < 16 ms and worst
// < 50 ms, search < 100 ms per key.
import { measure, BIG_FIELDS } from "./form/measure.mjs";
import { closeBrowser } from "./form/harness.mjs";

const names = (process.env.BENCH_FORM || "kps traefik deployment gen").split(/\s+/).filter(Boolean);
const rounds = Number(process.env.BENCH_FORM_ROUNDS || 1);
const rows = [];
const ms = (x) => (x === undefined || x === null ? "-" : `${x.toFixed(x < 100 ? 1 : 0)} ms`);
for (let r = 0; r < rounds; r++) {
  for (const name of names) {
    try {
      const m = await measure(name);
      rows.push([name, `${(m.bytes / 1024).toFixed(0)} KB`, ms(m.readyMs), ms(m.interactiveMs), String(m.domNodes),
        ms(m.keystroke.median), ms(m.keystroke.worst), ms(m.keystroke.handlerMedian), ms(m.keystroke.handlerWorst),
        m.search ? ms(m.search.median) : "n/a", m.search ? ms(m.search.worst) : "n/a", BIG_FIELDS[name]]);
    } catch (e) {
      rows.push([name, "failed: " + String(e.message || e).split("\n")[0].slice(0, 160)]);
    }
  }
}
await closeBrowser();
const head = ["source", "size", "ready flag", "interactive", "DOM nodes", "key med", "key worst", "handler med", "handler worst", "search med", "search worst", "deep field"];
console.log(head.map((h) => h.padEnd(13)).join(" "));
for (const r of rows) console.log(r.map((c) => String(c).padEnd(13)).join(" "));
console.log("interactive: navigation -> the ready flag, a frame and the next task; key: input event -> after the next frame's paint");
console.log("(includes waiting for the 60 Hz frame); handler: the page's input handlers; search: each key typed until the filter is painted");
console.log("targets: interactive < 1000 ms, key median < 16 ms and worst < 50 ms, search < 100 ms per key");
