"""Pujiang 浦江麻将: 财神 wilds and 白板, 子 × 2^番, self-draw or 抢杠 only.

Every number and switch comes from the ruleset; see docs/rules/pujiang.md. The
kernel (kernel.py) reads the hand every way the wilds (and each 白板) allow, scores
each reading and keeps the one that pays most; its `payments` alone decides who pays.
build.py makes the result: its items, the text and every reading for --explain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.context import WinContext
from ...core.errors import InputError, NotAWin
from ...core.hand import Hand
from ...core.result import ScoreResult
from ...core.tiles import tile_str
from . import build as pujiang_build
from . import kernel as pujiang_kernel

if TYPE_CHECKING:
    from .ruleset_schema import PujiangRuleset



# --- checks before reading ----------------------------------------------------


def check_win_kind(hand: Hand, ctx: WinContext, rs: PujiangRuleset) -> None:
    """Self-draw only, or 抢杠 naming the robbed player; at most three wilds exist."""
    check_win_facts(ctx, rs)
    if ctx.wild is not None:
        check_wilds_held(hand.held()[ctx.wild], ctx, rs)


def check_win_facts(ctx: WinContext, rs: PujiangRuleset) -> None:
    """`check_win_kind`'s checks of the facts of the win alone: self-draw only, or 抢杠 naming the robbed player."""
    if ctx.discarder is not None and not ctx.robbing_kong:
        raise NotAWin(
            "discard_win_not_allowed",
            "Pujiang has no discard wins (没有放冲, 只能自摸): win by self-draw, or give --robbing-kong",
        )
    if ctx.robbing_kong and ctx.discarder is None:
        raise InputError("robbed_player_required", "--robbing-kong needs --discarder next|opposite|previous: whose kong was robbed")
    by_robbed_fan = rs.options.qiang_gang_amount != "winner_value"
    if ctx.robbed_fan is not None and not ctx.robbing_kong:
        raise InputError("conflicting_flags", "--robbed-fan is the 番 of a robbed player: it needs --robbing-kong")
    if ctx.robbing_kong and by_robbed_fan and ctx.robbed_fan is None:
        raise InputError(
            "missing_robbed_fan",
            "options.qiang_gang_amount={amount}: --robbing-kong needs --robbed-fan N, the 番 of the robbed player's hand",
            amount=rs.options.qiang_gang_amount,
        )
    if ctx.robbed_fan is not None and not by_robbed_fan:
        raise InputError(
            "robbed_fan_unused",
            "--robbed-fan counts only with options.qiang_gang_amount=robbed_fan or robbed_fan_doubling; the robbed player pays the winner's own amounts",
        )


def most_wilds_held(rs: PujiangRuleset) -> int:
    """How many copies of the 财神 one hand may hold, melds counted: the copies in play (the
    indicator is the fourth). `check_wilds_held` and advise's draws (plan.py) both ask this."""
    return rs.numbers.wild_copies


def check_wilds_held(held: int, ctx: WinContext, rs: PujiangRuleset) -> None:
    """At most three wilds exist: `held` copies of the 财神 (`ctx.wild`), melds included."""
    limit = most_wilds_held(rs)
    if ctx.wild is not None and held > limit:
        raise InputError(
            "too_many_wilds",
            "{tile} is the 财神: one copy is the indicator, so at most {limit} can be held, not {held}",
            tile=tile_str(ctx.wild), limit=limit, held=held,
        )


# --- entry point --------------------------------------------------------------


def score_pujiang(hand: Hand, ctx: WinContext, rs: PujiangRuleset) -> ScoreResult:
    """The kernel's best reading of the hand (kernel.py), made into a result (build.py)."""
    check_win_kind(hand, ctx, rs)
    out = pujiang_kernel.score(rs, hand, ctx)
    if out.code != pujiang_kernel.WIN:
        raise pujiang_build.refusal(rs, out.best)
    return pujiang_build.result(hand, ctx, rs, out)
