"""Waits (听牌): every tile that completes a 13-tile hand, copies left, and what it scores.

`hand_waits` tries each tile of the variant once as a discard win and once as a
self-drawn win through the public `score`, so a wait is worth exactly what
`mjcalc score` says it is worth. When no tile wins, the result says why (for
example a Wuhu hand without 八支, or a Pujiang hand with fewer than 3 pungs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core import flags as flag_table
from ..core.context import SEATS, Seat, WinContext
from ..core.errors import InputError, MjcalcError, NotAWin
from ..core.flags import Spelling
from ..core.hand import Hand, Meld, hand_of_tiles, make_context, parse_meld, tiles_dict
from ..core.result import ScoreResult
from ..core.suits import waits as shape_waits
from ..core.tiles import NUM_TILES, TileWords, parse_tiles, tile_str
from ..core.words import N_, Text
from ..rules.ruleset import Ruleset
from ..rules.schema import tile_in_variant
from .score import check_tiles, score

# Refusals a scorer may raise before it looks at the shape of the hand: on their own
# they do not show that the tile completes the hand.
_BEFORE_SHAPE = frozenset({"not_a_winning_hand", "no_ba_zhi", "discard_win_not_allowed"})
DEFAULT_DISCARDER: Seat = "previous"

TileOutcome = ScoreResult | MjcalcError


def _self_drawn() -> InputError:
    """Why a self-drawn win has no discard column: the declared flags that imply self_draw."""
    names = [f.spelled for f in flag_table.win_flags() if "self_draw" in f.implies]
    listed = " and ".join(names) if len(names) <= 2 else f"{', '.join(names[:-1])} and {names[-1]}"
    return InputError("conflicting_flags", "{listed} are self-drawn wins: there is no discard win", listed=listed)


def outcome_dict(outcome: TileOutcome) -> dict[str, Any]:
    """A wait's score in brief (value, total, payments, patterns), or why it is not a win."""
    if isinstance(outcome, ScoreResult):
        return {
            "valid": True,
            "value": outcome.value,
            "total": outcome.total,
            "payments": {seat: outcome.payments[seat] for seat in SEATS},
            "patterns": list(outcome.patterns),
        }
    key = "reason" if isinstance(outcome, NotAWin) else "error"
    return {"valid": False, key: outcome.to_dict()}


@dataclass(frozen=True)
class Wait:
    """One tile that completes the hand: copies not in sight, its score on a discard and on a self-draw."""

    tile: int
    left: int
    discard: TileOutcome
    self_draw: TileOutcome

    @property
    def wins(self) -> bool:
        return isinstance(self.discard, ScoreResult) or isinstance(self.self_draw, ScoreResult)

    @property
    def refusal(self) -> MjcalcError | None:
        """Why this tile does not win, when it wins neither way (the self-draw reason first)."""
        if self.wins:
            return None
        return self.self_draw if isinstance(self.self_draw, MjcalcError) else self.discard  # type: ignore[return-value]

    def to_dict(self) -> dict[str, Any]:
        return {
            "tile": tile_str(self.tile),
            "left": self.left,
            "discard": outcome_dict(self.discard),
            "self_draw": outcome_dict(self.self_draw),
        }


@dataclass(frozen=True)
class WaitsResult:
    """The waits of a 13-tile hand under one ruleset."""

    variant: str
    ruleset_version: str
    title: tuple[str, str]
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    discarder: Seat | None
    waits: tuple[Wait, ...]
    blocked: tuple[Wait, ...]  # complete the tiles but break a rule both ways
    names: dict[str, tuple[str, str]] = field(default_factory=dict)  # pattern key → (zh, en)

    @property
    def reason(self) -> NotAWin | None:
        """Why the hand cannot win, when no tile wins it."""
        if self.waits:
            return None
        for wait in self.blocked:
            refusal = wait.refusal
            if isinstance(refusal, NotAWin):  # say which tiles complete the shape, and why they do not win
                alike = [w.tile for w in self.blocked if isinstance(w.refusal, NotAWin) and w.refusal.code == refusal.code]
                tiles = TileWords(" ".join(tile_str(t) for t in alike))
                return refusal.within(N_("{tiles} complete the shape but do not win", tiles=tiles), keep_position=True)  # type: ignore[return-value]
        return NotAWin("no_waits", "no tile completes these 13 tiles into a winning hand (not 听牌 yet)")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "variant": self.variant,
            "ruleset_version": self.ruleset_version,
            "hand": tiles_dict(self.concealed, self.melds),
            "discarder": self.discarder,
            "waits": [w.to_dict() for w in self.waits],
        }
        if self.blocked:
            out["blocked"] = [
                {"tile": tile_str(w.tile), "left": w.left, "reason": w.refusal.to_dict() if w.refusal else None}
                for w in self.blocked
            ]
        reason = self.reason
        if reason is not None:
            out["reason"] = reason.to_dict()
        return out


def _try(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any]) -> TileOutcome:
    try:
        return score(hand, ctx, rs)
    except MjcalcError as err:
        return err


def waits_of(concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext, rs: Ruleset[Any, Any, Any]) -> WaitsResult:
    """Every tile that completes `concealed` (13 − 3 per meld) plus `melds`, scored both ways.

    `ctx` holds the flags of the win other than how it was won; the discard win
    uses `ctx.discarder` (上家 when none is given), the self-draw clears it.
    """
    check_shape(concealed, melds)
    check_tiles(hand_of_tiles(concealed, tuple(melds), concealed[0]), rs)  # winds in Wuhu: say so once, with the hint
    tiles = rs.tiles
    held = [0] * NUM_TILES
    for t in concealed:
        held[t] += 1
    counts13 = tuple(held)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    shaped = set(shape_waits(counts13, tuple(held)))
    discarder = ctx.discarder or DEFAULT_DISCARDER
    # a flag implying self_draw (--after-kong, --heavenly) is a self-drawn win: no discard column then
    on_discard = None if ctx.self_draw else replace(ctx, discarder=discarder)
    on_draw = replace(ctx, self_draw=True, discarder=None, robbing_kong=False)
    found: list[Wait] = []
    blocked: list[Wait] = []
    self_drawn = _self_drawn()
    if ctx.wild is not None:
        held[ctx.wild] += 1  # the indicator lies face up: one copy fewer to draw
    for tile in range(NUM_TILES):
        if held[tile] >= 4 or not tile_in_variant(tile, tiles):
            continue
        hand = hand_of_tiles(tuple(concealed) + (tile,), tuple(melds), tile)
        discard = _try(hand, on_discard, rs) if on_discard is not None else self_drawn
        wait = Wait(tile, 4 - held[tile], discard, _try(hand, on_draw, rs))
        if wait.wins:
            found.append(wait)
        elif tile in shaped or _after_shape(wait):
            blocked.append(wait)
    return WaitsResult(
        variant=rs.name,
        ruleset_version=rs.version,
        title=(rs.title.zh, rs.title.en),
        concealed=tuple(sorted(concealed)),
        melds=tuple(melds),
        discarder=discarder,
        waits=tuple(found),
        blocked=tuple(blocked),
        names={key: rs.label(key) for w in found for o in (w.discard, w.self_draw) if isinstance(o, ScoreResult) for key in o.patterns},
    )


def _after_shape(wait: Wait) -> bool:
    """Whether a refusal shows the tile did complete the shape (a rule, not the tiles, stopped it)."""
    refusals = [o for o in (wait.discard, wait.self_draw) if isinstance(o, NotAWin)]
    return any(r.code not in _BEFORE_SHAPE for r in refusals)


def check_shape(concealed: Sequence[int], melds: Sequence[Meld]) -> None:
    """13 tiles before the win (3 fewer per meld), at most 4 copies of a tile."""
    expected = 13 - 3 * len(melds)
    if len(concealed) != expected:
        hint: Text | str = ""
        if len(concealed) == expected + 1:
            hint = N_("; with the winning tile it is a win: run `mjcalc score ...`")
        raise InputError(
            "wrong_tile_count",
            "waits takes the tiles before the win: {count} concealed tiles with {melds} meld(s), needs {expected}{hint}",
            count=len(concealed), melds=len(melds), expected=expected, hint=hint,
        )
    counts: dict[int, int] = {}
    for t in list(concealed) + [t for m in melds for t in m.tiles]:
        counts[t] = counts.get(t, 0) + 1
    for t, n in sorted(counts.items()):
        if n > 4:
            raise InputError("too_many_copies", "{tile} appears {count} times across hand and melds; there are only 4", tile=tile_str(t), count=n)


def resolve(variant: str | None, rules: str | Path | None, overrides: Sequence[str]) -> Ruleset[Any, Any, Any]:
    """The ruleset `--variant`/`--rules`/`--set` name (api.resolve_ruleset)."""
    from . import resolve_ruleset

    return resolve_ruleset(variant, rules, overrides)


def hand_parts(hand: str, variant: str | None, rules: str | Path | None, overrides: Sequence[str], melds: Sequence[str],
               concealed_kongs: Sequence[str], flags: dict[str, Any], spelling: Spelling,
               ) -> tuple[Ruleset[Any, Any, Any], list[int], tuple[Meld, ...]]:
    """What `hand_waits` and `hand_advice` start from: the ruleset (`checked_ruleset`), the concealed
    tiles (not none) and the melds, parsed."""
    from . import checked_ruleset

    rs = checked_ruleset(variant, rules, overrides, flags, spelling)
    concealed = parse_tiles(hand)
    if not concealed:
        raise InputError("empty_hand", "the hand has no tiles")
    return rs, concealed, tuple(parse_meld(m) for m in melds) + tuple(parse_meld(k, concealed=True) for k in concealed_kongs)


def hand_waits(
    hand: str,
    *,
    variant: str | None = None,
    rules: str | Path | None = None,
    overrides: Sequence[str] = (),
    melds: Sequence[str] = (),
    concealed_kongs: Sequence[str] = (),
    spelling: Spelling = "field",
    **flags: Any,
) -> WaitsResult:
    """`waits_of` for a hand written in tile notation; `flags` are `make_context`'s (not self_draw).

    A flag the variant does not use is `flag_not_in_variant`, as for `score_hand`.
    """
    rs, concealed, parsed = hand_parts(hand, variant, rules, overrides, melds, concealed_kongs, flags, spelling)
    ctx = make_context(spelling=spelling, **flags)
    return waits_of(concealed, parsed, ctx, rs)
