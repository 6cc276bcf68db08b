// SPDX-License-Identifier: Apache-2.0
// form_values.js - values as plain JSON data: read, write and delete at a
// path, deep equality and copies, and the overlay a values file needs to
// turn the defaults into the current values (Helm: later wins, null deletes).
import { mergeValues } from "./rules.js";

export { mergeValues };

export function isMap(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

export function clone(v) {
  if (Array.isArray(v)) return v.map(clone);
  if (isMap(v)) {
    const o = {};
    for (const k of Object.keys(v)) setOwn(o, k, clone(v[k]));
    return o;
  }
  return v;
}

// Keys such as "__proto__" are data: define them, never assign.
export function setOwn(o, k, v) {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

export function has(o, k) {
  return o !== null && typeof o === "object" && Object.prototype.hasOwnProperty.call(o, k);
}

export function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!has(b, k) || !equal(a[k], b[k])) return false;
  return true;
}

export function getAt(root, segs) {
  let v = root;
  for (const k of segs) {
    if (v === null || typeof v !== "object") return undefined;
    if (typeof k === "number") { if (!Array.isArray(v)) return undefined; v = v[k]; }
    else { if (!isMap(v) || !has(v, k)) return undefined; v = v[k]; }
  }
  return v;
}

// Set the value at `segs`, making maps (or lists for numeric segments) on
// the way. Returns the new root.
export function setAt(root, segs, value) {
  if (segs.length === 0) return value;
  let r = root;
  if (r === null || typeof r !== "object") r = typeof segs[0] === "number" ? [] : {};
  let v = r;
  for (let i = 0; i < segs.length - 1; i++) {
    const k = segs[i], next = segs[i + 1];
    let c = typeof k === "number" ? v[k] : has(v, k) ? v[k] : undefined;
    if (c === null || typeof c !== "object" || (typeof next === "number") !== Array.isArray(c)) {
      c = typeof next === "number" ? [] : {};
      if (typeof k === "number") v[k] = c; else setOwn(v, k, c);
    }
    v = c;
  }
  const last = segs[segs.length - 1];
  if (typeof last === "number" && Array.isArray(v)) v[last] = value;
  else setOwn(v, String(last), value);
  return r;
}

// Delete the key at `segs` (a list element is spliced out).
export function deleteAt(root, segs) {
  if (segs.length === 0) return undefined;
  const parent = getAt(root, segs.slice(0, -1));
  const last = segs[segs.length - 1];
  if (Array.isArray(parent) && typeof last === "number") parent.splice(last, 1);
  else if (isMap(parent)) delete parent[last];
  return root;
}

// What a values file must say to turn `base` into `cur`: keys that differ,
// maps recursively, `null` for a key of `base` that `cur` does not have.
// Returns undefined when nothing differs.
export function overlay(cur, base) {
  return runSteps(overlaySteps(cur, base));
}

// Run generator `g` to its end at once; its return value.
export function runSteps(g) {
  for (;;) { const r = g.next(); if (r.done) return r.value; }
}

// overlay() as a generator that yields now and then (`st` counts the keys
// seen): a large import runs it a slice at a time (form_bigyaml.js sliced()).
export function* overlaySteps(cur, base, st = { n: 0 }) {
  if (isMap(cur) && isMap(base)) {
    const o = {};
    let any = false;
    for (const k of Object.keys(cur)) {
      if (++st.n % 1024 === 0) yield;
      if (!has(base, k)) { setOwn(o, k, clone(cur[k])); any = true; continue; }
      const d = yield* overlaySteps(cur[k], base[k], st);
      if (d !== undefined) { setOwn(o, k, d); any = true; }
    }
    for (const k of Object.keys(base)) if (!has(cur, k) && base[k] !== null) { setOwn(o, k, null); any = true; }
    return any ? o : undefined;
  }
  if (equal(cur, base)) return undefined;
  return cur === undefined ? null : clone(cur);
}

// The paths a values file sets, each down to its scalars, lists and empty
// maps (segment arrays): what an import pins.
export function leafPaths(v, segs = [], out = [], depth = 0) {
  if (isMap(v) && Object.keys(v).length && depth < 500) {
    for (const k of Object.keys(v)) leafPaths(v[k], segs.concat([k]), out, depth + 1);
  } else if (segs.length) out.push(segs);
  return out;
}

// The overlay `ov` (undefined for none) with the current value of each
// pinned path (`pins`: segment arrays) that it leaves out because the value
// equals the default: a key a values file sets stays in "Only changes"
// (charts change their defaults between versions). A pinned path that is
// gone from `cur` is left to the overlay (which says `null` where a default
// must go).
export function withPins(ov, cur, pins) {
  return runSteps(withPinsSteps(ov, cur, pins));
}

// withPins() as a generator that yields now and then (as overlaySteps())
export function* withPinsSteps(ov, cur, pins) {
  let o = ov, n = 0;
  for (const segs of pins) {
    if (++n % 1024 === 0) yield;
    const v = getAt(cur, segs);
    if (v === undefined || getAt(o, segs) !== undefined) continue;
    let ok = true, at = o;
    for (let i = 0; i < segs.length - 1 && ok; i++) {
      if (at === undefined) break;
      if (!isMap(at)) ok = false;
      else at = has(at, segs[i]) ? at[segs[i]] : undefined;
    }
    if (ok && (at === undefined || isMap(at))) o = setAt(o === undefined ? {} : o, segs, clone(v));
  }
  return o;
}

// Helm's merge of a values file `over` onto `base` (docs/form.md "How values
// flow"): maps merge, the file wins; a null over a key of `base` deletes it,
// and a null for a key `base` does not have is kept (Helm keeps it in the
// merged values: `extensions: {pprof: }` enables pprof). With `nullIsValue`
// (ytt data values) a null is a value like any other. Neither argument is
// changed; the result shares `over`'s subtrees.
export function helmMerge(base, over, nullIsValue = false, depth = 0) {
  if (over === undefined) return base;
  if (!isMap(base) || !isMap(over) || depth > 500) return over;
  const m = {};
  for (const k of Object.keys(base)) {
    if (!has(over, k)) { setOwn(m, k, base[k]); continue; }
    // (a null over a null default stays: the file said it)
    if (over[k] === null && !nullIsValue && base[k] !== null) continue;
    setOwn(m, k, helmMerge(base[k], over[k], nullIsValue, depth + 1));
  }
  for (const k of Object.keys(over)) if (!has(base, k)) setOwn(m, k, over[k]);
  return m;
}

// `v` without the nulls it keeps for keys `base` does not have (what
// `schemadoc validate` merges away, so the page's check says what it says);
// `v` itself when there are none, else a copy of the maps on their way only
// (the rest shared: the incremental check's cache still holds).
export function dropNewNulls(v, base, depth = 0) {
  if (!isMap(v) || depth > 500) return v;
  let out = v;
  for (const k of Object.keys(v)) {
    const x = v[k];
    const inBase = isMap(base) && has(base, k);
    const r = x === null && !inBase ? undefined : isMap(x) ? dropNewNulls(x, inBase ? base[k] : undefined, depth + 1) : x;
    if (r !== x) {
      if (out === v) { out = {}; for (const j of Object.keys(v)) setOwn(out, j, v[j]); }
      if (r === undefined) delete out[k]; else setOwn(out, k, r);
    }
  }
  return out;
}
