// SPDX-License-Identifier: Apache-2.0
// tests/lsp/actions.test.mjs - the code actions besides the did-you-mean
// (features.test.mjs): "Replace deprecated key `old` by `new`" where the
// chart names the replacement (the corpus' Bitnami charts; none where it
// names two keys or a key of another map), and "Add the required key `x`"
// at the root, in a nested map and in a list item's map. Each edit is
// applied and the text validated again: its diagnostic is gone.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { start, CORPUS, MAPS } from './harness.mjs';

// Apply a WorkspaceEdit's changes to `text` (UTF-16 positions).
function applyEdit(text, edits) {
  const lines = text.split('\n');
  const off = (p) => lines.slice(0, p.line).reduce((a, l) => a + l.length + 1, 0) + p.character;
  for (const e of [...edits].sort((a, b) => off(b.range.start) - off(a.range.start)))
    text = text.slice(0, off(e.range.start)) + e.newText + text.slice(off(e.range.end));
  return text;
}

const actionsFor = (s, d, g) => s.request('textDocument/codeAction',
  { textDocument: { uri: d.uri }, range: g.range, context: { diagnostics: [g] } });

test('deprecated key: replaced by the key the chart names, only when it names one of the same map', async (t) => {
  const redis = path.join(CORPUS, 'charts', 'bitnami-redis');
  if (!fs.existsSync(redis)) { t.skip('no corpus'); return; }
  const s = await start({ args: MAPS });
  const text = 'global:\n  storageClass: fast\npdb:\n  create: true\n';
  const d = await s.open(path.join(redis, 'lsp-deprecated.yaml'), text);   // never written: the buffer alone
  const dep = d.diagnostics.filter((g) => g.code === 'deprecated');
  assert.equal(dep.length, 2, JSON.stringify(d.diagnostics));
  // the schema: "DEPRECATED: use global.defaultStorageClass instead"
  assert.equal(dep[0].data.replacement, 'defaultStorageClass');
  const a = await actionsFor(s, d, dep[0]);
  assert.deepEqual(a.map((x) => x.title), ['Replace deprecated key `storageClass` by `defaultStorageClass`']);
  const fixed = applyEdit(text, a[0].edit.changes[d.uri]);
  assert.equal(fixed, 'global:\n  defaultStorageClass: fast\npdb:\n  create: true\n');
  // "Please use `master.pdb` and `replica.pdb` values instead": two keys, no action
  assert.equal(dep[1].data.replacement, undefined);
  assert.deepEqual(await actionsFor(s, d, dep[1]), []);
  const after = await s.change(d.uri, [{ text: fixed }]);
  assert.deepEqual(after.diagnostics.filter((g) => g.code === 'deprecated').map((g) => g.range.start.line), [2]);
  assert.equal((await s.stop()).code, 0);
});

test('deprecated keys of each corpus chart: every action offered renames to a key the chart knows, and validates', { timeout: 600000 }, async (t) => {
  const charts = fs.existsSync(path.join(CORPUS, 'charts'))
    ? fs.readdirSync(path.join(CORPUS, 'charts')).filter((c) => fs.existsSync(path.join(CORPUS, 'charts', c, 'Chart.yaml'))) : [];
  if (!charts.length) { t.skip('no corpus'); return; }
  let warned = 0, offered = 0;
  for (const c of charts) {
    const dir = path.join(CORPUS, 'charts', c);
    // values.yaml as an override file with every scalar changed (a value
    // equal to the default sets nothing, and gets no deprecation warning)
    const text = fs.readFileSync(path.join(dir, 'values.yaml'), 'utf8')
      .replace(/^(\s*[\w-]+:) (?![|>&*!{[#])\S.*$/gm, '$1 "lsp-changed"');
    const s = await start({ args: MAPS });
    const d = await s.open(path.join(dir, 'lsp-deprecated-all.yaml'), text);
    for (const g of d.diagnostics.filter((x) => x.code === 'deprecated')) {
      warned++;
      const a = await actionsFor(s, d, g);
      if (!g.data.replacement) { assert.deepEqual(a, [], `${c}: ${g.message}`); continue; }
      offered++;
      assert.equal(a.length, 1);
      const fixed = applyEdit(text, a[0].edit.changes[d.uri]);
      const after = await s.change(d.uri, [{ text: fixed }]);
      assert.ok(!after.diagnostics.some((x) => x.code === 'deprecated' && x.range.start.line === g.range.start.line &&
                                               x.message === g.message), `${c}: ${g.message}`);
      assert.ok(!after.diagnostics.some((x) => x.code === 'unknownKey' && x.range.start.line === g.range.start.line),
                `${c}: the new key is known`);
      await s.change(d.uri, [{ text }]);
    }
    assert.equal((await s.stop()).code, 0);
  }
  console.log(`count: lsp deprecated keys in the corpus charts' values.yaml: ${warned} warned, ${offered} with a named replacement offered and applied`);
  assert.ok(offered >= 2);
});

function requiredChart() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-lsp-req-')));
  fs.mkdirSync(path.join(dir, 'ci'));
  fs.writeFileSync(path.join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: t\nversion: 1.0.0\n');
  fs.writeFileSync(path.join(dir, 'values.yaml'), '# -- the port\nport: 80\nname: x\ndb: {}\nitems: []\n');
  fs.writeFileSync(path.join(dir, 'values.schema.json'), JSON.stringify({
    type: 'object', required: ['port', 'name'],
    properties: {
      port: { type: 'integer' }, name: { type: 'string' },
      db: { type: 'object', required: ['host', 'tls'],
            properties: { host: { type: 'string' }, tls: { type: 'boolean' }, user: { type: 'string' } } },
      items: { type: 'array', items: { type: 'object', required: ['id'],
                                       properties: { id: { type: 'integer' }, name: { type: 'string' } } } } } }));
  return dir;
}

test('required key: inserted at its map\'s indentation with its default or an empty value; the error is gone', async () => {
  const dir = requiredChart();
  const s = await start();
  const fix = async (file, text, want) => {
    const d = await s.open(path.join(dir, file), text);
    const req = d.diagnostics.filter((g) => g.code === 'required');
    assert.ok(req.length, JSON.stringify(d.diagnostics));
    let out = text;
    for (const g of req) {
      const a = await actionsFor(s, d, g);
      assert.equal(a.length, 1, g.message);
      assert.match(a[0].title, /^Add the required key `\w+`$/);
      out = applyEdit(out, a[0].edit.changes[d.uri]);
      await s.change(d.uri, [{ text: out }]);
    }
    assert.equal(out, want);
    const after = await s.change(d.uri, [{ text: out }]);
    assert.deepEqual(after.diagnostics.filter((g) => g.code === 'required'), [], file);
    s.close(d.uri);
  };
  // a nested map, with a block scalar and a comment inside: after its last line
  await fix('ci/a.yaml', 'db:\n  user: |\n    two\n    lines\n  # note\nother: 1\n',
            'db:\n  user: |\n    two\n    lines\n  host: ""\n  tls: false\n  # note\nother: 1\n');
  // a list item's map, at the column of its keys
  await fix('ci/b.yaml', 'items:\n  - name: a\n    x: 1\n  - id: 2\n',
            'items:\n  - name: a\n    x: 1\n    id: 0\n  - id: 2\n');
  // values.yaml itself (the defaults): the root, with the default values.yaml gives, no final newline
  await fix('values.yaml', 'name: x\ndb: {host: h, tls: true}', 'name: x\ndb: {host: h, tls: true}\nport: 80\n');
  assert.equal((await s.stop()).code, 0);
});
