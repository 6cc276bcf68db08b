// SPDX-License-Identifier: Apache-2.0
// V. Kubernetes types in the form (issue 43; docs/k8s.md). Fixture
// chart-k8s has no schema; its templates hand `resources` and `tolerations`
// whole to a Deployment, so the schema made for its form gives those keys
// their Kubernetes definitions: a quantity that the API server would refuse
// is a problem, and a toleration's `operator` is a choice of the enum the
// generator adds.
import { after } from "node:test";
import { test, form, open, closeBrowser, check, checkEqual, checksDone, setField, reveal, problems, until, importText, validate, writeTmp, preview, loadValues, settled, FIX } from "./harness.mjs";
import path from "node:path";

after(async () => { console.log(`count: form V k8s checks ${checksDone()}`); await closeBrowser(); });

const SRC = path.join(FIX, "chart-k8s");

test("V k8s: resources.limits.cpu is a quantity, tolerations[].operator a choice", async () => {
  const p = await open(form(SRC));
  const pg = p.page;
  try {
    checkEqual((await until(() => problems(pg), (r) => r.heading === "No problems", 4000, "defaults valid")).heading,
      "No problems", "the chart's defaults are valid against its types");
    await setField(pg, "resources.limits.cpu", "2 cores");
    const pr = await until(() => problems(pg), (r) => r.items.length > 0, 4000, "a problem for 2 cores");
    // the quantity's grammar (quantity.c) as the bundled Quantity's pattern,
    // worded by the named formats' table (src/validate/vnamed.h), not the regex
    check(pr.items.some((i) => i.href === "#f-resources-limits-cpu" &&
      i.text === 'resources.limits.cpu: value "2 cores" is not a Kubernetes quantity such as 500m, 2 or 1Gi'),
      `the quantity message at resources.limits.cpu: ${JSON.stringify(pr.items)}`);
    check(!pr.items.some((i) => i.text.includes("[KMGTPE]")), "no regex in the message");
    await setField(pg, "resources.limits.cpu", "2");
    await until(() => problems(pg), (r) => r.heading === "No problems", 4000, "2 is a quantity");
    const op = await reveal(pg, "tolerations[0].operator");
    checkEqual(await op.evaluate((e) => e.tagName), "SELECT", "operator is a choice");
    const opts = await op.evaluate((e) => [...e.options].map((o) => o.textContent.trim()));
    check(opts.includes("Equal") && opts.includes("Exists"), `operator offers Equal and Exists: ${JSON.stringify(opts)}`);
    checkEqual(await op.evaluate((e) => e.options[e.selectedIndex].textContent.trim()), "Equal", "the default operator is chosen");
    // the test: pick a toleration operator from the list
    await setField(pg, "tolerations[0].operator", "Exists");
    const y = (await loadValues(await settled(() => preview(pg))))[0];
    checkEqual(y.tolerations[0].operator, "Exists", "the operator picked is written");
    const eff = await reveal(pg, "tolerations[0].effect");
    checkEqual(await eff.evaluate((e) => e.tagName), "SELECT", "effect is a choice");
    const effs = await eff.evaluate((e) => [...e.options].map((o) => o.textContent.trim()));
    check(["NoSchedule", "PreferNoSchedule", "NoExecute"].every((x) => effs.includes(x)), `effect offers the taint effects: ${JSON.stringify(effs)}`);
  } finally {
    await p.close();
  }
});

// A chart without a schema (chart-k8s): the form's made schema bundles each
// typed key's Kubernetes type, which checks the values; validate's layer adds
// an unknown field's warning with "did you mean" there, and so does the form
// (the rules' "k8s" keys marked warnOnly: no second error for a value).
test("V k8s: a chart without a schema: an unknown Kubernetes field warned, as validate", async () => {
  const p = await open(form(SRC));
  const pg = p.page;
  try {
    await importText(pg, "resources:\n  limits:\n    cpu: 2 cores\n  limts:\n    memory: 1Gi\n", "typo.yaml");
    const pr = await until(() => problems(pg), (r) => r.items.length >= 2, 5000, "two problems");
    const texts = pr.items.map((i) => i.text);
    check(texts.some((t) => t.startsWith("resources.limts: warning: unknown field `limts` of ResourceRequirements (core/v1)") &&
      t.includes("did you mean `limits`?")), `the typo warned with did-you-mean: ${JSON.stringify(texts)}`);
    checkEqual(texts.filter((t) => t.startsWith("resources.limits.cpu:")).length, 1, `the quantity reported once: ${JSON.stringify(texts)}`);
    const v = validate(SRC, [writeTmp("typo.yaml", "resources:\n  limits:\n    cpu: 2 cores\n  limts:\n    memory: 1Gi\n")]);
    check(v[0].warnings.some((w) => w.path === "/resources/limts"), `validate warns the same key: ${JSON.stringify(v[0].warnings)}`);
  } finally {
    await p.close();
  }
});

// A chart that ships its own schema (fixture chart-k8s-own): it leaves
// `resources` open (`type: object`) and says nothing of `affinity`; its
// templates hand both whole to a Deployment. The form applies validate's
// Kubernetes layer on top (the rules document's "k8s": src/source/check_k8s.c,
// src/form/k8s_check.js): the same findings, in the same words, as
// `schemadoc validate`; the chart's schema stays the authority.
const OWN = path.join(FIX, "chart-k8s-own");
const SPOILED = "resources:\n  limits:\n    cpu: 2 cores\n  limts:\n    memory: 1Gi\naffinity:\n  nodeAfinity: {}\n";

test("V k8s: a chart's own schema leaves a key open: the Kubernetes layer on top, as validate", async () => {
  const r = validate(OWN, [writeTmp("k8s-own.yaml", SPOILED)])[0];
  const want = r.errors.map((e) => e.key + ": " + e.message)
    .concat(r.warnings.filter((w) => w.keyword === "kubernetes").map((w) => w.key + ": warning: " + w.message));
  checkEqual(want.length, 3, `validate finds the quantity, limts and nodeAfinity: ${JSON.stringify(want)}`);
  const p = await open(form(OWN));
  const pg = p.page;
  try {
    await importText(pg, SPOILED);
    const pr = await until(() => problems(pg), (x) => x.items.length >= 3, 4000, "the layer's findings");
    const got = pr.items.map((i) => i.text);
    checkEqual([...got].sort(), [...want].sort(), "the form's findings are validate's");
    check(got.some((t) => t.startsWith("resources.limits.cpu: the Kubernetes API server rejects this at install: found string \"2 cores\", expected a Kubernetes quantity such as 500m")),
      `the API server's refusal, worded: ${JSON.stringify(got)}`);
    check(got.some((t) => t.includes("did you mean `nodeAffinity`?")), "did you mean nodeAffinity");
    // fixed: the findings go
    await importText(pg, "resources:\n  limits:\n    cpu: 500m\n  limts: null\naffinity:\n  nodeAfinity: null\n");
    await until(() => problems(pg), (x) => x.heading === "No problems", 4000, "valid again");
  } finally {
    await p.close();
  }
});

// The resources editor (src/form/form_k8s.js): `limits` and `requests` each
// offer `cpu` and `memory` as a number and a unit; the value written is the
// quantity as a string (`512Mi`, never a float); a whole quantity typed in
// the number (`1e3`) is kept as typed and checked; a YAML null stays null.
test("V k8s: resources editor: cpu and memory as a number and a unit", async () => {
  const p = await open(form(SRC));
  const pg = p.page;
  const unit = (path) => pg.getByRole("combobox", { name: "Unit of " + path, exact: true });
  const values = async () => (await loadValues(await settled(() => preview(pg))))[0] || {};
  try {
    // the default "100m" shows as 100 and m
    const cpu = await reveal(pg, "resources.limits.cpu");
    checkEqual(await cpu.inputValue(), "100", "the number of 100m");
    checkEqual(await unit("resources.limits.cpu").inputValue(), "m", "the unit of 100m");
    // requests has no value: its cpu and memory are offered all the same
    await setField(pg, "resources.requests.memory", "512");
    checkEqual(await unit("resources.requests.memory").inputValue(), "Mi", "memory's first unit");
    let v = await values();
    checkEqual(v.resources.requests.memory, "512Mi", "512 and Mi: the string 512Mi");
    await unit("resources.requests.memory").selectOption("Gi");
    v = await values();
    checkEqual(v.resources.requests.memory, "512Gi", "the unit changed: 512Gi");
    // cores: a decimal is written as the string typed, never a float
    await unit("resources.requests.cpu").selectOption("");
    await setField(pg, "resources.requests.cpu", "0.5");
    const text = await settled(() => preview(pg));
    v = (await loadValues(text))[0];
    checkEqual(v.resources.requests.cpu, "0.5", "0.5 cores: the string \"0.5\"");
    check(/cpu: "0\.5"/.test(text), `written quoted, a string: ${text}`);
    // a whole quantity typed in the number is the value as typed
    await setField(pg, "resources.limits.cpu", "1e3");
    checkEqual(await unit("resources.limits.cpu").inputValue(), "=", "the unit says: as typed");
    v = await values();
    checkEqual(v.resources.limits.cpu, "1e3", "1e3 kept as typed");
    await until(() => problems(pg), (r) => r.heading === "No problems", 4000, "1e3 is a quantity");
    await setField(pg, "resources.limits.cpu", "250m");
    v = await values();
    checkEqual(v.resources.limits.cpu, "250m", "250m typed whole");
    checkEqual(await unit("resources.limits.cpu").inputValue(), "m", "its unit m selected");
    // other text is kept and checked
    await setField(pg, "resources.limits.cpu", "2 cores");
    const pr = await until(() => problems(pg), (r) => r.items.length > 0, 4000, "a problem for 2 cores");
    check(pr.items.some((i) => i.text === 'resources.limits.cpu: value "2 cores" is not a Kubernetes quantity such as 500m, 2 or 1Gi'), `the quantity message: ${JSON.stringify(pr.items)}`);
    // a null imported stays null (Helm's "delete this key"), shown empty with its mark
    await importText(pg, "resources:\n  limits:\n    memory: null\n");
    const mem = await reveal(pg, "resources.limits.memory");
    await until(() => mem.inputValue(), (x) => x === "", 4000, "null shows empty");
    const t2 = await settled(() => preview(pg));
    check(/memory: null/.test(t2), `the null is written: ${t2}`);
    check(await pg.locator('[data-path="resources.limits.memory"] .sd-null-mark').isVisible(), "the null mark shows");
  } finally {
    await p.close();
  }
});

// A probe's handlers as one choice (form_k8s.js): exactly one of exec,
// httpGet, tcpSocket, grpc; switching drops the old handler (the default's
// is written as null, Helm's delete) and keeps the timing fields.
test("V k8s: probe handlers are one choice; switching keeps the timing fields", async () => {
  const p = await open(form(SRC));
  const pg = p.page;
  const values = async () => (await loadValues(await settled(() => preview(pg))))[0] || {};
  try {
    await reveal(pg, "livenessProbe.periodSeconds");
    const sel = pg.getByRole("combobox", { name: "Handler of livenessProbe", exact: true });
    checkEqual(await sel.inputValue(), "httpGet", "the default's handler is chosen");
    const opts = await sel.evaluate((e) => [...e.options].map((o) => o.value));
    checkEqual(opts, ["", "exec", "httpGet", "tcpSocket", "grpc"], "the four handlers, and none");
    check(await pg.locator('[data-path="livenessProbe.httpGet"]').count() === 1, "httpGet's fields shown");
    check(await pg.locator('[data-path="livenessProbe.exec"]').count() === 0, "exec's are not");
    await setField(pg, "livenessProbe.periodSeconds", "20");
    await sel.selectOption("tcpSocket");
    await setField(pg, "livenessProbe.tcpSocket.port", "8080");
    const v = await values();
    checkEqual(v.livenessProbe.httpGet, null, "the default's httpGet is deleted (null)");
    checkEqual(v.livenessProbe.tcpSocket, { port: 8080 }, "tcpSocket set");
    checkEqual(v.livenessProbe.periodSeconds, 20, "the timing field kept");
    check(await pg.locator('[data-path="livenessProbe.httpGet"]').count() === 0, "httpGet's fields gone");
    await until(() => problems(pg), (r) => r.heading === "No problems", 4000, "valid with tcpSocket");
  } finally {
    await p.close();
  }
});

// The editors on a phone: no horizontal scroll at 320 px with the resources
// and the probe open, a quantity's number and unit on one line at 390 px.
test("V k8s: the editors fit a phone", async () => {
  for (const width of [320, 390]) {
    const p = await open(form(SRC), { viewport: { width, height: 800 } });
    const pg = p.page;
    try {
      await reveal(pg, "resources.requests.memory");
      await reveal(pg, "livenessProbe.httpGet.port");
      const w = await pg.evaluate(() => ({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth }));
      check(w.sw <= w.cw, `no horizontal scroll at ${width} px (${w.sw} > ${w.cw})`);
      const box = async (sel) => pg.locator(sel).first().boundingBox();
      const num = await box("#f-resources-requests-memory-c"), unit = await box("#f-resources-requests-memory-c-unit");
      check(num && unit && Math.abs(num.y - unit.y) < 8 && num.width >= 60, `${width} px: the number and its unit on one line, the number usable (${JSON.stringify([num, unit])})`);
    } finally {
      await p.close();
    }
  }
});

// `format: quantity` in a chart's own schema gets the quantity editor too;
// read-only, its number and its unit are both fixed (fixture chart-k8s-own)
test("V k8s: a format: quantity field; read-only, its unit is fixed too", async () => {
  const p = await open(form(OWN));
  const pg = p.page;
  try {
    const q = await reveal(pg, "quota");
    check(await q.isDisabled(), "the read-only quantity's number is disabled");
    check(await pg.getByRole("combobox", { name: "Unit of quota", exact: true }).isDisabled(), "and its unit");
    await setField(pg, "scratch", "2");
    await pg.getByRole("combobox", { name: "Unit of scratch", exact: true }).selectOption("Gi");
    const v = (await loadValues(await settled(() => preview(pg))))[0];
    checkEqual(v.scratch, "2Gi", "format: quantity written as 2Gi");
  } finally {
    await p.close();
  }
});
