"""What to discard: for each tile of a 14-tile hand, the shanten (向听) of the 13 left under the
variant's own win rules, the tiles that lower it (有效牌) and, at 听牌, the value of every wait.

The shanten comes from the variant's `plan.py` (`Plan.after_draws`): how many tiles the hand is
from one that this variant lets win by self-draw (八支, 花, three pungs, the 财神's 番 ...).
A 听牌 row's waits are `waits_of` of its 13 tiles, so they are exactly `mjcalc waits`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..core.context import WinContext
from ..core.errors import InputError, NotAWin, RuleRefused
from ..core.flags import Spelling
from ..core.hand import Meld, hand_of_tiles, make_context, tiles_dict
from ..core.result import ScoreResult
from ..core.tiles import NUM_TILES, parse_tiles, tile_str
from ..core.words import N_
from ..rules.ruleset import Ruleset
from ..rules.schema import tile_in_variant
from ..variants.common.goals import FAR
from ..variants.common.plan import Plan
from .score import check_tiles, score
from .waits import Wait, WaitsResult, hand_parts, waits_of


@dataclass(frozen=True)
class Row:
    """One discard: the shanten of the 13 tiles left, the useful draws, and at 听牌 the waits; or,
    when no hand the variant lets win can be made from them (`shanten` None), why not."""

    tile: int
    shanten: int | None
    ukeire: tuple[tuple[int, int], ...]  # (tile, copies left)
    waits: WaitsResult | None = None
    unreachable: NotAWin | None = None

    @property
    def ukeire_count(self) -> int:
        return sum(left for _, left in self.ukeire)

    @property
    def expected(self) -> float | None:
        """At 听牌: the self-draw value of the waits, weighted by the copies left of each."""
        if self.waits is None:
            return None
        left = dict(self.ukeire)
        weight = sum(left.get(w.tile, 0) for w in self.waits.waits)
        if weight == 0:
            return 0.0
        total = sum(left.get(w.tile, 0) * _self_draw_value(w) for w in self.waits.waits)
        return round(total / weight, 2)

    def sort_key(self) -> tuple[int, int, float, int]:
        return (FAR if self.shanten is None else self.shanten, -self.ukeire_count, -(self.expected or 0.0), self.tile)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tile": tile_str(self.tile),
            "shanten": self.shanten,
            "ukeire": [{"tile": tile_str(t), "left": left} for t, left in self.ukeire],
            "ukeire_count": self.ukeire_count,
        }
        if self.waits is not None:
            out["waits"] = [w.to_dict() for w in self.waits.waits]
            out["expected"] = self.expected
        if self.unreachable is not None:
            out["unreachable"] = self.unreachable.to_dict()
        return out


def _self_draw_value(wait: Wait) -> int:
    return wait.self_draw.value if isinstance(wait.self_draw, ScoreResult) else 0


@dataclass(frozen=True)
class Advice:
    """The advice for one 14-tile hand: every discard, best first, and the win if it is one."""

    variant: str
    title: tuple[str, str]
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    rows: tuple[Row, ...]
    win: ScoreResult | None

    @property
    def shanten(self) -> int | None:
        """-1 for a hand that already wins, else the best discard's shanten (None: no discard can
        reach a win, `unreachable` says why)."""
        if self.win is not None:
            return -1
        return self.rows[0].shanten  # best first

    @property
    def unreachable(self) -> NotAWin | None:
        """Why no discard can reach a win, when none can (and the hand is no win already)."""
        return self.rows[0].unreachable if self.shanten is None else None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "variant": self.variant,
            "hand": tiles_dict(self.concealed, self.melds),
            "shanten": self.shanten,
            "discards": [r.to_dict() for r in self.rows],
        }
        unreachable = self.unreachable
        if unreachable is not None:
            out["unreachable"] = unreachable.to_dict()
        if self.win is not None:
            out["win"] = self.win.to_dict()
        return out


def plan_for(melds: Sequence[Meld], ctx: WinContext, rs: Ruleset[Any, Any, Any]) -> Plan:
    """The variant's shanten rules (`Variant.plan`), or `advise_not_supported` for a variant without them."""
    rules = rs.variant.plan
    if rules is None:
        raise InputError("advise_not_supported", "{name}: the {scorer} scorer has no shanten rules, so it cannot advise",
            name=rs.name, scorer=rs.scorer)
    found: Plan = rules(melds, ctx, rs)
    return found


def check_advise_shape(concealed: Sequence[int], melds: Sequence[Meld], seen: Sequence[int], wild: int | None) -> None:
    """14 tiles after the draw (3 fewer per meld); at most 4 copies of a tile in all one sees."""
    expected = 14 - 3 * len(melds)
    if len(concealed) != expected:
        hint = N_("; before the draw, run `mjcalc waits ...`") if len(concealed) == expected - 1 else ""
        raise InputError(
            "wrong_tile_count",
            "advise takes the tiles after the draw: {count} concealed tiles with {melds} meld(s), needs {expected}{hint}",
                count=len(concealed), melds=len(melds), expected=expected, hint=hint,
        )
    counts = [0] * NUM_TILES
    for t in list(concealed) + [t for m in melds for t in m.tiles]:
        counts[t] += 1
    for t in range(NUM_TILES):
        if counts[t] > 4:
            raise InputError("too_many_copies", "{tile} appears {count} times across hand and melds; there are only 4", tile=tile_str(t), count=counts[t])
    for t in seen:
        counts[t] += 1
    if wild is not None:
        counts[wild] += 1
    for t in range(NUM_TILES):
        if counts[t] > 4:
            where = N_(" with the 财神 indicator") if t == wild else ""
            raise InputError("too_many_copies", "{tile} appears {count} times across hand, melds and --seen{where}; there are only 4",
                tile=tile_str(t), count=counts[t], where=where)


def advise_of(concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext, rs: Ruleset[Any, Any, Any],
              seen: Sequence[int] = ()) -> Advice:
    """Every discard of `concealed` (14 − 3 per meld, the last tile the one drawn), best first."""
    check_advise_shape(concealed, melds, seen, ctx.wild)
    hand = hand_of_tiles(concealed, tuple(melds), concealed[-1])
    check_tiles(hand, rs)
    on_draw = replace(ctx, self_draw=True, discarder=None)
    win: ScoreResult | None
    try:
        win = score(hand, on_draw, rs)
    except (NotAWin, RuleRefused):  # a rule that refuses these tiles makes them no win, not bad input
        win = None
    plan = plan_for(melds, on_draw, rs)
    counts = [0] * NUM_TILES
    for t in concealed:
        counts[t] += 1
    visible = [0] * NUM_TILES  # copies out of reach of a draw, besides the 13 kept
    for t in [t for m in melds for t in m.tiles] + list(seen):
        visible[t] += 1
    if ctx.wild is not None:
        visible[ctx.wild] += 1
    in_play = [tile_in_variant(t, rs.tiles) for t in range(NUM_TILES)]
    rows: list[Row] = []
    for d in sorted(set(concealed)):
        counts[d] -= 1
        rows.append(_row(d, counts, visible, in_play, plan, concealed, melds, ctx, rs))
        counts[d] += 1
    rows.sort(key=Row.sort_key)
    return Advice(rs.name, (rs.title.zh, rs.title.en), tuple(sorted(concealed)), tuple(melds), tuple(rows), win)


def _row(d: int, counts: list[int], visible: list[int], in_play: list[bool], plan: Plan,
         concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext, rs: Ruleset[Any, Any, Any]) -> Row:
    melded = [0] * NUM_TILES
    for m in melds:
        for t in m.tiles:
            melded[t] += 1
    draws = [t for t in range(NUM_TILES) if in_play[t] and counts[t] + melded[t] < plan.most_held(t)]
    base, after = plan.after_draws(counts, draws)
    if base >= FAR:  # no target fits: the melds rule out every win
        return Row(d, None, (), unreachable=plan.unreachable())
    useful = [(t, max(4 - counts[t] - visible[t], 0)) for t, far in zip(draws, after) if far < base]
    if base != 1:
        return Row(d, base - 1, tuple(useful))
    kept = list(concealed)
    kept.remove(d)
    waits = waits_of(kept, melds, replace(ctx, self_draw=False, discarder=None), rs)
    if not waits.waits:  # the scorer has the last word on 听牌
        return Row(d, 1, tuple(useful))
    return Row(d, 0, tuple((w.tile, max(4 - counts[w.tile] - visible[w.tile], 0)) for w in waits.waits), waits)


def hand_advice(
    hand: str,
    *,
    variant: str | None = None,
    rules: str | Path | None = None,
    overrides: Sequence[str] = (),
    melds: Sequence[str] = (),
    concealed_kongs: Sequence[str] = (),
    wild: str | None = None,
    seen: str | None = None,
    spelling: Spelling = "field",
) -> Advice:
    """`advise_of` for a hand written in tile notation (`seen`: tiles in sight elsewhere)."""
    flags: dict[str, Any] = {} if wild is None else {"wild": wild}
    rs, concealed, parsed = hand_parts(hand, variant, rules, overrides, melds, concealed_kongs, flags, spelling)
    seen_tiles = parse_tiles(seen) if seen else []
    ctx = make_context(spelling=spelling, **flags)
    return advise_of(concealed, parsed, ctx, rs, seen_tiles)
