"""The types every settler shares: Table (the facts), Settlement, Liability; option schemas."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...core.context import SEATS, Seat, WinContext
from ...core.hand import Meld
from ...core.result import ScoreResult
from ...core.seats import Position

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset

LABELS: dict[str, tuple[str, str]] = {
    "san_dui_bao_pai": ("三对包牌", "three-pung alarm: one player pays for all three"),
    "si_dui_zhuan_bao": ("四对转包", "fourth pung: liability passes to its feeder"),
    "shuang_ba_zhi_bao": ("双八支报警包牌", "double-eight alarm: the discarder pays for all three"),
    "shuang_si_he_bao": ("双四核报警包牌", "double-four alarm: the key-tile discarder pays for all three"),
    "cheng_bao": ("承包", "feeder's liability"),
    "fan_bao": ("反包", "reverse liability: the player fed pays the feeder"),
    "qiang_gang_bao": ("抢杠包", "robbed kong: the robbed player pays for all three"),
    "sheng_zhang_bao": ("生张包", "unseen tile during a piao: the discarder pays for all three"),
    "piao_bao": ("飘包", "the feeder of the second piao pays that piao"),
}


@dataclass(frozen=True)
class Liability:
    """One shift of payment: `payer` pays `amount` more than the scorer's figure because of rule `code`."""

    payer: str
    code: str
    amount: int

    @property
    def zh(self) -> str:
        return LABELS[self.code][0]

    @property
    def en(self) -> str:
        return LABELS[self.code][1]

    def to_dict(self) -> dict[str, Any]:
        return {"payer": self.payer, "code": self.code, "zh": self.zh, "en": self.en, "amount": self.amount}


@dataclass(frozen=True)
class Sourced:
    """An exposed meld and the position that fed it (None: not known; a concealed kong has none)."""

    meld: Meld
    source: Position | None


@dataclass(frozen=True)
class Table:
    """The facts of the table a settler needs beyond the ScoreResult, seen from the winner.

    `sources[i]` is who fed `result.hand.melds[i]`. The rest matter only to some rules:
    other players' exposed melds (Chizhou 反包, Pujiang pungs), their 花 and whether their
    hand is at 拉子 (Chizhou), and the Pujiang 飘 round (`piao_by` in it with `piao_count` 飘,
    `sheng_zhang` the player who discarded a tile not yet seen on the table). `names`: what
    messages call each position (a game's player names; the position itself by default).
    """

    sources: tuple[Position | None, ...] = ()
    exposed: Mapping[Seat, tuple[Sourced, ...]] = field(default_factory=dict)
    hua: Mapping[Seat, int] = field(default_factory=dict)
    la_zi: frozenset[Seat] = frozenset()
    piao_by: Position | None = None
    piao_count: int = 0
    sheng_zhang: Seat | None = None
    names: Mapping[Position, str] = field(default_factory=dict)

    def who(self, position: Position) -> str:
        """A position as a message names it: the player's name in a game, else `next`, `opposite`, ..."""
        return self.names.get(position, position)

    def winner_melds(self, result: ScoreResult) -> list[Sourced]:
        """The winner's declared melds with their sources (concealed kongs have none)."""
        out = []
        for i, meld in enumerate(result.hand.melds):
            source = self.sources[i] if i < len(self.sources) else None
            out.append(Sourced(meld, None if meld.concealed else source))
        return out

    @property
    def given(self) -> bool:
        """Whether any fact beyond the tiles was given (else a settlement changes nothing)."""
        return any(s is not None for s in self.sources) or bool(self.exposed) or self.piao_by is not None or self.sheng_zhang is not None


@dataclass(frozen=True)
class Settlement:
    """What each payer really pays the winner, and the shifts that made it so."""

    payments: dict[Seat, int]
    liability: tuple[Liability, ...] = ()

    @property
    def total(self) -> int:
        return sum(self.payments.values())


Settler = Callable[[ScoreResult, WinContext, Table, "Ruleset[Any, Any, Any]"], Settlement]


def diff(before: Mapping[Seat, int], after: dict[Seat, int], code: str) -> Settlement:
    """A Settlement paying `after`, with one Liability row per payer who pays more than `before`.

    Payers who pay less under the rule (the others, when one pays for all three) need
    no row: `payments` shows it.
    """
    rows = tuple(Liability(seat, code, after[seat] - before[seat]) for seat in SEATS if after[seat] > before[seat])
    return Settlement(after, rows)


def pays_for_all(before: Mapping[Seat, int], liable: Seat, code: str) -> Settlement:
    """包: `liable` pays what all three would have paid; the others pay nothing."""
    total = sum(before.values())
    return diff(before, {seat: (total if seat == liable else 0) for seat in SEATS}, code)


# --- options ----------------------------------------------------------------------------


def options_of(cls: type, ruleset: Ruleset[Any, Any, Any]) -> Any:
    """The ruleset's `settlement:` section, typed as `cls` (the loader built it from the YAML)."""
    options = ruleset.settlement
    if not isinstance(options, cls):
        from ...core.errors import RulesetError

        raise RulesetError("ruleset_invalid", "{file}: settlement: missing; the {scorer} variant needs it to settle",
            file=ruleset.source, scorer=ruleset.scorer)
    return options
