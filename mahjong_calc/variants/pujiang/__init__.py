"""Pujiang (浦江): schema and arithmetic (score.py), detectors (patterns.py), liability (liability.py).

`VARIANT` is what the registry's "mahjong_calc.variants.pujiang:VARIANT" names; the settler and the
shanten rules load on their first call.
"""

from __future__ import annotations

from typing import Any

from ...rules.ruleset import PlanRules, Settler, Variant, on_first_call
from . import patterns, row, ruleset_schema, score


def _settler() -> Settler:
    from .liability import settle_pujiang

    return settle_pujiang


def _plan() -> PlanRules:
    from .plan import plan

    return plan


VARIANT: Variant[Any, Any, Any] = Variant(
    "pujiang", ruleset_schema.PujiangNumbers, ruleset_schema.PujiangOptions, ruleset_schema.PujiangPattern, patterns.DETECTORS, score.score_pujiang,
    ruleset_schema.PujiangSettlement, on_first_call(_settler), on_first_call(_plan),
    docs="docs/rules/pujiang.md", sections={"tiles": "Tiles and calls", "patterns": ruleset_schema.PATTERNS, "labels": ruleset_schema.ZI},
    row=row.row,
)
