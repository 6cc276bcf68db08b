import path from "node:path";
import { form, open, closeBrowser, reveal, CORPUS } from "./harness.mjs";
const MAPS = ["--map", `https://raw.githubusercontent.com/=${CORPUS}/charts/_remote/raw.githubusercontent.com/`, "--offline"];
const p = await open(form(path.join(CORPUS, "charts", "bitnami-postgresql"), MAPS), { readyTimeout: 60000 });
console.log(await p.page.evaluate(() => [...document.querySelectorAll("[data-path]")].slice(0,40).map(e => e.dataset.path).join(" "))); console.log(await p.page.evaluate(() => [...document.querySelectorAll("button, [role=tab], input[type=radio]")].slice(0,30).map(e => (e.getAttribute("aria-label")||e.textContent||e.value).slice(0,30)).join(" / ")));
console.log(await p.page.evaluate(() => [...document.querySelectorAll("[data-path^='tls']")].map(e => e.dataset.path + ":" + e.tagName).join(" ")));
console.log(await p.page.evaluate(() => [...document.querySelectorAll("[data-path='tls'] label")].map(e => e.textContent).join(" | ")));
await p.close(); await closeBrowser();
