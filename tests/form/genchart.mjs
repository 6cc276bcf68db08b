// SPDX-License-Identifier: Apache-2.0
// genchart.mjs - a generated Helm chart of about N leaf fields (default
// 1,500) for the form's big-chart figures (tests/bench-form.mjs) and tests
// (tests/form/h-big-chart.test.mjs): sections of objects nested up to six
// levels, every field documented (helm-docs `# --` comments in values.yaml,
// some descriptions long), with a values.schema.json that uses the keywords a
// real chart does (types, enum, pattern, minimum/maximum, lists, maps, a
// oneOf). Deterministic: the same N gives the same chart.
import fs from "node:fs";
import path from "node:path";

const WORDS = ("replica image tag pull policy service port ingress host path annotation label resource limit request " +
  "memory cpu storage class volume mount secret token config map timeout retry interval backoff proxy cache log level " +
  "metric scrape rule alert route receiver webhook cert issuer domain node affinity toleration priority").split(" ");

function word(i) { return WORDS[i % WORDS.length]; }
function camel(a, b) { return a + b[0].toUpperCase() + b.slice(1); }

// {schema, values, lines}: one leaf at index i
function leaf(i) {
  const k = i % 9;
  const desc = "The " + word(i) + " " + word(i * 7 + 3) + " of this component" +
    (i % 17 === 0 ? ". " + Array.from({ length: 8 }, (_, j) => "When the " + word(i + j) + " is set, the " + word(i + j + 5) + " follows it.").join(" ") : ".");
  switch (k) {
    case 0: return { schema: { type: "string", description: desc, pattern: "^[a-z0-9.-]*$" }, value: word(i) + "-" + i, desc };
    case 1: return { schema: { type: "integer", description: desc, minimum: 0, maximum: 65535 }, value: i % 1000, desc };
    case 2: return { schema: { type: "boolean", description: desc }, value: i % 2 === 0, desc };
    case 3: return { schema: { type: "string", description: desc, enum: ["Always", "IfNotPresent", "Never"] }, value: "IfNotPresent", desc };
    case 4: return { schema: { type: "array", description: desc, items: { type: "string" } }, value: [word(i), word(i + 1)], desc };
    case 5: return { schema: { type: "object", description: desc, additionalProperties: { type: "string" } }, value: { ["app.kubernetes.io/" + word(i)]: word(i + 2) }, desc };
    case 6: return { schema: { type: "string", description: desc, maxLength: 63 }, value: "", desc };
    case 7: return { schema: { type: "number", description: desc, minimum: 0 }, value: (i % 50) / 2, desc };
    default: return { schema: { description: desc, oneOf: [{ type: "string", title: "Name" }, { type: "integer", title: "Number" }] }, value: "n" + i, desc };
  }
}

// A section: `fields` leaves spread over objects nested up to `depth` levels.
function build(prefix, fields, depth, counter) {
  const schema = { type: "object", additionalProperties: false, properties: {} };
  const values = {};
  const lines = [];
  const perLevel = depth > 1 ? Math.max(4, Math.floor(fields / 3)) : fields;
  let n = 0;
  for (; n < Math.min(perLevel, fields); n++) {
    const i = counter.i++;
    const key = camel(word(i), word(i * 3 + 1)) + (i % 97);
    const l = leaf(i);
    schema.properties[key] = l.schema;
    values[key] = l.value;
    lines.push({ key, desc: l.desc, value: l.value });
  }
  let left = fields - n, j = 0;
  while (left > 0) {
    const take = Math.min(left, Math.max(6, Math.ceil(left / 2)));
    const key = camel(word(counter.i + j), "settings") + j;
    const sub = build(prefix + key + ".", take, depth - 1, counter);
    schema.properties[key] = Object.assign({ description: "Settings of the " + word(counter.i + j) + " part." }, sub.schema);
    values[key] = sub.values;
    lines.push({ key, desc: "Settings of the " + word(counter.i + j) + " part.", sub: sub.lines });
    left -= take;
    j++;
  }
  return { schema, values, lines };
}

function yamlScalar(v) {
  if (typeof v === "string") return v === "" ? '""' : /^[a-z][a-z0-9.-]*$/.test(v) && !/^(y|n|yes|no|on|off|true|false|null)$/.test(v) ? v : JSON.stringify(v);
  return String(v);
}

function writeLines(lines, indent, out) {
  const pad = " ".repeat(indent);
  for (const l of lines) {
    out.push(pad + "# -- " + l.desc);
    if (l.sub) { out.push(pad + l.key + ":"); writeLines(l.sub, indent + 2, out); continue; }
    const v = l.value;
    if (Array.isArray(v)) { out.push(pad + l.key + ":"); for (const x of v) out.push(pad + "  - " + yamlScalar(x)); }
    else if (v && typeof v === "object") { out.push(pad + l.key + ":"); for (const [k, x] of Object.entries(v)) out.push(pad + "  " + JSON.stringify(k) + ": " + yamlScalar(x)); }
    else out.push(pad + l.key + ": " + yamlScalar(v));
  }
}

// Write the chart into DIR; returns {dir, fields, deepPath}.
export function genChart(dir, total = 1500) {
  fs.mkdirSync(dir, { recursive: true });
  const counter = { i: 0 };
  const sections = 12;
  const schema = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", additionalProperties: false, properties: {} };
  const values = {};
  const out = [];
  for (let s = 0; s < sections; s++) {
    const key = word(s * 5) + "Section" + s;
    const sub = build(key + ".", Math.floor(total / sections), 6, counter);
    schema.properties[key] = Object.assign({ title: "Section " + (s + 1), description: "Everything about the " + word(s * 5) + "." }, sub.schema);
    values[key] = sub.values;
    out.push("# -- Everything about the " + word(s * 5) + ".");
    out.push(key + ":");
    writeLines(sub.lines, 2, out);
  }
  fs.writeFileSync(path.join(dir, "Chart.yaml"), `apiVersion: v2\nname: generated\ndescription: A generated chart of ${total} fields\nversion: 1.0.0\n`);
  fs.writeFileSync(path.join(dir, "values.yaml"), out.join("\n") + "\n");
  fs.writeFileSync(path.join(dir, "values.schema.json"), JSON.stringify(schema, null, 1));
  // the deepest string field with a pattern: the keystroke bench's field
  let deep = null;
  const walk = (sch, segs) => {
    for (const [k, p] of Object.entries(sch.properties || {})) {
      if (p.properties) walk(p, segs.concat([k]));
      else if (p.type === "string" && p.pattern && (!deep || segs.length + 1 > deep.length)) deep = segs.concat([k]);
    }
  };
  walk(schema, []);
  return { dir, fields: counter.i, deepPath: deep.join(".") };
}
