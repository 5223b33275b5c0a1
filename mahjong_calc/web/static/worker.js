// The engine of the page without a server: mjcalc's own Python on Pyodide, in a Web Worker.
// It answers the requests the page sends `mjcalc serve` (web/pocket.py) and window.mjcalc's calls
// (present/answers.py); games live in a SQLite file the worker keeps in IndexedDB.
import "./unpack.js";
import { loadPyodide } from "./pyodide/pyodide.mjs";

// The site ships the WebAssembly gzipped (web/site_pyodide.py). With a service worker (`?kept=1`, transport.js)
// Pyodide's fetch of `pyodide.asm.wasm` gets it unpacked from its cache (sw.js): a response the browser also keeps
// the compiled code of, for the next start. Without one, it is unpacked here, on its way to Pyodide.
const plainFetch = self.fetch.bind(self);
const kept = new URL(import.meta.url).searchParams.get("kept") === "1";
self.fetch = async (input, init) => {
  const url = String(input.url || input);
  if (!url.endsWith("/pyodide.asm.wasm")) return plainFetch(input, init);
  if (kept) {
    const res = await plainFetch(input, init);
    if (res.ok && (res.headers.get("content-type") || "").includes("wasm")) return res;  // else a cache of another build
  }
  return self.mjcalcUnpacked(await plainFetch(`${url}.gz`), "application/wasm");
};

const began = performance.now();
const steps = {};  // milliseconds since the worker began, at the end of each step of the start (bench/site.py prints them)
const mark = (name) => { steps[name] = Math.round(performance.now() - began); };
let pocket = null;
const ready = (async () => {
  const py = await loadPyodide({ indexURL: new URL("./pyodide/", import.meta.url).href, packages: [] });
  mark("pyodide");
  const zip = await fetch(new URL("./mjcalc.zip", import.meta.url));
  if (!zip.ok) throw new Error(`mjcalc.zip: ${zip.status}`);
  py.unpackArchive(await zip.arrayBuffer(), "zip", { extractDir: "/lib/mjcalc" });
  py.FS.mkdirTree("/data");
  py.FS.mount(py.FS.filesystems.IDBFS, {}, "/data");
  await sync(py, true);
  mark("files");
  // One fixed time on the unpacked files, so that what a start compiles and validates is still good at the next:
  // the modules' bytecode (kept in /data/pycache) and the validated rulesets (rules/cache.py, in /data/cache).
  py.runPython(`
import os, sys
for folder, _, names in os.walk("/lib/mjcalc"):
    for name in names:
        os.utime(os.path.join(folder, name), (1577836800, 1577836800))
sys.pycache_prefix = "/data/pycache"
sys.path.insert(0, "/lib/mjcalc")
os.environ["MJCALC_CACHE_DIR"] = "/data/cache"
`);
  pocket = { py, module: py.pyimport("mahjong_calc.web.pocket") };
  mark("import");
  pocket.module.answer("GET", "/api/variants");  // the rulesets loaded (and cached in /data) before the first hand
  mark("rulesets");
  await sync(py, false);
  mark("saved");
  return performance.now() - began;
})();

function sync(py, load) {
  return new Promise((done, failed) => py.FS.syncfs(load, (err) => (err ? failed(err) : done())));
}

let queue = Promise.resolve();  // one call at a time: Python is single-threaded, and each write is saved before the next
self.onmessage = (event) => {
  const msg = event.data;
  queue = queue.then(() => run(msg)).catch((err) => self.postMessage({ id: msg.id, failed: String(err) }));
};

async function run(msg) {
  await ready;
  if (msg.kind === "request") {
    const [status, etag, body] = JSON.parse(pocket.module.handle(JSON.stringify(msg.request)));
    if (msg.request.method !== "GET" && status < 300) await sync(pocket.py, false);
    self.postMessage({ id: msg.id, status, etag, body });
  } else {
    const t0 = performance.now();
    const text = pocket.module.engine(msg.kind, JSON.stringify(msg.record));
    self.postMessage({ id: msg.id, text, ms: performance.now() - t0 });
  }
}

ready.then((ms) => self.postMessage({ ready: true, ms, steps }), (err) => self.postMessage({ ready: false, failed: String(err) }));
