"""A game's long answers a piece at a time, in bounded memory: its history (every event), its hands
in play and its export (YAML, CSV). Each reads the game's events in order, a batch at a time, in one
read transaction: nothing holds more than the hands in play, which a game bounds (live/limits.py).

The game is looked up and its events counted before the first piece, so an unknown game or events
missing are refused before anything is answered; a damaged event met later ends the pieces with
`bad_db`, and what came before is then no whole answer (a JSON list or a YAML file cut short).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from .replay import BadEvents, Event, Hands, apply_event, history_rows

if TYPE_CHECKING:
    from .model import GameInfo
    from .store import Store

_T = TypeVar("_T")
PIECE = 1 << 16  # characters in one piece of an answer
BATCH = 256  # events read at a time


def _events(store: Store, game_id: int) -> Iterator[Event]:
    """The game's events in order, a batch at a time (their count checked first); `bad_db` when one
    is missing or damaged."""
    version = store.game_version(game_id)
    count, last = store.db.execute("SELECT count(*), coalesce(max(seq), 0) FROM events WHERE game = ?", (game_id,)).fetchone()
    if count != version or last != version:
        store.events(game_id)  # raises, naming what is missing
    cursor = store.db.execute("SELECT seq, kind, body, at FROM events WHERE game = ? ORDER BY seq", (game_id,))

    def read() -> Iterator[Event]:
        while rows := cursor.fetchmany(BATCH):
            for row in rows:
                yield store.event(game_id, *row)

    return read()


def _checked(store: Store, game_id: int, items: Iterator[_T]) -> Iterator[_T]:
    """`items`, events that make no game (BadEvents) as `bad_db`."""
    try:
        yield from items
    except BadEvents as exc:
        raise store.bad_events(game_id, exc) from None


def _in_play(store: Store, game_id: int) -> list[dict[str, Any]]:
    stack: Hands = []
    undone: Hands = []
    try:
        for ev in _events(store, game_id):
            apply_event(stack, undone, ev)
    except BadEvents as exc:
        raise store.bad_events(game_id, exc) from None
    return [hand for _, hand in stack]


def _joined(items: Iterable[str]) -> Iterator[str]:
    """A JSON list of `items` (JSON texts), in pieces of about PIECE characters."""
    piece, size = ["["], 1
    for i, item in enumerate(items):
        piece.append(", " + item if i else item)
        size += len(item) + 2
        if size >= PIECE:
            yield "".join(piece)
            piece, size = [], 0
    piece.append("]")
    yield "".join(piece)


def _read(store: Store, make: Callable[[], Iterator[str]]) -> Iterator[str]:
    """The pieces `make` gives, in one read transaction, SQLite's errors as the store's (`bad_db`,
    `db_busy`); the checks before the first piece (the game, its count of events) are made now."""
    def pieces() -> Iterator[str]:
        try:
            store.db.execute("BEGIN")
            try:
                yield from make()
            finally:
                store.db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise store.db_error(exc) from None

    made = pieces()
    first = next(made)

    def all_of() -> Iterator[str]:
        yield first
        yield from made

    return all_of()


def history_pieces(store: Store, game_id: int | str | None) -> Iterator[str]:
    """`mjcalc game history --json`'s text: every event, with the hand it is about."""
    def make() -> Iterator[str]:
        info = store.game(game_id, count_hands=False)
        rows = _checked(store, info.id, history_rows(_events(store, info.id)))
        yield ""
        yield from _joined(json.dumps(row, ensure_ascii=False) for row in rows)

    return _read(store, make)


def hands_pieces(store: Store, game_id: int | str | None) -> Iterator[str]:
    """The hands in play as entered (or last changed): a JSON list of game-record hands."""
    def make() -> Iterator[str]:
        info = store.game(game_id, count_hands=False)
        hands = _in_play(store, info.id)
        yield ""
        yield from _joined(json.dumps(hand, ensure_ascii=False) for hand in hands)

    return _read(store, make)


def export_pieces(store: Store, game_id: int | str | None, fmt: str = "yaml") -> tuple[GameInfo, Iterator[str]]:
    """The game as `mjcalc game export --format yaml|csv` prints it (YAML a hand at a time), and its GameInfo."""
    from .export import export_csv, yaml_pieces

    found: list[GameInfo] = []

    def make() -> Iterator[str]:
        info = store.game(game_id, count_hands=False)
        found.append(info)
        hands = _in_play(store, info.id)
        yield ""
        yield from (export_csv(info, hands),) if fmt == "csv" else yaml_pieces(info, hands)

    pieces = _read(store, make)
    return found[0], pieces
