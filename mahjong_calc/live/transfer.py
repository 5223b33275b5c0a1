"""A game file into live games: how a game recorded on a phone alone (the static site) moves to
`mjcalc serve`, and how any game file (YAML, JSON Lines, a CSV log) becomes a live game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .store import Store


def import_games(store: Store, name: str) -> list[int]:
    """Each game of the file `name` (as `mjcalc game settle` reads it) stored as a new live game,
    its hands in order; the numbers of the games made. Every hand is settled first, and held to the
    bounds of a live game (its hands, its events, each hand's size): a file with an error row, or
    past a bound (or that cannot be read) is refused whole and nothing is stored."""
    import json

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
    made = []
    for header, hands in games:
        info = store.new_game(header)
        for hand in hands:
            store.add(info.id, hand)
        made.append(info.id)
    return made
