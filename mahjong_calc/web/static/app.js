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
    mode_kong: "明杠", mode_chow: "吃", mode_ckong: "暗杠", nothing: "没有可撤销的局", error: "错误", nobody: "—", player: "玩家", total: "积分",
    chips: "子", value: "番", pays: "支付", recorded: "已记录第 {n} 局", undone: "已撤销", draw_done: "流局已记录",
    need_winner: "请选择和牌者", need_discarder: "请选择放冲者, 或勾选自摸", tile: "牌", left: "剩",
    on_discard: "点炮", on_self_draw: "自摸", game: "牌局", hands_n: "局", need13: "需要 13 张",
    players_needed: "请填写四位玩家", liability: "包牌", start_line: "开局",
    stale: "别人刚改了这个牌局: 已显示最新的, 请再试一次", join: "加入链接",
    redo: "恢复撤销", redone: "已恢复第 {n} 局", hand_n: "第 {n} 局", editing_hand: "正在修改第 {n} 局", delete_hand: "删除第 {n} 局", cancel: "取消", save: "保存第 {n} 局",
    confirm_draw: "把第 {n} 局记为流局?", confirm_undo: "撤销第 {n} 局 ({what})?", confirm_delete: "删除第 {n} 局 ({what})?",
    undone_n: "已撤销第 {n} 局", deleted: "已删除第 {n} 局", saved: "已修改第 {n} 局", now_error: "第 {n} 局现在是错误行: {what}",
    no_more: "{tile} 已经有 4 张了", cannot_load: "这一局的牌无法在页面上显示; 请在命令行修改", whose: "谁的副露",
    winner_own: "和牌者", others_melds: "别家副露", hua: "花", la_zi: "拉子", piao_by: "飘财者", piao_count: "飘数",
    sheng_zhang: "打生张者", wild: "财神", arithmetic: "算式", why_jiao: "交",
    multi: "一炮多响", editing: "正在输入 {p} 的牌 (再点一次 {p} 取消)", need_discarder_multi: "一炮多响: 请选择放冲者",
    tab_advise: "建议", advise_hint: "点或粘贴 14 张牌 (摸牌后), 看打哪张: 向听按本规则算 (八支, 花, 财神...)。",
    advise_go: "打哪张", paste: "粘贴", need14: "需要 {n} 张", discard: "打", shanten: "向听",
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
    nothing: "No hand to take back", error: "error", nobody: "—", player: "Player", total: "Total", chips: "Chips", value: "Value", pays: "Pays",
    recorded: "Hand {n} recorded", undone: "Undone", draw_done: "Draw recorded", need_winner: "Choose the winner",
    need_discarder: "Choose who discarded, or tick self-draw", tile: "Tile", left: "Left",
    on_discard: "On a discard", on_self_draw: "Self-draw", game: "Game", hands_n: "hands", need13: "13 tiles needed",
    players_needed: "Fill in the four players", liability: "Liability", start_line: "start",
    multi: "Several winners (一炮多响)", editing: "Entering {p}'s tiles (tap {p} again to drop)",
    need_discarder_multi: "Several winners: choose who discarded",
    stale: "Someone else just changed this game: it is shown as it now stands; try again", join: "Join link",
    redo: "Redo", redone: "Put back hand {n}", hand_n: "Hand {n}", editing_hand: "Changing hand {n}", delete_hand: "Delete hand {n}", cancel: "Cancel", save: "Save hand {n}",
    confirm_draw: "Record hand {n} as a draw?", confirm_undo: "Take back hand {n} ({what})?", confirm_delete: "Delete hand {n} ({what})?",
    undone_n: "Took back hand {n}", deleted: "Deleted hand {n}", saved: "Hand {n} changed", now_error: "Hand {n} is now an error: {what}",
    no_more: "All 4 copies of {tile} are in play", cannot_load: "This hand cannot be shown on the page; change it on the command line",
    whose: "Whose meld", winner_own: "the winner", others_melds: "Others' melds", hua: "Flowers", la_zi: "At la zi",
    piao_by: "In a piao round", piao_count: "Piao so far", sheng_zhang: "Discarded an unseen tile", wild: "Wild tile",
    arithmetic: "Working", why_jiao: "jiao",
    tab_advise: "Advise", advise_hint: "Tap or paste the 14 tiles after the draw to see which to throw: shanten under these rules (八支, 花, 财神...).",
    advise_go: "What to throw", paste: "Paste", need14: "{n} tiles needed", discard: "Throw", shanten: "Shanten",
    ukeire: "Useful tiles", expected: "Expected", already_win: "Already a win, value {v}", tenpai: "tenpai",
  },
};
const HONOURS = { zh: ["东", "南", "西", "北", "白", "发", "中"], en: ["E", "S", "W", "N", "P", "F", "C"] };
const SUIT = { zh: { m: "万", p: "筒", s: "条" }, en: { m: "m", p: "p", s: "s" } };
// short labels for the other flags of a win (the API gives the long ones, shown as a tooltip)
const COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e"];

const params = new URLSearchParams(location.search);
const S = {
  lang: params.get("lang") || localStorage.getItem("mjcalc.lang") || "zh",
  variants: [], games: [], game: null, state: null, version: null, messages: {},
  tokens: JSON.parse(localStorage.getItem("mjcalc.tokens") || "{}"),
  winner: null, discarder: null, mode: "hand", concealed: [], melds: [], waitsTiles: [], adviseTiles: [], extras: {},
  // 一炮多响: the winners picked, in order; S.winner is the one whose tiles are on screen, the others' wait in S.hands
  multi: false, winners: [], hands: {},
  // correcting hand `editing` (null: a new hand); `keep`: fields of that hand the page has no control for, sent back as they were
  editing: null, keep: {},
  // the other players (Chizhou 花 / 拉子 / 反包, Pujiang 飘 / 生张 / pungs): {exposed: {player: [meld]}, hua, la_zi, piao_by, ...}
  table: {}, owner: "",
  waitsMelds: [], waitsMode: "hand", waitsWild: "",
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
// `version`: the game's version the change is made against (If-Match); the answer's ETag is the version now
async function call(method, path, body, game, version, token) {
  const headers = { "content-type": "application/json" };
  token = token || (game != null ? S.tokens[game] : Object.values(S.tokens)[0]);
  if (token) headers["x-mjcalc-token"] = token;
  if (version != null) headers["if-match"] = `"${version}"`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch (e) { data = { valid: false, error: { code: "bad_answer", message: res.statusText } }; }
  const etag = res.headers.get("etag");
  return { status: res.status, data, version: etag ? Number(etag.replace(/[^0-9]/g, "")) : null };
}
// a change to the open game, made against the version on screen: a 409 shows the game as it now stands
async function change(method, path, body) {
  const answer = await call(method, path, body, S.game, S.version);
  if (answer.status === 409 && answer.data.error && answer.data.error.code === "stale_version") {
    S.state = answer.data.state; S.version = answer.data.version;
    await loadGames(); renderAll();
    say(t("stale"), true);
    return null;
  }
  if (answer.status !== 200) { say(problem(answer.data), true); return null; }
  S.state = answer.data; S.version = answer.version;
  return answer;
}
// an error in the page's language: the code's message (GET /api/messages), then the specifics, unless
// they speak of the command line (a flag such as --discarder means nothing on the page)
const FLAG_WORD = /(^|[\s(`'"])--?[a-z]/i;
function problem(data) {
  const e = data.error || data.reason || {};
  const known = S.messages[e.code];
  const detail = e.message || "";
  if (!known) return `${detail} [${e.code || "?"}]`;
  const general = known[S.lang];
  const plain = detail && !FLAG_WORD.test(detail) && (S.lang === "en" ? detail : `${general}: ${detail}`);
  return `${plain || general} [${e.code}]`;
}

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

// each tile of the palette shows how many of it are left; a tile with none left is greyed, and refused when tapped
function palette(container, variant, onTap, used) {
  container.replaceChildren(...variant.tiles.map((x) => {
    const left = 4 - (used[x.tile] || 0);
    const node = tileNode(x.tile, { title: x[S.lang], "data-left": left, class: `tile ${x.tile[1]}${left <= 0 ? " out" : ""}`, onclick: () => onTap(x.tile) });
    node.append(el("i", {}, `×${left}`));
    return node;
  }));
}
function tileName(tile) { const x = S.variants.flatMap((v) => v.tiles).find((v) => v.tile === tile); return x ? x[S.lang] : tile; }
function countTiles(lists) {
  const used = {};
  for (const list of lists) for (const x of list) used[x] = (used[x] || 0) + 1;
  return used;
}
// every tile the hand being entered shows: each winner's tiles and melds, the others' melds, the 财神 indicator
function usedTiles() {
  const hands = isMulti() ? [...S.winners.filter((p) => p !== S.winner).map((p) => S.hands[p]).filter(Boolean), onScreen()] : [onScreen()];
  const lists = [];
  for (const h of hands) {
    lists.push(h.concealed, ...h.melds.map((m) => m.tiles));
    if (h.extras && h.extras.wild) lists.push([h.extras.wild]);
  }
  for (const melds of Object.values(S.table.exposed || {})) lists.push(...melds.map((m) => m.tiles));
  return countTiles(lists);
}
function refuseCopies(tiles, used) {
  const need = countTiles([tiles]);
  const over = Object.keys(need).find((x) => (used[x] || 0) + need[x] > 4);
  if (over) { say(t("no_more", { tile: tileName(over) }), true); return true; }
  return false;
}
// tiles in the notation the page writes (123m45p...), as single tiles; null for any other notation
function parseTiles(text) {
  const out = []; let digits = [];
  for (const ch of String(text).replace(/\s+/g, "")) {
    if (ch >= "0" && ch <= "9") digits.push(ch);
    else if ("mpsz".includes(ch) && digits.length) { for (const d of digits) out.push(d + ch); digits = []; }
    else return null;
  }
  return digits.length ? null : out;
}
function parseMeld(text, concealed) {
  const [body, source] = String(text).split("@");
  const tiles = parseTiles(body);
  if (!tiles || tiles.length < 3 || tiles.length > 4) return null;
  const kind = concealed ? "ckong" : tiles.length === 4 ? "kong" : tiles[0] === tiles[1] ? "pung" : "chow";
  return { kind, tiles, text: body, source: source || "" };
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
  renderOthers(variant);
  $("edit-bar").hidden = S.editing == null;
  if (S.editing != null) {
    $("edit-title").textContent = t("editing_hand", { n: S.editing });
    $("delete-hand").textContent = t("delete_hand", { n: S.editing });
  }
  $("record").textContent = S.editing == null ? t("record") : t("save", { n: S.editing });
  const modes = ["hand", "pung", "kong", ...(variant.chow_melds ? ["chow"] : []), "ckong"];
  $("modes").replaceChildren(...modes.map((m) => el("button", { type: "button", class: S.mode === m ? "on" : "", "data-mode": m,
    onclick: () => { S.mode = m; renderEntry(); } }, t(`mode_${m}`))));
  $("source-wrap").hidden = !["pung", "kong", "chow"].includes(S.mode);
  const hasExposed = (variant.others || []).includes("exposed");
  $("owner-wrap").hidden = !hasExposed || !["pung", "kong", "chow"].includes(S.mode);
  const others = names.filter((p) => !picked.includes(p));
  if (!others.includes(S.owner)) S.owner = "";
  $("owner").replaceChildren(el("option", { value: "" }, t("winner_own")), ...others.map((p) => el("option", { value: p }, p)));
  $("owner").value = S.owner;
  const owner = S.owner || S.winner;
  const src = $("source"), keep = src.value;
  src.replaceChildren(el("option", { value: "" }, t("nobody")), ...names.filter((p) => p !== owner).map((p) => el("option", { value: p }, p)));
  src.value = names.includes(keep) && keep !== owner ? keep : "";
  palette($("palette"), variant, tapTile, usedTiles());
  $("concealed").replaceChildren(...S.concealed.map((x, i) => tileNode(x, {
    class: `tile ${x[1]}${i === S.concealed.length - 1 ? " win" : ""}`, onclick: () => { S.concealed.splice(i, 1); renderEntry(); } })));
  $("melds").replaceChildren(...S.melds.map((m, i) => el("span", { class: "meld", "data-meld": m.text },
    ...m.tiles.map((x) => tileNode(x, { onclick: () => { S.melds.splice(i, 1); renderEntry(); } })), ...(m.source ? [el("em", {}, `@${m.source}`)] : []))));
  const exposed = Object.entries(S.table.exposed || {}).filter(([, ms]) => ms.length);
  $("others-melds-line").hidden = exposed.length === 0;
  $("others-melds").replaceChildren(...exposed.flatMap(([p, ms]) => ms.map((m, i) => el("span", { class: "meld", "data-meld": `${p}:${m.text}` },
    el("em", {}, `${p}:`), ...m.tiles.map((x) => tileNode(x, { onclick: () => { ms.splice(i, 1); renderEntry(); } })),
    ...(m.source ? [el("em", {}, `@${m.source}`)] : [])))));
}

// the other players' part of the hand: 花 and 拉子 (Chizhou), who is in a 飘 round and how far, who discarded a 生张 (Pujiang)
function renderOthers(variant) {
  const fields = (variant.others || []).filter((f) => f !== "exposed");
  const names = players(), picked = pickedWinners(), others = names.filter((p) => !picked.includes(p));
  const nodes = [];
  const pick = (name, choices) => {
    const sel = el("select", { "data-field": name, onchange: (e) => { S.table[name] = e.target.value; renderEntry(); } },
      el("option", { value: "" }, t("nobody")), ...choices.map((p) => el("option", { value: p }, p)));
    sel.value = choices.includes(S.table[name]) ? S.table[name] : "";
    return el("label", {}, `${t(name)} `, sel);
  };
  if (fields.includes("hua")) {
    const hua = S.table.hua || (S.table.hua = {});
    nodes.push(el("div", { class: "others-row" }, `${t("hua")}:`, ...others.map((p) => {
      const num = el("input", { type: "number", min: 0, max: 99, "data-hua": p, onchange: (e) => { hua[p] = Number(e.target.value) || 0; } });
      num.value = hua[p] || 0;
      return el("label", {}, `${p} `, num);
    })));
  }
  if (fields.includes("la_zi")) {
    const laZi = S.table.la_zi || (S.table.la_zi = []);
    nodes.push(el("div", { class: "others-row" }, `${t("la_zi")}:`, ...others.map((p) => {
      const box = el("input", { type: "checkbox", "data-la-zi": p, onchange: (e) => {
        S.table.la_zi = e.target.checked ? [...new Set([...laZi, p])] : laZi.filter((x) => x !== p); renderEntry(); } });
      box.checked = laZi.includes(p);
      return el("label", { class: "check" }, box, ` ${p}`);
    })));
  }
  if (fields.includes("piao_by")) {
    const row = el("div", { class: "others-row" }, pick("piao_by", names));
    if (fields.includes("piao_count") && S.table.piao_by) {
      const num = el("input", { type: "number", min: 0, max: 7, "data-field": "piao_count", onchange: (e) => { S.table.piao_count = Number(e.target.value) || 0; } });
      num.value = S.table.piao_count || 0;
      row.append(el("label", {}, `${t("piao_count")} `, num));
    }
    nodes.push(row);
  }
  if (fields.includes("sheng_zhang") && S.table.piao_by) nodes.push(el("div", { class: "others-row" }, pick("sheng_zhang", others)));
  $("others").replaceChildren(...nodes);
  $("others").hidden = nodes.length === 0;
}

// --- 一炮多响: several winners, each with their own tiles ---
function isMulti() { return S.multi && !!S.state && !!variantOf(S.state.variant).multiple_winners; }
function pickedWinners() { return isMulti() ? S.winners : (S.winner ? [S.winner] : []); }
function onScreen() { return { concealed: S.concealed, melds: S.melds, extras: S.extras }; }

function forgetResult() { if (S.lastHand) { S.lastHand = null; renderResult(null); say(""); } }

function pickWinner(p) {
  forgetResult();
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
    const label = f.label[S.lang];  // core/flags.py: the flag's `short` words, else its zh/en
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
  forgetResult();
  const n = Number(tile[0]), suit = tile[1];
  const used = usedTiles();
  if (S.mode === "hand") {
    if (refuseCopies([tile], used)) return;
    S.concealed.push(tile); renderEntry(); return;
  }
  let tiles;
  if (S.mode === "chow") {
    if (suit === "z" || n > 7) { say(t("mode_chow") + ": 1–7", true); return; }
    tiles = [0, 1, 2].map((k) => `${n + k}${suit}`);
  } else {
    tiles = Array(S.mode === "pung" ? 3 : 4).fill(tile);
  }
  if (refuseCopies(tiles, used)) return;
  const text = tiles.map((x) => x[0]).join("") + suit;
  const source = S.mode === "ckong" ? "" : $("source").value;
  const meld = { kind: S.mode, tiles, text, source };
  if (S.owner && S.mode !== "ckong") {  // another player's exposed meld (反包, Pujiang pungs)
    const exposed = S.table.exposed || (S.table.exposed = {});
    (exposed[S.owner] || (exposed[S.owner] = [])).push(meld);
  } else S.melds.push(meld);
  renderEntry();
}

function say(text, bad, where) { const m = $(where || "message"); m.textContent = text; m.className = `message${bad ? "" : " ok"}`; }

// the hand as the hand list says it: who won, how, for how much
function handText(h) {
  if (h.error) return `${t("error")}: ${problem({ error: h.error })}`;
  if (h.draw) return t("draw");
  const rs = Array.isArray(h.result) ? h.result : [h.result];
  const who = h.winners ? h.winners.join("+") : h.winner;
  return `${who} · ${h.self_draw ? t("self_draw") : `${t("discarder")} ${h.discarder}`} · ${t("value")} ${rs.map((r) => r.value).join("+")}`;
}

function renderResult(hand) {
  const box = $("result");
  if (!hand || !S.state) { box.replaceChildren(); return; }
  const parts = [el("h2", {}, `${t("hand_n", { n: hand.no })}: ${handText(hand)}`)];
  const results = hand.result ? (Array.isArray(hand.result) ? hand.result : [hand.result]) : [];
  for (const [i, r] of results.entries()) {
    const who = hand.winners ? `${hand.winners[i]} · ` : "";
    parts.push(el("div", { class: "value", "data-testid": "value" }, `${who}${t("value")} ${r.value}`));
    // each row with the working the CLI's table shows (the ×3, the cap, why it is 交)
    const rows = r.items.map((it) => el("tr", {}, el("td", {}, S.lang === "zh" ? it.zh : it.en), el("td", { class: "num" }, it.value),
      el("td", { class: "detail", "data-testid": "detail" }, it.detail || "")));
    parts.push(el("table", { "data-testid": "breakdown" }, ...rows));
  }
  if (results.length) {
    const changes = hand.settlement.changes;
    parts.push(el("table", { "data-testid": "pays" }, el("tr", {}, el("th", {}, t("pays")), el("th", { class: "num" }, ""), el("th", { class: "num" }, t("total"))),
      ...Object.keys(changes).map((p) => el("tr", {}, el("td", {}, p), el("td", { class: "num" }, changes[p] > 0 ? `+${changes[p]}` : changes[p]),
        el("td", { class: "num" }, S.state.totals[p])))));
    for (const l of hand.settlement.liability) parts.push(el("p", { class: "hint", "data-testid": "liability" }, `${t("liability")}: ${l.payer} ${S.lang === "zh" ? l.zh : l.en} (${l.amount})`));
  }
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
  $("hand-list").replaceChildren(...st.hands.map((h) => el("li", { class: h.error ? "error" : "", "data-no": h.no },
    el("button", { type: "button", "data-testid": "hand-item", onclick: () => startEdit(h.no) }, handText(h)))));
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
  // with tokens on, each token opens its own game: ask with each, so that every game this phone knows is listed
  const tokens = [...new Set(Object.values(S.tokens))];
  const seen = new Map();
  for (const token of tokens.length ? tokens : [null]) {
    const { status, data } = await call("GET", "/api/games", undefined, null, null, token);
    if (status === 200) for (const g of data) seen.set(g.id, g);
  }
  S.games = [...seen.values()].sort((a, b) => b.id - a.id);
}

// --- every phone sees the game: the server's events, one per change, wherever it was made ---
let stream = null;
function subscribe() {
  if (stream) { stream.close(); stream = null; }
  if (S.game == null || typeof EventSource === "undefined") return;
  const game = S.game, token = S.tokens[game];
  const es = new EventSource(`/api/games/${game}/events` + (token ? `?token=${encodeURIComponent(token)}` : ""));
  stream = es;
  const seen = (e) => { const d = JSON.parse(e.data); if (S.game === game && d.version !== S.version) refresh(); };
  es.addEventListener("ready", seen);
  es.addEventListener("change", seen);
  es.onerror = () => {  // EventSource retries by itself; once it has given up, start again
    if (es.readyState === EventSource.CLOSED && stream === es) {
      stream = null;
      setTimeout(() => { if (S.game === game && !stream) subscribe(); }, 2000);
    }
  };
}
let refreshing = null;
async function refresh() {  // the game changed elsewhere: its new state; the hand being entered stays
  if (refreshing) return refreshing;
  refreshing = (async () => {
    const { status, data, version } = await call("GET", `/api/games/${S.game}`, undefined, S.game);
    if (status === 200) { S.state = data; S.version = version; await loadGames(); renderAll(); }
  })();
  try { await refreshing; } finally { refreshing = null; }
}

async function showJoin() {
  const box = $("join");
  box.replaceChildren();
  if (S.game == null) return;
  const { status, data } = await call("GET", `/api/games/${S.game}/join`, undefined, S.game);
  if (status !== 200) return;
  const parts = [el("span", {}, `${t("join")}: `), el("a", { href: data.url, "data-testid": "join-link" }, data.url)];
  if (data.svg) parts.push(el("img", { src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(data.svg)}`, alt: data.url, "data-testid": "join-qr", class: "qr" }));
  box.replaceChildren(...parts);
}

async function chooseGame(id) {
  S.game = id === "" || id == null ? null : Number(id);
  S.state = null; S.lastHand = null; S.version = null;
  if (S.game != null) {
    const { status, data, version } = await call("GET", `/api/games/${S.game}`, undefined, S.game);
    if (status === 200) { S.state = data; S.version = version; } else { say(problem(data), true); S.game = null; }
  }
  resetHand();
  renderAll();
  subscribe();
  showJoin();
}

function resetHand() {
  S.winner = null; S.discarder = null; S.concealed = []; S.melds = []; S.mode = "hand"; S.extras = {};
  S.multi = false; S.winners = []; S.hands = {}; S.editing = null; S.keep = {}; S.table = {}; S.owner = "";
  $("self-draw").checked = false; $("multi").checked = false;
}

// the other players' part of a hand, as a game record writes it
function tableFields() {
  const out = {};
  const exposed = Object.fromEntries(Object.entries(S.table.exposed || {}).filter(([, ms]) => ms.length)
    .map(([p, ms]) => [p, ms.map((m) => m.text + (m.source ? `@${m.source}` : ""))]));
  if (Object.keys(exposed).length) out.exposed = exposed;
  const hua = Object.fromEntries(Object.entries(S.table.hua || {}).filter(([, n]) => n > 0));
  if (Object.keys(hua).length) out.hua = hua;
  if ((S.table.la_zi || []).length) out.la_zi = S.table.la_zi;
  if (S.table.piao_by) {
    out.piao_by = S.table.piao_by;
    if (S.table.piao_count) out.piao_count = S.table.piao_count;
    if (S.table.sheng_zhang) out.sheng_zhang = S.table.sheng_zhang;
  }
  return out;
}

function nextNo() { return S.editing != null ? S.editing : (S.state ? S.state.hands.length + 1 : 1); }

async function recordHand(draw) {
  let hand;
  if (draw) {
    if (!confirm(t("confirm_draw", { n: nextNo() }))) return;
    hand = { draw: true };
  } else {
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
    Object.assign(hand, tableFields(), S.keep);
  }
  const editing = S.editing;
  const answer = editing == null ? await change("POST", `/api/games/${S.game}/hands`, hand)
    : await change("PUT", `/api/games/${S.game}/hands/${editing}`, hand);
  if (!answer) return;
  const data = answer.data;
  S.lastHand = data.hands[(editing || data.hands.length) - 1];
  const broken = data.hands.filter((h) => h.no > S.lastHand.no && h.error).map((h) => t("now_error", { n: h.no, what: problem({ error: h.error }) }));
  say([editing != null ? t("saved", { n: editing }) : draw ? t("draw_done") : t("recorded", { n: S.lastHand.no }), ...broken].join(" · "));
  resetHand();
  await loadGames();
  renderAll();
  window.scrollTo(0, 0);  // the result and the standings, at the top
}

async function undoHand() {
  const hands = S.state ? S.state.hands : [];
  if (!hands.length) { say(t("nothing"), true); return; }
  const last = hands[hands.length - 1];
  if (!confirm(t("confirm_undo", { n: last.no, what: handText(last) }))) return;
  const answer = await change("POST", `/api/games/${S.game}/undo`);
  if (!answer) return;
  S.lastHand = null;
  say(t("undone_n", { n: last.no }));
  await loadGames();
  renderAll();
}

async function redoHand() {
  const answer = await change("POST", `/api/games/${S.game}/redo`);
  if (!answer) return;
  S.lastHand = answer.data.hands[answer.data.hands.length - 1] || null;
  say(t("redone", { n: answer.data.hands.length }));
  await loadGames();
  renderAll();
}

async function deleteHand() {
  const no = S.editing, hand = S.state.hands[no - 1];
  if (!confirm(t("confirm_delete", { n: no, what: hand ? handText(hand) : "" }))) return;
  const answer = await change("DELETE", `/api/games/${S.game}/hands/${no}`);
  if (!answer) return;
  S.lastHand = null;
  const broken = answer.data.hands.filter((h) => h.no >= no && h.error).map((h) => t("now_error", { n: h.no, what: problem({ error: h.error }) }));
  say([t("deleted", { n: no }), ...broken].join(" · "));
  resetHand();
  await loadGames();
  renderAll();
}

// tap a hand in the list: it opens in the entry, to be changed and saved, or deleted
async function startEdit(no) {
  const { status, data } = await call("GET", `/api/games/${S.game}/hands`, undefined, S.game);
  if (status !== 200) { say(problem(data), true); return; }
  const hand = data[no - 1];
  if (!hand) return;
  resetHand();
  S.lastHand = null; renderResult(null); say("");
  if (!loadHand(hand)) { resetHand(); say(t("cannot_load"), true); renderAll(); return; }
  S.editing = no;
  renderAll();
  $("entry").scrollIntoView();
}

// a stored hand into the entry; false if the page cannot show it (another notation)
function loadHand(h) {
  const variant = variantOf(S.state.variant);
  const flags = new Set((variant.flags || []).map((f) => f.name));
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
  S.keep = Object.fromEntries(Object.entries(h).filter(([k]) => !shown.has(k)));
  for (const [p, ms] of Object.entries(h.exposed || {})) {
    const melds = ms.map((m) => parseMeld(m, false));
    if (melds.includes(null)) return false;
    (S.table.exposed || (S.table.exposed = {}))[p] = melds;
  }
  for (const k of ["hua", "la_zi", "piao_by", "piao_count", "sheng_zhang"]) if (h[k] != null) S.table[k] = h[k];
  if (h.draw) return true;  // a 流局: change it by entering a win, or delete it
  S.discarder = h.discarder || null;
  $("self-draw").checked = !!h.self_draw;
  if (Array.isArray(h.winners)) {
    S.multi = true; S.winners = [];
    for (const e of h.winners) { const mine = own(e); if (!mine) return false; S.winners.push(e.winner); S.hands[e.winner] = mine; }
    const first = S.winners[0];
    S.winner = first; S.concealed = S.hands[first].concealed; S.melds = S.hands[first].melds; S.extras = S.hands[first].extras;
    return true;
  }
  const mine = own(h);
  if (!mine) return false;
  S.winner = h.winner; S.concealed = mine.concealed; S.melds = mine.melds; S.extras = mine.extras;
  return true;
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

// --- waits: the 13 tiles before the win, with melds and the 财神 ---
function waitsVariant() { return variantOf($("waits-variant").value || (S.state && S.state.variant)); }
function renderWaitsPalette() {
  const v = waitsVariant();
  if (!v) return;
  const modes = ["hand", "pung", "kong", ...(v.chow_melds ? ["chow"] : []), "ckong"];
  if (!modes.includes(S.waitsMode)) S.waitsMode = "hand";
  $("waits-modes").replaceChildren(...modes.map((m) => el("button", { type: "button", class: S.waitsMode === m ? "on" : "", "data-mode": m,
    onclick: () => { S.waitsMode = m; renderWaitsPalette(); } }, t(`mode_${m}`))));
  const hasWild = (v.flags || []).some((f) => f.name === "wild");
  $("waits-wild-wrap").hidden = !hasWild;
  if (!hasWild) S.waitsWild = "";
  $("waits-wild").replaceChildren(el("option", { value: "" }, "—"), ...v.tiles.map((x) => el("option", { value: x.tile }, x[S.lang])));
  $("waits-wild").value = S.waitsWild;
  const used = countTiles([S.waitsTiles, ...S.waitsMelds.map((m) => m.tiles), S.waitsWild ? [S.waitsWild] : []]);
  palette($("waits-palette"), v, tapWaits, used);
  $("waits-tiles").replaceChildren(...S.waitsTiles.map((x, i) => tileNode(x, { onclick: () => { S.waitsTiles.splice(i, 1); renderWaitsPalette(); } })));
  $("waits-melds").replaceChildren(...S.waitsMelds.map((m, i) => el("span", { class: "meld", "data-meld": m.text },
    ...m.tiles.map((x) => tileNode(x, { onclick: () => { S.waitsMelds.splice(i, 1); renderWaitsPalette(); } })))));
  $("waits-count").textContent = waitsCount();
}
function waitsCount() { return S.waitsTiles.length + 3 * S.waitsMelds.length; }
function tapWaits(tile) {
  const n = Number(tile[0]), suit = tile[1];
  const used = countTiles([S.waitsTiles, ...S.waitsMelds.map((m) => m.tiles), S.waitsWild ? [S.waitsWild] : []]);
  let tiles = [tile];
  if (S.waitsMode === "chow") {
    if (suit === "z" || n > 7) { say(t("mode_chow") + ": 1–7", true, "waits-message"); return; }
    tiles = [0, 1, 2].map((k) => `${n + k}${suit}`);
  } else if (S.waitsMode !== "hand") tiles = Array(S.waitsMode === "pung" ? 3 : 4).fill(tile);
  const need = countTiles([tiles]);
  const over = Object.keys(need).find((x) => (used[x] || 0) + need[x] > 4);
  if (over) { say(t("no_more", { tile: tileName(over) }), true, "waits-message"); return; }
  if (waitsCount() + (S.waitsMode === "hand" ? 1 : 3) > 13) { say(t("need13"), true, "waits-message"); return; }
  say("", false, "waits-message");
  if (S.waitsMode === "hand") S.waitsTiles.push(tile);
  else S.waitsMelds.push({ kind: S.waitsMode, tiles, text: tiles.map((x) => x[0]).join("") + suit });
  renderWaitsPalette();
}

async function showWaits() {
  if (waitsCount() !== 13) { say(t("need13"), true, "waits-message"); return; }
  const body = { hand: S.waitsTiles.join(""), variant: $("waits-variant").value };
  const open = S.waitsMelds.filter((m) => m.kind !== "ckong").map((m) => m.text);
  const kongs = S.waitsMelds.filter((m) => m.kind === "ckong").map((m) => m.text);
  if (open.length) body.melds = open;
  if (kongs.length) body.concealed_kongs = kongs;
  if (S.waitsWild) body.wild = S.waitsWild;
  const { status, data } = await call("POST", "/api/waits", body);
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
  const used = countTiles([S.adviseTiles]);
  palette($("advise-palette"), v, (tile) => {
    if ((used[tile] || 0) >= 4) { say(t("no_more", { tile: tileName(tile) }), true, "advise-message"); return; }
    if (S.adviseTiles.length < 14) S.adviseTiles.push(tile);
    renderAdvisePalette();
  }, used);
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
  $("clear").addEventListener("click", () => { resetHand(); S.lastHand = null; say(""); renderAll(); });
  $("undo").addEventListener("click", undoHand);
  $("delete-hand").addEventListener("click", deleteHand);
  $("redo").addEventListener("click", redoHand);
  $("cancel-edit").addEventListener("click", () => { resetHand(); say(""); renderAll(); });
  $("owner").addEventListener("change", (e) => { S.owner = e.target.value; renderEntry(); });
  $("waits-wild").addEventListener("change", (e) => { S.waitsWild = e.target.value; renderWaitsPalette(); });
  $("waits-go").addEventListener("click", showWaits);
  $("waits-clear").addEventListener("click", () => { S.waitsTiles = []; S.waitsMelds = []; S.waitsWild = ""; $("waits-table").replaceChildren(); renderWaitsPalette(); });
  $("waits-variant").addEventListener("change", () => { S.waitsTiles = []; S.waitsMelds = []; S.waitsWild = ""; renderWaitsPalette(); });
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
  const m = await call("GET", "/api/messages");
  S.messages = m.status === 200 ? m.data : {};
  await loadGames();
  applyLang();
  const wanted = params.get("game") || (S.games[0] && S.games[0].id);
  if (wanted != null && wanted !== "") await chooseGame(wanted);
  document.body.dataset.ready = "1";
}
init();
