"""Pujiang (浦江): schema and arithmetic (score.py), detectors (patterns.py), liability (settle.py).

`VARIANT` is what the registry's "mahjong_calc.variants.pujiang:VARIANT" names; the settler loads
on its first call.
"""

from __future__ import annotations

from typing import Any

from ...rules.ruleset import Variant
from ..common.lazy import lazy_settler
from . import patterns, row, schema, score

VARIANT: Variant[Any, Any, Any] = Variant(
    "pujiang", schema.PujiangNumbers, schema.PujiangOptions, schema.PujiangPattern, patterns.DETECTORS, score.score_pujiang,
    schema.PujiangSettlement, lazy_settler("pujiang"),
    docs="docs/rules/pujiang.md", sections={"tiles": "Tiles and calls", "patterns": schema.PATTERNS, "labels": schema.ZI},
    row=row.row,
)
