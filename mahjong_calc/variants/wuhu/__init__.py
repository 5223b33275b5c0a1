"""Wuhu 315/525 (芜湖): schema and arithmetic (score.py), detectors (patterns.py), liability (settle.py).

`VARIANT` is what the registry's "mahjong_calc.variants.wuhu:VARIANT" names; the settler loads
on its first call.
"""

from __future__ import annotations

from typing import Any

from ...rules.ruleset import Variant
from ..common.lazy import lazy_settler
from . import patterns, row, schema, score

VARIANT: Variant[Any, Any, Any] = Variant(
    "wuhu", schema.WuhuNumbers, schema.WuhuOptions, schema.WuhuPattern, patterns.DETECTORS, score.score_wuhu,
    schema.WuhuSettlement, lazy_settler("wuhu"),
    docs="docs/rules/wuhu.md", sections={"tiles": "Tiles, calls and payment", "patterns": schema.ZUI_ZI, "labels": schema.AMOUNTS},
    row=row.row,
)
