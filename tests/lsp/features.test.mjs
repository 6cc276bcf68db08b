// SPDX-License-Identifier: Apache-2.0
// tests/lsp/features.test.mjs - the requests about an open values file:
// document symbols, hover, completion, go to definition, code actions.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { start, uriOf, CORPUS, MAPS, SD } from './harness.mjs';
import { tmpChart } from './chart.mjs';

test('document symbols: the key tree with ranges', async () => {
  const dir = tmpChart();
  const s = await start();
  const d = await s.open(path.join(dir, 'ci', 'a.yaml'), 'name: 日本\nextra:\n  a: 1\n  list:\n    - x\nport: 2\n');
  const syms = await s.request('textDocument/documentSymbol', { textDocument: { uri: d.uri } });
  const flat = (l) => l.map((x) => [x.name, x.kind, x.range.start.line, x.range.end.line, x.children ? flat(x.children) : []]);
  assert.deepEqual(flat(syms), [['name', 15, 0, 0, []],
                                ['extra', 19, 1, 4, [['a', 16, 2, 2, []], ['list', 18, 3, 4, [['[0]', 15, 4, 4, []]]]]],
                                ['port', 16, 5, 5, []]]);
  assert.deepEqual(syms[0].selectionRange, { start: { line: 0, character: 0 }, end: { line: 0, character: 4 } });
  assert.equal(syms[0].range.end.character, 'name: 日本'.length);
  assert.equal((await s.stop()).code, 0);
});

test('hover: the description, type, default and where values.yaml sets it; definition goes there', async () => {
  const dir = tmpChart();
  const s = await start();
  const d = await s.open(path.join(dir, 'ci', 'a.yaml'), 'name: 日本\nport: 2\nmode: fast\n');
  const h = await s.request('textDocument/hover', { textDocument: { uri: d.uri }, position: { line: 1, character: 1 } });
  assert.equal(h.contents.kind, 'markdown');
  assert.match(h.contents.value, /^\*\*port\*\* \(integer\)/);
  assert.match(h.contents.value, /the port/);
  assert.match(h.contents.value, /Default: `80`/);
  assert.match(h.contents.value, /maximum: `65535`/);
  assert.match(h.contents.value, /Set in values.yaml:4/);
  const m = await s.request('textDocument/hover', { textDocument: { uri: d.uri }, position: { line: 2, character: 8 } });
  assert.match(m.contents.value, /how to run/);
  assert.match(m.contents.value, /Allowed values: `"fast"`, `"safe"`/);
  assert.equal(await s.request('textDocument/hover', { textDocument: { uri: d.uri }, position: { line: 5, character: 0 } }), null);
  const def = await s.request('textDocument/definition', { textDocument: { uri: d.uri }, position: { line: 0, character: 2 } });
  assert.equal(def[0].uri, uriOf(path.join(fs.realpathSync(dir), 'values.yaml')));
  assert.equal(def[0].range.start.line, 1);
  assert.equal((await s.stop()).code, 0);
});

test('completion: keys not yet present, enum values, booleans; nothing in a free map', async () => {
  const dir = tmpChart();
  const s = await start();
  const d = await s.open(path.join(dir, 'ci', 'a.yaml'), 'name: a\n\nmode: \ndebug: \nextra:\n  \n');
  const labels = async (line, character) => (await s.request('textDocument/completion',
    { textDocument: { uri: d.uri }, position: { line, character } })).map((i) => i.label).sort();
  assert.deepEqual(await labels(1, 0), ['port']);
  assert.deepEqual(await labels(2, 6), ['"fast"', '"safe"']);
  assert.deepEqual(await labels(3, 7), ['false', 'true']);
  assert.deepEqual(await labels(5, 2), []);   // `extra` is no key of the chart: nothing invented
  const items = await s.request('textDocument/completion', { textDocument: { uri: d.uri }, position: { line: 1, character: 0 } });
  assert.equal(items[0].insertText, 'port: ');
  assert.match(items[0].detail, /integer, default 80/);
  assert.equal(items[0].documentation.value, 'the port');
  assert.equal((await s.stop()).code, 0);
});

// Apply a WorkspaceEdit's changes to `text` (UTF-16 positions).
function applyEdit(text, edits) {
  const lines = text.split('\n');
  const off = (p) => lines.slice(0, p.line).reduce((a, l) => a + l.length + 1, 0) + p.character;
  for (const e of [...edits].sort((a, b) => off(b.range.start) - off(a.range.start)))
    text = text.slice(0, off(e.range.start)) + e.newText + text.slice(off(e.range.end));
  return text;
}

test('quick fix: each corpus chart\'s spoiled key fixed by its did-you-mean validates again', async (t) => {
  const charts = fs.existsSync(path.join(CORPUS, 'charts'))
    ? fs.readdirSync(path.join(CORPUS, 'charts')).filter((c) => fs.existsSync(path.join(CORPUS, 'charts', c, 'Chart.yaml'))) : [];
  if (!charts.length) { t.skip('no corpus'); return; }
  let fixed = 0;
  const s = await start({ args: MAPS });
  for (const c of charts) {
    const dir = path.join(CORPUS, 'charts', c);
    const values = fs.readFileSync(path.join(dir, 'values.yaml'), 'utf8');
    const keys = [...values.matchAll(/^([a-zA-Z][a-zA-Z0-9]{5,}):/gm)].map((m) => m[1]);
    const key = keys.find((k) => !/^(global|enabled)$/.test(k));
    if (!key) continue;
    const file = path.join(dir, `lsp-quickfix-${key}.yaml`);   // never written: the buffer alone
    const spoiled = `${key.slice(0, 3)}${key[4]}${key[3]}${key.slice(5)}: 1\n`;   // two letters swapped
    const d = await s.open(file, spoiled);
    const isTypo = (g) => g.code === 'unknownKey' || g.code === 'additionalProperties';
    const typo = d.diagnostics.filter(isTypo);
    assert.equal(typo.length, 1, `${c}: ${JSON.stringify(d.diagnostics)}`);
    const actions = await s.request('textDocument/codeAction', { textDocument: { uri: d.uri }, range: typo[0].range,
                                                                 context: { diagnostics: typo } });
    assert.equal(actions.length, 1, c);
    assert.equal(actions[0].kind, 'quickfix');
    const text = applyEdit(spoiled, actions[0].edit.changes[d.uri]);
    assert.equal(text, `${key}: 1\n`, c);
    const after = await s.change(d.uri, [{ text }]);
    assert.deepEqual(after.diagnostics.filter(isTypo), [], c);
    s.close(d.uri);
    fixed++;
  }
  console.log(`count: lsp quick fixes applied and validated: ${fixed} charts`);
  assert.ok(fixed >= 5);
  assert.equal((await s.stop()).code, 0);
});

// every node of a model by its path (docs/model.md), definitions aside
function byPath(node, out = new Map()) {
  if (!node || typeof node !== 'object') return out;
  if (node.path && !out.has(node.path)) out.set(node.path, node);
  for (const k of ['properties', 'elements']) for (const c of node[k] || []) byPath(c, out);
  for (const k of ['items', 'additionalProperties']) if (node[k] && typeof node[k] === 'object') byPath(node[k], out);
  return out;
}

test('hover every key of each corpus chart\'s first ci/ file: the model\'s description, as the page shows it', { timeout: 600000 }, async (t) => {
  const charts = fs.existsSync(path.join(CORPUS, 'charts'))
    ? fs.readdirSync(path.join(CORPUS, 'charts')).filter((c) => fs.existsSync(path.join(CORPUS, 'charts', c, 'ci'))) : [];
  if (!charts.length) { t.skip('no corpus'); return; }
  let keys = 0, described = 0;
  for (const c of charts) {
    const dir = path.join(CORPUS, 'charts', c);
    const r = spawnSync(SD, [dir, '--format', 'json', ...MAPS], { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(r.status, 0, r.stderr);
    const nodes = byPath(JSON.parse(r.stdout).root);
    const f = fs.readdirSync(path.join(dir, 'ci')).filter((x) => /\.ya?ml$/.test(x)).sort()[0];
    const s = await start({ args: MAPS });
    const d = await s.open(path.join(dir, 'ci', f), fs.readFileSync(path.join(dir, 'ci', f), 'utf8'));
    const syms = await s.request('textDocument/documentSymbol', { textDocument: { uri: d.uri } });
    const walk = async (list) => {
      for (const sym of list) {
        const h = await s.request('textDocument/hover', { textDocument: { uri: d.uri }, position: sym.selectionRange.start });
        if (h) {
          const p = /^\*\*(.*?)\*\*/.exec(h.contents.value)[1];
          const n = nodes.get(p);
          if (n) {
            keys++;
            if (n.description) {
              assert.ok(h.contents.value.includes(n.description), `${c}/${f}: ${p}`);
              described++;
            }
          }
        }
        if (sym.children) await walk(sym.children);
      }
    };
    await walk(syms);
    assert.equal((await s.stop()).code, 0);
  }
  console.log(`count: lsp hover: ${keys} keys of ${charts.length} charts' ci/ files hovered, ${described} with the model's description`);
  assert.ok(keys > 20 && described > 0);
});

test('completion at the root and inside each map of the corpus ci/ files: the members not written yet', { timeout: 600000 }, async (t) => {
  const charts = fs.existsSync(path.join(CORPUS, 'charts'))
    ? fs.readdirSync(path.join(CORPUS, 'charts')).filter((c) => fs.existsSync(path.join(CORPUS, 'charts', c, 'ci'))) : [];
  if (!charts.length) { t.skip('no corpus'); return; }
  let positions = 0, offered = 0, compared = 0;
  for (const c of charts) {
    const dir = path.join(CORPUS, 'charts', c);
    const r = spawnSync(SD, [dir, '--format', 'json', ...MAPS], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const nodes = byPath(JSON.parse(r.stdout).root);
    const root = JSON.parse(r.stdout).root;
    const f = fs.readdirSync(path.join(dir, 'ci')).filter((x) => /\.ya?ml$/.test(x)).sort()[0];
    const text = fs.readFileSync(path.join(dir, 'ci', f), 'utf8');
    const lines = text.split('\n');
    const s = await start({ args: MAPS });
    // the root: a new first line; each top-level map key: a new line below it, indented 2
    const spots = [{ line: 0, indent: '', parent: root, present: lines.filter((l) => /^[A-Za-z_][\w-]*:/.test(l)).map((l) => l.split(':')[0]) }];
    lines.forEach((l, i) => {
      const m = /^([A-Za-z_][\w-]*):\s*$/.exec(l);
      if (!m || !lines[i + 1] || !/^ {2}[A-Za-z_]/.test(lines[i + 1]) || !nodes.get(m[1])) return;
      const present = [];
      for (let j = i + 1; j < lines.length && (/^ {2}/.test(lines[j]) || !lines[j].trim()); j++) {
        const k = /^ {2}([A-Za-z_][\w-]*):/.exec(lines[j]);
        if (k) present.push(k[1]);
      }
      spots.push({ line: i + 1, indent: '  ', parent: nodes.get(m[1]), present });
    });
    for (const sp of spots.slice(0, 10)) {
      const edited = [...lines.slice(0, sp.line), sp.indent, ...lines.slice(sp.line)].join('\n');
      const d = await s.open(path.join(dir, 'ci', `completion-${sp.line}.yaml`), edited);
      const items = await s.request('textDocument/completion',
        { textDocument: { uri: d.uri }, position: { line: sp.line, character: sp.indent.length } });
      const members = (sp.parent.properties || []).map((p) => p.key);
      const want = sp.parent.ref || !members.length ? null : members.filter((k) => !sp.present.includes(k)).sort();
      if (want) {
        assert.deepEqual(items.map((i) => i.label).sort(), want, `${c}/${f}:${sp.line}`);
        compared++;
      }
      positions++;
      offered += items.length;
      s.close(d.uri);
    }
    assert.equal((await s.stop()).code, 0);
  }
  console.log(`count: lsp completion: ${positions} cursor positions in ${charts.length} charts' ci/ files (${compared} compared with the model's members), ${offered} keys offered`);
  assert.ok(positions >= 20 && compared >= 10);
});
