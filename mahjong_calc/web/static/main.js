// mjcalc's table companion: the views, wired to one home (transport.js). It computes no score itself:
// every answer comes from mjcalc's Python, on `mjcalc serve` or in the page's Web Worker.
import { createAdvise } from "./advise.js";
import { loadCatalog } from "./catalog.js";
import { $ } from "./dom.js";
import { installEngine } from "./engine.js";
import { applyLang, onLang, t, toggleLang } from "./i18n.js";
import { createPlay } from "./play.js";
import { openHome } from "./transport.js";
import { createWaits } from "./waits.js";

const home = openHome();
installEngine(home);
document.body.dataset.home = home.name;

function showHome(state) {
  const box = $("home");
  box.dataset.home = home.name;
  box.dataset.engine = state;
  const words = [t(`home_${home.name}`)];
  if (state === "loading") words.push(t("loading"));
  if (state === "failed") words.push(t("engine_failed"));
  box.textContent = words.join(" · ");
  box.className = `home${state === "failed" ? " bad" : ""}`;
}

// the season link opens the games this phone has a token for: the game on screen's first, read each time the
// game changes (a game begun on this phone brings its token with it)
function seasonLink(game) {
  const token = (game && home.tokenOf(game)) || home.tokens()[0];
  $("season-link").href = token ? `season?token=${encodeURIComponent(token)}` : "season";
}

// the views (play, waits, advise): each one a history entry, so that the back button goes to the previous view
const VIEWS = ["play", "waits", "advise"];
function showView(name) {
  const view = VIEWS.includes(name) ? name : "play";
  document.querySelectorAll(".tab").forEach((x) => x.classList.toggle("on", x.dataset.tab === view));
  for (const id of VIEWS) $(id).hidden = view !== id;
  document.body.dataset.tab = view;  // the join panel is the game's: on the play view only (app.css)
}
const viewIn = (url) => { const h = new URL(url).hash.slice(1); return VIEWS.includes(h) ? h : "play"; };
function goView(name) {
  if (name === document.body.dataset.tab) return;
  history.pushState({ view: name }, "", `${location.pathname}${location.search}${name === "play" ? "" : `#${name}`}`);
  showView(name);
}

async function init() {
  let engine = home.name === "site" ? "loading" : "ready";
  await loadCatalog(home);  // on a site, files made at build time: there before Python is
  const play = createPlay(home, { onChange: () => { waits.render(); advise.render(); seasonLink(document.body.dataset.game); } });
  const waits = createWaits(home, play.variant);
  const advise = createAdvise(home, play.variant);
  onLang(() => { play.relang(); showHome(engine); });
  $("season-link").hidden = home.name !== "serve";  // the season is the server's games
  seasonLink(null);
  $("lang").addEventListener("click", toggleLang);
  document.querySelectorAll(".tab").forEach((b) => b.addEventListener("click", () => goView(b.dataset.tab)));
  window.addEventListener("popstate", (e) => showView((e.state && e.state.view) || viewIn(location.href)));
  showView(viewIn(location.href));
  applyLang();
  document.body.dataset.shown = "1";  // tiles and entry are usable; on a site the engine may still be loading
  if (home.name === "site") {
    try {
      const started = await home.ready;
      engine = "ready";
      document.body.dataset.engineMs = String(Math.round(started.ms));
      document.body.dataset.engineSteps = JSON.stringify(started.steps);
    } catch (err) {
      engine = "failed";
    }
    showHome(engine);
  }
  await play.loadGames();
  const params = new URLSearchParams(location.search);
  const wanted = params.get("game") || (play.games()[0] && play.games()[0].id);
  if (wanted != null && wanted !== "") await play.choose(wanted);
  else play.render();
  if (params.get("new")) play.openNew();  // the link `mjcalc serve` prints: ready to begin a game
  document.body.dataset.ready = "1";
}
init();
