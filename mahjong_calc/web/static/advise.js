// The advise view: 14 tiles after the draw, and which to throw under the variant's own rules.
import { sayProblem, tileName, variantOf } from "./catalog.js";
import { $, countTiles, el, palette, parseTiles, say, tileNode } from "./dom.js";
import { t } from "./i18n.js";

export function createAdvise(home, gameVariant) {
  const view = { tiles: [], asked: 0 };  // asked: the latest request; an older one's answer is dropped

  function render() {
    const v = variantOf($("advise-variant").value || gameVariant());
    if (!v) return;
    $("advise-wild-wrap").hidden = !v.flags.some((f) => f.name === "wild");
    const used = countTiles([view.tiles]);
    palette($("advise-palette"), v, (tile) => {
      if ((used[tile] || 0) >= 4) { say(t("no_more", { tile: tileName(tile) }), true, "advise-message"); return; }
      if (view.tiles.length < 14) view.tiles.push(tile);
      render();
    }, used);
    $("advise-tiles").replaceChildren(...view.tiles.map((x, i) => tileNode(x, { onclick: () => { view.tiles.splice(i, 1); render(); } })));
    $("advise-count").textContent = view.tiles.length;
  }

  async function show() {
    const table = $("advise-table");
    table.replaceChildren();
    const mine = ++view.asked;
    const pasted = $("advise-paste").value.trim();
    const hand = view.tiles.length ? view.tiles.join("") : pasted;
    if (!hand) { say(t("need14", { n: 14 }), true, "advise-message"); return; }
    const body = { hand, variant: $("advise-variant").value };
    const wild = $("advise-wild").value.trim();
    if (wild && !$("advise-wild-wrap").hidden) body.wild = wild;
    const { status, data } = await home.request("POST", "/api/advise", body);
    if (mine !== view.asked) return;  // a newer request supersedes this one: one table, the latest
    if (status !== 200) { sayProblem(data, "advise-message"); return; }
    // the hand as the engine read it (pasted in any notation): its tiles on screen, and the count with them
    const read = parseTiles(data.hand.concealed);
    if (read) { view.tiles = read; render(); }
    say(data.win ? t("already_win", { v: data.win.value }) : "", false, "advise-message");
    const rows = [];
    rows.push(el("tr", {}, el("th", {}, t("discard")), el("th", { class: "num" }, t("shanten")), el("th", { class: "num" }, t("count")),
      el("th", { class: "num" }, t("expected"))));
    for (const r of data.discards) {
      const shanten = r.shanten === 0 ? `0 ${t("tenpai")}` : String(r.shanten);
      rows.push(el("tr", { "data-tile": r.tile, "data-shanten": r.shanten }, el("td", {}, tileNode(r.tile)),
        el("td", { class: "num" }, shanten), el("td", { class: "num", "data-testid": "ukeire-count" }, String(r.ukeire_count)),
        el("td", { class: "num" }, r.expected == null ? "" : String(r.expected))));
      // the useful tiles, each with its copies left (their sum is the row's draws)
      const useful = r.ukeire.map((u) => { const node = tileNode(u.tile, { "data-left": u.left }); node.append(el("i", {}, `×${u.left}`)); return node; });
      rows.push(el("tr", { class: "useful" }, el("td", { colspan: 4 }, el("span", { class: "hint" }, `${t("ukeire")}: `),
        el("span", { class: "tiles" }, ...useful))));
    }
    table.replaceChildren(...rows);
    $("advise-note").hidden = false;
    $("advise-message").scrollIntoView({ block: "nearest" });
  }

  $("advise-go").addEventListener("click", show);
  // pasted tiles in any notation the engine reads (1234567m…, 一万二万三万…): sent as typed, shown as it read them
  $("advise-use").addEventListener("click", () => { view.tiles = parseTiles($("advise-paste").value) || []; render(); show(); });
  $("advise-clear").addEventListener("click", () => {
    view.tiles = []; view.asked += 1; $("advise-paste").value = ""; $("advise-table").replaceChildren(); $("advise-note").hidden = true; say("", false, "advise-message"); render();
  });
  $("advise-variant").addEventListener("change", () => { view.tiles = []; render(); });
  return { render };
}
