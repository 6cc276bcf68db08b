// SPDX-License-Identifier: Apache-2.0
// rules.js - the interpreter of schemadoc's rules documents (docs/rules.md):
// plain JavaScript values in, the C validator's errors out (same verdicts,
// same order, same message text as `schemadoc validate --output json`).
//
// compile(rules) indexes the records (no code is generated: no eval, no
// new Function); validator.validate(value) walks the value and the records
// together exactly as src/validate/validate.c does; validator.revalidate()
// does the same but reuses cached results of the subtrees a change at one
// pointer cannot affect. Pure functions of their arguments, no DOM: runs in
// node and in a browser under a strict CSP. The walk: rules_walk.js; values
// and messages: rules_text.js; formats: formats.js; patterns that can
// backtrack catastrophically run on the bounded matcher in regex.js.
import { compileBounded } from "./regex.js";
import { T_NULL, T_BOOL, T_INT, T_NUM, T_STR, T_OBJ, T_ARR, N_APPLY, S_SCHEMA, S_TRUE, S_FALSE, fmtArgs, canon, escSeg, fatal, decimalParts, multipleOf } from "./rules_text.js";
import { vNode } from "./rules_walk.js";
import { KEYWORDS, F_COUNT, F_NUM, F_REC, F_RECS, F_FLAG } from "./rules_kw.js";

export const RULES_VERSION = 1;

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
    this.int_or_string = false;
    this.embedded = false;     // x-kubernetes-embedded-resource
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
    this.propBytes = null;     // [Uint8Array] the names' UTF-8 (did-you-mean), made when first needed
    this.pats = null;          // [[Pat, Rec]]
    this.addl = null; this.pnames = null; this.uprops = null; this.uitems = null;
    this.mini = -1; this.maxi = -1; this.minc = -1; this.maxc = -1;
    this.unique = false;
    this.prefix = null;
    this.items = null;
    this.contains = null;
    this.all = null; this.any = null; this.one = null;
    this.not_ = null; this.if_ = null; this.then_ = null; this.else_ = null;
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
    // the named formats (vnamed.h): a refused value is worded by name
    this.namedFormat = new Map();
    this.namedPattern = new Map();
    for (const [f, re, words] of rules.named || []) {
      this.namedFormat.set(f, words);
      if (typeof re === "string") this.namedPattern.set(re, words);
    }
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
    // the fields keywords.def reads generically (rules_kw.js); every field
    // present sets its row's need bit (N_*), as compiling it does in C
    for (const [, key, kind, prop, need] of KEYWORDS) {
      if (key === 0) continue;
      const v = j[key];
      if (v === undefined) continue;
      switch (kind) {
        case F_COUNT: s[prop] = v; break;
        case F_NUM: s[prop] = new Num(v); break;
        case F_REC: s[prop] = rec(v); break;
        case F_RECS: s[prop] = recs(v); break;
        case F_FLAG: s[prop] = !!v; break;
        default: break;   // F_OWN: below
      }
      s.need |= need;
    }
    if (j.dynamicRef) {
      s.dynref = R[j.dynamicRef[0]];
      const how = j.dynamicRef[1];
      if (typeof how === "string") { s.dynKind = 1; s.dynName = how; } else if (how === true) s.dynKind = 2;
    }
    s.types = j.type || 0;
    if (j.enum) {
      s.enumList = j.enum;
      s.enumText = j.enumText;
      if (j.enum.length > 8) s.enumKeys = new Set(j.enum.map((v) => canon(v)));
      if (j.enum.every((v) => v === null || (typeof v !== "object" && v === v))) s.enumPrims = new Set(j.enum);
    }
    if ("const" in j) { s.hasConst = true; s.constVal = j.const; s.constText = j.constText; }
    if (j.pattern !== undefined) s.pattern = this.pats[j.pattern];
    if (j.format) {
      s.format = j.format;
      s.formatCheck = j.formatCheck || j.format;   /* the exporter names the check to run */
      s.formatWarn = j.formatWarn || null;
    }
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
    s.contains = rec(j.contains);
    if (j.minContains !== undefined) s.minc = j.minContains;
    if (j.maxContains !== undefined) s.maxc = j.maxContains;
    s.loc = j.loc || null;
    s.hasUneval = !!(s.uprops || s.uitems);
    s.leaf = !(s.need & N_APPLY) && !s.hasUneval;
    s.allowed = s.types | (s.int_or_string ? T_INT | T_STR : 0) | (s.nullable ? T_NULL : 0);
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

// Helm's coalescing (src/helm/merge.c): maps merge deeply, `over` wins,
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
