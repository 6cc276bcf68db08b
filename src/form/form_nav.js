// form_nav.js - finding a field (docs/form.md "Keyboard", "Deep links"):
// revealing a path (opening and building the objects on the way), the
// search index of paths, titles and descriptions, the "only what I changed"
// filter, and deep links (#values.PATH).
// A mixin of the form's App (form_main.js).
import { pathText, pointer, parsePath } from "./form_path.js";
import { isMap, equal } from "./form_values.js";
import { res, memberNode } from "./form_schema.js";
import { descText } from "./form_dom.js";

export const Navigation = (Base) => class extends Base {
  // ---- navigation ---------------------------------------------------------------
  // Open every object on the way to `segs` (building its fields) and focus it.
  reveal(segs, focus) {
    let best = null;
    if (this.view === "basic" && !this.inBasic(segs)) this.setView("all");
    for (let i = 0; i <= segs.length; i++) {
      const ptr = pointer(segs.slice(0, i));
      // a list, a map or many keys shown a window at a time: the window with segs[i]
      if (i < segs.length) for (const suffix of ["", "#map", "#keys"]) { const go = this.pagers.get(ptr + suffix); if (go) go(segs[i]); }
      const e = this.fields.get(ptr);
      if (!e) continue;
      best = e;
      if (e.kind === "object" && i < segs.length) {
        if (!e.el.open) e.el.open = true;
        e.build();
      }
    }
    if (this.onlyChanged) this.applyFilter();
    if (!best) return false;
    let el = best.el;
    for (let p = el.parentElement; p; p = p.parentElement) if (p.tagName === "DETAILS" && !p.open) { p.open = true; }
    const target = best.control || el;
    el.scrollIntoView({ block: "center" });
    if (focus) target.focus();
    return pointer(best.segs) === pointer(segs);
  }

  searchIndex() {
    if (this.index) return this.index;
    const out = [];
    const seen = new Set();
    const walk = (n0, segs, depth) => {
      if (depth > 12 || out.length > 50000) return;
      const n = res(n0);
      const desc = n.doc !== undefined ? descText(n.doc) : "";
      out.push({ segs, text: pathText(segs).toLowerCase(), title: (n.title || "").toLowerCase(), desc: desc.toLowerCase() });
      if (n.recursive && seen.has(n)) return;
      seen.add(n);
      for (const p of n.properties || []) walk(p, segs.concat([p.key]), depth + 1);
      const v = this.get(segs);
      if (Array.isArray(v) && n.items) v.forEach((_, i) => walk(n.items, segs.concat([i]), depth + 1));
      if (isMap(v)) for (const k of Object.keys(v)) if (!(n.properties || []).some((p) => p.key === k)) walk(memberNode(n, k) || {}, segs.concat([k]), depth + 1);
    };
    walk(this.form().root, [], 0);
    out.shift();
    this.index = out;
    return out;
  }

  search(q) {
    q = q.trim().toLowerCase();
    if (!q) return;
    this.index = null;
    const idx = this.searchIndex();
    const hit = idx.find((e) => e.text === q) || idx.find((e) => e.text.startsWith(q)) || idx.find((e) => e.text.includes(q)) ||
      idx.find((e) => e.title.includes(q)) || idx.find((e) => e.desc.includes(q));
    if (hit) this.reveal(hit.segs, true);
    return !!hit;
  }

  applyFilter() {
    const on = this.onlyChanged;
    for (const e of this.fields.values()) {
      const changed = !equal(this.get(e.segs), this.def(e.segs));
      e.el.classList.toggle("sd-hidden", on && !changed);
    }
  }
};

export function deepLink(app) {
  const hsh = decodeURIComponent(location.hash || "");
  if (!hsh.startsWith("#values.")) return;
  const segs = parsePath(hsh.slice(8));
  if (segs) app.reveal(segs, true);
}
