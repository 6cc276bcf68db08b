// SPDX-License-Identifier: Apache-2.0
// tests/lsp/protocol.test.mjs - the server's protocol: lifecycle, JSON-RPC
// errors, framing, position encodings, incremental edits (docs/lsp.md).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { start, raw, frame, bigChange, cpuMs, SD } from './harness.mjs';
import { tmpChart } from './chart.mjs';

const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { capabilities: {} } };
const bye = [frame({ jsonrpc: '2.0', id: 99, method: 'shutdown', params: null }), frame({ jsonrpc: '2.0', method: 'exit' })];
const byId = (msgs, id) => msgs.find((m) => m.id === id);
// a bound on time is asserted only on the release build (not under ASan)
const release = !/\/(asan|adbg)\//.test(SD);

test('lifecycle: initialize, shutdown, exit 0; exit without shutdown is 1', async () => {
  const r = await raw([frame(init), ...bye]);
  assert.equal(r.code, 0);
  assert.equal(byId(r.messages, 1).result.serverInfo.name, 'schemadoc');
  assert.equal(byId(r.messages, 99).result, null);
  const r2 = await raw([frame(init), frame({ jsonrpc: '2.0', method: 'exit' })]);
  assert.equal(r2.code, 1);
  const r3 = await raw([frame(init)]);   // the input ends
  assert.equal(r3.code, 1);
});

test('a request before initialize is -32002; after shutdown -32600', async () => {
  const r = await raw([frame({ jsonrpc: '2.0', id: 5, method: 'textDocument/hover', params: {} }), frame(init),
                       frame({ jsonrpc: '2.0', id: 6, method: 'shutdown' }),
                       frame({ jsonrpc: '2.0', id: 7, method: 'textDocument/hover', params: {} }),
                       frame({ jsonrpc: '2.0', method: 'exit' })]);
  assert.equal(byId(r.messages, 5).error.code, -32002);
  assert.equal(byId(r.messages, 7).error.code, -32600);
  assert.equal(r.code, 0);
});

test('unknown method -32601; invalid JSON -32700; not a request -32600; notifications unanswered', async () => {
  const r = await raw([frame(init), frame({ jsonrpc: '2.0', id: 2, method: 'no/such', params: {} }),
                       frame('{"jsonrpc": "2.0", "id": 3, '), frame('[1, 2]'), frame('{"id": 4, "method": "x"}'),
                       frame({ jsonrpc: '2.0', method: 'no/such/notification', params: {} }),
                       frame({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 2 } }),
                       frame({ jsonrpc: '2.0', id: 8, method: 'initialize', params: {} }), ...bye]);
  assert.equal(byId(r.messages, 2).error.code, -32601);
  const nulls = r.messages.filter((m) => m.id === null).map((m) => m.error.code);
  assert.deepEqual(nulls, [-32700, -32600]);
  assert.equal(byId(r.messages, 4).error.code, -32600);
  assert.equal(byId(r.messages, 8).error.code, -32600);   // initialize twice
  assert.equal(r.messages.length, 7);   // init, 2, -32700, batch, 4, 8, shutdown
  assert.equal(r.code, 0);
});

test('framing: a missing, malformed or huge Content-Length is refused; the stream goes on', async () => {
  const big = 'Content-Length: 99999999999999\r\n\r\n';
  const t0 = Date.now();
  const r = await raw([Buffer.from('Content-Type: application/vscode-jsonrpc\r\n\r\n'), frame(init),
                       Buffer.from('Content-Length: 12x\r\n\r\n'), Buffer.from('garbage line\r\n\r\n'),
                       frame({ jsonrpc: '2.0', id: 2, method: 'no/such' }), ...bye, Buffer.from(big)]);
  const errs = r.messages.filter((m) => m.id === null).map((m) => m.error.message);
  assert.equal(errs.length, 3, JSON.stringify(r.messages));
  assert.match(errs[0], /without Content-Length/);
  assert.match(errs[1], /malformed Content-Length/);
  assert.match(errs[2], /malformed header line/);
  assert.equal(byId(r.messages, 2).error.code, -32601);
  assert.equal(r.code, 0);
  // a body over the limit is skipped as it comes, never kept
  const r2 = await raw([frame(init), Buffer.from(big), Buffer.from('x'.repeat(1 << 20))]);
  assert.match(r2.messages.find((m) => m.id === null).error.message, /over the limit of 67108864 bytes/);
  assert.equal(r2.code, 1);
  assert.ok(Date.now() - t0 < 15000);
});

test('positionEncodings: the first the client offers that we know; utf-16 by default', async () => {
  for (const [offer, want] of [[undefined, 'utf-16'], [['utf-32', 'utf-8'], 'utf-32'], [['utf-8'], 'utf-8'],
                               [['latin-1', 'utf-16'], 'utf-16'], [[], 'utf-16']]) {
    const s = await start({ encodings: offer });
    assert.equal(s.encoding, want, JSON.stringify(offer));
    assert.equal((await s.stop()).code, 0);
  }
});

test('incremental edits with CJK and emoji keep ranges right in all three encodings', async () => {
  const dir = tmpChart();
  const file = path.join(dir, 'edit.yaml');
  for (const enc of ['utf-8', 'utf-16', 'utf-32']) {
    const s = await start({ encodings: [enc] });
    const len = (str) => (enc === 'utf-8' ? Buffer.byteLength(str) : enc === 'utf-16' ? str.length : [...str].length);
    let text = 'name: 日本😀\nport: 1\n';
    const d0 = await s.open(file, text);
    assert.deepEqual(d0.diagnostics, [], enc);
    // insert after the emoji on line 0: "name: 日本😀x" stays a string
    let c = len('name: 日本😀');
    let d = await s.change(d0.uri, [{ range: { start: { line: 0, character: c }, end: { line: 0, character: c } }, text: '🎉' }]);
    assert.deepEqual(d.diagnostics, [], enc);
    // replace the port's value by a multi-line paste of CJK: line 1 becomes a string, and a new key
    d = await s.change(d0.uri, [{ range: { start: { line: 1, character: 6 }, end: { line: 1, character: 7 } },
                                  text: '"東京🚀"\nname2: 1' }]);
    const port = d.diagnostics.find((g) => g.code === 'type');
    assert.ok(port, enc + ' ' + JSON.stringify(d.diagnostics));
    assert.deepEqual(port.range, { start: { line: 1, character: 6 }, end: { line: 1, character: 6 + len('"東京🚀"') } }, enc);
    // an error after wide characters on the same line: `port` moved behind a flow map
    d = await s.change(d0.uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } },
                                  text: '{name: "日本😀🎉", port: 70000}\n' }]);
    const max = d.diagnostics.find((g) => g.code === 'maximum');
    assert.ok(max, enc + ' ' + JSON.stringify(d.diagnostics));
    const col = len('{name: "日本😀🎉", port: ');
    assert.deepEqual(max.range, { start: { line: 0, character: col }, end: { line: 0, character: col + 5 } }, enc);
    // delete the whole text, then type it again from nothing
    d = await s.change(d0.uri, [{ range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, text: '' }]);
    assert.deepEqual(d.diagnostics, [], enc);
    d = await s.change(d0.uri, [{ text: '😀: 1\nport: "😀"\n' }]);
    const t = d.diagnostics.find((g) => g.code === 'type');
    assert.deepEqual(t.range.start, { line: 1, character: 6 }, enc);
    assert.deepEqual(t.range.end, { line: 1, character: 6 + len('"😀"') }, enc);
    assert.equal((await s.stop()).code, 0);
  }
  fs.rmSync(dir, { recursive: true });
});

test('multi-line values are underlined whole (the library\'s ends), with CJK and emoji, in all three encodings', async () => {
  const dir = tmpChart();
  const file = path.join(dir, 'ci', 'multi.yaml');
  // a block scalar, a flow mapping that opens on the key's line and closes
  // two lines below, a multi-line quoted scalar, a block mapping, an
  // unknown key of wide characters
  const lines = ['name: |', '  日本', '  😀x', 'port: {a: "東京",', '  b: [🎉,', '    2]}', 'mode: "😀', '  日"',
                 'debug:', '  on: 1', '  off: 2  # 😀', '日😀: 1', ''];
  for (const enc of ['utf-8', 'utf-16', 'utf-32']) {
    const s = await start({ encodings: [enc] });
    const len = (str) => (enc === 'utf-8' ? Buffer.byteLength(str) : enc === 'utf-16' ? str.length : [...str].length);
    const d = await s.open(file, lines.join('\n'));
    const at = (line) => d.diagnostics.find((g) => g.range.start.line === line);
    const want = (l1, c1, l2, text) => ({ start: { line: l1, character: len(lines[l1].slice(0, c1)) },
                                           end: { line: l2, character: len(text) } });
    assert.deepEqual(at(3).range, want(3, 6, 5, '    2]}'), enc + ' flow ' + JSON.stringify(d.diagnostics));
    assert.deepEqual(at(9).range, want(9, 2, 10, '  off: 2'), enc + ' block mapping');
    assert.deepEqual(at(11).range, want(11, 0, 11, '日😀'), enc + ' key');
    assert.equal(at(11).code, 'unknownKey', enc);
    // `mode` (an enum) fails on a quoted value over two lines
    assert.deepEqual(at(6).range, want(6, 6, 7, '  日"'), enc + ' quoted');
    // a block scalar that fails (`name`'s above is a string, as the schema wants): `port`
    const e = await s.change(d.uri, [{ text: 'port: |\n  日本\n  😀x\n' }]);
    assert.deepEqual(e.diagnostics.map((g) => g.range),
                     [{ start: { line: 0, character: 6 }, end: { line: 2, character: len('  😀x') } }], enc + ' block scalar');
    assert.equal((await s.stop()).code, 0);
  }
  fs.rmSync(dir, { recursive: true });
});

test('a 50 MB didChange is taken, validated and answered after; the server stays up', { timeout: 120000 }, async () => {
  const dir = tmpChart();
  const s = await start();
  const g = await bigChange(s, dir);
  assert.deepEqual(g.diagnostics.map((x) => [x.code, x.range.start.line]), [['type', 1]]);
  // the figure: the time to diagnostics is mostly the client's encoding and
  // the machine's other jobs; the server's own CPU time is what it costs
  console.log(`figure: lsp 50 MB didChange to diagnostics: ${g.wall.toFixed(0)} ms; CPU: client ` +
              `${g.client} ms, server ${g.server} ms${release ? '' : ' (sanitizer build)'}`);
  if (release) assert.ok(g.server < 5000, `the server took ${g.server} ms of CPU for a 50 MB didChange`);
  const t0 = performance.now(), c0 = cpuMs(s.child.pid);
  const syms = await s.request('textDocument/documentSymbol', { textDocument: { uri: g.uri } });
  assert.deepEqual(syms.map((x) => x.name), ['name', 'port']);
  console.log(`figure: lsp documentSymbol of the 50 MB text: ${(performance.now() - t0).toFixed(0)} ms, ` +
              `server CPU ${cpuMs(s.child.pid) - c0} ms`);
  assert.equal((await s.stop()).code, 0);
});
