"""Chizhou (池州), the registry's `VARIANT`: ruleset schema, scorer, detectors; its liability
rules and advise's plan load on their first call."""

from ...rules.ruleset import Variant, on_first_call
from . import kernel, patterns, ruleset_schema, score

VARIANT = Variant(
    "chizhou", ruleset_schema.ChizhouNumbers, ruleset_schema.ChizhouOptions, ruleset_schema.ChizhouPattern, patterns.DETECTORS,
    score.score_chizhou, ruleset_schema.ChizhouSettlement, on_first_call(__name__, "liability:settle_chizhou"), on_first_call(__name__, "plan:plan"),
    docs="docs/rules/chizhou.md", sections={"tiles": "Tiles and calls", "patterns": ruleset_schema.PATTERNS, "labels": ruleset_schema.PATTERNS},
    tables=kernel.ChizhouTables)
