"""Pujiang (浦江): schema and arithmetic (score.py), detectors (patterns.py), liability (settle.py).

`VARIANT` is what the registry's "mahjong_calc.variants.pujiang:VARIANT" names; the settler loads
on its first call.
"""

from __future__ import annotations

from typing import Any

from ...rules.ruleset import Variant
from ..common.lazy import lazy_settler
from . import patterns, score

VARIANT: Variant[Any, Any, Any] = Variant(
    "pujiang", score.PujiangNumbers, score.PujiangOptions, score.PujiangPattern, patterns.DETECTORS, score.score_pujiang,
    score.PujiangSettlement, lazy_settler("pujiang"),
)
