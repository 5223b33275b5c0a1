"""The table of variants: what a ruleset's `scorer:` names.

A `Variant` is a value: its schema (the frozen dataclasses its YAML's `numbers`,
`options` and pattern entries must fit), its detectors (pattern key → function,
its own namespace: two variants may use one key differently) and its scorer. A
loaded `Ruleset` carries its Variant, so scoring needs no look-up. Adding a
variant: one YAML in rulesets/, one scorer module in scoring/, one detectors module
in patterns/, one line below (see docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .hand import Hand, WinContext
from .patterns import Detectors
from .patterns import chizhou as chizhou_patterns
from .patterns import pujiang as pujiang_patterns
from .patterns import wuhu as wuhu_patterns
from .result import ScoreResult
from .scoring import chizhou, pujiang, wuhu
from .settlement import lazy_settler
from .settlement.options import ChizhouSettlement, PujiangSettlement, WuhuSettlement

if TYPE_CHECKING:
    from .ruleset import Ruleset

N = TypeVar("N")  # the numbers class
O = TypeVar("O")  # the options class
P = TypeVar("P")  # one entry of `patterns:`


@dataclass(frozen=True, eq=False)
class Variant(Generic[N, O, P]):
    """One variant's schema, detectors and scorer."""

    name: str  # the `scorer:` value its rulesets give
    numbers: type[N]
    options: type[O]
    pattern: type[P]
    detectors: Detectors
    score: Callable[[Hand, WinContext, Ruleset[N, O, P]], ScoreResult]
    # issue 12: the `settlement:` section's dataclass and the settler (settlement/<variant>.py)
    settlement: type | None = None
    settle: Callable[..., Any] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "detectors", MappingProxyType(dict(self.detectors)))  # a read-only copy


VARIANTS: dict[str, Variant[Any, Any, Any]] = {
    "wuhu": Variant("wuhu", wuhu.WuhuNumbers, wuhu.WuhuOptions, wuhu.WuhuPattern, wuhu_patterns.DETECTORS, wuhu.score,
                    WuhuSettlement, lazy_settler("wuhu")),
    "chizhou": Variant("chizhou", chizhou.ChizhouNumbers, chizhou.ChizhouOptions, chizhou.ChizhouPattern, chizhou_patterns.DETECTORS, chizhou.score,
                       ChizhouSettlement, lazy_settler("chizhou")),
    "pujiang": Variant("pujiang", pujiang.PujiangNumbers, pujiang.PujiangOptions, pujiang.PujiangPattern, pujiang_patterns.DETECTORS, pujiang.score,
                       PujiangSettlement, lazy_settler("pujiang")),
}


@contextmanager
def register_variant(variant: Variant[Any, Any, Any], table: dict[str, Variant[Any, Any, Any]] = VARIANTS) -> Iterator[Variant[Any, Any, Any]]:
    """Make `variant` loadable for the length of a `with` block (tests, experiments); the
    shipped table is back as it was afterwards. A ruleset loaded meanwhile keeps its variant."""
    if variant.name in table:
        raise ValueError(f"variant {variant.name!r} is already in the table")
    table[variant.name] = variant
    try:
        yield variant
    finally:
        del table[variant.name]


def variant_for(scorer: str, table: Mapping[str, Variant[Any, Any, Any]] = VARIANTS) -> Variant[Any, Any, Any] | None:
    """The variant a ruleset's `scorer:` names, or None."""
    return table.get(scorer)
