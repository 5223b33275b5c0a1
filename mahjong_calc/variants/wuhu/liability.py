"""Wuhu 芜湖麻将 报警 and 包牌 (seed 000 §3.13-14, §4): one liable player pays for all three.

Every rule applies only when the win is paid as 交 ("是交就包"). The first that
applies, in this order, names the liable player:

- 四对转包: after a three-pung alarm, the feeder of the fourth pung;
- 三对包牌: three exposed pungs of one suit (or one suit and 中): their feeder if one
  player fed all three, else the discarder of the winning tile;
- 双八支: two kongs of one suit and an exposed pung of another number suit (not an honour):
  the discarder;
- 双四核: two exposed pungs of one suit whose numbers are 1 or 2 apart: the discarder
  of the winning tile when it is the key tile (顶嘴子), one of those two numbers.

See docs/rules/wuhu.md, "Liability and settlement".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.context import SEATS, Seat, WinContext
from ...core.hand import Meld
from ...core.result import ScoreResult
from ...core.tiles import RED, is_honour
from ..common.settlement import Settlement, Sourced, Table, options_of, pays_for_all
from .ruleset_schema import WuhuSettlement

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset


def _suited_pung(m: Meld) -> bool:
    return m.kind in ("pung", "kong") and not m.concealed


def _alarm_suit(melds: list[Sourced]) -> int | None:
    """The suit of a three-pung alarm among the first three exposed pungs, or None.

    Three exposed pungs (or kongs) of one suit, or of one suit and 红中 (混一色).
    """
    first = melds[:3]
    if len(first) < 3:
        return None
    suits = {s.meld.first // 9 for s in first if not is_honour(s.meld.first)}
    honours_ok = all(s.meld.first == RED for s in first if is_honour(s.meld.first))
    if len(suits) == 1 and honours_ok:
        return suits.pop()
    return None


def _in_alarm(m: Meld, suit: int) -> bool:
    return m.first == RED or (not is_honour(m.first) and m.first // 9 == suit)


def _seat(position: object) -> Seat | None:
    return position if position in SEATS else None


def liable(result: ScoreResult, ctx: WinContext, table: Table, opt: WuhuSettlement) -> tuple[Seat, str] | None:
    """(the liable seat, the rule's code), or None when payment is normal."""
    if opt.liability_needs_jiao and "jiao" not in result.patterns:
        return None
    discarder = None if ctx.self_draw else ctx.discarder
    melds = table.winner_melds(result)
    exposed = [s for s in melds if _suited_pung(s.meld)]
    suit = _alarm_suit(exposed)
    if suit is not None and all(s.source is not None for s in exposed[:3]):
        fourth = [s for s in exposed[3:] if _in_alarm(s.meld, suit)]
        if opt.si_dui_zhuan_bao and fourth and _seat(fourth[0].source):
            return _seat(fourth[0].source), "si_dui_zhuan_bao"  # type: ignore[return-value]
        if opt.san_dui_bao_pai:
            feeders = {s.source for s in exposed[:3]}
            if len(feeders) == 1 and _seat(next(iter(feeders))) and (discarder or opt.san_dui_bao_on_self_draw):
                return _seat(next(iter(feeders))), "san_dui_bao_pai"  # type: ignore[return-value]
            if len(feeders) > 1 and discarder:
                return discarder, "san_dui_bao_pai"
    if opt.shuang_ba_zhi_bao and discarder:
        kongs = [m for m in result.hand.melds if m.kind == "kong" and not is_honour(m.first)]
        kong_suits = [m.first // 9 for m in kongs]
        two = {s for s in kong_suits if kong_suits.count(s) >= 2}
        # 另一个颜色: a number suit (花色) other than the kongs'; 红中 and the winds have none
        if two and any(s.meld.kind == "pung" and not is_honour(s.meld.first) and s.meld.first // 9 not in two for s in exposed):
            return discarder, "shuang_ba_zhi_bao"
    if opt.shuang_si_he_bao and discarder:
        pungs = [s.meld.first for s in exposed if s.meld.kind == "pung" and not is_honour(s.meld.first)]
        for a in pungs:
            for b in pungs:
                if a < b and a // 9 == b // 9 and b - a <= 2 and result.hand.win_tile in (a, b):
                    return discarder, "shuang_si_he_bao"
    return None


def settle_wuhu(result: ScoreResult, ctx: WinContext, table: Table, ruleset: Ruleset[Any, Any, Any]) -> Settlement:
    """The liable player, if any, pays all three shares (dealer extras included)."""
    found = liable(result, ctx, table, options_of(WuhuSettlement, ruleset))
    if found is None:
        return Settlement(dict(result.payments))
    seat, code = found
    return pays_for_all(result.payments, seat, code)
