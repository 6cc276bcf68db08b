// SPDX-License-Identifier: Apache-2.0
// tests/lsp/attach.test.mjs - which chart or schema a file outside any
// chart is checked against: the client's settings (glob -> chart, sent as
// initializationOptions or workspace/didChangeConfiguration), the order
// chart folder > modeline > settings, yaml-language-server's `$schema`
// modeline (a path, a file URL, a remote URL through --map, and one not in
// the cache with --offline: an error, no fetch); and $/progress around a
// chart's first load when the client takes it (nothing when it does not).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { start, uriOf } from './harness.mjs';

// A workspace: charts/app (a chart), schemas/app.json (a plain schema),
// and deploy/ for values files outside both.
function workspace() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-lsp-ws-')));
  const chart = path.join(root, 'charts', 'app');
  fs.mkdirSync(chart, { recursive: true });
  fs.mkdirSync(path.join(root, 'schemas'));
  fs.mkdirSync(path.join(root, 'deploy', 'prod', 'eu'), { recursive: true });
  fs.writeFileSync(path.join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: app\nversion: 1.0.0\n');
  fs.writeFileSync(path.join(chart, 'values.yaml'), 'port: 80\n');
  fs.writeFileSync(path.join(chart, 'values.schema.json'),
    JSON.stringify({ type: 'object', properties: { port: { type: 'integer' } } }));
  fs.writeFileSync(path.join(root, 'schemas', 'app.json'),
    JSON.stringify({ type: 'object', required: ['name'], properties: { name: { type: 'string' }, replicas: { type: 'integer' } } }));
  return root;
}
const codes = (d) => d.diagnostics.map((g) => `${g.range.start.line}:${g.code || ''}`).sort();

test('settings: a glob of the workspace names the chart, from initializationOptions', async () => {
  const root = workspace();
  const s = await start({ init: { rootUri: uriOf(root),
    initializationOptions: { schemadoc: { charts: { 'deploy/**/values*.yaml': 'charts/app' } } } } });
  const a = await s.open(path.join(root, 'deploy', 'values-prod.yaml'), 'port: x\n');
  assert.deepEqual(codes(a), ['0:type']);   // `**/` matches no folder too
  const b = await s.open(path.join(root, 'deploy', 'prod', 'eu', 'values.yaml'), 'port: y\n');
  assert.deepEqual(codes(b), ['0:type']);
  const c = await s.open(path.join(root, 'deploy', 'prod', 'other.yaml'), 'port: z\n');
  assert.deepEqual(codes(c), []);   // no glob matches it
  const h = await s.request('textDocument/hover', { textDocument: { uri: a.uri }, position: { line: 0, character: 1 } });
  assert.match(h.contents.value, /^\*\*port\*\* \(integer\)/);
  assert.equal((await s.stop()).code, 0);
});

test('settings: workspace/didChangeConfiguration attaches the open files again', async () => {
  const root = workspace();
  const s = await start({ init: { rootUri: uriOf(root) } });
  const a = await s.open(path.join(root, 'deploy', 'mine.yaml'), 'port: x\n');
  assert.deepEqual(codes(a), []);
  s.conn.sendNotification('workspace/didChangeConfiguration',
    { settings: { schemadoc: { charts: { '**/mine.yaml': path.join(root, 'charts', 'app') } } } });
  assert.deepEqual(codes(await waitFor(s, a.uri, (p) => p.diagnostics.length)), ['0:type']);
  // null settings (eglot's when it has none) or another server's section change nothing
  s.conn.sendNotification('workspace/didChangeConfiguration', { settings: null });
  s.conn.sendNotification('workspace/didChangeConfiguration', { settings: { yaml: { validate: true } } });
  const h = await s.request('textDocument/hover', { textDocument: { uri: a.uri }, position: { line: 0, character: 1 } });
  assert.match(h.contents.value, /^\*\*port\*\*/);
  s.conn.sendNotification('workspace/didChangeConfiguration', { settings: { schemadoc: {} } });
  assert.deepEqual(codes(await waitFor(s, a.uri, (p) => !p.diagnostics.length)), []);
  assert.equal((await s.stop()).code, 0);
});

// the next diagnostics of `uri` that satisfy `ok`
function waitFor(s, uri, ok, ms = 20000) {
  return new Promise((res, rej) => {
    const t0 = Date.now();
    const poll = () => {
      const l = s.published(uri);
      if (l.length && ok(l[l.length - 1])) return res(l[l.length - 1]);
      if (Date.now() - t0 > ms) return rej(new Error(`no such diagnostics for ${uri}`));
      setTimeout(poll, 20);
    };
    poll();
  });
}

test('order: the chart folder over a modeline, a modeline over the settings', async () => {
  const root = workspace();
  const s = await start({ init: { rootUri: uriOf(root),
    initializationOptions: { schemadoc: { charts: { 'deploy/*.yaml': 'charts/app' } } } } });
  // in the chart: its chart, whatever the modeline says
  const a = await s.open(path.join(root, 'charts', 'app', 'values-x.yaml'),
    '# yaml-language-server: $schema=../../schemas/app.json\nport: x\n');
  assert.deepEqual(codes(a), ['1:type']);
  // outside: the modeline's schema, not the settings' chart
  const b = await s.open(path.join(root, 'deploy', 'b.yaml'), '# yaml-language-server: $schema=../schemas/app.json\nport: x\n');
  assert.deepEqual(codes(b), ['1:required', '1:unknownKey']);   // the schema knows no port
  assert.equal((await s.stop()).code, 0);
});

test('yaml-language-server modeline: a path, a file URL, a remote URL through --map; offline and not cached: an error', async () => {
  const root = workspace();
  const schemaFile = path.join(root, 'schemas', 'app.json');
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-lsp-cache-'));
  const s = await start({ args: ['--offline', '--cache-dir', cache, '--map', `https://schemas.example/=${root}/schemas/`] });
  const a = await s.open(path.join(root, 'deploy', 'a.yaml'), '# yaml-language-server: $schema=../schemas/app.json\nname: 1\n');
  assert.deepEqual(codes(a), ['1:type']);
  assert.match(a.diagnostics[0].message, /name/);
  const h = await s.request('textDocument/hover', { textDocument: { uri: a.uri }, position: { line: 1, character: 1 } });
  assert.match(h.contents.value, /^\*\*name\*\* \(string\)/);
  const b = await s.open(path.join(root, 'deploy', 'b.yaml'), `# yaml-language-server: $schema=${uriOf(schemaFile)}\nreplicas: x\nname: nn\n`);
  assert.deepEqual(codes(b), ['1:type']);
  const c = await s.open(path.join(root, 'deploy', 'c.yaml'), '# yaml-language-server: $schema=https://schemas.example/app.json\nreplicas: 2\n');
  assert.deepEqual(codes(c), ['1:required']);
  const d = await s.open(path.join(root, 'deploy', 'd.yaml'), '# yaml-language-server: $schema=https://nowhere.example/s.json\nx: 1\n');
  assert.equal(d.diagnostics.length, 1);
  assert.equal(d.diagnostics[0].severity, 1);
  assert.match(d.diagnostics[0].message, /nowhere\.example/);
  const e = await s.open(path.join(root, 'deploy', 'e.yaml'), '# yaml-language-server: $schema=../schemas/none.json\nx: 1\n');
  assert.match(e.diagnostics[0].message, /\$schema=\.\.\/schemas\/none\.json is no schema file/);
  // the schema changed on disk: read again
  fs.writeFileSync(schemaFile, JSON.stringify({ type: 'object', properties: { name: { type: 'integer' } } }));
  s.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: uriOf(schemaFile), type: 2 }] });
  assert.deepEqual(codes(await waitFor(s, a.uri, (p) => !p.diagnostics.length)), []);
  assert.equal((await s.stop()).code, 0);
});

test('$/progress: begin and end around a chart\'s first load when the client takes it; nothing otherwise', async () => {
  const root = workspace();
  const file = path.join(root, 'charts', 'app', 'ci.yaml');
  const s = await start({ caps: { window: { workDoneProgress: true } } });
  await s.open(file, 'port: 1\n');
  await s.open(path.join(root, 'charts', 'app', 'ci2.yaml'), 'port: 2\n');   // the same chart: loaded already
  await s.request('textDocument/hover', { textDocument: { uri: uriOf(file) }, position: { line: 0, character: 0 } });
  const token = s.progress[0] && s.progress[0].create;
  assert.ok(token, JSON.stringify(s.progress));
  assert.deepEqual(s.progress.map((p) => p.create ? 'create' : `${p.kind}`), ['create', 'begin', 'end']);
  assert.ok(s.progress.slice(1).every((p) => p.token === token));
  assert.match(s.progress[1].title, /schemadoc/);
  assert.equal((await s.stop()).code, 0);
  const n = await start();
  await n.open(file, 'port: 1\n');
  await n.request('textDocument/hover', { textDocument: { uri: uriOf(file) }, position: { line: 0, character: 0 } });
  assert.deepEqual(n.progress, []);
  assert.equal((await n.stop()).code, 0);
});
