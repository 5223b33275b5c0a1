"""ScoreResult: what a scorer returns. `to_dict()` is the JSON contract."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .hand import SEATS, Hand, Seat


@dataclass(frozen=True)
class Item:
    """One line of the breakdown: a pattern or an amount, with its names and value."""

    key: str
    zh: str
    en: str
    value: int
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "zh": self.zh, "en": self.en, "value": self.value}
        if self.detail:
            out["detail"] = self.detail
        return out


@dataclass(frozen=True)
class ScoreResult:
    """A scored winning hand."""

    variant: str
    ruleset_version: str
    title: tuple[str, str]
    hand: Hand
    value: int
    items: tuple[Item, ...]
    patterns: tuple[str, ...]
    payments: dict[Seat, int]
    decomposition: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)
    # every way the scorer read the hand (variants.common.reading.Reading), the best among them; not in to_dict()
    readings: tuple[Any, ...] = field(default=(), compare=False, repr=False)

    @property
    def total(self) -> int:
        return sum(self.payments.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "ruleset_version": self.ruleset_version,
            "valid": True,
            "hand": self.hand.to_dict(),
            "value": self.value,
            "items": [i.to_dict() for i in self.items],
            "patterns": list(self.patterns),
            "payments": {seat: self.payments[seat] for seat in SEATS},
            "total": self.total,
            "decomposition": self.decomposition,
            **self.extra,
        }
