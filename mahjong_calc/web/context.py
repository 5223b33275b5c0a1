"""What the routes of one app share: the database (with the games folded between requests and the
bounds of the games and the file), whether tokens are on, the public address, the event streams'
hub, the pools of costly work, the games begun lately, and who a client is."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .starts import Starts
from .work import Work

if TYPE_CHECKING:
    from starlette.requests import Request

    from ..live.fold import Folds
    from ..live.limits import StoreLimits
    from ..live.store import Store
    from .streams import Hub

FORWARDED = "x-forwarded-for"


@dataclass
class Context:
    db: str | Path | None
    tokens: bool
    public: str | None
    hub: Hub
    calc: Work  # score, waits, advise
    states: Work  # a game's state, the season
    reads: Work  # the long answers, made in pieces: export, history, the hands in play
    starts: Starts  # the games begun from the network lately (their limits)
    folds: Folds
    limits: StoreLimits | None = None
    proxy: bool = False  # read the client's address from X-Forwarded-For (`mjcalc serve --proxy-headers`)

    def store(self) -> Store:
        from ..live.store import Store

        return Store(self.db, folds=self.folds, limits=self.limits)

    def notify(self) -> None:
        """This app changed a game: its event streams look at once, not at their next poll."""
        self.hub.poke()

    def client(self, request: Request) -> str:
        """Who is asking, for the limits per client: the peer's address (an IPv6 address by its /64
        network, which one device may fill). With `proxy` and a peer on this machine (the proxy), the
        last address of `X-Forwarded-For`, the one the proxy saw."""
        peer = request.client.host if request.client is not None else "?"
        if self.proxy and _loopback(peer):
            given = request.headers.get(FORWARDED, "").rsplit(",", 1)[-1].strip()
            if given:
                peer = given[:64]
        return client_key(peer)


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def client_key(host: str) -> str:
    """A client's address as the limits count it: an IPv6 address by its /64 network."""
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)
