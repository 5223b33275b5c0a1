"""The Pujiang kernel: a Hand and the facts of a win in, the best reading's integers out.

Plain typed Python over ints and tuples, so that mypyc can compile it; without a
compiler the same code runs. The rules of Pujiang scoring (what the 财神 and each 白板
may stand for, the shapes, 3 pungs, 子 × 2^番, the refusals, who pays) are written here
once, reading the ruleset's numbers and options themselves; `build.py` turns the
integers into the result (labels, detail text, JSON), and is the only place Pujiang text is made.

A hand is read every way the 白板 allow, then every way the wilds allow: pair + sets
from core/wilds.py's tables (each suit's cuts with k jokers looked up by its counts, a
group one int), 七对 and 真13 from its shape tests, and 三财神. The detectors run over
one `SetsRead` per hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, final

from ...core import sets
from ...core.counting import tiles_held
from ...core.tiles import WHITE
from ...core.wilds import (
    ANY,
    GROUP_CHOW,
    GROUP_FACES,
    GROUP_FIRST,
    GROUP_NATURALS,
    GROUP_WILDS,
    THIRTEEN_GROUPS,
    seven_pairs,
    split_ids,
    thirteen,
)
from ..common.best import better
from ..common.read import QI_DUI, SAN_CAI_SHEN, STANDARD, ZHEN_13, ZHEN_ZHEN_13, SetsRead

if TYPE_CHECKING:
    from ...core.context import WinContext
    from ...core.hand import Hand
    from ...rules.ruleset import Ruleset

NO_FACE: Final = -2  # the winning tile is a wild: it stands for no face in particular

# Refusals, in the order of how far a reading got (the furthest is reported)
NOT_A_WINNING_HAND: Final = 0
QI_DUI_NEEDS_CAI_DIAO: Final = 1
NEEDS_THREE_PUNGS: Final = 2
WILD_NEEDS_FAN: Final = 3
PIAO_NEEDS_CAI_SHEN_TOU: Final = 4
WINS: Final = -1

# Outcome codes
WIN: Final = 0
NO_WIN: Final = 1


@final
class PujiangTables:
    """What the kernel reads of a Pujiang ruleset besides its numbers and options, made once at load
    (`Ruleset.tables`): the patterns in YAML order (key, detector, 番 without and with a wild held,
    子 base: -1 for none), and which way the options settle payments."""

    def __init__(self, rs: Ruleset[Any, Any, Any]) -> None:
        opt = rs.options
        self.keys: tuple[str, ...] = tuple(key for key, _ in rs.detectors)
        self.detectors: tuple[Any, ...] = tuple(fn for _, fn in rs.detectors)
        self.fans: tuple[int, ...] = tuple(rs.patterns[key].fan for key in self.keys)
        self.fans_wild: tuple[int, ...] = tuple(
            rs.patterns[key].fan if rs.patterns[key].fan_with_wild is None else rs.patterns[key].fan_with_wild for key in self.keys
        )
        self.bases: tuple[int, ...] = tuple(-1 if rs.patterns[key].base is None else rs.patterns[key].base for key in self.keys)
        self.before_fan: bool = opt.subtract_pungs == "before_fan"
        self.by_robbed_fan: bool = opt.qiang_gang_amount != "winner_value"
        self.robbed_doubling: bool = opt.qiang_gang_amount == "robbed_fan_doubling"


@final
class KernelReading:
    """One reading's integers: `refusal` (WINS, or why not), value, base 子, 子, 番, the patterns found
    as (index, times), the 番 of 抢杠, and what build.py needs to show it: the shape, how many
    白板 play as the wild's face (`whites`), the winning tile's face, and for a standard
    reading its pair and sets (group ids, core/wilds.py) and where the winning tile sits;
    for 七对 its pairs (face, jokers) in the order shown; the wilds' faces (-1: none, 三财神)."""

    def __init__(self, refusal: int, value: int, base: int, zi: int, fan: int, found: tuple[tuple[int, int], ...], qiang_gang: int, pungs: int,
                 shape: int, whites: int, pair: int, sets: tuple[int, ...], win_in: int, pairs: tuple[tuple[int, int], ...],
                 faces: tuple[int, ...]) -> None:
        self.refusal = refusal
        self.value = value
        self.base = base  # the 子 the hand starts from (numbers.base_zi, or a pattern's base)
        self.zi = zi
        self.fan = fan
        self.found = found
        self.qiang_gang = qiang_gang
        self.pungs = pungs
        self.shape = shape
        self.whites = whites
        self.pair = pair
        self.sets = sets
        self.win_in = win_in
        self.pairs = pairs
        self.faces = faces


@final
class Outcome:
    """What the kernel says of a hand: WIN with its best reading and what each seat pays (next,
    opposite, previous), or NO_WIN with the refusal that got furthest (None: no shape at all)."""

    def __init__(self, code: int, best: KernelReading | None, best_index: int, payments: tuple[int, int, int], jokers: int, whites_held: int,
                 every: tuple[KernelReading, ...]) -> None:
        self.code = code
        self.best = best
        self.best_index = best_index  # where the best stands among every reading
        self.payments = payments
        self.jokers = jokers  # wilds held
        self.whites_held = whites_held  # 白板 that could play as the wild's face
        self.every = every  # every reading, when asked for (`explain`)


@final
class _Choice:
    """The readings of a hand as they come: the best (the first of the highest value), else the
    refusal that got furthest (the first of the highest code), and every reading if kept. A reading
    refused before it is scored (too few pungs) is only counted where it cannot change the outcome:
    a hand that wins already, or one refused as far as that."""

    def __init__(self, keep_all: bool) -> None:
        self.keep_all = keep_all
        self.best: KernelReading | None = None
        self.best_index = -1
        self.furthest: KernelReading | None = None
        self.count = 0  # readings so far, counted or made: where each stands among every reading
        self.every: list[KernelReading] = []

    def add(self, scored: KernelReading) -> None:
        if scored.refusal == WINS:
            best = self.best
            if best is None or better(scored.value, 0, best.value, 0):
                self.best = scored
                self.best_index = self.count
        else:
            furthest = self.furthest
            if furthest is None or scored.refusal > furthest.refusal:
                self.furthest = scored
        if self.keep_all:
            self.every.append(scored)
        self.count += 1

    def passes(self, refusal: int) -> bool:
        """Whether a reading refused so can be counted and left unmade."""
        if self.keep_all or refusal == WINS:
            return False
        furthest = self.furthest
        if self.best is not None or (furthest is not None and furthest.refusal >= refusal):
            self.count += 1
            return True
        return False


# --- payments -------------------------------------------------------------------------


def owed(rs: Ruleset[Any, Any, Any], zi: int, fan: int, payer_pungs: int) -> int:
    """What one payer owes: their own exposed pungs come off the 子 (or off the total)."""
    mult: int = rs.numbers.fan_multiplier ** fan
    amount = (zi - payer_pungs) * mult if rs.tables.before_fan else zi * mult - payer_pungs
    return max(amount, 0) if rs.options.floor_payment_at_zero else amount


def owed_by_robbed_fan(rs: Ruleset[Any, Any, Any], zi: int, robbed_fan: int, payer_pungs: int) -> int:
    """抢杠, "被抢的人手里的牌翻数X抢杠胡手里的基数": the robbed player's 番 times the winner's 子
    (robbed_fan), or the winner's 子 doubled once per 番 (robbed_fan_doubling); less the payer's pungs."""
    if rs.tables.robbed_doubling:
        return owed(rs, zi, robbed_fan, payer_pungs)
    amount = (zi - payer_pungs) * robbed_fan if rs.tables.before_fan else zi * robbed_fan - payer_pungs
    return max(amount, 0) if rs.options.floor_payment_at_zero else amount


def payments(rs: Ruleset[Any, Any, Any], zi: int, fan: int, pungs: tuple[int, int, int], robbing: bool, robbed_fan: int,
             discarder: int) -> tuple[int, int, int]:
    """Who pays what (next, opposite, previous). Self-draw: each opponent their own amount. 抢杠:
    the robbed player (`discarder`, 0-2; -1: none) pays all three, by the winner's value or
    (options.qiang_gang_amount) by the robbed player's own 番 (`robbed_fan`, -1: not given)."""
    if robbing and robbed_fan >= 0 and rs.tables.by_robbed_fan:
        a = owed_by_robbed_fan(rs, zi, robbed_fan, pungs[0])
        b = owed_by_robbed_fan(rs, zi, robbed_fan, pungs[1])
        c = owed_by_robbed_fan(rs, zi, robbed_fan, pungs[2])
    else:
        a = owed(rs, zi, fan, pungs[0])
        b = owed(rs, zi, fan, pungs[1])
        c = owed(rs, zi, fan, pungs[2])
    if robbing and discarder >= 0:
        total = a + b + c
        return (total if discarder == 0 else 0, total if discarder == 1 else 0, total if discarder == 2 else 0)
    return (a, b, c)


# --- reading one shape ------------------------------------------------------------------


def _holds(gid: int, win_face: int) -> bool:
    """Whether a group can hold the winning tile: a natural tile of its face, or (a wild won) a wild."""
    if win_face == NO_FACE:
        return GROUP_WILDS[gid] > 0
    return win_face in GROUP_NATURALS[gid]


def _value(
    rs: Ruleset[Any, Any, Any], r: SetsRead, melds: tuple[int, ...], refusal: int, pungs: int, robbing: bool, piao: int,
    shape: int, whites: int, pair: int, set_ids: tuple[int, ...], win_in: int, pairs: tuple[tuple[int, int], ...], faces: tuple[int, ...],
) -> KernelReading:
    """Score the reading `r` points at (its shape's own refusal, if any, already in `refusal`)."""
    if refusal != WINS:
        return KernelReading(refusal, 0, 0, 0, 0, (), 0, pungs, shape, whites, pair, set_ids, win_in, pairs, faces)
    t: PujiangTables = rs.tables
    num, opt = rs.numbers, rs.options
    detectors = t.detectors
    wilds = r.wilds
    found: list[tuple[int, int]] = []
    fan = 0
    base: int = num.base_zi
    for k in range(len(detectors)):
        times = int(detectors[k](r))
        if times:
            found.append((k, times))
            fan += (t.fans_wild[k] if wilds else t.fans[k]) * times
            if t.bases[k] > base:
                base = t.bases[k]
    qiang_gang: int = opt.qiang_gang_fan if robbing else 0  # 抢杠 is a hand with 番 (保飘: 抢杠 is one)
    fan += qiang_gang
    if wilds and fan == 0 and not (robbing and not opt.robbing_kong_wild_needs_fan):
        return KernelReading(WILD_NEEDS_FAN, 0, 0, 0, 0, (), 0, pungs, shape, whites, pair, set_ids, win_in, pairs, faces)
    if piao and not r.cai_diao:
        return KernelReading(PIAO_NEEDS_CAI_SHEN_TOU, 0, 0, 0, 0, (), 0, pungs, shape, whites, pair, set_ids, win_in, pairs, faces)
    zi = base
    counted = r.sets if r.arranged else melds
    for code in counted:
        if sets.is_kong(code):
            zi += num.gang_zi
        elif sets.is_pung(code):
            zi += num.peng_zi
    return KernelReading(WINS, zi * num.fan_multiplier ** fan, base, zi, fan, tuple(found), qiang_gang, pungs, shape, whites, pair, set_ids, win_in,
                         pairs, faces)


def _qi_dui_pairs(faces: tuple[int, ...], jokers: int, win_face: int, four: bool) -> tuple[tuple[tuple[int, int], ...], bool] | None:
    """七对 with wilds: its pairs (face, jokers in it) in the order shown, and whether a wild pairs the
    winning tile (a wild pairing is moved onto it when four alike count as two pairs); None: not 七对."""
    found = seven_pairs(faces, jokers, four)
    if found is None:
        return None
    pairs = list(found)
    cai_diao = False
    if jokers:
        if win_face == NO_FACE:
            cai_diao = (ANY, 2) in pairs
        elif (win_face, 1) in pairs:
            cai_diao = True
        elif four and (win_face, 0) in pairs and (ANY, 2) in pairs:
            pairs.remove((win_face, 0))
            pairs.remove((ANY, 2))
            pairs += [(win_face, 1), (win_face, 1)]
            cai_diao = True
    shown = sorted(pairs, key=lambda p: (p[0] == ANY, p))  # wild pairs last
    return tuple(shown), cai_diao


def _thirteen_shape(rs: Ruleset[Any, Any, Any], faces: tuple[int, ...], jokers: int) -> tuple[int, tuple[int, ...]]:
    """真真13 or 真13 (and the faces the wilds take), or (-1, ()): wilds stand only for suited tiles."""
    found = thirteen(faces, jokers, rs.options.zhen_13_wide_gaps)
    if found is None:
        return -1, ()
    honours, wild_faces = found
    held = list(faces)
    for t in wild_faces:
        held[t] += 1
    full = True  # 147, 258 or 369 exactly, in every suit
    for suit in range(3):
        mine = [o for o in range(9) if held[suit * 9 + o]]
        if not any(list(group) == mine for group in THIRTEEN_GROUPS):
            full = False
            break
    if honours == rs.numbers.zhen_zhen_13_honours and full:
        return ZHEN_ZHEN_13, wild_faces
    if honours >= rs.numbers.zhen_13_min_honours:
        return ZHEN_13, wild_faces
    return -1, ()


def score(rs: Ruleset[Any, Any, Any], hand: Hand, ctx: WinContext, keep_all: bool = False) -> Outcome:
    """Score one Pujiang hand under `rs`. Readings come white choice
    by white choice (how many 白板 play as the wild's face), then for each face the winning
    tile may have: every pair + sets, then 七对; then 真13; 三财神 last. The best reading is
    the first of the highest value; `keep_all` also keeps every reading (for `--explain`)."""
    num, opt = rs.numbers, rs.options
    two_wilds_pair: bool = opt.two_wilds_pair_is_cai_shen_tou
    melds = hand.codes
    win = hand.win_tile
    wild: int = -1 if ctx.wild is None else ctx.wild
    robbing: bool = ctx.robbing_kong
    piao: int = ctx.piao
    base_counts = list(hand.counts)
    held = list(hand.counts)
    for code in melds:  # which suits are held: a set's tiles once each
        first = sets.first_of(code)
        held[first] += 1
        if sets.is_chow(code):
            held[first + 1] += 1
            held[first + 2] += 1
    jokers = 0
    if wild >= 0:
        jokers = base_counts[wild]
        base_counts[wild] = 0
    win_is_wild = wild >= 0 and win == wild
    white_swaps = wild >= 0 and wild != WHITE and opt.white_as_wild_face
    whites_held = base_counts[WHITE] if white_swaps else 0
    san = jokers >= num.wild_copies
    r = SetsRead(ctx, opt, int(tiles_held(held, 0, 9) > 0) + int(tiles_held(held, 9, 18) > 0) + int(tiles_held(held, 18, 27) > 0),
                 tiles_held(held, 27, 34) > 0, hand.kongs_concealed)
    r.wilds = jokers
    r.san_cai_shen = san
    n_melds = len(melds)
    min_pungs = num.min_pungs
    pungs_excused = robbing and not opt.robbing_kong_needs_three_pungs
    meld_pungs = 0
    for code in melds:
        if not sets.is_chow(code):
            meld_pungs += 1
    face_of_any = wild if wild >= 0 else 0
    choice = _Choice(keep_all)  # readings in the order that breaks ties: the first of equals is kept
    for k in range(whites_held + 1):
        faces = list(base_counts)
        if k:
            faces[WHITE] -= k
            faces[wild] += k
        ft = tuple(faces)
        win_faces: list[int] = []
        if win_is_wild:
            win_faces.append(NO_FACE)
        elif win == WHITE and white_swaps:
            if k < whites_held:
                win_faces.append(WHITE)
            if k:
                win_faces.append(wild)
        else:
            win_faces.append(win)
        readings = split_ids(ft, jokers)  # the same for each face of the winning tile
        for win_face in win_faces:
            for pair, set_ids in readings:
                pungs = meld_pungs
                for gid in set_ids:
                    if not GROUP_CHOW[gid]:
                        pungs += 1
                refusal = NEEDS_THREE_PUNGS if pungs < min_pungs and not pungs_excused else WINS
                if choice.passes(refusal):
                    continue
                # the winning tile goes in the pair when it can (that only adds 财神头)
                win_in = -1
                if not _holds(pair, win_face):
                    for i in range(len(set_ids)):
                        if _holds(set_ids[i], win_face):
                            win_in = i
                            break
                pair_wilds = GROUP_WILDS[pair]
                cai_diao = (pair_wilds == 2 and two_wilds_pair) or (pair_wilds == 1 and win_in == -1 and win_face != NO_FACE)
                codes: list[int] = []
                set_wilds = 0
                wild_faces: list[int] = []
                for f in GROUP_FACES[pair]:
                    wild_faces.append(face_of_any if f == ANY else f)
                for gid in set_ids:
                    first = GROUP_FIRST[gid]
                    if first == ANY:
                        first = face_of_any
                    codes.append(sets.chow(first) if GROUP_CHOW[gid] else sets.pung(first))
                    set_wilds += GROUP_WILDS[gid]
                    for f in GROUP_FACES[gid]:
                        wild_faces.append(face_of_any if f == ANY else f)
                r.arrange(tuple(codes) + melds, len(codes), win_in)
                r.shape = STANDARD
                r.set_wilds = set_wilds
                r.cai_diao = cai_diao
                choice.add(_value(rs, r, melds, refusal, pungs, robbing, piao, STANDARD, k, pair, set_ids, win_in, (), tuple(wild_faces)))
            if n_melds == 0:
                seven = _qi_dui_pairs(ft, jokers, win_face, opt.qi_dui_four_as_two_pairs)
                if seven is not None:
                    pairs, cai_diao = seven
                    r.arranged = False
                    r.sets = ()
                    r.shape = QI_DUI
                    r.set_wilds = 0
                    r.cai_diao = cai_diao
                    wild_faces = []
                    for face, n in pairs:
                        for _ in range(n):
                            wild_faces.append(face_of_any if face == ANY else face)
                    refusal = QI_DUI_NEEDS_CAI_DIAO if jokers and not cai_diao else WINS
                    choice.add(_value(rs, r, melds, refusal, 0, robbing, piao, QI_DUI, k, -1, (), -1, pairs, tuple(wild_faces)))
        if n_melds == 0:
            name, thirteen_faces = _thirteen_shape(rs, ft, jokers)
            if name >= 0:
                r.arranged = False
                r.sets = ()
                r.shape = name
                r.set_wilds = 0
                r.cai_diao = False
                choice.add(_value(rs, r, melds, WINS, 0, robbing, piao, name, k, -1, (), -1, (), thirteen_faces))
    if san:
        r.arranged = False
        r.sets = ()
        r.shape = SAN_CAI_SHEN
        r.set_wilds = 0
        r.cai_diao = False
        choice.add(_value(rs, r, melds, WINS, 0, robbing, piao, SAN_CAI_SHEN, 0, -1, (), -1, (), tuple([-1] * jokers)))
    best = choice.best
    every = tuple(choice.every)
    if best is None:
        return Outcome(NO_WIN, choice.furthest, -1, (0, 0, 0), jokers, whites_held, every)
    pungs_of: tuple[int, int, int] = (0, 0, 0) if ctx.opponent_pungs is None else ctx.opponent_pungs
    robbed_fan: int = -1 if ctx.robbed_fan is None else ctx.robbed_fan
    discarder = -1 if ctx.discarder is None else ("next", "opposite", "previous").index(ctx.discarder)
    pays = payments(rs, best.zi, best.fan, pungs_of, robbing, robbed_fan, discarder)
    return Outcome(WIN, best, choice.best_index, pays, jokers, whites_held, every)
