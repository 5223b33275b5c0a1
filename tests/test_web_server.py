"""`mjcalc serve` under slow clients: a bounded number of connections, a deadline on a
request's headers and body, and one log line (never a traceback) per connection it closes.

The real server runs in a subprocess on a loopback port; every connection goes to 127.0.0.1.
"""

from __future__ import annotations

import json
import socket
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from installed import stderr_of, stop

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install '.[web]')")

from mahjong_calc.web.server import Guard, Limits, open_limit

SCORE = json.dumps({"hand": "123456m13m99p555p2m", "self_draw": True}).encode()


def _score(port: int) -> int:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/score", SCORE, {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as answer:
        assert json.loads(answer.read())["valid"] is True
        return int(answer.status)


def _is_open(sock: socket.socket) -> bool:
    """Whether the server still holds this connection (it has sent nothing and not closed it)."""
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def _read_to_close(sock: socket.socket) -> bytes:
    """What the server sends until it closes the connection (a socket timeout fails the test)."""
    data = b""
    while True:
        try:
            more = sock.recv(65536)
        except ConnectionResetError:
            return data
        if not more:
            return data
        data += more


FDS = 512  # the server's open-file limit in the test: uvicorn alone ran out of descriptors at ~500 connections


@pytest.mark.slow
def test_slow_clients_do_not_shut_out_a_normal_request(servers: Any, tmp_path: Path) -> None:
    """Half-sent headers, more of them than the server has file descriptors: a normal
    request still answers, the latest slow clients are still held, and the log has one
    line per closed connection at most, no traceback."""
    port, proc = servers(files=FDS)
    slow: list[socket.socket] = []
    try:
        for _ in range(FDS + 100):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the blank line
            slow.append(sock)
        assert _score(port) == 200
        assert _is_open(slow[-1])
        held = sum(_is_open(s) for s in slow)
        max_open, _ = open_limit(Limits(), FDS)
        assert 0 < held <= max_open
    finally:
        for sock in slow:
            sock.close()
    stop(proc)
    text = stderr_of(tmp_path)
    assert "Traceback" not in text
    assert len(text.splitlines()) <= len(slow) + 1 - held


# the server of `mjcalc serve`, with 1-second deadlines so that the test is quick
SHORT_LIMITS = ("import sys\nfrom mahjong_calc.web.app import create_app\nfrom mahjong_calc.web.server import Limits, run\n"
                "run(create_app(sys.argv[1]), '127.0.0.1', int(sys.argv[2]), Limits(header_timeout=1, body_timeout=1))\n")


@pytest.mark.slow
@pytest.mark.parametrize(
    "sent",
    [
        b"",  # a connection that says nothing
        b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\n",  # headers without their end
        b"POST /api/score HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{}",
    ],
)
def test_a_request_that_never_arrives_in_full_is_dropped(servers: Any, tmp_path: Path, sent: bytes) -> None:
    port, proc = servers(SHORT_LIMITS)
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(sent.replace(b"{port}", str(port).encode()))
        assert _read_to_close(sock) == b""  # closed, with no answer
    assert _score(port) == 200
    stop(proc)
    assert "Traceback" not in stderr_of(tmp_path)


@pytest.mark.slow
def test_a_keep_alive_connection_gets_the_same_deadline(servers: Any) -> None:
    port, _ = servers(SHORT_LIMITS)
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += sock.recv(65536)
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200")
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")))
        while len(body) < length:
            body += sock.recv(65536)
        assert len(body) == length  # the whole answer, and the connection kept open for the next request
        sock.sendall(b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the second request, half-sent
        assert _read_to_close(sock) == b""


@pytest.mark.parametrize(
    ("fds", "connections", "batch"),
    [
        (None, 1000, 64),  # no limit known: the configured numbers
        (1024, 704, 64),  # the usual default: 3 x 64 for accepts under way, 128 for the rest
        (512, 352, 32),
        (256, 176, 16),
        (64, 24, 8),
        (65536, 1000, 64),
    ],
)
def test_the_connection_limit_fits_the_file_descriptors(fds: int | None, connections: int, batch: int) -> None:
    assert open_limit(Limits(), fds) == (connections, batch)


def test_past_the_limit_the_longest_waiting_is_closed_or_else_the_new_one(caplog: pytest.LogCaptureFixture) -> None:
    """Past the limit a new connection closes the one that has waited longest for its client;
    when every other connection is being answered, the new one is closed. One line a second."""
    import asyncio
    import logging

    class Conn:
        def __init__(self, guard: Guard, waiting: bool) -> None:
            self.guard, self.dropped = guard, False
            if waiting:
                guard.waiting[self] = None  # type: ignore[index]

        def drop(self) -> None:
            self.dropped = True
            self.guard.open.discard(self)  # type: ignore[arg-type]
            self.guard.waiting.pop(self, None)  # type: ignore[call-overload]

    async def scenario() -> list[bool]:
        guard = Guard(Limits(), 3)
        busy = Conn(guard, waiting=False)  # its request is being answered
        old, new = Conn(guard, waiting=True), Conn(guard, waiting=True)
        conns = [busy, old, new]
        for conn in conns:
            guard.admit(conn)  # type: ignore[arg-type]
        assert not any(c.dropped for c in conns)
        fourth = Conn(guard, waiting=True)
        guard.admit(fourth)  # type: ignore[arg-type]
        assert old.dropped and not new.dropped and not busy.dropped and not fourth.dropped
        for conn in (new, fourth):
            del guard.waiting[conn]  # type: ignore[arg-type]  # now both are being answered
        fifth = Conn(guard, waiting=True)
        guard.admit(fifth)  # type: ignore[arg-type]
        sixth = Conn(guard, waiting=True)
        guard.admit(sixth)  # type: ignore[arg-type]
        guard.closings.flush()
        return [fifth.dropped, sixth.dropped]

    with caplog.at_level(logging.WARNING, logger="uvicorn.error"):
        assert asyncio.run(scenario()) == [True, True]
    assert [r.getMessage() for r in caplog.records] == [
        "mjcalc serve: 3 connections open, the limit: closed 1 connection that had not sent a whole request",
        "mjcalc serve: 3 connections open, the limit: refused 2 new connections",
    ]
    assert all(r.exc_info is None for r in caplog.records)


def test_serve_doc_states_the_limits() -> None:
    """The limits section of docs/serve.md gives the numbers `Limits` holds."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "serve.md").read_text(encoding="utf-8")
    section = " ".join(doc.split("\n## Limits\n", 1)[1].split("\n## ", 1)[0].split())
    limits = Limits()
    for said in (f"headers within {limits.header_timeout:g} s", f"body within {limits.body_timeout:g} s",
                 f"closed after {limits.keep_alive} s", f"At most {limits.connections:,} connections",
                 f"with the usual 1,024: {open_limit(limits, 1024)[0]}"):
        assert said in section, said


def test_the_server_uses_uvicorn_only_through_its_documented_settings() -> None:
    """server.py imports no module of uvicorn's inside (protocols, lifespan, ...), subclasses none of
    its classes and reads none of its underscore names: Config and Server.serve only."""
    import ast

    source = (Path(__file__).resolve().parent.parent / "mahjong_calc" / "web" / "server.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert {name for name in imported if name.startswith("uvicorn")} == {"uvicorn"}
    used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name) and node.value.id == "uvicorn"}
    assert used == {"Config", "Server"}
    bases = {ast.unparse(base) for node in ast.walk(tree) if isinstance(node, ast.ClassDef) for base in node.bases}
    assert not any(base.startswith("uvicorn") for base in bases), bases
    assert not any(isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                   and isinstance(node.value, ast.Name) and node.value.id in ("server", "config") for node in ast.walk(tree))
