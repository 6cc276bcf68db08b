// rules.js - the interpreter of schemadoc's rules documents (docs/rules.md):
// plain JavaScript values in, the C validator's errors out (same verdicts,
// same order, same message text as `schemadoc validate --output json`).
//
// compile(rules) indexes the records (no code is generated: no eval, no
// new Function); validator.validate(value) walks the value and the records
// together exactly as src/validate/validate.c does; validator.revalidate()
// does the same but reuses cached results of the subtrees a change at one
// pointer cannot affect. Pure functions of their arguments, no DOM: runs in
// node and in a browser under a strict CSP. Formats: formats.js; patterns
// that can backtrack catastrophically run on the bounded matcher in regex.js.
import { checkFormat } from "./formats.js";
import { compileBounded } from "./regex.js";

export const RULES_VERSION = 1;

// instance kinds, as the C loader's (SD_NULL ... SD_SEQ)
const K_NULL = 0, K_BOOL = 1, K_NUM = 2, K_STR = 4, K_OBJ = 5, K_ARR = 6;
// type bits (vprog.h T_*) and what a record checks (N_*)
const T_NULL = 1, T_BOOL = 2, T_INT = 4, T_NUM = 8, T_STR = 16, T_OBJ = 32, T_ARR = 64;
const N_TYPE = 1, N_ENUM = 2, N_STR = 4, N_NUM = 8, N_OBJ = 16, N_ARR = 32, N_APPLY = 64;
const NEED_BY_KIND = [0, 0, N_NUM, N_NUM, N_STR, N_OBJ, N_ARR];
const S_SCHEMA = 0, S_TRUE = 1, S_FALSE = 2;
const DRAFT_NAMES = { 4: "draft-04", 6: "draft-06", 7: "draft-07", 2019: "2019-09", 2020: "2020-12" };

function kindOf(v) {
  switch (typeof v) {
    case "string": return K_STR;
    case "number": return K_NUM;
    case "boolean": return K_BOOL;
    case "object": return v === null ? K_NULL : Array.isArray(v) ? K_ARR : K_OBJ;
    case "bigint": return K_NUM;
    default: return K_NULL;
  }
}

function instType(v, k) {
  switch (k) {
    case K_NULL: return T_NULL;
    case K_BOOL: return T_BOOL;
    case K_NUM: return Number.isInteger(Number(v)) ? T_INT : T_NUM;
    case K_STR: return T_STR;
    case K_OBJ: return T_OBJ;
    default: return T_ARR;
  }
}

// ---- records -------------------------------------------------------------------

class Rec {
  constructor(id) {
    this.id = id;
    this.kind = S_SCHEMA;
    this.loop = false;
    this.alias = null;
    this.at = null;            // [file, line, column]
    this.ptr = 0;              // paths index
    this.draft = 2020;
    this.res = -1;
    this.ref = null;
    this.dynref = null;
    this.dynKind = 0;          // 1 $dynamicRef by name, 2 $recursiveRef
    this.dynName = null;
    this.types = 0;
    this.nullable = false;
    this.intOrString = false;
    this.enumList = null;
    this.enumText = "";
    this.enumKeys = null;      // Set of canonical keys (large enums)
    this.enumPrims = null;     // Set of the values when all are strings, numbers, booleans or null
    this.hasConst = false;
    this.constVal = null;
    this.constText = "";
    this.minl = -1; this.maxl = -1;
    this.pattern = null;       // Pat
    this.format = null;        // format name (checked), or null
    this.formatCheck = null;   // the check's name (draft 4 hostname differs)
    this.formatWarn = null;    // dialect name when a failure only warns
    this.min = null; this.max = null; this.exmin = null; this.exmax = null; this.mult = null;
    this.minp = -1; this.maxp = -1;
    this.required = null;
    this.reqLate = false;
    this.nreqFast = 0;
    this.deps = null;
    this.props = null;         // Map name -> Prop
    this.propList = null;      // [Prop] in schema order
    this.pats = null;          // [[Pat, Rec]]
    this.addl = null; this.pnames = null; this.uprops = null; this.uitems = null;
    this.mini = -1; this.maxi = -1; this.minc = -1; this.maxc = -1;
    this.unique = false;
    this.prefix = null;
    this.items = null;
    this.contains = null;
    this.all = null; this.any = null; this.one = null;
    this.not = null; this.if_ = null; this.then_ = null; this.else_ = null;
    this.loc = null;           // keyword -> [line, column]
    this.need = 0;
    this.hasUneval = false;
    this.leaf = false;         // checks only the value itself: no applicators
    this.allowed = 0;          // type bits with int-or-string and nullable folded in
    this.typeByKind = null;    // per instance kind: 1 allowed, 0 not, 2 only if integral
    this.multParts = null;     // multipleOf as [mantissa, exponent], or null
    this.itemsLeaf = null;     // leafOf(items), leafOf(additionalProperties), leafOf(propertyNames)
    this.addlLeaf = null;
    this.pnamesLeaf = null;
    this.oneLeaf = null;       // leafOf() of each oneOf / anyOf branch
    this.anyLeaf = null;
  }
}

class Prop {
  constructor(name, rec) { this.name = name; this.rec = rec; this.req = false; this.leaf = null; }
}

// The record to run straight on a scalar for `r`: r itself when it is a
// leaf, or the target of a pure $ref to a leaf (following it cannot loop:
// a leaf applies nothing further), else null.
function leafOf(r) {
  if (r === null) return null;
  const t = r.alias !== null ? r.alias : r;
  return !t.loop && t.kind === S_SCHEMA && t.leaf ? t : null;
}

// A number of the schema: its value and the text messages quote.
class Num {
  constructor(j) {
    if (Array.isArray(j)) { this.v = j[0]; this.t = j[1]; } else { this.v = j; this.t = String(j); }
  }
}

class Pat {
  constructor(p, limit) {
    this.src = p.source;
    this.re = null;
    this.bounded = null;
    this.error = null;
    this.risk = p.risk || null;
    try {
      this.re = new RegExp(p.source, "u");
    } catch (e) {
      this.error = String(e && e.message || e);
    }
    // patterns that can backtrack catastrophically run on the bounded matcher
    if (this.risk !== null && this.error === null) this.bounded = compileBounded(p.source, limit);
  }
}

function fmtArgs(fmt, args) {
  let i = 0;
  return fmt.replace(/%(?:zu|lld|lu|d|s|%)/g, (m) => (m === "%%" ? "%" : String(args[i++])));
}

// ---- values: equality, canonical keys, rendering ------------------------------------

function equal(a, b, depth = 0) {
  const ka = kindOf(a), kb = kindOf(b);
  if (ka !== kb) return false;
  switch (ka) {
    case K_NUM: return numcmp(Number(a), Number(b)) === 0;   /* NaN "equals" any number, as in C */
    case K_ARR:
      if (a.length !== b.length || depth > 1000) return false;
      for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i], depth + 1)) return false;
      return true;
    case K_OBJ: {
      if (depth > 1000) return false;
      let n = 0;
      for (const k in a) {
        n++;
        if (!Object.prototype.hasOwnProperty.call(b, k) || !equal(a[k], b[k], depth + 1)) return false;
      }
      for (const k in b) n--;
      return n === 0;
    }
    default: return a === b;
  }
}

// A string that two values share exactly when they are equal (numbers by value).
function canon(v, depth = 0) {
  switch (kindOf(v)) {
    case K_NULL: return "n";
    case K_BOOL: return v ? "t" : "f";
    case K_NUM: { const x = Number(v); return x === 0 ? "#0" : "#" + String(x); }
    case K_STR: return "\"" + v;
    case K_ARR: {
      if (depth > 1000) return "[?" + Math.random();
      let s = "[";
      for (let i = 0; i < v.length; i++) s += (i ? "," : "") + JSON.stringify(canon(v[i], depth + 1));
      return s + "]";
    }
    default: {
      if (depth > 1000) return "{?" + Math.random();
      const ks = Object.keys(v).sort();
      let s = "{";
      for (let i = 0; i < ks.length; i++) s += (i ? "," : "") + JSON.stringify(ks[i]) + ":" + JSON.stringify(canon(v[ks[i]], depth + 1));
      return s + "}";
    }
  }
}

const enc = new TextEncoder();
function utf8Len(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) { n += 4; i++; }
    else n += 3;
  }
  return n;
}
// The longest prefix of `s` of at most `max` UTF-8 bytes that ends on a character boundary.
function utf8Cut(s, max) {
  let n = 0, i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    const w = c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? 4 : 3;
    if (n + w > max) break;
    n += w;
    i += w === 4 ? 2 : 1;
  }
  return s.slice(0, i);
}

// JSON string as the C side escapes it (buf.c SD_ESC_JSON).
function jsonStr(s) {
  let out = "\"", start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep = null;
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26) {
      switch (c) {
        case 0x22: rep = "\\\""; break;
        case 0x5c: rep = "\\\\"; break;
        case 0x0a: rep = "\\n"; break;
        case 0x0d: rep = "\\r"; break;
        case 0x09: rep = "\\t"; break;
        case 0x08: rep = "\\b"; break;
        case 0x0c: rep = "\\f"; break;
        case 0x3c: rep = "\\u003c"; break;
        case 0x3e: rep = "\\u003e"; break;
        case 0x26: rep = "\\u0026"; break;
        default: rep = "\\u00" + (c < 16 ? "0" : "") + c.toString(16);
      }
      out += s.slice(start, i) + rep;
      start = i + 1;
    }
  }
  return out + s.slice(start) + "\"";
}

function escSeg(k) {
  return k.indexOf("~") < 0 && k.indexOf("/") < 0 ? k : k.replace(/~/g, "~0").replace(/\//g, "~1");
}

// ---- the validator ---------------------------------------------------------------------

export function compile(rules) {
  return new Validator(rules);
}

export function validate(rules, value, opts) {
  return compile(rules).validate(value, opts);
}

class Validator {
  constructor(rules) {
    if (!rules || typeof rules !== "object" || rules.rules !== RULES_VERSION)
      throw new Error("not a schemadoc rules document of version " + RULES_VERSION);
    const o = rules.options || {};
    this.rules = rules;
    this.messages = rules.messages;
    this.files = rules.files || [];
    this.paths = rules.paths || [];
    this.pathCache = new Array(this.paths.length);
    this.matchLimit = o.matchLimit || 1000000;
    this.maxDepth = o.maxDepth || 3000;
    this.maxErrors = o.maxErrors || 1000;
    this.pats = (rules.patterns || []).map((p) => new Pat(p, this.matchLimit));
    this.resources = (rules.resources || []).map(() => null);
    const recs = rules.records.map((_, i) => new Rec(i));
    this.recs = recs;
    // each record's dialect: its own, else its entry's (records of an entry are contiguous)
    const draftOf = new Array(recs.length).fill(2020);
    const ents = Object.keys(rules.entries).map((k) => [k, rules.entries[k]]).sort((a, b) => a[1].root - b[1].root);
    for (let e = 0; e < ents.length; e++) {
      const end = e + 1 < ents.length ? ents[e + 1][1].root : recs.length;
      for (let i = ents[e][1].root; i < end; i++) draftOf[i] = ents[e][1].draft;
    }
    for (let i = 0; i < recs.length; i++) this.build(recs[i], rules.records[i], draftOf[i]);
    for (const s of recs) {
      if (s.propList !== null) for (const p of s.propList) p.leaf = leafOf(p.rec);
      s.itemsLeaf = leafOf(s.items);
      s.addlLeaf = leafOf(s.addl);
      s.pnamesLeaf = leafOf(s.pnames);
      if (s.one !== null) s.oneLeaf = s.one.map(leafOf);
      if (s.any !== null) s.anyLeaf = s.any.map(leafOf);
    }
    for (let i = 0; i < this.resources.length; i++) {
      const r = rules.resources[i] || {};
      const anchors = new Map();
      if (r.dynamicAnchors) for (const k of Object.keys(r.dynamicAnchors)) anchors.set(k, recs[r.dynamicAnchors[k]]);
      this.resources[i] = { recursive: r.recursiveAnchor !== undefined ? recs[r.recursiveAnchor] : null, anchors };
    }
    this.entries = new Map();
    for (const [name, e] of Object.keys(rules.entries).map((k) => [k, rules.entries[k]]))
      this.entries.set(name, { name, root: recs[e.root], dynamic: !!e.dynamic, alias: e.alias || null,
        defaults: e.defaults || null, defaultsTexts: e.defaultsTexts || null, group: e.group || null, version: e.version || null });
    this.cache = null;
    this.lastApplied = 0;     // how many records the last call applied (a measure of its work)
    this.warns = recs.some((r) => r.formatWarn !== null);   // some finding is only a warning
  }

  build(s, j, draft) {
    const R = this.recs;
    const rec = (i) => (i === undefined || i === null || i < 0 ? null : R[i]);
    const recs = (a) => (a ? a.map((i) => R[i]) : null);
    s.at = j.at;
    s.ptr = j.ptr;
    s.draft = j.draft || draft;
    if (j.loop) { s.loop = true; return; }
    if (j.alias !== undefined) { s.alias = R[j.alias]; return; }
    if (j.bool !== undefined) { s.kind = j.bool ? S_TRUE : S_FALSE; return; }
    if (j.res !== undefined) s.res = j.res;
    s.ref = rec(j.ref);
    if (j.dynamicRef) {
      s.dynref = R[j.dynamicRef[0]];
      const how = j.dynamicRef[1];
      if (typeof how === "string") { s.dynKind = 1; s.dynName = how; } else if (how === true) s.dynKind = 2;
    }
    s.types = j.type || 0;
    s.nullable = !!j.nullable;
    s.intOrString = !!j.intOrString;
    if (j.enum) {
      s.enumList = j.enum;
      s.enumText = j.enumText;
      if (j.enum.length > 8) s.enumKeys = new Set(j.enum.map((v) => canon(v)));
      if (j.enum.every((v) => v === null || (typeof v !== "object" && v === v))) s.enumPrims = new Set(j.enum);
    }
    if ("const" in j) { s.hasConst = true; s.constVal = j.const; s.constText = j.constText; }
    if (j.minLength !== undefined) s.minl = j.minLength;
    if (j.maxLength !== undefined) s.maxl = j.maxLength;
    if (j.pattern !== undefined) s.pattern = this.pats[j.pattern];
    if (j.format) {
      s.format = j.format;
      s.formatCheck = j.format === "hostname" && s.draft === 4 ? "hostname-rfc1123" : j.format;
      s.formatWarn = j.formatWarn || null;
    }
    if (j.minimum !== undefined) s.min = new Num(j.minimum);
    if (j.maximum !== undefined) s.max = new Num(j.maximum);
    if (j.exclusiveMinimum !== undefined) s.exmin = new Num(j.exclusiveMinimum);
    if (j.exclusiveMaximum !== undefined) s.exmax = new Num(j.exclusiveMaximum);
    if (j.multipleOf !== undefined) s.mult = new Num(j.multipleOf);
    if (j.minProperties !== undefined) s.minp = j.minProperties;
    if (j.maxProperties !== undefined) s.maxp = j.maxProperties;
    if (j.required) s.required = j.required;
    s.reqLate = !!j.requiredLate;
    if (j.dependencies) s.deps = j.dependencies.map((d) => ({ name: d[0], kw: d[1], req: d[2], rec: rec(d[3]) }));
    if (j.properties) {
      s.props = new Map();
      s.propList = [];
      for (let i = 0; i < j.properties.length; i += 2) {
        const p = new Prop(j.properties[i], R[j.properties[i + 1]]);
        if (!s.props.has(p.name)) s.props.set(p.name, p);
        s.propList.push(p);
      }
    }
    if (s.reqLate && s.required && s.props) {
      for (const r of s.required) {
        const p = s.props.get(r);
        if (p && !p.req) { p.req = true; s.nreqFast++; }
      }
    }
    if (j.patternProperties) {
      s.pats = [];
      for (let i = 0; i < j.patternProperties.length; i += 2)
        s.pats.push([this.pats[j.patternProperties[i]], R[j.patternProperties[i + 1]]]);
    }
    s.addl = rec(j.additionalProperties);
    s.pnames = rec(j.propertyNames);
    if (j.minItems !== undefined) s.mini = j.minItems;
    if (j.maxItems !== undefined) s.maxi = j.maxItems;
    s.unique = !!j.uniqueItems;
    s.prefix = recs(j.prefixItems);
    s.items = rec(j.items);
    s.contains = rec(j.contains);
    if (j.minContains !== undefined) s.minc = j.minContains;
    if (j.maxContains !== undefined) s.maxc = j.maxContains;
    s.all = recs(j.allOf);
    s.any = recs(j.anyOf);
    s.one = recs(j.oneOf);
    s.not = rec(j.not);
    s.if_ = rec(j.if);
    s.then_ = rec(j.then);
    s.else_ = rec(j.else);
    s.uprops = rec(j.unevaluatedProperties);
    s.uitems = rec(j.unevaluatedItems);
    s.loc = j.loc || null;
    s.hasUneval = !!(s.uprops || s.uitems);
    s.need = ((s.types || s.intOrString ? N_TYPE : 0) |
      (s.enumList || s.hasConst ? N_ENUM : 0) |
      (s.minl >= 0 || s.maxl >= 0 || s.pattern || s.format ? N_STR : 0) |
      (s.min || s.max || s.exmin || s.exmax || s.mult ? N_NUM : 0) |
      (s.minp >= 0 || s.maxp >= 0 || s.required || s.deps || s.props || s.pats || s.addl || s.pnames ? N_OBJ : 0) |
      (s.mini >= 0 || s.maxi >= 0 || s.unique || s.prefix || s.items || s.contains ? N_ARR : 0) |
      (s.ref || s.dynref || s.all || s.any || s.one || s.not || s.if_ || s.uprops || s.uitems ? N_APPLY : 0));
    s.leaf = !(s.need & N_APPLY) && !s.hasUneval;
    s.allowed = s.types | (s.intOrString ? T_INT | T_STR : 0) | (s.nullable ? T_NULL : 0);
    const a = s.allowed;
    s.typeByKind = Uint8Array.of(a & T_NULL ? 1 : 0, a & T_BOOL ? 1 : 0, a & T_NUM ? 1 : a & T_INT ? 2 : 0, 0,
      a & T_STR ? 1 : 0, a & T_OBJ ? 1 : 0, a & T_ARR ? 1 : 0);
    if (s.mult) s.multParts = decimalParts(s.mult.v);
  }

  // The schema pointer of a record ("#/properties/a").
  ptrOf(s) {
    return this.pathString(s.ptr);
  }

  pathString(i) {
    let p = this.pathCache[i];
    if (p !== undefined) return p;
    const chain = [];
    let k = i;
    while (k >= 0 && this.pathCache[k] === undefined) { chain.push(k); k = this.paths[k][0]; }
    let base = k >= 0 ? this.pathCache[k] : "";
    for (let n = chain.length - 1; n >= 0; n--) {
      base = base + this.paths[chain[n]][1];
      this.pathCache[chain[n]] = base;
    }
    return this.pathCache[i];
  }

  msg(id, ...args) {
    const f = this.messages[id];
    if (f === undefined) throw new Error("rules document without message " + id);
    return args.length ? fmtArgs(f, args) : f;
  }

  entry(name, value) {
    if (name !== undefined && name !== null) {
      const e = this.entries.get(name);
      if (!e) throw new Error("no entry '" + name + "' in these rules (" + [...this.entries.keys()].join(", ") + ")");
      return e;
    }
    if (this.rules.kind === "crd") {
      // the version the document's apiVersion names, else the fallback (as validate does)
      const api = value && typeof value === "object" && typeof value.apiVersion === "string" ? value.apiVersion : null;
      if (api !== null)
        for (const e of this.entries.values())
          if (e.group !== null && e.version !== null && api === e.group + "/" + e.version) return e;
      if (this.rules.fallback && this.entries.has(this.rules.fallback)) return this.entries.get(this.rules.fallback);
    }
    if (this.entries.has("values")) return this.entries.get("values");
    if (this.entries.has("schema")) return this.entries.get("schema");
    const first = this.entries.values().next();
    if (first.done) throw new Error("these rules have no entry");
    return first.value;
  }

  // The instance an entry validates, and the texts function for it.
  target(e, value, texts) {
    if (e.alias === null) return [value, texts];
    // a subchart: its defaults with the parent's part merged over them, as Helm does
    const mine = value && typeof value === "object" && !Array.isArray(value) ? value[e.alias] : undefined;
    const inst = mergeValues(e.defaults, mine && typeof mine === "object" && !Array.isArray(mine) ? mine : null);
    const pre = "/" + escSeg(e.alias), dt = e.defaultsTexts;
    const t = (ptr) => {
      if (lookup(mine, ptr) !== undefined) return texts ? texts(pre + ptr) : undefined;
      return dt ? dt[ptr] : undefined;
    };
    return [inst === null ? {} : inst, t];
  }

  validate(value, opts = {}) {
    return this.run(value, opts, null);
  }

  // Validate `value` after a change at `pointer` (a JSON pointer into it):
  // the result is what validate(value) gives; only the records applied on
  // the way from the root to `pointer` and the subtree below it are run
  // again, the rest comes from the previous calls' results.
  revalidate(value, pointer = "", opts = {}) {
    if (typeof pointer !== "string") throw new TypeError("pointer must be a JSON pointer string");
    if (this.cache === null) this.cache = new WeakMap();
    return this.run(value, opts, pointer === "" ? [] : pointer.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~")));
  }

  run(value, opts, changed) {
    const texts = normTexts(opts && opts.texts);
    const e = this.entry(opts && opts.entry, value);
    const [inst, t] = this.target(e, value, texts);
    const c = new Ctx(this, e, t);
    const res = { items: [], total: 0, warnings: [] };
    c.res = res;
    c.max = this.maxErrors;
    if (changed !== null && !e.dynamic) {
      c.cache = this.cache;
      c.changed = changed;
    }
    // a verdict first (no messages, no path): most values are valid, and
    // then that is the whole answer; else the full run below lists why
    if (changed === null && !this.warns) {
      const q = new Ctx(this, e, t);
      let valid = false;
      try {
        valid = vNode(q, e.root, inst, null);
      } catch (err) {
        if (!(err instanceof RangeError)) throw err;
      }
      if (valid && q.fatal === null) {
        this.lastApplied = q.applied;
        const out = [];
        out.total = 0;
        out.valid = true;
        return out;
      }
    }
    let ok = false;
    try {
      ok = vNode(c, e.root, inst, null);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      // the engine's stack ran out before maxDepth: the same fatal error
      c.fatal = null;
      fatal(c, this.msg("DEPTH", this.maxDepth, this.ptrOf(c.lastRec || e.root)));
    }
    this.lastApplied = c.applied;
    const out = res.items;
    for (const w of res.warnings) out.push(w);
    if (c.fatal) out.push(c.fatal);
    out.total = res.total;
    out.valid = ok && !c.fatal;
    return out;
  }
}

function normTexts(t) {
  if (!t) return null;
  if (typeof t === "function") return t;
  if (t instanceof Map) return (p) => t.get(p);
  if (typeof t === "object") return (p) => (Object.prototype.hasOwnProperty.call(t, p) ? t[p] : undefined);
  return null;
}

function lookup(v, ptr) {
  if (ptr === "") return v;
  const segs = ptr.split("/");
  for (let i = 1; i < segs.length; i++) {
    if (v === null || typeof v !== "object") return undefined;
    const k = segs[i].replace(/~1/g, "/").replace(/~0/g, "~");
    if (!Object.prototype.hasOwnProperty.call(v, k)) return undefined;
    v = v[k];
  }
  return v;
}

// Helm's coalescing (src/dialect/merge.c): maps merge deeply, `over` wins,
// a null in `over` deletes the key.
export function mergeValues(base, over, depth = 0) {
  if (over === null || over === undefined) return base === undefined ? null : base;
  const isMap = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  if (!isMap(base) || !isMap(over) || depth > 500) return over;
  const m = {};
  for (const k of Object.keys(base)) {
    const has = Object.prototype.hasOwnProperty.call(over, k);
    const ov = has ? over[k] : undefined;
    if (has && ov === null) continue;
    defineKey(m, k, mergeValues(base[k], has ? ov : undefined, depth + 1));
  }
  for (const k of Object.keys(over)) {
    if (Object.prototype.hasOwnProperty.call(base, k) || over[k] === null) continue;
    defineKey(m, k, over[k]);
  }
  return m;
}

function defineKey(o, k, v) {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

class Ctx {
  constructor(v, entry, texts) {
    this.v = v;
    this.res = null;
    this.max = 1000;
    this.path = [];
    this.scope = [];
    this.refS = [];
    this.refI = [];
    this.depth = 0;
    this.fatal = null;
    this.texts = texts;
    this.dynamic = entry.dynamic;
    this.cache = null;
    this.changed = null;
    this.lastRec = null;
    this.maxSeen = 0;
    this.applied = 0;         // records applied: the work done (Validator.lastApplied)
    this.maxDepth = v.maxDepth;
  }
}

// ---- messages ------------------------------------------------------------------------

function plainKey(k) {
  if (k.length === 0) return false;
  for (let i = 0; i < k.length; i++) {
    const c = k.charCodeAt(i);
    if (c === 0x2e || c === 0x5b || c === 0x5d || c === 0x22 || c <= 0x20) return false;
  }
  return true;
}

function pathStrings(path, v) {
  let p = "", k = "";
  for (let i = 0; i < path.length; i++) {
    const g = path[i];
    if (typeof g === "string") {
      p += "/" + escSeg(g);
      if (plainKey(g)) k += (k.length ? "." : "") + g;
      else k += "[" + jsonStr(g) + "]";
    } else {
      p += "/" + g;
      k += "[" + g + "]";
    }
  }
  return [p, k.length ? k : v.msg("ROOT_KEY")];
}

function ptrOfPath(path) {
  let p = "";
  for (let i = 0; i < path.length; i++) p += "/" + (typeof path[i] === "string" ? escSeg(path[i]) : path[i]);
  return p;
}

// How a number of the value is quoted: as written (the caller's texts), else as JavaScript prints it.
function numText(c, v, ptr) {
  if (c.texts) {
    const t = c.texts(ptr);
    if (typeof t === "string") return t;
  }
  return numString(v);
}

function numString(v) {
  if (typeof v === "bigint") return v.toString();
  if (v === Infinity) return ".inf";
  if (v === -Infinity) return "-.inf";
  if (v !== v) return ".nan";
  return String(v);
}

const YAML_INT = /^[-+]?(?:0|[1-9][0-9_]*|0[0-7_]+|0o[0-7_]+|0x[0-9a-fA-F_]+|0b[01_]+)$/;

// "integer" or "number", as the C loader types the number (by its text when known).
function numWord(c, v, ptr) {
  if (c.texts) {
    const t = c.texts(ptr);
    if (typeof t === "string") return YAML_INT.test(t) ? "integer" : "number";
  }
  return typeof v === "bigint" || Number.isInteger(v) ? "integer" : "number";
}

function typeWord(c, v, k, ptr) {
  switch (k) {
    case K_NULL: return "null";
    case K_BOOL: return "boolean";
    case K_NUM: return numWord(c, v, ptr);
    case K_STR: return "string";
    case K_OBJ: return "object";
    default: return "array";
  }
}

// Compact JSON with numbers as written; stops past `stop` bytes (validate.c show_json).
function showJson(c, v, ptr, out, stop, depth) {
  if (out.n > stop) return;
  const k = kindOf(v);
  let s;
  switch (k) {
    case K_NUM: s = numText(c, v, ptr); break;
    case K_NULL: s = "null"; break;
    case K_BOOL: s = v ? "true" : "false"; break;
    case K_STR: s = jsonStr(v); break;
    default: {
      if (depth > 64) { s = k === K_OBJ ? "{...}" : "[...]"; break; }
      out.push(k === K_OBJ ? "{" : "[");
      if (k === K_ARR) {
        for (let i = 0; i < v.length && out.n <= stop; i++) {
          if (i) out.push(",");
          showJson(c, v[i], ptr + "/" + i, out, stop, depth + 1);
        }
      } else {
        let i = 0;
        for (const key in v) {
          if (out.n > stop) break;
          if (i++) out.push(",");
          out.push(jsonStr(key) + ":");
          showJson(c, v[key], ptr + "/" + escSeg(key), out, stop, depth + 1);
        }
      }
      out.push(k === K_OBJ ? "}" : "]");
      return;
    }
  }
  out.push(s);
}

class Out {
  constructor() { this.s = ""; this.n = 0; }
  push(x) { this.s += x; this.n += utf8Len(x); }
}

// The short rendering of a value that messages quote (validate.c show()).
function show(c, v, ptr) {
  if (typeof v === "string") {
    if (utf8Len(v) > 60) return jsonStr(utf8Cut(v, 57)) + "...";
    return jsonStr(v);
  }
  const o = new Out();
  showJson(c, v, ptr, o, 60, 0);
  if (o.n > 60) return utf8Cut(o.s, 57) + "...";
  return o.s;
}

function schemaAt(v, s, kw) {
  let line, col;
  const f = v.files[s.at[0]];
  const l = kw !== null && kw !== "false" && s.loc !== null ? s.loc[kw] : undefined;
  if (l !== undefined) { line = l[0]; col = l[1]; } else { line = s.at[1]; col = s.at[2]; }
  return f === null || f === undefined ? "" : f + ":" + line + ":" + col;
}

function record(c, warn, s, kw, message) {
  const r = c.res;
  if (r === null) return;
  const list = warn ? r.warnings : r.items;
  if (warn) {
    if (r.warnings.length >= c.max) return;
  } else {
    r.total++;
    if (r.items.length >= c.max) return;
  }
  const [p, k] = pathStrings(c.path, c.v);
  const e = { path: p, key: k, keyword: kw, message, schema_at: schemaAt(c.v, s, kw),
    schemaPath: c.v.ptrOf(s) + (kw !== "false" ? "/" + escSeg(kw) : "") };
  if (warn) e.warning = true;
  list.push(e);
}

function verr(c, s, kw, message) {
  record(c, false, s, kw, message);
}

function fatal(c, message) {
  if (c.fatal) return false;
  c.fatal = { path: ptrOfPath(c.path), key: pathStrings(c.path, c.v)[1], keyword: null, message, schema_at: "", fatal: true };
  return false;
}

// ---- the walk (validate.c v_node and friends) --------------------------------------------

function follow(c, t, inst, ev, from, kw) {
  for (let i = c.refI.length; i-- > 0 && c.refI[i] === inst;)
    if (c.refS[i] === t)
      return fatal(c, c.v.msg("REF_LOOP", kw, c.v.ptrOf(t), kw, c.v.ptrOf(from)));
  c.refS.push(t);
  c.refI.push(inst);
  const ok = vNode(c, t, inst, ev);
  c.refS.pop();
  c.refI.pop();
  return ok;
}

function dynamicTarget(c, s) {
  const res = c.v.resources;
  for (let i = 0; i < c.scope.length; i++) {
    const r = res[c.scope[i]];
    if (s.dynKind === 2) {
      if (r.recursive !== null) return r.recursive;
      continue;
    }
    const a = r.anchors.get(s.dynName);
    if (a !== undefined) return a;
  }
  return s.dynref;
}

// Polynomial-risk patterns run natively on strings up to this long (a
// quadratic or cubic blow-up stays small), bounded beyond.
const POLY_NATIVE = 512;

function reMatch(c, pat, str, s, kw) {
  if (pat.error !== null) {
    verr(c, s, kw, c.v.msg("PATTERN_JS", pat.src, pat.error));
    return -1;
  }
  if (pat.bounded !== null && (pat.risk === "exp" || str.length > POLY_NATIVE)) {
    const r = pat.bounded.test(str);
    if (r < 0) {
      verr(c, s, kw, c.v.msg("PATTERN_LIMIT", pat.src, c.v.matchLimit));
      return -1;
    }
    return r;
  }
  return pat.re.test(str) ? 1 : 0;
}

function editDistance(a, b) {
  if (a.length >= 64 || b.length >= 64) return 999;
  const n = a.length, m = b.length;
  const row = new Array(m + 1);
  for (let j = 0; j <= m; j++) row[j] = j;
  for (let i = 1; i <= n; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= m; j++) {
      const ca = a[i - 1], cb = b[j - 1];
      const cost = ca === cb ? 0 : (ca | 32) === (cb | 32) ? 0 : 1;
      const tmp = row[j];
      row[j] = row[j] + 1 < row[j - 1] + 1 ? row[j] + 1 : row[j - 1] + 1;
      if (prev + cost < row[j]) row[j] = prev + cost;
      prev = tmp;
    }
  }
  return row[m];
}

function unexpectedKey(c, s, kw, key) {
  const v = c.v;
  let best = null, bd = 999;
  if (s.propList !== null) {
    const kb = enc.encode(key);
    for (const p of s.propList) {
      const dd = editDistance(kb, enc.encode(p.name));
      if (dd < bd) { bd = dd; best = p; }
    }
    const klen = kb.length;
    if (best !== null && bd <= (klen > 6 ? Math.floor(klen / 3) : 2) && bd < klen) {
      verr(c, s, kw, v.msg("UNEXPECTED_TYPO", key, best.name));
      return;
    }
  }
  if (s.propList !== null && s.propList.length <= 12) {
    let b = "";
    for (let i = 0; i < s.propList.length; i++) b += v.msg(i ? "KEY_LIST_NEXT" : "KEY_LIST_FIRST", s.propList[i].name);
    verr(c, s, kw, v.msg("UNEXPECTED_ALLOWED", key, b));
  } else {
    verr(c, s, kw, v.msg("UNEXPECTED", key));
  }
}

function typeNames(v, t) {
  const tn = [[T_NULL, "null"], [T_BOOL, "boolean"], [T_INT, "integer"], [T_NUM, "number"],
    [T_STR, "string"], [T_OBJ, "object"], [T_ARR, "array"]];
  if (t & T_NUM) t &= ~T_INT;
  let s = "", any = false;
  for (const [bit, w] of tn)
    if (t & bit) { s += (any ? v.msg("TYPE_OR") : "") + w; any = true; }
  return any ? s : v.msg("TYPE_NOTHING");
}

function branchScore(r, depthPath) {
  let score = r.total;
  for (const e of r.items) {
    let depth = 0;
    for (let i = 0; i < e.path.length; i++) if (e.path.charCodeAt(i) === 0x2f) depth++;
    if (depth === depthPath && (e.keyword === "type" || e.keyword === "const" || e.keyword === "enum" || e.keyword === "false"))
      score += 1000;
  }
  return score;
}

function reportClosest(c, s, kw, br, inst) {
  const saved = c.res, bmax = c.max;
  let best = null, bi = 0, bs = Infinity;
  for (let i = 0; i < br.length; i++) {
    const tmp = { items: [], total: 0, warnings: [] };
    c.res = tmp;
    c.max = 20;
    vNode(c, br[i], inst, null);
    const sc = branchScore(tmp, c.path.length);
    if (sc < bs) { best = tmp; bs = sc; bi = i; }
  }
  c.res = saved;
  c.max = bmax;
  const v = c.v;
  if (best !== null && best.items.length) {
    const e = best.items[0];
    verr(c, s, kw, v.msg("CLOSEST", br.length, kw, v.ptrOf(s), kw, bi, e.key, e.message, best.total > 1 ? v.msg("CLOSEST_MORE") : ""));
  } else {
    verr(c, s, kw, v.msg("NO_BRANCH", br.length, kw));
  }
}

// 1 when `s` accepts `inst` by its type alone (validate.c quick_ok).
function quickOk(s, inst, k) {
  if (s.alias !== null || s.kind !== S_SCHEMA) return s.kind === S_TRUE && s.alias === null;
  if (s.need & (N_ENUM | N_APPLY | NEED_BY_KIND[k])) return false;
  if (!(s.need & N_TYPE)) return true;
  if (s.intOrString || s.nullable) return false;
  const it = instType(inst, k);
  return (s.types & it) !== 0 || (it === T_INT && (s.types & T_NUM) !== 0);
}

// A child value: through the cache when revalidating (see Validator.revalidate).
function vChild(c, s, val) {
  if (c.cache === null || val === null || typeof val !== "object") return vNode(c, s, val, null);
  return cachedChild(c, s, val);
}

function cachedChild(c, s, val) {
  // on the changed path, or inside the changed subtree: run again
  const ch = c.changed, p = c.path;
  let rel = 0;   // 1: p is a prefix of ch (on the path); 2: ch is a prefix of p (inside)
  const n = Math.min(ch.length, p.length);
  let same = true;
  for (let i = 0; i < n && same; i++) same = String(p[i]) === ch[i];
  if (same) rel = p.length <= ch.length ? 1 : 2;
  const key = ptrOfPath(p);
  const mode = c.res === null ? 0 : 1;
  let per = c.cache.get(val);
  if (rel === 0 && per !== undefined) {
    const hit = per.get(s.id);
    if (hit !== undefined && hit.path === key && (mode === 0 || hit.mode === 1) &&
        c.depth + hit.depth < c.v.maxDepth) {
      if (c.depth + hit.depth > c.maxSeen) c.maxSeen = c.depth + hit.depth;
      if (mode === 1) {
        for (const e of hit.items) { c.res.total++; if (c.res.items.length < c.max) c.res.items.push(e); }
        c.res.total += hit.total - hit.items.length;
        for (const w of hit.warnings) if (c.res.warnings.length < c.max) c.res.warnings.push(w);
      }
      return hit.ok;
    }
  }
  const saved = c.res, d0 = c.depth;
  const local = mode === 1 ? { items: [], total: 0, warnings: [] } : null;
  const smax = c.max;
  if (local !== null) { c.res = local; c.max = 100000; }
  const seen0 = c.maxSeen;
  c.maxSeen = d0;
  const ok = vNode(c, s, val, null);
  const seen = c.maxSeen;
  c.maxSeen = Math.max(seen0, seen);
  c.res = saved;
  c.max = smax;
  if (local !== null) {
    for (const e of local.items) { saved.total++; if (saved.items.length < c.max) saved.items.push(e); }
    saved.total += local.total - local.items.length;
    for (const w of local.warnings) if (saved.warnings.length < c.max) saved.warnings.push(w);
  }
  if (!c.fatal) {
    if (per === undefined) { per = new Map(); c.cache.set(val, per); }
    per.set(s.id, { ok, path: key, mode, depth: Math.max(1, seen - d0 + 1),
      items: local ? local.items : null, total: local ? local.total : 0, warnings: local ? local.warnings : null });
  }
  return ok;
}

function vObject(c, s, inst, L) {
  let ok = true;
  const v = c.v;
  if (s.minp >= 0 || s.maxp >= 0) {
    let n = 0;
    for (const k in inst) n++;
    if (s.minp >= 0 && n < s.minp) {
      ok = false; if (c.res === null) return false;
      verr(c, s, "minProperties", v.msg("MIN_PROPERTIES", n, s.minp));
    }
    if (s.maxp >= 0 && n > s.maxp) {
      ok = false; if (c.res === null) return false;
      verr(c, s, "maxProperties", v.msg("MAX_PROPERTIES", n, s.maxp));
    }
  }
  if (s.required !== null && s.nreqFast === 0) {
    for (const r of s.required) {
      if (!Object.prototype.hasOwnProperty.call(inst, r)) {
        ok = false; if (c.res === null) return false;
        verr(c, s, "required", v.msg("REQUIRED", r));
      }
    }
  }
  if (s.deps !== null) {
    for (const d of s.deps) {
      if (!Object.prototype.hasOwnProperty.call(inst, d.name)) continue;
      if (d.req !== null) {
        for (const r of d.req) {
          if (!Object.prototype.hasOwnProperty.call(inst, r)) {
            ok = false; if (c.res === null) return false;
            verr(c, s, d.kw, v.msg("DEPENDENT", r, d.name));
          }
        }
      }
      if (d.rec !== null && !vNode(c, d.rec, inst, L)) {
        ok = false; if (c.res === null) return false;
      }
    }
  }
  const props = s.props, pats = s.pats, addl = s.addl, pnames = s.pnames;
  if (props !== null || pats !== null || addl !== null || pnames !== null) {
    let nreq = 0, i = 0;
    const path = c.path, direct = !c.dynamic;
    // the path is for messages and the cache: a verdict alone does not need it
    const track = c.res !== null || c.cache !== null;
    // leaves may skip vLeaf's bookkeeping away from the depth limit and the cache
    const fast = c.cache === null && c.depth < c.maxDepth - 1;
    for (const key in inst) {
      const val = inst[key];
      let matched = false;
      if (track) path.push(key);
      if (props !== null) {
        const p = props.get(key);
        if (p !== undefined) {
          matched = true;
          if (p.req) nreq++;
          const k = kindOf(val);
          if (p.leaf !== null && k < K_OBJ && direct) {
            if (!(fast && leafFast(p.leaf, val, k) === 1) && !vLeaf(c, p.leaf, val, k)) { ok = false; if (c.res === null) { if (track) path.pop(); return false; } }
          } else if (!quickOk(p.rec, val, k) && !(c.cache === null ? vNode(c, p.rec, val, null) : vChild(c, p.rec, val))) {
            ok = false; if (c.res === null) { if (track) path.pop(); return false; }
          }
        }
      }
      if (pats !== null) {
        for (let j = 0; j < pats.length; j++) {
          const pat = pats[j][0], rec = pats[j][1];
          const m = reMatch(c, pat, key, s, "patternProperties");
          if (m < 0) { ok = false; if (c.res === null) { if (track) path.pop(); return false; } continue; }
          if (m) {
            matched = true;
            if (!(c.cache === null ? vNode(c, rec, val, null) : vChild(c, rec, val))) { ok = false; if (c.res === null) { if (track) path.pop(); return false; } }
          }
        }
      }
      if (!matched && addl !== null) {
        const a = addl.alias !== null ? addl.alias : addl;
        matched = true;
        if (a.kind === S_FALSE) {
          ok = false;
          if (c.res === null) { if (track) path.pop(); return false; }
          unexpectedKey(c, s, "additionalProperties", key);
        } else if (s.addlLeaf !== null && (typeof val !== "object" || val === null) && direct) {
          const k = kindOf(val);
          if (!(fast && leafFast(s.addlLeaf, val, k) === 1) && !vLeaf(c, s.addlLeaf, val, k)) { ok = false; if (c.res === null) { if (track) path.pop(); return false; } }
        } else if (!(c.cache === null ? vNode(c, s.addl, val, null) : vChild(c, s.addl, val))) {
          ok = false; if (c.res === null) { if (track) path.pop(); return false; }
        }
      }
      if (matched && L !== null) L[i] = 1;
      if (pnames !== null && !(s.pnamesLeaf !== null && direct ? (fast && leafFast(s.pnamesLeaf, key, K_STR) === 1) || vLeaf(c, s.pnamesLeaf, key, K_STR) : vNode(c, pnames, key, null))) {
        ok = false; if (c.res === null) { if (track) path.pop(); return false; }
      }
      if (track) path.pop();
      i++;
    }
    if (s.nreqFast !== 0 && nreq < s.nreqFast) {
      ok = false; if (c.res === null) return false;
      for (const r of s.required)
        if (!Object.prototype.hasOwnProperty.call(inst, r)) verr(c, s, "required", v.msg("REQUIRED", r));
    }
  }
  return ok;
}

function uniqueCheck(c, s, inst) {
  const n = inst.length;
  if (n < 2) return true;
  if (n <= 16) {
    for (let i = 1; i < n; i++)
      for (let j = 0; j < i; j++)
        if (equal(inst[i], inst[j])) {
          if (c.res !== null) {
            c.path.push(i);
            verr(c, s, "uniqueItems", c.v.msg("UNIQUE", i, j));
            c.path.pop();
          }
          return false;
        }
    return true;
  }
  // by value in linear time: numbers, strings and others each in their own map
  const nums = new Map(), strs = new Map(), other = new Map();
  let ok = true;
  for (let i = 0; i < n && (ok || c.res !== null); i++) {
    const x = inst[i];
    let m, k;
    if (typeof x === "number") { m = nums; k = x === 0 ? 0 : x; }
    else if (typeof x === "string") { m = strs; k = x; }
    else { m = other; k = canon(x); }
    const first = m.get(k);
    if (first !== undefined) {
      ok = false;
      if (c.res !== null) {
        c.path.push(i);
        verr(c, s, "uniqueItems", c.v.msg("UNIQUE", i, first));
        c.path.pop();
      }
    } else {
      m.set(k, i);
    }
  }
  return ok;
}

function vArray(c, s, inst, L) {
  let ok = true;
  const n = inst.length, v = c.v, path = c.path;
  let i;
  if (s.mini >= 0 && n < s.mini) {
    ok = false; if (c.res === null) return false;
    verr(c, s, "minItems", v.msg("MIN_ITEMS", n, s.mini));
  }
  if (s.maxi >= 0 && n > s.maxi) {
    ok = false; if (c.res === null) return false;
    verr(c, s, "maxItems", v.msg("MAX_ITEMS", n, s.maxi));
  }
  if (s.unique && !uniqueCheck(c, s, inst)) {
    ok = false; if (c.res === null) return false;
  }
  const np = s.prefix !== null ? s.prefix.length : 0;
  const track = c.res !== null || c.cache !== null;
  for (i = 0; i < n && i < np; i++) {
    if (track) path.push(i);
    if (!(c.cache === null ? vNode(c, s.prefix[i], inst[i], null) : vChild(c, s.prefix[i], inst[i]))) { ok = false; if (c.res === null) { if (track) path.pop(); return false; } }
    if (track) path.pop();
    if (L !== null) L[i] = 1;
  }
  if (s.items !== null) {
    const it = s.items, fast = c.cache === null && c.depth < c.maxDepth - 1;
    for (; i < n; i++) {
      const x = inst[i];
      if (track) path.push(i);
      const k = kindOf(x);
      if (s.itemsLeaf !== null && k < K_OBJ && !c.dynamic) {
        if (!(fast && leafFast(s.itemsLeaf, x, k) === 1) && !vLeaf(c, s.itemsLeaf, x, k)) { ok = false; if (c.res === null) { if (track) path.pop(); return false; } }
      } else if (!quickOk(it, x, k) && !(c.cache === null ? vNode(c, it, x, null) : vChild(c, it, x))) { ok = false; if (c.res === null) { if (track) path.pop(); return false; } }
      if (track) path.pop();
      if (L !== null) L[i] = 1;
    }
  }
  if (s.contains !== null) {
    const saved = c.res;
    let count = 0;
    c.res = null;
    for (i = 0; i < n; i++) {
      path.push(i);
      if (vNode(c, s.contains, inst[i], null)) {
        count++;
        if (L !== null && s.draft >= 2020) L[i] = 1;
        else if (L === null && s.maxc < 0 && count >= s.minc) { path.pop(); break; }
      }
      path.pop();
    }
    c.res = saved;
    if (count < s.minc) {
      ok = false; if (c.res === null) return false;
      if (count === 0) verr(c, s, "contains", v.msg("CONTAINS"));
      else verr(c, s, "minContains", v.msg("MIN_CONTAINS", count, s.minc));
    }
    if (s.maxc >= 0 && count > s.maxc) {
      ok = false; if (c.res === null) return false;
      verr(c, s, "maxContains", v.msg("MAX_CONTAINS", count, s.maxc));
    }
  }
  return ok;
}

function cpCount(str) {
  let n = str.length;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    if (ch >= 0xdc00 && ch <= 0xdfff && i > 0) {
      const pr = str.charCodeAt(i - 1);
      if (pr >= 0xd800 && pr <= 0xdbff) n--;
    }
  }
  return n;
}

function vString(c, s, inst) {
  let ok = true;
  const v = c.v;
  // a string of n UTF-16 units has between n/2 and n code points: count only when that decides
  if ((s.minl >= 0 && inst.length < 2 * s.minl) || (s.maxl >= 0 && inst.length > s.maxl)) {
    const len = cpCount(inst);
    if (s.minl >= 0 && len < s.minl) {
      ok = false; if (c.res === null) return false;
      verr(c, s, "minLength", v.msg("MIN_LENGTH", len, s.minl));
    }
    if (s.maxl >= 0 && len > s.maxl) {
      ok = false; if (c.res === null) return false;
      verr(c, s, "maxLength", v.msg("MAX_LENGTH", len, s.maxl));
    }
  }
  if (s.pattern !== null) {
    const m = reMatch(c, s.pattern, inst, s, "pattern");
    if (m === 0) {
      ok = false; if (c.res === null) return false;
      verr(c, s, "pattern", v.msg("PATTERN", show(c, inst, ""), s.pattern.src));
    } else if (m < 0) {
      ok = false; if (c.res === null) return false;
    }
  }
  if (s.format !== null) {
    if (s.formatWarn === null) {
      if (!checkFormat(s.formatCheck, inst)) {
        ok = false; if (c.res === null) return false;
        verr(c, s, "format", v.msg("FORMAT", show(c, inst, ""), s.format));
      }
    } else if (c.res !== null && !checkFormat(s.formatCheck, inst)) {
      record(c, true, s, "format", v.msg("FORMAT_WARN", show(c, inst, ""), s.format, s.formatWarn));
    }
  }
  return ok;
}

function numcmp(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

// x = mantissa * 10^exp with the fewest digits (validate.c decimal_parts):
// [mantissa, exp] (mantissa a Number when exact, else a BigInt) or null.
// String(x) prints the shortest digits that read back as x, as C does.
function decimalParts(x) {
  if (Number.isSafeInteger(x)) {
    let m = Math.abs(x), e = 0;
    if (m === 0) return [0, 0];
    while (m % 10 === 0) { m /= 10; e++; }
    return [m, e];
  }
  if (!Number.isFinite(x)) return null;
  const s = String(x);
  let i = s.charCodeAt(0) === 45 ? 1 : 0, m = 0, nd = 0, exp = 0, dot = false;
  for (; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (ch === 46) { dot = true; continue; }
    if (ch === 101) { exp += parseInt(s.slice(i + 1), 10); break; }
    if (nd === 0 && ch === 48) { if (dot) exp--; continue; }
    nd++;
    if (nd <= 15) m = m * 10 + (ch - 48);
    if (dot) exp--;
  }
  if (nd === 0) return [0, 0];
  if (nd > 15) {
    // up to 17 digits: exact as a BigInt
    let t = s.replace(/^-/, "").replace(/e.*$/, "").replace(".", "").replace(/^0+/, "");
    // exp counted the fractional digits; trailing zeros of the mantissa go to it too
    const zeros = t.length - t.replace(/0+$/, "").length;
    t = t.slice(0, t.length - zeros);
    return t.length > 18 ? null : [BigInt(t), exp + zeros];
  }
  while (m % 10 === 0) { m /= 10; exp++; }
  return [m, exp];
}

const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

function multipleOf(x, m, mParts) {
  // m = bm * 10^-k: when x * 10^k is an integer n below 10^15 that divides
  // back to x, x's shortest decimal is n * 10^-k (two decimals of up to 15
  // digits never read as the same double), and the answer is n % bm
  if (mParts !== undefined && mParts !== null && typeof mParts[0] === "number" && mParts[1] <= 0 && mParts[1] >= -15) {
    const p = POW10[-mParts[1]], n = x * p;
    if (Number.isInteger(n) && Math.abs(n) < 1e15 && n / p === x) return n % mParts[0] === 0;
  }
  const a = decimalParts(x), b = mParts !== undefined ? mParts : decimalParts(m);
  if (a !== null && b !== null && b[0] != 0) {   // eslint-disable-line eqeqeq
    const d = a[1] - b[1];
    if (a[0] == 0) return true;                 // eslint-disable-line eqeqeq
    // exact in doubles while everything stays below 2^53
    if (typeof a[0] === "number" && typeof b[0] === "number") {
      if (d >= 0 && d <= 15 && a[0] * POW10[d] <= Number.MAX_SAFE_INTEGER) return (a[0] * POW10[d]) % b[0] === 0;
      if (d < 0 && d >= -15 && b[0] * POW10[-d] <= Number.MAX_SAFE_INTEGER) return a[0] % (b[0] * POW10[-d]) === 0;
    }
    const A = BigInt(a[0]), B = BigInt(b[0]);
    if (d >= 0 && d <= 19) return (A * 10n ** BigInt(d)) % B === 0n;
    if (d < 0 && d >= -19) return A % (B * 10n ** BigInt(-d)) === 0n;
    if (d < -19) return false;
  }
  const q = x / m;
  if (!Number.isFinite(q)) return false;
  return Math.abs(q - Math.round(q)) <= 1e-9 * Math.max(1, Math.abs(q));
}

function vNumber(c, s, inst0) {
  let ok = true;
  const v = c.v, inst = Number(inst0);
  if (s.min !== null && numcmp(inst, s.min.v) < 0) {
    ok = false; if (c.res === null) return false;
    verr(c, s, "minimum", v.msg("MINIMUM", numText(c, inst0, ptrOfPath(c.path)), s.min.t));
  }
  if (s.max !== null && numcmp(inst, s.max.v) > 0) {
    ok = false; if (c.res === null) return false;
    verr(c, s, "maximum", v.msg("MAXIMUM", numText(c, inst0, ptrOfPath(c.path)), s.max.t));
  }
  if (s.exmin !== null && numcmp(inst, s.exmin.v) <= 0) {
    ok = false; if (c.res === null) return false;
    verr(c, s, s.draft === 4 ? "minimum" : "exclusiveMinimum", v.msg("EXCLUSIVE_MINIMUM", numText(c, inst0, ptrOfPath(c.path)), s.exmin.t));
  }
  if (s.exmax !== null && numcmp(inst, s.exmax.v) >= 0) {
    ok = false; if (c.res === null) return false;
    verr(c, s, s.draft === 4 ? "maximum" : "exclusiveMaximum", v.msg("EXCLUSIVE_MAXIMUM", numText(c, inst0, ptrOfPath(c.path)), s.exmax.t));
  }
  if (s.mult !== null && !multipleOf(inst, s.mult.v, s.multParts)) {
    ok = false; if (c.res === null) return false;
    verr(c, s, "multipleOf", v.msg("MULTIPLE_OF", numText(c, inst0, ptrOfPath(c.path)), s.mult.t));
  }
  return ok;
}

function inEnum(s, inst) {
  if (s.enumPrims !== null && (typeof inst !== "object" || inst === null) && inst === inst) return s.enumPrims.has(inst);
  if (s.enumKeys !== null) return s.enumKeys.has(canon(inst));
  const e = s.enumList;
  for (let i = 0; i < e.length; i++) if (equal(inst, e[i])) return true;
  return false;
}

function countKeys(o) {
  let n = 0;
  for (const k in o) n++;
  return n;
}

function vNode(c, s, inst, ev) {
  if (s.loop) return fatal(c, c.v.msg("ALIAS_LOOP", c.v.ptrOf(s)));
  let followed = false;
  if (s.alias !== null) {
    const a = s.alias;
    if (a.kind === S_SCHEMA && !a.loop) {
      // follow(c, a, ...) inline: a collapsed $ref is still an edge of the
      // loop check, and one frame less per level keeps deep schemas in stack
      for (let i = c.refI.length; i-- > 0 && c.refI[i] === inst;)
        if (c.refS[i] === a)
          return fatal(c, c.v.msg("REF_LOOP", "$ref", c.v.ptrOf(a), "$ref", c.v.ptrOf(s)));
      c.refS.push(a);
      c.refI.push(inst);
      followed = true;
    }
    s = a;
  }
  let ok;
  if (!followed && s.loop) ok = fatal(c, c.v.msg("ALIAS_LOOP", c.v.ptrOf(s)));
  else if (s.leaf && s.kind === S_SCHEMA && !c.dynamic && (typeof inst !== "object" || inst === null)) ok = vLeaf(c, s, inst, kindOf(inst));
  else ok = vRecord(c, s, inst, ev);
  if (followed) {
    c.refS.pop();
    c.refI.pop();
  }
  return ok;
}

// 1 when leaf record `s` surely accepts scalar `val` (of kind `k`), 0 when
// the full check (vLeaf) must run: the same verdict as vBody, computed
// without calls for the common leaves, so the member loops stay tight.
function leafFast(s, val, k) {
  if (s.need & N_TYPE) {
    const tk = s.typeByKind[k];
    if (tk !== 1 && (tk === 0 || !Number.isInteger(val))) return 0;
  }
  if (s.enumList !== null && !(s.nullable && k === K_NULL)) {
    if (s.enumPrims === null || val !== val || !s.enumPrims.has(val)) return 0;
  }
  if (s.hasConst && val !== s.constVal) return 0;
  if (k === K_STR) {
    if (s.need & N_STR) {
      if ((s.minl >= 0 && val.length < 2 * s.minl) || (s.maxl >= 0 && val.length > s.maxl)) return 0;
      const p = s.pattern;
      if (p !== null && (p.error !== null || p.bounded !== null || !p.re.test(val))) return 0;
      if (s.format !== null) return 0;
    }
  } else if (k === K_NUM) {
    if (s.need & N_NUM) {
      if (typeof val !== "number") return 0;
      if (s.min !== null && val < s.min.v) return 0;
      if (s.max !== null && val > s.max.v) return 0;
      if (s.exmin !== null && !(val > s.exmin.v)) return 0;
      if (s.exmax !== null && !(val < s.exmax.v)) return 0;
      if (s.mult !== null && !multipleOf(val, s.mult.v, s.multParts)) return 0;
    }
  }
  return 1;
}

// A leaf record on a scalar: what vRecord does, without its bookkeeping
// (nothing below it can nest or need the dynamic scope).
function vLeaf(c, s, inst, k) {
  if (!(s.need & (N_TYPE | N_ENUM | NEED_BY_KIND[k]))) return true;
  if (c.fatal !== null) return false;
  if (c.depth >= c.maxDepth) return fatal(c, c.v.msg("DEPTH", c.v.maxDepth, c.v.ptrOf(s)));
  c.applied++;
  if (c.depth >= c.maxSeen) c.maxSeen = c.depth + 1;
  return vBody(c, s, inst, null, k);
}

function vRecord(c, s, inst, ev) {
  if (s.kind === S_TRUE) return true;
  if (s.kind === S_FALSE) {
    verr(c, s, "false", c.v.msg("FALSE_SCHEMA"));
    return false;
  }
  const k = kindOf(inst);
  if (!(s.need & (N_TYPE | N_ENUM | N_APPLY | NEED_BY_KIND[k]))) return true;
  if (c.fatal !== null) return false;
  if (c.depth >= c.v.maxDepth) return fatal(c, c.v.msg("DEPTH", c.v.maxDepth, c.v.ptrOf(s)));
  c.depth++;
  c.applied++;
  if (c.depth > c.maxSeen) c.maxSeen = c.depth;
  c.lastRec = s;
  let pushed = false;
  if (c.dynamic && s.res >= 0 && (c.scope.length === 0 || c.scope[c.scope.length - 1] !== s.res)) {
    c.scope.push(s.res);
    pushed = true;
  }
  let L = ev, own = null;
  if (s.hasUneval && (k === K_OBJ || k === K_ARR)) {
    own = new Uint8Array((k === K_ARR ? inst.length : countKeys(inst)) + 1);
    L = own;
  }
  let ok;
  // objects and arrays whose type passes, without enum or const: straight to their keywords
  if (k >= K_OBJ && s.enumList === null && !s.hasConst && (!(s.need & N_TYPE) || s.typeByKind[k] === 1))
    ok = k === K_OBJ ? !(s.need & N_OBJ) || vObject(c, s, inst, L) : !(s.need & N_ARR) || vArray(c, s, inst, L);
  else
    ok = vBody(c, s, inst, L, k);
  if ((ok || c.res !== null) && (s.need & N_APPLY) && !vApply(c, s, inst, L, k)) ok = false;
  if (own !== null && ev !== null)
    for (let q = 0; q < own.length && q < ev.length; q++) ev[q] |= own[q];
  if (pushed) c.scope.pop();
  c.depth--;
  if (c.fatal !== null) return false;
  return ok;
}

// The keywords of the value itself: type, enum, const, then its kind's.
function vBody(c, s, inst, L, k) {
  const v = c.v;
  let ok = true;
  if (s.need & N_TYPE) {
    const tk = s.typeByKind[k];
    if (tk !== 1 && (tk === 0 || !Number.isInteger(Number(inst)))) {
      const allowed = s.allowed;
      ok = false;
      if (c.res === null) return false;
      const kw = s.types ? "type" : "x-kubernetes-int-or-string";
      const ptr = ptrOfPath(c.path);
      if (k === K_OBJ || k === K_ARR) verr(c, s, kw, v.msg("TYPE", typeWord(c, inst, k, ptr), typeNames(v, allowed)));
      else verr(c, s, kw, v.msg("TYPE_VALUE", typeWord(c, inst, k, ptr), show(c, inst, ptr), typeNames(v, allowed)));
    }
  }
  if (s.enumList !== null && !(s.nullable && k === K_NULL) && !inEnum(s, inst)) {
    ok = false;
    if (c.res === null) return false;
    verr(c, s, "enum", v.msg("ENUM", show(c, inst, ptrOfPath(c.path)), s.enumText));
  }
  if (s.hasConst && inst !== s.constVal && !equal(inst, s.constVal)) {
    ok = false;
    if (c.res === null) return false;
    verr(c, s, "const", v.msg("CONST", show(c, inst, ptrOfPath(c.path)), s.constText));
  }
  switch (k) {
    case K_STR:
      if ((s.need & N_STR) && !vString(c, s, inst)) ok = false;
      break;
    case K_NUM:
      if ((s.need & N_NUM) && !vNumber(c, s, inst)) ok = false;
      break;
    case K_OBJ:
      if ((s.need & N_OBJ) && !vObject(c, s, inst, L)) ok = false;
      break;
    case K_ARR:
      if ((s.need & N_ARR) && !vArray(c, s, inst, L)) ok = false;
      break;
    default:
      break;
  }
  return ok;
}

// The applicators: $ref, $dynamicRef, allOf, anyOf, oneOf, not, if, then the
// unevaluated* keywords, which see what all the others evaluated.
function vApply(c, s, inst, L, k) {
  const v = c.v;
  let ok = true;
  if (s.ref !== null && !follow(c, s.ref, inst, L, s, "$ref")) { ok = false; if (c.res === null) return false; }
  if (s.dynref !== null) {
    const t = s.dynKind ? dynamicTarget(c, s) : s.dynref;
    if (!follow(c, t, inst, L, s, s.dynKind === 2 ? "$recursiveRef" : "$dynamicRef")) { ok = false; if (c.res === null) return false; }
  }
  if (s.all !== null)
    for (let i = 0; i < s.all.length; i++)
      if (!vNode(c, s.all[i], inst, L)) { ok = false; if (c.res === null) return false; }
  if (s.any !== null && !vAnyOf(c, s, inst, L)) { ok = false; if (c.res === null) return false; }
  if (s.one !== null && !vOneOf(c, s, inst, L)) { ok = false; if (c.res === null) return false; }
  if (s.not !== null) {
    const saved = c.res;
    c.res = null;
    const r = vNode(c, s.not, inst, null);
    c.res = saved;
    if (r) {
      ok = false;
      if (c.res === null) return false;
      verr(c, s, "not", v.msg("NOT", v.ptrOf(s)));
    }
  }
  if (s.if_ !== null) {
    const saved = c.res;
    const nb = L !== null ? L.length : 0;
    const T = L !== null ? new Uint8Array(nb) : null;
    c.res = null;
    const r = vNode(c, s.if_, inst, T);
    c.res = saved;
    if (r && L !== null) for (let q = 0; q < nb; q++) L[q] |= T[q];
    if (r && s.then_ !== null) {
      if (!vNode(c, s.then_, inst, L)) { ok = false; if (c.res === null) return false; }
    } else if (!r && s.else_ !== null) {
      if (!vNode(c, s.else_, inst, L)) { ok = false; if (c.res === null) return false; }
    }
  }
  if ((s.uprops !== null && k === K_OBJ) || (s.uitems !== null && k === K_ARR))
    if (!vUneval(c, s, inst, L, k)) ok = false;
  return ok;
}

function vAnyOf(c, s, inst, L) {
  const saved = c.res, nb = L !== null ? L.length : 0;
  const T = L !== null ? new Uint8Array(nb) : null;
  let any = false;
  c.res = null;
  const scalar = (typeof inst !== "object" || inst === null) && !c.dynamic && c.cache === null && c.depth < c.maxDepth - 1;
  const k = scalar ? kindOf(inst) : 0;
  for (let i = 0; i < s.any.length; i++) {
    if (T !== null) T.fill(0);
    const lf = scalar ? s.anyLeaf[i] : null;
    if (lf !== null ? leafFast(lf, inst, k) === 1 || vLeaf(c, lf, inst, k) : vNode(c, s.any[i], inst, T)) {
      any = true;
      if (L === null) break;
      for (let q = 0; q < nb; q++) L[q] |= T[q];
    }
  }
  c.res = saved;
  if (any) return true;
  if (c.res !== null) reportClosest(c, s, "anyOf", s.any, inst);
  return false;
}

function vOneOf(c, s, inst, L) {
  const saved = c.res, nb = L !== null ? L.length : 0, v = c.v;
  let first = 0, second = 0, matches = 0;
  const T = L !== null ? new Uint8Array(nb) : null, keep = L !== null ? new Uint8Array(nb) : null;
  c.res = null;
  const scalar = (typeof inst !== "object" || inst === null) && !c.dynamic && c.cache === null && c.depth < c.maxDepth - 1;
  const k = scalar ? kindOf(inst) : 0;
  for (let i = 0; i < s.one.length && matches < 2; i++) {
    if (T !== null) T.fill(0);
    const lf = scalar ? s.oneLeaf[i] : null;
    if (lf !== null ? leafFast(lf, inst, k) === 1 || vLeaf(c, lf, inst, k) : vNode(c, s.one[i], inst, T)) {
      if (matches++ === 0) {
        first = i;
        if (keep !== null) keep.set(T);
      } else {
        second = i;
      }
    }
  }
  c.res = saved;
  if (matches === 1 && L !== null) for (let q = 0; q < nb; q++) L[q] |= keep[q];
  if (matches === 1) return true;
  if (c.res !== null) {
    if (matches === 0) reportClosest(c, s, "oneOf", s.one, inst);
    else verr(c, s, "oneOf", v.msg("ONE_OF_MANY", v.ptrOf(s), first, v.ptrOf(s), second));
  }
  return false;
}

function vUneval(c, s, inst, L, k) {
  const v = c.v;
  let ok = true;
  if (s.uprops !== null && k === K_OBJ) {
    let i = 0;
    for (const key in inst) {
      if (L[i]) { i++; continue; }
      c.path.push(key);
      const u = s.uprops.alias !== null ? s.uprops.alias : s.uprops;
      if (u.kind === S_FALSE) {
        ok = false;
        if (c.res === null) { c.path.pop(); return false; }
        verr(c, s, "unevaluatedProperties", v.msg("UNEVALUATED", key));
      } else if (!vNode(c, s.uprops, inst[key], null)) {
        ok = false;
        if (c.res === null) { c.path.pop(); return false; }
      }
      c.path.pop();
      L[i] = 1;
      i++;
    }
  }
  if (s.uitems !== null && k === K_ARR) {
    for (let i = 0; i < inst.length; i++) {
      if (L[i]) continue;
      c.path.push(i);
      if (!vNode(c, s.uitems, inst[i], null)) {
        ok = false;
        if (c.res === null) { c.path.pop(); return false; }
      }
      c.path.pop();
      L[i] = 1;
    }
  }
  return ok;
}
