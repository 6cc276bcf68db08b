// SPDX-License-Identifier: Apache-2.0
// tests/lsp/references.test.mjs - where the templates read a values key:
// textDocument/references, and textDocument/definition's template places
// after values.yaml's line. A chart of our own (exact places through
// `with`, `range`, `$`, a variable, `toYaml` and a named template), and each
// corpus chart with the template fixture of tests/k8s-places/ (the corpus
// ships no templates/): every `.Values.a.b` that grep finds there is among
// the references of key a.b, at the same line and columns.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { start, uriOf, CORPUS, MAPS } from './harness.mjs';

const TEMPLATE = `image: {{ .Values.image.repository }}:{{ .Values.image.tag }}
{{- with .Values.image }}
pull: {{ .tag | quote }}
{{- end }}
{{- range $name, $r := .Values.routes }}
host: {{ $r.host }}
{{- end }}
cfg: {{ toYaml .Values.config | nindent 2 }}
res: {{- .Values.resources | toYaml | nindent 2 }}
{{- $tag := .Values.image.tag }}
t: {{ $tag }} {{ include "t.tag" . }}
`;
const HELPERS = `{{- define "t.tag" -}}
{{ $.Values.image.tag }}
{{- end }}
`;

function chartWithTemplates() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-lsp-refs-')));
  fs.mkdirSync(path.join(dir, 'templates'));
  fs.mkdirSync(path.join(dir, 'ci'));
  fs.writeFileSync(path.join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: t\nversion: 1.0.0\n');
  fs.writeFileSync(path.join(dir, 'values.yaml'),
    'image:\n  repository: nginx\n  tag: "1.0"\nresources: {}\nroutes:\n  main:\n    host: a.example\nconfig:\n  a: 1\n');
  fs.writeFileSync(path.join(dir, 'templates', 'deploy.yaml'), TEMPLATE);
  fs.writeFileSync(path.join(dir, 'templates', '_helpers.tpl'), HELPERS);
  return dir;
}

// the Location of the n-th `needle` (written after `prefix`) in a template text
function at(dir, file, text, needle, n = 0, prefix = "") {
  let i = -1;
  for (let k = 0; k <= n; k++) i = text.indexOf(prefix + needle, i + 1);
  assert.ok(i >= 0, needle);
  i += prefix.length;
  const before = text.slice(0, i).split('\n');
  const line = before.length - 1, character = before[line].length;
  return { uri: uriOf(path.join(dir, 'templates', file)),
           range: { start: { line, character }, end: { line, character: character + needle.length } } };
}

const key = (l) => `${l.uri}:${l.range.start.line}:${l.range.start.character}-${l.range.end.line}:${l.range.end.character}`;
const keys = (list) => (list || []).map(key).sort();

test('references: every template place that reads the key, through with, range, $, variables and toYaml', async () => {
  const dir = chartWithTemplates();
  const s = await start();
  const text = 'image:\n  tag: "2"\nroutes:\n  main:\n    host: b\nconfig:\n  a: 2\nresources:\n  limits: {}\n';
  const d = await s.open(path.join(dir, 'ci', 'a.yaml'), text);
  assert.equal(s.init.capabilities.referencesProvider, true);
  const refs = (line, character, includeDeclaration = false) => s.request('textDocument/references',
    { textDocument: { uri: d.uri }, position: { line, character }, context: { includeDeclaration } });
  // image.tag: read directly, under `with`, bound to a variable, in a named template
  assert.deepEqual(keys(await refs(1, 3)), keys([
    at(dir, 'deploy.yaml', TEMPLATE, '.Values.image.tag'), at(dir, 'deploy.yaml', TEMPLATE, '.tag', 0, 'pull: {{ '),
    at(dir, 'deploy.yaml', TEMPLATE, '.Values.image.tag', 1), at(dir, 'deploy.yaml', TEMPLATE, '$tag', 0, 't: {{ '),
    at(dir, '_helpers.tpl', HELPERS, '$.Values.image.tag')]));
  // image itself: only where the map is read (`with`), not its keys' places
  assert.deepEqual(keys(await refs(0, 2)), keys([at(dir, 'deploy.yaml', TEMPLATE, '.Values.image', 2)]));
  // routes.main.host: through the range's $r
  assert.deepEqual(keys(await refs(4, 5)), keys([at(dir, 'deploy.yaml', TEMPLATE, '$r.host')]));
  // config.a and resources.limits: their maps are written out whole (toYaml, `| toYaml`)
  assert.deepEqual(keys(await refs(6, 2)), keys([at(dir, 'deploy.yaml', TEMPLATE, '.Values.config')]));
  assert.deepEqual(keys(await refs(8, 3)), keys([at(dir, 'deploy.yaml', TEMPLATE, '.Values.resources')]));
  // includeDeclaration: values.yaml's line first
  const withDecl = await refs(4, 5, true);
  assert.equal(withDecl[0].uri, uriOf(path.join(dir, 'values.yaml')));
  assert.equal(withDecl[0].range.start.line, 6);
  assert.equal(withDecl.length, 2);
  // definition: values.yaml's line, then the same template places
  const def = await s.request('textDocument/definition', { textDocument: { uri: d.uri }, position: { line: 1, character: 3 } });
  assert.equal(def[0].uri, uriOf(path.join(dir, 'values.yaml')));
  assert.equal(def[0].range.start.line, 2);
  assert.deepEqual(keys(def.slice(1)), keys(await refs(1, 3)));
  // a template changed on disk is read again
  fs.writeFileSync(path.join(dir, 'templates', 'deploy.yaml'), 'x: {{ .Values.config.a }}\n');
  s.conn.sendNotification('workspace/didChangeWatchedFiles',
    { changes: [{ uri: uriOf(path.join(dir, 'templates', 'deploy.yaml')), type: 2 }] });
  assert.deepEqual(keys(await refs(6, 2)), keys([at(dir, 'deploy.yaml', 'x: {{ .Values.config.a }}\n', '.Values.config.a')]));
  assert.equal((await s.stop()).code, 0);
});

test('references in UTF-16 and UTF-8: the columns of a line with CJK text', async () => {
  const dir = chartWithTemplates();
  const tmpl = '# 日本語 {{ .Values.config.a }}\n';
  fs.writeFileSync(path.join(dir, 'templates', 'deploy.yaml'), tmpl);
  for (const [enc, c0] of [['utf-16', 9], ['utf-8', 15]]) {
    const s = await start({ encodings: [enc] });
    const d = await s.open(path.join(dir, 'ci', 'a.yaml'), 'config:\n  a: 2\n');
    const r = await s.request('textDocument/references', { textDocument: { uri: d.uri }, position: { line: 1, character: 2 },
                                                            context: { includeDeclaration: false } });
    assert.deepEqual(r.map((l) => [l.range.start.character, l.range.end.character]), [[c0, c0 + 16]], enc);
    assert.equal((await s.stop()).code, 0);
  }
});

// the path of each key line of a YAML text by indentation: "a.b" -> line
function keyLines(text) {
  const out = new Map(), stack = [];
  text.split('\n').forEach((l, i) => {
    const m = /^( *)([A-Za-z_][\w-]*):/.exec(l);
    if (!m) return;
    while (stack.length && stack[stack.length - 1].indent >= m[1].length) stack.pop();
    stack.push({ indent: m[1].length, key: m[2] });
    const p = stack.map((x) => x.key).join('.');
    if (!out.has(p)) out.set(p, { line: i, character: m[1].length });
  });
  return out;
}

test('references on each corpus chart with its template fixture: every `.Values.a.b` grep finds is answered', { timeout: 600000 }, async (t) => {
  const fixtures = path.resolve('tests/k8s-places');
  const charts = fs.existsSync(path.join(CORPUS, 'charts'))
    ? fs.readdirSync(fixtures).filter((c) => fs.existsSync(path.join(CORPUS, 'charts', c, 'Chart.yaml'))) : [];
  if (!charts.length) { t.skip('no corpus'); return; }
  let hits = 0, asked = 0, answered = 0;
  for (const c of charts) {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `sd-lsp-refs-${c}-`)));
    fs.cpSync(path.join(CORPUS, 'charts', c), dir, { recursive: true });
    fs.cpSync(path.join(fixtures, c, 'templates'), path.join(dir, 'templates'), { recursive: true });
    // the grep: each `.Values.a.b` (or `$.Values.a.b`) written in the templates
    const want = new Map();   // "a.b" -> [Location]
    for (const f of fs.readdirSync(path.join(dir, 'templates'), { recursive: true })) {
      if (!fs.statSync(path.join(dir, 'templates', f)).isFile()) continue;
      const text = fs.readFileSync(path.join(dir, 'templates', f), 'utf8');
      text.split('\n').forEach((l, line) => {
        for (const m of l.matchAll(/(\$?)\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) {
          const p = m[2].slice(1);
          if (!want.has(p)) want.set(p, []);
          want.get(p).push({ uri: uriOf(path.join(dir, 'templates', f)),
                             range: { start: { line, character: m.index }, end: { line, character: m.index + m[0].length } } });
        }
      });
    }
    const values = fs.readFileSync(path.join(dir, 'values.yaml'), 'utf8');
    const lines = keyLines(values);
    const s = await start({ args: MAPS });
    const d = await s.open(path.join(dir, 'values.yaml'), values);
    for (const [p, locs] of want) {
      const pos = lines.get(p);
      if (!pos) continue;   // a key values.yaml does not write
      asked++;
      const got = await s.request('textDocument/references', { textDocument: { uri: d.uri }, position: pos,
                                                                context: { includeDeclaration: false } });
      const have = new Set(keys(got));
      for (const l of locs) {
        hits++;
        assert.ok(have.has(key(l)), `${c}: ${p}: ${key(l)} not among ${[...have].join(' ')}`);
      }
      // and nothing that is no term of the templates
      for (const l of got) {
        const text = fs.readFileSync(new URL(l.uri), 'utf8').split('\n')[l.range.start.line]
          .slice(l.range.start.character, l.range.end.character);
        assert.match(text, /^(\$\w*|\.\w*)(\.\w+)*$/, `${c}: ${p}: ${text}`);
      }
      answered += got.length;
    }
    assert.equal((await s.stop()).code, 0);
  }
  console.log(`count: lsp references: ${asked} keys of ${charts.length} corpus charts asked, ${hits} grep hits all found, ${answered} places answered`);
  assert.ok(asked >= 30 && hits >= 50);
});
