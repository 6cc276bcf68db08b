// SPDX-License-Identifier: Apache-2.0
// V. Kubernetes types in the form (issue 43; docs/k8s.md). Fixture
// chart-k8s has no schema; its templates hand `resources` and `tolerations`
// whole to a Deployment, so the schema made for its form gives those keys
// their Kubernetes definitions: a quantity that the API server would refuse
// is a problem, and a toleration's `operator` is a choice of the enum the
// generator adds.
import { after } from "node:test";
import { test, form, open, closeBrowser, check, checkEqual, checksDone, setField, reveal, problems, until, FIX } from "./harness.mjs";
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
    // the quantity's grammar (quantity.c) as the bundled Quantity's pattern
    check(pr.items.some((i) => i.href === "#f-resources-limits-cpu" &&
      i.text.startsWith('resources.limits.cpu: value "2 cores" does not match pattern') && i.text.includes("[KMGTPE]i|[numkMGTPE]")),
      `the quantity message at resources.limits.cpu: ${JSON.stringify(pr.items)}`);
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
