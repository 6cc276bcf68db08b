// SPDX-License-Identifier: Apache-2.0
// secret_rule.js - the one rule that says what a key path holds: a secret
// value, the name of a Secret (or of a key inside one), or neither
// (docs/form.md "Secrets"). In: the path's segments (strings, and numbers
// for list items) and the schema's hints for it; out: "secret", "name" or
// "none". The form masks what it calls "secret" (the input, the preview,
// the --set line, the Changes list) and autosave leaves it out; nothing
// else decides. Pure: no DOM. tests/js-form/secret_rule.test.mjs checks it
// on tests/secret-keys.tsv (real key paths, labelled) and prints precision
// and recall.
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

// a last word that is a secret value (password, adminPassword, secretToken)
const VALUE = new Set(["password", "passwords", "passwd", "pwd", "passphrase", "passphrases", "token", "tokens",
  "credential", "credentials", "creds", "apikey", "apikeys"]);
// a container whose entries or items are each a secret value
const MANY = new Set(["passwords", "passphrases", "tokens", "apikeys"]);
// "X key" is a secret value after these words (secretKey, privateKey,
// secretAccessKey, apiKey, accountKey, signingKey, replicaSetKey)
const KEY_OF = new Set(["secret", "private", "api", "account", "signing", "encryption", "master", "license",
  "shared", "session", "cookie", "jwt", "hmac", "auth", "encrypt", "decryption", "access", "integration", "ping",
  "routing", "crypt"]);
// "X key" names a key inside a Secret after these words (passwordKey,
// userPasswordKey, userKey, passwordsSecretKeystoreKey, tlsJksSecretKey)
const KEY_NAMED = new Set(["password", "passwords", "passwd", "token", "tokens", "user", "username", "keystore",
  "truststore", "jks", "tls", "cert", "certs", "certificate", "ca", "credential", "credentials", "email", "id",
  "uri", "url", "dsn", "host", "database", "db", "file", "name"]);
// "X secret" names a Secret object after these words (tlsSecret,
// extraEnvVarsSecret, certificateSecret, scriptsSecret, passwordSecret)
const SECRET_OBJ = new Set(["tls", "cert", "certs", "certificate", "certificates", "ca", "pull", "image", "docker",
  "registry", "config", "configs", "configuration", "env", "vars", "from", "scripts", "volume", "mount", "external",
  "use", "create", "auth", "password", "passwords", "token", "tokens", "credentials", "credential", "ssl", "existing",
  "init", "extra", "render", "sync", "jks", "keystore", "truststore", "job", "template", "ref", "basic", "admin", "user"]);
// a last word after which the key is about a secret, not one (tokenFile,
// tokenPath, passwordUpdateJob, secretAnnotations, secretName)
const ABOUT = new Set(["file", "files", "path", "paths", "dir", "mount", "mounts", "ttl", "name", "names", "ref", "refs",
  "annotations", "labels", "enabled", "job", "selector", "template", "templates", "filename", "url", "id", "type",
  "length", "policy", "mode", "format", "header", "field", "prefix", "suffix", "expiry", "expiration", "duration",
  "env", "source", "provider", "update", "mtime", "time", "date", "enable", "rotation", "hash", "algorithm", "size"]);

// a description that says its key names a Secret object ("Name of an
// existing Secret containing...", "Secret with extra environment variables")
const NAMES_SECRET = /\bnames?\s+of\b[^.]{0,60}\bsecrets?\b|\bexisting\b[^.]{0,30}\bsecrets?\b|\bsecrets?\s*(?:name|,?\s*containing|contains?|that\s+(?:contains?|holds?|has)|which\s+contains?|with\b|in\s+the\s+same\s+namespace)/i;
// a description that says its key holds a secret value ("The password
// for the admin user", "API key used to...")
const SAYS_SECRET = /\b(?:password|passphrase|api[ -]?key|access[ -]token|bearer[ -]token|auth(?:entication)?[ -]token|secret[ -]key|private[ -]key|client[ -]secret|certificate[ -]key)\b/i;
const SAYS_ABOUT = /\b(?:path|paths|file|filename|name\s+of|secret\s+name|key\s+(?:in|of|within)|existing|whether|enable|disable)\b/i;

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
  if (hasSecret && (last === "name" || last === "names" || last === "ref" || last === "refs")) return "name";
  const pw = keyWords(parent || "");
  // the keys of a keeper of encryption keys (hub.config.CryptKeeper.keys)
  if ((last === "key" || last === "keys") && (pw.includes("crypt") || pw.includes("encryption"))) return "secret";
  if (last === "key") {
    if (!before.length) {
      // a bare `key`: the name of a key in a Secret under `secret` or a
      // reference (https.secret.key, secretKeyRef.key); a private key's
      // text in a certificate's map (certificateSecret.key,
      // https.manual.key); elsewhere a file's path (tls.key: the
      // description may say it is the text) or a label's key
      if ((pw.length === 1 && pw[0] === "secret") || pw.includes("ref") || pw.includes("selector")) return "name";
      return pw.includes("secret") || pw.includes("certificate") || pw.includes("manual") ? "secret" : "none";
    }
    if (b1 === "secret" && before.length >= 2) return KEY_NAMED.has(before[before.length - 2]) ? "name" : "secret";
    if (KEY_NAMED.has(b1)) return "name";
    if (w.join("") === "replicasetkey") return "secret";
    if (before.some((x) => KEY_OF.has(x))) return b1 === "access" && before.length === 1 ? "none" : "secret";
    // auth.*key: a key's text under `auth` (auth.replicaSetKey, auth.jwtKey)
    if (keyWords(parent || "").includes("auth")) return "secret";
    return "none";
  }
  if (last === "keys") {
    if (b1 === "secret") return "name";   // secretKeys: the names of a Secret's keys
    return before.some((x) => x === "api" || x === "private" || x === "signing" || x === "encryption") ? "secret" : "none";
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

// a key or a parent's key without these letters has no telling word
const QUICK_KEY = /pass|pwd|token|cred|secret|key|phrase|existing/i;
const QUICK_PARENT = /pass|token|key|phrase|secret|certificate|manual|ref|selector|auth|crypt|encryption/i;

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
