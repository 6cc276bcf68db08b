// SPDX-License-Identifier: Apache-2.0
// S. A chart that ships no values.schema.json (issue 35): the form is built
// on the schema its values.yaml comments make (`# @schema` annotations of
// helm-values-schema-json inline and of helm-schema's block, in one file),
// so a replica count whose default is null still refuses `three` and 0, as
// `schemadoc validate` does, and accepts 3. The same chart with the
// annotations taken out accepts `three` (a null default types nothing):
// what refuses it is the annotations, not the default.
import { after } from "node:test";
import fs from "node:fs";
import path from "node:path";
import {
  test, form, open, closeBrowser, signal, checked, check, checkEqual, checksDone, setField, until, validate, writeTmp, TMP,
} from "./harness.mjs";

after(async () => {
  console.log(`count: form S schema-made checks ${checksDone()}`);
  await closeBrowser();
});

const VALUES = `# -- How many pods; empty: the deployment's own default
replicaCount: # @schema type:[integer, null]; minimum: 1
# -- Worker threads
# @schema
# type: [integer, "null"]
# minimum: 1
# @schema
workers:
image:
  # -- Pull policy
  pullPolicy: IfNotPresent # @schema enum:[IfNotPresent, Always, Never]
`;

function chart(name, values) {
  const dir = path.join(TMP, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Chart.yaml"), `apiVersion: v2\nname: ${name}\nversion: 1.0.0\n`);
  fs.writeFileSync(path.join(dir, "values.yaml"), values);
  return dir;
}

// the error texts a field shows (aria-describedby .sd-error), joined
const errText = (c) => c.evaluate((el) => (el.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean)
  .map((id) => document.getElementById(id)).filter((e) => e && e.classList.contains("sd-error"))
  .map((e) => e.textContent.trim()).join("\n"));

// [path, typed text, the overlay validate gets]
const TYPED = [
  ["replicaCount", "three", "replicaCount: three\n"],
  ["replicaCount", "0", "replicaCount: 0\n"],
  ["replicaCount", "3", "replicaCount: 3\n"],
  ["workers", "three", "workers: three\n"],
  ["workers", "2", "workers: 2\n"],
];

test("S annotated chart without a schema: the form refuses `three` for the replica count, as validate does", async () => {
  const dir = chart("annotated", VALUES);
  const p = await open(form(dir));
  try {
    let refused = 0;
    for (const [fp, typed, overlay] of TYPED) {
      const want = validate(dir, [writeTmp("s-typed.yaml", overlay)])[0].errors.filter((e) => e.key === fp).map((e) => e.message);
      const c = await setField(p.page, fp, typed);
      if (want.length) {
        refused++;
        await until(() => c.getAttribute("aria-invalid"), (v) => v === "true", 3000, `${fp}=${typed}: aria-invalid`);
        const got = await until(() => errText(c), (t) => t === want.join("\n"), 3000, `${fp}=${typed}: error text`).catch(() => errText(c));
        checkEqual(got, want.join("\n"), `${fp}=${typed}: the field's error is validate's`);
      } else {
        await until(() => c.getAttribute("aria-invalid"), (v) => v !== "true", 3000, `${fp}=${typed}: valid`);
        check(true, `${fp}=${typed}: valid`);
      }
    }
    // validate itself refused three of them (no empty agreement): `three` twice and 0
    checkEqual(refused, 3, "validate refuses replicaCount=three, replicaCount=0, workers=three");
    // the enum of the inline annotation is a choice of three
    const opts = await p.page.locator('[data-path="image.pullPolicy"] select option').evaluateAll((os) => os.filter((o) => o.value).map((o) => o.textContent.trim()));
    checkEqual(opts, ["IfNotPresent", "Always", "Never"], "image.pullPolicy: the annotation's enum as a choice");
  } finally { await p.close(); }
});

test("S the same chart without its annotations: `three` is accepted (the proof that the annotations refuse it)", async () => {
  const plain = VALUES.replace(/ # @schema.*$/gm, "").replace(/^# @schema\n(#.*\n)*?# @schema\n/m, "");
  check(!plain.includes("@schema"), "the annotations are taken out");
  const dir = chart("plain", plain);
  checkEqual(validate(dir, [writeTmp("s-plain.yaml", "replicaCount: three\n")])[0].errors.length, 0,
    "validate accepts replicaCount=three without the annotations");
  const p = await open(form(dir));
  try {
    const n0 = await signal(p.page, "checks");
    const c = await setField(p.page, "replicaCount", "three");
    await checked(p.page, n0);
    checkEqual(await c.getAttribute("aria-invalid") === "true", false, "replicaCount=three: not refused");
  } finally { await p.close(); }
});
