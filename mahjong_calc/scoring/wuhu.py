"""Wuhu 芜湖麻将, scored "315" or "525": 八支, 压档, 底番, 支番, 嘴子, 交, kongs, dealer.

Every number and switch comes from the ruleset; see docs/rules/wuhu.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ..decompose import Arrangement, arrangements, hand_counts, waits_before_win
from ..errors import NotAWin
from ..hand import Hand, Seat, WinContext
from ..patterns import Candidate, detect
from ..result import Item, ScoreResult
from ..ruleset import Choice, Ruleset, common_schema
from ..tiles import number_of, tile_str
from ..settlement import settlement_section
from .common import each_pays, item, result, round_half_up

SCHEMA = common_schema(
    {"zh": str, "en": str, "role": Choice("zui_zi", "jiao")},
    numbers={
        "min_zhi": int,
        "di_fan": {"discard": int, "discard_ya_dang": int, "self_draw": int, "self_draw_ya_dang": int},
        "zhi_factor": {"discard": float, "self_draw": float},
        "zui_zi": int,
        "zui_zi_self_draw_multiplier": int,
        "jiao": int,
        "jiao_extra_zui_zi": int,
        "jiao_self_draw": int,
        "ming_gang": int,
        "an_gang": int,
    },
    options={
        "ya_dang_edge_wait": bool,
        "si_he_exposed_pung": bool,
        "shuang_ba_zhi_kongs_same_suit": bool,
        "gang_hou_ya_dang_jiao": bool,
        "jiao_count_each_source": bool,
        "dealer_payer_extra": bool,
    },
    settlement=settlement_section("wuhu"),  # issue 12: settlement/wuhu.py
)


def zhi_of(counts: tuple[int, ...]) -> int:
    """支: the largest count of one suit over all the winner's tiles (a kong counts 4)."""
    return max(sum(counts[s * 9 : s * 9 + 9]) for s in range(3))


def ya_dang_points(arr: Arrangement, win: int, waits: tuple[int, ...], edge: bool) -> int:
    """压档: a single wait, filled in the middle of a sequence (or its edge, if allowed)."""
    s = arr.win_set
    if len(waits) != 1 or s is None or s.kind != "chow" or s.declared:
        return 0
    middle = win == s.first + 1
    edge_wait = (win == s.first + 2 and number_of(s.first) == 1) or (win == s.first and number_of(s.first) == 7)
    return number_of(win) if middle or (edge and edge_wait) else 0


@dataclass(frozen=True)
class _Reading:
    value: int
    items: tuple[Item, ...]
    patterns: tuple[str, ...]
    arrangement: Arrangement
    ya_dang: int
    dealer_extra: int


def _read(arr: Arrangement, hand: Hand, ctx: WinContext, rs: Ruleset, counts: tuple[int, ...], zhi: int, waits: tuple[int, ...]) -> _Reading:
    num: dict[str, Any] = rs.data["numbers"]
    opt = rs.options
    ya = ya_dang_points(arr, hand.win_tile, waits, opt["ya_dang_edge_wait"])
    cand = Candidate(hand, ctx, arr, counts, opt, {"ya_dang": ya, "zhi": zhi})
    found = detect(rs.patterns, cand)
    role = {key: rs.patterns[key]["role"] for key in found}

    jiao_sources = [k for k in found if role[k] == "jiao"]
    zui_zi = [k for k in found if role[k] == "zui_zi"]
    if "gang_hou_kai_hua" in zui_zi and ya and opt["gang_hou_ya_dang_jiao"]:
        zui_zi.remove("gang_hou_kai_hua")
        jiao_sources.append("gang_hou_kai_hua")

    draw = "self_draw" if ctx.self_draw else "discard"
    if jiao_sources or len(zui_zi) >= 2:
        items = _jiao_items(rs, jiao_sources, zui_zi, ctx, num, opt)
        dealer_extra = 0
    else:
        di = num["di_fan"][f"{draw}_ya_dang" if ya else draw]
        factor = Decimal(str(num["zhi_factor"][draw]))
        zhi_fan = round_half_up((zhi + ya) * factor)
        detail = f"{zhi}支" + (f" + 压{ya}" if ya else "") + f" × {factor}"
        how = {"discard": "点炮 discard", "self_draw": "自摸 self-draw"}[draw] + (f", 压档 {ya}" if ya else "")
        items = [item(rs, "di_fan", di, how), item(rs, "zhi_fan", zhi_fan, detail)]
        for key in zui_zi:
            doubled = ctx.self_draw and key != "gang_hou_kai_hua"
            mult = num["zui_zi_self_draw_multiplier"] if doubled else 1
            items.append(item(rs, key, num["zui_zi"] * mult, "嘴子" + (f" × {mult} self-draw" if doubled else "")))
        for s in arr.sets:
            if s.kind == "kong":
                key = "an_gang" if s.concealed else "ming_gang"
                items.append(item(rs, key, num[key], s.notation()))
        if ctx.dealer:
            items.append(item(rs, "dealer", di, "winner is dealer: one more 底番"))
        dealer_extra = di if opt["dealer_payer_extra"] and ctx.dealer_seat else 0
    patterns = tuple(found) + (("jiao",) if jiao_sources or len(zui_zi) >= 2 else ())
    value = sum(i.value for i in items)
    return _Reading(value, tuple(items), patterns, arr, ya, dealer_extra)


def _jiao_items(rs: Ruleset, sources: list[str], zui_zi: list[str], ctx: WinContext, num: dict[str, Any], opt: Any) -> list[Item]:
    """交: a fixed amount, plus each 嘴子 beyond those that made it, plus self-draw."""
    items: list[Item] = []
    counted = sources if opt["jiao_count_each_source"] else sources[:1]
    for key in counted:
        items.append(item(rs, "jiao", num["jiao"], f"{rs.label(key)[0]} is 交 by itself"))
    extras = list(zui_zi)
    pair_makes_jiao = len(zui_zi) >= 2 and (not sources or opt["jiao_count_each_source"])
    if pair_makes_jiao:
        makers, extras = extras[:2], extras[2:]
        names = " + ".join(rs.label(k)[0] for k in makers)
        items.append(item(rs, "jiao", num["jiao"], f"two 嘴子: {names}"))
        for key in makers:
            items.append(item(rs, key, 0, "嘴子 counted in 交"))
    for key in extras:
        items.append(item(rs, key, num["jiao_extra_zui_zi"], "嘴子 beyond 交"))
    if ctx.self_draw:
        items.append(item(rs, "jiao_self_draw", num["jiao_self_draw"], "self-draw with 交"))
    return items


def not_a_win(code: str, zhi: int, rs: Ruleset) -> NotAWin:
    """The two ways a well-formed hand fails to win (the compiled scorer reports them by code)."""
    if code == "no_ba_zhi":
        need = rs.data["numbers"]["min_zhi"]
        return NotAWin(code, f"not 八支: the longest suit has {zhi} tiles (支); a win needs {need}")
    return NotAWin("not_a_winning_hand", "the tiles do not form a pair plus four sets (pungs or sequences)")


def score(hand: Hand, ctx: WinContext, rs: Ruleset) -> ScoreResult:
    counts = hand_counts(hand)
    zhi = zhi_of(counts)
    if zhi < rs.data["numbers"]["min_zhi"]:
        raise not_a_win("no_ba_zhi", zhi, rs)
    arrs = arrangements(hand)
    if not arrs:
        raise not_a_win("not_a_winning_hand", zhi, rs)
    waits = waits_before_win(hand)
    readings = [_read(a, hand, ctx, rs, counts, zhi, waits) for a in arrs]
    best = max(readings, key=lambda r: r.value)  # first of equals: stable
    payments: dict[Seat, int] = each_pays(best.value)
    if best.dealer_extra and ctx.dealer_seat:
        payments[ctx.dealer_seat] += best.dealer_extra
    return result(
        rs,
        hand,
        value=best.value,
        items=best.items,
        patterns=best.patterns,
        payments=payments,
        decomposition=best.arrangement.to_dict(),
        extra={"zhi": zhi, "ya_dang": best.ya_dang, "waits": [tile_str(t) for t in waits]},
    )
