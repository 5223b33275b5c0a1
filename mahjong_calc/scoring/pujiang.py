"""Pujiang 浦江麻将: 财神 wilds and 白板, 子 × 2^番, self-draw or 抢杠 only.

Every number and switch comes from the ruleset; see docs/rules/pujiang.md. The
scorer reads the hand every way the wilds (and each 白板) allow, scores each
reading and keeps the one that pays most; `payments` alone decides who pays.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..decompose import Arrangement, TileSet, hand_counts, meld_sets
from ..errors import InputError, NotAWin
from ..hand import SEATS, Hand, Seat, WinContext
from ..patterns import Candidate, detect
from ..result import Item, ScoreResult
from ..ruleset import Choice, Opt, Ruleset, common_schema
from ..tiles import WHITE, counts_of, format_tiles, tile_str
from ..wilds import ANY, Group, WildSplit, seven_pairs, thirteen, wild_splits
from ..settlement import settlement_section
from .common import item, result

SCHEMA = common_schema(
    {"zh": str, "en": str, "fan": int, "base": Opt(int), "fan_with_wild": Opt(int)},
    numbers={
        "base_zi": int,
        "peng_zi": int,
        "gang_zi": int,
        "fan_multiplier": int,
        "min_pungs": int,
        "wild_copies": int,
        "zhen_13_min_honours": int,
        "zhen_zhen_13_honours": int,
    },
    options={
        "subtract_pungs": Choice("before_fan", "after_fan"),
        "floor_payment_at_zero": bool,
        "white_as_wild_face": bool,
        "two_wilds_pair_is_cai_shen_tou": bool,
        "qi_dui_four_as_two_pairs": bool,
        "san_cai_shen_stacks": bool,
        "robbing_kong_needs_three_pungs": bool,
        "robbing_kong_wild_needs_fan": bool,
    },
    settlement=settlement_section("pujiang"),  # issue 12: settlement/pujiang.py
)

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
class Reading:
    """A scored shape."""

    value: int
    zi: int
    fan: int
    items: tuple[Item, ...]
    patterns: tuple[str, ...]
    shape: Shape


# --- checks before reading ----------------------------------------------------


def check_win_kind(hand: Hand, ctx: WinContext, rs: Ruleset) -> None:
    """Self-draw only, or 抢杠 naming the robbed player; at most three wilds exist."""
    if ctx.discarder is not None and not ctx.robbing_kong:
        raise NotAWin(
            "discard_win_not_allowed",
            "Pujiang has no discard wins (没有放冲, 只能自摸): win by self-draw, or give --robbing-kong",
        )
    if ctx.robbing_kong and ctx.discarder is None:
        raise InputError("robbed_player_required", "--robbing-kong needs --discarder next|opposite|previous: whose kong was robbed")
    if ctx.wild is not None:
        held = hand_counts(hand)[ctx.wild]
        limit = rs.data["numbers"]["wild_copies"]
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


def _standard(split: WildSplit, hand: Hand, win_face: int | None, wild: int, whites: tuple[int, ...], base_facts: dict[str, Any], rs: Ruleset) -> Shape:
    """A pair + sets reading; the winning tile goes in the pair when it can (that only adds 财神头)."""
    pair = split.pair
    sets = tuple(_tile_set(g, wild) for g in split.sets) + meld_sets(hand)

    def holds_win(g: Group) -> bool:
        return bool(g.wilds) if win_face is None else win_face in g.naturals()

    if holds_win(pair):
        win_in = -1
    else:
        win_in = next(i for i, g in enumerate(split.sets) if holds_win(g))
    two = pair.wilds == 2 and rs.options["two_wilds_pair_is_cai_shen_tou"]
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


def _qi_dui(faces: tuple[int, ...], jokers: int, win_face: int | None, wild: int, whites: tuple[int, ...], base_facts: dict[str, Any], rs: Ruleset) -> Shape | None:
    """Seven pairs; with wilds, pair the winning tile with a wild if any pairing allows."""
    four = rs.options["qi_dui_four_as_two_pairs"]
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


def _thirteen(faces: tuple[int, ...], jokers: int, whites: tuple[int, ...], base_facts: dict[str, Any], rs: Ruleset) -> Shape | None:
    """真13 or 真真13, wilds standing only for suited tiles."""
    found = thirteen(faces, jokers)
    if found is None:
        return None
    honours, wild_faces = found
    num = rs.data["numbers"]
    tiles = [t for t, n in enumerate(faces) for _ in range(n)] + list(wild_faces)
    full = all(sum(1 for t in tiles if t // 9 == suit) == 3 for suit in range(3))
    if honours == num["zhen_zhen_13_honours"] and full:
        name = "zhen_zhen_13"
    elif honours >= num["zhen_13_min_honours"]:
        name = "zhen_13"
    else:
        return None
    return Shape(name, None, format_tiles(tiles), wild_faces, whites, {**base_facts, "shape": name, "set_wilds": 0})


def shapes(hand: Hand, ctx: WinContext, rs: Ruleset) -> Iterator[Shape]:
    """Every reading: each choice of what the 白板 play as, then every wild placement."""
    wild = ctx.wild
    concealed = counts_of(hand.concealed)
    jokers = 0
    if wild is not None:
        jokers, concealed[wild] = concealed[wild], 0
    win_is_wild = wild is not None and hand.win_tile == wild
    white_swaps = wild is not None and wild != WHITE and rs.options["white_as_wild_face"]
    whites_held = concealed[WHITE] if white_swaps else 0
    base_facts = {"wilds": jokers, "san_cai_shen": jokers >= rs.data["numbers"]["wild_copies"]}
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


def _fan_of(rs: Ruleset, key: str, times: int, facts: dict[str, Any]) -> int:
    spec = rs.patterns[key]
    per = spec["fan_with_wild"] if facts.get("wilds") and "fan_with_wild" in spec else spec["fan"]
    return int(per) * times


def read(shape: Shape, hand: Hand, ctx: WinContext, rs: Ruleset, counts: tuple[int, ...]) -> Reading | NotAWin:
    """Score one shape, or say why it is not a win."""
    num: dict[str, Any] = rs.data["numbers"]
    opt = rs.options
    facts = shape.facts
    robbing = ctx.robbing_kong
    if shape.name == "standard" and facts["pungs"] < num["min_pungs"] and not (robbing and not opt["robbing_kong_needs_three_pungs"]):
        return NotAWin(
            "needs_three_pungs",
            f"a standard Pujiang hand needs at least {num['min_pungs']} pungs or kongs (e.g. 111 111 111 234 + pair); this has {facts['pungs']}",
        )
    if shape.name == "qi_dui" and facts["wilds"] and not facts["cai_diao"]:
        return NotAWin("qi_dui_needs_cai_diao", "七对 with a 财神 must be 财神吊头: a wild must pair the winning tile")
    cand = Candidate(hand, ctx, shape.arrangement, counts, opt, dict(facts))
    found = detect(rs.patterns, cand)
    fan = sum(_fan_of(rs, key, times, facts) for key, times in found.items())
    if facts["wilds"] and fan == 0 and not (robbing and not opt["robbing_kong_wild_needs_fan"]):
        return NotAWin("wild_needs_fan", "a hand holding a 财神 must score at least one 番 (财神头, 全碰子, 杠开...) or be 抢杠")
    if ctx.piao and not facts.get("cai_diao"):
        return NotAWin("piao_needs_cai_shen_tou", "--piao needs a 财神吊头 hand (a wild pairing the winning tile)")

    base = max([num["base_zi"]] + [int(rs.patterns[k]["base"]) for k in found if "base" in rs.patterns[k]])
    items: list[Item] = [item(rs, "base_zi", base, "子" + ("" if base == num["base_zi"] else f" ({'/'.join(rs.label(k)[0] for k in found if 'base' in rs.patterns[k])})"))]
    sets = shape.arrangement.sets if shape.arrangement else meld_sets(hand)
    zi = base
    for s in sets:
        if s.kind == "chow":
            continue
        key = "gang_zi" if s.kind == "kong" else "peng_zi"
        zi += num[key]
        items.append(item(rs, key, num[key], f"子 {s.notation()}"))
    for key, times in found.items():
        items.append(item(rs, key, _fan_of(rs, key, times, facts), "番" + (f" × {times}" if times > 1 else "")))
    for face in shape.wild_faces:
        items.append(item(rs, "wild_as", 0, f"{tile_str(ctx.wild or 0)} → {tile_str(face) if face is not None else '—'}"))
    for face in shape.white_faces:
        items.append(item(rs, "white_as", 0, f"5z → {tile_str(face)}"))
    value = zi * num["fan_multiplier"] ** fan
    return Reading(value, zi, fan, tuple(items), tuple(found), shape)


# --- payments -----------------------------------------------------------------


def owed(zi: int, fan: int, payer_pungs: int, rs: Ruleset) -> int:
    """What one payer owes: their own exposed pungs come off the 子 (or off the total)."""
    mult: int = int(rs.data["numbers"]["fan_multiplier"]) ** fan
    if rs.options["subtract_pungs"] == "before_fan":
        amount = (zi - payer_pungs) * mult
    else:
        amount = zi * mult - payer_pungs
    return max(amount, 0) if rs.options["floor_payment_at_zero"] else amount


def payments(zi: int, fan: int, ctx: WinContext, rs: Ruleset) -> dict[Seat, int]:
    """Who pays what. Self-draw: each opponent their own amount. 抢杠: the robbed player pays all three.

    The one place later rules (承包 liability, 飘 limits) extend.
    """
    pungs = ctx.opponent_pungs or (0, 0, 0)
    amounts: dict[Seat, int] = {seat: owed(zi, fan, n, rs) for seat, n in zip(SEATS, pungs)}
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


def score(hand: Hand, ctx: WinContext, rs: Ruleset) -> ScoreResult:
    check_win_kind(hand, ctx, rs)
    counts = hand_counts(hand)
    best: Reading | None = None
    refusals: list[NotAWin] = []
    for shape in shapes(hand, ctx, rs):
        outcome = read(shape, hand, ctx, rs, counts)
        if isinstance(outcome, NotAWin):
            refusals.append(outcome)
        elif best is None or outcome.value > best.value:
            best = outcome  # first of equals: readings come in a fixed order
    if best is None:
        if not refusals:
            raise NotAWin("not_a_winning_hand", "the tiles do not form a pair plus four sets, 七对, 真13 or 三财神, even with the wilds")
        raise max(refusals, key=lambda r: REFUSAL_ORDER.index(r.code))
    shape = best.shape
    if shape.arrangement is not None:
        decomposition: dict[str, Any] = {"shape": shape.name, **shape.arrangement.to_dict()}
    else:
        decomposition = {"shape": shape.name, "text": shape.text}
    return result(
        rs,
        hand,
        value=best.value,
        items=best.items,
        patterns=best.patterns,
        payments=payments(best.zi, best.fan, ctx, rs),
        decomposition=decomposition,
        extra={
            "zi": best.zi,
            "fan": best.fan,
            "wild": tile_str(ctx.wild) if ctx.wild is not None else None,
            "wilds": _wild_rows(shape, ctx.wild),
        },
    )
