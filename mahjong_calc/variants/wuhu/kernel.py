"""The Wuhu kernel: tile counts and the facts of a win in, the best reading's integers out.

Plain typed Python over ints and tuples, so that mypyc can compile it; without a
compiler the same code runs. The rules of Wuhu scoring (八支, 压档, 底番, 支番, 嘴子,
交, kongs, dealer) are written here once; `build.py` turns the integers into
the ScoreResult (labels, detail text, JSON), and is the only place text is made.

The hand's arrangements and waits are core/suits.py's, in set codes (`kind * 34 +
first tile`, split suit by suit and memoised on each suit's counts): each (split,
place of the winning tile) is one arrangement. The detectors run over one `WuhuRead`
per hand.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final, final

from ...core import flags as flag_table
from ...core.suits import arrangements_and_waits, suit_shapes
from ..common.best import better
from ..common.per_ruleset import PerRuleset
from .patterns import CHOW, KONG, WuhuDetector, WuhuRead

if TYPE_CHECKING:
    from ...core.context import WinContext
    from ...rules.ruleset import Ruleset

# Outcome codes
WIN: Final = 0
NO_BA_ZHI: Final = 1
NOT_A_WINNING_HAND: Final = 2

# KernelItem codes: an item is (code, amount, a, b); a and b are what its detail text needs.
DI_FAN: Final = 0  # a: 压档 points
ZHI_FAN: Final = 1  # a: 支, b: 压档 points
ZUI_ZI: Final = 2  # a: pattern index, b: 1 when doubled on a self-draw
AN_GANG: Final = 3  # a: index of the kong in the arrangement's sets
MING_GANG: Final = 4  # a: as AN_GANG
DEALER: Final = 5
JIAO_OWN: Final = 6  # a: the pattern that is 交 by itself; b: the reading's 压档 (why a 杠后开花 is)
JIAO_PAIR: Final = 7  # a, b: the two 嘴子 that make 交
ZUI_ZI_IN_JIAO: Final = 8  # a: pattern index
ZUI_ZI_BEYOND: Final = 9  # a: pattern index
JIAO_SELF_DRAW: Final = 10

KernelItem = tuple[int, int, int, int]


@final
class KernelNumbers:
    """A Wuhu ruleset's numbers, options and pattern list as ints and bools, built once per Ruleset."""

    def __init__(self, rs: Ruleset[Any, Any, Any]) -> None:
        num, opt = rs.numbers, rs.options
        self.min_zhi: int = num.min_zhi
        self.di_discard: int = num.di_fan.discard
        self.di_discard_ya: int = num.di_fan.discard_ya_dang
        self.di_self_draw: int = num.di_fan.self_draw
        self.di_self_draw_ya: int = num.di_fan.self_draw_ya_dang
        # 支番 factors as exact fractions of the decimals the YAML wrote (0.2 is 1/5)
        self.factor_discard: tuple[int, int] = factor_of(num.zhi_factor.discard).as_integer_ratio()
        self.factor_self_draw: tuple[int, int] = factor_of(num.zhi_factor.self_draw).as_integer_ratio()
        self.zui_zi: int = num.zui_zi
        self.zui_zi_mult: int = num.zui_zi_self_draw_multiplier
        self.jiao: int = num.jiao
        self.jiao_extra: int = num.jiao_extra_zui_zi
        self.jiao_self_draw: int = num.jiao_self_draw
        self.ming_gang: int = num.ming_gang
        self.an_gang: int = num.an_gang
        self.ya_dang_edge_wait: bool = opt.ya_dang_edge_wait
        self.si_he_exposed_pung: bool = opt.si_he_exposed_pung
        self.kongs_same_suit: bool = opt.shuang_ba_zhi_kongs_same_suit
        self.gang_hou_ya_dang_jiao: bool = opt.gang_hou_ya_dang_jiao
        self.jiao_count_each_source: bool = opt.jiao_count_each_source
        self.dealer_payer_extra: bool = opt.dealer_payer_extra
        self.ya_dang_single_wait: bool = opt.ya_dang_single_wait
        self.hun_yi_se_self_draw_jiao: bool = opt.hun_yi_se_self_draw_jiao
        self.jiao_self_draw_after_kong: bool = opt.jiao_self_draw_after_kong
        self.tong_tian_overlapping: bool = opt.tong_tian_overlapping
        # 杠后开花 on a 独吊 made 交: on any (any_single_wait), or only with all four sets melded (da_diao_che, 大吊车)
        self.du_diao_jiao_melds: int = {"off": 5, "da_diao_che": 4, "any_single_wait": 0}[opt.gang_hou_du_diao_jiao]
        self.si_he_three_extra: bool = opt.si_he_three_extra
        # the patterns, in YAML order: key, detector, whether it is 交 by itself
        self.keys: tuple[str, ...] = tuple(key for key, _ in rs.detectors)
        self.detectors: tuple[WuhuDetector, ...] = tuple(fn for _, fn in rs.detectors)
        self.is_jiao: tuple[bool, ...] = tuple(rs.patterns[key].role == "jiao" for key in self.keys)
        # a 嘴子 is doubled on a self-draw, except one a self-drawn flag makes (杠后开花: Field.not_doubled)
        undoubled = {key for f in flag_table.fields() for key in f.not_doubled}
        self.doubles: tuple[bool, ...] = tuple(key not in undoubled for key in self.keys)
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
    """One reading's integers: its value, items, patterns found (indexes into KernelNumbers.keys), 交, 压档.

    `arrangement` indexes the hand's arrangements (see `arrangements`).
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


def ya_dang(kn: KernelNumbers, sets: tuple[int, ...], win_in: int, win: int, waits: tuple[int, ...]) -> int:
    """压档 points: the winning tile fills the middle of a concealed sequence (or its edge, if
    allowed); with `ya_dang_single_wait`, the 13 tiles must also wait on that tile alone."""
    if (kn.ya_dang_single_wait and len(waits) != 1) or win_in < 0:
        return 0
    code = sets[win_in]
    if not CHOW * 34 <= code < KONG * 34:
        return 0
    first = code - CHOW * 34
    number = first % 9 + 1
    edge = (win == first + 2 and number == 1) or (win == first and number == 7)
    return win % 9 + 1 if win == first + 1 or (kn.ya_dang_edge_wait and edge) else 0


def round_half_up(n: int, factor: tuple[int, int]) -> int:
    """n × factor rounded as the seeds mean it (四舍五入: 4.5 → 5), in integers."""
    num, den = factor
    x = n * num
    if x >= 0:
        return (2 * x + den) // (2 * den)
    return -((-2 * x + den) // (2 * den))


def read(kn: KernelNumbers, r: WuhuRead, found: tuple[int, ...], ya: int, du_diao: bool, zhi: int, dealer_seat: int, dealer: bool) -> KernelReading:
    """One reading's items and value, from the patterns found in it (without its arrangement index)."""
    jiao_sources: list[int] = []
    zui_zi: list[int] = []
    for index in found:
        if kn.is_jiao[index]:
            jiao_sources.append(index)
        else:
            zui_zi.append(index)
    # 嘴子 that a rule makes 交 by themselves; where the hand is 交 anyway they stay 嘴子 beyond it
    promoted: list[int] = []
    if kn.gang_hou >= 0 and kn.gang_hou in zui_zi and ((ya > 0 and kn.gang_hou_ya_dang_jiao) or (du_diao and len(r.melds) >= kn.du_diao_jiao_melds)):
        promoted.append(kn.gang_hou)  # 杠后压档也交; some tables pay a 杠后开花 on a 独吊 alike
    if kn.hun_yi_se >= 0 and kn.hun_yi_se in zui_zi and r.self_draw and kn.hun_yi_se_self_draw_jiao:
        promoted.append(kn.hun_yi_se)
    if promoted:
        zui_zi = [k for k in zui_zi if k not in promoted]
    items: list[KernelItem] = []
    dealer_extra = 0
    jiao = bool(jiao_sources) or bool(promoted) or len(zui_zi) >= 2
    if jiao:
        # 交: a fixed amount, plus each 嘴子 beyond those that made it, plus self-draw. A promoted
        # 嘴子 that is not the 交 counted is still a 嘴子 beyond it, so 压档 never lowers a hand.
        sources = jiao_sources + promoted
        counted = sources if kn.jiao_count_each_source else sources[:1]
        for index in counted:
            items.append((JIAO_OWN, kn.jiao, index, ya))
        extras = zui_zi
        if len(zui_zi) >= 2 and (not sources or kn.jiao_count_each_source):
            items.append((JIAO_PAIR, kn.jiao, zui_zi[0], zui_zi[1]))
            items.append((ZUI_ZI_IN_JIAO, 0, zui_zi[0], 0))
            items.append((ZUI_ZI_IN_JIAO, 0, zui_zi[1], 0))
            extras = zui_zi[2:]
        for index in extras:
            items.append((ZUI_ZI_BEYOND, kn.jiao_extra, index, 0))
        for index in promoted:
            if index not in counted:
                items.append((ZUI_ZI_BEYOND, kn.jiao_extra, index, 0))
        if r.self_draw and (kn.jiao_self_draw_after_kong or not r.after_kong):
            items.append((JIAO_SELF_DRAW, kn.jiao_self_draw, 0, 0))
    else:
        if r.self_draw:
            di = kn.di_self_draw_ya if ya else kn.di_self_draw
            zhi_fan = round_half_up(zhi + ya, kn.factor_self_draw)
        else:
            di = kn.di_discard_ya if ya else kn.di_discard
            zhi_fan = round_half_up(zhi + ya, kn.factor_discard)
        items.append((DI_FAN, di, ya, 0))
        items.append((ZHI_FAN, zhi_fan, zhi, ya))
        for index in zui_zi:
            if r.self_draw and kn.doubles[index]:
                items.append((ZUI_ZI, kn.zui_zi * kn.zui_zi_mult, index, 1))
            else:
                items.append((ZUI_ZI, kn.zui_zi, index, 0))
        sets = r.sets
        for index in range(r.n_concealed, len(sets)):
            if sets[index] >= KONG * 34:
                if r.melds_concealed[index - r.n_concealed]:
                    items.append((AN_GANG, kn.an_gang, index, 0))
                else:
                    items.append((MING_GANG, kn.ming_gang, index, 0))
        if dealer:
            items.append((DEALER, di, 0, 0))
        dealer_extra = di if kn.dealer_payer_extra and dealer_seat else 0
    value = 0
    for entry in items:
        value += entry[1]
    return KernelReading(value, tuple(items), found, jiao, ya, dealer_extra, -1)


def score(kn: KernelNumbers, concealed: tuple[int, ...], melds: tuple[int, ...], melds_concealed: tuple[bool, ...], win: int,
          self_draw: bool, after_kong: bool, heavenly: bool, earthly: bool, dealer: bool, dealer_seat: int, keep_all: bool = False,
          ctx: WinContext | None = None) -> Outcome:
    """Score one Wuhu hand: `concealed` counts the concealed tiles (winning tile included),
    `melds` are set codes (PUNG/CHOW/KONG * 34 + first), `melds_concealed` marks concealed
    kongs, `dealer_seat` is 0 (none) or the paying dealer's place 1-3 (next, opposite,
    previous). The best reading is the first of the highest value; `keep_all` also keeps
    every reading (for `--explain`)."""
    suits = suit_shapes(concealed)
    held = list(concealed)
    lens = [suits[0].size, suits[1].size, suits[2].size, suits[3].size]  # tiles of each suit held, melds included
    for code in melds:
        if code >= KONG * 34:
            first = code - KONG * 34
            held[first] += 4
            lens[first // 9] += 4
        elif code >= CHOW * 34:
            first = code - CHOW * 34
            held[first] += 1
            held[first + 1] += 1
            held[first + 2] += 1
            lens[first // 9] += 3
        else:
            held[code] += 3
            lens[code // 9] += 3
    suit_len = (lens[0], lens[1], lens[2])
    zhi = max(suit_len)
    if zhi < kn.min_zhi:
        return Outcome(NO_BA_ZHI, zhi, (), None, (0, 0, 0), (), ())
    held[win] -= 1
    arrs, wait = arrangements_and_waits(suits, melds, win, tuple(held))
    if not arrs:
        return Outcome(NOT_A_WINNING_HAND, zhi, (), None, (0, 0, 0), (), ())
    single = len(wait) == 1 and wait[0] == win

    r = WuhuRead(suit_len, lens[3] - (1 if win >= 27 else 0) > 0, melds, melds_concealed, self_draw, after_kong, heavenly, earthly, kn.tong_tian_overlapping,
                 kn.si_he_exposed_pung, kn.si_he_three_extra, kn.kongs_same_suit, ctx)
    detectors = kn.detectors
    n_melds = len(melds)
    best: KernelReading | None = None
    best_index = -1
    every: list[KernelReading] = []
    for index in range(len(arrs)):
        _, sets, win_in = arrs[index]
        r.arrange(sets, len(sets) - n_melds)
        ya = ya_dang(kn, sets, win_in, win, wait)
        found: list[int] = []
        for k, detect in enumerate(detectors):
            if detect(r):
                found.append(k)
        scored = read(kn, r, tuple(found), ya, win_in < 0 and single, zhi, dealer_seat, dealer)
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


numbers_for: Final[PerRuleset[KernelNumbers]] = PerRuleset(KernelNumbers)  # the KernelNumbers of a (loaded, frozen) Wuhu ruleset, built once
