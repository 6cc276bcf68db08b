// SPDX-License-Identifier: Apache-2.0
// form_session.js - what keeps the user's work (docs/form.md): undo and
// redo of every change (Ctrl/Cmd+Z, Ctrl/Cmd+Shift+Z or Ctrl+Y, the "Undo"
// and "Redo" buttons); the work saved in the browser's localStorage after
// each change, keyed by the chart's name and version (secrets never saved),
// and offered back on the next load ("Restore your last session"); "Reset
// all" asking first; and "Download" of an untouched form saying there is
// nothing to download instead of saving an empty file.
import { h } from "./form_dom.js";
import { pointer, segsOfPointer, pathText } from "./form_path.js";
import { isMap, clone, overlay, helmMerge, leafPaths, setOwn } from "./form_values.js";
import { res, memberNode, itemNode, isSecret } from "./form_schema.js";
import { bigger } from "./form_pieces.js";

const $ = (id) => document.getElementById(id);
const DEPTH = 100;    // undo steps kept
const AUTOSAVE_VALUES = 20000;   // more values than this: no autosave
const COALESCE = 1500; // ms: keystrokes in one field within this are one step

// FNV-1a of a text, for the storage key of pages that have no version
function fnv(s) {
  let x = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) { x ^= s.charCodeAt(i); x = Math.imul(x, 0x01000193) >>> 0; }
  return x.toString(16);
}

// The storage key: "schemadoc-form:" + the chart's name and version (a
// chart); else the kind, name and a hash of the page data.
export function storageKey(data, raw) {
  if (data.kind === "chart" && typeof data.version === "string" && data.version !== "")
    return "schemadoc-form:chart:" + data.name + "@" + data.version;
  return "schemadoc-form:" + data.kind + ":" + data.name + "#" + fnv(raw || "");
}

// The overlay `v` without its secrets: each string whose field is masked
// (a secret's key name, writeOnly, format: password) is taken out, and a
// list that holds one goes whole (an item is never turned into null); the
// paths taken out are pushed on `left` (names only: the page says them).
export function withoutSecrets(root, v, left = []) {
  const walk = (n0, x, key, segs, depth) => {
    const n = res(n0);
    if (typeof x === "string") { if (!isSecret(n, segs)) return x; left.push(pathText(segs)); return undefined; }
    if (depth > 200) return x;
    if (Array.isArray(x)) {
      const was = left.length;
      const out = x.map((it, i) => walk(itemNode(n) || {}, it, null, segs.concat([i]), depth + 1));
      if (left.length === was) return out;
      left.length = was;
      left.push(pathText(segs));
      return undefined;
    }
    if (isMap(x)) {
      const o = {};
      for (const k of Object.keys(x)) {
        const r = walk(memberNode(n, k) || {}, x[k], k, segs.concat([k]), depth + 1);
        if (r !== undefined) setOwn(o, k, r);
      }
      return o;
    }
    return x;
  };
  return walk(root, v, null, [], 0);
}

export class Session {
  constructor(app, raw) {
    this.app = app;
    this.undos = [];
    this.redos = [];
    this.last = null;       // {ptr, at} of the last recorded step, for coalescing
    this.key = storageKey(app.data, raw);
    this.saveTimer = 0;
    this.saved = null;      // the last session found at load
  }

  // ---- undo / redo --------------------------------------------------------------
  state() {
    const a = this.app;
    return {
      values: clone(a.values), setHere: new Set(a.setHere), pins: new Map(a.pins), texts: new Map(a.texts),
      imported: a.imported, importedDoc: a.importedDoc, formIndex: a.formIndex,
    };
  }

  // Called before every change to the values; `segs` is where, `typing`
  // says a keystroke (keystrokes in one field in a row are one step).
  before(segs, typing) {
    const ptr = segs ? pointer(segs) : null;
    const now = Date.now();
    if (typing && this.last && this.last.ptr === ptr && now - this.last.at < COALESCE) { this.last.at = now; return; }
    this.undos.push({ state: this.state(), segs: segs || [] });
    if (this.undos.length > DEPTH) this.undos.shift();
    this.redos = [];
    this.last = typing ? { ptr, at: now } : null;
    this.drawButtons();
  }

  restore(s) {
    const a = this.app;
    a.values = s.values;
    a.setHere = s.setHere;
    a.pins = s.pins;
    a.texts = s.texts;
    a.imported = s.imported;
    a.importedDoc = s.importedDoc;
    if (s.formIndex !== a.formIndex) {
      a.formIndex = s.formIndex;
      a.defaults = a.makeDefaults();
      const sel = $("sd-version");
      if (sel) sel.value = String(s.formIndex);
    }
    a.variants.clear();
    a.index = null;
    a.interacted = true;
    a.previewReset();   // every value may have changed: the preview is written anew
  }

  step(from, to) {
    // text typed in the YAML view and not applied yet is a step of its own
    if (this.app.yamlViewFlush) this.app.yamlViewFlush();
    if (!from.length) return false;
    const e = from.pop();
    to.push({ state: this.state(), segs: e.segs });
    this.restore(e.state);
    if (this.app.yamlViewReset) this.app.yamlViewReset();
    this.last = null;
    const focusIn = document.activeElement && $("sd-form").contains(document.activeElement);
    this.app.renderForm();
    this.app.schedule(true);
    if (e.segs.length) this.app.reveal(e.segs, focusIn);
    this.drawButtons();
    this.say(from === this.undos ? "Undone" : "Redone");
    return true;
  }

  undo() { return this.step(this.undos, this.redos); }
  redo() { return this.step(this.redos, this.undos); }

  say(t) {
    const st = $("sd-status");
    if (st) st.textContent = t;
  }

  drawButtons() {
    if (this.undoBtn) this.undoBtn.disabled = !this.undos.length;
    if (this.redoBtn) this.redoBtn.disabled = !this.redos.length;
  }

  // ---- the page's controls ------------------------------------------------------
  wire() {
    const reset = $("sd-reset-all");
    this.undoBtn = h("button", { type: "button", id: "sd-undo", "aria-keyshortcuts": "Control+Z Meta+Z", text: "Undo" });
    this.redoBtn = h("button", { type: "button", id: "sd-redo", "aria-keyshortcuts": "Control+Shift+Z Meta+Shift+Z Control+Y", text: "Redo" });
    this.undoBtn.addEventListener("click", () => this.undo());
    this.redoBtn.addEventListener("click", () => this.redo());
    reset.after(this.undoBtn, this.redoBtn);
    this.drawButtons();
    // a reload or a closed tab right after a change: save what is pending
    const flush = () => { if (this.saveTimer) { clearTimeout(this.saveTimer); this.save(); } };
    window.addEventListener("pagehide", flush);
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") flush(); });
    document.addEventListener("keydown", (e) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const k = e.key.toLowerCase();
      if (k === "z" && !e.shiftKey) { e.preventDefault(); this.undo(); }
      else if ((k === "z" && e.shiftKey) || (k === "y" && e.ctrlKey && !e.shiftKey)) { e.preventDefault(); this.redo(); }
    });
    this.offerRestore();
  }

  // "Reset all" asks first when there is something to lose.
  askReset() {
    const a = this.app;
    if (overlay(a.values, a.defaults) === undefined && a.imported === null) { a.resetAll(); return; }
    const old = $("sd-reset-ask");
    if (old) old.remove();
    const yes = h("button", { type: "button", text: "Yes, reset all" });
    const no = h("button", { type: "button", text: "Cancel" });
    const box = h("div", { id: "sd-reset-ask", class: "sd-alert", role: "alertdialog", "aria-modal": "false", "aria-labelledby": "sd-reset-ask-t" },
      h("p", { id: "sd-reset-ask-t", text: "Reset every field to the defaults? What you changed or imported goes (Undo brings it back)." }), yes, " ", no);
    const close = () => { box.remove(); $("sd-reset-all").focus(); };
    yes.addEventListener("click", () => { box.remove(); a.resetAll(); $("sd-reset-all").focus(); });
    no.addEventListener("click", close);
    box.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.preventDefault(); close(); } });
    $("sd-import-error").before(box);
    no.focus();
  }

  // true (and says why) when the form is untouched and "Only changes" is
  // chosen: the file would be empty ("Everything" downloads the defaults)
  emptyDownload() {
    const a = this.app;
    const all = document.querySelector("input[name=sd-export][value=all]");
    const untouched = overlay(a.values, a.defaults) === undefined && a.imported === null && a.kind !== "crd" && !(all && all.checked);
    const st = $("sd-download-note") || h("p", { id: "sd-download-note", class: "sd-alert", role: "status" });
    if (!st.isConnected) $("sd-import-error").before(st);
    st.textContent = untouched ? "Nothing to download: no value differs from the defaults yet. Edit a field or import a values file first." : "";
    st.hidden = !untouched;
    return untouched;
  }

  // ---- autosave -----------------------------------------------------------------
  // After each update: the values that differ from the defaults (secrets
  // taken out) and the pinned paths, a moment later; an untouched form
  // removes the entry.
  changed() {
    const note = $("sd-download-note");
    if (note && !note.hidden) note.hidden = true;
    clearTimeout(this.saveTimer);
    document.documentElement.dataset.saveDue = "1";
    // a moment after the last change, when the page is idle: never in the
    // way of a keystroke
    this.saveTimer = setTimeout(() => {
      if (typeof requestIdleCallback === "function") requestIdleCallback(() => { if (this.saveTimer) this.save(); }, { timeout: 2000 });
      else this.save();
    }, 300);
  }

  // what is saved: the overlay on the defaults without its secrets (a
  // secret left out comes back at its default), the names of the secrets
  // left out, and the pinned paths
  snapshot() {
    const a = this.app;
    const full = overlay(a.values, a.defaults);
    const left = [];
    const ov = full === undefined ? undefined : withoutSecrets(a.form().root, full, left);
    if (full === undefined && !a.pins.size) return null;
    return { v: 1, at: Date.now(), form: a.formIndex, overlay: isMap(ov) ? ov : {}, secrets: left, pins: [...a.pins.keys()] };
  }

  // the page's signal that the autosave ran (docs/form.md): a count of
  // saves (stored, removed or left out) and no save due
  save() {
    try { this.saveNow(); } finally {
      const ds = document.documentElement.dataset;
      if (!this.saveTimer) delete ds.saveDue;
      ds.saves = String(Number(ds.saves || 0) + 1);
    }
  }

  saveNow() {
    this.saveTimer = 0;
    // a form of more values than AUTOSAVE_VALUES (a large import) is not
    // kept: its file has it, and the copy would hold the page for over half
    // a second (100,000 values); an older copy would be stale, so it goes
    if (bigger(this.app.values, AUTOSAVE_VALUES)) {
      try { localStorage.removeItem(this.key); } catch (e) { /* off */ }
      return;
    }
    let s;
    try { s = this.snapshot(); } catch (e) { return; }
    try {
      if (s === null) { if (this.touched) localStorage.removeItem(this.key); }
      else { localStorage.setItem(this.key, JSON.stringify(s)); this.touched = true; }
    } catch (e) { /* storage full or off: the page works without it */ }
  }

  offerRestore() {
    let s = null;
    try { s = JSON.parse(localStorage.getItem(this.key) || "null"); } catch (e) { s = null; }
    if (!s || s.v !== 1 || !isMap(s.overlay)) return;
    this.saved = s;
    const n = leafPaths(s.overlay).length;
    const when = new Date(s.at);
    const go = h("button", { type: "button", text: "Restore your last session" });
    const drop = h("button", { type: "button", text: "Discard it" });
    const box = h("div", { id: "sd-restore", class: "sd-alert", role: "region", "aria-label": "Last session" },
      h("p", { text: "Your last session here (" + (isNaN(when) ? "earlier" : when.toLocaleString()) + ") changed " + n + (n === 1 ? " value" : " values") + "; it was saved in this browser." }),
      go, " ", drop);
    go.addEventListener("click", () => {
      box.remove();
      this.restoreSaved();
      // the secrets it left out: said, by name
      const left = Array.isArray(s.secrets) ? s.secrets.filter((x) => typeof x === "string") : [];
      if (left.length) {
        const note = h("p", { id: "sd-restore-secrets", class: "sd-alert", role: "status",
          text: "Secret values are never saved in the browser; enter " + (left.length === 1 ? "this one" : "these") + " again: " + left.join(", ") + "." });
        $("sd-import-error").before(note);
      }
    });
    drop.addEventListener("click", () => { box.remove(); this.saved = null; try { localStorage.removeItem(this.key); } catch (e) { /* off */ } });
    $("sd-import-error").before(box);
  }

  restoreSaved() {
    const s = this.saved, a = this.app;
    if (!s) return;
    a.userChange([], false);
    if (a.kind === "crd" && Number.isInteger(s.form) && s.form >= 0 && s.form < a.data.forms.length && s.form !== a.formIndex) {
      a.formIndex = s.form;
      a.defaults = a.makeDefaults();
      const sel = $("sd-version");
      if (sel) sel.value = String(s.form);
    }
    a.values = helmMerge(clone(a.defaults), clone(s.overlay), a.kind === "ytt");
    if (!isMap(a.values)) a.values = {};
    a.pins = new Map();
    for (const p of s.pins || []) if (typeof p === "string") a.pins.set(p, segsOfPointer(p, a.values));
    a.setHere = new Set(leafPaths(s.overlay).map((segs) => pointer(segs)));
    a.interacted = true;
    a.variants.clear();
    a.index = null;
    a.previewReset();
    a.renderForm();
    a.schedule(true);
    this.say("Last session restored");
  }
}

