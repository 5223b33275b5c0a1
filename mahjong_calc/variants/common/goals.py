"""What the variants' shanten (向听) share: the facts of the melds, the four group tables,
and how many held tiles a seven-pairs or thirteen-style target keeps.

A variant's `plan.py` gives `plan(melds, ctx, rs)`, a `plan.Plan` whose goals (`Goal`
below, one kind of target each) give the distance of the concealed tiles' counts: the fewest
tiles still to draw before the hand wins by self-draw under that variant's rules (0: 14
tiles that already win; 1: 13 tiles that are 听牌). The shanten of 13 tiles is their
distance less one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, pairwise
from typing import Final

from ...core.hand import Meld
from ...core.shanten import Entry, combine, group_table, kept_index, merged
from ...core.tiles import NUM_TILES, WHITE, is_honour
from ...rules.schema import Tiles, tile_in_variant

FAR: Final = 99  # no target fits: the melds rule every one out (`Plan.unreachable` says why)
GROUPS: Final = ((0, 9, True), (9, 18, True), (18, 27, True), (27, NUM_TILES, False))  # first, end, chows


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


def seven_pairs_gain(counts: Sequence[int], avail: Sequence[int], four_as_two: bool, pairs: int, kept: int) -> int:
    """The tiles (bit t) whose draw makes `pairs` pairs keep more than `kept`."""
    out = 0
    work = list(counts)
    for t in range(NUM_TILES):
        if work[t] < avail[t]:
            work[t] += 1
            if seven_pairs_kept(work, avail, four_as_two, pairs) > kept:
                out |= 1 << t
            work[t] -= 1
    return out


def _wide(offsets: tuple[int, ...]) -> bool:
    return all(b - a >= 3 for a, b in pairwise(offsets))


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


@lru_cache(maxsize=4096)
def _thirteen_suit(held: int, room: int, wide_gaps: bool) -> tuple[tuple[int, ...], int]:
    """For one suit (bit o: offset o held; `room`: offsets a target may use): the most held
    tiles kept by each size of thirteen-style part, and by a full 147/258/369 (-1: none)."""
    best = [-1] * 4
    best_full = -1
    for combo in thirteen_sets(wide_gaps):
        if any(not room >> o & 1 for o in combo):
            continue
        kept = sum(held >> o & 1 for o in combo)
        best[len(combo)] = max(best[len(combo)], kept)
        if combo in ((0, 3, 6), (1, 4, 7), (2, 5, 8)):
            best_full = max(best_full, kept)
    return tuple(best), best_full


def thirteen_gain(counts: Sequence[int], avail: Sequence[int], wilds: int, wide_gaps: bool,
                  min_honours: int, full_honours: int, kept: int) -> int:
    """The tiles (bit t) whose draw makes a thirteen-style target keep more than `kept`
    (only a tile not held yet can: the target's tiles all differ)."""
    out = 0
    work = list(counts)
    for t in range(NUM_TILES):
        if work[t] == 0 and avail[t] >= 1:
            work[t] = 1
            if thirteen_kept(work, avail, wilds, wide_gaps, min_honours, full_honours) > kept:
                out |= 1 << t
            work[t] = 0
    return out


def thirteen_kept(counts: Sequence[int], avail: Sequence[int], wilds: int, wide_gaps: bool,
                  min_honours: int, full_honours: int) -> int:
    """The most tiles a thirteen-style target keeps: 14 different tiles, each suit's within
    `thirteen_sets`, at least `min_honours` honours (or exactly `full_honours` with a full
    147/258/369 in every suit); wilds fill suited tiles only. -1 when none fits."""
    per_suit: list[tuple[int, ...]] = []  # [suit][size] -> most held tiles kept
    full: list[int] = []
    for s in range(3):
        mask = sum(1 << o for o in range(9) if counts[s * 9 + o] and avail[s * 9 + o])
        room = sum(1 << o for o in range(9) if avail[s * 9 + o])
        best, best_full = _thirteen_suit(mask, room, wide_gaps)
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


# --- goals: one kind of target, and the distance after each possible draw -------------

Limit = tuple[int, int, int]  # (least tiles the group holds, least sets, 1: must hold tiles / -1: must hold none / 0)
FREE: Final[Limit] = (0, 0, 0)


@lru_cache(maxsize=65536)
def limited(table: tuple[Entry, ...], limit: Limit) -> tuple[Entry, ...]:
    """The targets of a group table that keep within `limit`."""
    if limit == FREE:
        return table
    size, sets, held = limit
    return tuple(e for e in table if 3 * e[0] + 2 * e[1] >= size and e[0] >= sets
                 and (held == 0 or (held > 0) == bool(e[0] or e[1])))


@dataclass(frozen=True)
class Goal:
    """One kind of target: `sets` sets and `pairs` pairs (at least `pungs` pungs) over the
    groups, each group within its limit; its distance is `add + max(base - kept, 0)`.

    `wild` and `whites`: the counts are read with the wild's copies taken out (they fill gaps,
    which `base` accounts for) and `whites` 白板 playing as the wild's face.
    """

    avail: tuple[int, ...]
    sets: int
    pairs: int
    base: int
    add: int = 0
    pungs: int = 0
    pair_keep: int = 2
    chows: bool = True
    limits: tuple[Limit, Limit, Limit, Limit] = (FREE, FREE, FREE, FREE)
    wild: int | None = None
    whites: int = 0

    def faces(self, counts: Sequence[int]) -> list[int]:
        out = list(counts)
        if self.wild is not None:
            out[self.wild] = self.whites
            out[WHITE] -= self.whites
        return out

    def table(self, g: int, part: tuple[int, ...]) -> tuple[Entry, ...]:
        a, b, suited = GROUPS[g]
        found = group_table(part, self.avail[a:b], self.chows and suited, self.pair_keep, self.sets, self.pungs)
        limit = self.limits[g]
        return found if limit == FREE else limited(found, limit)  # FREE before hashing the whole table

    def tables(self, faces: Sequence[int]) -> list[tuple[Entry, ...]]:
        return [self.table(g, tuple(faces[a:b])) for g, (a, b, _) in enumerate(GROUPS)]

    def distance(self, kept: int) -> int:
        return FAR if kept < 0 else self.add + max(self.base - kept, 0)

    def far(self, counts: Sequence[int]) -> int:
        return self.distance(combine(self.tables(self.faces(counts)), self.sets, self.pairs, self.pungs))

    def lacking(self, counts: Sequence[int]) -> tuple[int, int]:
        """The distance, and the tiles (bit t for tile t) whose draw lowers it: those that some
        best target lacks (none when more kept tiles would not bring the goal closer)."""
        tables = self.tables(self.faces(counts))
        kept = combine(tables, self.sets, self.pairs, self.pungs)
        if kept < 0 or kept >= self.base:
            return self.distance(kept), 0
        useful = 0
        for g in range(4):
            others = [tables[h] for h in range(4) if h != g]
            index = kept_index(merged(merged(others[0], others[1], self.sets, self.pungs), others[2], self.sets, self.pungs), self.pungs)
            first = GROUPS[g][0]
            for e in tables[g]:
                m, p = self.sets - e[0], self.pairs - e[1]
                other = index.get(m << 4 | p << 3 | max(self.pungs - e[2], 0), -1) if m >= 0 and p >= 0 else -1
                if other >= 0 and other + e[3] == kept:
                    useful |= e[4] << first
        return self.distance(kept), useful

