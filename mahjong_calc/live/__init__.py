"""Live games: games recorded hand by hand as they are played, kept in SQLite.

The store keeps only events: a game's header (variant, players, first dealer, 子) and
the hands as they were entered, with undo as an event of its own. The standings are
always the fold of `game.settle_game` over the hands still in play, so an exported
game settles to the same totals as `mjcalc game show` prints, by construction.

    >>> from mahjong_calc.live import Store   # doctest: +SKIP
    >>> store = Store("games.sqlite3")
    >>> game = store.new_game({"variant": "wuhu315", "players": ["王", "李", "张", "赵"], "dealer": "王"})
    >>> report = store.add(game.id, {"winner": "李", "hand": "123456m13m99p555p2m", "self_draw": True}).report
"""

from __future__ import annotations

from typing import Any

__all__ = ["SCHEMA_VERSION", "GameInfo", "Store", "default_db_path", "export_yaml"]
_HOME = {"SCHEMA_VERSION": "migrations", "GameInfo": "model", "Store": "store", "default_db_path": "model", "export_yaml": "export"}


def __getattr__(name: str) -> Any:
    # lazily: `mjcalc` registers the game commands from cli/live.py at every start, and
    # importing the store (sqlite3) there would slow `mjcalc score`
    if name in _HOME:
        from importlib import import_module

        return getattr(import_module(f"{__name__}.{_HOME[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
