// SPDX-License-Identifier: Apache-2.0
// tests/lsp/editors.test.mjs - real editors, headless, as clients of
// `schemadoc lsp` (docs/editors.md): Neovim (vim.lsp.start_client) and
// Emacs with eglot open a values file of a made chart, receive the
// diagnostics, hover a key, apply the quick fix and accept a completion;
// the test reads what the editor's own buffer and diagnostics list hold.
// Then each passes the settings (glob -> chart) as docs/editors.md says,
// for a file outside any chart.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { SD } from './harness.mjs';
import { tmpChart } from './chart.mjs';

const have = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const here = path.dirname(new URL(import.meta.url).pathname);

function results(out) {
  return Object.assign({}, ...fs.readFileSync(out, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)));
}

function check(r, editor) {
  assert.equal(r.error, undefined, `${editor}: ${r.error}`);
  assert.equal(r.diagnostics.length, 1, editor);
  assert.match(r.diagnostics[0].message, /unknown key `prot`.*did you mean `port`/, editor);
  assert.equal(r.diagnostics[0].lnum, 1, editor);
  assert.match(r.hover, /\*\*name\*\* \(string\)[\s\S]*the name/, editor);
  assert.equal(r.action, 'Did you mean `port`?', editor);
  assert.equal(r.fixed, 0, editor);
  assert.ok(r.completions >= 1, editor);
  assert.deepEqual(r.buffer.slice(0, 2), ['name: a', 'port: 1'], editor);
  assert.match(r.buffer[2], /^(mode|debug): 1$/, editor);
}

function setup() {
  const dir = tmpChart();
  const file = path.join(dir, 'ci', 'editor.yaml');
  fs.writeFileSync(file, 'name: a\nprot: 1\n');
  return { dir, file, out: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-ed-')), 'out.jsonl') };
}

test('Neovim: diagnostics, hover, quick fix, completion', { timeout: 120000 }, (t) => {
  if (!have('nvim')) { t.skip('nvim is needed (Debian neovim)'); return; }
  const { file, out } = setup();
  const r = spawnSync('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${here}/editors/nvim.lua`],
                      { env: { ...process.env, SD, SD_FILE: file, SD_OUT: out }, timeout: 90000, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  check(results(out), 'nvim');
});

test('Emacs with eglot: diagnostics, hover, quick fix, completion', { timeout: 120000 }, (t) => {
  const elpa = '/usr/share/emacs/site-lisp/elpa';
  if (!have('emacs') || !fs.existsSync(elpa) || !fs.readdirSync(elpa).some((d) => d.startsWith('eglot-'))) {
    t.skip('emacs and eglot are needed (Debian emacs-nox, elpa-eglot)');
    return;
  }
  const { file, out } = setup();
  const r = spawnSync('emacs', ['--batch', '-l', `${here}/editors/eglot.el`],
                      { env: { ...process.env, SD, SD_FILE: file, SD_OUT: out }, timeout: 90000, encoding: 'utf8' });
  assert.ok(fs.existsSync(out), r.stderr);
  check(results(out), 'emacs');
});

// A workspace: charts/app, and deploy/prod/x.yaml outside it, with a typo.
function workspace() {
  const chart = tmpChart();
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-ed-ws-')));
  fs.mkdirSync(path.join(root, 'charts'));
  fs.cpSync(chart, path.join(root, 'charts', 'app'), { recursive: true });
  fs.mkdirSync(path.join(root, 'deploy', 'prod'), { recursive: true });
  const file = path.join(root, 'deploy', 'prod', 'x.yaml');
  fs.writeFileSync(file, 'name: a\nprot: 1\n');
  return { root, file, out: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-ed-')), 'out.jsonl') };
}

function checkSettings(r, editor) {
  assert.equal(r.error, undefined, `${editor}: ${r.error}`);
  assert.equal(r.diagnostics.length, 1, editor);
  assert.match(r.diagnostics[0].message, /unknown key `prot`.*did you mean `port`/, editor);
  assert.equal(r.diagnostics[0].lnum, 1, editor);
}

test('Neovim: the settings by init_options and by settings map a file outside the chart', { timeout: 120000 }, (t) => {
  if (!have('nvim')) { t.skip('nvim is needed (Debian neovim)'); return; }
  for (const mode of ['init', 'settings']) {
    const { root, file, out } = workspace();
    const r = spawnSync('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${here}/editors/nvim-settings.lua`],
                        { env: { ...process.env, SD, SD_FILE: file, SD_OUT: out, SD_ROOT: root, SD_MODE: mode },
                          timeout: 90000, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    checkSettings(results(out), `nvim ${mode}`);
  }
});

test('Emacs with eglot: eglot-workspace-configuration maps a file outside the chart', { timeout: 120000 }, (t) => {
  const elpa = '/usr/share/emacs/site-lisp/elpa';
  if (!have('emacs') || !fs.existsSync(elpa) || !fs.readdirSync(elpa).some((d) => d.startsWith('eglot-'))) {
    t.skip('emacs and eglot are needed (Debian emacs-nox, elpa-eglot)');
    return;
  }
  const { root, file, out } = workspace();
  const r = spawnSync('emacs', ['--batch', '-l', `${here}/editors/eglot-settings.el`],
                      { env: { ...process.env, SD, SD_FILE: file, SD_OUT: out, SD_ROOT: root }, timeout: 90000, encoding: 'utf8' });
  assert.ok(fs.existsSync(out), r.stderr);
  checkSettings(results(out), 'emacs');
});
