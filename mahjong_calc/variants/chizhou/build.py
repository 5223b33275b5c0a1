"""The Chizhou kernel's integers as a result: items with their labels and detail text, the
decomposition, the extra keys, the refusal when 花 are short, and every reading for `--explain`,
made when asked (each text once per distinct key, kept on the ruleset).

This is the only place Chizhou text is made; the arithmetic is the kernel's (kernel.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import partial
from typing import TYPE_CHECKING, Any, final

from ...core.context import WinContext
from ...core.errors import NotAWin
from ...core.hand import Hand
from ...core.result import Explanation, Item, ScoreResult, item_json, stamped
from ...core.sets import N_CODES
from ...core.shapes import Arrangement, TileSet, code_arrangement, code_set, decomposition_json, meld_sets
from ...core.tiles import TileWords
from ...core.words import N_, Text, language
from ..common.reading import LazyReadings, Reading, item
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
    """Why a reading does not win: its 花 are short (made once per distinct refusal; shared: a door raises a copy)."""
    key = ("chizhou_refusal", ctx.robbing_kong, scored.need_kind, scored.need, scored.flowers)
    made: NotAWin | None = rs.memo.get(key)
    if made is None:
        made = rs.memo.keep(key, _refusal(rs, ctx, scored))
    return made


def _refusal(rs: Ruleset[Any, Any, Any], ctx: WinContext, scored: k.KernelReading) -> NotAWin:
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
    (found, product, multiplier, la_zi), made once for each."""
    key = ("chizhou_fans", scored.found, scored.product, scored.multiplier, scored.la_zi)
    made: tuple[dict[str, int], tuple[Item, ...], tuple[str, ...]] | None = rs.memo.get(key)
    if made is None:
        made = rs.memo.keep(key, _fan_items(rs, scored))
    return made


def _fan_items(rs: Ruleset[Any, Any, Any], scored: k.KernelReading) -> tuple[dict[str, int], tuple[Item, ...], tuple[str, ...]]:
    keys = rs.tables.keys
    num = rs.numbers
    found = {keys[index]: times for index, times in scored.found}
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
    """The item of a set that brings 花 (source: kernel.ZI_PENG...), made once for each."""
    key = ("chizhou_flower", source, tile_set)
    made: Item | None = rs.memo.get(key)
    if made is None:
        flowers = rs.tables.flowers[source]
        made = rs.memo.keep(key, item(rs, FLOWER_KEYS[source], flowers, N_("{tiles}: {flowers} 花", tiles=TileWords(tile_set.notation()),
                                                                                flowers=flowers)))
    return made


def every_reading(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any], best: Reading[ChizhouFacts], best_index: int) -> tuple[Reading[ChizhouFacts], ...]:
    """Every reading the kernel keeps, explained (the best one is the one already made)."""
    out = k.score(rs, hand, ctx, keep_all=True)
    return tuple(best if scored.arrangement == best_index else reading(hand, ctx, rs, out, scored) for scored in out.every)


def payments(out: k.Outcome, ctx: WinContext) -> tuple[int, int, int]:
    """What each seat pays the winner (next, opposite, previous): each of the three on a self-draw, else the discarder alone."""
    pays = out.pays
    if out.pay == k.PAY_EACH:
        return pays, pays, pays
    discarder = ctx.discarder  # check_context ran first
    return (pays if discarder == "next" else 0, pays if discarder == "opposite" else 0, pays if discarder == "previous" else 0)


@final
class ChizhouExplanation(Explanation):
    """What a scored Chizhou hand shows besides its value (core/result.Explanation), made when asked."""

    def __init__(self, rs: Ruleset[Any, Any, Any], hand: Hand, ctx: WinContext, out: k.Outcome, best: k.KernelReading) -> None:
        self.rs = rs
        self.hand = hand
        self.ctx = ctx
        self.out = out
        self.best = best

    def _sets(self) -> tuple[int, tuple[int, ...], int, int]:
        """The best reading's pair, set codes, winning set and how many sets are concealed."""
        pair, codes, win_in = self.out.arrangements[self.best.arrangement]
        return pair, codes, win_in, len(codes) - len(self.hand.melds)

    def _flower_sets(self) -> list[tuple[int, TileSet]]:
        _, codes, _, n_concealed = self._sets()
        concealed = self.hand.kongs_concealed
        return [(source, code_set(codes[index], index >= n_concealed, concealed[index - n_concealed] if index >= n_concealed else True))
                for index, source in self.best.sources]

    def items(self) -> tuple[Item, ...]:
        rs = self.rs
        return fan_items(rs, self.best)[1] + tuple([flower_item(rs, source, one) for source, one in self._flower_sets()])

    def items_json(self) -> bytes:
        rs = self.rs
        best = self.best
        _, codes, _, n_concealed = self._sets()
        concealed = self.hand.kongs_concealed
        flowers: list[int] = []  # each set that brings 花: its source, and its code (a meld's and a concealed kong's apart)
        for index, source in best.sources:
            flowers.append(source)
            flowers.append(codes[index] + (0 if index < n_concealed else N_CODES if not concealed[index - n_concealed] else 2 * N_CODES))
        key = ("chizhou_items_json", language(), best.found, best.product, best.multiplier, best.la_zi, tuple(flowers))
        made: bytes | None = rs.memo.get(key)
        if made is None:
            made = rs.memo.keep(key, b", ".join([item_json(one, rs.memo) for one in self.items()]))
        return made

    def decomposition(self) -> dict[str, Any]:
        pair, codes, win_in, _ = self._sets()
        return code_arrangement(meld_sets(self.hand), pair, codes, win_in).to_dict()

    def extra(self) -> dict[str, Any]:
        best = self.best
        return {"flowers": best.flowers, "flowers_needed": best.need, "multiplier": best.multiplier}

    def tail_json(self) -> str:
        pair, codes, win_in, _ = self._sets()
        best = self.best
        return (f'{decomposition_json(pair, codes, win_in, self.hand.kongs_concealed)}, "flowers": {best.flowers}, '
                f'"flowers_needed": {best.need}, "multiplier": {best.multiplier}')

    def readings(self) -> Sequence[Reading[ChizhouFacts]]:
        chosen = reading(self.hand, self.ctx, self.rs, self.out, self.best)
        return LazyReadings(partial(every_reading, self.hand, self.ctx, self.rs, chosen, self.best.arrangement))


def result(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any], out: k.Outcome) -> ScoreResult:
    """The result of a winning hand's kernel outcome."""
    best = out.best
    assert best is not None
    patterns = fan_items(rs, best)[2]
    return stamped(rs, hand, best.value, patterns, payments(out, ctx), ChizhouExplanation(rs, hand, ctx, out, best))
