"""Wuhu 芜湖麻将, scored "315" or "525": 八支, 压档, 底番, 支番, 嘴子, 交, kongs, dealer.

Every number and switch comes from the ruleset; see docs/rules/wuhu.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Literal

from ...core.errors import NotAWin
from ...core.hand import Hand, WinContext
from ...core.result import Item, ScoreResult
from ...core.shapes import Arrangement, arrangements, hand_counts, waits_before_win
from ...core.tiles import number_of, tile_str
from ...rules.schema import GameRules, Label
from ..common.candidate import Candidate, detect
from ..common.reading import Reading, Settled, best_result, each_pays, item, round_half_up

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


def zhi_of(counts: tuple[int, ...]) -> int:
    """支: the largest count of one suit over all the winner's tiles (a kong counts 4)."""
    return max(sum(counts[s * 9 : s * 9 + 9]) for s in range(3))


def factor_of(value: float) -> Decimal:
    """A 支番 factor as the decimal it was written as: `0.2`, `0.5`, and `1`, never `1.0`."""
    exact = Decimal(repr(value))
    return exact.to_integral_value() if exact == exact.to_integral_value() else exact


def zhi_fan_detail(zhi: int, ya: int, factor: Decimal, zhi_fan: int) -> str:
    """支番 with its numbers, so they add up on screen: `(9 + 2) × 0.4 = 4.4 → 4` (支 + 压档 points)."""
    exact = format(((zhi + ya) * factor).normalize(), "f")
    text = f"({zhi} + {ya}) × {factor} = {exact}" if ya else f"{zhi} × {factor} = {exact}"
    return text if exact == str(zhi_fan) else f"{text} → {zhi_fan}"


def ya_dang_points(arr: Arrangement, win: int, waits: tuple[int, ...], edge: bool, single_wait: bool) -> int:
    """压档: the winning tile fills the middle of a sequence (or its edge, if allowed);
    with `single_wait`, the 13 tiles must also wait on that tile alone."""
    s = arr.win_set
    if (single_wait and len(waits) != 1) or s is None or s.kind != "chow" or s.declared:
        return 0
    middle = win == s.first + 1
    edge_wait = (win == s.first + 2 and number_of(s.first) == 1) or (win == s.first and number_of(s.first) == 7)
    return number_of(win) if middle or (edge and edge_wait) else 0


# --- the arithmetic of one reading ------------------------------------------------------


@dataclass(frozen=True)
class WuhuFacts:
    """What a Wuhu reading keeps besides its value: the arrangement, its 压档 and a dealer's extra."""

    arrangement: Arrangement
    ya_dang: int
    dealer_extra: int


def _read(arr: Arrangement, hand: Hand, ctx: WinContext, rs: WuhuRuleset, counts: tuple[int, ...], zhi: int, waits: tuple[int, ...]) -> Reading[WuhuFacts]:
    num = rs.numbers
    opt = rs.options
    ya = ya_dang_points(arr, hand.win_tile, waits, opt.ya_dang_edge_wait, opt.ya_dang_single_wait)
    cand = Candidate(hand, ctx, arr, counts, opt, {"ya_dang": ya, "zhi": zhi})
    found = detect(rs.detectors, cand)
    role = {key: rs.patterns[key].role for key in found}

    jiao_sources = [k for k in found if role[k] == "jiao"]
    zui_zi = [k for k in found if role[k] == "zui_zi"]
    # 独吊: the winning tile completed the pair, and the 13 tiles waited on it alone
    du_diao = arr.win_in < 0 and waits == (hand.win_tile,)
    # 嘴子 that a rule makes 交 by themselves; where the hand is 交 anyway they stay 嘴子 beyond it
    promoted = [
        key
        for key, rule in (
            # 杠后压档也交; some tables pay a 杠后开花 on a 独吊 alike
            ("gang_hou_kai_hua", (bool(ya) and opt.gang_hou_ya_dang_jiao) or (du_diao and opt.gang_hou_du_diao_jiao)),
            ("hun_yi_se", ctx.self_draw and opt.hun_yi_se_self_draw_jiao),
        )
        if rule and key in zui_zi
    ]
    zui_zi = [k for k in zui_zi if k not in promoted]

    if jiao_sources or promoted or len(zui_zi) >= 2:
        items = _jiao_items(rs, jiao_sources, promoted, zui_zi, ctx)
        dealer_extra = 0
    else:
        if ctx.self_draw:
            di, factor = (num.di_fan.self_draw_ya_dang if ya else num.di_fan.self_draw), factor_of(num.zhi_factor.self_draw)
        else:
            di, factor = (num.di_fan.discard_ya_dang if ya else num.di_fan.discard), factor_of(num.zhi_factor.discard)
        zhi_fan = round_half_up((zhi + ya) * factor)
        detail = zhi_fan_detail(zhi, ya, factor, zhi_fan)
        how = ("自摸 self-draw" if ctx.self_draw else "点炮 discard") + (f", 压档 {ya}" if ya else "")
        items = [item(rs, "di_fan", di, how), item(rs, "zhi_fan", zhi_fan, detail)]
        for key in zui_zi:
            doubled = ctx.self_draw and key != "gang_hou_kai_hua"
            mult = num.zui_zi_self_draw_multiplier if doubled else 1
            items.append(item(rs, key, num.zui_zi * mult, "嘴子" + (f" × {mult} self-draw" if doubled else "")))
        for s in arr.sets:
            if s.kind == "kong":
                if s.concealed:
                    items.append(item(rs, "an_gang", num.an_gang, s.notation()))
                else:
                    items.append(item(rs, "ming_gang", num.ming_gang, s.notation()))
        if ctx.dealer:
            items.append(item(rs, "dealer", di, "winner is dealer: one more 底番"))
        dealer_extra = di if opt.dealer_payer_extra and ctx.dealer_seat else 0
    patterns = tuple(found) + (("jiao",) if jiao_sources or promoted or len(zui_zi) >= 2 else ())
    value = sum(i.value for i in items)
    return Reading(value, tuple(items), patterns, WuhuFacts(arr, ya, dealer_extra))


def _jiao_items(rs: WuhuRuleset, own: list[str], promoted: list[str], zui_zi: list[str], ctx: WinContext) -> list[Item]:
    """交: a fixed amount, plus each 嘴子 beyond those that made it, plus self-draw.

    `own`: patterns that are 交 by themselves; `promoted`: 嘴子 made 交 by a rule (杠后压档,
    自摸混一色). A promoted 嘴子 that is not the 交 counted is still a 嘴子 beyond it, so
    压档 never lowers a hand.
    """
    num, each_source = rs.numbers, rs.options.jiao_count_each_source
    items: list[Item] = []
    sources = own + promoted
    counted = sources if each_source else sources[:1]
    for key in counted:
        items.append(item(rs, "jiao", num.jiao, f"{rs.label(key)[0]} is 交 by itself"))
    extras = list(zui_zi)
    pair_makes_jiao = len(zui_zi) >= 2 and (not sources or each_source)
    if pair_makes_jiao:
        makers, extras = extras[:2], extras[2:]
        names = " + ".join(rs.label(k)[0] for k in makers)
        items.append(item(rs, "jiao", num.jiao, f"two 嘴子: {names}"))
        for key in makers:
            items.append(item(rs, key, 0, "嘴子 counted in 交"))
    extras += [key for key in promoted if key not in counted]
    for key in extras:
        items.append(item(rs, key, num.jiao_extra_zui_zi, "嘴子 beyond 交"))
    if ctx.self_draw and (rs.options.jiao_self_draw_after_kong or not ctx.after_kong):
        items.append(item(rs, "jiao_self_draw", num.jiao_self_draw, "self-draw with 交"))
    return items


def not_a_win(code: str, zhi: int, rs: WuhuRuleset) -> NotAWin:
    """The two ways a well-formed hand fails to win (the compiled scorer reports them by code)."""
    if code == "no_ba_zhi":
        need = rs.numbers.min_zhi
        return NotAWin(code, f"not 八支: the longest suit has {zhi} tiles (支); a win needs {need}")
    return NotAWin("not_a_winning_hand", "the tiles do not form a pair plus four sets (pungs or sequences)")


def score_wuhu(hand: Hand, ctx: WinContext, rs: WuhuRuleset) -> ScoreResult:
    counts = hand_counts(hand)
    zhi = zhi_of(counts)
    if zhi < rs.numbers.min_zhi:
        raise not_a_win("no_ba_zhi", zhi, rs)
    arrs = arrangements(hand)
    if not arrs:
        raise not_a_win("not_a_winning_hand", zhi, rs)
    waits = waits_before_win(hand)

    def settle(best: Reading[WuhuFacts]) -> Settled:
        payments = each_pays(best.value)
        if best.facts.dealer_extra and ctx.dealer_seat:
            payments[ctx.dealer_seat] += best.facts.dealer_extra
        extra = {"zhi": zhi, "ya_dang": best.facts.ya_dang, "waits": [tile_str(t) for t in waits]}
        return Settled(payments, best.facts.arrangement.to_dict(), extra)

    readings = (_read(a, hand, ctx, rs, counts, zhi, waits) for a in arrs)
    return best_result(rs, hand, readings, settle, lambda _: not_a_win("not_a_winning_hand", zhi, rs))
