"""`mjcalc serve` against what can stop a server: many event streams on a low file limit, a
stdout nobody reads or that is gone, a database damaged while it serves, and costly requests
from many clients. Each against a real server process on a loopback port; every connection
goes to 127.0.0.1 (other clients come from 127.0.0.2, ... , still loopback). Figures are
printed (`pytest -s`), never asserted: bench/serve.py measures them."""

from __future__ import annotations

import fcntl
import http.client
import json
import os
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from installed import stderr_of, stop

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install '.[web]')")

PLAYERS = {"variant": "wuhu315", "players": ["A", "B", "C", "D"], "dealer": "A"}
HAND = {"winner": "B", "self_draw": True, "hand": "13m456m678m11p555p2m"}
SCORE = {"hand": "123456m13m99p555p2m", "self_draw": True}
SLOW_ADVICE = {"hand": "1z7p5z2z4p2s3z5z7s7z5z4z1m1p", "variant": "pujiang", "wild": "5z"}


def request(port: int, method: str, path: str, body: Any = None, source: str = "127.0.0.1",
            timeout: float = 30) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        headers = {"content-type": "application/json"} if body is not None else {}
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        conn.close()


def server_code(streams: str = "None", work: str = "None") -> str:
    """A server as `mjcalc serve` runs it, with the limits given (Python expressions)."""
    return ("import sys\nfrom mahjong_calc.web.app import create_app\nfrom mahjong_calc.web.server import run\n"
            "from mahjong_calc.web.streams import StreamLimits\nfrom mahjong_calc.web.work import WorkLimits\n"
            f"run(create_app(sys.argv[1], streams={streams}, work={work}), '127.0.0.1', int(sys.argv[2]))\n")


def open_stream(port: int, game: int = 1, source: str = "127.0.0.1") -> tuple[socket.socket, bytes]:
    """A raw `GET /api/games/{game}/events`, and what the server sent first (its head, and `ready` or an error)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=20, source_address=(source, 0))
    sock.sendall(f"GET /api/games/{game}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    data = b""
    try:
        while b"event: ready" not in data and b'"valid": false' not in data and len(data) < 65536:
            more = sock.recv(65536)
            if not more:
                break
            data += more
    except (TimeoutError, ConnectionError):
        pass
    return sock, data


def new_game(port: int) -> int:
    status, _, body = request(port, "POST", "/api/games", PLAYERS)
    assert status == 201, body
    return int(json.loads(body)["id"])


# --- event streams -----------------------------------------------------------------------------


FILES = 256


def test_many_streams_on_a_low_file_limit_leave_room_for_a_normal_request(servers: Any, tmp_path: Path) -> None:
    """`mjcalc serve` with 256 open files, asked for more streams than that by twenty clients over
    ten games: it holds as many as its limit allows (half its connections), refuses the rest
    with 429 `too_many_streams`, a normal request still answers, and no file runs out."""
    port, proc = servers(files=FILES)
    games = [new_game(port) for _ in range(10)]
    socks: list[socket.socket] = []
    ready = refused = other = 0
    try:
        for i in range(FILES + 50):
            sock, head = open_stream(port, games[i % len(games)], source=f"127.0.0.{1 + i % 20}")
            socks.append(sock)
            if b"event: ready" in head:
                ready += 1
            elif head.startswith(b"HTTP/1.1 429") and b"too_many_streams" in head:
                refused += 1
            else:
                other += 1
        started = time.perf_counter()
        status, _, body = request(port, "GET", "/api/games", timeout=20)
        took = time.perf_counter() - started
        fds = len(os.listdir(f"/proc/{proc.pid}/fd"))
        cpu = _cpu_seconds(proc.pid)
        time.sleep(2)
        idle = (_cpu_seconds(proc.pid) - cpu) / 2
        print(f"\n{ready} streams held, {refused} refused, {other} closed unanswered; GET /api/games in {took * 1000:.0f} ms; "
              f"{fds} files open; idle streams take {idle * 100:.1f} % of a core")
        assert status == 200 and len(json.loads(body)) == len(games)
        assert ready > 32 and refused > 0  # more than one game's share and one client's: the server's own limit
        assert fds < FILES
        status, _, _ = request(port, "POST", f"/api/games/{games[0]}/hands", HAND)  # the streams still hear of a change
        assert status == 200
        socks[0].settimeout(10)
        seen = b""
        while b"event: change" not in seen:
            seen += socks[0].recv(65536)
    finally:
        for sock in socks:
            sock.close()
    stop(proc)
    text = stderr_of(tmp_path)
    assert "Too many open files" not in text and "Traceback" not in text, text[-2000:]


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_streams_are_capped_per_game_and_per_client(servers: Any) -> None:
    port, _ = servers(server_code("StreamLimits(per_game=3, per_client=5)"))
    new_game(port)
    new_game(port)
    held = [open_stream(port, 1) for _ in range(3)]
    try:
        assert all(b"event: ready" in head for _, head in held)
        sock, head = open_stream(port, 1)
        held.append((sock, head))
        assert head.startswith(b"HTTP/1.1 429") and b"retry-after: 5" in head.lower(), head
        assert b'"code": "too_many_streams"' in head and b"game 1" in head
        held += [open_stream(port, 2) for _ in range(2)]
        assert all(b"event: ready" in head for _, head in held[-2:])
        sock, head = open_stream(port, 2)
        held.append((sock, head))
        assert head.startswith(b"HTTP/1.1 429") and b"this client" in head, head
        sock, head = open_stream(port, 2, source="127.0.0.2")  # another client
        held.append((sock, head))
        assert b"event: ready" in head
        for sock, _ in held[:3]:
            sock.close()
        time.sleep(0.5)
        sock, head = open_stream(port, 1)  # a stream closed frees its place
        held.append((sock, head))
        assert b"event: ready" in head
    finally:
        for sock, _ in held:
            sock.close()


# --- stdout ------------------------------------------------------------------------------------


def test_an_unread_stdout_neither_freezes_the_server_nor_stops_sigterm(servers: Any, tmp_path: Path) -> None:
    """`mjcalc serve | sleep 300`: the pipe fills with game links, the server goes on answering,
    says so once on stderr, and SIGTERM stops it."""
    read, write = os.pipe()
    fcntl.fcntl(write, 1031, 4096)  # F_SETPIPE_SZ: a small pipe fills after a few dozen links
    try:
        port, proc = servers(stdout=write)
    finally:
        os.close(write)
    try:
        slowest = 0.0
        for _ in range(200):  # some 15 KB of links, four times the pipe
            started = time.perf_counter()
            new_game(port)
            slowest = max(slowest, time.perf_counter() - started)
        time.sleep(2)  # the poller announces what it found
        for _ in range(20):
            started = time.perf_counter()
            new_game(port)
            slowest = max(slowest, time.perf_counter() - started)
        print(f"\nslowest POST /api/games with stdout full: {slowest * 1000:.0f} ms")
        status, _, _ = request(port, "GET", "/api/games", timeout=10)
        assert status == 200
        started = time.perf_counter()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        print(f"stopped {time.perf_counter() - started:.2f} s after SIGTERM")
    finally:
        os.close(read)
    text = stderr_of(tmp_path)
    assert text.count("stdout is not being read") == 1, text
    assert "Traceback" not in text


def test_a_stdout_that_is_gone_is_said_once_and_the_server_goes_on(servers: Any, tmp_path: Path) -> None:
    """`mjcalc serve | head -1`: the reader reads the first line and goes; the next link fails to
    be written: one line on stderr, the server goes on serving, and stops without a traceback."""
    port, proc = servers(stdout=subprocess.PIPE)
    assert proc.stdout is not None
    assert proc.stdout.readline().startswith(b"mjcalc: serving ")
    proc.stdout.close()
    for _ in range(3):
        new_game(port)
        time.sleep(1.0)
    status, _, body = request(port, "GET", "/api/games")
    assert status == 200 and len(json.loads(body)) == 3
    stop(proc)
    assert proc.returncode in (0, -signal.SIGTERM)  # uvicorn raises the signal again once it has stopped
    text = stderr_of(tmp_path)
    assert text.count("stdout cannot be written") == 1, text
    assert "Traceback" not in text and "OutputError" not in text and "shutdown failed" not in text, text


def test_a_database_damaged_while_serving_is_said_and_the_server_goes_on(servers: Any, tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    port, proc = servers(db=db)
    new_game(port)
    request(port, "POST", "/api/games/1/hands", HAND)
    sock, head = open_stream(port, 1)
    try:
        assert b"event: ready" in head
        time.sleep(0.5)
        with db.open("r+b") as f:
            f.truncate(db.stat().st_size - 1)
        status, _, body = request(port, "GET", "/api/games/1")
        assert status == 503 and json.loads(body)["error"]["code"] == "bad_db", body
        status, _, body = request(port, "GET", "/api/variants")
        assert status == 200
        time.sleep(1.5)
    finally:
        sock.close()
    stop(proc)
    assert proc.returncode in (0, -signal.SIGTERM)  # uvicorn raises the signal again once it has stopped
    text = stderr_of(tmp_path)
    assert "Traceback" not in text and "StoreError" not in text and "shutdown failed" not in text, text
    assert len(text.splitlines()) <= 1, text


# --- costly requests ---------------------------------------------------------------------------


def test_costly_requests_are_bounded_and_never_hold_up_a_hand(servers: Any) -> None:
    """Five clients each looping eight slow advise requests at once: past the pool's queue they are
    refused at once (503 `busy`, or 429 `too_many_requests` past a client's share, with
    `Retry-After`), while recording a hand and a cheap request still answer."""
    port, _ = servers()
    new_game(port)
    stop_at = time.monotonic() + 6
    counts: dict[str, int] = {}
    lock = threading.Lock()

    def loop(source: str) -> None:
        while time.monotonic() < stop_at:
            status, headers, body = request(port, "POST", "/api/advise", SLOW_ADVICE, source=source, timeout=60)
            code = json.loads(body).get("error", {}).get("code", repr(body[:80])) if body[:1] == b"{" else repr(body[:80])
            key = str(status) if status == 200 else f"{status} {code}"
            if status != 200:
                assert headers.get("retry-after") == "1", headers
            with lock:
                counts[key] = counts.get(key, 0) + 1

    threads = [threading.Thread(target=loop, args=(f"127.0.0.{1 + i % 5}",)) for i in range(40)]
    for t in threads:
        t.start()
    time.sleep(1)
    hand_times, cheap_times = [], []
    for _ in range(8):
        started = time.perf_counter()
        status, _, body = request(port, "POST", "/api/games/1/hands", {"draw": True}, timeout=60)
        hand_times.append(time.perf_counter() - started)
        assert status == 200, body
        started = time.perf_counter()
        status, _, _ = request(port, "GET", "/api/variants", timeout=60)
        cheap_times.append(time.perf_counter() - started)
        assert status == 200
        time.sleep(0.3)
    for t in threads:
        t.join()
    print(f"\nadvise answers: {counts}; a hand recorded in at most {max(hand_times) * 1000:.0f} ms, "
          f"GET /api/variants in at most {max(cheap_times) * 1000:.0f} ms")
    assert counts.get("200", 0) > 0
    assert counts.get("503 busy", 0) + counts.get("429 too_many_requests", 0) > 0, counts
    assert set(counts) <= {"200", "503 busy", "429 too_many_requests"}, counts


def test_the_pool_refuses_past_its_queue_and_past_a_client_s_share() -> None:
    """The pool's own accounting: a client past its share is 429, anyone past the queue 503; a
    slot is freed when the work ends."""
    import asyncio

    from mahjong_calc.web.http import ApiError
    from mahjong_calc.web.work import Work, WorkLimits

    gate = threading.Event()

    async def scenario() -> list[str]:
        work = Work("scoring", WorkLimits(workers=1, queue=2, per_client=2))
        said: list[str] = []

        async def ask(client: str) -> None:
            try:
                await work.run(client, gate.wait, 10)
                said.append(f"{client} done")
            except ApiError as err:
                said.append(f"{client} {err.status} {err.code} {err.headers.get('retry-after')}")

        first = [asyncio.create_task(ask("a")), asyncio.create_task(ask("a"))]
        await asyncio.sleep(0)
        await ask("a")  # a third of a's: past its share
        first.append(asyncio.create_task(ask("b")))
        await asyncio.sleep(0)
        await ask("c")  # one running, two waiting: past the queue
        gate.set()
        await asyncio.gather(*first)
        await asyncio.sleep(0.05)
        assert work.taken == 0 and work.by_client == {}
        work.close()
        return said

    said = asyncio.run(scenario())
    assert said[:2] == ["a 429 too_many_requests 1", "c 503 busy 1"], said
    assert sorted(said[2:]) == ["a done", "a done", "b done"]


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def _big_game(db: Path, hands: int) -> None:
    """A game of many hands, written straight into the database (checking each would take minutes)."""
    import sqlite3

    from mahjong_calc.live import Store

    with Store(db) as store:
        store.new_game(PLAYERS)
    rows = [(1, i + 1, json.dumps({"draw": True} if i % 2 else HAND)) for i in range(hands)]
    with sqlite3.connect(db) as conn:
        conn.executemany("INSERT INTO events (game, seq, kind, body, at) VALUES (?, ?, 'hand', ?, '2026-12-01T00:00:00+00:00')", rows)
        conn.execute("UPDATE games SET events = ? WHERE id = 1", (hands,))


def test_clients_that_do_not_read_a_big_state_do_not_fill_the_memory(servers: Any, tmp_path: Path) -> None:
    """150 clients ask for a big game's state (about 0.5 MB) and read none of it: the state is
    settled once and sent a piece at a time, so the server's memory grows by far less than 150
    copies, and a score still answers."""
    db = tmp_path / "big.sqlite3"
    _big_game(db, 2000)
    port, proc = servers(db=db)
    status, _, body = request(port, "GET", "/api/games/1")
    assert status == 200
    size = len(body)
    assert request(port, "POST", "/api/score", SCORE)[0] == 200  # warm: the first score imports the scorer
    before = _rss_kib(proc.pid)
    socks = []
    try:
        for _ in range(150):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(("127.0.0.1", port))
            sock.sendall(f"GET /api/games/1 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            socks.append(sock)
        time.sleep(3)
        grown = (_rss_kib(proc.pid) - before) / 1024
        started = time.perf_counter()
        status, _, _ = request(port, "POST", "/api/score", SCORE)
        took = time.perf_counter() - started
        print(f"\n150 unread states of {size / 1024:.0f} KiB: the server grew by {grown:.1f} MiB (150 copies: "
              f"{150 * size / 2**20:.0f} MiB); a score answered in {took * 1000:.0f} ms")
        assert status == 200
        assert grown < 150 * size / 2**20 / 3, grown
    finally:
        for sock in socks:
            sock.close()


def test_reads_during_writes_see_whole_writes_and_sigterm_ends_open_streams(servers: Any, tmp_path: Path) -> None:
    """Four clients reading a game while three add hands: each read sees the game as one write
    left it (never `bad_db` for a write half seen), no hand is lost and the file stays whole
    (checking a file's header never drops SQLite's locks); then SIGTERM with a stream open stops
    the server at once, without a traceback."""
    port, proc = servers()
    new_game(port)
    sock, head = open_stream(port, 1)
    assert b"event: ready" in head
    bad: list[tuple[str, int, bytes]] = []

    def read() -> None:
        for _ in range(40):
            for path in ("/api/games/1", "/api/games/1/history", "/api/games/1/hands", "/api/games"):
                status, _, body = request(port, "GET", path)
                if status != 200:
                    bad.append((path, status, body[:200]))

    def write() -> None:
        for _ in range(20):
            status, _, body = request(port, "POST", "/api/games/1/hands", {"draw": True})
            if status != 200:
                bad.append(("add", status, body[:200]))

    threads = [threading.Thread(target=read) for _ in range(4)] + [threading.Thread(target=write) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert bad == []
    _, _, body = request(port, "GET", "/api/games/1/hands")
    assert len(json.loads(body)) == 60  # every hand of three writers at once, none lost
    started = time.perf_counter()
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=20)
    print(f"\nstopped {time.perf_counter() - started:.2f} s after SIGTERM, with a stream open")
    sock.close()
    text = stderr_of(tmp_path)
    assert "Traceback" not in text and "CancelledError" not in text, text
    import sqlite3

    with sqlite3.connect(tmp_path / "g.sqlite3") as db:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
