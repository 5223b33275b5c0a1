// The play view: the games this phone knows, the game on screen (its state and version), the hand
// being entered (entry.js), the result of the last hand, the standings, the chart and the hand list.
import { allVariants, codeOf, discarderWord, problem, sayProblem, variantName, variantOf } from "./catalog.js";
import { $, el, say } from "./dom.js";
import { createEntry } from "./entry.js";
import { currentLang, t } from "./i18n.js";

const COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e"];

export function createPlay(home, { onChange } = {}) {
  // `mine`: the versions this phone made (no notice of them); `authors`: who made a version, as its event says;
  // `begun`: the game this phone has just begun (its join panel opens at once)
  const view = { games: [], id: null, state: null, version: null, lastHand: null, mine: new Set(), authors: new Map(),
    begun: null, joinOpen: false, join: null, pending: null };
  let unwatch = () => {};
  const entry = createEntry({ state: () => view.state, forgetResult });

  function forgetResult() { if (view.lastHand) { view.lastHand = null; renderResult(null); say(""); } }

  // what the page shows of its game, for other scripts and tests: the game's number, variant and version
  function mark() {
    const b = document.body.dataset;
    b.game = view.id == null ? "" : String(view.id);
    b.variant = view.state ? view.state.variant : "";
    b.version = view.version == null ? "" : String(view.version);
    b.games = String(view.games.length);
  }

  function renderGames() {
    const sel = $("game-select");
    sel.replaceChildren(el("option", { value: "" }, `— ${t("game")} —`),
      ...view.games.map((g) => el("option", { value: g.id }, `${g.id}: ${g.players.join(" ")} · ${variantName(g.variant)} · ${g.hands} ${t("hands_n")}`)));
    sel.value = view.id == null ? "" : String(view.id);
    for (const s of [$("variant"), $("waits-variant"), $("advise-variant")]) {
      const keep = s.value;
      s.replaceChildren(...allVariants().map((v) => el("option", { value: v.name }, v[currentLang()])));
      s.value = keep || (view.state && view.state.variant) || "wuhu315";
    }
  }

  // the hand as the hand list says it: who won, how, for how much
  function handText(h) {
    if (h.error) return `${t("error")}: ${problem({ error: h.error })}`;
    if (h.draw) return t("draw");
    const rs = Array.isArray(h.result) ? h.result : [h.result];
    const who = h.winners ? h.winners.join("+") : h.winner;
    const how = h.self_draw ? t("self_draw") : `${h.robbing_kong ? t("robbed") : discarderWord(view.state && view.state.variant)} ${h.discarder}`;
    return `${who} · ${how} · ${t("value")} ${rs.map((r) => r.value).join("+")}`;
  }

  function renderResult(hand) {
    const box = $("result");
    if (!hand || !view.state) { box.replaceChildren(); return; }
    const parts = [el("h2", {}, `${t("hand_n", { n: hand.no })}: ${handText(hand)}`)];
    const results = hand.result ? (Array.isArray(hand.result) ? hand.result : [hand.result]) : [];
    for (const [i, r] of results.entries()) {
      const who = hand.winners ? `${hand.winners[i]} · ` : "";
      parts.push(el("div", { class: "value", "data-testid": "value" }, `${who}${t("value")} ${r.value}`));
      // each row with the working the CLI's table shows (the ×3, the cap, why it is 交)
      const rows = r.items.map((it) => el("tr", {}, el("td", {}, currentLang() === "zh" ? it.zh : it.en), el("td", { class: "num" }, it.value),
        el("td", { class: "detail", "data-testid": "detail" }, it.detail || "")));
      parts.push(el("table", { "data-testid": "breakdown" }, ...rows));
    }
    if (results.length) {
      const changes = hand.settlement.changes;
      parts.push(el("table", { "data-testid": "pays" }, el("tr", {}, el("th", {}, t("pays")), el("th", { class: "num" }, ""), el("th", { class: "num" }, t("total"))),
        ...Object.keys(changes).map((p) => el("tr", {}, el("td", {}, p), el("td", { class: "num" }, changes[p] > 0 ? `+${changes[p]}` : changes[p]),
          el("td", { class: "num" }, view.state.totals[p])))));
      for (const l of hand.settlement.liability) parts.push(el("p", { class: "hint", "data-testid": "liability" }, `${t("liability")}: ${l.payer} ${currentLang() === "zh" ? l.zh : l.en} (${l.amount})`));
    }
    box.replaceChildren(...parts);
  }

  function renderStandings() {
    const st = view.state;
    const head = el("tr", {}, el("th", {}, t("player")), el("th", { class: "num" }, t("total")), ...(st.chips ? [el("th", { class: "num" }, t("chips"))] : []));
    const rows = st.players.map((p, i) => el("tr", { "data-player": p },
      el("td", {}, el("span", { style: `color:${COLOURS[i]}` }, "● "), p),
      el("td", { class: "num", "data-testid": "total" }, st.totals[p]),
      ...(st.chips ? [el("td", { class: "num" }, st.chips[p])] : [])));
    $("standings").replaceChildren(head, ...rows);
    if (home.exportHref) $("export").href = home.exportHref(view.id, "yaml");
    $("export-csv").hidden = !home.exports.includes("csv");
    $("hand-list").replaceChildren(...st.hands.map((h) => el("li", { class: h.error ? "error" : "", "data-no": h.no },
      el("button", { type: "button", "data-testid": "hand-item", onclick: () => startEdit(h.no) }, handText(h)))));
    renderChart();
  }

  function renderChart() {
    const st = view.state, names = st.players;
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

  function render() {
    renderGames();
    entry.render();
    if (view.state) { renderStandings(); renderResult(view.lastHand); }
    renderJoin();
    mark();
    if (onChange) onChange();
  }

  async function loadGames() {
    // with tokens on, each token opens its own game: ask with each, so that every game this phone knows is listed
    const tokens = home.tokens();
    const seen = new Map();
    for (const token of tokens.length ? tokens : [null]) {
      const { status, data } = await home.request("GET", "/api/games", undefined, { token });
      if (status === 200) for (const g of data) seen.set(g.id, g);
    }
    view.games = [...seen.values()].sort((a, b) => b.id - a.id);
  }

  // a change to the open game, made against the version on screen: a 409 shows the game as it now stands
  async function change(method, path, body) {
    const sent = home.request(method, path, body, { game: view.id, version: view.version, player: me() });
    view.pending = sent;
    let answer;
    try { answer = await sent; } finally { if (view.pending === sent) view.pending = null; }
    if (answer.status === 200 && answer.version != null) view.mine.add(`${view.id}:${answer.version}`);
    if (answer.status === 409 && answer.data.error && answer.data.error.code === "stale_version") {
      view.state = answer.data.state; view.version = answer.data.version;
      await loadGames(); render();
      say(t("stale"), true);
      return null;
    }
    if (answer.status !== 200) { sayProblem(answer.data); return null; }
    view.state = answer.data; view.version = answer.version;
    return answer;
  }

  let refreshing = null;
  async function refresh() {  // the game changed elsewhere: its new state and a notice of what changed; the hand being entered stays
    if (refreshing) return refreshing;
    refreshing = (async () => {
      const game = view.id, before = view.version;
      const { status, data, version } = await home.request("GET", `/api/games/${game}`, undefined, { game });
      if ((status === 429 || status === 503) && view.id === game) {  // the server at its limits: said, asked again when it says
        sayProblem(data);
        setTimeout(() => { if (view.id === game) refresh(); }, 1000 * (data.retry_after || 1));
        return;
      }
      if (status !== 200 || view.id !== game) return;
      const notice = before != null && version > before ? await noticeOf(game, before, version, data) : "";
      view.state = data; view.version = version;
      if (notice) view.lastHand = null;  // this phone's own last result is no longer the news
      await loadGames(); render();
      if (notice) { say(notice); $("message").dataset.notice = String(version); }
    })();
    try { await refreshing; } finally { refreshing = null; }
  }

  // how the hand went, in a notice: `王 和, 张 点炮, 30` (the variant's own word for the discard)
  function noticeWhat(h, variant) {
    if (!h) return "";
    if (h.error) return t("notice_error");
    if (h.draw) return t("draw");
    const rs = Array.isArray(h.result) ? h.result : [h.result];
    const who = h.winners ? h.winners.join("+") : h.winner, value = rs.map((r) => r.value).join("+");
    if (h.self_draw && !h.discarder) return `${t("notice_self_draw", { p: who })}, ${value}`;
    const word = variant && variant.self_draw_only ? "notice_robbed" : `notice_discard_${variant ? variant.scorer : ""}`;
    const how = t(word, { p: h.discarder }) === word ? t("notice_discard", { p: h.discarder }) : t(word, { p: h.discarder });
    return `${t("notice_won", { p: who })}, ${how}, ${value}`;
  }

  // the changes between two versions made elsewhere, one line: `李 记录了第 5 局: 王 和, 张 点炮, 30`
  async function noticeOf(game, before, after, state) {
    const { status, data } = await home.request("GET", `/api/games/${game}/history`, undefined, { game });
    if (status !== 200 || !Array.isArray(data)) return "";
    const variant = variantOf(state.variant);
    const lines = data.filter((e) => e.seq > before && e.seq <= after && !view.mine.has(`${game}:${e.seq}`)).map((e) => {
      const by = view.authors.get(`${game}:${e.seq}`);
      const shown = e.kind === "hand" || e.kind === "edit" ? state.hands[e.no - 1] : null;
      const vars = { by, n: e.no, what: e.hand && e.hand.draw ? t("draw") : noticeWhat(shown, variant) };
      return t(`notice_${by ? "by_" : ""}${e.kind}`, vars);
    });
    return lines.slice(-3).join(" · ");
  }

  // who holds this phone, for the others' notices (remembered per game)
  const people = () => JSON.parse(localStorage.getItem("mjcalc.players") || "{}");
  function me() { const p = people()[view.id]; return view.state && view.state.players.includes(p) ? p : null; }
  function chooseMe(name) { const all = people(); if (name) all[view.id] = name; else delete all[view.id]; localStorage.setItem("mjcalc.players", JSON.stringify(all)); }

  // the join panel, at the top: the link and its QR code to show the others (open at once on the phone that
  // began the game, or while it has no hand), or, on loopback, how to let other phones in
  function renderJoin() {
    const box = $("join"), data = view.join;
    box.hidden = view.id == null || !data;
    if (box.hidden) { $("join-body").replaceChildren(); return; }  // no other game's link, even hidden
    $("me").replaceChildren(el("option", { value: "" }, t("me_nobody")), ...view.state.players.map((p) => el("option", { value: p }, p)));
    $("me").value = me() || "";
    $("join-toggle").textContent = view.joinOpen ? t("join_hide") : t("join_show");
    $("join-toggle").hidden = !data.shared;
    const parts = [];
    if (!data.shared) {
      parts.push(el("p", { class: "hint", "data-testid": "join-local" }, t("join_local")), el("code", {}, "mjcalc serve --host 0.0.0.0"));
    } else if (view.joinOpen) {
      parts.push(el("p", { class: "hint" }, t("join_scan")));
      if (data.svg) parts.push(el("img", { src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(data.svg)}`, alt: data.url, "data-testid": "join-qr", class: "qr" }));
    }
    if (data.shared ? view.joinOpen : true) parts.push(el("a", { href: data.url, "data-testid": "join-link" }, data.url));
    $("join-body").replaceChildren(...parts);
  }

  async function showJoin() {
    view.join = null;
    renderJoin();
    if (view.id == null || !home.canJoin) return;
    const game = view.id;
    const { status, data } = await home.request("GET", `/api/games/${game}/join`, undefined, { game });
    if (status !== 200 || view.id !== game) return;
    view.join = data;
    view.joinOpen = view.begun === game || (view.state && view.state.hands.length === 0);
    renderJoin();
  }

  async function choose(id) {
    view.id = id === "" || id == null ? null : Number(id);
    view.state = null; view.lastHand = null; view.version = null; view.join = null;
    if (view.id != null) {
      const { status, data, version } = await home.request("GET", `/api/games/${view.id}`, undefined, { game: view.id });
      if (status === 200) { view.state = data; view.version = version; } else { sayProblem(data); view.id = null; }
    }
    entry.reset();
    render();
    unwatch();
    const game = view.id;
    unwatch = game == null ? () => {} : home.watch(game, heard(game), refused);
    await showJoin();
  }

  // an event of the game: who made it is kept for the notice; a change this phone is making is waited for first
  const heard = (game) => async (version, data) => {
    if (data && data.by) view.authors.set(`${game}:${version}`, data.by);
    if (view.pending) { try { await view.pending; } catch (e) { /* said where it was made */ } }
    if (view.id === game && version !== view.version) refresh();
  };
  let streamSaid = null;
  function refused(data) {  // the event stream was refused (429, 503): said, and tried again after its Retry-After
    document.body.dataset.stream = data ? "refused" : "open";
    if (data) { streamSaid = t("stream_refused", { what: problem(data) }); say(streamSaid, true); $("message").dataset.code = codeOf(data); return; }
    if (streamSaid && $("message").textContent === streamSaid) say("");  // open again: the refusal is no longer true
    streamSaid = null;
  }

  const nextNo = () => (entry.editing() != null ? entry.editing() : (view.state ? view.state.hands.length + 1 : 1));

  async function recordHand(draw) {
    if (draw && !confirm(t("confirm_draw", { n: nextNo() }))) return;
    const { hand, missing } = entry.record(draw);
    if (missing) { say(t(missing), true); return; }
    const editing = entry.editing();
    const answer = editing == null ? await change("POST", `/api/games/${view.id}/hands`, hand)
      : await change("PUT", `/api/games/${view.id}/hands/${editing}`, hand);
    if (!answer) return;
    const data = answer.data;
    view.lastHand = data.hands[(editing || data.hands.length) - 1];
    const broken = data.hands.filter((h) => h.no > view.lastHand.no && h.error).map((h) => t("now_error", { n: h.no, what: problem({ error: h.error }) }));
    say([editing != null ? t("saved", { n: editing }) : draw ? t("draw_done") : t("recorded", { n: view.lastHand.no }), ...broken].join(" · "));
    entry.reset();
    await loadGames();
    render();
    window.scrollTo(0, 0);  // the result and the standings, at the top
  }

  async function undoHand() {
    const hands = view.state ? view.state.hands : [];
    if (!hands.length) { say(t("nothing"), true); return; }
    const last = hands[hands.length - 1];
    if (!confirm(t("confirm_undo", { n: last.no, what: handText(last) }))) return;
    const answer = await change("POST", `/api/games/${view.id}/undo`);
    if (!answer) return;
    view.lastHand = null;
    say(t("undone_n", { n: last.no }));
    await loadGames();
    render();
  }

  async function redoHand() {
    const answer = await change("POST", `/api/games/${view.id}/redo`);
    if (!answer) return;
    view.lastHand = answer.data.hands[answer.data.hands.length - 1] || null;
    say(t("redone", { n: answer.data.hands.length }));
    await loadGames();
    render();
  }

  async function deleteHand() {
    const no = entry.editing(), hand = view.state.hands[no - 1];
    if (!confirm(t("confirm_delete", { n: no, what: hand ? handText(hand) : "" }))) return;
    const answer = await change("DELETE", `/api/games/${view.id}/hands/${no}`);
    if (!answer) return;
    view.lastHand = null;
    const broken = answer.data.hands.filter((h) => h.no >= no && h.error).map((h) => t("now_error", { n: h.no, what: problem({ error: h.error }) }));
    say([t("deleted", { n: no }), ...broken].join(" · "));
    entry.reset();
    await loadGames();
    render();
  }

  // tap a hand in the list: it opens in the entry, to be changed and saved, or deleted
  async function startEdit(no) {
    const { status, data } = await home.request("GET", `/api/games/${view.id}/hands`, undefined, { game: view.id });
    if (status !== 200) { sayProblem(data); return; }
    const hand = data[no - 1];
    if (!hand) return;
    view.lastHand = null; renderResult(null); say("");
    if (!entry.load(hand, no)) { say(t("cannot_load"), true); render(); return; }
    render();
    $("entry").scrollIntoView();
  }

  async function newGame(ev) {
    ev.preventDefault();
    const names = [0, 1, 2, 3].map((i) => $(`p${i}`).value.trim());
    if (names.some((n) => !n)) { say(t("players_needed"), true); return; }
    const body = { variant: $("variant").value, players: names, dealer: $("dealer").value || names[0] };
    const { status, data } = await home.request("POST", "/api/games", body);
    if (status !== 201) { sayProblem(data); return; }
    home.remember(data.id, data.token);
    view.begun = data.id;
    $("new-game").hidden = true;
    await loadGames();
    await choose(data.id);
  }

  function dealerChoices() {
    const names = [0, 1, 2, 3].map((i) => $(`p${i}`).value.trim());
    const keep = $("dealer").value;
    $("dealer").replaceChildren(...names.map((n, i) => el("option", { value: n }, n || `#${i + 1}`)));
    if (names.includes(keep)) $("dealer").value = keep;
  }

  // the game as a file `mjcalc game settle` reads: a link to the server's export, or a file made here
  async function exportGame(ev, format) {
    if (!home.exportFile) return;  // the server's link does it
    ev.preventDefault();
    const answer = await home.exportFile(view.id, format);
    if (answer.status !== 200) { sayProblem(answer.data); return; }
    const link = el("a", { href: URL.createObjectURL(new Blob([answer.text], { type: format === "csv" ? "text/csv" : "application/yaml" })), download: answer.name });
    document.body.append(link);
    link.click();
    link.remove();
  }

  async function importGame(file) {
    const answer = await home.importFile(file.name, await file.text());
    if (answer.status !== 201) { sayProblem(answer.data); return; }
    say(t("imported", { ids: answer.data.games.join(", ") }));
    await loadGames();
    await choose(answer.data.games[answer.data.games.length - 1]);
  }

  $("game-select").addEventListener("change", (e) => choose(e.target.value));
  function openNew() { $("new-game").hidden = false; dealerChoices(); }
  $("new-game-open").addEventListener("click", () => { if ($("new-game").hidden) openNew(); else $("new-game").hidden = true; });
  $("join-toggle").addEventListener("click", () => { view.joinOpen = !view.joinOpen; renderJoin(); });
  $("me").addEventListener("change", (e) => { chooseMe(e.target.value); renderJoin(); });
  $("new-game").addEventListener("submit", newGame);
  for (let i = 0; i < 4; i++) $(`p${i}`).addEventListener("input", dealerChoices);
  $("record").addEventListener("click", () => recordHand(false));
  $("draw").addEventListener("click", () => recordHand(true));
  $("clear").addEventListener("click", () => { entry.reset(); view.lastHand = null; say(""); render(); });
  $("undo").addEventListener("click", undoHand);
  $("delete-hand").addEventListener("click", deleteHand);
  $("redo").addEventListener("click", redoHand);
  $("cancel-edit").addEventListener("click", () => { entry.reset(); say(""); render(); });
  $("export").addEventListener("click", (e) => exportGame(e, "yaml"));
  $("export-csv").addEventListener("click", (e) => exportGame(e, "csv"));
  $("import-wrap").hidden = !home.canImport;
  $("import").addEventListener("change", (e) => { if (e.target.files[0]) importGame(e.target.files[0]); e.target.value = ""; });

  // the page's language changed: the game's state again, its error rows written in the new language
  async function relang() { render(); if (view.id != null && view.state) await refresh(); }

  return { relang, render, loadGames, choose, openNew, games: () => view.games, variant: () => (view.state ? view.state.variant : null) };
}
