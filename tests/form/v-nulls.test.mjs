// SPDX-License-Identifier: Apache-2.0
// V. Null is a value (issue 40 §1): every null a user sets is kept, as
// Helm keeps it (a null for a key the defaults do not have stays in the
// merged values; a null over a default deletes it, written `key: null`):
// an imported file with nulls under a default map, under a free map, in a
// list and at the top comes back whole from the export in both modes, from
// the --set line run through bash and read as Helm reads it, and from a
// second import; ytt's `key: null` is the value null. A field whose default
// is null and whose schema gives no type shows an empty input marked
// "null" and a type choice, and exports what was typed as YAML reads it.
import { after } from "node:test";
import {
  test, form, open, closeBrowser, check, checkEqual, checksDone, importText, preview, region, until, exportMode, loadValues, hygiene, reveal, control,
} from "./harness.mjs";
import { readFlags, argvOf } from "./strvals.mjs";

after(async () => { console.log(`count: form V nulls checks ${checksDone()}`); await closeBrowser(); });

const FORM = "tests/form/fixtures/chart-nulls";
const FILE = `artifactRepository:
  s3:
    bucket:
    endpoint: null
    region: ~
    insecure: null
config:
  extensions:
    pprof:
    zpages: null
hosts:
  - a.example.com
  - null
topLevel: null
`;
const ONLY = {
  artifactRepository: { s3: { bucket: null, endpoint: null, region: null, insecure: null } },
  config: { extensions: { pprof: null, zpages: null } },
  hosts: ["a.example.com", null],
  topLevel: null,
};
const ALL = {
  artifactRepository: { s3: { insecure: null, keyFormat: "{{workflow.name}}", bucket: null, endpoint: null, region: null } },
  config: { extensions: { health_check: {}, pprof: null, zpages: null }, service: { extensions: ["health_check"] } },
  hosts: ["a.example.com", null],
  endpoint: null,
  replicas: 1,
  topLevel: null,
};

const flagsOf = (page) => region(page, "--set flags").locator("pre").first().textContent();

test("V nulls: an import's nulls at every level come back from the export, the --set line and a second import", async () => {
  const p = await open(form(FORM));
  try {
    await importText(p.page, FILE);
    for (const [mode, want] of [["Only changes", ONLY], ["Everything", ALL]]) {
      await exportMode(p.page, mode);
      const y = await until(() => preview(p.page), (t) => /pprof/.test(t) && (mode === "Only changes" || /replicas/.test(t)), 4000, `${mode} preview`);
      checkEqual((await loadValues(y))[0], want, `${mode}: every null kept`);
      const line = await until(() => flagsOf(p.page), (t) => /pprof/.test(t), 4000, `${mode} flags`);
      check(line.includes("--set 'config.extensions.pprof=null'"), `${mode}: --set key=null for a kept null: ${line}`);
      checkEqual(readFlags(argvOf("bash", line)).values, want, `${mode}: bash and Helm's reading of the --set line give the same values`);
    }
    // the export imported again (a fresh page) exports the same
    await exportMode(p.page, "Only changes");
    const y1 = await until(() => preview(p.page), (t) => /pprof/.test(t) && !/replicas/.test(t), 4000, "only changes");
    const q = await open(form(FORM));
    try {
      await importText(q.page, y1);
      const y2 = await until(() => preview(q.page), (t) => /pprof/.test(t), 4000, "re-imported");
      checkEqual(y2, y1, "import(export) exports the same bytes");
    } finally { await q.close(); }
    // the page's check says what `validate` says (its merge drops the new nulls): no problem
    const heading = await region(p.page, "Problems").getByRole("heading").first().textContent();
    check(/No problems/.test(heading), `no problem from the kept nulls: ${heading}`);
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

test("V nulls: ytt's key: null is the value null, exported as written", async () => {
  const p = await open(form("ytt"));
  try {
    await importText(p.page, "#@data/values\n---\nnamespace: null\n", "values.yaml");
    const y = await until(() => preview(p.page), (t) => /namespace/.test(t), 4000, "ytt preview");
    check(/\nnamespace: null\n/.test(y), `the ytt export keeps namespace: null: ${y}`);
    await exportMode(p.page, "Everything");
    const y2 = await until(() => preview(p.page), (t) => /replicas/.test(t), 4000, "ytt everything");
    check(/\nnamespace: null\n/.test(y2), `Everything keeps it too: ${y2}`);
  } finally { await p.close(); }
});

test("V nulls: a null default with no type: an empty input marked null, a type choice, typed text as YAML reads it", async () => {
  const p = await open(form(FORM));
  try {
    const c = await reveal(p.page, "endpoint");
    checkEqual(await c.inputValue(), "", "the input is empty, not the text null");
    const mark = p.page.locator('[data-path="endpoint"] .sd-null-mark');
    check(await mark.isVisible(), "a null mark is shown");
    const type = p.page.getByRole("combobox", { name: "Type of endpoint", exact: true });
    checkEqual(await type.inputValue(), "", "the type is read from the text by default");
    const valueAfter = async (text, kind) => {
      if (kind !== undefined) await type.selectOption(kind);
      await c.fill(text);
      await c.dispatchEvent("change");
      const y = await until(() => preview(p.page), (t) => /endpoint/.test(t), 4000, `preview of ${text}`);
      return (await loadValues(y))[0].endpoint;
    };
    checkEqual(await valueAfter("minio:9000"), "minio:9000", "typing gives the text, no null before it");
    check(!(await mark.isVisible()), "the null mark goes once a value is typed");
    checkEqual(await valueAfter("9000"), 9000, "a number as YAML reads it");
    checkEqual(await valueAfter("yes"), true, "yes is a boolean to Helm's YAML 1.1");
    checkEqual(await valueAfter("9000", "string"), "9000", "string chosen: the text");
    checkEqual(await valueAfter("[a, b]", "list"), ["a", "b"], "list chosen: a list");
    checkEqual(await valueAfter("{host: x, port: 1}", "object"), { host: "x", port: 1 }, "object chosen: a map");
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});
