// SPDX-License-Identifier: Apache-2.0
// V. Free-form maps are editable (issue 40, 4). Fixture chart-freemaps:
// `config` and `config.exporters` take any key (additionalProperties: true),
// `storage` any key of an untyped schema, `extra` is an object the schema
// says nothing more of (a YAML field). Each offers "Add key to PATH" (the
// value typed as YAML: a scalar, a list or a map), "Remove PATH.KEY" (one of
// the defaults too: the export writes KEY: null and the page says Helm's
// merge deletes the default), and a member's value edited as YAML in place,
// checked by the form's validation. `settings` is handed whole to a
// template (templates/configmap.yaml): a free map too.
import { after } from "node:test";
import {
  test, form, open, closeBrowser, check, checkEqual, checksDone, preview, until, loadValues, reveal, button, problems,
  hygiene, FIX, exportMode, importText, region,
} from "./harness.mjs";
import path from "node:path";

after(async () => { console.log(`count: form V free-maps checks ${checksDone()}`); await closeBrowser(); });

const SRC = path.join(FIX, "chart-freemaps");
const parse = async (t) => { const d = await loadValues(t); return d.length && d[0] ? d[0] : {}; };

async function addKey(pg, p, key, yaml) {
  await button(pg, "Add key to " + p).click();
  await pg.getByRole("textbox", { name: "New key of " + p, exact: true }).fill(key);
  await pg.getByRole("textbox", { name: "Value of the new key of " + p + " (YAML)", exact: true }).fill(yaml);
  await button(pg, "Add the new key to " + p).click();
}

test("V free maps: Add key with a map, a list and a scalar typed as YAML; duplicates refused", async () => {
  const p = await open(form(SRC));
  const pg = p.page;
  try {
    await reveal(pg, "config");
    await addKey(pg, "config", "processors", "batch: {}\nmemory_limiter:\n  limit_mib: 400\n");
    let v = await parse(await until(() => preview(pg), (t) => /limit_mib/.test(t), 4000, "a map added"));
    checkEqual(v.config.processors, { batch: {}, memory_limiter: { limit_mib: 400 } }, "a map value");
    check(await pg.locator('[data-path="config.processors"]').count() > 0, "the new key is a field");
    await addKey(pg, "config", "extensions", "[health_check, pprof]");
    v = await parse(await until(() => preview(pg), (t) => /pprof/.test(t), 4000, "a list added"));
    checkEqual(v.config.extensions, ["health_check", "pprof"], "a list value");
    await reveal(pg, "config.exporters");
    await addKey(pg, "config.exporters", "otlp", "endpoint: collector:4317");
    await addKey(pg, "config.exporters", "level", "5");
    v = await parse(await until(() => preview(pg), (t) => /level: 5/.test(t), 4000, "a scalar added"));
    checkEqual(v.config.exporters.otlp, { endpoint: "collector:4317" }, "a nested free map takes keys too");
    checkEqual(v.config.exporters.level, 5, "a scalar typed as YAML is a number");
    await addKey(pg, "config", "exporters", "x: 1");
    const err = await until(() => pg.locator('[id="f-config_freeerr"]').textContent(), (t) => /duplicate/.test(t || ""), 3000, "duplicate refused");
    checkEqual(err, "duplicate key 'exporters'", "a duplicate key is refused");
    await pg.getByRole("textbox", { name: "New key of config", exact: true }).fill("bad");
    await pg.getByRole("textbox", { name: "Value of the new key of config (YAML)", exact: true }).fill("a: [\n");
    await button(pg, "Add the new key to config").click();
    const err2 = await until(() => pg.locator('[id="f-config_freeerr"]').textContent(), (t) => /line \d+, column \d+/.test(t || ""), 3000, "bad YAML refused");
    check(/no YAML/.test(err2), `bad YAML refused with line and column: ${err2}`);
    // a free YAML field (no properties) and a map of an untyped schema offer it too
    await reveal(pg, "extra");
    await addKey(pg, "extra", "a", "b: [1, 2]");
    v = await parse(await until(() => preview(pg), (t) => /extra:/.test(t), 4000, "extra"));
    checkEqual(v.extra, { a: { b: [1, 2] } }, "a key added to a YAML field");
    check(await button(pg, "Remove extra.a").count() === 1, "the YAML field lists its key with Remove");
    await reveal(pg, "storage");
    await addKey(pg, "storage", "region", "eu-west-1");
    v = await parse(await until(() => preview(pg), (t) => /region/.test(t), 4000, "storage"));
    checkEqual(v.storage, { region: "eu-west-1" }, "a key added to a map of an untyped schema");
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

test("V free maps: Remove a key, one of the defaults too (a null in Helm's merge, said on the page)", async () => {
  const p = await open(form(SRC));
  const pg = p.page;
  try {
    await reveal(pg, "config");
    await button(pg, "Remove config.receivers").click();
    const y = await until(() => preview(pg), (t) => /receivers: null/.test(t), 4000, "removed default");
    checkEqual((await parse(y)).config, { receivers: null }, "Only changes: receivers: null");
    const note = await pg.locator('[id="f-config_freenote"]').textContent();
    check(/null/.test(note) && /Helm's merge/.test(note) && /deleting/.test(note), `the page says what the removal means: ${note}`);
    checkEqual(await pg.locator('[data-path="config.receivers"]').count(), 0, "the key's field is gone");
    await exportMode(pg, "Everything");
    const all = await parse(await until(() => preview(pg), (t) => /replicas/.test(t), 4000, "Everything"));
    checkEqual(all.config.receivers, null, "Everything: receivers: null");
    await reveal(pg, "storage");
    await button(pg, "Remove storage.type").click();
    const y2 = await until(() => preview(pg), (t) => /type: null/.test(t), 4000, "storage.type removed");
    checkEqual((await parse(y2)).storage, { type: null, bucket: "b" }, "a default key of an untyped map removed");
  } finally { await p.close(); }
});

test("V free maps: a member edited as YAML in place, with the form's validation", async () => {
  const p = await open(form(SRC));
  const pg = p.page;
  try {
    await reveal(pg, "config.exporters");
    await button(pg, "Edit config.exporters.debug as YAML").click();
    const ta = await reveal(pg, "config.exporters.debug");
    checkEqual(await ta.evaluate((e) => e.tagName), "TEXTAREA", "the member is a YAML text");
    checkEqual(await ta.inputValue(), "verbosity: basic\n", "its value as YAML");
    await ta.fill("verbosity: detailed\nsampling_initial: 5\n");
    await ta.dispatchEvent("change");
    const v = await parse(await until(() => preview(pg), (t) => /sampling_initial/.test(t), 4000, "YAML edit"));
    checkEqual(v.config.exporters.debug, { verbosity: "detailed", sampling_initial: 5 }, "the YAML text is the value");
    await ta.fill("verbosity: loud\n");
    await ta.dispatchEvent("change");
    const pr = await until(() => problems(pg), (x) => x.items.some((i) => /config\.exporters\.debug\.verbosity/.test(i.text)), 4000, "validated");
    check(pr.items.some((i) => /verbosity.*basic/.test(i.text)), `the schema's rule applies to the YAML text: ${JSON.stringify(pr.items)}`);
    await until(() => pg.locator('[data-path="config.exporters.debug"] [aria-invalid="true"]').count(), (n) => n > 0, 4000, "the YAML field is marked");
    check(true, "the YAML field is marked invalid");
    await ta.fill("a: [\n");
    await ta.dispatchEvent("change");
    const err = await until(() => pg.locator('[data-path="config.exporters.debug"] .sd-error').first().textContent(), (t) => /line \d+, column \d+/.test(t || ""), 4000, "syntax error");
    check(err.length > 0, `a syntax error with line and column: ${err}`);
    await button(pg, "Edit config.exporters.debug as fields").click();
    check(await pg.locator('[data-path="config.exporters.debug"]').count() > 0, "back to fields");
  } finally { await p.close(); }
});

test("V free maps: a map the chart's templates hand on whole (toYaml .Values.settings) is one", async () => {
  const p = await open(form(SRC));
  const pg = p.page;
  try {
    await reveal(pg, "settings");
    await addKey(pg, "settings", "extra", "{retries: 3}");
    const v = await parse(await until(() => preview(pg), (t) => /retries: 3/.test(t), 4000, "a key added"));
    checkEqual(v.settings, { extra: { retries: 3 } }, "a key added to the map handed on whole");
    check(await button(pg, "Remove settings.logLevel").count() === 1, "its default keys can be removed");
    check(await button(pg, "Edit settings.features as YAML").count() === 1, "its members can be edited as YAML");
    // keys below it are not unknown, as to validate
    await importText(pg, "settings:\n  other: 1\n  features:\n    b: false\nnope: 2\n");
    const got = await until(() => region(pg, "Unknown keys").locator("li").allTextContents(), (l) => l.length > 0, 4000, "Unknown keys");
    checkEqual(got.map((t) => t.replace(/ \(did you mean .*\)$/, "")), ["nope"], "only the key validate calls unknown");
  } finally { await p.close(); }
});
