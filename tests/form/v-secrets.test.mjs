// SPDX-License-Identifier: Apache-2.0
// V. Secrets (issue 33): only string values whose key names a secret value
// (password, token, secret key, private key, credentials) are masked, not
// the names of Secrets (existingSecret, *SecretName, secretRef) nor keys
// inside one (passwordKey); a multi-line value is a textarea, masked or
// not, never a one-line input that joins its lines; a masked field's
// default is not printed in clear beside it.
import { after } from "node:test";
import {
  test, form, open, closeBrowser, check, checkEqual, checksDone, reveal, control, importText, preview, until, button, loadValues, hygiene, CORPUS, setField, region, downloadText,
} from "./harness.mjs";
import path from "node:path";

after(async () => { console.log(`count: form V secrets checks ${checksDone()}`); await closeBrowser(); });

const FORM = "tests/form/fixtures/chart-values";
// how a control shows its text: "masked" (password input or discs), "clear"
const shown = (c) => c.evaluate((e) => ({
  tag: e.tagName,
  masked: e.tagName === "INPUT" ? e.type === "password" : getComputedStyle(e).webkitTextSecurity === "disc" || e.hidden,
}));

test("V secrets: secret values masked, names of Secrets not; multi-line values are textareas", async () => {
  const p = await open(form(FORM));
  try {
    const want = {
      "auth.password": ["INPUT", true], "auth.apiToken": ["INPUT", true], "auth.secretKey": ["INPUT", true], "auth.credentials": ["INPUT", true],
      "auth.privateKey": ["TEXTAREA", true], "auth.caBundle": ["TEXTAREA", false],
      "auth.existingSecret": ["INPUT", false], "auth.tlsSecretName": ["INPUT", false], "auth.secretRef": ["INPUT", false], "auth.passwordKey": ["INPUT", false],
    };
    for (const [fp, [tag, masked]] of Object.entries(want)) {
      const s = await shown(await reveal(p.page, fp));
      checkEqual([s.tag, s.masked], [tag, masked], `${fp}: ${tag} ${masked ? "masked" : "in clear"}`);
    }
    // the multi-line values keep their lines
    checkEqual(await (await control(p.page, "auth.privateKey")).inputValue(), "-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA\n-----END PRIVATE KEY-----\n", "the private key's three lines");
    // Show unmasks a masked textarea
    await button(p.page, "Show auth.privateKey").click();
    checkEqual((await shown(await control(p.page, "auth.privateKey"))).masked, false, "Show unmasks the textarea");
    // no masked default printed in clear beside its field
    for (const [fp, secretText] of [["auth.password", "default-pass-Qx7"], ["auth.privateKey", "MIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA"]]) {
      const text = await p.page.locator(`[data-path="${fp}"]`).first().evaluate((e) => {
        const c = e.cloneNode(true);
        for (const x of c.querySelectorAll("input, textarea")) x.remove();
        return c.textContent;
      });
      check(!text.includes(secretText), `${fp}: its default is not printed in clear (${text.slice(0, 120)})`);
      check(/Default: \(hidden\)/.test(text), `${fp}: the default is said to be hidden`);
    }
    const plain = await p.page.locator('[data-path="auth.passwordKey"]').first().textContent();
    check(/Default: "?password"?/.test(plain), `a non-secret field still shows its default: ${plain}`);
    // changed: the Changes region names it without its value or default
    await setField(p.page, "auth.password", "n3w-S3cret-Vq");
    await setField(p.page, "auth.passwordKey", "pk");
    const ch = await until(() => region(p.page, "Changes").textContent(), (t) => /auth\.passwordKey/.test(t), 4000, "Changes");
    check(!ch.includes("n3w-S3cret-Vq") && !ch.includes("default-pass-Qx7"), `the Changes list prints no secret: ${ch}`);
    check(/auth\.password \(hidden\) default \(hidden\)/.test(ch), `the secret's change is named: ${ch}`);
    check(/auth\.passwordKey "pk" default "password"/.test(ch), `a plain change shows its values: ${ch}`);
    checkEqual(await hygiene(p), [], "hygiene");
  } finally { await p.close(); }
});

test("V secrets: a multi-line value set on a one-line field becomes a textarea and keeps its lines", async () => {
  const p = await open(form(FORM));
  try {
    const before = await shown(await reveal(p.page, "auth.credentials"));
    checkEqual(before, { tag: "INPUT", masked: true }, "credentials starts as a masked input");
    await importText(p.page, 'auth:\n  credentials: "[default]\\naws_access_key_id = X\\naws_secret_access_key = Y\\n"\n  existingSecret: "a\\nb"\n');
    const y0 = await until(() => preview(p.page), (t) => /credentials: "\*{8}"/.test(t), 4000, "imported, masked in the preview");
    check(!y0.includes("aws_access"), "the preview does not print the secret");
    const y = await downloadText(p.page);
    checkEqual((await loadValues(y))[0].auth.credentials, "[default]\naws_access_key_id = X\naws_secret_access_key = Y\n", "downloaded with its lines");
    const after1 = await shown(await control(p.page, "auth.credentials"));
    checkEqual(after1, { tag: "TEXTAREA", masked: true }, "a masked textarea now");
    checkEqual(await (await control(p.page, "auth.credentials")).inputValue(), "[default]\naws_access_key_id = X\naws_secret_access_key = Y\n", "the textarea holds the lines");
    checkEqual(await shown(await control(p.page, "auth.existingSecret")), { tag: "TEXTAREA", masked: false }, "a multi-line non-secret: a plain textarea");
    // typing into it keeps the lines
    const ta = await control(p.page, "auth.existingSecret");
    await ta.fill("one\ntwo\nthree");
    await ta.dispatchEvent("change");
    const y2 = await until(() => preview(p.page), (t) => /three/.test(t), 4000, "typed");
    checkEqual((await loadValues(y2))[0].auth.existingSecret, "one\ntwo\nthree", "typed lines kept");
  } finally { await p.close(); }
});

// Real charts: the Bitnami names of Secrets (by their key's words, or by a
// description that says "Name of the Secret...", "Secret with...") are in
// clear; the secret values beside them masked.
const MAPS = ["--map", `https://raw.githubusercontent.com/=${CORPUS}/charts/_remote/raw.githubusercontent.com/`, "--offline"];
for (const [chart, want] of [
  ["bitnami-postgresql", { "auth.postgresPassword": true, "auth.password": true, "auth.replicationPassword": true, "auth.existingSecret": false,
    "tls.certificatesSecret": false, "primary.extraEnvVarsSecret": false, "primary.initdb.scriptsSecret": false }],
  ["bitnami-redis", { "auth.password": true, "auth.acl.userSecret": false, "master.extraEnvVarsSecret": false, "auth.existingSecretPasswordKey": false }],
  ["argo-cd", { "configs.secret.githubSecret": true, "configs.secret.gogsSecret": true, "configs.secret.argocdServerAdminPassword": true,
    "configs.secret.argocdServerAdminPasswordMtime": false }],
  ["grafana", { envFromSecret: false, "downloadDashboards.envFromSecret": false, "admin.existingSecret": false }],
]) {
  test(`V secrets: ${chart}: secret values masked, names of Secrets in clear`, async () => {
    const p = await open(form(path.join(CORPUS, "charts", chart), MAPS), { readyTimeout: 60000 });
    try {
      const all = p.page.getByRole("radio", { name: "All fields", exact: true });
      if (await all.count()) await all.check();
      for (const [fp, masked] of Object.entries(want)) {
        const s = await shown(await reveal(p.page, fp));
        checkEqual(s.masked, masked, `${chart} ${fp}: ${masked ? "masked" : "in clear"}`);
      }
      checkEqual(await hygiene(p), [], "hygiene");
    } finally { await p.close(); }
  });
}
