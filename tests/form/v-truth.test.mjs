// SPDX-License-Identifier: Apache-2.0
// V. Truth at load (issue 33): when a chart's own values.yaml fails its
// schema, the page says so at load ("The chart's defaults have N problems",
// N as `schemadoc validate` counts them) and marks those fields; "No
// problems" only when there are none. A missing required key is reported at
// the field of that key (or, when no property declares it, at its parent's
// "Add entry" control), never only at (root); every Problems link lands on
// a field.
import { after } from "node:test";
import path from "node:path";
import {
  test, form, open, closeBrowser, check, checkEqual, checksDone, problems, until, setField, validate, hygiene, FIX,
} from "./harness.mjs";

after(async () => { console.log(`count: form V truth-at-load checks ${checksDone()}`); await closeBrowser(); });

const BAD = path.join(FIX, "chart-baddefaults");

// the field (data-path) that holds the focused element, and what it is
const focused = (page) => page.evaluate(() => {
  const a = document.activeElement;
  const f = a && a.closest("[data-path]");
  return { path: f ? f.getAttribute("data-path") : null, tag: a ? a.tagName : null, text: a && a.tagName === "BUTTON" ? a.getAttribute("aria-label") || a.textContent : null };
});

test("V truth: a chart whose defaults fail its schema says so at load, fields marked", async () => {
  const want = validate(BAD, [path.join(BAD, "values.yaml")])[0].errors;
  checkEqual(want.length, 5, "validate counts 5 problems in the defaults");
  const p = await open(form(BAD));
  try {
    const pr = await problems(p.page);
    checkEqual(pr.heading, "The chart's defaults have 5 problems", "the heading at load");
    checkEqual(pr.items.length, 5, "five links at load");
    checkEqual(pr.items.map((i) => i.text).sort(), want.map((e) => `${e.path === "" ? "(root)" : e.path.slice(1)}: ${e.message}`).sort(), "the links name validate's problems");
    // marked at load: the wrong type on its field, each missing key on the field of that key
    const invalid = await p.page.locator('[aria-invalid="true"]').evaluateAll((els) => els.map((e) => e.closest("[data-path]").getAttribute("data-path")).sort());
    for (const fp of ["replicaCount", "image.repository", "clusterName"]) check(invalid.includes(fp), `${fp} marked at load (${invalid.join(", ")})`);
    const err = (fp) => p.page.locator(`[data-path="${fp}"] .sd-error`).first().textContent();
    checkEqual(await err("image.repository"), "missing required key `repository`", "the missing key's message at its own field");
    checkEqual(await err("clusterName"), "missing required key `clusterName`", "a missing top-level key at its field, not only at (root)");
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

test("V truth: every Problems link lands on a field: the missing key's, the add control, the first field for the root", async () => {
  const p = await open(form(BAD));
  try {
    const pr = await problems(p.page);
    const expect = {
      "replicaCount: found string \"two\", expected integer": { path: "replicaCount" },
      "image: missing required key `repository`": { path: "image.repository" },
      "(root): missing required key `clusterName`": { path: "clusterName" },
      "labels: missing required key `app`": { path: "labels", text: "Add entry to labels" },
    };
    let landed = 0;
    for (const item of pr.items) {
      await p.page.getByRole("link", { name: item.text, exact: true }).click();
      const f = await focused(p.page);
      check(f.path !== null, `${item.text}: the focus is in a field (${JSON.stringify(f)})`);
      const e = expect[item.text];
      if (e) {
        checkEqual(f.path, e.path, `${item.text}: lands on ${e.path}`);
        if (e.text) checkEqual(f.text, e.text, `${item.text}: on the parent's "${e.text}" button (its accessible name)`);
      }
      landed++;
    }
    checkEqual(landed, 5, "five links followed");
    // a change ends the load's wording; fixing every problem gives "No problems"
    await setField(p.page, "replicaCount", "2");
    await until(() => problems(p.page), (x) => x.heading === "4 problems", 3000, "4 problems after a fix");
  } finally { await p.close(); }
});

test("V truth: a chart whose defaults pass says No problems at load", async () => {
  const p = await open(form("chart"));
  try {
    const pr = await problems(p.page);
    checkEqual([pr.heading, pr.items.length], ["No problems", 0], "No problems, no links");
    checkEqual(validate(path.join(FIX, "chart"), [path.join(FIX, "chart/values.yaml")])[0].errors.length, 0, "validate agrees");
  } finally { await p.close(); }
});
