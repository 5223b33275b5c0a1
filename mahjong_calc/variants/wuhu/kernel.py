"""The Wuhu kernel: a Hand and the facts of its win in, the best reading's integers out.

Plain typed Python over ints and tuples, so that mypyc can compile it; without a
compiler the same code runs. The rules of Wuhu scoring (八支, 压档, 底番, 支番, 嘴子,
交, kongs, dealer) are written here once, reading the ruleset's numbers and options
themselves; `build.py` turns the integers into the result's items, text and JSON,
and is the only place text is made.

The hand's arrangements and waits are core/suits.py's, in set codes (core/sets.py, split
suit by suit): each (split, place of the winning tile) is one arrangement. The detectors
run over one `WuhuRead` per hand.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final, final

from ...core import flags as flag_table
from ...core import sets
from ...core.suits import arrangements_and_waits
from ..common.best import better
from .patterns import WuhuDetector, WuhuRead

if TYPE_CHECKING:
    from ...core.context import WinContext
    from ...core.hand import Hand
    from ...rules.ruleset import Ruleset
    from .ruleset_schema import WuhuNumbers, WuhuOptions

# Outcome codes
WIN: Final = 0
NO_BA_ZHI: Final = 1
NOT_A_WINNING_HAND: Final = 2

# What a KernelItem is (its `kind`); build.py words each
DI_FAN: Final = 0
ZHI_FAN: Final = 1
ZUI_ZI: Final = 2
AN_GANG: Final = 3
MING_GANG: Final = 4
DEALER: Final = 5
JIAO_OWN: Final = 6  # a pattern that is 交 by itself (its 压档 says why a 杠后开花 is)
JIAO_PAIR: Final = 7  # two 嘴子 that make 交
ZUI_ZI_IN_JIAO: Final = 8
ZUI_ZI_BEYOND: Final = 9
JIAO_SELF_DRAW: Final = 10

_AMOUNT_UNIT: Final = 1 << 26  # KernelItem.key: the amount above the other fields

# 杠后开花 on a 独吊 made 交 (options.gang_hou_du_diao_jiao): the melds it needs (5: never)
_DU_DIAO_MELDS: Final = {"off": 5, "da_diao_che": 4, "any_single_wait": 0}


@final
class KernelItem:
    """One line of a reading's breakdown as integers: what it is (`kind`: DI_FAN, ...), its amount,
    and what its text names: a pattern (an index into WuhuTables.keys) and a second one, the
    set it is about (an index into the arrangement's sets), 支 and 压档 points, and whether a
    嘴子 was doubled on a self-draw."""

    def __init__(self, kind: int, amount: int, pattern: int = -1, second: int = -1, set_index: int = -1, zhi: int = 0, ya: int = 0,
                 doubled: bool = False) -> None:
        self.kind = kind
        self.amount = amount
        self.pattern = pattern
        self.second = second
        self.set_index = set_index
        self.zhi = zhi
        self.ya = ya
        self.doubled = doubled

    def key(self) -> int:
        """What its text depends on, but the set it names, as one int: its fields packed, the amount highest."""
        small = ((((self.kind * 64 + self.pattern + 1) * 64 + self.second + 1) * 32 + self.zhi) * 16 + self.ya) * 2 + int(self.doubled)
        return self.amount * _AMOUNT_UNIT + small


@final
class WuhuTables:
    """What the kernel reads of a Wuhu ruleset besides its numbers and options, made once at load
    (`Ruleset.tables`): the patterns in YAML order (key, detector, 交 by itself), the 支番 factors
    as exact fractions, and the 嘴子 a rule may make 交 by themselves."""

    def __init__(self, rs: Ruleset[Any, Any, Any]) -> None:
        num, opt = rs.numbers, rs.options
        self.keys: tuple[str, ...] = tuple(key for key, _ in rs.detectors)
        self.detectors: tuple[WuhuDetector, ...] = tuple(fn for _, fn in rs.detectors)
        self.is_jiao: tuple[bool, ...] = tuple(rs.patterns[key].role == "jiao" for key in self.keys)
        # a 嘴子 is doubled on a self-draw, except one a self-drawn flag makes (杠后开花: Field.not_doubled)
        undoubled = {key for f in flag_table.fields() for key in f.not_doubled}
        self.doubles: tuple[bool, ...] = tuple(key not in undoubled for key in self.keys)
        # 支番 factors as exact fractions of the decimals the YAML wrote (0.2 is 1/5)
        self.factor_discard: tuple[int, int] = factor_of(num.zhi_factor.discard).as_integer_ratio()
        self.factor_self_draw: tuple[int, int] = factor_of(num.zhi_factor.self_draw).as_integer_ratio()
        self.du_diao_jiao_melds: int = _DU_DIAO_MELDS[opt.gang_hou_du_diao_jiao]
        # the 嘴子 a rule may make 交 by themselves (-1: not listed as a 嘴子)
        self.gang_hou: int = self._zui_zi_index("gang_hou_kai_hua")
        self.hun_yi_se: int = self._zui_zi_index("hun_yi_se")

    def _zui_zi_index(self, key: str) -> int:
        if key in self.keys:
            index = self.keys.index(key)
            if not self.is_jiao[index]:
                return index
        return -1


@final
class KernelReading:
    """One reading's integers: its value, items, patterns found (indexes into WuhuTables.keys), 交, 压档.

    `arrangement` indexes the hand's arrangements (see `Outcome.arrangements`).
    """

    def __init__(self, value: int, items: tuple[KernelItem, ...], found: tuple[int, ...], jiao: bool, ya: int, dealer_extra: int, arrangement: int) -> None:
        self.value = value
        self.items = items
        self.found = found
        self.jiao = jiao
        self.ya = ya
        self.dealer_extra = dealer_extra
        self.arrangement = arrangement


@final
class Outcome:
    """What the kernel says of a hand: WIN with its best reading, or why not (NO_BA_ZHI, NOT_A_WINNING_HAND)."""

    def __init__(self, code: int, zhi: int, waits: tuple[int, ...], best: KernelReading | None, payments: tuple[int, int, int],
                 arrangements: tuple[tuple[int, tuple[int, ...], int], ...], every: tuple[KernelReading, ...]) -> None:
        self.code = code
        self.zhi = zhi
        self.waits = waits
        self.best = best
        self.payments = payments  # next, opposite, previous
        self.arrangements = arrangements  # (pair, sets, win_in): concealed sets, then melds
        self.every = every  # every reading, when asked for (`explain`)


def factor_of(value: float) -> Decimal:
    """A 支番 factor as the decimal it was written as: `0.2`, `0.5`, and `1`, never `1.0`."""
    exact = Decimal(repr(value))
    return exact.to_integral_value() if exact == exact.to_integral_value() else exact


# --- the arithmetic ---------------------------------------------------------------------


def ya_dang(edge_wait: bool, single_wait: bool, arranged: tuple[int, ...], win_in: int, win: int, waits: tuple[int, ...]) -> int:
    """压档 points: the winning tile fills the middle of a concealed sequence (or its edge, if
    `edge_wait`); with `single_wait`, the 13 tiles must also wait on that tile alone."""
    if (single_wait and len(waits) != 1) or win_in < 0:
        return 0
    code = arranged[win_in]
    if not sets.is_chow(code):
        return 0
    first = sets.first_of(code)
    number = first % 9 + 1
    edge = (win == first + 2 and number == 1) or (win == first and number == 7)
    return win % 9 + 1 if win == first + 1 or (edge_wait and edge) else 0


def round_half_up(n: int, factor: tuple[int, int]) -> int:
    """n × factor rounded as the seeds mean it (四舍五入: 4.5 → 5), in integers."""
    num, den = factor
    x = n * num
    if x >= 0:
        return (2 * x + den) // (2 * den)
    return -((-2 * x + den) // (2 * den))


def read(num: WuhuNumbers, opt: WuhuOptions, t: WuhuTables, r: WuhuRead, found: tuple[int, ...], ya: int, du_diao: bool, zhi: int, dealer_seat: int,
         dealer: bool) -> KernelReading:
    """One reading's items and value, from the patterns found in it (without its arrangement index),
    under a ruleset's numbers and options (`num`, `opt`: read once a hand)."""
    jiao_sources: list[int] = []
    zui_zi: list[int] = []
    for index in found:
        if t.is_jiao[index]:
            jiao_sources.append(index)
        else:
            zui_zi.append(index)
    # 嘴子 that a rule makes 交 by themselves; where the hand is 交 anyway they stay 嘴子 beyond it
    promoted: list[int] = []
    if t.gang_hou >= 0 and t.gang_hou in zui_zi and ((ya > 0 and opt.gang_hou_ya_dang_jiao) or (du_diao and len(r.melds) >= t.du_diao_jiao_melds)):
        promoted.append(t.gang_hou)  # 杠后压档也交; some tables pay a 杠后开花 on a 独吊 alike
    if t.hun_yi_se >= 0 and t.hun_yi_se in zui_zi and r.self_draw and opt.hun_yi_se_self_draw_jiao:
        promoted.append(t.hun_yi_se)
    if promoted:
        zui_zi = [k for k in zui_zi if k not in promoted]
    items: list[KernelItem] = []
    dealer_extra = 0
    jiao = bool(jiao_sources) or bool(promoted) or len(zui_zi) >= 2
    if jiao:
        # 交: a fixed amount, plus each 嘴子 beyond those that made it, plus self-draw. A promoted
        # 嘴子 that is not the 交 counted is still a 嘴子 beyond it, so 压档 never lowers a hand.
        each_source: bool = opt.jiao_count_each_source
        amount: int = num.jiao
        extra: int = num.jiao_extra_zui_zi
        sources = jiao_sources + promoted
        counted = sources if each_source else sources[:1]
        for index in counted:
            items.append(KernelItem(JIAO_OWN, amount, index, ya=ya))
        extras = zui_zi
        if len(zui_zi) >= 2 and (not sources or each_source):
            items.append(KernelItem(JIAO_PAIR, amount, zui_zi[0], zui_zi[1]))
            items.append(KernelItem(ZUI_ZI_IN_JIAO, 0, zui_zi[0]))
            items.append(KernelItem(ZUI_ZI_IN_JIAO, 0, zui_zi[1]))
            extras = zui_zi[2:]
        for index in extras:
            items.append(KernelItem(ZUI_ZI_BEYOND, extra, index))
        for index in promoted:
            if index not in counted:
                items.append(KernelItem(ZUI_ZI_BEYOND, extra, index))
        if r.self_draw and (opt.jiao_self_draw_after_kong or not r.after_kong):
            items.append(KernelItem(JIAO_SELF_DRAW, num.jiao_self_draw))
    else:
        di_fan = num.di_fan
        if r.self_draw:
            di: int = di_fan.self_draw_ya_dang if ya else di_fan.self_draw
            zhi_fan = round_half_up(zhi + ya, t.factor_self_draw)
        else:
            di = di_fan.discard_ya_dang if ya else di_fan.discard
            zhi_fan = round_half_up(zhi + ya, t.factor_discard)
        items.append(KernelItem(DI_FAN, di, ya=ya))
        items.append(KernelItem(ZHI_FAN, zhi_fan, zhi=zhi, ya=ya))
        zui: int = num.zui_zi
        for index in zui_zi:
            if r.self_draw and t.doubles[index]:
                items.append(KernelItem(ZUI_ZI, zui * num.zui_zi_self_draw_multiplier, index, doubled=True))
            else:
                items.append(KernelItem(ZUI_ZI, zui, index))
        arranged = r.sets
        for index in range(r.n_concealed, len(arranged)):
            if sets.is_kong(arranged[index]):
                if r.melds_concealed[index - r.n_concealed]:
                    items.append(KernelItem(AN_GANG, num.an_gang, set_index=index))
                else:
                    items.append(KernelItem(MING_GANG, num.ming_gang, set_index=index))
        if dealer:
            items.append(KernelItem(DEALER, di))
        dealer_extra = di if opt.dealer_payer_extra and dealer_seat else 0
    value = 0
    for entry in items:
        value += entry.amount
    return KernelReading(value, tuple(items), found, jiao, ya, dealer_extra, -1)


SEAT_PLACE: Final = {None: 0, "next": 1, "opposite": 2, "previous": 3}  # `dealer_seat` as the kernel reads it


def score(rs: Ruleset[Any, Any, Any], hand: Hand, ctx: WinContext, keep_all: bool = False) -> Outcome:
    """Score one Wuhu hand under `rs`. The best reading is the first of the highest value;
    `keep_all` also keeps every reading (for `--explain`)."""
    t: WuhuTables = rs.tables
    counts = hand.counts
    melds = hand.codes
    win = hand.win_tile
    suits = hand.shapes()
    held = list(counts)
    lens = [suits[0].size, suits[1].size, suits[2].size, suits[3].size]  # tiles of each suit held, melds included
    for code in melds:
        first = sets.first_of(code)
        size = 4 if sets.is_kong(code) else 3
        for tile in sets.tiles_of(code):
            held[tile] += 1
        lens[first // 9] += size
    suit_len = (lens[0], lens[1], lens[2])
    zhi = lens[0] if lens[0] >= lens[1] else lens[1]
    if lens[2] > zhi:
        zhi = lens[2]
    num = rs.numbers
    if zhi < num.min_zhi:
        return Outcome(NO_BA_ZHI, zhi, (), None, (0, 0, 0), (), ())
    held[win] -= 1
    arrs, wait = arrangements_and_waits(suits, melds, win, tuple(held))
    if not arrs:
        return Outcome(NOT_A_WINNING_HAND, zhi, (), None, (0, 0, 0), (), ())
    single = len(wait) == 1 and wait[0] == win
    opt = rs.options
    edge_wait: bool = opt.ya_dang_edge_wait
    single_wait: bool = opt.ya_dang_single_wait
    dealer_seat: int = SEAT_PLACE[ctx.dealer_seat]
    dealer = ctx.dealer

    r = WuhuRead(suit_len, lens[3] - (1 if win >= 27 else 0) > 0, melds, hand.kongs_concealed, ctx, opt)
    detectors = t.detectors
    n_melds = len(melds)
    best: KernelReading | None = None
    best_index = -1
    every: list[KernelReading] = []
    for index in range(len(arrs)):
        _, arranged, win_in = arrs[index]
        r.arrange(arranged, len(arranged) - n_melds)
        ya = ya_dang(edge_wait, single_wait, arranged, win_in, win, wait)
        found: list[int] = []
        for k, detect in enumerate(detectors):
            if detect(r):
                found.append(k)
        scored = read(num, opt, t, r, tuple(found), ya, win_in < 0 and single, zhi, dealer_seat, dealer)
        if keep_all:
            scored.arrangement = index
            every.append(scored)
        if best is None or better(scored.value, 0, best.value, 0):
            best = scored
            best_index = index
    assert best is not None
    best.arrangement = best_index
    pays = best.value
    payments = (
        pays + (best.dealer_extra if dealer_seat == 1 else 0),
        pays + (best.dealer_extra if dealer_seat == 2 else 0),
        pays + (best.dealer_extra if dealer_seat == 3 else 0),
    )
    return Outcome(WIN, zhi, wait, best, payments, arrs, tuple(every))
