"""Pujiang 浦江麻将: 财神 wilds and 白板, 子 × 2^番, self-draw or 抢杠 only.

Every number and switch comes from the ruleset; see docs/rules/pujiang.md. The
kernel (kernel.py) reads the hand every way the wilds (and each 白板) allow, scores
each reading and keeps the one that pays most; its `payments` alone decides who pays.
explain.py makes the items, the text and every reading for --explain.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Literal

from ...core.errors import InputError, NotAWin
from ...core.hand import Hand, WinContext
from ...core.result import ScoreResult
from ...core.shapes import hand_counts
from ...core.tiles import tile_str
from ...rules.schema import GameRules, Label, Range
from . import explain as pujiang_explain
from . import kernel as pujiang_kernel

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset

# 番 double the 子 (子 × fan_multiplier^番): bounded so a house ruleset cannot ask for a number with
# thousands of digits.
Fan = Annotated[int, Range(0, 16)]


# --- the ruleset's sections (the schema; values only in rulesets/pujiang.yaml) ---------


@dataclass(frozen=True)
class PujiangNumbers:
    """The `numbers:` section of the Pujiang ruleset: every amount the arithmetic uses."""

    base_zi: int
    peng_zi: int
    gang_zi: int
    fan_multiplier: Annotated[int, Range(0, 16)]
    min_pungs: int
    wild_copies: int
    zhen_13_min_honours: int
    zhen_zhen_13_honours: int


@dataclass(frozen=True)
class PujiangOptions:
    """The `options:` section of the Pujiang ruleset: each contested reading (docs/rules/pujiang.md)."""

    subtract_pungs: Literal["before_fan", "after_fan"]
    floor_payment_at_zero: bool
    white_as_wild_face: bool
    two_wilds_pair_is_cai_shen_tou: bool
    qi_dui_four_as_two_pairs: bool
    san_cai_shen_stacks: bool
    robbing_kong_needs_three_pungs: bool
    robbing_kong_wild_needs_fan: bool
    qiang_gang_fan: Fan  # 抢杠 is worth this many 番 (保飘: 抢杠 is a hand with 番)
    # 抢杠's amount: the winner's own, or by the robbed player's 番 (--robbed-fan) times, or doubling, the 子
    qiang_gang_amount: Literal["winner_value", "robbed_fan", "robbed_fan_doubling"]
    zhen_13_wide_gaps: bool  # 真13: each suit's tiles at least three apart (else within 147/258/369)


@dataclass(frozen=True)
class PujiangPattern(Label):
    """A pattern entry: its 番; `base`: the 子 the hand starts from instead of numbers.base_zi;
    `fan_with_wild`: its 番 when the hand holds a wild."""

    fan: Fan
    base: int | None = None
    fan_with_wild: Fan | None = None


@dataclass(frozen=True)
class PujiangSettlement(GameRules):
    """The `settlement:` section (liability, see settle.py) of the Pujiang ruleset."""

    qiang_gang_bao: bool  # record the robbed player's payment for all three (the scorer makes it)
    sheng_zhang_bao: bool  # 生张 during a 飘 round: the discarder pays for all three
    piao_bao: bool  # the feeder of a second 飘 pays that 飘
    piao_limits: bool  # 1 飘: others self-draw only; 2: only hands with 番; 3 (保飘): no win
    piao_one_needs_fan: bool  # L50 其他的人不能碰与平胡…有翻的牌就可以平胡: after 1 飘 too, only hands with 番


if TYPE_CHECKING:
    PujiangRuleset = Ruleset[PujiangNumbers, PujiangOptions, PujiangPattern]


# --- checks before reading ----------------------------------------------------


def check_win_kind(hand: Hand, ctx: WinContext, rs: PujiangRuleset) -> None:
    """Self-draw only, or 抢杠 naming the robbed player; at most three wilds exist."""
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
            f"options.qiang_gang_amount={rs.options.qiang_gang_amount}: --robbing-kong needs --robbed-fan N, the 番 of the robbed player's hand",
        )
    if ctx.robbed_fan is not None and not by_robbed_fan:
        raise InputError(
            "robbed_fan_unused",
            "--robbed-fan counts only with options.qiang_gang_amount=robbed_fan or robbed_fan_doubling; the robbed player pays the winner's own amounts",
        )
    if ctx.wild is not None:
        held = hand_counts(hand)[ctx.wild]
        limit = rs.numbers.wild_copies
        if held > limit:
            raise InputError(
                "too_many_wilds",
                f"{tile_str(ctx.wild)} is the 财神: one copy is the indicator, so at most {limit} can be held, not {held}",
            )


# --- entry point --------------------------------------------------------------


def score_pujiang(hand: Hand, ctx: WinContext, rs: PujiangRuleset) -> ScoreResult:
    """The kernel's best reading of the hand (kernel.py), explained (explain.py)."""
    check_win_kind(hand, ctx, rs)
    out = pujiang_explain.kernel(hand, ctx, rs)
    if out.code != pujiang_kernel.WIN:
        raise pujiang_explain.refusal(rs, out.best)
    return pujiang_explain.result(hand, ctx, rs, out)
