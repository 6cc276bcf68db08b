// SPDX-License-Identifier: Apache-2.0
// form_icons.js - the small pictures on the form's per-field buttons (reset,
// remove, move up and down, show a secret, add), drawn as inline SVG built
// with createElementNS (no HTML text, nothing fetched). An icon button's
// accessible name is its aria-label, which says the action and the path
// ("Remove hosts[0]"); its title shows the same on hover.
import { h } from "./form_dom.js";

const NS = "http://www.w3.org/2000/svg";
// 16x16 outlines, stroked in the text colour
const PATHS = {
  reset: ["M3.5 8a4.5 4.5 0 1 0 1.3-3.2", "M4.5 1.8v3h3"],
  remove: ["M4 4l8 8", "M12 4l-8 8"],
  up: ["M8 13V3", "M3.5 7.5L8 3l4.5 4.5"],
  down: ["M8 3v10", "M3.5 8.5L8 13l4.5-4.5"],
  show: ["M1.5 8s2.4-4.5 6.5-4.5S14.5 8 14.5 8s-2.4 4.5-6.5 4.5S1.5 8 1.5 8z", "M8 6.2a1.8 1.8 0 1 0 0 3.6a1.8 1.8 0 1 0 0-3.6z"],
  add: ["M8 3v10", "M3 8h10"],
  edit: ["M3 13l1-3 7-7 2 2-7 7z"],
  expand: ["M4 6l4 4 4-4"],
  collapse: ["M4 10l4-4 4 4"],
  prev: ["M10 3.5L5.5 8l4.5 4.5"],
  next: ["M6 3.5L10.5 8 6 12.5"],
};

export function icon(name) {
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "16");
  svg.setAttribute("height", "16");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", "sd-icon");
  for (const d of PATHS[name] || []) {
    const p = document.createElementNS(NS, "path");
    p.setAttribute("d", d);
    svg.append(p);
  }
  return svg;
}

// A button showing only icon `name`, named `label`.
export function iconButton(name, label, attrs = {}) {
  const b = h("button", Object.assign({ type: "button", class: "sd-icon-btn", "aria-label": label, title: label }, attrs));
  b.append(icon(name));
  return b;
}

// A button with an icon and visible `text`, named `label` (which contains
// the text, so speech input finds it by what it shows).
export function textButton(name, text, label, attrs = {}) {
  const b = h("button", Object.assign({ type: "button", class: "sd-text-btn", "aria-label": label }, attrs));
  b.append(icon(name), h("span", { text }));
  return b;
}
