// SPDX-License-Identifier: Apache-2.0
// A. Self-containment and hygiene (../shared/design/form.md): no network from
// file://, no console errors / page errors, a strict CSP whose one hash is the
// one inline script and no violation, hostile text inert everywhere, the
// embedded JSON escaped, element ids unique; the page title of each source kind.
import { after } from "node:test";
import fs from "node:fs";
import crypto from "node:crypto";
import { test, form, open, hygiene, writeTmp, FIX, closeBrowser, drawn, check, checkEqual, checksDone, setField, importText, button, preview, until, reveal, region } from "./harness.mjs";

after(async () => { console.log(`count: form A hygiene checks ${checksDone()}`); await closeBrowser(); });

const KINDS = [
  ["chart", "formchart values"],
  ["noschema", "plainchart values"],
  ["ytt", "schema data values"],
  ["crd", "Widget manifest"],
  ["schema", "Widget config document"],
];

async function csp(page) {
  return page.evaluate(() => {
    const m = document.querySelector('meta[http-equiv="Content-Security-Policy" i]');
    const scripts = [...document.scripts].filter((s) => !s.type || /javascript|module/.test(s.type)).map((s) => ({ src: s.src, text: s.textContent }));
    return { policy: m ? m.getAttribute("content") : null, scripts };
  });
}

function policyChecks(label, c) {
  check(c.policy, `${label}: a CSP meta element`);
  const dirs = Object.fromEntries(c.policy.split(";").map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map((d) => [d[0], d.slice(1)]));
  checkEqual(dirs["default-src"], ["'none'"], `${label}: default-src 'none'`);
  check(!/unsafe-eval/.test(c.policy), `${label}: no unsafe-eval`);
  check(dirs["script-src"] && !dirs["script-src"].includes("'unsafe-inline'") && dirs["script-src"].every((s) => /^'sha(256|384|512)-/.test(s)), `${label}: script-src only hashes: ${dirs["script-src"]}`);
  checkEqual(c.scripts.length, 1, `${label}: exactly one executable script`);
  check(!c.scripts[0].src, `${label}: the script is inline`);
  const h = "'sha256-" + crypto.createHash("sha256").update(c.scripts[0].text, "utf8").digest("base64") + "'";
  check(dirs["script-src"].includes(h), `${label}: the CSP hash is the inline script's`);
}

for (const [kind, title] of KINDS) {
  test(`A ${kind}: self-contained, clean, strict CSP, unique ids`, async () => {
    const file = form(kind);
    const html = fs.readFileSync(file, "utf8");
    check(!/<(link|img|iframe|object|embed)\b[^>]*\b(src|href)\s*=\s*["']?(https?:|\/\/)/i.test(html), `${kind}: no external resource in the markup`);
    const p = await open(file);
    try {
      checkEqual(await p.page.title(), title, `${kind}: <title>`);
      policyChecks(kind, await csp(p.page));
      const dup = await p.page.evaluate(() => {
        const seen = new Map();
        for (const e of document.querySelectorAll("[id]")) seen.set(e.id, (seen.get(e.id) || 0) + 1);
        return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
      });
      checkEqual(dup, [], `${kind}: duplicate ids`);
      const data = await p.page.evaluate(() => {
        const d = document.getElementById("sd-form-data");
        return d ? { type: d.type, ok: (() => { try { JSON.parse(d.textContent); return true; } catch { return false; } })() } : null;
      });
      check(data && data.type === "application/json" && data.ok, `${kind}: #sd-form-data is parseable application/json`);
      checkEqual(await hygiene(p), [], `${kind}: hygiene at load`);
    } finally { await p.close(); }
  });
}

test("A chart: a scripted session stays clean (no requests, errors, violations)", async () => {
  const p = await open(form("chart"));
  try {
    await setField(p.page, "replicaCount", "3");
    await setField(p.page, "image.tag", "2.0");
    await setField(p.page, "replicaCount", "0"); // an error on the way
    await setField(p.page, "replicaCount", "2");
    await importText(p.page, "debug: true\nimage:\n  pullPolicy: Always\n");
    await until(() => preview(p.page), (t) => /pullPolicy: Always/.test(t), 4000, "import in preview");
    await importText(p.page, "a: [\n");
    await p.page.getByRole("radio", { name: "Everything", exact: true }).check();
    await button(p.page, "Dark mode").click();
    await button(p.page, "Reset all").click();
    await button(p.page, "Yes, reset all").click();
    await p.page.getByRole("searchbox", { name: "Search fields" }).fill("pullPolicy");
    await p.page.getByRole("searchbox", { name: "Search fields" }).press("Enter");
    checkEqual(await hygiene(p), [], "hygiene after a session");
  } finally { await p.close(); }
});

// ---- hostile text ---------------------------------------------------------------
const HOSTILE_TEXTS = [
  "<script>window.__pwned=3</script>",
  "{{mustache}} {{{triple}}} {{#x}}y{{/x}}",
];

test("A hostile: markup in titles, descriptions, enums, defaults and keys stays text", async () => {
  const file = form("hostile");
  const html = fs.readFileSync(file, "utf8");
  // the embedded JSON: no raw < > & U+2028 U+2029 (so no </script, <!--)
  const m = html.match(/<script[^>]*id="sd-form-data"[^>]*>([\s\S]*?)<\/script>/);
  check(m, "the data block is found in the file");
  check(!/[<>\u2028\u2029]/.test(m[1]), "the embedded JSON escapes < > U+2028 U+2029");
  check(!/<!--/.test(m[1]) && !/<\/script/i.test(m[1]), "the embedded JSON has no <!-- or </script");
  const p = await open(file);
  try {
    policyChecks("hostile", await csp(p.page));
    // open everything there is and look again
    for (const k of ["map", "choice", "link"]) await reveal(p.page, k).catch(() => null);
    const r = await p.page.evaluate(() => ({
      pwned: window.__pwned,
      imgs: [...document.querySelectorAll("img")].map((i) => i.outerHTML),
      onAttrs: [...document.querySelectorAll("*")].flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName} ${a.name}`)),
      jsLinks: [...document.querySelectorAll("a[href]")].filter((a) => /^\s*javascript:/i.test(a.getAttribute("href"))).map((a) => a.outerHTML),
      text: document.body.innerText + " " + [...document.querySelectorAll("option")].map((o) => o.textContent).join(" ")
        + " " + [...document.querySelectorAll("input,textarea")].map((i) => i.value).join(" "),
      title: document.title,
    }));
    checkEqual(r.pwned, undefined, "no hostile script ran");
    checkEqual(r.imgs, [], "no <img> from hostile text");
    checkEqual(r.onAttrs, [], "no on* attributes");
    checkEqual(r.jsLinks, [], "no javascript: links");
    check(r.title.includes("<script>"), `the chart name is text in <title>: ${r.title}`);
    for (const t of HOSTILE_TEXTS) check(r.text.includes(t), `shown as text: ${t}`);
    check(r.text.includes("onerror"), "the <img onerror> enum/title shows as text");
    // interacting with hostile keys and values keeps them inert
    await setField(p.page, "choice", "{{mustache}} {{{triple}}} {{#x}}y{{/x}}");
    await setField(p.page, '["title<script>"]', "</script><script>window.__pwned=11</script>");
    const y = await until(() => preview(p.page), (t) => t.includes("__pwned=11"), 4000, "hostile value in the preview");
    check(y.includes("{{mustache}}"), "mustache text exported as is");
    checkEqual(await p.page.evaluate(() => window.__pwned), undefined, "still nothing ran");
    checkEqual(await hygiene(p), [], "hygiene");
    // ids are unique with keys holding . / ~ spaces and non-ASCII
    const ids = await p.page.evaluate(() => [...document.querySelectorAll("[data-path]")].map((e) => [e.dataset.path, e.id]));
    const paths = ids.map((x) => x[0]);
    check(paths.includes('["dotted.key/with~tilde and space"]'), `a wrapper for the dotted key: ${paths.join(" | ")}`);
    check(paths.includes('["naïve-ключ-鍵"]') || paths.includes("naïve-ключ-鍵"), "a wrapper for the non-ASCII key");
    const idList = ids.map((x) => x[1]).filter(Boolean);
    checkEqual(new Set(idList).size, idList.length, "wrapper ids unique");
    checkEqual(idList.length, ids.length, "every wrapper has an id");
  } finally { await p.close(); }
});

test("A hostile ytt schema and a hostile CRD: titles, descriptions, defaults and keys stay text", async () => {
  const crd = writeTmp("hostile-crd.yaml", `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: evils.example.com
spec:
  group: example.com
  names: {kind: Evil, plural: evils}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              description: "</script><script>window.__pwned=30</script> <img src=x onerror=window.__pwned=31>"
              properties:
                "a.b/c~d e":
                  type: string
                  description: "[x](javascript:window.__pwned=32) {{mustache}}"
                  enum: ["<b>bold</b>", "</script>"]
`);
  for (const src of [FIX + "/hostile-ytt/schema.yaml", crd]) {
    const file = form(src);
    const html = fs.readFileSync(file, "utf8");
    const m = html.match(/<script[^>]*id="sd-form-data"[^>]*>([\s\S]*?)<\/script>/);
    check(m && !/[<>\u2028\u2029]/.test(m[1]), `${src}: the embedded JSON escapes < > U+2028 U+2029`);
    const p = await open(file);
    try {
      await p.page.evaluate(() => { for (const s of document.querySelectorAll("details:not([open]) > summary")) s.click(); });
      await drawn(p.page);
      const r = await p.page.evaluate(() => ({
        pwned: window.__pwned,
        imgs: document.querySelectorAll("img").length,
        bold: document.querySelectorAll("main b, form b, [data-path] b").length,
        jsLinks: [...document.querySelectorAll("a[href]")].filter((a) => /^\s*javascript:/i.test(a.getAttribute("href"))).length,
        text: document.body.innerText + " " + [...document.querySelectorAll("option")].map((o) => o.textContent).join(" ") + " " + [...document.querySelectorAll("input,textarea")].map((i) => i.value).join(" "),
      }));
      checkEqual([r.pwned, r.imgs, r.jsLinks], [undefined, 0, 0], `${src}: nothing ran, no <img>, no javascript: link`);
      check(/onerror/.test(r.text), `${src}: the markup shows as text`);
      checkEqual(r.bold, 0, `${src}: an enum's <b> is not markup`);
      checkEqual(await hygiene(p), [], `${src}: hygiene`);
    } finally { await p.close(); }
  }
});
