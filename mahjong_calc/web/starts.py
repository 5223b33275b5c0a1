"""How many games the phones may begin on a server open to the network: so many per client a
minute and an hour, and so many in all an hour (this server run's count; a restart begins it
afresh), so that a device on the network cannot fill the disk with games. The cap in all is
well above what one client may reach alone, so that one device cannot lock the others out.
Past any, `POST /api/games` is 429 `too_many_games`, with `Retry-After`: the seconds until the
oldest game counted leaves its window. On loopback (only this machine) nothing is counted, as
`mjcalc game new` is not.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from ..core.words import N_
from .api import ApiError

MINUTE = 60.0
HOUR = 3600.0


@dataclass(frozen=True)
class StartLimits:
    """Games begun over the API with tokens on: per client (its address) a minute and an hour, in all an hour."""

    per_client: int = 5
    total: int = 200
    per_client_hour: int = 20


class Starts:
    """The games begun lately, by client and in all: `admit(client)` counts one or raises 429."""

    def __init__(self, limits: StartLimits | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits or StartLimits()
        self.clock = clock
        self.all: deque[float] = deque()
        self.by_client: dict[str, deque[float]] = {}

    def _forget(self, now: float) -> None:
        while self.all and now - self.all[0] >= HOUR:
            self.all.popleft()
        for client in [c for c, times in self.by_client.items() if not times or now - times[-1] >= HOUR]:
            del self.by_client[client]  # nothing of theirs is left in the hour: the table stays small
        for times in self.by_client.values():
            while now - times[0] >= HOUR:
                times.popleft()

    def admit(self, client: str) -> None:
        """Count a game begun by `client` now, or refuse it (nothing counted) with 429 `too_many_games`."""
        now = self.clock()
        self._forget(now)
        limits = self.limits
        mine = self.by_client.get(client, deque())
        minute = [t for t in mine if now - t < MINUTE]
        if len(minute) >= limits.per_client:
            wait = _seconds(MINUTE - (now - minute[0]))
            raise ApiError("too_many_games", str(N_(
                "this phone has begun {count} games in the last minute, the limit: try again in {seconds} s",
                count=limits.per_client, seconds=wait)), 429, {"retry-after": str(wait)})
        if len(mine) >= limits.per_client_hour:
            wait = _seconds(HOUR - (now - mine[0]))
            raise ApiError("too_many_games", str(N_(
                "this phone has begun {count} games in the last hour, the limit: try again in {seconds} s",
                count=limits.per_client_hour, seconds=wait)), 429, {"retry-after": str(wait)})
        if len(self.all) >= limits.total:
            wait = _seconds(HOUR - (now - self.all[0]))
            raise ApiError("too_many_games", str(N_(
                "{count} games were begun on this server in the last hour, the limit: try again in {seconds} s, "
                "or begin one with `mjcalc game new` on the machine that serves",
                count=limits.total, seconds=wait)), 429, {"retry-after": str(wait)})
        mine.append(now)
        self.by_client[client] = mine
        self.all.append(now)

    def take_back(self, client: str) -> None:
        """The game was not begun after all (refused by the store): it does not count."""
        mine = self.by_client.get(client)
        if mine:
            mine.pop()
        if self.all:
            self.all.pop()


def _seconds(left: float) -> int:
    return max(1, math.ceil(left))


__all__ = ["StartLimits", "Starts"]
