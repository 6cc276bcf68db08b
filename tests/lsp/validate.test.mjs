// SPDX-License-Identifier: Apache-2.0
// tests/lsp/validate.test.mjs - the diagnostics of an open values file are
// exactly what `schemadoc validate CHART FILE --output json` finds about
// that file, at the same positions: every ci/ file of every corpus chart,
// as it is and spoiled (a typo'd key, a value of the wrong type), the
// spoiled copies written into a copy of the chart so the command line
// reads the same text. A file without findings counts too.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { start, units, SD, CORPUS, MAPS } from './harness.mjs';

const charts = fs.existsSync(path.join(CORPUS, 'charts'))
  ? fs.readdirSync(path.join(CORPUS, 'charts')).filter((c) => fs.existsSync(path.join(CORPUS, 'charts', c, 'ci')))
  : [];

// What the command line finds about `file` (its own findings only: those
// about values.yaml are not this file's), as LSP diagnostics would say it.
function cli(chart, file, text) {
  const r = spawnSync(SD, ['validate', chart, file, '--output', 'json', ...MAPS], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.ok(r.status === 0 || r.status === 1, `${file}: exit ${r.status}: ${r.stderr}`);
  const lines = text.split('\n');
  const out = [];
  for (const res of JSON.parse(r.stdout)) {
    for (const [list, severity] of [[res.errors, 1], [res.warnings, 2]]) {
      for (const e of list) {
        if (e.file !== file) continue;
        assert.ok(e.endLine >= e.line, `${file}: no end: ${JSON.stringify(e)}`);
        out.push({ line: e.line - 1, character: units(lines[e.line - 1] || '', e.column - 1), severity,
                   end: `${e.endLine - 1}:${units(lines[e.endLine - 1] || '', e.endColumn - 1)}`,
                   code: e.keyword, message: `${e.key}: ${e.message}` });
      }
    }
  }
  return out;
}

const key = (g) => `${g.line}:${g.character}-${g.end} ${g.severity} ${g.code} ${g.message}`;

// the spoiled copy: a key of the first map misspelt, a value of the wrong type
function spoil(text) {
  const typo = (m, ind, k) => `${ind}${k.slice(0, -1)}${k.slice(-1) === 'x' ? 'y' : 'x'}:`;
  return text.replace(/^()([a-zA-Z]\w{3,}):/m, typo).replace(/^( {2})([a-zA-Z]\w{3,}):/m, typo) +
    '\nzzUnknownKey: [1, 2]\n';
}

test('diagnostics equal validate on every corpus ci/ file, plain and spoiled', { timeout: 600000 }, async (t) => {
  if (!charts.length) { t.skip(`no corpus charts with ci/ in ${CORPUS}`); return; }
  let files = 0, findings = 0, spoiledFindings = 0;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-lsp-parity-'));
  try {
    for (const name of charts) {
      const orig = path.join(CORPUS, 'charts', name);
      const copy = path.join(tmp, name);
      fs.cpSync(orig, copy, { recursive: true });
      const s = await start({ args: MAPS });
      for (const f of fs.readdirSync(path.join(orig, 'ci')).filter((f) => /\.ya?ml$/.test(f)).sort()) {
        for (const [dir, spoiled] of [[orig, false], [copy, true]]) {
          const file = path.join(dir, 'ci', spoiled ? `spoiled-${f}` : f);
          const text = spoiled ? spoil(fs.readFileSync(path.join(orig, 'ci', f), 'utf8')) : fs.readFileSync(file, 'utf8');
          if (spoiled) fs.writeFileSync(file, text);
          const want = cli(dir, file, text).map(key).sort();
          const got = (await s.open(file, text)).diagnostics.filter((g) => g.code).map((g) => ({
            line: g.range.start.line, character: g.range.start.character, severity: g.severity,
            end: `${g.range.end.line}:${g.range.end.character}`,
            code: g.code, message: g.message })).map(key).sort();
          assert.deepEqual(got, want, file);
          files++;
          if (spoiled) spoiledFindings += want.length; else findings += want.length;
          if (spoiled) fs.rmSync(file);   // the chart's own ci/ files feed its made schema
        }
      }
      assert.equal((await s.stop()).code, 0);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`count: lsp diagnostics equal validate's: ${files} files of ${charts.length} charts, ` +
              `${findings} findings as they are, ${spoiledFindings} spoiled`);
  assert.ok(files > 0);
  assert.ok(spoiledFindings >= files / 2, 'the spoiled copies must have findings');
});
