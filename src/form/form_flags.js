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
import { isMap } from "./form_values.js";

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

// Flags that give `value` (the exported overlay or values) to Helm. Returns
// the shell text ("" when there is nothing); a value no flag can carry (a
// top-level key "", an infinite number) is named in a closing comment.
export function setFlags(value) {
  const out = [];
  const lost = [];
  const json = (path, v) => out.push(["--set-json", path + "=" + JSON.stringify(v)]);
  const walk = (v, path, level, label) => {
    if (isMap(v)) {
      const keys = Object.keys(v);
      if (path !== "" && (keys.length === 0 || keys.includes("") || level >= MAX_LEVEL)) { json(path, v); return; }
      for (const k of keys) {
        if (k === "") { lost.push("the top-level key \"\""); continue; }
        walk(v[k], path === "" ? keyEsc(k) : path + "." + keyEsc(k), level + 1, label === "" ? k : label + "." + k);
      }
      return;
    }
    if (Array.isArray(v)) { json(path, v); return; }
    if (v === null || typeof v === "boolean") { out.push(["--set", path + "=" + String(v)]); return; }
    if (typeof v === "number") {
      if (Number.isSafeInteger(v)) out.push(["--set", path + "=" + String(v)]);
      else if (Number.isFinite(v)) json(path, v);
      else lost.push(label + " (" + String(v) + ")");
      return;
    }
    const s = String(v);
    if (s.includes("\0")) json(path, s);
    else out.push([typedBySet(s) ? "--set-string" : "--set", path + "=" + valEsc(s)]);
  };
  walk(value, "", 0, "");
  let text = out.map(([f, a]) => f + " " + shellQuote(a)).join(" \\\n");
  if (lost.length) text += (text ? "\n" : "") + "# not expressible as flags (use the values file): " + lost.join(", ").replace(/\n/g, " ");
  return text;
}
