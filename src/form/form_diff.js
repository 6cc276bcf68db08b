// SPDX-License-Identifier: Apache-2.0
// form_diff.js - a line diff (Myers' O((N+M)D) algorithm) in unified-diff
// hunks, for the form's "diff against the chart's values.yaml" (docs/form.md).
// Pure: no DOM. Past MAX_D differing lines it gives up on a shortest script
// and reports the middle (after the common start and end) as replaced.

const MAX_D = 1500;

// The edit script between line arrays a and b: [[op, line]] with op " ",
// "-" or "+".
export function diffLines(a, b) {
  let s = 0;
  while (s < a.length && s < b.length && a[s] === b[s]) s++;
  let e = 0;
  while (e < a.length - s && e < b.length - s && a[a.length - 1 - e] === b[b.length - 1 - e]) e++;
  const A = a.slice(s, a.length - e), B = b.slice(s, b.length - e);
  const out = [];
  for (let i = 0; i < s; i++) out.push([" ", a[i]]);
  const mid = myers(A, B);
  if (mid) out.push(...mid);
  else { for (const l of A) out.push(["-", l]); for (const l of B) out.push(["+", l]); }
  for (let i = a.length - e; i < a.length; i++) out.push([" ", a[i]]);
  return out;
}

function myers(a, b) {
  const n = a.length, m = b.length, max = Math.min(n + m, MAX_D);
  const off = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) { x++; y++; }
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, d);
    }
  }
  return null;
}

function backtrack(a, b, trace, dEnd) {
  const out = [];
  let x = a.length, y = b.length;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d];        // v[k] is at index k + d + 1
    const at = (k) => v[k + d + 1];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const px = at(prevK), py = px - prevK;
    while (x > px && y > py) { out.push([" ", a[x - 1]]); x--; y--; }
    if (x === px) out.push(["+", b[y - 1]]); else out.push(["-", a[x - 1]]);
    x = px; y = py;
  }
  while (x > 0 && y > 0) { out.push([" ", a[x - 1]]); x--; y--; }
  return out.reverse();
}

// Unified-diff hunks with `context` lines around each change:
// [{a, an, b, bn, lines: [[op, line]]}] (a, b: 0-based first lines).
export function lineDiff(a, b, context = 3) {
  const ops = diffLines(a, b);
  // where each op starts in a and in b
  const pa = new Int32Array(ops.length + 1), pb = new Int32Array(ops.length + 1);
  ops.forEach(([op], i) => { pa[i + 1] = pa[i] + (op !== "+" ? 1 : 0); pb[i + 1] = pb[i] + (op !== "-" ? 1 : 0); });
  const changes = [];
  ops.forEach(([op], i) => { if (op !== " ") changes.push(i); });
  const hunks = [];
  for (let c = 0; c < changes.length;) {
    let last = c;
    while (last + 1 < changes.length && changes[last + 1] - changes[last] <= 2 * context) last++;
    const from = Math.max(0, changes[c] - context), to = Math.min(ops.length, changes[last] + context + 1);
    hunks.push({ a: pa[from], an: pa[to] - pa[from], b: pb[from], bn: pb[to] - pb[from], lines: ops.slice(from, to) });
    c = last + 1;
  }
  return hunks;
}
