"""A game's events folded once and kept between requests, so that a change costs the same at hand
1,000 as at hand 10: the hands in play, the standings after each of them and each hand's settled
row (with its JSON, made once), for one version of the game, in one language (a result's texts
are worded when it is scored).

A newer version is made from the one kept by folding only the events written since, and settling
only the hands from the first one that changed (the last one, for an added hand or an undo). A
`Folds` keeps the latest fold of a few games, per process (a server keeps one for all its requests);
before a fold is used again the store checks that the game's count of events and its last event are
still what the fold was made from, so a write by another process (the CLI, another server) is seen.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .replay import BadEvents, Event, Hands, apply_event

if TYPE_CHECKING:
    from ..game import GameFile, HandRow, Report, State

KEPT = 8  # games whose fold a process keeps (the least recently used goes first)


@dataclass(frozen=True)
class Folded:
    """One version of a game folded: `states[i]` is the standings after the first i hands in play,
    `rows[i]` the settled row of hand i + 1. `last` is the stored text and time of the last event,
    checked before the fold is used again. The JSON of the rows and of the whole state are made when
    first asked, per language, and shared by every request for this version."""

    game: GameFile
    version: int
    last: tuple[str, str] | None
    stack: tuple[tuple[int, dict[str, Any]], ...]
    undone: tuple[tuple[int, dict[str, Any]], ...]
    states: tuple[State, ...]
    rows: tuple[HandRow, ...]
    texts: dict[str | None, tuple[bytes, ...]] = field(default_factory=dict, compare=False, repr=False)
    bodies: dict[str | None, bytes] = field(default_factory=dict, compare=False, repr=False)

    @property
    def hands(self) -> list[dict[str, Any]]:
        return [hand for _, hand in self.stack]

    def report(self) -> Report:
        """The game settled: what `settle_game` gives for the hands in play."""
        from ..game import Report, fewest_transfers

        state = self.states[-1]
        return Report(self.game, self.rows, state, tuple(fewest_transfers(state.totals)))

    def state_json(self, lang: str | None) -> bytes:
        """`mjcalc game settle FILE --json` of this version (UTF-8), its rows' JSON in `lang`: each row's
        made once, for this version and the next, and the whole once for this version."""
        body = self.bodies.get(lang)
        if body is None:
            import json

            from ..game import fewest_transfers
            from ..game.report import report_tail, row_json

            texts = self.texts.get(lang, ())
            if len(texts) < len(self.rows):
                players = self.game.players
                texts = (*texts, *(row_json(row, players).encode() for row in self.rows[len(texts):]))
                self.texts[lang] = texts
            state, players = self.states[-1], self.game.players
            head = json.dumps({"variant": self.game.ruleset.name, "players": list(players)}, ensure_ascii=False)[:-1]
            left_out = [(row.no, row.line) for row in self.rows if row.error is not None]
            tail = json.dumps(report_tail(players, state, fewest_transfers(state.totals), left_out), ensure_ascii=False)[1:]
            body = self.bodies[lang] = b"".join((f'{head}, "hands": ['.encode(), b", ".join(texts), f"], {tail}".encode()))
        return body

    def then(self, events: Iterable[Event], last: tuple[str, str] | None) -> Folded:
        """The fold after `events` (those written since this version): only the hands from the first
        one that changed are settled again. BadEvents: the events do not make a game (damage)."""
        stack, undone = list(self.stack), list(self.undone)
        version = self.version
        for ev in events:
            if ev.seq != version + 1:
                raise BadEvents(f"event {ev.seq} follows event {version}")
            apply_event(stack, undone, ev)
            version = ev.seq
        same = 0
        for old, new in zip(self.stack, stack):  # the hands kept as they were (the same stored objects)
            if old is not new:
                break
            same += 1
        return fold_from(self, same, stack, undone, version, last)


def fold_from(base: Folded, same: int, stack: Hands, undone: Hands, version: int, last: tuple[str, str] | None) -> Folded:
    """`base`'s first `same` hands kept; the rest of `stack` settled from there."""
    from ..game import RawHand, step

    game = base.game
    states, rows = list(base.states[:same + 1]), list(base.rows[:same])
    for i in range(same, len(stack)):
        state, row = step(game, states[-1], RawHand(i + 1, stack[i][1]))
        states.append(state)
        rows.append(row)
    texts = {lang: kept[:same] for lang, kept in base.texts.items()}
    return Folded(game, version, last, tuple(stack), tuple(undone), tuple(states), tuple(rows), texts)


def empty(game: GameFile) -> Folded:
    """A game before its first event."""
    from ..game import start

    return Folded(game, 0, None, (), (), (start(game),), ())


def folded(game: GameFile, events: list[Event]) -> Folded:
    """A game's events folded from the start."""
    last = (events[-1].text, events[-1].at) if events else None
    return empty(game).then(events, last)


class Folds:
    """The folds one process keeps, by the database file and game; safe to share between threads
    (a Folded is never changed, only its JSON added once made)."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._folds: OrderedDict[tuple[Any, ...], Folded] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[Any, ...]) -> Folded | None:
        with self._lock:
            found = self._folds.get(key)
            if found is not None:
                self._folds.move_to_end(key)
            return found

    def put(self, key: tuple[Any, ...], fold: Folded) -> None:
        with self._lock:
            now = self._folds.get(key)
            if now is not None and now.version > fold.version:
                return  # a newer version was kept meanwhile (another thread's write)
            self._folds[key] = fold
            self._folds.move_to_end(key)
            while len(self._folds) > self.kept:
                self._folds.popitem(last=False)

    def drop(self, key: tuple[Any, ...]) -> None:
        with self._lock:
            self._folds.pop(key, None)

