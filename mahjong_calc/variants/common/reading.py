"""What the variant scorers share: the reading loop, items, rounding, the result.

Every scorer reads a hand in one or more ways (an arrangement of its tiles, what
the wilds stand for...), scores each reading, keeps the best, and builds the
result. `best_result` is that loop; a scorer supplies only the per-reading
arithmetic (`Reading`s) and, for the best one, its payments and details.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from ...core.context import SEATS, Seat
from ...core.errors import NotAWin
from ...core.hand import Hand
from ...core.result import Given, Item, ScoreResult, pays_of, stamped
from ...core.words import Text
from .best import better

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset

F = TypeVar("F")  # the variant's own facts about a reading


@dataclass(frozen=True)
class Reading(Generic[F]):
    """One way of reading a hand, scored: its value, breakdown and patterns, or why it does not win.

    `rank` breaks ties after `value` (higher wins); among equals the first reading
    wins, so the order in which a scorer produces readings is part of its rules.
    """

    value: int
    items: tuple[Item, ...]
    patterns: tuple[str, ...]
    facts: F
    refusal: NotAWin | None = None
    rank: int = 0

    @property
    def wins(self) -> bool:
        return self.refusal is None


class LazyReadings(Sequence[Reading[F]]):
    """Every reading of a hand, worked out only when looked at (`--explain`): `every()` asks the
    kernel again, keeping all its readings, once."""

    def __init__(self, every: Callable[[], tuple[Reading[F], ...]]) -> None:
        self._every_of = every
        self._every: tuple[Reading[F], ...] | None = None

    def _all(self) -> tuple[Reading[F], ...]:
        if self._every is None:
            self._every = self._every_of()
        return self._every

    @overload
    def __getitem__(self, index: int) -> Reading[F]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Reading[F]]: ...
    def __getitem__(self, index: int | slice) -> Reading[F] | Sequence[Reading[F]]:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[Reading[F]]:
        return iter(self._all())


@dataclass(frozen=True)
class Settled:
    """What a scorer adds to its best reading: who pays, the decomposition, variant extras."""

    payments: Mapping[Seat, int]
    decomposition: dict[str, Any]
    extra: dict[str, Any]


def refused(refusal: NotAWin, facts: F) -> Reading[F]:
    """A reading that does not win, and why."""
    return Reading(0, (), (), facts, refusal)


def best_result(
    rs: Ruleset[Any, Any, Any],
    hand: Hand,
    readings: Iterable[Reading[F]],
    settle: Callable[[Reading[F]], Settled],
    no_win: Callable[[tuple[Reading[F], ...]], NotAWin],
) -> ScoreResult:
    """Keep the best winning reading (highest value, then rank; first of equals) and build the result
    (the loop of a variant without a kernel, such as a test's).

    `no_win(readings)` gives the error to raise when no reading wins. Every reading,
    winning or not, stays on the result as `readings` (not part of its JSON).
    """
    every = tuple(readings)
    best: Reading[F] | None = None
    for reading in every:
        if reading.refusal is None and (best is None or better(reading.value, reading.rank, best.value, best.rank)):
            best = reading
    if best is None:
        raise no_win(every)
    settled = settle(best)
    explained = Given(best.items, settled.decomposition, settled.extra, every, rs.memo)
    return stamped(rs, hand, best.value, best.patterns, pays_of(dict(settled.payments)), explained)


def round_half_up(value: Decimal) -> int:
    """Rounding as the seeds mean it (四舍五入): 4.5 → 5, never banker's rounding."""
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def item(ruleset: Ruleset[Any, Any, Any], key: str, value: int, detail: str | Text = "") -> Item:
    zh, en = ruleset.label(key)
    return Item(key, zh, en, value, detail)


def each_pays(value: int) -> dict[Seat, int]:
    return {seat: value for seat in SEATS}
