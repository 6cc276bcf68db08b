// SPDX-License-Identifier: Apache-2.0
// form_schema.js - the page's model nodes (a slim copy of docs/model.md's
// nodes) read for the form: `$ref`s through the definitions, `allOf`
// folded in, the widget a node gets, a oneOf/anyOf branch chosen from the
// data, and the words shown beside a field.
import { isMap, has, equal } from "./form_values.js";
import { classifyPath, keyWords } from "./secret_rule.js";
import { k8sShape, isQuantity } from "./form_k8s.js";
import { CONSTRAINTS, W_BOUNDS, W_RANGE, W_NUMBER, W_CODE, W_TRUE } from "./rules_kw.js";

let DEFS = {};
const resolved = new WeakMap();

export function setDefs(defs) {
  DEFS = defs || {};
}

const STRUCT = ["properties", "items", "additionalProperties", "patternProperties", "oneOf", "anyOf", "allOf",
  "type", "enum", "const", "constraints", "kubernetes", "nullable", "default", "readOnly", "writeOnly", "deprecated"];

// The node with its $ref target's fields where the site is silent, and
// allOf branches' properties folded in.
export function res(node) {
  if (!node || typeof node !== "object") return {};
  const c = resolved.get(node);
  if (c) return c;
  let n = node;
  if (node.ref && DEFS[node.ref]) {
    const d = DEFS[node.ref];
    n = Object.assign({}, node);
    for (const k of Object.keys(d)) if (!has(n, k) || (k === "type" && (!n.type || n.type.length === 0))) n[k] = d[k];
    for (const k of STRUCT) if (!has(node, k) && has(d, k)) n[k] = d[k];
    // the site lists what values.yaml sets; the definition has the rest
    if (node.properties && d.properties) {
      const names = new Set(node.properties.map((p) => p.key));
      n.properties = node.properties.concat(d.properties.filter((p) => !names.has(p.key)));
    }
  }
  if (n.allOf && n.allOf.length) {
    n = n === node ? Object.assign({}, node) : n;
    const props = n.properties ? n.properties.slice() : [];
    const names = new Set(props.map((p) => p.key));
    for (const b0 of n.allOf) {
      const b = res(b0);
      for (const p of b.properties || []) if (!names.has(p.key)) { props.push(p); names.add(p.key); }
      for (const k of ["type", "enum", "items", "additionalProperties", "kubernetes", "oneOf", "anyOf"])
        if (!n[k] && b[k]) n[k] = b[k];
    }
    if (props.length) n.properties = props;
  }
  // Kubernetes types' own shapes (form_k8s.js): limits/requests with cpu and memory
  n = k8sShape(n);
  resolved.set(node, n);
  return n;
}

export function types(n) {
  return (n.type || []).filter((t) => t !== "null");
}

function valueType(v) {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return "array";
  if (typeof v === "object") return "object";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

// The widget of a node: object, map, array, variant, enum, const, boolean,
// integer, number, string, intOrString, quantity (a number and a unit:
// form_k8s.js), free (YAML text) or any (a scalar in YAML syntax).
export function widget(n, value) {
  const k = n.kubernetes || {};
  if (k.int_or_string) return "intOrString";
  if (isQuantity(n) && !(n.enum && n.enum.length)) return "quantity";
  if ((n.oneOf && n.oneOf.length > 1) || (n.anyOf && n.anyOf.length > 1)) return "variant";
  if (n.enum && n.enum.length) return "enum";
  if (has(n, "const")) return "const";
  let ts = types(n);
  if (ts.length === 0) {
    if (n.properties && n.properties.length) ts = ["object"];
    else if (n.items) ts = ["array"];
    else if (n.additionalProperties || n.patternProperties) ts = ["object"];
    else {
      const vt = valueType(value !== undefined ? value : n.default);
      if (vt === "object" || vt === "array") return "free";
      if (vt) ts = [vt];
      else return k.preserve_unknown_fields ? "free" : "any";
    }
  }
  if (ts.length > 1) {
    if (ts.every((t) => t === "integer" || t === "number")) return ts.includes("number") ? "number" : "integer";
    return ts.includes("object") || ts.includes("array") ? "free" : "any";
  }
  const t = ts[0];
  if (t === "object") {
    const open = (n.additionalProperties && typeof n.additionalProperties === "object") || n.patternProperties;
    if (open && (n.properties || []).every((p) => p.fromValues)) return "map";
    if (n.properties && n.properties.length) return "object";
    if ((n.additionalProperties && typeof n.additionalProperties === "object") || n.patternProperties) return "map";
    return "free";
  }
  if (t === "array") return "array";
  if (t === "boolean" || t === "integer" || t === "number" || t === "string") return t;
  return "any";
}

// Secrets: one rule, src/form/secret_rule.js (docs/form.md "Secrets"). A
// field is masked when classifyPath() calls its path a secret value, with
// the schema's hints (writeOnly, format: password, the type, the
// description) for that node.
export { keyWords };

// `path`: the field's segments (or its key alone, for old callers)
export function isSecretKey(key) {
  return typeof key === "string" && classifyPath([key]) === "secret";
}

// `n`'s description (`doc`: the page's template of it), as text
const docTexts = new Map();
function docText(n) {
  if (n.doc === undefined || typeof document === "undefined") return "";
  if (docTexts.has(n.doc)) return docTexts.get(n.doc);
  const t = document.getElementById("sd-doc-" + n.doc);
  const s = t && t.content ? t.content.textContent || "" : "";
  docTexts.set(n.doc, s);
  return s;
}

// The hints classifyPath() reads from the model node `n`.
export function secretHints(n) {
  const c = n.constraints || {};
  const ts = types(n);
  const type = ts.length === 0 ? undefined : ts.includes("string") ? "string" : ts[0];
  return { type, format: c.format, writeOnly: n.writeOnly === true, get description() { return docText(n); } };
}

// Whether the field of node `n` at `path` (segments, or a key) is a secret
// value: masked, never saved, never printed in clear.
// (the answer depends on the node, the last key and its parent's key: kept
// per node, so the 100,000 items of one list ask once)
const secretMemo = new WeakMap();
export function isSecret(n, path) {
  const segs = Array.isArray(path) ? path : path === null || path === undefined ? [] : [path];
  const node = n || {};
  const h = secretHints(node);
  if (!segs.length) return h.writeOnly || h.format === "password" ? h.type !== "boolean" && h.type !== "integer" && h.type !== "number" : false;
  let i = segs.length - 1;
  while (i >= 0 && typeof segs[i] === "number") i--;
  let j = i - 1;
  while (j >= 0 && typeof segs[j] === "number") j--;
  const key = (i >= 0 ? String(segs[i]) : "") + "\u0000" + (j >= 0 ? String(segs[j]) : "") + "\u0000" + (i < segs.length - 1 ? "[]" : "") + (i >= 1 ? "." : "");
  let m = secretMemo.get(node);
  if (!m) { m = new Map(); secretMemo.set(node, m); }
  let r = m.get(key);
  if (r === undefined) { r = classifyPath(segs, h) === "secret"; if (m.size < 4096) m.set(key, r); }
  return r;
}

export function isMultiline(n, value) {
  const c = n.constraints || {};
  return c.format === "textarea" || (typeof value === "string" && value.includes("\n")) ||
    (typeof n.default === "string" && n.default.includes("\n"));
}

export function branches(n) {
  return n.oneOf && n.oneOf.length > 1 ? n.oneOf : n.anyOf || [];
}

function literal(v) {
  return v === "" ? "(empty)" : typeof v === "string" ? v : JSON.stringify(v);
}

// The words for a branch's type: "string (date-time)", "list of string", "object".
function typeWords(b) {
  const ts = types(b);
  const fmt = b.constraints && b.constraints.format ? " (" + b.constraints.format + ")" : "";
  if (ts.length === 1 && ts[0] === "array") {
    const it = b.items ? res(b.items) : null;
    const inner = it ? types(it) : [];
    return inner.length ? "list of " + inner.join(" or ") : "list";
  }
  const pat = b.constraints && typeof b.constraints.pattern === "string" ? " matching " + (b.constraints.pattern.length > 30 ? b.constraints.pattern.slice(0, 29) + "…" : b.constraints.pattern) : "";
  if (ts.length) return ts.join(" or ") + fmt + pat;
  if (b.properties && b.properties.length) return "object";
  if (b.items) return "list";
  return (b.type || []).includes("null") ? "null" : "any value";
}

// The names of oneOf/anyOf branches (docs/form.md): each its title, else
// its const or enum, else its single required property or the properties
// only it has (`exec`, `httpGet`, `tcpSocket`), else its type; two alike
// get their required or own properties added. Never "Option N".
export function branchLabels(list) {
  const bs = list.map(res);
  const keysOf = (b) => (b.properties || []).map((p) => p.key);
  const own = bs.map((b, i) => keysOf(b).filter((k) => !bs.some((o, j) => j !== i && keysOf(o).includes(k))));
  const req = bs.map((b) => (b.constraints && b.constraints.required) || []);
  // a discriminator: one property every branch that has one gives a const
  // (or a single enum) of its own (`type: helm` / `type: git`): it names them
  const disc = bs.map((b) => {
    for (const p0 of b.properties || []) {
      const p = res(p0);
      if (has(p, "const")) return { key: p0.key, v: p.const };
      if (p.enum && p.enum.length === 1) return { key: p0.key, v: p.enum[0] };
    }
    return null;
  });
  const ds = disc.filter(Boolean);
  const dkey = ds.length >= 2 && ds.every((d) => d.key === ds[0].key) &&
    new Set(ds.map((d) => JSON.stringify(d.v))).size === ds.length ? ds[0].key : null;
  const labels = bs.map((b, i) => {
    if (b.title && b.title_explicit) return b.title;
    if (has(b, "const")) return literal(b.const);
    if (b.enum && b.enum.length) return b.enum.slice(0, 4).map(literal).join(" | ") + (b.enum.length > 4 ? " | …" : "");
    if (dkey !== null && disc[i] && disc[i].key === dkey) return dkey + ": " + literal(disc[i].v);
    if (req[i].length === 1) return req[i][0];
    if (own[i].length && own[i].length <= 3) return own[i].join(", ");
    // a discriminator: a property whose const or single enum differs between branches
    for (const p0 of b.properties || []) {
      const p = res(p0);
      const c = has(p, "const") ? p.const : p.enum && p.enum.length === 1 ? p.enum[0] : undefined;
      if (c !== undefined) return p0.key + ": " + literal(c);
    }
    return typeWords(b);
  });
  // names given twice: say what else tells them apart, else number them
  const out = labels.map((l, i) => {
    if (labels.indexOf(l) === labels.lastIndexOf(l)) return l;
    const more = (req[i].length ? req[i] : own[i].length ? own[i] : keysOf(bs[i])).slice(0, 3);
    return more.length ? l + " (" + more.join(", ") + ")" : l;
  });
  return out.map((l, i) => (out.indexOf(l) === out.lastIndexOf(l) ? l : l + " " + (out.slice(0, i).filter((x) => x === l).length + 1)));
}

// The branch that fits `value`: a const/enum discriminator property first,
// then the type, then required keys present. -1: none fits.
export function chooseBranch(n, value) {
  const bs = branches(n).map(res);
  if (value === undefined) return -1;
  const vt = valueType(value);
  let best = -1, bestScore = -1;
  bs.forEach((b, i) => {
    let s = 0;
    const ts = types(b);
    if (ts.length && !ts.includes(vt) && !(vt === "integer" && ts.includes("number"))) { if (!(b.properties && vt === "object")) return; }
    if (has(b, "const")) { if (!equal(b.const, value)) return; s += 10; }
    if (b.enum) { if (!b.enum.some((e) => equal(e, value))) return; s += 5; }
    if (isMap(value) && b.properties) {
      for (const p0 of b.properties) {
        const p = res(p0);
        if (!has(value, p0.key)) continue;
        if (has(p, "const")) { if (!equal(p.const, value[p0.key])) return; s += 10; }
        else if (p.enum && p.enum.length === 1) { if (!equal(p.enum[0], value[p0.key])) return; s += 10; }
        else s += 1;
      }
      const req = (b.constraints && b.constraints.required) || [];
      for (const r of req) if (!has(value, r)) s -= 3;
    }
    s += 1;
    if (s > bestScore) { bestScore = s; best = i; }
  });
  return best;
}

// Constraints in words, for the line under a field: the page's words
// (src/render/constraints.c), from the same `words` column of keywords.def
// (src/validate/keywords-js.sh exports it into rules_kw.js), as plain text.
// The model's rows in the model's order: its groups, then the table's order.
const MODEL_ROWS = CONSTRAINTS.map((r, i) => [r, i]).sort((a, b) => a[0][2] - b[0][2] || a[1] - b[1]).map((x) => x[0]);
const isNum = (v) => typeof v === "number" && isFinite(v);
// a value as code: a string as written (the empty one as ""), else JSON
const code = (v) => (typeof v === "string" ? (v === "" ? '""' : v) : JSON.stringify(v));
const count = (k, noun) => k + " " + noun + (k === 1 ? "" : "s");   // 1 item, 2 items

function range(c, lo, hi, noun) {
  lo = c[lo]; hi = c[hi];
  if (!isNum(lo) && !isNum(hi)) return null;
  if (isNum(lo) && isNum(hi)) return lo === hi ? "exactly " + count(lo, noun) : lo + " to " + count(hi, noun);
  return isNum(lo) ? "at least " + count(lo, noun) : "at most " + count(hi, noun);
}

// "1 ≤ value < 10"; draft 4 writes exclusiveMinimum as a boolean beside minimum
function bounds(c) {
  let min = c.minimum, max = c.maximum, xmin = c.exclusiveMinimum, xmax = c.exclusiveMaximum;
  if (xmin === true) { xmin = min; min = undefined; }
  if (xmax === true) { xmax = max; max = undefined; }
  if (!isNum(xmin)) xmin = undefined;
  if (!isNum(xmax)) xmax = undefined;
  if (!isNum(min)) min = undefined;
  if (!isNum(max)) max = undefined;
  if (min === undefined && xmin === undefined && max === undefined && xmax === undefined) return null;
  let s = "";
  if (min !== undefined || xmin !== undefined) s += (min !== undefined ? min + " ≤ " : xmin + " < ");
  s += "value";
  if (max !== undefined || xmax !== undefined) s += (max !== undefined ? " ≤ " + max : " < " + xmax);
  return s;
}

// the rows worded by their own code (W_OWN), as constraints.c words them
function own(name, v) {
  if (name === "additionalProperties") return v === false ? ["no other keys"] : [];
  if (name === "dependentRequired" && isMap(v)) {
    return Object.keys(v).map((k) => "if " + k + " is set, also " + (Array.isArray(v[k]) ? v[k] : []).map(code).join(", "));
  }
  return [];
}

export function constraintWords(n) {
  const c = n.constraints || {};
  const w = [];
  const ownRows = [];
  for (const [name, , , words, text, upper] of MODEL_ROWS) {
    const v = c[name];
    let s = null;
    if (words === W_BOUNDS) s = bounds(c);
    else if (words === W_RANGE) s = range(c, name, upper, text);
    else if (words === W_NUMBER) s = isNum(v) ? text + v : null;
    else if (words === W_CODE) s = typeof v === "string" ? (name === "pattern" && namedWords(v)) || text + code(v) : null;
    else if (words === W_TRUE) s = v === true ? text : null;
    else if (words !== 0 && has(c, name)) ownRows.push(name);
    if (s !== null) w.push(s);
  }
  // the page words its own rows after the table's (constraints.c)
  for (const name of ["additionalProperties", "dependentRequired"]) if (ownRows.includes(name)) w.push(...own(name, c[name]));
  return w;
}

// Object members in order: the schema's properties, then keys the value has.
export function members(n) {
  return n.properties || [];
}

// The schema of the member `key` of an object node: a property, a
// patternProperties match, additionalProperties, or {} (anything).
export function memberNode(n, key) {
  for (const p of n.properties || []) if (p.key === key) return p;
  for (const pp of n.patternProperties || []) {
    try { if (new RegExp(pp.pattern, "u").test(key)) return pp.node; } catch (e) { /* not for JS: skip */ }
  }
  if (n.additionalProperties && typeof n.additionalProperties === "object") return n.additionalProperties;
  return null;
}

export function itemNode(n) {
  return n.items || {};
}

// ---- fields that depend on the data: if/then/else, dependentSchemas --------------

let RULES = null;
let byPointer = null;

// a named format's words for its pattern (the rules' "named" table:
// src/validate/vnamed.h), or null
function namedWords(pattern) {
  for (const r of (RULES && RULES.named) || []) if (r[1] === pattern) return r[2];
  return null;
}

export function setRules(rules) {
  RULES = rules || null;
  byPointer = null;
}

// The record of the rules whose schema pointer is `ptr` (the model's node
// pointer), or null.
function recordAt(ptr) {
  if (!RULES || !ptr) return null;
  if (byPointer === null) {
    byPointer = new Map();
    const paths = RULES.paths || [];
    const text = new Array(paths.length);
    const ptrOf = (i) => {
      if (text[i] !== undefined) return text[i];
      const [parent, t] = paths[i];
      return (text[i] = parent < 0 ? t : ptrOf(parent) + t);
    };
    RULES.records.forEach((r, i) => { if (r.ptr !== undefined && !byPointer.has(ptrOf(r.ptr))) byPointer.set(ptrOf(r.ptr), i); });
  }
  const i = byPointer.get(ptr);
  return i === undefined ? null : RULES.records[i];
}

const TYPE_BITS = [[16, "string"], [4, "integer"], [8, "number"], [2, "boolean"], [32, "object"], [64, "array"]];

// A form node made from a rules record (no titles: the model has none for it).
function nodeOfRecord(key, ri, depth) {
  const r = RULES.records[ri] || {};
  if (r.alias !== undefined && depth < 20) return nodeOfRecord(key, r.alias, depth + 1);
  const n = { key, title: key };
  const ts = [];
  if (typeof r.type === "number") {
    for (const [b, name] of TYPE_BITS) if ((r.type & b) === b && !(name === "integer" && (r.type & 8))) ts.push(name);
  }
  n.type = ts;
  if (r.enum) n.enum = r.enum;
  if (r.properties && depth < 10) {
    n.properties = [];
    for (let i = 0; i < r.properties.length; i += 2) n.properties.push(nodeOfRecord(r.properties[i], r.properties[i + 1], depth + 1));
  }
  return n;
}

function condHolds(c, value) {
  const cn = res(c);
  if (!isMap(value)) return false;
  for (const r of (cn.constraints && cn.constraints.required) || []) if (!has(value, r)) return false;
  for (const p0 of cn.properties || []) {
    const p = res(p0);
    if (!has(value, p0.key)) continue;
    const v = value[p0.key];
    if (has(p, "const") && !equal(p.const, v)) return false;
    if (p.enum && !p.enum.some((e) => equal(e, v))) return false;
  }
  return true;
}

// The properties an object node has beyond its own for `value`: its `then`
// or `else` branch, and the dependentSchemas of the keys it has. `key` names
// the choice, so a caller sees when it changes; `all` lists every property
// that can come and go.
export function extras(n, value) {
  const props = [], all = [];
  let key = "";
  const own = new Set((n.properties || []).map((p) => p.key));
  const add = (list, on) => {
    for (const p of list || []) {
      if (own.has(p.key)) continue;
      all.push(p.key);
      if (on && !props.some((q) => q.key === p.key)) props.push(p);
    }
  };
  if (n.if) {
    const on = condHolds(n.if, value);
    key += on ? "T" : "F";
    const thenProps = (n.then && res(n.then).properties) || [];
    add(thenProps, on);
    // an else that names a then-property only takes it away (`size: false`)
    add(((n.else && res(n.else).properties) || []).filter((p) => !thenProps.some((q) => q.key === p.key)), !on);
  }
  const r = recordAt(n.pointer);
  if (r && r.dependencies) {
    for (const [name, , , rec] of r.dependencies) {
      if (typeof rec !== "number" || rec < 0) continue;
      const on = isMap(value) && has(value, name);
      key += on ? "1" : "0";
      const dn = nodeOfRecord(name, rec, 0);
      add(dn.properties, on);
    }
  }
  return { props, key, all };
}
