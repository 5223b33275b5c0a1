// mjcalc table companion: talks to the JSON API, computes no score itself.
"use strict";

const T = {
  zh: {
    subtitle: "麻将算分", new_game: "新牌局", variant: "规则", dealer: "首局庄家", start: "开始",
    tab_play: "记分", tab_waits: "听牌", no_game: "先选择或开始一个牌局。", winner: "和牌", self_draw: "自摸",
    discarder: "放冲", from: "来自", hand: "手牌", melds: "副露", record: "计分并记录", draw: "流局",
    clear: "清空", standings: "积分", undo: "撤销上一局", export: "导出 (YAML)", chart: "走势",
    hands: "各局", waits_hint: "点 13 张牌 (和牌前), 看听哪些牌、各值多少。", waits_go: "查听牌",
    win_hint: "最后点的一张是和张 (黄框)。点手牌中的牌可去掉。", mode_hand: "手牌", mode_pung: "碰",
    mode_kong: "明杠", mode_chow: "吃", mode_ckong: "暗杠", nobody: "—", player: "玩家", total: "积分",
    chips: "子", value: "番", pays: "支付", recorded: "已记录第 {n} 局", undone: "已撤销", draw_done: "流局已记录",
    need_winner: "请选择和牌者", need_discarder: "请选择放冲者, 或勾选自摸", tile: "牌", left: "剩",
    on_discard: "点炮", on_self_draw: "自摸", game: "牌局", hands_n: "局", need13: "需要 13 张",
    players_needed: "请填写四位玩家", liability: "包牌", start_line: "开局",
    multi: "一炮多响", editing: "正在输入 {p} 的牌 (再点一次 {p} 取消)", need_discarder_multi: "一炮多响: 请选择放冲者",
    tab_advise: "建议", advise_hint: "点或粘贴 14 张牌 (摸牌后), 看打哪张: 向听按本规则算 (八支, 花, 财神...)。",
    advise_go: "打哪张", paste: "粘贴", wild: "财神", need14: "需要 {n} 张", discard: "打", shanten: "向听",
    ukeire: "有效牌", expected: "期望", already_win: "已和牌, 番值 {v}", tenpai: "听",
  },
  en: {
    subtitle: "mahjong scores", new_game: "New game", variant: "Rules", dealer: "First dealer", start: "Start",
    tab_play: "Score", tab_waits: "Waits", no_game: "Choose or start a game first.", winner: "Winner",
    self_draw: "Self-draw", discarder: "Discarder", from: "from", hand: "Hand", melds: "Melds",
    record: "Score & record", draw: "Draw", clear: "Clear", standings: "Standings", undo: "Undo last hand",
    export: "Export (YAML)", chart: "Running totals", hands: "Hands",
    waits_hint: "Tap the 13 tiles before the win to see what completes the hand and what it is worth.",
    waits_go: "Show waits", win_hint: "The last tile you tap is the winning tile (yellow). Tap a hand tile to remove it.",
    mode_hand: "Hand", mode_pung: "Pung", mode_kong: "Kong", mode_chow: "Chow", mode_ckong: "Concealed kong",
    nobody: "—", player: "Player", total: "Total", chips: "子", value: "Value", pays: "Pays",
    recorded: "Hand {n} recorded", undone: "Undone", draw_done: "Draw recorded", need_winner: "Choose the winner",
    need_discarder: "Choose who discarded, or tick self-draw", tile: "Tile", left: "Left",
    on_discard: "On a discard", on_self_draw: "Self-draw", game: "Game", hands_n: "hands", need13: "13 tiles needed",
    players_needed: "Fill in the four players", liability: "Liability", start_line: "start",
    multi: "Several winners (一炮多响)", editing: "Entering {p}'s tiles (tap {p} again to drop)",
    need_discarder_multi: "Several winners: choose who discarded",
    tab_advise: "Advise", advise_hint: "Tap or paste the 14 tiles after the draw to see which to throw: shanten under these rules (八支, 花, 财神...).",
    advise_go: "What to throw", paste: "Paste", wild: "Wild 财神", need14: "{n} tiles needed", discard: "Throw", shanten: "Shanten",
    ukeire: "Useful tiles", expected: "Expected", already_win: "Already a win, value {v}", tenpai: "tenpai",
  },
};
const HONOURS = { zh: ["东", "南", "西", "北", "白", "发", "中"], en: ["E", "S", "W", "N", "P", "F", "C"] };
const SUIT = { zh: { m: "万", p: "筒", s: "条" }, en: { m: "m", p: "p", s: "s" } };
// short labels for the other flags of a win (the API gives the long ones, shown as a tooltip)
const FLAG_LABELS = {
  after_kong: { zh: "杠开", en: "After kong" }, robbing_kong: { zh: "抢杠", en: "Robbing a kong" },
  heavenly: { zh: "天胡", en: "Heavenly" }, earthly: { zh: "地胡", en: "Earthly" },
  wild: { zh: "财神", en: "Wild 财神" }, piao: { zh: "飘", en: "Piao 飘" },
};
const COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e"];

const params = new URLSearchParams(location.search);
const S = {
  lang: params.get("lang") || localStorage.getItem("mjcalc.lang") || "zh",
  variants: [], games: [], game: null, state: null,
  tokens: JSON.parse(localStorage.getItem("mjcalc.tokens") || "{}"),
  winner: null, discarder: null, mode: "hand", concealed: [], melds: [], waitsTiles: [], adviseTiles: [], extras: {},
  // 一炮多响: the winners picked, in order; S.winner is the one whose tiles are on screen, the others' wait in S.hands
  multi: false, winners: [], hands: {},
};
if (!T[S.lang]) S.lang = "zh";
if (params.get("game") && params.get("token")) {
  S.tokens[params.get("game")] = params.get("token");
  localStorage.setItem("mjcalc.tokens", JSON.stringify(S.tokens));
}

const $ = (id) => document.getElementById(id);
const t = (key, vars) => (T[S.lang][key] || key).replace(/\{(\w+)\}/g, (_, k) => vars[k]);
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

// --- the API ---
async function call(method, path, body, game) {
  const headers = { "content-type": "application/json" };
  const token = game != null ? S.tokens[game] : Object.values(S.tokens)[0];
  if (token) headers["x-mjcalc-token"] = token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch (e) { data = { valid: false, error: { code: "bad_answer", message: res.statusText } }; }
  return { status: res.status, data };
}
const problem = (data) => { const e = data.error || data.reason || {}; return `${e.message || ""} [${e.code || "?"}]`; };

// --- tiles ---
function tileLabel(tile) {
  const n = Number(tile[0]), suit = tile[1];
  if (suit === "z") return [HONOURS[S.lang][n - 1], ""];
  return [String(n), SUIT[S.lang][suit]];
}
function tileNode(tile, attrs) {
  const [big, small] = tileLabel(tile);
  return el("button", { type: "button", class: `tile ${tile[1]}`, "data-tile": tile, ...(attrs || {}) }, big, el("small", {}, small));
}
function variantOf(name) { return S.variants.find((v) => v.name === name) || S.variants[0]; }

function palette(container, variant, onTap) {
  container.replaceChildren(...variant.tiles.map((x) => tileNode(x.tile, { title: x[S.lang], onclick: () => onTap(x.tile) })));
}

// --- rendering ---
function applyLang() {
  document.documentElement.lang = S.lang;
  document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = t(n.dataset.i18n); });
  $("lang").textContent = S.lang === "zh" ? "EN" : "中文";
  renderAll();
}

function renderGames() {
  const sel = $("game-select");
  sel.replaceChildren(el("option", { value: "" }, `— ${t("game")} —`),
    ...S.games.map((g) => el("option", { value: g.id }, `${g.id}: ${g.players.join(" ")} · ${g.variant} · ${g.hands} ${t("hands_n")}`)));
  sel.value = S.game == null ? "" : String(S.game);
  const vs = $("variant"), ws = $("waits-variant"), as = $("advise-variant");
  for (const s of [vs, ws, as]) {
    const keep = s.value;
    s.replaceChildren(...S.variants.map((v) => el("option", { value: v.name }, `${v[S.lang]} (${v.name})`)));
    s.value = keep || (S.state && S.state.variant) || "wuhu315";
  }
}

function players() { return S.state ? S.state.players : []; }

function renderEntry() {
  const has = S.state != null;
  $("no-game").hidden = has; $("entry").hidden = !has; $("standings-wrap").hidden = !has;
  if (!has) return;
  const names = players();
  const variant = variantOf(S.state.variant);
  const multi = isMulti();
  const picked = pickedWinners();
  $("multi-wrap").hidden = !variant.multiple_winners;
  $("multi").checked = multi;
  $("winners").replaceChildren(...names.map((p) => el("button", { type: "button",
    class: `${picked.includes(p) ? "on" : ""}${multi && S.winner === p ? " current" : ""}`, "data-player": p,
    onclick: () => { pickWinner(p); renderEntry(); } }, p)));
  $("editing").hidden = !multi || !S.winner;
  $("editing").textContent = multi && S.winner ? t("editing", { p: S.winner }) : "";
  $("self-draw-wrap").hidden = multi;
  $("discarders").replaceChildren(...names.filter((p) => !picked.includes(p)).map((p) => el("button", { type: "button",
    class: S.discarder === p ? "on" : "", "data-player": p, onclick: () => { S.discarder = p; $("self-draw").checked = false; renderEntry(); } }, p)));
  $("discarder-wrap").hidden = $("self-draw").checked;
  renderExtras(variant);
  const modes = ["hand", "pung", "kong", ...(variant.chow_melds ? ["chow"] : []), "ckong"];
  $("modes").replaceChildren(...modes.map((m) => el("button", { type: "button", class: S.mode === m ? "on" : "", "data-mode": m,
    onclick: () => { S.mode = m; renderEntry(); } }, t(`mode_${m}`))));
  $("source-wrap").hidden = !["pung", "kong", "chow"].includes(S.mode);
  const src = $("source"), keep = src.value;
  src.replaceChildren(el("option", { value: "" }, t("nobody")), ...names.filter((p) => p !== S.winner).map((p) => el("option", { value: p }, p)));
  src.value = names.includes(keep) && keep !== S.winner ? keep : "";
  palette($("palette"), variant, tapTile);
  $("concealed").replaceChildren(...S.concealed.map((x, i) => tileNode(x, {
    class: `tile ${x[1]}${i === S.concealed.length - 1 ? " win" : ""}`, onclick: () => { S.concealed.splice(i, 1); renderEntry(); } })));
  $("melds").replaceChildren(...S.melds.map((m, i) => el("span", { class: "meld", "data-meld": m.text },
    ...m.tiles.map((x) => tileNode(x, { onclick: () => { S.melds.splice(i, 1); renderEntry(); } })), ...(m.source ? [el("em", {}, `@${m.source}`)] : []))));
}

// --- 一炮多响: several winners, each with their own tiles ---
function isMulti() { return S.multi && !!S.state && !!variantOf(S.state.variant).multiple_winners; }
function pickedWinners() { return isMulti() ? S.winners : (S.winner ? [S.winner] : []); }
function onScreen() { return { concealed: S.concealed, melds: S.melds, extras: S.extras }; }

function pickWinner(p) {
  if (S.discarder === p) S.discarder = null;
  if (!isMulti()) { S.winner = p; return; }
  if (S.winner === p) {  // tapped again: not a winner after all
    S.winners = S.winners.filter((x) => x !== p);
    delete S.hands[p];
    S.winner = null;
    editWinner(S.winners[S.winners.length - 1] || null);
    return;
  }
  if (!S.winners.includes(p)) S.winners.push(p);
  editWinner(p);
}

// put the tiles on screen away with their winner (tiles tapped before any winner was picked go to `p`), and show p's
function editWinner(p) {
  if (S.winner) S.hands[S.winner] = onScreen();
  else if (p && !S.hands[p]) S.hands[p] = onScreen();
  const h = (p && S.hands[p]) || { concealed: [], melds: [], extras: {} };
  S.winner = p; S.concealed = h.concealed; S.melds = h.melds; S.extras = h.extras; S.mode = "hand";
}

// one winner's fields of a game-record hand: winner, hand, melds, concealed_kongs and the other flags of the win
function winnerEntry(p, h) {
  const entry = { winner: p, hand: h.concealed.join("") };
  const open = h.melds.filter((m) => m.kind !== "ckong").map((m) => m.text + (m.source ? `@${m.source}` : ""));
  const kongs = h.melds.filter((m) => m.kind === "ckong").map((m) => m.text);
  if (open.length) entry.melds = open;
  if (kongs.length) entry.concealed_kongs = kongs;
  for (const [name, value] of Object.entries(h.extras)) if (value) entry[name] = value;
  return entry;
}

function renderExtras(variant) {
  const nodes = [];
  for (const f of variant.flags || []) {
    const label = (FLAG_LABELS[f.name] || {})[S.lang] || f[S.lang];
    const set = (v) => { S.extras[f.name] = v; };
    if (f.kind === "bool") {
      const box = el("input", { type: "checkbox", "data-flag": f.name, onchange: (e) => set(e.target.checked) });
      box.checked = !!S.extras[f.name];
      nodes.push(el("label", { class: "check", title: f[S.lang] }, box, ` ${label}`));
    } else if (f.kind === "tile") {
      const sel = el("select", { "data-flag": f.name, onchange: (e) => set(e.target.value) },
        el("option", { value: "" }, "—"), ...variant.tiles.map((x) => el("option", { value: x.tile }, x[S.lang])));
      sel.value = S.extras[f.name] || "";
      nodes.push(el("label", { title: f[S.lang] }, `${label} `, sel));
    } else if (f.kind === "count") {
      const num = el("input", { type: "number", min: 0, max: f.max == null ? 9 : f.max, "data-flag": f.name, style: "width:4em",
        onchange: (e) => set(Number(e.target.value) || 0) });
      num.value = S.extras[f.name] || 0;
      nodes.push(el("label", { title: f[S.lang] }, `${label} `, num));
    }
  }
  $("extras").replaceChildren(...nodes);
  $("extras").hidden = nodes.length === 0;
}

function tapTile(tile) {
  const n = Number(tile[0]), suit = tile[1];
  if (S.mode === "hand") { S.concealed.push(tile); renderEntry(); return; }
  let tiles;
  if (S.mode === "chow") {
    if (suit === "z" || n > 7) { say(t("mode_chow") + ": 1–7", true); return; }
    tiles = [0, 1, 2].map((k) => `${n + k}${suit}`);
  } else {
    tiles = Array(S.mode === "pung" ? 3 : 4).fill(tile);
  }
  const text = tiles.map((x) => x[0]).join("") + suit;
  const source = S.mode === "ckong" ? "" : $("source").value;
  S.melds.push({ kind: S.mode, tiles, text, source });
  renderEntry();
}

function say(text, bad, where) { const m = $(where || "message"); m.textContent = text; m.className = `message${bad ? "" : " ok"}`; }

function renderResult(hand) {
  const box = $("result");
  if (!hand || hand.draw || !hand.result) { box.replaceChildren(); return; }
  const results = Array.isArray(hand.result) ? hand.result : [hand.result];
  const parts = [];
  for (const [i, r] of results.entries()) {
    const who = hand.winners ? `${hand.winners[i]} · ` : "";
    parts.push(el("div", { class: "value", "data-testid": "value" }, `${who}${t("value")} ${r.value}`));
    const rows = r.items.map((it) => el("tr", {}, el("td", {}, S.lang === "zh" ? it.zh : it.en), el("td", { class: "num" }, it.value)));
    parts.push(el("table", { "data-testid": "breakdown" }, ...rows));
  }
  const changes = hand.settlement.changes;
  parts.push(el("h2", {}, t("pays")));
  parts.push(el("table", { "data-testid": "pays" }, ...Object.keys(changes).map((p) =>
    el("tr", {}, el("td", {}, p), el("td", { class: "num" }, changes[p] > 0 ? `+${changes[p]}` : changes[p])))));
  for (const l of hand.settlement.liability) parts.push(el("p", { class: "hint" }, `${t("liability")}: ${l.payer} ${S.lang === "zh" ? l.zh : l.en} (${l.amount})`));
  box.replaceChildren(...parts);
}

function renderStandings() {
  const st = S.state;
  const head = el("tr", {}, el("th", {}, t("player")), el("th", { class: "num" }, t("total")), ...(st.chips ? [el("th", { class: "num" }, t("chips"))] : []));
  const rows = st.players.map((p, i) => el("tr", { "data-player": p },
    el("td", {}, el("span", { style: `color:${COLOURS[i]}` }, "● "), p),
    el("td", { class: "num", "data-testid": "total" }, st.totals[p]),
    ...(st.chips ? [el("td", { class: "num" }, st.chips[p])] : [])));
  $("standings").replaceChildren(head, ...rows);
  $("export").href = `/api/games/${S.game}/export` + (S.tokens[S.game] ? `?token=${encodeURIComponent(S.tokens[S.game])}` : "");
  $("hand-list").replaceChildren(...st.hands.map((h) => {
    let text;
    if (h.error) text = `${h.error.code}`;
    else if (h.draw) text = t("draw");
    else {
      const rs = Array.isArray(h.result) ? h.result : [h.result];
      const who = h.winners ? h.winners.join("+") : h.winner;
      text = `${who} · ${h.self_draw ? t("self_draw") : `${t("discarder")} ${h.discarder}`} · ${t("value")} ${rs.map((r) => r.value).join("+")}`;
    }
    return el("li", {}, text);
  }));
  renderChart();
}

function renderChart() {
  const st = S.state, names = st.players;
  const series = names.map(() => [0]);
  for (const h of st.hands) names.forEach((p, i) => series[i].push(series[i][series[i].length - 1] + (h.settlement.changes[p] || 0)));
  const W = 320, H = 170, L = 34, R = 8, TOP = 10, B = 22;
  const all = series.flat(), lo = Math.min(0, ...all), hi = Math.max(0, ...all), span = hi - lo || 1;
  const n = Math.max(1, st.hands.length);
  const x = (k) => L + (W - L - R) * k / n, y = (v) => TOP + (H - TOP - B) * (hi - v) / span;
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  const add = (tag, attrs, text) => { const e = document.createElementNS(NS, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (text != null) e.textContent = text; svg.append(e); return e; };
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`); svg.setAttribute("role", "img"); svg.setAttribute("data-testid", "chart-svg");
  add("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), stroke: "#999", "stroke-dasharray": "3 3" });
  add("text", { x: L - 4, y: y(hi) + 4, "text-anchor": "end", "font-size": 10 }, hi);
  add("text", { x: L - 4, y: y(lo) + 4, "text-anchor": "end", "font-size": 10 }, lo);
  for (let k = 0; k <= n; k += Math.max(1, Math.ceil(n / 8))) add("text", { x: x(k), y: H - 6, "text-anchor": "middle", "font-size": 10 }, k);
  series.forEach((pts, i) => {
    add("polyline", { points: pts.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" "), fill: "none",
      stroke: COLOURS[i], "stroke-width": 2, "data-player": names[i] });
    const last = pts[pts.length - 1];
    add("circle", { cx: x(pts.length - 1), cy: y(last), r: 3, fill: COLOURS[i] });
  });
  const legend = el("div", { class: "hint" }, ...names.map((p, i) => el("span", { style: `color:${COLOURS[i]};margin-right:8px` }, `● ${p}`)));
  $("chart").replaceChildren(svg, legend);
}

function renderAll() {
  renderGames();
  renderEntry();
  if (S.state) { renderStandings(); renderResult(S.lastHand); }
  renderWaitsPalette();
  renderAdvisePalette();
}

// --- actions ---
async function loadGames() {
  const { status, data } = await call("GET", "/api/games");
  S.games = status === 200 ? data : [];
}

async function chooseGame(id) {
  S.game = id === "" || id == null ? null : Number(id);
  S.state = null; S.lastHand = null;
  if (S.game != null) {
    const { status, data } = await call("GET", `/api/games/${S.game}`, undefined, S.game);
    if (status === 200) S.state = data; else { say(problem(data), true); S.game = null; }
  }
  resetHand();
  renderAll();
}

function resetHand() {
  S.winner = null; S.discarder = null; S.concealed = []; S.melds = []; S.mode = "hand"; S.extras = {};
  S.multi = false; S.winners = []; S.hands = {};
  $("self-draw").checked = false; $("multi").checked = false;
}

async function recordHand(draw) {
  let hand;
  if (draw) hand = { draw: true };
  else {
    const multi = isMulti();
    if (multi) editWinner(S.winner);  // the tiles on screen go with their winner
    const picked = pickedWinners();
    if (!picked.length) { say(t("need_winner"), true); return; }
    const selfDraw = !multi && $("self-draw").checked;
    if (!selfDraw && !S.discarder) { say(t(picked.length > 1 ? "need_discarder_multi" : "need_discarder"), true); return; }
    if (picked.length > 1) hand = { winners: picked.map((p) => winnerEntry(p, S.hands[p])), discarder: S.discarder };
    else {
      const { winner, hand: tiles, ...rest } = winnerEntry(picked[0], multi ? S.hands[picked[0]] : onScreen());
      hand = { winner, hand: tiles };
      if (selfDraw) hand.self_draw = true; else hand.discarder = S.discarder;
      Object.assign(hand, rest);
    }
  }
  const { status, data } = await call("POST", `/api/games/${S.game}/hands`, hand, S.game);
  if (status !== 200) { say(problem(data), true); return; }
  S.state = data; S.lastHand = data.hands[data.hands.length - 1];
  say(draw ? t("draw_done") : t("recorded", { n: S.lastHand.no }));
  resetHand();
  await loadGames();
  renderAll();
}

async function undoHand() {
  const { status, data } = await call("POST", `/api/games/${S.game}/undo`, undefined, S.game);
  if (status !== 200) { say(problem(data), true); return; }
  S.state = data; S.lastHand = null;
  say(t("undone"));
  await loadGames();
  renderAll();
}

async function newGame(ev) {
  ev.preventDefault();
  const names = [0, 1, 2, 3].map((i) => $(`p${i}`).value.trim());
  if (names.some((n) => !n)) { say(t("players_needed"), true); return; }
  const body = { variant: $("variant").value, players: names, dealer: $("dealer").value || names[0] };
  const { status, data } = await call("POST", "/api/games", body);
  if (status !== 201) { say(problem(data), true); return; }
  S.tokens[data.id] = data.token;
  localStorage.setItem("mjcalc.tokens", JSON.stringify(S.tokens));
  $("new-game").hidden = true;
  await loadGames();
  await chooseGame(data.id);
}

function dealerChoices() {
  const names = [0, 1, 2, 3].map((i) => $(`p${i}`).value.trim());
  const keep = $("dealer").value;
  $("dealer").replaceChildren(...names.map((n, i) => el("option", { value: n }, n || `#${i + 1}`)));
  if (names.includes(keep)) $("dealer").value = keep;
}

// --- waits ---
function renderWaitsPalette() {
  const v = variantOf($("waits-variant").value || (S.state && S.state.variant));
  if (!v) return;
  palette($("waits-palette"), v, (tile) => { if (S.waitsTiles.length < 13) S.waitsTiles.push(tile); renderWaitsPalette(); });
  $("waits-tiles").replaceChildren(...S.waitsTiles.map((x, i) => tileNode(x, { onclick: () => { S.waitsTiles.splice(i, 1); renderWaitsPalette(); } })));
  $("waits-count").textContent = S.waitsTiles.length;
}

async function showWaits() {
  if (S.waitsTiles.length !== 13) { say(t("need13"), true, "waits-message"); return; }
  const { status, data } = await call("POST", "/api/waits", { hand: S.waitsTiles.join(""), variant: $("waits-variant").value });
  const table = $("waits-table");
  table.replaceChildren();
  if (status !== 200) { say(problem(data), true, "waits-message"); return; }
  say("", false, "waits-message");
  const cell = (o) => el("td", { class: "num" }, o.valid ? `${o.value} (${o.total})` : "—");
  table.append(el("tr", {}, el("th", {}, t("tile")), el("th", { class: "num" }, t("left")), el("th", { class: "num" }, t("on_discard")), el("th", { class: "num" }, t("on_self_draw"))));
  for (const w of data.waits) table.append(el("tr", { "data-tile": w.tile }, el("td", {}, tileNode(w.tile)), el("td", { class: "num" }, w.left), cell(w.discard), cell(w.self_draw)));
}

// --- advise ---
function renderAdvisePalette() {
  const v = variantOf($("advise-variant").value || (S.state && S.state.variant));
  if (!v) return;
  $("advise-wild-wrap").hidden = !v.flags.some((f) => f.name === "wild");
  palette($("advise-palette"), v, (tile) => { if (S.adviseTiles.length < 14) S.adviseTiles.push(tile); renderAdvisePalette(); });
  $("advise-tiles").replaceChildren(...S.adviseTiles.map((x, i) => tileNode(x, { onclick: () => { S.adviseTiles.splice(i, 1); renderAdvisePalette(); } })));
  $("advise-count").textContent = S.adviseTiles.length;
}

async function showAdvise() {
  const table = $("advise-table");
  table.replaceChildren();
  const pasted = $("advise-paste").value.trim();
  const hand = S.adviseTiles.length ? S.adviseTiles.join("") : pasted;
  if (!hand) { say(t("need14").replace("{n}", 14), true, "advise-message"); return; }
  const body = { hand, variant: $("advise-variant").value };
  const wild = $("advise-wild").value.trim();
  if (wild && !$("advise-wild-wrap").hidden) body.wild = wild;
  const { status, data } = await call("POST", "/api/advise", body);
  if (status !== 200) { say(problem(data), true, "advise-message"); return; }
  say(data.win ? t("already_win").replace("{v}", data.win.value) : "", false, "advise-message");
  table.append(el("tr", {}, el("th", {}, t("discard")), el("th", { class: "num" }, t("shanten")), el("th", {}, t("ukeire")), el("th", { class: "num" }, t("expected"))));
  for (const r of data.discards) {
    const useful = el("td", { class: "tiles" }, ...r.ukeire.map((u) => tileNode(u.tile)), ` ${r.ukeire_count}`);
    const shanten = r.shanten === 0 ? `0 ${t("tenpai")}` : String(r.shanten);
    table.append(el("tr", { "data-tile": r.tile, "data-shanten": r.shanten }, el("td", {}, tileNode(r.tile)),
      el("td", { class: "num" }, shanten), useful, el("td", { class: "num" }, r.expected == null ? "" : String(r.expected))));
  }
}

// --- wiring ---
async function init() {
  $("lang").addEventListener("click", () => { S.lang = S.lang === "zh" ? "en" : "zh"; localStorage.setItem("mjcalc.lang", S.lang); applyLang(); });
  $("game-select").addEventListener("change", (e) => chooseGame(e.target.value));
  $("new-game-open").addEventListener("click", () => { $("new-game").hidden = !$("new-game").hidden; dealerChoices(); });
  $("new-game").addEventListener("submit", newGame);
  for (let i = 0; i < 4; i++) $(`p${i}`).addEventListener("input", dealerChoices);
  $("self-draw").addEventListener("change", () => { if ($("self-draw").checked) S.discarder = null; renderEntry(); });
  $("multi").addEventListener("change", () => {
    // on: the winner picked so far is the first of several; off: the tiles on screen stay, as the one winner's
    S.multi = $("multi").checked; S.winners = S.multi && S.winner ? [S.winner] : []; S.hands = {};
    if (S.multi) $("self-draw").checked = false;
    renderEntry();
  });
  $("record").addEventListener("click", () => recordHand(false));
  $("draw").addEventListener("click", () => recordHand(true));
  $("clear").addEventListener("click", () => { resetHand(); renderEntry(); });
  $("undo").addEventListener("click", undoHand);
  $("waits-go").addEventListener("click", showWaits);
  $("waits-clear").addEventListener("click", () => { S.waitsTiles = []; $("waits-table").replaceChildren(); renderWaitsPalette(); });
  $("waits-variant").addEventListener("change", () => { S.waitsTiles = []; renderWaitsPalette(); });
  document.querySelectorAll(".tab").forEach((b) => b.addEventListener("click", () => {
    document.querySelectorAll(".tab").forEach((x) => x.classList.toggle("on", x === b));
    for (const id of ["play", "waits", "advise"]) $(id).hidden = b.dataset.tab !== id;
  }));
  $("advise-go").addEventListener("click", showAdvise);
  $("advise-use").addEventListener("click", () => { S.adviseTiles = []; renderAdvisePalette(); showAdvise(); });
  $("advise-clear").addEventListener("click", () => { S.adviseTiles = []; $("advise-paste").value = ""; $("advise-table").replaceChildren(); say("", false, "advise-message"); renderAdvisePalette(); });
  $("advise-variant").addEventListener("change", () => { S.adviseTiles = []; renderAdvisePalette(); });
  const v = await call("GET", "/api/variants");
  S.variants = v.status === 200 ? v.data : [];
  await loadGames();
  applyLang();
  const wanted = params.get("game") || (S.games[0] && S.games[0].id);
  if (wanted != null && wanted !== "") await chooseGame(wanted);
  document.body.dataset.ready = "1";
}
init();
