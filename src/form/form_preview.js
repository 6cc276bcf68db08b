// SPDX-License-Identifier: Apache-2.0
// form_preview.js - what the side panel shows of the export (docs/form.md):
// the YAML preview and the --set flags, redrawn a line at a time (only the
// lines that changed are replaced in the page), the text written in pieces
// (form_pieces.js) so a change writes again only what it touched, and the
// first PREVIEW_LINES lines of a very large export; the empty preview says
// what to do; the "Changes" region lists the fields that differ from the
// defaults (each with its default) and, opened, the diff of the export
// against the chart's values.yaml.
// A mixin of the form's App (form_main.js).
import { pathText, pathId } from "./form_path.js";
import { isMap, has, equal, runSteps } from "./form_values.js";
import { toYaml } from "./form_yaml.js";
import { isSecret } from "./form_schema.js";
import { setFlags } from "./form_flags.js";
import { pieces, bigger } from "./form_pieces.js";
import { h, show } from "./form_dom.js";
import { lineDiff } from "./form_diff.js";
import { everything } from "./form_io.js";
import { maskSecrets, maskSteps } from "./form_secret.js";

const $ = (id) => document.getElementById(id);

export const PREVIEW_LINES = 1000;
const FLAG_VALUES = 2000;    // more values than this: no --set flags
const CHANGES_SHOWN = 200;
const DIFF_LINES = 20000;

// The lines of `text`, each with its newline.
function lines(text) {
  return text === "" ? [] : text.match(/[^\n]*\n|[^\n]+$/g);
}

// Make `pre` show `text`, replacing only the lines that differ from what it
// shows (one text node a line; `st` remembers them).
export function setLines(pre, st, text) {
  const b = lines(text);
  if (st.pre !== pre || pre.childNodes.length !== st.nodes.length || (st.nodes.length && st.nodes[0].parentNode !== pre)) {
    pre.textContent = "";
    st.pre = pre; st.lines = []; st.nodes = [];
  }
  const a = st.lines;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  let j = 0;
  while (j < a.length - i && j < b.length - i && a[a.length - 1 - j] === b[b.length - 1 - j]) j++;
  const after = st.nodes[a.length - j] || null;
  for (let k = i; k < a.length - j; k++) st.nodes[k].remove();
  const fresh = [];
  for (let k = i; k < b.length - j; k++) {
    const t = document.createTextNode(b[k]);
    pre.insertBefore(t, after);
    fresh.push(t);
  }
  st.nodes.splice(i, a.length - j - i, ...fresh);
  st.lines = b;
  return b.length - j - i;
}

export const Preview = (Base) => class extends Base {
  // the export's text changed below `segs` (the pieces there are written again)
  previewDirty(segs) {
    if (!this.pdirty) this.pdirty = [];
    this.pdirty.push(segs);
  }

  // everything is written again (an import, a new version, Reset all)
  previewReset() {
    this.pcache = new Map();
    this.pdirty = [];
  }

  previewText(v) {
    return runSteps(this.previewSteps(v));
  }

  // previewText() as a generator that yields between pieces: a large import
  // runs it a slice at a time (form_bigyaml.js sliced()). `v`: the export
  // value when it is made already.
  *previewSteps(v = this.exportValue()) {
    const mode = document.querySelector("input[name=sd-export]:checked");
    const m = (mode ? mode.value : "changes") + (this.importedDoc ? ":doc" : "");
    if (m !== this.pmode) { this.pmode = m; this.previewReset(); }
    const empty = v === undefined || (isMap(v) && Object.keys(v).length === 0 && this.kind !== "crd");
    // secret values are printed masked (Download and Copy write them)
    const secrets = new Map();
    const shown = v === undefined ? v : yield* maskSteps(this.form().root, v, secrets);
    // the file's comments and order; a ytt file's list annotations (ytt schemas are small)
    if (this.importedDoc || this.kind === "ytt") return { text: this.exportText(shown), empty, more: false, v, secrets };
    if (empty) return { text: "", empty, more: false, v, secrets };
    const fresh = new Map();
    let n = 0, more = false;
    const parts = [];
    for (const p of pieces(shown, this.pcache || new Map(), fresh, this.pdirty || [])) {
      if (n >= PREVIEW_LINES) { more = true; break; }
      parts.push(p);
      for (let i = p.indexOf("\n"); i >= 0; i = p.indexOf("\n", i + 1)) n++;
      yield;
    }
    this.pcache = fresh;
    this.pdirty = [];
    return { text: parts.join(""), empty, more, v, secrets };
  }

  // opts.text: previewText() made already; opts.changes: false to leave the
  // Changes region as it is
  drawPreview(opts = {}) {
    const t0 = performance.now();
    const r = opts.text || this.previewText();
    if (!this.pst) this.pst = { flags: {}, text: {} };
    const pre = $("sd-preview");
    this.plines = setLines(pre, this.pst.text, r.text);
    // an empty export: say what to do, not an empty box
    const note = $("sd-preview-empty");
    if (note) { note.hidden = !r.empty; pre.hidden = r.empty; }
    const more = $("sd-preview-more");
    if (more) {
      more.hidden = !r.more;
      if (r.more) more.textContent = "The preview shows the first " + PREVIEW_LINES.toLocaleString("en") + " lines: Download or Copy give the whole file.";
    }
    const flags = $("sd-flags");
    if (flags) {
      let t = "";
      if (this.kind === "chart" && r.v !== undefined && !r.empty)
        t = bigger(r.v, FLAG_VALUES) ? "# more than " + FLAG_VALUES.toLocaleString("en") + " values: pass them as a values file (-f values.yaml)\n" : setFlags(r.v, r.secrets);
      setLines(flags, this.pst.flags, t);
      flags.hidden = t === "";
      flags.parentElement.hidden = t === "";
    }
    this.pcost = performance.now() - t0;
    // the "Edit YAML" tab, when open (form_yamlview.js)
    if (this.drawYamlView) this.drawYamlView(false);
    if (opts.changes !== false) this.drawChanges();
  }

  // ---- what changed ---------------------------------------------------------------
  // The fields whose value differs from the default: [{segs, was, now}]
  // (`was` undefined: added; `now` undefined: removed). Maps are compared
  // key by key, lists of the same length item by item.
  changedFields(limit) {
    return runSteps(this.changedSteps(limit));
  }

  // changedFields() as a generator that yields now and then (a large import
  // runs it a slice at a time)
  *changedSteps(limit = CHANGES_SHOWN) {
    const out = [];
    let total = 0, n = 0;
    const walk = function* (cur, def, segs, depth) {
      if (++n % 1024 === 0) yield;
      if (equal(cur, def)) return;
      if (depth < 60 && isMap(cur) && isMap(def)) {
        for (const k of Object.keys(cur)) yield* walk(cur[k], has(def, k) ? def[k] : undefined, segs.concat([k]), depth + 1);
        for (const k of Object.keys(def)) if (!has(cur, k)) yield* walk(undefined, def[k], segs.concat([k]), depth + 1);
        return;
      }
      if (depth < 60 && Array.isArray(cur) && Array.isArray(def) && cur.length === def.length) {
        for (let i = 0; i < cur.length; i++) yield* walk(cur[i], def[i], segs.concat([i]), depth + 1);
        return;
      }
      total++;
      if (out.length < limit) out.push({ segs, was: def, now: cur });
    };
    yield* walk(this.values, this.defaults, [], 0);
    out.total = total;
    return out;
  }

  // `list`: changedSteps()' list, when it is made already
  drawChanges(list) {
    const box = $("sd-changes");
    if (!box) return;
    if (!list) list = this.changedFields(CHANGES_SHOWN);
    const key = list.total + "\n" + list.map((c) => pathText(c.segs) + "\u0000" + show(c.was) + "\u0000" + show(c.now)).join("\n");
    if (key !== this.changesKey) {
      this.changesKey = key;
      const n = list.total;
      $("sd-changes-title").textContent = n === 0 ? "No changes" : n === 1 ? "1 change" : n.toLocaleString("en") + " changes";
      const ul = $("sd-changes-list");
      ul.textContent = "";
      const clip = (s) => (s.length > 80 ? s.slice(0, 79) + "…" : s);
      for (const c of list) {
        // a masked field's value and default are not printed in clear here either
        const node = typeof c.now === "string" || typeof c.was === "string" ? this.truth.nodeAt(c.segs) : null;
        const secret = (typeof c.now === "string" || typeof c.was === "string") && isSecret(node || {}, c.segs);
        const say = (v) => (secret && typeof v === "string" ? "(hidden)" : clip(show(v)));
        const a = h("a", { href: "#" + pathId(c.segs), text: pathText(c.segs) || "(root)" });
        a.addEventListener("click", (ev) => { ev.preventDefault(); this.reveal(c.segs, true); });
        const li = h("li", null, a, " ");
        if (c.now === undefined) li.append(h("span", { class: "sd-now", text: "removed" }), " ", h("span", { class: "sd-was", text: "default " + say(c.was) }));
        else {
          li.append(h("span", { class: "sd-now", text: say(c.now) }));
          li.append(" ", h("span", { class: "sd-was", text: c.was === undefined ? "new key" : "default " + say(c.was) }));
        }
        ul.append(li);
      }
      if (n > list.length) ul.append(h("li", { class: "sd-more", text: "and " + (n - list.length).toLocaleString("en") + " more" }));
    }
    const det = $("sd-diff-box");
    if (det && det.open) this.drawDiff();
  }

  // The export (Everything) against the defaults, as a unified diff.
  drawDiff() {
    const pre = $("sd-diff");
    if (!pre) return;
    const root = this.form().root;
    if (this.defaultsText === undefined) this.defaultsText = toYaml(maskSecrets(root, this.defaults));
    const all = this.kind === "chart" || this.kind === "ytt" ? everything(this.values, this.defaults) : this.values;
    const b = toYaml(maskSecrets(root, all));
    const key = b;
    if (key === this.diffKey) return;
    this.diffKey = key;
    pre.textContent = "";
    const la = lines(this.defaultsText), lb = lines(b);
    if (la.length > DIFF_LINES || lb.length > DIFF_LINES) {
      pre.append("# too large to compare here (" + Math.max(la.length, lb.length).toLocaleString("en") + " lines): download the file and compare it with diff\n");
      return;
    }
    const hunks = lineDiff(la, lb, 3);
    if (!hunks.length) { pre.append("# no difference\n"); return; }
    const frag = document.createDocumentFragment();
    for (const hk of hunks) {
      frag.append(h("span", { class: "sd-diff-at", text: "@@ -" + (hk.a + 1) + "," + hk.an + " +" + (hk.b + 1) + "," + hk.bn + " @@\n" }));
      for (const [op, t] of hk.lines) {
        const line = op + t + (t.endsWith("\n") ? "" : "\n");
        frag.append(op === " " ? document.createTextNode(line) : h(op === "+" ? "ins" : "del", { text: line }));
      }
    }
    pre.append(frag);
  }
};
