"""Wuhu 315/525 (芜湖): schema and arithmetic (score.py), detectors (patterns.py), liability (settle.py).

`VARIANT` is what the registry's "mahjong_calc.variants.wuhu:VARIANT" names; the settler loads
on its first call.
"""

from __future__ import annotations

from typing import Any

from ...rules.ruleset import Variant
from ..common.lazy import lazy_settler
from . import patterns, score

VARIANT: Variant[Any, Any, Any] = Variant(
    "wuhu", score.WuhuNumbers, score.WuhuOptions, score.WuhuPattern, patterns.DETECTORS, score.score_wuhu,
    score.WuhuSettlement, lazy_settler("wuhu"),
)
