// A game's event stream from `mjcalc serve`, read with fetch (which, unlike EventSource, sees a refusal's
// status and Retry-After). The server sends `ready`, one `change` per new version, and while quiet a
// heartbeat comment every few seconds (`: heartbeat {"version", "streams", "every"}`): a stream that says
// nothing for two heartbeats and more has stalled (a phone that slept, a network that dropped) and is opened
// again, and its `ready` tells the page what it missed.
const STALLED = (every) => (2 * every + 2) * 1000;  // ms of silence after which the stream is taken as dead

function retryAfter(res) { const v = res.headers.get("retry-after"); return v && /^[0-9]+$/.test(v) ? Number(v) : null; }

// on: {change(version, data) per `ready` and `change`, beat(data) per heartbeat, refused(error) on a 429 or 503,
// refused(null) once open again}; returns {stop(), wake(force)}: wake opens the stream again now if it is silent
// (or always, with force: the network came back, so the old connection is likely dead)
export function follow(url, headers, on) {
  let stopped = false, ctrl = null, timer = null, stall = null, heard = 0, every = 5;
  const again = (ms) => { clearTimeout(timer); if (!stopped) timer = setTimeout(open, ms); };
  const alive = () => {
    heard = Date.now();
    clearTimeout(stall);
    stall = setTimeout(() => { if (ctrl) ctrl.abort(); }, STALLED(every));
  };
  async function open() {
    if (stopped) return;
    if (ctrl) ctrl.abort();
    const mine = ctrl = new AbortController();
    alive();  // an answer that never comes counts as a stall too
    let res;
    try { res = await fetch(url, { headers, signal: mine.signal, cache: "no-store" }); } catch (e) {
      if (mine === ctrl) { clearTimeout(stall); again(2000); }
      return;
    }
    if (res.status !== 200) {
      clearTimeout(stall);
      const wait = retryAfter(res);
      let data = null;
      try { data = await res.json(); } catch (e) { data = null; }
      if ((res.status === 429 || res.status === 503) && data) on.refused({ ...data, retry_after: wait });
      again(wait != null ? wait * 1000 : 5000);
      return;
    }
    on.refused(null);
    let retry = 1000, buffer = "";
    const reader = res.body.getReader(), decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        alive();
        buffer += decoder.decode(value, { stream: true });
        for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let kind = "message", data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith("event:")) kind = line.slice(6).trim();
            else if (line.startsWith("data:")) data += line.slice(5).trim();
            else if (line.startsWith("retry:")) retry = Number(line.slice(6)) || retry;
            else if (line.startsWith(": heartbeat ")) {
              const beat = JSON.parse(line.slice(12));
              if (beat.every > 0) { every = beat.every; alive(); }
              on.beat(beat);
            }
          }
          if ((kind === "ready" || kind === "change") && data) { const d = JSON.parse(data); on.change(d.version, d); }
        }
      }
    } catch (e) { /* stopped, stalled, or the connection was cut: start again below */ }
    if (mine === ctrl) { clearTimeout(stall); again(retry); }
  }
  open();
  return {
    stop() { stopped = true; clearTimeout(timer); clearTimeout(stall); if (ctrl) ctrl.abort(); },
    wake(force) { if (!stopped && (force || Date.now() - heard > every * 1000 + 1500)) again(0); },
  };
}
