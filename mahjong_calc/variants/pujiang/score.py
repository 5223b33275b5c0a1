"""Pujiang 浦江麻将: 财神 wilds and 白板, 子 × 2^番, self-draw or 抢杠 only.

Every number and switch comes from the ruleset; see docs/rules/pujiang.md. The
kernel (kernel.py) reads the hand every way the wilds (and each 白板) allow, scores
each reading and keeps the one that pays most; its `payments` alone decides who pays.
build.py makes the result: its items, the text and every reading for --explain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import sets
from ...core.context import WinContext
from ...core.errors import InputError, MjcalcError, NotAWin
from ...core.hand import Hand
from ...core.result import ScoreResult
from ...core.tiles import tile_str
from . import build as pujiang_build
from . import kernel as pujiang_kernel

if TYPE_CHECKING:
    from .ruleset_schema import PujiangRuleset


# --- checks before reading ----------------------------------------------------


def check_win_kind(hand: Hand, ctx: WinContext, rs: PujiangRuleset) -> MjcalcError | None:
    """Self-draw only, or 抢杠 naming the robbed player; at most three wilds exist. The refusal
    (made once per distinct one, kept on the ruleset; shared: a door raises a copy), or None."""
    key = ("pujiang_win_facts", ctx.discarder, ctx.robbing_kong, ctx.robbed_fan)
    made: MjcalcError | bool | None = rs.memo.get(key)
    if made is None:
        refused = win_facts_refused(ctx, rs)
        made = rs.memo.keep(key, False if refused is None else refused)
    if made is not False:
        return made  # type: ignore[return-value]
    wild = ctx.wild
    if wild is None:
        return None
    held = hand.counts[wild]
    for code in hand.codes:
        for tile in sets.tiles_of(code):
            if tile == wild:
                held += 1
    if held <= most_wilds_held(rs):
        return None
    too_many: MjcalcError | None = rs.memo.get(("pujiang_wilds_held", wild, held))
    if too_many is None:
        too_many = rs.memo.keep(("pujiang_wilds_held", wild, held), too_many_wilds(wild, held, rs))
    return too_many


def win_facts_refused(ctx: WinContext, rs: PujiangRuleset) -> MjcalcError | None:
    """`check_win_kind`'s checks of the facts of the win alone: self-draw only, or 抢杠 naming the robbed player."""
    if ctx.discarder is not None and not ctx.robbing_kong:
        return NotAWin(
            "discard_win_not_allowed",
            "Pujiang has no discard wins (没有放冲, 只能自摸): win by self-draw, or give --robbing-kong",
        )
    if ctx.robbing_kong and ctx.discarder is None:
        return InputError("robbed_player_required", "--robbing-kong needs --discarder next|opposite|previous: whose kong was robbed")
    by_robbed_fan = rs.options.qiang_gang_amount != "winner_value"
    if ctx.robbed_fan is not None and not ctx.robbing_kong:
        return InputError("conflicting_flags", "--robbed-fan is the 番 of a robbed player: it needs --robbing-kong")
    if ctx.robbing_kong and by_robbed_fan and ctx.robbed_fan is None:
        return InputError(
            "missing_robbed_fan",
            "options.qiang_gang_amount={amount}: --robbing-kong needs --robbed-fan N, the 番 of the robbed player's hand",
            amount=rs.options.qiang_gang_amount,
        )
    if ctx.robbed_fan is not None and not by_robbed_fan:
        return InputError(
            "robbed_fan_unused",
            "--robbed-fan counts only with options.qiang_gang_amount=robbed_fan or robbed_fan_doubling; the robbed player pays the winner's own amounts",
        )
    return None


def most_wilds_held(rs: PujiangRuleset) -> int:
    """How many copies of the 财神 one hand may hold, melds counted: the copies in play (the
    indicator is the fourth). `check_win_kind` and advise's draws (plan.py) both ask this."""
    return rs.numbers.wild_copies


def too_many_wilds(wild: int, held: int, rs: PujiangRuleset) -> InputError:
    """At most three wilds exist: `held` copies of the 财神 (`wild`), melds included, are too many."""
    return InputError(
        "too_many_wilds",
        "{tile} is the 财神: one copy is the indicator, so at most {limit} can be held, not {held}",
        tile=tile_str(wild), limit=most_wilds_held(rs), held=held,
    )


# --- entry point --------------------------------------------------------------


def score_pujiang(hand: Hand, ctx: WinContext, rs: PujiangRuleset) -> ScoreResult | MjcalcError:
    """The kernel's best reading of the hand (kernel.py), made into a result (build.py); or why it does not win."""
    refused = check_win_kind(hand, ctx, rs)
    if refused is not None:
        return refused
    out = pujiang_kernel.score(rs, hand, ctx)
    if out.code != pujiang_kernel.WIN:
        return pujiang_build.refusal(rs, out.best)
    return pujiang_build.result(hand, ctx, rs, out)
