"""Detectors for Wuhu 芜湖麻将 (四核, 双八支) over one compact reading, and their table.

The Wuhu kernel (kernel.py) keeps one `WuhuRead` per hand and updates
its arrangement fields for each way of reading the tiles; every detector has the
same signature, `WuhuRead -> times the pattern occurs`. A set is its code (core/sets.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, final

from ...core import sets
from ...core.context import WinContext
from ..common import detectors as common
from ..common.read import HandRead

if TYPE_CHECKING:
    from .ruleset_schema import WuhuOptions


@final
class WuhuRead(HandRead):
    """One hand being read: its facts (fixed per hand) and the arrangement being looked at.

    `sets` holds the concealed sets first, then the declared melds (from `n_concealed` on);
    `ctx` is the facts of the win and `options` the ruleset's, which a detector reads itself.
    """

    def __init__(self, suit_len: tuple[int, int, int], honours: bool, melds: tuple[int, ...], melds_concealed: tuple[bool, ...],
                 ctx: WinContext, options: WuhuOptions) -> None:
        super().__init__((suit_len[0] > 0) + (suit_len[1] > 0) + (suit_len[2] > 0), honours, ctx.heavenly, ctx.earthly, ctx.after_kong)
        self.ctx = ctx
        self.options = options
        self.melds = melds  # the declared sets' codes
        self.melds_concealed = melds_concealed  # which of them are concealed kongs
        self.self_draw = ctx.self_draw
        self.suit_len = suit_len  # tiles of each suit held, melds included (a kong counts 4)
        self.si_he = -1  # 四核 tiles of this arrangement, once counted (-1: not yet)

    def arrange(self, sets: tuple[int, ...], n_concealed: int) -> None:
        """Look at another arrangement of the same hand."""
        self.sets = sets
        self.n_concealed = n_concealed
        self.si_he = -1


def tong_tian(r: WuhuRead) -> int:
    """通天: 123, 456 and 789 of one suit; with `tong_tian_overlapping`, any sequences of one
    suit that cover 1-9 (123 345 567 789)."""
    overlapping = r.options.tong_tian_overlapping
    covered = 0  # bit t: tile t is in a sequence (overlapping) or a sequence starts at t
    for code in r.sets:
        if sets.is_chow(code):
            first = sets.first_of(code)
            covered |= (7 << first) if overlapping else (1 << first)
    need = 0x1FF if overlapping else 0b1001001
    for base in (0, 9, 18):
        if (covered >> base) & need == need:
            return 1
    return 0


def si_he_tiles(r: WuhuRead) -> int:
    """How many tiles have all four copies split as a pung plus one tile of a sequence."""
    if r.si_he >= 0:
        return r.si_he
    exposed_pung = r.options.si_he_exposed_pung
    pungs = 0
    chow_tiles = 0
    for index, code in enumerate(r.sets):
        if sets.is_pung(code):
            if exposed_pung or index < r.n_concealed:
                pungs |= 1 << sets.first_of(code)
        elif sets.is_chow(code):
            chow_tiles |= 7 << sets.first_of(code)
    r.si_he = (pungs & chow_tiles).bit_count()
    return r.si_he


def si_he(r: WuhuRead) -> int:
    """四核: exactly one such tile (two make 双四核 instead); with `si_he_three_extra`, also
    three: 双四核 and one more 四核 (a 嘴子 beyond the 交)."""
    tiles = si_he_tiles(r)
    return int(tiles == 1 or (tiles == 3 and r.options.si_he_three_extra))


def shuang_si_he(r: WuhuRead) -> int:
    """双四核: two (or more) 四核 tiles."""
    return int(si_he_tiles(r) >= 2)


def shuang_ba_zhi(r: WuhuRead) -> int:
    """双八支: one suit has 8+ 支 and another suit holds two kongs."""
    if len(r.melds) < 2:  # a kong is always declared: the concealed sets are pungs and chows
        return 0
    kongs = [0, 0, 0]  # kongs of each suit
    for code in r.melds:
        if sets.is_kong(code) and sets.first_of(code) < 27:
            kongs[sets.first_of(code) // 9] += 1
    same_suit = r.options.shuang_ba_zhi_kongs_same_suit
    for suit in range(3):
        if r.suit_len[suit] < 8:
            continue
        others = 0
        for other in range(3):
            if other != suit:
                if same_suit and kongs[other] >= 2:
                    return 1
                others += kongs[other]
        if not same_suit and others >= 2:
            return 1
    return 0


WuhuDetector = Callable[[WuhuRead], int]

# The keys a Wuhu ruleset may list under `patterns:` (each with its role, 嘴子 or 交).
DETECTORS: Final[dict[str, WuhuDetector]] = {
    "dui_dui_hu": common.dui_dui_hu,
    "tong_tian": tong_tian,
    "si_he": si_he,
    "hun_yi_se": common.hun_yi_se,
    "gang_hou_kai_hua": common.after_kong,
    "qing_yi_se": common.qing_yi_se,
    "shuang_si_he": shuang_si_he,
    "shuang_ba_zhi": shuang_ba_zhi,
    "tian_hu": common.tian_hu,
    "di_hu": common.di_hu,
}
