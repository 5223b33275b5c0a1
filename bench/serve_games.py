"""`mjcalc serve` with long games: the figures `python bench/serve.py` prints after its load check,
or alone: `python bench/serve_games.py [--adds 30]`.

On a throw-away database written straight (checking each hand would take minutes): game 1 of 9
hands, game 2 of 999, game 3 of 1,000 hands whose history is 10,000 events (9,000 of them undos
and redos), game 4 of one hand. It prints

- the time to add a hand at hand 10 and at hand 1,000 (`POST /api/games/{id}/hands`, each followed
  by an undo so the game keeps its length; p50 and max, after a warm-up), and their ratio;
- the time of game 4's state (`GET /api/games/4`) while game 3 is exported three times at once
  (`GET /api/games/3/export`, from three clients), and how long the exports took;
- the server's memory before and while eight clients read game 3's history at once
  (`GET /api/games/3/history`): VmRSS, and the peak of the process (VmHWM).
"""

from __future__ import annotations

import argparse
import http.client
import json
import sqlite3
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

PLAYERS = {"variant": "wuhu315", "players": ["A", "B", "C", "D"], "dealer": "A", "chips": 0}
HANDS = [
    {"winner": "B", "self_draw": True, "hand": "13m456m678m11p555p2m", "id": "hand-of-b"},
    {"winner": "C", "discarder": "A", "hand": "123456m13m99p555p2m"},
    {"draw": True},
    {"winner": "D", "self_draw": True, "hand": "111m444m777m99m555p"},
]
TIMEOUT = 300.0


def _database(path: Path) -> None:
    from mahjong_calc.live import Store

    with Store(path) as store:
        for _ in range(4):
            store.new_game(PLAYERS)
    at = "2026-12-01T00:00:00+00:00"
    rows: list[tuple[int, int, str, str]] = []
    for game, hands in ((1, 9), (2, 999), (3, 1000), (4, 1)):
        rows += [(game, i + 1, "hand", json.dumps(HANDS[i % len(HANDS)])) for i in range(hands)]
    seq = 1000
    for _ in range(4500):  # game 3's history: 9,000 undos and redos of its last hand
        rows += [(3, seq + 1, "undo", json.dumps({"undoes": 1000})), (3, seq + 2, "redo", json.dumps({"redoes": 1000}))]
        seq += 2
    with sqlite3.connect(path) as con:
        con.executemany("INSERT INTO events (game, seq, kind, body, at) VALUES (?, ?, ?, ?, ?)", [(*r, at) for r in rows])
        for game, events in ((1, 9), (2, 999), (3, seq), (4, 1)):
            con.execute("UPDATE games SET events = ? WHERE id = ?", (events, game))


def _ask(port: int, method: str, path: str, body: Any = None, source: str = "127.0.0.1") -> tuple[int, bytes, float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT, source_address=(source, 0))
    started = time.perf_counter()
    try:
        conn.request(method, path, None if body is None else json.dumps(body), {"content-type": "application/json"} if body is not None else {})
        answer = conn.getresponse()
        data = answer.read()
        return answer.status, data, time.perf_counter() - started
    finally:
        conn.close()


def _memory(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM (the peak) of a process, in MiB."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("VmRSS:", "VmHWM:")):
            out[line.split(":")[0]] = int(line.split()[1]) // 1024
    return out


def add_cost(port: int, adds: int) -> None:
    costs: dict[int, list[float]] = {1: [], 2: []}
    for game in (1, 2):  # warm: the game folded once, as a page does when it opens it
        _ask(port, "GET", f"/api/games/{game}")
    for i in range(adds + 3):
        for game in (1, 2):
            status, data, took = _ask(port, "POST", f"/api/games/{game}/hands", HANDS[i % 2])
            assert status == 200, data[:200]
            if i >= 3:
                costs[game].append(took)
            assert _ask(port, "POST", f"/api/games/{game}/undo")[0] == 200
    ten, thousand = statistics.median(costs[1]), statistics.median(costs[2])
    print(f"  add a hand (POST /api/games/{{id}}/hands, the new state answered; {adds} each, after 3 to warm):")
    print(f"    at hand 10:    p50 {ten * 1000:6.1f} ms, max {max(costs[1]) * 1000:6.1f} ms")
    print(f"    at hand 1,000: p50 {thousand * 1000:6.1f} ms, max {max(costs[2]) * 1000:6.1f} ms   "
          f"(hand 1,000 / hand 10: {thousand / ten:.2f}x)")


def state_while_exporting(port: int) -> None:
    _ask(port, "GET", "/api/games/4")
    exports: list[float] = []
    states: list[float] = []
    running = threading.Event()

    def export(n: int) -> None:
        running.set()
        status, data, took = _ask(port, "GET", "/api/games/3/export", source=f"127.0.0.{10 + n}")
        assert status == 200 and data.count(b"\n- ") >= 999, data[:200]
        exports.append(took)

    threads = [threading.Thread(target=export, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    running.wait()
    while any(t.is_alive() for t in threads):
        status, data, took = _ask(port, "GET", "/api/games/4", source="127.0.0.20")
        assert status == 200, data[:200]
        states.append(took)
        time.sleep(0.02)
    for t in threads:
        t.join()
    print(f"  game 4's state while game 3 (1,000 hands) is exported three times at once: {len(states)} asked, "
          f"p50 {statistics.median(states) * 1000:.1f} ms, max {max(states) * 1000:.1f} ms; the exports took "
          f"{min(exports):.2f}-{max(exports):.2f} s")


def memory_under_history(port: int, pid: int) -> None:
    status, data, _ = _ask(port, "GET", "/api/games/3/history")
    assert status == 200 and len(json.loads(data)) == 10_000
    size = len(data)
    before = _memory(pid)
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _memory(pid)["VmRSS"])
            time.sleep(0.005)

    def read(n: int) -> None:
        status, data, _ = _ask(port, "GET", "/api/games/3/history", source=f"127.0.0.{30 + n}")
        assert status == 200 and len(data) == size

    sampler = threading.Thread(target=sample)
    sampler.start()
    readers = [threading.Thread(target=read, args=(n,)) for n in range(8)]
    started = time.perf_counter()
    for t in readers:
        t.start()
    for t in readers:
        t.join()
    took = time.perf_counter() - started
    done.set()
    sampler.join()
    after = _memory(pid)
    print(f"  eight clients read game 3's history at once ({size / 2**20:.1f} MiB of JSON each, 10,000 events) in {took:.2f} s: "
          f"the server's memory {before['VmRSS']} MiB before, {peak[0]} MiB at most while reading (sampled), "
          f"peak of the process (VmHWM) {after['VmHWM']} MiB")


def long_games(adds: int) -> None:
    """The figures of long games, on a server of their own."""
    from serve import free_port, start_server

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.sqlite3"
        started = time.perf_counter()
        _database(db)
        print(f"long games (written in {time.perf_counter() - started:.1f} s):")
        port = free_port()
        proc = start_server(port, db)
        try:
            add_cost(port, adds)
            state_while_exporting(port)
            memory_under_history(port, proc.pid)
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--adds", type=int, default=30, help="hands added (and undone) at each length (default 30)")
    long_games(ap.parse_args().adds)
