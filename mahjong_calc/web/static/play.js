// The play view: the games this phone knows, the game on screen (its state and version), the hand
// being entered (entry.js), the result of the last hand, the standings, the chart and the hand list.
import { allVariants, codeOf, problem, sayProblem, variantName, variantOf } from "./catalog.js";
import { $, el, say } from "./dom.js";
import { createEntry } from "./entry.js";
import { currentLang, t } from "./i18n.js";
import { createJoin } from "./join.js";
import { handLine, noticeLine, sameHand } from "./lines.js";
import { createWriter } from "./writes.js";

const COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e"];

export function createPlay(home, { onChange } = {}) {
  // `mine`: the versions this phone made (no notice of them); `authors`: who made a version, as its event says;
  // `hold`: a refusal of this phone's change is on screen, and no notice of the others' takes its place
  const view = { games: [], id: null, state: null, version: null, lastHand: null, mine: new Set(), authors: new Map(), hold: false };
  let watcher = { stop() {}, wake() {} };
  const entry = createEntry({ state: () => view.state, id: () => view.id, forgetResult });
  const join = createJoin(home, view);
  const writer = createWriter(home, { player: () => join.me() });

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

  // the hand as the hand list says it, one sentence: who won, how, for how much (lines.js)
  const handText = (h) => handLine(h, view.state && variantOf(view.state.variant));

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
    join.render();
    join.settle(0);
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

  // the answer of a change to the open game that reached it: its new state (`ok` then says what was done),
  // a race lost (409, lost()), or a refusal, which stays on screen until this phone acts again
  async function answered(w, answer, ok) {
    if (answer.status === 200) {
      if (answer.version != null) view.mine.add(`${w.game}:${answer.version}`);
      if (view.id !== w.game) return;
      view.state = answer.data; view.version = answer.version; view.hold = false;
      entry.unsaved(false);
      await ok(answer.data);
      return;
    }
    view.hold = true;
    if (answer.status === 409 && codeOf(answer.data) === "stale_version" && answer.data.state) await lost(w, answer);
    else sayProblem(answer.data);
  }

  // another change reached the game first: the game as it now stands, and a message naming that change.
  // The same hand recorded by another phone (or by this one, whose answer was lost) clears the entry;
  // any other keeps it, marked not saved.
  async function lost(w, answer) {
    const game = w.game;
    view.state = answer.data.state; view.version = answer.data.version;
    const line = await noticeOf(game, w.version, view.version, view.state);
    let same = false;
    if (w.hand) {
      const r = await home.request("GET", `/api/games/${game}/hands`, undefined, { game });
      const stored = r.status === 200 && Array.isArray(r.data) ? r.data : [];
      same = (w.method === "POST" ? stored.slice(w.before) : [stored[w.hand.editing - 1]]).some((x) => sameHand(x, w.body));
      if (same) entry.reset(); else entry.unsaved(true);
    }
    await loadGames(); render();
    const last = view.state.hands[view.state.hands.length - 1];
    const named = line || (last ? noticeLine(last, variantOf(view.state.variant)) : "");
    say(w.hand ? t(same ? "race_same" : "race_other", { what: w.what, line: named }) : `${t("stale")}${named ? ` (${named})` : ""}`, true);
    $("message").dataset.code = "stale_version";
    $("message").dataset.race = same ? "same" : "other";
  }

  let refreshing = null;
  async function refresh() {  // the game changed elsewhere: its new state and a notice of what changed; the hand being entered stays
    if (refreshing) return refreshing;
    refreshing = (async () => {
      const game = view.id, before = view.version;
      const { status, data, version } = await home.request("GET", `/api/games/${game}`, undefined, { game });
      if ((status === 429 || status === 503) && view.id === game) {  // the server at its limits: said, asked again when it says
        if (!view.hold && !writer.busy() && !writer.failing()) sayProblem(data);
        setTimeout(() => { if (view.id === game) refresh(); }, 1000 * (data.retry_after || 1));
        return;
      }
      if (status !== 200 || view.id !== game) return;
      const notice = before != null && version > before ? await noticeOf(game, before, version, data) : "";
      view.state = data; view.version = version;
      // no notice takes the place of a refusal, of a change on its way, or of one that did not reach the server
      const told = notice && !view.hold && !writer.busy() && !writer.failing();
      if (told) view.lastHand = null;  // this phone's own last result is no longer the news
      await loadGames(); render();
      if (told) { say(notice); $("message").dataset.notice = String(version); }
    })();
    try { await refreshing; } finally { refreshing = null; }
  }

  // back from elsewhere (the network again, the page shown again, from the back-forward cache): the game as the
  // server has it now, and its event stream opened again if it went quiet
  function catchUp(force) { if (view.id == null) return; watcher.wake(force); refresh(); }
  window.addEventListener("online", () => catchUp(true));
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") catchUp(false); });
  window.addEventListener("pageshow", (e) => { if (e.persisted) catchUp(true); });

  // the changes between two versions made elsewhere, one line: `李 记录了第 5 局: 王点炮, 李和, 4 番`
  async function noticeOf(game, before, after, state) {
    const { status, data } = await home.request("GET", `/api/games/${game}/history`, undefined, { game });
    if (status !== 200 || !Array.isArray(data)) return "";
    const variant = variantOf(state.variant);
    const lines = data.filter((e) => e.seq > before && e.seq <= after && !view.mine.has(`${game}:${e.seq}`)).map((e) => {
      const by = view.authors.get(`${game}:${e.seq}`);
      const shown = e.kind === "hand" || e.kind === "edit" ? state.hands[e.no - 1] : null;
      const vars = { by, n: e.no, what: e.hand && e.hand.draw ? t("draw") : noticeLine(shown, variant) };
      return t(`notice_${by ? "by_" : ""}${e.kind}`, vars);
    });
    return lines.slice(-3).join(" · ");
  }

  async function choose(id) {
    view.id = id === "" || id == null ? null : Number(id);
    view.state = null; view.lastHand = null; view.version = null; view.hold = false;
    writer.forget();
    if (view.id != null) {
      const { status, data, version } = await home.request("GET", `/api/games/${view.id}`, undefined, { game: view.id });
      if (status === 200) { view.state = data; view.version = version; } else { sayProblem(data); view.id = null; }
    }
    if (!entry.restore()) entry.reset();  // a hand half entered before a reload comes back
    render();
    watcher.stop();
    const game = view.id;
    watcher = game == null ? { stop() {}, wake() {} } : home.watch(game, { change: heard(game), beat: beat(game), refused });
    await join.show();
  }

  // an event of the game: who made it is kept for the notice; a change this phone is making is waited for first
  const heard = (game) => async (version, data) => {
    if (data && data.by) view.authors.set(`${game}:${version}`, data.by);
    if (writer.pending()) { try { await writer.pending(); } catch (e) { /* said where it was made */ } }
    if (view.id === game && version !== view.version) refresh();
  };
  // the stream's heartbeat: a change it missed is fetched now; another phone following the game closes the join panel
  const beat = (game) => (b) => {
    if (view.id !== game) return;
    join.settle(b.streams);
    if (view.version != null && b.version > view.version && !writer.pending()) refresh();
  };
  let streamSaid = null;
  function refused(data) {  // the event stream was refused (429, 503): said, and tried again after its Retry-After
    document.body.dataset.stream = data ? "refused" : "open";
    if (data) {
      if (view.hold || writer.busy() || writer.failing()) return;
      streamSaid = t("stream_refused", { what: problem(data) }); say(streamSaid, true); $("message").dataset.code = codeOf(data);
      return;
    }
    if (streamSaid && $("message").textContent === streamSaid) say("");  // open again: the refusal is no longer true
    streamSaid = null;
  }

  const nextNo = () => (entry.editing() != null ? entry.editing() : (view.state ? view.state.hands.length + 1 : 1));

  async function recordHand(draw) {
    if (view.id == null || writer.busy()) return;
    if (draw && !confirm(t("confirm_draw", { n: nextNo() }))) return;
    const { hand, missing, vars } = entry.record(draw);
    if (missing) { say(t(missing, vars), true); return; }
    const editing = entry.editing();
    const method = editing == null ? "POST" : "PUT";
    const path = editing == null ? `/api/games/${view.id}/hands` : `/api/games/${view.id}/hands/${editing}`;
    // the same hand again after it did not reach the server: sent as then, so that it is never recorded twice
    const earlier = writer.failedAs(method, path, hand);
    const w = earlier || { method, path, body: hand, game: view.id, version: view.version, what: t("hand_n", { n: nextNo() }),
      before: view.state.hands.length, hand: { editing, draw } };
    w.done = (answer) => answered(w, answer, async (data) => {
      view.lastHand = data.hands[(editing || data.hands.length) - 1];
      const broken = data.hands.filter((h) => h.no > view.lastHand.no && h.error).map((h) => t("now_error", { n: h.no, what: problem({ error: h.error }) }));
      say([editing != null ? t("saved", { n: editing }) : draw ? t("draw_done") : t("recorded", { n: view.lastHand.no }), ...broken].join(" · "));
      entry.reset();
      await loadGames();
      render();
      window.scrollTo(0, 0);  // the result and the standings, at the top
    });
    view.hold = false;
    if (!draw) entry.unsaved(false);
    const done = await writer.send(w);
    if (done === null && !draw) entry.unsaved(true);  // it did not reach the server: the entry stays, marked
  }

  // undo, redo, delete: a change named by its hand, told when done
  function change(method, path, no, ok) {
    if (writer.busy()) return null;
    const w = { method, path, body: undefined, game: view.id, version: view.version, what: t("hand_n", { n: no }) };
    w.done = (answer) => answered(w, answer, async (data) => { await ok(data); await loadGames(); render(); });
    view.hold = false;
    return writer.send(w);
  }

  function undoHand() {
    const hands = view.state ? view.state.hands : [];
    if (!hands.length) { say(t("nothing"), true); return; }
    const last = hands[hands.length - 1];
    if (writer.busy() || !confirm(t("confirm_undo", { n: last.no, what: handText(last) }))) return;
    change("POST", `/api/games/${view.id}/undo`, last.no, () => { view.lastHand = null; say(t("undone_n", { n: last.no })); });
  }

  function redoHand() {
    change("POST", `/api/games/${view.id}/redo`, view.state ? view.state.hands.length + 1 : 1, (data) => {
      view.lastHand = data.hands[data.hands.length - 1] || null;
      say(t("redone", { n: data.hands.length }));
    });
  }

  function deleteHand() {
    const no = entry.editing(), hand = view.state.hands[no - 1];
    if (writer.busy() || !confirm(t("confirm_delete", { n: no, what: hand ? handText(hand) : "" }))) return;
    change("DELETE", `/api/games/${view.id}/hands/${no}`, no, (data) => {
      view.lastHand = null;
      const broken = data.hands.filter((h) => h.no >= no && h.error).map((h) => t("now_error", { n: h.no, what: problem({ error: h.error }) }));
      say([t("deleted", { n: no }), ...broken].join(" · "));
      entry.reset();
    });
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
    join.began(data.id);  // its join panel opens at once, until another phone has the game
    if ($("new-me").value) join.chooseMe(data.id, $("new-me").value);  // and it knows who holds it
    $("new-game").hidden = true;
    await loadGames();
    await choose(data.id);
  }

  function dealerChoices() {
    const names = [0, 1, 2, 3].map((i) => $(`p${i}`).value.trim());
    for (const [id, none] of [["dealer", false], ["new-me", true]]) {
      const keep = $(id).value;
      $(id).replaceChildren(...(none ? [el("option", { value: "" }, t("me_nobody"))] : []),
        ...names.map((n, i) => el("option", { value: n }, n || `#${i + 1}`)));
      if (names.includes(keep)) $(id).value = keep;
      else if (none && names[0]) $(id).value = names[0];  // the one who fills in the form: east, the first name
    }
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
  $("new-game").addEventListener("submit", newGame);
  for (let i = 0; i < 4; i++) $(`p${i}`).addEventListener("input", dealerChoices);
  $("record").addEventListener("click", () => recordHand(false));
  $("draw").addEventListener("click", () => recordHand(true));
  $("clear").addEventListener("click", () => { entry.reset(); writer.forget(); view.lastHand = null; view.hold = false; say(""); render(); });
  $("undo").addEventListener("click", undoHand);
  $("delete-hand").addEventListener("click", deleteHand);
  $("redo").addEventListener("click", redoHand);
  $("cancel-edit").addEventListener("click", () => { entry.reset(); writer.forget(); view.hold = false; say(""); render(); });
  $("export").addEventListener("click", (e) => exportGame(e, "yaml"));
  $("export-csv").addEventListener("click", (e) => exportGame(e, "csv"));
  $("import-wrap").hidden = !home.canImport;
  $("import").addEventListener("change", (e) => { if (e.target.files[0]) importGame(e.target.files[0]); e.target.value = ""; });

  // the page's language changed: the game's state again, its error rows written in the new language
  async function relang() { render(); if (view.id != null && view.state) await refresh(); }

  return { relang, render, loadGames, choose, openNew, games: () => view.games, variant: () => (view.state ? view.state.variant : null) };
}
