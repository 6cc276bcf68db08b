// SPDX-License-Identifier: Apache-2.0
// runtime.test.mjs - `schemadoc rules --runtime`: one self-contained module
// that exports what src/form/rules.js exports and answers exactly as it does.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import * as modules from "../../src/form/rules.js";

const SD = process.env.SD || "./schemadoc";
const tmp = process.env.SD_TMP || fs.mkdtempSync("/tmp/sd-runtime-");

test("rules --runtime is the interpreter in one module", async () => {
  const file = path.join(tmp, "validator.mjs");
  execFileSync(SD, ["rules", "--runtime", "-o", file]);
  const text = fs.readFileSync(file, "utf8");
  assert.ok(!/^import /m.test(text), "the runtime imports nothing");
  assert.ok(!/\beval\s*\(|\bnew\s+Function\s*\(/.test(text), "no eval, no new Function");
  const rt = await import(file);
  assert.deepEqual(Object.keys(rt).sort(), Object.keys(modules).sort());
  const rules = JSON.parse(execFileSync(SD, ["rules", "tests/rules/chart"], { stdio: ["ignore", "pipe", "ignore"] }));
  const values = { replicaCount: "3", image: { repository: "Shop!", pullPolicy: "Sometimes" }, service: { nodePort: 80 },
    hosts: [{ name: "-bad-" }, {}], extra: 1, redis: { maxmemory: "1x", policy: "lru" }, db: { port: 70000 } };
  for (const entry of ["values", "charts/redis", "charts/db"]) {
    const a = rt.validate(rules, values, { entry }), b = modules.validate(rules, values, { entry });
    assert.deepEqual(a, b, entry);
    assert.ok(a.length > 0, entry);
  }
});
