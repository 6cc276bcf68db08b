// SPDX-License-Identifier: Apache-2.0
// form_view.js - the fields of the form, built from the page's model nodes
// (docs/form.md names every control): the parts every field has, scalars,
// the YAML sub-editor, and objects, which are <details> whose fields are
// built when first opened. Lists, maps and oneOf/anyOf: form_lists.js.
// Every field registers itself with the app (form_main.js) under its JSON
// pointer, so a change updates that field's provenance and error alone.
import { h, descNode, show } from "./form_dom.js";
import { pathText, pathId, pointer } from "./form_path.js";
import { res, widget, types, isSecret, isMultiline, constraintWords, memberNode, extras } from "./form_schema.js";
import { isMap, has, clone, equal } from "./form_values.js";
import { toYaml, parseValues } from "./form_yaml.js";
import { renderArray, renderMap, renderVariant, Pager, PAGE } from "./form_lists.js";
import { iconButton, textButton } from "./form_icons.js";
import { isFreeObject, wholeAt, memberBar, addKeyTools } from "./form_free.js";
import { quantityControl, handlerKeys, handlerChoice } from "./form_k8s.js";

// ---- the parts every field has -------------------------------------------------

// --reference URL: the field's entry in the html reference page (a new tab:
// this page's state is not left behind). The URL was checked by the command.
export function refLink(app, n, p) {
  const base = app.data.reference;
  if (typeof base !== "string" || typeof n.anchor !== "string") return null;
  const href = base + "#" + encodeURIComponent(n.anchor).replace(/%2F/g, "/");
  return h("a", { class: "sd-ref", href, target: "_blank", rel: "noopener noreferrer", "aria-label": "Reference: " + (p === "" ? "(root)" : p), text: "Reference" });
}

export function headRow(app, n, segs, id, labelFor, kind) {
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
  // the default beside a changed value and "Reset PATH" come when it changes (changed())
  const ref = refLink(app, n, p);
  if (ref) row.append(ref);
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

export function shell(app, n, segs, kind, extraClass) {
  const id = pathId(segs);
  const el = h("div", { class: "sd-field" + (extraClass ? " " + extraClass : ""), id, "data-path": pathText(segs), "data-provenance": "default" });
  return { el, id, segs, node: n };
}

// The error goes right under the control, before the description (a long
// one folds after three lines, with a "more" button) and the constraints.
export function finish(app, entry, n, kind) {
  const { el, id } = entry;
  const err = h("div", { class: "sd-error", id: id + "-e", hidden: true });
  // under the control (a list's or a map's: its "Add" row, before its items)
  const ctl = [...el.children].find((c) => c.classList.contains("sd-control"));
  const after = [err];
  if (n.doc !== undefined) after.push(...description(n, id, pathText(entry.segs)));
  const m = metaLine(n, kind, entry.secret);
  if (m) after.push(m);
  if (ctl) ctl.after(...after); else el.append(...after);
  entry.err = err;
  entry.prov = el.querySelector(".sd-prov");
  entry.changed = () => changed(app, entry);
  app.register(entry);
  app.refresh(entry);
  return el;
}

// A field whose value differs from its default gets, once, what it was and
// a "Reset PATH" button in its row (most fields never change: not built).
function changed(app, entry) {
  if (entry.reset) return;
  const row = entry.el.querySelector(":scope > .sd-row");
  if (!row) return;
  const p = pathText(entry.segs);
  entry.was = h("span", { class: "sd-was", hidden: true });
  entry.reset = iconButton("reset", "Reset " + p, { class: "sd-icon-btn sd-reset", hidden: true });
  entry.reset.addEventListener("click", () => app.resetAt(entry.segs));
  const ref = row.querySelector(":scope > .sd-ref");
  if (ref) ref.before(entry.was, entry.reset); else row.append(entry.was, entry.reset);
}

const LONG_DESC = 260;   // characters: a longer description folds

// The description of node `n` (and its "more" button when it is long).
function description(n, id, p) {
  const d = descNode(n.doc);
  d.id = id + "-d";
  const len = d.textContent.length;
  if (len <= LONG_DESC && d.childElementCount <= 3) return [d];
  d.classList.add("sd-long");
  const more = h("button", { type: "button", class: "sd-more-btn", "aria-expanded": "false", "aria-controls": d.id }, "more", h("span", { class: "sd-visually-hidden", text: " about " + (p || "(root)") }));
  more.addEventListener("click", () => {
    const on = !d.classList.contains("sd-open");
    d.classList.toggle("sd-open", on);
    more.setAttribute("aria-expanded", on ? "true" : "false");
    more.firstChild.textContent = on ? "less" : "more";
  });
  return [d, more];
}

// ---- a field of any kind ---------------------------------------------------------

export function renderField(app, node0, segs, depth, opts = {}) {
  const n = res(node0);
  const value = app.get(segs);
  let w = widget(n, value);
  if (app.isCrdHeader(segs)) w = "const";
  // a free map's member shown as YAML text ("Edit PATH as YAML", form_free.js)
  if (app.yamlAt.size && w !== "const" && app.yamlAt.has(pointer(segs))) w = "free";
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
  const entry = shell(app, n, segs, w, "sd-leaf");
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
    control.addEventListener("change", () => { if (control.value !== "other") commit(control.value === "" ? undefined : control.value === "true"); });
    // a value that is no boolean (an imported "false" string) is shown as
    // it is, as an enum select shows one; the validator marks it invalid
    entry.set = (v) => {
      let o = control.querySelector("option[data-other]");
      if (v !== undefined && v !== true && v !== false) {
        if (!o) { o = h("option", { value: "other", "data-other": "1" }); control.append(o); }
        o.textContent = typeof v === "string" ? JSON.stringify(v) : show(v);
        control.value = "other";
        return;
      }
      if (o) o.remove();
      control.value = v === true ? "true" : v === false ? "false" : "";
    };
  } else if (w === "enum") {
    control = h("select", { id: cid }, h("option", { value: "", text: "unset" }));
    // the empty string is an option too: "(empty)", never a blank line
    n.enum.forEach((e, i) => control.append(h("option", { value: String(i), text: e === "" ? "(empty)" : typeof e === "string" ? e : show(e) })));
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
  } else if (w === "quantity") {
    control = quantityControl(entry, ctl, cid, p, segs, commit);
  } else if (w === "any") {
    // a value of no declared type (often a null default): an empty input
    // while it is null, a "null" mark beside it, and for an untyped node a
    // type choice (as rjsf offers): the text is read as Helm's YAML reads
    // it ("as YAML reads it"), or as the type chosen (docs/form.md)
    const secret = isSecret(n, segs);
    entry.secret = secret;
    control = h("input", { type: secret ? "password" : "text", id: cid, autocomplete: secret ? "new-password" : "off", spellcheck: "false", title: "a YAML value" });
    const untyped = (n.type || []).filter((t) => t !== "null").length === 0;
    const mark = h("span", { class: "sd-null-mark", id: cid + "-null", text: "null" });
    mark.hidden = true;
    const kind = untyped ? h("select", { id: cid + "-type", "aria-label": "Type of " + p },
      ...[["", "as YAML reads it"], ["string", "string"], ["number", "number"], ["boolean", "boolean"], ["object", "object (YAML)"], ["list", "list (YAML)"]]
        .map(([v, t]) => h("option", { value: v, text: t }))) : null;
    const read = () => {
      const t = control.value;
      if (t.trim() === "") return commit(undefined, "");
      commit(typedValue(t, kind ? kind.value : ""), t);
    };
    control.addEventListener("input", read);
    if (kind) kind.addEventListener("change", () => { if (control.value.trim() !== "") { read(); app.flush(); } });
    entry.set = (v) => {
      mark.hidden = v !== null;
      // a string YAML would read as another type is kept a string
      if (kind && kind.value === "" && typeof v === "string" && document.activeElement !== control && typedValue(v, "") !== v) kind.value = "string";
      if (document.activeElement !== control) control.value = v === undefined || v === null ? "" : typeof v === "string" ? v : valueText(v);
    };
    ctl.append(control);
    if (secret) {
      const btn = iconButton("show", "Show " + p, { "aria-pressed": "false" });
      btn.addEventListener("click", () => {
        const on = btn.getAttribute("aria-pressed") !== "true";
        control.type = on ? "text" : "password";
        btn.setAttribute("aria-pressed", on ? "true" : "false");
      });
      entry.showBtn = btn;
      ctl.append(btn);
    }
    ctl.append(mark);
    if (kind) ctl.append(kind);
  } else {
    // a secret is masked (a password input, or a masked textarea); a value
    // with a line break is always a textarea, whatever it was built as
    const secret = isSecret(n, segs);
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
      const btn = iconButton("show", "Show " + p, { "aria-pressed": "false" });
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
  if (ro && entry.unit) entry.unit.disabled = true;
  if (n.required) { control.setAttribute("aria-required", "true"); if (control.tagName !== "SELECT") control.required = true; }
  if (n.nullable && w !== "const") ctl.append(nullToggle(app, segs, p, id, entry));
  el.append(ctl);
  entry.control = control;
  entry.kind = w;
  return finish(app, entry, n, w);
}

// The value of `t` typed in an untyped field: as Helm's YAML (1.1) reads
// it (`kind` ""), or as the type chosen: a string as typed; a number, a
// boolean, a map or a list when the text reads as one (else the text, which
// the check then reports).
export function typedValue(t, kind) {
  if (kind === "string") return t;
  const r = parseValues(t);
  const v = r.error ? t : r.value;
  if (kind === "") return v === undefined ? t : v;
  if (kind === "number") return typeof v === "number" ? v : t;
  if (kind === "boolean") return typeof v === "boolean" ? v : t;
  if (kind === "object") return isMap(v) ? v : t;
  if (kind === "list") return Array.isArray(v) ? v : t;
  return v;
}

// a value shown in one line of YAML (flow style for a map or a list)
function valueText(v) {
  if (v !== null && typeof v === "object") return toYaml(v).trim().includes("\n") ? JSON.stringify(v) : toYaml(v).trim();
  return show(v);
}

// a masked textarea: its text drawn as discs where the browser can (the
// text stays the value), else hidden until "Show"
function maskText(ta, on) {
  if (typeof CSS !== "undefined" && CSS.supports && CSS.supports("-webkit-text-security", "disc")) ta.style.setProperty("-webkit-text-security", on ? "disc" : "none");
  else ta.hidden = on;
  ta.dataset.masked = on ? "true" : "false";
}

export function nullToggle(app, segs, p, id, entry) {
  const cb = h("input", { type: "checkbox", id: id + "-null", "aria-label": p + " is null" });
  cb.addEventListener("change", () => app.change(segs, cb.checked ? null : undefined, { entry, rerender: entry.rerenderOnNull }));
  entry.nullBox = cb;
  return h("label", { class: "sd-check" }, cb, "null");
}

// ---- YAML sub-editor ------------------------------------------------------------

function renderFree(app, n, segs) {
  const entry = shell(app, n, segs, "free", "sd-leaf");
  const { el, id } = entry;
  const cid = id + "-c";
  el.append(headRow(app, n, segs, id, cid, "free"));
  // a map (or an object the schema says nothing more of): its keys, each
  // with "Remove PATH.KEY", and "Add key to PATH" (form_free.js)
  const v0 = app.get(segs);
  const keyed = !n.readOnly && (isMap(v0) || (v0 === undefined && types(n).length === 1 && types(n)[0] === "object"));
  const keys = keyed ? h("div", { class: "sd-free-keys" }) : null;
  const drawKeys = () => {
    if (!keys) return;
    keys.textContent = "";
    const v = app.get(segs);
    const ks = isMap(v) ? Object.keys(v) : [];
    for (const k of ks.slice(0, PAGE)) {
      const rm = iconButton("remove", "Remove " + pathText(segs.concat([k])));
      rm.addEventListener("click", () => {
        const d = app.def(segs.concat([k])) !== undefined;
        app.change(segs.concat([k]), undefined, {});
        app.rerender(segs);
        const note = document.getElementById(id + "_freenote");
        if (note) note.textContent = "Removed " + pathText(segs.concat([k])) + (d ? ", a key of the defaults: the export writes " + JSON.stringify(k) + ": null, which Helm's merge reads as deleting the default key." : ".");
      });
      keys.append(h("span", { class: "sd-free-key" }, h("code", { text: k }), rm));
    }
  };
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
  if (keyed) {
    el.append(keys, addKeyTools(app, segs));
    drawKeys();
    // a key added or removed: the keys again, the text from the values
    entry.rebuild = () => { drawKeys(); ta.value = app.get(segs) === undefined ? "" : toYaml(app.get(segs)); };
  }
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
  const err = h("div", { class: "sd-error", id: id + "-e", hidden: true });
  body.append(err);
  entry.err = err;
  const reset = textButton("reset", "Reset", "Reset " + p, { class: "sd-text-btn sd-reset", hidden: true });
  reset.addEventListener("click", () => app.resetAt(segs));
  entry.reset = reset;
  const tools = h("div", { class: "sd-control" }, reset);
  const ref = refLink(app, n, p);
  if (ref) tools.append(ref);
  if (n.nullable) { entry.rerenderOnNull = true; tools.append(nullToggle(app, segs, p, id, entry)); }
  body.append(tools);
  if (n.doc !== undefined) body.append(...description(n, id, p));
  const m = metaLine(n, "object");
  if (m) body.append(m);
  const kids = h("div", { class: "sd-children" });
  body.append(kids);
  det.append(body);
  entry.built = false;
  det.dataset.built = "0";   // "1" once its members are drawn: the tests' signal
  entry.partial = null;   // key -> element: the members a search built alone
  entry.build = () => {
    if (entry.built) return;
    entry.built = true;
    det.dataset.built = "1";
    kids.style.minHeight = "";
    const x = entry.x || extras(n, app.get(segs));
    entry.x = null;
    entry.condKey = x.key;
    entry.condProps = x.all;
    // the members a search built stay where they are (a focused one keeps its focus)
    buildMembers(app, n, segs, depth, kids, x.props, entry.partial);
    entry.partial = null;
    app.partials.delete(entry);
  };
  // One member alone, in its place (a search shows the matches of a large
  // object without building the rest; build() adds the rest later).
  entry.buildFor = (key) => {
    if (entry.built) return;
    const x = entry.x || (entry.x = extras(n, app.get(segs)));
    const props = (n.properties || []).concat(x.props);
    const i = props.findIndex((p) => p.key === key);
    if (i < 0) { entry.build(); return; }   // a key beyond the schema: all of them
    if (!entry.partial) entry.partial = new Map();
    if (entry.partial.has(key)) return;
    kids.style.minHeight = "";
    const el = renderField(app, props[i], segs.concat([key]), depth + 1);
    let next = null;
    for (let j = i + 1; j < props.length && !next; j++) next = entry.partial.get(props[j].key) || null;
    if (next) next.before(el); else kids.append(el);
    entry.partial.set(key, el);
    app.partials.add(entry);
  };
  entry.rebuild = () => {
    app.unregisterUnder(segs);
    kids.textContent = "";
    entry.built = false;
    det.dataset.built = "0";
    entry.partial = null;
    entry.x = null;
    app.partials.delete(entry);
    if (det.open) entry.build();
  };
  // the toggle event of an open the page made (when it was created, deferred
  // by deferBuild, or by a search) does not build: a person opening it does
  entry.skipToggle = open;
  det.addEventListener("toggle", () => {
    if (!det.open) { entry.skipToggle = false; return; }
    if (entry.skipToggle) { entry.skipToggle = false; return; }
    { entry.build(); if (app.filtering()) app.applyFilter(); }
  });
  entry.set = () => {};
  app.register(entry);
  app.refresh(entry);
  if (open) {
    det.open = true;
    // the page's first objects at once; the rest a slice at a time after the
    // first paint (App.deferBuild, form_main.js), or when opened or revealed
    if (!app.deferBuild || !app.deferBuild(entry)) entry.build();
    // about the height its fields will take, so the page does not jump
    else {
      const px = Math.min(20000, 70 * (n.properties || []).length);
      kids.style.minHeight = px + "px";
      det.style.containIntrinsicSize = "auto " + (px + 80) + "px";
    }
  }
  return det;
}

// The fields of object `n` into `into`; `have` (key -> element): members
// built already, kept in place, the others put around them in order.
export function buildMembers(app, n, segs, depth, into, more, have) {
  let frag = document.createDocumentFragment();
  const names = new Set();
  // a free-form map: each member with "Remove" and "Edit as YAML", and
  // "Add key" after them (form_free.js)
  const free = !n.basicOnly && !n.readOnly && (isFreeObject(n) || wholeAt(app, segs));
  const v0 = app.get(segs);
  const member = (k, el) => free ? h("div", { class: "sd-free-entry", "data-key": k }, memberBar(app, segs, k, isMap(v0) && has(v0, k)), el) : el;
  // the chart's sections (helm-docs `@section`, Bitnami `## @section`) as headings
  let section = null;
  // a probe's handlers: one choice, where the first of them would be (form_k8s.js)
  const hs = handlerKeys(n);
  let handled = false;
  for (const p0 of (n.properties || []).concat(more || [])) {
    names.add(p0.key);
    if (hs && hs.includes(p0.key)) {
      // a handler a search built alone gives way to the choice, which shows it if chosen
      if (have && have.has(p0.key)) { app.unregisterUnder(segs.concat([p0.key]), true); have.get(p0.key).remove(); }
      if (!handled) frag.append(handlerChoice(app, n, segs, hs, (node, s) => renderField(app, node, s, depth + 1, { open: true })));
      handled = true;
      continue;
    }
    if (have && have.has(p0.key)) {
      have.get(p0.key).before(frag);
      frag = document.createDocumentFragment();
      continue;
    }
    if (segs.length === 0 && p0.section && p0.section !== section) {
      section = p0.section;
      frag.append(h("h2", { class: "sd-section", text: section }));
    }
    // a key only the defaults had, removed: gone from a free map
    if (free && p0.fromValues && !(isMap(v0) && has(v0, p0.key))) continue;
    frag.append(member(p0.key, renderField(app, p0, segs.concat([p0.key]), depth + 1)));
  }
  // keys the values have beyond the properties: under additionalProperties
  // or patternProperties, or unknown to the schema (still editable as YAML)
  // the basic view: only the marked keys, never the rest of the values
  if (n.basicOnly) { into.append(frag); return; }
  const v = app.get(segs);
  const extra = isMap(v) ? Object.keys(v).filter((k) => !names.has(k)) : [];
  if (!free && ((n.additionalProperties && typeof n.additionalProperties === "object") || n.patternProperties)) {
    frag.append(renderMap(app, n, segs, depth, names));
  } else if (extra.length <= PAGE) {
    for (const k of extra) frag.append(member(k, renderField(app, memberNode(n, k) || {}, segs.concat([k]), depth + 1)));
    if (free) frag.append(addKeyTools(app, segs));
  } else {
    // many keys the schema does not name (an import): PAGE at a time
    const box = h("div", { class: "sd-extra" });
    const pager = new Pager("keys", pathText(segs) || "(root)");
    let shown = [];
    const draw = () => {
      for (const k of shown) app.unregisterUnder(segs.concat([k]), true);
      box.textContent = "";
      const v2 = app.get(segs);
      const keys = isMap(v2) ? Object.keys(v2).filter((k) => !names.has(k)) : [];
      const [from, to] = pager.range(keys.length);
      shown = keys.slice(from, to);
      const f2 = document.createDocumentFragment();
      for (const k of shown) f2.append(renderField(app, memberNode(n, k) || {}, segs.concat([k]), depth + 1));
      box.append(f2);
    };
    pager.onMove = draw;
    app.pagers.set(pointer(segs) + "#keys", (k) => {
      const v2 = app.get(segs);
      const keys = isMap(v2) ? Object.keys(v2).filter((x) => !names.has(x)) : [];
      const i = keys.indexOf(String(k));
      if (i >= 0 && pager.show(i)) draw();
    });
    draw();
    frag.append(box, pager.nav);
    if (free) frag.append(addKeyTools(app, segs));
  }
  into.append(frag);
}

