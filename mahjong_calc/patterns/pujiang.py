"""Detectors for Pujiang 浦江麻将. The scorer puts what wilds stood for in `facts`.

Facts used: `shape` (standard, qi_dui, zhen_13, zhen_zhen_13, san_cai_shen),
`wilds` (wilds held), `set_wilds` (wilds standing in sets), `cai_diao` (a wild
pairs the winning tile, or two wilds pair) and `san_cai_shen` (all wilds held).

杠开 (`gang_kai`) is the shared detector in `common.py`.
"""

from __future__ import annotations

from . import Candidate, detector
from .common import dui_dui_hu


@detector("cai_shen_tou")
def cai_shen_tou(c: Candidate) -> int:
    """财神头 (财吊头): in a standard hand, the pair is a wild plus the winning tile (or two wilds)."""
    return c.facts.get("shape") == "standard" and bool(c.facts.get("cai_diao"))


@detector("quan_peng_zi")
def quan_peng_zi(c: Candidate) -> int:
    """全碰子: every set a pung or kong, and no wild stands in a set (only in the pair)."""
    return bool(dui_dui_hu(c)) and c.facts.get("set_wilds", 0) == 0


@detector("qi_dui")
def qi_dui(c: Candidate) -> int:
    """七对: seven pairs; with a wild it must be 财神吊头."""
    if c.facts.get("shape") != "qi_dui":
        return 0
    return not c.facts.get("wilds") or bool(c.facts.get("cai_diao"))


@detector("piao_cai")
def piao_cai(c: Candidate) -> int:
    """飘财神: one per 飘 (--piao N), only on a 财神吊头 hand."""
    return c.ctx.piao if c.facts.get("cai_diao") else 0


@detector("zhen_13")
def zhen_13(c: Candidate) -> int:
    """真13: spaced suits (147/258/369 subsets) and enough honours, but not 真真13."""
    return c.facts.get("shape") == "zhen_13"


@detector("zhen_zhen_13")
def zhen_zhen_13(c: Candidate) -> int:
    """真真13: a full 147, 258 or 369 in every suit plus five different honours."""
    return c.facts.get("shape") == "zhen_zhen_13"


@detector("san_cai_shen")
def san_cai_shen(c: Candidate) -> int:
    """三财神: all three wilds in hand; by itself, or on a complete hand if the ruleset stacks it."""
    if not c.facts.get("san_cai_shen"):
        return 0
    return c.facts.get("shape") == "san_cai_shen" or bool(c.options.get("san_cai_shen_stacks", True))
