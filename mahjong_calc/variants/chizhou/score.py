"""Chizhou 池州麻将: 花 decide who may win; fan multiply the base of 1, capped at 3 (拉子).

Every number and switch comes from the ruleset; see docs/rules/chizhou.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ...core.context import SEATS, Seat, WinContext
from ...core.errors import InputError, NotAWin
from ...core.hand import Hand
from ...core.result import Item, ScoreResult
from ...core.shapes import Arrangement, TileSet, arrangements, hand_counts
from ...core.tiles import SUITS, is_honour
from ..common.candidate import Candidate, detect
from ..common.reading import Reading, Settled, best_result, each_pays, item

if TYPE_CHECKING:
    from .schema import ChizhouRuleset


FlowerKey = Literal["zi_peng", "zi_an_ke", "ming_gang", "an_gang", "zi_ming_gang", "zi_an_gang"]


def flower_key(s: TileSet, completes_on_discard: bool, exposed_on_discard: bool) -> FlowerKey | None:
    """Which 花 source a set is (字碰, 字暗刻, 明杠, 暗杠, 字明杠, 字暗杠), or None.

    `completes_on_discard`: the set was completed by a discarded (or robbed) tile.
    """
    honour = is_honour(s.first)
    if s.kind == "kong":
        if s.concealed:
            return "zi_an_gang" if honour else "an_gang"
        return "zi_ming_gang" if honour else "ming_gang"
    if s.kind != "pung" or not honour:
        return None
    if s.declared or (completes_on_discard and exposed_on_discard):
        return "zi_peng"
    return "zi_an_ke"


def flower_items(arr: Arrangement, ctx: WinContext, rs: ChizhouRuleset) -> list[Item]:
    """One item per 花 source among the winner's sets; its value is the 花 it brings."""
    per_source = rs.numbers.flowers
    exposed_on_discard = rs.options.discard_triplet_is_exposed
    items: list[Item] = []
    for index, s in enumerate(arr.sets):
        key = flower_key(s, index == arr.win_in and not ctx.self_draw, exposed_on_discard)
        flowers: int = getattr(per_source, key) if key is not None else 0
        if key is not None and flowers:
            items.append(item(rs, key, flowers, f"{s.notation()}: {flowers} 花"))
    return items


@dataclass(frozen=True)
class ChizhouFacts:
    """What a Chizhou reading keeps besides its value."""

    arrangement: Arrangement
    found: dict[str, int]  # pattern key -> times
    flower_items: tuple[Item, ...]
    product: int  # the fans multiplied, before the cap
    multiplier: int  # the product, capped
    la_zi: bool  # the product reaches the cap (拉子)
    flowers: int
    flowers_needed: int
    win_kind: str  # what kind of win, for the message when 花 are short


def _read(arr: Arrangement, hand: Hand, ctx: WinContext, rs: ChizhouRuleset, counts: tuple[int, ...]) -> Reading[ChizhouFacts]:
    num = rs.numbers
    found = detect(rs.detectors, Candidate(hand, ctx, arr, counts, rs.options))
    product = math.prod(rs.patterns[key].fan ** times for key, times in found.items())
    multiplier = min(product, num.cap)
    la_zi = product >= num.cap
    flowers = tuple(flower_items(arr, ctx, rs))
    have = sum(i.value for i in flowers)
    need, how = flowers_needed(la_zi, ctx, rs)
    facts = ChizhouFacts(arr, found, flowers, product, multiplier, la_zi, have, need, how)
    value = num.base * multiplier
    refusal = None
    if have < need:
        unless = " (unless 拉子)" if rs.options.la_zi_needs_no_flowers and not ctx.robbing_kong else ""
        refusal = NotAWin("not_enough_flowers", f"{how} needs {need} 花{unless}; the hand has {have}")
    patterns = tuple(found) + (("la_zi",) if la_zi else ())
    return Reading(value, tuple(_items(facts, rs)), patterns, facts, refusal, rank=(have,))


def flowers_needed(la_zi: bool, ctx: WinContext, rs: ChizhouRuleset) -> tuple[int, str]:
    """How many 花 this win needs, and what kind of win it is (for the message)."""
    need = rs.numbers.min_flowers
    if ctx.robbing_kong:
        return need.qiang_gang, "a win by robbing a kong (抢杠)"
    if la_zi and rs.options.la_zi_needs_no_flowers:
        return 0, "a 拉子 hand"
    if ctx.self_draw:
        return need.self_draw, "a self-drawn win (自摸)"
    return need.discard, "a discard win (冲)"


def check_context(ctx: WinContext) -> None:
    """A discard or 抢杠 win must say who pays (--discarder)."""
    if ctx.self_draw or ctx.discarder is not None:
        return
    if ctx.robbing_kong:
        message = "--robbing-kong needs --discarder next|opposite|previous: the player whose kong was robbed"
    else:
        message = "a discard win (冲) needs --discarder next|opposite|previous; or give --self-draw"
    raise InputError("missing_discarder", message)


def check_chow_restriction(hand: Hand, flowers: int, rs: ChizhouRuleset) -> None:
    """With fewer than `chow_free_min_flowers` 花, a player who chowed may neither chow nor
    pung (or kong) another suit; honour pungs count as another suit only if the option says so."""
    need = rs.numbers.chow_free_min_flowers
    chows = [m for m in hand.melds if m.kind == "chow"]
    if flowers >= need or not chows:
        return
    suit = chows[0].first // 9
    honours_restricted = rs.options.honour_pung_is_another_suit
    for m in hand.melds:
        # a concealed kong is not called from a discard (and brings 2+ 花, so never gets here)
        if m.concealed or (is_honour(m.first) and not honours_restricted) or m.first // 9 == suit:
            continue
        raise InputError(
            "chow_restricted",
            f"with {flowers} 花 (fewer than {need}) every meld called after a chow must be of one suit, "
            f"the chow {chows[0].notation()}'s ({SUITS[suit]}); the {m.kind} --meld {m.notation()} is not",
        )


def payments(value: int, hand: Hand, ctx: WinContext, rs: ChizhouRuleset, patterns: Sequence[str] = ()) -> dict[Seat, int]:
    """What each seat pays the winner: the one place that liability (承包, 反包) will extend.

    Self-draw: each of the three pays the value. A discard win or 抢杠: the
    discarder (the robbed player) alone pays it. 大吊车 settles "differently from a
    small hand": each payment times `da_diao_che_payment_multiplier` (1 as shipped).
    """
    if "da_diao_che" in patterns:
        value *= rs.options.da_diao_che_payment_multiplier
    if ctx.self_draw:
        return each_pays(value)
    out: dict[Seat, int] = {seat: 0 for seat in SEATS}
    assert ctx.discarder is not None  # check_context ran first
    out[ctx.discarder] = value
    return out


def product_detail(base: int, facts: ChizhouFacts, rs: ChizhouRuleset) -> str:
    """底 times each fan, and the cap, so the numbers add up on screen: `1 × 3 × 2 = 6, capped at 3`."""
    fans = [str(rs.patterns[key].fan ** times) for key, times in facts.found.items()]
    if not fans:
        return "底"
    text = f"{' × '.join([str(base), *fans])} = {base * facts.product}"
    return text + (f", capped at {base * facts.multiplier}" if facts.product > facts.multiplier else "")


def _items(facts: ChizhouFacts, rs: ChizhouRuleset) -> list[Item]:
    """底, each pattern with its fan, 拉子 when capped, then each 花 source."""
    num = rs.numbers
    items = [item(rs, "di", num.base, product_detail(num.base, facts, rs))]
    for key, times in facts.found.items():
        fan = rs.patterns[key].fan ** times
        items.append(item(rs, key, fan, f"×{fan}"))
    if facts.la_zi:
        detail = f"封顶: ×{facts.product} capped at ×{num.cap}" if facts.product > num.cap else f"封顶 ×{num.cap}"
        items.append(item(rs, "la_zi", facts.multiplier, detail))
    times = rs.options.da_diao_che_payment_multiplier
    if "da_diao_che" in facts.found and times != 1:
        items.append(item(rs, "da_diao_che_payment", times, f"大吊车: each payment ×{times}"))
    return items + list(facts.flower_items)


def _not_enough_flowers(readings: tuple[Reading[ChizhouFacts], ...]) -> NotAWin:
    """The refusal of the reading that came closest: highest value, then most 花."""
    closest = max(readings, key=lambda r: (r.value, r.facts.flowers))
    assert closest.refusal is not None
    return closest.refusal


def score_chizhou(hand: Hand, ctx: WinContext, rs: ChizhouRuleset) -> ScoreResult:
    check_context(ctx)
    arrs = arrangements(hand)
    if not arrs:
        raise NotAWin(
            "not_a_winning_hand", "the tiles do not form a pair plus four sets (Chizhou has no seven pairs)"
        )
    counts = hand_counts(hand)
    readings = [_read(a, hand, ctx, rs, counts) for a in arrs]
    check_chow_restriction(hand, max(r.facts.flowers for r in readings), rs)

    def settle_reading(best: Reading[ChizhouFacts]) -> Settled:
        extra = {"flowers": best.facts.flowers, "flowers_needed": best.facts.flowers_needed, "multiplier": best.facts.multiplier}
        return Settled(payments(best.value, hand, ctx, rs, tuple(best.facts.found)), best.facts.arrangement.to_dict(), extra)

    return best_result(rs, hand, readings, settle_reading, _not_enough_flowers)
