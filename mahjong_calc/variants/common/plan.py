"""A variant's targets for one hand: its goals (common/goals.py), the targets that are not
goals, and the distance after each possible draw. Kept apart from goals.py, which mypyc
compiles: a variant's plan subclasses `Plan`, and a compiled class cannot be subclassed."""

from __future__ import annotations

from collections.abc import Sequence

from ...core.errors import NotAWin
from .goals import FAR, Goal, floor


class Plan:
    """A variant's targets for one hand's melds: `goals(counts)` and what is not a goal
    (`extra`: 七对, the thirteen-style shapes, 三财神), and the tiles whose draw changes the
    goals themselves (`direct`: the wild, a 白板 that may play as it)."""

    direct: frozenset[int] = frozenset()

    def __init__(self, size: int) -> None:
        self.size = size

    def goals(self, counts: Sequence[int]) -> list[Goal]:
        raise NotImplementedError

    def unreachable(self) -> NotAWin:
        """Why no target fits (a distance of FAR): the code of the rule that stops every one, and
        its words. Kongs declared later are outside the targets (a pair and four sets)."""
        return NotAWin("not_a_winning_hand", "no hand these rules let win can be made with these melds (advise does not count kongs declared later)")

    def most_held(self, tile: int) -> int:
        """The most copies of `tile` a hand may hold, melds counted: 4, unless a rule of the
        variant's says fewer (the scorer's own rule, so that no draw is offered that it refuses)."""
        return 4

    def extra(self, counts: Sequence[int], beat: int) -> int:
        """The distance of the targets that are not goals, when it may come under `beat` (else FAR)."""
        return FAR

    def extra_drawn(self, counts: Sequence[int], beat: int) -> int:
        """`extra` after a draw that is not `direct` (a variant may leave out what such a draw cannot change)."""
        return self.extra(counts, beat)

    def extra_lacking(self, counts: Sequence[int], base: int) -> int:
        """The tiles (bit t) whose draw, not `direct`, brings `extra_drawn` under `base` (by trying each)."""
        out = 0
        work = list(counts)
        for t in range(len(work)):
            work[t] += 1
            if self.extra_drawn(work, base) < base:
                out |= 1 << t
            work[t] -= 1
        return out

    def far(self, counts: Sequence[int]) -> int:
        goals = self.goals(counts)
        best = min((g.far(counts) for g in goals), default=FAR)
        best = min(best, self.extra(counts, best))
        return max(best, floor(counts, self.size))

    def after_draws(self, counts: Sequence[int], draws: Sequence[int]) -> tuple[int, list[int]]:
        """The distance of `counts`, and after drawing each of `draws`: one less where the draw
        lowers it, and otherwise not below it (which is all a caller may ask)."""
        goals = self.goals(counts)
        each = [g.far(counts) for g in goals]
        best = min(each, default=FAR)
        extra = self.extra(counts, best + 1)
        base = max(min(best, extra), floor(counts, self.size))
        useful = 0
        if extra <= base and self.extra_drawn(counts, base + 1) <= base:
            useful = self.extra_lacking(counts, base)
        for goal, d in zip(goals, each):
            if d == base:  # a draw lowers a distance by one at most: only a goal at `base` can lead
                useful |= goal.lacking(counts)[1]
        out: list[int] = []
        work = list(counts)
        for t in draws:
            work[t] += 1
            if t in self.direct:
                value = self.far(work)
            elif useful >> t & 1:
                value = base - 1
            else:
                value = base
            out.append(max(value, floor(work, self.size)))
            work[t] -= 1
        return base, out
