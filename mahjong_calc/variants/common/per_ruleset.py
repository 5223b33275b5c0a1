"""One value per loaded ruleset (a kernel's numbers and switches as plain ints and bools), built once.

A loaded Ruleset is frozen, so its value never goes stale; values are found by the ruleset's
identity (and the ruleset kept beside it, so a new ruleset at a reused id is never mistaken
for the old one), and at most 256 are kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset

P = TypeVar("P")  # a kernel's KernelNumbers class
KEPT: Final = 256


class PerRuleset(Generic[P]):
    """`numbers_for = PerRuleset(KernelNumbers)`; `numbers_for(rs)` is `KernelNumbers(rs)`, made once per ruleset."""

    def __init__(self, build: Callable[[Ruleset[Any, Any, Any]], P]) -> None:
        self._build = build
        self._made: dict[int, tuple[Ruleset[Any, Any, Any], P]] = {}

    def __call__(self, rs: Ruleset[Any, Any, Any]) -> P:
        entry = self._made.get(id(rs))
        if entry is not None and entry[0] is rs:
            return entry[1]
        if len(self._made) >= KEPT:
            self._made.clear()
        made = self._build(rs)
        self._made[id(rs)] = (rs, made)
        return made
