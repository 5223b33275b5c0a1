"""`score(hand, ctx, ruleset)`: the one entry point; dispatches to a variant's scorer.

A scorer module provides `SCHEMA` (its ruleset schema) and
`score(hand, ctx, ruleset) -> ScoreResult`. The checks every variant shares
(which tiles exist, whether chow melds do) run here, before the scorer.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from ..errors import InputError, RulesetError
from ..hand import Hand, WinContext
from ..result import ScoreResult
from ..ruleset import Ruleset
from ..tiles import number_of, suit_of, tile_str

SCORERS = {"wuhu": "wuhu", "chizhou": "chizhou", "pujiang": "pujiang"}


def _module(scorer: str, source: str = "ruleset") -> ModuleType:
    if scorer not in SCORERS:
        raise RulesetError(
            "ruleset_invalid", f"{source}: scorer: {scorer!r} is not one of {', '.join(sorted(SCORERS))}"
        )
    return importlib.import_module(f".{SCORERS[scorer]}", __name__)


def schema_for(scorer: str, source: str) -> dict[str, Any]:
    schema: dict[str, Any] = _module(scorer, source).SCHEMA
    return schema


def tile_in_variant(tile: int, tiles: Mapping[str, Any]) -> bool:
    """Whether a ruleset's `tiles` section (suits, honour numbers) includes `tile`."""
    suit = suit_of(tile)
    return number_of(tile) in tiles["honours"] if suit == "z" else suit in tiles["suits"]


def check_tiles(hand: Hand, ruleset: Ruleset) -> None:
    """Reject tiles the variant does not use and chow melds where there are none."""
    tiles = ruleset.data["tiles"]
    for t in hand.all_tiles:
        if not tile_in_variant(t, tiles):
            honours = tiles["honours"]
            hint = ""
            if honours == [7]:
                hint = "; the only honour is 红中 (write 7z, C or 中)"
            raise InputError("tile_not_in_variant", f"{tile_str(t)} is not a tile in {ruleset.name}{hint}")
    if not tiles["chow_melds"] and any(m.kind == "chow" for m in hand.melds):
        raise InputError("chow_not_allowed", f"{ruleset.name} has no chow melds (吃); use --meld for pungs and kongs")


def score(hand: Hand, ctx: WinContext, ruleset: Ruleset) -> ScoreResult:
    """Score a winning hand under `ruleset`; raises NotAWin or InputError."""
    check_tiles(hand, ruleset)
    if ctx.after_kong and not any(m.kind == "kong" for m in hand.melds):
        raise InputError("after_kong_without_kong", "--after-kong needs a kong among the melds (--meld 5555p or --concealed-kong)")
    result: ScoreResult = _module(ruleset.scorer).score(hand, ctx, ruleset)
    return result
