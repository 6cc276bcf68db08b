// SPDX-License-Identifier: Apache-2.0
// V. Real values files (issue 33): each corpus chart's own ci/*.yaml files
// (the values its maintainers test with), imported into its form: nothing
// they set is lost in the export. For each file, in both export modes, the
// export read back (tests/js/yamlvalues.mjs, YAML 1.1 as Helm reads it) and
// merged over the chart's defaults as Helm merges a values file gives the
// same values as the ci file merged over them (a key whose value is null
// counts as absent: Helm's templates see nil either way, and a null in a
// values file deletes the default); and "Only changes" keeps every key the
// file sets (pins), with the file's value. The charts' remote $refs come
// from the corpus (--map, --offline), as tests/suite-gotmpl.sh reads them.
// Then as a user goes on: the "Only changes" export imported on a fresh page
// exports the same bytes again, and the printed --set line, run through
// `bash -c` and `zsh -c` and read by Helm's rules (strvals.mjs), gives the
// exported values. The export is read from the downloaded file (the
// preview masks secret values); the --set line's secret variables
// (form_flags.js) are set to the values at their paths.
import { after } from "node:test";
import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import {
  test, form, open, closeBrowser, check, checkEqual, checksDone, importText, preview, until, exportMode, loadValues, CORPUS, problems, run, SD_REL, downloadText,
} from "./harness.mjs";
import { parsePath } from "../../src/form/form_path.js";
import { mergeValues } from "../../src/form/rules.js";
import { leafPaths, getAt } from "../../src/form/form_values.js";
import { readFlags, argvOf } from "./strvals.mjs";

let files = 0;
after(async () => {
  console.log(`count: form V ci values checks ${checksDone()} (${files} ci files)`);
  await closeBrowser();
});

const CHARTS = fs.existsSync(path.join(CORPUS, "charts")) ? fs.readdirSync(path.join(CORPUS, "charts")).filter((c) => fs.existsSync(path.join(CORPUS, "charts", c, "ci"))).sort() : [];

async function reload(p) {
  await p.page.reload({ waitUntil: "domcontentloaded" });
  await p.page.waitForSelector('html[data-ready="1"]', { state: "attached" });
}
const MAPS = ["--map", `https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master-standalone-strict/=${CORPUS}/kubernetes/`,
  "--map", `https://raw.githubusercontent.com/=${CORPUS}/charts/_remote/raw.githubusercontent.com/`, "--offline"];
const noNulls = (v) => {
  if (Array.isArray(v)) return v.map(noNulls);
  if (v === null || typeof v !== "object") return v;
  const o = {};
  for (const k of Object.keys(v)) if (v[k] !== null) Object.defineProperty(o, k, { value: noNulls(v[k]), enumerable: true, writable: true, configurable: true });
  return o;
};
// the shell variables the --set line's closing comment names, each with
// the value at its path in `values` (escaped as --set reads it)
function secretEnv(flags, values) {
  const env = {};
  const m = flags.match(/^# secret values are not printed:.*$/m);
  if (m) for (const x of m[0].matchAll(/([A-Z0-9_]+) \((.*?)(, as JSON)?\)(?:, |$)/g)) {
    const v = getAt(values, parsePath(x[2]));
    env[x[1]] = x[3] ? JSON.stringify(v) : String(v).replace(/[\\,]/g, "\\$&");
  }
  return env;
}
const one = async (t) => { const d = await loadValues(t); return d.length && d[0] ? d[0] : {}; };

test("V ci values: the corpus has charts with ci/ values files", () => {
  check(CHARTS.length >= 5, `charts with ci/: ${CHARTS.join(", ")}`);
});

for (const chart of CHARTS) {
  test(`V ci values: ${chart}: nothing a ci/ file sets is lost in the export, in both modes`, async () => {
    const dir = path.join(CORPUS, "charts", chart, "ci");
    const cis = fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort();
    check(cis.length > 0, `${chart}: ci files`);
    const p = await open(form(path.join(CORPUS, "charts", chart), MAPS), { readyTimeout: 60000 });
    try {
      // truth at load: the page's verdict on the chart's defaults is validate's
      const vr = run(SD_REL, ["validate", path.join(CORPUS, "charts", chart), path.join(CORPUS, "charts", chart, "values.yaml"), ...MAPS]);
      check(vr.status === 0 || vr.status === 1, `${chart}: validate ran (${vr.status} ${vr.err.slice(0, 200)})`);
      const head = (await until(() => problems(p.page), (x) => x.heading !== "", 20000, `${chart}: Problems at load`)).heading;
      checkEqual(head === "No problems", vr.status === 0, `${chart}: at load the page says "${head}", validate exits ${vr.status}`);
      // the page's own defaults: an untouched page's "Everything"
      await exportMode(p.page, "Everything");
      const defaults = await one(await downloadText(p.page));
      check(Object.keys(defaults).length > 0, `${chart}: defaults`);
      for (const f of cis) {
        const text = fs.readFileSync(path.join(dir, f), "utf8");
        const ci = await one(text);
        const want = noNulls(mergeValues(defaults, ci));
        const out = {}, text1 = {};
        let flags = "";
        for (const mode of ["Only changes", "Everything"]) {
          await reload(p);
          await exportMode(p.page, mode);
          const before = await preview(p.page);
          await importText(p.page, text, f);
          const y = await until(() => preview(p.page), (t) => t !== before || Object.keys(ci).length === 0, 20000, `${chart}/${f} ${mode}: imported`);
          checkEqual(await p.page.getByRole("alert").filter({ hasText: "Import failed" }).count(), 0, `${chart}/${f}: imported without error`);
          const real = y.includes("********") ? await downloadText(p.page) : y;
          out[mode] = await one(real);
          text1[mode] = real;
          if (mode === "Only changes") flags = (await p.page.locator("#sd-flags").textContent()) || "";   // hidden (no role) when empty
          checkEqual(noNulls(mergeValues(defaults, out[mode])), want, `${chart}/${f} ${mode}: the export over the defaults == the file over the defaults`);
        }
        // every key the file sets is in "Only changes", with the file's value
        const lost = leafPaths(ci).filter((segs) => getAt(ci, segs) !== null && !isDeepStrictEqual(getAt(out["Only changes"], segs), getAt(ci, segs)));
        checkEqual(lost.map((s) => s.join(".")), [], `${chart}/${f}: every key the file sets is kept in Only changes`);
        // the user's own export imported again: the same bytes
        for (const mode of ["Only changes", "Everything"]) {
          await reload(p);
          await exportMode(p.page, mode);
          const before = await preview(p.page);
          await importText(p.page, text1[mode], "values.yaml");
          const y2 = await until(() => preview(p.page), (t) => t !== before || text1[mode] === before, 20000, `${chart}/${f} ${mode}: export imported`);
          checkEqual(y2.includes("********") ? await downloadText(p.page) : y2, text1[mode], `${chart}/${f} ${mode}: export(import(export)) == export`);
        }
        // the --set line through real shells, read as Helm reads it
        if (Object.keys(out["Only changes"]).length) {
          check(flags.startsWith("--set"), `${chart}/${f}: flags printed: ${flags.slice(0, 80)}`);
          const env = secretEnv(flags, out["Only changes"]);
          for (const shell of ["bash", "zsh"]) checkEqual(readFlags(argvOf(shell, flags, env)).values, out["Only changes"], `${chart}/${f} ${shell}: the --set line gives the export`);
        }
        files++;
      }
    } finally { await p.close(); }
  });
}
