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

Prints the figures; asserts nothing (targets: first visit <= 10 MB, cold <= 8 s,
warm <= 3 s, a score <= 5 ms).

    python bench/site.py --pyodide /path/to/pyodide-314.0.8.tgz
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


def visit(sync_api: Any, url: str, profile: Path, handler: type[Counting]) -> tuple[float, float, int]:
    """(cold start to the first score, warm start to the first score, in seconds; bytes the first visit sent)
    in one fresh profile."""
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
        pg = context.new_page()
        pg.set_default_timeout(180_000)
        t0 = time.perf_counter()
        pg.goto(url)
        pg.evaluate(FIRST_SCORE)
        cold = time.perf_counter() - t0
        pg.wait_for_function(KEPT)
        sent = handler.sent
        pg.close()
        pg = context.new_page()
        t0 = time.perf_counter()
        pg.goto(url)
        pg.evaluate(FIRST_SCORE)
        warm = time.perf_counter() - t0
        context.close()
    return cold, warm, sent


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pyodide", default=os.environ.get("MJCALC_PYODIDE"), help="the pyodide@314.0.8 tarball or folder")
    parser.add_argument("--distinct", type=int, default=400, help="random hands timed in the page (all variants)")
    parser.add_argument("--seed", type=int, default=32)
    args = parser.parse_args()
    if not args.pyodide:
        sys.exit("give --pyodide PATH or MJCALC_PYODIDE (npm pack pyodide@314.0.8)")
    from playwright import sync_api

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        subprocess.run([sys.executable, "-m", "mahjong_calc", "site", "build", str(site), "--pyodide", args.pyodide], check=True)
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        print(f"site: {size / 1e6:.2f} MB on disk")
        for gzip_on in (True, False):
            server, handler = serve(site, gzip_on)
            url = f"http://127.0.0.1:{server.server_address[1]}/"
            cold, warm, sent_first = visit(sync_api, url, Path(tmp) / f"profile-{gzip_on}", handler)
            label = "gzip" if gzip_on else "no gzip"
            print(f"first visit ({label}): {sent_first / 1e6:.2f} MB sent (target <= 10 MB); "
                  f"cold start to the first score {cold:.2f} s (<= 8 s); warm {warm:.2f} s (<= 3 s)")
            if gzip_on:
                rng = random.Random(args.seed)
                records = [run.random_hand(rng, VARIANTS[i % 4]) for i in range(args.distinct)]
                times = sorted(score_times(sync_api, url, records))
                p90 = times[int(len(times) * 0.9)]
                print(f"a score in the page ({len(times)} distinct hands, 4 variants): median {statistics.median(times):.2f} ms, "
                      f"p90 {p90:.2f} ms (target <= 5 ms)")
            server.shutdown()
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
