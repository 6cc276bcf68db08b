// SPDX-License-Identifier: Apache-2.0
// form_outline.js - the side outline (docs/form.md "Outline"): the
// top-level keys, under the chart's sections when it has them, each a link
// that reveals its field, with how many problems it has and whether it was
// changed. Folded on a phone. A mixin of the form's App (form_main.js).
import { pathId } from "./form_path.js";
import { equal, has } from "./form_values.js";
import { h } from "./form_dom.js";

const $ = (id) => document.getElementById(id);

export const Outline = (Base) => class extends Base {
  // the outline of the top-level members `members` ([{key, title, section}])
  buildOutline(members) {
    const ul = $("sd-outline-list");
    if (!ul) return;
    ul.textContent = "";
    this.outlineItems = new Map();
    let section = null;
    for (const m of members) {
      if (m.section && m.section !== section) {
        section = m.section;
        ul.append(h("li", { class: "sd-out-section", text: section }));
      }
      const segs = [m.key];
      const a = h("a", { href: "#" + pathId(segs), title: m.title || m.key },
        h("span", { class: "sd-out-key", text: m.key }));
      const changed = h("span", { class: "sd-out-changed", hidden: true, title: "changed", text: "●" });
      const errs = h("span", { class: "sd-out-err", hidden: true });
      a.append(changed, errs);
      a.addEventListener("click", (ev) => { ev.preventDefault(); this.reveal(segs, true); });
      ul.append(h("li", null, a));
      this.outlineItems.set(m.key, { changed, errs });
    }
    const box = $("sd-outline-box");
    if (box && window.matchMedia && window.matchMedia("(max-width: 700px)").matches) box.open = false;
    box.parentElement.hidden = members.length === 0;
    this.drawOutlineMarks();
  }

  // each top-level key's problem count (once errors show) and changed mark
  drawOutlineMarks() {
    if (!this.outlineItems) return;
    const count = new Map();
    if (this.interacted) for (const e of this.errors || []) {
      const k = e.path.split("/")[1];
      const key = k === undefined ? "" : k.replace(/~1/g, "/").replace(/~0/g, "~");
      count.set(key, (count.get(key) || 0) + 1);
    }
    const v = this.values, d = this.defaults;
    for (const [k, it] of this.outlineItems) {
      const n = count.get(k) || 0;
      it.errs.hidden = n === 0;
      if (n) { it.errs.textContent = String(n); it.errs.title = n === 1 ? "1 problem" : n + " problems"; }
      const ch = !equal(has(v, k) ? v[k] : undefined, has(d, k) ? d[k] : undefined);
      it.changed.hidden = !ch;
    }
  }
};


