"""The lean record path: a batch record's fields to its row's JSON bytes, with no objects per record.

    record fields -> counts + set codes + a cached WinContext -> the variant's kernel
    -> the row, assembled from pieces cached by the few values they depend on

`score_row(key)` answers only what it can answer exactly as `score_hand` would, byte for byte:
a record in plain mpsz notation whose checks all pass and whose hand wins. Anything else (a
spelling the quick parser does not take, a bad field, a clash, a hand that does not win, a
meld that names its feeder, a variant without a row scorer) is `None`, and the caller takes
the full path, which builds the ScoreResult and words the error. It never guesses.
A variant's row scorer (`Variant.row`, variants/<v>/row.py) answers with the row's parts
(variants/common/row.RowParts), the NotAWin its scorer would raise, the InputError of its own
checks, or None.

The facts of a win depend only on a record's flags, of which a batch holds few combinations:
each combination's WinContext (checked by `make_context`, the same function the full path
calls) is made once. A variant's `row` (its `Variant.row`, beside its explain step) runs its
kernel and assembles the row's pieces from its own cached texts.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final

from ..core import flags as flag_table
from ..core.context import Seat, WinContext
from ..core.errors import MjcalcError
from ..core.hand import Hand, Meld, hand_of_counts, make_context, parse_meld
from ..core.shapes import set_code
from ..core.tiles import MAX_INPUT, NUM_TILES, tile_str
from .score import tiles_in_variant

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset

# What score_row answers: the body (the row's JSON without its opening brace, UTF-8), the
# ruleset's name, the value, the total, the payments (next, opposite, previous) and the patterns.
Row = tuple[bytes, str, int, int, tuple[int, int, int], tuple[str, ...]]
# A hand read by _read: its 34 counts, set codes, which sets are concealed kongs, the melds' JSON, the Melds, the winning tile.
_Read = tuple[list[int], tuple[int, ...], tuple[bool, ...], list[str], list[Meld], int]

encode: Final = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(value, ensure_ascii=False), as ScoreResult.to_json

TILE_JSON: Final = tuple(encode(tile_str(t)) for t in range(NUM_TILES))
KEPT: Final = 4096  # entries each cache below keeps before it starts afresh


class _Fields:
    """Where each record field sits in a key (flags.key_fields()), made again when the declaration changes."""

    def __init__(self) -> None:
        _contexts.clear()  # made for the fields before
        names = flag_table.key_fields()
        self.names = names
        at = {name: i for i, name in enumerate(names)}
        self.variant, self.hand, self.win = at["variant"], at["hand"], at["win"]
        self.melds, self.kongs = at["melds"], at["concealed_kongs"]
        flag_fields = [f for f in flag_table.fields() if f.role == "flag" and f.name in at]
        self.flags = tuple(at[f.name] for f in flag_fields)
        self.take_flags = _taker(self.flags)
        self.flag_names = tuple(f.name for f in flag_fields)
        self.absent = tuple(f.default for f in flag_fields)
        self.piao_by = at.get("piao_by", -1)


def _taker(indexes: tuple[int, ...]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """A function giving a key's values at `indexes`, as a tuple (in C: itemgetter)."""
    if len(indexes) > 1:
        return itemgetter(*indexes)
    return lambda key: tuple([key[i] for i in indexes])


_contexts: Final[dict[tuple[int, tuple[Any, ...]], tuple[Ruleset[Any, Any, Any], WinContext | None]]] = {}
# (text, concealed) -> its set code, is a chow, its JSON, is a kong, the Meld
_melds: Final[dict[tuple[str, bool], tuple[int, bool, str, bool, Meld] | None]] = {}
_paid: Final[dict[tuple[int, int, int], str]] = {}  # payments -> their keys and the total, as a row writes them
_heads: Final[dict[int, tuple[Ruleset[Any, Any, Any], str, tuple[bool, ...], bool]]] = {}


_field_table: Final[flag_table.Derived[_Fields]] = flag_table.derived(_Fields)


def _context(rs: Ruleset[Any, Any, Any], table: _Fields, values: tuple[Any, ...]) -> WinContext | None:
    """The checked facts of a win with these flag values under `rs`'s variant (None: the full path says why not)."""
    key = (id(rs), values)  # the ruleset is kept beside its contexts, so its id is its own
    known = _contexts.get(key)
    if known is not None and known[0] is rs:
        return known[1]
    ctx: WinContext | None
    given = {name: value for name, value, absent in zip(table.flag_names, values, table.absent) if value is not absent and value != absent}
    try:
        flag_table.check_variant(given, rs.scorer, rs.name, "field")
        ctx = make_context(spelling="field", **given)
    except (MjcalcError, TypeError, ValueError):
        ctx = None
    if len(_contexts) >= KEPT:
        _contexts.clear()
    _contexts[key] = (rs, ctx)
    return ctx


def _meld(text: str, concealed: bool) -> tuple[int, bool, str, bool, Meld] | None:
    """A meld's set code, whether it is a chow or a kong, its JSON in the row's `hand`, and the Meld (None: refused)."""
    key = (text, concealed)
    if key in _melds:
        return _melds[key]
    made: tuple[int, bool, str, bool, Meld] | None
    try:
        meld: Meld = parse_meld(text, concealed)
        shown = encode({"kind": meld.kind, "tiles": meld.notation(), "concealed": meld.concealed})
        made = (set_code(meld.kind, meld.first), meld.kind == "chow", shown, meld.kind == "kong", meld)
    except (MjcalcError, ValueError):
        made = None
    if len(_melds) >= KEPT:
        _melds.clear()
    _melds[key] = made
    return made


def _head(rs: Ruleset[Any, Any, Any]) -> tuple[str, tuple[bool, ...], bool]:
    """The row's text before the hand, whether the variant uses each tile, and whether it has chow melds."""
    entry = _heads.get(id(rs))
    if entry is None or entry[0] is not rs:
        if len(_heads) >= 256:
            _heads.clear()
        head = f'"variant": {encode(rs.name)}, "ruleset_version": {encode(rs.version)}, "valid": true, "hand": {{"concealed": '
        used = tiles_in_variant(rs.tiles)
        entry = _heads[id(rs)] = (rs, head, tuple([t in used for t in range(NUM_TILES)]), rs.tiles.chow_melds)
    return entry[1], entry[2], entry[3]


_DIGITS: Final[tuple[tuple[str, ...], ...]] = tuple(tuple(str(digit) * n for n in range(5)) for digit in range(1, 10))  # [i][n]: n copies of i + 1


def _concealed_json(counts: list[int]) -> str:
    """format_tiles of the concealed tiles, as JSON: sorted, one suit letter per run."""
    out: list[str] = ['"']
    for suit in range(4):
        base = suit * 9
        run = False
        for i in range(9 if suit < 3 else 7):
            n = counts[base + i]
            if n:
                out.append(_DIGITS[i][n] if n <= 4 else str(i + 1) * n)
                run = True
        if run:
            out.append("mpsz"[suit])
    out.append('"')
    return "".join(out)


def _suit_base(letter: int) -> int:
    """The first tile of the suit a letter's code names (m p s z), -1 for any other character."""
    if letter == 109:  # m
        return 0
    if letter == 112:  # p
        return 9
    if letter == 115:  # s
        return 18
    if letter == 122:  # z
        return 27
    return -1


_BASE_OF: Final[tuple[int, ...]] = tuple([_suit_base(code) for code in range(128)])  # _suit_base of each ASCII code


def _tile_counts(text: str, counts: list[int], allowed: tuple[bool, ...]) -> int:
    """Add the tiles of `text` to `counts` and give how many; -1 (counts then spoiled) unless `text`
    is the notation tiles.parse_tiles reads in one pass: runs of digits 1-9, each ended by m, p or s
    (1-7 for z), at most MAX_INPUT characters, one tile at least, of `allowed` tiles only and at most
    four of each. Its last tile is then the last digit in the last letter's suit. Read from the end,
    so that a digit's suit is known when it is read: each character once."""
    if len(text) > MAX_INPUT or not text.isascii():
        return -1
    base = -1  # the suit of the digits now read (-1: no letter yet, so a digit here ends the text)
    tiles = 0
    mark = 0  # the tiles read when that letter was
    for code in reversed(text.encode()):
        if 49 <= code <= 57:  # 1-9
            if base < 0 or (base == 27 and code > 55):  # a digit with no letter after it, or 8z, 9z
                return -1
            tile = base + code - 49
            count = counts[tile] + 1
            if count > 4 or not allowed[tile]:
                return -1
            counts[tile] = count
            tiles += 1
            continue
        if base >= 0 and tiles == mark:  # a letter right before another: a run with no digit
            return -1
        base = _BASE_OF[code]
        if base < 0:
            return -1
        mark = tiles
    return tiles if tiles > mark else -1  # the text begins with a digit


def _last_tile(text: str) -> int:
    """The last tile of a text `_tile_counts` has read: its last digit, in its last letter's suit."""
    return _suit_base(ord(text[-1])) + ord(text[-2]) - 49


def _read(rs: Ruleset[Any, Any, Any], ctx: WinContext, text: str, win_text: str | None, meld_texts: Sequence[str],
          kong_texts: Sequence[str]) -> _Read | None:
    """A hand's counts, set codes, kong flags, melds' JSON and Melds and winning tile, checked as the
    full path checks them (None: the full path answers)."""
    _, allowed, chows_allowed = _head(rs)
    counts = [0] * NUM_TILES
    n_concealed = _tile_counts(text, counts, allowed)
    if n_concealed < 0:
        return None
    melds: list[int] = []
    kong_flags: list[bool] = []
    shown: list[str] = []
    made: list[Meld] = []
    held = counts.copy() if meld_texts or kong_texts else counts  # every tile held, the melds' too
    any_kong = False
    for texts, concealed in ((meld_texts, False), (kong_texts, True)) if held is not counts else ():
        for meld_text in texts:
            if "@" in meld_text:
                return None  # a meld that names its feeder is settled too
            meld = _meld(meld_text, concealed)
            if meld is None or (meld[1] and not chows_allowed):
                return None
            code = meld[0]
            melds.append(code)
            kong_flags.append(concealed)
            shown.append(meld[2])
            made.append(meld[4])
            any_kong = any_kong or meld[3]
            if code >= 68:  # a kong: 2 * 34 + its tile
                first, last, copies = code - 68, code - 68, 4
            elif code >= 34:  # a chow
                first, last, copies = code - 34, code - 32, 1
            else:
                first, last, copies = code, code, 3
            for t in range(first, last + 1):
                held[t] += copies
                if held[t] > 4 or not allowed[t]:
                    return None
    if n_concealed != 14 - 3 * len(melds) or (ctx.after_kong and not any_kong):
        return None
    if win_text is None:
        win = _last_tile(text)
    else:
        if len(win_text) != 2:
            return None
        digit, base = ord(win_text[0]) - 49, _suit_base(ord(win_text[1]))
        if not 0 <= digit <= (6 if base == 27 else 8) or base < 0:
            return None
        win = base + digit
        if not counts[win]:
            return None
    return counts, tuple(melds), tuple(kong_flags), shown, made, win


def _opening(head: str, counts: list[int], shown: list[str], win: int, value: int) -> str:
    """A row's JSON from its opening brace's next key to `"items": [` (the items follow)."""
    return f'{head}{_concealed_json(counts)}, "melds": [{", ".join(shown)}], "win": {TILE_JSON[win]}}}, "value": {value}, "items": ['


def score_row(key: tuple[Any, ...], rs: Ruleset[Any, Any, Any]) -> Row | MjcalcError | None:
    """The row of a normalized record scored under `rs`; the NotAWin (not raised) of a hand that
    does not win, or the InputError of the variant's own checks, worded as its scorer words them
    (before a record's field words); None where the full path must answer."""
    row_of = rs.variant.row
    if row_of is None:
        return None
    table = _field_table()
    values = table.take_flags(key)
    if table.piao_by >= 0 and key[table.piao_by] is not None:
        return None  # settled too: the full path's liability
    ctx = _context(rs, table, values)
    if ctx is None:
        return None
    read = _read(rs, ctx, key[table.hand], key[table.win], key[table.melds], key[table.kongs])
    if read is None:
        return None
    counts, melds, kong_flags, shown, _, win = read
    parts = row_of(rs, tuple(counts), melds, kong_flags, win, ctx)
    if parts is None or isinstance(parts, MjcalcError):
        return parts
    value, items, patterns, patterns_json, payments, rest = parts
    a, b, c = payments
    total = a + b + c
    paid = _paid.get(payments)
    if paid is None:
        if len(_paid) >= KEPT:
            _paid.clear()
        paid = _paid[payments] = f'"payments": {{"next": {a}, "opposite": {b}, "previous": {c}}}, "total": {total}, '
    after = f'], "patterns": {patterns_json}, {paid}{rest}}}'
    try:
        data = b"".join([_opening(_head(rs)[0], counts, shown, win, value).encode("utf-8"), items, after.encode("utf-8")])
    except UnicodeEncodeError:
        return None
    return data, rs.name, value, total, payments, patterns


class RowResult:
    """A win scored on the lean path, for a game's fold: what a settler reads of it (its value,
    patterns, payments, Hand and extra keys) and its JSON, as two texts around the payments.

    Its JSON is the ScoreResult's (`to_json`, `to_dict`); `json_with` gives it with settled
    payments and a liability list, as a game's report shows a result.
    """

    def __init__(self, variant: str, value: int, patterns: tuple[str, ...], payments: dict[Seat, int], hand: Hand,
                 before: str, rest: str) -> None:
        self.variant = variant
        self.value = value
        self.patterns = patterns
        self.payments = payments
        self.hand = hand
        self.before = before  # '"variant": ... "patterns": [...], '
        self.rest = rest  # '"decomposition": ..., ' and the variant's extra keys, without the closing brace

    @property
    def total(self) -> int:
        return sum(self.payments.values())

    @property
    def extra(self) -> dict[str, Any]:
        """The variant's keys after `decomposition`, as the ScoreResult's `extra` holds them."""
        data: dict[str, Any] = json.loads("{" + self.rest + "}")
        data.pop("decomposition", None)
        return data

    def json_with(self, payments: Mapping[Seat, int], liability: str | None = None) -> str:
        """The result's JSON with these payments (and their total), then `"liability": ...` if given."""
        a, b, c = payments["next"], payments["opposite"], payments["previous"]
        tail = "}" if liability is None else f', "liability": {liability}}}'
        return f'{{{self.before}"payments": {{"next": {a}, "opposite": {b}, "previous": {c}}}, "total": {a + b + c}, {self.rest}{tail}'

    def to_json(self) -> str:
        return self.json_with(self.payments)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.to_json())
        return data


def score_win(rs: Ruleset[Any, Any, Any], ctx: WinContext, text: str, win_text: str | None, meld_texts: Sequence[str],
              kong_texts: Sequence[str]) -> RowResult | MjcalcError | None:
    """One win of a game, scored on the lean path: its RowResult, the NotAWin or InputError its
    scorer would raise (not raised), or None where `score` must answer."""
    row_of = rs.variant.row
    if row_of is None:
        return None
    read = _read(rs, ctx, text, win_text, meld_texts, kong_texts)
    if read is None:
        return None
    counts, melds, kong_flags, shown, made, win = read
    parts = row_of(rs, tuple(counts), melds, kong_flags, win, ctx)
    if isinstance(parts, MjcalcError):
        return parts.fresh()  # the game raises it; the row's own may be shared by every hand refused alike
    if parts is None:
        return None
    value, items, patterns, patterns_json, payments, rest = parts
    before = f'{_opening(_head(rs)[0], counts, shown, win, value)}{items.decode("utf-8")}], "patterns": {patterns_json}, '
    hand = hand_of_counts(counts, tuple(made), win)
    pays: dict[Seat, int] = {"next": payments[0], "opposite": payments[1], "previous": payments[2]}
    return RowResult(rs.name, value, patterns, pays, hand, before, rest)
