"""A hand's sets as objects: TileSet, Arrangement, and the splits and arrangements of a Hand.

The search itself, suit by suit and in set codes (`kind * 34 + first tile`), is suits.py's;
this module names its sets for the explain step, the advice and the full path.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from typing import Final, Literal

from .hand import Hand
from .suits import CHOW_CODE as CHOW_CODE
from .suits import KONG_CODE as KONG_CODE
from .suits import PUNG_CODE as PUNG_CODE
from .suits import clear_suits, split_codes
from .tiles import NUM_TILES, format_tiles

SetKind = Literal["pung", "kong", "chow"]


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

    def notation(self) -> str:
        return self._notation

    @cached_property
    def _notation(self) -> str:
        text = format_tiles(self.tiles)
        if not self.declared:
            return text
        return f"[{text}]" if not self.concealed else f"[{text} concealed]"


@cache  # at most 3 kinds x 34 tiles x 2 x 2 flags
def _tile_set(kind: SetKind, first: int, declared: bool = False, concealed: bool = True) -> TileSet:
    """A shared TileSet (they are immutable), so its tiles and notation are worked out once."""
    return TileSet(kind, first, declared, concealed)


@cache  # 34 tiles
def _pair_text(tile: int) -> str:
    return format_tiles((tile, tile))


@dataclass(frozen=True)
class Arrangement:
    """A pair, four sets (concealed first, then melds) and where the winning tile sits."""

    pair: int
    sets: tuple[TileSet, ...]
    win_in: int  # index into `sets`, or -1 when the winning tile completed the pair

    @property
    def win_set(self) -> TileSet | None:
        return None if self.win_in < 0 else self.sets[self.win_in]

    def to_dict(self) -> dict[str, object]:
        win_set = self.win_set
        return {
            "pair": _pair_text(self.pair),
            "sets": [s.notation() for s in self.sets],
            "win_in": "pair" if win_set is None else win_set.notation(),
        }

    def text(self) -> str:
        parts = [_pair_text(self.pair)] + [s.notation() for s in self.sets]
        return " ".join(parts)


Split = tuple[int, tuple[tuple[SetKind, int], ...]]  # (pair tile, ((kind, first tile), ...))


_KIND_CODES: Final[dict[str, int]] = {"pung": PUNG_CODE, "chow": CHOW_CODE, "kong": KONG_CODE}
CODE_KINDS: Final[tuple[SetKind, ...]] = ("pung", "chow", "kong")  # a set code's kind (code // 34)


@lru_cache(maxsize=4096)
def splits(counts: tuple[int, ...]) -> tuple[Split, ...]:
    """Every pair + sets split of the concealed tiles (count tuple of 34): `split_codes` with
    each set as (kind, first tile), in the same order."""
    return tuple((pair, tuple([(CODE_KINDS[c // 34], c % 34) for c in codes])) for pair, codes in split_codes(counts))


def clear_tables() -> None:
    """Forget every memoised suit and hand (to time a cold start)."""
    clear_suits()
    splits.cache_clear()


def meld_sets(hand: Hand) -> tuple[TileSet, ...]:
    return tuple(_tile_set(m.kind, m.first, True, m.concealed) for m in hand.melds)


def arrangements(hand: Hand) -> list[Arrangement]:
    """Every (split, winning-tile position) of a standard hand; empty if none."""
    counts = [0] * NUM_TILES
    for t in hand.concealed:
        counts[t] += 1
    melds = meld_sets(hand)
    win = hand.win_tile
    out: list[Arrangement] = []
    for pair, raw in splits(tuple(counts)):
        sets = tuple(_tile_set(kind, first) for kind, first in raw) + melds
        seen: set[TileSet] = set()
        if pair == win:
            out.append(Arrangement(pair, sets, -1))
        for index, s in enumerate(sets[: len(raw)]):
            if win in s.tiles and s not in seen:
                seen.add(s)
                out.append(Arrangement(pair, sets, index))
    return out


def hand_counts(hand: Hand) -> tuple[int, ...]:
    """Counts of every tile the player holds, melds included (kongs count 4)."""
    counts = [0] * NUM_TILES
    for t in hand.all_tiles:
        counts[t] += 1
    return tuple(counts)


# --- the same splits as set codes, for the variants' kernels -------------------------------

def set_code(kind: str, first: int) -> int:
    """A set (or meld) as one int: `kind * 34 + first tile`."""
    return _KIND_CODES[kind] * 34 + first


def kernel_input(hand: Hand) -> tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...]]:
    """A hand as the kernels take it: the concealed tiles' counts, each meld's set code, and
    which melds are concealed kongs."""
    counts = [0] * 34
    for t in hand.concealed:
        counts[t] += 1
    return tuple(counts), tuple([set_code(m.kind, m.first) for m in hand.melds]), tuple([m.concealed for m in hand.melds])


def code_arrangement(melds: tuple[TileSet, ...], pair: int, codes: tuple[int, ...], win_in: int) -> Arrangement:
    """A kernel's (pair, set codes, win_in) as an Arrangement: concealed sets from their codes, then `melds`."""
    concealed = tuple([_tile_set(CODE_KINDS[c // 34], c % 34) for c in codes[: len(codes) - len(melds)]])
    return Arrangement(pair, concealed + melds, win_in)
