"""Detectors for Pujiang 浦江麻将 and its table of pattern keys. The scorer puts what wilds stood for in `facts`.

Facts used: `shape` (standard, qi_dui, zhen_13, zhen_zhen_13, san_cai_shen),
`wilds` (wilds held), `set_wilds` (wilds standing in sets), `cai_diao` (a wild
pairs the winning tile, or two wilds pair) and `san_cai_shen` (all wilds held).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..common import detectors as common
from ..common.candidate import Candidate, Detectors

if TYPE_CHECKING:
    from .schema import PujiangOptions


def cai_shen_tou(c: Candidate[Any]) -> int:
    """财神头 (财吊头): in a standard hand, the pair is a wild plus the winning tile (or two wilds)."""
    return c.facts.get("shape") == "standard" and bool(c.facts.get("cai_diao"))


def quan_peng_zi(c: Candidate[Any]) -> int:
    """全碰子: every set a pung or kong, and no wild stands in a set (only in the pair)."""
    return bool(common.dui_dui_hu(c)) and c.facts.get("set_wilds", 0) == 0


def qi_dui(c: Candidate[Any]) -> int:
    """七对: seven pairs; with a wild it must be 财神吊头."""
    if c.facts.get("shape") != "qi_dui":
        return 0
    return not c.facts.get("wilds") or bool(c.facts.get("cai_diao"))


def piao_cai(c: Candidate[Any]) -> int:
    """飘财神: one per 飘 (--piao N), only on a 财神吊头 hand."""
    return c.ctx.piao if c.facts.get("cai_diao") else 0


def zhen_13(c: Candidate[Any]) -> int:
    """真13: spaced suits (147/258/369 subsets) and enough honours, but not 真真13."""
    return c.facts.get("shape") == "zhen_13"


def zhen_zhen_13(c: Candidate[Any]) -> int:
    """真真13: a full 147, 258 or 369 in every suit plus five different honours."""
    return c.facts.get("shape") == "zhen_zhen_13"


def san_cai_shen(c: Candidate[PujiangOptions]) -> int:
    """三财神: all three wilds in hand; by itself, or on a complete hand if the ruleset stacks it."""
    if not c.facts.get("san_cai_shen"):
        return 0
    return c.facts.get("shape") == "san_cai_shen" or c.options.san_cai_shen_stacks


# The keys a Pujiang ruleset may list under `patterns:` (each with its 番, and maybe its 子).
DETECTORS: Detectors = {
    "cai_shen_tou": cai_shen_tou,
    "quan_peng_zi": quan_peng_zi,
    "qi_dui": qi_dui,
    "piao_cai": piao_cai,
    "gang_kai": common.after_kong,  # 杠开
    "zhen_13": zhen_13,
    "zhen_zhen_13": zhen_zhen_13,
    "san_cai_shen": san_cai_shen,
}
