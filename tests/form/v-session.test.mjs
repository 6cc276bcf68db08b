// SPDX-License-Identifier: Apache-2.0
// V. Nothing lost on reload or by a slip (issue 33): undo and redo (the
// buttons, Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y, Meta+Z); the work saved in
// localStorage under the chart's name and version (secrets never saved) and
// "Restore your last session" on the next load; "Reset all" asks first;
// "Download" of an untouched form says there is nothing to download instead
// of saving an empty file.
import { after } from "node:test";
import {
  test, form, open, closeBrowser, signal, check, checkEqual, checksDone, setField, importText, preview, until, button, reveal, control, downloadText,
  loadValues, hygiene, exportMode,
} from "./harness.mjs";

after(async () => { console.log(`count: form V session checks ${checksDone()}`); await closeBrowser(); });

const parse = async (t) => { const d = await loadValues(t); return d.length && d[0] ? d[0] : {}; };
const values = async (page) => parse(await preview(page));
async function reload(p) {
  await p.page.reload({ waitUntil: "domcontentloaded" });
  await p.page.waitForSelector('html[data-ready="1"]', { state: "attached" });
}

test("V undo/redo: buttons and keys step back and forth through changes and imports", async () => {
  const p = await open(form("chart"));
  try {
    const pg = p.page;
    checkEqual(await button(pg, "Undo").isDisabled(), true, "nothing to undo at load");
    await setField(pg, "replicaCount", "3");
    await setField(pg, "image.tag", "abc");
    // a change beside another under the same key: Undo redraws that part of the preview
    await setField(pg, "image.pullPolicy", "Always");
    await until(() => values(pg), (v) => v.image && v.image.pullPolicy === "Always", 3000, "pullPolicy");
    await button(pg, "Undo").click();
    checkEqual(await until(() => values(pg), (v) => v.image && !("pullPolicy" in v.image), 3000, "pullPolicy undone"), { replicaCount: 3, image: { tag: "abc" } },
      "the preview shows the undone state");
    await importText(pg, "debug: true\n");
    await until(() => values(pg), (v) => v.debug === true, 3000, "three changes");
    checkEqual(await values(pg), { replicaCount: 3, image: { tag: "abc" }, debug: true }, "after three changes");
    await button(pg, "Undo").click();
    checkEqual(await until(() => values(pg), (v) => !("debug" in v), 3000, "import undone"), { replicaCount: 3, image: { tag: "abc" } }, "Undo takes the import back");
    await pg.locator("body").click({ position: { x: 5, y: 5 } });
    await pg.keyboard.press("Control+z");
    checkEqual(await until(() => values(pg), (v) => !v.image, 3000, "tag undone"), { replicaCount: 3 }, "Ctrl+Z: typing in a field is one step");
    await pg.keyboard.press("Meta+z");
    checkEqual(await until(() => values(pg), (v) => !("replicaCount" in v), 3000, "all undone"), {}, "Meta+Z (Cmd on a Mac)");
    checkEqual(await button(pg, "Undo").isDisabled(), true, "nothing left to undo");
    await pg.keyboard.press("Control+Shift+Z");
    checkEqual(await until(() => values(pg), (v) => v.replicaCount === 3, 3000, "redo"), { replicaCount: 3 }, "Ctrl+Shift+Z redoes");
    await pg.keyboard.press("Control+y");
    await button(pg, "Redo").click();
    checkEqual(await until(() => values(pg), (v) => v.debug === true, 3000, "redo all"), { replicaCount: 3, image: { tag: "abc" }, debug: true }, "Ctrl+Y and Redo");
    checkEqual(await (await reveal(pg, "image.tag")).inputValue(), "abc", "the field shows the redone value");
    checkEqual(await button(pg, "Redo").isDisabled(), true, "nothing left to redo");
    // Ctrl+Z while typing in a field undoes the form's change, not only the input's text
    const c = await reveal(pg, "image.tag");
    await c.focus();
    await pg.keyboard.type("def");
    await until(() => values(pg), (v) => v.image && v.image.tag === "abcdef", 3000, "typed");
    await pg.keyboard.press("Control+z");
    await until(() => values(pg), (v) => v.image && v.image.tag === "abc", 3000, "typing undone");
    checkEqual(await (await control(pg, "image.tag")).inputValue(), "abc", "the input shows the undone value");
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

test("V autosave: the work comes back after a reload with 'Restore your last session'; secrets are not saved", async () => {
  const p = await open(form("chart"));
  try {
    const pg = p.page;
    check(!(await pg.getByRole("button", { name: "Restore your last session" }).count()), "no restore offer on a first visit");
    await setField(pg, "replicaCount", "4");
    await setField(pg, "auth.password", "s3cr3t-Zq9-xyz");
    await importText(pg, 'podAnnotations:\n  "a.b/c": "x"\nimage:\n  tag: "1.25"\nsidecars:\n  - name: a\n    token: t0k3n-Zq9-xyz\n');
    await until(() => values(pg), (v) => v.podAnnotations && v.replicaCount === 4, 3000, "edits");
    // the real values (the preview masks the secrets)
    const before = await parse(await downloadText(pg));
    const key = await until(() => pg.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("schemadoc-form:"))), (k) => k.length === 1, 3000, "saved");
    checkEqual(key, ["schemadoc-form:chart:formchart@1.2.3"], "keyed by the chart's name and version");
    const stored = await pg.evaluate((k) => localStorage.getItem(k), key[0]);
    check(!stored.includes("s3cr3t-Zq9-xyz") && !stored.includes("t0k3n-Zq9-xyz"), "the secrets are not in storage");
    await reload(p);
    checkEqual(await values(pg), {}, "a reload starts from the defaults");
    await pg.getByRole("button", { name: "Restore your last session" }).click();
    const after1 = await until(() => values(pg), (v) => v.replicaCount === 4, 3000, "restored");
    const { auth, sidecars, ...rest } = before;
    checkEqual(after1, rest, "everything but the secrets is back (the pinned image.tag too)");
    checkEqual(auth, { password: "s3cr3t-Zq9-xyz" }, "the secret was left out");
    checkEqual(sidecars, [{ name: "a", token: "t0k3n-Zq9-xyz" }], "a list holding a secret was left out whole (not saved without its token)");
    const note = await pg.getByRole("status").filter({ hasText: "never saved" }).textContent();
    checkEqual(note, "Secret values are never saved in the browser; enter these again: auth.password, sidecars.", "the page names what to enter again");
    check(!(await pg.getByRole("button", { name: "Restore your last session" }).count()), "the offer is gone once taken");
    // "Discard it" forgets the session
    await reload(p);
    await pg.getByRole("button", { name: "Discard it" }).click();
    await reload(p);
    checkEqual(await pg.getByRole("button", { name: "Restore your last session" }).count(), 0, "nothing offered after Discard");
  } finally { await p.close(); }
});

test("V Reset all asks first; Download of an untouched form says there is nothing to download", async () => {
  const p = await open(form("chart"));
  try {
    const pg = p.page;
    // untouched: no file, a message instead
    let downloaded = false;
    pg.on("download", () => { downloaded = true; });
    await button(pg, "Download values.yaml").click();
    const note = await until(() => pg.getByRole("status").filter({ hasText: "Nothing to download" }).count(), (n) => n === 1, 3000, "the note");
    checkEqual(note, 1, "Nothing to download is said");
    // the click's handler is done (its note is up): the page's own count of
    // files handed out says none was (an event would come later)
    checkEqual(await signal(pg, "downloads"), 0, "no empty file handed out");
    checkEqual(downloaded, false, "no empty file saved");
    // "Everything" of an untouched form is the defaults: that file downloads
    await exportMode(pg, "Everything");
    const [d0] = await Promise.all([pg.waitForEvent("download"), button(pg, "Download values.yaml").click()]);
    const fs = await import("node:fs");
    const full = fs.readFileSync(await d0.path(), "utf8");
    checkEqual(full, await preview(pg), "Everything of an untouched form: the defaults downloaded, as the preview shows");
    check(/replicaCount: 1/.test(full), "the defaults are in it");
    await exportMode(pg, "Only changes");
    // touched: Reset all asks; Cancel keeps the values
    await setField(pg, "replicaCount", "7");
    await until(() => values(pg), (v) => v.replicaCount === 7, 3000, "edit");
    const [d] = await Promise.all([pg.waitForEvent("download"), button(pg, "Download values.yaml").click()]);
    check(d.suggestedFilename() === "values.yaml", "a changed form downloads");
    await button(pg, "Reset all").click();
    const dialog = pg.getByRole("alertdialog");
    checkEqual(await dialog.count(), 1, "Reset all asks first");
    await button(pg, "Cancel").click();
    checkEqual(await dialog.count(), 0, "the question goes");
    checkEqual(await values(pg), { replicaCount: 7 }, "Cancel keeps the values");
    await button(pg, "Reset all").click();
    await pg.keyboard.press("Escape");
    checkEqual(await values(pg), { replicaCount: 7 }, "Escape keeps the values");
    await button(pg, "Reset all").click();
    await button(pg, "Yes, reset all").click();
    checkEqual(await until(() => values(pg), (v) => Object.keys(v).length === 0, 3000, "reset"), {}, "Yes resets");
    await button(pg, "Undo").click();
    checkEqual(await until(() => values(pg), (v) => v.replicaCount === 7, 3000, "undo reset"), { replicaCount: 7 }, "Undo brings a Reset all back");
  } finally { await p.close(); }
});
