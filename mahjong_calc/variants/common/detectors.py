"""Detectors shared by several variants; each variant lists them under its own keys."""

from __future__ import annotations

from ...core import sets
from .read import HandRead, SetsRead, chows


def dui_dui_hu(r: HandRead) -> int:
    """对对胡: every set is a pung or kong."""
    if not r.arranged:
        return 0
    for code in r.sets:
        if sets.is_chow(code):
            return 0
    return 1


def qing_yi_se(r: HandRead) -> int:
    """清一色: one suit, no honours."""
    return int(r.suits == 1 and not r.honours)


def hun_yi_se(r: HandRead) -> int:
    """混一色: one suit plus honours."""
    return int(r.suits == 1 and r.honours)


def tong_tian(r: SetsRead) -> int:
    """通天: 123, 456 and 789 of one suit, as three sequences."""
    firsts = chows(r)
    for base in (0, 9, 18):
        need = (1 << base) | (1 << (base + 3)) | (1 << (base + 6))
        if firsts & need == need:
            return 1
    return 0


def tian_hu(r: HandRead) -> int:
    """天胡: complete as dealt."""
    return int(r.heavenly)


def di_hu(r: HandRead) -> int:
    """地胡: won on the first discard."""
    return int(r.earthly)


def after_kong(r: HandRead) -> int:
    """杠开: won on the tile drawn after a kong (Chizhou and Pujiang list it as `gang_kai`, Wuhu as `gang_hou_kai_hua`)."""
    return int(r.after_kong)
