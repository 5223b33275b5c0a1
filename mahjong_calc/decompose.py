"""Split concealed tiles into a pair plus sets, find waits, place the winning tile.

Everything here works on 34-int count tuples and is memoised on them, so a batch
that sees the same shapes again pays for the search once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from .hand import Hand
from .tiles import NUM_TILES, format_tiles, is_honour, tile_str

SetKind = Literal["pung", "kong", "chow"]


@dataclass(frozen=True)
class TileSet:
    """One set of a winning hand: from the concealed tiles, or a declared meld."""

    kind: SetKind
    first: int
    declared: bool = False
    concealed: bool = True

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == "chow":
            return (self.first, self.first + 1, self.first + 2)
        return (self.first,) * (4 if self.kind == "kong" else 3)

    def notation(self) -> str:
        text = format_tiles(self.tiles)
        if not self.declared:
            return text
        return f"[{text}]" if not self.concealed else f"[{text} concealed]"


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
            "pair": format_tiles((self.pair, self.pair)),
            "sets": [s.notation() for s in self.sets],
            "win_in": "pair" if win_set is None else win_set.notation(),
        }

    def text(self) -> str:
        parts = [format_tiles((self.pair, self.pair))] + [s.notation() for s in self.sets]
        return " ".join(parts)


Split = tuple[int, tuple[tuple[SetKind, int], ...]]  # (pair tile, ((kind, first tile), ...))


def _sets_only(counts: list[int], start: int) -> list[tuple[tuple[SetKind, int], ...]]:
    """All ways to cut `counts` (tiles from `start` on) into pungs and chows."""
    i = start
    while i < NUM_TILES and counts[i] == 0:
        i += 1
    if i == NUM_TILES:
        return [()]
    found: list[tuple[tuple[SetKind, int], ...]] = []
    if counts[i] >= 3:
        counts[i] -= 3
        found += [(("pung", i),) + rest for rest in _sets_only(counts, i)]
        counts[i] += 3
    if not is_honour(i) and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for j in (i, i + 1, i + 2):
            counts[j] -= 1
        found += [(("chow", i),) + rest for rest in _sets_only(counts, i)]
        for j in (i, i + 1, i + 2):
            counts[j] += 1
    return found


@lru_cache(maxsize=65536)
def splits(counts: tuple[int, ...]) -> tuple[Split, ...]:
    """Every pair + sets split of the concealed tiles (count tuple of 34)."""
    if sum(counts) % 3 != 2:
        return ()
    work = list(counts)
    out: list[Split] = []
    for pair in range(NUM_TILES):
        if work[pair] >= 2:
            work[pair] -= 2
            out += [(pair, sets) for sets in _sets_only(work, 0)]
            work[pair] += 2
    return tuple(out)


@lru_cache(maxsize=65536)
def waits(counts13: tuple[int, ...], held: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """Tiles that complete `counts13` into pair + sets.

    `held` counts every tile the player holds (melds included); a tile of which all
    four copies are already held cannot be waited on.
    """
    held = held or counts13
    out: list[int] = []
    work = list(counts13)
    for t in range(NUM_TILES):
        if held[t] >= 4 or not _near(work, t):
            continue
        work[t] += 1
        if splits(tuple(work)):
            out.append(t)
        work[t] -= 1
    return tuple(out)


def _near(counts: list[int], t: int) -> bool:
    """Only a tile next to (or equal to) a held tile can complete a set or pair."""
    if counts[t]:
        return True
    if is_honour(t):
        return False
    pos = t % 9
    return any(counts[t + d] for d in (-2, -1, 1, 2) if 0 <= pos + d <= 8)


def meld_sets(hand: Hand) -> tuple[TileSet, ...]:
    return tuple(TileSet(m.kind, m.first, declared=True, concealed=m.concealed) for m in hand.melds)


def arrangements(hand: Hand) -> list[Arrangement]:
    """Every (split, winning-tile position) of a standard hand; empty if none."""
    counts = [0] * NUM_TILES
    for t in hand.concealed:
        counts[t] += 1
    melds = meld_sets(hand)
    win = hand.win_tile
    out: list[Arrangement] = []
    for pair, raw in splits(tuple(counts)):
        sets = tuple(TileSet(kind, first) for kind, first in raw) + melds
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


def waits_before_win(hand: Hand) -> tuple[int, ...]:
    """The waits of the 13 tiles that stood before the winning tile arrived."""
    counts = [0] * NUM_TILES
    for t in hand.concealed:
        counts[t] += 1
    counts[hand.win_tile] -= 1
    held = list(hand_counts(hand))
    held[hand.win_tile] -= 1
    return waits(tuple(counts), tuple(held))


def describe_waits(tiles: tuple[int, ...]) -> list[str]:
    return [tile_str(t) for t in tiles]
