// SPDX-License-Identifier: Apache-2.0
// form_yaml.js - YAML in and out as Helm reads it (YAML 1.1, the `yaml`
// library): parsing an imported file (errors with line and column, custom
// tags as data), writing values with every ambiguous scalar quoted, writing
// into an imported document so its comments and key order survive, and
// ytt's data-values header and array annotations. (The `--set` flags are
// form_flags.js.)
import { parseDocument, Document, visit, isMap, isScalar, isSeq, isAlias, isPair, Scalar } from "yaml";
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
  let merges = false;
  visit(doc, { Pair(_, p) { if (isMergeKey(p.key)) merges = true; } });
  let value;
  try {
    // without merge keys the library converts it, with its alias budget
    value = merges ? withMerges(doc, text) : doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    if (e instanceof Refused) return e.at;
    return { error: "line 1, column 1: " + String(e && e.message), line: 1, col: 1 };
  }
  return { doc, value: plain(value, 0) };
}

// The yaml library converts the map a merge key names again each time it
// is named, after visiting the document from its start to find it: a chain
// of 2,000 `<<: *prev` took minutes, and 11 levels of `<<: [*a, *a, ...]`
// in 745 bytes would convert 10^11 nodes. A document with merge keys is
// converted here instead: each node once (an alias or a merge takes the
// value its anchor's node made), merges as YAML 1.1 says
// (yaml.org/type/merge.html: the map's own keys win, then the sources in
// order). Expanded nodes are counted, not merge keys, in two ways, each
// against MERGE_BUDGET, and the file is refused with the place of the merge
// key or alias that crosses it:
//  - the values the result expands to when written out in full (an alias
//    counts as all it names, each time it is named; a merged key as its
//    value does): the work here is linear in the text plus that;
//  - what the maps one merge key names expand to, each named map in full
//    with its own merges (as a reader that copies a named map each time it
//    is named, Helm's go-yaml, converts it): 11 levels of ten merges of the
//    same map are 10^11 nodes there, though the result is small.
// A chain of 2,000 `<<: *prev` (each map merging the one before) expands to
// at most 6,000 nodes at a merge key and 6,000 values in all: read.
export const MERGE_BUDGET = 1000000;
class Refused extends Error {
  constructor(at) { super(at.error); this.at = at; }
}
function refuse(text, node, what) {
  const at = node && node.range ? node.range[0] : 0;
  const before = text.slice(0, at).split("\n");
  const line = before.length, col = before[before.length - 1].length + 1;
  return new Refused({ error: "line " + line + ", column " + col + ": " + what, line, col });
}
function withMerges(doc, text) {
  const anchors = new Map();   // name -> {value, size, naive} of the last node that took it, in document order
  const sizes = new WeakMap(); // a made map or list -> the values it expands to
  const PENDING = {};
  const sizeOf = (v) => (v !== null && typeof v === "object" ? sizes.get(v) || 1 : 1);
  const over = (size, node, kind) => {
    if (size <= MERGE_BUDGET) return;
    throw refuse(text, node, kind === "alias"
      ? "aliases (*) here expand to more than " + MERGE_BUDGET + " values (an alias bomb?); the file is not imported"
      : "merge keys (<<) here expand to more than " + MERGE_BUDGET + " values (a merge-key bomb?); the file is not imported");
  };
  const named = (alias) => {
    const a = anchors.get(alias.source);
    if (!a) throw refuse(text, alias, "unresolved alias (the anchor must be set before the alias): " + alias.source);
    if (a.value === PENDING) throw refuse(text, alias, "an alias of the node it is in: " + alias.source);
    return a;
  };
  // returns [value, size, naive]: the values it expands to as written out,
  // and as a reader that copies each named map expands it
  const conv = (n, depth) => {
    if (depth > 10000) throw refuse(text, n, "nested more than 10000 levels deep");
    if (n === null || n === undefined) return [null, 1, 1];
    if (isAlias(n)) {
      const a = named(n);
      over(a.size, n, "alias");
      return [a.value, a.size, a.naive];
    }
    const entry = n.anchor ? { value: PENDING, size: 1, naive: 1 } : null;
    if (entry) anchors.set(n.anchor, entry);
    let value, size = 1, naive = 1;
    if (isScalar(n)) {
      value = typeof n.value === "bigint" ? Number(n.value) : n.value;
    } else if (isMap(n) && n.tag !== "tag:yaml.org,2002:set") {
      value = {};
      const put = (k, v) => Object.defineProperty(value, k, { value: v, enumerable: true, writable: true, configurable: true });
      for (const p of n.items) {
        if (isMergeKey(p.key)) {
          // the maps merged: an alias's value (a map, or a list of maps) or the value written here
          let list, cost = 0;
          if (isAlias(p.value)) {
            const a = named(p.value);
            list = Array.isArray(a.value) ? a.value : [a.value];
            cost = a.naive;
          } else if (isSeq(p.value)) {
            list = p.value.items.map((it) => {
              const [v, , nv] = isAlias(it) ? [named(it).value, 0, named(it).naive] : isMap(it) ? conv(it, depth + 1) : [null, 0, 0];
              cost += nv;
              return v;
            });
          } else {
            const [v, , nv] = isMap(p.value) ? conv(p.value, depth + 1) : [null, 0, 0];
            list = [v];
            cost = nv;
          }
          naive += cost;
          over(cost, p.key, "merge");
          for (const m of list) {
            if (m === null || typeof m !== "object" || Array.isArray(m))
              throw refuse(text, p.key, "merge sources must be maps or map aliases");
            for (const k of Object.keys(m)) {
              if (Object.prototype.hasOwnProperty.call(value, k)) continue;
              put(k, m[k]);
              size += 1 + sizeOf(m[k]);
              over(size, p.key, "merge");
            }
          }
          continue;
        }
        const [kv, ks, kn] = conv(p.key, depth + 1);
        const [vv, vs, vn] = conv(p.value, depth + 1);
        naive += kn + vn;
        const k = kv === null ? "" : typeof kv === "object" ? JSON.stringify(kv) : String(kv);
        if (Object.prototype.hasOwnProperty.call(value, k)) size -= 1 + sizeOf(value[k]);
        put(k, vv);
        size += ks + vs;
        over(size, p.value, isAlias(p.value) ? "alias" : "merge");
      }
    } else if (isMap(n)) {   // !!set: its keys
      value = [];
      for (const p of n.items) {
        const [kv, ks, kn] = conv(p.key, depth + 1);
        naive += kn;
        value.push(kv);
        size += ks;
        over(size, p.key, "alias");
      }
    } else if (isSeq(n)) {
      value = [];
      for (const it of n.items) {
        const [v, s, nv] = isPair(it) ? conv(it.value, depth + 1) : conv(it, depth + 1);   // !!pairs, !!omap: their values
        naive += nv;
        value.push(isPair(it) ? { [isScalar(it.key) ? String(it.key.value) : String(it.key)]: v } : v);
        size += s;
        over(size, it, isAlias(it) ? "alias" : "merge");
      }
    } else {
      value = null;
    }
    if (value !== null && typeof value === "object") sizes.set(value, size);
    if (entry) { entry.value = value; entry.size = size; entry.naive = naive; }
    return [value, size, naive];
  };
  return conv(doc.contents, 0)[0];
}

function isMergeKey(k) {
  return (isScalar(k) && k.value === "<<" && (!k.type || k.type === Scalar.PLAIN)) || k === "<<";
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
  // a plain object, told by its prototype: a key named "constructor" is data
  const proto = typeof v === "object" ? Object.getPrototypeOf(v) : undefined;
  if (proto === Object.prototype || proto === null) {
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

// `value` as a new YAML text ("" for undefined); `ytt`: a data-values file
// (yttValues below).
export function toYaml(value, ytt) {
  if (value === undefined) return ytt ? YTT_HEADER : "";
  const doc = new Document(value, { version: "1.1" });
  quoteNew(doc);
  return ytt ? yttValues(doc) : doc.toString(STR);
}

// Make the imported document `doc` say `target`: keys it has and `target`
// keeps stay where they are with their comments; changed values are
// replaced, gone keys removed, new keys appended. Returns the text.
export function syncYaml(doc, target, ytt) {
  const d = doc.clone();
  if (target === undefined) {
    if (!isMap(d.contents)) return ytt ? YTT_HEADER : "";
    d.contents.items = [];
  } else {
    d.contents = syncNode(d, d.contents, target);
  }
  quoteNew(d);
  if (ytt) return target === undefined && !d.contents.items.length ? YTT_HEADER : yttValues(d);
  const s = d.toString(STR);
  return s === "{}\n" && target === undefined ? "" : s;
}

// ---- ytt data values ---------------------------------------------------------
// A data-values file is an overlay on the schema's defaults: it starts with
// `#@data/values` and `---`, written once (an imported file's own header
// is taken off first). Since ytt 0.32 an overlay appends the items of a
// list to the list it overlays (carvel.dev/ytt/docs: "the default behavior
// of overlays is to append array items"), so each key whose value is a list
// carries `#@overlay/replace` (in place of any other `#@overlay/...` of
// its own): ytt then yields exactly the list the form shows.
export const YTT_HEADER = "#@data/values\n---\n";
const ANNOT = /^\s*@overlay\//;
const HEADER_LINE = /^\s*@data\/values(?:\s.*)?$/;

// comment text `c` without the lines `re` matches (null when none is left)
function dropLines(c, re) {
  if (typeof c !== "string") return null;
  const keep = c.split("\n").filter((l) => !re.test(l));
  return keep.length ? keep.join("\n") : null;
}

function yttValues(doc) {
  const rest = dropLines(doc.commentBefore, HEADER_LINE);
  doc.commentBefore = null;
  doc.directives.docStart = false;
  if (rest !== null && doc.contents) doc.contents.commentBefore = rest + (doc.contents.commentBefore ? "\n" + doc.contents.commentBefore : "");
  const walk = (n, depth) => {
    if (depth > 200 || !isMap(n)) return;
    n.items.forEach((p, i) => {
      if (isSeq(p.value)) {
        if (i === 0) n.commentBefore = dropLines(n.commentBefore, ANNOT);
        if (!isScalar(p.key)) p.key = doc.createNode(p.key);
        const kept = dropLines(p.key.commentBefore, ANNOT);
        p.key.commentBefore = (kept !== null ? kept + "\n" : "") + "@overlay/replace";
        // replaced whole: nothing inside merges, so no annotation of an
        // imported file's items stays (`#@overlay/append` under a replace)
        visit(p.value, { Node(_, x) {
          x.commentBefore = dropLines(x.commentBefore, ANNOT);
          if (typeof x.comment === "string" && ANNOT.test(x.comment)) x.comment = null;
        } });
        return;
      }
      walk(p.value, depth + 1);
    });
  };
  walk(doc.contents, 0);
  const s = doc.toString(STR);
  return YTT_HEADER + (s === "{}\n" ? "" : s);
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
