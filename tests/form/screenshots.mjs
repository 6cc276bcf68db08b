// SPDX-License-Identifier: Apache-2.0
// screenshots.mjs - `make screenshots`: the form of a chart, a CRD and a ytt
// schema (tests/form/fixtures), light and dark, 1280 px and 390 px wide, into
// docs/form/KIND-SCHEME-WIDTH.png. The chart's shows one invalid field and an
// opened object so the error and nesting styles are in the picture. Then a
// deep field of the Prometheus CRD (corpus) on a phone, and a filtered search:
// docs/form/crd-deep-SCHEME-390.png, docs/form/chart-search-SCHEME-WIDTH.png;
// the Kubernetes editors: docs/form/k8s-{resources,probe}-light-WIDTH.png.
import path from "node:path";
import fs from "node:fs";
import { form, open, closeBrowser, setField, reveal, ROOT, CORPUS } from "./harness.mjs";

const out = path.join(ROOT, "docs/form");
fs.mkdirSync(out, { recursive: true });
const made = [];
for (const kind of ["chart", "crd", "ytt"]) {
  for (const scheme of ["light", "dark"]) {
    for (const width of [1280, 390]) {
      const p = await open(form(kind), { colorScheme: scheme, viewport: { width, height: width > 500 ? 900 : 844 } });
      try {
        if (kind === "chart") {
          await setField(p.page, "replicaCount", "0");
          await reveal(p.page, "image.tag");
        }
        if (kind === "crd") await reveal(p.page, "spec.size").catch(() => null);
        await p.page.evaluate(() => window.scrollTo(0, 0));
        await p.page.waitForTimeout(200);
        const f = path.join(out, `${kind}-${scheme}-${width}.png`);
        await p.page.screenshot({ path: f });
        made.push(path.relative(ROOT, f));
      } finally { await p.close(); }
    }
  }
}
// issue 33: a phone view of a deep CRD field, and a filtered search (light, and the phone's dark)
const crd = path.join(CORPUS, "crds/monitoring.coreos.com_prometheuses.yaml");
if (fs.existsSync(crd)) {
  for (const scheme of ["light", "dark"]) {
    const p = await open(form(crd), { colorScheme: scheme, viewport: { width: 390, height: 844 }, readyTimeout: 60000 });
    try {
      const pg = p.page;
      const c = await reveal(pg, "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms");
      await c.scrollIntoViewIfNeeded();
      await pg.waitForTimeout(200);
      const f = path.join(out, `crd-deep-${scheme}-390.png`);
      await pg.screenshot({ path: f });
      made.push(path.relative(ROOT, f));
    } finally { await p.close(); }
  }
}
for (const [scheme, width] of [["light", 1280], ["dark", 390]]) {
  const p = await open(form("chart"), { colorScheme: scheme, viewport: { width, height: width > 500 ? 900 : 844 } });
  try {
    const pg = p.page;
    await pg.locator("#sd-search").fill("host");
    await pg.waitForFunction(() => document.documentElement.dataset.searched === "host");
    await pg.waitForTimeout(200);
    if (width < 500) await pg.locator(".sd-root").scrollIntoViewIfNeeded();
    const f = path.join(out, `chart-search-${scheme}-${width}.png`);
    await pg.screenshot({ path: f });
    made.push(path.relative(ROOT, f));
  } finally { await p.close(); }
}
// issue 43: the Kubernetes editors of fixture chart-k8s (form_k8s.js): the
// resources editor and a probe's handler choice, desktop and phone
for (const width of [1280, 390]) {
  const p = await open(form("k8s"), { viewport: { width, height: width > 500 ? 900 : 844 } });
  try {
    const pg = p.page;
    await reveal(pg, "resources.requests.memory");
    await reveal(pg, "resources.limits.cpu");
    await reveal(pg, "livenessProbe.httpGet.port");
    for (const [what, at] of [["resources", "resources"], ["probe", "livenessProbe"]]) {
      const f = path.join(out, `k8s-${what}-light-${width}.png`);
      await pg.locator(`[data-path="${at}"]`).first().screenshot({ path: f });
      made.push(path.relative(ROOT, f));
    }
  } finally { await p.close(); }
}
await closeBrowser();
console.log(made.join("\n"));
