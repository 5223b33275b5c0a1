// window.mjcalc: the engine for scripts and pages that embed this one. Each call takes a batch record
// (the keys of a `mjcalc batch` JSON Lines record) and gives the JSON text `mjcalc score --json`,
// `waits --json` or `advise --json` prints for it: on a site, from mjcalc's Python in the page.
export function installEngine(home) {
  const engine = home.engine;
  window.mjcalc = Object.freeze({
    home: home.name,
    ready: engine.ready.then(() => undefined),
    score: (record) => engine.score(record),
    waits: (record) => engine.waits(record),
    advise: (record) => engine.advise(record),
  });
}
