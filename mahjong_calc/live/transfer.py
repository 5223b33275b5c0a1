"""A game file into live games: how a game recorded on a phone alone (the static site) moves to
`mjcalc serve`, and how any game file (YAML, JSON Lines, a CSV log) becomes a live game."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .store import Store


def _same_game(header: dict[str, Any], hands: list[Any]) -> str:
    """What makes two games the same game: the header's fields and the hands, in order."""
    return json.dumps([{k: v for k, v in header.items() if v is not None}, hands], sort_keys=True, ensure_ascii=False, default=str)


def import_games(store: Store, name: str, once: bool = False) -> list[int]:
    """Each game of the file `name` (as `mjcalc game settle` reads it) stored as a new live game,
    its hands in order; the numbers of the games made. Every hand is settled first, and held to the
    bounds of a live game (its hands, its events, each hand's size): a file with an error row, or
    past a bound (or that cannot be read) is refused whole and nothing is stored. With `once` (`mjcalc
    game import` without --again), a game that is already a live game (the same header and hands:
    the same export imported twice) is refused (`already_imported`); the page's import button
    makes a new game each time."""
    from ..core.errors import InputError
    from ..game import RawHand, check_header, settle_game
    from ..game.game_file import GameFileError
    from ..game.log import open_games
    from .limits import check_record
    from .model import StoreError

    games: list[tuple[dict[str, Any], list[Any]]] = []
    for game in open_games(name):
        hands = [raw.value for raw in game.hands]
        report = settle_game(check_header(game.header, [RawHand(i + 1, h) for i, h in enumerate(hands)], name))
        bad = next((row for row in report.rows if row.error is not None), None)
        if bad is not None and bad.error is not None:
            raise GameFileError(bad.error.code, "{name}: hand {no}: {problem}; nothing was imported", name=name, no=bad.no, problem=bad.error.message)
        most = min(store.limits.hands, store.limits.events)
        if len(hands) > most:
            raise StoreError("too_many_hands", "{name}: a game of {count:,} hands, more than a live game holds ({most:,}); nothing was imported",
                             name=name, count=len(hands), most=most)
        for no, hand in enumerate(hands, 1):
            check_record(json.dumps(hand, ensure_ascii=False), store.limits, f"{name}: hand {no}")
        games.append((dict(game.header), hands))
    if once:
        live = {_same_game(info.header, store.hands(info.id)): info.id for info in reversed(store.games())}
        for number, (header, hands) in enumerate(games, 1):
            twin = live.get(_same_game(header, hands))
            if twin is not None:
                raise InputError("already_imported", "{name}: game {number} is already live game {id} (the same header and hands); "
                                 "nothing was imported (--again imports it once more)", name=name, number=number, id=twin)
    made = []
    for header, hands in games:
        info = store.new_game(header)
        for hand in hands:
            store.add(info.id, hand)
        made.append(info.id)
    return made
