"""Chizhou (池州): schema and arithmetic (score.py), detectors (patterns.py), liability (liability.py).

`VARIANT` is what the registry's "mahjong_calc.variants.chizhou:VARIANT" names; the settler and the
shanten rules load on their first call.
"""

from __future__ import annotations

from typing import Any

from ...rules.ruleset import PlanRules, Settler, Variant, on_first_call
from . import patterns, row, ruleset_schema, score


def _settler() -> Settler:
    from .liability import settle_chizhou

    return settle_chizhou


def _plan() -> PlanRules:
    from .plan import plan

    return plan


VARIANT: Variant[Any, Any, Any] = Variant(
    "chizhou", ruleset_schema.ChizhouNumbers, ruleset_schema.ChizhouOptions, ruleset_schema.ChizhouPattern, patterns.DETECTORS, score.score_chizhou,
    ruleset_schema.ChizhouSettlement, on_first_call(_settler), on_first_call(_plan),
    docs="docs/rules/chizhou.md", sections={"tiles": "Tiles and calls", "patterns": ruleset_schema.PATTERNS, "labels": ruleset_schema.PATTERNS},
    row=row.row,
)
