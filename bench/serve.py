"""Load check for `mjcalc serve`: 200 concurrent `POST /api/score` requests on loopback;
then the time from a hand added by one client to its event arriving at another.

Starts `python -m mahjong_calc serve` on a free loopback port with a throw-away games
database, sends REQUESTS requests from REQUESTS threads released at the same moment
(so all 200 are in flight at once), and prints the p50 and p99 latency and the error
count (any answer other than 200 with `"valid": true`, or a failed connection). Then one
client listens to a game's `GET /api/games/{id}/events` while another adds HANDS hands one
at a time (`POST /api/games/{id}/hands`) and, for a change made elsewhere, by `mjcalc game
add` in another process; it prints the time from each hand sent (for the CLI: from the
hand seen in the database) to its `change` event arriving (p50 and the largest). Bounded in count and time: every request has a timeout,
and the server is stopped at the end.

    python bench/serve.py            # needs the web extra: pip install '.[web]'
    python bench/serve.py --requests 500 --rounds 3
    python bench/serve.py --no-streams      # without the event-stream count at 1,024 open files

Then the figures of long games (`--no-games` leaves them out), on a database written straight
(a game of 999 hands, one of 9, one of 1,000 hands and 10,000 events): the time to add a hand
(`POST /api/games/{id}/hands`, then undo it, so the game stays as long) at hand 10 and at hand
1,000, and their ratio; a small game's state (`GET /api/games/{id}`) while the 1,000-hand game
is exported three times at once; and the server's memory (VmRSS, and its peak VmHWM) while eight
clients read the 10,000-event history at once.

Last, it counts the event streams a server started with 1,024 open files holds (`GET
/api/games/{id}/events`, 50 more at a time, the per-game and per-client caps lifted) while a
normal `GET /api/games` still answers, with the time of that request and the server's open
files at each step, and the CPU the idle streams take.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

RECORDS = [
    {"hand": "123456m13m99p555p2m", "self_draw": True},
    {"hand": "123456m13m99p555p2m", "discarder": "next"},
    {"hand": "123m456m678m11p555p"},
    {"hand": "123m456m99m789p", "melds": ["1111s"], "after_kong": True},
    {"hand": "11122233344455m", "variant": "chizhou", "self_draw": True},
]
TIMEOUT = 60.0  # seconds, per request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, db: Path) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "mahjong_calc", "serve", "--port", str(port), "--db", str(db)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"mjcalc serve exited: {proc.stderr.read().decode(errors='replace') if proc.stderr else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("mjcalc serve did not start within 30 s")


def one(port: int, body: bytes, gate: threading.Barrier, out: list[tuple[float, str | None]]) -> None:
    gate.wait()
    started = time.perf_counter()
    error: str | None = None
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        conn.request("POST", "/api/score", body, {"content-type": "application/json"})
        response = conn.getresponse()
        data = response.read()
        conn.close()
        if response.status in (429, 503):  # refused at once by the bounded pool (busy, too_many_requests)
            error = f"refused {response.status}"
        elif response.status != 200 or json.loads(data).get("valid") is not True:
            error = f"status {response.status}: {data[:120]!r}"
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
    out.append((time.perf_counter() - started, error))


def round_of(port: int, n: int) -> list[tuple[float, str | None]]:
    bodies = [json.dumps(RECORDS[i % len(RECORDS)]).encode() for i in range(n)]
    gate = threading.Barrier(n)
    out: list[tuple[float, str | None]] = []
    threads = [threading.Thread(target=one, args=(port, bodies[i], gate, out), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT + 5)
    missing = n - len(out)
    return out + [(TIMEOUT, "no answer")] * missing


HANDS = 20  # hands added one at a time, for the add -> event latency


def add_to_event(port: int, db: Path) -> tuple[list[float], list[float]]:
    """(seconds from a POST of a hand to its event at another client; the same for `mjcalc game add`)."""
    def send(method: str, path: str, body: object) -> dict[str, object]:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        conn.request(method, path, json.dumps(body).encode(), {"content-type": "application/json"})
        answer = json.loads(conn.getresponse().read())
        conn.close()
        return answer  # type: ignore[no-any-return]

    game = send("POST", "/api/games", {"variant": "wuhu315", "players": ["A", "B", "C", "D"], "dealer": "A"})["id"]
    arrived: dict[int, float] = {}
    ready = threading.Event()

    def listen() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        conn.request("GET", f"/api/games/{game}/events")
        stream = conn.getresponse()
        while len(arrived) < 2 * HANDS:
            line = stream.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                now = time.perf_counter()
                version = json.loads(line[6:])["version"]
                if version == 0:
                    ready.set()
                else:
                    arrived[version] = now
        conn.close()

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    ready.wait(TIMEOUT)
    api: list[float] = []
    for version in range(1, HANDS + 1):
        sent = time.perf_counter()
        send("POST", f"/api/games/{game}/hands", {"draw": True})
        while version not in arrived and time.perf_counter() - sent < TIMEOUT:
            time.sleep(0.001)
        api.append(arrived.get(version, sent + TIMEOUT) - sent)
    cli: list[float] = []
    cmd = [sys.executable, "-m", "mahjong_calc", "game", "add", str(game), "--draw", "--db", str(db)]
    import sqlite3

    look = sqlite3.connect(str(db), timeout=TIMEOUT)
    for version in range(HANDS + 1, 2 * HANDS + 1):
        child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        written = None  # when the hand is in the database, seen by looking every millisecond
        while written is None and (child.poll() is None or version not in arrived):
            (now,) = look.execute("SELECT events FROM games WHERE id = ?", (game,)).fetchone()
            if now >= version:
                written = time.perf_counter()
            time.sleep(0.001)
        child.wait(TIMEOUT)
        written = written if written is not None else time.perf_counter()
        while version not in arrived and time.perf_counter() - written < TIMEOUT:
            time.sleep(0.001)
        cli.append(max(0.0, arrived.get(version, written + TIMEOUT) - written))
    look.close()
    listener.join(5)
    return api, cli


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=200, help="concurrent requests per round (default 200)")
    ap.add_argument("--rounds", type=int, default=1, help="rounds after one warm-up round (default 1)")
    ap.add_argument("--streams", action=argparse.BooleanOptionalAction, default=True,
                    help="also count the event streams a server holds at --files open files (default on)")
    ap.add_argument("--files", type=int, default=1024, help="the stream server's open-file limit (default 1024)")
    ap.add_argument("--games", action=argparse.BooleanOptionalAction, default=True,
                    help="also time adding a hand to a long game, a state while exports run, memory under history reads (default on)")
    ap.add_argument("--adds", type=int, default=30, help="hands added (and undone) at each length (default 30)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(port, Path(tmp) / "games.sqlite3")
        try:
            round_of(port, 20)  # warm-up: imports, rulesets, caches
            results: list[tuple[float, str | None]] = []
            wall = time.perf_counter()
            for _ in range(args.rounds):
                results += round_of(port, args.requests)
            wall = time.perf_counter() - wall
            api, cli = add_to_event(port, Path(tmp) / "games.sqlite3")
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    latencies = [t for t, e in results if e is None or e.startswith("refused")]
    refused = [e for _, e in results if e is not None and e.startswith("refused")]
    errors = [e for _, e in results if e is not None and not e.startswith("refused")]
    print(f"mjcalc serve: {len(results)} POST /api/score ({args.requests} concurrent x {args.rounds}) on loopback, "
          f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    print(f"  p50 {percentile(latencies, 50) * 1000:.1f} ms   p99 {percentile(latencies, 99) * 1000:.1f} ms   "
          f"mean {statistics.fmean(latencies) * 1000:.1f} ms   wall {wall:.2f} s   refused at once (busy) {len(refused)}   "
          f"errors {len(errors)}")
    for e in errors[:5]:
        print(f"  error: {e}")
    print(f"add -> event at another client ({HANDS} hands each): POST /api/games/{{id}}/hands p50 "
          f"{percentile(api, 50) * 1000:.1f} ms, max {max(api) * 1000:.1f} ms; `mjcalc game add` (from the hand in the database) "
          f"p50 {percentile(cli, 50) * 1000:.1f} ms, max {max(cli) * 1000:.1f} ms")
    if args.games:
        from serve_games import long_games

        long_games(args.adds)
    if args.streams:
        streams_held(args.files)
    return 1 if errors else 0


STREAM_SERVER = ("import sys\nfrom mahjong_calc.web.app import create_app\nfrom mahjong_calc.web.server import run\n"
                 "from mahjong_calc.web.streams import StreamLimits\n"
                 "run(create_app(sys.argv[1], streams=StreamLimits(per_game=10**6, per_client=10**6)), '127.0.0.1', int(sys.argv[2]))\n")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def streams_held(files: int) -> None:
    """Open event streams 50 at a time on a server limited to `files` open files (the per-game and
    per-client caps lifted, so that the server's own limit shows) until it refuses them, timing
    `GET /api/games` after each step; then the CPU the idle streams take over 3 s."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        db = Path(tmp) / "games.sqlite3"
        proc = subprocess.Popen([sys.executable, "-c", STREAM_SERVER, str(db), str(port)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, preexec_fn=limit)
        socks: list[socket.socket] = []
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    conn.request("POST", "/api/games", json.dumps({"variant": "wuhu315", "players": ["A", "B", "C", "D"], "dealer": "A"}),
                                 {"content-type": "application/json"})
                    conn.getresponse().read()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise SystemExit("the stream server did not start") from None
                    time.sleep(0.1)
            held = refused = 0
            worst = 0.0
            print(f"event streams on a server with {files} open files:")
            while refused == 0 and held < 4 * files:
                for _ in range(50):
                    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
                    sock.sendall(f"GET /api/games/1/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
                    head = sock.recv(4096)
                    while b"\r\n\r\n" in head and b"event: ready" not in head and b'"valid"' not in head:
                        more = sock.recv(4096)
                        if not more:
                            break
                        head += more
                    if b"event: ready" in head:
                        held += 1
                        socks.append(sock)
                    else:
                        refused += 1
                        sock.close()
                started = time.perf_counter()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conn.request("GET", "/api/games")
                ok = conn.getresponse().status == 200
                took = time.perf_counter() - started
                worst = max(worst, took)
                fds = len(os.listdir(f"/proc/{proc.pid}/fd"))
                print(f"  {held:5d} held, {refused:3d} refused: GET /api/games {took * 1000:7.1f} ms ({'ok' if ok else 'FAILED'}), {fds} files open")
            cpu = _cpu_seconds(proc.pid)
            time.sleep(3)
            idle = (_cpu_seconds(proc.pid) - cpu) / 3
            print(f"  held {held} streams with a normal request answering in at most {worst * 1000:.0f} ms; "
                  f"idle, they take {idle * 100:.1f} % of a core")
        finally:
            for sock in socks:
                sock.close()
            proc.terminate()
            try:
                _, err = proc.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
        text = err.decode(errors="replace")
        if "Too many open files" in text:
            print("  stderr: Too many open files")


if __name__ == "__main__":
    sys.exit(main())
