"""The `settlement:` section of each variant's ruleset, as frozen dataclasses (the schema).

The loader builds them from the YAML (`Variant.settlement`, `Ruleset.settlement`); values
live only in rulesets/*.yaml. They sit apart from the settlers so that loading a ruleset
does not import the settlers (start-up time of `mjcalc score`); `settlement/<variant>.py`
re-exports its class.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class GameRules:
    """Options every variant's game needs: dealer rotation, 一炮多响, the 子 ledger.

    Values live only in the rulesets' `settlement:` sections (no defaults here).
    """

    # who deals next after a win: the dealer stays if the dealer won (else the next seat deals),
    # the winner deals, or the deal always passes to the next seat
    dealer_after_win: Literal["stay_if_dealer_else_next", "winner", "next"]
    dealer_after_draw: Literal["stay", "next"]  # after 流局 / 黄庄
    multiple_winners: bool  # 一炮多响: several players may win on one discard
    chips: int  # 子 each player starts with; 0 keeps no 子 ledger (the game never ends by itself)


@dataclass(frozen=True)
class WuhuSettlement(GameRules):
    """The `settlement:` section of a Wuhu ruleset."""

    liability_needs_jiao: bool  # 包 only when the win is 交 (有个前提…是交就包)
    san_dui_bao_pai: bool  # 三对包牌 (清一色/混一色 three-pung alarm)
    san_dui_bao_on_self_draw: bool  # one feeder of all three pays even when the winner self-draws
    si_dui_zhuan_bao: bool  # 四对转包
    shuang_ba_zhi_bao: bool  # 双八支 alarm
    shuang_si_he_bao: bool  # 双四核 alarm (顶嘴子)
    # 交算输赢分，不扣底分: a 交 win moves the win/loss score only (score_only), or the 子 too (chips_too)
    jiao_chips: Literal["score_only", "chips_too"]


@dataclass(frozen=True)
class ChizhouSettlement(GameRules):
    """The `settlement:` section of the Chizhou ruleset."""

    cheng_bao: bool  # 承包: the feeder of one suit's melds pays when the winner is at 拉子
    cheng_bao_min_melds: int  # 吃碰一色3口以上
    fan_bao: bool  # 反包 cases (1)-(7)
    # the seed's figures 1,2,3 (and 2,4,6) are what R pays in all (total), or on top of the normal payment (extra)
    fan_bao_amounts: Literal["total", "extra"]
    # cases: the numbered cases of §19; cheng_bao_section: the later "A独供B 4口" figures
    cheng_bao_table: Literal["cases", "cheng_bao_section"]


@dataclass(frozen=True)
class PujiangSettlement(GameRules):
    """The `settlement:` section of the Pujiang ruleset."""

    qiang_gang_bao: bool  # record the robbed player's payment for all three (the scorer makes it)
    sheng_zhang_bao: bool  # 生张 during a 飘 round: the discarder pays for all three
    piao_bao: bool  # the feeder of a second 飘 pays that 飘
    piao_limits: bool  # 1 飘: others self-draw only; 2: only hands with 番; 3 (保飘): no win
    piao_one_needs_fan: bool  # L50 其他的人不能碰与平胡…有翻的牌就可以平胡: after 1 飘 too, only hands with 番
