// The season view: standings over the selected live games and each player's cumulative net, game by game,
// one variant at a time (points of two variants are not one currency: the API never adds them).
// Its words and language are the page's (i18n.js: the one catalogue, the language remembered on this phone).
import { applyLang, currentLang, loadWords, onLang, t, toggleLang } from "./i18n.js";

{
  const SVG = "http://www.w3.org/2000/svg";
  const COLORS = ["#c0392b", "#2471a3", "#239b56", "#b9770e", "#7d3c98", "#17a589", "#566573", "#d35400"];
  const token = new URLSearchParams(location.search).get("token");
  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, text) {
    const node = tag === "svg" || ["line", "polyline", "text", "circle", "g"].includes(tag)
      ? document.createElementNS(SVG, tag) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // Each player's running total after each game (0 before the first), over the games in order.
  function series(history, players) {
    const out = {};
    for (const p of players) {
      let sum = 0;
      out[p] = [0];
      for (const g of history) { sum += g.totals[p] || 0; out[p].push(sum); }
    }
    return out;
  }

  function chart(svg, history, players) {
    svg.replaceChildren();
    const lines = series(history, players);
    const all = Object.values(lines).flat();
    const lo = Math.min(0, ...all), hi = Math.max(0, ...all);
    const W = 320, H = 200, L = 36, R = 8, T = 8, B = 20;
    const x = (i) => L + (history.length ? i * (W - L - R) / history.length : 0);
    const y = (v) => T + (hi === lo ? (H - T - B) / 2 : (hi - v) * (H - T - B) / (hi - lo));
    svg.append(el("line", {x1: L, x2: W - R, y1: y(0), y2: y(0), stroke: "#999", "stroke-dasharray": "3 3"}));
    svg.append(el("text", {x: 2, y: y(hi) + 4, "font-size": 10}, String(hi)));
    svg.append(el("text", {x: 2, y: y(lo), "font-size": 10}, String(lo)));
    players.forEach((p, k) => {
      const color = COLORS[k % COLORS.length];
      const points = lines[p].map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
      const line = el("polyline", {points, fill: "none", stroke: color, "stroke-width": 2, "data-player": p});
      line.append(el("title", {}, `${p} ${lines[p][lines[p].length - 1]}`));
      svg.append(line);
      svg.append(el("text", {x: L + 4 + (k % 4) * 70, y: H - 4, "font-size": 10, fill: color}, p));
    });
  }

  async function load() {
    const q = new URLSearchParams();
    if ($("since").value) q.set("since", $("since").value);
    if ($("until").value) q.set("until", $("until").value);
    if (token) q.set("token", token);
    const res = await fetch("/api/season?" + q.toString(), { headers: { "accept-language": currentLang() } });
    const data = await res.json();
    $("error").hidden = res.ok;
    if (!res.ok) { $("error").textContent = data.error ? data.error.message.replace(/`/g, "") : `${t("error")} ${res.status}`; $("error").dataset.code = data.error ? data.error.code : ""; return; }
    const variants = Object.keys(data.variants || {});
    const select = $("variant");
    const chosen = variants.includes(select.value) ? select.value : variants[0];
    select.replaceChildren(...variants.map((v) => el("option", {value: v}, names[v] ? names[v][currentLang()] : v)));
    if (chosen) select.value = chosen;
    $("variant-label").hidden = variants.length < 2;
    $("summary").dataset.games = String(data.games);
    const name = (v) => (names[v] ? names[v][currentLang()] : v);
    $("summary").textContent = t("games_n", { n: data.games }) + (variants.length > 1 ? ` · ${name(chosen)}: ${data.variants[chosen].games}` : "");
    const standings = data.standings.filter((s) => s.variant === chosen);
    const body = $("standings").querySelector("tbody");
    body.replaceChildren();
    for (const s of standings) {
      const p = data.players[s.player].by_variant[chosen];
      const row = el("tr", {"data-player": s.player, "data-variant": chosen});
      row.append(el("td", {}, s.player));
      for (const cell of [(s.net > 0 ? "+" : "") + s.net, p.games, p.wins, p.deal_ins]) row.append(el("td", {class: "num"}, String(cell)));
      body.append(row);
    }
    chart($("chart"), data.history.filter((g) => g.variant === chosen), standings.map((s) => s.player));
  }

  let names = {};  // the variants' names in both languages (/api/variants)
  async function start() {
    const get = async (path) => {
      const res = await fetch(path, { headers: { "accept-language": currentLang(), ...(token ? { "x-mjcalc-token": token } : {}) } });
      return { status: res.status, data: await res.json() };
    };
    await loadWords({ request: (method, path) => get(path) });
    const v = await get("/api/variants");
    if (v.status === 200) names = Object.fromEntries(v.data.map((x) => [x.name, x]));
    onLang(() => { document.title = `mjcalc · ${t("season")}`; load(); });
    $("lang").addEventListener("click", toggleLang);
    $("variant").addEventListener("change", () => load());
    $("range").addEventListener("submit", (e) => { e.preventDefault(); load(); });
    if (token) $("back").href = "/?token=" + encodeURIComponent(token);
    applyLang();  // and load()
  }
  start();
}
