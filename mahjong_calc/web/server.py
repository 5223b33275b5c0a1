"""How `mjcalc serve` runs uvicorn: bounded time per request, a bounded number of connections.

uvicorn by itself waits for ever for a request's headers or body, and accepts connections
until the process runs out of file descriptors, and then logs a traceback per failed
accept, thousands a second. Here each connection must send its request line and headers
within `Limits.header_timeout` seconds (of opening, or of the previous answer) and its body
within `Limits.body_timeout` seconds of its headers, or it is closed. At most
`open_limit()` connections are open at once: past that, a new connection makes room by
closing the one that has waited longest for its client, or, when every connection has a
request being answered, is closed itself. Each closing is logged, in one line a second at
most, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

LOG = logging.getLogger("uvicorn.error")


@dataclass(frozen=True)
class Limits:
    """What a client may take of the server (seconds, connections)."""

    header_timeout: float = 10.0
    body_timeout: float = 30.0
    keep_alive: int = 5  # an idle connection between requests (uvicorn's timeout_keep_alive)
    connections: int = 1000
    accept_batch: int = 64  # asyncio accepts at most this many connections at a time
    backlog: int = 2048  # connections the kernel holds until they are accepted (uvicorn's default)
    shutdown: int = 2  # seconds Ctrl-C waits for open answers (the event streams are ended first)


def fd_limit() -> int | None:
    """The process's soft limit on open files (None: no limit, or not known here)."""
    try:
        import resource
    except ImportError:  # not on this platform
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY or soft <= 0 else int(soft)


def open_limit(limits: Limits, fds: int | None) -> tuple[int, int]:
    """(connections, accept batch) that fit in `fds` open files. asyncio accepts a batch of
    connections at a time, and a connection closed to make room frees its descriptor a few
    turns of the loop later: three batches stay free for that, and an eighth of the files
    (at most 128) for the database, the page's files and Python itself."""
    if fds is None:
        return limits.connections, limits.accept_batch
    batch = max(8, min(limits.accept_batch, fds // 16))
    reserve = max(16, min(128, fds // 8))
    return max(8, min(limits.connections, fds - 3 * batch - reserve)), batch


class _OncePerSecond:
    """Counts events and logs them, in one line a second at most."""

    def __init__(self, line: Callable[[dict[str, int]], str]) -> None:
        self.line = line
        self.counts: dict[str, int] = {}
        self.logged_at = -math.inf
        self.pending: asyncio.TimerHandle | None = None

    def note(self, kind: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1
        loop = asyncio.get_running_loop()
        if loop.time() - self.logged_at >= 1.0:
            self.flush()
        elif self.pending is None:
            self.pending = loop.call_at(self.logged_at + 1.0, self.flush)

    def flush(self) -> None:
        if self.pending is not None:
            self.pending.cancel()
            self.pending = None
        if self.counts:
            LOG.warning("%s", self.line(self.counts))
            self.counts = {}
            self.logged_at = asyncio.get_running_loop().time()


class Guard:
    """The connections of one server: which are open, and which wait for their client, oldest first."""

    def __init__(self, limits: Limits, max_open: int) -> None:
        self.limits, self.max_open = limits, max_open
        self.open: set[GuardedH11Protocol] = set()
        self.waiting: dict[GuardedH11Protocol, None] = {}  # ordered: since when each one waits
        self.closings = _OncePerSecond(self._closing_line)
        self.errors = _OncePerSecond(lambda counts: "mjcalc serve: " + "; ".join(
            f"{text}{f' ({n} times)' if n > 1 else ''}" for text, n in counts.items()))

    def _closing_line(self, counts: dict[str, int]) -> str:
        said = {"evicted": "closed {n} {c} that had not sent a whole request", "refused": "refused {n} new {c}"}
        parts = [said[k].format(n=n, c="connections" if n > 1 else "connection") for k, n in counts.items()]
        return f"mjcalc serve: {self.max_open} connections open, the limit: {'; '.join(parts)}"

    def admit(self, conn: GuardedH11Protocol) -> None:
        self.open.add(conn)
        if len(self.open) <= self.max_open:
            return
        oldest = next((c for c in self.waiting if c is not conn), None)
        if oldest is not None:
            oldest.drop()
            self.closings.note("evicted")
        else:
            conn.drop()
            self.closings.note("refused")

    def loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The event loop's errors (such as an accept without a free file descriptor): one line, no traceback."""
        exc = context.get("exception")
        self.errors.note(str(context.get("message", "error")) + (f": {exc}" if exc is not None else ""))


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, with a deadline on what the client owes and the connection limit."""

    guard: ClassVar[Guard]
    _phase: str | None = None
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._update()
        self.guard.admit(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self._forget()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._update()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._update()

    def drop(self) -> None:
        """Close the connection (an app waiting for its body sees the client gone)."""
        self._forget()
        if not self.transport.is_closing():
            self.transport.close()

    def _forget(self) -> None:
        self._set_phase(None)
        self.guard.open.discard(self)

    def _update(self) -> None:
        """Start the clock when the client starts to owe its headers or its body; stop it when it has sent them."""
        state = self.conn.their_state
        if self.transport.is_closing():
            phase = None
        else:
            phase = "headers" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None
        if phase != self._phase:
            self._set_phase(phase)

    def _set_phase(self, phase: str | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self.guard.waiting.pop(self, None)
        self._phase = phase
        if phase is not None:
            self.guard.waiting[self] = None
            limits = self.guard.limits
            self._deadline = self.loop.call_later(limits.header_timeout if phase == "headers" else limits.body_timeout, self.drop)


class _Server(uvicorn.Server):
    backlog = Limits.backlog

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """End the app's event streams first (`app.state.end_streams`), so that stopping never
        waits for them and cancels them with a traceback."""
        end = getattr(getattr(self.config.app, "state", None), "end_streams", None)
        if callable(end):
            end()
        await super().shutdown(sockets)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's start, then the kernel's queue of connections made long again: asyncio
        takes the length of its accept batch from uvicorn's `backlog`, which is kept short."""
        await super().startup(sockets)
        for server in getattr(self, "servers", []):
            for listening in server.sockets:
                sock = socket.socket(fileno=listening.fileno())
                try:
                    sock.listen(self.backlog)
                finally:
                    sock.detach()


def run(app: Any, host: str, port: int, limits: Limits | None = None) -> None:
    """Serve `app` on host:port until Ctrl-C (or SIGTERM), within `limits`."""
    limits = limits or Limits()
    max_open, batch = open_limit(limits, fd_limit())
    guard = Guard(limits, max_open)
    protocol = type("GuardedH11Protocol", (GuardedH11Protocol,), {"guard": guard})
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False, http=protocol, ws="none",
                            loop="asyncio", backlog=batch, timeout_keep_alive=limits.keep_alive,
                            timeout_graceful_shutdown=limits.shutdown)
    server = _Server(config)
    server.backlog = limits.backlog

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(guard.loop_error)
        await server.serve()

    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: uvicorn has stopped the server already
        asyncio.run(main())
    if not server.started:
        sys.exit(3)
