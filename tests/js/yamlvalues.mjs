// SPDX-License-Identifier: Apache-2.0
// yamlvalues.mjs - YAML text -> the values schemadoc's loader makes of it
// (docs/yaml-typing.md: go-yaml v2's YAML 1.1 typing, as Helm reads values),
// with the source text of every number by JSON pointer, for rules.js's
// `texts`. It reads the document with Debian's `yaml` library (node-yaml)
// in its failsafe schema and types plain scalars itself, as src/load/load.c
// does (util/yaml_scalar.c, go-yaml v2 rules); merge keys as go-yaml v2 applies them.
// Test helper: the form's values.js does the same job for the page.
import { createRequire } from "node:module";
import { parseJsonText } from "./jsontext.mjs";

const require = createRequire(import.meta.url);
function loadYamlLibrary() {
  for (const where of ["yaml", "/usr/share/nodejs/yaml"]) {
    try { return require(where); } catch { /* next */ }
  }
  throw new Error("the yaml library is not installed (Debian: node-yaml)");
}
const YAML = loadYamlLibrary();

const NULLS = new Set(["", "~", "null", "Null", "NULL"]);
const TRUES = new Set(["y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"]);
const FALSES = new Set(["n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"]);
const INFS = new Set([".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"]);
const NINFS = new Set(["-.inf", "-.Inf", "-.INF"]);
const NANS = new Set([".nan", ".NaN", ".NAN"]);
const U64 = 18446744073709551615n, I64 = 9223372036854775807n;

// Go's strconv.ParseInt/ParseUint with base 0: BigInt, or null
function goInt(s) {
  let neg = false, base = 10, i = 0;
  if (s[0] === "+" || s[0] === "-") { neg = s[0] === "-"; i = 1; }
  const r = s.slice(i);
  let digits = r;
  if (/^0[xX]/.test(r)) { base = 16; digits = r.slice(2); }
  else if (/^0[oO]/.test(r)) { base = 8; digits = r.slice(2); }
  else if (/^0[bB]/.test(r)) { base = 2; digits = r.slice(2); }
  else if (r[0] === "0" && r.length > 1) { base = 8; digits = r.slice(1); }
  if (digits === "") return null;   // a prefix alone ("0x", "0o", "0b") is not a number
  const ok = { 16: /^[0-9a-fA-F]*$/, 8: /^[0-7]*$/, 2: /^[01]*$/, 10: /^[0-9]+$/ }[base];
  if (!ok.test(digits)) return null;
  let v = 0n;
  for (const ch of digits) v = v * BigInt(base) + BigInt(parseInt(ch, 16));
  if (v > U64) return null;
  if (neg) return v > I64 + 1n ? null : -v;
  return v;
}

const YAML_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

// plain scalar text -> value (util/yaml_scalar.c, SD_YAML_GO_V2)
export function resolvePlain(s) {
  if (NULLS.has(s)) return null;
  if (TRUES.has(s)) return true;
  if (FALSES.has(s)) return false;
  if (INFS.has(s)) return Infinity;
  if (NINFS.has(s)) return -Infinity;
  if (NANS.has(s)) return NaN;
  if (s.length >= 128 || s.includes("\0") || !/^[0-9+\-.]/.test(s)) return s;
  const t = s.replace(/_/g, "");
  const iv = goInt(t);
  if (iv !== null) return Number(iv);
  if (YAML_FLOAT.test(t)) return Number(t);
  if (/^-?0b/.test(t)) { const b = goInt(t); if (b !== null) return Number(b); }
  return s;
}

const esc = (k) => k.replace(/~/g, "~0").replace(/\//g, "~1");

function convert(doc, node, ptr, texts, depth) {
  if (depth > 1000) throw new Error("nesting too deep");
  if (node === null || node === undefined) return null;
  if (YAML.isAlias(node)) return convert(doc, node.resolve(doc), ptr, texts, depth + 1);
  if (YAML.isScalar(node)) {
    const tag = node.tag ? node.tag.replace(/^tag:yaml\.org,2002:/, "!!") : null;
    const plain = node.type === "PLAIN";
    const text = plain ? (node.source !== undefined ? node.source : String(node.value)) : String(node.value);
    let v;
    if (tag === "!!str") v = String(node.value);
    else if (tag === "!!int" || tag === "!!float") {
      v = resolvePlain(String(node.value));
      if (typeof v !== "number") throw new Error(`cannot read '${node.value}' as ${tag.slice(2)}`);
    } else if (plain) v = resolvePlain(text);
    else v = String(node.value);
    if (typeof v === "number") texts.set(ptr, String(node.value === undefined ? text : plain ? text : node.value));
    return v;
  }
  if (YAML.isSeq(node)) return node.items.map((x, i) => convert(doc, x, ptr + "/" + i, texts, depth + 1));
  if (YAML.isMap(node)) {
    const out = {};
    const keyOf = (p) => {
      const k = YAML.isAlias(p.key) ? p.key.resolve(doc) : p.key;
      if (!YAML.isScalar(k)) throw new Error("a map key must be a scalar");
      return k.type === "PLAIN" && k.source !== undefined ? k.source : String(k.value === null ? "" : k.value);
    };
    const isMerge = (p) => YAML.isScalar(p.key) && p.key.type === "PLAIN" && p.key.source === "<<";
    const written = new Set(node.items.filter((p) => !isMerge(p)).map(keyOf));
    const set = (k, v) => Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    for (const p of node.items) {
      if (!isMerge(p)) {
        const k = keyOf(p);
        set(k, convert(doc, p.value, ptr + "/" + esc(k), texts, depth + 1));
        continue;
      }
      // merge keys: keys written in the map win, then earlier sources
      let src = YAML.isAlias(p.value) ? p.value.resolve(doc) : p.value;
      const srcs = YAML.isSeq(src) ? src.items.map((x) => (YAML.isAlias(x) ? x.resolve(doc) : x)) : [src];
      for (const m of srcs) {
        if (!YAML.isMap(m)) throw new Error("a merge key (<<) needs a map");
        for (const mp of m.items) {
          const k = keyOf(mp);
          if (written.has(k) || Object.prototype.hasOwnProperty.call(out, k)) continue;
          set(k, convert(doc, mp.value, ptr + "/" + esc(k), texts, depth + 1));
        }
      }
    }
    return out;
  }
  return null;
}

// All documents of a YAML stream: [{ value, texts }]; an empty stream is one empty map.
export function loadYamlText(text) {
  const docs = YAML.parseAllDocuments(text, { schema: "failsafe", uniqueKeys: false, merge: false });
  const out = [];
  for (const d of docs) {
    if (d.errors && d.errors.length) throw d.errors[0];
    const texts = new Map();
    out.push({ value: d.contents === null ? null : convert(d, d.contents, "", texts, 0), texts });
  }
  if (out.length === 0) out.push({ value: {}, texts: new Map() });
  return out;
}

// A values file as schemadoc reads it: JSON by JSON rules (.json), else YAML.
export function loadValuesFile(name, text) {
  if (/\.json$/i.test(name)) {
    const r = parseJsonText(text);
    return [r];
  }
  return loadYamlText(text);
}
