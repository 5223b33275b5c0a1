"""`judge(hand, ctx, ruleset)`: the one entry point; hands the hand to the ruleset's variant.

A variant's scorer (`variants/<variant>/score.py`) declares its ruleset sections as frozen
dataclasses and provides `score(hand, ctx, ruleset) -> ScoreResult | MjcalcError`: the result,
or why the hand does not win (an error it returns, often one made once and shared, which only a
door raises, as a copy); its package's `VARIANT` ties them to its detectors. The checks every
variant shares (which tiles exist, whether chow melds do) run here, before the scorer.
`score` is `judge` for a caller that wants the refusal raised.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..core import sets
from ..core.context import WinContext
from ..core.errors import InputError, MjcalcError
from ..core.hand import Hand
from ..core.result import ScoreResult
from ..core.tiles import NUM_TILES, tile_str
from ..core.words import N_, Text
from ..rules.schema import Tiles, tile_in_variant
from .hints import variant_hint

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset


@lru_cache(maxsize=64)
def tiles_in_variant(tiles: Tiles) -> frozenset[int]:
    """Every tile a ruleset's `tiles` section includes."""
    return frozenset(t for t in range(NUM_TILES) if tile_in_variant(t, tiles))


def _allowed(ruleset: Ruleset[Any, Any, Any]) -> tuple[bool, ...]:
    """Whether the ruleset's variant has each tile, made once (kept on the ruleset)."""
    made: tuple[bool, ...] | None = ruleset.memo.get("tiles_allowed")
    if made is None:
        used = tiles_in_variant(ruleset.tiles)
        made = ruleset.memo.keep("tiles_allowed", tuple([t in used for t in range(NUM_TILES)]))
    return made


def _missing(ruleset: Ruleset[Any, Any, Any]) -> tuple[int, ...]:
    """The tiles the ruleset's variant has not (most have every tile), made once (kept on the ruleset)."""
    made: tuple[int, ...] | None = ruleset.memo.get("tiles_missing")
    if made is None:
        allowed = _allowed(ruleset)
        made = ruleset.memo.keep("tiles_missing", tuple([t for t in range(NUM_TILES) if not allowed[t]]))
    return made


def check_tiles(hand: Hand, ruleset: Ruleset[Any, Any, Any]) -> None:
    """Reject tiles the variant does not use and chow melds where there are none."""
    counts = hand.counts
    fine = True
    for t in _missing(ruleset):
        if counts[t]:
            fine = False
    if hand.codes:
        has = _allowed(ruleset)
        for code in hand.codes:
            if not has[sets.first_of(code)] or (sets.is_chow(code) and not ruleset.tiles.chow_melds):
                fine = False
    if fine:
        return
    tiles = ruleset.tiles
    allowed = _allowed(ruleset)
    held = hand.held()
    for t in range(NUM_TILES):
        if held[t] and not allowed[t]:
            hint: Text | str = ""
            if tiles.honours == (7,):
                hint = N_("; the only honour is 红中 (write 7z, C or 中)")
            other = variant_hint(hand.all_tiles, any(m.kind == "chow" for m in hand.melds), ruleset.name)
            raise InputError("tile_not_in_variant", "{tile} is not a tile in {ruleset}{hint}{other}", tile=tile_str(t), ruleset=ruleset.name,
                             hint=hint, other=other)
    if not tiles.chow_melds and any(m.kind == "chow" for m in hand.melds):
        chow_hint = variant_hint(hand.all_tiles, True, ruleset.name)
        raise InputError("chow_not_allowed", "{ruleset} has no chow melds (吃); use --meld for pungs and kongs{hint}", ruleset=ruleset.name, hint=chow_hint)


def judge(hand: Hand, ctx: WinContext, ruleset: Ruleset[Any, Any, Any]) -> ScoreResult | MjcalcError:
    """Score a hand under `ruleset`: its result, or the error that says why it does not win (shared:
    raise a copy, `fresh()`); raises InputError for bad input."""
    check_tiles(hand, ruleset)
    if ctx.after_kong:
        kong = False
        for code in hand.codes:
            if sets.is_kong(code):
                kong = True
        if not kong:
            raise InputError("after_kong_without_kong", "--after-kong needs a kong among the melds (--meld 5555p or --concealed-kong)")
    return ruleset.variant.score(hand, ctx, ruleset)


def score(hand: Hand, ctx: WinContext, ruleset: Ruleset[Any, Any, Any]) -> ScoreResult:
    """Score a winning hand under `ruleset`; raises NotAWin or InputError."""
    made = judge(hand, ctx, ruleset)
    if isinstance(made, MjcalcError):
        raise made.fresh()
    return made
