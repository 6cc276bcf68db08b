// SPDX-License-Identifier: Apache-2.0
// bench-rules.mjs WORKDIR - validate-only figures of src/form/rules.js on the
// helmish workload (../shared/bench/validator), next to ajv's compiled
// validator when WORKDIR/ajv has it: the same process, runs alternating,
// CPU time (process.cpuUsage), min and median of 31; and a 10 KB document.
// Run by tests/bench-rules.sh (make bench), never by make check.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { compile } from "../../src/form/rules.js";

const W = process.argv[2] || "/tmp/sd-bench-validate";
const text = fs.readFileSync(path.join(W, "big.json"), "utf8");
const big = JSON.parse(text), bad = JSON.parse(fs.readFileSync(path.join(W, "big-invalid.json"), "utf8"));
const cpu = (f) => { const a = process.cpuUsage(); f(); const b = process.cpuUsage(a); return (b.user + b.system) / 1000; };
const mbps = (ms) => (Buffer.byteLength(text) / 1e6 / (ms / 1000)).toFixed(0);
let Ajv = null, Ajv2020 = null;
try {
  const require = createRequire(path.join(W, "ajv", "x.js"));
  Ajv = require("ajv").default;
  Ajv2020 = require("ajv/dist/2020").default;
} catch { /* no ajv: our figures only */ }

for (const d of ["draft7", "2020-12"]) {
  const v = compile(JSON.parse(fs.readFileSync(path.join(W, `rules.${d}.json`), "utf8")));
  if (v.validate(big).length !== 0 || v.validate(bad).length !== 1) throw new Error("big.json must be valid, big-invalid.json not");
  const runs = [["rules.js", () => v.validate(big)]];
  if (Ajv) {
    const A = d === "draft7" ? Ajv : Ajv2020;
    const fn = new A({ strict: false }).compile(JSON.parse(fs.readFileSync(path.join(W, `schema.${d}.json`), "utf8")));
    if (fn(big) !== true) throw new Error("ajv: big.json invalid?");
    runs.push([d === "draft7" ? "ajv" : "ajv2020", () => fn(big)]);
  }
  for (let i = 0; i < 5; i++) for (const [, f] of runs) f();
  const t = runs.map(() => []);
  for (let i = 0; i < 31; i++) runs.forEach(([, f], k) => t[k].push(cpu(f)));
  const line = runs.map(([name], k) => {
    t[k].sort((a, b) => a - b);
    return `${name} ${mbps(t[k][15])} MB/s (median ${t[k][15].toFixed(1)} ms, best ${mbps(t[k][0])} MB/s)`;
  });
  console.log(`${d}: ${line.join("; ")}${runs.length > 1 ? `; ratio ${(t[0][15] / t[1][15]).toFixed(2)} (median), ${(t[0][0] / t[1][0]).toFixed(2)} (best)` : ""}`);
  // a 10 KB values document
  const small = fs.readdirSync(W).filter((f) => /^small-\d+\.json$/.test(f)).map((f) => path.join(W, f))
    .filter((f) => { const n = fs.statSync(f).size; return n >= 9000 && n <= 11000; }).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
  for (let i = 0; i < 20; i++) for (const s of small) v.validate(s);
  const ms = cpu(() => { for (let r = 0; r < 20; r++) for (const s of small) v.validate(s); }) / (20 * small.length);
  console.log(`${d}: a 10 KB document: ${ms.toFixed(3)} ms (${small.length} documents of 9-11 KB)`);
}
