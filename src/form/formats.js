// SPDX-License-Identifier: Apache-2.0
// formats.js - the `format` checks of src/validate/format.c and idna.c, in
// JavaScript: checkFormat(name, string) -> true when valid. The checks run
// on the UTF-8 bytes of the string, as the C ones do, so that lengths and
// positions mean the same thing. Unicode properties come from RegExp \p{...}
// (general category, script extensions); the bidirectional classes, which
// RegExp cannot ask for, from bidi.js (generated from PCRE2's tables).
import { BIDI_RUNS } from "./bidi.js";

const enc = new TextEncoder();

const isDigit = (c) => c >= 0x30 && c <= 0x39;
const isAlpha = (c) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isAlnum = (c) => isDigit(c) || isAlpha(c);
const isXdigit = (c) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
// strchr(set, c) != NULL: also true for NUL, as in C
const inSet = (set, c) => c === 0 || set.indexOf(String.fromCharCode(c)) >= 0;
const lower = (c) => (c >= 0x41 && c <= 0x5a ? c + 32 : c);

function digits(s, i, n) {
  let v = 0;
  for (let k = 0; k < n; k++) {
    if (i + k >= s.length || !isDigit(s[i + k])) return -1;
    v = v * 10 + (s[i + k] - 0x30);
  }
  return v;
}

const isLeap = (y) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

function checkDate(s, o, n) {
  const mdays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (n !== 10 || s[o + 4] !== 0x2d || s[o + 7] !== 0x2d) return false;
  const y = digits(s, o, 4), m = digits(s, o + 5, 2), d = digits(s, o + 8, 2);
  if (y < 0 || m < 0 || d < 0) return false;
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= mdays[m - 1] + (m === 2 && isLeap(y) ? 1 : 0);
}

function checkTime(s, o, n) {
  let oh = 0, om = 0, sign = 0, i = 8;
  if (n < 9 || s[o + 2] !== 0x3a || s[o + 5] !== 0x3a) return false;
  const h = digits(s, o, 2), mi = digits(s, o + 3, 2), sec = digits(s, o + 6, 2);
  if (h < 0 || mi < 0 || sec < 0) return false;
  if (h > 23 || mi > 59 || sec > 60) return false;
  if (i < n && s[o + i] === 0x2e) {
    const start = ++i;
    while (i < n && isDigit(s[o + i])) i++;
    if (i === start) return false;
  }
  if (i >= n) return false;
  const c = s[o + i];
  if ((c === 0x5a || c === 0x7a) && i + 1 === n) {
    sign = 0;
  } else if ((c === 0x2b || c === 0x2d) && n - i === 6 && s[o + i + 3] === 0x3a) {
    oh = digits(s, o + i + 1, 2);
    om = digits(s, o + i + 4, 2);
    if (oh < 0 || om < 0 || oh > 23 || om > 59) return false;
    sign = c === 0x2b ? 1 : -1;
  } else {
    return false;
  }
  if (sec === 60) {
    let utc = h * 60 + mi - sign * (oh * 60 + om);
    utc = ((utc % 1440) + 1440) % 1440;
    if (utc !== 23 * 60 + 59) return false;
  }
  return true;
}

function checkDateTime(s) {
  const n = s.length;
  if (n < 20 || (s[10] !== 0x54 && s[10] !== 0x74)) return false;
  return checkDate(s, 0, 10) && checkTime(s, 11, n - 11);
}

function checkDuration(s) {
  const n = s.length;
  let i = 1, any = false, inTime = false, last = -1;
  if (n < 2 || s[0] !== 0x50) return false;
  if (s[n - 1] === 0x57) {
    for (i = 1; i < n - 1; i++) if (!isDigit(s[i])) return false;
    return n > 2;
  }
  while (i < n) {
    if (s[i] === 0x54) {
      if (inTime) return false;
      inTime = true;
      last = -1;
      i++;
      if (i >= n) return false;
      continue;
    }
    const start = i;
    while (i < n && isDigit(s[i])) i++;
    if (i === start || i >= n) return false;
    const units = inTime ? "HMS" : "YMD";
    if (s[i] === 0) return false;
    const idx = units.indexOf(String.fromCharCode(s[i]));
    if (idx < 0) return false;
    if (last >= 0 && idx !== last + 1) return false;
    last = idx;
    any = true;
    i++;
  }
  if (inTime && last < 0) return false;
  return any;
}

function checkIpv4(s, o = 0, n = s.length) {
  let i = 0;
  for (let part = 0; part < 4; part++) {
    let start = i, v = 0;
    if (part) {
      if (i >= n || s[o + i] !== 0x2e) return false;
      start = ++i;
    }
    while (i < n && isDigit(s[o + i]) && i - start < 4) v = v * 10 + (s[o + i++] - 0x30);
    if (i === start || i - start > 3 || v > 255 || (s[o + start] === 0x30 && i - start > 1)) return false;
  }
  return i === n;
}

function checkIpv6(s, o = 0, n = s.length) {
  let groups = 0, dbl = false, i = 0;
  if (n < 2) return false;
  if (s[o] === 0x3a) {
    if (s[o + 1] !== 0x3a) return false;
    dbl = true;
    i = 2;
    if (i === n) return true;
  }
  while (i < n) {
    const start = i;
    while (i < n && isXdigit(s[o + i]) && i - start < 5) i++;
    if (i < n && s[o + i] === 0x2e) {
      if (!checkIpv4(s, o + start, n - start)) return false;
      groups += 2;
      i = n;
      break;
    }
    if (i === start || i - start > 4) return false;
    groups++;
    if (i === n) break;
    if (s[o + i] !== 0x3a) return false;
    i++;
    if (i < n && s[o + i] === 0x3a) {
      if (dbl) return false;
      dbl = true;
      i++;
      if (i === n) break;
    } else if (i === n) {
      return false;
    }
  }
  return dbl ? groups < 8 : groups === 8;
}

function checkEmail(s, idn) {
  const n = s.length;
  let at = -1, i;
  if (n && s[0] === 0x22) {
    for (i = 1; i < n && s[i] !== 0x22; i++) if (s[i] === 0x5c) i++;
    if (i + 1 >= n || s[i + 1] !== 0x40) return false;
    at = i + 1;
  } else {
    for (i = 0; i < n; i++) if (s[i] === 0x40) at = i;
    if (at < 0) return false;
    const local = at;
    if (local === 0 || s[0] === 0x2e || s[local - 1] === 0x2e) return false;
    for (i = 0; i < local; i++) {
      const c = s[i];
      if (c === 0x2e && s[i + 1] === 0x2e) return false;
      if (!(isAlnum(c) || inSet(".!#$%&'*+-/=?^_`{|}~", c) || (idn && c >= 0x80)) || c === 0) return false;
    }
  }
  const d = at + 1, dn = n - d;
  if (dn >= 2 && s[d] === 0x5b && s[d + dn - 1] === 0x5d) {
    if (dn > 7 && ascii(s, d + 1, 5) === "IPv6:") return checkIpv6(s, d + 6, dn - 7);
    return checkIpv4(s, d + 1, dn - 2);
  }
  return hostname(s.subarray(d), idn);
}

function ascii(s, o, n) {
  let r = "";
  for (let i = 0; i < n && o + i < s.length; i++) r += String.fromCharCode(s[o + i]);
  return r;
}

function checkUuid(s) {
  if (s.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (s[i] !== 0x2d) return false;
    } else if (!isXdigit(s[i])) {
      return false;
    }
  }
  return true;
}

function uriChars(s, o, n, extra, iri) {
  for (let i = 0; i < n; i++) {
    const c = s[o + i];
    if (c === 0x25) {
      if (i + 2 >= n || !isXdigit(s[o + i + 1]) || !isXdigit(s[o + i + 2])) return false;
      i += 2;
      continue;
    }
    if (isAlnum(c) || inSet("-._~!$&'()*+,;=", c) || (c && extra.indexOf(String.fromCharCode(c)) >= 0)) continue;
    if (iri && c >= 0x80) continue;
    return false;
  }
  return true;
}

function indexOfByte(s, c, from, to) {
  for (let i = from; i < to; i++) if (s[i] === c) return i;
  return -1;
}

function checkUriRef(s, absolute, iri) {
  const n = s.length;
  let i = 0, schemeEnd = 0;
  if (n && indexOfByte(s, 0, 0, n) >= 0) return false;
  if (n && isAlpha(s[0])) {
    let k = 1;
    while (k < n && (isAlnum(s[k]) || s[k] === 0x2b || s[k] === 0x2d || s[k] === 0x2e)) k++;
    if (k < n && s[k] === 0x3a) schemeEnd = k + 1;
  }
  if (absolute && !schemeEnd) return false;
  i = schemeEnd;
  const hash = indexOfByte(s, 0x23, i, n);
  let end = hash >= 0 ? hash : n;
  if (hash >= 0 && !uriChars(s, hash + 1, n - end - 1, ":@/?", iri)) return false;
  const q = indexOfByte(s, 0x3f, i, end);
  if (q >= 0 && !uriChars(s, q + 1, end - q - 1, ":@/?", iri)) return false;
  if (q >= 0) end = q;
  if (end - i >= 2 && s[i] === 0x2f && s[i + 1] === 0x2f) {
    const a = i + 2;
    let ae = a, hs, he;
    while (ae < end && s[ae] !== 0x2f) ae++;
    hs = a;
    for (let k = a; k < ae; k++) if (s[k] === 0x40) hs = k + 1;
    if (hs > a && !uriChars(s, a, hs - 1 - a, ":", iri)) return false;
    he = ae;
    if (hs < ae && s[hs] === 0x5b) {
      const rb = indexOfByte(s, 0x5d, hs, ae);
      if (rb < 0) return false;
      if (s[hs + 1] === 0x76 || s[hs + 1] === 0x56) {
        let k = hs + 2;
        while (k < rb && isXdigit(s[k])) k++;
        if (k === hs + 2 || s[k] !== 0x2e || k + 1 >= rb || !uriChars(s, k + 1, rb - k - 1, ":", false)) return false;
      } else if (!checkIpv6(s, hs + 1, rb - hs - 1)) {
        return false;
      }
      he = rb + 1;
      if (he < ae && s[he] !== 0x3a) return false;
    } else {
      for (let k = hs; k < ae; k++) if (s[k] === 0x3a) { he = k; break; }
      if (!uriChars(s, hs, he - hs, "", iri)) return false;
    }
    for (let k = he + 1; k < ae; k++) if (!isDigit(s[k])) return false;
    i = ae;
  }
  if (!schemeEnd) {
    let k = i;
    while (k < end && s[k] !== 0x2f) {
      if (s[k] === 0x3a) return false;
      k++;
    }
  }
  return uriChars(s, i, end - i, ":@/", iri);
}

function checkJsonPointer(s, o = 0) {
  const n = s.length - o;
  if (n === 0) return true;
  if (s[o] !== 0x2f) return false;
  for (let i = 0; i < n; i++)
    if (s[o + i] === 0x7e && (i + 1 >= n || (s[o + i + 1] !== 0x30 && s[o + i + 1] !== 0x31))) return false;
  return true;
}

function checkRelJsonPointer(s) {
  const n = s.length;
  let i = 0;
  while (i < n && isDigit(s[i])) i++;
  if (i === 0 || (s[0] === 0x30 && i > 1)) return false;
  if (i === n) return true;
  if (s[i] === 0x23) return i + 1 === n;
  return checkJsonPointer(s, i);
}

// ECMA-262 syntax with the u flag, as this engine reads it (the C side checks
// the same grammar: src/validate/ecma_re.c)
function regexSyntax(str) {
  try {
    new RegExp(str, "u");
    return true;
  } catch (e) {
    return false;
  }
}

function checkRegex(str) {
  return regexSyntax(str);
}

function checkUriTemplate(s) {
  const n = s.length;
  let i = 0;
  while (i < n) {
    const c = s[i];
    if (c === 0x7b) {
      i++;
      if (i < n && inSet("+#./;?&=,!@|", s[i])) i++;
      for (;;) {
        const start = i;
        while (i < n) {
          if (isAlnum(s[i]) || s[i] === 0x5f) {
            i++;
          } else if (s[i] === 0x25 && i + 2 < n && isXdigit(s[i + 1]) && isXdigit(s[i + 2])) {
            i += 3;
          } else if (s[i] === 0x2e && i > start && i + 1 < n && s[i - 1] !== 0x2e &&
                     (isAlnum(s[i + 1]) || s[i + 1] === 0x5f || s[i + 1] === 0x25)) {
            i++;
          } else {
            break;
          }
        }
        if (i === start) return false;
        if (i < n && s[i] === 0x3a) {
          const d = ++i;
          while (i < n && isDigit(s[i])) i++;
          if (i === d || i - d > 4 || s[d] === 0x30) return false;
        } else if (i < n && s[i] === 0x2a) {
          i++;
        }
        if (i < n && s[i] === 0x2c) { i++; continue; }
        break;
      }
      if (i >= n || s[i] !== 0x7d) return false;
      i++;
      continue;
    }
    if (c <= 0x20 || c === 0x7f || inSet("\"<>\\^`|}", c)) return false;
    if (c === 0x25) {
      if (i + 2 >= n || !isXdigit(s[i + 1]) || !isXdigit(s[i + 2])) return false;
      i += 3;
      continue;
    }
    i++;
  }
  return true;
}

function checkPort(s) {
  const n = s.length;
  let v = 0;
  if (n === 0 || n > 5) return false;
  for (let i = 0; i < n; i++) {
    if (!isDigit(s[i])) return false;
    v = v * 10 + (s[i] - 0x30);
  }
  return v <= 65535 && !(s[0] === 0x30 && n > 1);
}

// strtod on the whole text (format.c check_percent)
const STRTOD_FULL = /^[ \t\n\v\f\r]*[-+]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?|0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][-+]?[0-9]+)?)$/i;

function checkPercent(str, s) {
  let n = s.length;
  if (n === 0 || n >= 32) return false;
  let t = str;
  if (s[n - 1] === 0x25) { t = t.slice(0, -1); n--; }
  if (n === 0 || !(isDigit(t.charCodeAt(0)) || t.charCodeAt(0) === 0x2e)) return false;
  if (!STRTOD_FULL.test(t)) return false;
  const v = /^0[xX]/.test(t) ? parseHexFloat(t) : Number(t);
  return v >= 0 && v <= 100;
}

function parseHexFloat(t) {
  const m = /^0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)(?:[pP]([-+]?[0-9]+))?$/.exec(t);
  if (!m) return NaN;
  const int = m[1] ? parseInt(m[1], 16) : 0;
  let frac = 0;
  for (let i = 0; i < m[2].length; i++) frac += parseInt(m[2][i], 16) / Math.pow(16, i + 1);
  return (int + frac) * Math.pow(2, m[3] ? parseInt(m[3], 10) : 0);
}

function checkGoDuration(s) {
  const units = [[0x6e, 0x73], [0x75, 0x73], [0xc2, 0xb5, 0x73], [0xce, 0xbc, 0x73], [0x6d, 0x73], [0x73], [0x6d], [0x68]];
  const n = s.length;
  let i = 0;
  if (i < n && (s[i] === 0x2d || s[i] === 0x2b)) i++;
  if (n - i === 1 && s[i] === 0x30) return true;
  if (i === n) return false;
  while (i < n) {
    const start = i;
    let best = 0, dot = false;
    while (i < n && (isDigit(s[i]) || (s[i] === 0x2e && !dot))) {
      dot = dot || s[i] === 0x2e;
      i++;
    }
    if (i === start || (i - start === 1 && s[start] === 0x2e)) return false;
    for (const u of units) {
      if (u.length > best && n - i >= u.length) {
        let same = true;
        for (let k = 0; k < u.length && same; k++) same = s[i + k] === u[k];
        if (same) best = u.length;
      }
    }
    if (!best) return false;
    i += best;
  }
  return true;
}

// ---- hostnames (idna.c) --------------------------------------------------------------

const MAX_LABEL_CP = 256;

function utf8Decode(s, o, n, max) {
  const out = [];
  for (let i = 0; i < n && out.length < max;) {
    const c = s[o + i];
    const len = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    if (i + len > n) return null;
    let cp = len === 1 ? c : len === 2 ? c & 0x1f : len === 3 ? c & 0x0f : c & 0x07;
    for (let j = 1; j < len; j++) cp = (cp << 6) | (s[o + i + j] & 0x3f);
    out.push(cp >>> 0);
    i += len;
  }
  return out;
}

const PC_BASE = 36, PC_TMIN = 1, PC_TMAX = 26, PC_SKEW = 38, PC_DAMP = 700, PC_BIAS = 72, PC_N = 128;
const U32 = 0xffffffff;

function pcAdapt(delta, numpoints, first) {
  let k = 0;
  delta = first ? Math.floor(delta / PC_DAMP) : Math.floor(delta / 2);
  delta += Math.floor(delta / numpoints);
  while (delta > Math.floor(((PC_BASE - PC_TMIN) * PC_TMAX) / 2)) {
    delta = Math.floor(delta / (PC_BASE - PC_TMIN));
    k += PC_BASE;
  }
  return k + Math.floor(((PC_BASE - PC_TMIN + 1) * delta) / (delta + PC_SKEW));
}

function pcDigit(c) {
  if (c >= 0x30 && c <= 0x39) return c - 0x30 + 26;
  if (c >= 0x61 && c <= 0x7a) return c - 0x61;
  if (c >= 0x41 && c <= 0x5a) return c - 0x41;
  return -1;
}

function punycodeDecode(s, o, n, max) {
  let cp = PC_N, bias = PC_BIAS, i = 0, b = 0;
  const out = [];
  for (let j = 0; j < n; j++) if (s[o + j] === 0x2d) b = j;
  if (b > max) return null;
  for (let j = 0; j < b; j++) {
    if (s[o + j] >= 0x80) return null;
    out.push(s[o + j]);
  }
  for (let pos = b > 0 ? b + 1 : 0; pos < n;) {
    const oldi = i;
    let w = 1;
    for (let kk = PC_BASE; ; kk += PC_BASE) {
      if (pos >= n) return null;
      const d = pcDigit(s[o + pos++]);
      if (d < 0) return null;
      if (d > Math.floor((U32 - i) / w)) return null;
      i += d * w;
      const t = kk <= bias ? PC_TMIN : kk >= bias + PC_TMAX ? PC_TMAX : kk - bias;
      if (d < t) break;
      if (w > Math.floor(U32 / (PC_BASE - t))) return null;
      w *= PC_BASE - t;
    }
    const k = out.length;
    bias = pcAdapt(i - oldi, k + 1, oldi === 0);
    if (Math.floor(i / (k + 1)) > 0x10ffff - cp || k >= max) return null;
    cp += Math.floor(i / (k + 1));
    i %= k + 1;
    out.splice(i, 0, cp);
    i++;
  }
  return out;
}

function punycodeEncode(u, max) {
  let cp = PC_N, delta = 0, bias = PC_BIAS;
  const out = [];
  for (const c of u) if (c < 0x80) { if (out.length >= max) return null; out.push(c); }
  let h = out.length;
  const b = h;
  if (b > 0) { if (out.length >= max) return null; out.push(0x2d); }
  while (h < u.length) {
    let m = U32;
    for (const c of u) if (c >= cp && c < m) m = c;
    if ((m - cp) * (h + 1) + delta > U32) return null;
    delta += (m - cp) * (h + 1);
    cp = m;
    for (const c of u) {
      if (c < cp) delta++;
      if (c === cp) {
        let q = delta;
        for (let kk = PC_BASE; ; kk += PC_BASE) {
          const t = kk <= bias ? PC_TMIN : kk >= bias + PC_TMAX ? PC_TMAX : kk - bias;
          if (q < t) break;
          const dgt = t + ((q - t) % (PC_BASE - t));
          if (out.length >= max) return null;
          out.push(dgt < 26 ? 0x61 + dgt : 0x30 + dgt - 26);
          q = Math.floor((q - t) / (PC_BASE - t));
        }
        if (out.length >= max) return null;
        out.push(q < 26 ? 0x61 + q : 0x30 + q - 26);
        bias = pcAdapt(delta, h + 1, h === b);
        delta = 0;
        h++;
      }
    }
    delta++;
    cp++;
  }
  return out;
}

const RE_MARK = /^\p{M}$/u;
const RE_UPPER = /^[\p{Lu}\p{Lt}]$/u;
const RE_GREEK = /^\p{scx=Greek}$/u;
const RE_HEBREW = /^\p{scx=Hebrew}$/u;
const RE_KANA_HAN = /^[\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Han}]$/u;
const RE_PVALID = /^[\p{Ll}\p{Lo}\p{Lm}\p{Mn}\p{Mc}\p{Nd}]$/u;
const RE_JOINING = /^[\p{scx=Arabic}\p{scx=Syriac}\p{scx=Nko}\p{scx=Mongolian}\p{scx=Mandaic}\p{scx=Manichaean}\p{scx=Psalter_Pahlavi}]$/u;
const uprop = (re, cp) => cp >= 0 && cp <= 0x10ffff && re.test(String.fromCodePoint(cp));

const B_L = 0, B_R = 1, B_AL = 2, B_AN = 3, B_EN = 4, B_ES = 5, B_CS = 6, B_ET = 7, B_ON = 8, B_BN = 9, B_NSM = 10;
let bidiStarts = null, bidiClass = null;

function bidi(cp) {
  if (bidiStarts === null) {
    const starts = [], cls = [];
    let at = 0, num = "";
    for (const ch of BIDI_RUNS) {
      if (ch >= "A" && ch <= "Z") {
        starts.push(at);
        cls.push(ch === "Z" ? -1 : ch.charCodeAt(0) - 65);
        at += parseInt(num, 36);
        num = "";
      } else {
        num += ch;
      }
    }
    bidiStarts = Uint32Array.from(starts);
    bidiClass = Int8Array.from(cls);
  }
  let lo = 0, hi = bidiStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (bidiStarts[mid] <= cp) lo = mid; else hi = mid - 1;
  }
  return bidiClass[lo];
}

const VIRAMA = new Set([
  0x094D, 0x09CD, 0x0A4D, 0x0ACD, 0x0B4D, 0x0BCD, 0x0C4D, 0x0CCD, 0x0D3B, 0x0D3C, 0x0D4D,
  0x0DCA, 0x0E3A, 0x0EBA, 0x0F84, 0x1039, 0x103A, 0x1714, 0x1715, 0x1734, 0x17D2, 0x1A60,
  0x1B44, 0x1BAA, 0x1BAB, 0x1BF2, 0x1BF3, 0x2D7F, 0xA806, 0xA82C, 0xA8C4, 0xA953, 0xA9C0,
  0xAAF6, 0xABED, 0x10A3F, 0x11046, 0x11070, 0x1107F, 0x110B9, 0x11133, 0x11134, 0x111C0,
  0x11235, 0x112EA, 0x1134D, 0x11442, 0x114C2, 0x115BF, 0x1163F, 0x116B6, 0x1172B, 0x11839,
  0x1193D, 0x1193E, 0x119E0, 0x11A34, 0x11A47, 0x11A99, 0x11C3F, 0x11D44, 0x11D45, 0x11D97,
]);

function bidiRule(u) {
  const n = u.length;
  const first = bidi(u[0]);
  let en = false, an = false, last = n;
  if (first !== B_L && first !== B_R && first !== B_AL) return false;
  const rtl = first !== B_L;
  while (last > 0 && bidi(u[last - 1]) === B_NSM) last--;
  for (let i = 0; i < n; i++) {
    const c = bidi(u[i]);
    if (rtl) {
      if (!(c === B_R || c === B_AL || c === B_AN || c === B_EN || c === B_ES || c === B_CS ||
            c === B_ET || c === B_ON || c === B_BN || c === B_NSM)) return false;
    } else if (!(c === B_L || c === B_EN || c === B_ES || c === B_CS || c === B_ET || c === B_ON ||
                 c === B_BN || c === B_NSM)) {
      return false;
    }
    en = en || c === B_EN;
    an = an || c === B_AN;
  }
  if (last === 0) return false;
  const e = bidi(u[last - 1]);
  if (rtl ? !(e === B_R || e === B_AL || e === B_EN || e === B_AN) : !(e === B_L || e === B_EN)) return false;
  return !(rtl && en && an);
}

function checkUlabel(u) {
  const n = u.length;
  let arabicIndic = false, extArabicIndic = false, kanaDot = false, kanaHan = false;
  if (n === 0 || u[0] === 0x2d || u[n - 1] === 0x2d) return false;
  if (n >= 4 && u[2] === 0x2d && u[3] === 0x2d) return false;
  if (uprop(RE_MARK, u[0])) return false;
  for (let i = 0; i < n; i++) {
    const c = u[i];
    switch (c) {
      case 0x00DF: case 0x03C2: case 0x06FD: case 0x06FE: case 0x0F0B: case 0x3007:
        continue;
      case 0x0640: case 0x07FA: case 0x302E: case 0x302F: case 0x3031: case 0x3032:
      case 0x3033: case 0x3034: case 0x3035: case 0x303B:
        return false;
      case 0x00B7:
        if (i === 0 || i + 1 >= n || u[i - 1] !== 0x6c || u[i + 1] !== 0x6c) return false;
        continue;
      case 0x0375:
        if (i + 1 >= n || !uprop(RE_GREEK, u[i + 1])) return false;
        continue;
      case 0x05F3: case 0x05F4:
        if (i === 0 || !uprop(RE_HEBREW, u[i - 1])) return false;
        continue;
      case 0x30FB:
        kanaDot = true;
        continue;
      case 0x200D:
        if (i === 0 || !VIRAMA.has(u[i - 1])) return false;
        continue;
      case 0x200C:
        if (i > 0 && VIRAMA.has(u[i - 1])) continue;
        if (i === 0 || i + 1 >= n || !uprop(RE_JOINING, u[i - 1]) || !uprop(RE_JOINING, u[i + 1])) return false;
        continue;
      default:
        break;
    }
    if (c >= 0x0660 && c <= 0x0669) arabicIndic = true;
    if (c >= 0x06F0 && c <= 0x06F9) extArabicIndic = true;
    if (c < 0x80) {
      if (!(isAlnum(c) || c === 0x2d) || (c >= 0x41 && c <= 0x5a)) return false;
      continue;
    }
    if (uprop(RE_KANA_HAN, c)) kanaHan = true;
    if (uprop(RE_UPPER, c) || !uprop(RE_PVALID, c)) return false;
  }
  if (arabicIndic && extArabicIndic) return false;
  if (kanaDot && !kanaHan) return false;
  return true;
}

const isRtlChar = (c) => { const b = bidi(c); return b === B_R || b === B_AL || b === B_AN; };

function hostname1123(s) {
  const n = s.length;
  let i = 0;
  if (n === 0 || n > 253) return false;
  while (i <= n) {
    const start = i;
    while (i < n && s[i] !== 0x2e) {
      if (!(isAlnum(s[i]) || s[i] === 0x2d)) return false;
      i++;
    }
    if (i === start || i - start > 63 || s[start] === 0x2d || s[i - 1] === 0x2d) return false;
    i++;
  }
  return true;
}

function isIdnDot(s, i, n) {
  return i + 3 <= n && ((s[i] === 0xe3 && s[i + 1] === 0x80 && s[i + 2] === 0x82) ||
    (s[i] === 0xef && s[i + 1] === 0xbc && s[i + 2] === 0x8e) || (s[i] === 0xef && s[i + 1] === 0xbd && s[i + 2] === 0xa1));
}

function hostname(s, idn) {
  const n = s.length;
  const labels = [];
  let i = 0, asciiLen = 0, bidiDomain = false;
  if (n === 0) return false;
  for (let start = 0; ;) {
    if (i === n || s[i] === 0x2e || (idn && isIdnDot(s, i, n))) {
      const sep = i === n ? 0 : s[i] === 0x2e ? 1 : 3;
      if (labels.length === 128) return false;
      labels.push([start, i - start]);
      if (i === n) break;
      i += sep;
      start = i;
      continue;
    }
    i++;
  }
  for (const [lo, len] of labels) {
    let isAscii = true;
    if (len === 0) return false;
    for (let k = 0; k < len; k++) if (s[lo + k] >= 0x80) isAscii = false;
    if (isAscii) {
      if (len > 63) return false;
      for (let k = 0; k < len; k++) if (!(isAlnum(s[lo + k]) || s[lo + k] === 0x2d)) return false;
      if (s[lo] === 0x2d || s[lo + len - 1] === 0x2d) return false;
      asciiLen += len + 1;
      if (len >= 4 && s[lo + 2] === 0x2d && s[lo + 3] === 0x2d) {
        if ((s[lo] | 32) !== 0x78 || (s[lo + 1] | 32) !== 0x6e) return false;
        const u = punycodeDecode(s, lo + 4, len - 4, MAX_LABEL_CP);
        if (u === null || u.length === 0) return false;
        const re = punycodeEncode(u, 64);
        if (re === null || re.length !== len - 4) return false;
        for (let k = 0; k < re.length; k++) if (lower(re[k]) !== lower(s[lo + 4 + k])) return false;
        let nonAscii = false;
        for (const c of u) nonAscii = nonAscii || c >= 0x80;
        if (!nonAscii || !checkUlabel(u)) return false;
        for (const c of u) bidiDomain = bidiDomain || isRtlChar(c);
      }
      continue;
    }
    if (!idn) return false;
    const u = utf8Decode(s, lo, len, MAX_LABEL_CP);
    if (u === null || u.length === 0 || u.length >= MAX_LABEL_CP || !checkUlabel(u)) return false;
    const e = punycodeEncode(u, 64);
    if (e === null || e.length + 4 > 63) return false;
    asciiLen += e.length + 5;
    for (const c of u) bidiDomain = bidiDomain || isRtlChar(c);
  }
  if (asciiLen - 1 > 253) return false;
  if (bidiDomain) {
    for (const [lo, len] of labels) {
      let u;
      if (len >= 4 && (s[lo] | 32) === 0x78 && (s[lo + 1] | 32) === 0x6e && s[lo + 2] === 0x2d && s[lo + 3] === 0x2d)
        u = punycodeDecode(s, lo + 4, len - 4, MAX_LABEL_CP);
      else
        u = utf8Decode(s, lo, len, MAX_LABEL_CP);
      if (u === null || !bidiRule(u)) return false;
    }
  }
  return true;
}

// Kubernetes quantity (format.c sd_format__quantity, quantity.c): sign, a
// decimal with at least one digit, then a binary or decimal SI suffix or an
// exponent, as resource.ParseQuantity reads it.
const QUANTITY_SUFFIX = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "n", "u", "m", "k", "M", "G", "T", "P", "E"];
function checkQuantity(t) {
  let i = 0, nd = 0;
  const n = t.length;
  if (i < n && (t[i] === "+" || t[i] === "-")) i++;
  while (i < n && t[i] >= "0" && t[i] <= "9") { i++; nd++; }
  if (i < n && t[i] === ".") {
    i++;
    while (i < n && t[i] >= "0" && t[i] <= "9") { i++; nd++; }
  }
  if (!nd) return false;
  if (i === n) return true;
  if (QUANTITY_SUFFIX.includes(t.slice(i))) return true;
  if (t[i] !== "e" && t[i] !== "E") return false;
  i++;
  if (i < n && (t[i] === "+" || t[i] === "-")) i++;
  if (i === n) return false;
  for (; i < n; i++) if (!(t[i] >= "0" && t[i] <= "9")) return false;
  return true;
}

// IntOrString as a string (quantity.c): a port name or a percentage
function checkIntOrString(t) {
  if (/^[0-9]+%$/.test(t)) return true;
  return t.length > 0 && t.length <= 15 && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(t) && /[a-z]/.test(t);
}

// ---- the table ---------------------------------------------------------------------------

const CHECKS = {
  "date-time": (t, s) => checkDateTime(s),
  "date": (t, s) => checkDate(s, 0, s.length),
  "time": (t, s) => checkTime(s, 0, s.length),
  "duration": (t, s) => checkDuration(s),
  "email": (t, s) => checkEmail(s, false),
  "idn-email": (t, s) => checkEmail(s, true),
  "hostname": (t, s) => hostname(s, false),
  "idn-hostname": (t, s) => hostname(s, true),
  "hostname-rfc1123": (t, s) => hostname1123(s),
  "ipv4": (t, s) => checkIpv4(s),
  "ipv6": (t, s) => checkIpv6(s),
  "uri": (t, s) => checkUriRef(s, true, false),
  "uri-reference": (t, s) => checkUriRef(s, false, false),
  "iri": (t, s) => checkUriRef(s, true, true),
  "iri-reference": (t, s) => checkUriRef(s, false, true),
  "uuid": (t, s) => checkUuid(s),
  "regex": (t) => checkRegex(t),
  "json-pointer": (t, s) => checkJsonPointer(s),
  "relative-json-pointer": (t, s) => checkRelJsonPointer(s),
  "uri-template": (t, s) => checkUriTemplate(s),
  "port": (t, s) => checkPort(s),
  "percent": (t, s) => checkPercent(t, s),
  "go-duration": (t, s) => checkGoDuration(s),
  "quantity": (t) => checkQuantity(t),
  "int-or-string": (t) => checkIntOrString(t),
};

// true when `str` is a valid `name` (unknown names pass, as in C).
export function checkFormat(name, str) {
  const f = CHECKS[name];
  if (f === undefined || !Object.prototype.hasOwnProperty.call(CHECKS, name)) return true;
  return f(str, enc.encode(str));
}
