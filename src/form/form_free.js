// SPDX-License-Identifier: Apache-2.0
// form_free.js - free-form maps (docs/form.md "Free-form maps"): an object
// whose schema leaves its keys open (`additionalProperties: true`, or an
// untyped `additionalProperties` schema), that the chart's templates hand on
// whole, or whose schema names no key (a YAML field). Each
// offers "Add key to PATH" (a key and a value typed as YAML: a scalar, a
// list or a map), "Remove PATH.KEY" on each key it holds (one of the
// defaults too: the export then writes `KEY: null`, which Helm's merge
// reads as deleting the default, and the page says so), and, on a member,
// "Edit PATH as YAML": the member's value as YAML text in place, checked by
// the form's validation as any field.
import { h } from "./form_dom.js";
import { pathText, pathId, pointer } from "./form_path.js";
import { res } from "./form_schema.js";
import { isMap, has } from "./form_values.js";
import { parseValues } from "./form_yaml.js";
import { iconButton, textButton } from "./form_icons.js";

// An object whose keys are open: additionalProperties true or untyped.
export function isFreeObject(n) {
  const c = n.constraints || {};
  if (c.additionalProperties === true) return true;
  const ap = n.additionalProperties;
  if (!ap || typeof ap !== "object") return false;
  const a = res(ap);
  return !(a.type && a.type.length) && !a.properties && !a.items && !a.enum && !has(a, "const") && !a.oneOf && !a.anyOf &&
    !a.patternProperties && !a.additionalProperties && !(a.kubernetes && a.kubernetes.int_or_string);
}

// `segs` at or below a map the chart's templates hand on whole
// (`toYaml .Values.config`; the page data's `whole`, "*" for any key):
// free-form, as `validate` takes it
export function wholeAt(app, segs) {
  const w = app.data && app.data.whole;
  if (!w || !w.length) return false;
  if (!app.wholePats) app.wholePats = w.map((t) => t.split("."));
  return app.wholePats.some((pat) => pat.length <= segs.length && pat.every((x, i) => x === "*" || x === String(segs[i])));
}

// the object at `segs` drawn again (its container's rebuild), else the form
function redraw(app, segs) {
  const e = app.fields.get(pointer(segs));
  if (e && e.rebuild) { e.rebuild(); app.refreshPath(segs); return; }
  if (!e && segs.length === 0) { app.renderForm(); return; }
  app.rerender(segs);
}

// What removing key `k` of the map at `segs` means, for the status note.
function removedWords(app, segs, k) {
  const kp = pathText(segs.concat([k]));
  if (app.def(segs.concat([k])) === undefined) return "Removed " + kp + ".";
  return "Removed " + kp + ", a key of the defaults: the export writes " + JSON.stringify(k) + ": null, which Helm's merge reads as deleting the default key.";
}

function note(app, segs, text) {
  const el = document.getElementById(pathId(segs) + "_freenote");
  if (el) el.textContent = text;
}

// The bar of member `k` of free map `segs`: "Remove PATH.KEY" (when it has a
// value) and "Edit PATH.KEY as YAML" (a toggle, for a member of any kind).
export function memberBar(app, segs, k, hasValue) {
  const ks = segs.concat([k]);
  const kp = pathText(ks);
  const bar = h("div", { class: "sd-free-bar" });
  const ptr = pointer(ks);
  const on = app.yamlAt.has(ptr);
  const ed = textButton("edit", on ? "Edit as fields" : "Edit as YAML", (on ? "Edit " + kp + " as fields" : "Edit " + kp + " as YAML"), { "aria-pressed": on ? "true" : "false" });
  ed.addEventListener("click", () => {
    if (app.yamlAt.has(ptr)) app.yamlAt.delete(ptr); else app.yamlAt.add(ptr);
    redraw(app, segs);
    const c = document.querySelector(`[data-path="${CSS.escape(kp)}"] textarea, [data-path="${CSS.escape(kp)}"] summary, [data-path="${CSS.escape(kp)}"] input, [data-path="${CSS.escape(kp)}"] select`);
    if (c) c.focus();
  });
  bar.append(ed);
  if (hasValue) {
    const rm = iconButton("remove", "Remove " + kp);
    rm.addEventListener("click", () => {
      const words = removedWords(app, segs, k);
      app.yamlAt.delete(ptr);
      app.change(ks, undefined, {});
      redraw(app, segs);
      note(app, segs, words);
      const add = document.querySelector(`[aria-label="${CSS.escape("Add key to " + (pathText(segs) || "(root)"))}"]`);
      if (add) add.focus();
    });
    bar.append(rm);
  }
  return bar;
}

// "Add key to PATH" and its row (the key, the value as YAML, Add, Cancel),
// with the note that says what a removal meant.
export function addKeyTools(app, segs) {
  const p = pathText(segs) || "(root)";
  const id = pathId(segs);
  const box = h("div", { class: "sd-free-add" });
  const add = textButton("add", "Add key", "Add key to " + p);
  const status = h("p", { class: "sd-free-note", id: id + "_freenote", role: "status" });
  const row = h("div", { class: "sd-free-row", hidden: true });
  const key = h("input", { type: "text", class: "sd-entry-key", "aria-label": "New key of " + p, autocomplete: "off", spellcheck: "false", placeholder: "key" });
  const val = h("textarea", { rows: 3, spellcheck: "false", "aria-label": "Value of the new key of " + p + " (YAML)", placeholder: "value (YAML: a scalar, a list or a map)" });
  const err = h("div", { class: "sd-error", id: id + "_freeerr", role: "alert", hidden: true });
  const ok = textButton("add", "Add", "Add the new key to " + p);
  const cancel = textButton("remove", "Cancel", "Cancel the new key of " + p);
  row.append(h("div", { class: "sd-control" }, key), h("div", { class: "sd-control" }, val), h("div", { class: "sd-control" }, ok, cancel), err);
  const fail = (msg) => { err.textContent = msg; err.hidden = false; };
  add.addEventListener("click", () => { row.hidden = false; err.hidden = true; key.focus(); });
  cancel.addEventListener("click", () => { row.hidden = true; key.value = ""; val.value = ""; add.focus(); });
  const commit = () => {
    const k = key.value;
    const cur = app.get(segs);
    if (k === "") return fail("the key must not be empty");
    if (isMap(cur) && has(cur, k)) return fail("duplicate key '" + k + "'");
    let v = null;
    if (val.value.trim() !== "") {
      const r = parseValues(val.value);
      if (r.error) return fail("the value is no YAML: " + r.error);
      v = r.value;
    }
    err.hidden = true;
    row.hidden = true;
    key.value = ""; val.value = "";
    app.change(segs.concat([k]), v, {});
    redraw(app, segs);
    note(app, segs, "Added " + pathText(segs.concat([k])) + ".");
    const kp = pathText(segs.concat([k]));
    const c = document.querySelector(`[data-path="${CSS.escape(kp)}"] textarea, [data-path="${CSS.escape(kp)}"] input, [data-path="${CSS.escape(kp)}"] select, [data-path="${CSS.escape(kp)}"] summary`);
    if (c && !app.noFocus) c.focus();
  };
  ok.addEventListener("click", commit);
  key.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); val.focus(); } });
  box.append(h("div", { class: "sd-control" }, add), row, status);
  return box;
}
