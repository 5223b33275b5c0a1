"""Detectors for Chizhou 池州麻将 (字一色, 大吊车, 抢杠) and its table of pattern keys.

Each reads the kernel's `SetsRead` (variants/common/read.py), one per hand.
"""

from __future__ import annotations

from typing import Final

from ..common import detectors as common
from ..common.detector_types import Detectors
from ..common.read import SetsRead


def zi_yi_se(r: SetsRead) -> int:
    """字一色: honours only (so never also 混一色, which needs a suit)."""
    return int(r.arranged and r.honours and r.suits == 0)


def da_diao_che(r: SetsRead) -> int:
    """大吊车: all four sets are declared melds and the winning tile pairs the last lone tile."""
    if not r.arranged or r.win_in != -1 or len(r.sets) != 4 or r.n_concealed != 0:
        return 0
    allow_concealed_kong: bool = r.options.da_diao_che_concealed_kong
    return int(allow_concealed_kong or not any(r.melds_concealed))


def qiang_gang(r: SetsRead) -> int:
    """抢杠: won on the tile another player added to a pung to make a kong."""
    return int(r.ctx.robbing_kong)


# The keys a Chizhou ruleset may list under `patterns:` (each with its 番).
DETECTORS: Final[Detectors] = {
    "dui_dui_hu": common.dui_dui_hu,
    "qing_yi_se": common.qing_yi_se,
    "hun_yi_se": common.hun_yi_se,
    "zi_yi_se": zi_yi_se,
    "da_diao_che": da_diao_che,
    "gang_kai": common.after_kong,  # 杠开
    "qiang_gang": qiang_gang,
    "tong_tian": common.tong_tian,
    "tian_hu": common.tian_hu,
    "di_hu": common.di_hu,
}
