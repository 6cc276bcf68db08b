// SPDX-License-Identifier: Apache-2.0
// D. Structure (../shared/design/form.md): oneOf with a const discriminator,
// if/then/else and dependentSchemas, additionalProperties / patternProperties
// maps, nullable, recursive $ref (bounded DOM 10 levels deep), readOnly /
// const, deprecated, secrets (masked, never in storage / URL / console),
// int-or-string, preserve-unknown-fields, list-type map, arrays at
// minItems / maxItems; the CRD's versions.
import { after } from "node:test";
import {
  test,
  form, open, closeBrowser, signal, checked, saved, check, checkEqual, checksDone, setField, importText, preview, until, button,
  reveal, control, controlId, downloadText, loadValues, exportMode, hygiene, problems, validate, writeTmp, SOURCES,
} from "./harness.mjs";

after(async () => { console.log(`count: form D structure checks ${checksDone()}`); await closeBrowser(); });

const parse = async (t) => { const d = await loadValues(t); return d.length && d[0] ? d[0] : {}; };
const exists = async (page, p) => (await controlId(page, p)) !== null;

let shared = null;
async function page() {
  if (!shared) shared = await open(form("chart"));
  await shared.page.reload({ waitUntil: "domcontentloaded" });
  await shared.page.waitForSelector('html[data-ready="1"]', { state: "attached" });
  return shared.page;
}
after(async () => { if (shared) await shared.close(); });

test("D oneOf: branch from the const discriminator, typing keeps it, switching drops the old fields and applies the new defaults", async () => {
  const pg = await page();
  await reveal(pg, "storage");
  const sel = pg.getByRole("combobox", { name: "Variant of storage", exact: true });
  checkEqual(await sel.evaluate((s) => s.selectedOptions[0].textContent.trim()), "PVC", "the data picks PVC");
  await setField(pg, "storage.size", "hostPath");   // a value that looks like the other branch's discriminator
  checkEqual(await sel.evaluate((s) => s.selectedOptions[0].textContent.trim()), "PVC", "typing never switches the branch");
  await sel.selectOption({ label: "Host path" });
  await until(() => exists(pg, "storage.path"), (v) => v, 3000, "storage.path appears");
  check(!(await exists(pg, "storage.size")), "storage.size is gone");
  checkEqual(await (await control(pg, "storage.path")).inputValue(), "/data", "the new branch's default");
  await exportMode(pg, "Everything");
  const all = await parse(await until(() => preview(pg), (t) => /hostPath/.test(t), 3000, "hostPath exported"));
  // Everything writes key: null for a default it deletes (form-contract-changes 10:20)
  const st = { ...all.storage };
  if (st.size === null) delete st.size;
  checkEqual(st, { kind: "hostPath", path: "/data" }, "Everything: only the new branch's keys (size deleted)");
  checkEqual((await problems(pg)).heading, "No problems", "the switched branch is valid");
});

test("D if/then/else: dependent fields appear and disappear; hidden ones are neither exported nor validated", async () => {
  const pg = await page();
  await reveal(pg, "persistence.enabled");
  check(!(await exists(pg, "persistence.size")), "persistence.size hidden while enabled is false");
  await setField(pg, "persistence.enabled", "true");
  await until(() => exists(pg, "persistence.size"), (v) => v, 3000, "persistence.size appears");
  await setField(pg, "persistence.size", "bad");
  await until(async () => (await control(pg, "persistence.size")).getAttribute("aria-invalid"), (v) => v === "true", 3000, "size invalid");
  await setField(pg, "persistence.enabled", "false");
  await until(() => exists(pg, "persistence.size"), (v) => !v, 3000, "persistence.size disappears");
  const v = await parse(await preview(pg));
  check(!v.persistence || !("size" in v.persistence), `a hidden field is not exported: ${JSON.stringify(v)}`);
  checkEqual((await problems(pg)).heading, "No problems", "a hidden field is not validated");
  // dependentSchemas: setting metrics.interval brings metrics.scrapeTimeout
  await reveal(pg, "metrics");
  check(!(await exists(pg, "metrics.scrapeTimeout")), "scrapeTimeout hidden");
  await setField(pg, "metrics.interval", "30s");
  await until(() => exists(pg, "metrics.scrapeTimeout"), (v) => v, 3000, "metrics.scrapeTimeout appears with interval");
});

test("D maps: add entry, key editor, empty / duplicate keys refused, pattern keys flagged, remove", async () => {
  const pg = await page();
  await reveal(pg, "podAnnotations");
  await button(pg, "Add entry to podAnnotations").click();
  // entries count from 1 (the contract does not say whether defaults' keys count: the last one is the new one)
  const key = pg.getByRole("textbox", { name: /^Key of podAnnotations entry \d+$/ }).last();
  await key.fill("team");
  await key.dispatchEvent("change");
  await setField(pg, "podAnnotations.team", "blue");
  const v = await parse(await until(() => preview(pg), (t) => /team: blue/.test(t), 3000, "new entry exported"));
  checkEqual(v.podAnnotations.team, "blue", "entry exported");
  // typed and changed again on each try: a redraw of the entries between the
  // fill and the change (the preview's or an update's, late on a loaded
  // machine) replaces the input, and the old one's change is then ignored
  const refused = (text) => async () => {
    await key.fill(text);
    await key.dispatchEvent("change");
    return key.getAttribute("aria-invalid");
  };
  await until(refused(""), (x) => x === "true", 5000, "an empty key is refused");
  await until(refused("prometheus.io/scrape"), (x) => x === "true", 5000, "a duplicate key is refused");
  check(true, "empty and duplicate keys refused");
  await key.fill("team");
  await key.dispatchEvent("change");
  await button(pg, "Remove podAnnotations.team").click();
  await until(() => preview(pg), (t) => !/team/.test(t), 3000, "entry removed");
  // patternProperties: a key not matching is flagged
  await reveal(pg, "labels");
  await button(pg, "Add entry to labels").click();
  const lk = pg.getByRole("textbox", { name: "Key of labels entry 1", exact: true });
  check(await lk.count() === 1, "labels: the first entry is entry 1");
  await lk.fill("Bad");
  await lk.dispatchEvent("change");
  await setField(pg, "labels.Bad", "x");
  await until(async () => (await pg.locator('[data-path^="labels"] [aria-invalid="true"]').count()), (n) => n > 0, 3000, "key not matching the pattern flagged");
  check(true, "pattern key flagged");
});

test("D nullable, readOnly, const, deprecated", async () => {
  const pg = await page();
  const nul = pg.getByRole("checkbox", { name: "priorityClassName is null", exact: true });
  checkEqual(await nul.isChecked(), true, "null default: the null toggle is on");
  await nul.uncheck();
  await setField(pg, "priorityClassName", "high");
  checkEqual((await parse(await until(() => preview(pg), (t) => /high/.test(t), 3000, "high"))).priorityClassName, "high", "a value after null");
  await nul.check();
  const v = await parse(await until(() => preview(pg), (t) => !/high/.test(t), 3000, "back to null"));
  check(!("priorityClassName" in v) || v.priorityClassName === null, "null again");
  const ro = await reveal(pg, "buildId");
  check(await ro.evaluate((e) => e.disabled || e.readOnly), "readOnly: not editable");
  const cst = await reveal(pg, "schemaVersion");
  check(await cst.evaluate((e) => e.disabled || e.readOnly), "const: not editable");
  await reveal(pg, "oldSetting");
  check(/Deprecated/.test(await pg.locator('[data-path="oldSetting"]').first().textContent()), "a Deprecated badge");
  const n0 = await signal(pg, "checks");
  await setField(pg, "oldSetting", "x");
  await checked(pg, n0);
  check((await (await control(pg, "oldSetting")).getAttribute("aria-invalid")) !== "true", "setting a deprecated key warns, does not fail");
});

test("D secrets: masked with a Show button; never in storage, the URL or the console", async () => {
  const pg = await page();
  const logs = [];
  pg.on("console", (m) => logs.push(m.text()));
  for (const p of ["auth.password", "auth.apiKey", "auth.bootstrap", "auth.dbLogin"]) {
    const c = await reveal(pg, p);
    checkEqual(await c.getAttribute("type"), "password", `${p} masked`);
  }
  const SECRET = "s3cr3t-Zq9-xyz";
  const s0 = await signal(pg, "saves");
  await setField(pg, "auth.password", SECRET);
  await button(pg, "Show auth.password").click();
  checkEqual(await (await control(pg, "auth.password")).getAttribute("type"), "text", "Show unmasks");
  await until(() => preview(pg), (t) => /password: "\*{8}"/.test(t), 3000, "the secret is masked in the preview");
  check((await downloadText(pg)).includes(SECRET), "the secret is in the downloaded values file");
  await button(pg, "Dark mode").click();
  // the autosave after the secret (a 300 ms timer, then an idle callback) ran
  await saved(pg, s0);
  const leak = await pg.evaluate((s) => {
    const store = (st) => Array.from({ length: st.length }, (_, i) => st.key(i) + "=" + st.getItem(st.key(i))).join("\n");
    return { local: store(localStorage).includes(s), session: store(sessionStorage).includes(s), url: location.href.includes(s) || !!history.state && JSON.stringify(history.state).includes(s) };
  }, SECRET);
  checkEqual(leak, { local: false, session: false, url: false }, "the secret is not in storage or the URL");
  check(!logs.some((l) => l.includes(SECRET)), "the secret is not in the console");
  await button(pg, "Dark mode").click();
});

test("D int-or-string, preserve-unknown-fields, list-type map, arrays at their limits", async () => {
  const pg = await page();
  await setField(pg, "maxUnavailable", "25%");
  checkEqual((await parse(await until(() => preview(pg), (t) => /25%/.test(t), 3000, "25%"))).maxUnavailable, "25%", "int-or-string: a string");
  await setField(pg, "maxUnavailable", "3");
  checkEqual((await parse(await until(() => preview(pg), (t) => /maxUnavailable: 3/.test(t), 3000, "3"))).maxUnavailable, 3, "int-or-string: an integer");
  // free YAML
  const ta = await reveal(pg, "extraConfig");
  checkEqual(await ta.evaluate((e) => e.tagName), "TEXTAREA", "extraConfig is a textarea");
  await ta.fill("a: [\n");
  await ta.dispatchEvent("change");
  const err = await until(async () => (await pg.locator('[data-path="extraConfig"] .sd-error').allTextContents()).join(" "), (t) => /\d+:\d+|line \d+/.test(t), 3000, "YAML syntax error with line:col");
  check(err.length > 0, `free YAML error: ${err}`);
  await ta.fill("a: 1\nb:\n  - x\n");
  await ta.dispatchEvent("change");
  checkEqual((await parse(await until(() => preview(pg), (t) => /- x/.test(t), 3000, "free YAML exported"))).extraConfig, { a: 1, b: ["x"] }, "free YAML exported as data");
  // list-type map: a duplicate key is flagged
  await reveal(pg, "ports");
  await button(pg, "Add item to ports").click();
  await setField(pg, "ports[1].name", "http");
  await until(async () => pg.locator('[data-path^="ports"] [aria-invalid="true"]').count(), (n) => n > 0, 3000, "duplicate list-map key flagged");
  check(true, "duplicate list-map key flagged");
  // arrays: tags minItems 1 / maxItems 3
  await reveal(pg, "tags");
  check(await button(pg, "Remove tags[0]").isDisabled(), "remove disabled at minItems");
  check(await button(pg, "Move tags[0] up").isDisabled(), "move up disabled on the first item");
  check(await button(pg, "Move tags[0] down").isDisabled(), "move down disabled on the last item");
  await button(pg, "Add item to tags").click();
  await setField(pg, "tags[1]", "b");
  await button(pg, "Add item to tags").click();
  await setField(pg, "tags[2]", "c");
  check(await button(pg, "Add item to tags").isDisabled(), "add disabled at maxItems");
  await button(pg, "Move tags[2] up").click();
  checkEqual((await parse(await until(() => preview(pg), (t) => /- c\n\s*- b/.test(t), 3000, "moved"))).tags, ["stable", "c", "b"], "move up reorders");
  check(!(await button(pg, "Remove tags[0]").isDisabled()), "remove enabled above minItems");
});

test("D recursive $ref: ten levels deep, the DOM stays bounded", async () => {
  const pg = await page();
  await reveal(pg, "menu");
  const n0 = await pg.evaluate(() => document.getElementsByTagName("*").length);
  let p = "menu";
  const sizes = [];
  for (let i = 0; i < 10; i++) {
    p += ".sub";
    await reveal(pg, `${p}.label`);
    sizes.push(await pg.evaluate(() => document.getElementsByTagName("*").length));
  }
  await setField(pg, `${p}.label`, "deep");
  const v = await parse(await until(() => preview(pg), (t) => /deep/.test(t), 3000, "deep value"));
  let m = v.menu;
  for (let i = 0; i < 10; i++) m = m && m.sub;
  checkEqual(m && m.label, "deep", "the tenth level exported");
  const growth = sizes[sizes.length - 1] - n0;
  check(growth < 10 * 200, `10 levels add ${growth} nodes (< 2000): ${sizes.join(",")}`);
  const step = sizes[9] - sizes[8];
  check(step < 2 * Math.max(50, sizes[1] - sizes[0]), `each level adds about the same (${sizes[1] - sizes[0]} then ${step})`);
});

test("D CRD: a Version select, one form per version", async () => {
  const p = await open(form("crd"));
  try {
    const ver = p.page.getByRole("combobox", { name: "Version", exact: true });
    const opts = await ver.locator("option").allTextContents();
    check(opts.some((o) => /v1\b/.test(o)) && opts.some((o) => /v1beta1/.test(o)), `versions: ${opts}`);
    check(await exists(p.page, "spec.size") || (await reveal(p.page, "spec.size"), true), "spec.size in v1");
    await ver.selectOption({ label: opts.find((o) => /v1beta1/.test(o)) });
    await reveal(p.page, "spec.legacyColor");
    check(await exists(p.page, "spec.legacyColor"), "v1beta1's field");
    const m = await parse(await until(() => preview(p.page, "manifest preview"), (t) => /v1beta1/.test(t), 3000, "manifest apiVersion follows"));
    checkEqual(m.apiVersion, "example.com/v1beta1", "apiVersion of the chosen version");
    // the chosen version's rules: v1beta1 has no bounds on size, types still count
    const bad = "apiVersion: example.com/v1beta1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: many\n  legacyColor: 7\n";
    await importText(p.page, bad);
    const want = validate(SOURCES.crd, [writeTmp("v1beta1-bad.yaml", bad)]).flatMap((r) => r.errors.map((e) => e.message)).sort();
    check(want.length === 2, `validate: two errors for v1beta1 (${want})`);
    const pr = await until(() => problems(p.page), (x) => x.items.length === want.length, 4000, "v1beta1 problems");
    checkEqual(pr.items.map((i) => i.text.replace(/^[^:]*: /, "")).sort(), want, "v1beta1: Problems == validate");
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});
