"""Detectors for Chizhou 池州麻将 (字一色, 大吊车, 抢杠) and its table of pattern keys."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..common import detectors as common
from ..common.candidate import Candidate, Detectors

if TYPE_CHECKING:
    from .schema import ChizhouOptions


def zi_yi_se(c: Candidate[Any]) -> int:
    """字一色: honours only (so never also 混一色, which needs a suit)."""
    return bool(c.arrangement) and c.has_honours and not c.suits_present


def da_diao_che(c: Candidate[ChizhouOptions]) -> int:
    """大吊车: all four sets are declared melds and the winning tile pairs the last lone tile."""
    arr = c.arrangement
    if arr is None or arr.win_in != -1 or len(arr.sets) != 4:
        return 0
    allow_concealed_kong = c.options.da_diao_che_concealed_kong
    return all(s.declared and (allow_concealed_kong or not s.concealed) for s in arr.sets)


def qiang_gang(c: Candidate[Any]) -> int:
    """抢杠: won on the tile another player added to a pung to make a kong."""
    return c.ctx.robbing_kong


# The keys a Chizhou ruleset may list under `patterns:` (each with its 番).
DETECTORS: Detectors = {
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
