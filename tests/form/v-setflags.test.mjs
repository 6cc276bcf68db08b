// SPDX-License-Identifier: Apache-2.0
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
import {
  test, form, open, closeBrowser, check, checkEqual, checksDone, importText, preview, region, until, exportMode, loadValues, hygiene,
} from "./harness.mjs";
import { mergeValues } from "../../src/form/rules.js";
import { readFlags, argvOf } from "./strvals.mjs";

after(async () => { console.log(`count: form V --set flags checks ${checksDone()}`); await closeBrowser(); });

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
      // a secret value is a shell variable the closing comment names (the
      // preview shows it masked: the variables hold the mask here)
      const env = {};
      for (const m of (line.match(/^# secret values are not printed:.*$/m) || [""])[0].matchAll(/([A-Z0-9_]+) \(/g)) env[m[1]] = "********";
      if (mode === "Everything") check(Object.keys(env).length > 0 && /--set-string "auth\.password=\$\{AUTH_PASSWORD\}"/.test(line), `${mode}: the secret default is a variable: ${Object.keys(env)}`);
      for (const shell of ["bash", "zsh"]) {
        const argv = argvOf(shell, flagsOnly, env);
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
