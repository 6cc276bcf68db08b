// SPDX-License-Identifier: Apache-2.0
// typo.test.mjs - the did-you-mean of an unexpected key (rules_walk.js
// unexpectedKey): the edit distance measured only up to the distance that
// names a key (rules_text.js editDistance's cap) picks the same name as the
// full distance (vreport.c sd_edit_distance, the C side), on 20,000 random
// keys against random lists of names. (The time it saves: h-import-large.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { editDistance, enc } from "../../src/form/rules_text.js";

// the full distance, as sd_edit_distance computes it
function full(a, b) {
  if (a.length >= 64 || b.length >= 64) return 999;
  const row = []; for (let j = 0; j <= b.length; j++) row[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]; row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const ca = a[i - 1], cb = b[j - 1];
      const cost = ca === cb ? 0 : (ca | 32) === (cb | 32) ? 0 : 1;
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + cost);
      prev = tmp;
    }
  }
  return row[b.length];
}
// the name validate suggests: the first nearest, when near enough
function suggestFull(key, names) {
  const kb = enc.encode(key); let best = null, bd = 999;
  for (const n of names) { const d = full(kb, enc.encode(n)); if (d < bd) { bd = d; best = n; } }
  return best !== null && bd <= (kb.length > 6 ? Math.floor(kb.length / 3) : 2) && bd < kb.length ? best : null;
}
function suggestCapped(key, names) {
  const kb = enc.encode(key), klen = kb.length, near = klen > 6 ? Math.floor(klen / 3) : 2;
  let best = null, bd = 999;
  for (const n of names) {
    const pb = enc.encode(n);
    if (Math.abs(pb.length - klen) > near || Math.abs(pb.length - klen) >= bd) continue;
    const d = editDistance(kb, pb, near);
    if (d < bd) { bd = d; best = n; }
  }
  return best !== null && bd <= near && bd < klen ? best : null;
}

test("did-you-mean: the capped distance names the same key as the full one", () => {
  let seed = 7;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
  const word = () => { let s = ""; const n = 1 + rnd(14); for (let i = 0; i < n; i++) s += "abcdeABCDE-._é"[rnd(14)]; return s; };
  let named = 0;
  for (let t = 0; t < 20000; t++) {
    const names = Array.from({ length: 1 + rnd(12) }, word);
    // a key near one of the names half of the time
    let key = rnd(2) ? names[rnd(names.length)] : word();
    if (rnd(2) && key.length > 1) key = key.slice(0, rnd(key.length)) + key.slice(rnd(key.length) + 1);
    const a = suggestFull(key, names), b = suggestCapped(key, names);
    assert.equal(b, a, `key ${JSON.stringify(key)} names ${JSON.stringify(names)}`);
    if (a !== null) named++;
  }
  console.log(`count: did-you-mean: 20000 random keys, ${named} named a key, capped = full`);
  assert.ok(named > 1000, `${named} keys were named (a test that names none proves nothing)`);
});
