// SPDX-License-Identifier: Apache-2.0
// tests/lsp/bench.mjs - `make bench` figures of the language server (never
// asserted; the goals are issue 44's): on kube-prometheus-stack's
// values.yaml (208 KB), the first diagnostics after didOpen (the chart
// opened and its schema made on the way; goal < 200 ms), keystroke to
// diagnostics (one character typed and deleted again, 200 times, each
// awaited; goal p95 < 30 ms), and the server's peak memory over the session
// (VmHWM, after a first hover built the model; goal < 32 MiB); and a 50 MB
// didChange (a whole text replaced) to its diagnostics, with the CPU time
// of the client (node encoding the message) and of the server.
import fs from 'node:fs';
import path from 'node:path';
import { start, bigChange, CORPUS } from './harness.mjs';
import { tmpChart } from './chart.mjs';

const chart = path.join(CORPUS, 'charts', 'kube-prometheus-stack');
const file = path.join(chart, 'values.yaml');
if (!fs.existsSync(file)) {
  console.log(`SKIPPED: no ${file}`);
  process.exit(0);
}
const text = fs.readFileSync(file, 'utf8');
const s = await start();
let t0 = performance.now();
const d = await s.open(file, text);
const first = performance.now() - t0;
// a line in the middle holding `key: value`: type after its value
const lines = text.split('\n');
const at = lines.findIndex((l, i) => i > lines.length / 2 && /^ {2,}[a-zA-Z]+: [a-z]+$/.test(l));
const col = lines[at].length;
const times = [];
for (let i = 0; i < 200; i++) {
  const typing = i % 2 === 0;
  const range = typing ? { start: { line: at, character: col }, end: { line: at, character: col } }
                       : { start: { line: at, character: col }, end: { line: at, character: col + 1 } };
  t0 = performance.now();
  await s.change(d.uri, [{ range, text: typing ? 'x' : '' }]);
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const pct = (p) => times[Math.min(times.length - 1, Math.floor(times.length * p))].toFixed(1);
// one hover: the chart's model is built and kept, and counted in the memory
t0 = performance.now();
const hover = await s.request('textDocument/hover', { textDocument: { uri: d.uri }, position: { line: at, character: col - 2 } });
const firstHover = performance.now() - t0;
if (!hover) throw new Error(`no hover at ${at}:${col - 2}`);
const status = fs.readFileSync(`/proc/${s.child.pid}/status`, 'utf8');
const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024;
await s.stop();
console.log(`lsp first diagnostics after didOpen (${path.basename(chart)}/values.yaml, ${(text.length / 1024).toFixed(0)} KB, chart opened): ${first.toFixed(1)} ms (goal < 200 ms)`);
console.log(`lsp keystroke to diagnostics, 200 edits: median ${pct(0.5)} ms, p95 ${pct(0.95)} ms, max ${pct(1)} ms (goal p95 < 30 ms)`);
console.log(`lsp first hover (the model built): ${firstHover.toFixed(1)} ms`);
console.log(`lsp peak memory (VmHWM) over the session: ${hwm.toFixed(1)} MiB (goal < 32 MiB)`);
// a 50 MB didChange on a small chart of its own
{
  const dir = tmpChart();
  const b = await start();
  const g = await bigChange(b, dir);
  await b.stop();
  fs.rmSync(dir, { recursive: true });
  console.log(`lsp 50 MB didChange to diagnostics: ${g.wall.toFixed(0)} ms; CPU: server ${g.server} ms, client (node encoding it) ${g.client} ms`);
}
