"""Wuhu 315/525 (芜湖) as the registry's `VARIANT`: its ruleset schema, scorer (score.py, kernel.py,
build.py), detectors (patterns.py), and, loaded when first called, its liability rules
(liability.py) and advise's plan (plan.py)."""

from ...rules.ruleset import Variant, on_first_call
from . import kernel, patterns, ruleset_schema, score

VARIANT = Variant(
    "wuhu", ruleset_schema.WuhuNumbers, ruleset_schema.WuhuOptions, ruleset_schema.WuhuPattern, patterns.DETECTORS, score.score_wuhu,
    ruleset_schema.WuhuSettlement, on_first_call(__name__, "liability:settle_wuhu"), on_first_call(__name__, "plan:plan"), tables=kernel.WuhuTables,
    docs="docs/rules/wuhu.md", sections={"tiles": "Tiles, calls and payment", "patterns": ruleset_schema.ZUI_ZI, "labels": ruleset_schema.AMOUNTS})
