"""Event streams (`GET /api/games/{id}/events`) and the one poller behind all of them.

A stream holds its socket and nothing else: one `Hub` per app keeps one SQLite connection, on
one thread of its own, and looks at the database every POLL seconds (`PRAGMA data_version`,
which changes when another connection commits; the games' versions are read only then), or at
once when this app has written. It wakes the streams of the games that changed; an idle stream
wakes only for its heartbeat: a comment (`: heartbeat {...}`, which EventSource skips) with the
game's version and how many streams follow it, so that a page that hears nothing for a while
knows its stream has stalled, and one that missed a change sees it. It also tells `announce` of
each game begun, by any process. Streams are capped per game, per client and in all (429
`too_many_streams`, `Retry-After`), so that they never take the connections a normal request needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from ..core.errors import MjcalcError
from ..core.words import N_
from . import api
from .http import ApiError

if TYPE_CHECKING:
    from ..live.store import GameInfo, Store

_T = TypeVar("_T")
LOG = logging.getLogger("uvicorn.error")
POLL = 0.25  # seconds between two looks at the database, for a change made elsewhere (the CLI, another server)
HEARTBEAT = 5.0  # seconds of quiet after which a stream sends its heartbeat: proxies keep it open, the page sees it alive
STREAM_FOR = 300.0  # seconds an event stream lasts; the browser's EventSource then reconnects by itself
RETRY_AFTER = "5"
AUTHORS_KEPT = 256  # the latest changes whose player is remembered for their events


@dataclass(frozen=True)
class StreamLimits:
    """How many event streams the server holds: per game, per client, in all (None: half the connections)."""

    per_game: int = 32
    per_client: int = 16
    total: int | None = None


@dataclass(eq=False)
class Watcher:
    """One open stream: the game it follows, the newest version seen, and an error that ends it."""

    game: int
    client: str
    version: int
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    error: MjcalcError | None = None


class Hub:
    """The streams of one database, and the one connection and thread that look at it."""

    def __init__(self, store: Callable[[], Store], limits: StreamLimits, total: int,
                 announce: Callable[[GameInfo], None] | None = None) -> None:
        self._open_store = store
        self.limits, self.total = limits, total
        self.announce = announce
        self.watchers: dict[int, set[Watcher]] = {}
        self.by_client: dict[str, int] = {}
        self.count = 0
        self._db: Store | None = None
        self._thread: ThreadPoolExecutor | None = None
        self._poke: asyncio.Event | None = None
        self._seen: int | None = None  # PRAGMA data_version at the last look
        self._last_game: int | None = None
        self._said: str | None = None
        self._last_error: MjcalcError | None = None
        self.closing = False
        self.writes: dict[int, int] = {}  # game -> changes to it under way in this app
        self.authors: dict[tuple[int, int], str] = {}  # (game, version) -> the player a phone named, the newest kept

    # --- the one connection, on its own thread ---

    async def call(self, fn: Callable[[Store], _T]) -> _T:
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="mjcalc-hub")
        return await asyncio.get_running_loop().run_in_executor(self._thread, self._with_store, fn)

    def _with_store(self, fn: Callable[[Store], _T]) -> _T:
        if self._db is None:
            self._db = self._open_store()
        try:
            return fn(self._db)
        except MjcalcError:
            self._drop_store()  # a damaged or replaced file: open it afresh next time
            raise

    def _drop_store(self) -> None:
        if self._db is not None:
            with contextlib.suppress(Exception):
                self._db.close()
            self._db = None
            self._seen = None

    # --- streams ---

    async def open(self, game: int, client: str) -> Watcher:
        """A stream of `game` for `client`, at the game's version now; refused past the limits."""
        limits = self.limits
        for over, what in ((self.count >= self.total, N_("{n} event streams are open, the server's limit", n=self.total)),
                           (len(self.watchers.get(game, ())) >= limits.per_game,
                            N_("game {game} has {n} event streams open, its limit", game=game, n=limits.per_game)),
                           (self.by_client.get(client, 0) >= limits.per_client,
                            N_("this client has {n} event streams open, its limit", n=limits.per_client))):
            if over:
                raise ApiError("too_many_streams", "{what}: close a page or tab that follows a game, or try again later",
                               429, {"retry-after": RETRY_AFTER}, what=what)
        watcher = Watcher(game, client, -1)
        self._add(watcher)
        try:
            watcher.version = await self.call(lambda s: s.game_version(s.game(game).id))
        except BaseException:
            self.close(watcher)
            raise
        return watcher

    def _add(self, watcher: Watcher) -> None:
        self.watchers.setdefault(watcher.game, set()).add(watcher)
        self.by_client[watcher.client] = self.by_client.get(watcher.client, 0) + 1
        self.count += 1

    def close(self, watcher: Watcher) -> None:
        streams = self.watchers.get(watcher.game)
        if streams is None or watcher not in streams:
            return
        streams.discard(watcher)
        if not streams:
            del self.watchers[watcher.game]
        left = self.by_client.get(watcher.client, 1) - 1
        if left > 0:
            self.by_client[watcher.client] = left
        else:
            self.by_client.pop(watcher.client, None)
        self.count -= 1

    def writing(self, game: int, step: int) -> None:
        """A change to `game` begins (+1) or ends (-1) here: while one is under way its streams
        wait for it (it pokes when done), so that its event names the player who made it."""
        left = self.writes.get(game, 0) + step
        if left > 0:
            self.writes[game] = left
        else:
            self.writes.pop(game, None)

    def made_by(self, game: int, version: int, player: str) -> None:
        """A phone of this server made `version` of `game` and named its player: its event says who."""
        self.authors[(game, version)] = player
        while len(self.authors) > AUTHORS_KEPT:
            self.authors.pop(next(iter(self.authors)))

    def poke(self) -> None:
        """This app changed a game: look now, not at the next poll."""
        if self._poke is not None:
            self._poke.set()

    # --- the poller ---

    async def run(self) -> None:
        """Look at the database every POLL seconds while anything listens (or when poked)."""
        self._poke = asyncio.Event()
        if self.announce is not None:
            self._last_game = await self._quietly(lambda s: s.last_game_id())
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poke.wait(), POLL)
            poked = self._poke.is_set()
            self._poke.clear()
            if not self.watchers and self.announce is None:
                continue
            games = tuple(self.watchers)
            changed = await self._quietly(functools.partial(self._look, games=games, poked=poked))
            if changed is None:
                self._fail_streams()
                continue
            versions, begun = changed
            for game, version in versions.items():
                if game in self.writes:
                    continue  # looked at again when that change is answered (it pokes)
                for watcher in self.watchers.get(game, ()):
                    if version != watcher.version:
                        watcher.version = version
                        watcher.wake.set()
            for info in begun:
                assert self.announce is not None
                self.announce(info)

    def _look(self, s: Store, games: tuple[int, ...], poked: bool) -> tuple[dict[int, int], list[GameInfo]]:
        """On the hub's thread: the versions of `games` and the games begun, if anything was committed."""
        import sqlite3

        try:
            (seen,) = s.db.execute("PRAGMA data_version").fetchone()
        except sqlite3.Error as exc:
            raise s.db_error(exc) from None
        if seen == self._seen and not poked:
            return {}, []
        self._seen = seen
        versions = s.game_versions(games) if games else {}
        begun: list[GameInfo] = []
        if self.announce is not None and self._last_game is not None:
            begun = s.games_after(self._last_game)
            if begun:
                self._last_game = begun[-1].id
        return versions, begun

    async def _quietly(self, fn: Callable[[Store], _T]) -> _T | None:
        """`call`, a database error said once on stderr (and again only when it changes): the server goes on."""
        try:
            answer = await self.call(fn)
        except Exception as exc:  # the poller must outlive any one look
            err = exc if isinstance(exc, MjcalcError) else MjcalcError("internal_error", "internal error ({type}: {detail})",
                type=type(exc).__name__, detail=str(exc))
            if err.message != self._said:
                self._said = err.message
                LOG.warning("mjcalc serve: %s [%s]; the server goes on and looks again", err.message, err.code)
            self._last_error = err
            return None
        if self._said is not None:
            LOG.warning("mjcalc serve: the games database can be read again")
            self._said = None
        return answer

    def _fail_streams(self) -> None:
        err = self._last_error
        for streams in self.watchers.values():
            for watcher in streams:
                watcher.error = err
                watcher.wake.set()

    def end_all(self) -> None:
        """The server is stopping: every stream ends now (its `EventSource` reconnects to the next server)."""
        self.closing = True
        for streams in self.watchers.values():
            for watcher in streams:
                watcher.wake.set()

    def stop(self) -> None:
        if self._thread is not None:
            self._thread.submit(self._drop_store)
            self._thread.shutdown(wait=False)
            self._thread = None


def _message(kind: str, game: int, version: int, by: str | None = None) -> str:
    data: dict[str, object] = {"game": game, "version": version, **({"by": by} if by is not None else {})}
    return f"event: {kind}\nid: {version}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def _heartbeat(hub: Hub, watcher: Watcher) -> str:
    """The heartbeat comment: the game's version as the hub last saw it, how many streams follow the game
    (two or more: another page has it open), and the seconds between two heartbeats of a quiet stream."""
    data = {"version": watcher.version, "streams": len(hub.watchers.get(watcher.game, ())), "every": HEARTBEAT}
    return f": heartbeat {json.dumps(data)}\n\n"


async def stream(hub: Hub, watcher: Watcher, lang: str | None = None) -> AsyncIterator[str]:
    loop = asyncio.get_running_loop()
    try:
        last, began = watcher.version, loop.time()
        quiet = began
        yield "retry: 1000\n" + _message("ready", watcher.game, last) + _heartbeat(hub, watcher)
        while (left := STREAM_FOR - (loop.time() - began)) > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(watcher.wake.wait(), min(left, max(0.0, HEARTBEAT - (loop.time() - quiet)) + 0.01))
            watcher.wake.clear()
            if hub.closing:
                return
            if watcher.error is not None:  # the database went away or is damaged: say so, and end the stream
                yield f"event: error\ndata: {api.error_body(watcher.error.code, watcher.error.render(lang))}\n\n"
                return
            now = watcher.version
            if now != last:  # one event per change, also for changes made between two looks
                yield "".join(_message("change", watcher.game, v, hub.authors.get((watcher.game, v)))
                              for v in range(last + 1, now + 1)) if now > last \
                    else _message("change", watcher.game, now, hub.authors.get((watcher.game, now)))
                last, quiet = now, loop.time()
            elif loop.time() - quiet > HEARTBEAT:
                quiet = loop.time()
                yield _heartbeat(hub, watcher)
    finally:
        hub.close(watcher)


def stream_total(limits: StreamLimits) -> int:
    """The most streams open at once: as given, or half the connections the file limit allows."""
    if limits.total is not None:
        return limits.total
    from .server import Limits, fd_limit, open_limit

    return max(8, open_limit(Limits(), fd_limit())[0] // 2)


__all__ = ["HEARTBEAT", "POLL", "STREAM_FOR", "Hub", "StreamLimits", "Watcher", "stream", "stream_total"]
