// form_yaml.js - YAML in and out as Helm reads it (YAML 1.1, the `yaml`
// library): parsing an imported file (errors with line and column, custom
// tags as data), writing values with every ambiguous scalar quoted, writing
// into an imported document so its comments and key order survive, and the
// same values as `--set` / `--set-string` flags.
import { parseDocument, Document, visit, isMap, isScalar, isSeq, isPair, Scalar } from "yaml";
import { isMap as isObj, equal, has } from "./form_values.js";

export const OPTS = { version: "1.1", prettyErrors: true, uniqueKeys: true, maxAliasCount: 100 };
// timestamps and !!binary stay text, as Helm (JSON underneath) sees them
export const TAGS = (tags) => tags.filter((t) => t.tag !== "tag:yaml.org,2002:timestamp" && t.tag !== "tag:yaml.org,2002:binary");

// Parse `text`. Returns {doc, value} or {error: "line L, column C: message", line, col}.
export function parseValues(text) {
  let doc;
  try {
    doc = parseDocument(text, { ...OPTS, customTags: TAGS });
  } catch (e) {
    return { error: "line 1, column 1: " + String(e && e.message), line: 1, col: 1 };
  }
  if (doc.errors.length) {
    const e = doc.errors[0];
    const lp = e.linePos && e.linePos[0] ? e.linePos[0] : { line: 1, col: 1 };
    const msg = String(e.message).split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
    return { error: "line " + lp.line + ", column " + lp.col + ": " + msg, line: lp.line, col: lp.col };
  }
  let value;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return { error: "line 1, column 1: " + String(e && e.message), line: 1, col: 1 };
  }
  return { doc, value: plain(value, 0) };
}

// Only JSON data: anything else a tag made (a Map, a Set, a Buffer) becomes
// its text or a plain map.
function plain(v, depth) {
  if (depth > 500) return null;
  if (v === undefined) return null;
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map((x) => plain(x, depth + 1));
  if (v instanceof Map) {
    const o = {};
    for (const [k, x] of v) Object.defineProperty(o, String(k), { value: plain(x, depth + 1), enumerable: true, writable: true, configurable: true });
    return o;
  }
  if (v instanceof Set) return [...v].map((x) => plain(x, depth + 1));
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object" && v.constructor === Object) {
    const o = {};
    for (const k of Object.keys(v)) Object.defineProperty(o, k, { value: plain(v[k], depth + 1), enumerable: true, writable: true, configurable: true });
    return o;
  }
  return String(v);
}

// A string a YAML 1.1 reader (or Go's yaml, as Helm uses) would read as
// something else when written plain.
const AMBIGUOUS = [
  /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~|)$/,
  /^[-+]?(?:\.[0-9]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?$/,
  /^[-+]?0[xXoObB][0-9a-fA-F_]+$/,
  /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/,
  /^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/,
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}/,
  /^[-?:,\[\]{}#&*!|>'"%@`]|^\s|\s$|: | #/,
];
export function ambiguous(s) {
  return AMBIGUOUS.some((re) => re.test(s));
}

function quoteNew(doc) {
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === "string" && !node.type && !node.value.includes("\n") && ambiguous(node.value))
        node.type = "QUOTE_DOUBLE";
    },
  });
}

const STR = { lineWidth: 0, minContentWidth: 0, indentSeq: true };

// `value` as a new YAML text ("" for undefined).
export function toYaml(value, header) {
  if (value === undefined) return header || "";
  const doc = new Document(value, { version: "1.1" });
  quoteNew(doc);
  return (header || "") + doc.toString(STR);
}

// Make the imported document `doc` say `target`: keys it has and `target`
// keeps stay where they are with their comments; changed values are
// replaced, gone keys removed, new keys appended. Returns the text.
export function syncYaml(doc, target, header) {
  const d = doc.clone();
  if (target === undefined) {
    if (!isMap(d.contents)) return header || "";
    d.contents.items = [];
  } else {
    d.contents = syncNode(d, d.contents, target);
  }
  quoteNew(d);
  const s = d.toString(STR);
  return (header || "") + (s === "{}\n" && target === undefined ? "" : s);
}

function keyText(k) {
  return isScalar(k) ? String(k.value) : String(k);
}

function syncNode(doc, node, want) {
  if (isObj(want) && isMap(node)) {
    const seen = new Set();
    node.items = node.items.filter((p) => {
      const k = keyText(p.key);
      if (!has(want, k) || seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    for (const p of node.items) p.value = syncNode(doc, p.value, want[keyText(p.key)]);
    for (const k of Object.keys(want)) if (!seen.has(k)) node.items.push(doc.createPair(k, want[k]));
    return node;
  }
  if (Array.isArray(want) && isSeq(node) && node.items.length === want.length) {
    node.items = node.items.map((it, i) => syncNode(doc, it, want[i]));
    return node;
  }
  const have = node === null || node === undefined ? undefined : typeof node.toJSON === "function" ? plain(node.toJSON(), 0) : node;
  if (have !== undefined && equal(have, want)) return node;
  const n = doc.createNode(want);
  if (isScalar(node) && isScalar(n) && node.comment) n.comment = node.comment;
  return n;
}

// ---- --set flags -----------------------------------------------------------------

function setKey(k) {
  return String(k).replace(/\\/g, "\\\\").replace(/\./g, "\\.").replace(/,/g, "\\,").replace(/=/g, "\\=").replace(/\[/g, "\\[");
}

function shellQuote(s) {
  return /^[A-Za-z0-9_.,:\/=@%+\-\[\]\\]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'";
}

// Flags that set `value` (an overlay) with `helm --set` / `--set-string`.
export function setFlags(value) {
  const out = [];
  const walk = (v, path) => {
    if (isObj(v)) {
      const keys = Object.keys(v);
      if (keys.length === 0 && path) out.push(["--set", path + "={}"]);
      for (const k of keys) walk(v[k], path ? path + "." + setKey(k) : setKey(k));
      return;
    }
    if (Array.isArray(v)) {
      if (v.length === 0) { out.push(["--set", path + "={}"]); return; }
      v.forEach((x, i) => walk(x, path + "[" + i + "]"));
      return;
    }
    if (v === null) { out.push(["--set", path + "=null"]); return; }
    if (typeof v === "string") {
      const esc = v.replace(/\\/g, "\\\\").replace(/,/g, "\\,");
      const coerced = ambiguous(v) || /^[0-9]/.test(v) || v === "";
      out.push([coerced ? "--set-string" : "--set", path + "=" + esc]);
      return;
    }
    out.push(["--set", path + "=" + String(v)]);
  };
  walk(value, "");
  return out.map(([f, a]) => f + " " + shellQuote(a)).join(" \\\n");
}
