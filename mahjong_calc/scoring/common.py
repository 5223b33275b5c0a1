"""Arithmetic helpers shared by the variant scorers."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from typing import Any

from ..hand import SEATS, Hand, Seat
from ..result import Item, ScoreResult
from ..ruleset import Ruleset


def round_half_up(value: Decimal) -> int:
    """Rounding as the seeds mean it (四舍五入): 4.5 → 5, never banker's rounding."""
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def item(ruleset: Ruleset, key: str, value: int, detail: str = "") -> Item:
    zh, en = ruleset.label(key)
    return Item(key, zh, en, value, detail)


def each_pays(value: int) -> dict[Seat, int]:
    return {seat: value for seat in SEATS}


def result(rs: Ruleset, hand: Hand, **fields: Any) -> ScoreResult:
    """A ScoreResult stamped with the ruleset's name, version and title."""
    title = (rs.data["title"]["zh"], rs.data["title"]["en"])
    return ScoreResult(variant=rs.name, ruleset_version=rs.version, title=title, hand=hand, **fields)
