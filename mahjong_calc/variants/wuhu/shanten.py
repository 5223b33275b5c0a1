"""Wuhu shanten (向听): a pair and four sets, with 八支 (one suit holding `min_zhi` tiles, melds
included) and Wuhu's tile set (the three suits and 红中).

八支 is a condition on how many tiles of each suit the target holds, and a target of `m`
sets and `p` pairs in a suit holds 3m + 2p of its tiles: so the distance is exact as the
best over the suit that is to be 八支 of the combined tables, that suit's limited to
targets reaching `min_zhi`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.hand import Meld, WinContext
from ...core.shanten import combine
from ...rules.ruleset import Ruleset
from ..common.shanten import FAR, Distance, floor, melded, tables


def distance(melds: Sequence[Meld], ctx: WinContext, rs: Ruleset[Any, Any, Any]) -> Distance:
    """Counts of the concealed tiles -> the fewest tiles to draw before a Wuhu win."""
    fixed = melded(melds, rs.tiles)
    need: int = rs.numbers.min_zhi

    def far(counts: tuple[int, ...]) -> int:
        groups = tables(counts, fixed.avail, fixed.sets)
        best = -1
        for suit in range(3):
            reach = need - fixed.suit_tiles[suit]
            limited = list(groups)
            limited[suit] = tuple(e for e in groups[suit] if 3 * e[0] + 2 * e[1] >= reach)
            best = max(best, combine(limited, fixed.sets, 1))
        if best < 0:
            return FAR
        return max(fixed.size - best, floor(counts, fixed.size))

    return far
