"""What the routes of one app share: the database, whether tokens are on, the public address,
the event streams' hub, the pools of costly work, the games begun lately, and the last big
game states answered."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .starts import Starts
from .work import Work

if TYPE_CHECKING:
    from ..live.store import Store
    from .streams import Hub

STATES_KEPT = 4  # big game states kept encoded, so that many clients asking for one share one copy
BIG_STATE = 1 << 16  # bytes: a state at least this long is kept


@dataclass
class Context:
    db: str | Path | None
    tokens: bool
    public: str | None
    hub: Hub
    calc: Work  # score, waits, advise
    states: Work  # a game's state, export, history, season
    starts: Starts  # the games begun from the network lately (their limits)
    kept: OrderedDict[tuple[int, int, str | None], bytes] = field(default_factory=OrderedDict)

    def store(self) -> Store:
        from ..live.store import Store

        return Store(self.db)

    def notify(self) -> None:
        """This app changed a game: its event streams look at once, not at their next poll."""
        self.hub.poke()

    def kept_state(self, game: int, version: int, lang: str | None) -> bytes | None:
        return self.kept.get((game, version, lang))

    def keep_state(self, game: int, version: int, body: bytes, lang: str | None) -> None:
        """Keep a big state, by the language its error rows are written in, too."""
        if len(body) < BIG_STATE:
            return
        self.kept[(game, version, lang)] = body
        self.kept.move_to_end((game, version, lang))
        while len(self.kept) > STATES_KEPT:
            self.kept.popitem(last=False)
