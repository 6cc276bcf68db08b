// SPDX-License-Identifier: Apache-2.0
// tests/lsp/features.test.mjs - the requests about an open values file:
// document symbols, hover, completion, go to definition, code actions.
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { start } from './harness.mjs';
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
