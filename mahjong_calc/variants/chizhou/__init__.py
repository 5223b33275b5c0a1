"""Chizhou (池州): schema and arithmetic (score.py), detectors (patterns.py), liability (settle.py).

`VARIANT` is what the registry's "mahjong_calc.variants.chizhou:VARIANT" names; the settler loads
on its first call.
"""

from __future__ import annotations

from typing import Any

from ...rules.ruleset import Variant
from ..common.lazy import lazy_settler
from . import patterns, row, schema, score

VARIANT: Variant[Any, Any, Any] = Variant(
    "chizhou", schema.ChizhouNumbers, schema.ChizhouOptions, schema.ChizhouPattern, patterns.DETECTORS, score.score_chizhou,
    schema.ChizhouSettlement, lazy_settler("chizhou"),
    docs="docs/rules/chizhou.md", sections={"tiles": "Tiles and calls", "patterns": schema.PATTERNS, "labels": schema.PATTERNS},
    row=row.row,
)
