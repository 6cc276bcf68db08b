// SPDX-License-Identifier: Apache-2.0
// tests/lsp/chart.mjs - a small chart made for a test, in a temporary folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// A chart of our own: a schema with a string `name`, an integer `port`.
export function tmpChart(extraValues = '') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-lsp-'));
  fs.mkdirSync(path.join(dir, 'ci'));
  fs.writeFileSync(path.join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: t\nversion: 1.0.0\n');
  fs.writeFileSync(path.join(dir, 'values.yaml'), `# -- the name\nname: x\n# -- the port\nport: 80\n${extraValues}`);
  fs.writeFileSync(path.join(dir, 'values.schema.json'), JSON.stringify({
    type: 'object', required: ['name', 'port'],
    properties: { name: { type: 'string' }, port: { type: 'integer', maximum: 65535 },
                  mode: { enum: ['fast', 'safe'], description: 'how to run' }, debug: { type: 'boolean' } } }));
  return dir;
}

