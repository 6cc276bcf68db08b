// form_check.js - what the validation shows (docs/form.md): the rules
// interpreter (rules.js) run over the values after a change, each field's
// error text and aria-invalid, the Problems summary with its live status,
// and the YAML preview and --set flags drawn from the export (form_io.js).
// A mixin of the form's App (form_main.js).
import { pathText, pathId, pointer, segsOfPointer } from "./form_path.js";
import { isMap, has } from "./form_values.js";
import { setFlags } from "./form_yaml.js";
import { h } from "./form_dom.js";

const $ = (id) => document.getElementById(id);

export const Checks = (Base) => class extends Base {
  showError(entry) {
    const ptr = pointer(entry.segs);
    const list = this.errByPtr.get(ptr);
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
    this.timer = setTimeout(() => { this.timer = 0; this.update(); }, Math.min(1500, Math.max(150, 4 * this.cost)));
  }

  validateAll() {
    const out = [];
    if (!this.validator) return out;
    const rules = this.data.rules;
    const names = this.kind === "crd" ? [this.validator.entry(undefined, this.values).name] : Object.keys(rules.entries);
    for (const name of names) {
      const e = rules.entries[name];
      let items;
      try { items = this.validator.validate(this.values, { entry: name, texts: (p) => this.texts.get(p) }); } catch (err) { items = [{ path: "", message: String(err && err.message) }]; }
      const pre = e.alias ? pointer([e.alias]) : "";
      for (const it of items) if (!it.warning) out.push({ path: pre + (it.path || ""), message: it.message });
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

  update() {
    const t0 = performance.now();
    this.errors = this.validateAll().concat(this.listMapErrors());
    this.errByPtr = new Map();
    for (const e of this.errors) {
      if (!this.errByPtr.has(e.path)) this.errByPtr.set(e.path, []);
      this.errByPtr.get(e.path).push(e);
    }
    for (const entry of this.fields.values()) this.showError(entry);
    const dirty = this.dirty;
    this.dirty = [];
    const done = new Set();
    for (const segs of dirty) {
      for (let i = segs.length - 1; i >= 0; i--) {
        const ptr = pointer(segs.slice(0, i));
        if (done.has(ptr)) break;
        done.add(ptr);
        const e = this.fields.get(ptr);
        if (e) this.refresh(e);
      }
    }
    this.drawProblems();
    this.drawPreview();
    this.cost = performance.now() - t0;
  }

  drawProblems() {
    const shown = this.interacted ? this.errors : [];
    const n = shown.length;
    const title = n === 0 ? "No problems" : n === 1 ? "1 problem" : n + " problems";
    $("sd-problems-title").textContent = title;
    const ul = $("sd-problems-list");
    ul.textContent = "";
    for (const e of shown.slice(0, 500)) {
      const segs = segsOfPointer(e.path, this.values);
      const text = (pathText(segs) || "(root)") + ": " + e.message;
      const a = h("a", { href: "#" + pathId(segs), text });
      a.addEventListener("click", (ev) => { ev.preventDefault(); this.revealAll = true; this.reveal(segs, true); });
      ul.append(h("li", null, a));
    }
    if (n !== this.lastCount) {
      if (this.lastCount !== -1 || n) $("sd-status").textContent = title;
      this.lastCount = n;
    }
  }

  drawPreview() {
    const t0 = performance.now();
    const text = this.exportText();
    $("sd-preview").textContent = text;
    const v = this.exportValue();
    const flags = $("sd-flags");
    if (flags) flags.textContent = this.kind === "chart" && v !== undefined ? setFlags(v) : "";
    this.previewText = text;
    this.pcost = performance.now() - t0;
  }
};
