// SPDX-License-Identifier: Apache-2.0
// tests/lsp/side.mjs - `schemadoc lsp` side by side with yaml-language-server
// (npm, pinned; `make yls-deps` installs it into $(BUILD)/node-yls), for
// `make bench` (figures printed, never asserted; docs/lsp.md "Tests and
// figures"). On every corpus chart's values.yaml and ci/*.yaml files:
// yaml-language-server gets the chart's values.schema.json through the
// `# yaml-language-server: $schema=` modeline (a chart without one: no
// schema), schemadoc the chart itself. Both read remote $refs from the
// corpus's copies: schemadoc through --map, yaml-language-server (which has
// no such option) from a copy of the schema with the same prefixes
// rewritten to file: URIs. Counted: each server's diagnostics;
// yaml-language-server's `required` errors for keys values.yaml supplies
// (false: Helm merges the file over values.yaml); the keys each hover
// leaves without a description. Then keystroke to diagnostics on
// kube-prometheus-stack's values.yaml for both (yaml-language-server with
// no schema, as issue 44 measured it). SIDE_CHARTS=a,b: only those charts;
// SIDE_DEBUG=1: yaml-language-server's diagnostics too.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { start, uriOf, MAPS, CORPUS } from './harness.mjs';

const require = createRequire(import.meta.url);
const B = process.env.SD_BUILD || 'build';
const YLS = path.resolve(process.env.YLS_NODE || path.join(B, 'node-yls'));
const ylsMain = path.join(YLS, 'node_modules/yaml-language-server/bin/yaml-language-server');
const LSP = path.resolve(process.env.LSP_NODE || path.join(B, 'node-lsp'));
if (!fs.existsSync(ylsMain)) {
  console.log(`SKIPPED: no yaml-language-server in ${YLS} (make yls-deps)`);
  process.exit(0);
}
const rpc = require(path.join(LSP, 'node_modules/vscode-jsonrpc/node.js'));
const YAML = require(path.join(YLS, 'node_modules/yaml'));
const version = JSON.parse(fs.readFileSync(path.join(YLS, 'node_modules/yaml-language-server/package.json'), 'utf8')).version;

// ---- yaml-language-server as an editor drives it -----------------------------

async function startYls() {
  const child = spawn(process.execPath, [ylsMain, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.on('data', () => {});
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
  const settings = { yaml: { validate: true, hover: true, completion: true, format: { enable: false },
                             schemaStore: { enable: false }, schemas: {}, customTags: [] } };
  conn.onRequest('workspace/configuration', (p) => p.items.map((i) => (i.section === 'yaml' ? settings.yaml : i.section ? null : settings)));
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.onNotification('window/logMessage', () => {});
  conn.onNotification('telemetry/event', () => {});
  const waiters = new Map();   // uri -> resolve of the next publish
  conn.onNotification('textDocument/publishDiagnostics', (p) => {
    const w = waiters.get(p.uri);
    if (w) { waiters.delete(p.uri); w(p.diagnostics); }
  });
  conn.listen();
  await conn.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {
    workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
    textDocument: { hover: { contentFormat: ['markdown', 'plaintext'] }, publishDiagnostics: {} } } });
  conn.sendNotification('initialized', {});
  conn.sendNotification('workspace/didChangeConfiguration', { settings });
  let version = 0;
  const next = (uri, ms = 20000) => new Promise((res) => {
    const t = setTimeout(() => { waiters.delete(uri); res(null); }, ms);
    waiters.set(uri, (d) => { clearTimeout(t); res(d); });
  });
  return {
    conn,
    open(uri, text) {
      const p = next(uri);
      conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: ++version, text } });
      return p;
    },
    change(uri, changes) {
      const p = next(uri);
      conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: changes });
      return p;
    },
    close(uri) { conn.sendNotification('textDocument/didClose', { textDocument: { uri } }); },
    hover(uri, position) { return conn.sendRequest('textDocument/hover', { textDocument: { uri }, position }); },
    async stop() {
      await conn.sendRequest('shutdown');
      conn.sendNotification('exit');
      setTimeout(() => child.kill('SIGKILL'), 2000).unref();
      conn.dispose();
    },
  };
}

// ---- what the text holds -----------------------------------------------------

// Every key of the text with its path and position (0-based line and
// character of the key's first character).
function keysOf(text) {
  const doc = YAML.parseDocument(text, { keepSourceTokens: true });
  const lc = new YAML.LineCounter();
  YAML.parseDocument(text, { lineCounter: lc });
  const out = [];
  const walk = (node, p) => {
    if (YAML.isMap(node)) {
      for (const it of node.items) {
        if (!it.key || !it.key.range) continue;
        const k = String(YAML.isScalar(it.key) ? it.key.value : it.key);
        const pos = lc.linePos(it.key.range[0]);
        out.push({ path: [...p, k], line: pos.line - 1, character: pos.col - 1 });
        walk(it.value, [...p, k]);
      }
    } else if (YAML.isSeq(node)) {
      node.items.forEach((v, i) => walk(v, [...p, i]));
    }
  };
  walk(doc.contents, []);
  return out;
}

// The path of the map a yaml-language-server diagnostic sits on: the key
// written at its start (none: the top).
function pathAt(keys, line, character) {
  const k = keys.find((x) => x.line === line && x.character === character);
  return k ? k.path : [];
}

function has(obj, p, key) {
  let o = obj;
  for (const s of p) {
    if (o == null || typeof o !== 'object') return false;
    o = o[s];
  }
  return o != null && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, key);
}

const ylsText = (h) => {
  if (!h || !h.contents) return '';
  const c = h.contents;
  const s = typeof c === 'string' ? c : Array.isArray(c) ? c.map((x) => (typeof x === 'string' ? x : x.value)).join('\n') : c.value || '';
  // "Source: [schema](...)" says where, "#### Title" (traefik's root title on
  // every key) names, "Allowed Values:" and its items list the enum (which
  // schemadoc lists as a fact, too): none describes the key
  return s.split('\n').filter((l) => !/^(Source: |#### |Allowed Values:$|\* `)/.test(l.trim())).join('\n').trim();
};
// schemadoc's hover: "**path** (type)", then the description as its own
// paragraph, then the list of facts ("- Default: ...")
const sdDescribed = (h) => !!h && h.contents.value.split('\n\n').slice(1)
  .some((p) => p.trim() && !p.startsWith('**Deprecated**') && !p.trim().startsWith('- '));

// ---- the files -----------------------------------------------------------------

const chartsDir = path.join(CORPUS, 'charts');
const charts = fs.existsSync(chartsDir) ? fs.readdirSync(chartsDir).filter((c) => fs.existsSync(path.join(chartsDir, c, 'Chart.yaml')) &&
  (!process.env.SIDE_CHARTS || process.env.SIDE_CHARTS.split(',').includes(c))).sort() : [];
if (!charts.length) {
  console.log(`SKIPPED: no corpus charts in ${chartsDir}`);
  process.exit(0);
}
const tot = { files: 0, withSchema: 0, keys: 0, ylsDiags: 0, sdDiags: 0, ylsRequired: 0, ylsFalseRequired: 0,
              sdRequired: 0, ylsUndescribed: 0, sdUndescribed: 0, ylsNoAnswer: 0 };
const rows = [];
const yls = await startYls();
// the --map prefixes of MAPS, for yaml-language-server's copy of a schema
const maps = MAPS.flatMap((a, i) => (MAPS[i - 1] === '--map' ? [a.split('=')] : []))
  .map(([from, to]) => [from, uriOf(to).replace(/\/?$/, to.endsWith('/') ? '/' : '')]);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-side-'));
function mappedSchema(chart, file) {
  let s = fs.readFileSync(file, 'utf8');
  for (const [from, to] of maps) s = s.split(from).join(to);
  const out = path.join(tmp, `${chart}.values.schema.json`);
  fs.writeFileSync(out, s);
  return out;
}
for (const c of charts) {
  const dir = path.join(chartsDir, c);
  const schema = path.join(dir, 'values.schema.json');
  const hasSchema = fs.existsSync(schema);
  const ySchema = hasSchema ? mappedSchema(c, schema) : null;
  const files = ['values.yaml', ...(fs.existsSync(path.join(dir, 'ci'))
    ? fs.readdirSync(path.join(dir, 'ci')).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => `ci/${f}`) : [])];
  const defaults = YAML.parse(fs.readFileSync(path.join(dir, 'values.yaml'), 'utf8')) || {};
  const sd = await start({ args: MAPS });
  const row = { chart: c, files: 0, ylsDiags: 0, sdDiags: 0, ylsFalseRequired: 0, ylsUndescribed: 0, sdUndescribed: 0, keys: 0 };
  for (const f of files) {
    const file = path.join(dir, f);
    const text = fs.readFileSync(file, 'utf8');
    const keys = keysOf(text);
    // yaml-language-server: the modeline first (a line more above the text)
    const shift = hasSchema ? 1 : 0;
    const ytext = hasSchema ? `# yaml-language-server: $schema=${uriOf(ySchema)}\n${text}` : text;
    const yuri = uriOf(file) + '.yls.yaml';
    const yd = (await yls.open(yuri, ytext)) || [];
    const sdd = (await sd.open(file, text)).diagnostics;
    row.ylsDiags += yd.length;
    if (process.env.SIDE_DEBUG) for (const g of yd) console.log(`lsp debug ${c}/${f}: ${g.range.start.line}: ${g.message.slice(0, 160)}`);
    row.sdDiags += sdd.length;
    tot.sdRequired += sdd.filter((g) => g.code === 'required').length;
    for (const g of yd) {
      const m = /^Missing property "(.*)"\.?$/.exec(g.message);
      if (!m) continue;
      tot.ylsRequired++;
      const p = pathAt(keys, g.range.start.line - shift, g.range.start.character);
      if (f !== 'values.yaml' && has(defaults, p, m[1])) row.ylsFalseRequired++;
    }
    for (const k of keys) {
      const yh = ylsText(await yls.hover(yuri, { line: k.line + shift, character: k.character }));
      const sh = await sd.request('textDocument/hover', { textDocument: { uri: uriOf(file) }, position: { line: k.line, character: k.character } });
      if (!yh) row.ylsUndescribed++;
      if (!sdDescribed(sh)) row.sdUndescribed++;
    }
    row.keys += keys.length;
    row.files++;
    if (hasSchema) tot.withSchema++;
    yls.close(yuri);
    sd.close(uriOf(file));
  }
  await sd.stop();
  rows.push(row);
  for (const k of ['files', 'keys', 'ylsDiags', 'sdDiags', 'ylsFalseRequired', 'ylsUndescribed', 'sdUndescribed']) tot[k] += row[k];
  console.log(`lsp side by side: ${c}${hasSchema ? '' : ' (no schema)'}: ${row.files} files, ${row.keys} keys; ` +
              `diagnostics yaml-language-server ${row.ylsDiags}, schemadoc ${row.sdDiags}; false required ${row.ylsFalseRequired}; ` +
              `keys without a description: yaml-language-server ${row.ylsUndescribed}, schemadoc ${row.sdUndescribed}`);
}
console.log(`lsp side by side (yaml-language-server ${version}), ${charts.length} charts, ${tot.files} files ` +
            `(${tot.withSchema} with a values.schema.json), ${tot.keys} keys:`);
console.log(`lsp   diagnostics: yaml-language-server ${tot.ylsDiags}, schemadoc ${tot.sdDiags}`);
console.log(`lsp   yaml-language-server "Missing property" errors: ${tot.ylsRequired}, of which ${tot.ylsFalseRequired} in ` +
            `ci/ files for keys values.yaml supplies; schemadoc required errors: ${tot.sdRequired}`);
console.log(`lsp   keys hovered without a description: yaml-language-server ${tot.ylsUndescribed}, schemadoc ${tot.sdUndescribed}`);

// ---- keystroke to diagnostics ------------------------------------------------------

const kps = path.join(chartsDir, 'kube-prometheus-stack', 'values.yaml');
if (fs.existsSync(kps)) {
  const text = fs.readFileSync(kps, 'utf8');
  const lines = text.split('\n');
  const at = lines.findIndex((l, i) => i > lines.length / 2 && /^ {2,}[a-zA-Z]+: [a-z]+$/.test(l));
  const col = lines[at].length;
  const edit = (i) => [{ range: { start: { line: at, character: col }, end: { line: at, character: col + (i % 2) } },
                         text: i % 2 ? '' : 'x' }];
  const pct = (t, p) => t[Math.min(t.length - 1, Math.floor(t.length * p))].toFixed(1);
  const N = 60;
  // yaml-language-server, no schema (the file has no modeline)
  const yuri = uriOf(kps) + '.yls.yaml';
  await yls.open(yuri, text);
  const yt = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await yls.change(yuri, edit(i));
    yt.push(performance.now() - t0);
  }
  yt.sort((a, b) => a - b);
  const sd = await start({ args: MAPS });
  const d = await sd.open(kps, text);
  const st = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await sd.change(d.uri, edit(i));
    st.push(performance.now() - t0);
  }
  st.sort((a, b) => a - b);
  await sd.stop();
  console.log(`lsp keystroke to diagnostics, kube-prometheus-stack/values.yaml, ${N} edits: yaml-language-server (no schema) ` +
              `median ${pct(yt, 0.5)} ms, p95 ${pct(yt, 0.95)} ms; schemadoc (the chart's schema) median ${pct(st, 0.5)} ms, p95 ${pct(st, 0.95)} ms`);
}
await yls.stop();
fs.rmSync(tmp, { recursive: true, force: true });
