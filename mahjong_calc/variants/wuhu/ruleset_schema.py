"""The sections of a Wuhu ruleset: the schema of rulesets/wuhu*.yaml (values live only there).

Each key carries `Doc(zh, en, section)`: what it means and the `## ` section of
docs/rules/wuhu.md that records its reading; `mjcalc options` reads them from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Literal

from ...rules.schema import Aliases, Doc, GameRules, Label, Section

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset


# the sections of docs/rules that record these keys' readings
AMOUNTS = "Amounts when the hand is not 交"
JIAO = "交 (the limit payment)"
YA_DANG = "压档"
ZUI_ZI = "嘴子"

# --- the ruleset's sections (the schema; values only in rulesets/wuhu315.yaml) ---------


@dataclass(frozen=True)
class WuhuDiFan:
    """底番 by how the hand was won, with or without 压档."""

    discard: Annotated[int, Doc("底番: 点炮", "底番 (base) of a discard win")]
    discard_ya_dang: Annotated[int, Doc("底番: 点炮压档", "底番 of a discard win with 压档")]
    self_draw: Annotated[int, Doc("底番: 自摸", "底番 of a self-drawn win")]
    self_draw_ya_dang: Annotated[int, Doc("底番: 自摸压档", "底番 of a self-drawn win with 压档")]


@dataclass(frozen=True)
class WuhuZhiFactor:
    """支番 = round_half_up((支 + 压档点) × factor), by how the hand was won."""

    discard: Annotated[float, Doc("支番 = (支 + 压档) × 此数, 点炮", "支番 = (支 + 压档) × this, discard win")]
    self_draw: Annotated[float, Doc("支番 = (支 + 压档) × 此数, 自摸", "支番 = (支 + 压档) × this, self-draw")]


@dataclass(frozen=True)
class WuhuNumbers:
    """The `numbers:` section of a Wuhu ruleset (315 or 525): every amount the arithmetic uses."""

    min_zhi: Annotated[int, Doc("八支: 一门至少几张才能和", "tiles of one suit needed to win (八支)", "Winning")]
    di_fan: Annotated[WuhuDiFan, Section(AMOUNTS)]
    zhi_factor: Annotated[WuhuZhiFactor, Section(AMOUNTS)]
    zui_zi: Annotated[int, Doc("每个嘴子的番数", "番 of each 嘴子 (scoring feature)", AMOUNTS)]
    zui_zi_self_draw_multiplier: Annotated[int, Doc("嘴子自摸翻倍 (杠后开花除外)", "嘴子 multiplier on a self-draw (not 杠后开花)", AMOUNTS)]
    jiao: Annotated[int, Doc("一交的番数", "番 of one 交 (limit payment)", JIAO)]
    jiao_extra_zui_zi: Annotated[int, Doc("交以外每个嘴子再加", "each 嘴子 beyond those that made the 交", JIAO)]
    jiao_self_draw: Annotated[int, Doc("有交时自摸再加", "added to a 交 won by self-draw", JIAO)]
    ming_gang: Annotated[int, Doc("明杠的番数", "番 of an exposed kong (明杠)", AMOUNTS)]
    an_gang: Annotated[int, Doc("暗杠的番数", "番 of a concealed kong (暗杠)", AMOUNTS)]


@dataclass(frozen=True)
class WuhuOptions:
    """The `options:` section of a Wuhu ruleset: each contested reading (docs/rules/wuhu.md)."""

    ya_dang_edge_wait: Annotated[bool, Doc("边张 (12等3, 89等7) 也算压档", "an edge wait (12→3, 89→7) counts as 压档", YA_DANG)]
    si_he_exposed_pung: Annotated[bool, Doc("四核的刻子可以碰在外", "四核's pung may be an exposed pung", ZUI_ZI)]
    shuang_ba_zhi_kongs_same_suit: Annotated[bool, Doc("双八支的两杠须同一门", "双八支's two kongs must share one suit", JIAO)]
    gang_hou_ya_dang_jiao: Annotated[bool, Doc("杠后开花又压档算交", "杠后开花 with 压档 is paid as 交", JIAO)]
    jiao_count_each_source: Annotated[bool, Doc("每个交源各算一交", "one 交 per source instead of one per hand", JIAO)]
    dealer_payer_extra: Annotated[bool, Doc("付钱的庄家多付一个底番", "a paying dealer (--dealer-seat) adds one 底番", AMOUNTS)]
    ya_dang_single_wait: Annotated[bool, Doc("压档须单听那一张", "压档 needs the 13 tiles to wait on that one tile", YA_DANG)]
    hun_yi_se_self_draw_jiao: Annotated[bool, Doc("自摸混一色算交", "a self-drawn 混一色 is paid as 交", YA_DANG)]
    jiao_self_draw_after_kong: Annotated[bool, Doc("杠开也加交的自摸分", "the 交 self-draw bonus applies to a win after a kong too", ZUI_ZI)]
    tong_tian_overlapping: Annotated[bool, Doc("通天可用重叠的顺子 (123 345 567 789)", "通天 may use overlapping sequences covering 1-9", ZUI_ZI)]
    gang_hou_du_diao_jiao: Annotated[
        Literal["off", "da_diao_che", "any_single_wait"],
        Doc("杠后开花独吊 (单钓将) 算交: off 不算; da_diao_che 只有大吊车 (四副全在外, 手里单吊一张); "
            "any_single_wait 任何独吊 (true/false 同 any_single_wait/off)",
            "杠后开花 won on a single wait on the pair (独吊) is paid as 交: off never; da_diao_che only on 大吊车 (all four "
            "sets melded, one tile left to pair); any_single_wait on any 独吊 (true/false mean any_single_wait/off)", JIAO),
        Aliases({True: "any_single_wait", False: "off"}),
    ]
    si_he_three_extra: Annotated[bool, Doc("三个四核: 双四核再加一个四核嘴子", "three 四核 tiles: 双四核 plus one more 四核 as a 嘴子 beyond the 交", JIAO)]


@dataclass(frozen=True)
class WuhuPattern(Label):
    """A pattern entry: its names and its role, 嘴子 (a scoring feature) or 交 by itself."""

    role: Literal["zui_zi", "jiao"]


@dataclass(frozen=True)
class WuhuSettlement(GameRules):
    """The `settlement:` section (liability, see liability.py) of a Wuhu ruleset."""

    # 包 only when the win is 交 (有个前提…是交就包)
    liability_needs_jiao: Annotated[bool, Doc("是交才包", "liability (包) only when the win is 交")]
    # 三对包牌 (清一色/混一色 three-pung alarm)
    san_dui_bao_pai: Annotated[bool, Doc("三对包牌", "三对包牌: three exposed pungs of a suit: their one feeder pays for all, else the discarder")]
    # one feeder of all three pays even when the winner self-draws
    san_dui_bao_on_self_draw: Annotated[bool, Doc("三对包牌自摸也包", "三对包牌 applies on a self-draw too")]
    si_dui_zhuan_bao: Annotated[bool, Doc("四对转包", "四对转包: the feeder of the fourth pung takes the liability over")]
    shuang_ba_zhi_bao: Annotated[bool, Doc("双八支报警后点炮者包", "双八支 after a warning: the discarder pays")]
    # 双四核 alarm (顶嘴子)
    shuang_si_he_bao: Annotated[bool, Doc("双四核报警后顶嘴子者包", "双四核 after a warning: the key-tile discarder pays")]
    # 交算输赢分，不扣底分: a 交 win moves the win/loss score only (score_only), or the 子 too (chips_too)
    jiao_chips: Annotated[
        Literal["score_only", "chips_too"],
        Doc("交是否扣子 (score_only: 只算输赢分)", "whether a 交 moves the 子 too (score_only: the score only)"),
    ]


if TYPE_CHECKING:
    WuhuRuleset = Ruleset[WuhuNumbers, WuhuOptions, WuhuPattern]
