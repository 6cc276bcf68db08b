// SPDX-License-Identifier: Apache-2.0
// rules_walk.js - the walk of rules.js: a value and the records together,
// in the order and with the early exits of src/validate/validate.c (v_node,
// v_object, v_array, v_string, v_number, report_closest, unique_check...),
// plus the shortcuts that keep it fast (a leaf record checked straight from
// the member loops, the cache of revalidate). State lives in the context
// object that rules.js makes for each call.
import { checkFormat } from "./formats.js";
import { K_NULL, K_NUM, K_STR, K_OBJ, K_ARR, T_INT, T_NUM, N_TYPE, N_ENUM, N_STR, N_NUM, N_OBJ, N_ARR, N_APPLY, NEED_BY_KIND, S_SCHEMA, S_TRUE, S_FALSE, kindOf, instType, equal, canon, enc, ptrOfPath, numText, typeWord, show, record, verr, fatal, typeNames, editDistance, numcmp, multipleOf, cpCount, countKeys } from "./rules_text.js";

// ---- the walk (validate.c v_node and friends) --------------------------------------------

export function follow(c, t, inst, ev, from, kw) {
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

export function dynamicTarget(c, s) {
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
export const POLY_NATIVE = 512;

export function reMatch(c, pat, str, s, kw) {
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

export function unexpectedKey(c, s, kw, key) {
  // past the errors kept only the count changes: the message (a did-you-mean
  // over the schema's names) would be thrown away (100,000 unknown keys: 0.7 s)
  const r = c.res;
  if (r !== null && r.items.length >= c.max) { r.total++; return; }
  const v = c.v;
  let best = null, bd = 999;
  if (s.propList !== null) {
    const kb = enc.encode(key);
    const klen = kb.length, near = klen > 6 ? Math.floor(klen / 3) : 2;
    // Only a distance of at most `near` names a key, so each is measured up
    // to that (the first nearest name is the same one), and the names' bytes
    // are made once per schema: 100,000 unknown keys in one map took 42 s.
    if (!s.propBytes) s.propBytes = s.propList.map((p) => enc.encode(p.name));
    for (let i = 0; i < s.propList.length; i++) {
      const pb = s.propBytes[i];
      if (Math.abs(pb.length - klen) > near || Math.abs(pb.length - klen) >= bd) continue;
      const dd = editDistance(kb, pb, near);
      if (dd < bd) { bd = dd; best = s.propList[i]; }
    }
    if (best !== null && bd <= near && bd < klen) {
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

export function branchScore(r, depthPath) {
  let score = r.total;
  for (const e of r.items) {
    let depth = 0;
    for (let i = 0; i < e.path.length; i++) if (e.path.charCodeAt(i) === 0x2f) depth++;
    if (depth === depthPath && (e.keyword === "type" || e.keyword === "const" || e.keyword === "enum" || e.keyword === "false"))
      score += 1000;
  }
  return score;
}

export function reportClosest(c, s, kw, br, inst) {
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
export function quickOk(s, inst, k) {
  if (s.alias !== null || s.kind !== S_SCHEMA) return s.kind === S_TRUE && s.alias === null;
  if (s.need & (N_ENUM | N_APPLY | NEED_BY_KIND[k])) return false;
  if (!(s.need & N_TYPE)) return true;
  if (s.int_or_string || s.nullable) return false;
  const it = instType(inst, k);
  return (s.types & it) !== 0 || (it === T_INT && (s.types & T_NUM) !== 0);
}

// A child value: through the cache when revalidating (see Validator.revalidate).
export function vChild(c, s, val) {
  if (c.cache === null || val === null || typeof val !== "object") return vNode(c, s, val, null);
  return cachedChild(c, s, val);
}

export function cachedChild(c, s, val) {
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

// x-kubernetes-embedded-resource: the object is a Kubernetes object of its
// own, which the API server requires to name its apiVersion (VERSION or
// GROUP/VERSION) and its kind (a DNS-1035 label, whatever the case).
const EMBEDDED_KIND = /^[A-Za-z]([-A-Za-z0-9]*[A-Za-z0-9])?$/;

function embeddedCheck(c, s, inst) {
  let ok = true;
  for (const key of ["apiVersion", "kind"]) {
    const has = Object.prototype.hasOwnProperty.call(inst, key), x = inst[key];
    if (has && typeof x === "string" && x !== "" &&
        (key === "kind" ? x.length <= 63 && EMBEDDED_KIND.test(x) : x.split("/").length <= 2)) continue;
    ok = false;
    if (c.res === null) return false;
    if (!has) {
      verr(c, s, "x-kubernetes-embedded-resource", c.v.msg("EMBEDDED_MISSING", key));
      continue;
    }
    c.path.push(key);
    verr(c, s, "x-kubernetes-embedded-resource",
      c.v.msg(key === "kind" ? "EMBEDDED_KIND" : "EMBEDDED_API", show(c, x, ptrOfPath(c.path))));
    c.path.pop();
  }
  return ok;
}

export function vObject(c, s, inst, L) {
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
  if (s.embedded && !embeddedCheck(c, s, inst)) {
    ok = false; if (c.res === null) return false;
  }
  return ok;
}

export function uniqueCheck(c, s, inst) {
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

export function vArray(c, s, inst, L) {
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

export function vString(c, s, inst) {
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
      const nm = v.namedPattern.get(s.pattern.src);
      verr(c, s, "pattern", nm !== undefined ? v.msg("NAMED", show(c, inst, ""), nm) : v.msg("PATTERN", show(c, inst, ""), s.pattern.src));
    } else if (m < 0) {
      ok = false; if (c.res === null) return false;
    }
  }
  if (s.format !== null) {
    if (s.formatWarn === null) {
      if (!checkFormat(s.formatCheck, inst)) {
        ok = false; if (c.res === null) return false;
        const nm = v.namedFormat.get(s.format);
        verr(c, s, "format", nm !== undefined ? v.msg("NAMED", show(c, inst, ""), nm) : v.msg("FORMAT", show(c, inst, ""), s.format));
      }
    } else if (c.res !== null && !checkFormat(s.formatCheck, inst)) {
      record(c, true, s, "format", v.msg("FORMAT_WARN", show(c, inst, ""), s.format, s.formatWarn));
    }
  }
  return ok;
}

export function vNumber(c, s, inst0) {
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

export function inEnum(s, inst) {
  if (s.enumPrims !== null && (typeof inst !== "object" || inst === null) && inst === inst) return s.enumPrims.has(inst);
  if (s.enumKeys !== null) return s.enumKeys.has(canon(inst));
  const e = s.enumList;
  for (let i = 0; i < e.length; i++) if (equal(inst, e[i])) return true;
  return false;
}

export function vNode(c, s, inst, ev) {
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
export function leafFast(s, val, k) {
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
export function vLeaf(c, s, inst, k) {
  if (!(s.need & (N_TYPE | N_ENUM | NEED_BY_KIND[k]))) return true;
  if (c.fatal !== null) return false;
  if (c.depth >= c.maxDepth) return fatal(c, c.v.msg("DEPTH", c.v.maxDepth, c.v.ptrOf(s)));
  c.applied++;
  if (c.depth >= c.maxSeen) c.maxSeen = c.depth + 1;
  return vBody(c, s, inst, null, k);
}

export function vRecord(c, s, inst, ev) {
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
export function vBody(c, s, inst, L, k) {
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
export function vApply(c, s, inst, L, k) {
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
  if (s.not_ !== null) {
    const saved = c.res;
    c.res = null;
    const r = vNode(c, s.not_, inst, null);
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

export function vAnyOf(c, s, inst, L) {
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

export function vOneOf(c, s, inst, L) {
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

export function vUneval(c, s, inst, L, k) {
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
