// SPDX-License-Identifier: Apache-2.0
// form_lists.js - the fields that hold other fields (docs/form.md): lists
// (add, remove, move), maps (additionalProperties / patternProperties: a key
// editor per entry) and oneOf/anyOf (a "Variant of PATH" select and the
// chosen branch's fields). Each rebuilds only its own items.
import { h } from "./form_dom.js";
import { pathText, pathId, pointer } from "./form_path.js";
import { res, widget, branches, branchLabels, chooseBranch, memberNode, itemNode } from "./form_schema.js";
import { isMap, has, clone } from "./form_values.js";
import { renderField, shell, headRow, finish, nullToggle } from "./form_view.js";
import { iconButton, textButton } from "./form_icons.js";

// ---- a window over many items ------------------------------------------------------

// Lists, maps and keys beyond an object's schema show PAGE items at a time,
// so a value of 100,000 items builds 50 fields; "Previous"/"Next" move the
// window, and revealing an item (search, a problem link, a deep link) moves
// it to that item (App.pagers, form_nav.js reveal()).
export const PAGE = 50;

export class Pager {
  constructor(what, p) {
    this.start = 0;
    this.what = what;
    this.nav = h("div", { class: "sd-pager", hidden: true });
    this.prev = iconButton("prev", "Previous " + PAGE + " " + what + " of " + p);
    this.info = h("span", { class: "sd-pager-info" });
    this.next = iconButton("next", "Next " + PAGE + " " + what + " of " + p);
    this.nav.append(this.prev, this.info, this.next);
    this.onMove = null;
    this.prev.addEventListener("click", () => { this.start -= PAGE; if (this.onMove) this.onMove(); });
    this.next.addEventListener("click", () => { this.start += PAGE; if (this.onMove) this.onMove(); });
  }

  // [from, to) of `total` items to show now
  range(total) {
    if (this.start >= total) this.start = Math.max(0, Math.floor((total - 1) / PAGE) * PAGE);
    if (this.start < 0) this.start = 0;
    const to = Math.min(total, this.start + PAGE);
    this.nav.hidden = total <= PAGE;
    if (total > PAGE) {
      this.info.textContent = this.what[0].toUpperCase() + this.what.slice(1) + " " + (this.start + 1).toLocaleString("en") + "–" + to.toLocaleString("en") + " of " + total.toLocaleString("en");
      this.prev.disabled = this.start === 0;
      this.next.disabled = to >= total;
    }
    return [this.start, to];
  }

  // move the window to item i; true when it moved
  show(i) {
    const s = Math.floor(i / PAGE) * PAGE;
    if (s === this.start) return false;
    this.start = s;
    return true;
  }
}

// ---- lists ---------------------------------------------------------------------

export function renderArray(app, n, segs, depth) {
  const entry = shell(app, n, segs, "array", "sd-array");
  const { el, id } = entry;
  const p = pathText(segs);
  el.append(headRow(app, n, segs, id, null, "array"));
  const c = n.constraints || {};
  const items = h("div", { class: "sd-items", role: "list", "aria-labelledby": id + "-l" });
  const add = textButton("add", "Add item", "Add item to " + p);
  const ctl = h("div", { class: "sd-control" }, add);
  if (n.nullable) { entry.rerenderOnNull = true; ctl.append(nullToggle(app, segs, p, id, entry)); }
  const inode = itemNode(n);
  const pager = new Pager("items", p);
  let drawn = false;
  const draw = (focusIndex) => {
    if (drawn) app.unregisterUnder(segs);
    drawn = true;
    items.textContent = "";
    const arr = app.get(segs);
    const list = Array.isArray(arr) ? arr : [];
    if (focusIndex >= 0) pager.show(focusIndex);
    const [from, to] = pager.range(list.length);
    const frag = document.createDocumentFragment();
    for (let i = from; i < to; i++) {
      const ip = pathText(segs.concat([i]));
      const rm = iconButton("remove", "Remove " + ip);
      const up = iconButton("up", "Move " + ip + " up", { disabled: i === 0 });
      const dn = iconButton("down", "Move " + ip + " down", { disabled: i === list.length - 1 });
      if (has(c, "minItems") && list.length <= c.minItems) rm.disabled = true;
      rm.addEventListener("click", () => {
        const a = clone(app.get(segs)); a.splice(i, 1);
        app.change(segs, a, { entry });
        draw(i > 0 ? i - 1 : -2);
      });
      up.addEventListener("click", () => {
        const a = clone(app.get(segs)); [a[i - 1], a[i]] = [a[i], a[i - 1]];
        app.change(segs, a, { entry }); draw(i - 1); focusBtn(items, i - 1 - pager.start, "up");
      });
      dn.addEventListener("click", () => {
        const a = clone(app.get(segs)); [a[i + 1], a[i]] = [a[i], a[i + 1]];
        app.change(segs, a, { entry }); draw(i + 1); focusBtn(items, i + 1 - pager.start, "down");
      });
      const bar = h("div", { class: "sd-item-bar" }, h("span", { class: "sd-item-n", "aria-hidden": "true", text: String(i) }), rm, up, dn);
      // ytt: an item the import appended to the list it overlays (form_ytt.js)
      const app0 = app.yttAppended && app.yttAppended.get(pointer(segs));
      if (app0 && app0.has(i)) bar.append(h("span", { class: "sd-badge sd-appended", title: "ytt appends this item of the imported file to the list it overlays", text: "appended" }));
      const it = h("div", { class: "sd-item", role: "listitem", "data-index": String(i), "data-appended": app0 && app0.has(i) ? "true" : null },
        bar);
      it.append(renderField(app, inode, segs.concat([i]), depth + 1, { open: list.length <= 20 }));
      frag.append(it);
    }
    items.append(frag);
    add.disabled = !!n.readOnly || (has(c, "maxItems") && list.length >= c.maxItems);
    const out = el.querySelector("output.sd-count");
    if (out) out.textContent = list.length === 1 ? "1 item" : list.length.toLocaleString("en") + " items";
    if (focusIndex === -2) add.focus();
    else if (focusIndex >= 0 && focusIndex < list.length && !app.noFocus) focusFirst(items.children[focusIndex - pager.start]);
  };
  pager.onMove = () => { draw(-1); };
  app.pagers.set(pointer(segs), (i) => { if (typeof i === "number" && pager.show(i)) { app.noFocus = true; draw(i); app.noFocus = false; } });
  add.addEventListener("click", () => {
    const arr = app.get(segs);
    const a = Array.isArray(arr) ? clone(arr) : [];
    const inn = res(inode);
    a.push(has(inn, "default") ? clone(inn.default) : newValue(inn));
    app.change(segs, a, { entry });
    draw(a.length - 1);
  });
  el.append(ctl, items, pager.nav);
  entry.rebuild = () => draw(-1);
  entry.set = () => {};
  entry.kind = "array";
  entry.control = add;
  draw(-1);
  return finish(app, entry, n, "array");
}

function newValue(n) {
  const w = widget(n, undefined);
  if (w === "object" || w === "map") return {};
  if (w === "array") return [];
  if (w === "boolean") return false;
  if (w === "integer" || w === "number") return 0;
  if (w === "enum") return clone(n.enum[0]);
  return "";
}

// An object branch's starting value: its discriminators and defaults.
function branchDefaults(b) {
  const o = {};
  for (const p0 of b.properties || []) {
    const p = res(p0);
    if (has(p, "const")) o[p0.key] = clone(p.const);
    else if (p.enum && p.enum.length === 1) o[p0.key] = clone(p.enum[0]);
    else if (has(p, "default")) o[p0.key] = clone(p.default);
  }
  return o;
}

function focusFirst(el) {
  if (!el) return;
  const c = el.querySelector("input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea, summary");
  if (c) c.focus();
}

function focusBtn(items, i, which) {
  const it = items.children[i];
  if (!it) return;
  const b = it.querySelectorAll(".sd-item-bar button")[which === "up" ? 1 : 2];
  if (b && !b.disabled) b.focus(); else focusFirst(it);
}

// ---- maps (additionalProperties / patternProperties) -------------------------

export function renderMap(app, n, segs, depth, exclude) {
  const inner = !!exclude;
  const entry = inner ? { el: h("div", { class: "sd-map" }), id: pathId(segs) + "-map", segs } : shell(app, n, segs, "map", "sd-map");
  const { el, id } = entry;
  const p = pathText(segs);
  if (!inner) el.append(headRow(app, n, segs, id, null, "map"));
  const rows = h("div", { class: "sd-entries" });
  const add = textButton("add", "Add entry", "Add entry to " + p);
  const ctl = h("div", { class: "sd-control" }, add);
  if (!inner && n.nullable) { entry.rerenderOnNull = true; ctl.append(nullToggle(app, segs, p, id, entry)); }
  let pending = [];   // keys being typed, not in the values yet
  let shown = [];     // the keys whose fields are on the page
  const flagged = new Map();   // key -> why it is flagged (matches no pattern)
  const pager = new Pager("entries", p);
  const keysNow = () => {
    const v = app.get(segs);
    return isMap(v) ? Object.keys(v).filter((k) => !exclude || !exclude.has(k)) : [];
  };
  const draw = (focusKeyOf, at) => {
    for (const k of shown) app.unregisterUnder(segs.concat([k]), true);
    rows.textContent = "";
    const keys = keysNow();
    if (at !== undefined) pager.show(at);
    else if (focusKeyOf !== null && focusKeyOf !== undefined && keys.includes(focusKeyOf)) pager.show(keys.indexOf(focusKeyOf));
    const [from, to] = pager.range(keys.length);
    shown = keys.slice(from, to);
    // the entries being added come last, after the window's
    const all = shown.map((k, i) => ({ k, num: from + i + 1, pending: false })).concat(pending.map((k, i) => ({ k, num: keys.length + i + 1, pending: true })));
    for (const row of all) {
      const num = row.num;
      const ki = h("input", { type: "text", class: "sd-entry-key", "aria-label": "Key of " + p + " entry " + num, value: row.k, autocomplete: "off", spellcheck: "false", placeholder: "key" });
      const kerr = h("div", { class: "sd-error", id: id + "-k" + num, hidden: true });
      const rm = iconButton("remove", "Remove " + (row.k === "" ? p + " entry " + num : pathText(segs.concat([row.k]))));
      const box = h("div", { class: "sd-entry", "data-key": row.k }, h("div", { class: "sd-control" }, ki, rm), kerr);
      if (flagged.has(row.k)) {
        kerr.textContent = flagged.get(row.k); kerr.hidden = false;
        ki.setAttribute("aria-invalid", "true"); ki.setAttribute("aria-describedby", kerr.id);
      }
      // the key typed: checked, then the entry is added or renamed and the
      // focus goes to its value (Enter and Tab in the key do this at once)
      let committed = row.k;
      const commit = () => {
        const nk = ki.value;
        if (!row.pending && nk === row.k) return true;
        if (nk === committed && !row.pending) return true;
        const others = keysNow().filter((k) => row.pending || k !== row.k);
        let msg = null;
        if (nk === "") msg = "the key must not be empty";
        else if (others.includes(nk) || (!row.pending && nk !== row.k && pending.includes(nk))) msg = "duplicate key '" + nk + "'";
        let warn = null;
        if (!msg && n.patternProperties && !(n.additionalProperties && typeof n.additionalProperties === "object") && (n.properties || []).every((q) => q.key !== nk) &&
          !n.patternProperties.some((pp) => { try { return new RegExp(pp.pattern, "u").test(nk); } catch (e) { return true; } }))
          warn = "the key does not match " + n.patternProperties.map((pp) => pp.pattern).join(" or ");
        if (warn) flagged.set(nk, warn); else flagged.delete(nk);
        if (msg) {
          kerr.textContent = msg; kerr.hidden = false;
          ki.setAttribute("aria-invalid", "true"); ki.setAttribute("aria-describedby", kerr.id);
          return false;
        }
        committed = nk;
        kerr.hidden = true; ki.removeAttribute("aria-invalid"); ki.removeAttribute("aria-describedby");
        const cur = app.get(segs);
        const o = {};
        if (isMap(cur)) for (const k of Object.keys(cur)) Object.defineProperty(o, k === row.k && !row.pending ? nk : k, { value: cur[k], enumerable: true, writable: true, configurable: true });
        if (row.pending) {
          pending = pending.filter((k) => k !== row.k);
          const vn = res(memberNode(n, nk) || {});
          Object.defineProperty(o, nk, { value: has(vn, "default") ? clone(vn.default) : newValue(vn), enumerable: true, writable: true, configurable: true });
        }
        app.change(segs, o, { entry });
        draw(nk);
        return true;
      };
      ki.addEventListener("change", () => { if (ki.isConnected) commit(); });
      ki.addEventListener("keydown", (e) => {
        if (e.key !== "Enter" && !(e.key === "Tab" && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey)) return;
        if (!row.pending && ki.value === row.k) {
          if (e.key === "Enter") { e.preventDefault(); focusValue(rows, row.k, ki); }
          return;
        }
        e.preventDefault();
        if (!commit() && e.key === "Tab") return;
      });
      rm.addEventListener("click", () => {
        if (row.pending) pending = pending.filter((k) => k !== row.k);
        else {
          const cur = clone(app.get(segs));
          delete cur[row.k];
          app.change(segs, cur, { entry });
        }
        draw(null);
        add.focus();
      });
      if (!row.pending) {
        const vn = memberNode(n, row.k) || {};
        box.append(renderField(app, vn, segs.concat([row.k]), depth + 1, { open: true }));
      }
      rows.append(box);
      if (focusKeyOf !== null && focusKeyOf !== undefined && row.k === focusKeyOf && !app.noFocus) {
        if (row.pending) ki.focus(); else focusValue(rows, row.k, ki);
      }
    }
    const c = n.constraints || {};
    add.disabled = !!n.readOnly || (has(c, "maxProperties") && keys.length + pending.length >= c.maxProperties);
    const out = inner ? null : el.querySelector("output.sd-count");
    if (out) out.textContent = keys.length === 1 ? "1 entry" : keys.length.toLocaleString("en") + " entries";
  };
  pager.onMove = () => draw(null);
  app.pagers.set(pointer(segs) + (inner ? "#map" : ""), (k) => {
    const keys = keysNow();
    const i = keys.indexOf(String(k));
    if (i >= 0 && pager.show(i)) { app.noFocus = true; draw(null, i); app.noFocus = false; }
  });
  add.addEventListener("click", () => {
    if (pending.includes("")) { draw(""); return; }
    pending.push("");
    draw("");
  });
  el.append(ctl, rows, pager.nav);
  entry.rebuild = () => { pending = []; draw(null); };
  entry.set = () => {};
  entry.kind = "map";
  entry.control = add;
  draw(null);
  if (inner) return el;
  return finish(app, entry, n, "map");
}

// the value control of the entry with key `k` (or its key input)
function focusValue(rows, k, ki) {
  const box = [...rows.children].find((b) => b.dataset.key === k);
  // the entry's own value field (":scope >": not the key input, which is in the map's field too)
  const f = box && box.querySelector(":scope > .sd-field input, :scope > .sd-field select, :scope > .sd-field textarea, :scope > .sd-field summary");
  (f || ki).focus();
}

// ---- oneOf / anyOf ---------------------------------------------------------------

export function renderVariant(app, n, segs, depth, opts) {
  const p = pathText(segs);
  // a branch that is itself a choice, at the same path: its own select,
  // named apart ("Variant of PATH, within BRANCH"), never a second "Variant of PATH"
  const within = opts && opts.within ? opts.within : null;
  const lvl = within ? within.length : 0;
  const suffix = lvl ? "-" + lvl : "";
  const wrap = h("div", { class: "sd-variant", id: pathId(segs) + "-variant" + suffix, "data-path": p });
  const bs = branches(n);
  const sel = h("select", { "aria-label": "Variant of " + p + (within ? ", within " + within.join(", ") : ""), id: pathId(segs) + "-vsel" + suffix }, h("option", { value: "", text: "choose…" }));
  const names = branchLabels(bs);
  bs.forEach((b, i) => sel.append(h("option", { value: String(i), text: names[i] })));
  const ptr = pointer(segs) + (lvl ? "#" + lvl : "");
  let idx = app.variants.has(ptr) ? app.variants.get(ptr) : chooseBranch(n, app.get(segs));
  if (idx < 0 && app.get(segs) !== undefined) idx = 0;
  app.variants.set(ptr, idx);
  const body = h("div", { class: "sd-variant-body" });
  const label = h("div", { class: "sd-row" }, h("label", { class: "sd-path", for: pathId(segs) + "-vsel" + suffix, text: p }), n.title ? h("span", { class: "sd-title", text: n.title }) : null);
  let drawn = false;
  const draw = () => {
    if (drawn) app.unregisterUnder(segs, true);
    drawn = true;
    body.textContent = "";
    const i = app.variants.get(ptr);
    sel.value = i >= 0 ? String(i) : "";
    if (i < 0) return;
    const b = res(bs[i]);
    const merged = Object.assign({}, n, b);
    delete merged.oneOf; delete merged.anyOf;
    // n is resolved already: a ref left on the merge, or the allOf member whose
    // oneOf/anyOf res() lifted into n, would bring that oneOf back (endless recursion)
    delete merged.ref;
    if (n.allOf) {
      merged.allOf = n.allOf.filter((a) => { const r = res(a); return !(r.oneOf && r.oneOf === n.oneOf) && !(r.anyOf && r.anyOf === n.anyOf); });
      if (!merged.allOf.length) delete merged.allOf;
    }
    if (!b.title) merged.title = n.title;
    if (n.anchor) merged.anchor = n.anchor;
    if (b.doc === undefined) merged.doc = n.doc;
    merged.required = n.required;
    if (b.oneOf && b.oneOf.length > 1) merged.oneOf = b.oneOf;
    const inner = !!merged.oneOf;
    body.append(renderField(app, merged, segs, depth, Object.assign({}, opts, { open: true }, inner ? { within: (within || []).concat([names[i]]) } : {})));
  };
  sel.addEventListener("change", () => {
    const i = sel.value === "" ? -1 : Number(sel.value);
    app.variants.set(ptr, i);
    // switching drops the old branch's value and applies the new one's default
    const b = i >= 0 ? res(bs[i]) : null;
    const v = b === null ? undefined : has(b, "default") ? clone(b.default) : has(b, "const") ? clone(b.const)
      : widget(b, undefined) === "object" ? branchDefaults(b) : undefined;
    app.change(segs, v, {});
    draw();
  });
  wrap.append(label, h("div", { class: "sd-control" }, sel), body);
  draw();
  return wrap;
}
