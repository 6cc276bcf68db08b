// form_main.js - the interactive form (docs/form.md): reads the page data
// (#sd-form-data: slim model, defaults, rules), keeps the values, and wires
// the page: fields (form_view.js), validation with the rules interpreter
// (rules.js, the same messages as `schemadoc validate`), the problems
// summary, the YAML preview (form_yaml.js) and --set flags (form_flags.js),
// import, download, copy, search, deep links, provenance and reset, the
// theme toggle; undo, autosave and "Reset all" asking first
// (form_session.js); the defaults' own problems at load (form_truth.js).
import { compile } from "./rules.js";
import { pathText, pathId, pointer, segsOfPointer, parsePath } from "./form_path.js";
import { isMap, has, clone, equal, getAt, setAt, deleteAt, overlay, mergeValues, setOwn, leafPaths, withPins } from "./form_values.js";
import { parseValues, toYaml, syncYaml } from "./form_yaml.js";
import { setFlags } from "./form_flags.js";
import { Session } from "./form_session.js";
import { Truth } from "./form_truth.js";
import { isMap as isYamlMap, isSeq as isYamlSeq, isScalar as isYamlScalar } from "yaml";
import { setDefs, setRules, res, memberNode, widget, extras } from "./form_schema.js";
import { renderField, buildMembers } from "./form_view.js";
import { h, descText } from "./form_dom.js";

const $ = (id) => document.getElementById(id);

class App {
  constructor(data) {
    this.data = data;
    this.kind = data.kind;
    setDefs(data.defs);
    setRules(data.rules);
    this.validator = null;
    try { if (data.rules) this.validator = compile(data.rules); } catch (e) { this.validator = null; }
    this.formIndex = 0;
    if (this.kind === "crd") {
      const st = data.forms.findIndex((f) => f.storage);
      this.formIndex = st >= 0 ? st : 0;
    }
    this.defaults = this.makeDefaults();
    this.values = clone(this.defaults);
    this.imported = null;      // the overlay an import brought
    this.importedDoc = null;   // its YAML document, for comments and order
    this.setHere = new Set();  // pointers edited on this page
    this.pins = new Map();     // pointer -> segs: keys an imported file sets (kept in "Only changes")
    this.session = null;       // undo, autosave (form_session.js), set by start()
    this.truth = new Truth(this);
    this.touched = new Set();  // pointers whose errors show on their field
    this.interacted = false;
    this.revealAll = false;
    this.fields = new Map();   // pointer -> field entry (rendered fields only)
    this.variants = new Map(); // pointer -> chosen branch
    this.errors = [];
    this.errByPtr = new Map();
    this.timer = 0;
    this.lastCount = -1;
    this.texts = new Map();    // pointer -> a number's text as written
    this.dirty = [];           // paths changed since the last update: their ancestors' provenance
    this.cost = 0;             // ms the last update took
    this.pcost = 0;            // ms the last preview took
    this.marks();
    this.view = this.marked.size ? "basic" : "all";
  }

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

  form() {
    return this.data.forms[this.formIndex];
  }

  makeDefaults() {
    if (this.kind === "crd") {
      const f = this.form();
      return { apiVersion: (this.data.group ? this.data.group + "/" : "") + f.name, kind: this.data.crdKind, metadata: { name: "" } };
    }
    let d = isMap(this.data.defaults) ? clone(this.data.defaults) : {};
    // subcharts' own values.yaml under their alias, as Helm merges them
    const rules = this.data.rules;
    if (rules && rules.entries && this.kind === "chart") {
      for (const name of Object.keys(rules.entries)) {
        const e = rules.entries[name];
        if (e.alias && isMap(e.defaults)) {
          const mine = has(d, e.alias) && isMap(d[e.alias]) ? d[e.alias] : null;
          setOwn(d, e.alias, mergeValues(clone(e.defaults), mine));
        }
      }
    }
    return d;
  }

  isCrdHeader(segs) {
    return this.kind === "crd" && segs.length === 1 && (segs[0] === "apiVersion" || segs[0] === "kind");
  }

  // ---- values ------------------------------------------------------------------
  get(segs) { return getAt(this.values, segs); }
  def(segs) { return getAt(this.defaults, segs); }

  change(segs, v, opts = {}) {
    this.userChange(segs, !!opts.typing);
    if (v === undefined) this.unpin(segs);
    if (v === undefined) deleteAt(this.values, segs);
    else this.values = setAt(this.values, segs, v);
    if (this.values === undefined || this.values === null) this.values = {};
    const ptr = pointer(segs);
    // a number as typed, for messages that quote it (`validate` quotes the file's text)
    for (const k of [...this.texts.keys()]) if (k === ptr || k.startsWith(ptr + "/")) this.texts.delete(k);
    if (typeof v === "number" && typeof opts.text === "string" && opts.text.trim() !== String(v)) this.texts.set(ptr, opts.text.trim());
    this.setHere.add(ptr);
    this.touch(segs);
    this.interacted = true;
    if (opts.entry && opts.rerender && opts.entry.rebuild) opts.entry.rebuild();
    this.conditions(segs);
    // this field and its ancestors now; validation, problems and preview now
    // when that is cheap, else after a pause in typing
    const e0 = this.fields.get(ptr);
    if (e0) this.refresh(e0);
    this.dirty.push(segs);
    if (!opts.typing || this.cost < 3) this.schedule(true);
    else {
      // the preview alone, when that is cheap: what a person reads while typing
      if (this.pcost < 3) this.drawPreview();
      const e = this.fields.get(ptr);
      if (e && !e.localError && e.err && !e.err.hidden) this.setInvalid(e, null);
      this.schedule();
    }
  }

  // objects whose if/then/else or dependentSchemas now say otherwise are
  // rebuilt; the values of fields that went away are dropped
  conditions(segs) {
    for (let i = segs.length - 1; i >= 0; i--) {
      const e = this.fields.get(pointer(segs.slice(0, i)));
      if (!e || e.kind !== "object" || !e.condKey) continue;
      const x = extras(e.node, this.get(e.segs));
      if (x.key === e.condKey) continue;
      const keep = new Set((e.node.properties || []).map((p) => p.key).concat(x.props.map((p) => p.key)));
      const v = this.get(e.segs);
      for (const k of e.condProps || []) if (!keep.has(k) && isMap(v) && has(v, k)) delete v[k];
      e.rebuild();
    }
  }

  touch(segs) {
    this.touched.add(pointer(segs));
  }

  resetAt(segs) {
    this.userChange(segs, false);
    this.unpin(segs);
    const d = this.def(segs);
    if (d === undefined) deleteAt(this.values, segs);
    else this.values = setAt(this.values, segs, clone(d));
    const ptr = pointer(segs);
    for (const p of [...this.setHere]) if (p === ptr || p.startsWith(ptr + "/")) this.setHere.delete(p);
    this.variants.delete(ptr);
    this.rerender(segs);
    this.schedule();
  }

  resetAll() {
    this.userChange([], false);
    this.pins.clear();
    this.values = clone(this.defaults);
    this.imported = null;
    this.importedDoc = null;
    this.setHere.clear();
    this.touched.clear();
    this.variants.clear();
    this.texts = new Map();
    $("sd-unknown").hidden = true;
    this.renderForm();
    this.schedule(true);
  }

  // before any change the user makes: an undo step, and the end of the
  // load's wording of the problems
  userChange(segs, typing) {
    if (this.session) this.session.before(segs, typing);
    this.truth.changed();
  }

  // a key deleted or reset is no longer pinned (nor anything under it)
  unpin(segs) {
    const ptr = pointer(segs);
    for (const p of [...this.pins.keys()]) if (p === ptr || p.startsWith(ptr + "/")) this.pins.delete(p);
  }

  // `segs` or a key under it is pinned by an import
  pinned(segs) {
    if (!this.pins.size) return false;
    if (this.pinSet === undefined || this.pinSet.map !== this.pins || this.pinSet.size !== this.pins.size) {
      const all = new Set();
      for (const p of this.pins.values()) for (let i = 1; i <= p.length; i++) all.add(pointer(p.slice(0, i)));
      this.pinSet = { map: this.pins, size: this.pins.size, all };
    }
    return this.pinSet.all.has(pointer(segs));
  }

  provenance(segs) {
    const v = this.get(segs), d = this.def(segs);
    if (equal(v, d)) return this.pinned(segs) ? "imported" : "default";
    const ptr = pointer(segs);
    for (const p of this.setHere) if (p === ptr || p.startsWith(ptr + "/") || ptr.startsWith(p + "/")) return "set here";
    if (this.imported !== null && getAt(this.imported, segs) !== undefined) return "imported";
    return "set here";
  }

  // ---- fields --------------------------------------------------------------------
  register(entry) {
    this.fields.set(pointer(entry.segs || []), entry);
  }

  unregisterUnder(segs, self) {
    const ptr = pointer(segs);
    for (const k of [...this.fields.keys()]) if (k.startsWith(ptr + "/") || (self && k === ptr)) this.fields.delete(k);
  }

  refresh(entry) {
    const segs = entry.segs;
    const v = this.get(segs);
    if (entry.set) entry.set(v);
    if (entry.nullBox) entry.nullBox.checked = v === null;
    const pv = this.provenance(segs);
    entry.el.setAttribute("data-provenance", pv);
    if (entry.prov) entry.prov.textContent = pv;
    const same = equal(v, this.def(segs));
    if (entry.reset) entry.reset.hidden = same && !this.pinned(segs);
    // setting a deprecated key warns; it does not fail
    if (entry.node && entry.node.deprecated && entry.err) {
      let w = entry.el.querySelector(":scope > .sd-warn");
      if (!same && v !== undefined && !w) {
        w = h("div", { class: "sd-warn", role: "note", text: "Deprecated" + (entry.node.deprecation ? ": " + entry.node.deprecation : ": this key may go away in a later version") });
        entry.err.before(w);
      } else if ((same || v === undefined) && w) w.remove();
    }
    this.showError(entry);
  }

  refreshPath(segs) {
    for (let i = segs.length; i >= 0; i--) {
      const e = this.fields.get(pointer(segs.slice(0, i)));
      if (e) this.refresh(e);
    }
  }

  rerender(segs) {
    // the nearest rendered container at or above `segs` redraws its items
    for (let i = segs.length; i >= 0; i--) {
      const e = this.fields.get(pointer(segs.slice(0, i)));
      if (!e) continue;
      if (e.rebuild) { e.rebuild(); this.refresh(e); this.refreshPath(segs.slice(0, i)); return; }
      this.refresh(e);
      if (i === segs.length) { this.refreshPath(segs); return; }
    }
  }

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

  renderForm() {
    const main = $("sd-form");
    main.textContent = "";
    this.fields.clear();
    const root = res(this.form().root);
    if (this.kind === "crd") patchCrdRoot(root);
    const box = h("div", { class: "sd-root" });
    main.append(box);
    if (this.view === "basic" && widget(root, this.values) === "object") buildMembers(this, this.basicRoot(root), [], 0, box);
    else if (widget(root, this.values) === "object") buildMembers(this, root, [], 0, box);
    else box.append(renderField(this, root, [], 0));
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
      for (const it of items) if (!it.warning) out.push({ path: pre + (it.path || ""), message: it.message, keyword: it.keyword });
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
      const at = this.truth.pointerOf(e);
      if (!this.errByPtr.has(at)) this.errByPtr.set(at, []);
      this.errByPtr.get(at).push(e);
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
    if (this.session) this.session.changed();
    this.cost = performance.now() - t0;
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

  exportValue() {
    const all = $("sd-export-all") ? $("sd-export-all").checked : document.querySelector("input[name=sd-export][value=all]").checked;
    if (this.kind === "crd" || this.kind === "schema") {
      const v = clone(this.values);
      if (this.kind === "crd") {
        const hdr = { apiVersion: this.defaults.apiVersion, kind: this.defaults.kind };
        const o = {};
        for (const k of Object.keys(hdr)) setOwn(o, k, hdr[k]);
        for (const k of Object.keys(v)) if (!has(hdr, k)) setOwn(o, k, v[k]);
        return o;
      }
      return all ? v : withPins(overlay(v, this.defaults), this.values, this.pins.values()) || {};
    }
    return all ? everything(this.values, this.defaults) : withPins(overlay(this.values, this.defaults), this.values, this.pins.values());
  }

  exportText() {
    const v = this.exportValue();
    const ytt = this.kind === "ytt";
    if (this.importedDoc) return syncYaml(this.importedDoc, v, ytt);
    return v === undefined || (isMap(v) && Object.keys(v).length === 0 && this.kind !== "crd") ? toYaml(undefined, ytt) : toYaml(v, ytt);
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

  // ---- navigation ---------------------------------------------------------------
  // Open every object on the way to `segs` (building its fields) and focus it.
  reveal(segs, focus) {
    let best = null;
    if (this.view === "basic" && !this.inBasic(segs)) this.setView("all");
    for (let i = 0; i <= segs.length; i++) {
      const e = this.fields.get(pointer(segs.slice(0, i)));
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

  // ---- import -------------------------------------------------------------------
  importText(text) {
    const alert = $("sd-import-error");
    const r = parseValues(text);
    if (r.error) {
      alert.textContent = "Import failed: " + r.error;
      alert.hidden = false;
      return false;
    }
    alert.hidden = true;
    alert.textContent = "";
    let v = r.value;
    if (v === null || v === undefined) v = {};
    if (!isMap(v)) {
      alert.textContent = "Import failed: line 1, column 1: the file is not a map of values";
      alert.hidden = false;
      return false;
    }
    this.userChange([], false);
    if (this.kind === "crd") {
      const api = typeof v.apiVersion === "string" ? v.apiVersion : "";
      const i = this.data.forms.findIndex((f) => api === (this.data.group ? this.data.group + "/" : "") + f.name);
      if (i >= 0 && i !== this.formIndex) { this.formIndex = i; const s = $("sd-version"); if (s) s.value = String(i); }
      this.defaults = this.makeDefaults();
    }
    this.imported = v;
    this.importedDoc = r.doc;
    for (const segs of leafPaths(v)) this.pins.set(pointer(segs), segs);
    this.values = mergeValues(clone(this.values), clone(v));
    if (this.kind === "crd") { this.values.apiVersion = this.defaults.apiVersion; this.values.kind = this.defaults.kind; }
    if (this.values === null || typeof this.values !== "object") this.values = {};
    for (const p of [...this.setHere]) if (getAt(v, segsOfPointer(p, v)) !== undefined) this.setHere.delete(p);
    this.texts = numberTexts(r.doc);
    this.variants.clear();
    this.touched = new Set([""]);
    this.interacted = true;
    this.revealAll = true;
    this.renderForm();
    this.drawUnknown(v);
    this.schedule(true);
    return true;
  }

  drawUnknown(v) {
    const list = [];
    const walk = (n0, val, segs, depth) => {
      if (depth > 50 || !isMap(val)) return;
      const n = res(n0);
      const w = widget(n, val);
      if (w === "free" || w === "any" || w === "variant") return;
      const known = (n.properties || []).map((p) => p.key);
      const defv = this.def(segs);
      const dkeys = isMap(defv) ? Object.keys(defv) : [];
      const open = (n.additionalProperties && typeof n.additionalProperties === "object") || n.patternProperties;
      for (const k of Object.keys(val)) {
        const mn = memberNode(n, k);
        if (mn) { walkVal(mn, val[k], segs.concat([k]), depth + 1); continue; }
        if (dkeys.includes(k) || open) continue;
        if (n.constraints && n.constraints.additionalProperties === true) continue;
        const cands = known.concat(dkeys);
        let best = null, bd = 1e9;
        for (const c of cands) { const d = distance(k, c); if (d < bd) { bd = d; best = c; } }
        list.push(pathText(segs.concat([k])) + (best !== null && bd <= Math.max(2, Math.floor(k.length / 3)) ? " (did you mean " + pathText(segs.concat([best])) + "?)" : ""));
      }
    };
    const walkVal = (n0, val, segs, depth) => {
      const n = res(n0);
      if (Array.isArray(val) && n.items) val.forEach((x, i) => walkVal(n.items, x, segs.concat([i]), depth + 1));
      else walk(n, val, segs, depth);
    };
    if (this.kind === "chart" && !this.data.rules) { /* the schema is the values: nothing is unknown but keys beyond values.yaml */ }
    walk(this.form().root, v, [], 0);
    const box = $("sd-unknown"), ul = $("sd-unknown-list");
    ul.textContent = "";
    for (const t of list.slice(0, 500)) ul.append(h("li", { text: t }));
    box.hidden = list.length === 0;
  }
}

// Levenshtein distance, case-insensitive (for did-you-mean).
function distance(a, b) {
  a = a.toLowerCase(); b = b.toLowerCase();
  if (a.length > 64 || b.length > 64) return 999;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

// The merged values, with `key: null` where a default was deleted: the file
// that, read over the defaults as Helm does, gives these values again.
function everything(cur, base) {
  if (!isMap(cur)) return clone(cur);
  const o = {};
  for (const k of Object.keys(cur)) setOwn(o, k, isMap(base) && has(base, k) && isMap(cur[k]) && isMap(base[k]) ? everything(cur[k], base[k]) : clone(cur[k]));
  if (isMap(base)) for (const k of Object.keys(base)) if (!has(cur, k)) setOwn(o, k, null);
  return o;
}

// pointer -> source text of each number of an imported document that
// JavaScript would print differently (2.50, 1E6, 0x10)
function numberTexts(doc) {
  const out = new Map();
  const walk = (node, ptr, depth) => {
    if (!node || depth > 200) return;
    if (isYamlMap(node)) { for (const p of node.items) walk(p.value, ptr + "/" + String(p.key && p.key.value !== undefined ? p.key.value : p.key).replace(/~/g, "~0").replace(/\//g, "~1"), depth + 1); return; }
    if (isYamlSeq(node)) { node.items.forEach((it, i) => walk(it, ptr + "/" + i, depth + 1)); return; }
    if (isYamlScalar(node) && typeof node.value === "number" && typeof node.source === "string" && node.source !== String(node.value)) out.set(ptr, node.source);
  };
  walk(doc.contents, "", 0);
  return out;
}

function patchCrdRoot(root) {
  // ObjectMeta is not in a CRD's schema: give metadata its usual fields
  const props = root.properties || (root.properties = []);
  const meta = props.find((p) => p.key === "metadata");
  const m = meta ? res(meta) : null;
  if (!m || !(m.properties && m.properties.length)) {
    const str = (key, title) => ({ key, title, type: ["string"] });
    const map = (key, title) => ({ key, title, type: ["object"], additionalProperties: { key: "*", title: "Any key", type: ["string"] } });
    const node = { key: "metadata", title: "Metadata", type: ["object"], properties: [
      Object.assign(str("name", "Name"), { required: true }), str("namespace", "Namespace"), map("labels", "Labels"), map("annotations", "Annotations")] };
    if (meta) props[props.indexOf(meta)] = node; else props.splice(0, 0, node);
  }
  for (const k of ["kind", "apiVersion"]) if (!props.some((p) => p.key === k)) props.splice(0, 0, { key: k, title: k === "kind" ? "Kind" : "API version", type: ["string"] });
}

// ---- the page ------------------------------------------------------------------

function theme() {
  const btn = $("sd-theme");
  let stored = null;
  try { stored = localStorage.getItem("schemadoc-theme"); } catch (e) { stored = null; }
  const sys = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  const apply = (dark) => {
    document.documentElement.dataset.theme = dark ? "dark" : "light";
    btn.setAttribute("aria-pressed", dark ? "true" : "false");
  };
  apply(stored ? stored === "dark" : sys);
  btn.addEventListener("click", () => {
    const dark = btn.getAttribute("aria-pressed") !== "true";
    apply(dark);
    try { localStorage.setItem("schemadoc-theme", dark ? "dark" : "light"); } catch (e) { /* private mode */ }
  });
}

function download(app) {
  const text = app.exportText();
  const blob = new Blob([text], { type: "application/yaml" });
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: app.data.download });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function copy(app) {
  const text = app.exportText();
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    const ta = h("textarea", { class: "sd-visually-hidden" });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    try { document.execCommand("copy"); } catch (e2) { /* nothing more to try */ }
    ta.remove();
  }
  $("sd-status").textContent = "Copied";
}

function deepLink(app) {
  const hsh = decodeURIComponent(location.hash || "");
  if (!hsh.startsWith("#values.")) return;
  const segs = parsePath(hsh.slice(8));
  if (segs) app.reveal(segs, true);
}

function start() {
  const raw = $("sd-form-data");
  const data = JSON.parse(raw.textContent);
  const app = new App(data);
  app.session = new Session(app, raw.textContent);
  window.addEventListener("error", () => {});
  if (app.kind === "crd" && data.forms.length > 0) {
    const sel = h("select", { id: "sd-version" });
    data.forms.forEach((f, i) => sel.append(h("option", { value: String(i), text: f.name + (f.deprecated ? " (deprecated)" : "") + (f.storage ? " (storage)" : "") })));
    sel.value = String(app.formIndex);
    sel.addEventListener("change", () => {
      app.userChange([], false);
      app.formIndex = Number(sel.value);
      app.defaults = app.makeDefaults();
      app.values.apiVersion = app.defaults.apiVersion;
      app.index = null;
      app.variants.clear();
      app.renderForm();
      app.schedule(true);
    });
    $("sd-version-slot").append(h("label", { for: "sd-version", text: "Version" }), " ", sel);
  }
  if (app.marked.size) {
    // the view switch: the keys the chart marks for forms, or every key
    const lid = "sd-view-l";
    const fs = h("fieldset", { class: "sd-view", role: "radiogroup", "aria-labelledby": lid }, h("legend", { id: lid, text: "View" }));
    for (const [v, t] of [["basic", "Basic"], ["all", "All fields"]]) {
      const r = h("input", { type: "radio", name: "sd-view", value: v, id: "sd-view-" + v, checked: app.view === v });
      r.addEventListener("change", () => { if (r.checked) app.setView(v); });
      fs.append(h("label", { class: "sd-check", for: "sd-view-" + v }, r, " " + t));
    }
    $("sd-version-slot").before(fs);
  }
  app.renderForm();
  theme();
  $("sd-import").addEventListener("click", () => $("sd-file").click());
  $("sd-file").addEventListener("change", async () => {
    const f = $("sd-file").files[0];
    if (f) app.importText(await f.text());
    $("sd-file").value = "";
  });
  document.addEventListener("dragover", (e) => { e.preventDefault(); });
  document.addEventListener("drop", async (e) => {
    e.preventDefault();
    const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (f) app.importText(await f.text());
  });
  $("sd-download").addEventListener("click", () => { if (!app.session.nothingToDownload()) download(app); });
  $("sd-copy").addEventListener("click", () => copy(app));
  $("sd-reset-all").addEventListener("click", () => app.session.askReset());
  for (const r of document.querySelectorAll("input[name=sd-export]")) r.addEventListener("change", () => app.drawPreview());
  $("sd-search").addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); app.search($("sd-search").value); }
  });
  $("sd-only-changed").addEventListener("change", () => { app.onlyChanged = $("sd-only-changed").checked; app.applyFilter(); });
  document.addEventListener("keydown", (e) => {
    if (e.key === "/" && !/^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName)) { e.preventDefault(); $("sd-search").focus(); }
  });
  window.addEventListener("hashchange", () => deepLink(app));
  // the page keeps no state in history: nothing typed reaches the URL
  try { history.replaceState({ form: 1 }, ""); } catch (e) { /* file: in some browsers */ }
  app.session.wire();
  app.update();
  app.truth.load();
  // the first typed key waits for a pause: the first check with a change in
  // it (JIT, the YAML writer's first use) costs more than this empty one
  app.cost = Math.max(app.cost, 5);
  deepLink(app);
  document.documentElement.dataset.ready = "1";
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
