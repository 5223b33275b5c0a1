// Building the page: elements, tiles and the tile palette, and the tile notation the page writes.
import { currentLang, t } from "./i18n.js";

const HONOURS = { zh: ["东", "南", "西", "北", "白", "发", "中"], en: ["E", "S", "W", "N", "P", "F", "C"] };
const SUIT = { zh: { m: "万", p: "筒", s: "条" }, en: { m: "m", p: "p", s: "s" } };

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

export function say(text, bad, where) {
  const m = $(where || "message");
  m.textContent = text; m.className = `message${bad ? "" : " ok"}`;
  for (const k of ["code", "notice", "state", "race"]) delete m.dataset[k];
  if (!where || where === "message") $("retry").hidden = true;  // a write's 重试 goes with its own line only
}

function tileLabel(tile) {
  const n = Number(tile[0]), suit = tile[1];
  if (suit === "z") return [HONOURS[currentLang()][n - 1], ""];
  return [String(n), SUIT[currentLang()][suit]];
}
export function tileNode(tile, attrs) {
  const [big, small] = tileLabel(tile);
  return el("button", { type: "button", class: `tile ${tile[1]}`, "data-tile": tile, ...(attrs || {}) }, big, el("small", {}, small));
}

// each tile of the palette shows how many of it are left; a tile with none left is greyed, and refused when tapped
export function palette(container, variant, onTap, used) {
  container.replaceChildren(...variant.tiles.map((x) => {
    const left = 4 - (used[x.tile] || 0);
    const node = tileNode(x.tile, { title: x[currentLang()], "data-left": left, class: `tile ${x.tile[1]}${left <= 0 ? " out" : ""}`, onclick: () => onTap(x.tile) });
    node.append(el("i", {}, `×${left}`));
    return node;
  }));
}

export function countTiles(lists) {
  const used = {};
  for (const list of lists) for (const x of list) used[x] = (used[x] || 0) + 1;
  return used;
}

// the meld modes a variant's entry offers (chows only where the ruleset has them)
export function meldModes(variant) { return ["hand", "pung", "kong", ...(variant.chow_melds ? ["chow"] : []), "ckong"]; }
export function modeButtons(container, modes, current, pick) {
  container.replaceChildren(...modes.map((m) => el("button", { type: "button", class: current === m ? "on" : "", "data-mode": m,
    onclick: () => pick(m) }, t(`mode_${m}`))));
}

// tiles in the notation the page writes (123m45p...), as single tiles; null for any other notation
export function parseTiles(text) {
  const out = []; let digits = [];
  for (const ch of String(text).replace(/\s+/g, "")) {
    if (ch >= "0" && ch <= "9") digits.push(ch);
    else if ("mpsz".includes(ch) && digits.length) { for (const d of digits) out.push(d + ch); digits = []; }
    else return null;
  }
  return digits.length ? null : out;
}
export function parseMeld(text, concealed) {
  const [body, source] = String(text).split("@");
  const tiles = parseTiles(body);
  if (!tiles || tiles.length < 3 || tiles.length > 4) return null;
  const kind = concealed ? "ckong" : tiles.length === 4 ? "kong" : tiles[0] === tiles[1] ? "pung" : "chow";
  return { kind, tiles, text: body, source: source || "" };
}
