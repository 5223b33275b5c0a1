"""ScoreResult: what a scorer returns, and the one serializer of its JSON (the contract).

A result is made from the kernel's integers: its value, patterns and payments at once, and
everything else (the items with their text, the decomposition, the variant's extra keys, every
reading for --explain) by its variant's `Explanation`, only when asked. Its JSON is joined
from pieces each made once per distinct value (an item's JSON, a pattern list's), kept on the
loaded ruleset: `to_json` is the one place the shape of an answer is written.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, final

from . import sets
from .context import Seat
from .hand import Hand, Meld
from .tiles import NUM_TILES, format_tiles, tile_str
from .words import Text, language

if TYPE_CHECKING:
    from .memo import Memo

# json.dumps(value, ensure_ascii=False) without building an encoder per call: the same text
encode: Final = json.JSONEncoder(ensure_ascii=False).encode

TILE_JSON: Final[tuple[str, ...]] = tuple(encode(tile_str(t)) for t in range(NUM_TILES))
# each meld's `{"kind": ..., "tiles": ..., "concealed": ...}`: [code] exposed, [N_CODES + code] a concealed kong
_MELD_JSON: Final[tuple[str, ...]] = tuple(
    encode({"kind": sets.kind_name(code), "tiles": format_tiles(sets.tiles_of(code)), "concealed": concealed})
    for concealed in (False, True) for code in range(sets.N_CODES)
)


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


def utf8(text: str) -> bytes:
    """JSON text as UTF-8: a lone surrogate in a string (an undecodable argv byte) as its JSON escape."""
    return text.encode("utf-8", "backslashreplace")


def item_json(item: Item, memo: Memo) -> bytes:
    """An item's JSON (UTF-8) in the language chosen now, made once per item and language (`memo`: its ruleset's)."""
    key = ("item_json", item, language())
    text: bytes | None = memo.get(key)
    if text is None:
        text = memo.keep(key, utf8(encode(item.to_dict())))
    return text


def melds_json(melds: tuple[Meld, ...]) -> str:
    if not melds:
        return "[]"
    return "[" + ", ".join([_MELD_JSON[m.code + sets.N_CODES if m.concealed else m.code] for m in melds]) + "]"


def hand_json(hand: Hand) -> str:
    """`hand.to_dict()` as JSON: the concealed tiles sorted, one suit letter per run (each suit's text made once)."""
    m, p, s, z = hand.shapes()
    return (f'{{"concealed": "{m.text()}{p.text()}{s.text()}{z.text()}", "melds": {melds_json(hand.melds)}, '
            f'"win": {TILE_JSON[hand.win_tile]}}}')


class Explanation:
    """What a variant shows of a scored hand beyond its value, patterns and payments: made when asked.
    Each variant's explanation subclasses it and gives every method (compiled, a call is a C call).

    `items_json` is the items' JSON joined by ", " (UTF-8: the items' Chinese is encoded once, with
    the piece) and `tail_json` the keys from `"decomposition"` on (the variant's extra keys after
    it), with no braces: the same text as encoding `items()`, `decomposition()` and `extra()`, made
    from cached pieces."""

    def items(self) -> tuple[Item, ...]:
        raise NotImplementedError

    def items_json(self) -> bytes:
        raise NotImplementedError

    def decomposition(self) -> dict[str, Any]:
        raise NotImplementedError

    def extra(self) -> dict[str, Any]:
        raise NotImplementedError

    def tail_json(self) -> str:
        raise NotImplementedError

    def readings(self) -> Sequence[Any]:
        raise NotImplementedError


@final
class Given(Explanation):
    """An Explanation of values already made (a variant without a kernel, such as a test's)."""

    def __init__(self, items: tuple[Item, ...], decomposition: dict[str, Any], extra: dict[str, Any], readings: Sequence[Any],
                 memo: Memo) -> None:
        self._items = items
        self._decomposition = decomposition
        self._extra = extra
        self._readings = readings
        self._memo = memo

    def items(self) -> tuple[Item, ...]:
        return self._items

    def items_json(self) -> bytes:
        return b", ".join([item_json(one, self._memo) for one in self._items])

    def decomposition(self) -> dict[str, Any]:
        return self._decomposition

    def extra(self) -> dict[str, Any]:
        return self._extra

    def tail_json(self) -> str:
        return encode({"decomposition": self._decomposition, **self._extra})[1:-1]

    def readings(self) -> Sequence[Any]:
        return self._readings


@final
class ScoreResult:
    """A scored winning hand: its value, patterns and payments (next, opposite, previous), and
    what its variant's `Explanation` makes when asked. Settled (`settled`), it carries the
    payments after liability and the liability rows' JSON."""

    def __init__(self, variant: str, ruleset_version: str, title: tuple[str, str], hand: Hand, value: int, patterns: tuple[str, ...],
                 pays: tuple[int, int, int], explanation: Explanation, memo: Memo, liability: str | None = None) -> None:
        self.variant = variant
        self.ruleset_version = ruleset_version
        self.title = title
        self.hand = hand
        self.value = value
        self.patterns = patterns
        self.pays = pays
        self.explanation = explanation
        self.memo = memo  # the ruleset's: the pieces of its JSON are made once there
        self.liability = liability  # the settled liability rows' JSON (None: not settled)

    @property
    def payments(self) -> dict[Seat, int]:
        a, b, c = self.pays
        return {"next": a, "opposite": b, "previous": c}

    @property
    def total(self) -> int:
        a, b, c = self.pays
        return a + b + c

    @property
    def items(self) -> tuple[Item, ...]:
        return self.explanation.items()

    @property
    def decomposition(self) -> dict[str, Any]:
        return self.explanation.decomposition()

    @property
    def extra(self) -> dict[str, Any]:
        """The variant's keys after `decomposition` (and `liability`, once settled)."""
        extra = self.explanation.extra()
        if self.liability is None:
            return extra
        return {**extra, "liability": json.loads(self.liability)}

    @property
    def readings(self) -> Sequence[Any]:
        """Every way the scorer read the hand (variants.common.reading.Reading); not in the JSON."""
        return self.explanation.readings()

    def settled(self, pays: tuple[int, int, int], liability: str) -> ScoreResult:
        """This result with the payments after liability and the liability rows (their JSON)."""
        return ScoreResult(self.variant, self.ruleset_version, self.title, self.hand, self.value, self.patterns, pays, self.explanation, self.memo, liability)

    def json_bytes(self) -> bytes:
        """The answer's JSON, UTF-8: `{"variant": ..., "valid": true, "hand": ..., "value": ..., "items": [...],
        "patterns": [...], "payments": {...}, "total": ..., "decomposition": ..., <extra keys>}`; the one
        writer of it, joining pieces each made once (kept on the ruleset)."""
        memo = self.memo
        head: bytes | None = memo.get("head_json")
        if head is None:
            head = memo.keep("head_json", utf8(f'{{"variant": {encode(self.variant)}, "ruleset_version": {encode(self.ruleset_version)}, '
                                               '"valid": true, "hand": '))
        key = ("patterns_json", self.patterns)
        found: bytes | None = memo.get(key)
        if found is None:
            found = memo.keep(key, utf8(f'], "patterns": {encode(list(self.patterns))}, '))
        paid_key = ("payments_json", self.pays)
        paid: bytes | None = memo.get(paid_key)
        if paid is None:
            a, b, c = self.pays
            paid = memo.keep(paid_key, f'"payments": {{"next": {a}, "opposite": {b}, "previous": {c}}}, "total": {a + b + c}, '.encode())
        explained = self.explanation
        parts = [head, f'{hand_json(self.hand)}, "value": {self.value}, "items": ['.encode(), explained.items_json(), found, paid,
                 utf8(explained.tail_json())]
        if self.liability is not None:
            parts.append(utf8(f', "liability": {self.liability}'))
        parts.append(b"}")
        return b"".join(parts)

    def to_json(self) -> str:
        """`json_bytes` as text."""
        return self.json_bytes().decode("utf-8")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.to_json())
        return data


def stamped(rs: Any, hand: Hand, value: int, patterns: tuple[str, ...], pays: tuple[int, int, int], explanation: Explanation) -> ScoreResult:
    """A ScoreResult stamped with its ruleset's (`rs`) name, version and title; the pieces of its JSON
    are kept on the ruleset (`rs.memo`)."""
    memo: Memo = rs.memo
    stamp: tuple[str, str, tuple[str, str]] | None = memo.get("stamp")
    if stamp is None:
        stamp = memo.keep("stamp", (rs.name, rs.version, (rs.title.zh, rs.title.en)))
    name, version, title = stamp
    return ScoreResult(name, version, title, hand, value, patterns, pays, explanation, memo)


def pays_of(payments: dict[Seat, int]) -> tuple[int, int, int]:
    """Payments next, opposite, previous as a tuple."""
    return payments["next"], payments["opposite"], payments["previous"]
