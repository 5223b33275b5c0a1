"""Wuhu 芜湖麻将, scored "315" or "525": 八支, 压档, 底番, 支番, 嘴子, 交, kongs, dealer.

Every number and switch comes from the ruleset; see docs/rules/wuhu.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ...core.errors import NotAWin
from ...core.hand import Hand, WinContext
from ...core.result import ScoreResult
from ...rules.schema import GameRules, Label
from . import explain as wuhu_explain
from . import kernel as wuhu_kernel

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset


# --- the ruleset's sections (the schema; values only in rulesets/wuhu315.yaml) ---------


@dataclass(frozen=True)
class WuhuDiFan:
    """底番 by how the hand was won, with or without 压档."""

    discard: int
    discard_ya_dang: int
    self_draw: int
    self_draw_ya_dang: int


@dataclass(frozen=True)
class WuhuZhiFactor:
    """支番 = round_half_up((支 + 压档点) × factor), by how the hand was won."""

    discard: float
    self_draw: float


@dataclass(frozen=True)
class WuhuNumbers:
    """The `numbers:` section of a Wuhu ruleset (315 or 525): every amount the arithmetic uses."""

    min_zhi: int
    di_fan: WuhuDiFan
    zhi_factor: WuhuZhiFactor
    zui_zi: int
    zui_zi_self_draw_multiplier: int
    jiao: int
    jiao_extra_zui_zi: int
    jiao_self_draw: int
    ming_gang: int
    an_gang: int


@dataclass(frozen=True)
class WuhuOptions:
    """The `options:` section of a Wuhu ruleset: each contested reading (docs/rules/wuhu.md)."""

    ya_dang_edge_wait: bool
    si_he_exposed_pung: bool
    shuang_ba_zhi_kongs_same_suit: bool
    gang_hou_ya_dang_jiao: bool
    jiao_count_each_source: bool
    dealer_payer_extra: bool
    ya_dang_single_wait: bool  # 压档 needs a single wait (else: the shape alone)
    hun_yi_se_self_draw_jiao: bool  # a self-drawn 混一色 is 交
    jiao_self_draw_after_kong: bool  # the 交 self-draw bonus also after a kong
    tong_tian_overlapping: bool  # 通天 from any sequences covering 1-9
    gang_hou_du_diao_jiao: bool  # 杠后开花 on a single wait on the pair (独吊) is 交, like 杠后压档
    si_he_three_extra: bool  # three 四核 tiles: 双四核 plus a 四核 嘴子 beyond the 交


@dataclass(frozen=True)
class WuhuPattern(Label):
    """A pattern entry: its names and its role, 嘴子 (a scoring feature) or 交 by itself."""

    role: Literal["zui_zi", "jiao"]


@dataclass(frozen=True)
class WuhuSettlement(GameRules):
    """The `settlement:` section (liability, see settle.py) of a Wuhu ruleset."""

    liability_needs_jiao: bool  # 包 only when the win is 交 (有个前提…是交就包)
    san_dui_bao_pai: bool  # 三对包牌 (清一色/混一色 three-pung alarm)
    san_dui_bao_on_self_draw: bool  # one feeder of all three pays even when the winner self-draws
    si_dui_zhuan_bao: bool  # 四对转包
    shuang_ba_zhi_bao: bool  # 双八支 alarm
    shuang_si_he_bao: bool  # 双四核 alarm (顶嘴子)
    # 交算输赢分，不扣底分: a 交 win moves the win/loss score only (score_only), or the 子 too (chips_too)
    jiao_chips: Literal["score_only", "chips_too"]


if TYPE_CHECKING:
    WuhuRuleset = Ruleset[WuhuNumbers, WuhuOptions, WuhuPattern]


def not_a_win(code: str, zhi: int, rs: WuhuRuleset) -> NotAWin:
    """The two ways a well-formed hand fails to win (the kernel reports them by code)."""
    if code == "no_ba_zhi":
        need = rs.numbers.min_zhi
        return NotAWin(code, f"not 八支: the longest suit has {zhi} tiles (支); a win needs {need}")
    return NotAWin("not_a_winning_hand", "the tiles do not form a pair plus four sets (pungs or sequences)")


def score_wuhu(hand: Hand, ctx: WinContext, rs: WuhuRuleset) -> ScoreResult:
    """The kernel's best reading of the hand (kernel.py), explained (explain.py)."""
    out = wuhu_explain.kernel(hand, ctx, rs)
    if out.code == wuhu_kernel.NO_BA_ZHI:
        raise not_a_win("no_ba_zhi", out.zhi, rs)
    if out.code != wuhu_kernel.WIN:
        raise not_a_win("not_a_winning_hand", out.zhi, rs)
    return wuhu_explain.result(hand, ctx, rs, out)
