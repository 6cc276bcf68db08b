// SPDX-License-Identifier: Apache-2.0
// form_secret.js - what the page prints of secret values (docs/form.md
// "Secrets"): the export with each secret string masked, for the
// values.yaml preview and the diff, and the places of those strings, for
// the --set line's shell-variable placeholders (form_flags.js). Which
// string is a secret is secret_rule.js's decision (through isSecret), made
// with the schema node of its path. Download and Copy write the real values.
import { res, memberNode, itemNode, isSecret } from "./form_schema.js";
import { setOwn, runSteps } from "./form_values.js";
import { pointer } from "./form_path.js";

export const MASK = "********";

// `v` (values under the schema node `root`) with each non-empty secret
// string replaced by MASK; `found` (a Map: JSON pointer -> segments) gets
// the path of each. Returns `v` itself when it holds none; never changes it.
export function maskSecrets(root, v, found = new Map()) {
  return runSteps(maskSteps(root, v, found));
}

// maskSecrets() as a generator that yields now and then (`st` counts the
// nodes seen): a large import's preview runs it a slice at a time
export function* maskSteps(root, v, found = new Map(), st = { n: 0 }) {
  const walk = function* (n0, x, segs, depth) {
    if (++st.n % 512 === 0) yield;
    if (typeof x === "string") {
      if (x === "" || !isSecret(res(n0), segs)) return x;
      found.set(pointer(segs), segs);
      return MASK;
    }
    if (depth > 200 || x === null || typeof x !== "object") return x;
    const n = res(n0);
    let out = x;
    if (Array.isArray(x)) {
      const item = itemNode(n) || {};
      for (let i = 0; i < x.length; i++) {
        const r = yield* walk(item, x[i], segs.concat([i]), depth + 1);
        if (r !== x[i]) { if (out === x) out = x.slice(); out[i] = r; }
      }
      return out;
    }
    for (const k of Object.keys(x)) {
      const r = yield* walk(memberNode(n, k) || {}, x[k], segs.concat([k]), depth + 1);
      if (r !== x[k]) {
        if (out === x) { out = {}; for (const j of Object.keys(x)) setOwn(out, j, x[j]); }
        setOwn(out, k, r);
      }
    }
    return out;
  };
  return yield* walk(root, v, [], 0);
}
