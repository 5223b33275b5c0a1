"""A variant that lives only in the tests: its schema, detectors and scorer, and its `Variant`.

Everything a real variant needs, in the three places docs/architecture.md names
(here one file stands for variants/toy/score.py and variants/toy/patterns.py); the YAML is tests/data/toy.yaml.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mahjong_calc.core import sets
from mahjong_calc.core.context import WinContext
from mahjong_calc.core.errors import NotAWin
from mahjong_calc.core.hand import Hand, Meld
from mahjong_calc.core.result import ScoreResult
from mahjong_calc.core.shapes import Arrangement, arrangements
from mahjong_calc.rules.registry import VARIANTS
from mahjong_calc.rules.ruleset import Variant
from mahjong_calc.rules.schema import Label
from mahjong_calc.variants.common import detectors as common
from mahjong_calc.variants.common.detector_types import Detectors, detect
from mahjong_calc.variants.common.goals import Goal, melded
from mahjong_calc.variants.common.plan import Plan
from mahjong_calc.variants.common.read import SetsRead, read_arrangement
from mahjong_calc.variants.common.reading import Reading, Settled, best_result, each_pays, item

if TYPE_CHECKING:
    from mahjong_calc.rules.ruleset import Ruleset

YAML = Path(__file__).parent / "data" / "toy.yaml"


# --- the scorer module's schema ---------------------------------------------------------


@dataclass(frozen=True)
class ToyNumbers:
    base: int
    per_pung: int


@dataclass(frozen=True)
class ToyOptions:
    count_kongs_as_pungs: bool


@dataclass(frozen=True)
class ToyPattern(Label):
    fan: int


if TYPE_CHECKING:
    ToyRuleset = Ruleset[ToyNumbers, ToyOptions, ToyPattern]


# --- the detectors module ---------------------------------------------------------------


def pungs(r: SetsRead) -> int:
    """How many pungs (and, if the option says so, kongs): the toy's meaning of `dui_dui_hu`."""
    kinds = (sets.PUNG, sets.KONG) if r.options.count_kongs_as_pungs else (sets.PUNG,)
    return sum(1 for code in r.sets if sets.kind_of(code) in kinds)


DETECTORS: Detectors = {"dui_dui_hu": pungs, "qing_yi_se": common.qing_yi_se}


# --- the scorer -------------------------------------------------------------------------


def _read(arr: Arrangement, hand: Hand, ctx: WinContext, rs: ToyRuleset, counts: tuple[int, ...]) -> Reading[Arrangement]:
    found = detect(rs.detectors, read_arrangement(hand, ctx, arr, counts, rs.options))
    items = [item(rs, "base", rs.numbers.base)]
    items += [item(rs, key, rs.patterns[key].fan * times, f"× {times}") for key, times in found.items()]
    return Reading(sum(i.value for i in items), tuple(items), tuple(found), arr)


def score(hand: Hand, ctx: WinContext, rs: ToyRuleset) -> ScoreResult:
    counts = tuple(hand.held())
    readings = [_read(a, hand, ctx, rs, counts) for a in arrangements(hand)]

    def settle(best: Reading[Arrangement]) -> Settled:
        return Settled(each_pays(best.value), best.facts.to_dict(), {})

    return best_result(rs, hand, readings, settle, lambda _: NotAWin("not_a_winning_hand", "not a toy win"))


# --- the shanten rules (advise) -----------------------------------------------------------


class ToyPlan(Plan):
    """A toy win's one target: a pair and four sets, the melds among them."""

    def __init__(self, melds: Sequence[Meld], rs: ToyRuleset) -> None:
        fixed = melded(melds, rs.tiles)
        super().__init__(fixed.size)
        self._goals = [Goal(fixed.avail, fixed.sets, 1, fixed.size)]

    def goals(self, counts: Sequence[int]) -> list[Goal]:
        return self._goals


def plan(melds: Sequence[Meld], ctx: WinContext, rs: ToyRuleset) -> Plan:
    return ToyPlan(melds, rs)


# --- the one line in the table ----------------------------------------------------------

TOY: Variant[Any, Any, Any] = Variant("toy", ToyNumbers, ToyOptions, ToyPattern, DETECTORS, score, plan=plan)


@contextmanager
def registered(variant: Variant[Any, Any, Any]) -> Iterator[Variant[Any, Any, Any]]:
    """Make `variant` loadable for the length of a `with` block: an entry in the table of variants,
    taken out again afterwards (a ruleset loaded meanwhile keeps its variant)."""
    import pytest

    if variant.name in VARIANTS:
        raise ValueError(f"variant {variant.name!r} is already in the table")
    with pytest.MonkeyPatch.context() as patched:
        patched.setitem(VARIANTS, variant.name, variant)
        yield variant
