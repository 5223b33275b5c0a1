"""ScoreResult: what a scorer returns. `to_dict()` is the JSON contract."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from .context import SEATS, Seat
from .hand import Hand
from .words import Text, language


@dataclass(frozen=True)
class Item:
    """One line of the breakdown: a pattern or an amount, with its names and value."""

    key: str
    zh: str
    en: str
    value: int
    detail: str | Text = ""  # a Text is shown in the language chosen when it is read

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "zh": self.zh, "en": self.en, "value": self.value}
        if self.detail:
            out["detail"] = str(self.detail)
        return out


# json.dumps(value, ensure_ascii=False) without building an encoder per call: the same text
_encode: Final = json.JSONEncoder(ensure_ascii=False).encode
_ITEM_TEXT: Final[dict[tuple[Item, str | None], str]] = {}  # an item's JSON in a language; items repeat (a scorer may share them)
_KEYS: Final = frozenset(("variant", "ruleset_version", "valid", "hand", "value", "items", "patterns", "payments", "total", "decomposition"))


def _item_text(one: Item) -> str:
    key = (one, language())
    text = _ITEM_TEXT.get(key)
    if text is None:
        if len(_ITEM_TEXT) >= 65536:
            _ITEM_TEXT.clear()
        text = _ITEM_TEXT[key] = _encode(one.to_dict())
    return text


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
    readings: Sequence[Any] = field(default=(), compare=False, repr=False)

    @property
    def total(self) -> int:
        return sum(self.payments.values())

    def _head(self) -> dict[str, Any]:
        """The contract's keys before `items`."""
        return {"variant": self.variant, "ruleset_version": self.ruleset_version, "valid": True, "hand": self.hand.to_dict(), "value": self.value}

    def _tail(self) -> dict[str, Any]:
        """The contract's keys after `items`, then the variant's extra keys."""
        return {
            "patterns": list(self.patterns),
            "payments": {seat: self.payments[seat] for seat in SEATS},
            "total": self.total,
            "decomposition": self.decomposition,
            **self.extra,
        }

    def to_dict(self) -> dict[str, Any]:
        return {**self._head(), "items": [i.to_dict() for i in self.items], **self._tail()}

    def to_json(self) -> str:
        """`json.dumps(self.to_dict(), ensure_ascii=False)`, the same text, with each item's JSON
        made once: the keys before `items` and those after are encoded as two objects, and
        the items' text goes between them."""
        if not _KEYS.isdisjoint(self.extra):  # an extra key replacing a fixed one keeps that one's place
            return _encode(self.to_dict())
        head = _encode(self._head())
        tail = _encode(self._tail())
        return head[:-1] + ', "items": [' + ", ".join([_item_text(i) for i in self.items]) + "], " + tail[1:]


class ScoredWin(Protocol):
    """What a settler reads of a scored win: a ScoreResult, or a game's lean RowResult (api/row.py)."""

    @property
    def value(self) -> int: ...

    @property
    def patterns(self) -> tuple[str, ...]: ...

    @property
    def payments(self) -> Mapping[Seat, int]: ...

    @property
    def hand(self) -> Hand: ...

    @property
    def extra(self) -> Mapping[str, Any]: ...
