// Changes sent to a game, never lost silently: "saving…" until the home answers; no answer at all (no
// network), a server error, 429 or 503 is said in the page's language naming the hand, the entry stays, and
// 重试 sends it again (429 and 503 wait their Retry-After, or a growing pause, and try again by themselves,
// counting down on screen). An answer that reached the server (done, refused, or 409) goes to the change's `done`.
import { codeOf, problem } from "./catalog.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";

const AUTO_TRIES = 6;  // 429/503: tried again by themselves this many times, then by 重试 only

// say a line of the write's on the message line: `state` is saving, waiting (a countdown) or failed (重试 shown)
function show(text, state, code) {
  const box = $("message");
  box.textContent = text;
  box.className = `message${state === "saving" ? " ok" : ""}`;
  box.dataset.state = state;
  if (code) box.dataset.code = code; else delete box.dataset.code;
  delete box.dataset.notice;
  $("retry").hidden = state === "saving";
  document.body.dataset.saving = state === "saving" ? "1" : "";
}

// player(): who holds this phone; a write: {method, path, body, version, game, what (the hand named), done(answer)}
export function createWriter(home, { player }) {
  let pending = null, failed = null, wake = null;

  function pause(w, why, seconds) {  // a visible countdown, cut short by 重试
    return new Promise((done) => {
      let left = seconds;
      const tick = () => show(t("not_saved_wait", { what: w.what, why, s: left }), "waiting", "");
      const timer = setInterval(() => { left -= 1; if (left <= 0) finish(); else tick(); }, 1000);
      const finish = () => { clearInterval(timer); wake = null; done(); };
      wake = finish;
      tick();
    });
  }

  async function send(w) {
    failed = null;
    for (let tries = 1; ; tries++) {
      show(t("saving", { what: w.what }), "saving");
      const sent = home.request(w.method, w.path, w.body, { game: w.game, version: w.version, player: player() })
        .catch((err) => ({ status: 0, data: { valid: false, error: { code: "engine", message: String(err.message || err) } } }));
      pending = sent;
      const answer = await sent;
      if (pending === sent) pending = null;
      const status = answer.status, code = codeOf(answer.data);
      if ((status === 429 || status === 503) && tries < AUTO_TRIES) {
        await pause(w, problem({ error: answer.data.error || {} }), answer.data.retry_after || Math.min(30, 2 ** tries));
        continue;
      }
      if (status === 0 || status >= 500 || status === 429) {  // it did not reach the game: kept, to be sent again
        failed = w;
        show(t("not_saved", { what: w.what, why: problem(answer.data) }), "failed", code);
        return null;
      }
      delete document.body.dataset.saving;
      $("retry").hidden = true;
      return w.done(answer);
    }
  }

  $("retry").addEventListener("click", () => {
    if (wake) wake();
    else if (failed && !pending) send(failed);
  });

  return {
    send,
    pending: () => pending,
    busy: () => pending != null || wake != null,
    failing: () => failed != null,  // a write that did not reach the server is on screen, with 重试
    // the write that did not reach the server, if `method path body` is it again (sent as it was made then,
    // against the same version: had it reached the game after all, the game refuses it as stale and says so)
    failedAs(method, path, body) {
      return failed && failed.method === method && failed.path === path && JSON.stringify(failed.body) === JSON.stringify(body) ? failed : null;
    },
    forget() { failed = null; if (!pending) $("retry").hidden = true; },
  };
}
