"""Chizhou shanten (向听): a pair and four sets that bring enough 花 for a self-drawn win
(honour pungs and kongs), or reach the cap (拉子) and need none; the chow restriction's 花.

花 come from the melds (fixed) and from concealed honour pungs (字暗刻), so the 花 rule
asks for a number of honour pungs among the target's sets. 拉子 comes from the patterns
whose 番 multiply up to the cap without a particular winning tile: 对对胡 (all pungs),
清一色, 混一色 and 字一色; each is a condition on which groups the target uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import prod
from typing import Any

from ...core.context import WinContext
from ...core.errors import NotAWin
from ...core.hand import Meld
from ...core.tiles import is_honour
from ...core.words import N_
from ...rules.ruleset import Ruleset
from ..common.goals import FAR, Goal, Limit, Melded, melded
from ..common.plan import Plan

# The 拉子 patterns a target can be steered to, each a condition on the groups it uses.
SHAPE_PATTERNS = ("dui_dui_hu", "qing_yi_se", "hun_yi_se", "zi_yi_se")


@dataclass(frozen=True)
class Mode:
    """One kind of target: which groups may hold tiles, which must, all pungs or not."""

    pungs_only: bool = False
    allowed: frozenset[int] = frozenset(range(4))  # groups 0-2 the suits, 3 the honours
    required: frozenset[int] = frozenset()
    honour_pungs: int = 0


def meld_flowers(melds: Sequence[Meld], rs: Ruleset[Any, Any, Any]) -> int:
    per = rs.numbers.flowers
    total = 0
    for m in melds:
        honour = is_honour(m.first)
        if m.kind == "kong":
            total += (per.zi_an_gang if honour else per.an_gang) if m.concealed else (per.zi_ming_gang if honour else per.ming_gang)
        elif m.kind == "pung" and honour:
            total += per.zi_peng
    return int(total)


def mixed_chows(melds: Sequence[Meld], rs: Ruleset[Any, Any, Any]) -> bool:
    """Whether the melds break the chow restriction unless the hand has enough 花."""
    chows = [m for m in melds if m.kind == "chow"]
    if not chows:
        return False
    suit = chows[0].first // 9
    honours = rs.options.honour_pung_is_another_suit
    return any(not m.concealed and (honours or not is_honour(m.first)) and m.first // 9 != suit for m in melds)


def _pungs_for(flowers: int, melds: Sequence[Meld], rs: Ruleset[Any, Any, Any]) -> int | None:
    """The concealed honour pungs (字暗刻) that bring the melds' 花 up to `flowers` (None: none can)."""
    short = max(flowers - meld_flowers(melds, rs), 0)
    if short == 0:
        return 0
    per_pung = int(rs.numbers.flowers.zi_an_ke)
    return None if per_pung <= 0 else -(-short // per_pung)


def modes(melds: Sequence[Meld], rs: Ruleset[Any, Any, Any]) -> list[Mode]:
    num = rs.numbers
    floor_flowers = num.chow_free_min_flowers if mixed_chows(melds, rs) else 0

    def pungs_for(flowers: int) -> int | None:
        return _pungs_for(flowers, melds, rs)

    out: list[Mode] = []
    plain = pungs_for(max(int(num.min_flowers.self_draw), floor_flowers))
    if plain is not None:
        out.append(Mode(honour_pungs=plain))
    cap_pungs = pungs_for(floor_flowers)
    if not rs.options.la_zi_needs_no_flowers or cap_pungs is None:
        return out
    meld_groups = {3 if is_honour(m.first) else m.first // 9 for m in melds}
    present = [k for k in SHAPE_PATTERNS if k in rs.patterns]
    enough: list[set[str]] = []  # only the smallest sets of patterns that reach the cap: a larger one asks more
    for size in range(1, len(present) + 1):
        for keys in combinations(present, size):
            if prod(rs.patterns[k].fan for k in keys) < num.cap or any(e <= set(keys) for e in enough):
                continue
            enough.append(set(keys))
            out += [m for m in _shape_modes(keys, cap_pungs, melds, meld_groups) if m not in out]
    return out


def _shape_modes(keys: tuple[str, ...], pungs: int, melds: Sequence[Meld], meld_groups: set[int]) -> list[Mode]:
    """The targets that show every pattern in `keys` at once."""
    all_pungs = "dui_dui_hu" in keys
    if all_pungs and any(m.kind == "chow" for m in melds):
        return []
    found: list[Mode] = []
    suit_choices: list[int | None] = [0, 1, 2] if {"qing_yi_se", "hun_yi_se"} & set(keys) else [None]
    for suit in suit_choices:
        allowed, required = set(range(4)), set()
        if suit is not None:
            allowed = {suit} | ({3} if "hun_yi_se" in keys else set())
            required = {suit} | ({3} if "hun_yi_se" in keys else set())
            if "qing_yi_se" in keys and "hun_yi_se" in keys:
                continue
        if "zi_yi_se" in keys:
            if suit is not None:
                continue
            allowed, required = {3}, {3}
        if not meld_groups <= allowed:
            continue
        found.append(Mode(all_pungs, frozenset(allowed), frozenset(required - meld_groups), pungs))
    return found


def _goal(mode: Mode, fixed: Melded) -> Goal | None:
    limits: list[Limit] = []
    for g in range(4):
        pungs = mode.honour_pungs if g == 3 else 0
        if g not in mode.allowed:
            if pungs:
                return None
            limits.append((0, 0, -1))
        else:
            limits.append((0, pungs, 1 if g in mode.required else 0))
    return Goal(fixed.avail, fixed.sets, 1, fixed.size, chows=not mode.pungs_only,
                limits=(limits[0], limits[1], limits[2], limits[3]))


class ChizhouPlan(Plan):
    def __init__(self, melds: Sequence[Meld], rs: Ruleset[Any, Any, Any]) -> None:
        fixed = melded(melds, rs.tiles)
        super().__init__(fixed.size)
        self._goals = [g for g in (_goal(m, fixed) for m in modes(melds, rs)) if g is not None]
        self.fixed = fixed
        self.melds = tuple(melds)
        self.rs = rs

    def goals(self, counts: Sequence[int]) -> list[Goal]:
        return self._goals

    def unreachable(self) -> NotAWin:
        """The chow restriction, when no hand with these melds reaches the 花 it asks; else the self-draw's 花."""
        num = self.rs.numbers
        if mixed_chows(self.melds, self.rs):
            free = int(num.chow_free_min_flowers)
            pungs = _pungs_for(free, self.melds, self.rs)
            goal = None if pungs is None else _goal(Mode(honour_pungs=pungs), self.fixed)
            if goal is None or goal.far([0] * len(goal.avail)) >= FAR:
                return NotAWin("chow_restricted", "these melds chow one suit and call another, which only {need} 花 allow, and no "
                               "hand with them reaches {need} 花 (advise does not count kongs declared later)", need=free)
        unless = N_(", nor 拉子") if self.rs.options.la_zi_needs_no_flowers else ""
        return NotAWin("not_enough_flowers", "no hand with these melds reaches the {need} 花 a self-drawn win needs{unless} "
                       "(advise does not count kongs declared later)", need=int(num.min_flowers.self_draw), unless=unless)


def plan(melds: Sequence[Meld], ctx: WinContext, rs: Ruleset[Any, Any, Any]) -> Plan:
    """The targets of a self-drawn Chizhou win with these melds."""
    return ChizhouPlan(melds, rs)
