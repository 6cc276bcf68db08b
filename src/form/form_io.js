// SPDX-License-Identifier: Apache-2.0
// form_io.js - values in and out (docs/form.md "How values flow"): the
// export (only changes or everything, into the imported document when there
// is one so its comments and order stay; the keys an import set pinned in
// "Only changes"; a ytt data-values file's header and list annotations),
// import of a values file with the
// keys the schema does not know (a large file read a slice at a time,
// form_bigyaml.js), download and copy.
// A mixin of the form's App (form_main.js), and the page's download/copy.
import { pathText, pointer, segsOfPointer } from "./form_path.js";
import { isMap, has, clone, getAt, overlaySteps, helmMerge, setOwn, leafPaths, withPinsSteps, runSteps } from "./form_values.js";
import { parseValues, toYaml, syncYaml } from "./form_yaml.js";
import { isMap as isYamlMap, isSeq as isYamlSeq, isScalar as isYamlScalar } from "yaml";
import { res, memberNode, widget } from "./form_schema.js";
import { h } from "./form_dom.js";
import { readLarge, nextTask, sliced, cloneSliced } from "./form_bigyaml.js";
import { yttOverlay, pruneUnknown } from "./form_ytt.js";
import { wholeAt } from "./form_free.js";

const $ = (id) => document.getElementById(id);
const LARGE_IMPORT = 256 * 1024;   // characters: a larger file is read a slice at a time
const UNKNOWN_SHOWN = 500;

export const ValuesIO = (Base) => class extends Base {
  exportValue() {
    return runSteps(this.exportSteps());
  }

  // exportValue() as a generator that yields now and then: a large import
  // runs it a slice at a time (form_bigyaml.js sliced())
  *exportSteps() {
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
      return all ? v : (yield* withPinsSteps(yield* overlaySteps(v, this.defaults), this.values, this.pins.values())) || {};
    }
    if (all && this.kind === "ytt") return pruneUnknown(this.form().root, everything(this.values, this.defaults));
    return all ? everything(this.values, this.defaults) : yield* withPinsSteps(yield* overlaySteps(this.values, this.defaults), this.values, this.pins.values());
  }

  // `shown`: the export as the preview shows it (form_secret.js), when not the real one
  exportText(shown) {
    const v = shown === undefined ? this.exportValue() : shown;
    const ytt = this.kind === "ytt";
    if (this.importedDoc) return syncYaml(this.importedDoc, v, ytt);
    return v === undefined || (isMap(v) && Object.keys(v).length === 0 && this.kind !== "crd") ? toYaml(undefined, ytt) : toYaml(v, ytt);
  }


  // ---- import -------------------------------------------------------------------
  // A file of more than LARGE_IMPORT characters is read a slice at a time
  // (form_bigyaml.js) with its progress shown, and the steps after it run as
  // separate tasks or a slice at a time (the pins, the copy, the unknown
  // keys, the export, the preview, the changes), so the page stays
  // responsive (docs/form.md).
  // opts.view: the text comes from the "Edit YAML" view (form_yamlview.js):
  // it is the whole export, so it is merged over the defaults (not over the
  // current values) and pins exactly its own keys; its errors go to the
  // view's alert, and `opts.unmask(v)` puts the real secrets back where the
  // text shows their mask.
  async importText(text, name = "the file", opts = {}) {
    const view = !!opts.view;
    const alert = view ? $("sd-yaml-error") : $("sd-import-error");
    const failed = view ? "The form keeps the last good values: " : "Import failed: ";
    const large = !view && text.length > LARGE_IMPORT;
    let r;
    if (large) {
      this.importing(name, 0);
      const big = await readLarge(text, (f) => this.importing(name, 0.8 * f));
      r = big ? { doc: null, value: big.value, texts: big.texts } : parseValues(text);
      this.importing(name, 0.85);
      await nextTask();
    } else r = parseValues(text);
    if (r.error) {
      this.importing(null);
      alert.textContent = failed + r.error;
      alert.hidden = false;
      return false;
    }
    alert.hidden = true;
    alert.textContent = "";
    let v = r.value;
    if (v === null || v === undefined) v = {};
    if (!isMap(v)) {
      this.importing(null);
      alert.textContent = failed + "line 1, column 1: the file is not a map of values";
      alert.hidden = false;
      return false;
    }
    if (opts.unmask) v = opts.unmask(v);
    this.userChange([], false);
    const base = view ? this.defaults : this.values;
    if (view) { this.pins = new Map(); this.yttAppended.clear(); }
    // ytt: each list as ytt makes it over the current one (appended unless annotated)
    if (this.kind === "ytt" && r.doc) {
      const y = yttOverlay(base, r.doc, text, v);
      v = y.value;
      for (const [p, s] of y.appended) this.yttAppended.set(p, s);
    }
    if (this.kind === "crd") {
      const api = typeof v.apiVersion === "string" ? v.apiVersion : "";
      const i = this.data.forms.findIndex((f) => api === (this.data.group ? this.data.group + "/" : "") + f.name);
      if (i >= 0 && i !== this.formIndex) { this.formIndex = i; const s = $("sd-version"); if (s) s.value = String(i); }
      this.defaults = this.makeDefaults();
    }
    this.imported = v;
    this.importedDoc = r.doc;
    if (large) { await sliced(pinPaths(this.pins, v)); await sliced(this.pinSetSteps()); }
    else for (const segs of leafPaths(v)) this.pins.set(pointer(segs), segs);
    const copy = large ? await sliced(cloneSliced(v)) : clone(v);
    if (large) await nextTask();   // the merge in a task of its own
    // Helm's merge: a null deletes a default, a null for a new key is kept
    // (a ytt data value's null is the value null)
    this.values = helmMerge(clone(base), copy, this.kind === "ytt");
    if (this.kind === "crd") { this.values.apiVersion = this.defaults.apiVersion; this.values.kind = this.defaults.kind; }
    if (this.values === null || typeof this.values !== "object") this.values = {};
    for (const p of [...this.setHere]) if (view || getAt(v, segsOfPointer(p, v)) !== undefined) this.setHere.delete(p);
    this.texts = r.doc ? numberTexts(r.doc) : r.texts;
    this.variants.clear();
    this.checkAll = true;
    this.previewReset();
    this.touched = new Set([""]);
    this.interacted = true;
    this.revealAll = true;
    if (large) { this.importing(name, 0.9); await nextTask(); }
    this.renderForm();
    if (large) await nextTask();
    this.drawUnknown(v, large ? await sliced(this.unknownKeys(v)) : null);
    if (large) {
      // the check in its own task; the export, the preview and the list of
      // changes a slice at a time (an import of 100,000 keys: no task over
      // 200 ms, tests/form/h-import-large.test.mjs)
      this.importing(name, 0.95);
      await nextTask();
      this.update({ preview: false });
      await nextTask();
      const ev = await sliced(this.exportSteps());
      await nextTask();
      this.drawPreview({ changes: false, text: await sliced(this.previewSteps(ev)) });
      await nextTask();
      this.drawChanges(await sliced(this.changedSteps()));
    } else this.schedule(true);
    this.importing(null);
    return true;
  }

  // The import's progress (name, fraction done), or none (null).
  importing(name, f) {
    const box = $("sd-import-progress");
    if (!box) return;
    if (name === null) { box.hidden = true; return; }
    box.hidden = false;
    const pct = Math.round(100 * (f || 0));
    box.querySelector("progress").value = pct;
    box.querySelector("span").textContent = "Importing " + name + ": " + pct + "%";
  }

  // The keys of `v` the schema does not know (and the defaults do not have),
  // listed under "Unknown keys". A generator (it yields now and then): a
  // large import runs it a slice at a time (form_bigyaml.js sliced()).
  *unknownKeys(v) {
    const list = [];
    let steps = 0;
    const walk = function* (n0, val, segs, depth) {
      if (depth > 50 || !isMap(val)) return;
      const n = res(n0);
      const w = widget(n, val);
      if (w === "free" || w === "any" || w === "variant") return;
      // below a map the templates hand on whole: no key is unknown (as to `validate`)
      if (wholeAt(this, segs)) return;
      const known = (n.properties || []).map((p) => p.key);
      const defv = this.def(segs);
      const dkeys = isMap(defv) ? Object.keys(defv) : [];
      const open = (n.additionalProperties && typeof n.additionalProperties === "object") || n.patternProperties;
      const dset = new Set(dkeys);
      for (const k of Object.keys(val)) {
        if (++steps % 1024 === 0) yield;
        const mn = memberNode(n, k);
        if (mn) { yield* walkVal(mn, val[k], segs.concat([k]), depth + 1); continue; }
        if (dset.has(k) || open) continue;
        // a key commented out in the chart's values.yaml is known, as to `validate`
        if (this.data.commented && commentedSet(this.data).has(dotted(segs, k))) continue;
        if (n.constraints && n.constraints.additionalProperties === true) continue;
        // the first UNKNOWN_SHOWN are listed (with a did-you-mean); the rest counted
        if (list.length >= UNKNOWN_SHOWN) { list.more = (list.more || 0) + 1; continue; }
        // the keys values.yaml writes as comments here are candidates too, as to `validate`
        const under = this.data.commented ? dotted(segs, "") : null;
        const cands = known.concat(dkeys, under === null ? [] : this.data.commented.filter((c) => c.startsWith(under) && !c.slice(under.length).includes(".")).map((c) => c.slice(under.length)));
        let best = null, bd = 1e9;
        for (const c of cands) { const d = distance(k, c); if (d < bd) { bd = d; best = c; } }
        list.push(pathText(segs.concat([k])) + (best !== null && bd <= Math.max(2, Math.floor(k.length / 3)) ? " (did you mean " + pathText(segs.concat([best])) + "?)" : ""));
      }
    }.bind(this);
    const walkVal = function* (n0, val, segs, depth) {
      const n = res(n0);
      if (Array.isArray(val) && n.items) {
        for (let i = 0; i < val.length; i++) {
          if (++steps % 1024 === 0) yield;
          yield* walkVal(n.items, val[i], segs.concat([i]), depth + 1);
        }
      } else yield* walk(n, val, segs, depth);
    };
    yield* walk(this.form().root, v, [], 0);
    return list;
  }

  drawUnknown(v, list) {
    if (!list) { const g = this.unknownKeys(v); for (let r = g.next(); ; r = g.next()) if (r.done) { list = r.value; break; } }
    const box = $("sd-unknown"), ul = $("sd-unknown-list");
    ul.textContent = "";
    for (const t of list) ul.append(h("li", { text: t }));
    if (list.more) ul.append(h("li", { class: "sd-more", text: "and " + list.more.toLocaleString("en") + " more" }));
    box.hidden = list.length === 0;
  }
};

// Pin each path that values `v` set (leafPaths(), form_values.js, in its
// order) in `pins` (pointer -> segments); a generator that yields now and
// then, for sliced() (form_bigyaml.js).
function* pinPaths(pins, v) {
  let n = 0;
  const walk = function* (x, segs, depth) {
    if (isMap(x) && depth < 500) {
      const keys = Object.keys(x);
      if (keys.length) {
        for (const k of keys) {
          if (++n % 2048 === 0) yield;
          yield* walk(x[k], segs.concat([k]), depth + 1);
        }
        return;
      }
    }
    if (segs.length) pins.set(pointer(segs), segs);
  };
  yield* walk(v, [], 0);
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

// the dotted path of key `k` under `segs`, as the page data's `commented`
// keys are written (the parent's path as helm-docs writes it, then the key)
function dotted(segs, k) {
  return segs.map((s) => (typeof s === "number" ? "[" + s + "]" : s)).concat([k]).join(".").replace(/\.\[/g, "[");
}
const COMMENTED = new WeakMap();
function commentedSet(data) {
  if (!COMMENTED.has(data)) COMMENTED.set(data, new Set(data.commented));
  return COMMENTED.get(data);
}

// The merged values, with `key: null` where a default was deleted: the file
// that, read over the defaults as Helm does, gives these values again.
export function everything(cur, base) {
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


export function download(app) {
  const text = app.exportText();
  const blob = new Blob([text], { type: "application/yaml" });
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: app.data.download });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  // html[data-downloads]: a count of the files handed to the browser (docs/form.md)
  const ds = document.documentElement.dataset;
  ds.downloads = String(Number(ds.downloads || 0) + 1);
}

export async function copy(app) {
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
