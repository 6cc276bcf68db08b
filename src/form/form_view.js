// form_view.js - the fields of the form, built from the page's model nodes
// (docs/form.md names every control). Objects are <details> whose fields
// are built when first opened; lists and maps rebuild only their own items.
// Every field registers itself with the app (form_main.js) under its JSON
// pointer, so a change updates that field's provenance and error alone.
import { h, descNode, show } from "./form_dom.js";
import { pathText, pathId, pointer } from "./form_path.js";
import { res, widget, isSecret, isMultiline, branches, branchLabel, chooseBranch, constraintWords, memberNode, itemNode, extras } from "./form_schema.js";
import { isMap, has, clone, equal } from "./form_values.js";
import { toYaml, parseValues } from "./form_yaml.js";

// ---- the parts every field has -------------------------------------------------

// --reference URL: the field's entry in the html reference page (a new tab:
// this page's state is not left behind). The URL was checked by the command.
export function refLink(app, n, p) {
  const base = app.data.reference;
  if (typeof base !== "string" || typeof n.anchor !== "string") return null;
  const href = base + "#" + encodeURIComponent(n.anchor).replace(/%2F/g, "/");
  return h("a", { class: "sd-ref", href, target: "_blank", rel: "noopener noreferrer", "aria-label": "Reference: " + (p === "" ? "(root)" : p), text: "Reference" });
}

function headRow(app, n, segs, id, labelFor, kind) {
  const p = pathText(segs);
  const row = h("div", { class: "sd-row" });
  if (labelFor) row.append(h("label", { class: "sd-path", for: labelFor, text: p === "" ? "(root)" : p }));
  else row.append(h("label", { class: "sd-path", id: id + "-l", for: id + "-c", text: p === "" ? "(root)" : p }));
  if (n.title) row.append(h("span", { class: "sd-title", text: n.title }));
  if (n.required) row.append(h("span", { class: "sd-req", title: "required", "aria-hidden": "true", text: "* required" }));
  if (n.deprecated) row.append(h("span", { class: "sd-badge", title: n.deprecation || "deprecated", text: "Deprecated" }));
  if (n.readOnly) row.append(h("span", { class: "sd-badge", text: "read-only" }));
  if (!labelFor) row.append(h("output", { id: id + "-c", class: "sd-count" }));
  row.append(h("span", { class: "sd-prov", text: "default" }));
  const ref = refLink(app, n, p);
  if (ref) row.append(ref);
  const reset = h("button", { type: "button", class: "sd-reset", hidden: true, text: "Reset " + p });
  reset.addEventListener("click", () => app.resetAt(segs));
  row.append(reset);
  return row;
}

function metaLine(n, kind, secret) {
  const bits = [];
  // a masked field's default stays masked
  if (secret && (has(n, "default") || n.default_text)) bits.push("Default: (hidden)");
  else if (has(n, "default") && kind !== "object") bits.push("Default: " + (n.default_text || show(n.default)));
  else if (n.default_text) bits.push("Default: " + n.default_text);
  const w = constraintWords(n);
  if (w.length) bits.push(w.join(", "));
  if (n.examples && n.examples.length) bits.push("Example: " + n.examples.slice(0, 2).map((e) => show(e.value)).join(", "));
  if (n.deprecation) bits.push(n.deprecation);
  if (n.removed) bits.push("Removed" + (n.removal ? ": " + n.removal : ""));
  return bits.length ? h("div", { class: "sd-meta", text: bits.join(" · ") }) : null;
}

function shell(app, n, segs, kind, extraClass) {
  const id = pathId(segs);
  const el = h("div", { class: "sd-field" + (extraClass ? " " + extraClass : ""), id, "data-path": pathText(segs), "data-provenance": "default" });
  return { el, id, segs, node: n };
}

function finish(app, entry, n, kind) {
  const { el, id } = entry;
  if (n.doc !== undefined) {
    const d = descNode(n.doc);
    d.id = id + "-d";
    el.append(d);
  }
  const m = metaLine(n, kind, entry.secret);
  if (m) el.append(m);
  const err = h("div", { class: "sd-error", id: id + "-e", hidden: true });
  el.append(err);
  entry.err = err;
  entry.prov = el.querySelector(".sd-prov");
  entry.reset = el.querySelector(".sd-reset");
  app.register(entry);
  app.refresh(entry);
  return el;
}

// ---- a field of any kind ---------------------------------------------------------

export function renderField(app, node0, segs, depth, opts = {}) {
  const n = res(node0);
  const value = app.get(segs);
  let w = widget(n, value);
  if (app.isCrdHeader(segs)) w = "const";
  switch (w) {
    case "object": return renderObject(app, n, segs, depth, opts);
    case "array": return renderArray(app, n, segs, depth);
    case "map": return renderMap(app, n, segs, depth);
    case "variant": return renderVariant(app, n, segs, depth, opts);
    case "free": return renderFree(app, n, segs);
    default: return renderLeaf(app, n, segs, w);
  }
}

// ---- scalars ---------------------------------------------------------------------

function numText(v) {
  return typeof v === "number" ? String(v) : typeof v === "string" ? v : "";
}

const NUM = /^[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/;

function renderLeaf(app, n, segs, w) {
  const entry = shell(app, n, segs, w);
  const { el, id } = entry;
  const cid = id + "-c";
  const p = pathText(segs);
  el.append(headRow(app, n, segs, id, cid, w));
  const ctl = h("div", { class: "sd-control" });
  const ro = !!n.readOnly || w === "const";
  const key = segs.length ? segs[segs.length - 1] : null;
  let control;
  // text typed goes through a pause before the whole form is checked again;
  // a select or a checkbox is one decision, checked at once
  const commit = (v, text) => app.change(segs, v, { text, entry, typing: typeof text === "string" });
  if (w === "boolean") {
    control = h("select", { id: cid },
      h("option", { value: "", text: "unset" }), h("option", { value: "true", text: "true" }), h("option", { value: "false", text: "false" }));
    control.addEventListener("change", () => commit(control.value === "" ? undefined : control.value === "true"));
    entry.set = (v) => { control.value = v === true ? "true" : v === false ? "false" : ""; };
  } else if (w === "enum") {
    control = h("select", { id: cid }, h("option", { value: "", text: "unset" }));
    n.enum.forEach((e, i) => control.append(h("option", { value: String(i), text: typeof e === "string" ? e : show(e) })));
    control.addEventListener("change", () => commit(control.value === "" ? undefined : clone(n.enum[Number(control.value)])));
    entry.set = (v) => {
      const i = v === undefined ? -1 : n.enum.findIndex((e) => equal(e, v));
      if (i < 0 && v !== undefined && !control.querySelector("option[data-other]"))
        control.append(h("option", { value: "other", "data-other": "1", text: show(v) }));
      control.value = i >= 0 ? String(i) : v === undefined ? "" : "other";
    };
  } else if (w === "const") {
    const cv = has(n, "const") ? n.const : app.get(segs);
    control = h("input", { type: "text", id: cid, readOnly: true, "aria-readonly": "true", value: typeof cv === "string" ? cv : show(cv) });
    entry.set = () => {};
  } else if (w === "integer" || w === "number") {
    control = h("input", { type: "text", id: cid, inputmode: w === "integer" ? "numeric" : "decimal", autocomplete: "off", spellcheck: "false" });
    control.addEventListener("input", () => {
      const t = control.value.trim();
      if (t === "") return commit(undefined, "");
      if (NUM.test(t)) {
        // 1e400 is a number too big for a double: kept as Infinity with its
        // text, as the validator reports it ("found number 1e400")
        return commit(Number(t), t);
      }
      return commit(t, t);
    });
    entry.set = (v) => { if (document.activeElement !== control) control.value = numText(v); };
  } else if (w === "intOrString") {
    control = h("input", { type: "text", id: cid, autocomplete: "off", spellcheck: "false" });
    control.addEventListener("input", () => {
      const t = control.value;
      if (t.trim() === "") return commit(undefined, "");
      commit(/^[-+]?[0-9]+$/.test(t.trim()) && Number.isSafeInteger(Number(t.trim())) ? Number(t.trim()) : t, t);
    });
    entry.set = (v) => { if (document.activeElement !== control) control.value = v === undefined || v === null ? "" : String(v); };
  } else if (w === "any") {
    control = h("input", { type: "text", id: cid, autocomplete: "off", spellcheck: "false", title: "a YAML scalar" });
    control.addEventListener("input", () => {
      const t = control.value;
      if (t.trim() === "") return commit(undefined, "");
      const r = parseValues(t);
      commit(r.error || typeof r.value === "object" && r.value !== null ? t : r.value, t);
    });
    entry.set = (v) => { if (document.activeElement !== control) control.value = v === undefined ? "" : typeof v === "string" ? v : show(v); };
  } else {
    // a secret is masked (a password input, or a masked textarea); a value
    // with a line break is always a textarea, whatever it was built as
    const secret = isSecret(n, key);
    entry.secret = secret;
    entry.ownChange = true;
    const make = (multi) => {
      const c = multi ? h("textarea", { id: cid, rows: 4, spellcheck: "false", autocomplete: "off" })
        : h("input", { type: secret ? "password" : "text", id: cid, autocomplete: secret ? "new-password" : "off", spellcheck: "false" });
      if (multi && secret) maskText(c, true);
      c.addEventListener("input", () => {
        const t = c.value;
        if (t === "") {
          const allowEmpty = n.required && !((n.constraints || {}).minLength > 0);
          const d = app.def(segs);
          return commit(allowEmpty || d === "" ? "" : undefined, t);
        }
        commit(t, t);
      });
      c.addEventListener("change", () => app.flush());
      return c;
    };
    control = make(isMultiline(n, app.get(segs)));
    entry.set = (v) => {
      if (control.tagName === "INPUT" && typeof v === "string" && v.includes("\n")) {
        const ta = make(true);
        if (entry.showBtn && entry.showBtn.getAttribute("aria-pressed") === "true") maskText(ta, false);
        for (const a of ["aria-invalid", "aria-describedby", "aria-required", "aria-readonly", "required", "readonly", "disabled"]) if (control.hasAttribute(a)) ta.setAttribute(a, control.getAttribute(a));
        control.replaceWith(ta);
        control = ta;
        entry.control = ta;
      }
      if (document.activeElement !== control) control.value = typeof v === "string" ? v : v === undefined || v === null ? "" : String(v);
    };
    if (secret) {
      const btn = h("button", { type: "button", "aria-pressed": "false", "aria-label": "Show " + p, text: "Show" });
      btn.addEventListener("click", () => {
        const on = btn.getAttribute("aria-pressed") !== "true";
        if (control.tagName === "TEXTAREA") maskText(control, !on);
        else control.type = on ? "text" : "password";
        btn.setAttribute("aria-pressed", on ? "true" : "false");
      });
      entry.showBtn = btn;
      ctl.append(control, btn);
    }
  }
  if (!ctl.contains(control)) ctl.append(control);
  // leaving a text field (or Enter) checks the form at once
  if (control.tagName !== "SELECT" && !entry.ownChange) control.addEventListener("change", () => app.flush());
  if (ro) { control.disabled = w !== "const" ? true : false; control.setAttribute("aria-readonly", "true"); if (control.tagName !== "SELECT") control.readOnly = true; }
  if (n.required) { control.setAttribute("aria-required", "true"); if (control.tagName !== "SELECT") control.required = true; }
  if (n.nullable && w !== "const") ctl.append(nullToggle(app, segs, p, id, entry));
  el.append(ctl);
  entry.control = control;
  entry.kind = w;
  return finish(app, entry, n, w);
}

// a masked textarea: its text drawn as discs where the browser can (the
// text stays the value), else hidden until "Show"
function maskText(ta, on) {
  if (typeof CSS !== "undefined" && CSS.supports && CSS.supports("-webkit-text-security", "disc")) ta.style.setProperty("-webkit-text-security", on ? "disc" : "none");
  else ta.hidden = on;
  ta.dataset.masked = on ? "true" : "false";
}

function nullToggle(app, segs, p, id, entry) {
  const cb = h("input", { type: "checkbox", id: id + "-null", "aria-label": p + " is null" });
  cb.addEventListener("change", () => app.change(segs, cb.checked ? null : undefined, { entry, rerender: entry.rerenderOnNull }));
  entry.nullBox = cb;
  return h("label", { class: "sd-check" }, cb, "null");
}

// ---- YAML sub-editor ------------------------------------------------------------

function renderFree(app, n, segs) {
  const entry = shell(app, n, segs, "free");
  const { el, id } = entry;
  const cid = id + "-c";
  el.append(headRow(app, n, segs, id, cid, "free"));
  const ta = h("textarea", { id: cid, rows: 4, spellcheck: "false", placeholder: "YAML" });
  let timer = 0;
  ta.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const t = ta.value;
      if (t.trim() === "") { entry.localError = null; return app.change(segs, undefined, { entry, text: t }); }
      const r = parseValues(t);
      if (r.error) { entry.localError = r.error; app.touch(segs); app.refresh(entry); return; }
      entry.localError = null;
      app.change(segs, r.value, { entry, text: t });
    }, 250);
  });
  entry.set = (v) => { if (document.activeElement !== ta) ta.value = v === undefined ? "" : toYaml(v); };
  if (n.readOnly) ta.readOnly = true;
  const ctl = h("div", { class: "sd-control" }, ta);
  if (n.nullable) ctl.append(nullToggle(app, segs, pathText(segs), id, entry));
  el.append(ctl);
  entry.control = ta;
  entry.kind = "free";
  return finish(app, entry, n, "free");
}

// ---- objects --------------------------------------------------------------------

function renderObject(app, n, segs, depth, opts) {
  const id = pathId(segs);
  const p = pathText(segs);
  const open = opts.open !== undefined ? !!opts.open : depth <= 1 || !!n.basicOnly;
  const det = h("details", { class: "sd-obj sd-field", id, "data-path": p, "data-provenance": "default" });
  const lab = h("label", { class: "sd-path", for: id + "-c", text: p === "" ? "(root)" : p });
  // the path is the summary's text: a click on it opens the object too
  lab.addEventListener("click", (e) => { e.preventDefault(); det.open = !det.open; });
  const sum = h("summary", null, lab, h("output", { id: id + "-c", class: "sd-visually-hidden" }));
  if (n.title) sum.append(" ", h("span", { class: "sd-title", text: n.title }));
  if (n.required) sum.append(" ", h("span", { class: "sd-req", title: "required", text: "* required" }));
  if (n.deprecated) sum.append(" ", h("span", { class: "sd-badge", text: "Deprecated" }));
  const prov = h("span", { class: "sd-prov", text: "default" });
  sum.append(" ", prov);
  det.append(sum);
  const entry = { el: det, id, segs, node: n, kind: "object", prov, control: sum, focusEl: sum };
  const body = h("div", { class: "sd-body" });
  const reset = h("button", { type: "button", class: "sd-reset", hidden: true, text: "Reset " + p });
  reset.addEventListener("click", () => app.resetAt(segs));
  entry.reset = reset;
  const tools = h("div", { class: "sd-control" }, reset);
  const ref = refLink(app, n, p);
  if (ref) tools.append(ref);
  if (n.nullable) { entry.rerenderOnNull = true; tools.append(nullToggle(app, segs, p, id, entry)); }
  body.append(tools);
  if (n.doc !== undefined) { const d = descNode(n.doc); d.id = id + "-d"; body.append(d); }
  const m = metaLine(n, "object");
  if (m) body.append(m);
  const err = h("div", { class: "sd-error", id: id + "-e", hidden: true });
  body.append(err);
  entry.err = err;
  const kids = h("div", { class: "sd-children" });
  body.append(kids);
  det.append(body);
  entry.built = false;
  entry.build = () => {
    if (entry.built) return;
    entry.built = true;
    const x = extras(n, app.get(segs));
    entry.condKey = x.key;
    entry.condProps = x.all;
    buildMembers(app, n, segs, depth, kids, x.props);
  };
  entry.rebuild = () => {
    app.unregisterUnder(segs);
    kids.textContent = "";
    entry.built = false;
    if (det.open) entry.build();
  };
  det.addEventListener("toggle", () => { if (det.open) entry.build(); });
  entry.set = () => {};
  app.register(entry);
  app.refresh(entry);
  if (open) { det.open = true; entry.build(); }
  return det;
}

export function buildMembers(app, n, segs, depth, into, more) {
  const frag = document.createDocumentFragment();
  const names = new Set();
  // the chart's sections (helm-docs `@section`, Bitnami `## @section`) as headings
  let section = null;
  for (const p0 of (n.properties || []).concat(more || [])) {
    names.add(p0.key);
    if (segs.length === 0 && p0.section && p0.section !== section) {
      section = p0.section;
      frag.append(h("h2", { class: "sd-section", text: section }));
    }
    frag.append(renderField(app, p0, segs.concat([p0.key]), depth + 1));
  }
  // keys the values have beyond the properties: under additionalProperties
  // or patternProperties, or unknown to the schema (still editable as YAML)
  // the basic view: only the marked keys, never the rest of the values
  if (n.basicOnly) { into.append(frag); return; }
  const v = app.get(segs);
  const extra = isMap(v) ? Object.keys(v).filter((k) => !names.has(k)) : [];
  if ((n.additionalProperties && typeof n.additionalProperties === "object") || n.patternProperties) {
    frag.append(renderMap(app, n, segs, depth, names));
  } else {
    for (const k of extra) {
      const mn = memberNode(n, k);
      frag.append(renderField(app, mn || {}, segs.concat([k]), depth + 1));
    }
  }
  into.append(frag);
}

// ---- lists ---------------------------------------------------------------------

function renderArray(app, n, segs, depth) {
  const entry = shell(app, n, segs, "array", "sd-array");
  const { el, id } = entry;
  const p = pathText(segs);
  el.append(headRow(app, n, segs, id, null, "array"));
  const c = n.constraints || {};
  const items = h("div", { class: "sd-items", role: "list", "aria-labelledby": id + "-l" });
  const add = h("button", { type: "button", text: "Add item to " + p });
  const ctl = h("div", { class: "sd-control" }, add);
  if (n.nullable) { entry.rerenderOnNull = true; ctl.append(nullToggle(app, segs, p, id, entry)); }
  const inode = itemNode(n);
  const draw = (focusIndex) => {
    app.unregisterUnder(segs);
    items.textContent = "";
    const arr = app.get(segs);
    const list = Array.isArray(arr) ? arr : [];
    const frag = document.createDocumentFragment();
    list.forEach((_, i) => {
      const ip = pathText(segs.concat([i]));
      const rm = h("button", { type: "button", text: "Remove " + ip });
      const up = h("button", { type: "button", text: "Move " + ip + " up", disabled: i === 0 });
      const dn = h("button", { type: "button", text: "Move " + ip + " down", disabled: i === list.length - 1 });
      if (has(c, "minItems") && list.length <= c.minItems) rm.disabled = true;
      rm.addEventListener("click", () => {
        const a = clone(app.get(segs)); a.splice(i, 1);
        app.change(segs, a, { entry });
        draw(i > 0 ? i - 1 : -2);
      });
      up.addEventListener("click", () => {
        const a = clone(app.get(segs)); [a[i - 1], a[i]] = [a[i], a[i - 1]];
        app.change(segs, a, { entry }); draw(-1); focusBtn(items, i - 1, "up");
      });
      dn.addEventListener("click", () => {
        const a = clone(app.get(segs)); [a[i + 1], a[i]] = [a[i], a[i + 1]];
        app.change(segs, a, { entry }); draw(-1); focusBtn(items, i + 1, "down");
      });
      const it = h("div", { class: "sd-item", role: "listitem", "data-index": String(i) },
        h("div", { class: "sd-item-bar" }, rm, up, dn));
      it.append(renderField(app, inode, segs.concat([i]), depth + 1, { open: list.length <= 20 }));
      frag.append(it);
    });
    items.append(frag);
    add.disabled = !!n.readOnly || (has(c, "maxItems") && list.length >= c.maxItems);
    const out = el.querySelector("output.sd-count");
    if (out) out.textContent = list.length === 1 ? "1 item" : list.length + " items";
    if (focusIndex === -2) add.focus();
    else if (focusIndex >= 0) focusFirst(items.children[focusIndex]);
  };
  add.addEventListener("click", () => {
    const arr = app.get(segs);
    const a = Array.isArray(arr) ? clone(arr) : [];
    const inn = res(inode);
    a.push(has(inn, "default") ? clone(inn.default) : newValue(inn));
    app.change(segs, a, { entry });
    draw(a.length - 1);
  });
  el.append(ctl, items);
  entry.rebuild = () => draw(-1);
  entry.set = () => {};
  entry.kind = "array";
  entry.control = add;
  draw(-1);
  return finish(app, entry, n, "array");
}

function newValue(n) {
  const w = widget(n, undefined);
  if (w === "object" || w === "map") return {};
  if (w === "array") return [];
  if (w === "boolean") return false;
  if (w === "integer" || w === "number") return 0;
  if (w === "enum") return clone(n.enum[0]);
  return "";
}

// An object branch's starting value: its discriminators and defaults.
function branchDefaults(b) {
  const o = {};
  for (const p0 of b.properties || []) {
    const p = res(p0);
    if (has(p, "const")) o[p0.key] = clone(p.const);
    else if (p.enum && p.enum.length === 1) o[p0.key] = clone(p.enum[0]);
    else if (has(p, "default")) o[p0.key] = clone(p.default);
  }
  return o;
}

function focusFirst(el) {
  if (!el) return;
  const c = el.querySelector("input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea, summary");
  if (c) c.focus();
}

function focusBtn(items, i, which) {
  const it = items.children[i];
  if (!it) return;
  const b = it.querySelectorAll(".sd-item-bar button")[which === "up" ? 1 : 2];
  if (b && !b.disabled) b.focus(); else focusFirst(it);
}

// ---- maps (additionalProperties / patternProperties) -------------------------

function renderMap(app, n, segs, depth, exclude) {
  const inner = !!exclude;
  const entry = inner ? { el: h("div", { class: "sd-map" }), id: pathId(segs) + "-map", segs } : shell(app, n, segs, "map", "sd-map");
  const { el, id } = entry;
  const p = pathText(segs);
  if (!inner) el.append(headRow(app, n, segs, id, null, "map"));
  const rows = h("div", { class: "sd-entries" });
  const add = h("button", { type: "button", text: "Add entry to " + p });
  const ctl = h("div", { class: "sd-control" }, add);
  if (!inner && n.nullable) { entry.rerenderOnNull = true; ctl.append(nullToggle(app, segs, p, id, entry)); }
  let pending = [];   // keys being typed, not in the values yet
  const flagged = new Map();   // key -> why it is flagged (matches no pattern)
  const keysNow = () => {
    const v = app.get(segs);
    return isMap(v) ? Object.keys(v).filter((k) => !exclude || !exclude.has(k)) : [];
  };
  const draw = (focusKeyOf) => {
    for (const k of keysNow()) app.unregisterUnder(segs.concat([k]));
    rows.textContent = "";
    const keys = keysNow();
    const all = keys.map((k) => ({ k, pending: false })).concat(pending.map((k) => ({ k, pending: true })));
    all.forEach((row, i) => {
      const num = i + 1;
      const ki = h("input", { type: "text", class: "sd-entry-key", "aria-label": "Key of " + p + " entry " + num, value: row.k, autocomplete: "off", spellcheck: "false" });
      const kerr = h("div", { class: "sd-error", id: id + "-k" + num, hidden: true });
      const rm = h("button", { type: "button", text: "Remove " + (row.k === "" ? p + " entry " + num : pathText(segs.concat([row.k]))) });
      const box = h("div", { class: "sd-entry", "data-key": row.k }, h("div", { class: "sd-control" }, ki, rm), kerr);
      if (flagged.has(row.k)) {
        kerr.textContent = flagged.get(row.k); kerr.hidden = false;
        ki.setAttribute("aria-invalid", "true"); ki.setAttribute("aria-describedby", kerr.id);
      }
      ki.addEventListener("change", () => {
        const nk = ki.value;
        const others = keysNow().filter((k) => row.pending || k !== row.k);
        let msg = null;
        if (nk === "") msg = "the key must not be empty";
        else if (others.includes(nk) || (!row.pending && nk !== row.k && pending.includes(nk))) msg = "duplicate key '" + nk + "'";
        let warn = null;
        if (!msg && n.patternProperties && !(n.additionalProperties && typeof n.additionalProperties === "object") && (n.properties || []).every((q) => q.key !== nk) &&
          !n.patternProperties.some((pp) => { try { return new RegExp(pp.pattern, "u").test(nk); } catch (e) { return true; } }))
          warn = "the key does not match " + n.patternProperties.map((pp) => pp.pattern).join(" or ");
        if (warn) flagged.set(nk, warn); else flagged.delete(nk);
        if (msg) {
          kerr.textContent = msg; kerr.hidden = false;
          ki.setAttribute("aria-invalid", "true"); ki.setAttribute("aria-describedby", kerr.id);
          return;
        }
        kerr.hidden = true; ki.removeAttribute("aria-invalid"); ki.removeAttribute("aria-describedby");
        const cur = app.get(segs);
        const o = {};
        if (isMap(cur)) for (const k of Object.keys(cur)) Object.defineProperty(o, k === row.k && !row.pending ? nk : k, { value: cur[k], enumerable: true, writable: true, configurable: true });
        if (row.pending) {
          pending = pending.filter((k) => k !== row.k);
          const vn = res(memberNode(n, nk) || {});
          Object.defineProperty(o, nk, { value: has(vn, "default") ? clone(vn.default) : newValue(vn), enumerable: true, writable: true, configurable: true });
        }
        app.change(segs, o, { entry });
        draw(nk);
      });
      rm.addEventListener("click", () => {
        if (row.pending) pending = pending.filter((k) => k !== row.k);
        else {
          const cur = clone(app.get(segs));
          delete cur[row.k];
          app.change(segs, cur, { entry });
        }
        draw(null);
        add.focus();
      });
      if (!row.pending) {
        const vn = memberNode(n, row.k) || {};
        box.append(renderField(app, vn, segs.concat([row.k]), depth + 1, { open: true }));
      }
      rows.append(box);
      if (focusKeyOf !== null && focusKeyOf !== undefined && row.k === focusKeyOf) {
        const f = row.pending ? ki : box.querySelector(".sd-field input, .sd-field select, .sd-field textarea, summary");
        (f || ki).focus();
      }
    });
    const c = n.constraints || {};
    add.disabled = !!n.readOnly || (has(c, "maxProperties") && keys.length + pending.length >= c.maxProperties);
    const out = inner ? null : el.querySelector("output.sd-count");
    if (out) out.textContent = keys.length === 1 ? "1 entry" : keys.length + " entries";
  };
  add.addEventListener("click", () => {
    if (pending.includes("")) { draw(""); return; }
    pending.push("");
    draw("");
  });
  el.append(ctl, rows);
  entry.rebuild = () => { pending = []; draw(null); };
  entry.set = () => {};
  entry.kind = "map";
  entry.control = add;
  draw(null);
  if (inner) return el;
  return finish(app, entry, n, "map");
}

// ---- oneOf / anyOf ---------------------------------------------------------------

function renderVariant(app, n, segs, depth, opts) {
  const p = pathText(segs);
  const wrap = h("div", { class: "sd-variant", id: pathId(segs) + "-variant", "data-path": p });
  const bs = branches(n);
  const sel = h("select", { "aria-label": "Variant of " + p, id: pathId(segs) + "-vsel" }, h("option", { value: "", text: "choose…" }));
  bs.forEach((b, i) => sel.append(h("option", { value: String(i), text: branchLabel(b, i) })));
  const ptr = pointer(segs);
  let idx = app.variants.has(ptr) ? app.variants.get(ptr) : chooseBranch(n, app.get(segs));
  if (idx < 0 && app.get(segs) !== undefined) idx = 0;
  app.variants.set(ptr, idx);
  const body = h("div", { class: "sd-variant-body" });
  const label = h("div", { class: "sd-row" }, h("label", { class: "sd-path", for: pathId(segs) + "-vsel", text: p }), n.title ? h("span", { class: "sd-title", text: n.title }) : null);
  const draw = () => {
    app.unregisterUnder(segs, true);
    body.textContent = "";
    const i = app.variants.get(ptr);
    sel.value = i >= 0 ? String(i) : "";
    if (i < 0) return;
    const b = res(bs[i]);
    const merged = Object.assign({}, n, b);
    delete merged.oneOf; delete merged.anyOf;
    // n is resolved already: a ref left on the merge, or the allOf member whose
    // oneOf/anyOf res() lifted into n, would bring that oneOf back (endless recursion)
    delete merged.ref;
    if (n.allOf) {
      merged.allOf = n.allOf.filter((a) => { const r = res(a); return !(r.oneOf && r.oneOf === n.oneOf) && !(r.anyOf && r.anyOf === n.anyOf); });
      if (!merged.allOf.length) delete merged.allOf;
    }
    if (!b.title) merged.title = n.title;
    if (n.anchor) merged.anchor = n.anchor;
    if (b.doc === undefined) merged.doc = n.doc;
    merged.required = n.required;
    if (b.oneOf && b.oneOf.length > 1) merged.oneOf = b.oneOf;
    body.append(renderField(app, merged, segs, depth, Object.assign({}, opts, { open: true })));
  };
  sel.addEventListener("change", () => {
    const i = sel.value === "" ? -1 : Number(sel.value);
    app.variants.set(ptr, i);
    // switching drops the old branch's value and applies the new one's default
    const b = i >= 0 ? res(bs[i]) : null;
    const v = b === null ? undefined : has(b, "default") ? clone(b.default) : has(b, "const") ? clone(b.const)
      : widget(b, undefined) === "object" ? branchDefaults(b) : undefined;
    app.change(segs, v, {});
    draw();
  });
  wrap.append(label, h("div", { class: "sd-control" }, sel), body);
  draw();
  return wrap;
}
