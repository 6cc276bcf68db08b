// SPDX-License-Identifier: Apache-2.0
// form_pieces.js - the export's YAML text in pieces, so a change writes
// again only the pieces it touched (docs/form.md "Tests and figures"). A
// map is written a block of keys at a time and a list a block of items at a
// time, each block with toYaml() (form_yaml.js) and indented to its depth; a
// key whose value is a large map or list is split the same way below it.
// Joined, the pieces are exactly toYaml(value): writing block style, the text
// of a map is its keys' texts one after the other, and of a list its
// items' (tests/js-form checks it on every corpus chart's values).
// Pure: no DOM; the cache and the changed paths are the caller's.
import { toYaml } from "./form_yaml.js";
import { isMap } from "./form_values.js";

export const BLOCK = 50;    // keys or items per piece
export const BIG = 400;     // a map or list of more nodes than this is split

// More than `limit` nodes in `v`? Stops counting past the limit.
export function bigger(v, limit) {
  let n = 0;
  const stack = [v];
  while (stack.length) {
    const x = stack.pop();
    if (++n > limit) return true;
    // counted as they are met: a map of 100,000 keys stops at the limit
    if (Array.isArray(x)) { for (const y of x) { if (y !== null && typeof y === "object") stack.push(y); else if (++n > limit) return true; } }
    else if (x !== null && typeof x === "object") for (const k of Object.keys(x)) { const y = x[k]; if (y !== null && typeof y === "object") stack.push(y); else if (++n > limit) return true; }
  }
  return n > limit;
}

function indent(text, depth) {
  if (depth === 0 || text === "") return text;
  // an empty line (inside a block scalar) stays empty, as toYaml writes it
  const pad = "  ".repeat(depth);
  return text.slice(0, -1).split("\n").map((l) => (l === "" ? l : pad + l)).join("\n") + "\n";
}

// The line a key is written on when a non-empty list follows ("key:"), as
// toYaml writes it (quoted when it must be); null when toYaml would write
// the key another way (a long key: "? key"), so it cannot stand alone.
function keyLine(k) {
  const o = {};
  Object.defineProperty(o, k, { value: [0], enumerable: true });
  const t = toYaml(o);
  const nl = t.indexOf("\n");
  return t.startsWith("? ") || !t.slice(0, nl).endsWith(":") ? null : t.slice(0, nl + 1);
}

function splittable(c) {
  return c !== null && typeof c === "object" && (Array.isArray(c) ? c.length > 0 : Object.keys(c).length > 0) && bigger(c, BIG);
}

// The pieces of `value`'s YAML text. `cache`: the previous call's Map (id ->
// {keys, text}); `fresh`: this call's, filled with the pieces used, so a
// piece not reached (past `maxLines`) is not kept stale. `dirty`: the paths
// (arrays of segments) changed since the previous call. Yields strings.
export function* pieces(value, cache, fresh, dirty) {
  if (!isMap(value) || Object.keys(value).length === 0) { yield toYaml(value); return; }
  yield* mapPieces([], value, 0, cache, fresh, dirty);
}

function touched(segs, dirty) {
  // whole: a changed path at or above segs; below: the keys under segs that changed
  let whole = false;
  const below = new Set();
  for (const d of dirty) {
    const n = Math.min(d.length, segs.length);
    let same = true;
    for (let i = 0; i < n && same; i++) same = d[i] === segs[i] || String(d[i]) === String(segs[i]);
    if (!same) continue;
    if (d.length <= segs.length) whole = true;
    else below.add(String(d[segs.length]));
  }
  return { whole, below };
}

function block(id, keys, make, t, cache, fresh) {
  const old = cache.get(id);
  let text;
  if (old && !t.whole && old.keys.length === keys.length && old.keys.every((k, i) => k === keys[i]) && !keys.some((k) => t.below.has(k))) text = old.text;
  else text = make();
  fresh.set(id, { keys, text });
  return text;
}

function* mapPieces(segs, m, depth, cache, fresh, dirty) {
  const t = touched(segs, dirty);
  const base = segs.map((s) => String(s).replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
  let keys = [];
  const flush = () => {
    if (!keys.length) return "";
    const ks = keys;
    keys = [];
    return block(base + "#" + ks[0], ks, () => {
      const o = {};
      for (const k of ks) Object.defineProperty(o, k, { value: m[k], enumerable: true });
      return indent(toYaml(o), depth);
    }, t, cache, fresh);
  };
  for (const k of Object.keys(m)) {
    const c = m[k];
    const line = splittable(c) && keyLine(k);
    if (line) {
      const s = flush();
      if (s) yield s;
      yield indent(line, depth);
      const sub = segs.concat([k]);
      if (Array.isArray(c)) yield* listPieces(sub, c, depth + 1, cache, fresh, dirty);
      else yield* mapPieces(sub, c, depth + 1, cache, fresh, dirty);
      continue;
    }
    keys.push(k);
    if (keys.length >= BLOCK) yield flush();
  }
  const s = flush();
  if (s) yield s;
}

function* listPieces(segs, list, depth, cache, fresh, dirty) {
  const t = touched(segs, dirty);
  const base = segs.map((s) => String(s).replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
  for (let i = 0; i < list.length; i += BLOCK) {
    const idx = [];
    for (let j = i; j < Math.min(list.length, i + BLOCK); j++) idx.push(String(j));
    yield block(base + "#" + i, idx, () => indent(toYaml(list.slice(i, i + BLOCK)), depth), t, cache, fresh);
  }
}
