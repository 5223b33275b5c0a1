// The page's two homes, one interface: `mjcalc serve`'s HTTP API, or mjcalc's Python in a Web Worker
// (a site built by `mjcalc site build`: <meta name="mjcalc-home" content="site">). Both answer the same
// requests with the same JSON; the views never know which one they talk to, only what it can do.
// Every request carries the page's language: its answers' messages come in it (`Accept-Language`).
import { follow } from "./events.js";
import { currentLang, t } from "./i18n.js";

function versionOf(etag) { return etag ? Number(String(etag).replace(/[^0-9]/g, "")) : null; }
function retryAfter(res) { const v = res.headers.get("retry-after"); return v && /^[0-9]+$/.test(v) ? Number(v) : null; }

// `mjcalc serve`: fetch, tokens, the event stream of a game, join links
function serveHome() {
  const tokens = JSON.parse(localStorage.getItem("mjcalc.tokens") || "{}");
  const params = new URLSearchParams(location.search);
  if (params.get("game") && params.get("token")) {
    tokens[params.get("game")] = params.get("token");
    localStorage.setItem("mjcalc.tokens", JSON.stringify(tokens));
  }
  async function request(method, path, body, { game, version, token, player } = {}) {
    const headers = { "content-type": "application/json", "accept-language": currentLang() };
    token = token || (game != null ? tokens[game] : Object.values(tokens)[0]);
    if (token) headers["x-mjcalc-token"] = token;
    if (version != null) headers["if-match"] = `"${version}"`;
    if (player) headers["x-mjcalc-player"] = encodeURIComponent(player);  // who made a change, for the others' notices
    let res, text;
    try {
      res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      text = await res.text();
    } catch (e) {  // no answer at all (no network, the server gone): status 0, said in the page's words
      const data = { valid: false, error: { code: "network", message: t("net_down") } };
      return { status: 0, data, text: JSON.stringify(data), version: null };
    }
    let data = null;
    // not JSON (a proxy's page): the status in the page's words, not the proxy's
    try { data = JSON.parse(text); } catch (e) { data = { valid: false, error: { code: "bad_answer", message: t("server_error", { status: res.status }) } }; }
    const wait = retryAfter(res);
    if (wait != null && data && typeof data === "object") data.retry_after = wait;  // a refusal (429, 503): when to ask again
    return { status: res.status, data, text, version: versionOf(res.headers.get("etag")) };
  }
  const engine = (path) => async (record) => (await request("POST", path, record)).text;
  return {
    name: "serve", canJoin: true, canImport: false, exports: ["yaml"],
    request,
    tokens: () => [...new Set(Object.values(tokens))],
    remember(game, token) { if (token) { tokens[game] = token; localStorage.setItem("mjcalc.tokens", JSON.stringify(tokens)); } },
    exportHref(game, format) {
      const q = new URLSearchParams();
      if (format !== "yaml") q.set("format", format);
      if (tokens[game]) q.set("token", tokens[game]);
      return `/api/games/${game}/export${q.toString() ? `?${q}` : ""}`;
    },
    tokenOf: (game) => tokens[game] || null,
    // every change to a game, wherever it was made: the server's events (events.js); returns {stop, wake}
    watch(game, on) { return follow(`/api/games/${game}/events`, tokens[game] ? { "x-mjcalc-token": tokens[game] } : {}, on); },
    engine: { ready: Promise.resolve(), score: engine("/api/score"), waits: engine("/api/waits"),
      advise: async (record) => (await request("POST", "/api/advise", record)).text },
  };
}

// the browser alone: the worker answers; the variants and messages come with the site (made by the same Python)
// The service worker first (sw.js, written by the build): at the first visit it fetches every file of the
// site once into its cache, and the engine's worker then loads from that cache, so nothing is fetched twice.
// Where there is none (not a secure origin), or it takes too long, the engine loads from the network.
function keptOffline() {
  if (!("serviceWorker" in navigator)) return Promise.resolve(false);
  const controlled = new Promise((done) => {
    if (navigator.serviceWorker.controller) { done(true); return; }
    navigator.serviceWorker.addEventListener("controllerchange", () => done(true), { once: true });
  });
  const registered = navigator.serviceWorker.register("sw.js").then(() => controlled, () => false);
  return Promise.race([registered, new Promise((done) => setTimeout(() => done(false), 60_000))]);
}

function siteHome() {
  const base = new URL("static/", document.baseURI);
  const pending = new Map();
  let next = 1, loaded, failed, worker = null;
  const queued = [];
  const ready = new Promise((ok, bad) => { loaded = ok; failed = bad; });
  const offline = keptOffline();
  offline.then((kept) => {
    worker = new Worker(new URL(`worker.js${kept ? "?kept=1" : ""}`, base), { type: "module" });  // kept: the wasm from sw.js
    worker.onmessage = receive;
    worker.onerror = (e) => failed(new Error(e.message || "the engine's worker failed"));
    document.body.dataset.offline = kept ? "1" : "0";
    for (const msg of queued.splice(0)) worker.postMessage(msg);
  });
  function receive(event) {
    const msg = event.data;
    if (msg.ready === true) { loaded(msg); return; }
    if (msg.ready === false) { failed(new Error(msg.failed)); return; }
    const call = pending.get(msg.id);
    if (!call) return;
    pending.delete(msg.id);
    if (msg.failed) call.bad(new Error(msg.failed)); else call.ok(msg);
  }
  const post = (msg) => new Promise((ok, bad) => {
    const id = next++;
    pending.set(id, { ok, bad });
    if (worker) worker.postMessage({ ...msg, id }); else queued.push({ ...msg, id });
  });
  const files = {};
  for (const name of ["variants", "messages", "words"]) files[`/api/${name}`] = fetch(new URL(`${name}.json`, base)).then((r) => r.text());
  const changes = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel("mjcalc-games");  // other tabs of this phone

  async function request(method, path, body, { version } = {}) {
    const [route, query] = path.split("?");
    if (method === "GET" && files[route]) {
      const text = await files[route];
      return { status: 200, data: JSON.parse(text), text, version: null };
    }
    const msg = await post({ kind: "request", request: { method, path: route, body: body === undefined ? null : JSON.stringify(body),
      version: version == null ? null : version, query: Object.fromEntries(new URLSearchParams(query || "")), lang: currentLang() } });
    if (method !== "GET" && msg.status < 300 && changes) changes.postMessage({ path: route, version: versionOf(msg.etag) });
    return { status: msg.status, data: JSON.parse(msg.body), text: msg.body, version: versionOf(msg.etag) };
  }
  const engine = (kind) => async (record) => (await post({ kind, record })).text;
  return {
    name: "site", canJoin: false, canImport: true, exports: ["yaml", "csv"],
    ready,
    request,
    tokens: () => [],
    remember() {},
    async exportFile(game, format) {
      const answer = await post({ kind: "request", request: { method: "GET", path: `/api/games/${game}/export`, body: null, version: null, query: { format },
        lang: currentLang() } });
      if (answer.status !== 200) return { status: answer.status, data: JSON.parse(answer.body) };
      return { status: 200, name: `mjcalc-game-${game}.${format}`, text: answer.body };  // the file itself, not JSON
    },
    async importFile(name, text) { return request("POST", "/api/games/import", { name, text }); },
    tokenOf: () => null,
    watch(game, on) {  // the other tabs of this phone: {stop, wake}, as the server's events
      const seen = (e) => { if (e.data.path.startsWith(`/api/games/${game}`)) on.change(e.data.version, null); };
      if (changes) changes.addEventListener("message", seen);
      return { stop() { if (changes) changes.removeEventListener("message", seen); }, wake() {} };
    },
    engine: { ready, score: engine("score"), waits: engine("waits"), advise: engine("advise") },
  };
}

export function openHome() {
  const meta = document.querySelector('meta[name="mjcalc-home"]');
  return meta && meta.content === "site" ? siteHome() : serveHome();
}
