// form_bigyaml.js - reading a large values file without freezing the page
// (docs/form.md "Importing a large file"): the `yaml` library's lexer and
// parser run a slice at a time (their generators stop between tokens), and
// the parsed syntax tree becomes plain values a slice at a time too, each
// slice under SLICE_MS, with the progress reported between slices. Scalars
// are typed exactly as the library types them for parseValues()
// (form_yaml.js: YAML 1.1, its tags tried in order). What this reader does
// not handle itself (anchors, aliases, tags, merge keys, complex keys,
// several documents, any syntax error, duplicate keys) is left to
// parseValues() on the whole text, so its messages stay the same.
// No document is kept: a file read this way is exported anew (its
// comments are not kept).
import { Lexer, Parser, Document, CST } from "yaml";
import { OPTS, TAGS } from "./form_yaml.js";

export const SLICE_MS = 25;

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

// Read `text` a slice at a time. Resolves to {value, texts} (texts: pointer
// -> a number's text where JavaScript would print it otherwise), or to
// null when the full reader (parseValues) must read it.
export async function readLarge(text, progress) {
  try {
    return await sliced(toValues(text), progress);
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}

// The same, at once (for tests under node).
export function readLargeNow(text) {
  const g = toValues(text);
  try {
    for (;;) { const r = g.next(); if (r.done) return r.value; }
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}
