"""Pattern detectors: one small function per hand pattern, one signature.

A detector takes a `Candidate` (one way of reading a winning hand) and returns how
many times its pattern occurs there: 0 for absent, usually 1, more for patterns
that can repeat (e.g. 四核). Variants choose which detectors run by listing the
pattern keys in their ruleset; the registry is keyed by those same names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..decompose import Arrangement, TileSet
from ..hand import Hand, WinContext
from ..tiles import is_honour

Detector = Callable[["Candidate"], int]
REGISTRY: dict[str, Detector] = {}


def detector(key: str) -> Callable[[Detector], Detector]:
    """Register `fn` as the detector for pattern `key`."""

    def register(fn: Detector) -> Detector:
        if key in REGISTRY:
            raise ValueError(f"pattern {key!r} registered twice")
        REGISTRY[key] = fn
        return fn

    return register


@dataclass
class Candidate:
    """One reading of a winning hand, with what detectors may ask of it.

    `arrangement` is None for hands that are not pair-plus-sets shaped (seven
    pairs, thirteen-style hands). `facts` carries variant-computed values such
    as 压档 points, so detectors never recompute them.
    """

    hand: Hand
    ctx: WinContext
    arrangement: Arrangement | None
    counts: tuple[int, ...]  # every held tile, melds included (a kong counts 4)
    options: Mapping[str, Any]
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def sets(self) -> tuple[TileSet, ...]:
        return self.arrangement.sets if self.arrangement else ()

    @cached_property
    def suits_present(self) -> frozenset[int]:
        """Suit indexes 0-2 (m, p, s) that appear among the held tiles."""
        return frozenset(t // 9 for t, n in enumerate(self.counts) if n and not is_honour(t))

    @cached_property
    def has_honours(self) -> bool:
        return any(self.counts[27:])


def detect(keys: Iterable[str], candidate: Candidate) -> dict[str, int]:
    """Run the named detectors; keep those that fire, in the order given."""
    found: dict[str, int] = {}
    for key in keys:
        times = REGISTRY[key](candidate)
        if times:
            found[key] = int(times)
    return found


from . import chizhou, common, pujiang, wuhu  # noqa: E402,F401  (registers the detectors)
