// The hand being entered on the play view: winner(s), discarder, tiles, melds, the other flags of the win
// and the other players' fields; it becomes a game-record hand (the fields `mjcalc game add` takes).
import { discarderWord, tileName, variantOf } from "./catalog.js";
import { $, countTiles, el, meldModes, modeButtons, palette, parseMeld, parseTiles, say, tileNode } from "./dom.js";
import { currentLang, t } from "./i18n.js";

const KEPT = "mjcalc.entry.";  // + the game: the hand being entered, kept for this tab over a reload

// `game.state()`: the game on screen (null: none); `game.id()`: its number; `game.forgetResult()`: the last hand's result is gone from view
export function createEntry(game) {
  let h = blank();
  function blank() {
    return {
      winner: null, discarder: null, mode: "hand", concealed: [], melds: [], extras: {},
      // 一炮多响: the winners picked, in order; h.winner is the one whose tiles are on screen, the others' wait in h.hands
      multi: false, winners: [], hands: {},
      // correcting hand `editing` (null: a new hand); `keep`: fields of that hand the page has no control for, sent back as they were
      editing: null, keep: {},
      // the other players (Chizhou 花 / 拉子 / 反包, Pujiang 飘 / 生张 / pungs): {exposed: {player: [meld]}, hua, la_zi, piao_by, ...}
      table: {}, owner: "",
      // sent, and not saved (the server was not reached, or another change came first): marked so on screen
      unsaved: false,
    };
  }
  const started = () => h.winner || h.winners.length || h.concealed.length || h.melds.length || h.editing != null || h.discarder
    || Object.keys(tableFields()).length || Object.values(h.extras).some(Boolean);
  // the hand as entered so far, in this tab's sessionStorage: a reload in the middle of entering a hand keeps it
  function remember() {
    if (game.id() == null) return;
    try {
      if (started()) sessionStorage.setItem(KEPT + game.id(), JSON.stringify({ h, selfDraw: $("self-draw").checked }));
      else sessionStorage.removeItem(KEPT + game.id());
    } catch (e) { /* storage full or off: this visit only */ }
  }
  const players = () => (game.state() ? game.state().players : []);
  const variant = () => variantOf(game.state().variant);
  const isMulti = () => h.multi && !!game.state() && !!variant().multiple_winners;
  const pickedWinners = () => (isMulti() ? h.winners : (h.winner ? [h.winner] : []));
  const onScreen = () => ({ concealed: h.concealed, melds: h.melds, extras: h.extras });
  // a variant without discard wins (Pujiang: /api/variants' self_draw_only, from core/flags.SELF_DRAW_ONLY): every win is a
  // self-draw, except 抢杠, where the other player named is the one whose kong was robbed
  const discardWins = () => !variant().self_draw_only;
  const robbing = () => !!h.extras.robbing_kong;
  const selfDrawn = () => (discardWins() ? $("self-draw").checked : !robbing());

  // every tile the hand being entered shows: each winner's tiles and melds, the others' melds, the 财神 indicator
  function usedTiles() {
    const hands = isMulti() ? [...h.winners.filter((p) => p !== h.winner).map((p) => h.hands[p]).filter(Boolean), onScreen()] : [onScreen()];
    const lists = [];
    for (const x of hands) {
      lists.push(x.concealed, ...x.melds.map((m) => m.tiles));
      if (x.extras && x.extras.wild) lists.push([x.extras.wild]);
    }
    for (const melds of Object.values(h.table.exposed || {})) lists.push(...melds.map((m) => m.tiles));
    return countTiles(lists);
  }
  function refuseCopies(tiles, used) {
    const need = countTiles([tiles]);
    const over = Object.keys(need).find((x) => (used[x] || 0) + need[x] > 4);
    if (over) { say(t("no_more", { tile: tileName(over) }), true); return true; }
    return false;
  }

  function render() {
    const has = game.state() != null;
    $("no-game").hidden = has; $("entry").hidden = !has; $("standings-wrap").hidden = !has;
    if (!has) return;
    const names = players();
    const v = variant();
    const multi = isMulti();
    const picked = pickedWinners();
    $("multi-wrap").hidden = !v.multiple_winners;
    $("multi").checked = multi;
    $("winners").replaceChildren(...names.map((p) => el("button", { type: "button",
      class: `${picked.includes(p) ? "on" : ""}${multi && h.winner === p ? " current" : ""}`, "data-player": p,
      onclick: () => { pickWinner(p); render(); } }, p)));
    $("editing").hidden = !multi || !h.winner;
    $("editing").textContent = multi && h.winner ? t("editing", { p: h.winner }) : "";
    $("self-draw-wrap").hidden = multi || !discardWins();
    $("discarders").replaceChildren(...names.filter((p) => !picked.includes(p)).map((p) => el("button", { type: "button",
      class: h.discarder === p ? "on" : "", "data-player": p, onclick: () => { h.discarder = p; $("self-draw").checked = false; render(); } }, p)));
    $("discarder-label").textContent = robbing() ? t("robbed") : discarderWord(v.name);
    $("discarder-wrap").hidden = selfDrawn();
    renderExtras(v);
    renderOthers(v);
    $("edit-bar").hidden = h.editing == null;
    if (h.editing != null) {
      $("edit-title").textContent = t("editing_hand", { n: h.editing });
      $("delete-hand").textContent = t("delete_hand", { n: h.editing });
    }
    $("record").textContent = h.editing == null ? t("record") : t("save", { n: h.editing });
    modeButtons($("modes"), meldModes(v), h.mode, (m) => { h.mode = m; render(); });
    $("source-wrap").hidden = !["pung", "kong", "chow"].includes(h.mode);
    const hasExposed = (v.others || []).includes("exposed");
    $("owner-wrap").hidden = !hasExposed || !["pung", "kong", "chow"].includes(h.mode);
    const others = names.filter((p) => !picked.includes(p));
    if (!others.includes(h.owner)) h.owner = "";
    $("owner").replaceChildren(el("option", { value: "" }, t("winner_own")), ...others.map((p) => el("option", { value: p }, p)));
    $("owner").value = h.owner;
    const owner = h.owner || h.winner;
    const src = $("source"), keep = src.value;
    src.replaceChildren(el("option", { value: "" }, "—"), ...names.filter((p) => p !== owner).map((p) => el("option", { value: p }, p)));
    src.value = names.includes(keep) && keep !== owner ? keep : "";
    palette($("palette"), v, tapTile, usedTiles());
    $("concealed").replaceChildren(...h.concealed.map((x, i) => tileNode(x, {
      class: `tile ${x[1]}${i === h.concealed.length - 1 ? " win" : ""}`, onclick: () => { h.concealed.splice(i, 1); render(); } })));
    $("melds").replaceChildren(...h.melds.map((m, i) => el("span", { class: "meld", "data-meld": m.text },
      ...m.tiles.map((x) => tileNode(x, { onclick: () => { h.melds.splice(i, 1); render(); } })), ...(m.source ? [el("em", {}, `@${m.source}`)] : []))));
    const exposed = Object.entries(h.table.exposed || {}).filter(([, ms]) => ms.length);
    $("others-melds-line").hidden = exposed.length === 0;
    $("unsaved").hidden = !h.unsaved;
    $("entry").classList.toggle("unsaved", h.unsaved);
    remember();
    $("others-melds").replaceChildren(...exposed.flatMap(([p, ms]) => ms.map((m, i) => el("span", { class: "meld", "data-meld": `${p}:${m.text}` },
      el("em", {}, `${p}:`), ...m.tiles.map((x) => tileNode(x, { onclick: () => { ms.splice(i, 1); render(); } })),
      ...(m.source ? [el("em", {}, `@${m.source}`)] : [])))));
  }

  // the other players' part of the hand: 花 and 拉子 (Chizhou), who is in a 飘 round and how far, who discarded a 生张 (Pujiang)
  function renderOthers(v) {
    const fields = (v.others || []).filter((f) => f !== "exposed");
    const names = players(), picked = pickedWinners(), others = names.filter((p) => !picked.includes(p));
    const nodes = [];
    const pick = (name, choices) => {
      const sel = el("select", { "data-field": name, onchange: (e) => { h.table[name] = e.target.value; render(); } },
        el("option", { value: "" }, "—"), ...choices.map((p) => el("option", { value: p }, p)));
      sel.value = choices.includes(h.table[name]) ? h.table[name] : "";
      return el("label", {}, `${t(name)} `, sel);
    };
    if (fields.includes("hua")) {
      const hua = h.table.hua || (h.table.hua = {});
      nodes.push(el("div", { class: "others-row" }, `${t("hua")}:`, ...others.map((p) => {
        const num = el("input", { type: "number", min: 0, max: 99, "data-hua": p, onchange: (e) => { hua[p] = Number(e.target.value) || 0; } });
        num.value = hua[p] || 0;
        return el("label", {}, `${p} `, num);
      })));
    }
    if (fields.includes("la_zi")) {
      const laZi = h.table.la_zi || (h.table.la_zi = []);
      nodes.push(el("div", { class: "others-row" }, `${t("la_zi")}:`, ...others.map((p) => {
        const box = el("input", { type: "checkbox", "data-la-zi": p, onchange: (e) => {
          h.table.la_zi = e.target.checked ? [...new Set([...laZi, p])] : laZi.filter((x) => x !== p); render(); } });
        box.checked = laZi.includes(p);
        return el("label", { class: "check" }, box, ` ${p}`);
      })));
    }
    if (fields.includes("piao_by")) {
      const row = el("div", { class: "others-row" }, pick("piao_by", names));
      if (fields.includes("piao_count") && h.table.piao_by) {
        const num = el("input", { type: "number", min: 0, max: 7, "data-field": "piao_count", onchange: (e) => { h.table.piao_count = Number(e.target.value) || 0; } });
        num.value = h.table.piao_count || 0;
        row.append(el("label", {}, `${t("piao_count")} `, num));
      }
      nodes.push(row);
    }
    if (fields.includes("sheng_zhang") && h.table.piao_by) nodes.push(el("div", { class: "others-row" }, pick("sheng_zhang", others)));
    $("others").replaceChildren(...nodes);
    $("others").hidden = nodes.length === 0;
  }

  function pickWinner(p) {
    game.forgetResult();
    if (h.discarder === p) h.discarder = null;
    if (!isMulti()) { h.winner = p; return; }
    if (h.winner === p) {  // tapped again: not a winner after all
      h.winners = h.winners.filter((x) => x !== p);
      delete h.hands[p];
      h.winner = null;
      editWinner(h.winners[h.winners.length - 1] || null);
      return;
    }
    if (!h.winners.includes(p)) h.winners.push(p);
    editWinner(p);
  }

  // put the tiles on screen away with their winner (tiles tapped before any winner was picked go to `p`), and show p's
  function editWinner(p) {
    if (h.winner) h.hands[h.winner] = onScreen();
    else if (p && !h.hands[p]) h.hands[p] = onScreen();
    const x = (p && h.hands[p]) || { concealed: [], melds: [], extras: {} };
    h.winner = p; h.concealed = x.concealed; h.melds = x.melds; h.extras = x.extras; h.mode = "hand";
  }

  // one winner's fields of a game-record hand: winner, hand, melds, concealed_kongs and the other flags of the win
  function winnerEntry(p, x) {
    const entry = { winner: p, hand: x.concealed.join("") };
    const open = x.melds.filter((m) => m.kind !== "ckong").map((m) => m.text + (m.source ? `@${m.source}` : ""));
    const kongs = x.melds.filter((m) => m.kind === "ckong").map((m) => m.text);
    if (open.length) entry.melds = open;
    if (kongs.length) entry.concealed_kongs = kongs;
    for (const [name, value] of Object.entries(x.extras)) if (value) entry[name] = value;
    return entry;
  }

  function renderExtras(v) {
    const nodes = [];
    for (const f of v.flags || []) {
      const label = f.label[currentLang()];  // core/flags.py: the flag's `short` words, else its zh/en
      const set = (value) => { h.extras[f.name] = value; };
      if (f.kind === "bool") {
        const box = el("input", { type: "checkbox", "data-flag": f.name, onchange: (e) => { set(e.target.checked); render(); } });
        box.checked = !!h.extras[f.name];
        nodes.push(el("label", { class: "check", title: f[currentLang()] }, box, ` ${label}`));
      } else if (f.kind === "tile") {
        const sel = el("select", { "data-flag": f.name, onchange: (e) => set(e.target.value) },
          el("option", { value: "" }, "—"), ...v.tiles.map((x) => el("option", { value: x.tile }, x[currentLang()])));
        sel.value = h.extras[f.name] || "";
        nodes.push(el("label", { title: f[currentLang()] }, `${label} `, sel));
      } else if (f.kind === "count") {
        const num = el("input", { type: "number", min: 0, max: f.max == null ? 9 : f.max, "data-flag": f.name, style: "width:4em",
          onchange: (e) => set(Number(e.target.value) || 0) });
        num.value = h.extras[f.name] || 0;
        nodes.push(el("label", { title: f[currentLang()] }, `${label} `, num));
      }
    }
    $("extras").replaceChildren(...nodes);
    $("extras").hidden = nodes.length === 0;
  }

  function tapTile(tile) {
    game.forgetResult();
    const n = Number(tile[0]), suit = tile[1];
    const used = usedTiles();
    if (h.mode === "hand") {
      if (refuseCopies([tile], used)) return;
      h.concealed.push(tile); render(); return;
    }
    let tiles;
    if (h.mode === "chow") {
      if (suit === "z" || n > 7) { say(t("chow_range"), true); return; }
      tiles = [0, 1, 2].map((k) => `${n + k}${suit}`);
    } else {
      tiles = Array(h.mode === "pung" ? 3 : 4).fill(tile);
    }
    if (refuseCopies(tiles, used)) return;
    const text = tiles.map((x) => x[0]).join("") + suit;
    const source = h.mode === "ckong" ? "" : $("source").value;
    const meld = { kind: h.mode, tiles, text, source };
    if (h.owner && h.mode !== "ckong") {  // another player's exposed meld (反包, Pujiang pungs)
      const exposed = h.table.exposed || (h.table.exposed = {});
      (exposed[h.owner] || (exposed[h.owner] = [])).push(meld);
    } else h.melds.push(meld);
    render();
  }

  function reset() {
    h = blank();
    $("self-draw").checked = false; $("multi").checked = false;
    remember();
  }

  // the hand this tab was entering in the game on screen, as kept before a reload; false if there is none
  function restore() {
    let kept = null;
    try { kept = game.id() == null ? null : JSON.parse(sessionStorage.getItem(KEPT + game.id()) || "null"); } catch (e) { kept = null; }
    const names = players();
    const known = (p) => p == null || names.includes(p);
    if (!kept || !kept.h || !game.state() || !known(kept.h.winner) || !known(kept.h.discarder) || !(kept.h.winners || []).every(known)) return false;
    h = { ...blank(), ...kept.h };
    $("self-draw").checked = !!kept.selfDraw; $("multi").checked = !!h.multi;
    return true;
  }

  // the other players' part of a hand, as a game record writes it
  function tableFields() {
    const out = {};
    const exposed = Object.fromEntries(Object.entries(h.table.exposed || {}).filter(([, ms]) => ms.length)
      .map(([p, ms]) => [p, ms.map((m) => m.text + (m.source ? `@${m.source}` : ""))]));
    if (Object.keys(exposed).length) out.exposed = exposed;
    const hua = Object.fromEntries(Object.entries(h.table.hua || {}).filter(([, n]) => n > 0));
    if (Object.keys(hua).length) out.hua = hua;
    if ((h.table.la_zi || []).length) out.la_zi = h.table.la_zi;
    if (h.table.piao_by) {
      out.piao_by = h.table.piao_by;
      if (h.table.piao_count) out.piao_count = h.table.piao_count;
      if (h.table.sheng_zhang) out.sheng_zhang = h.table.sheng_zhang;
    }
    return out;
  }

  // the game-record hand on screen, or a message key saying what is missing
  function record(draw) {
    if (draw) return { hand: { draw: true } };
    const multi = isMulti();
    if (multi) editWinner(h.winner);  // the tiles on screen go with their winner
    const picked = pickedWinners();
    if (!picked.length) return { missing: "need_winner" };
    const selfDraw = !multi && selfDrawn();
    if (!selfDraw && !h.discarder) {
      return { missing: picked.length > 1 ? "need_discarder_multi" : robbing() ? "need_robbed" : "need_discarder", vars: { discarder: discarderWord(variant().name) } };
    }
    let hand;
    if (picked.length > 1) hand = { winners: picked.map((p) => winnerEntry(p, h.hands[p])), discarder: h.discarder };
    else {
      const { winner, hand: tiles, ...rest } = winnerEntry(picked[0], multi ? h.hands[picked[0]] : onScreen());
      hand = { winner, hand: tiles };
      if (selfDraw) hand.self_draw = true; else hand.discarder = h.discarder;
      Object.assign(hand, rest);
    }
    return { hand: Object.assign(hand, tableFields(), h.keep) };
  }

  // a stored hand into the entry, to be changed as hand `no`; false if the page cannot show it (another notation)
  function load(stored, no) {
    reset();
    const flags = new Set((variant().flags || []).map((f) => f.name));
    const own = (e) => {
      const melds = (e.melds || []).map((m) => parseMeld(m, false));
      const kongs = (e.concealed_kongs || []).map((m) => parseMeld(m, true));
      const concealed = parseTiles(e.hand || "");
      if (!concealed || melds.includes(null) || kongs.includes(null)) return null;
      const extras = Object.fromEntries(Object.entries(e).filter(([k]) => flags.has(k)));
      return { concealed, melds: [...melds, ...kongs], extras };
    };
    const shown = new Set(["winner", "winners", "hand", "melds", "concealed_kongs", "discarder", "self_draw", "draw", ...flags,
      "exposed", "hua", "la_zi", "piao_by", "piao_count", "sheng_zhang"]);
    h.keep = Object.fromEntries(Object.entries(stored).filter(([k]) => !shown.has(k)));
    const fail = () => { reset(); return false; };
    for (const [p, ms] of Object.entries(stored.exposed || {})) {
      const melds = ms.map((m) => parseMeld(m, false));
      if (melds.includes(null)) return fail();
      (h.table.exposed || (h.table.exposed = {}))[p] = melds;
    }
    for (const k of ["hua", "la_zi", "piao_by", "piao_count", "sheng_zhang"]) if (stored[k] != null) h.table[k] = stored[k];
    h.editing = no;
    if (stored.draw) return true;  // a 流局: change it by entering a win, or delete it
    h.discarder = stored.discarder || null;
    $("self-draw").checked = !!stored.self_draw;
    if (Array.isArray(stored.winners)) {
      h.multi = true; h.winners = [];
      for (const e of stored.winners) { const mine = own(e); if (!mine) return fail(); h.winners.push(e.winner); h.hands[e.winner] = mine; }
      const first = h.winners[0];
      h.winner = first; h.concealed = h.hands[first].concealed; h.melds = h.hands[first].melds; h.extras = h.hands[first].extras;
      return true;
    }
    const mine = own(stored);
    if (!mine) return fail();
    h.winner = stored.winner; h.concealed = mine.concealed; h.melds = mine.melds; h.extras = mine.extras;
    return true;
  }

  $("self-draw").addEventListener("change", () => { if ($("self-draw").checked) h.discarder = null; render(); });
  $("multi").addEventListener("change", () => {
    // on: the winner picked so far is the first of several; off: the tiles on screen stay, as the one winner's
    h.multi = $("multi").checked; h.winners = h.multi && h.winner ? [h.winner] : []; h.hands = {};
    if (h.multi) $("self-draw").checked = false;
    render();
  });
  $("owner").addEventListener("change", (e) => { h.owner = e.target.value; render(); });
  return { render, reset, restore, record, load, editing: () => h.editing, unsaved(on) { h.unsaved = on; render(); } };
}
