"""Chizhou 池州麻将: 花 decide who may win; fan multiply the base of 1, capped at 3 (拉子).

Every number and switch comes from the ruleset; see docs/rules/chizhou.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Literal

from ...core.errors import InputError, NotAWin
from ...core.hand import Hand, WinContext
from ...core.result import ScoreResult
from ...core.tiles import SUITS, is_honour
from ...rules.schema import GameRules, Label, Range
from . import explain as chizhou_explain
from . import kernel as chizhou_kernel

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset


# --- the ruleset's sections (the schema; values only in rulesets/chizhou.yaml) ---------


@dataclass(frozen=True)
class ChizhouMinFlowers:
    """花 needed to win, by how the hand was won."""

    self_draw: int
    discard: int
    qiang_gang: int


@dataclass(frozen=True)
class ChizhouFlowers:
    """花 each kind of set brings its winner."""

    zi_peng: int
    zi_an_ke: int
    ming_gang: int
    an_gang: int
    zi_ming_gang: int
    zi_an_gang: int


@dataclass(frozen=True)
class ChizhouNumbers:
    """The `numbers:` section of the Chizhou ruleset: every amount the arithmetic uses."""

    base: int
    cap: int
    min_flowers: ChizhouMinFlowers
    chow_free_min_flowers: int
    flowers: ChizhouFlowers


@dataclass(frozen=True)
class ChizhouOptions:
    """The `options:` section of the Chizhou ruleset: each contested reading (docs/rules/chizhou.md)."""

    la_zi_needs_no_flowers: bool
    da_diao_che_concealed_kong: bool
    discard_triplet_is_exposed: bool
    honour_pung_is_another_suit: bool  # the chow restriction also refuses honour pungs
    da_diao_che_payment_multiplier: Annotated[int, Range(1, 1000)]  # 大吊车 settles differently: each payment × this


@dataclass(frozen=True)
class ChizhouPattern(Label):
    """A pattern entry: its names and the factor (番) it multiplies the base by."""

    fan: int


@dataclass(frozen=True)
class ChizhouSettlement(GameRules):
    """The `settlement:` section (liability, see settle.py) of the Chizhou ruleset."""

    cheng_bao: bool  # 承包: the feeder of one suit's melds pays when the winner is at 拉子
    cheng_bao_min_melds: int  # 吃碰一色3口以上
    fan_bao: bool  # 反包 cases (1)-(7)
    # the seed's figures 1,2,3 (and 2,4,6) are what R pays in all (total), or on top of the normal payment (extra)
    fan_bao_amounts: Literal["total", "extra"]
    # cases: the numbered cases of §19; cheng_bao_section: the later "A独供B 4口" figures
    cheng_bao_table: Literal["cases", "cheng_bao_section"]
    # a player who owes 承包 and 反包 in one win: both (each on top of their own share), or the larger
    cheng_bao_and_fan_bao: Literal["both", "larger"]


if TYPE_CHECKING:
    ChizhouRuleset = Ruleset[ChizhouNumbers, ChizhouOptions, ChizhouPattern]
def check_context(ctx: WinContext) -> None:
    """A discard or 抢杠 win must say who pays (--discarder)."""
    if ctx.self_draw or ctx.discarder is not None:
        return
    if ctx.robbing_kong:
        message = "--robbing-kong needs --discarder next|opposite|previous: the player whose kong was robbed"
    else:
        message = "a discard win (冲) needs --discarder next|opposite|previous; or give --self-draw"
    raise InputError("missing_discarder", message)


def check_chow_restriction(hand: Hand, flowers: int, rs: ChizhouRuleset) -> None:
    """With fewer than `chow_free_min_flowers` 花, a player who chowed may neither chow nor
    pung (or kong) another suit; honour pungs count as another suit only if the option says so."""
    need = rs.numbers.chow_free_min_flowers
    chows = [m for m in hand.melds if m.kind == "chow"]
    if flowers >= need or not chows:
        return
    suit = chows[0].first // 9
    honours_restricted = rs.options.honour_pung_is_another_suit
    for m in hand.melds:
        # a concealed kong is not called from a discard (and brings 2+ 花, so never gets here)
        if m.concealed or (is_honour(m.first) and not honours_restricted) or m.first // 9 == suit:
            continue
        raise InputError(
            "chow_restricted",
            f"with {flowers} 花 (fewer than {need}) every meld called after a chow must be of one suit, "
            f"the chow {chows[0].notation()}'s ({SUITS[suit]}); the {m.kind} --meld {m.notation()} is not",
        )


def score_chizhou(hand: Hand, ctx: WinContext, rs: ChizhouRuleset) -> ScoreResult:
    """The kernel's best reading of the hand (kernel.py), explained (explain.py)."""
    check_context(ctx)
    out = chizhou_explain.kernel(hand, ctx, rs)
    if out.code == chizhou_kernel.NOT_A_WINNING_HAND:
        raise NotAWin(
            "not_a_winning_hand", "the tiles do not form a pair plus four sets (Chizhou has no seven pairs)"
        )
    check_chow_restriction(hand, out.most_flowers, rs)
    if out.code == chizhou_kernel.NOT_ENOUGH_FLOWERS:
        assert out.best is not None
        raise chizhou_explain.refusal(rs, ctx, out.best)
    return chizhou_explain.result(hand, ctx, rs, out)
