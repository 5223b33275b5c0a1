"""Pattern detectors: one small function per hand pattern, one signature.

A detector takes a `Candidate` (one way of reading a winning hand) and returns how
many times its pattern occurs there: 0 for absent, usually 1, more for patterns
that can repeat (e.g. 四核). Each variant's detectors module (`wuhu.py`,
`chizhou.py`, `pujiang.py`) ends with `DETECTORS`, a plain dict from the pattern
keys its YAML may list to these functions; a function shared by several variants
lives in `common.py` and is listed under whatever key each variant uses. A ruleset
naming a key its variant lacks is refused at load (`ruleset_invalid`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, TypeVar

from ...core.context import WinContext
from ...core.hand import Hand
from ...core.shapes import Arrangement, TileSet
from ...core.tiles import is_honour

O_co = TypeVar("O_co", covariant=True)  # the variant's options class


@dataclass
class Candidate(Generic[O_co]):
    """One reading of a winning hand, with what detectors may ask of it.

    `arrangement` is None for hands that are not pair-plus-sets shaped (seven
    pairs, thirteen-style hands). `options` is the variant's typed options object.
    `facts` carries variant-computed values such as 压档 points, so detectors
    never recompute them.
    """

    hand: Hand
    ctx: WinContext
    arrangement: Arrangement | None
    counts: tuple[int, ...]  # every held tile, melds included (a kong counts 4)
    options: O_co  # read-only in practice: detectors never assign it
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


Detector = Callable[[Any], int]  # Candidate -> int (Chizhou, Pujiang); WuhuRead -> int (Wuhu)
Detectors = Mapping[str, Detector]


def detect(detectors: tuple[tuple[str, Detector], ...], candidate: Candidate[Any]) -> dict[str, int]:
    """Run `(key, detector)` pairs in order; keep the keys whose pattern is present, with its count."""
    found: dict[str, int] = {}
    for key, fn in detectors:
        times = fn(candidate)
        if times:
            found[key] = int(times)
    return found
