"""Pujiang 浦江麻将 承包 and the 飘 limits (seed 002 §12 承包, 抢杠, 飘财神, 保飘).

- 抢杠包: the robbed player pays all three shares. The scorer already charges them
  (`kernel.py: payments`); the settler records the shift.
- 生张包: during a 飘 round, the player who discarded a tile not yet seen on the table
  (生张), letting another player win a hand with 番, pays all three shares.
- 飘包: when the winner's second (or later) 飘 came from a pung or kong that someone
  fed, that feeder pays the later 飘's share of all three payers.
- The 飘 limits are validity rules, not payments: while another player is in a 飘
  round, after 1 飘 the others may only self-draw, after 2 only hands with 番, after 3
  (保飘) nobody else may win: `NotAWin("win_not_allowed_during_piao")`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.context import SEATS, Seat, WinContext
from ...core.errors import NotAWin
from ...core.result import ScoreResult
from ..common.settlement import Liability, Settlement, Table, options_of, pays_for_all
from .ruleset_schema import PujiangSettlement

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset


def check_piao_limits(result: ScoreResult, ctx: WinContext, table: Table, one_needs_fan: bool = False) -> None:
    """Refuse a win that the 飘 round of another player does not allow."""
    if table.piao_by is None or table.piao_by == "winner" or table.piao_count <= 0:
        return
    n, who = table.piao_count, table.who(table.piao_by)
    fan = int(result.extra.get("fan", 0))
    if n >= 3:
        raise NotAWin("win_not_allowed_during_piao", "{who} has {n} 飘 (保飘): nobody else may win until the round ends", who=who, n=n)
    if n == 2 and fan == 0:
        raise NotAWin("win_not_allowed_during_piao", "{who} has 2 飘: the others may win only hands with 番, and this hand has none", who=who)
    if n == 1 and not ctx.self_draw:
        raise NotAWin("win_not_allowed_during_piao", "{who} has 1 飘: the others may only win by self-draw", who=who)
    if n == 1 and one_needs_fan and fan == 0:
        raise NotAWin("win_not_allowed_during_piao", "{who} has 1 飘: the others may win only hands with 番 (piao_one_needs_fan)", who=who)


def _own_share(result: ScoreResult, ctx: WinContext, seat: Seat, fan: int, rs: Ruleset[Any, Any, Any]) -> int:
    from .kernel import owed, owed_by_robbed_fan  # the scorer's arithmetic for one payer

    pungs = ctx.opponent_pungs or (0, 0, 0)
    if ctx.robbing_kong and ctx.robbed_fan is not None and rs.options.qiang_gang_amount != "winner_value":
        return owed_by_robbed_fan(rs, int(result.extra["zi"]), ctx.robbed_fan, pungs[SEATS.index(seat)])
    return owed(rs, int(result.extra["zi"]), fan, pungs[SEATS.index(seat)])


def settle_pujiang(result: ScoreResult, ctx: WinContext, table: Table, ruleset: Ruleset[Any, Any, Any]) -> Settlement:
    opt = options_of(PujiangSettlement, ruleset)
    if opt.piao_limits:
        check_piao_limits(result, ctx, table, opt.piao_one_needs_fan)
    payments = dict(result.payments)
    fan = int(result.extra.get("fan", 0))
    if ctx.robbing_kong and ctx.discarder is not None:
        if not opt.qiang_gang_bao:
            return Settlement(payments)
        own = _own_share(result, ctx, ctx.discarder, fan, ruleset)
        return Settlement(payments, (Liability(ctx.discarder, "qiang_gang_bao", payments[ctx.discarder] - own),))
    in_piao_round = table.piao_by is not None and table.piao_count > 0
    if opt.sheng_zhang_bao and in_piao_round and table.sheng_zhang is not None and fan > 0:
        return pays_for_all(payments, table.sheng_zhang, "sheng_zhang_bao")
    if opt.piao_bao and ctx.piao >= 2:
        fed = [s for s in table.winner_melds(result) if s.meld.kind in ("pung", "kong") and s.source in SEATS]
        if fed:
            feeder: Seat = fed[-1].source  # type: ignore[assignment]
            after = dict(payments)
            for seat in SEATS:
                if seat != feeder:
                    without = _own_share(result, ctx, seat, fan - 1, ruleset)
                    later = payments[seat] - without
                    after[seat] -= later
                    after[feeder] += later
            rows = (Liability(feeder, "piao_bao", after[feeder] - payments[feeder]),) if after[feeder] > payments[feeder] else ()
            return Settlement(after, rows)
    return Settlement(payments)
