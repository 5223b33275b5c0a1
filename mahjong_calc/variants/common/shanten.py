"""What the variants' shanten (向听) share: the facts of the melds, the four group tables,
and how many held tiles a seven-pairs or thirteen-style target keeps.

A variant's `shanten.py` gives `distance(melds, ctx, rs)`: a function from the concealed
tiles' counts to the fewest tiles still to draw before the hand wins by self-draw under
that variant's rules (0: 14 tiles that already win; 1: 13 tiles that are 听牌). The shanten
of 13 tiles is their distance less one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from ...core.hand import Meld
from ...core.shanten import Entry, group_table
from ...core.tiles import NUM_TILES, is_honour
from ...rules.schema import Tiles, tile_in_variant

Distance = Callable[[tuple[int, ...]], int]
FAR = 99  # no target fits (never reached with the shipped tile sets)
GROUPS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, NUM_TILES, False))  # first, end, chows


@dataclass(frozen=True)
class Melded:
    """What the declared melds fix for every target of one hand."""

    sets: int  # sets the concealed tiles must still make
    size: int  # concealed tiles of a winning hand: 14, 3 fewer per meld
    avail: tuple[int, ...]  # copies of each tile a target may hold: 4 less the melded, 0 outside the tile set
    suit_tiles: tuple[int, int, int]  # tiles of each suit in the melds (a kong counts 4)
    melds: tuple[Meld, ...]


def melded(melds: Sequence[Meld], tiles: Tiles) -> Melded:
    avail = [4 if tile_in_variant(t, tiles) else 0 for t in range(NUM_TILES)]
    suit_tiles = [0, 0, 0]
    for m in melds:
        for t in m.tiles:
            avail[t] -= 1
            if not is_honour(t):
                suit_tiles[t // 9] += 1
    return Melded(4 - len(melds), 14 - 3 * len(melds), tuple(max(a, 0) for a in avail),
                  (suit_tiles[0], suit_tiles[1], suit_tiles[2]), tuple(melds))


def tables(counts: Sequence[int], avail: Sequence[int], sets: int, pair_keep: int = 2, pungs: int = 0,
           chows: bool = True) -> list[tuple[Entry, ...]]:
    """The group tables of m, p, s and the honours: at most `sets` sets, pungs counted up to
    `pungs`; `chows=False` for targets of pungs only."""
    return [group_table(tuple(counts[a:b]), tuple(avail[a:b]), chows and suited, pair_keep, sets, pungs)
            for a, b, suited in GROUPS]


def floor(counts: Sequence[int], size: int) -> int:
    """The least a distance can be: 1 for the 13 tiles before a draw, 0 for 14."""
    return max(size - sum(counts), 0)


def pair_slots(counts: Sequence[int], avail: Sequence[int], four_as_two: bool) -> list[int]:
    """Held tiles each possible pair of a seven-pairs target keeps, best first (a tile with
    4 copies gives two pairs when `four_as_two`)."""
    slots: list[int] = []
    for t in range(NUM_TILES):
        if avail[t] >= 2:
            slots.append(min(counts[t], 2))
            if four_as_two and avail[t] >= 4:
                slots.append(min(max(counts[t] - 2, 0), 2))
    slots.sort(reverse=True)
    return slots


def seven_pairs_kept(counts: Sequence[int], avail: Sequence[int], four_as_two: bool, pairs: int = 7) -> int:
    """The most held tiles `pairs` pairs keep (-1 when too few tiles can pair)."""
    slots = pair_slots(counts, avail, four_as_two)
    return sum(slots[:pairs]) if len(slots) >= pairs else -1


def _wide(offsets: tuple[int, ...]) -> bool:
    return all(b - a >= 3 for a, b in zip(offsets, offsets[1:]))


@lru_cache(maxsize=4)
def thirteen_sets(wide_gaps: bool) -> tuple[tuple[int, ...], ...]:
    """The offsets one suit of a thirteen-style hand may hold: a part of 147, 258 or 369,
    or (`wide_gaps`) any tiles at least three apart."""
    found: set[tuple[int, ...]] = set()
    for size in range(4):
        for combo in combinations(range(9), size):
            in_group = any(set(combo) <= {g, g + 3, g + 6} for g in range(3))
            if in_group or (wide_gaps and _wide(combo)):
                found.add(combo)
    return tuple(sorted(found))


def thirteen_kept(counts: Sequence[int], avail: Sequence[int], wilds: int, wide_gaps: bool,
                  min_honours: int, full_honours: int) -> int:
    """The most tiles a thirteen-style target keeps: 14 different tiles, each suit's within
    `thirteen_sets`, at least `min_honours` honours (or exactly `full_honours` with a full
    147/258/369 in every suit); wilds fill suited tiles only. -1 when none fits."""
    per_suit: list[list[int]] = []  # [suit][size] -> most held tiles kept
    full: list[int] = []
    for s in range(3):
        best = [-1] * 4
        best_full = -1
        for combo in thirteen_sets(wide_gaps):
            if any(avail[s * 9 + o] < 1 for o in combo):
                continue
            kept = sum(1 for o in combo if counts[s * 9 + o])
            best[len(combo)] = max(best[len(combo)], kept)
            if len(combo) == 3 and combo in ((0, 3, 6), (1, 4, 7), (2, 5, 8)):
                best_full = max(best_full, kept)
        per_suit.append(best)
        full.append(best_full)
    honours = [t for t in range(27, NUM_TILES) if avail[t] >= 1]
    held_honours = sum(1 for t in honours if counts[t])
    out = -1
    for h in range(len(honours) + 1):
        suited = 14 - h
        kept_h = min(held_honours, h)
        choices: list[int] = []
        if h >= min_honours:
            best_s = -1
            for a in range(4):
                for b in range(4):
                    c = suited - a - b
                    if 0 <= c <= 3 and min(per_suit[0][a], per_suit[1][b], per_suit[2][c]) >= 0:
                        best_s = max(best_s, per_suit[0][a] + per_suit[1][b] + per_suit[2][c])
            choices.append(best_s)
        if h == full_honours and suited == 9 and min(full) >= 0:
            choices.append(sum(full))
        for kept_s in choices:
            if kept_s >= 0:
                out = max(out, kept_h + kept_s + min(wilds, suited - kept_s))
    return out
