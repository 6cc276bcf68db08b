// SPDX-License-Identifier: Apache-2.0
// strvals.mjs - a reader of Helm's --set syntax for the V tests, written
// from Helm's documentation ("The Format and Limitations of --set":
// `a=b,c=d`, `outer.inner=v`, `name={a,b}`, `list[0]=v`, a backslash escapes
// the next character, values typed as booleans, null and integers unless
// --set-string, --set-json values are JSON), and a shell (bash, zsh) that
// turns the form's printed line into the argv Helm would get.
import { execFileSync } from "node:child_process";

// ---- a reader of Helm's --set syntax ---------------------------------------------
// One flag's text: assignments separated by `,`; a name is keys separated by
// `.`, each possibly followed by `[N]`; `\` takes the next character as it
// is, in names and in values; a value starting with `{` is a list.
function typed(s, asString) {
  if (asString) return s;
  if (/^true$/i.test(s)) return true;
  if (/^false$/i.test(s)) return false;
  if (/^null$/i.test(s)) return null;
  if (s === "0") return 0;
  if (s !== "" && s[0] !== "0" && /^[-+]?[0-9]+$/.test(s) && Math.abs(Number(s)) < 2 ** 63) return Number(s);
  return s;
}
// the end of the one JSON value that starts at text[i]
function jsonEnd(text, i) {
  let depth = 0, inStr = false;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (inStr) { if (c === "\\") j++; else if (c === '"') { inStr = false; if (depth === 0) return j + 1; } continue; }
    if (c === '"') inStr = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") { depth--; if (depth === 0) return j + 1; }
    else if (c === "," && depth === 0) return j;
  }
  return text.length;
}
function setIn(obj, path, v) {
  let o = obj;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i], nextIsIndex = typeof path[i + 1] === "number";
    const cur = Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
    if (cur === undefined || cur === null || typeof cur !== "object" || Array.isArray(cur) !== nextIsIndex) {
      Object.defineProperty(o, k, { value: nextIsIndex ? [] : {}, enumerable: true, writable: true, configurable: true });
    }
    o = o[k];
  }
  Object.defineProperty(o, path[path.length - 1], { value: v, enumerable: true, writable: true, configurable: true });
}
export function readSet(flag, text, into) {
  let i = 0;
  while (i < text.length) {
    // the name
    const path = [];
    let key = "";
    for (;;) {
      if (i >= text.length) throw new Error(`${flag} ${text}: key "${key}" has no value`);
      const c = text[i];
      if (c === "\\") { key += text[i + 1]; i += 2; continue; }
      if (c === ".") { path.push(key); key = ""; i++; continue; }
      if (c === "[") {
        path.push(key); key = "";
        const j = text.indexOf("]", i);
        path.push(Number(text.slice(i + 1, j)));
        i = j + 1;
        if (text[i] === ".") i++;
        else if (text[i] === "[") continue;
        continue;
      }
      if (c === "=") { if (key !== "" || !path.length || typeof path[path.length - 1] !== "number") path.push(key); i++; break; }
      if (c === ",") throw new Error(`${flag} ${text}: key "${key}" has no value`);
      key += c; i++;
    }
    if (path.some((k) => k === "")) throw new Error(`${flag} ${text}: an empty key cannot be named`);
    // the value
    if (flag === "--set-json") {
      const end = jsonEnd(text, i);
      setIn(into, path, end === i ? null : JSON.parse(text.slice(i, end)));
      i = end + (text[end] === "," ? 1 : 0);
      continue;
    }
    const asString = flag === "--set-string";
    if (text[i] === "{") {
      const list = [];
      let cur = "";
      i++;
      for (;;) {
        const c = text[i];
        if (c === undefined) throw new Error(`${flag} ${text}: list must terminate with '}'`);
        if (c === "\\") { cur += text[i + 1]; i += 2; continue; }
        if (c === "," || c === "}") { list.push(typed(cur, asString)); cur = ""; i++; if (c === "}") break; continue; }
        cur += c; i++;
      }
      if (text[i] === ",") i++;
      setIn(into, path, list);
      continue;
    }
    let v = "";
    while (i < text.length && text[i] !== ",") {
      if (text[i] === "\\") { v += text[i + 1]; i += 2; } else v += text[i++];
    }
    if (text[i] === ",") i++;
    setIn(into, path, typed(v, asString));
  }
  return into;
}
// Helm applies --set-json, then --set, then --set-string (each flag in order)
export function readFlags(argv) {
  const out = {};
  const flags = [];
  for (let i = 0; i < argv.length; i += 2) {
    if (!/^--set(-string|-json)?$/.test(argv[i]) || i + 1 >= argv.length) throw new Error(`not a flag pair: ${JSON.stringify(argv.slice(i, i + 2))}`);
    flags.push([argv[i], argv[i + 1]]);
  }
  for (const kind of ["--set-json", "--set", "--set-string"]) for (const [f, t] of flags) if (f === kind) readSet(f, t, out);
  return { values: out, count: flags.length };
}

// the printed line through a real shell: argv as the shell hands it to helm
// (`env`: shell variables the line names, e.g. a secret's placeholder)
export function argvOf(shell, line, env = {}) {
  const script = `set -- ${line}\nprintf '%s\\0' "$@"\n`;
  const out = execFileSync(shell, ["-c", script], { encoding: "utf8", env: { ...process.env, ...env } });
  return out === "" ? [] : out.slice(0, -1).split("\0");
}

