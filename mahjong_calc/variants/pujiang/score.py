"""Pujiang 浦江麻将: 财神 wilds and 白板, 子 × 2^番, self-draw or 抢杠 only.

Every number and switch comes from the ruleset; see docs/rules/pujiang.md. The
scorer reads the hand every way the wilds (and each 白板) allow, scores each
reading and keeps the one that pays most; `payments` alone decides who pays.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ...core.context import SEATS, Seat, WinContext
from ...core.errors import InputError, NotAWin
from ...core.hand import SEAT_ZH, Hand
from ...core.result import Item, ScoreResult
from ...core.shapes import Arrangement, TileSet, hand_counts, meld_sets
from ...core.tiles import WHITE, counts_of, format_tiles, tile_str
from ...core.wilds import ANY, THIRTEEN_GROUPS, Group, WildSplit, seven_pairs, thirteen, wild_splits
from ..common.candidate import Candidate, detect
from ..common.reading import Reading, Settled, best_result, item, refused

if TYPE_CHECKING:
    from .schema import PujiangRuleset



# When no reading wins, the refusal of the reading that got furthest is reported.
REFUSAL_ORDER = (
    "not_a_winning_hand",
    "qi_dui_needs_cai_diao",
    "needs_three_pungs",
    "wild_needs_fan",
    "piao_needs_cai_shen_tou",
)


@dataclass(frozen=True)
class Shape:
    """One way to read the concealed tiles, before scoring."""

    name: str  # standard, qi_dui, zhen_13, zhen_zhen_13, san_cai_shen
    arrangement: Arrangement | None
    text: str
    wild_faces: tuple[int | None, ...]  # what each wild stood for (None: nothing, 三财神)
    white_faces: tuple[int, ...]  # what each 白板 played as
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PujiangFacts:
    """What a Pujiang reading keeps besides its value: the shape, its 子 and its 番."""

    shape: Shape
    zi: int = 0
    fan: int = 0


# --- checks before reading ----------------------------------------------------


def check_win_kind(hand: Hand, ctx: WinContext, rs: PujiangRuleset) -> None:
    """Self-draw only, or 抢杠 naming the robbed player; at most three wilds exist."""
    if ctx.discarder is not None and not ctx.robbing_kong:
        raise NotAWin(
            "discard_win_not_allowed",
            "Pujiang has no discard wins (没有放冲, 只能自摸): win by self-draw, or give --robbing-kong",
        )
    if ctx.robbing_kong and ctx.discarder is None:
        raise InputError("robbed_player_required", "--robbing-kong needs --discarder next|opposite|previous: whose kong was robbed")
    by_robbed_fan = rs.options.qiang_gang_amount != "winner_value"
    if ctx.robbed_fan is not None and not ctx.robbing_kong:
        raise InputError("conflicting_flags", "--robbed-fan is the 番 of a robbed player: it needs --robbing-kong")
    if ctx.robbing_kong and by_robbed_fan and ctx.robbed_fan is None:
        raise InputError(
            "missing_robbed_fan",
            f"options.qiang_gang_amount={rs.options.qiang_gang_amount}: --robbing-kong needs --robbed-fan N, the 番 of the robbed player's hand",
        )
    if ctx.robbed_fan is not None and not by_robbed_fan:
        raise InputError(
            "robbed_fan_unused",
            "--robbed-fan counts only with options.qiang_gang_amount=robbed_fan or robbed_fan_doubling; the robbed player pays the winner's own amounts",
        )
    if ctx.wild is not None:
        held = hand_counts(hand)[ctx.wild]
        limit = rs.numbers.wild_copies
        if held > limit:
            raise InputError(
                "too_many_wilds",
                f"{tile_str(ctx.wild)} is the 财神: one copy is the indicator, so at most {limit} can be held, not {held}",
            )


# --- shapes -------------------------------------------------------------------


def _tile_set(group: Group, any_face: int) -> TileSet:
    first = any_face if group.first == ANY else group.first
    return TileSet(group.kind, first)  # type: ignore[arg-type]


def _faces(group: Group, any_face: int) -> tuple[int, ...]:
    return tuple(any_face if f == ANY else f for f in group.wild_faces)


def _standard(split: WildSplit, hand: Hand, win_face: int | None, wild: int, whites: tuple[int, ...], base_facts: dict[str, Any], rs: PujiangRuleset) -> Shape:
    """A pair + sets reading; the winning tile goes in the pair when it can (that only adds 财神头)."""
    pair = split.pair
    sets = tuple(_tile_set(g, wild) for g in split.sets) + meld_sets(hand)

    def holds_win(g: Group) -> bool:
        return bool(g.wilds) if win_face is None else win_face in g.naturals()

    if holds_win(pair):
        win_in = -1
    else:
        win_in = next(i for i, g in enumerate(split.sets) if holds_win(g))
    two = pair.wilds == 2 and rs.options.two_wilds_pair_is_cai_shen_tou
    cai_diao = two or (pair.wilds == 1 and win_in == -1 and win_face is not None)
    arrangement = Arrangement(wild if pair.first == ANY else pair.first, sets, win_in)
    wild_faces = _faces(pair, wild) + tuple(f for g in split.sets for f in _faces(g, wild))
    facts = {
        **base_facts,
        "shape": "standard",
        "pair_wilds": pair.wilds,
        "set_wilds": split.set_wilds,
        "cai_diao": cai_diao,
        "pungs": sum(1 for s in sets if s.kind != "chow"),
    }
    return Shape("standard", arrangement, arrangement.text(), wild_faces, whites, facts)


def _qi_dui(
    faces: tuple[int, ...], jokers: int, win_face: int | None, wild: int, whites: tuple[int, ...], base_facts: dict[str, Any], rs: PujiangRuleset
) -> Shape | None:
    """Seven pairs; with wilds, pair the winning tile with a wild if any pairing allows."""
    four = rs.options.qi_dui_four_as_two_pairs
    found = seven_pairs(faces, jokers, four)
    if found is None:
        return None
    pairs = list(found)
    cai_diao = False
    if jokers:
        if win_face is None:
            cai_diao = (ANY, 2) in pairs
        elif (win_face, 1) in pairs:
            cai_diao = True
        elif four and (win_face, 0) in pairs and (ANY, 2) in pairs:
            pairs.remove((win_face, 0))
            pairs.remove((ANY, 2))
            pairs += [(win_face, 1), (win_face, 1)]
            cai_diao = True
    wild_faces: list[int] = []
    shown: list[int] = []
    for face, n in sorted(pairs, key=lambda p: (p[0] == ANY, p)):  # wild pairs last
        real = wild if face == ANY else face
        wild_faces += [real] * n
        shown.append(real)
    text = " ".join(format_tiles((t, t)) for t in shown)
    facts = {**base_facts, "shape": "qi_dui", "cai_diao": cai_diao, "set_wilds": 0}
    return Shape("qi_dui", None, text, tuple(wild_faces), whites, facts)


def _thirteen(faces: tuple[int, ...], jokers: int, whites: tuple[int, ...], base_facts: dict[str, Any], rs: PujiangRuleset) -> Shape | None:
    """真13 or 真真13, wilds standing only for suited tiles."""
    found = thirteen(faces, jokers, rs.options.zhen_13_wide_gaps)
    if found is None:
        return None
    honours, wild_faces = found
    num = rs.numbers
    tiles = [t for t, n in enumerate(faces) for _ in range(n)] + list(wild_faces)
    full = all(
        any({suit * 9 + o for o in group} == {t for t in tiles if t // 9 == suit} for group in THIRTEEN_GROUPS)
        for suit in range(3)
    )  # 147, 258 or 369 exactly, in every suit
    if honours == num.zhen_zhen_13_honours and full:
        name = "zhen_zhen_13"
    elif honours >= num.zhen_13_min_honours:
        name = "zhen_13"
    else:
        return None
    return Shape(name, None, format_tiles(tiles), wild_faces, whites, {**base_facts, "shape": name, "set_wilds": 0})


def shapes(hand: Hand, ctx: WinContext, rs: PujiangRuleset) -> Iterator[Shape]:
    """Every reading: each choice of what the 白板 play as, then every wild placement."""
    wild = ctx.wild
    concealed = counts_of(hand.concealed)
    jokers = 0
    if wild is not None:
        jokers, concealed[wild] = concealed[wild], 0
    win_is_wild = wild is not None and hand.win_tile == wild
    white_swaps = wild is not None and wild != WHITE and rs.options.white_as_wild_face
    whites_held = concealed[WHITE] if white_swaps else 0
    base_facts = {"wilds": jokers, "san_cai_shen": jokers >= rs.numbers.wild_copies}
    for k in range(whites_held + 1):
        faces = list(concealed)
        if k:
            assert wild is not None
            faces[WHITE] -= k
            faces[wild] += k
        ft = tuple(faces)
        whites = (wild,) * k + (WHITE,) * (whites_held - k) if wild is not None else ()
        win_faces: list[int | None]
        if win_is_wild:
            win_faces = [None]
        elif hand.win_tile == WHITE and white_swaps:
            win_faces = [WHITE] if k < whites_held else []
            if k:
                win_faces.append(wild)
        else:
            win_faces = [hand.win_tile]
        for win_face in win_faces:
            for split in wild_splits(ft, jokers):
                yield _standard(split, hand, win_face, wild if wild is not None else 0, whites, base_facts, rs)
            if not hand.melds:
                shape = _qi_dui(ft, jokers, win_face, wild if wild is not None else 0, whites, base_facts, rs)
                if shape:
                    yield shape
        if not hand.melds:
            shape = _thirteen(ft, jokers, whites, base_facts, rs)
            if shape:
                yield shape
    if base_facts["san_cai_shen"]:
        whites = (WHITE,) * whites_held
        facts = {**base_facts, "shape": "san_cai_shen", "set_wilds": 0}
        yield Shape("san_cai_shen", None, format_tiles(hand.concealed), (None,) * jokers, whites, facts)


# --- scoring a shape ------------------------------------------------------------


def _fan_of(rs: PujiangRuleset, key: str, times: int, facts: dict[str, Any]) -> int:
    spec = rs.patterns[key]
    per = spec.fan_with_wild if facts.get("wilds") and spec.fan_with_wild is not None else spec.fan
    return per * times


def read(shape: Shape, hand: Hand, ctx: WinContext, rs: PujiangRuleset, counts: tuple[int, ...]) -> Reading[PujiangFacts]:
    """Score one shape, or say why it is not a win."""
    num = rs.numbers
    opt = rs.options
    facts = shape.facts
    robbing = ctx.robbing_kong
    if shape.name == "standard" and facts["pungs"] < num.min_pungs and not (robbing and not opt.robbing_kong_needs_three_pungs):
        return refused(NotAWin(
            "needs_three_pungs",
            f"a standard Pujiang hand needs at least {num.min_pungs} pungs or kongs (e.g. 111 111 111 234 + pair); this has {facts['pungs']}",
        ), PujiangFacts(shape))
    if shape.name == "qi_dui" and facts["wilds"] and not facts["cai_diao"]:
        return refused(NotAWin("qi_dui_needs_cai_diao", "七对 with a 财神 must be 财神吊头: a wild must pair the winning tile"), PujiangFacts(shape))
    cand = Candidate(hand, ctx, shape.arrangement, counts, opt, dict(facts))
    found = detect(rs.detectors, cand)
    fan = sum(_fan_of(rs, key, times, facts) for key, times in found.items())
    qiang_gang = opt.qiang_gang_fan if robbing else 0  # 抢杠 is a hand with 番 (保飘: 抢杠 is one)
    fan += qiang_gang
    if facts["wilds"] and fan == 0 and not (robbing and not opt.robbing_kong_wild_needs_fan):
        return refused(NotAWin("wild_needs_fan", "a hand holding a 财神 must score at least one 番 (财神头, 全碰子, 杠开...) or be 抢杠"), PujiangFacts(shape))
    if ctx.piao and not facts.get("cai_diao"):
        return refused(NotAWin("piao_needs_cai_shen_tou", "--piao needs a 财神吊头 hand (a wild pairing the winning tile)"), PujiangFacts(shape))

    bases = {k: rs.patterns[k].base for k in found}
    base = max([num.base_zi] + [b for b in bases.values() if b is not None])
    named = "/".join(rs.label(k)[0] for k, b in bases.items() if b is not None)
    items: list[Item] = [item(rs, "base_zi", base, "子" + ("" if base == num.base_zi else f" ({named})"))]
    sets = shape.arrangement.sets if shape.arrangement else meld_sets(hand)
    zi = base
    for s in sets:
        if s.kind == "chow":
            continue
        if s.kind == "kong":
            zi += num.gang_zi
            items.append(item(rs, "gang_zi", num.gang_zi, f"子 {s.notation()}"))
        else:
            zi += num.peng_zi
            items.append(item(rs, "peng_zi", num.peng_zi, f"子 {s.notation()}"))
    for key, times in found.items():
        items.append(item(rs, key, _fan_of(rs, key, times, facts), "番" + (f" × {times}" if times > 1 else "")))
    if qiang_gang:
        items.append(item(rs, "qiang_gang", qiang_gang, "番"))
    for face in shape.wild_faces:
        items.append(item(rs, "wild_as", 0, f"{tile_str(ctx.wild or 0)} → {tile_str(face) if face is not None else '—'}"))
    for face in shape.white_faces:
        items.append(item(rs, "white_as", 0, f"5z → {tile_str(face)}"))
    value = zi * num.fan_multiplier ** fan
    items[0] = replace(items[0], detail=value_detail(items[0].detail, zi, fan, ctx, rs))
    patterns = tuple(found) + (("qiang_gang",) if qiang_gang else ())
    return Reading(value, tuple(items), patterns, PujiangFacts(shape, zi, fan))


_SEAT_ZH = {en: zh for zh, en in SEAT_ZH.items()}


def value_detail(head: str, zi: int, fan: int, ctx: WinContext, rs: PujiangRuleset) -> str:
    """The numbers as they add up: `子 7 × 2^1 番 = 14`, then each payer's 子 after their own pungs."""
    m = rs.numbers.fan_multiplier
    text = f"子 {zi} × {m}^{fan} 番 = {zi * m ** fan}"
    if head != "子":  # 子 (七对): where a base other than the usual came from
        text = f"{head}; {text}"
    if ctx.robbing_kong and ctx.discarder is not None and ctx.robbed_fan is not None and rs.options.qiang_gang_amount != "winner_value":
        paid = payments(zi, fan, ctx, rs)[ctx.discarder]
        how = rs.options.qiang_gang_amount
        return f"{text}; 抢杠 by the robbed player's {ctx.robbed_fan} 番 ({how}): {_SEAT_ZH[ctx.discarder]} pays {paid} for all three"
    if ctx.opponent_pungs is None:
        return text
    parts = []
    for seat, n in zip(SEATS, ctx.opponent_pungs):
        amount = owed(zi, fan, n, rs)
        if not n:
            sum_text = f"{zi} × {m}^{fan}"
        elif rs.options.subtract_pungs == "before_fan":
            sum_text = f"({zi} − {n}) × {m}^{fan}"
        else:
            sum_text = f"{zi} × {m}^{fan} − {n}"
        raw = (zi - n) * m ** fan if rs.options.subtract_pungs == "before_fan" else zi * m ** fan - n
        parts.append(f"{_SEAT_ZH[seat]} {sum_text} = {raw}" + (f" → {amount}" if amount != raw else ""))
    text += "; " + ", ".join(parts)
    if ctx.robbing_kong and ctx.discarder is not None:
        text += f"; {_SEAT_ZH[ctx.discarder]} pays all three (抢杠)"
    return text


# --- payments -----------------------------------------------------------------


def owed(zi: int, fan: int, payer_pungs: int, rs: PujiangRuleset) -> int:
    """What one payer owes: their own exposed pungs come off the 子 (or off the total)."""
    mult: int = rs.numbers.fan_multiplier ** fan
    if rs.options.subtract_pungs == "before_fan":
        amount = (zi - payer_pungs) * mult
    else:
        amount = zi * mult - payer_pungs
    return max(amount, 0) if rs.options.floor_payment_at_zero else amount


def owed_by_robbed_fan(zi: int, robbed_fan: int, payer_pungs: int, rs: PujiangRuleset) -> int:
    """抢杠, "被抢的人手里的牌翻数X抢杠胡手里的基数": the robbed player's 番 times the winner's 子
    (robbed_fan), or the winner's 子 doubled once per 番 (robbed_fan_doubling); less the payer's pungs."""
    if rs.options.qiang_gang_amount == "robbed_fan_doubling":
        return owed(zi, robbed_fan, payer_pungs, rs)
    if rs.options.subtract_pungs == "before_fan":
        amount = (zi - payer_pungs) * robbed_fan
    else:
        amount = zi * robbed_fan - payer_pungs
    return max(amount, 0) if rs.options.floor_payment_at_zero else amount


def payments(zi: int, fan: int, ctx: WinContext, rs: PujiangRuleset) -> dict[Seat, int]:
    """Who pays what. Self-draw: each opponent their own amount. 抢杠: the robbed player pays all three,
    by the winner's value or (options.qiang_gang_amount) by the robbed player's own 番.

    The one place later rules (承包 liability, 飘 limits) extend.
    """
    pungs = ctx.opponent_pungs or (0, 0, 0)
    amounts: dict[Seat, int] = {seat: owed(zi, fan, n, rs) for seat, n in zip(SEATS, pungs)}
    if ctx.robbing_kong and ctx.robbed_fan is not None and rs.options.qiang_gang_amount != "winner_value":
        amounts = {seat: owed_by_robbed_fan(zi, ctx.robbed_fan, n, rs) for seat, n in zip(SEATS, pungs)}
    if ctx.robbing_kong and ctx.discarder is not None:
        total = sum(amounts.values())
        amounts = {seat: (total if seat == ctx.discarder else 0) for seat in SEATS}
    return amounts


# --- entry point --------------------------------------------------------------


def _wild_rows(shape: Shape, wild: int | None) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for face in shape.wild_faces:
        rows.append({"tile": tile_str(wild if wild is not None else 0), "role": "wild", "as": None if face is None else tile_str(face)})
    for face in shape.white_faces:
        rows.append({"tile": tile_str(WHITE), "role": "white", "as": tile_str(face)})
    return rows


def _no_win(readings: tuple[Reading[PujiangFacts], ...]) -> NotAWin:
    """The refusal of the reading that got furthest, or: no shape at all."""
    refusals = [r.refusal for r in readings if r.refusal is not None]
    if not refusals:
        return NotAWin("not_a_winning_hand", "the tiles do not form a pair plus four sets, 七对, 真13 or 三财神, even with the wilds")
    return max(refusals, key=lambda r: REFUSAL_ORDER.index(r.code))


def score_pujiang(hand: Hand, ctx: WinContext, rs: PujiangRuleset) -> ScoreResult:
    check_win_kind(hand, ctx, rs)
    counts = hand_counts(hand)

    def settle_reading(best: Reading[PujiangFacts]) -> Settled:
        shape = best.facts.shape
        if shape.arrangement is not None:
            decomposition: dict[str, Any] = {"shape": shape.name, **shape.arrangement.to_dict()}
        else:
            decomposition = {"shape": shape.name, "text": shape.text}
        extra = {
            "zi": best.facts.zi,
            "fan": best.facts.fan,
            "wild": tile_str(ctx.wild) if ctx.wild is not None else None,
            "wilds": _wild_rows(shape, ctx.wild),
        }
        return Settled(payments(best.facts.zi, best.facts.fan, ctx, rs), decomposition, extra)

    readings = (read(shape, hand, ctx, rs, counts) for shape in shapes(hand, ctx, rs))
    return best_result(rs, hand, readings, settle_reading, _no_win)
