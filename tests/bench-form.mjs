// bench-form.mjs - `make bench` figures for the interactive form (issue 12):
// for kube-prometheus-stack's values, traefik's schema and the Kubernetes
// Deployment definition, in headless Chromium: the page's size, navigation ->
// first field interactive, DOMContentLoaded -> interactive, DOM nodes at load,
// and input-to-paint of 50 keystrokes in a deep field (median, worst).
// Targets (the issue): interactive < 1 s, keystroke < 16 ms, kps page < 2 MB.
import { measure, BIG_FIELDS } from "./form/measure.mjs";
import { closeBrowser } from "./form/harness.mjs";

const rows = [];
for (const name of ["kps", "traefik", "deployment"]) {
  try {
    const m = await measure(name);
    rows.push([name, `${(m.bytes / 1024).toFixed(0)} KB`, `${m.interactiveMs.toFixed(0)} ms`, `${m.dclToInteractiveMs.toFixed(0)} ms`,
      String(m.domNodes), `${m.keystroke.median.toFixed(1)} ms`, `${m.keystroke.worst.toFixed(1)} ms`,
      `${m.keystroke.handlerMedian.toFixed(1)} ms`, `${m.keystroke.handlerWorst.toFixed(1)} ms`, BIG_FIELDS[name]]);
  } catch (e) {
    rows.push([name, "failed: " + String(e.message || e).split("\n")[0].slice(0, 120)]);
  }
}
await closeBrowser();
const head = ["source", "size", "interactive", "after DCL", "DOM nodes", "paint med", "paint worst", "handler med", "handler worst", "deep field"];
console.log(head.map((h, i) => h.padEnd(i === 0 ? 12 : 12)).join(" "));
for (const r of rows) console.log(r.map((c, i) => String(c).padEnd(i === 0 ? 12 : 12)).join(" "));
console.log("paint: input event -> after the next frame's paint (includes waiting for the 60 Hz frame); handler: the page's input handlers");
console.log("targets: interactive < 1000 ms from navigation, keystroke < 16 ms (one frame), kps page < 2048 KB");
