// SPDX-License-Identifier: Apache-2.0
// rules_text.js - the values and the words of rules.js's messages: kinds
// and types of JavaScript values, equality and canonical keys by value (as
// validate.c compares), decimal arithmetic for multipleOf, and the renderings
// the C side prints (JSON strings escaped as buf.c does, numbers as written,
// values cut at 60 bytes, key paths and JSON pointers), plus recording an
// error in the result. Pure functions; imported by rules_walk.js and rules.js.

// instance kinds, as the C loader's (SD_NULL ... SD_SEQ)
export const K_NULL = 0;
export const K_BOOL = 1;
export const K_NUM = 2;
export const K_STR = 4;
export const K_OBJ = 5;
export const K_ARR = 6;
// type bits (vprog.h T_*) and what a record checks (N_*)
export const T_NULL = 1;
export const T_BOOL = 2;
export const T_INT = 4;
export const T_NUM = 8;
export const T_STR = 16;
export const T_OBJ = 32;
export const T_ARR = 64;
export const N_TYPE = 1;
export const N_ENUM = 2;
export const N_STR = 4;
export const N_NUM = 8;
export const N_OBJ = 16;
export const N_ARR = 32;
export const N_APPLY = 64;
export const NEED_BY_KIND = [0, 0, N_NUM, N_NUM, N_STR, N_OBJ, N_ARR];
export const S_SCHEMA = 0;
export const S_TRUE = 1;
export const S_FALSE = 2;
export function kindOf(v) {
  switch (typeof v) {
    case "string": return K_STR;
    case "number": return K_NUM;
    case "boolean": return K_BOOL;
    case "object": return v === null ? K_NULL : Array.isArray(v) ? K_ARR : K_OBJ;
    case "bigint": return K_NUM;
    default: return K_NULL;
  }
}

export function instType(v, k) {
  switch (k) {
    case K_NULL: return T_NULL;
    case K_BOOL: return T_BOOL;
    case K_NUM: return Number.isInteger(Number(v)) ? T_INT : T_NUM;
    case K_STR: return T_STR;
    case K_OBJ: return T_OBJ;
    default: return T_ARR;
  }
}

export function fmtArgs(fmt, args) {
  let i = 0;
  return fmt.replace(/%(?:zu|lld|lu|d|s|%)/g, (m) => (m === "%%" ? "%" : String(args[i++])));
}

// ---- values: equality, canonical keys, rendering ------------------------------------

export function equal(a, b, depth = 0) {
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
export function canon(v, depth = 0) {
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

export const enc = new TextEncoder();
export function utf8Len(s) {
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
export function utf8Cut(s, max) {
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
export function jsonStr(s) {
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

export function escSeg(k) {
  return k.indexOf("~") < 0 && k.indexOf("/") < 0 ? k : k.replace(/~/g, "~0").replace(/\//g, "~1");
}

// ---- messages ------------------------------------------------------------------------

export function plainKey(k) {
  if (k.length === 0) return false;
  for (let i = 0; i < k.length; i++) {
    const c = k.charCodeAt(i);
    if (c === 0x2e || c === 0x5b || c === 0x5d || c === 0x22 || c <= 0x20) return false;
  }
  return true;
}

export function pathStrings(path, v) {
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

export function ptrOfPath(path) {
  let p = "";
  for (let i = 0; i < path.length; i++) p += "/" + (typeof path[i] === "string" ? escSeg(path[i]) : path[i]);
  return p;
}

// How a number of the value is quoted: as written (the caller's texts), else as JavaScript prints it.
export function numText(c, v, ptr) {
  if (c.texts) {
    const t = c.texts(ptr);
    if (typeof t === "string") return t;
  }
  return numString(v);
}

export function numString(v) {
  if (typeof v === "bigint") return v.toString();
  if (v === Infinity) return ".inf";
  if (v === -Infinity) return "-.inf";
  if (v !== v) return ".nan";
  return String(v);
}

export const YAML_INT = /^[-+]?(?:0|[1-9][0-9_]*|0[0-7_]+|0o[0-7_]+|0x[0-9a-fA-F_]+|0b[01_]+)$/;

// "integer" or "number", as the C loader types the number (by its text when known).
export function numWord(c, v, ptr) {
  if (c.texts) {
    const t = c.texts(ptr);
    if (typeof t === "string") return YAML_INT.test(t) ? "integer" : "number";
  }
  return typeof v === "bigint" || Number.isInteger(v) ? "integer" : "number";
}

export function typeWord(c, v, k, ptr) {
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
export function showJson(c, v, ptr, out, stop, depth) {
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

export class Out {
  constructor() { this.s = ""; this.n = 0; }
  push(x) { this.s += x; this.n += utf8Len(x); }
}

// The short rendering of a value that messages quote (validate.c show()).
export function show(c, v, ptr) {
  if (typeof v === "string") {
    if (utf8Len(v) > 60) return jsonStr(utf8Cut(v, 57)) + "...";
    return jsonStr(v);
  }
  const o = new Out();
  showJson(c, v, ptr, o, 60, 0);
  if (o.n > 60) return utf8Cut(o.s, 57) + "...";
  return o.s;
}

export function schemaAt(v, s, kw) {
  let line, col;
  const f = v.files[s.at[0]];
  const l = kw !== null && kw !== "false" && s.loc !== null ? s.loc[kw] : undefined;
  if (l !== undefined) { line = l[0]; col = l[1]; } else { line = s.at[1]; col = s.at[2]; }
  return f === null || f === undefined ? "" : f + ":" + line + ":" + col;
}

export function record(c, warn, s, kw, message) {
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

export function verr(c, s, kw, message) {
  record(c, false, s, kw, message);
}

export function fatal(c, message) {
  if (c.fatal) return false;
  c.fatal = { path: ptrOfPath(c.path), key: pathStrings(c.path, c.v)[1], keyword: null, message, schema_at: "", fatal: true };
  return false;
}

export function typeNames(v, t) {
  const tn = [[T_NULL, "null"], [T_BOOL, "boolean"], [T_INT, "integer"], [T_NUM, "number"],
    [T_STR, "string"], [T_OBJ, "object"], [T_ARR, "array"]];
  if (t & T_NUM) t &= ~T_INT;
  let s = "", any = false;
  for (const [bit, w] of tn)
    if (t & bit) { s += (any ? v.msg("TYPE_OR") : "") + w; any = true; }
  return any ? s : v.msg("TYPE_NOTHING");
}

// The edit distance of byte strings a and b (ASCII case ignored); 999 when
// either is 64 bytes or longer, or when it is over `cap` (given: the row's
// least value over cap, the distance is too).
const ED_ROW = new Int32Array(65);   // one row, reused
export function editDistance(a, b, cap = 999) {
  if (a.length >= 64 || b.length >= 64) return 999;
  const n = a.length, m = b.length;
  const row = ED_ROW;
  for (let j = 0; j <= m; j++) row[j] = j;
  for (let i = 1; i <= n; i++) {
    let prev = row[0];
    row[0] = i;
    let least = i;
    for (let j = 1; j <= m; j++) {
      const ca = a[i - 1], cb = b[j - 1];
      const cost = ca === cb ? 0 : (ca | 32) === (cb | 32) ? 0 : 1;
      const tmp = row[j];
      row[j] = row[j] + 1 < row[j - 1] + 1 ? row[j] + 1 : row[j - 1] + 1;
      if (prev + cost < row[j]) row[j] = prev + cost;
      if (row[j] < least) least = row[j];
      prev = tmp;
    }
    if (least > cap) return 999;
  }
  return row[m] > cap ? 999 : row[m];
}

export function numcmp(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

// x = mantissa * 10^exp with the fewest digits (validate.c decimal_parts):
// [mantissa, exp] (mantissa a Number when exact, else a BigInt) or null.
// String(x) prints the shortest digits that read back as x, as C does.
export function decimalParts(x) {
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

export const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

export function multipleOf(x, m, mParts) {
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
    if (d >= 0) return (A * 10n ** BigInt(d)) % B === 0n;   // 1e308 / 1e-308 too
    if (d < 0 && d >= -19) return A % (B * 10n ** BigInt(-d)) === 0n;
    if (d < -19) return false;
  }
  const q = x / m;
  if (!Number.isFinite(q)) return false;
  return Math.abs(q - Math.round(q)) <= 1e-9 * Math.max(1, Math.abs(q));
}

export function cpCount(str) {
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

export function countKeys(o) {
  let n = 0;
  for (const k in o) n++;
  return n;
}
