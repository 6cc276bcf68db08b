// SPDX-License-Identifier: Apache-2.0
// form_nav.js - finding a field (docs/form.md "Search", "Keyboard", "Deep
// links"): revealing a path (opening and building the objects on the way,
// moving a list's window to the item), the search index of paths, titles and
// descriptions, search as you type (the tree narrowed to the matches and
// their ancestors, a count, Enter / Shift+Enter stepping through them), the
// "only what I changed" filter, expand and collapse all, deep links.
// A mixin of the form's App (form_main.js).
import { pathText, pointer, parsePath } from "./form_path.js";
import { isMap, overlay, leafPaths } from "./form_values.js";
import { res, memberNode } from "./form_schema.js";
import { descText } from "./form_dom.js";
import { nextTask } from "./form_bigyaml.js";
import { iconButton } from "./form_icons.js";

const SHOWN = 30;          // matches whose fields a search builds and shows
const SEARCH_BUDGET = 12;  // ms of building a keystroke spends at once
const CHANGED_SHOWN = 200; // changed fields "only what I changed" shows
const EXPAND_MAX = 5000;   // fields "Expand all" builds at most
const INDEX_DEPTH = 30;

// ancestor pointers of `ptr` (without "" and without ptr itself)
function* ancestors(ptr) {
  for (let i = ptr.lastIndexOf("/"); i > 0; i = ptr.lastIndexOf("/", i - 1)) yield ptr.slice(0, i);
}

function under(ptr, set) {
  if (set.has(ptr)) return true;
  for (const a of ancestors(ptr)) if (set.has(a)) return true;
  return false;
}

export const Navigation = (Base) => class extends Base {
  // ---- revealing ----------------------------------------------------------------
  // Open every object on the way to `segs` (building its fields, moving list
  // windows) without scrolling; returns the nearest field on the way.
  openTo(segs, opened, partial) {
    let best = null;
    for (let i = 0; i <= segs.length; i++) {
      const ptr = pointer(segs.slice(0, i));
      // a list, a map or many keys shown a window at a time: the window with segs[i]
      if (i < segs.length) for (const suffix of ["", "#map", "#keys"]) { const go = this.pagers.get(ptr + suffix); if (go) go(segs[i]); }
      const e = this.fields.get(ptr);
      if (!e) continue;
      best = e;
      if (e.kind === "object" && i < segs.length) {
        if (!e.el.open) { e.el.open = true; e.skipToggle = true; if (opened) opened.add(e); }
        // a search builds only the members on the way (form_view.js buildFor)
        if (partial && !e.built) e.buildFor(segs[i]); else e.build();
      }
    }
    return best;
  }

  // Open every object on the way to `segs` and focus it.
  reveal(segs, focus) {
    if (this.view === "basic" && !this.inBasic(segs)) this.setView("all");
    const best = this.openTo(segs);
    if (this.filtering()) {
      // a field the filter hides is shown when it is asked for
      if (best) this.extraShown.add(pointer(best.segs));
      this.applyFilter();
    }
    if (!best) return false;
    let el = best.el;
    for (let p = el.parentElement; p; p = p.parentElement) if (p.tagName === "DETAILS" && !p.open) { p.open = true; }
    const target = best.control || el;
    el.scrollIntoView({ block: "center" });
    if (focus) target.focus();
    return pointer(best.segs) === pointer(segs);
  }

  // ---- the search index -----------------------------------------------------------
  searchIndex() {
    if (this.index) return this.index;
    const out = [];
    const seen = new Set();
    const walk = (n0, segs, depth) => {
      if (depth > INDEX_DEPTH || out.length > 50000) return;
      const n = res(n0);
      const desc = n.doc !== undefined ? descText(n.doc) : "";
      const text = pathText(segs).toLowerCase();
      out.push({ segs, ptr: pointer(segs), text, key: segs.length ? String(segs[segs.length - 1]).toLowerCase() : "", title: (n.title || "").toLowerCase(), desc: desc.toLowerCase() });
      if (n.recursive && seen.has(n)) return;
      seen.add(n);
      for (const p of n.properties || []) walk(p, segs.concat([p.key]), depth + 1);
      const v = this.get(segs);
      if (Array.isArray(v) && n.items) v.forEach((_, i) => walk(n.items, segs.concat([i]), depth + 1));
      if (isMap(v)) {
        const own = new Set((n.properties || []).map((p) => p.key));
        for (const k of Object.keys(v)) if (!own.has(k)) walk(memberNode(n, k) || {}, segs.concat([k]), depth + 1);
      }
      seen.delete(n);
    };
    walk(this.form().root, [], 0);
    out.shift();
    this.index = out;
    return out;
  }

  // The matches of query `q`, best first: the exact path, a path that starts
  // with it, a path that has it, every word in the path, the title, then
  // every word anywhere (path, title or description).
  matchesOf(q) {
    const words = q.split(/\s+/).filter(Boolean);
    const ranked = [[], [], [], [], [], [], []];
    for (const e of this.searchIndex()) {
      let r = -1;
      if (e.text === q) r = 0;
      else if (e.text.startsWith(q)) r = 1;
      else if (e.text.includes(q)) r = 2;
      else if (words.every((w) => e.text.includes(w))) r = 3;
      else if (e.title.includes(q)) r = 4;
      else if (words.every((w) => e.title.includes(w))) r = 5;
      else if (words.every((w) => e.text.includes(w) || e.title.includes(w) || e.desc.includes(w))) r = 6;
      if (r >= 0) ranked[r].push(e);
    }
    return ranked.flat();
  }

  // ---- search as you type ------------------------------------------------------------
  // Narrow the tree to the matches of `raw` (and their ancestors); the first
  // SHOWN are built and shown, the count says how many there are.
  searchAsYouType(raw) {
    const q = raw.trim().toLowerCase();
    const count = document.getElementById("sd-search-count");
    const steps = document.getElementById("sd-search-steps");
    if (q === this.query) { document.documentElement.dataset.searched = raw; return; }
    this.query = q;
    this.matchPos = -1;
    this.extraShown = new Set();
    if (!q) {
      this.matches = [];
      this.searchSet = null;
      // the objects the search opened close again; those open before it
      // that it built in part get the rest of their fields
      for (const e of this.searchOpened || []) if (e.el.isConnected) e.el.open = false;
      for (const e of [...this.partials]) if (e.el.isConnected && e.el.open && !(this.searchOpened || new Set()).has(e)) e.build();
      this.searchOpened = new Set();
      count.textContent = "";
      count.classList.remove("sd-none");
      if (steps) steps.hidden = true;
      this.applyFilter();
      if (!this.filtering()) this.nearAgain();
      document.documentElement.dataset.searched = raw;
      return;
    }
    const all = this.matchesOf(q);
    this.matches = all;
    if (!this.searchOpened) this.searchOpened = new Set();
    const match = new Set(), show = new Set();
    for (const m of all.slice(0, SHOWN)) {
      match.add(m.ptr);
      for (const a of ancestors(m.ptr)) show.add(a);
    }
    this.searchSet = { match, show };
    // the matches' fields: built now for SEARCH_BUDGET ms, the rest in the
    // tasks after (the filter applied again as they come)
    const pending = all.slice(0, SHOWN);
    const t0 = performance.now();
    while (pending.length && performance.now() - t0 < SEARCH_BUDGET) this.openTo(pending.shift().segs, this.searchOpened, true);
    if (pending.length) this.searchLater(pending, this.searchSet);
    const n = all.length;
    count.textContent = n === 0 ? "No match" : (n === 1 ? "1 match" : n.toLocaleString("en") + " matches") + (n > SHOWN ? ", the first " + SHOWN + " shown" : "");
    count.classList.toggle("sd-none", n === 0);
    if (steps) steps.hidden = n === 0;
    this.applyFilter();
    document.documentElement.dataset.searched = raw;
  }

  async searchLater(pending, set) {
    while (pending.length) {
      await nextTask();
      if (this.searchSet !== set) return;   // typed on since
      const t0 = performance.now();
      while (pending.length && performance.now() - t0 < SEARCH_BUDGET) this.openTo(pending.shift().segs, this.searchOpened, true);
      this.applyFilter();
    }
  }

  // Enter (dir 1) / Shift+Enter (dir -1) in the search field: the next or
  // previous match, revealed and focused; the count says which.
  stepMatch(dir) {
    const q = document.getElementById("sd-search").value;
    if (q.trim().toLowerCase() !== this.query) this.searchAsYouType(q);
    const all = this.matches || [];
    if (!all.length) return false;
    this.matchPos = this.matchPos < 0 ? (dir > 0 ? 0 : all.length - 1) : (this.matchPos + dir + all.length) % all.length;
    const m = all[this.matchPos];
    if (this.current) this.current.classList.remove("sd-current");
    this.reveal(m.segs, true);
    const e = this.fields.get(m.ptr);
    this.current = e ? e.el : null;
    if (this.current) this.current.classList.add("sd-current");
    const count = document.getElementById("sd-search-count");
    count.textContent = (this.matchPos + 1) + " of " + all.length.toLocaleString("en") + ": " + (pathText(m.segs) || "(root)");
    return true;
  }

  // the old entry point: Enter's first match (tests and deep callers)
  search(q) {
    this.query = null;
    this.searchAsYouType(q);
    return this.stepMatch(1);
  }

  // ---- the filters --------------------------------------------------------------------
  filtering() {
    return !!this.searchSet || !!this.onlyChanged;
  }

  // "Only what I changed": the changed fields (built, their ancestors open)
  changedSet() {
    const list = this.changedFields(CHANGED_SHOWN);
    const match = new Set(), show = new Set();
    for (const c of list) {
      const e = this.openTo(c.segs, this.changedOpened || (this.changedOpened = new Set()));
      const ptr = pointer(c.segs);
      // a removed key: its nearest field on the way
      match.add(e && pointer(e.segs).length < ptr.length && c.now === undefined ? pointer(e.segs) : ptr);
      for (const a of ancestors(ptr)) show.add(a);
    }
    return { match, show };
  }

  // Show the fields the search and the "only what I changed" filter let
  // through (each field, its list item or map entry, its section heading).
  applyFilter() {
    const q = this.searchSet;
    const ch = this.onlyChanged ? this.changedSet() : null;
    const extra = this.extraShown || new Set();
    for (const e of this.fields.values()) {
      const ptr = e.ptr !== undefined ? e.ptr : (e.ptr = pointer(e.segs));
      let vis = true;
      if (q) vis = q.show.has(ptr) || under(ptr, q.match) || under(ptr, extra);
      if (vis && ch) vis = ch.show.has(ptr) || under(ptr, ch.match) || under(ptr, extra);
      if (e.el.classList.contains("sd-hidden") === vis) e.el.classList.toggle("sd-hidden", !vis);
      const m = !!q && q.match.has(ptr);
      if (e.el.classList.contains("sd-match") !== m) e.el.classList.toggle("sd-match", m);
      const wrap = e.el.parentElement;
      if (wrap && (wrap.classList.contains("sd-item") || wrap.classList.contains("sd-entry"))) wrap.classList.toggle("sd-hidden", !vis);
      const vb = wrap && wrap.classList.contains("sd-variant-body") ? wrap.parentElement : null;
      if (vb) vb.classList.toggle("sd-hidden", !vis);
    }
    // a section heading shows when a field after it does
    const root = document.querySelector("#sd-form .sd-root");
    if (root) {
      let head = null, any = false;
      const close = () => { if (head) head.classList.toggle("sd-hidden", !any); };
      for (const c of root.children) {
        if (c.classList.contains("sd-section")) { close(); head = c; any = false; }
        else if (!c.classList.contains("sd-hidden")) any = true;
      }
      close();
    }
    const form = document.getElementById("sd-form");
    const none = this.filtering() && ![...this.fields.values()].some((e) => !e.el.classList.contains("sd-hidden") && e.segs.length === 1);
    let note = document.getElementById("sd-filter-none");
    if (none && !note) { note = document.createElement("p"); note.id = "sd-filter-none"; note.className = "sd-empty"; form.prepend(note); }
    if (note) {
      note.hidden = !none;
      note.textContent = this.searchSet ? "No field matches the search." : "Nothing changed yet: every field has its default.";
    }
  }

  setOnlyChanged(on) {
    this.onlyChanged = on;
    if (!on) {
      for (const e of this.changedOpened || []) if (e.el.isConnected) e.el.open = false;
      this.changedOpened = new Set();
    }
    this.applyFilter();
    if (!this.filtering()) this.nearAgain();
  }

  // ---- expand and collapse all ------------------------------------------------------
  collapseAll() {
    for (const d of document.querySelectorAll("#sd-form details.sd-obj[open]")) d.open = false;
  }

  // Open every object, building its fields a slice at a time (at most
  // EXPAND_MAX fields, and not deeper than a recursive schema's 12 levels).
  async expandAll(now) {
    const token = (this.expanding = {});
    // the open objects whose fields wait to be near the screen: built now
    for (const e of this.buildQueue || []) if (e.el.isConnected && e.el.open && !e.built) e.build();
    for (;;) {
      const closed = [...document.querySelectorAll("#sd-form details.sd-obj:not([open])")]
        .map((d) => this.byEl.get(d)).filter((e) => e && e.segs.length <= 12);
      if (!closed.length || this.fields.size > EXPAND_MAX) break;
      let t0 = performance.now();
      for (const e of closed) {
        if (this.expanding !== token) return;
        e.el.open = true;
        e.build();
        if (this.fields.size > EXPAND_MAX) break;
        // a slice of 48 ms: each yield lets the browser lay out and paint
        // the whole page, which on a loki-sized chart cost more than the
        // slices of 12 ms built (bench-form: 636-671 ms -> 397-551 ms);
        // a key pressed meanwhile still waits less than the 50 ms budget
        if (!now && performance.now() - t0 > 48) { await nextTask(); t0 = performance.now(); }
      }
    }
    if (this.filtering()) this.applyFilter();
    // html[data-expanded] counts the finished runs: the tests' and the
    // bench's signal (tests/form/measure.mjs)
    document.documentElement.dataset.expanded = String((this.expandRuns = (this.expandRuns || 0) + 1));
  }
};

export function deepLink(app) {
  const hsh = decodeURIComponent(location.hash || "");
  if (!hsh.startsWith("#values.")) return;
  const segs = parsePath(hsh.slice(8));
  if (segs) app.reveal(segs, true);
}

// The page's search field, its step buttons, the filter and the expand and
// collapse buttons, and printing (everything open while the page prints).
export function wireNavigation(app) {
  const $ = (id) => document.getElementById(id);
  const box = $("sd-search");
  box.addEventListener("input", () => app.searchAsYouType(box.value));
  box.addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); app.stepMatch(e.shiftKey ? -1 : 1); }
  });
  const steps = $("sd-search-steps");
  if (steps) {
    const prev = iconButton("up", "Previous match"), next = iconButton("down", "Next match");
    prev.addEventListener("click", () => app.stepMatch(-1));
    next.addEventListener("click", () => app.stepMatch(1));
    steps.append(prev, next);
  }
  $("sd-only-changed").addEventListener("change", () => app.setOnlyChanged($("sd-only-changed").checked));
  const ex = $("sd-expand-all"), co = $("sd-collapse-all");
  if (ex) ex.addEventListener("click", () => app.expandAll(false));
  if (co) co.addEventListener("click", () => { app.expanding = null; app.collapseAll(); });
  let closed = null;
  window.addEventListener("beforeprint", () => {
    closed = [...document.querySelectorAll("#sd-form details.sd-obj:not([open])")];
    app.expandAll(true);
    // past what Expand all opens (a big chart): every section with a value
    // the user set or imported, whatever was folded (the preview prints too)
    const ov = overlay(app.values, app.defaults);
    const paths = ov === undefined ? [] : leafPaths(ov).slice(0, 2000);
    for (const segs of paths.concat([...app.pins.values()].slice(0, 2000))) app.openTo(segs);
  });
  window.addEventListener("afterprint", () => {
    for (const d of closed || []) d.open = false;
    closed = null;
  });
}
