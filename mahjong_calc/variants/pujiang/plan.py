"""Pujiang shanten (向听): the shapes a self-drawn Pujiang hand may take, with the 财神.

- a pair and four sets with at least `min_pungs` pungs or kongs (melds count); a hand that
  keeps a wild needs a 番: 全碰子 (all pungs, wilds only in the pair), or 财神头 (a held wild
  pairs the natural tile drawn last, or two wilds are the pair);
- 七对 (no melds; with a wild it must be 财神吊头), 真13/真真13 (no melds), and 三财神 (all
  the wilds in hand, whatever else it holds).

A wild (`--wild`) stands for any tile: a target keeps the natural tiles it shares with the
hand, and the held wilds fill as many of its gaps as there are wilds. The wilds may also be
let go (a target with none needs no 番). A 白板 may play as the wild's face
(`white_as_wild_face`), so each choice of how many held ones do is tried, and a target may
lack the wild's face as long as a 白板 is left to draw for it (a drawn 白板 plays it as well
as a held one; there is no natural copy of the wild's face).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.context import WinContext
from ...core.hand import Meld
from ...core.tiles import WHITE
from ...rules.ruleset import Ruleset
from ..common.goals import FAR, Goal, melded, seven_pairs_gain, seven_pairs_kept, thirteen_gain, thirteen_kept
from ..common.plan import Plan
from .score import most_wilds_held


class PujiangPlan(Plan):
    def __init__(self, melds: Sequence[Meld], ctx: WinContext, rs: Ruleset[Any, Any, Any]) -> None:
        fixed = melded(melds, rs.tiles)
        super().__init__(fixed.size)
        self.fixed = fixed
        self.rs = rs
        self.wild = ctx.wild
        self.melds = tuple(melds)
        self.need = max(int(rs.numbers.min_pungs) - len(melds), 0)  # every Pujiang meld is a pung or kong
        self.swaps = self.wild is not None and self.wild != WHITE and bool(rs.options.white_as_wild_face)
        self.direct = frozenset(() if self.wild is None else (self.wild, WHITE) if self.swaps else (self.wild,))
        # the wilds the concealed tiles may hold: the scorer's limit, less the copies in the melds
        in_melds = sum(1 for m in melds for t in m.tiles if t == self.wild)
        self.wild_room = 0 if self.wild is None else max(min(most_wilds_held(rs) - in_melds, fixed.avail[self.wild]), 0)
        self._cache: dict[tuple[int, int], list[Goal]] = {}

    def most_held(self, tile: int) -> int:
        return most_wilds_held(self.rs) if tile == self.wild else 4

    def _choices(self, counts: Sequence[int]) -> list[tuple[int, int]]:
        """(held, drawn): how many held 白板 play as the wild's face, and how many more a target
        may draw to play it; every 白板 playing the face is one fewer as itself. Drawn ones
        come only once every held one plays it (a held 白板 is as good as a drawn one), and
        then all that are left may: a target drawing 白板 both as the face and as themselves
        is never needed, since those as themselves make a set or pair holding no held tile,
        which another untouched tile makes as well."""
        if not self.swaps:
            return [(0, 0)]
        held = counts[WHITE]
        spare = max(self.fixed.avail[WHITE] - held, 0)
        return [(k, 0) for k in range(held + 1)] + ([(held, spare)] if spare else [])

    def goals(self, counts: Sequence[int]) -> list[Goal]:
        jokers = counts[self.wild] if self.wild is not None else 0
        whites = counts[WHITE] if self.swaps else 0
        key = (jokers, whites)
        if key not in self._cache:
            self._cache[key] = [g for k, drawn in self._choices(counts) for g in self._goals(jokers, k, drawn)]
        return self._cache[key]

    def _avail(self, faces: int, jokers_fill: bool) -> tuple[int, ...]:
        """Copies a target may hold; the wild's face only as a 白板 playing it (`faces` of them,
        held or drawn), or filled by wilds; 白板 as itself, those left."""
        avail = list(self.fixed.avail)
        if self.wild is not None:
            avail[self.wild] = min(4, self.wild_room + faces) if jokers_fill else faces
            if self.swaps:
                avail[WHITE] = max(self.fixed.avail[WHITE] - faces, 0)
        return tuple(avail)

    def _goals(self, jokers: int, whites: int, drawn: int = 0) -> list[Goal]:
        fixed, need, wild = self.fixed, self.need, self.wild
        size, sets = fixed.size, fixed.sets
        natural = self._avail(whites + drawn, False)
        # the wilds let go (or none): no 番 needed
        out = [Goal(natural, sets, 1, size, pungs=need, wild=wild, whites=whites)]
        if wild is None:
            return out
        patterns = self.rs.patterns
        if "quan_peng_zi" in patterns:  # all pungs of natural tiles, the wilds in the pair
            # with too few wilds held, the wilds still to draw are draws too: the pair a wild
            # completes may be of a tile with no copy left (`1111m` and a wild: 111m + 1m 财神)
            left = max(self.wild_room - jokers, 0)
            if jokers + left >= 2:
                out.append(Goal(natural, sets, 0, 3 * sets, add=max(2 - jokers, 0), chows=False, wild=wild, whites=whites))
            if jokers <= 1 and jokers + left >= 1:
                out.append(Goal(natural, sets, 1, 3 * sets + 1, add=1 - jokers, pair_keep=1, chows=False, wild=wild, whites=whites))
        if "cai_shen_tou" in patterns:
            filled = self._avail(whites + drawn, True)
            # 财神头: a held wild waits in the pair for the tile drawn last (drawing the wild last is not 财神头)
            out.append(Goal(filled, sets, 0, 3 * sets + 1 - jokers, add=1, pungs=need, wild=wild, whites=whites))
            if self.rs.options.two_wilds_pair_is_cai_shen_tou:
                out.append(Goal(filled, sets, 0, size - jokers, pungs=need, wild=wild, whites=whites))
        return out

    def extra(self, counts: Sequence[int], beat: int) -> int:
        wild = self.wild
        jokers = counts[wild] if wild is not None else 0
        best = self.extra_drawn(counts, beat)
        if wild is not None and "san_cai_shen" in self.rs.patterns:
            best = min(best, max(int(self.rs.numbers.wild_copies) - jokers, 0))
        return best

    def extra_drawn(self, counts: Sequence[int], beat: int) -> int:
        """七对 and the thirteen-style shapes: 三财神 changes only when a wild is drawn."""
        wild = self.wild
        jokers = counts[wild] if wild is not None else 0
        best = FAR
        if self.melds:
            return best
        for k, drawn in self._choices(counts):
            faces = list(counts)
            if wild is not None:
                faces[wild] = k
                faces[WHITE] -= k
            best = min(best, self._special(faces, jokers, k, drawn, min(best, beat)))
        return best

    def extra_lacking(self, counts: Sequence[int], base: int) -> int:
        """The tiles whose draw brings 七对 or a thirteen-style shape under `base`."""
        if self.melds:
            return 0
        wild = self.wild
        jokers = counts[wild] if wild is not None else 0
        out = 0
        for k, drawn in self._choices(counts):
            faces = list(counts)
            if wild is not None:
                faces[wild] = k
                faces[WHITE] -= k
            out |= self._special(faces, jokers, k, drawn, base + 1, base)
        return out

    def _special(self, faces: list[int], jokers: int, whites: int, drawn: int, beat: int, lacking: int = -1) -> int:
        """七对 and the thirteen-style shapes (a hand without melds), when one may come under
        `beat`; with `lacking` set to a distance, the tiles whose draw brings one under it.
        `whites` held 白板 and `drawn` ones to come play the wild's face."""
        rs, wild = self.rs, self.wild
        gain = 0
        num, opt = rs.numbers, rs.options
        full = [4] * len(faces)
        best = FAR
        four = bool(opt.qi_dui_four_as_two_pairs)
        if "qi_dui" in rs.patterns:
            plain = list(full)
            if wild is not None:
                plain[wild] = whites + drawn
                if self.swaps:
                    plain[WHITE] = 4 - whites - drawn
            kept = seven_pairs_kept(faces, plain, four)
            if kept >= 0:
                best = 14 - kept
                if best == lacking:
                    gain |= seven_pairs_gain(faces, plain, four, 7, kept)
            if jokers:  # 财神吊头: a held wild pairs the tile drawn last
                kept6 = seven_pairs_kept(faces, full, four, 6)
                if kept6 >= 0:
                    best = min(best, 1 + max(13 - jokers - kept6, 0))
                    if 1 + max(13 - jokers - kept6, 0) == lacking and 13 - jokers - kept6 > 0:
                        gain |= seven_pairs_gain(faces, full, four, 6, kept6)
        different = sum(1 for n in faces if n)
        if ("zhen_13" in rs.patterns or "zhen_zhen_13" in rs.patterns) and 14 - different - jokers < (beat if lacking >= 0 else min(best, beat)):
            avail = list(full)
            if wild is not None:
                avail[wild] = max(whites, 1)
            shape = (bool(opt.zhen_13_wide_gaps), int(num.zhen_13_min_honours), int(num.zhen_zhen_13_honours))
            kept = thirteen_kept(faces, avail, jokers, *shape)
            if kept >= 0:
                best = min(best, 14 - kept)
                if 14 - kept == lacking:
                    gain |= thirteen_gain(faces, avail, jokers, *shape, kept)
        return gain if lacking >= 0 else best


def plan(melds: Sequence[Meld], ctx: WinContext, rs: Ruleset[Any, Any, Any]) -> Plan:
    """The targets of a self-drawn Pujiang win with these melds and this 财神."""
    return PujiangPlan(melds, ctx, rs)
