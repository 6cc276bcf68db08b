// SPDX-License-Identifier: Apache-2.0
// V. The form's import against hostile files (issue 36, items 10 and 11):
// a YAML merge-key bomb (745 bytes, 11 levels of `<<: [*a, *a, ...]`) is
// refused at once with a message, as the alias bomb is, and the page stays
// responsive; map keys named constructor, __proto__, prototype,
// hasOwnProperty and toString are data at every level of import, edit and
// export (no "[object Object]", no refused file, no prototype touched).
import { after } from "node:test";
import {
  test, form, open, closeBrowser, check, checkEqual, checksDone, importText, preview, until, exportMode, loadValues, setField, hygiene,
  reveal, problems, button, keyPath,
} from "./harness.mjs";
import { readFlags, argvOf } from "./strvals.mjs";

after(async () => { console.log(`count: form V hostile import checks ${checksDone()}`); await closeBrowser(); });

const FORM = "tests/form/fixtures/chart-values";
// resolves with the page's answer, or "timeout" when the page does not answer in `ms`
const within = (ms, pr) => Promise.race([pr, new Promise((r) => setTimeout(() => r("timeout"), ms))]);

function mergeBomb(levels) {
  let t = "a0: &a0 {x: 10}\n";
  for (let i = 1; i <= levels; i++) t += `a${i}: &a${i} {<<: [${Array(10).fill("*a" + (i - 1)).join(", ")}]}\n`;
  return t;
}

test("V merge-key bomb: refused at once with line, column and a clear message; the page stays responsive", async () => {
  const bomb = mergeBomb(11);
  checkEqual(bomb.length, 745, "the bomb: 745 bytes, 11 levels of ten merges");
  const p = await open(form(FORM));
  try {
    const t0 = Date.now();
    await importText(p.page, bomb, "bomb.yaml");
    const alert = await within(15000, until(async () => (await p.page.getByRole("alert").allTextContents()).join(" "), (t) => /Import failed/.test(t), 14000, "the refusal"));
    const ms = Date.now() - t0;
    check(alert !== "timeout", "the page answered (it did not freeze)");
    check(/^Import failed: line \d+, column \d+: merge keys \(<<\) here expand to more than 1000000 values/.test(alert.trim()), `a clear message: ${alert}`);
    check(ms < 5000, `refused in ${ms} ms`);
    checkEqual(await within(2000, p.page.evaluate(() => 1 + 1)), 2, "the page answers after the refusal");
    checkEqual(await preview(p.page), "", "nothing imported");
    // the alias bomb still is refused, and an ordinary file with merge keys imports
    await importText(p.page, "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n", "alias.yaml");
    await until(async () => (await p.page.getByRole("alert").allTextContents()).join(" "), (t) => /resource exhaustion|alias/i.test(t), 5000, "alias bomb refused");
    await importText(p.page, "base: &b {type: gcs, size: 5}\nstorage:\n  <<: *b\n  size: 20\n", "merge.yaml");
    const y = await until(() => preview(p.page), (t) => /gcs/.test(t), 4000, "an ordinary merge imports");
    checkEqual((await loadValues(y))[0].storage, { type: "gcs", size: 20 }, "merged as YAML 1.1 says");
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

const NAMES = ["constructor", "__proto__", "prototype", "hasOwnProperty", "toString"];
// every name at the top, under a map of the chart (podAnnotations), under a
// free map (config), inside a list item, two levels down
function hostileFile() {
  const inner = (pre) => "{" + NAMES.map((k) => `${k}: "${pre}.${k}"`).join(", ") + "}";
  let t = "";
  for (const k of NAMES) t += `${k}:\n${NAMES.map((j) => `  ${j}: ${inner(k + "." + j)}`).join("\n")}\n`;
  t += `podAnnotations: ${inner("pa")}\n`;
  t += `config:\n  list:\n    - ${inner("li")}\n${NAMES.map((j) => `  ${j}: ${inner("cf." + j)}`).join("\n")}\n`;
  return t;
}

test("V keys named like Object.prototype's members: free maps import and export them as data", async () => {
  const file = hostileFile();
  const want = (await loadValues(file))[0];
  checkEqual(Object.keys(want).length, 7, "the test's own reader sees seven top-level keys");
  const p = await open(form(FORM));
  try {
    await importText(p.page, file);
    const y = await until(() => preview(p.page), (t) => /cf\.toString\.toString/.test(t), 5000, "imported");
    check(!/\[object Object\]/.test(y), "no [object Object]");
    checkEqual(await p.page.getByRole("alert").filter({ hasText: "Import failed" }).count(), 0, "the file was not refused");
    checkEqual((await loadValues(y))[0], want, "Only changes: every key and value as imported");
    await exportMode(p.page, "Everything");
    const all = (await loadValues(await until(() => preview(p.page), (t) => /replicaCount/.test(t), 4000, "Everything")))[0];
    for (const k of [...NAMES, "podAnnotations", "config"]) checkEqual(all[k], want[k], `Everything: ${k}`);
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

// a schema whose properties, map entries and list items carry those names
const PROTO = "tests/form/fixtures/schema/protokeys.schema.json";
const PROTO_FILE = `constructor:
  __proto__: a
  toString:
    prototype: b
    hasOwnProperty: 1
__proto__:
  constructor: c
  toString: c2
prototype:
  - toString: d
    constructor: true
hasOwnProperty: e
toString:
  hasOwnProperty:
    constructor: f
`;

test("V keys named like Object.prototype's members: fields at every level import, edit, validate and export", async () => {
  const p = await open(form(PROTO));
  try {
    await importText(p.page, PROTO_FILE);
    const y = await until(() => preview(p.page), (t) => /constructor: f/.test(t), 5000, "imported");
    const want = (await loadValues(PROTO_FILE))[0];
    checkEqual((await loadValues(y))[0], want, "exported as imported");
    checkEqual((await problems(p.page)).heading, "No problems", "valid as imported");
    // each field shows its value
    const shown = {
      "constructor.__proto__": "a", "constructor.toString.prototype": "b", "constructor.toString.hasOwnProperty": "1",
      "__proto__.constructor": "c", "__proto__.toString": "c2", "prototype[0].toString": "d", hasOwnProperty: "e", "toString.hasOwnProperty.constructor": "f",
    };
    for (const [fp, v] of Object.entries(shown)) checkEqual(await (await reveal(p.page, fp)).inputValue(), v, `${fp} shows its value`);
    checkEqual(await (await reveal(p.page, "prototype[0].constructor")).inputValue(), "true", "a boolean under a key named constructor");
    // edit one at each level
    const edits = [["constructor.__proto__", "A"], ["constructor.toString.prototype", "B"], ["__proto__.constructor", "C"], ["prototype[0].toString", "D"],
      ["hasOwnProperty", "E"], ["toString.hasOwnProperty.constructor", "F"]];
    for (const [fp, v] of edits) await setField(p.page, fp, v);
    await setField(p.page, "prototype[0].constructor", "false");
    const y2 = await until(() => preview(p.page), (t) => /constructor: F/.test(t) && /constructor: false/.test(t), 5000, "edited");
    // (JSON.parse: an object literal's __proto__ would set a prototype, not a key)
    const want2 = JSON.parse('{"constructor": {"__proto__": "A", "toString": {"prototype": "B", "hasOwnProperty": 1}}, "__proto__": {"constructor": "C", "toString": "c2"},' +
      ' "prototype": [{"toString": "D", "constructor": false}], "hasOwnProperty": "E", "toString": {"hasOwnProperty": {"constructor": "F"}}}');
    const parsed = (await loadValues(y2))[0];
    checkEqual(JSON.stringify(parsed), JSON.stringify(want2), "every edit exported, nothing else changed");
    // a wrong type under those names is reported as validate reports it
    await setField(p.page, "constructor.toString.hasOwnProperty", "x");
    const pr = await until(() => problems(p.page), (x) => x.items.length === 1, 4000, "one problem");
    checkEqual(pr.items.map((i) => i.text), ['constructor.toString.hasOwnProperty: found string "x", expected integer'], "the message of validate");
    checkEqual(await p.page.evaluate(() => [typeof ({}).constructor, typeof ({}).toString, typeof ({}).hasOwnProperty, Object.keys(Object.prototype).length]),
      ["function", "function", "function", 0], "Object.prototype untouched");
    await exportMode(p.page, "Everything");
    const all = (await loadValues(await until(() => preview(p.page), (t) => /hasOwnProperty: x/.test(t), 4000, "Everything")))[0];
    checkEqual(all.constructor.toString.hasOwnProperty, "x", "Everything has the edit");
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

// Typed on the page: each name added as a map entry (the key editor), then
// its value set; the export, the --set line (through bash), undo/redo and
// the autosaved session all keep them as keys.
test("V keys named like Object.prototype's members: added on the page, exported, in the --set line, undone and restored", async () => {
  const p = await open(form("chart"));
  try {
    const pg = p.page;
    await reveal(pg, "podAnnotations");
    for (const k of NAMES) {
      await button(pg, "Add entry to podAnnotations").click();
      const key = pg.getByRole("textbox", { name: /^Key of podAnnotations entry \d+$/ }).last();
      await key.fill(k);
      await key.dispatchEvent("change");
      await setField(pg, keyPath("podAnnotations", k), "v-" + k);
    }
    const want = JSON.parse("{" + NAMES.map((k) => `"${k}": "v-${k}"`).join(", ") + "}");
    const y = await until(() => preview(pg), (t) => /v-toString/.test(t), 5000, "entries exported");
    const pa = (await loadValues(y))[0].podAnnotations;
    checkEqual(JSON.stringify(Object.fromEntries(Object.entries(pa).filter(([k]) => NAMES.includes(k)))), JSON.stringify(want), "each name a key with its value");
    checkEqual(await pg.getByRole("alert").filter({ hasText: /./ }).count(), 0, "no key refused");
    const flags = (await pg.locator("#sd-flags").textContent()) || "";
    const read = readFlags(argvOf("bash", flags)).values.podAnnotations;
    for (const k of NAMES) checkEqual(Object.prototype.hasOwnProperty.call(read, k) ? read[k] : undefined, "v-" + k, `--set: podAnnotations.${k}`);
    // undo the last value, redo it
    await pg.locator("body").click({ position: { x: 5, y: 5 } });
    await pg.keyboard.press("Control+z");
    await until(() => preview(pg), (t) => !/v-toString/.test(t), 4000, "undone");
    await pg.keyboard.press("Control+Shift+Z");
    await until(() => preview(pg), (t) => /v-toString/.test(t), 4000, "redone");
    // the session saved and restored
    await until(() => pg.evaluate(() => Object.keys(localStorage).length), (n) => n === 1, 3000, "saved");
    await pg.reload({ waitUntil: "domcontentloaded" });
    await pg.waitForSelector('html[data-ready="1"]', { state: "attached" });
    await pg.getByRole("button", { name: "Restore your last session" }).click();
    const y2 = await until(() => preview(pg), (t) => /v-toString/.test(t), 4000, "restored");
    checkEqual(y2, y, "the restored session exports the same file");
    checkEqual(await pg.evaluate(() => [typeof ({}).constructor, typeof ({}).toString, Object.keys(Object.prototype).length]), ["function", "function", 0], "Object.prototype untouched");
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});
