// SPDX-License-Identifier: Apache-2.0
// k8s_formats.test.mjs - the form's checks of Kubernetes quantities and
// IntOrString strings (src/form/formats.js) give the answers of the C
// ones (src/validate/quantity.c; the same cases as tests/unit/test_k8s.c).
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkFormat } from "../../src/form/formats.js";

const QUANTITY_GOOD = ["500m", "1Gi", "1e3", "0.5", ".5", "5.", "1", "+1.5Gi", "-2", "100Ki", "2E", "1E-2", "3e+4", "7n", "1u", "1k", "64M"];
const QUANTITY_BAD = ["2 cores", "half", "", "1K", "1GB", ".", "-", "1e", "1e1.5", "1Mi ", " 1", "1.2.3", "e3", "1ki", "0x10", "1Gib"];

test("quantity as resource.ParseQuantity reads it", () => {
  for (const q of QUANTITY_GOOD) assert.equal(checkFormat("quantity", q), true, q);
  for (const q of QUANTITY_BAD) assert.equal(checkFormat("quantity", q), false, q);
});

test("int-or-string: a port name or a percentage", () => {
  for (const s of ["http-port", "http", "25%"]) assert.equal(checkFormat("int-or-string", s), true, s);
  for (const s of ["80", "HTTP", "a-very-long-port-name", "-http", "my--port", "%"])
    assert.equal(checkFormat("int-or-string", s), false, s);
});
