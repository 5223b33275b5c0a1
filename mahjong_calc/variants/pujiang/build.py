"""The Pujiang kernel's integers as a ScoreResult: items with their labels and detail text,
the decomposition, the extra keys (子, 番, what the wilds stood for), the refusals, and every
reading for `--explain`.

This is the only place Pujiang text is made; the arithmetic is the kernel's (kernel.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Final, final

from ...core import sets
from ...core.context import SEATS, Seat, WinContext
from ...core.errors import NotAWin
from ...core.hand import Hand
from ...core.result import TILE_JSON, Explanation, Item, ScoreResult, encode, item_json, stamped
from ...core.sets import N_CODES
from ...core.shapes import Arrangement, TileSet, code_set, decomposition_json, meld_sets
from ...core.tiles import WHITE, TileWords, format_tiles, tile_str
from ...core.wilds import ANY, GROUP_CHOW, GROUP_FIRST
from ...core.words import N_, Joined, Named, Shown, Text, language
from ..common.read import QI_DUI, SAN_CAI_SHEN, SHAPE_NAMES, STANDARD, ZHEN_13, ZHEN_ZHEN_13
from ..common.reading import LazyReadings, Reading, item
from . import kernel as k

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset


@dataclass(frozen=True)
class Shape:
    """One way to read the concealed tiles."""

    name: str  # standard, qi_dui, zhen_13, zhen_zhen_13, san_cai_shen
    arrangement: Arrangement | None
    text: str
    wild_faces: tuple[int | None, ...]  # what each wild stood for (None: nothing, 三财神)
    white_faces: tuple[int, ...]  # what each 白板 played as


@dataclass(frozen=True)
class PujiangFacts:
    """What a Pujiang reading keeps besides its value: the shape, its 子 and its 番."""

    shape: Shape
    zi: int = 0
    fan: int = 0


def _faces_held(hand: Hand, ctx: WinContext, whites: int) -> list[int]:
    """The concealed tiles' counts without the wilds, `whites` 白板 playing as the wild's face."""
    faces = list(hand.counts)
    if ctx.wild is not None:
        faces[ctx.wild] = 0
        faces[WHITE] -= whites
        faces[ctx.wild] += whites
    return faces


def group_first(gid: int, any_face: int) -> int:
    """A group's first tile, the wild's face (`any_face`) where the group's is any."""
    return any_face if GROUP_FIRST[gid] == ANY else GROUP_FIRST[gid]


def concealed_codes(scored: k.KernelReading, any_face: int) -> tuple[int, ...]:
    """A standard reading's concealed sets as set codes (kind * 34 + first tile)."""
    return tuple([sets.chow(group_first(gid, any_face)) if GROUP_CHOW[gid] else sets.pung(group_first(gid, any_face)) for gid in scored.sets])


def white_faces(ctx: WinContext, out: k.Outcome, scored: k.KernelReading) -> tuple[int, ...]:
    """What each 白板 that could play as the wild's face played as."""
    wild = ctx.wild
    return (wild,) * scored.whites + (WHITE,) * (out.whites_held - scored.whites) if wild is not None else ()


def shape(hand: Hand, ctx: WinContext, out: k.Outcome, scored: k.KernelReading) -> Shape:
    """The kernel's reading as the Shape the decomposition and --explain show."""
    wild = ctx.wild
    whites = white_faces(ctx, out, scored)
    any_face = wild if wild is not None else 0
    name = SHAPE_NAMES[scored.shape]
    if scored.shape == STANDARD:
        concealed = tuple([code_set(code) for code in concealed_codes(scored, any_face)])
        pair = group_first(scored.pair, any_face)
        arrangement = Arrangement(pair, concealed + meld_sets(hand), scored.win_in)
        return Shape(name, arrangement, arrangement.text(), scored.faces, whites)
    if scored.shape == SAN_CAI_SHEN:
        return Shape(name, None, format_tiles(hand.concealed), (None,) * len(scored.faces), whites)
    if scored.shape in (ZHEN_13, ZHEN_ZHEN_13):
        faces = _faces_held(hand, ctx, scored.whites)
        tiles = [t for t, n in enumerate(faces) for _ in range(n)] + list(scored.faces)
        return Shape(name, None, format_tiles(tiles), scored.faces, whites)
    text = " ".join(format_tiles((t, t)) for t in (any_face if face == ANY else face for face, _ in scored.pairs))
    return Shape(name, None, text, scored.faces, whites)


def refusal(rs: Ruleset[Any, Any, Any], scored: k.KernelReading | None) -> NotAWin:
    """Why a reading does not win (None: no shape at all); made once per distinct refusal (shared: a door raises a copy)."""
    code = k.NOT_A_WINNING_HAND if scored is None else scored.refusal
    key = ("pujiang_refusal", code, scored.pungs if scored is not None and code == k.NEEDS_THREE_PUNGS else 0)
    made: NotAWin | None = rs.memo.get(key)
    if made is None:
        made = rs.memo.keep(key, _refusal(rs, scored))
    return made


def _refusal(rs: Ruleset[Any, Any, Any], scored: k.KernelReading | None) -> NotAWin:
    code = k.NOT_A_WINNING_HAND if scored is None else scored.refusal
    if code == k.NEEDS_THREE_PUNGS:
        assert scored is not None
        return NotAWin(
            "needs_three_pungs",
            "a standard Pujiang hand needs at least {need} pungs or kongs (e.g. 111 111 111 234 + pair); this has {pungs}",
            need=rs.numbers.min_pungs, pungs=scored.pungs,
        )
    if code == k.QI_DUI_NEEDS_CAI_DIAO:
        return NotAWin("qi_dui_needs_cai_diao", "七对 with a 财神 must be 财神吊头: a wild must pair the winning tile")
    if code == k.WILD_NEEDS_FAN:
        return NotAWin("wild_needs_fan", "a hand holding a 财神 must score at least one 番 (财神头, 全碰子, 杠开...) or be 抢杠")
    if code == k.PIAO_NEEDS_CAI_SHEN_TOU:
        return NotAWin("piao_needs_cai_shen_tou", "--piao needs a 财神吊头 hand (a wild pairing the winning tile)")
    return NotAWin("not_a_winning_hand", "the tiles do not form a pair plus four sets, 七对, 真13 or 三财神, even with the wilds")


_HOW = {  # options.qiang_gang_amount, as the detail names it: by the option's value with no language chosen
    "robbed_fan": Shown(N_("by the robbed player's fan"), "robbed_fan"),
    "robbed_fan_doubling": Shown(N_("doubling by the robbed player's fan"), "robbed_fan_doubling"),
}
_SEATS = {"next": N_("next"), "opposite": N_("opposite"), "previous": N_("previous")}  # in Chinese with no language chosen


def _seat(seat: Seat) -> Shown:
    return Shown(_SEATS[seat], plain_lang="zh")


def value_detail(head: str | Text, zi: int, fan: int, ctx: WinContext, rs: Ruleset[Any, Any, Any], payments: tuple[int, int, int]) -> Text:
    """The numbers as they add up: `子 7 × 2^1 番 = 14`, then each payer's 子 after their own pungs."""
    m = rs.numbers.fan_multiplier
    before_fan = rs.tables.before_fan
    text = N_("子 {zi} × {m}^{fan} 番 = {total}", zi=zi, m=m, fan=fan, total=zi * m ** fan)
    if isinstance(head, Text):  # 子 (七对): where a base other than the usual came from
        text = N_("{head}; {value}", head=head, value=text)
    if ctx.robbing_kong and ctx.discarder is not None and ctx.robbed_fan is not None and rs.options.qiang_gang_amount != "winner_value":
        paid = payments[SEATS.index(ctx.discarder)]
        how = _HOW[rs.options.qiang_gang_amount]
        return N_("{value}; 抢杠 by the robbed player's {fan} 番 ({how}): {seat} pays {paid} for all three",
                  value=text, fan=ctx.robbed_fan, how=how, seat=_seat(ctx.discarder), paid=paid)
    if ctx.opponent_pungs is None:
        return text
    parts: list[Text] = []
    for seat, n in zip(SEATS, ctx.opponent_pungs):
        amount = k.owed(rs, zi, fan, n)
        raw = (zi - n) * m ** fan if before_fan else zi * m ** fan - n
        then = f" = {raw}" + (f" → {amount}" if amount != raw else "")
        sums = []
        for power in (f"{m}^{fan}", str(m ** fan)):  # as written; on a Chinese screen, the power worked out
            if not n:
                sums.append(f"{zi} × {power}{then}")
            elif before_fan:
                sums.append(f"({zi} − {n}) × {power}{then}")
            else:
                sums.append(f"{zi} × {power} − {n}{then}")
        parts.append(N_("{seat} {owed}", seat=_seat(seat), owed=Named(sums[1], sums[0], sums[0])))
    text = N_("{value}; {each}", value=text, each=Joined(tuple(parts), ", "))
    if ctx.robbing_kong and ctx.discarder is not None:
        text = N_("{value}; {seat} pays all three (抢杠)", value=text, seat=_seat(ctx.discarder))
    return text


def _payments_of(ctx: WinContext, rs: Ruleset[Any, Any, Any], zi: int, fan: int) -> tuple[int, int, int]:
    """The kernel's payments of a reading's 子 and 番 under the facts of the win."""
    pungs = (0, 0, 0) if ctx.opponent_pungs is None else ctx.opponent_pungs
    robbed = -1 if ctx.robbed_fan is None else ctx.robbed_fan
    discarder = -1 if ctx.discarder is None else SEATS.index(ctx.discarder)
    return k.payments(rs, zi, fan, pungs, ctx.robbing_kong, robbed, discarder)


def base_item(ctx: WinContext, rs: Ruleset[Any, Any, Any], scored: k.KernelReading) -> Item:
    """A winning reading's first item: its 子 (where a pattern's base came from) and the sum,
    from its base, 子, 番 and patterns found, and the facts value_detail reads of the win."""
    t = rs.tables
    labels = [rs.label(t.keys[index]) for index, _ in scored.found if t.bases[index] >= 0]
    named = Named("/".join(zh for zh, _ in labels), "/".join(en for _, en in labels))
    base = scored.base
    head: str | Text = "子" if base == rs.numbers.base_zi else N_("子 ({patterns})", patterns=named)
    return item(rs, "base_zi", base, value_detail(head, scored.zi, scored.fan, ctx, rs, _payments_of(ctx, rs, scored.zi, scored.fan)))


def zi_item(rs: Ruleset[Any, Any, Any], s: TileSet) -> Item | None:
    """A pung or kong's 子 (None: a chow has none)."""
    if s.kind == "chow":
        return None
    if s.kind == "kong":
        return item(rs, "gang_zi", rs.numbers.gang_zi, N_("子 {tiles}", tiles=TileWords(s.notation())))
    return item(rs, "peng_zi", rs.numbers.peng_zi, N_("子 {tiles}", tiles=TileWords(s.notation())))


def fan_items(rs: Ruleset[Any, Any, Any], jokers: int, scored: k.KernelReading) -> list[Item]:
    """Each pattern found with its 番 (`jokers`: wilds held), then 抢杠's."""
    t = rs.tables
    items: list[Item] = []
    for index, times in scored.found:
        fan = (t.fans_wild[index] if jokers else t.fans[index]) * times
        items.append(item(rs, t.keys[index], fan, N_("番 × {times}", times=times) if times > 1 else N_("番")))
    if scored.qiang_gang:
        items.append(item(rs, "qiang_gang", scored.qiang_gang, N_("番")))
    return items


def face_items(rs: Ruleset[Any, Any, Any], wild: int | None, wild_faces: tuple[int | None, ...], whites: tuple[int, ...]) -> list[Item]:
    """What each wild stood for (None: nothing, 三财神), then each 白板."""
    items: list[Item] = []
    for face in wild_faces:
        stood = TileWords(tile_str(face)) if face is not None else "—"
        items.append(item(rs, "wild_as", 0, N_("{wild} → {face}", wild=TileWords(tile_str(wild or 0)), face=stood)))
    for face in whites:
        items.append(item(rs, "white_as", 0, N_("{wild} → {face}", wild=TileWords("5z"), face=TileWords(tile_str(face)))))
    return items


def pattern_keys(rs: Ruleset[Any, Any, Any], scored: k.KernelReading) -> tuple[str, ...]:
    """A winning reading's patterns: those found, then 抢杠."""
    key = ("pujiang_patterns", scored.found, scored.qiang_gang)
    made: tuple[str, ...] | None = rs.memo.get(key)
    if made is None:
        keys = rs.tables.keys
        made = rs.memo.keep(key, tuple([keys[index] for index, _ in scored.found]) + (("qiang_gang",) if scored.qiang_gang else ()))
    return made


def reading(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any], out: k.Outcome, scored: k.KernelReading) -> Reading[PujiangFacts]:
    """One reading of the kernel's, explained: 子 (with the sum), each pung or kong's 子, each
    pattern's 番, 抢杠, then what each wild and 白板 stood for."""
    seen = shape(hand, ctx, out, scored)
    if scored.refusal != k.WINS:
        return Reading(0, (), (), PujiangFacts(seen), refusal(rs, scored))
    sets = seen.arrangement.sets if seen.arrangement else meld_sets(hand)
    items: list[Item] = [base_item(ctx, rs, scored)]
    for s in sets:
        one = zi_item(rs, s)
        if one is not None:
            items.append(one)
    items += fan_items(rs, out.jokers, scored)
    items += face_items(rs, ctx.wild, seen.wild_faces, seen.white_faces)
    return Reading(scored.value, tuple(items), pattern_keys(rs, scored), PujiangFacts(seen, scored.zi, scored.fan))


def every_reading(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any], best: Reading[PujiangFacts], best_index: int) -> tuple[Reading[PujiangFacts], ...]:
    """Every reading the kernel keeps, explained (the best one is the one already made)."""
    out = k.score(rs, hand, ctx, keep_all=True)
    return tuple(best if index == best_index else reading(hand, ctx, rs, out, scored) for index, scored in enumerate(out.every))


def wild_rows(wild_faces: tuple[int | None, ...], whites: tuple[int, ...], wild: int | None) -> list[dict[str, Any]]:
    """The `wilds` key: what each wild and 白板 stood for."""
    rows: list[dict[str, Any]] = []
    for face in wild_faces:
        rows.append({"tile": tile_str(wild if wild is not None else 0), "role": "wild", "as": None if face is None else tile_str(face)})
    for face in whites:
        rows.append({"tile": tile_str(WHITE), "role": "white", "as": tile_str(face)})
    return rows


def decomposition(seen: Shape) -> dict[str, Any]:
    """The `decomposition` key: the shape's name, then its arrangement or its text."""
    if seen.arrangement is not None:
        return {"shape": seen.name, **seen.arrangement.to_dict()}
    return {"shape": seen.name, "text": seen.text}


def _kept(rs: Ruleset[Any, Any, Any], key: Any, make: Callable[[], Any]) -> Any:
    """What `make()` gives, made once per `key` and kept on the ruleset."""
    made = rs.memo.get(key)
    if made is None:
        made = rs.memo.keep(key, make())
    return made


# which group of items a piece of the explanation is (PujiangExplanation._pieces), and its JSON's key
BASE: Final = "pujiang_base"
ZI: Final = "pujiang_zi"
FANS: Final = "pujiang_fans"
WILD_AS: Final = "pujiang_wild_as"
WHITE_AS: Final = "pujiang_white_as"
JSON: Final = "pujiang_json"

_STANDARD_OPEN: Final = f'"decomposition": {{"shape": {encode(SHAPE_NAMES[STANDARD])}, '


@final
class PujiangExplanation(Explanation):
    """What a scored Pujiang hand shows besides its value (core/result.Explanation), made when asked."""

    def __init__(self, rs: Ruleset[Any, Any, Any], hand: Hand, ctx: WinContext, out: k.Outcome, best: k.KernelReading) -> None:
        self.rs = rs
        self.hand = hand
        self.ctx = ctx
        self.out = out
        self.best = best
        self._shape: Shape | None = None
        self._codes_made: tuple[int, ...] | None = None

    def shape(self) -> Shape:
        if self._shape is None:
            self._shape = shape(self.hand, self.ctx, self.out, self.best)
        return self._shape

    def _wild_faces(self) -> tuple[int | None, ...]:
        """What each wild stood for: the kernel's faces, but for 真13 and 三财神 (their shape's)."""
        best = self.best
        return best.faces if best.shape == STANDARD or best.shape == QI_DUI else self.shape().wild_faces

    def _codes(self) -> tuple[int, ...]:
        """The sets whose 子 count: a standard reading's concealed sets, then the melds (made once)."""
        made = self._codes_made
        if made is None:
            best = self.best
            any_face = self.ctx.wild if self.ctx.wild is not None else 0
            concealed = concealed_codes(best, any_face) if best.shape == STANDARD else ()
            made = self._codes_made = concealed + self.hand.codes
        return made

    def _pieces(self) -> list[tuple[Any, ...]]:
        """The items in order, in groups: each group's key (what its text depends on; its first entry
        says which group it is: BASE, ZI, FANS, WILD_AS, WHITE_AS)."""
        ctx, best, out = self.ctx, self.best, self.out
        pieces: list[tuple[Any, ...]] = [
            (BASE, best.base, best.zi, best.fan, best.found, ctx.robbing_kong, ctx.discarder, ctx.robbed_fan, ctx.opponent_pungs)]
        codes = self._codes()
        n = len(codes) - len(self.hand.melds)
        concealed = self.hand.kongs_concealed
        for i in range(len(codes)):
            if not sets.is_chow(codes[i]):  # a pung or kong: a meld's and a concealed kong's apart
                pieces.append((ZI, codes[i] + (0 if i < n else N_CODES if not concealed[i - n] else 2 * N_CODES)))
        pieces.append((FANS, best.found, best.qiang_gang, out.jokers > 0))
        for face in self._wild_faces():  # what each wild stood for, then each 白板: an item each
            pieces.append((WILD_AS, ctx.wild, face))
        for face in white_faces(ctx, out, best):
            pieces.append((WHITE_AS, ctx.wild, face))
        return pieces

    def _made(self, piece: tuple[Any, ...]) -> list[Item]:
        """The items of one of `_pieces`."""
        rs, best = self.rs, self.best
        which = piece[0]
        if which == BASE:
            return [base_item(self.ctx, rs, best)]
        if which == ZI:
            code = piece[1] % N_CODES
            marks = piece[1] // N_CODES
            made = zi_item(rs, code_set(code, marks > 0, marks != 1))
            return [] if made is None else [made]
        if which == FANS:
            return fan_items(rs, self.out.jokers, best)
        if which == WILD_AS:
            return face_items(rs, piece[1], (piece[2],), ())
        return face_items(rs, piece[1], (), (piece[2],))

    def items(self) -> tuple[Item, ...]:
        made: list[Item] = []
        memo = self.rs.memo
        for piece in self._pieces():
            found: list[Item] | None = memo.get(piece)
            if found is None:
                found = memo.keep(piece, self._made(piece))
            made += found
        return tuple(made)

    def items_json(self) -> bytes:
        memo = self.rs.memo
        lang = language()
        parts: list[bytes] = []
        for piece in self._pieces():
            key = (JSON, lang, piece)
            text: bytes | None = memo.get(key)
            if text is None:
                found: list[Item] | None = memo.get(piece)
                if found is None:
                    found = memo.keep(piece, self._made(piece))
                text = memo.keep(key, b", ".join([item_json(one, memo) for one in found]))
            if text:
                parts.append(text)
        return b", ".join(parts)

    def decomposition(self) -> dict[str, Any]:
        return decomposition(self.shape())

    def extra(self) -> dict[str, Any]:
        best, ctx = self.best, self.ctx
        return {"zi": best.zi, "fan": best.fan, "wild": tile_str(ctx.wild) if ctx.wild is not None else None,
                "wilds": wild_rows(self._wild_faces(), white_faces(ctx, self.out, best), ctx.wild)}

    def _decomposition_json(self) -> str:
        best = self.best
        if best.shape == STANDARD:
            any_face = self.ctx.wild if self.ctx.wild is not None else 0
            text = decomposition_json(group_first(best.pair, any_face), self._codes(), best.win_in, self.hand.kongs_concealed)
            return _STANDARD_OPEN + text[len('"decomposition": {'):]
        if best.shape == QI_DUI:
            key = ("pujiang_qi_dui", best.pairs, self.ctx.wild, best.faces, white_faces(self.ctx, self.out, best))
            return str(_kept(self.rs, key, lambda: '"decomposition": ' + encode(decomposition(self.shape()))))
        return '"decomposition": ' + encode(decomposition(self.shape()))

    def tail_json(self) -> str:
        best, ctx = self.best, self.ctx
        wild = ctx.wild
        whites = white_faces(ctx, self.out, best)
        faces = self._wild_faces()
        key = ("pujiang_wilds", wild, faces, whites)
        rows: str | None = self.rs.memo.get(key)
        if rows is None:
            rows = self.rs.memo.keep(key, encode(wild_rows(faces, whites, wild)))
        wild_json = "null" if wild is None else TILE_JSON[wild]
        return f'{self._decomposition_json()}, "zi": {best.zi}, "fan": {best.fan}, "wild": {wild_json}, "wilds": {rows}'

    def readings(self) -> Sequence[Reading[PujiangFacts]]:
        chosen = reading(self.hand, self.ctx, self.rs, self.out, self.best)
        return LazyReadings(partial(every_reading, self.hand, self.ctx, self.rs, chosen, self.out.best_index))


def result(hand: Hand, ctx: WinContext, rs: Ruleset[Any, Any, Any], out: k.Outcome) -> ScoreResult:
    """The result of a winning hand's kernel outcome."""
    best = out.best
    assert best is not None
    return stamped(rs, hand, best.value, pattern_keys(rs, best), out.payments, PujiangExplanation(rs, hand, ctx, out, best))
