"""Costly work (scoring, advice, a game's state, a long answer) in a bounded pool with a bounded queue.

Past the queue a request is refused at once, 503 `busy` with `Retry-After`, rather than left
to wait behind the others; one client has at most `per_client` costly requests running or
waiting at a time (429 `too_many_requests`). Recording a hand does not go through here (the
writes have threads of their own), so it never waits behind advice. A place is freed when the
work ends, not when its client goes away, so the pool never holds more than it admits. A long
answer made in pieces (`answer`) makes each piece in the pool and keeps its place until the last
piece is sent or its client goes away: a pool of them bounds the memory they take.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from ..core.words import Text
from .api import ApiError

if TYPE_CHECKING:
    from .table import Reply

_T = TypeVar("_T")
RETRY_AFTER = "1"  # seconds, in `Retry-After`


@dataclass(frozen=True)
class WorkLimits:
    """The pool of one kind of costly work: threads, requests waiting, per client."""

    workers: int = 1
    queue: int = 8
    per_client: int = 4


class _Place:
    """One admitted request's place in the pool: freed once it has ended and no work of it runs."""

    def __init__(self, work: Work, client: str) -> None:
        self.work, self.client = work, client
        self.loop = asyncio.get_running_loop()
        self.running = 0
        self.ended = False
        self.lock = threading.Lock()  # one piece of an answer at a time, and its closing after the last

    def submit(self, fn: Callable[..., _T], *args: object) -> Future[_T]:
        """`fn(*args)` in the pool, in the request's context (its language renders the answer's messages)."""
        def locked() -> _T:
            with self.lock:
                return fn(*args)

        def done(_: Future[_T]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nothing is left to count
                self.loop.call_soon_threadsafe(self._stepped)

        self.running += 1
        try:
            future = self.work.executor().submit(contextvars.copy_context().run, locked)
        except BaseException:
            self._stepped()
            raise
        future.add_done_callback(done)
        return future

    def _stepped(self) -> None:
        self.running -= 1
        self._free()

    def end(self) -> None:
        self.ended = True
        self._free()

    def _free(self) -> None:
        if self.ended and self.running == 0:
            self.ended = False
            self.running = -1  # freed once
            self.work.release(self.client)


class Work:
    """One pool: `await work.run(client, fn, *args)`; `await work.answer(client, handler, call)` for a reply in pieces."""

    def __init__(self, name: str | Text, limits: WorkLimits | None = None) -> None:
        self.name = name
        self.limits = limits or WorkLimits()
        self._pool: ThreadPoolExecutor | None = None
        self.taken = 0
        self.by_client: dict[str, int] = {}

    def executor(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.limits.workers, thread_name_prefix=f"mjcalc-{self.name.msgid if isinstance(self.name, Text) else self.name}")
        return self._pool

    def admit(self, client: str) -> _Place:
        """A place for `client`'s request, or 429 `too_many_requests` / 503 `busy`."""
        limits = self.limits
        if self.by_client.get(client, 0) >= limits.per_client:
            raise ApiError("too_many_requests", "at most {n} {what} requests of one client at a time: wait for the answers, then ask again",
                           429, {"retry-after": RETRY_AFTER}, n=limits.per_client, what=self.name)
        if self.taken >= limits.workers + limits.queue:
            raise ApiError("busy", "the server is busy ({n} {what} requests being answered and {queue} waiting): try again in a second",
                           503, {"retry-after": RETRY_AFTER}, n=limits.workers, what=self.name, queue=limits.queue)
        self.taken += 1
        self.by_client[client] = self.by_client.get(client, 0) + 1
        return _Place(self, client)

    async def run(self, client: str, fn: Callable[..., _T], *args: object) -> _T:
        place = self.admit(client)
        try:
            return await asyncio.wrap_future(place.submit(fn, *args))
        finally:
            place.end()

    async def answer(self, client: str, fn: Callable[..., Reply], *args: object) -> Reply:
        """`fn(*args)` in the pool; a reply whose body is pieces has each piece made in the pool, and
        keeps its place until the last one is sent (or its client goes away)."""
        place = self.admit(client)
        try:
            reply = await asyncio.wrap_future(place.submit(fn, *args))
        except BaseException:
            place.end()
            raise
        if not isinstance(reply.body, Iterator):
            place.end()
            return reply
        return dataclasses.replace(reply, body=_pieces(place, reply.body))  # type: ignore[arg-type]

    def release(self, client: str) -> None:
        self.taken -= 1
        left = self.by_client.get(client, 1) - 1
        if left > 0:
            self.by_client[client] = left
        else:
            self.by_client.pop(client, None)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


async def _pieces(place: _Place, body: Iterator[str]) -> AsyncIterator[str]:
    """The pieces of `body`, each made in the pool; closed in the pool after the last (or when dropped)."""
    try:
        while (piece := await asyncio.wrap_future(place.submit(next, body, None))) is not None:
            yield piece
    finally:
        place.submit(getattr(body, "close", lambda: None))
        place.end()
