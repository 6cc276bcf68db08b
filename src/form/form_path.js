// SPDX-License-Identifier: Apache-2.0
// form_path.js - key paths of the form (docs/form.md): the text a field is
// named by (`image.tag`, `hosts[0].host`, `podAnnotations["a.b/c"]`), the
// element ids derived from it, JSON pointers, and the way back from text.
// A path is an array of segments: strings are map keys, numbers list indices.

const PLAIN = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

export function pathText(segs) {
  let s = "";
  for (const k of segs) {
    if (typeof k === "number") s += "[" + k + "]";
    else if (PLAIN.test(k)) s += (s === "" ? "" : ".") + k;
    else s += "[" + JSON.stringify(k) + "]";
  }
  return s;
}

// An id that is unique per path and safe anywhere: letters and digits kept,
// everything else as _XX (UTF-16 code unit in hex).
export function pathId(segs) {
  const t = pathText(segs);
  let s = "f-";
  for (let i = 0; i < t.length; i++) {
    const ch = t[i];
    if (/[A-Za-z0-9]/.test(ch)) s += ch;
    else if (ch === ".") s += "-";
    else s += "_" + t.charCodeAt(i).toString(16) + "_";
  }
  return s;
}

export function pointer(segs) {
  let s = "";
  for (const k of segs) s += "/" + String(k).replace(/~/g, "~0").replace(/\//g, "~1");
  return s;
}

// A JSON pointer back to segments; a token is an index when the value at
// that place is a list.
export function segsOfPointer(ptr, root) {
  if (ptr === "" || ptr === "#") return [];
  const toks = ptr.replace(/^#/, "").split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  const out = [];
  let v = root;
  for (const t of toks) {
    if (Array.isArray(v) && /^(0|[1-9][0-9]*)$/.test(t)) { out.push(Number(t)); v = v[Number(t)]; }
    else { out.push(t); v = v !== null && typeof v === "object" ? v[t] : undefined; }
  }
  return out;
}

// Path text back to segments: `a.b[0]["x.y"]`. Returns null when malformed.
export function parsePath(text) {
  const out = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    if (ch === ".") { if (out.length === 0) return null; i++; continue; }
    if (ch === "[") {
      if (text[i + 1] === "\"") {
        let j = i + 2, esc = false;
        for (; j < n; j++) {
          if (esc) { esc = false; continue; }
          if (text[j] === "\\") esc = true;
          else if (text[j] === "\"") break;
        }
        if (j >= n || text[j + 1] !== "]") return null;
        try { out.push(JSON.parse(text.slice(i + 1, j + 1))); } catch (e) { return null; }
        i = j + 2;
      } else {
        const j = text.indexOf("]", i);
        if (j < 0) return null;
        const num = text.slice(i + 1, j);
        if (!/^[0-9]+$/.test(num)) return null;
        out.push(Number(num));
        i = j + 1;
      }
      continue;
    }
    let j = i;
    while (j < n && text[j] !== "." && text[j] !== "[") j++;
    out.push(text.slice(i, j));
    i = j;
  }
  return out;
}

export function sameSegs(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
