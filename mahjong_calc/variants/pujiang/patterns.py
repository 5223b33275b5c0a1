"""Detectors for Pujiang 浦江麻将 and its table of pattern keys.

Each reads the kernel's `SetsRead` (variants/common/read.py), one per hand: `shape`
(STANDARD, QI_DUI, ZHEN_13, ZHEN_ZHEN_13, SAN_CAI_SHEN), `wilds` (wilds held),
`set_wilds` (wilds standing in sets), `cai_diao` (a wild pairs the winning tile, or two
wilds pair) and `san_cai_shen` (all wilds held).
"""

from __future__ import annotations

from typing import Final

from ..common import detectors as common
from ..common.detector_types import Detectors
from ..common.read import QI_DUI, SAN_CAI_SHEN, STANDARD, ZHEN_13, ZHEN_ZHEN_13, SetsRead


def cai_shen_tou(r: SetsRead) -> int:
    """财神头 (财吊头): in a standard hand, the pair is a wild plus the winning tile (or two wilds)."""
    return int(r.shape == STANDARD and r.cai_diao)


def quan_peng_zi(r: SetsRead) -> int:
    """全碰子: every set a pung or kong, and no wild stands in a set (only in the pair)."""
    return int(common.dui_dui_hu(r) != 0 and r.set_wilds == 0)


def qi_dui(r: SetsRead) -> int:
    """七对: seven pairs; with a wild it must be 财神吊头."""
    if r.shape != QI_DUI:
        return 0
    return int(r.wilds == 0 or r.cai_diao)


def piao_cai(r: SetsRead) -> int:
    """飘财神: one per 飘 (--piao N), only on a 财神吊头 hand."""
    piao: int = r.ctx.piao
    return piao if r.cai_diao else 0


def zhen_13(r: SetsRead) -> int:
    """真13: spaced suits (147/258/369 subsets) and enough honours, but not 真真13."""
    return int(r.shape == ZHEN_13)


def zhen_zhen_13(r: SetsRead) -> int:
    """真真13: a full 147, 258 or 369 in every suit plus five different honours."""
    return int(r.shape == ZHEN_ZHEN_13)


def san_cai_shen(r: SetsRead) -> int:
    """三财神: all three wilds in hand; by itself, or on a complete hand if the ruleset stacks it."""
    if not r.san_cai_shen:
        return 0
    stacks: bool = r.options.san_cai_shen_stacks
    return int(r.shape == SAN_CAI_SHEN or stacks)


# The keys a Pujiang ruleset may list under `patterns:` (each with its 番, and maybe its 子).
DETECTORS: Final[Detectors] = {
    "cai_shen_tou": cai_shen_tou,
    "quan_peng_zi": quan_peng_zi,
    "qi_dui": qi_dui,
    "piao_cai": piao_cai,
    "gang_kai": common.after_kong,  # 杠开
    "zhen_13": zhen_13,
    "zhen_zhen_13": zhen_zhen_13,
    "san_cai_shen": san_cai_shen,
}
