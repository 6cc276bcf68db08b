// form_dom.js - building elements without HTML text: every string from a
// chart goes in as textContent or an attribute value, so it stays inert.
// The one exception is a description, which src/render/form.c rendered to
// HTML with cmark-gfm (raw HTML dropped, unsafe links removed).

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

export function descHtml(html) {
  const d = document.createElement("div");
  d.className = "sd-desc";
  const t = document.createElement("template");
  t.innerHTML = html;
  // belt and braces: only the elements cmark writes, no attributes but links'
  for (const el of t.content.querySelectorAll("*")) {
    for (const a of [...el.attributes]) {
      const ok = (el.tagName === "A" && a.name === "href" && /^(https?:|mailto:|#|[^:]*$)/i.test(a.value)) ||
        (el.tagName === "TD" || el.tagName === "TH") && a.name === "align";
      if (!ok) el.removeAttribute(a.name);
    }
    if (/^(SCRIPT|STYLE|IFRAME|OBJECT|EMBED|IMG|FORM|INPUT|BUTTON|TEXTAREA|SELECT|LINK|META|BASE|SVG|MATH)$/.test(el.tagName))
      el.replaceWith(document.createTextNode(el.textContent || ""));
  }
  for (const a of t.content.querySelectorAll("a")) a.rel = "noopener noreferrer";
  d.append(t.content);
  return d;
}

export function show(v) {
  if (v === undefined) return "";
  if (typeof v === "string") return JSON.stringify(v);
  try { return JSON.stringify(v); } catch (e) { return String(v); }
}
