"""Costly work (scoring, advice, a big game's state) in a bounded pool with a bounded queue.

Past the queue a request is refused at once, 503 `busy` with `Retry-After`, rather than left
to wait behind the others; one client has at most `per_client` costly requests running or
waiting at a time (429 `too_many_requests`). Recording a hand does not go through here (the
writes have threads of their own), so it never waits behind advice. A slot is freed when the
work ends, not when its client goes away, so the pool never holds more than it admits.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from ..core.words import Text
from .http import ApiError

_T = TypeVar("_T")
RETRY_AFTER = "1"  # seconds, in `Retry-After`


@dataclass(frozen=True)
class WorkLimits:
    """The pool of one kind of costly work: threads, requests waiting, per client."""

    workers: int = 1
    queue: int = 8
    per_client: int = 4


class Work:
    """One pool: `await work.run(client, fn, *args)`."""

    def __init__(self, name: str | Text, limits: WorkLimits | None = None) -> None:
        self.name = name
        self.limits = limits or WorkLimits()
        self._pool: ThreadPoolExecutor | None = None
        self.taken = 0
        self.by_client: dict[str, int] = {}

    def _executor(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.limits.workers, thread_name_prefix=f"mjcalc-{self.name.msgid if isinstance(self.name, Text) else self.name}")
        return self._pool

    async def run(self, client: str, fn: Callable[..., _T], *args: object) -> _T:
        limits = self.limits
        if self.by_client.get(client, 0) >= limits.per_client:
            raise ApiError("too_many_requests", "at most {n} {what} requests of one client at a time: wait for the answers, then ask again",
                           429, {"retry-after": RETRY_AFTER}, n=limits.per_client, what=self.name)
        if self.taken >= limits.workers + limits.queue:
            raise ApiError("busy", "the server is busy ({n} {what} requests being answered and {queue} waiting): try again in a second",
                           503, {"retry-after": RETRY_AFTER}, n=limits.workers, what=self.name, queue=limits.queue)
        loop = asyncio.get_running_loop()
        self.taken += 1
        self.by_client[client] = self.by_client.get(client, 0) + 1

        def release(_: Future[_T]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nothing is left to count
                loop.call_soon_threadsafe(self._release, client)

        try:
            # in the request's context: its language (core/words.speaking) renders the answer's messages
            future = self._executor().submit(contextvars.copy_context().run, fn, *args)
        except BaseException:
            self._release(client)
            raise
        future.add_done_callback(release)
        return await asyncio.wrap_future(future)

    def _release(self, client: str) -> None:
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
