// SPDX-License-Identifier: Apache-2.0
// form_dom.js - building elements without HTML text: every string from a
// chart goes in as textContent or an attribute value, so it stays inert.
// Descriptions were rendered to HTML by src/render/form.c with cmark-gfm
// (raw HTML dropped, unsafe links removed) into <template> elements of the
// page; they are cloned from there.

export function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const k of Object.keys(attrs)) {
      const v = attrs[k];
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = v;
      else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else if (k === "value") el.value = v;
      else if (k === "checked" || k === "disabled" || k === "hidden" || k === "open" || k === "readOnly") el[k] = !!v;
      else el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  for (const c of kids) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return el;
}

// The description the page rendered (cmark-gfm, in C) as <template
// id="sd-doc-N">: cloned, never parsed from a string.
export function descNode(n) {
  const d = document.createElement("div");
  d.className = "sd-desc";
  const t = document.getElementById("sd-doc-" + n);
  if (t && t.content) d.append(t.content.cloneNode(true));
  for (const a of d.querySelectorAll("a")) a.rel = "noopener noreferrer";
  return d;
}

export function descText(n) {
  const t = document.getElementById("sd-doc-" + n);
  return t && t.content ? t.content.textContent || "" : "";
}

export function show(v) {
  if (v === undefined) return "";
  if (typeof v === "string") return JSON.stringify(v);
  try { return JSON.stringify(v); } catch (e) { return String(v); }
}
