// SPDX-License-Identifier: Apache-2.0
// V. Issue 40, 6 ("Smaller"), fixture chart-smaller: a boolean select shows
// an imported value that is no boolean, marked invalid; oneOf branches that
// differ by a const property are named by it, and a branch that is itself a
// choice gets a select of its own name (never two selects named alike);
// print shows the values preview; the --set flags past 2,000 values are a
// comment, and the region says so; the Unknown keys list is validate's.
import { after } from "node:test";
import path from "node:path";
import {
  test, form, open, closeBrowser, check, checkEqual, checksDone, preview, until, importText, reveal, region, problems,
  exportMode, FIX, hygiene, validate, writeTmp,
} from "./harness.mjs";

after(async () => { console.log(`count: form V smaller checks ${checksDone()}`); await closeBrowser(); });

const SRC = path.join(FIX, "chart-smaller");

test("V smaller: a boolean select shows an imported string \"false\", marked invalid", async () => {
  const p = await open(form(SRC));
  const pg = p.page;
  try {
    await importText(pg, 'debug: "false"\n');
    await until(() => preview(pg), (t) => /debug: "false"/.test(t), 4000, "imported");
    const c = await reveal(pg, "debug");
    const shown = await c.evaluate((s) => s.options[s.selectedIndex].textContent);
    checkEqual(shown, '"false"', "the select shows the string as it is, not 'unset'");
    await until(() => c.getAttribute("aria-invalid"), (v) => v === "true", 4000, "marked invalid");
    check(true, "the select is marked invalid");
    check((await problems(pg)).items.some((i) => /^debug: /.test(i.text)), "Problems names debug");
    await c.selectOption("true");
    await until(() => preview(pg), (t) => /debug: true/.test(t), 4000, "a boolean chosen");
    checkEqual(await c.evaluate((s) => s.querySelectorAll("option[data-other]").length), 0, "the other value's option goes");
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

test("V smaller: choices named by their const discriminator; no two selects named alike", async () => {
  const p = await open(form(SRC));
  const pg = p.page;
  try {
    await reveal(pg, "source");
    const opts = (name) => pg.getByRole("combobox", { name, exact: true }).evaluate((s) => [...s.options].slice(1).map((o) => o.textContent));
    checkEqual(await opts("Variant of source"), ["type: helm", "type: git"], "branches named by type's const");
    checkEqual(await opts("Variant of auth"), ["Token", "None"], "titled branches");
    checkEqual(await opts("Variant of auth, within Token"), ["string", "file"], "the inner choice has a name of its own");
    const names = await pg.evaluate(() => [...document.querySelectorAll("select")].map((s) => s.getAttribute("aria-label") || (s.labels[0] && s.labels[0].textContent) || ""));
    checkEqual(names.filter((n, i) => names.indexOf(n) !== i), [], `no two selects named alike: ${names.join(" | ")}`);
    checkEqual(await hygiene(p), [], "hygiene (ids unique)");
  } finally { await p.close(); }
});

test("V smaller: print shows the values preview and the sections with values", async () => {
  const p = await open(form(SRC));
  const pg = p.page;
  try {
    await importText(pg, "debug: true\nsource:\n  type: helm\n  url: https://charts.example.com\n  chart: app\n");
    await until(() => preview(pg), (t) => /chart: app/.test(t), 4000, "imported");
    await pg.evaluate(() => { for (const d of document.querySelectorAll("#sd-form details")) d.open = false; });
    await pg.evaluate(() => window.dispatchEvent(new Event("beforeprint")));
    await pg.emulateMedia({ media: "print" });
    const st = await pg.evaluate(() => {
      const vis = (e) => !!e && getComputedStyle(e).display !== "none" && e.getClientRects().length > 0;
      const pre = document.getElementById("sd-preview");
      return { preview: vis(pre) ? pre.textContent : "", problems: vis(document.getElementById("sd-problems")), buttons: [...document.querySelectorAll("button")].filter(vis).length };
    });
    check(/chart: app/.test(st.preview) && /debug: true/.test(st.preview), `the preview prints: ${st.preview}`);
    checkEqual([st.problems, st.buttons], [false, 0], "no Problems, no buttons in print");
    await pg.emulateMedia({ media: "screen" });
    await pg.evaluate(() => window.dispatchEvent(new Event("afterprint")));
  } finally { await p.close(); }
});

test("V smaller: the --set flags past 2,000 values are a comment, and the region says so", async () => {
  const p = await open(form(SRC));
  const pg = p.page;
  try {
    let t = "labels:\n";
    for (let i = 0; i < 2001; i++) t += `  l${i}: v${i}\n`;
    await importText(pg, t);
    await exportMode(pg, "Everything");
    const flags = await until(() => region(pg, "--set flags").locator("pre").textContent(), (x) => /^#/.test(x || ""), 6000, "the comment");
    checkEqual(flags.trim(), "# more than 2,000 values: pass them as a values file (-f values.yaml)", "the line is a comment");
    const note = await region(pg, "--set flags").locator(".sd-note").textContent();
    check(/2,000/.test(note), `the region says where the limit is: ${note}`);
  } finally { await p.close(); }
});

test("V smaller: the Unknown keys list equals validate's unknown-key warnings (keys commented out in values.yaml are known)", async () => {
  const p = await open(form(SRC));
  const pg = p.page;
  try {
    const file = "podDisruptionBudget:\n  minAvailable: 2\n  maxUnavaliable: 1\nnope: 1\nlabels:\n  a: b\n";
    const want = validate(SRC, [writeTmp("unknown.yaml", file)])[0].warnings.filter((w) => w.keyword === "unknownKey").map((w) => w.key);
    checkEqual(want.sort(), ["nope", "podDisruptionBudget.maxUnavaliable"], "validate's unknown keys (the test's premise)");
    await importText(pg, file);
    const got = await until(() => region(pg, "Unknown keys").locator("li").allTextContents(), (l) => l.length > 0, 4000, "Unknown keys");
    checkEqual(got.map((t) => t.replace(/ \(did you mean .*\)$/, "")).sort(), want, "the page lists exactly validate's unknown keys");
    check(got.includes("podDisruptionBudget.maxUnavaliable (did you mean podDisruptionBudget.maxUnavailable?)"), `a commented key is a did-you-mean, as validate says: ${got.join("; ")}`);
  } finally { await p.close(); }
});
