"""Chizhou 池州麻将: 花 decide who may win; fan multiply the base of 1, capped at 3 (拉子).

Every number and switch comes from the ruleset; see docs/rules/chizhou.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.context import WinContext
from ...core.errors import InputError, MjcalcError, NotAWin, RuleRefused
from ...core.hand import Hand
from ...core.result import ScoreResult
from ...core.tiles import SUITS, is_honour
from ...core.words import N_
from . import build as chizhou_build
from . import kernel as chizhou_kernel

if TYPE_CHECKING:
    from .ruleset_schema import ChizhouRuleset


def not_a_winning_hand(rs: ChizhouRuleset) -> NotAWin:
    """A hand of no pair plus four sets: made once (shared: a door raises a copy)."""
    made: NotAWin | None = rs.memo.get("chizhou_not_a_win")
    if made is None:
        made = rs.memo.keep("chizhou_not_a_win", NotAWin("not_a_winning_hand", "the tiles do not form a pair plus four sets (Chizhou has no seven pairs)"))
    return made


def check_context(ctx: WinContext) -> None:
    """A discard or 抢杠 win must say who pays (--discarder)."""
    if ctx.self_draw or ctx.discarder is not None:
        return
    if ctx.robbing_kong:
        message = N_("--robbing-kong needs --discarder next|opposite|previous: the player whose kong was robbed")
    else:
        message = N_("a discard win (冲) needs --discarder next|opposite|previous; or give --self-draw")
    raise InputError("missing_discarder", message)


def check_chow_restriction(hand: Hand, flowers: int, rs: ChizhouRuleset) -> RuleRefused | None:
    """With fewer than `chow_free_min_flowers` 花, a player who chowed may neither chow nor
    pung (or kong) another suit; honour pungs count as another suit only if the option says so.
    The refusal, or None."""
    need = rs.numbers.chow_free_min_flowers
    chows = [m for m in hand.melds if m.kind == "chow"]
    if flowers >= need or not chows:
        return None
    suit = chows[0].first // 9
    honours_restricted = rs.options.honour_pung_is_another_suit
    for m in hand.melds:
        # a concealed kong is not called from a discard (and brings 2+ 花, so never gets here)
        if m.concealed or (is_honour(m.first) and not honours_restricted) or m.first // 9 == suit:
            continue
        return RuleRefused(
            "chow_restricted",
            "with {flowers} 花 (fewer than {need}) every meld called after a chow must be of one suit, "
            "the chow {chow}'s ({suit}); the {kind} --meld {meld} is not",
            flowers=flowers, need=need, chow=chows[0].notation(), suit=SUITS[suit], kind=N_(m.kind), meld=m.notation(),
        )
    return None


def score_chizhou(hand: Hand, ctx: WinContext, rs: ChizhouRuleset) -> ScoreResult | MjcalcError:
    """The kernel's best reading of the hand (kernel.py), made into a result (build.py); or why it does not win."""
    check_context(ctx)
    out = chizhou_kernel.score(rs, hand, ctx)
    if out.code == chizhou_kernel.NOT_A_WINNING_HAND:
        return not_a_winning_hand(rs)
    if hand.melds:
        restricted = check_chow_restriction(hand, out.most_flowers, rs)
        if restricted is not None:
            return restricted
    if out.code == chizhou_kernel.NOT_ENOUGH_FLOWERS:
        assert out.best is not None
        return chizhou_build.refusal(rs, ctx, out.best)
    return chizhou_build.result(hand, ctx, rs, out)
