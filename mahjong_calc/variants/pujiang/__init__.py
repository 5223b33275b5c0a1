"""Pujiang (浦江) for the registry (`VARIANT`); settler and plan are imported when first called."""

from ...rules.ruleset import Variant, on_first_call
from . import kernel, patterns, ruleset_schema, score

VARIANT = Variant(
    "pujiang", ruleset_schema.PujiangNumbers, ruleset_schema.PujiangOptions, ruleset_schema.PujiangPattern, patterns.DETECTORS,
    score.score_pujiang, ruleset_schema.PujiangSettlement, on_first_call(__name__, "liability:settle_pujiang"),
    on_first_call(__name__, "plan:plan"), docs="docs/rules/pujiang.md", tables=kernel.PujiangTables,
    sections={"tiles": "Tiles and calls", "patterns": ruleset_schema.PATTERNS, "labels": ruleset_schema.ZI})
