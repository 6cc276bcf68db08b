// SPDX-License-Identifier: Apache-2.0
// V. The YAML view (issue 40 §5): the values preview has a tab "Edit YAML";
// text typed there reaches the form after a pause (a field shows it, the
// Problems region says what an import of the same text says); a field
// edited in the form writes the text again with the user's comments and key
// order; an invalid text shows its error with line and column and the form
// keeps the last good values; Undo takes back steps of both sides; secrets
// stay masked in the text and in localStorage, and the mask never becomes
// the value.
import { after } from "node:test";
import {
  test, form, open, closeBrowser, check, checkEqual, checksDone, control, setField, until, button, problems, importText, preview, downloadText, hygiene, loadValues, signal,
} from "./harness.mjs";

after(async () => { console.log(`count: form V yaml view checks ${checksDone()}`); await closeBrowser(); });

const FORM = "chart";
const editTab = (page) => page.getByRole("tab", { name: "Edit YAML", exact: true });
const editor = (page) => page.getByRole("textbox", { name: /as YAML$/ });
const viewText = (page) => editor(page).inputValue();
const fieldValue = async (page, p) => (await control(page, p)).inputValue();
async function typeYaml(page, text) {
  const ta = editor(page);
  await ta.fill(text);
}

test("V yaml view: edit in YAML, see the field; edit the field, see the YAML with its comments", async () => {
  const p = await open(form(FORM));
  try {
    check(await editTab(p.page).count() === 1, "an \"Edit YAML\" tab beside the preview");
    await editTab(p.page).click();
    check(await editor(p.page).isVisible(), "the tab shows an editable text");
    const TEXT = "# my own comment\nservice:\n  port: 8080 # the port\nreplicaCount: 3\n";
    await typeYaml(p.page, TEXT);
    // after the pause the form shows it
    await until(() => fieldValue(p.page, "replicaCount"), (v) => v === "3", 4000, "replicaCount from the YAML view");
    checkEqual(await fieldValue(p.page, "service.port"), "8080", "service.port from the YAML view");
    // the preview says the same
    const pv = await until(() => preview(p.page), (t) => /replicaCount: 3/.test(t), 4000, "preview");
    checkEqual((await loadValues(pv))[0], { service: { port: 8080 }, replicaCount: 3 }, "the preview holds what the view says");
    // the field edited in the form: the text keeps the comments and the key order
    await editor(p.page).blur();
    await setField(p.page, "image.tag", "9.9");
    const t = await until(() => viewText(p.page), (s) => /9\.9/.test(s), 4000, "the field's value in the YAML view");
    check(t.includes("# my own comment") && t.includes("# the port"), `the user's comments stay: ${t}`);
    check(t.indexOf("service:") < t.indexOf("replicaCount:") && t.indexOf("replicaCount:") < t.indexOf("image:"), `the user's key order stays, new keys after: ${t}`);
    checkEqual((await loadValues(t))[0], { service: { port: 8080 }, replicaCount: 3, image: { tag: "9.9" } }, "the view's values");
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

test("V yaml view: the view's checks are an import's; an invalid YAML shows its error and keeps the last good values; undo covers both", async () => {
  const p = await open(form(FORM));
  try {
    await editTab(p.page).click();
    const BAD = "replicaCount: 50\nimage:\n  pullPolicy: Sometimes\n";
    await typeYaml(p.page, BAD);
    await until(() => fieldValue(p.page, "replicaCount"), (v) => v === "50", 4000, "replicaCount 50");
    await until(() => problems(p.page), (r) => r.items.length >= 2, 4000, "problems of the view");
    // the same text imported in a fresh page: the same problems (both
    // pages are polled until their checks are done: a page under load may
    // show the first of its problems before the last)
    const q = await open(form(FORM));
    try {
      await importText(q.page, BAD);
      await until(() => problems(q.page), (r) => r.items.length >= 2, 4000, "problems of the import");
      const settled = async (pg) => { await until(() => signal(pg, "checkDue"), (d) => !d, 4000, "checks done"); return problems(pg); };
      const viaImport = await settled(q.page);
      const viaView = await until(() => settled(p.page), (r) => JSON.stringify(r) === JSON.stringify(viaImport), 4000, "the view's problems equal to the import's").catch(async () => settled(p.page));
      checkEqual(viaView, viaImport, "the view's problems are the import's");
    } finally { await q.close(); }
    // a good text, then an invalid one
    await typeYaml(p.page, "replicaCount: 4\n");
    await until(() => fieldValue(p.page, "replicaCount"), (v) => v === "4", 4000, "replicaCount 4");
    await typeYaml(p.page, "replicaCount: 5\nimage: [1,\n  tag: x\n");
    const err = p.page.locator("#sd-yaml-error");
    await until(() => err.isVisible(), (v) => v, 4000, "the view's error");
    const msg = await err.textContent();
    check(/line \d+, column \d+: /.test(msg), `the error has line and column: ${msg}`);
    check(/last good values/.test(msg), `the error says the form keeps the last good values: ${msg}`);
    await p.page.waitForTimeout(800);
    checkEqual(await fieldValue(p.page, "replicaCount"), "4", "the last good value stays in the field");
    check(/replicaCount: 4/.test(await preview(p.page)), "the last good value stays in the preview");
    checkEqual(await viewText(p.page), "replicaCount: 5\nimage: [1,\n  tag: x\n", "the invalid text stays for the user to mend");
    // a field edited in the form, then undo: the field step, then the view's steps
    await setField(p.page, "image.tag", "7.7");
    await until(() => viewText(p.page), (s) => /7\.7/.test(s), 4000, "the field edit reaches the view (an undo or edit replaces the invalid text)").catch(() => null);
    await button(p.page, "Undo").click();
    await until(() => fieldValue(p.page, "image.tag"), (v) => v !== "7.7", 4000, "undo of the field");
    const u1 = await until(() => viewText(p.page), (s) => !/7\.7/.test(s) && /replicaCount: 4/.test(s), 4000, "the view after the first undo");
    check(!/\[1,/.test(u1), `undo replaces the invalid text with the values it brings back: ${u1}`);
    check(await err.isHidden(), "undo clears the view's error");
    await button(p.page, "Undo").click();
    await until(() => fieldValue(p.page, "replicaCount"), (v) => v === "50", 4000, "undo of the view's step (replicaCount 4 -> 50)");
    await until(() => viewText(p.page), (s) => /replicaCount: 50/.test(s), 4000, "the view after the second undo");
    await button(p.page, "Redo").click();
    await until(() => fieldValue(p.page, "replicaCount"), (v) => v === "4", 4000, "redo of the view's step");
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

test("V yaml view: secrets stay masked in the view and out of localStorage; the mask keeps the real value", async () => {
  const p = await open(form(FORM));
  try {
    const SECRET = "hunter2-Zq9-view";
    await editTab(p.page).click();
    await typeYaml(p.page, "# keep\nauth:\n  password: " + SECRET + "\nreplicaCount: 2\n");
    await until(() => fieldValue(p.page, "replicaCount"), (v) => v === "2", 4000, "replicaCount 2");
    const t = await until(() => viewText(p.page), (s) => !s.includes(SECRET), 4000, "the typed secret masked in the view");
    check(/password: "?\*{8}"?/.test(t) && t.includes("# keep"), `the view shows the mask and keeps the comment: ${t}`);
    // the mask edited around: the real value stays, the mask never becomes it
    await typeYaml(p.page, t.replace("replicaCount: 2", "replicaCount: 6"));
    await until(() => fieldValue(p.page, "replicaCount"), (v) => v === "6", 4000, "replicaCount 6");
    checkEqual(await fieldValue(p.page, "auth.password"), SECRET, "the field keeps the real secret behind the mask");
    const dl = await downloadText(p.page);
    check(dl.includes(SECRET) && !dl.includes("********"), `Download writes the real value, never the mask: ${dl}`);
    // a mask with no value behind it is not taken as the value
    await typeYaml(p.page, "auth:\n  apiKey: \"********\"\nreplicaCount: 7\n");
    await until(() => fieldValue(p.page, "replicaCount"), (v) => v === "7", 4000, "replicaCount 7");
    checkEqual(await fieldValue(p.page, "auth.apiKey"), "", "a bare mask is not a value");
    await p.page.waitForTimeout(2500);   // autosave
    const stored = await p.page.evaluate(() => Object.keys(localStorage).map((k) => localStorage.getItem(k)).join("\n"));
    check(!stored.includes(SECRET), "localStorage holds no secret");
    const shownText = await p.page.evaluate(() => document.body.innerText + "\n" + [...document.querySelectorAll("textarea")].map((e) => e.value).join("\n"));
    check(!shownText.includes(SECRET), "no text on the page nor any textarea holds the secret in clear");
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});
