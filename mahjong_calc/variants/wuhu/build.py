"""The Wuhu kernel's integers as a ScoreResult: items with their labels and detail text,
the decomposition, the extra keys, and every reading for `--explain`.

This is the only place Wuhu text is made; the arithmetic is the kernel's (wuhu_kernel.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from ...core.context import WinContext
from ...core.hand import Hand
from ...core.result import Item, ScoreResult
from ...core.shapes import CODE_KINDS, Arrangement, TileSet, _tile_set, kernel_input, meld_sets
from ...core.tiles import NUM_TILES, tile_str, tiles_text
from ...core.words import N_, Named, Text
from ..common.reading import Reading, chosen_result, item
from . import kernel as k

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset

TILE_TEXT: Final = tuple(tile_str(t) for t in range(NUM_TILES))


@dataclass(frozen=True)
class WuhuFacts:
    """What a Wuhu reading keeps besides its value: the arrangement, its 压档 and a dealer's extra."""

    arrangement: Arrangement
    ya_dang: int
    dealer_extra: int


def zhi_fan_detail(zhi: int, ya: int, factor: Decimal, zhi_fan: int) -> str:
    """支番 with its numbers, so they add up on screen: `(9 + 2) × 0.4 = 4.4 → 4` (支 + 压档 points)."""
    exact = format(((zhi + ya) * factor).normalize(), "f")
    text = f"({zhi} + {ya}) × {factor} = {exact}" if ya else f"{zhi} × {factor} = {exact}"
    return text if exact == str(zhi_fan) else f"{text} → {zhi_fan}"


def arrangement(hand: Hand, arr: tuple[int, tuple[int, ...], int]) -> Arrangement:
    """The kernel's (pair, set codes, win_in) as the decomposition's Arrangement."""
    pair, codes, win_in = arr
    melds = meld_sets(hand)
    concealed = tuple([_tile_set(CODE_KINDS[c // 34], c % 34) for c in codes[: len(codes) - len(melds)]])
    return Arrangement(pair, concealed + melds, win_in)


def _label(rs: Ruleset[Any, Any, Any], key: str) -> Named:
    """A pattern's name as a parameter: Chinese, English in English."""
    zh, en = rs.label(key)
    return Named(zh, en)


def _jiao_own(rs: Ruleset[Any, Any, Any], index: int, ya: int) -> Text:
    """Why one pattern makes the hand 交: by itself (清一色, 天胡 ...), or a 嘴子 that a rule makes 交
    (压档杠后开花; the options' 杠后开花 on a 独吊 and self-drawn 混一色)."""
    kn = k.numbers_for(rs)
    pattern = _label(rs, kn.keys[index])
    if index == kn.gang_hou:  # a 嘴子: 交 only on the 压档 tile, or on a 独吊 by the option
        if ya:
            return N_("{pattern} with 压档 is 交", pattern=pattern)
        return N_("{pattern} on a 独吊 is 交 (gang_hou_du_diao_jiao)", pattern=pattern)
    if index == kn.hun_yi_se:
        return N_("self-drawn {pattern} is 交 (hun_yi_se_self_draw_jiao)", pattern=pattern)
    return N_("{pattern} is 交 by itself", pattern=pattern)


def _item(rs: Ruleset[Any, Any, Any], entry: k.KernelItem, sets: tuple[TileSet, ...], self_draw: bool) -> Item:
    """One of the kernel's items, with its names and detail text."""
    code, amount, a, b = entry
    keys = k.numbers_for(rs).keys
    if code == k.DI_FAN:
        how = N_("自摸 self-draw") if self_draw else N_("点炮 discard")
        return item(rs, "di_fan", amount, N_("{how}, 压档 {ya}", how=how, ya=a) if a else how)
    if code == k.ZHI_FAN:
        factor = k.factor_of(rs.numbers.zhi_factor.self_draw if self_draw else rs.numbers.zhi_factor.discard)
        return item(rs, "zhi_fan", amount, zhi_fan_detail(a, b, factor, amount))
    if code == k.ZUI_ZI:
        mult = rs.numbers.zui_zi_self_draw_multiplier
        return item(rs, keys[a], amount, N_("嘴子 × {times} self-draw", times=mult) if b else N_("嘴子"))
    if code == k.AN_GANG:
        return item(rs, "an_gang", amount, tiles_text(sets[a].notation()))
    if code == k.MING_GANG:
        return item(rs, "ming_gang", amount, tiles_text(sets[a].notation()))
    if code == k.DEALER:
        return item(rs, "dealer", amount, N_("winner is dealer: one more 底番"))
    if code == k.JIAO_OWN:
        return item(rs, "jiao", amount, _jiao_own(rs, a, b))
    if code == k.JIAO_PAIR:
        return item(rs, "jiao", amount, N_("two 嘴子: {first} + {second}", first=_label(rs, keys[a]), second=_label(rs, keys[b])))
    if code == k.ZUI_ZI_IN_JIAO:
        return item(rs, keys[a], amount, N_("嘴子 counted in 交"))
    if code == k.ZUI_ZI_BEYOND:
        return item(rs, keys[a], amount, N_("嘴子 beyond 交"))
    return item(rs, "jiao_self_draw", amount, N_("self-draw with 交"))


# Items are values: one per (ruleset, kernel item, how the hand was won) is made, then shared
_ITEMS: Final[dict[int, tuple[Ruleset[Any, Any, Any], dict[tuple[Any, ...], Item]]]] = {}


def items(rs: Ruleset[Any, Any, Any], scored: k.KernelReading, sets: tuple[TileSet, ...], self_draw: bool) -> tuple[Item, ...]:
    """The kernel's items of one reading, with their names and detail text."""
    entry = _ITEMS.get(id(rs))
    if entry is None or entry[0] is not rs or len(entry[1]) > 65536:
        entry = _ITEMS[id(rs)] = (rs, {})
        if len(_ITEMS) > 256:
            _ITEMS.clear()
            _ITEMS[id(rs)] = entry
    made = entry[1]
    out: list[Item] = []
    for one in scored.items:
        code = one[0]
        key = (one, sets[one[2]]) if code == k.AN_GANG or code == k.MING_GANG else (one, self_draw)
        found = made.get(key)
        if found is None:
            found = made[key] = _item(rs, one, sets, self_draw)
        out.append(found)
    return tuple(out)


def patterns(rs: Ruleset[Any, Any, Any], scored: k.KernelReading) -> tuple[str, ...]:
    """The pattern keys found in a reading, in the ruleset's order, then `jiao` when it is 交."""
    keys = k.numbers_for(rs).keys
    found = [keys[i] for i in scored.found]
    if scored.jiao:
        found.append("jiao")
    return tuple(found)


def every_reading(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any], best: Reading[WuhuFacts], best_index: int) -> tuple[Reading[WuhuFacts], ...]:
    """Every reading the kernel keeps, explained (the best one is the one already made)."""
    out = kernel(hand, ctx, rs, keep_all=True)
    return tuple(best if scored.arrangement == best_index else reading(hand, ctx, rs, out, scored) for scored in out.every)


def reading(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any], out: k.Outcome, scored: k.KernelReading) -> Reading[WuhuFacts]:
    """One reading of the kernel's, explained."""
    arr = arrangement(hand, out.arrangements[scored.arrangement])
    return Reading(scored.value, items(rs, scored, arr.sets, ctx.self_draw), patterns(rs, scored),
                   WuhuFacts(arr, scored.ya, scored.dealer_extra))


SEAT_PLACE: Final = {None: 0, "next": 1, "opposite": 2, "previous": 3}  # `dealer_seat` as the kernel reads it


def kernel_facts(ctx: WinContext) -> tuple[bool, bool, bool, bool, bool, int]:
    """The facts of a win the kernel reads: self_draw, after_kong, heavenly, earthly, dealer, the
    paying dealer's place."""
    return ctx.self_draw, ctx.after_kong, ctx.heavenly, ctx.earthly, ctx.dealer, SEAT_PLACE[ctx.dealer_seat]


def kernel(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any], keep_all: bool = False) -> k.Outcome:
    """Hand the hand and the facts of its win to the kernel, as counts and set codes."""
    counts, melds, concealed = kernel_input(hand)
    self_draw, after_kong, heavenly, earthly, dealer, dealer_seat = kernel_facts(ctx)
    return k.score(k.numbers_for(rs), counts, melds, concealed, hand.win_tile, self_draw, after_kong, heavenly, earthly, dealer, dealer_seat,
                   keep_all, ctx)


def result(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any], out: k.Outcome) -> ScoreResult:
    """The ScoreResult of a winning hand's kernel outcome."""
    best = out.best
    assert best is not None
    chosen = reading(hand, ctx, rs, out, best)
    next_, opposite, previous = out.payments
    return chosen_result(
        rs, hand, chosen, {"next": next_, "opposite": opposite, "previous": previous}, chosen.facts.arrangement.to_dict(),
        {"zhi": out.zhi, "ya_dang": best.ya, "waits": [TILE_TEXT[t] for t in out.waits]},
        partial(every_reading, hand, ctx, rs, chosen, best.arrangement),
    )
