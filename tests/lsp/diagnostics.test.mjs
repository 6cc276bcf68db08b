// SPDX-License-Identifier: Apache-2.0
// tests/lsp/diagnostics.test.mjs - which chart a file belongs to and what
// its diagnostics say: Helm's merge (no `required` error for what
// values.yaml supplies), YAML errors, duplicate keys, the modeline,
// values.yaml itself as the defaults, a chart file saved on disk.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { start, uriOf } from './harness.mjs';
import { tmpChart } from './chart.mjs';

test('merged over values.yaml: no required error for what values.yaml supplies', async () => {
  const dir = tmpChart();
  const s = await start();
  const d = await s.open(path.join(dir, 'ci', 'prod.yaml'), 'port: 8080\n');
  assert.deepEqual(d.diagnostics, []);
  // values.yaml itself is the defaults: without `name` the chart lacks it
  const v = await s.open(path.join(dir, 'values.yaml'), '# -- the port\nport: 80\n');
  assert.deepEqual(v.diagnostics.map((g) => [g.code, g.severity, g.range.start.line]), [['required', 1, 1]]);
  assert.equal((await s.stop()).code, 0);
});

test('YAML errors and duplicate keys have their place; the next edit clears them', async () => {
  const dir = tmpChart();
  const s = await start();
  const d = await s.open(path.join(dir, 'x.yaml'), 'port: 1\nname: a\nport: 2\n');
  assert.equal(d.diagnostics.length, 1, JSON.stringify(d.diagnostics));
  assert.match(d.diagnostics[0].message, /duplicate key 'port'/);
  assert.deepEqual(d.diagnostics[0].range.start, { line: 2, character: 0 });
  let e = await s.change(d.uri, [{ text: 'name: [a\nport: 1\n' }]);
  assert.equal(e.diagnostics.length, 1);
  assert.equal(e.diagnostics[0].severity, 1);
  assert.ok(e.diagnostics[0].range.start.line >= 0);
  e = await s.change(d.uri, [{ text: 'name: b\n' }]);
  assert.deepEqual(e.diagnostics, []);
  assert.equal((await s.stop()).code, 0);
});

test('outside the chart: the modeline names it; a modeline pointing nowhere says so', async () => {
  const dir = tmpChart();
  const other = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-lsp-other-'));
  const s = await start();
  const rel = path.relative(other, dir);
  const d = await s.open(path.join(other, 'mine.yaml'), `# schemadoc: chart=${rel}\nport: x\n`);
  assert.deepEqual(d.diagnostics.map((g) => [g.code, g.range.start.line]), [['type', 1]]);
  const n = await s.open(path.join(other, 'none.yaml'), '# schemadoc: chart=../no/such\nport: x\n');
  assert.equal(n.diagnostics.length, 1);
  assert.match(n.diagnostics[0].message, /no chart directory/);
  const plain = await s.open(path.join(other, 'plain.yaml'), 'port: x\n');
  assert.deepEqual(plain.diagnostics, []);
  assert.equal((await s.stop()).code, 0);
});

test('a chart file saved (didSave, didChangeWatchedFiles) reads the chart again', async () => {
  const dir = tmpChart();
  const s = await start();
  const d = await s.open(path.join(dir, 'ci', 'a.yaml'), 'port: 70000\n');
  assert.deepEqual(d.diagnostics.map((g) => g.code), ['maximum']);
  const schema = JSON.parse(fs.readFileSync(path.join(dir, 'values.schema.json')));
  schema.properties.port.maximum = 100000;
  fs.writeFileSync(path.join(dir, 'values.schema.json'), JSON.stringify(schema));
  s.conn.sendNotification('workspace/didChangeWatchedFiles',
                          { changes: [{ uri: uriOf(path.join(dir, 'values.schema.json')), type: 2 }] });
  // the same version published again, now valid
  const again = await new Promise((res) => {
    s.conn.onNotification('textDocument/publishDiagnostics', (p) => { if (p.uri === d.uri) res(p); });
  });
  assert.deepEqual(again.diagnostics, []);
  assert.equal((await s.stop()).code, 0);
});
