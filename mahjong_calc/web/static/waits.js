// The waits view: the 13 tiles before the win, with melds and the 财神, and what each winning tile is worth.
import { sayProblem, tileName, variantOf } from "./catalog.js";
import { $, countTiles, el, meldModes, modeButtons, palette, say, tileNode } from "./dom.js";
import { currentLang, t } from "./i18n.js";

export function createWaits(home, gameVariant) {
  const view = { tiles: [], melds: [], mode: "hand", wild: "" };
  const variant = () => variantOf($("waits-variant").value || gameVariant());
  const count = () => view.tiles.length + 3 * view.melds.length;
  const used = () => countTiles([view.tiles, ...view.melds.map((m) => m.tiles), view.wild ? [view.wild] : []]);

  function render() {
    const v = variant();
    if (!v) return;
    const modes = meldModes(v);
    if (!modes.includes(view.mode)) view.mode = "hand";
    modeButtons($("waits-modes"), modes, view.mode, (m) => { view.mode = m; render(); });
    const hasWild = (v.flags || []).some((f) => f.name === "wild");
    $("waits-wild-wrap").hidden = !hasWild;
    if (!hasWild) view.wild = "";
    $("waits-wild").replaceChildren(el("option", { value: "" }, "—"), ...v.tiles.map((x) => el("option", { value: x.tile }, x[currentLang()])));
    $("waits-wild").value = view.wild;
    palette($("waits-palette"), v, tap, used());
    $("waits-tiles").replaceChildren(...view.tiles.map((x, i) => tileNode(x, { onclick: () => { view.tiles.splice(i, 1); render(); } })));
    $("waits-melds").replaceChildren(...view.melds.map((m, i) => el("span", { class: "meld", "data-meld": m.text },
      ...m.tiles.map((x) => tileNode(x, { onclick: () => { view.melds.splice(i, 1); render(); } })))));
    $("waits-count").textContent = count();
  }

  function tap(tile) {
    const n = Number(tile[0]), suit = tile[1];
    const have = used();
    let tiles = [tile];
    if (view.mode === "chow") {
      if (suit === "z" || n > 7) { say(t("chow_range"), true, "waits-message"); return; }
      tiles = [0, 1, 2].map((k) => `${n + k}${suit}`);
    } else if (view.mode !== "hand") tiles = Array(view.mode === "pung" ? 3 : 4).fill(tile);
    const need = countTiles([tiles]);
    const over = Object.keys(need).find((x) => (have[x] || 0) + need[x] > 4);
    if (over) { say(t("no_more", { tile: tileName(over) }), true, "waits-message"); return; }
    if (count() + (view.mode === "hand" ? 1 : 3) > 13) { say(t("need13"), true, "waits-message"); return; }
    say("", false, "waits-message");
    if (view.mode === "hand") view.tiles.push(tile);
    else view.melds.push({ kind: view.mode, tiles, text: tiles.map((x) => x[0]).join("") + suit });
    render();
  }

  async function show() {
    if (count() !== 13) { say(t("need13"), true, "waits-message"); return; }
    const body = { hand: view.tiles.join(""), variant: $("waits-variant").value };
    const open = view.melds.filter((m) => m.kind !== "ckong").map((m) => m.text);
    const kongs = view.melds.filter((m) => m.kind === "ckong").map((m) => m.text);
    if (open.length) body.melds = open;
    if (kongs.length) body.concealed_kongs = kongs;
    if (view.wild) body.wild = view.wild;
    const { status, data } = await home.request("POST", "/api/waits", body);
    const table = $("waits-table");
    table.replaceChildren();
    $("waits-note").hidden = status !== 200;
    if (status !== 200) { sayProblem(data, "waits-message"); return; }
    say("", false, "waits-message");
    const cell = (o) => el("td", { class: "num" }, o.valid ? `${o.value} (${o.total})` : "—");
    table.append(el("tr", {}, el("th", {}, t("tile")), el("th", { class: "num" }, t("left")), el("th", { class: "num" }, t("on_discard")), el("th", { class: "num" }, t("on_self_draw"))));
    for (const w of data.waits) table.append(el("tr", { "data-tile": w.tile }, el("td", {}, tileNode(w.tile)), el("td", { class: "num" }, w.left), cell(w.discard), cell(w.self_draw)));
  }

  const clear = () => { view.tiles = []; view.melds = []; view.wild = ""; };
  $("waits-wild").addEventListener("change", (e) => { view.wild = e.target.value; render(); });
  $("waits-go").addEventListener("click", show);
  $("waits-clear").addEventListener("click", () => { clear(); $("waits-table").replaceChildren(); $("waits-note").hidden = true; render(); });
  $("waits-variant").addEventListener("change", () => { clear(); render(); });
  return { render };
}
