"""Pyodide's own start in headless Chromium, each way a site may ship it: what `loadPyodide` and a few
imports take on the second and later starts (a phone opening the page again), the ways taking turns
in one browser profile so that a machine's changing load weighs on each alike.

Ways (each from a service worker's cache, as a site's page loads it):

* `npm`: the npm package's files as they are (the wasm 9.6 MB, the whole stdlib, the lock file);
* `site`: what `mjcalc site build` ships (web/site_pyodide.py): the wasm gzipped and unpacked once by
  the service worker into its cache, the trimmed stdlib, the bare lock file;
* `unpacked-each-start`: the site's files, the gzipped wasm unpacked in the page at every start (what
  the engine's worker does where there is no service worker);
* `snapshot` (with --snapshot): the site's files, and Python's memory after the imports kept in the
  cache and restored at start (`loadPyodide`'s `_makeSnapshot` / `_loadSnapshot`: options Pyodide
  marks private; measured, not used by the site).

    python bench/site_pyodide.py --pyodide /path/to/pyodide-314.0.8.tgz [--runs 10] [--snapshot]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
from pathlib import Path
from typing import Any, ClassVar

CHROMIUM = "/usr/bin/chromium"
FILES = ["pyodide.mjs", "pyodide.asm.mjs", "python_stdlib.zip", "pyodide-lock.json", "package.json"]
IMPORTS = "import json, sqlite3, zipfile, gettext, decimal, csv, dataclasses, typing, re, random, hashlib, tempfile, shutil, datetime"

SW = """
const WAYS = %(ways)s;
self.addEventListener("install", (e) => e.waitUntil((async () => {
  const c = await caches.open("ways");
  for (const [way, files] of Object.entries(WAYS)) await c.addAll(files.map((f) => `${way}/${f}`));
  for (const way of ["site", "snapshot"]) {
    if (!WAYS[way]) continue;
    const gz = await fetch(`${way}/pyodide.asm.wasm.gz`);
    const wasm = gz.body.pipeThrough(new DecompressionStream("gzip"));
    await c.put(`${way}/pyodide.asm.wasm`, new Response(wasm, { headers: { "content-type": "application/wasm" } }));
  }
  await self.skipWaiting();
})()));
self.addEventListener("activate", (e) => e.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (e) => e.respondWith(caches.open("ways")
  .then((c) => c.match(e.request, { ignoreSearch: true })).then((r) => r || fetch(e.request))));
"""

PAGE = """<!doctype html><meta charset="utf-8"><script type="module">
const IMPORTS = %(imports)s;
const plainFetch = self.fetch.bind(self);
window.start = async (way) => {
  if (way === "unpacked-each-start") {
    self.fetch = async (input, init) => {
      const url = String(input.url || input);
      if (!url.endsWith("/pyodide.asm.wasm")) return plainFetch(input, init);
      const gz = await plainFetch(`${url}.gz`);
      return new Response(gz.body.pipeThrough(new DecompressionStream("gzip")), { headers: { "content-type": "application/wasm" } });
    };
  }
  const { loadPyodide } = await import(`./${way}/pyodide.mjs`);
  const indexURL = new URL(`./${way}/`, location.href).href;
  const t0 = performance.now();
  let py;
  if (way === "snapshot") {
    const kept = await caches.open("snapshot").then((c) => c.match("memory"));
    if (!kept) {  // made once, then restored at every start
      const maker = await loadPyodide({ indexURL, _makeSnapshot: true });
      maker.runPython(IMPORTS);
      const memory = maker.makeMemorySnapshot();
      await caches.open("snapshot").then((c) => c.put("memory", new Response(memory)));
      window.snapshotBytes = memory.byteLength;
      return null;
    }
    py = await loadPyodide({ indexURL, _loadSnapshot: new Uint8Array(await kept.arrayBuffer()) });
  } else {
    py = await loadPyodide({ indexURL });
  }
  const t1 = performance.now();
  py.runPython(IMPORTS);
  return [Math.round(t1 - t0), Math.round(performance.now() - t1)];
};
window.ready = navigator.serviceWorker.register("sw.js").then(() => new Promise((ok) => {
  if (navigator.serviceWorker.controller) ok(); else navigator.serviceWorker.addEventListener("controllerchange", ok);
}));
</script>
"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                                                ".mjs": "text/javascript"}

    def log_message(self, format: str, *args: Any) -> None:
        pass


def lay_out(root: Path, pyodide: str, snapshot: bool) -> list[str]:
    """The ways' folders under `root`, the page and its service worker; the ways' names."""
    npm = root / "npm"
    npm.mkdir()
    with tarfile.open(pyodide, "r:gz") as tar:
        for name in [*FILES, "pyodide.asm.wasm"]:
            member = tar.extractfile(f"package/{name}")
            assert member is not None
            (npm / name).write_bytes(member.read())
    built = root / "built"
    subprocess.run([sys.executable, "-m", "mahjong_calc", "site", "build", str(built), "--pyodide", pyodide], check=True,
                   capture_output=True)
    ways = {"npm": [*FILES, "pyodide.asm.wasm"]}
    for way in ["site", "unpacked-each-start", *(["snapshot"] if snapshot else [])]:
        (root / way).symlink_to(built / "static" / "pyodide")
        ways[way] = [*FILES, "pyodide.asm.wasm.gz"]
    (root / "sw.js").write_text(SW % {"ways": json.dumps(ways)}, encoding="utf-8")
    (root / "index.html").write_text(PAGE % {"imports": json.dumps(IMPORTS)}, encoding="utf-8")
    return list(ways)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pyodide", default=os.environ.get("MJCALC_PYODIDE"), help="the pyodide@314.0.8 tarball")
    parser.add_argument("--runs", type=int, default=10, help="starts of each way, after a first one left out")
    parser.add_argument("--snapshot", action="store_true", help="also a start from a memory snapshot")
    args = parser.parse_args()
    if not args.pyodide:
        sys.exit("give --pyodide PATH or MJCALC_PYODIDE (npm pack pyodide@314.0.8)")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "www"
        root.mkdir()
        ways = lay_out(root, args.pyodide, args.snapshot)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
        times: dict[str, list[int]] = {way: [] for way in ways}
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(str(Path(tmp) / "profile"), executable_path=CHROMIUM, args=["--no-sandbox"],
                                                           headless=True)
            page = context.new_page()
            for run_no in range(args.runs + 1):
                order = ways if run_no % 2 == 0 else ways[::-1]
                said = []
                for way in order:
                    page.close()
                    page = context.new_page()
                    page.set_default_timeout(300_000)
                    page.goto(url)
                    page.evaluate("window.ready")
                    got = page.evaluate(f"window.start({json.dumps(way)})")  # None: the snapshot made, restored from the next run
                    if got is not None and run_no > 0:
                        times[way].append(got[0] + got[1])
                    said.append(f"{way} {got}" if got is not None else f"{way}: snapshot made, {page.evaluate('window.snapshotBytes') / 1e6:.1f} MB")
                print(f"run {run_no}{' (left out)' if run_no == 0 else ''}: " + "; ".join(said) + f"; load {os.getloadavg()[0]:.1f}", flush=True)
            context.close()
        server.shutdown()
    for way, got in times.items():
        if got:
            print(f"{way}: loadPyodide and the imports, median {statistics.median(got) / 1000:.2f} s, "
                  f"fastest {min(got) / 1000:.2f} s, slowest {max(got) / 1000:.2f} s ({len(got)} starts)")
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
