"""The Wuhu kernel's integers as a result: each item with its labels and detail text, the
decomposition, the extra keys, and every reading for `--explain`, made when asked.

This is the only place Wuhu text is made; the arithmetic is the kernel's (kernel.py). Each
item's text and JSON is made once per distinct key (what it depends on) and kept on the ruleset.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from typing import TYPE_CHECKING, Any, Final, final

from ...core.context import WinContext
from ...core.hand import Hand
from ...core.result import Explanation, Item, ScoreResult, encode, item_json, stamped
from ...core.sets import N_CODES
from ...core.shapes import Arrangement, TileSet, code_arrangement, code_set, decomposition_json, meld_sets
from ...core.tiles import NUM_TILES, tile_str, tiles_text
from ...core.words import N_, Named, language
from ..common.reading import LazyReadings, Reading, item
from . import kernel as k

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset

TILE_TEXT: Final = tuple(tile_str(t) for t in range(NUM_TILES))
_TILE_JSON: Final = tuple(encode(text) for text in TILE_TEXT)


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


def _label(rs: Ruleset[Any, Any, Any], key: str) -> Named:
    """A pattern's name as a parameter: Chinese, English in English."""
    zh, en = rs.label(key)
    return Named(zh, en)


# --- each kind of item, worded (kernel.DI_FAN, ...: the index into _WORDED) --------------

Worded = Callable[["Ruleset[Any, Any, Any]", k.KernelItem, "TileSet | None", bool], Item]


def _di_fan(rs: Ruleset[Any, Any, Any], one: k.KernelItem, _: TileSet | None, self_draw: bool) -> Item:
    how = N_("自摸 self-draw") if self_draw else N_("点炮 discard")
    return item(rs, "di_fan", one.amount, N_("{how}, 压档 {ya}", how=how, ya=one.ya) if one.ya else how)


def _zhi_fan(rs: Ruleset[Any, Any, Any], one: k.KernelItem, _: TileSet | None, self_draw: bool) -> Item:
    factor = k.factor_of(rs.numbers.zhi_factor.self_draw if self_draw else rs.numbers.zhi_factor.discard)
    return item(rs, "zhi_fan", one.amount, zhi_fan_detail(one.zhi, one.ya, factor, one.amount))


def _zui_zi(rs: Ruleset[Any, Any, Any], one: k.KernelItem, _: TileSet | None, self_draw: bool) -> Item:
    mult = rs.numbers.zui_zi_self_draw_multiplier
    keys = rs.tables.keys
    return item(rs, keys[one.pattern], one.amount, N_("嘴子 × {times} self-draw", times=mult) if one.doubled else N_("嘴子"))


def _an_gang(rs: Ruleset[Any, Any, Any], one: k.KernelItem, kong: TileSet | None, _: bool) -> Item:
    assert kong is not None
    return item(rs, "an_gang", one.amount, tiles_text(kong.notation()))


def _ming_gang(rs: Ruleset[Any, Any, Any], one: k.KernelItem, kong: TileSet | None, _: bool) -> Item:
    assert kong is not None
    return item(rs, "ming_gang", one.amount, tiles_text(kong.notation()))


def _dealer(rs: Ruleset[Any, Any, Any], one: k.KernelItem, _: TileSet | None, __: bool) -> Item:
    return item(rs, "dealer", one.amount, N_("winner is dealer: one more 底番"))


def _jiao_own(rs: Ruleset[Any, Any, Any], one: k.KernelItem, _: TileSet | None, __: bool) -> Item:
    """Why one pattern makes the hand 交: by itself (清一色, 天胡 ...), or a 嘴子 that a rule makes 交
    (压档杠后开花; the options' 杠后开花 on a 独吊 and self-drawn 混一色)."""
    t = rs.tables
    pattern = _label(rs, t.keys[one.pattern])
    if one.pattern == t.gang_hou:  # a 嘴子: 交 only on the 压档 tile, or on a 独吊 by the option
        if one.ya:
            return item(rs, "jiao", one.amount, N_("{pattern} with 压档 is 交", pattern=pattern))
        return item(rs, "jiao", one.amount, N_("{pattern} on a 独吊 is 交 (gang_hou_du_diao_jiao)", pattern=pattern))
    if one.pattern == t.hun_yi_se:
        return item(rs, "jiao", one.amount, N_("self-drawn {pattern} is 交 (hun_yi_se_self_draw_jiao)", pattern=pattern))
    return item(rs, "jiao", one.amount, N_("{pattern} is 交 by itself", pattern=pattern))


def _jiao_pair(rs: Ruleset[Any, Any, Any], one: k.KernelItem, _: TileSet | None, __: bool) -> Item:
    keys = rs.tables.keys
    return item(rs, "jiao", one.amount, N_("two 嘴子: {first} + {second}", first=_label(rs, keys[one.pattern]), second=_label(rs, keys[one.second])))


def _in_jiao(rs: Ruleset[Any, Any, Any], one: k.KernelItem, _: TileSet | None, __: bool) -> Item:
    return item(rs, rs.tables.keys[one.pattern], one.amount, N_("嘴子 counted in 交"))


def _beyond(rs: Ruleset[Any, Any, Any], one: k.KernelItem, _: TileSet | None, __: bool) -> Item:
    return item(rs, rs.tables.keys[one.pattern], one.amount, N_("嘴子 beyond 交"))


def _jiao_self_draw(rs: Ruleset[Any, Any, Any], one: k.KernelItem, _: TileSet | None, __: bool) -> Item:
    return item(rs, "jiao_self_draw", one.amount, N_("self-draw with 交"))


_WORDED: Final[tuple[Worded, ...]] = (_di_fan, _zhi_fan, _zui_zi, _an_gang, _ming_gang, _dealer, _jiao_own, _jiao_pair, _in_jiao, _beyond,
                                      _jiao_self_draw)


def _kong(one: k.KernelItem, arranged: tuple[int, ...], n_concealed: int, melds_concealed: tuple[bool, ...]) -> TileSet | None:
    """The kong an AN_GANG or MING_GANG item names (None: another item names no set)."""
    if one.kind != k.AN_GANG and one.kind != k.MING_GANG:
        return None
    return code_set(arranged[one.set_index], True, melds_concealed[one.set_index - n_concealed])


def item_of(rs: Ruleset[Any, Any, Any], one: k.KernelItem, kong: TileSet | None, self_draw: bool) -> Item:
    """One of the kernel's items, with its names and detail text: made once per distinct item, kong and way of winning."""
    key = ("wuhu_item", one.key(), kong, self_draw)
    found: Item | None = rs.memo.get(key)
    if found is None:
        found = rs.memo.keep(key, _WORDED[one.kind](rs, one, kong, self_draw))
    return found


def items(rs: Ruleset[Any, Any, Any], scored: k.KernelReading, sets: tuple[TileSet, ...], self_draw: bool) -> tuple[Item, ...]:
    """The kernel's items of one reading, with their names and detail text."""
    return tuple([item_of(rs, one, sets[one.set_index] if one.set_index >= 0 else None, self_draw) for one in scored.items])


def patterns(rs: Ruleset[Any, Any, Any], scored: k.KernelReading) -> tuple[str, ...]:
    """The pattern keys found in a reading, in the ruleset's order, then `jiao` when it is 交."""
    key = ("wuhu_patterns", scored.found, scored.jiao)
    found: tuple[str, ...] | None = rs.memo.get(key)
    if found is None:
        keys = rs.tables.keys
        found = rs.memo.keep(key, tuple([keys[i] for i in scored.found] + (["jiao"] if scored.jiao else [])))
    return found


@final
class WuhuExplanation(Explanation):
    """What a scored Wuhu hand shows besides its value (core/result.Explanation), made when asked."""

    def __init__(self, rs: Ruleset[Any, Any, Any], hand: Hand, ctx: WinContext, out: k.Outcome) -> None:
        self.rs = rs
        self.hand = hand
        self.ctx = ctx
        self.out = out

    def _best(self) -> k.KernelReading:
        best = self.out.best
        assert best is not None
        return best

    def arrangement(self) -> Arrangement:
        pair, codes, win_in = self.out.arrangements[self._best().arrangement]
        return code_arrangement(meld_sets(self.hand), pair, codes, win_in)

    def items(self) -> tuple[Item, ...]:
        return items(self.rs, self._best(), self.arrangement().sets, self.ctx.self_draw)

    def items_json(self) -> bytes:
        rs = self.rs
        best = self._best()
        self_draw = self.ctx.self_draw
        _, arranged, _ = self.out.arrangements[best.arrangement]
        melds_concealed = self.hand.kongs_concealed
        n_concealed = len(arranged) - len(melds_concealed)
        shown: list[int] = []  # what the items' text depends on: each item, and the kong it names
        for one in best.items:
            shown.append(one.key())
            shown.append(-1 if one.set_index < 0 else arranged[one.set_index] + (N_CODES if melds_concealed[one.set_index - n_concealed] else 0))
        key = ("wuhu_items_json", tuple(shown), self_draw, language())
        made: bytes | None = rs.memo.get(key)
        if made is None:
            made = rs.memo.keep(key, b", ".join([item_json(item_of(rs, one, _kong(one, arranged, n_concealed, melds_concealed), self_draw), rs.memo)
                                                 for one in best.items]))
        return made

    def decomposition(self) -> dict[str, Any]:
        return self.arrangement().to_dict()

    def extra(self) -> dict[str, Any]:
        out = self.out
        return {"zhi": out.zhi, "ya_dang": self._best().ya, "waits": [TILE_TEXT[t] for t in out.waits]}

    def tail_json(self) -> str:
        out = self.out
        best = self._best()
        pair, codes, win_in = out.arrangements[best.arrangement]
        key = ("wuhu_tail_json", out.zhi, best.ya, out.waits)
        rest: str | None = self.rs.memo.get(key)
        if rest is None:
            waits = ", ".join([_TILE_JSON[t] for t in out.waits])
            rest = self.rs.memo.keep(key, f', "zhi": {out.zhi}, "ya_dang": {best.ya}, "waits": [{waits}]')
        return decomposition_json(pair, codes, win_in, self.hand.kongs_concealed) + rest

    def readings(self) -> Sequence[Reading[WuhuFacts]]:
        best = self._best()
        chosen = reading(self.hand, self.ctx, self.rs, self.out, best)
        return LazyReadings(partial(every_reading, self.hand, self.ctx, self.rs, chosen, best.arrangement))


def every_reading(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any], best: Reading[WuhuFacts], best_index: int) -> tuple[Reading[WuhuFacts], ...]:
    """Every reading the kernel keeps, explained (the best one is the one already made)."""
    out = k.score(rs, hand, ctx, keep_all=True)
    return tuple(best if scored.arrangement == best_index else reading(hand, ctx, rs, out, scored) for scored in out.every)


def reading(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any], out: k.Outcome, scored: k.KernelReading) -> Reading[WuhuFacts]:
    """One reading of the kernel's, explained."""
    pair, codes, win_in = out.arrangements[scored.arrangement]
    arr = code_arrangement(meld_sets(hand), pair, codes, win_in)
    return Reading(scored.value, items(rs, scored, arr.sets, ctx.self_draw), patterns(rs, scored), WuhuFacts(arr, scored.ya, scored.dealer_extra))


def result(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any], out: k.Outcome) -> ScoreResult:
    """The result of a winning hand's kernel outcome."""
    best = out.best
    assert best is not None
    return stamped(rs, hand, best.value, patterns(rs, best), out.payments, WuhuExplanation(rs, hand, ctx, out))
