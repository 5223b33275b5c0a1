"""Pujiang shanten (向听): the shapes a self-drawn Pujiang hand may take, with the 财神.

- a pair and four sets with at least `min_pungs` pungs or kongs (melds count); a hand that
  keeps a wild needs a 番: 全碰子 (all pungs, wilds only in the pair), or 财神头 (a wild in the
  pair with the winning tile, or two wilds as the pair);
- 七对 (no melds; with a wild it must be 财神吊头), 真13/真真13 (no melds), and 三财神 (all
  the wilds in hand, whatever else it holds).

A wild (`--wild`) stands for any tile: a target keeps the natural tiles it shares with the
hand, and the held wilds fill as many of its gaps as there are wilds. The wilds may also be
let go (a target with none needs no 番). A 白板 may play as the wild's face
(`white_as_wild_face`), so each choice of how many do is tried.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.hand import Meld, WinContext
from ...core.shanten import combine
from ...core.tiles import WHITE
from ...rules.ruleset import Ruleset
from ..common.shanten import FAR, Distance, Melded, floor, melded, seven_pairs_kept, tables, thirteen_kept


def distance(melds: Sequence[Meld], ctx: WinContext, rs: Ruleset[Any, Any, Any]) -> Distance:
    """Counts of the concealed tiles -> the fewest tiles to draw before a self-drawn Pujiang win."""
    fixed = melded(melds, rs.tiles)
    wild = ctx.wild
    num, opt = rs.numbers, rs.options
    pungs_needed = max(int(num.min_pungs) - len(melds), 0)  # every Pujiang meld is a pung or kong
    patterns = rs.patterns
    white_swaps = wild is not None and wild != WHITE and bool(opt.white_as_wild_face)

    def far(counts: tuple[int, ...]) -> int:
        jokers = counts[wild] if wild is not None else 0
        natural = list(counts)
        if wild is not None:
            natural[wild] = 0
        best = FAR
        for k in range(natural[WHITE] + 1 if white_swaps else 1):
            faces = list(natural)
            if k:
                assert wild is not None
                faces[WHITE] -= k
                faces[wild] += k
            best = min(best, _standard(faces, jokers, k, fixed, wild, pungs_needed, rs))
            if not melds:
                best = min(best, _special(faces, jokers, k, wild, rs))
        if wild is not None and "san_cai_shen" in patterns:
            best = min(best, max(int(num.wild_copies) - jokers, 0))
        return max(best, floor(counts, fixed.size))

    return far


def _avail(fixed: Melded, wild: int | None, whites: int, jokers_fill: bool) -> list[int]:
    """Copies a target may hold; the wild's face only as a 白板 playing it, or filled by wilds."""
    avail = list(fixed.avail)
    if wild is not None:
        avail[wild] = min(4, fixed.avail[wild] - 1 + whites) if jokers_fill else whites
    return avail


def _standard(faces: list[int], jokers: int, whites: int, fixed: Melded, wild: int | None, need: int, rs: Ruleset[Any, Any, Any]) -> int:
    size, sets = fixed.size, fixed.sets
    natural = _avail(fixed, wild, whites, False)
    kept = combine(tables(faces, natural, sets, pungs=need), sets, 1, need)  # the wilds let go: no 番 needed
    best = size - kept if kept >= 0 else FAR
    if wild is None:
        return best
    patterns = rs.patterns
    if jokers and "quan_peng_zi" in patterns:  # all pungs of natural tiles, the wilds in the pair
        if jokers >= 2:
            kept = combine(tables(faces, natural, sets, chows=False), sets, 0)
            if kept >= 0:
                best = min(best, 3 * sets - kept)
        else:
            kept = combine(tables(faces, natural, sets, pair_keep=1, chows=False), sets, 1)
            if kept >= 0:
                best = min(best, 3 * sets + 1 - kept)
    if "cai_shen_tou" in patterns:
        filled = _avail(fixed, wild, whites, True)
        sets_kept = combine(tables(faces, filled, sets, pungs=need), sets, 0, need)
        if sets_kept >= 0:
            # 财神头: a wild waits in the pair for the tile drawn last (drawing the wild last is not 财神头)
            best = min(best, 1 + max(3 * sets + 1 - jokers - sets_kept, 0))
            if rs.options.two_wilds_pair_is_cai_shen_tou:
                best = min(best, max(size - jokers - sets_kept, 0))
    return best


def _special(faces: list[int], jokers: int, whites: int, wild: int | None, rs: Ruleset[Any, Any, Any]) -> int:
    """七对 and the thirteen-style shapes (a hand without melds)."""
    num, opt = rs.numbers, rs.options
    full = [4] * len(faces)
    best = FAR
    four = bool(opt.qi_dui_four_as_two_pairs)
    if "qi_dui" in rs.patterns:
        plain = list(full)
        if wild is not None:
            plain[wild] = whites
        kept = seven_pairs_kept(faces, plain, four)
        if kept >= 0:
            best = 14 - kept
        if jokers:  # 财神吊头: a held wild pairs the tile drawn last
            kept6 = seven_pairs_kept(faces, full, four, 6)
            if kept6 >= 0:
                best = min(best, 1 + max(13 - jokers - kept6, 0))
    if "zhen_13" in rs.patterns or "zhen_zhen_13" in rs.patterns:
        avail = list(full)
        if wild is not None:
            avail[wild] = max(whites, 1)
        kept = thirteen_kept(faces, avail, jokers, bool(opt.zhen_13_wide_gaps), int(num.zhen_13_min_honours), int(num.zhen_zhen_13_honours))
        if kept >= 0:
            best = min(best, 14 - kept)
    return best
