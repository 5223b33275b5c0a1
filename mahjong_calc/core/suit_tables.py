"""Every whole shape of one suit, as a table: whether a suit's counts are sets only, or a pair
plus sets, by one lookup (core/suits.py asks, for its SuitShapes).

A suit's counts are one int, three bits a tile (a count is at most 4, so a 5th copy reads as 5 and
no field carries into the next). The whole shapes of at most 14 tiles (four sets and a pair) are
few, 2,869 sets-only and 18,874 paired keys in a number suit, so each kind is a set of such ints,
made once, when first asked for. Plain typed Python, so that mypyc can compile it.
"""

from __future__ import annotations

from typing import Final

TILE_BITS: Final = 3
MAX_TABLED: Final = 14  # the tiles of the largest shape the tables hold: four sets and a pair
_HIGH_BITS: Final = 0o444444444  # the top bit of each tile's field
_TABLES: Final[list[tuple[frozenset[int], frozenset[int]]]] = []  # number suits', then honours': (sets only, pair plus sets)


def _over_four(key: int) -> bool:
    """Whether some tile of a suit key counts more than 4 (5-7: its top bit and another)."""
    return (key & ((key << 1) | (key << 2)) & _HIGH_BITS) != 0


def _made(tiles: int, chows: bool) -> tuple[frozenset[int], frozenset[int]]:
    """Every suit key that is up to four sets, and every one that is a pair plus up to four sets."""
    shapes = [3 << (TILE_BITS * i) for i in range(tiles)]
    if chows:
        shapes += [0o111 << (TILE_BITS * i) for i in range(tiles - 2)]
    sets_only = [0]
    frontier = [(0, 0)]  # (key, the first shape the next set may be), so that each multiset is made once
    for _ in range(4):
        grown: list[tuple[int, int]] = []
        for key, start in frontier:
            for j in range(start, len(shapes)):
                bigger = key + shapes[j]
                if not _over_four(bigger):
                    sets_only.append(bigger)
                    grown.append((bigger, j))
        frontier = grown
    with_pair: list[int] = []
    for key in sets_only:
        for i in range(tiles):
            if (key >> (TILE_BITS * i)) & 7 <= 2:
                with_pair.append(key + (2 << (TILE_BITS * i)))
    return frozenset(sets_only), frozenset(with_pair)


def whole_shapes(honour: bool, paired: bool) -> frozenset[int]:
    """The keys of the whole shapes of a suit (the honours, or a number suit): sets only, or
    (`paired`) a pair plus sets."""
    if not _TABLES:
        _TABLES.append(_made(9, True))
        _TABLES.append(_made(7, False))
    tables = _TABLES[1 if honour else 0]
    return tables[1] if paired else tables[0]
