"""The Chizhou kernel: a Hand and the facts of a win in, the best reading's integers out.

Plain typed Python over ints and tuples, so that mypyc can compile it; without a
compiler the same code runs. The rules of Chizhou scoring (番 multiplied and capped at
拉子, 花 from honour sets and kongs, the 花 a win needs, who pays) are written here once,
reading the ruleset's numbers and options themselves; `build.py` turns the integers into
the result (labels, detail text, JSON), and is the only place Chizhou text is made.

The arrangements come from core/suits.py (suit by suit, memoised on each suit's
counts); the detectors run over one `SetsRead` per hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, final

from ...core import sets
from ...core.counting import tiles_held
from ...core.suits import code_arrangements
from ..common.best import better
from ..common.read import SetsRead

if TYPE_CHECKING:
    from ...core.context import WinContext
    from ...core.hand import Hand
    from ...rules.ruleset import Ruleset

# Outcome codes
WIN: Final = 0
NOT_A_WINNING_HAND: Final = 1
NOT_ENOUGH_FLOWERS: Final = 2

# 花 sources, in the order of numbers.flowers (build.FLOWER_KEYS names them)
ZI_PENG: Final = 0
ZI_AN_KE: Final = 1
MING_GANG: Final = 2
AN_GANG: Final = 3
ZI_MING_GANG: Final = 4
ZI_AN_GANG: Final = 5

# What kind of win sets the 花 needed (build.py words it)
NEED_QIANG_GANG: Final = 0
NEED_LA_ZI: Final = 1
NEED_SELF_DRAW: Final = 2
NEED_DISCARD: Final = 3

# What each seat pays, by who pays
PAY_EACH: Final = 0  # self-draw: each of the three
PAY_DISCARDER: Final = 1  # a discard win or 抢杠: the discarder (the robbed player) alone


@final
class ChizhouTables:
    """What the kernel reads of a Chizhou ruleset besides its numbers and options, made once at load
    (`Ruleset.tables`): the patterns in YAML order (key, detector, 番) and the 花 of each source."""

    def __init__(self, rs: Ruleset[Any, Any, Any]) -> None:
        f = rs.numbers.flowers
        self.flowers: tuple[int, ...] = (f.zi_peng, f.zi_an_ke, f.ming_gang, f.an_gang, f.zi_ming_gang, f.zi_an_gang)  # by source
        self.keys: tuple[str, ...] = tuple(key for key, _ in rs.detectors)
        self.detectors: tuple[Any, ...] = tuple(fn for _, fn in rs.detectors)
        self.fans: tuple[int, ...] = tuple(rs.patterns[key].fan for key in self.keys)
        # 大吊车 settles differently: its payments are multiplied (-1: not listed)
        self.da_diao_che: int = self.keys.index("da_diao_che") if "da_diao_che" in self.keys else -1


@final
class KernelReading:
    """One reading's integers. `found` holds (pattern index, times) in the ruleset's order;
    `sources` (set index, 花 source) for each set that brings 花; `arrangement` indexes the
    hand's arrangements."""

    def __init__(self, value: int, found: tuple[tuple[int, int], ...], product: int, multiplier: int, la_zi: bool,
                 sources: tuple[tuple[int, int], ...], flowers: int, need: int, need_kind: int, arrangement: int) -> None:
        self.value = value
        self.found = found
        self.product = product
        self.multiplier = multiplier
        self.la_zi = la_zi
        self.sources = sources
        self.flowers = flowers
        self.need = need
        self.need_kind = need_kind
        self.arrangement = arrangement

    @property
    def wins(self) -> bool:
        return self.flowers >= self.need


@final
class Outcome:
    """What the kernel says of a hand: WIN with its best reading, NOT_ENOUGH_FLOWERS with the
    reading that came closest (`best`), or NOT_A_WINNING_HAND."""

    def __init__(self, code: int, best: KernelReading | None, most_flowers: int, pays: int, pay: int,
                 arrangements: tuple[tuple[int, tuple[int, ...], int], ...], every: tuple[KernelReading, ...]) -> None:
        self.code = code
        self.best = best
        self.most_flowers = most_flowers  # the most 花 of any reading (the chow restriction reads it)
        self.pays = pays  # what a payer pays (PAY_EACH: each of three; PAY_DISCARDER: the discarder)
        self.pay = pay
        self.arrangements = arrangements  # (pair, sets, win_in): concealed sets, then melds
        self.every = every  # every reading, when asked for (`explain`)


def flower_source(code: int, declared: bool, concealed: bool, completes_on_discard: bool, exposed_on_discard: bool) -> int:
    """Which 花 source a set is (字碰, 字暗刻, 明杠, 暗杠, 字明杠, 字暗杠), or -1.

    `completes_on_discard`: the set was completed by a discarded (or robbed) tile.
    """
    honour = sets.first_of(code) >= 27
    if sets.is_kong(code):
        if concealed:
            return ZI_AN_GANG if honour else AN_GANG
        return ZI_MING_GANG if honour else MING_GANG
    if sets.is_chow(code) or not honour:
        return -1
    if declared or (completes_on_discard and exposed_on_discard):
        return ZI_PENG
    return ZI_AN_KE


def flowers_needed(rs: Ruleset[Any, Any, Any], la_zi: bool, self_draw: bool, robbing_kong: bool) -> tuple[int, int]:
    """How many 花 this win needs, and what kind of win it is (NEED_*)."""
    least = rs.numbers.min_flowers
    if robbing_kong:
        return least.qiang_gang, NEED_QIANG_GANG
    if la_zi and rs.options.la_zi_needs_no_flowers:
        return 0, NEED_LA_ZI
    if self_draw:
        return least.self_draw, NEED_SELF_DRAW
    return least.discard, NEED_DISCARD


def score(rs: Ruleset[Any, Any, Any], hand: Hand, ctx: WinContext, keep_all: bool = False) -> Outcome:
    """Score one Chizhou hand under `rs`. The best reading is the first of the highest (value, 花);
    when none has its 花, the closest is the first of the highest (value, 花) of all. `keep_all`
    also keeps every reading (for `--explain`)."""
    melds = hand.codes
    melds_concealed = hand.kongs_concealed
    arrs = code_arrangements(hand.counts, melds, hand.win_tile)
    if not arrs:
        return Outcome(NOT_A_WINNING_HAND, None, 0, 0, PAY_EACH, (), ())
    held = list(hand.counts)
    for code in melds:  # which suits are held: a set's tiles once each
        first = sets.first_of(code)
        held[first] += 1
        if sets.is_chow(code):
            held[first + 1] += 1
            held[first + 2] += 1
    suits = int(tiles_held(held, 0, 9) > 0) + int(tiles_held(held, 9, 18) > 0) + int(tiles_held(held, 18, 27) > 0)
    self_draw: bool = ctx.self_draw
    robbing_kong: bool = ctx.robbing_kong
    t: ChizhouTables = rs.tables
    num, opt = rs.numbers, rs.options
    base: int = num.base
    cap: int = num.cap
    r = SetsRead(ctx, opt, suits, tiles_held(held, 27, 34) > 0, melds_concealed)
    detectors = t.detectors
    fans = t.fans
    n_melds = len(melds)
    exposed_on_discard: bool = opt.discard_triplet_is_exposed
    best: KernelReading | None = None
    closest: KernelReading | None = None
    most_flowers = 0
    every: list[KernelReading] = []
    for index in range(len(arrs)):
        _, arranged, win_in = arrs[index]
        n_concealed = len(arranged) - n_melds
        r.arrange(arranged, n_concealed, win_in)
        found: list[tuple[int, int]] = []
        product = 1
        for k in range(len(detectors)):
            times = int(detectors[k](r))
            if times:
                found.append((k, times))
                product *= fans[k] ** times
        multiplier = min(product, cap)
        la_zi = product >= cap
        sources: list[tuple[int, int]] = []
        have = 0
        completes_on_discard = not self_draw
        for i in range(len(arranged)):
            declared = i >= n_concealed
            source = flower_source(arranged[i], declared, melds_concealed[i - n_concealed] if declared else True,
                                   i == win_in and completes_on_discard, exposed_on_discard)
            if source >= 0 and t.flowers[source]:
                sources.append((i, source))
                have += t.flowers[source]
        need, need_kind = flowers_needed(rs, la_zi, self_draw, robbing_kong)
        scored = KernelReading(base * multiplier, tuple(found), product, multiplier, la_zi, tuple(sources), have, need, need_kind, index)
        if keep_all:
            every.append(scored)
        if have > most_flowers:
            most_flowers = have
        if have >= need:
            if best is None or better(scored.value, have, best.value, best.flowers):
                best = scored
        elif best is None and (closest is None or better(scored.value, have, closest.value, closest.flowers)):
            closest = scored
    if best is None:
        return Outcome(NOT_ENOUGH_FLOWERS, closest, most_flowers, 0, PAY_EACH, arrs, tuple(every))
    pays = best.value
    if t.da_diao_che >= 0:
        for k, _ in best.found:
            if k == t.da_diao_che:
                pays *= opt.da_diao_che_payment_multiplier
    return Outcome(WIN, best, most_flowers, pays, PAY_EACH if self_draw else PAY_DISCARDER, arrs, tuple(every))
