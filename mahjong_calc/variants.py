"""The table of variants: what a ruleset's `scorer:` names.

A `Variant` is a value: its schema (the frozen dataclasses its YAML's `numbers`,
`options` and pattern entries must fit), its detectors (pattern key → function,
its own namespace: two variants may use one key differently) and its scorer. A
loaded `Ruleset` carries its Variant, so scoring needs no look-up. Adding a
variant: one YAML in rulesets/, one scorer module in scoring/, one detectors module
in patterns/, one line below (see docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .settlement import lazy_settler

if TYPE_CHECKING:
    from .hand import Hand, WinContext
    from .patterns import Detectors
    from .result import ScoreResult
    from .ruleset import Ruleset
    from .settlement.base import Settler

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
    settle: Settler | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "detectors", MappingProxyType(dict(self.detectors)))  # a read-only copy


def _wuhu() -> Variant[Any, Any, Any]:
    from .patterns import wuhu as patterns
    from .scoring import wuhu

    return Variant("wuhu", wuhu.WuhuNumbers, wuhu.WuhuOptions, wuhu.WuhuPattern, patterns.DETECTORS, wuhu.score,
                   wuhu.WuhuSettlement, lazy_settler("wuhu"))


def _chizhou() -> Variant[Any, Any, Any]:
    from .patterns import chizhou as patterns
    from .scoring import chizhou

    return Variant("chizhou", chizhou.ChizhouNumbers, chizhou.ChizhouOptions, chizhou.ChizhouPattern, patterns.DETECTORS, chizhou.score,
                   chizhou.ChizhouSettlement, lazy_settler("chizhou"))


def _pujiang() -> Variant[Any, Any, Any]:
    from .patterns import pujiang as patterns
    from .scoring import pujiang

    return Variant("pujiang", pujiang.PujiangNumbers, pujiang.PujiangOptions, pujiang.PujiangPattern, patterns.DETECTORS, pujiang.score,
                   pujiang.PujiangSettlement, lazy_settler("pujiang"))


class VariantTable(MutableMapping[str, "Variant[Any, Any, Any]"]):
    """Name → Variant, each shipped entry built (its scorer module imported) on first use:
    `mjcalc score` of one Wuhu hand need not import the Chizhou and Pujiang scorers."""

    def __init__(self, loaders: Mapping[str, Callable[[], Variant[Any, Any, Any]]]) -> None:
        self._entries: dict[str, Variant[Any, Any, Any] | Callable[[], Variant[Any, Any, Any]]] = dict(loaders)

    def __getitem__(self, name: str) -> Variant[Any, Any, Any]:
        entry = self._entries[name]
        if not isinstance(entry, Variant):
            entry = self._entries[name] = entry()
        return entry

    def __setitem__(self, name: str, variant: Variant[Any, Any, Any]) -> None:
        self._entries[name] = variant

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


VARIANTS: VariantTable = VariantTable({"wuhu": _wuhu, "chizhou": _chizhou, "pujiang": _pujiang})


@contextmanager
def register_variant(variant: Variant[Any, Any, Any], table: MutableMapping[str, Variant[Any, Any, Any]] = VARIANTS) -> Iterator[Variant[Any, Any, Any]]:
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
