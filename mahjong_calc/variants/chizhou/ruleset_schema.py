"""The sections of a Chizhou ruleset: the schema of rulesets/chizhou*.yaml (values live only there).

Each key carries `Doc(zh, en, section)`: what it means and the `## ` section of
docs/rules/chizhou.md that records its reading; `mjcalc options` reads them from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Literal

from ...rules.schema import Doc, GameRules, Label, Range, Section

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset


# the sections of docs/rules that record these keys' readings
THRESHOLDS = "Win thresholds"
HUA = "花"
PATTERNS = "Patterns and the multiplier"
CHOW_RULE = "Chow restriction"

# --- the ruleset's sections (the schema; values only in rulesets/chizhou.yaml) ---------


@dataclass(frozen=True)
class ChizhouMinFlowers:
    """花 needed to win, by how the hand was won."""

    self_draw: Annotated[int, Doc("自摸至少几花", "花 needed to win by self-draw")]
    discard: Annotated[int, Doc("冲 (点炮) 至少几花", "花 needed to win on a discard (冲)")]
    qiang_gang: Annotated[int, Doc("抢杠至少几花", "花 needed to win by robbing a kong (抢杠)")]


@dataclass(frozen=True)
class ChizhouFlowers:
    """花 each kind of set brings its winner."""

    zi_peng: Annotated[int, Doc("字碰几花", "花 of an exposed honour pung (字碰)")]
    zi_an_ke: Annotated[int, Doc("字暗刻几花", "花 of a concealed honour triplet (字暗刻)")]
    ming_gang: Annotated[int, Doc("明杠 (数牌) 几花", "花 of an exposed suited kong (明杠)")]
    an_gang: Annotated[int, Doc("暗杠 (数牌) 几花", "花 of a concealed suited kong (暗杠)")]
    zi_ming_gang: Annotated[int, Doc("字明杠几花", "花 of an exposed honour kong (字明杠)")]
    zi_an_gang: Annotated[int, Doc("字暗杠几花", "花 of a concealed honour kong (字暗杠)")]


@dataclass(frozen=True)
class ChizhouNumbers:
    """The `numbers:` section of the Chizhou ruleset: every amount the arithmetic uses."""

    base: Annotated[int, Doc("底", "the base (底) the fans multiply", PATTERNS)]
    cap: Annotated[int, Doc("封顶番数 (到顶为拉子)", "the cap on the product of fans (a capped hand is 拉子)", PATTERNS)]
    min_flowers: Annotated[ChizhouMinFlowers, Section(THRESHOLDS)]
    chow_free_min_flowers: Annotated[int, Doc("少于几花只能吃一色 (0 = 不限)", "below this many 花 chow melds must share a suit (0: off)", CHOW_RULE)]
    flowers: Annotated[ChizhouFlowers, Section(HUA)]


@dataclass(frozen=True)
class ChizhouOptions:
    """The `options:` section of the Chizhou ruleset: each contested reading (docs/rules/chizhou.md)."""

    la_zi_needs_no_flowers: Annotated[bool, Doc("拉子不要花 (抢杠除外)", "a capped hand (拉子) wins with any 花, except by 抢杠", THRESHOLDS)]
    da_diao_che_concealed_kong: Annotated[bool, Doc("大吊车的四副可含暗杠", "大吊车's four melds may include concealed kongs", PATTERNS)]
    discard_triplet_is_exposed: Annotated[bool, Doc("点炮成的字刻算字碰", "an honour triplet completed by the discard is 字碰, not 字暗刻", HUA)]
    honour_pung_is_another_suit: Annotated[bool, Doc("字碰算另一门 (限吃一色时)", "an honour pung counts as another suit for the chow restriction", CHOW_RULE)]
    da_diao_che_payment_multiplier: Annotated[
        int, Range(1, 1000),
        Doc("大吊车结算倍数 (1 = 同小胡)", "大吊车's payments are multiplied by this (1: as any hand)", "Payments"),
    ]


@dataclass(frozen=True)
class ChizhouPattern(Label):
    """A pattern entry: its names and the factor (番) it multiplies the base by."""

    fan: int


@dataclass(frozen=True)
class ChizhouSettlement(GameRules):
    """The `settlement:` section (liability, see liability.py) of the Chizhou ruleset."""

    # 承包: the feeder of one suit's melds pays when the winner is at 拉子
    cheng_bao: Annotated[bool, Doc("承包", "承包: who fed the winner 3+ melds of one suit pays more for a capped hand (拉子)")]
    # 吃碰一色3口以上
    cheng_bao_min_melds: Annotated[int, Doc("承包至少几口", "melds one player must feed for 承包")]
    # 反包 cases (1)-(7)
    fan_bao: Annotated[bool, Doc("反包", "反包: the liable player pays for the cases of §19")]
    # the seed's figures 1,2,3 (and 2,4,6) are what R pays in all (total), or on top of the normal payment (extra)
    fan_bao_amounts: Annotated[
        Literal["total", "extra"],
        Doc("反包金额算法 (total / extra)", "反包 amounts: what the liable pays in all (total) or on top (extra)"),
    ]
    # cases: the numbered cases of §19; cheng_bao_section: the later "A独供B 4口" figures as written;
    # cheng_bao_section_scaled: those figures in units of the winner's value
    cheng_bao_table: Annotated[
        Literal["cases", "cheng_bao_section", "cheng_bao_section_scaled"],
        Doc("承包数额依据: cases 按§19各条; cheng_bao_section 按承包一节的数 (照写); cheng_bao_section_scaled 每个数乘赢家的番",
            "which table of the seed 承包 amounts follow: cases (§19's cases), cheng_bao_section (the 承包 section's figures "
            "as written), cheng_bao_section_scaled (its figures × the winner's value)"),
    ]
    # a player who owes 承包 and 反包 in one win: both (each on top of their own share), or the larger
    cheng_bao_and_fan_bao: Annotated[
        Literal["both", "larger"],
        Doc("既承包又反包者两项都付 (both / larger)", "one player owing 承包 and 反包 pays both (or the larger)"),
    ]


if TYPE_CHECKING:
    ChizhouRuleset = Ruleset[ChizhouNumbers, ChizhouOptions, ChizhouPattern]
