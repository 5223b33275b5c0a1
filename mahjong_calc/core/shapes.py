"""A hand's sets as objects, for the explain step and the advice: TileSet, Arrangement, and
their JSON (the answer's `decomposition`), written once here.

The search itself, suit by suit and in set codes (core/sets.py), is suits.py's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Final, Literal

from . import sets
from .hand import Hand
from .suits import split_codes
from .tiles import NUM_TILES, format_tiles

SetKind = Literal["pung", "kong", "chow"]
CODE_KINDS: Final[tuple[SetKind, ...]] = sets.KINDS  # a set code's kind name, by kind

_encode: Final = json.JSONEncoder(ensure_ascii=False).encode


@dataclass(frozen=True)
class TileSet:
    """One set of a winning hand: from the concealed tiles, or a declared meld."""

    kind: SetKind
    first: int
    declared: bool = False
    concealed: bool = True

    @cached_property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == "chow":
            return (self.first, self.first + 1, self.first + 2)
        return (self.first,) * (4 if self.kind == "kong" else 3)

    @property
    def code(self) -> int:
        return sets.of_name(self.kind, self.first)

    def notation(self) -> str:
        return set_notation(self.code, self.declared, self.concealed)


def set_notation(code: int, declared: bool, concealed: bool) -> str:
    """A set as the decomposition writes it: `123m`, a meld `[555p]`, a concealed kong `[5555p concealed]`."""
    text = format_tiles(sets.tiles_of(code))
    if not declared:
        return text
    return f"[{text}]" if not concealed else f"[{text} concealed]"


@cache  # at most 3 kinds x 34 tiles x 2 x 2 flags
def tile_set(kind: SetKind, first: int, declared: bool = False, concealed: bool = True) -> TileSet:
    """A shared TileSet (they are immutable), so its tiles and notation are worked out once."""
    return TileSet(kind, first, declared, concealed)


def code_set(code: int, declared: bool = False, concealed: bool = True) -> TileSet:
    """The TileSet of a set code."""
    return tile_set(sets.kind_name(code), sets.first_of(code), declared, concealed)


def pair_text(tile: int) -> str:
    return format_tiles((tile, tile))


# a concealed set's notation as JSON (index: its code), then a declared one's (code + N_CODES: exposed,
# code + 2 * N_CODES: a concealed kong); a code that names no real set is never asked for
_SET_JSON: Final[tuple[str, ...]] = tuple(
    _encode(set_notation(code, declared, concealed)) if sets.is_real(code) else ""
    for declared, concealed in ((False, True), (True, False), (True, True))
    for code in range(sets.N_CODES)
)
_PAIR_JSON: Final[tuple[str, ...]] = tuple(_encode(pair_text(t)) for t in range(NUM_TILES))


def decomposition_json(pair: int, codes: tuple[int, ...], win_in: int, melds_concealed: tuple[bool, ...]) -> str:
    """`"decomposition": {"pair": ..., "sets": [...], "win_in": ...}` of a pair and set codes (the concealed
    sets', then the melds', `melds_concealed` marking the concealed kongs), the winning tile in
    `codes[win_in]` (-1: the pair): the one writer of an arrangement's JSON."""
    n = len(codes) - len(melds_concealed)
    shown = [_SET_JSON[codes[i]] for i in range(n)]
    for i in range(len(melds_concealed)):
        shown.append(_SET_JSON[codes[n + i] + (2 * sets.N_CODES if melds_concealed[i] else sets.N_CODES)])
    where = '"pair"' if win_in < 0 else shown[win_in]
    return f'"decomposition": {{"pair": {_PAIR_JSON[pair]}, "sets": [{", ".join(shown)}], "win_in": {where}}}'


@dataclass(frozen=True)
class Arrangement:
    """A pair, four sets (concealed first, then melds) and where the winning tile sits."""

    pair: int
    sets: tuple[TileSet, ...]
    win_in: int  # index into `sets`, or -1 when the winning tile completed the pair

    @property
    def win_set(self) -> TileSet | None:
        return None if self.win_in < 0 else self.sets[self.win_in]

    def to_json(self) -> str:
        """`decomposition_json` of this arrangement, without its key: `{"pair": ..., ...}`."""
        melds = tuple([s.concealed for s in self.sets if s.declared])
        text = decomposition_json(self.pair, tuple([s.code for s in self.sets]), self.win_in, melds)
        return text[len('"decomposition": '):]

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = json.loads(self.to_json())
        return data

    def text(self) -> str:
        parts = [pair_text(self.pair)] + [s.notation() for s in self.sets]
        return " ".join(parts)


def meld_sets(hand: Hand) -> tuple[TileSet, ...]:
    return tuple([code_set(m.code, True, m.concealed) for m in hand.melds])


def code_arrangement(melds: tuple[TileSet, ...], pair: int, codes: tuple[int, ...], win_in: int) -> Arrangement:
    """A kernel's (pair, set codes, win_in) as an Arrangement: concealed sets from their codes, then `melds`."""
    concealed = tuple([code_set(c) for c in codes[: len(codes) - len(melds)]])
    return Arrangement(pair, concealed + melds, win_in)


Split = tuple[int, tuple[tuple[SetKind, int], ...]]  # (pair tile, ((kind, first tile), ...))


def splits(counts: tuple[int, ...]) -> tuple[Split, ...]:
    """Every pair + sets split of the concealed tiles (count tuple of 34): `split_codes` with
    each set as (kind, first tile), in the same order."""
    return tuple((pair, tuple([(sets.kind_name(c), sets.first_of(c)) for c in codes])) for pair, codes in split_codes(counts))


def arrangements(hand: Hand) -> list[Arrangement]:
    """Every (split, winning-tile position) of a standard hand; empty if none."""
    melds = meld_sets(hand)
    win = hand.win_tile
    out: list[Arrangement] = []
    for pair, raw in splits(hand.counts):
        found = tuple(tile_set(kind, first) for kind, first in raw) + melds
        seen: set[TileSet] = set()
        if pair == win:
            out.append(Arrangement(pair, found, -1))
        for index, s in enumerate(found[: len(raw)]):
            if win in s.tiles and s not in seen:
                seen.add(s)
                out.append(Arrangement(pair, found, index))
    return out
