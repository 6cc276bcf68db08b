// SPDX-License-Identifier: Apache-2.0
// k8s_check.js - validate's Kubernetes layer in the browser (issue 43,
// docs/k8s.md): for a chart whose own schema leaves a key open that its
// evidence types, the rules document carries the key and its definitions
// ("k8s", written by src/source/check_k8s.c); this checks the values there
// as src/k8s/k8s_check.c does, with the same messages: a value the API
// server would refuse is an error ("the Kubernetes API server rejects this
// at install: ..."), a field the type does not have a warning with the
// closest field. `null` (Helm's "delete this key") always passes. Keys the
// templates `omit`, and strings with template text (`{{`), are what the API
// server never sees: no finding. Pure: no DOM.
import { checkFormat } from "./formats.js";
import { editDistance } from "./rules_text.js";

const QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const MAX_DEPTH = 64;
const enc = new TextEncoder();
const REJECTS = "the Kubernetes API server rejects this at install: ";

const isMap = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const esc = (k) => String(k).replace(/~/g, "~0").replace(/\//g, "~1");
const unesc = (t) => t.replace(/~1/g, "/").replace(/~0/g, "~");

// the last segment of a $ref, when it names one of the definitions
function refName(defs, ref) {
  const i = ref.lastIndexOf("/");
  const name = i >= 0 ? ref.slice(i + 1) : ref;
  return Object.prototype.hasOwnProperty.call(defs, name) ? name : null;
}

// A value as C's show() quotes it: `string "..."` (60 bytes at most), an
// object, an array, or its type and text.
function show(v, text) {
  if (typeof v === "string") {
    const b = enc.encode(v);
    return 'string "' + (b.length > 60 ? new TextDecoder().decode(b.slice(0, 60)) + '..."' : v + '"');
  }
  if (Array.isArray(v)) return "an array";
  if (isMap(v)) return "an object";
  if (typeof v === "number") return (Number.isInteger(v) && !(text && /[.eE]/.test(text)) ? "integer " : "number ") + (text || String(v));
  if (typeof v === "boolean") return "boolean " + String(v);
  return "null ";
}

export class K8sLayer {
  // `k8s`: the rules document's "k8s" member; `named`: its "named" table
  constructor(k8s, named) {
    this.keys = (k8s && k8s.keys) || [];
    this.defs = (k8s && k8s.definitions) || {};
    const q = (named || []).find((r) => r[0] === "quantity");
    this.quantityWords = q ? q[2] : "a quantity";
  }

  get empty() { return this.keys.length === 0; }

  // The findings for `values`: [{path, message, warning}] (warning: an
  // unknown field). `texts(ptr)`: a number's text as typed, or undefined.
  check(values, texts) {
    const out = [];
    for (const k of this.keys) {
      const segs = k.ptr === "" ? [] : k.ptr.slice(1).split("/").map(unesc);
      this.at(k, values, segs, 0, "", out, texts || (() => undefined));
    }
    return out;
  }

  at(k, v, segs, i, here, out, texts) {
    if (v === undefined) return;
    if (i === segs.length) {
      if (v === null) return;
      const mine = [];
      const c = { k, out: mine, def: k.type, texts };
      const def = this.defs[k.type];
      if (!def) return;
      if (k.list) {
        if (Array.isArray(v)) v.forEach((it, j) => this.walk(c, it, def.schema, 0, here + "/" + j));
        else this.rejects(c, v, "an array", here);
      } else this.walk(c, v, def.schema, 0, here);
      // warnOnly: the schema (a made one, with the type bundled) checks the
      // value itself; the layer adds the unknown fields, as validate does
      for (const f of mine) if ((f.warning || !k.warnOnly) && !unwritten(v, here, f.path, k.omit)) out.push(f);
      return;
    }
    const s = segs[i];
    if (s === "*" && (isMap(v) || Array.isArray(v))) {
      const ks = Array.isArray(v) ? v.map((_, j) => j) : Object.keys(v);
      for (const key of ks) this.at(k, v[key], segs, i + 1, here + "/" + esc(key), out, texts);
    } else if (isMap(v) && Object.prototype.hasOwnProperty.call(v, s)) {
      this.at(k, v[s], segs, i + 1, here + "/" + esc(s), out, texts);
    }
  }

  label(full) { return (this.defs[full] && this.defs[full].label) || full; }

  tail(c) { return " [" + this.label(c.def) + "; typed by " + c.k.why + "]"; }

  rejects(c, v, expected, path) {
    c.out.push({ path, message: REJECTS + "found " + show(v, c.texts(path)) + ", expected " + expected + this.tail(c), keyword: "kubernetes" });
  }

  walk(c, v, s, depth, path) {
    if (v === undefined || v === null || !s || depth > MAX_DEPTH) return;
    const outer = c.def;
    if (typeof s.$ref === "string") {
      const full = refName(this.defs, s.$ref);
      if (full === null) return;
      if (full === QUANTITY) { this.quantity(c, v, path); return; }
      s = this.defs[full].schema;
      c.def = full;
    } else if (depth === 0 && c.def === QUANTITY) {
      this.quantity(c, v, path);   // a key typed Quantity itself (`size: 8Gi`)
      return;
    }
    if (s["x-kubernetes-preserve-unknown-fields"] !== undefined) { c.def = outer; return; }
    let type = typeof s.type === "string" ? s.type : null;
    if (type === null && (s.properties || s.additionalProperties)) type = "object";
    if (type === "object") this.object(c, v, s, depth, path);
    else if (type === "array") {
      if (!Array.isArray(v)) this.rejects(c, v, "an array", path);
      else v.forEach((it, j) => this.walk(c, it, s.items, depth + 1, path + "/" + j));
    } else if (type !== null) this.scalar(c, v, s, type, path);
    c.def = outer;
  }

  object(c, v, s, depth, path) {
    const props = s.properties, addl = s.additionalProperties;
    if (!isMap(v)) { this.rejects(c, v, "an object", path); return; }
    for (const r of Array.isArray(s.required) ? s.required : []) {
      if (typeof r === "string" && (!Object.prototype.hasOwnProperty.call(v, r) || v[r] === null))
        c.out.push({ path, message: REJECTS + "required field `" + r + "` is missing" + this.tail(c), keyword: "kubernetes" });
    }
    for (const key of Object.keys(v)) {
      let fs = props && Object.prototype.hasOwnProperty.call(props, key) ? props[key] : null;
      if (!fs && isMap(addl)) fs = addl;
      if (!fs) {
        if (props && addl !== true) this.unknown(c, key, props, path + "/" + esc(key));
        continue;
      }
      this.walk(c, v[key], fs, depth + 1, path + "/" + esc(key));
    }
  }

  unknown(c, key, props, path) {
    const kb = enc.encode(key);
    let best = (kb.length > 6 ? Math.floor(kb.length / 3) : 2) + 1, near = null;
    for (const name of Object.keys(props)) {
      const d = editDistance(kb, enc.encode(name));
      if (d < best && d < kb.length) { best = d; near = name; }
    }
    c.out.push({ path, warning: true, keyword: "kubernetes",
      message: "unknown field `" + key + "` of " + this.label(c.def) + ": the Kubernetes API server drops it" +
        (near !== null ? "; did you mean `" + near + "`?" : "") + " [typed by " + c.k.why + "]" });
  }

  quantity(c, v, path) {
    if (typeof v === "number") return;   // Quantity's UnmarshalJSON takes a number too
    if (typeof v !== "string") this.rejects(c, v, "a quantity", path);
    else if (!checkFormat("quantity", v)) this.rejects(c, v, this.quantityWords, path);
  }

  scalar(c, v, s, type, path) {
    const fmt = typeof s.format === "string" ? s.format : null;
    if (type === "string") {
      if (fmt === "int-or-string") {
        if (typeof v === "number" && Number.isInteger(v)) return;
        if (typeof v !== "string") this.rejects(c, v, "an integer or a string", path);
        else if (!checkFormat("int-or-string", v)) {
          const name = enc.encode(v).length > 15 && /^[a-z0-9-]*$/.test(v);
          this.rejects(c, v, name ? "an integer or a port name of at most 15 characters (an IANA service name)"
            : "an integer, a port name (IANA service name) or a percentage", path);
        }
        return;
      }
      if (typeof v !== "string") { this.rejects(c, v, "string", path); return; }
      if (Array.isArray(s.enum) && !s.enum.includes(v)) {
        const want = s.enum.filter((e) => e !== "").map((e) => ' "' + e + '"').join(",");
        this.rejects(c, v, "one of" + want, path);
      }
      return;
    }
    if (type === "integer") {
      const t = c.texts(path);
      if (typeof v !== "number" || !Number.isInteger(v) || (t && /[.eE]/.test(t))) { this.rejects(c, v, "integer", path); return; }
      if (!Number.isSafeInteger(v)) { this.rejects(c, v, "an integer of 64 bits", path); return; }
      if (fmt === "int32" && (v < -2147483648 || v > 2147483647)) this.rejects(c, v, "an integer of 32 bits", path);
      return;
    }
    if (type === "number") { if (typeof v !== "number") this.rejects(c, v, "number", path); return; }
    if (type === "boolean" && typeof v !== "boolean") this.rejects(c, v, "boolean", path);
  }
}

// Whether the finding at `path` is of what the API server never sees: a key
// the templates `omit` (the first segment below `here`), or a string with
// template text, which the templates render first (check_k8s.c unwritten()).
function unwritten(n, here, path, omit) {
  if (path !== here && !path.startsWith(here + "/")) return false;
  const rest = path.slice(here.length);
  const segs = rest === "" ? [] : rest.slice(1).split("/").map(unesc);
  if (segs.length && Array.isArray(omit) && omit.includes(segs[0])) return true;
  for (const s of segs) {
    if (isMap(n)) n = Object.prototype.hasOwnProperty.call(n, s) ? n[s] : undefined;
    else if (Array.isArray(n) && /^[0-9]+$/.test(s)) n = n[Number(s)];
    else n = undefined;
    if (n === undefined) return false;
  }
  return typeof n === "string" && n.includes("{{");
}
