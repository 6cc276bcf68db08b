// SPDX-License-Identifier: Apache-2.0
// secret_rule.js - the one rule that says what a key path holds: a secret
// value, the name of a Secret (or of a key inside one), or neither
// (docs/form.md "Secrets"). In: the path's segments (strings, and numbers
// for list items) and the schema's hints for it; out: "secret", "name" or
// "none". The form masks what it calls "secret" (the input, the preview,
// the --set line, the Changes list) and autosave leaves it out; nothing
// else decides; the reference page (src/render/secret.c) takes the same
// steps on the same words (src/render/secret_rule.def). Pure: no DOM.
// tests/js-form/secret_rule.test.mjs checks it on tests/secret-keys.tsv
// (real key paths, labelled) and prints precision and recall.
//
// The order: the schema's hints first (`writeOnly: true`, `format:
// password`), then the key's words, the description last. A boolean or a
// number is never a secret nor a name.

// The words of a key: camelCase, snake_case, kebab-case and dots split,
// lower case ("secretAccessKey" -> secret access key).
export function keyWords(key) {
  return String(key).replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== "");
}

// The words and description patterns: src/render/secret_rule.def (the C
// side, src/render/secret.c, reads the same rows and takes the same steps)
import { VALUE, MANY, KEY_OF, KEY_NAMED, SECRET_OBJ, ABOUT, SECRET_NAME_LAST, KEYS_OF, CRYPT_PARENT, REF_PARENT, CERT_PARENT, AUTH_PARENT, WHOLE_SECRET, QUICK_KEY, QUICK_PARENT, NAMES_SECRET, SAYS_SECRET, SAYS_ABOUT } from "./secret_words.js";

// What the key `key` (its parent's key `parent`, "" at the top) holds by
// its words alone: "secret", "name" or "none".
function byWords(key, parent) {
  const w = keyWords(key);
  if (!w.length) return "none";
  const last = w[w.length - 1], before = w.slice(0, -1);
  const b1 = before.length ? before[before.length - 1] : "";
  const hasSecret = w.includes("secret") || w.includes("secrets");
  // existingSecret, existingSecretPasswordKey (not existingClaim: a PVC's name)
  if (w.includes("existing") && (hasSecret || last === "key" || last === "keys" || VALUE.has(w[w.length - 2] || ""))) return "name";
  if (hasSecret && SECRET_NAME_LAST.has(last)) return "name";
  const pw = keyWords(parent || "");
  // the keys of a keeper of encryption keys (hub.config.CryptKeeper.keys)
  if ((last === "key" || last === "keys") && pw.some((x) => CRYPT_PARENT.has(x))) return "secret";
  if (last === "key") {
    if (!before.length) {
      // a bare `key`: the name of a key in a Secret under `secret` or a
      // reference (https.secret.key, secretKeyRef.key); a private key's
      // text in a certificate's map (certificateSecret.key,
      // https.manual.key); elsewhere a file's path (tls.key: the
      // description may say it is the text) or a label's key
      if ((pw.length === 1 && pw[0] === "secret") || pw.some((x) => REF_PARENT.has(x))) return "name";
      return pw.some((x) => CERT_PARENT.has(x)) ? "secret" : "none";
    }
    if (b1 === "secret" && before.length >= 2) return KEY_NAMED.has(before[before.length - 2]) ? "name" : "secret";
    if (KEY_NAMED.has(b1)) return "name";
    if (WHOLE_SECRET.has(w.join(""))) return "secret";
    if (before.some((x) => KEY_OF.has(x))) return b1 === "access" && before.length === 1 ? "none" : "secret";
    // auth.*key: a key's text under `auth` (auth.replicaSetKey, auth.jwtKey)
    if (pw.some((x) => AUTH_PARENT.has(x))) return "secret";
    return "none";
  }
  if (last === "keys") {
    if (b1 === "secret") return "name";   // secretKeys: the names of a Secret's keys
    return before.some((x) => KEYS_OF.has(x)) ? "secret" : "none";
  }
  if (last === "secret") {
    if (before.length && SECRET_OBJ.has(b1)) return "name";
    return "secret";                     // clientSecret, cookieSecret, githubSecret
  }
  if (last === "secrets") return "name"; // pullSecrets, imagePullSecrets, envFromSecrets
  if (VALUE.has(last)) return "secret";
  if (ABOUT.has(last) && before.some((x) => VALUE.has(x) || x === "secret" || x === "apikey")) return "none";
  return "none";
}

// the last key of `segs` (skipping list indexes), its position, its parent's key
function lastKey(segs) {
  let i = segs.length - 1;
  while (i >= 0 && typeof segs[i] === "number") i--;
  let j = i - 1;
  while (j >= 0 && typeof segs[j] === "number") j--;
  return { i, key: i >= 0 ? String(segs[i]) : "", parent: j >= 0 ? String(segs[j]) : "" };
}

// What the value at `segs` holds: "secret" (a secret value), "name" (the
// name of a Secret or of a key inside one) or "none". `hints`: `type` (the
// schema's or the value's JSON type, when known: "string", "boolean",
// "array"...), `format`, `writeOnly`, `description` (text).
export function classifyPath(segs, hints = {}) {
  const t = hints.type;
  if (t === "boolean" || t === "integer" || t === "number") return "none";
  if (hints.writeOnly === true || hints.format === "password") return "secret";
  const { i, key, parent } = lastKey(segs);
  if (i < 0) return "none";
  // most keys have none of the words: not split at all (100,000 map
  // entries are classified in a preview)
  const telling = QUICK_KEY.test(key) || QUICK_PARENT.test(parent);
  let c = telling ? byWords(key, parent) : "none";
  const d = typeof hints.description === "string" ? hints.description : "";
  if (c === "secret" && d && keyWords(key).slice(-1)[0] === "secret" && NAMES_SECRET.test(d)) c = "name";
  // an entry of a map, or an item of a list, of secret values
  // (sasl.client.passwords[0], auth.passwords.alice)
  if (c === "none" && i >= 1 && QUICK_PARENT.test(parent) && MANY.has(keyWords(parent).slice(-1)[0] || "")) c = "secret";
  // the description last, and never for a key about a secret
  // (argocdServerAdminPasswordMtime: "...admin password...")
  if (c === "none" && d && !ABOUT.has(keyWords(key).slice(-1)[0]) && SAYS_SECRET.test(d) && !SAYS_ABOUT.test(d)) c = "secret";
  // a map is no secret value (its strings may be: a credentials map's
  // `password` is masked, its `registry` is not), and names a Secret only
  // as a reference (existingSecret: {name, key}, secretKeyRef, secretKeys)
  if (t === "object" && i === segs.length - 1) {
    const w = keyWords(key), l = w[w.length - 1];
    return c === "name" && (w.includes("existing") || l === "ref" || l === "refs" || l === "keys") ? "name" : "none";
  }
  return c;
}

// Whether the string at `segs` is masked (classifyPath says "secret").
export function isSecretPath(segs, hints) {
  return classifyPath(segs, hints) === "secret";
}
