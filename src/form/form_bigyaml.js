// SPDX-License-Identifier: Apache-2.0
// form_bigyaml.js - reading a large values file without freezing the page
// (docs/form.md "A large file"), a slice of at most SLICE_MS at a time with
// the progress reported between slices, in two ways:
//  - block YAML as programs and people write values files (maps and lists
//    by indentation, one-line scalars, `{}` and `[]`, comments) is read
//    line by line, each scalar resolved by the `yaml` library itself;
//  - else the `yaml` library's lexer and parser run a slice at a time (their
//    generators stop between tokens) and the syntax tree becomes values.
// Scalars are typed exactly as parseValues() types them (form_yaml.js: YAML
// 1.1, the library's tags tried in order). What neither handles (anchors,
// aliases, tags, merge keys, complex keys, several documents, any syntax
// error, duplicate keys) is left to parseValues() on the whole text, so its
// messages stay the same. No document is kept: a file read this way is
// exported anew (its comments are not kept).
import { Lexer, Parser, Document, CST } from "yaml";
import { OPTS, TAGS } from "./form_yaml.js";

export const SLICE_MS = 16;

let SCHEMA = null;
function schema() {
  if (!SCHEMA) SCHEMA = new Document(null, { ...OPTS, customTags: TAGS }).schema;
  return SCHEMA;
}

class Unsupported extends Error {}
const UNSUPPORTED = new Unsupported("left to the full reader");

// A macrotask that lets the page paint and take input.
export function nextTask() {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(0);
  });
}

// Run generator `gen` to its end a slice at a time; `progress(fraction)`
// between slices (the generator yields its fraction done, or undefined).
export async function sliced(gen, progress) {
  let last = 0;
  for (;;) {
    const t0 = performance.now();
    for (;;) {
      const r = gen.next();
      if (r.done) return r.value;
      if (typeof r.value === "number") last = r.value;
      if (performance.now() - t0 > SLICE_MS) break;
    }
    if (progress) progress(last);
    await nextTask();
  }
}

// A copy of plain values `v` (as form_values.js clone() makes), a slice at a time.
export function* cloneSliced(v) {
  let n = 0;
  const copy = function* (x) {
    if (++n % 2048 === 0) yield;
    if (Array.isArray(x)) {
      const a = new Array(x.length);
      for (let i = 0; i < x.length; i++) { const y = x[i]; a[i] = y !== null && typeof y === "object" ? yield* copy(y) : y; }
      return a;
    }
    const o = {};
    for (const k of Object.keys(x)) {
      const y = x[k];
      Object.defineProperty(o, k, { value: y !== null && typeof y === "object" ? yield* copy(y) : y, enumerable: true, writable: true, configurable: true });
    }
    return o;
  };
  return v !== null && typeof v === "object" ? yield* copy(v) : v;
}

// ---- the syntax tree -------------------------------------------------------------

function* lexParse(text) {
  const lexer = new Lexer(), parser = new Parser();
  const docs = [];
  let n = 0;
  for (const lexeme of lexer.lex(text)) {
    for (const t of parser.next(lexeme)) docs.push(t);
    if (++n % 512 === 0) yield parser.offset / text.length;
  }
  for (const t of parser.end()) docs.push(t);
  return docs;
}

// ---- values ----------------------------------------------------------------------

// Tokens this reader leaves to the full one: properties, explicit keys,
// errors, and tabs in indentation (the full reader's checks on them).
function props(list) {
  if (!list) return;
  for (const t of list) {
    if (t.type === "anchor" || t.type === "tag" || t.type === "explicit-key-ind" || t.type === "error" || t.type === "flow-error-end") throw UNSUPPORTED;
    if (t.type === "space" && t.source.includes("\t")) throw UNSUPPORTED;
  }
}

// A flow collection on more than one line, or not closed, is left to the
// full reader (it checks their indentation); so is a scalar on more than
// one line but a block scalar, and a comment right after a quoted scalar.
function oneLine(list) {
  for (const t of list || []) if (t.type === "newline") throw UNSUPPORTED;
}

function onError() {
  throw UNSUPPORTED;
}

// [value, number text or undefined] of a scalar token
function scalar(tok) {
  if (tok.type === "alias") throw UNSUPPORTED;
  if (tok.type === "block-scalar") props(tok.props);
  const r = CST.resolveAsScalar(tok, true, onError);
  if (!r) throw UNSUPPORTED;
  if (tok.type !== "scalar") return [r.value, undefined];
  const s = schema();
  const tag = s.tags.find((t) => t.default && t.test && t.test.test(r.value));
  if (!tag) return [r.value, undefined];
  let v;
  try { v = tag.resolve(r.value, onError, {}); } catch (e) { throw UNSUPPORTED; }
  if (v && typeof v === "object" && "value" in v) v = v.value;   // a Scalar
  if (typeof v === "bigint") v = Number(v);
  if (v !== null && typeof v === "object") throw UNSUPPORTED;
  return [v, typeof v === "number" && r.value !== String(v) ? r.value : undefined];
}

function keyOf(tok) {
  if (!tok || !CST.isScalar(tok) || tok.type === "block-scalar" || tok.source.includes("\n")) throw UNSUPPORTED;
  props(tok.end);
  const [k] = scalar(tok);
  if (tok.type === "scalar" && k === "<<") throw UNSUPPORTED;   // a merge key
  return k === null ? "" : String(k);
}

function define(o, k, v) {
  if (Object.prototype.hasOwnProperty.call(o, k)) throw UNSUPPORTED;   // duplicate key: the full reader says so
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

// The value of token `tok` at JSON pointer `ptr` (for the number texts).
function* value(tok, ptr, texts, depth, count) {
  if (depth > 400) throw UNSUPPORTED;
  if (++count.n % 256 === 0) yield undefined;
  if (!tok) return null;
  switch (tok.type) {
    case "block-map": {
      const o = {};
      for (const it of tok.items) {
        props(it.start); props(it.sep);
        if (it.key === undefined && !it.sep) { if (it.start.some((t) => t.type !== "comment" && t.type !== "newline" && t.type !== "space")) throw UNSUPPORTED; continue; }
        const k = keyOf(it.key);
        define(o, k, yield* value(it.value, ptr + "/" + k.replace(/~/g, "~0").replace(/\//g, "~1"), texts, depth + 1, count));
      }
      return o;
    }
    case "block-seq": {
      const a = [];
      for (const it of tok.items) {
        props(it.start);
        if (it.key !== undefined || it.sep) throw UNSUPPORTED;
        if (it.value === undefined && !it.start.some((t) => t.type === "seq-item-ind")) continue;   // comments
        a.push(yield* value(it.value, ptr + "/" + a.length, texts, depth + 1, count));
      }
      return a;
    }
    case "flow-collection": {
      const close = tok.end && tok.end.length ? tok.end[0] : null;
      if (!close || close.type !== (tok.start.source === "{" ? "flow-map-end" : "flow-seq-end")) throw UNSUPPORTED;
      const map = tok.start.source === "{";
      const o = map ? {} : [];
      for (const it of tok.items) {
        props(it.start); props(it.sep); oneLine(it.start); oneLine(it.sep);
        if (it.value && (CST.isCollection(it.value) && it.value.type !== "flow-collection" || it.value.type === "block-scalar")) throw UNSUPPORTED;
        if (map) {
          if (!it.sep) throw UNSUPPORTED;
          const k = keyOf(it.key);
          define(o, k, yield* value(it.value, ptr + "/" + k.replace(/~/g, "~0").replace(/\//g, "~1"), texts, depth + 1, count));
        } else {
          if (it.key !== undefined || it.sep) throw UNSUPPORTED;
          if (it.value === undefined) continue;
          o.push(yield* value(it.value, ptr + "/" + o.length, texts, depth + 1, count));
        }
      }
      props(tok.end);
      return o;
    }
    case "scalar": case "single-quoted-scalar": case "double-quoted-scalar": case "block-scalar": case "alias": {
      props(tok.end);
      if (tok.type !== "block-scalar" && tok.source.includes("\n")) throw UNSUPPORTED;
      if ((tok.type === "single-quoted-scalar" || tok.type === "double-quoted-scalar") && tok.end && tok.end.length && tok.end[0].type === "comment") throw UNSUPPORTED;
      const [v, text] = scalar(tok);
      if (text !== undefined) texts.set(ptr, text);
      return v;
    }
    default:
      throw UNSUPPORTED;
  }
}

function* toValues(text) {
  const docs = yield* lexParse(text);
  const main = docs.filter((d) => d.type !== "comment" && d.type !== "space" && d.type !== "newline" && d.type !== "byte-order-mark");
  const real = main.filter((d) => d.type === "document");
  if (real.length > 1 || main.some((d) => d.type !== "document" && d.type !== "doc-end")) throw UNSUPPORTED;
  if (real.length === 0) return { value: null, texts: new Map() };
  const d = real[0];
  props(d.start);
  if (d.start.some((t) => t.type === "doc-start" || t.type === "directive-line")) { /* "---" alone is fine */ }
  for (const t of d.end || []) if (t.type === "error") throw UNSUPPORTED;
  const texts = new Map();
  const v = yield* value(d.value, "", texts, 0, { n: 0 });
  return { value: v, texts };
}

// ---- block YAML, line by line --------------------------------------------------

const INDICATOR = /^[,\[\]{}#&*!|>'"%@`]|^[-?:](?:[ \t]|$)/;

// A plain scalar's value as the library reads it (and its text when it is a
// number JavaScript prints otherwise).
function plainScalar(src) {
  const s = schema();
  const tag = s.tags.find((t) => t.default && t.test && t.test.test(src));
  if (!tag) return [src, undefined];
  let v;
  try { v = tag.resolve(src, onError, {}); } catch (e) { throw UNSUPPORTED; }
  if (v && typeof v === "object" && "value" in v) v = v.value;
  if (typeof v === "bigint") v = Number(v);
  if (v !== null && typeof v === "object") throw UNSUPPORTED;
  return [v, typeof v === "number" && src !== String(v) ? src : undefined];
}

// A quoted scalar at the start of `t`: [value, rest of the line] (the
// library unescapes it).
function quoted(t) {
  const q = t[0];
  let i = 1;
  for (;;) {
    const j = t.indexOf(q, i);
    if (j < 0) throw UNSUPPORTED;   // it goes on to the next line
    if (q === '"') {
      let bs = 0;
      for (let k = j - 1; k > 0 && t[k] === "\\"; k--) bs++;
      if (bs % 2) { i = j + 1; continue; }
    } else if (t[j + 1] === "'") { i = j + 2; continue; }
    const src = t.slice(0, j + 1);
    const r = CST.resolveAsScalar({ type: q === '"' ? "double-quoted-scalar" : "single-quoted-scalar", offset: 0, indent: 0, source: src }, true, onError);
    if (!r) throw UNSUPPORTED;
    return [r.value, t.slice(j + 1)];
  }
}

// What follows a scalar on its line: nothing, or a comment after a space.
function endOfLine(rest) {
  const r = rest.replace(/^ +/, "");
  if (r !== "" && !(r[0] === "#" && rest.length > r.length)) throw UNSUPPORTED;
}

// The text of a plain scalar at the start of `t` (up to " #").
function plainText(t) {
  let end = t.length;
  const c = t.indexOf(" #");
  if (c >= 0) end = c;
  const src = t.slice(0, end).replace(/ +$/, "");
  if (src.includes(": ") || src.endsWith(":") || src.includes("\t")) throw UNSUPPORTED;
  return src;
}

// The key of a `key: ...` line: [key, rest after the colon] or null when the
// line is not one.
function keyLine(t) {
  let key, rest;
  if (t[0] === '"' || t[0] === "'") {
    const [k, r] = quoted(t);
    const m = /^ *:(?: |$)/.exec(r);
    if (!m) return null;
    key = k;
    rest = r.slice(m[0].length);
  } else {
    if (INDICATOR.test(t)) return null;
    let i = t.indexOf(": ");
    const hash = t.indexOf(" #");
    if (i < 0 || (hash >= 0 && hash < i)) {
      const e = hash >= 0 ? t.slice(0, hash).replace(/ +$/, "") : t.replace(/ +$/, "");
      if (!e.endsWith(":")) return null;
      i = e.length - 1;
    }
    const src = t.slice(0, i).replace(/ +$/, "");
    if (src === "" || src.includes("\t")) throw UNSUPPORTED;
    if (src === "<<") throw UNSUPPORTED;   // a merge key
    const [k] = plainScalar(src);
    key = k === null ? "" : String(k);
    rest = t.slice(i + 1);
  }
  return [key, rest.replace(/^ +/, "")];
}

class Lines {
  constructor(text) {
    this.text = text;
    this.pos = 0;          // the start of the current line
    this.cur = null;       // {indent, t} of the current meaningful line, or null at the end
    this.n = 0;            // lines read
    this.k = 0;            // items and keys read (a slice may end every 512)
    this.next();
  }

  // the next meaningful line (comments and blank lines skipped)
  next() {
    const s = this.text;
    while (this.pos < s.length) {
      let e = s.indexOf("\n", this.pos);
      if (e < 0) e = s.length;
      const line = s.slice(this.pos, e);
      this.pos = e + 1;
      this.n++;
      let i = 0;
      while (line.charCodeAt(i) === 32) i++;
      const t = line.slice(i);
      if (t === "" || t[0] === "#") continue;
      if (t[0] === "\t" || /\t$/.test(t)) throw UNSUPPORTED;
      this.cur = { indent: i, t };
      return;
    }
    this.cur = null;
  }
}

// The value of the scalar text `t` ("" when nothing follows on the line).
function inlineValue(t, ptr, texts) {
  if (t === "" || t[0] === "#") return undefined;
  if (t[0] === '"' || t[0] === "'") { const [v, rest] = quoted(t); endOfLine(rest); return v; }
  if (t[0] === "{" || t[0] === "[") {
    const m = /^(\{\}|\[\])(.*)$/.exec(t);
    if (!m) throw UNSUPPORTED;
    endOfLine(m[2]);
    return m[1] === "{}" ? {} : [];
  }
  if (INDICATOR.test(t)) throw UNSUPPORTED;
  const src = plainText(t);
  const [v, text] = plainScalar(src);
  if (text !== undefined) texts.set(ptr, text);
  return v;
}

function seg(k) {
  return String(k).replace(/~/g, "~0").replace(/\//g, "~1");
}

// The node whose first line is L.cur, at L.cur.indent.
function* node(L, ptr, texts, depth) {
  if (depth > 400) throw UNSUPPORTED;
  const c = L.cur;
  if (c.t === "-" || c.t.startsWith("- ")) return yield* seq(L, c.indent, ptr, texts, depth);
  if (keyLine(c.t)) return yield* map(L, c.indent, ptr, texts, depth);
  throw UNSUPPORTED;
}

// After a key's or an item's line, whose text `t` held nothing: the node on
// the next lines (deeper than `indent`; a list may sit at the key's own
// indent), or null.
function* nested(L, indent, ptr, texts, depth, mapKey) {
  L.next();
  const c = L.cur;
  if (c && (c.indent > indent || (mapKey && c.indent === indent && (c.t === "-" || c.t.startsWith("- ")))))
    return yield* node(L, ptr, texts, depth + 1);
  return null;
}

// A scalar on the item's or key's own line: nothing deeper may follow it
// (that would be a scalar going on to the next line).
function scalarEnd(L, indent) {
  L.next();
  if (L.cur && L.cur.indent > indent) throw UNSUPPORTED;
}

function* seq(L, indent, ptr, texts, depth) {
  const a = [];
  while (L.cur && L.cur.indent === indent && (L.cur.t === "-" || L.cur.t.startsWith("- "))) {
    if (++L.k % 512 === 0) yield L.pos / L.text.length;
    const t = L.cur.t;
    let i = 1;
    while (t[i] === " ") i++;
    const rest = t.slice(i);
    const p = ptr + "/" + a.length;
    if (rest === "" || rest[0] === "#") { a.push(yield* nested(L, indent, p, texts, depth, false)); continue; }
    if (rest === "-" || rest.startsWith("- ") || (rest[0] !== '"' && rest[0] !== "'" && rest[0] !== "{" && rest[0] !== "[" && keyLine(rest)) ||
        ((rest[0] === '"' || rest[0] === "'") && keyLine(rest))) {
      // "- key: v" / "- - x": a map or list that starts on the item's line
      L.cur = { indent: indent + i, t: rest };
      a.push(yield* node(L, p, texts, depth + 1));
      continue;
    }
    a.push(inlineValue(rest, p, texts));
    scalarEnd(L, indent);
  }
  if (L.cur && L.cur.indent > indent) throw UNSUPPORTED;
  return a;
}

function* map(L, indent, ptr, texts, depth) {
  const o = {};
  while (L.cur && L.cur.indent === indent) {
    if (++L.k % 512 === 0) yield L.pos / L.text.length;
    const kl = keyLine(L.cur.t);
    if (!kl) break;
    const [k, rest] = kl;
    if (Object.prototype.hasOwnProperty.call(o, k)) throw UNSUPPORTED;   // a duplicate: the full reader says so
    const p = ptr + "/" + seg(k);
    let v;
    if (rest === "" || rest[0] === "#") v = yield* nested(L, indent, p, texts, depth, true);
    else {
      v = inlineValue(rest, p, texts);
      scalarEnd(L, indent);
    }
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  if (L.cur && L.cur.indent >= indent) throw UNSUPPORTED;   // deeper, or neither a key nor the end
  return o;
}

function* lineValues(text) {
  if (text.includes("\r") || text.charCodeAt(0) === 0xfeff) throw UNSUPPORTED;
  const L = new Lines(text);
  const texts = new Map();
  if (!L.cur) return { value: null, texts };
  if (L.cur.indent !== 0 || /^(---|\.\.\.)( |$)|^%/.test(L.cur.t)) throw UNSUPPORTED;
  const v = yield* node(L, "", texts, 0);
  if (L.cur) throw UNSUPPORTED;
  return { value: v, texts };
}

// Read `text` a slice at a time. Resolves to {value, texts} (texts: pointer
// -> a number's text where JavaScript would print it otherwise), or to
// null when the full reader (parseValues) must read it.
export async function readLarge(text, progress) {
  for (const way of [lineValues, toValues]) {
    try {
      return await sliced(way(text), progress);
    } catch (e) {
      if (!(e instanceof Unsupported)) throw e;
    }
  }
  return null;
}

// The same, at once (for tests under node); `way`: "lines" or "tree" alone.
export function readLargeNow(text, way) {
  for (const w of way === "lines" ? [lineValues] : way === "tree" ? [toValues] : [lineValues, toValues]) {
    const g = w(text);
    try {
      for (;;) { const r = g.next(); if (r.done) return r.value; }
    } catch (e) {
      if (!(e instanceof Unsupported)) throw e;
    }
  }
  return null;
}
