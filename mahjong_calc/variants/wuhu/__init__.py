"""Wuhu 315/525 (芜湖): schema and arithmetic (score.py), detectors (patterns.py), liability (liability.py).

`VARIANT` is what the registry's "mahjong_calc.variants.wuhu:VARIANT" names; the settler and the
shanten rules load on their first call.
"""

from __future__ import annotations

from typing import Any

from ...rules.ruleset import PlanRules, Settler, Variant, on_first_call
from . import patterns, row, ruleset_schema, score


def _settler() -> Settler:
    from .liability import settle_wuhu

    return settle_wuhu


def _plan() -> PlanRules:
    from .plan import plan

    return plan


VARIANT: Variant[Any, Any, Any] = Variant(
    "wuhu", ruleset_schema.WuhuNumbers, ruleset_schema.WuhuOptions, ruleset_schema.WuhuPattern, patterns.DETECTORS, score.score_wuhu,
    ruleset_schema.WuhuSettlement, on_first_call(_settler), on_first_call(_plan),
    docs="docs/rules/wuhu.md", sections={"tiles": "Tiles, calls and payment", "patterns": ruleset_schema.ZUI_ZI, "labels": ruleset_schema.AMOUNTS},
    row=row.row,
)
