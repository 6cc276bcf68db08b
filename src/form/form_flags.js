// SPDX-License-Identifier: Apache-2.0
// form_flags.js - the exported values as `helm --set` flags (docs/form.md):
// one shell line that bash and zsh read into the same argv, and that
// Helm's strvals parser reads back into exactly these values. Every argument
// is single-quoted (a ' as '\''); inside it, keys escape what the parser
// splits keys on (\ . , [ =) and values what it splits values on (\ ,) and a
// leading { (a list to the parser). The flag keeps each value's type:
//   --set          booleans, null, integers, and strings the parser keeps as text;
//   --set-string   strings the parser would type (true, null, 0, 12, -3...);
//   --set-json     lists, empty maps, other numbers (1.5, 1e21: --set gives
//                  text), strings with a NUL, and maps with a key no path can
//                  name ("") or deeper than the parser's 30 levels.
// Helm applies --set-json, then --set, then --set-string; no two flags here
// name the same path, so that order changes nothing.
// A secret value is never printed: its flag is double-quoted with a shell
// variable in place of the value (--set-string "auth.password=${AUTH_PASSWORD}"),
// and a closing comment names the variables to set first.
import { isMap } from "./form_values.js";
import { pointer, pathText } from "./form_path.js";

const MAX_LEVEL = 30;   // Helm's strvals MaxNestedNameLevel

function keyEsc(k) {
  return k.replace(/[\\.,[=]/g, "\\$&");
}

function valEsc(s) {
  return s.replace(/[\\,]/g, "\\$&").replace(/^\{/, "\\{");
}

// a string the parser would read as a boolean, null or an integer
function typedBySet(s) {
  return /^(?:true|false|null)$/i.test(s) || /^[-+]?[0-9]+$/.test(s);
}

export function shellQuote(s) {
  return "'" + s.replace(/'/g, "'\\''") + "'";
}

// `s` inside double quotes: \ " $ ` escaped
function dquote(s) {
  return "\"" + s.replace(/[\\"$`]/g, "\\$&") + "\"";
}

// a shell variable's name for a path: AUTH_PASSWORD for auth.password
function varName(segs, used) {
  let b = pathText(segs).toUpperCase().replace(/[^A-Z0-9]+/g, "_").replace(/^_+|_+$/g, "") || "SECRET";
  if (/^[0-9]/.test(b)) b = "_" + b;
  let v = b;
  for (let i = 2; used.has(v); i++) v = b + "_" + i;
  used.add(v);
  return v;
}

// Flags that give `value` (the exported overlay or values) to Helm. Returns
// the shell text ("" when there is nothing); a value no flag can carry (a
// top-level key "", an infinite number) is named in a closing comment.
// `secrets`: the JSON pointers of the secret strings in `value` (a Map or
// Set, form_secret.js maskSecrets()): each is a shell variable, and a list
// or map given whole that holds one is a variable holding its JSON.
export function setFlags(value, secrets = null) {
  const out = [];
  const lost = [];
  const vars = [], used = new Set();
  const ptrs = secrets && secrets.size ? [...secrets.keys()] : [];
  const holds = (segs) => { const p = pointer(segs); return ptrs.some((q) => q === p || q.startsWith(p + "/")); };
  const hidden = (flag, path, segs, what) => {
    const name = varName(segs, used);
    vars.push(name + " (" + (pathText(segs) || "(root)") + what + ")");
    out.push([flag, path + "=", name]);
  };
  const json = (path, v, segs) => { if (ptrs.length && holds(segs)) hidden("--set-json", path, segs, ", as JSON"); else out.push(["--set-json", path + "=" + JSON.stringify(v)]); };
  const walk = (v, path, level, label, segs) => {
    if (isMap(v)) {
      const keys = Object.keys(v);
      if (path !== "" && (keys.length === 0 || keys.includes("") || level >= MAX_LEVEL)) { json(path, v, segs); return; }
      for (const k of keys) {
        if (k === "") { lost.push("the top-level key \"\""); continue; }
        walk(v[k], path === "" ? keyEsc(k) : path + "." + keyEsc(k), level + 1, label === "" ? k : label + "." + k, segs.concat([k]));
      }
      return;
    }
    if (Array.isArray(v)) { json(path, v, segs); return; }
    if (v === null || typeof v === "boolean") { out.push(["--set", path + "=" + String(v)]); return; }
    if (typeof v === "number") {
      if (Number.isSafeInteger(v)) out.push(["--set", path + "=" + String(v)]);
      else if (Number.isFinite(v)) json(path, v, segs);
      else lost.push(label + " (" + String(v) + ")");
      return;
    }
    const s = String(v);
    if (ptrs.length && holds(segs)) hidden("--set-string", path, segs, "");
    else if (s.includes("\0")) json(path, s, segs);
    else out.push([typedBySet(s) ? "--set-string" : "--set", path + "=" + valEsc(s)]);
  };
  walk(value, "", 0, "", []);
  let text = out.map(([f, a, name]) => f + " " + (name ? dquote(a).slice(0, -1) + "${" + name + "}\"" : shellQuote(a))).join(" \\\n");
  if (vars.length) text += "\n# secret values are not printed: set " + (vars.length === 1 ? "this shell variable" : "these shell variables") +
    " first (read -rs NAME; export NAME), a comma or backslash in a value escaped (\\, \\\\) as --set reads it: " + vars.join(", ");
  if (lost.length) text += (text ? "\n" : "") + "# not expressible as flags (use the values file): " + lost.join(", ").replace(/\n/g, " ");
  return text;
}
