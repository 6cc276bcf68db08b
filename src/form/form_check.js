// SPDX-License-Identifier: Apache-2.0
// form_check.js - what the validation shows (docs/form.md): the rules
// interpreter (rules.js) run over the values after a change, each field's
// error text and aria-invalid, the Problems summary with its live status,
// each update ending with the preview (form_preview.js).
// A mixin of the form's App (form_main.js).
import { pathText, pathId, pointer, segsOfPointer } from "./form_path.js";
import { isMap, has, dropNewNulls } from "./form_values.js";
import { h } from "./form_dom.js";
import { K8sLayer } from "./k8s_check.js";

const $ = (id) => document.getElementById(id);

export const Checks = (Base) => class extends Base {
  showError(entry) {
    const ptr = pointer(entry.segs);
    let list = this.errByPtr.get(ptr);
    // a YAML field holds the values below it: their errors show on it too,
    // each with its path (a free map's member edited as YAML, form_free.js)
    if (entry.kind === "free" && this.errByPtr.size) {
      const below = [];
      for (const [p, l] of this.errByPtr) if (p.startsWith(ptr + "/")) for (const e of l) below.push({ message: pathText(segsOfPointer(e.path, this.values)) + ": " + e.message });
      if (below.length) list = (list || []).concat(below);
    }
    let msg = entry.localError || null;
    const visible = this.revealAll || [...this.touched].some((t) => t === ptr || t.startsWith(ptr + "/") || ptr.startsWith(t + "/"));
    if (!msg && list && list.length && this.interacted && visible) msg = list.map((e) => e.message).join("\n");
    this.setInvalid(entry, msg);
  }

  setInvalid(entry, msg) {
    const c = entry.control;
    if (!entry.err) return;
    const set = (el, k, v) => { if (el.getAttribute(k) !== v) { if (v === null) el.removeAttribute(k); else el.setAttribute(k, v); } };
    const d = $(entry.id + "-d");
    if (msg) {
      if (entry.err.textContent !== msg) entry.err.textContent = msg;
      entry.err.hidden = false;
      if (c) {
        set(c, "aria-invalid", "true");
        set(c, "aria-describedby", entry.err.id + (d ? " " + d.id : ""));
      }
    } else {
      if (entry.err.textContent !== "") entry.err.textContent = "";
      entry.err.hidden = true;
      if (c) {
        set(c, "aria-invalid", null);
        set(c, "aria-describedby", d ? d.id : null);
      }
    }
  }


  // ---- validation, problems, preview ------------------------------------------
  flush() {
    if (this.timer) this.schedule(true);
  }

  schedule(now) {
    clearTimeout(this.timer);
    this.timer = 0;
    if (now) { this.update(); return; }
    // html[data-check-due] while an update waits for a pause in typing
    document.documentElement.dataset.checkDue = "1";
    this.timer = setTimeout(() => { this.timer = 0; this.update(); }, Math.min(1500, Math.max(150, 4 * this.cost)));
  }

  // The validator's errors for the values. `changed`: the JSON pointer under
  // which every change since the last check lies, or null for a check of
  // everything. The rules interpreter's revalidate() runs again only the
  // records on the way to `changed` and below it (the rest from its cache,
  // which is keyed by the values' objects: they are changed in place, so an
  // object off that path is the same object with the same verdict). A
  // subchart's entry (validated under its alias) is only run again when the
  // change is under its alias or above it.
  validateAll(changed) {
    const out = [];
    if (!this.validator) return out;
    const rules = this.data.rules;
    const names = this.kind === "crd" ? [this.validator.entry(undefined, this.values).name] : Object.keys(rules.entries);
    if (!this.entryErrs || changed === null) this.entryErrs = new Map();
    for (const name of names) {
      const e = rules.entries[name];
      const pre = e.alias ? pointer([e.alias]) : "";
      let items = this.entryErrs.get(name);
      let at = changed;
      if (at !== null && pre) at = at === "" || at === pre ? "" : at.startsWith(pre + "/") ? at.slice(pre.length) : undefined;
      if (items === undefined || at !== undefined) {
        const opts = { entry: name, texts: (p) => this.texts.get(p) };
        try {
          // a subchart's instance is made anew each time (its defaults merged
          // with the values under its alias): nothing of it is cached
          // the nulls kept for keys the defaults do not have are merged away
          // by `schemadoc validate`: the check leaves them out too
          const v = dropNewNulls(this.values, this.defaults);
          items = at === null || pre ? this.validator.validate(v, opts) : this.validator.revalidate(v, at, opts);
        } catch (err) { items = [{ path: "", message: String(err && err.message) }]; }
        this.entryErrs.set(name, items);
      }
      for (const it of items) if (!it.warning) out.push({ path: pre + (it.path || ""), message: it.message, keyword: it.keyword });
    }
    // validate's Kubernetes layer, where the chart's own schema leaves a
    // typed key open (k8s_check.js); a place the schema spoke of already
    // gets no second finding, as in `validate`
    if (rules.k8s) {
      if (!this.k8sLayer) this.k8sLayer = new K8sLayer(rules.k8s, rules.named);
      const spoken = new Set(out.map((e) => e.path));
      const v = dropNewNulls(this.values, this.defaults);
      for (const f of this.k8sLayer.check(v, (p) => this.texts.get(p))) {
        if (spoken.has(f.path)) continue;
        spoken.add(f.path);
        out.push({ path: f.path, message: (f.warning ? "warning: " : "") + f.message, keyword: f.keyword, warning: !!f.warning });
      }
    }
    return out;
  }

  // x-kubernetes-list-type: map: two items with the same key values (the API
  // server refuses them; JSON Schema cannot say it), for the lists on screen
  listMapErrors() {
    const out = [];
    for (const e of this.fields.values()) {
      const k = e.kind === "array" && e.node.kubernetes;
      if (!k || k.list_type !== "map" || !Array.isArray(k.list_map_keys) || !k.list_map_keys.length) continue;
      const list = this.get(e.segs);
      if (!Array.isArray(list)) continue;
      const seen = new Map();
      list.forEach((it, i) => {
        if (!isMap(it)) return;
        const id = JSON.stringify(k.list_map_keys.map((m) => (has(it, m) ? it[m] : null)));
        if (seen.has(id)) {
          const key = k.list_map_keys[0];
          out.push({ path: pointer(e.segs.concat([i, key])), message: "duplicate entry: " + k.list_map_keys.map((m) => m + "=" + JSON.stringify(has(it, m) ? it[m] : null)).join(", ") + " is already item " + seen.get(id) });
        } else seen.set(id, i);
      });
    }
    return out;
  }

  // Check the values again and show what changed: the error text of the
  // fields whose errors changed (all fields when what is shown changed: the
  // first edit, an import, a problem link), the provenance of the changed
  // fields' ancestors, the Problems list when it differs, the preview.
  update(opts = {}) {
    const t0 = performance.now();
    clearTimeout(this.timer);
    this.timer = 0;
    const dirty = this.dirty;
    this.dirty = [];
    let changed = null;
    if (!this.checkAll) {
      for (const segs of dirty) {
        const ptr = pointer(segs);
        if (changed === null) { changed = ptr; continue; }
        while (changed !== "" && ptr !== changed && !ptr.startsWith(changed + "/")) changed = changed.slice(0, changed.lastIndexOf("/"));
      }
      if (changed === null) changed = this.lastErrors ? undefined : null;
    }
    this.checkAll = false;
    const errors = changed === undefined ? this.errors : this.validateAll(changed).concat(this.listMapErrors());
    const old = this.errByPtr;
    const byPtr = new Map();
    // each error on its field: a missing required key on the key's own (form_truth.js)
    for (const e of errors) {
      const at = this.truth.pointerOf(e);
      if (!byPtr.has(at)) byPtr.set(at, []);
      byPtr.get(at).push(e);
    }
    this.errors = errors;
    this.errByPtr = byPtr;
    const shown = (this.interacted ? 1 : 0) + (this.revealAll ? 2 : 0);
    if (shown !== this.shownState) {
      this.shownState = shown;
      for (const entry of this.fields.values()) this.showError(entry);
    } else {
      const text = (l) => (l ? l.map((e) => e.message).join("\n") : "");
      for (const ptr of new Set([...old.keys(), ...byPtr.keys()])) {
        if (text(old.get(ptr)) === text(byPtr.get(ptr))) continue;
        const entry = this.fields.get(ptr);
        if (entry) this.showError(entry);
      }
    }
    // the changed fields (their error was hidden while typing) and their ancestors
    const done = new Set();
    for (const segs of dirty) {
      for (let i = segs.length; i >= 0; i--) {
        const ptr = pointer(segs.slice(0, i));
        if (done.has(ptr)) break;
        done.add(ptr);
        const e = this.fields.get(ptr);
        if (e) { if (i === segs.length) this.showError(e); else this.refresh(e); }
      }
    }
    if (!sameErrors(this.lastErrors, errors) || this.lastShown !== this.interacted) {
      this.lastErrors = errors;
      this.lastShown = this.interacted;
      this.drawProblems();
    }
    this.drawOutlineMarks();
    if (opts.preview !== false) this.drawPreview();
    if (this.session) this.session.changed();
    this.cost = performance.now() - t0;
    // the page's signal that an update ran to its end (docs/form.md): a
    // count of them, and no update due
    const ds = document.documentElement.dataset;
    delete ds.checkDue;
    ds.checks = String(Number(ds.checks || 0) + 1);
  }

  drawProblems() {
    const shown = this.interacted || this.truth.atLoad ? this.errors : [];
    const n = shown.length;
    const title = this.truth.title(n) || (n === 0 ? "No problems" : n === 1 ? "1 problem" : n + " problems");
    $("sd-problems-title").textContent = title;
    const ul = $("sd-problems-list");
    ul.textContent = "";
    for (const e of shown.slice(0, 500)) {
      const segs = segsOfPointer(e.path, this.values);
      const text = (pathText(segs) || "(root)") + ": " + e.message;
      const a = h("a", { href: "#" + pathId(this.truth.segsOf(e)), text });
      a.addEventListener("click", (ev) => { ev.preventDefault(); this.revealAll = true; this.truth.land(e); });
      ul.append(h("li", null, a));
    }
    if (n !== this.lastCount) {
      if (this.lastCount !== -1 || n) $("sd-status").textContent = title;
      this.lastCount = n;
    }
  }
};

function sameErrors(a, b) {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i].path !== b[i].path || a[i].message !== b[i].message) return false;
  return true;
}
