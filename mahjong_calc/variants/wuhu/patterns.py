"""Detectors for Wuhu 芜湖麻将 (四核, 双八支) over one compact reading, and their table.

The Wuhu kernel (kernel.py) keeps one `WuhuRead` per hand and updates
its arrangement fields for each way of reading the tiles; every detector has the
same signature, `WuhuRead -> times the pattern occurs`. A set is one int,
`kind * 34 + first tile` (see `PUNG`, `CHOW`, `KONG`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, final

from ...core.context import WinContext
from ..common import detectors as common
from ..common.read import HandRead

PUNG: Final = 0  # a set's code is kind * 34 + its first tile
CHOW: Final = 1
KONG: Final = 2


@final
class WuhuRead(HandRead):
    """One hand being read: its facts (fixed per hand) and the arrangement being looked at.

    `sets` holds the concealed sets first, then the declared melds (from `n_concealed` on).
    `ctx` is the whole WinContext, for a detector of a fact the kernel does not pass itself.
    """

    def __init__(self, suit_len: tuple[int, int, int], honours: bool, melds: tuple[int, ...], melds_concealed: tuple[bool, ...],
                 self_draw: bool, after_kong: bool, heavenly: bool, earthly: bool, tong_tian_overlapping: bool, si_he_exposed_pung: bool,
                 si_he_three_extra: bool, kongs_same_suit: bool, ctx: WinContext | None = None) -> None:
        super().__init__((suit_len[0] > 0) + (suit_len[1] > 0) + (suit_len[2] > 0), honours, heavenly, earthly, after_kong)
        self.ctx = ctx
        self.melds = melds  # the declared sets' codes
        self.melds_concealed = melds_concealed  # which of them are concealed kongs
        self.self_draw = self_draw
        self.tong_tian_overlapping = tong_tian_overlapping
        self.si_he_exposed_pung = si_he_exposed_pung
        self.si_he_three_extra = si_he_three_extra
        self.kongs_same_suit = kongs_same_suit
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
    covered = 0  # bit t: tile t is in a sequence (overlapping) or a sequence starts at t
    for code in r.sets:
        if CHOW * 34 <= code < KONG * 34:
            first = code - CHOW * 34
            covered |= (7 << first) if r.tong_tian_overlapping else (1 << first)
    need = 0x1FF if r.tong_tian_overlapping else 0b1001001
    for base in (0, 9, 18):
        if (covered >> base) & need == need:
            return 1
    return 0


def si_he_tiles(r: WuhuRead) -> int:
    """How many tiles have all four copies split as a pung plus one tile of a sequence."""
    if r.si_he >= 0:
        return r.si_he
    pungs = 0
    chow_tiles = 0
    for index, code in enumerate(r.sets):
        if code < CHOW * 34:
            if r.si_he_exposed_pung or index < r.n_concealed:
                pungs |= 1 << code
        elif code < KONG * 34:
            chow_tiles |= 7 << (code - CHOW * 34)
    r.si_he = (pungs & chow_tiles).bit_count()
    return r.si_he


def si_he(r: WuhuRead) -> int:
    """四核: exactly one such tile (two make 双四核 instead); with `si_he_three_extra`, also
    three: 双四核 and one more 四核 (a 嘴子 beyond the 交)."""
    tiles = si_he_tiles(r)
    return int(tiles == 1 or (tiles == 3 and r.si_he_three_extra))


def shuang_si_he(r: WuhuRead) -> int:
    """双四核: two (or more) 四核 tiles."""
    return int(si_he_tiles(r) >= 2)


def shuang_ba_zhi(r: WuhuRead) -> int:
    """双八支: one suit has 8+ 支 and another suit holds two kongs."""
    if len(r.melds) < 2:  # a kong is always declared: the concealed sets are pungs and chows
        return 0
    kongs = [0, 0, 0]  # kongs of each suit
    for code in r.melds:
        if KONG * 34 <= code < KONG * 34 + 27:
            kongs[(code - KONG * 34) // 9] += 1
    for suit in range(3):
        if r.suit_len[suit] < 8:
            continue
        others = 0
        for other in range(3):
            if other != suit:
                if r.kongs_same_suit and kongs[other] >= 2:
                    return 1
                others += kongs[other]
        if not r.kongs_same_suit and others >= 2:
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
