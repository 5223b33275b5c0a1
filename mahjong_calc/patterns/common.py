"""Detectors shared by several variants."""

from __future__ import annotations

from . import Candidate, detector


@detector("dui_dui_hu")
def dui_dui_hu(c: Candidate) -> int:
    """对对胡: every set is a pung or kong."""
    return bool(c.arrangement) and all(s.kind != "chow" for s in c.sets)


@detector("qing_yi_se")
def qing_yi_se(c: Candidate) -> int:
    """清一色: one suit, no honours."""
    return len(c.suits_present) == 1 and not c.has_honours


@detector("hun_yi_se")
def hun_yi_se(c: Candidate) -> int:
    """混一色: one suit plus honours."""
    return len(c.suits_present) == 1 and c.has_honours


@detector("tong_tian")
def tong_tian(c: Candidate) -> int:
    """通天: 123, 456 and 789 of one suit, as three sequences; with `tong_tian_overlapping`,
    any sequences of one suit that cover 1-9 (123 345 567 789)."""
    firsts = {s.first for s in c.sets if s.kind == "chow"}
    if c.options.get("tong_tian_overlapping", False):
        covered = {f + d for f in firsts for d in range(3)}
        return any(set(range(base, base + 9)) <= covered for base in (0, 9, 18))
    return any({base, base + 3, base + 6} <= firsts for base in (0, 9, 18))


@detector("tian_hu")
def tian_hu(c: Candidate) -> int:
    """天胡: complete as dealt."""
    return c.ctx.heavenly


@detector("di_hu")
def di_hu(c: Candidate) -> int:
    """地胡: won on the first discard."""
    return c.ctx.earthly


@detector("gang_kai")
def gang_kai(c: Candidate) -> int:
    """杠开: won on the tile drawn after a kong (Wuhu calls it 杠后开花)."""
    return c.ctx.after_kong
