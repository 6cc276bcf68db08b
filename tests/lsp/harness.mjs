// SPDX-License-Identifier: Apache-2.0
// tests/lsp/harness.mjs - drive `schemadoc lsp` as an editor would, through
// vscode-jsonrpc (the client library VS Code uses; pinned, installed by
// `make lsp-deps` into $(BUILD)/node-lsp), and raw bytes for the hostile
// cases. SD is the binary under test, LSP_NODE the npm prefix.
import { spawn } from 'node:child_process';
import { after } from 'node:test';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);
const prefix = process.env.LSP_NODE || path.resolve('build/node-lsp');
const rpc = require(path.join(prefix, 'node_modules/vscode-jsonrpc/node.js'));
export const SD = process.env.SD || path.resolve('schemadoc');
export const CORPUS = path.resolve(process.env.CORPUS || '../shared/corpus');

export const uriOf = (p) => pathToFileURL(p).href;
// the corpus's remote documents read from its copies, never the network
export const MAPS = ['--offline', '--cache-dir', path.join(process.env.TMPDIR || '/tmp', 'sd-lsp-nocache'),
  '--map', `https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/=${CORPUS}/kubernetes/`,
  '--map', `https://raw.githubusercontent.com/=${CORPUS}/charts/_remote/raw.githubusercontent.com/`];

// every server a test file started goes when the file is done, also when
// a failed assertion skipped its shutdown
const children = new Set();
after(() => { for (const c of children) c.kill('SIGKILL'); });

// A session: the server started, initialized with `encodings` offered;
// `caps` are more client capabilities, `init` more initialize params
// (rootUri, initializationOptions). The server's $/progress reports and
// window/workDoneProgress/create requests are kept in s.progress.
export async function start({ encodings, args = [], env = {}, caps: more = {}, init: params = {} } = {}) {
  const child = spawn(SD, ['lsp', '--stdio', ...args], { stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env } });
  let stderr = '';
  children.add(child);
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((res) => child.on('exit', (code, sig) => { children.delete(child); res({ code, sig }); }));
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout),
                                           new rpc.StreamMessageWriter(child.stdin));
  const diags = new Map();       // uri -> [{version, diagnostics}]
  const waiters = [];
  conn.onNotification('textDocument/publishDiagnostics', (p) => {
    if (!diags.has(p.uri)) diags.set(p.uri, []);
    diags.get(p.uri).push(p);
    for (const w of [...waiters]) if (w.uri === p.uri && (w.version == null || p.version >= w.version)) {
      waiters.splice(waiters.indexOf(w), 1); w.res(p);
    }
  });
  conn.onNotification('window/logMessage', () => {});
  const progress = [];
  conn.onRequest('window/workDoneProgress/create', (p) => { progress.push({ create: p.token }); return null; });
  conn.onUnhandledProgress((p) => progress.push({ token: p.token, kind: p.value.kind, title: p.value.title }));
  conn.listen();
  const caps = { general: encodings ? { positionEncodings: encodings } : undefined,
                 textDocument: { publishDiagnostics: { relatedInformation: true } }, ...more };
  const init = await conn.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: caps, ...params });
  conn.sendNotification('initialized', {});
  const versions = new Map();
  const s = {
    child, conn, init, exited, progress, get stderr() { return stderr; },
    encoding: init.capabilities.positionEncoding,
    // the next diagnostics of `uri` at `version` or later
    diagnostics(uri, version, ms = 60000) {
      const have = (diags.get(uri) || []).filter((p) => version == null || p.version >= version);
      if (have.length) return Promise.resolve(have[have.length - 1]);
      return new Promise((res, rej) => {
        const t = setTimeout(() => rej(new Error(`no diagnostics for ${uri} v${version}`)), ms);
        waiters.push({ uri, version, res: (p) => { clearTimeout(t); res(p); } });
      });
    },
    open(file, text) {
      const uri = uriOf(file);
      versions.set(uri, 1);
      conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
      return s.diagnostics(uri, 1).then((p) => ({ uri, ...p }));
    },
    change(uri, contentChanges) {
      const v = versions.get(uri) + 1;
      versions.set(uri, v);
      conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: v }, contentChanges });
      return s.diagnostics(uri, v);
    },
    published(uri) { return diags.get(uri) || []; },
    close(uri) { conn.sendNotification('textDocument/didClose', { textDocument: { uri } }); },
    request(method, params) { return conn.sendRequest(method, params); },
    async stop() {
      await conn.sendRequest('shutdown');
      conn.sendNotification('exit');
      const r = await exited;
      conn.dispose();
      return r;
    },
  };
  return s;
}

// Raw bytes in, the messages out until the server exits (or `ms` pass).
export function raw(chunks, { ms = 20000, args = [] } = {}) {
  return new Promise((resolve) => {
    const child = spawn(SD, ['lsp', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => { err += d; });
    const t = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('exit', (code, sig) => {
      clearTimeout(t);
      resolve({ code, sig, stderr: err, messages: parseFrames(Buffer.concat(out)) });
    });
    child.stdin.on('error', () => {});
    (async () => {
      for (const c of chunks) {
        if (!child.stdin.write(c)) await new Promise((r) => child.stdin.once('drain', r));
      }
      child.stdin.end();
    })();
  });
}

export function frame(obj) {
  const b = Buffer.isBuffer(obj) ? obj : Buffer.from(typeof obj === 'string' ? obj : JSON.stringify(obj));
  return Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n\r\n`), b]);
}

export function parseFrames(buf) {
  const msgs = [];
  let i = 0;
  while (i < buf.length) {
    const h = buf.indexOf('\r\n\r\n', i);
    if (h < 0) break;
    const m = /Content-Length: (\d+)/.exec(buf.slice(i, h).toString());
    if (!m) break;
    const n = Number(m[1]);
    msgs.push(JSON.parse(buf.slice(h + 4, h + 4 + n).toString()));
    i = h + 4 + n;
  }
  return msgs;
}

// The CPU time (user + system, ms) process `pid` has used: /proc/PID/stat's
// utime and stime, in clock ticks of 10 ms (Linux's USER_HZ).
export function cpuMs(pid) {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) * 10;
}

// A 50 MB didChange (a 50 MB string, CJK in it, then a wrong `port`) on a
// file of chart `dir` in session `s`: the time from the call to its
// diagnostics, the client's CPU time over it (node encoding and writing the
// message: vscode-jsonrpc's JSON.stringify and UTF-8 buffer), and the
// server's.
export async function bigChange(s, dir) {
  const d = await s.open(path.join(dir, 'ci', 'big.yaml'), 'name: a\n');
  const big = `name: "${'日'.repeat(1000)}${'x'.repeat(50 * 1000 * 1000)}"\nport: x\n`;
  const cpu0 = cpuMs(s.child.pid), me0 = process.cpuUsage();
  const t0 = performance.now();
  const g = await s.change(d.uri, [{ text: big }]);
  const me = process.cpuUsage(me0);
  return { uri: d.uri, diagnostics: g.diagnostics, wall: performance.now() - t0,
           client: Math.round((me.user + me.system) / 1000), server: cpuMs(s.child.pid) - cpu0 };
}

// The UTF-16 (or utf-8 / utf-32) column of code point column `cp` (0-based) of `line`.
export function units(line, cp, enc = 'utf-16') {
  const pre = [...line].slice(0, cp).join('');
  if (enc === 'utf-8') return Buffer.byteLength(pre);
  if (enc === 'utf-32') return [...pre].length;
  return pre.length;
}
