// V. Values are never lost (issue 33): the "--set flags" line is valid shell
// and gives Helm exactly the exported values. The printed line is run through
// `bash -c` and `zsh -c` into argv; the flags are read by a reader of Helm's
// strvals syntax written here from Helm's documentation ("The Format and
// Limitations of --set": `a=b,c=d`, `outer.inner=v`, `name={a,b}`,
// `list[0]=v`, a backslash escapes the next character, values typed as
// booleans, null and integers unless --set-string, --set-json values are
// JSON); the result must equal the exported YAML, for keys with dots,
// slashes, commas, brackets, `=`, quotes, spaces, unicode, and empty and
// nested lists and maps, in both export modes.
import { after } from "node:test";
import { execFileSync } from "node:child_process";
import {
  test, form, open, closeBrowser, check, checkEqual, checksDone, importText, preview, region, until, exportMode, loadValues, hygiene,
} from "./harness.mjs";
import { mergeValues } from "../../src/form/rules.js";

after(async () => { console.log(`count: form V --set flags checks ${checksDone()}`); await closeBrowser(); });

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
function argvOf(shell, line) {
  const script = `set -- ${line}\nprintf '%s\\0' "$@"\n`;
  const out = execFileSync(shell, ["-c", script], { encoding: "utf8" });
  return out === "" ? [] : out.slice(0, -1).split("\0");
}

// Helm deletes a key set to null; a key set to null that the export writes as
// `key: null` reads back the same, so the comparison keeps nulls on both sides.
const FILE = `
podAnnotations:
  prometheus.io/scrape: "true"
  "nginx.ingress.kubernetes.io/rewrite-target": /$2
  "a,b": "x,y"
  "x[0]": bracket
  "k=v": "a=b"
  "it's": "don't"
  'quote"d': 'say "hi"'
  "with space": two words
  "ünï/🙂": "ünïcødé 🙂"
  "back\\\\slash": "c:\\\\dir\\\\"
  "{brace": "{x}"
  "dots.and.more": "1.5"
  "multi": "line one\\nline two"
config:
  emptyList: []
  emptyMap: {}
  emptyKeyMap: {"": empty-key, "a": 1}
  nested:
    "a.b":
      "c,d": [1, {e: []}, [], [[]], {}]
  numbers: [0, -3, 1.5, 1e21, 123456789012]
  strings: ["true", "007", "", "null", "1.5", "-3", "0", "TRUE", "{a,b}", "a,b", "\\\\"]
  float: 2.5
  bigint: 9007199254740993
  octalish: "0755"
  bool: false
  str0: ""
  typedWords: [yes, no, on]
storage:
  size: null
tags: []
"top.level/key": 1
`;

test("V --set: the printed line, read by bash and zsh into argv and by Helm's rules, gives the exported values", async () => {
  const p = await open(form("tests/form/fixtures/chart-values"));
  try {
    await importText(p.page, FILE);
    for (const mode of ["Only changes", "Everything"]) {
      await exportMode(p.page, mode);
      const y = await until(() => preview(p.page), (t) => /rewrite-target/.test(t) && (mode === "Only changes" || /replicaCount/.test(t)), 4000, `${mode} preview`);
      const exported = (await loadValues(y))[0];
      const line = (await region(p.page, "--set flags").locator("pre").first().textContent()) || "";
      check(line.length > 0, `${mode}: there are flags`);
      // a key "" no path can name goes with its map as --set-json: nothing is left out
      check(!line.includes("# not expressible"), `${mode}: every value is in the flags: ${line.slice(-200)}`);
      check(/--set-json 'config\.emptyKeyMap=\{"":"empty-key","a":1\}'/.test(line), `${mode}: the map with a key "" as JSON`);
      const flagsOnly = line;
      for (const shell of ["bash", "zsh"]) {
        const argv = argvOf(shell, flagsOnly);
        check(argv.length >= 2 && argv.length % 2 === 0, `${mode} ${shell}: flag pairs (${argv.length})`);
        const { values, count } = readFlags(argv);
        check(count >= 20, `${mode} ${shell}: ${count} flags`);
        checkEqual(values, exported, `${mode} ${shell}: Helm's reading of the flags equals the exported YAML`);
      }
      // the flag kinds that keep types
      check(/--set-json 'config\.strings=\[/.test(line), `${mode}: a list goes as --set-json`);
      check(/--set-json 'config\.emptyList=\[\]'/.test(line) && /--set-json 'config\.emptyMap=\{\}'/.test(line), `${mode}: {} and [] as JSON, not [""]`);
      check(/--set-string 'podAnnotations\.prometheus\\\.io\/scrape=true'/.test(line), `${mode}: "true" as --set-string, dots escaped: ${line.split("\n")[0]}`);
      check(/--set-json 'config\.float=2\.5'/.test(line), `${mode}: a float as JSON (--set would give a string)`);
    }
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

test("V --set: typed edits and a deleted default reach the flags as the YAML says", async () => {
  const p = await open(form("tests/form/fixtures/chart-values"));
  try {
    await importText(p.page, "replicaCount: 3\nstorage:\n  type: null\n  size: 20\ntags: [x, \"y,z\", \"1\"]\n");
    const y = await until(() => preview(p.page), (t) => /size: 20/.test(t), 4000, "preview");
    const exported = (await loadValues(y))[0];
    const line = (await region(p.page, "--set flags").locator("pre").first().textContent()) || "";
    for (const shell of ["bash", "zsh"]) checkEqual(readFlags(argvOf(shell, line)).values, exported, `${shell}: equal`);
    // over the chart's defaults, as helm would merge them
    checkEqual(mergeValues({ storage: { type: "s3", size: 10 } }, readFlags(argvOf("bash", line)).values).storage, { size: 20 }, "null deletes the default");
  } finally { await p.close(); }
});
