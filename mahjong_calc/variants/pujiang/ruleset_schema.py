"""The sections of a Pujiang ruleset: the schema of rulesets/pujiang*.yaml (values live only there).

Each key carries `Doc(zh, en, section)`: what it means and the `## ` section of
docs/rules/pujiang.md that records its reading; `mjcalc options` reads them from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Literal

from ...rules.schema import Doc, GameRules, Label, Range

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset


# 番 double the 子 (子 × fan_multiplier^番): bounded so a house ruleset cannot ask for a number with
# thousands of digits.
Fan = Annotated[int, Range(0, 16)]


# the sections of docs/rules that record these keys' readings
ZI = "子 and value"
WINNING = "Winning"
CAI_SHEN = "财神"
PATTERNS = "Patterns"
PAYMENTS = "Payments"

# --- the ruleset's sections (the schema; values only in rulesets/pujiang.yaml) ---------


@dataclass(frozen=True)
class PujiangNumbers:
    """The `numbers:` section of the Pujiang ruleset: every amount the arithmetic uses."""

    base_zi: Annotated[int, Doc("底子", "the base 子", ZI)]
    peng_zi: Annotated[int, Doc("每刻加几子", "子 added per pung", ZI)]
    gang_zi: Annotated[int, Doc("每杠加几子", "子 added per kong", ZI)]
    fan_multiplier: Annotated[int, Range(0, 16), Doc("每番乘几 (子 × 此数^番)", "each 番 multiplies by this (子 × this^番)", ZI)]
    min_pungs: Annotated[int, Doc("平胡至少几刻", "pungs or kongs a standard hand needs", WINNING)]
    wild_copies: Annotated[int, Doc("财神几张 (翻出的一张除外)", "wild copies in play (the indicator aside)", CAI_SHEN)]
    zhen_13_min_honours: Annotated[int, Doc("真13至少几个字", "different honours 真13 needs", PATTERNS)]
    zhen_zhen_13_honours: Annotated[int, Doc("真真13要几个字", "different honours 真真13 needs", PATTERNS)]


@dataclass(frozen=True)
class PujiangOptions:
    """The `options:` section of the Pujiang ruleset: each contested reading (docs/rules/pujiang.md)."""

    subtract_pungs: Annotated[
        Literal["before_fan", "after_fan"],
        Doc("减碰子在翻番之前 (before_fan) 或之后 (after_fan)", "a payer's pungs come off before doubling (before_fan) or after (after_fan)", PAYMENTS),
    ]
    floor_payment_at_zero: Annotated[bool, Doc("付款最少为0", "a payer never owes less than 0", PAYMENTS)]
    white_as_wild_face: Annotated[bool, Doc("白板可当财神本身的牌 (假财神)", "白板 may play as the wild's face (假财神)", CAI_SHEN)]
    two_wilds_pair_is_cai_shen_tou: Annotated[bool, Doc("两个财神做头算财神头", "a pair of two wilds is 财神头", PATTERNS)]
    qi_dui_four_as_two_pairs: Annotated[bool, Doc("七对中四张相同算两对", "four alike count as two of the seven pairs", PATTERNS)]
    san_cai_shen_stacks: Annotated[bool, Doc("三财神的番加到成牌的番上", "三财神's 番 adds to a complete hand's own 番", PATTERNS)]
    robbing_kong_needs_three_pungs: Annotated[bool, Doc("抢杠也要三刻", "a win by 抢杠 needs three pungs too", WINNING)]
    robbing_kong_wild_needs_fan: Annotated[bool, Doc("有财神抢杠也要有番", "a wild hand winning by 抢杠 needs a 番 too", WINNING)]
    # 抢杠 is worth this many 番 (保飘: 抢杠 is a hand with 番)
    qiang_gang_fan: Annotated[Fan, Doc("抢杠算几番", "番 a win by robbing a kong (抢杠) is worth", WINNING)]
    # 抢杠's amount: the winner's own, or by the robbed player's 番 (--robbed-fan) times, or doubling, the 子
    qiang_gang_amount: Annotated[
        Literal["winner_value", "robbed_fan", "robbed_fan_doubling"],
        Doc("抢杠付款算法", "how a robbed player's payment is reckoned", PAYMENTS),
    ]
    # 真13: each suit's tiles at least three apart (else within 147/258/369)
    zhen_13_wide_gaps: Annotated[bool, Doc("真13每门牌相隔至少三即可 (不限147/258/369)", "真13: any tiles of a suit at least three apart, "
                                             "not only within 147/258/369 (159m counts)", PATTERNS)]


@dataclass(frozen=True)
class PujiangPattern(Label):
    """A pattern entry: its 番; `base`: the 子 the hand starts from instead of numbers.base_zi;
    `fan_with_wild`: its 番 when the hand holds a wild."""

    fan: Fan
    base: int | None = None
    fan_with_wild: Fan | None = None


@dataclass(frozen=True)
class PujiangSettlement(GameRules):
    """The `settlement:` section (liability, see liability.py) of the Pujiang ruleset."""

    # record the robbed player's payment for all three (the scorer makes it)
    qiang_gang_bao: Annotated[bool, Doc("抢杠被抢者包三家", "the robbed player pays for all three (抢杠包)")]
    # 生张 during a 飘 round: the discarder pays for all three
    sheng_zhang_bao: Annotated[bool, Doc("飘财时打生张者包", "a player who discards an unseen tile while someone 飘s pays (生张包)")]
    # the feeder of a second 飘 pays that 飘
    piao_bao: Annotated[bool, Doc("后一飘由打杠打碰者包", "the next 飘's money is paid by whoever fed the kong or pung")]
    # 1 飘: others self-draw only; 2: only hands with 番; 3 (保飘): no win
    piao_limits: Annotated[bool, Doc("飘后他人胡牌受限", "after a 飘, the others' wins are limited (1飘: self-draw only, ...)")]
    # L50 其他的人不能碰与平胡…有翻的牌就可以平胡: after 1 飘 too, only hands with 番
    piao_one_needs_fan: Annotated[bool, Doc("一飘后他人须有番才胡", "after one 飘, the others need a 番 to win")]


if TYPE_CHECKING:
    PujiangRuleset = Ruleset[PujiangNumbers, PujiangOptions, PujiangPattern]
