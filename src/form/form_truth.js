// SPDX-License-Identifier: Apache-2.0
// form_truth.js - the Problems panel tells the truth (docs/form.md): at
// load, the defaults' own problems ("The chart's defaults have 2 problems",
// their fields marked) instead of a pristine "No problems"; and each
// problem belongs to a field: a missing required key (`required`,
// `dependentRequired`) to the field of that key when the parent declares
// it, else to the parent (whose "Add entry" control or summary the link
// focuses); a problem of the root to the first field.
import { pathText, pointer, segsOfPointer } from "./form_path.js";
import { res, memberNode, itemNode, extras } from "./form_schema.js";

// "missing required key `%s`" -> /^missing required key `(.*?)`$/
function template(t) {
  if (typeof t !== "string" || !t.includes("%s")) return null;
  const parts = t.split("%s").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp("^" + parts.join("(.*?)") + "$", "s");
}

export class Truth {
  constructor(app) {
    this.app = app;
    const m = (app.data.rules && app.data.rules.messages) || {};
    this.missing = [["required", template(m.REQUIRED)], ["dependentRequired", template(m.DEPENDENT)]].filter((x) => x[1]);
    this.atLoad = 0;       // problems of the untouched page, while it is untouched
  }

  // The schema node at `segs` (null when none is known).
  nodeAt(segs) {
    const a = this.app;
    let n = res(a.form().root);
    for (const k of segs) {
      const next = typeof k === "number" ? itemNode(n) : memberNode(n, k);
      if (!next) return null;
      n = res(next);
    }
    return n;
  }

  // The pointer of the field a validator error `e` shows on.
  pointerOf(e) {
    const hit = this.missing.find(([kw]) => kw === e.keyword);
    if (!hit) return e.path;
    const m = hit[1].exec(e.message);
    if (!m) return e.path;
    const key = m[1];
    const segs = segsOfPointer(e.path, this.app.values);
    const n = this.nodeAt(segs);
    if (!n) return e.path;
    const declared = (n.properties || []).some((p) => p.key === key) ||
      extras(n, this.app.get(segs)).props.some((p) => p.key === key);
    return declared ? pointer(segs.concat([key])) : e.path;
  }

  // The segments a Problems link goes to.
  segsOf(e) {
    return segsOfPointer(this.pointerOf(e), this.app.values);
  }

  // Open the way to the field of `e` and focus it; a problem with no field
  // of its own (the root's) focuses the first field.
  land(e) {
    const a = this.app;
    const segs = this.segsOf(e);
    const exact = segs.length ? a.reveal(segs, true) : false;
    if (exact) return;
    const entry = this.nearest(segs);
    if (entry) {
      const p = pathText(entry.segs);
      const name = (b) => b.getAttribute("aria-label") || b.textContent;
      const add = [...entry.el.querySelectorAll("button")].find((b) => name(b) === "Add entry to " + p || name(b) === "Add item to " + p);
      const t = add || entry.control || entry.el;
      entry.el.scrollIntoView({ block: "center" });
      t.focus();
      return;
    }
    const first = document.querySelector("#sd-form [data-path] input, #sd-form [data-path] select, #sd-form [data-path] textarea, #sd-form summary");
    if (first) { first.scrollIntoView({ block: "center" }); first.focus(); }
  }

  nearest(segs) {
    for (let i = segs.length; i > 0; i--) {
      const e = this.app.fields.get(pointer(segs.slice(0, i)));
      if (e) return e;
    }
    return null;
  }

  // After the first check of the page: remember its problems (the
  // defaults') and, for a chart or ytt schema, mark their fields.
  load() {
    const a = this.app;
    this.atLoad = a.errors.length;
    if (!this.atLoad) return;
    if (a.kind === "chart" || a.kind === "ytt") {
      a.interacted = true;
      a.revealAll = true;
      for (const entry of a.fields.values()) a.showError(entry);
    }
    a.drawProblems();
  }

  // Any change by the user ends the load's wording (the heading is drawn
  // again now: the check after the change redraws it only when the
  // problems differ).
  changed() {
    if (!this.atLoad) return;
    this.atLoad = 0;
    this.app.drawProblems();
  }

  title(n) {
    const a = this.app;
    const count = n === 1 ? "1 problem" : n + " problems";
    if (!this.atLoad || !n) return null;
    if (a.kind === "chart") return "The chart's defaults have " + count;
    if (a.kind === "ytt") return "The schema's defaults have " + count;
    if (a.kind === "crd") return "The empty manifest has " + count;
    return "The empty document has " + count;
  }
}
