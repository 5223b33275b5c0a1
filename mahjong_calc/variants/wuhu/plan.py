"""Wuhu shanten (向听): a pair and four sets, with 八支 (one suit holding `min_zhi` tiles, melds
included) and Wuhu's tile set (the three suits and 红中).

八支 is a condition on how many tiles of each suit the target holds, and a target of `m`
sets and `p` pairs in a suit holds 3m + 2p of its tiles: so the distance is exact as the
best of three goals, one per suit that is to be 八支, that suit limited to targets holding
`min_zhi` less its melded tiles.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.context import WinContext
from ...core.errors import NotAWin
from ...core.hand import Meld
from ...rules.ruleset import Ruleset
from ..common.goals import FREE, Goal, Limit, melded
from ..common.plan import Plan


class WuhuPlan(Plan):
    def __init__(self, melds: Sequence[Meld], rs: Ruleset[Any, Any, Any]) -> None:
        fixed = melded(melds, rs.tiles)
        super().__init__(fixed.size)
        need: int = rs.numbers.min_zhi
        self.need = need
        self._goals: list[Goal] = []
        for suit in range(3):
            limits: list[Limit] = [FREE, FREE, FREE, FREE]
            limits[suit] = (need - fixed.suit_tiles[suit], 0, 0)
            self._goals.append(Goal(fixed.avail, fixed.sets, 1, fixed.size,
                                    limits=(limits[0], limits[1], limits[2], limits[3])))

    def goals(self, counts: Sequence[int]) -> list[Goal]:
        return self._goals

    def unreachable(self) -> NotAWin:
        return NotAWin("no_ba_zhi", "with these melds no suit can reach 八支 ({need} tiles; advise does not count kongs declared later)",
                       need=self.need)


def plan(melds: Sequence[Meld], ctx: WinContext, rs: Ruleset[Any, Any, Any]) -> Plan:
    """The targets of a Wuhu hand with these melds."""
    return WuhuPlan(melds, rs)
