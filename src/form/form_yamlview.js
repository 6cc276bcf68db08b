// SPDX-License-Identifier: Apache-2.0
// form_yamlview.js - the "Edit YAML" tab beside the values preview
// (docs/form.md "The YAML view"): the export as editable text; typing there
// is applied after a pause as an import of the whole text is (form_io.js
// importText with opts.view: the same parse errors with line and column, the
// same checks and unknown keys), merged over the defaults; an invalid text
// shows its error and the form keeps the last good values. The form's edits
// write the text again from the imported document, so the user's comments
// and key order stay (form_yaml.js syncYaml). Secret values are shown
// masked (form_secret.js) and a mask in the text stands for the value the
// form holds, never for the string "********". Undo and redo (form_session.js)
// cover both sides: each applied text is one step.
// A mixin of the form's App (form_main.js).
import { parseValues } from "./form_yaml.js";
import { getAt, setAt, deleteAt, equal } from "./form_values.js";
import { maskSecrets, MASK } from "./form_secret.js";

const $ = (id) => document.getElementById(id);
export const YAML_PAUSE = 600;   // ms after the last keystroke before the text is applied

export const YamlView = (Base) => class extends Base {
  wireYamlView() {
    const ta = $("sd-yaml-edit");
    if (!ta) return;
    this.yv = { timer: 0, bad: false, applying: false, replace: false, open: false };
    const tabs = [$("sd-tab-preview"), $("sd-tab-edit")];
    tabs.forEach((t, i) => {
      t.addEventListener("click", () => this.showYamlTab(i === 1));
      // the arrow keys move between the two tabs (WAI-ARIA tabs pattern)
      t.addEventListener("keydown", (e) => {
        if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
        e.preventDefault();
        const o = tabs[1 - i];
        o.focus();
        this.showYamlTab(o === tabs[1]);
      });
    });
    ta.addEventListener("input", () => {
      clearTimeout(this.yv.timer);
      this.yv.timer = setTimeout(() => this.applyYamlView(), YAML_PAUSE);
    });
    ta.addEventListener("blur", () => this.yamlViewFlush());
  }

  showYamlTab(edit) {
    if (!this.yv) return;
    if (!edit) this.yamlViewFlush();
    this.yv.open = edit;
    $("sd-tab-preview").setAttribute("aria-selected", String(!edit));
    $("sd-tab-edit").setAttribute("aria-selected", String(edit));
    $("sd-tab-preview").tabIndex = edit ? -1 : 0;
    $("sd-tab-edit").tabIndex = edit ? 0 : -1;
    $("sd-preview-pane").hidden = edit;
    $("sd-yaml-pane").hidden = !edit;
    if (edit) this.drawYamlView(true);
  }

  // The export as the view shows it: every secret string masked.
  yamlViewText() {
    const v = this.exportValue();
    return v === undefined ? this.exportText() : this.exportText(maskSecrets(this.form().root, v));
  }

  // Write the export into the view. Unless `force`, a text being typed
  // (a pause not reached yet) or an invalid one is left as it is, and so is
  // a focused text that already says the same values (the user's own
  // spacing and caret stay while typing).
  drawYamlView(force) {
    const ta = $("sd-yaml-edit");
    if (!ta || !this.yv || !this.yv.open) return;
    if (!force && (this.yv.timer || this.yv.bad || this.yv.applying)) return;
    const text = this.yamlViewText();
    if (ta.value === text) return;
    const focused = document.activeElement === ta;
    if (!force) {
      // a text that does not parse is the user's to mend: only an undo
      // or a redo (yamlViewReset, then a redraw) replaces it
      const a = parseValues(ta.value);
      if (a.error && !this.yv.replace) return;
      if (focused) {
        const b = parseValues(text);
        if (!b.error && equal(a.value, b.value)) return;
      }
    }
    const at = ta.selectionStart;
    this.yv.replace = false;
    ta.value = text;
    if (focused) ta.selectionStart = ta.selectionEnd = Math.min(at, text.length);
  }

  // A keystroke pending: apply the text now (before an undo, on blur).
  yamlViewFlush() {
    if (this.yv && this.yv.timer) { clearTimeout(this.yv.timer); this.applyYamlView(); }
  }

  // An undo or redo: the view shows the values it brought back.
  yamlViewReset() {
    if (!this.yv) return;
    clearTimeout(this.yv.timer);
    this.yv.timer = 0;
    this.yv.bad = false;
    this.yv.replace = true;   // the next redraw replaces even an invalid text
    const err = $("sd-yaml-error");
    if (err) { err.hidden = true; err.textContent = ""; }
  }

  applyYamlView() {
    const ta = $("sd-yaml-edit");
    this.yv.timer = 0;
    this.yv.bad = false;
    this.yv.applying = true;   // no redraw replaces the text until it is read
    // importText() runs to its end at once for the view (no large-file slices)
    this.importText(ta.value, "the YAML view", { view: true, unmask: (v) => this.unmask(v) }).then((ok) => {
      this.yv.applying = false;
      this.yv.bad = !ok;
      // a secret typed in clear is masked again at once (the focused text
      // would otherwise keep it in the page)
      if (ok) this.drawYamlView(false);
    });
  }

  // `v` (the view's values) with each MASK at a secret's path replaced by
  // the value the form holds there; a mask with no value behind it is
  // dropped (the key then keeps its default), never taken as the value.
  unmask(v) {
    const found = new Map();
    maskSecrets(this.form().root, v, found);
    for (const segs of found.values()) {
      if (getAt(v, segs) !== MASK) continue;
      const real = getAt(this.values, segs);
      if (typeof real === "string" && real !== "" && real !== MASK) v = setAt(v, segs, real);
      else deleteAt(v, segs);
    }
    return v;
  }
};
