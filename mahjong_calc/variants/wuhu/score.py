"""Wuhu 芜湖麻将, scored "315" or "525": 八支, 压档, 底番, 支番, 嘴子, 交, kongs, dealer.

Every number and switch comes from the ruleset; see docs/rules/wuhu.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.context import WinContext
from ...core.errors import NotAWin
from ...core.hand import Hand
from ...core.result import ScoreResult
from . import build as wuhu_build
from . import kernel as wuhu_kernel

if TYPE_CHECKING:
    from .ruleset_schema import WuhuRuleset


def not_a_win(code: str, zhi: int, rs: WuhuRuleset) -> NotAWin:
    """The two ways a well-formed hand fails to win (the kernel reports them by code): made once per
    distinct refusal (shared: a door raises a copy)."""
    key = ("wuhu_refusal", code, zhi)
    made: NotAWin | None = rs.memo.get(key)
    if made is None:
        made = rs.memo.keep(key, _not_a_win(code, zhi, rs))
    return made


def _not_a_win(code: str, zhi: int, rs: WuhuRuleset) -> NotAWin:
    if code == "no_ba_zhi":
        need = rs.numbers.min_zhi
        return NotAWin(code, "not 八支: the longest suit has {zhi} tiles (支); a win needs {need}", zhi=zhi, need=need)
    return NotAWin("not_a_winning_hand", "the tiles do not form a pair plus four sets (pungs or sequences)")


def score_wuhu(hand: Hand, ctx: WinContext, rs: WuhuRuleset) -> ScoreResult | NotAWin:
    """The kernel's best reading of the hand (kernel.py), made into a result (build.py); or why it does not win."""
    out = wuhu_kernel.score(rs, hand, ctx)
    if out.code == wuhu_kernel.NO_BA_ZHI:
        return not_a_win("no_ba_zhi", out.zhi, rs)
    if out.code != wuhu_kernel.WIN:
        return not_a_win("not_a_winning_hand", out.zhi, rs)
    return wuhu_build.result(hand, ctx, rs, out)
