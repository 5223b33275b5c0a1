"""Chizhou 池州麻将: 花 decide who may win; fan multiply the base of 1, capped at 3 (拉子).

Every number and switch comes from the ruleset; see docs/rules/chizhou.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..decompose import Arrangement, TileSet, arrangements, hand_counts
from ..errors import InputError, NotAWin
from ..hand import SEATS, Hand, Seat, WinContext
from ..patterns import Candidate, detect
from ..result import Item, ScoreResult
from ..ruleset import Ruleset, common_schema
from ..tiles import SUITS, is_honour
from ..settlement import settlement_section
from .common import each_pays, item, result

SCHEMA = common_schema(
    {"zh": str, "en": str, "fan": int},
    numbers={
        "base": int,
        "cap": int,
        "min_flowers": {"self_draw": int, "discard": int, "qiang_gang": int},
        "chow_free_min_flowers": int,
        "flowers": {
            "zi_peng": int,
            "zi_an_ke": int,
            "ming_gang": int,
            "an_gang": int,
            "zi_ming_gang": int,
            "zi_an_gang": int,
        },
    },
    options={
        "la_zi_needs_no_flowers": bool,
        "da_diao_che_concealed_kong": bool,
        "discard_triplet_is_exposed": bool,
    },
    settlement=settlement_section("chizhou"),  # issue 12: settlement/chizhou.py
)


def flower_key(s: TileSet, completes_on_discard: bool, exposed_on_discard: bool) -> str | None:
    """Which 花 source a set is (字碰, 字暗刻, 明杠, 暗杠, 字明杠, 字暗杠), or None.

    `completes_on_discard`: the set was completed by a discarded (or robbed) tile.
    """
    honour = is_honour(s.first)
    if s.kind == "kong":
        return ("zi_" if honour else "") + ("an_gang" if s.concealed else "ming_gang")
    if s.kind != "pung" or not honour:
        return None
    if s.declared or (completes_on_discard and exposed_on_discard):
        return "zi_peng"
    return "zi_an_ke"


def flower_items(arr: Arrangement, ctx: WinContext, rs: Ruleset) -> list[Item]:
    """One item per 花 source among the winner's sets; its value is the 花 it brings."""
    per_source: dict[str, int] = rs.data["numbers"]["flowers"]
    exposed_on_discard: bool = rs.options["discard_triplet_is_exposed"]
    items: list[Item] = []
    for index, s in enumerate(arr.sets):
        key = flower_key(s, index == arr.win_in and not ctx.self_draw, exposed_on_discard)
        if key is not None and per_source[key]:
            items.append(item(rs, key, per_source[key], f"{s.notation()}: {per_source[key]} 花"))
    return items


@dataclass(frozen=True)
class _Reading:
    """One arrangement, scored."""

    arrangement: Arrangement
    found: dict[str, int]  # pattern key -> times
    flower_items: tuple[Item, ...]
    product: int  # the fans multiplied, before the cap
    multiplier: int  # the product, capped
    la_zi: bool  # the product reaches the cap (拉子)
    value: int

    @property
    def flowers(self) -> int:
        return sum(i.value for i in self.flower_items)


def _read(arr: Arrangement, hand: Hand, ctx: WinContext, rs: Ruleset, counts: tuple[int, ...]) -> _Reading:
    num: dict[str, Any] = rs.data["numbers"]
    found = detect(rs.patterns, Candidate(hand, ctx, arr, counts, rs.options))
    product = math.prod(rs.patterns[key]["fan"] ** times for key, times in found.items())
    multiplier = min(product, num["cap"])
    return _Reading(
        arrangement=arr,
        found=found,
        flower_items=tuple(flower_items(arr, ctx, rs)),
        product=product,
        multiplier=multiplier,
        la_zi=product >= num["cap"],
        value=num["base"] * multiplier,
    )


def flowers_needed(reading: _Reading, ctx: WinContext, rs: Ruleset) -> tuple[int, str]:
    """How many 花 this win needs, and what kind of win it is (for the message)."""
    need: dict[str, int] = rs.data["numbers"]["min_flowers"]
    if ctx.robbing_kong:
        return need["qiang_gang"], "a win by robbing a kong (抢杠)"
    if reading.la_zi and rs.options["la_zi_needs_no_flowers"]:
        return 0, "a 拉子 hand"
    if ctx.self_draw:
        return need["self_draw"], "a self-drawn win (自摸)"
    return need["discard"], "a discard win (冲)"


def check_context(ctx: WinContext) -> None:
    """A discard or 抢杠 win must say who pays (--discarder)."""
    if ctx.self_draw or ctx.discarder is not None:
        return
    if ctx.robbing_kong:
        message = "--robbing-kong needs --discarder next|opposite|previous: the player whose kong was robbed"
    else:
        message = "a discard win (冲) needs --discarder next|opposite|previous; or give --self-draw"
    raise InputError("missing_discarder", message)


def check_chow_restriction(hand: Hand, flowers: int, rs: Ruleset) -> None:
    """With fewer than `chow_free_min_flowers` 花, every chow meld must be of one suit."""
    need: int = rs.data["numbers"]["chow_free_min_flowers"]
    suits = sorted({m.first // 9 for m in hand.melds if m.kind == "chow"})
    if flowers < need and len(suits) > 1:
        names = ", ".join(SUITS[s] for s in suits)
        raise InputError(
            "chow_restricted",
            f"with {flowers} 花 (fewer than {need}) every chow meld must be of one suit, but the chows are in {names}",
        )


def payments(value: int, hand: Hand, ctx: WinContext, rs: Ruleset) -> dict[Seat, int]:
    """What each seat pays the winner: the one place that liability (承包, 反包) will extend.

    Self-draw: each of the three pays the value. A discard win or 抢杠: the
    discarder (the robbed player) alone pays it.
    """
    if ctx.self_draw:
        return each_pays(value)
    out: dict[Seat, int] = {seat: 0 for seat in SEATS}
    assert ctx.discarder is not None  # check_context ran first
    out[ctx.discarder] = value
    return out


def _items(best: _Reading, rs: Ruleset) -> list[Item]:
    """底, each pattern with its fan, 拉子 when capped, then each 花 source."""
    num: dict[str, Any] = rs.data["numbers"]
    items = [item(rs, "di", num["base"], "底")]
    for key, times in best.found.items():
        fan = rs.patterns[key]["fan"] ** times
        items.append(item(rs, key, fan, f"×{fan}"))
    if best.la_zi:
        detail = f"封顶: ×{best.product} capped at ×{num['cap']}" if best.product > num["cap"] else f"封顶 ×{num['cap']}"
        items.append(item(rs, "la_zi", best.multiplier, detail))
    return items + list(best.flower_items)


def score(hand: Hand, ctx: WinContext, rs: Ruleset) -> ScoreResult:
    check_context(ctx)
    arrs = arrangements(hand)
    if not arrs:
        raise NotAWin(
            "not_a_winning_hand", "the tiles do not form a pair plus four sets (Chizhou has no seven pairs)"
        )
    counts = hand_counts(hand)
    readings = [_read(a, hand, ctx, rs, counts) for a in arrs]
    check_chow_restriction(hand, max(r.flowers for r in readings), rs)
    winning = [r for r in readings if r.flowers >= flowers_needed(r, ctx, rs)[0]]
    if not winning:
        best = max(readings, key=lambda r: (r.value, r.flowers))
        need, how = flowers_needed(best, ctx, rs)
        unless = " (unless 拉子)" if rs.options["la_zi_needs_no_flowers"] and not ctx.robbing_kong else ""
        raise NotAWin("not_enough_flowers", f"{how} needs {need} 花{unless}; the hand has {best.flowers}")
    best = max(winning, key=lambda r: (r.value, r.flowers))  # first of equals: stable
    need, _ = flowers_needed(best, ctx, rs)
    return result(
        rs,
        hand,
        value=best.value,
        items=tuple(_items(best, rs)),
        patterns=tuple(best.found) + (("la_zi",) if best.la_zi else ()),
        payments=payments(best.value, hand, ctx, rs),
        decomposition=best.arrangement.to_dict(),
        extra={"flowers": best.flowers, "flowers_needed": need, "multiplier": best.multiplier},
    )
