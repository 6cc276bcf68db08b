// SPDX-License-Identifier: Apache-2.0
// form_k8s.js - editors for Kubernetes types (issue 43, docs/form.md
// "Kubernetes types"): a quantity as a number and a unit (`500m`, `1Gi`,
// written as the string the user meant, never a float), a
// ResourceRequirements whose `limits` and `requests` always offer `cpu`
// and `memory`, and a probe's (or a lifecycle hook's) handlers as one
// choice: exactly one of `exec`, `httpGet`, `tcpSocket`, `grpc`, switched
// without touching the timing fields beside them.
// In: the page's model nodes (a Kubernetes definition's node has its
// `ref`, "def-io.k8s.api.core.v1.Probe"). Out: DOM controls that change the
// values through the app, as the other fields do.
import { h } from "./form_dom.js";
import { pathText, pathId, pointer } from "./form_path.js";
import { isMap, has } from "./form_values.js";

const DEF = "def-io.k8s.";
const QUANTITY = "apimachinery.pkg.api.resource.Quantity";
const REQS = "api.core.v1.ResourceRequirements";
// the definitions whose handlers are one choice (Probe; LifecycleHandler of
// postStart/preStop), and the handler fields, in the order offered
const HANDLED = ["api.core.v1.Probe", "api.core.v1.LifecycleHandler"];
const HANDLERS = ["exec", "httpGet", "tcpSocket", "grpc", "sleep"];

// Whether node `n` is a `$ref` to definition `name` ("api.core.v1.Probe"):
// ours ("def-io.k8s.api.core.v1.Probe"), a chart's own into the Kubernetes
// document (the same name, "-2" when two share it) or bjw-s' "core.v1.Probe"
function isDef(n, name) {
  if (typeof n.ref !== "string" || !n.ref.startsWith(DEF.slice(0, 4))) return false;
  const id = n.ref.slice(4).replace(/-[0-9]+$/, "");
  const tail = name.replace(/^api\./, "");
  return id === DEF.slice(4) + name || id === tail || id.endsWith("." + tail);
}

// ---- quantities -------------------------------------------------------------------

// resource.ParseQuantity's grammar (formats.js checkQuantity): the number,
// then a suffix or an exponent
const QRE = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?$/;
const UNITS = {
  cpu: [["", "cores"], ["m", "m (millicores)"]],
  memory: [["", "bytes"], ["Ki", "Ki"], ["Mi", "Mi"], ["Gi", "Gi"], ["Ti", "Ti"], ["k", "k"], ["M", "M"], ["G", "G"]],
  any: [["", "(none)"], ["m", "m"], ["k", "k"], ["M", "M"], ["G", "G"], ["T", "T"], ["Ki", "Ki"], ["Mi", "Mi"], ["Gi", "Gi"], ["Ti", "Ti"]],
};
const FIRST_UNIT = { cpu: "m", memory: "Mi", any: "" };
const AS_TYPED = "=";

// Whether node `n` is a quantity: Kubernetes' Quantity, or `format: quantity`.
export function isQuantity(n) {
  return isDef(n, QUANTITY) || (!!n.constraints && n.constraints.format === "quantity");
}

// which units a quantity at `segs` offers: by its key, as Kubernetes names resources
function unitKind(segs) {
  const key = String(segs.length ? segs[segs.length - 1] : "");
  if (key === "cpu") return "cpu";
  if (key === "memory" || key === "ephemeral-storage" || key === "storage" || key.startsWith("hugepages-")) return "memory";
  return "any";
}

// The controls of a quantity field into `ctl`: the number (the control the
// label names; `cid`), its unit, a "null" mark. `commit(v, text)` changes
// the value. Returns the number input; sets entry.set.
export function quantityControl(entry, ctl, cid, p, segs, commit) {
  const kind = unitKind(segs);
  const num = h("input", { type: "text", id: cid, class: "sd-qty", inputmode: "decimal", autocomplete: "off", spellcheck: "false", title: "a number, or a whole quantity such as 500m or 1Gi" });
  const unit = h("select", { id: cid + "-unit", class: "sd-qty-unit", "aria-label": "Unit of " + p });
  for (const [v, t] of UNITS[kind]) unit.append(h("option", { value: v, text: t }));
  unit.value = FIRST_UNIT[kind];
  const known = new Set(UNITS[kind].map((u) => u[0]));
  const mark = h("span", { class: "sd-null-mark", text: "null" });
  mark.hidden = true;
  // the text typed: a number takes the unit chosen; a whole quantity
  // (`1.5Pi`, `1e3`) or any other text is the value as typed, which the
  // check then takes or reports
  const asTyped = (on) => {
    let o = unit.querySelector("option[data-typed]");
    if (on && !o) { o = h("option", { value: AS_TYPED, "data-typed": "1", text: "as typed" }); unit.append(o); }
    if (on) unit.value = AS_TYPED;
    else if (o) { if (unit.value === AS_TYPED) unit.value = FIRST_UNIT[kind]; o.remove(); }
  };
  num.addEventListener("input", () => {
    const t = num.value.trim();
    if (t === "") return commit(undefined, "");
    const m = QRE.exec(t);
    if (m && m[2] === undefined) {
      if (unit.value === AS_TYPED) asTyped(false);
      return commit(m[1] + unit.value, t);
    }
    if (m && known.has(m[2])) { asTyped(false); unit.value = m[2]; }
    else asTyped(true);
    commit(t, t);
  });
  // leaving the field: "500m" typed whole shows as 500 and m
  num.addEventListener("change", () => {
    const m = QRE.exec(num.value.trim());
    if (m && m[2] !== undefined && known.has(m[2])) num.value = m[1];
  });
  unit.addEventListener("change", () => {
    const m = QRE.exec(num.value.trim());
    if (unit.value === AS_TYPED) return;
    asTyped(false);
    if (m) { num.value = m[1]; commit(m[1] + unit.value); }
  });
  entry.set = (v) => {
    mark.hidden = v !== null;
    if (document.activeElement === num) return;
    if (v === undefined || v === null) { num.value = ""; asTyped(false); return; }
    if (typeof v === "number") { num.value = String(v); asTyped(false); unit.value = ""; return; }
    const s = typeof v === "string" ? v : JSON.stringify(v);
    const m = QRE.exec(s.trim());
    if (m && (m[2] === undefined || known.has(m[2]))) { num.value = m[1]; asTyped(false); unit.value = m[2] || ""; }
    else { num.value = s; asTyped(true); }
  };
  ctl.append(num, unit, mark);
  entry.unit = unit;   // disabled with the number when the field is read-only
  return num;
}

// ---- ResourceRequirements: limits and requests offer cpu and memory --------------

const shaped = new WeakMap();

// `n` (resolved) with `cpu` and `memory` among the properties of its
// `limits` and `requests` when it is a ResourceRequirements; else `n`.
export function k8sShape(n) {
  if (!isDef(n, REQS) || !Array.isArray(n.properties)) return n;
  if (shaped.has(n)) return shaped.get(n);
  const out = Object.assign({}, n);
  out.properties = n.properties.map((p) => {
    if ((p.key !== "limits" && p.key !== "requests") || !isMap(p.additionalProperties)) return p;
    // cpu and memory first (the chart's own, else new ones), then its other keys
    const own = p.properties || [];
    const first = [["cpu", "CPU"], ["memory", "Memory"]].map(([k, t]) => own.find((q) => q.key === k) ||
      Object.assign({}, p.additionalProperties, { key: k, title: t, fromValues: false }));
    return Object.assign({}, p, { properties: first.concat(own.filter((q) => q.key !== "cpu" && q.key !== "memory")) });
  });
  shaped.set(n, out);
  return out;
}

// ---- handlers as one choice ------------------------------------------------------

// The handler keys of object node `n` (a Probe, a LifecycleHandler), in
// HANDLERS' order; null when it has none.
export function handlerKeys(n) {
  if (!HANDLED.some((d) => isDef(n, d))) return null;
  const ks = HANDLERS.filter((k) => (n.properties || []).some((p) => p.key === k));
  return ks.length > 1 ? ks : null;
}

// "Handler of PATH": a select of the handlers and, below it, the chosen
// one's field (`render(node, segs)` builds a field). Choosing another drops
// the others' values (a default's handler is written as `null` in the
// export, which Helm's merge reads as deleting it) and keeps the rest.
export function handlerChoice(app, n, segs, ks, render) {
  const p = pathText(segs);
  const id = pathId(segs) + "-handler";
  const ptr = pointer(segs) + "#handler";
  const wrap = h("div", { class: "sd-handler" });
  const sel = h("select", { id, "aria-label": "Handler of " + p }, h("option", { value: "", text: "none" }));
  for (const k of ks) sel.append(h("option", { value: k, text: k }));
  const slot = h("div", { class: "sd-handler-body" });
  const present = () => { const v = app.get(segs); return ks.filter((k) => isMap(v) && has(v, k)); };
  const draw = () => {
    for (const k of ks) app.unregisterUnder(segs.concat([k]), true);
    slot.textContent = "";
    const chosen = app.variants.has(ptr) ? app.variants.get(ptr) : present()[0] || "";
    sel.value = chosen;
    // the chosen handler, and any other the values hold (the API server
    // takes exactly one: they show, and go when one is chosen)
    const show = chosen ? [chosen].concat(present().filter((k) => k !== chosen)) : present();
    for (const k of show) {
      const node = (n.properties || []).find((q) => q.key === k);
      if (node) slot.append(render(node, segs.concat([k])));
    }
  };
  sel.addEventListener("change", () => {
    const k = sel.value;
    app.variants.set(ptr, k);
    for (const o of present()) if (o !== k) app.change(segs.concat([o]), undefined, {});
    draw();
    app.flush();
  });
  wrap.append(h("div", { class: "sd-row" }, h("label", { class: "sd-path", for: id, text: "handler" }),
    h("span", { class: "sd-title", text: "exactly one of " + ks.join(", ") })), h("div", { class: "sd-control" }, sel), slot);
  draw();
  return wrap;
}
