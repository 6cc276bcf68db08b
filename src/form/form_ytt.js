// SPDX-License-Identifier: Apache-2.0
// form_ytt.js - a ytt data-values file read as ytt reads it (docs/form.md
// "ytt data values"): since ytt 0.32 the items of a list in a data-values
// file are appended to the list they overlay unless an annotation says
// otherwise (`#@overlay/replace` on the key replaces the list;
// `#@overlay/append` on an item appends it; `#@overlay/match by=...` on an
// item merges it into the items it matches, or replaces or removes them with
// `#@overlay/replace` / `#@overlay/remove`). In: the current values, the
// imported document and its text. Out: the file's values with each list
// made the list ytt yields, and the items appended (pointer -> indices), so
// the page can mark them. Also the Everything export's pruning: keys the
// schema does not have, or marks `#@schema/removed`, are never written.
import { isMap as isYamlMap, isSeq as isYamlSeq } from "yaml";
import { isMap, has, clone, equal, setOwn, mergeValues, getAt } from "./form_values.js";
import { pointer } from "./form_path.js";
import { res } from "./form_schema.js";
import { parseValues } from "./form_yaml.js";

// The `#@overlay/...` annotations of the node that starts at `at` in `text`:
// the comment lines right above its line (when it starts its line) and, with
// `trail`, the comment at the end of its line. Each as "replace",
// "match by=...", ...
function annotsAt(text, at, trail) {
  const out = [];
  const ls = text.lastIndexOf("\n", at - 1) + 1;
  let le = text.indexOf("\n", at);
  if (le < 0) le = text.length;
  const before = text.slice(ls, at);
  if (/^[\s-]*$/.test(before)) {
    let end = ls - 1;
    while (end > 0) {
      const s = text.lastIndexOf("\n", end - 1) + 1;
      const line = text.slice(s, end).trim();
      if (line !== "" && !line.startsWith("#")) break;
      const m = /^#@overlay\/(.*)$/.exec(line);
      if (m) out.unshift(m[1].trim());
      if (line === "---") break;
      end = s - 1;
    }
  }
  if (trail) {
    const m = /#@overlay\/([^#]*)$/.exec(text.slice(at, le));
    if (m) out.push(m[1].trim());
  }
  return out;
}

const startOf = (node) => (node && node.range ? node.range[0] : -1);

// The items of `list` that the `by=` of `#@overlay/match by=...` names for
// item value `v`: by="key", by=overlay.index(N), by=overlay.all,
// by=overlay.subset({...}). null: a `by` this reader does not know.
function matches(list, arg, v) {
  const m = /\bby\s*=\s*(.*?)(?:,\s*(?:missing_ok|expects|when)\s*=.*)?$/.exec(arg);
  if (!m) return null;
  const by = m[1].trim();
  let k;
  if ((k = /^"([^"]*)"$|^'([^']*)'$/.exec(by))) {
    const key = k[1] !== undefined ? k[1] : k[2];
    if (!isMap(v) || !has(v, key)) return [];
    return list.map((x, i) => (isMap(x) && has(x, key) && equal(x[key], v[key]) ? i : -1)).filter((i) => i >= 0);
  }
  if ((k = /^overlay\.index\(\s*(\d+)\s*\)$/.exec(by))) return Number(k[1]) < list.length ? [Number(k[1])] : [];
  if (by === "overlay.all") return list.map((_, i) => i);
  if ((k = /^overlay\.subset\((.*)\)$/.exec(by))) {
    const r = parseValues(k[1].replace(/\bTrue\b/g, "true").replace(/\bFalse\b/g, "false").replace(/\bNone\b/g, "null"));
    if (r.error) return null;
    const sub = (a, b) => isMap(b) ? isMap(a) && Object.keys(b).every((x) => has(a, x) && sub(a[x], b[x])) : equal(a, b);
    return list.map((x, i) => (sub(x, r.value) ? i : -1)).filter((i) => i >= 0);
  }
  return null;
}

// The list ytt makes of `cur` (the list now, or undefined) and the file's
// sequence `seq` (its values `vals`); `appended` collects the indices added.
function listOf(text, cur, seq, vals, replace, appended) {
  if (replace) return clone(vals);
  const out = Array.isArray(cur) ? clone(cur) : [];
  const added = new Set();
  seq.items.forEach((it, j) => {
    const v = clone(vals[j]);
    const an = annotsAt(text, startOf(it), !isYamlMap(it) && !isYamlSeq(it));
    const match = an.find((a) => a.startsWith("match"));
    const action = an.includes("remove") ? "remove" : an.includes("replace") ? "replace" : an.includes("append") && !match ? "append" : match ? "merge" : "append";
    const hit = match ? matches(out, match, v) : null;
    if (action === "append" || hit === null || (hit.length === 0 && action !== "remove")) {
      // no match: ytt would refuse the file (unless missing_ok); the item is kept, appended
      out.push(v); added.add(out.length - 1); return;
    }
    if (action === "remove") { for (const i of hit.slice().reverse()) { out.splice(i, 1); } return; }
    for (const i of hit) out[i] = action === "replace" ? clone(v) : mergeValues(clone(out[i]), clone(v));
  });
  for (const i of added) if (i < out.length) appended.add(i);
  return out;
}

// The file's values `v` (read from `doc`, text `text`) with each list made
// the list ytt yields over `values`. Returns {value, appended: Map(pointer ->
// Set of indices)}.
export function yttOverlay(values, doc, text, v) {
  const appended = new Map();
  const out = clone(v);
  const walk = (node, val, segs, depth) => {
    if (depth > 100 || !isYamlMap(node) || !isMap(val)) return;
    for (const p of node.items) {
      const k = p.key && p.key.value !== undefined ? String(p.key.value) : String(p.key);
      if (!has(val, k)) continue;
      const s = segs.concat([k]);
      if (isYamlSeq(p.value) && Array.isArray(val[k])) {
        const an = annotsAt(text, startOf(p.key), true);
        const marks = new Set();
        const list = listOf(text, getAt(values, s), p.value, val[k], an.includes("replace"), marks);
        setAt(out, s, list);
        if (marks.size) appended.set(pointer(s), marks);
      } else walk(p.value, val[k], s, depth + 1);
    }
  };
  walk(doc.contents, v, [], 0);
  return { value: out, appended };
}

function setAt(root, segs, value) {
  let o = root;
  for (const k of segs.slice(0, -1)) o = o[k];
  setOwn(o, segs[segs.length - 1], value);
}

// `v` without the keys the schema node `n0` does not have (where it names
// its keys: properties and nothing open) or marks removed; for a ytt
// schema's Everything export, which ytt would refuse otherwise.
export function pruneUnknown(n0, v, depth = 0) {
  const n = res(n0);
  if (depth > 100) return v;
  if (Array.isArray(v) && n.items) return v.map((x) => pruneUnknown(n.items, x, depth + 1));
  if (!isMap(v) || !n.properties || !n.properties.length || n.additionalProperties || n.patternProperties) return v;
  const o = {};
  for (const k of Object.keys(v)) {
    const p = n.properties.find((q) => q.key === k);
    if (!p || res(p).removed || p.removed) continue;
    setOwn(o, k, pruneUnknown(p, v[k], depth + 1));
  }
  return o;
}
