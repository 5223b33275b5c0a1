"""Detectors shared by several variants; each variant lists them under its own keys."""

from __future__ import annotations

from typing import Any

from .candidate import Candidate


def dui_dui_hu(c: Candidate[Any]) -> int:
    """对对胡: every set is a pung or kong."""
    return bool(c.arrangement) and all(s.kind != "chow" for s in c.sets)


def qing_yi_se(c: Candidate[Any]) -> int:
    """清一色: one suit, no honours."""
    return len(c.suits_present) == 1 and not c.has_honours


def hun_yi_se(c: Candidate[Any]) -> int:
    """混一色: one suit plus honours."""
    return len(c.suits_present) == 1 and c.has_honours


def tong_tian(c: Candidate[Any]) -> int:
    """通天: 123, 456 and 789 of one suit, as three sequences."""
    firsts = {s.first for s in c.sets if s.kind == "chow"}
    return any({base, base + 3, base + 6} <= firsts for base in (0, 9, 18))


def tian_hu(c: Candidate[Any]) -> int:
    """天胡: complete as dealt."""
    return c.ctx.heavenly


def di_hu(c: Candidate[Any]) -> int:
    """地胡: won on the first discard."""
    return c.ctx.earthly


def after_kong(c: Candidate[Any]) -> int:
    """杠开: won on the tile drawn after a kong (Chizhou and Pujiang list it as `gang_kai`)."""
    return c.ctx.after_kong
