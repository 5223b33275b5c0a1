"""Chizhou 池州麻将 承包 and 反包 (seed 001 §19 and the 承包 section).

- 承包 (自己胡牌 (1)): F fed the winner 3 or more melds of one suit and the winner is at
  拉子: a discard by another player costs F the same again; a discard by F costs F
  three shares; a self-draw costs F three shares (the others pay their own).
- 反包 (别人胡牌 (1)-(7)): the winner F had fed another player R 3 melds of one suit,
  or 3 pungs: R pays F 1, 2 or 3 units (another player discarded, R discarded, F
  self-drew), unless R has 花 and R's own hand is not at 拉子; 4 melds: 2, 4 or 6 units,
  always. A unit is the winner's value (底 × the capped multiplier): 小牌 1,2,3; 拉子 3,6,9.
- A player who owes both (fed the winner, and was fed by the winner) pays both, each its own
  liability line; `cheng_bao_and_fan_bao: larger` pays only the larger amount.
- `cheng_bao_table: cheng_bao_section` uses the later 承包 section's figures instead
  (A独供B 4口), which contradict the numbered cases: as written, A pays 9, 9 or 3 底 (× the cap
  at 拉子) and everyone else their own share; `cheng_bao_section_scaled` pays every figure
  of the section in units of the winner's value. See docs/rules/chizhou.md.

Several winners on one discard (一炮多响) are settled one by one, each with the discarder.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ...core.context import SEATS, Seat, WinContext
from ...core.result import ScoreResult
from ...core.tiles import is_honour
from ..common.settlement import Liability, Settlement, Sourced, Table, diff, options_of
from .ruleset_schema import ChizhouSettlement

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset


def _one_suit_feeder(melds: list[Sourced], need: int) -> Seat | None:
    """A payer who fed `need` or more melds of one suit (吃 or 碰), if any."""
    counts = Counter((s.source, s.meld.first // 9) for s in melds if s.source in SEATS and not is_honour(s.meld.first))
    for (source, _), n in counts.most_common():
        if n >= need:
            return source
    return None


def _fed_count(melds: list[Sourced], source: str) -> int:
    return sum(1 for s in melds if s.source == source)


def _unit(result: ScoreResult) -> int:
    return result.value  # 底 × the capped multiplier


def _how(ctx: WinContext, payer: Seat) -> int:
    """0: another player discarded; 1: `payer` discarded (or was robbed); 2: the winner self-drew."""
    if ctx.self_draw:
        return 2
    return 1 if ctx.discarder == payer else 0


def _section(opt: ChizhouSettlement) -> bool:
    """Whether 承包 and 反包 follow the 承包 section (A独供B 4口), as written or scaled."""
    return opt.cheng_bao_table != "cases"


def _forward(result: ScoreResult, ctx: WinContext, table: Table, opt: ChizhouSettlement, ruleset: Ruleset[Any, Any, Any]) -> Settlement | None:
    melds = [s for s in table.winner_melds(result) if not s.meld.concealed]
    before = dict(result.payments)
    v = _unit(result)
    if _section(opt):
        feeders = [seat for seat in SEATS if _fed_count(melds, seat) >= 4]
        if not feeders:
            return None
        a = feeders[0]
        how = _how(ctx, a)
        if opt.cheng_bao_table == "cheng_bao_section":
            # as written: A pays 3*3 or 1*3 底, 按1番 for a 小胡 (大吊车 is one, L85), 按3番 at 拉子;
            # the others pay what they pay anyway ("其余两家赔付2" is a 大吊车's own 2)
            unit = v if "la_zi" in result.patterns else int(ruleset.numbers.base)
            after = dict(before)
            after[a] = (3 if how == 0 else 9) * unit
            return diff(before, after, "cheng_bao")
        if how == 2:
            after = {seat: (9 * v if seat == a else 2 * v) for seat in SEATS}
        elif how == 1:
            after = {seat: (9 * v if seat == a else 0) for seat in SEATS}
        else:
            after = {seat: (3 * v if seat == a else 2 * v if seat == ctx.discarder else 0) for seat in SEATS}
        return diff(before, after, "cheng_bao")
    if "la_zi" not in result.patterns:
        return None  # 你胡的牌不是蜡子不考虑上面的规则
    f = _one_suit_feeder(melds, opt.cheng_bao_min_melds)
    if f is None:
        return None
    after = dict(before)
    how = _how(ctx, f)
    after[f] = before[f] + v if how == 0 else 3 * v
    return diff(before, after, "cheng_bao")


def exposed_hua(melds: tuple[Sourced, ...], ruleset: Ruleset[Any, Any, Any]) -> int:
    """The 花 a player's exposed melds bring (字碰, 明杠, 字明杠): the least their hand has."""
    per = ruleset.numbers.flowers
    total = 0
    for s in melds:
        honour = is_honour(s.meld.first)
        if s.meld.kind == "kong":
            total += getattr(per, ("zi_" if honour else "") + ("an_gang" if s.meld.concealed else "ming_gang"))
        elif s.meld.kind == "pung" and honour:
            total += per.zi_peng
    return int(total)


def _fan_bao_units(table: Table, r: Seat, opt: ChizhouSettlement, hua: int) -> tuple[int, int, int] | None:
    """What R pays the winner F in units (another discards, R discards, F self-draws), or None."""
    melds = [s for s in table.exposed.get(r, ()) if s.source == "winner" and not s.meld.concealed]
    if _section(opt):
        return (3, 3, 3) if len(melds) >= 4 else None
    if len(melds) >= 4:
        return (2, 4, 6)  # case (7): 不管你是不是蜡子
    suits = Counter(s.meld.first // 9 for s in melds if not is_honour(s.meld.first))
    pungs = sum(1 for s in melds if s.meld.kind in ("pung", "kong"))
    if max(suits.values(), default=0) < 3 and pungs < 3:
        return None
    if hua and r not in table.la_zi:
        return None  # cases (3), (6): 有花 but not at 蜡子
    return (1, 2, 3)


def _reverse(
    result: ScoreResult, ctx: WinContext, table: Table, opt: ChizhouSettlement, payments: dict[Seat, int], ruleset: Ruleset[Any, Any, Any]
) -> tuple[dict[Seat, int], list[Liability]]:
    """`payments` are those after 承包; the 反包 amount is measured against the scorer's own."""
    v = _unit(result)
    normal = result.payments
    after = dict(payments)
    rows: list[Liability] = []
    for r in SEATS:
        hua = table.hua[r] if r in table.hua else exposed_hua(table.exposed.get(r, ()), ruleset)
        units = _fan_bao_units(table, r, opt, hua)
        if units is None:
            continue
        k = units[_how(ctx, r)] * v
        # the 承包 section's "B都要赔付给A 1*3" is what B pays in all
        total = opt.fan_bao_amounts == "total" or _section(opt)
        pay = k if total else normal[r] + k  # R's payment under 反包 alone
        if opt.cheng_bao_and_fan_bao == "both":
            # a separate obligation: what 反包 adds to R's own share comes on top of any 承包 line
            extra = pay - normal[r]
        else:  # larger: one who owes 承包 too pays the larger of the two amounts
            extra = pay - after[r]
        if extra > 0:
            rows.append(Liability(r, "fan_bao", extra))
            after[r] += extra
    return after, rows


def settle_chizhou(result: ScoreResult, ctx: WinContext, table: Table, ruleset: Ruleset[Any, Any, Any]) -> Settlement:
    """承包 of the winner's feeder, then 反包 of anyone the winner fed."""
    opt = options_of(ChizhouSettlement, ruleset)
    settled = Settlement(dict(result.payments))
    if opt.cheng_bao:
        settled = _forward(result, ctx, table, opt, ruleset) or settled
    if opt.fan_bao:
        after, rows = _reverse(result, ctx, table, opt, settled.payments, ruleset)
        if rows:
            settled = Settlement(after, settled.liability + tuple(rows))
    return settled
