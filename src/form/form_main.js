// SPDX-License-Identifier: Apache-2.0
// form_main.js - the interactive form (docs/form.md): reads the page data
// (#sd-form-data: slim model, defaults, rules), keeps the values and the
// fields on screen, and wires the page. The App's other parts are mixins:
// the basic view (form_basic.js), validation shown on fields, Problems and
// the preview (form_check.js), import and export (form_io.js), search, deep
// links and the filter (form_nav.js); the fields themselves: form_view.js.
// Undo, autosave, "Reset all" asking first: form_session.js; the defaults'
// own problems at load and where each problem shows: form_truth.js.
import { compile } from "./rules.js";
import { pointer } from "./form_path.js";
import { isMap, has, clone, equal, getAt, setAt, deleteAt, mergeValues, setOwn, runSteps } from "./form_values.js";
import { Session } from "./form_session.js";
import { Truth } from "./form_truth.js";
import { setDefs, setRules, res, widget, extras } from "./form_schema.js";
import { renderField, buildMembers } from "./form_view.js";
import { h, show } from "./form_dom.js";
import { BasicView } from "./form_basic.js";
import { Checks } from "./form_check.js";
import { ValuesIO, download, copy } from "./form_io.js";
import { Navigation, deepLink, wireNavigation } from "./form_nav.js";
import { Outline } from "./form_outline.js";
import { nextTask } from "./form_bigyaml.js";
import { Preview } from "./form_preview.js";
import { YamlView } from "./form_yamlview.js";

const $ = (id) => document.getElementById(id);
const RENDER_FIELDS = 100;  // fields built at once when the form is drawn (then only what comes near the screen)

class Base {}

class App extends YamlView(Outline(Preview(Navigation(ValuesIO(Checks(BasicView(Base))))))) {
  constructor(data) {
    super();
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
    this.yttAppended = new Map();
    this.yamlAt = new Set();   // members of free maps shown as YAML text (form_free.js)   // ytt: list pointer -> indices an import appended (form_ytt.js)
    this.session = null;       // undo, autosave (form_session.js), set by start()
    this.truth = new Truth(this);
    this.touched = new Set();  // pointers whose errors show on their field
    this.interacted = false;
    this.revealAll = false;
    this.fields = new Map();   // pointer -> field entry (rendered fields only)
    this.pagers = new Map();   // pointer (+ "#keys", "#map") -> move a window of items to a key or index (form_lists.js Pager)
    this.byEl = new WeakMap(); // a field's element -> its entry
    this.partials = new Set(); // objects a search built in part (form_view.js buildFor)
    this.query = "";           // the search typed (form_nav.js)
    this.variants = new Map(); // pointer -> chosen branch
    this.errors = [];
    this.errByPtr = new Map();
    this.timer = 0;
    this.lastCount = -1;
    this.texts = new Map();    // pointer -> a number's text as written
    this.dirty = [];           // paths changed since the last update: their ancestors' provenance
    this.checkAll = true;      // the next update validates everything (else what changed)
    this.cost = 0;             // ms the last update took
    this.pcost = 0;            // ms the last preview took
    this.marks();
    this.view = this.marked.size ? "basic" : "all";
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
    for (const k of [...this.yttAppended.keys()]) if (k === ptr || k.startsWith(ptr + "/")) this.yttAppended.delete(k);
    // keys come or go: the search index is made again
    if (v === undefined || (v !== null && typeof v === "object")) this.index = null;
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
    this.markDirty(segs);
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
      for (const k of e.condProps || []) if (!keep.has(k) && isMap(v) && has(v, k)) { delete v[k]; this.markDirty(e.segs); }
      e.rebuild();
    }
  }

  // `segs` changed: validated again (form_check.js), its ancestors'
  // provenance redrawn, its part of the preview written again
  markDirty(segs) {
    this.dirty.push(segs);
    this.previewDirty(segs);
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
    this.markDirty(segs);
    this.rerender(segs);
    this.schedule();
  }

  resetAll() {
    this.userChange([], false);
    this.pins.clear();
    this.yttAppended.clear();
    this.values = clone(this.defaults);
    this.imported = null;
    this.importedDoc = null;
    this.setHere.clear();
    this.touched.clear();
    this.variants.clear();
    this.texts = new Map();
    $("sd-unknown").hidden = true;
    this.checkAll = true;
    this.previewReset();
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
    if (this.pinSet === undefined || this.pinSet.map !== this.pins || this.pinSet.size !== this.pins.size)
      runSteps(this.pinSetSteps());
    return this.pinSet.all.has(pointer(segs));
  }

  // Make this.pinSet: the pointers of the pinned paths and of their
  // ancestors. A generator that yields now and then: a large import runs it
  // a slice at a time (form_bigyaml.js sliced()), pinned() at once.
  *pinSetSteps() {
    const all = new Set();
    let n = 0;
    for (const p of this.pins.values()) {
      if (++n % 1024 === 0) yield;
      for (let i = 1; i <= p.length; i++) all.add(pointer(p.slice(0, i)));
    }
    this.pinSet = { map: this.pins, size: this.pins.size, all };
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
    this.byEl.set(entry.el, entry);
  }

  unregisterUnder(segs, self) {
    const ptr = pointer(segs);
    for (const k of [...this.fields.keys()]) if (k.startsWith(ptr + "/") || (self && k === ptr)) this.fields.delete(k);
    for (const k of [...this.pagers.keys()]) if (k.startsWith(ptr + "/")) this.pagers.delete(k);
  }

  refresh(entry) {
    const segs = entry.segs;
    const v = this.get(segs);
    if (entry.set) entry.set(v);
    if (entry.nullBox) entry.nullBox.checked = v === null;
    const pv = this.provenance(segs);
    entry.el.setAttribute("data-provenance", pv);
    if (entry.prov) entry.prov.textContent = pv;
    const d = this.def(segs);
    const same = equal(v, d);
    // a pinned key at its default has a reset button too (it takes the pin away)
    const pinned = same && this.pinned(segs);
    if ((!same || pinned) && entry.changed) entry.changed();
    if (entry.reset) entry.reset.hidden = same && !pinned;
    // a changed scalar shows its default beside it (never a secret's)
    if (entry.was) {
      const on = !same && !entry.secret && d !== undefined && (d === null || typeof d !== "object");
      entry.was.hidden = !on;
      if (on) { const t = "default: " + (typeof d === "string" ? (d === "" ? '""' : d) : show(d)); entry.was.textContent = t.length > 60 ? t.slice(0, 59) + "…" : t; }
    }
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


  // Draw the fields: the top level, and the open objects' fields, those past
  // the first RENDER_FIELDS when they come near the screen (deferBuild,
  // drainBuilds); then the outline, and the search or filter again.
  renderForm() {
    const main = $("sd-form");
    main.textContent = "";
    this.fields.clear();
    this.pagers.clear();
    this.partials.clear();
    this.index = null;
    this.buildQueue = [];
    const root = res(this.form().root);
    if (this.kind === "crd") patchCrdRoot(root);
    const box = h("div", { class: "sd-root" });
    main.append(box);
    this.drawing = true;
    let top = null;
    if (this.view === "basic" && widget(root, this.values) === "object") buildMembers(this, top = this.basicRoot(root), [], 0, box);
    else if (widget(root, this.values) === "object") buildMembers(this, top = root, [], 0, box);
    else box.append(renderField(this, root, [], 0));
    this.drawing = false;
    this.buildOutline(top ? topMembers(top, this.values) : []);
    this.drainBuilds();
    if (this.query) { this.query = null; this.searchAsYouType($("sd-search").value); }
    else if (this.onlyChanged) this.applyFilter();
  }

  // while the form is drawn: build `entry` (an open object) later?
  deferBuild(entry) {
    if (!this.drawing || this.fields.size < RENDER_FIELDS) return false;
    this.buildQueue.push(entry);
    return true;
  }

  // The open objects deferBuild() left are built when they come near the
  // screen (or are revealed, searched, expanded or printed: they build
  // themselves then), so the main thread is free once the first screen is drawn.
  drainBuilds() {
    if (this.nearObserver) this.nearObserver.disconnect();
    this.nearObserver = null;
    const q = this.buildQueue;
    if (!q.length) return;
    if (typeof IntersectionObserver !== "function") { for (const e of q.splice(0)) e.build(); return; }
    const byEl = new Map(q.map((e) => [e.el, e]));
    const io = new IntersectionObserver((seen) => {
      // while a search or the filter narrows the page, what comes into view
      // is its matches (built by them); the rest waits (nearAgain())
      if (this.filtering()) return;
      for (const s of seen) {
        if (!s.isIntersecting) continue;
        const e = byEl.get(s.target);
        io.unobserve(s.target);
        if (e && e.el.open && !e.built) { e.build(); if (this.filtering()) this.applyFilter(); }
      }
    }, { rootMargin: "300px 0px" });
    for (const e of q) io.observe(e.el);
    this.nearObserver = io;
  }

  // the filter is off: the objects still waiting are looked at again
  nearAgain() {
    const io = this.nearObserver;
    if (!io) return;
    for (const e of this.buildQueue || []) if (!e.built && e.el.isConnected) { io.unobserve(e.el); io.observe(e.el); }
  }
}

// the top-level members of the form, for the outline
function topMembers(top, values) {
  const out = (top.properties || []).map((p) => ({ key: p.key, title: res(p).title, section: p.section || res(p).section }));
  if (!top.basicOnly && isMap(values) && !top.additionalProperties && !top.patternProperties) {
    const own = new Set(out.map((m) => m.key));
    const extra = Object.keys(values).filter((k) => !own.has(k));
    if (extra.length <= 50) for (const k of extra) out.push({ key: k });
  }
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
      app.checkAll = true;
      app.previewReset();
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
    if (f) app.importText(await f.text(), f.name);
    $("sd-file").value = "";
  });
  document.addEventListener("dragover", (e) => { e.preventDefault(); });
  document.addEventListener("drop", async (e) => {
    e.preventDefault();
    const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
    if (f) app.importText(await f.text(), f.name);
  });
  const diffBox = $("sd-diff-box");
  if (diffBox) {
    if (app.kind === "chart" || app.kind === "ytt") {
      diffBox.querySelector("summary").textContent = app.kind === "chart" ? "Diff against the chart's values.yaml" : "Diff against the schema's defaults";
      diffBox.addEventListener("toggle", () => { if (diffBox.open) app.drawDiff(); });
    } else diffBox.hidden = true;
  }
  $("sd-download").addEventListener("click", () => { if (!app.session.emptyDownload()) download(app); });
  $("sd-copy").addEventListener("click", () => copy(app));
  $("sd-reset-all").addEventListener("click", () => app.session.askReset());
  for (const r of document.querySelectorAll("input[name=sd-export]")) r.addEventListener("change", () => app.drawPreview());
  wireNavigation(app);
  app.wireYamlView();
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
  // the search index, made while the page waits, so the first key typed is quick
  if (typeof requestIdleCallback === "function") requestIdleCallback(() => app.searchIndex(), { timeout: 4000 });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();

