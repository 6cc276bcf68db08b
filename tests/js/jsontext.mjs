// SPDX-License-Identifier: Apache-2.0
// jsontext.mjs - JSON text -> { value, texts }: the value as JSON.parse gives
// it, and the source text of every number by JSON pointer (what rules.js
// quotes in messages, as the C validator quotes numbers as written).
// Test helper; the form gets the same from the yaml library's nodes.

export function parseJsonText(text) {
  const texts = new Map();
  let i = 0;
  const ws = () => { while (i < text.length && " \t\n\r".includes(text[i])) i++; };
  const fail = (m) => { throw new SyntaxError(`${m} at offset ${i}`); };
  const esc = (k) => k.replace(/~/g, "~0").replace(/\//g, "~1");
  function str() {
    const start = i;
    i++;
    while (i < text.length && text[i] !== "\"") i += text[i] === "\\" ? 2 : 1;
    if (i >= text.length) fail("unterminated string");
    i++;
    return JSON.parse(text.slice(start, i));
  }
  function val(ptr, depth) {
    if (depth > 5000) fail("too deep");
    ws();
    const ch = text[i];
    if (ch === "{") {
      const o = {};
      i++;
      ws();
      if (text[i] === "}") { i++; return o; }
      for (;;) {
        ws();
        if (text[i] !== "\"") fail("expected a key");
        const k = str();
        ws();
        if (text[i] !== ":") fail("expected ':'");
        i++;
        const v = val(ptr + "/" + esc(k), depth + 1);
        Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "}") { i++; return o; }
        fail("expected ',' or '}'");
      }
    }
    if (ch === "[") {
      const a = [];
      i++;
      ws();
      if (text[i] === "]") { i++; return a; }
      for (;;) {
        a.push(val(ptr + "/" + a.length, depth + 1));
        ws();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "]") { i++; return a; }
        fail("expected ',' or ']'");
      }
    }
    if (ch === "\"") return str();
    const m = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (m) {
      i += m[0].length;
      texts.set(ptr, m[0]);
      return Number(m[0]);
    }
    for (const [w, v] of [["true", true], ["false", false], ["null", null]])
      if (text.startsWith(w, i)) { i += w.length; return v; }
    return fail("unexpected character");
  }
  const value = val("", 0);
  ws();
  if (i !== text.length) fail("trailing characters");
  return { value, texts };
}
