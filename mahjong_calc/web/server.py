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

Only documented interfaces are used: uvicorn's `Config` and `Server.serve` (its keep-alive
timeout, header size bound, backlog, graceful shutdown), asyncio's (an event loop whose
`create_server` wraps each connection's protocol in a `Gate`, which sees the connection only
through asyncio's `Protocol` and `Transport` calls, and a loop exception handler), and ASGI (a
middleware, `Deadlines`, that tells each connection's gate when its request's headers have come,
when its body has, and when its answer is sent). The gate keeps the clock; closing a connection
is closing its transport.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import socket
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any, cast

import uvicorn

LOG = logging.getLogger("uvicorn.error")
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Asgi = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True)
class Limits:
    """What a client may take of the server (seconds, connections, bytes)."""

    header_timeout: float = 10.0
    body_timeout: float = 30.0
    keep_alive: int = 5  # an idle connection between requests (uvicorn's timeout_keep_alive)
    connections: int = 1000
    accept_batch: int = 64  # asyncio accepts at most this many connections at a time
    backlog: int = 2048  # connections the kernel holds until they are accepted (uvicorn's default)
    shutdown: int = 2  # seconds Ctrl-C waits for open answers (the event streams are ended first)
    header_bytes: int = 16 * 1024  # a request line and headers longer than this are refused (400; uvicorn's h11 bound)


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

    def __init__(self, limits: Limits, max_open: int, batch: int = Limits.accept_batch) -> None:
        self.limits, self.max_open, self.batch = limits, max_open, batch
        self.open: set[Gate] = set()
        self.waiting: dict[Gate, None] = {}  # ordered: since when each one waits
        self.by_peer: dict[tuple[str, int], Gate] = {}  # the open connections by their client's address and port
        self.closings = _OncePerSecond(self._closing_line)
        self.errors = _OncePerSecond(lambda counts: "mjcalc serve: " + "; ".join(
            f"{text}{f' ({n} times)' if n > 1 else ''}" for text, n in counts.items()))

    def _closing_line(self, counts: dict[str, int]) -> str:
        said = {"evicted": "closed {n} {c} that had not sent a whole request", "refused": "refused {n} new {c}"}
        parts = [said[k].format(n=n, c="connections" if n > 1 else "connection") for k, n in counts.items()]
        return f"mjcalc serve: {self.max_open} connections open, the limit: {'; '.join(parts)}"

    def admit(self, conn: Gate) -> None:
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


class Gate(asyncio.Protocol):
    """One connection: the protocol uvicorn made for it, behind a clock on what the client owes
    (its headers, then its body), and the connection limit. It passes every call of asyncio's
    `Protocol` interface on, and reads nothing of what it wraps."""

    def __init__(self, inner: asyncio.BaseProtocol, guard: Guard) -> None:
        self.inner = cast(asyncio.Protocol, inner)  # uvicorn's HTTP protocols are Protocols
        self.guard = guard
        self.transport: asyncio.BaseTransport | None = None
        self.peer: tuple[str, int] | None = None
        self.phase: str | None = None
        self.deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        peer = transport.get_extra_info("peername")
        if isinstance(peer, tuple) and len(peer) >= 2:
            self.peer = (str(peer[0]), int(peer[1]))
            self.guard.by_peer[self.peer] = self
        self.set_phase("headers")
        self.inner.connection_made(transport)
        self.guard.admit(self)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._forget()
        self.inner.connection_lost(exc)

    def drop(self) -> None:
        """Close the connection (an app waiting for its body sees the client gone)."""
        self._forget()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def _forget(self) -> None:
        self.set_phase(None)
        self.guard.open.discard(self)
        if self.peer is not None and self.guard.by_peer.get(self.peer) is self:
            del self.guard.by_peer[self.peer]

    def set_phase(self, phase: str | None) -> None:
        """Start the clock when the client starts to owe its headers (`headers`) or its body (`body`);
        stop it (None) while its request is being answered."""
        if self.transport is not None and self.transport.is_closing():
            phase = None
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        self.guard.waiting.pop(self, None)
        self.phase = phase
        if phase is not None:
            self.guard.waiting[self] = None
            limits = self.guard.limits
            wait = limits.header_timeout if phase == "headers" else limits.body_timeout
            self.deadline = asyncio.get_running_loop().call_later(wait, self.drop)


class Deadlines:
    """ASGI middleware: tells each request's connection (its `Gate`, by the client's address and
    port) that its headers have come, when its body has, and when its answer has been sent."""

    def __init__(self, app: Asgi, guard: Guard) -> None:
        self.app, self.guard = app, guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        gate = self.guard.by_peer.get((str(client[0]), int(client[1]))) if scope["type"] == "http" and client else None
        if gate is None:
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or ())
        has_body = headers.get(b"content-length", b"0") not in (b"0", b"") or b"transfer-encoding" in headers
        gate.set_phase("body" if has_body else None)

        async def received() -> Message:
            message = await receive()
            if gate.phase == "body" and not (message["type"] == "http.request" and message.get("more_body", False)):
                gate.set_phase(None)
            return message

        async def sent(message: Message) -> None:
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                gate.set_phase("headers")  # the next request's headers are owed from now

        await self.app(scope, received, sent)


class _Loop(asyncio.SelectorEventLoop):
    """asyncio's event loop, its servers' connections each behind a `Gate`; its listening
    sockets keep the long backlog while asyncio accepts a short batch at a time."""

    guard: Guard

    async def create_server(self, protocol_factory: Callable[[], asyncio.BaseProtocol], *args: Any, **kwargs: Any) -> asyncio.Server:
        guard = self.guard
        kwargs["backlog"] = guard.batch  # asyncio accepts this many at a time
        server = await super().create_server(lambda: Gate(protocol_factory(), guard), *args, **kwargs)
        for listening in server.sockets:
            sock = socket.socket(fileno=listening.fileno())
            try:
                sock.listen(guard.limits.backlog)
            finally:
                sock.detach()
        return server


def run(app: Any, host: str, port: int, limits: Limits | None = None) -> None:
    """Serve `app` on host:port until Ctrl-C (or SIGTERM), within `limits`."""
    limits = limits or Limits()
    max_open, batch = open_limit(limits, fd_limit())
    guard = Guard(limits, max_open, batch)
    config = uvicorn.Config(Deadlines(app, guard), host=host, port=port, log_level="warning", access_log=False, http="h11",
                            ws="none", loop="asyncio", timeout_keep_alive=limits.keep_alive,
                            timeout_graceful_shutdown=limits.shutdown, h11_max_incomplete_event_size=limits.header_bytes,
                            proxy_headers=False)  # X-Forwarded-For only with --proxy-headers, read by the app (context.py)
    server = uvicorn.Server(config)
    end_streams = getattr(getattr(app, "state", None), "end_streams", None)

    async def stopping() -> None:
        """When uvicorn is told to stop, end the app's event streams first, so that stopping never
        waits for them and cancels them with a traceback."""
        while not server.should_exit:
            await asyncio.sleep(0.05)
        if callable(end_streams):
            end_streams()

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(guard.loop_error)
        watch = asyncio.create_task(stopping())
        try:
            await server.serve()
        finally:
            watch.cancel()

    def loop() -> asyncio.AbstractEventLoop:
        made = _Loop()
        made.guard = guard
        return made

    with contextlib.suppress(KeyboardInterrupt), asyncio.Runner(loop_factory=loop) as runner:  # Ctrl-C: uvicorn has stopped the server already
        runner.run(main())
    if not server.started:
        sys.exit(3)
