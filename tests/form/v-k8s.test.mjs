// SPDX-License-Identifier: Apache-2.0
// V. Kubernetes types in the form (issue 43; docs/k8s.md). Fixture
// chart-k8s has no schema; its templates hand `resources` and `tolerations`
// whole to a Deployment, so the schema made for its form gives those keys
// their Kubernetes definitions: a quantity that the API server would refuse
// is a problem, and a toleration's `operator` is a choice of the enum the
// generator adds.
import { after } from "node:test";
import { test, form, open, closeBrowser, check, checkEqual, checksDone, setField, reveal, problems, until, importText, validate, writeTmp, FIX } from "./harness.mjs";
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
      i.text === 'resources.limits.cpu: value "2 cores" is not a Kubernetes quantity such as `500m`, `2`, `1Gi`'),
      `the quantity message at resources.limits.cpu: ${JSON.stringify(pr.items)}`);
    check(!pr.items.some((i) => i.text.includes("[KMGTPE]")), "no regex in the message");
    await setField(pg, "resources.limits.cpu", "2");
    await until(() => problems(pg), (r) => r.heading === "No problems", 4000, "2 is a quantity");
    const op = await reveal(pg, "tolerations[0].operator");
    checkEqual(await op.evaluate((e) => e.tagName), "SELECT", "operator is a choice");
    const opts = await op.evaluate((e) => [...e.options].map((o) => o.textContent.trim()));
    check(opts.includes("Equal") && opts.includes("Exists"), `operator offers Equal and Exists: ${JSON.stringify(opts)}`);
    checkEqual(await op.evaluate((e) => e.options[e.selectedIndex].textContent.trim()), "Equal", "the default operator is chosen");
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
    check(got.some((t) => t.startsWith("resources.limits.cpu: the Kubernetes API server rejects this at install: found string \"2 cores\", expected a Kubernetes quantity such as `500m`")),
      `the API server's refusal, worded: ${JSON.stringify(got)}`);
    check(got.some((t) => t.includes("did you mean `nodeAffinity`?")), "did you mean nodeAffinity");
    // fixed: the findings go
    await importText(pg, "resources:\n  limits:\n    cpu: 500m\n  limts: null\naffinity:\n  nodeAfinity: null\n");
    await until(() => problems(pg), (x) => x.heading === "No problems", 4000, "valid again");
  } finally {
    await p.close();
  }
});
