// SPDX-License-Identifier: Apache-2.0
// crdgen.mjs - instances for a CRD version's openAPIV3Schema, for the parity
// table: a "good" one (every property filled with a value of its type, enums
// and bounds respected where the schema says so) and a "bad" one (the same,
// with a wrong type, an enum miss, a number out of range, an unknown key...
// every few fields). Deterministic. Neither is meant to be exactly valid or
// invalid: both validators must just say the same about them.

export function instances(schema, apiVersion, kind) {
  const good = gen(schema, 0, { bad: false, n: 0 }, schema);
  const bad = gen(schema, 0, { bad: true, n: 0 }, schema);
  for (const o of [good, bad]) {
    if (o && typeof o === "object" && !Array.isArray(o)) {
      o.apiVersion = apiVersion;
      o.kind = kind;
      if (!o.metadata || typeof o.metadata !== "object") o.metadata = { name: "example" };
    }
  }
  return { good, bad };
}

function typeOf(s) {
  if (!s || typeof s !== "object") return null;
  if (s["x-kubernetes-int-or-string"]) return "int-or-string";
  if (typeof s.type === "string") return s.type;
  if (s.properties || s.additionalProperties) return "object";
  if (s.items) return "array";
  return null;
}

function gen(s, depth, st, root) {
  if (!s || typeof s !== "object" || depth > 12) return null;
  if (Array.isArray(s.allOf) && s.allOf.length && !s.type) return gen(s.allOf[0], depth, st, root);
  if (Array.isArray(s.oneOf) && s.oneOf.length && !s.type) return gen(s.oneOf[st.n++ % s.oneOf.length], depth, st, root);
  if (Array.isArray(s.anyOf) && s.anyOf.length && !s.type) return gen(s.anyOf[0], depth, st, root);
  const t = typeOf(s);
  const k = st.n++;
  const spoil = st.bad && k % 5 === 3;
  if (Array.isArray(s.enum) && s.enum.length) return spoil ? "not-in-the-enum" : s.enum[k % s.enum.length];
  switch (t) {
    case "object": {
      const o = {};
      const props = s.properties || {};
      const names = Object.keys(props);
      for (let i = 0; i < names.length; i++) {
        if (depth > 4 && !(s.required || []).includes(names[i]) && i % 3 !== 0) continue;
        const v = gen(props[names[i]], depth + 1, st, root);
        if (v !== null && v !== undefined) o[names[i]] = v;
      }
      if (!names.length && s.additionalProperties && typeof s.additionalProperties === "object") {
        o["key-" + k] = gen(s.additionalProperties, depth + 1, st, root);
      }
      if (spoil) o[names.length ? names[0].slice(0, -1) + "x" : "unknownKey"] = "typo";
      if (st.bad && k % 7 === 1 && Array.isArray(s.required) && s.required.length) delete o[s.required[0]];
      return o;
    }
    case "array": {
      if (spoil) return "not-an-array";
      const n = Math.max(s.minItems || 0, 1);
      const out = [];
      for (let i = 0; i < Math.min(n, 3); i++) out.push(gen(s.items, depth + 1, st, root));
      if (st.bad && k % 11 === 4) out.push(out[0]);   // a repeat, for uniqueItems / listType set
      return out;
    }
    case "string": {
      if (spoil) return k % 2 ? 12345 : true;
      if (s.format === "date-time") return "2024-01-02T03:04:05Z";
      if (s.format === "byte") return "aGVsbG8=";
      if (s.pattern) return st.bad && k % 3 === 0 ? "Does Not Match!" : "example";
      let v = "example-" + k;
      if (s.maxLength !== undefined && v.length > s.maxLength) v = v.slice(0, s.maxLength);
      if (s.minLength !== undefined) while (v.length < s.minLength) v += "x";
      return v;
    }
    case "integer": case "number": {
      if (spoil) return k % 2 ? "12" : 1.5;
      let v = s.minimum !== undefined ? s.minimum : 1;
      if (st.bad && k % 4 === 2 && s.maximum !== undefined) v = s.maximum + 1;
      if (st.bad && k % 4 === 0 && s.minimum !== undefined) v = s.minimum - 1;
      return t === "integer" ? Math.round(v) : v + 0.5;
    }
    case "int-or-string": return spoil ? [1] : k % 2 ? 8080 : "http";
    case "boolean": return spoil ? "yes" : k % 2 === 0;
    default:
      return spoil ? null : s["x-kubernetes-preserve-unknown-fields"] ? { free: k } : "value-" + k;
  }
}

// the parity table's spoiled values: wrong types and a typo every few keys
export function spoil(v, n = { k: 0 }) {
  if (Array.isArray(v)) return v.length ? [spoil(v[0], n)] : [1];
  if (v !== null && typeof v === "object") {
    const o = {};
    for (const k of Object.keys(v)) o[k] = spoil(v[k], n);
    if (n.k++ % 3 === 0) o[Object.keys(v)[0] ? Object.keys(v)[0] + "x" : "unknown"] = 1;
    return o;
  }
  n.k++;
  switch (typeof v) {
    case "string": return n.k % 2 ? 42 : ["a"];
    case "number": return "not-a-number";
    case "boolean": return "maybe";
    default: return { was: "null" };
  }
}
