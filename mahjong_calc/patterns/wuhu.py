"""Detectors for Wuhu's own patterns (四核, 双八支, 杠后开花)."""

from __future__ import annotations

from . import Candidate, detector


def si_he_tiles(c: Candidate) -> int:
    """How many tiles have all four copies split as a pung plus one tile of a sequence."""
    allow_exposed = c.options.get("si_he_exposed_pung", True)
    pungs = {s.first for s in c.sets if s.kind == "pung" and (allow_exposed or not s.declared)}
    chow_tiles = {t for s in c.sets if s.kind == "chow" for t in s.tiles}
    return len(pungs & chow_tiles)


@detector("si_he")
def si_he(c: Candidate) -> int:
    """四核: exactly one such tile (two make 双四核 instead)."""
    return si_he_tiles(c) == 1


@detector("shuang_si_he")
def shuang_si_he(c: Candidate) -> int:
    """双四核: two (or more) 四核 tiles."""
    return si_he_tiles(c) >= 2


@detector("shuang_ba_zhi")
def shuang_ba_zhi(c: Candidate) -> int:
    """双八支: one suit has 8+ 支 and another suit holds two kongs."""
    kong_suits = [s.first // 9 for s in c.sets if s.kind == "kong" and s.first < 27]
    same_suit = c.options.get("shuang_ba_zhi_kongs_same_suit", True)
    for suit in range(3):
        if sum(c.counts[suit * 9 : suit * 9 + 9]) < 8:
            continue
        others = [k for k in kong_suits if k != suit]
        if same_suit and any(others.count(k) >= 2 for k in set(others)):
            return 1
        if not same_suit and len(others) >= 2:
            return 1
    return 0


@detector("gang_hou_kai_hua")
def gang_hou_kai_hua(c: Candidate) -> int:
    """杠后开花: won on the tile drawn after a kong."""
    return c.ctx.after_kong
