"""The Chizhou kernel's integers as a ScoreResult: items with their labels and detail text,
the decomposition, the extra keys, the refusal when 花 are short, and every reading for
`--explain`.

This is the only place Chizhou text is made; the arithmetic is the kernel's (kernel.py).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import partial
from typing import TYPE_CHECKING, Any

from ...core.context import SEATS, Seat, WinContext
from ...core.errors import NotAWin
from ...core.hand import Hand
from ...core.result import Item, ScoreResult
from ...core.shapes import Arrangement, TileSet, code_arrangement, kernel_input, meld_sets
from ...core.tiles import TileWords
from ...core.words import N_, Text
from ..common.reading import Reading, chosen_result, each_pays, item
from . import kernel as k
from .ruleset_schema import ChizhouFlowers

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset

FLOWER_KEYS = tuple(f.name for f in fields(ChizhouFlowers))  # numbers.flowers, in the order of kernel.ZI_PENG...
WIN_KINDS = ("a win by robbing a kong (抢杠)", "a 拉子 hand", "a self-drawn win (自摸)", "a discard win (冲)")  # kernel.NEED_*


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


def product_detail(base: int, found: dict[str, int], product: int, multiplier: int, rs: Ruleset[Any, Any, Any]) -> str | Text:
    """底 times each fan, and the cap, so the numbers add up on screen: `1 × 3 × 2 = 6, capped at 3`."""
    fans = [str(rs.patterns[key].fan ** times) for key, times in found.items()]
    if not fans:
        return N_("底")
    text = f"{' × '.join([str(base), *fans])} = {base * product}"
    return N_("{product}, capped at {cap}", product=text, cap=base * multiplier) if product > multiplier else text


def refusal(rs: Ruleset[Any, Any, Any], ctx: WinContext, scored: k.KernelReading) -> NotAWin:
    """Why a reading does not win: its 花 are short."""
    unless = N_(" (unless 拉子)") if rs.options.la_zi_needs_no_flowers and not ctx.robbing_kong else ""
    how = N_(WIN_KINDS[scored.need_kind])
    return NotAWin("not_enough_flowers", "{how} needs {need} 花{unless}; the hand has {flowers}", how=how, need=scored.need, unless=unless,
                   flowers=scored.flowers)


def reading(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any], out: k.Outcome, scored: k.KernelReading) -> Reading[ChizhouFacts]:
    """One reading of the kernel's, explained: 底, each pattern with its fan, 拉子 when capped, then each 花 source."""
    pair, codes, win_in = out.arrangements[scored.arrangement]
    arr = code_arrangement(meld_sets(hand), pair, codes, win_in)
    found, items, patterns = fan_items(rs, scored)
    flower_items = tuple(flower_item(rs, source, arr.sets[index]) for index, source in scored.sources)
    facts = ChizhouFacts(arr, found, flower_items, scored.product, scored.multiplier, scored.la_zi, scored.flowers, scored.need,
                         WIN_KINDS[scored.need_kind])
    return Reading(scored.value, items + flower_items, patterns, facts, None if scored.wins else refusal(rs, ctx, scored), rank=scored.flowers)


def fan_items(rs: Ruleset[Any, Any, Any], scored: k.KernelReading) -> tuple[dict[str, int], tuple[Item, ...], tuple[str, ...]]:
    """A reading's patterns found (key -> times), its items before the 花 (底, each pattern with
    its fan, 拉子 when capped, 大吊车's payment), and its pattern keys: all of them a function of
    (found, product, multiplier, la_zi)."""
    kn = k.numbers_for(rs)
    num = rs.numbers
    found = {kn.keys[index]: times for index, times in scored.found}
    items = [item(rs, "di", num.base, product_detail(num.base, found, scored.product, scored.multiplier, rs))]
    for key, times in found.items():
        fan = rs.patterns[key].fan ** times
        items.append(item(rs, key, fan, f"×{fan}"))
    if scored.la_zi:
        detail = N_("封顶: ×{product} capped at ×{cap}", product=scored.product, cap=num.cap) if scored.product > num.cap \
            else N_("封顶 ×{cap}", cap=num.cap)
        items.append(item(rs, "la_zi", scored.multiplier, detail))
    times = rs.options.da_diao_che_payment_multiplier
    if "da_diao_che" in found and times != 1:
        items.append(item(rs, "da_diao_che_payment", times, N_("大吊车: each payment ×{times}", times=times)))
    return found, tuple(items), tuple(found) + (("la_zi",) if scored.la_zi else ())


def flower_item(rs: Ruleset[Any, Any, Any], source: int, tile_set: TileSet) -> Item:
    """The item of a set that brings 花 (source: kernel.ZI_PENG...)."""
    flowers = k.numbers_for(rs).flowers[source]
    return item(rs, FLOWER_KEYS[source], flowers, N_("{tiles}: {flowers} 花", tiles=TileWords(tile_set.notation()), flowers=flowers))


def every_reading(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any], best: Reading[ChizhouFacts], best_index: int) -> tuple[Reading[ChizhouFacts], ...]:
    """Every reading the kernel keeps, explained (the best one is the one already made)."""
    out = kernel(hand, ctx, rs, keep_all=True)
    return tuple(best if scored.arrangement == best_index else reading(hand, ctx, rs, out, scored) for scored in out.every)


def kernel(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any], keep_all: bool = False) -> k.Outcome:
    """Hand the hand and the facts of its win to the kernel, as counts and set codes."""
    counts, melds, concealed = kernel_input(hand)
    return k.score(k.numbers_for(rs), counts, melds, concealed, hand.win_tile, ctx, keep_all)


def payments(out: k.Outcome, ctx: WinContext) -> dict[Seat, int]:
    """What each seat pays the winner: each of the three on a self-draw, else the discarder alone."""
    if out.pay == k.PAY_EACH:
        return each_pays(out.pays)
    assert ctx.discarder is not None  # check_context ran first
    paid: dict[Seat, int] = dict.fromkeys(SEATS, 0)
    paid[ctx.discarder] = out.pays
    return paid


def result(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any], out: k.Outcome) -> ScoreResult:
    """The ScoreResult of a winning hand's kernel outcome."""
    best = out.best
    assert best is not None
    chosen = reading(hand, ctx, rs, out, best)
    facts = chosen.facts
    return chosen_result(
        rs, hand, chosen, payments(out, ctx), facts.arrangement.to_dict(),
        {"flowers": facts.flowers, "flowers_needed": facts.flowers_needed, "multiplier": facts.multiplier},
        partial(every_reading, hand, ctx, rs, chosen, best.arrangement),
    )
