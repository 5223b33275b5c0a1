"""The static site (`mjcalc site build`) in headless Chromium: what a first visit costs, how long
the engine takes to start, cold and warm, and how long one score takes in the page.

Builds the site into a temporary folder (with the Pyodide copy given by --pyodide or
MJCALC_PYODIDE: the tarball of `npm pack pyodide@314.0.8`), serves it from a loopback
static server that gzips what the browser accepts gzipped (as static hosts do), and:

* bytes of a first visit: every byte the server sends for one visit of a fresh browser
  profile until the service worker has kept the site (gzipped, and without gzip; the
  warm start after it is not counted);
* cold start: from opening the page in a fresh profile to the first score's answer;
* warm start: the same profile, the page opened again (the service worker's cache);
* a score's time in the page: `await window.mjcalc.score(record)` for DISTINCT random hands
  of every variant, one at a time, median and p90 (the page to the worker and back).

Prints the figures, and the biggest files; asserts nothing (targets: first visit <= 10 MB
without gzip, cold <= 8 s, warm <= 3 s, a score <= 5 ms). `--runs N` visits N times in fresh
profiles (medians, and where the engine's start went: the worker's own marks); `--site DIR`
measures a folder built before (another commit's, to compare) instead of building one.

    python bench/site.py --pyodide /path/to/pyodide-314.0.8.tgz
    python bench/site.py --site /tmp/old-site --site /tmp/new-site --runs 3 --distinct 0
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import run  # noqa: E402  (bench/run.py: the random hands)

CHROMIUM = "/usr/bin/chromium"
VARIANTS = ["wuhu315", "wuhu525", "chizhou", "pujiang"]


class Counting(http.server.SimpleHTTPRequestHandler):
    """A static server that gzips a file when the request accepts it, and counts what it sends."""

    sent = 0
    gzip_on = True
    lock = threading.Lock()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if not path.is_file():
            self.send_error(404)
            return
        body = path.read_bytes()
        zipped = self.gzip_on and "gzip" in self.headers.get("accept-encoding", "")
        if zipped:
            body = gzip.compress(body, 6)
        self.send_response(200)
        self.send_header("content-type", self.guess_type(str(path)))
        if zipped:
            self.send_header("content-encoding", "gzip")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):  # the browser closed the page; what it had is counted
            return
        with self.lock:
            type(self).sent += len(body)


def serve(root: Path, gzip_on: bool) -> tuple[http.server.ThreadingHTTPServer, type[Counting]]:
    handler = type("Handler", (Counting,), {"sent": 0, "gzip_on": gzip_on})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, handler


FIRST_SCORE = "window.mjcalc.ready.then(() => window.mjcalc.score({hand: '13m456m678m11p555p2m', self_draw: true}))"
KEPT = ("caches.keys().then((ks) => Promise.all(ks.map((k) => caches.open(k).then((c) => c.keys()))))"
        ".then((all) => all.flat().length >= 20)")


STEPS = "JSON.parse(document.body.dataset.engineSteps || '{}')"


def visit(sync_api: Any, url: str, profile: Path, handler: type[Counting]) -> tuple[float, float, int, dict[str, Any]]:
    """(cold start to the first score, warm start to the first score, in seconds; bytes the first visit sent;
    the worker's marks of each start) in one fresh profile."""
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
        pg = context.new_page()
        pg.set_default_timeout(180_000)
        t0 = time.perf_counter()
        pg.goto(url)
        pg.evaluate(FIRST_SCORE)
        cold = time.perf_counter() - t0
        pg.wait_for_function("document.body.dataset.engineSteps")
        steps = {"cold": pg.evaluate(STEPS)}
        pg.wait_for_function(KEPT)
        sent = handler.sent
        pg.close()
        pg = context.new_page()
        t0 = time.perf_counter()
        pg.goto(url)
        pg.evaluate(FIRST_SCORE)
        warm = time.perf_counter() - t0
        pg.wait_for_function("document.body.dataset.engineSteps")
        steps["warm"] = pg.evaluate(STEPS)
        context.close()
    return cold, warm, sent, steps


def score_times(sync_api: Any, url: str, records: list[dict[str, Any]]) -> list[float]:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        pg = browser.new_page()
        pg.set_default_timeout(180_000)
        pg.goto(url)
        pg.evaluate("window.mjcalc.ready")
        times = pg.evaluate("""async (records) => {
            const out = [];
            for (const r of records) { const t0 = performance.now(); await window.mjcalc.score(r); out.push(performance.now() - t0); }
            return out;
        }""", records)
        browser.close()
    return [float(t) for t in times]


def sizes(site: Path) -> str:
    files = sorted((p for p in site.rglob("*") if p.is_file()), key=lambda p: -p.stat().st_size)
    return (f"site {site}: {sum(p.stat().st_size for p in files) / 1e6:.2f} MB on disk; the biggest files: "
            + ", ".join(f"{p.relative_to(site)} {p.stat().st_size / 1e6:.2f} MB" for p in files[:5]))


def measure(sync_api: Any, sites: list[Path], tmp: Path, runs: int, distinct: int, seed: int, modes: tuple[bool, ...] = (True, False)) -> None:
    """Each site's first visit, cold and warm start, `runs` times in fresh profiles; with several sites the
    runs take turns (site 1, site 2, site 1, ...), so that a machine's load that changes meanwhile weighs on each alike."""
    for site in sites:
        print(sizes(site))
    for gzip_on in modes:
        label = "gzip" if gzip_on else "no gzip"
        served = [serve(site, gzip_on) for site in sites]
        got: dict[Path, list[tuple[float, float, int]]] = {site: [] for site in sites}
        for run_no in range(runs):
            for site, (server, handler) in zip(sites, served, strict=True):
                handler.sent = 0
                url = f"http://127.0.0.1:{server.server_address[1]}/"
                cold, warm, sent, steps = visit(sync_api, url, tmp / f"profile-{len(got[site])}-{site.name}-{gzip_on}", handler)
                got[site].append((cold, warm, sent))
                print(f"  {site.name}, {label}, run {run_no + 1}: cold {cold:.2f} s {steps['cold']}; warm {warm:.2f} s {steps['warm']}; "
                      f"load {os.getloadavg()[0]:.1f}", flush=True)
        for site in sites:
            colds, warms, sents = zip(*got[site], strict=True)
            print(f"{site.name}: first visit ({label}): {statistics.median(sents) / 1e6:.2f} MB sent (target <= 10 MB without gzip); "
                  f"cold start to the first score {statistics.median(colds):.2f} s (<= 8 s); warm {statistics.median(warms):.2f} s (<= 3 s)")
        if gzip_on and distinct:
            server = served[-1][0]
            rng = random.Random(seed)
            records = [run.random_hand(rng, VARIANTS[i % 4]) for i in range(distinct)]
            times = sorted(score_times(sync_api, f"http://127.0.0.1:{server.server_address[1]}/", records))
            p90 = times[int(len(times) * 0.9)]
            print(f"a score in the page ({len(times)} distinct hands, 4 variants): median {statistics.median(times):.2f} ms, "
                  f"p90 {p90:.2f} ms (target <= 5 ms)")
        for server, _ in served:
            server.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pyodide", default=os.environ.get("MJCALC_PYODIDE"), help="the pyodide@314.0.8 tarball or folder")
    parser.add_argument("--site", action="append", type=Path, help="measure this built site instead (repeat to compare)")
    parser.add_argument("--runs", type=int, default=1, help="visits in fresh profiles (medians)")
    parser.add_argument("--distinct", type=int, default=400, help="random hands timed in the page (all variants)")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--only", choices=["gzip", "no-gzip"], help="serve the site one way only")
    args = parser.parse_args()
    if not args.site and not args.pyodide:
        sys.exit("give --pyodide PATH or MJCALC_PYODIDE (npm pack pyodide@314.0.8), or --site DIR")
    from playwright import sync_api

    with tempfile.TemporaryDirectory() as tmp:
        sites = args.site or []
        if not sites:
            sites = [Path(tmp) / "site"]
            subprocess.run([sys.executable, "-m", "mahjong_calc", "site", "build", str(sites[0]), "--pyodide", args.pyodide], check=True)
        modes = (True, False) if args.only is None else (args.only == "gzip",)
        measure(sync_api, sites, Path(tmp), args.runs, args.distinct, args.seed, modes)
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
