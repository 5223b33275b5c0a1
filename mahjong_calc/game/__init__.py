"""Whole games: a game record, folded hand by hand into standings.

    >>> from mahjong_calc.game import read_game, settle_game   # doctest: +SKIP
    >>> report = settle_game(read_game("examples/wuhu315-club.yaml"))
"""

from __future__ import annotations

from .engine import Fold, HandRow, Report, State, settle_game, start, step
from .game_file import GameFile, GameFileError, RawHand, check_header, load_schema, schema_path
from .ledger import fewest_transfers
from .log import open_game, read_game
from .report import report_dict, report_json, row_dict

__all__ = [
    "Fold",
    "GameFile",
    "GameFileError",
    "HandRow",
    "RawHand",
    "Report",
    "State",
    "check_header",
    "fewest_transfers",
    "load_schema",
    "open_game",
    "read_game",
    "report_dict",
    "report_json",
    "row_dict",
    "schema_path",
    "settle_game",
    "start",
    "step",
]
