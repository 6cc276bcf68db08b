// SPDX-License-Identifier: Apache-2.0
// form_basic.js - the basic view (docs/form.md "The basic view"): the keys
// a chart marks for forms (`form: true`, or helm-docs / Bitnami sections when
// they leave some top-level keys out), and the tree of those keys alone.
// A mixin of the form's App (form_main.js).
import { pointer } from "./form_path.js";
import { res } from "./form_schema.js";

export const BasicView = (Base) => class extends Base {
  // ---- the basic view -----------------------------------------------------------
  // The keys the chart marks for forms: `form: true` (Kubeapps, Bitnami);
  // else, when they leave some top-level keys out, the keys in a helm-docs
  // `@section` / Bitnami `## @section`. `keep`: the marked keys' pointers and
  // their ancestors'; `secOf`: a top-level key -> the section it shows under.
  marks() {
    this.marked = new Set();
    this.keep = new Set();
    this.secOf = new Map();
    this.inner = new Set();    // marked keys with marked keys below: those only
    const root = this.kind === "crd" ? null : this.form().root;
    if (!root) return;
    const find = (test) => {
      const out = [];
      const seen = new Set();
      const walk = (n0, segs, depth) => {
        const n = res(n0);
        if (depth > 12 || seen.has(n) || out.length > 5000) return;
        if (segs.length && test(n)) out.push({ segs, section: n.section });
        seen.add(n);
        for (const p of n.properties || []) walk(p, segs.concat([p.key]), depth + 1);
        seen.delete(n);
      };
      walk(root, [], 0);
      return out;
    };
    let found = find((n) => n.form === true);
    if (!found.length) {
      found = find((n) => typeof n.section === "string" && n.section !== "");
      const tops = new Set(found.map((f) => f.segs[0]));
      if ((res(root).properties || []).every((p) => tops.has(p.key))) found = [];
    }
    for (const f of found) {
      this.marked.add(pointer(f.segs));
      for (let i = 0; i <= f.segs.length; i++) this.keep.add(pointer(f.segs.slice(0, i)));
      for (let i = 0; i < f.segs.length; i++) this.inner.add(pointer(f.segs.slice(0, i)));
      if (f.section && !this.secOf.has(f.segs[0])) this.secOf.set(f.segs[0], f.section);
    }
  }

  inBasic(segs) {
    if (this.keep.has(pointer(segs))) return true;
    for (let i = 0; i < segs.length; i++) {
      const q = pointer(segs.slice(0, i));
      if (this.marked.has(q) && !this.inner.has(q)) return true;
    }
    return false;
  }

  // a copy of node `n0` at `segs` with only the kept keys (a marked key
  // without marked keys below keeps all of its own)
  basicNode(n0, segs) {
    const ptr = pointer(segs);
    if (this.marked.has(ptr) && !this.inner.has(ptr)) return n0;
    const c = Object.assign({}, res(n0));
    for (const k of ["ref", "allOf", "oneOf", "anyOf", "additionalProperties", "patternProperties", "if", "then", "else"]) delete c[k];
    c.properties = (res(n0).properties || []).filter((p) => this.keep.has(pointer(segs.concat([p.key]))))
      .map((p) => this.basicNode(p, segs.concat([p.key])));
    c.basicOnly = true;
    return c;
  }

  basicRoot(root) {
    const c = this.basicNode(root, []);
    // grouped by section, in the order the sections first appear
    const order = [];
    const groups = new Map();
    c.properties = c.properties.map((p) => {
      const sec = res(p).section || this.secOf.get(p.key) || "";
      if (!groups.has(sec)) { groups.set(sec, []); order.push(sec); }
      const q = Object.assign({}, res(p), { section: sec || undefined });
      groups.get(sec).push(q);
      return q;
    });
    c.properties = order.flatMap((sec) => groups.get(sec));
    return c;
  }

  setView(v) {
    if (v === this.view) return;
    this.view = v;
    for (const r of document.querySelectorAll("input[name=sd-view]")) r.checked = r.value === v;
    this.renderForm();
    if (this.onlyChanged) this.applyFilter();
    this.schedule(true);
  }
};
