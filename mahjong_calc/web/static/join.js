// The join panel at the top of the play view: the game's link and its QR code to show the others, and
// 本机玩家 (who holds this phone, remembered per game, named in the others' notices). It opens by itself on the
// phone that began the game, until another phone follows the game (the event stream's heartbeat counts them)
// or a hand is recorded; on a joined phone it starts closed. On loopback it says how to let other phones in.
import { $, el } from "./dom.js";
import { t } from "./i18n.js";

const BEGUN = "mjcalc.begun";  // the game this tab began (kept over a reload of the tab)

function people() { try { return JSON.parse(localStorage.getItem("mjcalc.players") || "{}"); } catch (e) { return {}; } }

export function createJoin(home, view) {
  let data = null, open = false, auto = false;

  function me() { const p = people()[view.id]; return view.state && view.state.players.includes(p) ? p : null; }
  function chooseMe(game, name) {
    const all = people();
    if (name) all[game] = name; else delete all[game];
    localStorage.setItem("mjcalc.players", JSON.stringify(all));
  }

  function render() {
    const box = $("join");
    box.hidden = view.id == null || !data;
    document.body.dataset.join = box.hidden ? "" : open ? "open" : "closed";
    if (box.hidden) { $("join-body").replaceChildren(); return; }  // no other game's link, even hidden
    $("me").replaceChildren(el("option", { value: "" }, t("me_nobody")), ...view.state.players.map((p) => el("option", { value: p }, p)));
    $("me").value = me() || "";
    $("join-toggle").textContent = open ? t("join_hide") : t("join_show");
    $("join-toggle").hidden = !data.shared;
    const parts = [];
    if (!data.shared) {
      parts.push(el("p", { class: "hint", "data-testid": "join-local" }, t("join_local")), el("code", {}, "mjcalc serve --host 0.0.0.0"));
    } else if (open) {
      parts.push(el("p", { class: "hint" }, t("join_scan")));
      if (data.svg) parts.push(el("img", { src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(data.svg)}`, alt: data.url, "data-testid": "join-qr", class: "qr" }));
    }
    if (data.shared ? open : true) parts.push(el("a", { href: data.url, "data-testid": "join-link" }, data.url));
    $("join-body").replaceChildren(...parts);
  }

  // the game on screen changed: its join link, the panel open only on the phone that began it
  async function show() {
    data = null; open = auto = false;
    render();
    if (view.id == null || !home.canJoin) return;
    const game = view.id;
    const answer = await home.request("GET", `/api/games/${game}/join`, undefined, { game });
    if (answer.status !== 200 || view.id !== game) return;
    data = answer.data;
    open = auto = sessionStorage.getItem(BEGUN) === String(game) && !!view.state && view.state.hands.length === 0;
    render();
  }

  // close the panel that opened by itself, once it has done its work: another phone follows the game
  // (`streams`, from the heartbeat: two or more) or a hand is recorded
  function settle(streams) {
    if (!auto || !open) return;
    if ((view.state && view.state.hands.length > 0) || streams > 1) {
      open = auto = false;
      sessionStorage.removeItem(BEGUN);
      render();
    }
  }

  $("join-toggle").addEventListener("click", () => { open = !open; auto = false; render(); });
  $("me").addEventListener("change", (e) => { chooseMe(view.id, e.target.value); render(); });
  return { render, show, settle, me, chooseMe, began: (game) => sessionStorage.setItem(BEGUN, String(game)) };
}
