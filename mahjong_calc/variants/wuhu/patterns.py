"""Detectors for Wuhu 芜湖麻将 (四核, 双八支) and its table of pattern keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..common import detectors as common
from ..common.candidate import Candidate, Detectors

if TYPE_CHECKING:
    from .score import WuhuOptions


def tong_tian(c: Candidate[WuhuOptions]) -> int:
    """通天: 123, 456 and 789 of one suit; with `tong_tian_overlapping`, any sequences of one
    suit that cover 1-9 (123 345 567 789)."""
    if not c.options.tong_tian_overlapping:
        return common.tong_tian(c)
    covered = {s.first + d for s in c.sets if s.kind == "chow" for d in range(3)}
    return any(set(range(base, base + 9)) <= covered for base in (0, 9, 18))


def si_he_tiles(c: Candidate[WuhuOptions]) -> int:
    """How many tiles have all four copies split as a pung plus one tile of a sequence."""
    allow_exposed = c.options.si_he_exposed_pung
    pungs = {s.first for s in c.sets if s.kind == "pung" and (allow_exposed or not s.declared)}
    chow_tiles = {t for s in c.sets if s.kind == "chow" for t in s.tiles}
    return len(pungs & chow_tiles)


def si_he(c: Candidate[WuhuOptions]) -> int:
    """四核: exactly one such tile (two make 双四核 instead); with `si_he_three_extra`, also
    three: 双四核 and one more 四核 (a 嘴子 beyond the 交)."""
    tiles = si_he_tiles(c)
    return tiles == 1 or (tiles == 3 and c.options.si_he_three_extra)


def shuang_si_he(c: Candidate[WuhuOptions]) -> int:
    """双四核: two (or more) 四核 tiles."""
    return si_he_tiles(c) >= 2


def shuang_ba_zhi(c: Candidate[WuhuOptions]) -> int:
    """双八支: one suit has 8+ 支 and another suit holds two kongs."""
    kong_suits = [s.first // 9 for s in c.sets if s.kind == "kong" and s.first < 27]
    same_suit = c.options.shuang_ba_zhi_kongs_same_suit
    for suit in range(3):
        if sum(c.counts[suit * 9 : suit * 9 + 9]) < 8:
            continue
        others = [k for k in kong_suits if k != suit]
        if same_suit and any(others.count(k) >= 2 for k in set(others)):
            return 1
        if not same_suit and len(others) >= 2:
            return 1
    return 0


# The keys a Wuhu ruleset may list under `patterns:` (each with its role, 嘴子 or 交).
DETECTORS: Detectors = {
    "dui_dui_hu": common.dui_dui_hu,
    "tong_tian": tong_tian,
    "si_he": si_he,
    "hun_yi_se": common.hun_yi_se,
    "gang_hou_kai_hua": common.after_kong,  # 杠后开花
    "qing_yi_se": common.qing_yi_se,
    "shuang_si_he": shuang_si_he,
    "shuang_ba_zhi": shuang_ba_zhi,
    "tian_hu": common.tian_hu,
    "di_hu": common.di_hu,
}
