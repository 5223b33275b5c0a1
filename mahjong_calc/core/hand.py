"""The facts of a win, checked: the tiles (`read_hand`, the one reader of a hand's text, to a
Hand of counts and set codes) and how it was won (`make_context`, to a WinContext).

Plain typed Python that mypyc compiles (compiled.MODULES).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal, final

from . import flags as flag_table
from . import sets
from .context import SEATS, Seat, WinContext
from .errors import InputError, shown
from .flags import Field, Spelling, parse_count, parse_pungs
from .suits import SuitShape, suit_shapes
from .tiles import MAX_INPUT, NUM_TILES, format_tiles, is_honour, parse_tile, parse_tiles, tile_str
from .words import N_, Text

MeldKind = Literal["pung", "kong", "chow"]


@final
class Meld:
    """A declared set: an exposed pung, kong or chow, or a concealed kong, by its set code (core/sets.py).
    Immutable; every one there can be is made once (`meld_of`)."""

    def __init__(self, code: int, concealed: bool = False) -> None:
        self.code = code
        self.concealed = concealed

    @property
    def kind(self) -> MeldKind:
        return sets.kind_name(self.code)

    @property
    def first(self) -> int:
        return self.code % 34

    @property
    def tiles(self) -> tuple[int, ...]:
        return sets.tiles_of(self.code)

    def notation(self) -> str:
        return format_tiles(sets.tiles_of(self.code))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Meld) and self.code == other.code and self.concealed == other.concealed

    def __hash__(self) -> int:
        return hash((self.code, self.concealed))

    def __repr__(self) -> str:
        return f"Meld({self.kind} {self.notation()}{' concealed' if self.concealed else ''})"


# Every meld there can be, made once: [code] exposed, [N_CODES + code] concealed (a kong only is ever read so)
_MELDS: Final[tuple[Meld, ...]] = tuple(Meld(code, concealed) for concealed in (False, True) for code in range(sets.N_CODES))


def meld_of(code: int, concealed: bool = False) -> Meld:
    """The (shared, immutable) Meld of a set code."""
    return _MELDS[code + sets.N_CODES if concealed else code]


@final
class Hand:
    """Concealed tiles (winning tile included) as 34 counts, declared melds and the winning tile;
    with each meld's set code and whether it is a concealed kong, as the kernels read them. Immutable."""

    def __init__(self, counts: tuple[int, ...], melds: tuple[Meld, ...], win_tile: int) -> None:
        self.counts = counts
        self.melds = melds
        self.win_tile = win_tile
        self.codes: tuple[int, ...] = tuple([m.code for m in melds])  # each meld's set code, in the order declared
        self.kongs_concealed: tuple[bool, ...] = tuple([m.concealed for m in melds])  # which melds are concealed kongs
        self._shapes: list[SuitShape] | None = None

    def shapes(self) -> list[SuitShape]:
        """Each suit's SuitShape (m, p, s, z) of the concealed tiles (core/suits.py), found once."""
        found = self._shapes
        if found is None:
            found = self._shapes = suit_shapes(self.counts)
        return found

    @property
    def concealed(self) -> tuple[int, ...]:
        """The concealed tiles, lowest first."""
        counts = self.counts
        return tuple([t for t in range(NUM_TILES) for _ in range(counts[t])])

    @property
    def all_tiles(self) -> tuple[int, ...]:
        return self.concealed + tuple([t for m in self.melds for t in sets.tiles_of(m.code)])

    def held(self) -> list[int]:
        """Counts of every tile the player holds, melds included (a kong counts 4)."""
        held = list(self.counts)
        for m in self.melds:
            for t in sets.tiles_of(m.code):
                held[t] += 1
        return held

    def to_dict(self) -> dict[str, object]:
        out = tiles_dict(self.concealed, self.melds)
        out["win"] = tile_str(self.win_tile)
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and (self.counts, self.melds, self.win_tile) == (other.counts, other.melds, other.win_tile)

    def __hash__(self) -> int:
        return hash((self.counts, self.melds, self.win_tile))

    def __repr__(self) -> str:
        return f"Hand({format_tiles(self.concealed)}, melds={list(self.melds)}, win={tile_str(self.win_tile)})"


def hand_of_tiles(concealed: Sequence[int], melds: tuple[Meld, ...], win: int) -> Hand:
    """The Hand of these concealed tiles (the winning tile among them), in any order."""
    counts = [0] * NUM_TILES
    for t in concealed:
        counts[t] += 1
    return Hand(tuple(counts), melds, win)


def tiles_dict(concealed: Sequence[int], melds: Sequence[Meld]) -> dict[str, object]:
    """The JSON form of concealed tiles and declared melds: the `hand` of every answer."""
    return {
        "concealed": format_tiles(concealed),
        "melds": [{"kind": m.kind, "tiles": m.notation(), "concealed": m.concealed} for m in melds],
    }


def parse_meld(text: str, concealed: bool = False) -> Meld:
    """'555p' pung, '5555p' kong, '123m' chow; a concealed meld must be a kong."""
    code = _plain_meld(text)
    if code >= 0 and (not concealed or sets.is_kong(code)):
        return meld_of(code, concealed)
    flag = "--concealed-kong" if concealed else "--meld"
    tiles = sorted(parse_tiles(text))
    if len(tiles) == 4 and len(set(tiles)) == 1:
        return meld_of(sets.kong(tiles[0]), concealed)
    if not concealed and len(tiles) == 3:
        if len(set(tiles)) == 1:
            return meld_of(sets.pung(tiles[0]))
        a, b, c = tiles
        if not is_honour(a) and a // 9 == c // 9 and b == a + 1 and c == a + 2:
            return meld_of(sets.chow(a))
    if not concealed and len(tiles) == 3 and all(is_honour(t) for t in tiles):
        raise InputError("bad_meld", "{flag} {meld}: honours cannot form a chow (吃); only pungs and kongs", flag=flag, meld=shown(text))
    shape = N_("four identical tiles") if concealed else N_("a pung (555p), a kong (5555p) or a chow (123m)")
    raise InputError("bad_meld", "{flag} {meld} is not {shape}", flag=flag, meld=shown(text), shape=shape)


def _plain_meld(text: str) -> int:
    """The set code of a meld written in plain mpsz (`555p`, `5555p`, `123m`, `5p5p5p`, `1p2p3p`), or -1
    for any other text (parse_meld reads it with parse_tiles)."""
    if len(text) > 12:
        return -1
    counts = [0] * NUM_TILES
    n = _plain_counts(text, counts)
    if n != 3 and n != 4:
        return -1
    first = 0
    while not counts[first]:
        first += 1
    held = counts[first]
    if held == n:
        return sets.kong(first) if n == 4 else sets.pung(first)
    if n == 3 and held == 1 and first < 27 and first % 9 <= 6 and counts[first + 1] == 1 and counts[first + 2] == 1:
        return sets.chow(first)
    return -1


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


def _plain_counts(text: str, counts: list[int]) -> int:
    """Add the tiles of `text` to `counts` and give how many; -1 (counts then spoiled) unless `text`
    is plain mpsz: runs of digits 1-9, each ended by m, p or s (1-7 for z), at most MAX_INPUT
    characters, one tile at least, at most four of each. Read from the end, so that a digit's suit
    is known when it is read: each character once. Its last tile is then `_last_tile`."""
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
            if count > 4:
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


def _plain_tile(text: str) -> int:
    """The tile of a text that is one tile in plain mpsz (`4p`, `7z`), else -1 (tiles.parse_tile reads any other)."""
    if len(text) != 2:
        return -1
    digit = ord(text[0]) - 49
    letter = ord(text[1])
    if digit < 0 or digit > 8 or letter >= 128:
        return -1
    base = _BASE_OF[letter]
    if base < 0 or (base == 27 and digit > 6):
        return -1
    return base + digit


def _last_tile(text: str) -> int:
    """The last tile of a text `_plain_counts` has read: its last digit, in its last letter's suit."""
    return _suit_base(ord(text[-1])) + ord(text[-2]) - 49


def read_hand(text: str, melds: Sequence[str] = (), concealed_kongs: Sequence[str] = (), win: str | None = None) -> Hand:
    """The one reader: a hand's text, its melds and its winning tile to a Hand, with the checks
    every variant shares (14 tiles, kongs counting 3; at most 4 copies; the winning tile held).

    Plain mpsz is read in one pass; any other spelling (汉字, letters, spaces), and every error,
    by tiles.parse_tiles, which says where the problem is."""
    counts = [0] * NUM_TILES
    n = _plain_counts(text, counts)
    if n < 0:
        return _read_spelled(text, melds, concealed_kongs, win)
    made = tuple([parse_meld(m) for m in melds] + [parse_meld(k, True) for k in concealed_kongs])
    if n != 14 - 3 * len(made):
        return _read_spelled(text, melds, concealed_kongs, win)
    if win is None:
        win_tile = _last_tile(text)
    else:
        win_tile = _plain_tile(win)
        if win_tile < 0:
            win_tile = parse_tile(win)
        if not counts[win_tile]:
            return _read_spelled(text, melds, concealed_kongs, win)
    if made:
        held = counts.copy()
        for m in made:
            for t in sets.tiles_of(m.code):
                held[t] += 1
                if held[t] > 4:
                    return _read_spelled(text, melds, concealed_kongs, win)
    return Hand(tuple(counts), made, win_tile)


def _read_spelled(text: str, melds: Sequence[str], concealed_kongs: Sequence[str], win: str | None) -> Hand:
    """`read_hand` of any spelling tiles.parse_tiles reads, each check in turn: the first that fails
    is the error (parse, empty hand, melds, tile count, winning tile, copies)."""
    concealed = parse_tiles(text)
    if not concealed:
        raise InputError("empty_hand", "the hand has no tiles")
    parsed = tuple([parse_meld(m) for m in melds] + [parse_meld(k, True) for k in concealed_kongs])
    expected = 14 - 3 * len(parsed)
    if len(concealed) != expected:
        raise InputError("wrong_tile_count", tile_count_message(concealed, len(parsed), expected))
    win_tile = parse_tile(win) if win is not None else concealed[-1]
    if win_tile not in concealed:
        raise InputError("win_tile_not_in_hand", "winning tile {tile} is not among the concealed tiles", tile=tile_str(win_tile))
    hand = hand_of_tiles(concealed, parsed, win_tile)
    held = hand.held()
    for t in range(NUM_TILES):
        if held[t] > 4:
            raise InputError("too_many_copies", "{tile} appears {count} times across hand and melds; there are only 4", tile=tile_str(t), count=held[t])
    return hand


build_hand = read_hand  # the library's older name


SEAT_ZH: Final[dict[str, Seat]] = {"下家": "next", "对家": "opposite", "上家": "previous"}
SEAT_CHOICES: Final = ", ".join(f"{en} ({zh})" for zh, en in SEAT_ZH.items())  # a catalogue text: each language says it its own way


def seat(value: str | None, flag: str = "--discarder") -> Seat | None:
    """next/opposite/previous, or as players say it: 下家/对家/上家."""
    if value is None:
        return None
    value = SEAT_ZH.get(value, value)
    if value not in SEATS:
        raise InputError("bad_seat", "{flag} must be one of {choices}, not {value}", flag=flag, choices=N_(SEAT_CHOICES), value=shown(value))
    return value


def check_table_copies(shown_by: Sequence[tuple[str, Sequence[int]]]) -> None:
    """Refuse more than 4 copies of a tile over everything a record shows on the table.

    `shown_by` pairs who shows tiles ("李's hand and melds", "赵's melds", "the 财神
    indicator") with those tiles; the message names the tile and each holder's count.
    """
    counts: dict[int, int] = {}
    for _, tiles in shown_by:
        for t in tiles:
            counts[t] = counts.get(t, 0) + 1
    for t, n in sorted(counts.items()):
        if n > 4:
            where = ", ".join(f"{who} {k}" for who, tiles in shown_by if (k := list(tiles).count(t)))
            raise InputError("too_many_copies", "{tile} appears {count} times on the table ({where}); there are only 4", tile=tile_str(t), count=n, where=where)


def _parsed(field: Field, value: Any, spelling: Spelling) -> Any:
    """One flag's value as WinContext holds it, by the flag's kind."""
    if field.kind == "bool":
        return value
    if field.kind == "seat":
        return seat(value, field.named(spelling))
    if value is None:
        return None
    if field.kind == "tile":
        return parse_tile(value)
    if field.kind in ("count", "maybe_count"):
        return parse_count(value, field, spelling)
    if field.kind == "pungs":
        return parse_pungs(value, spelling)
    return value


class _Flags:
    """What make_context reads of the declared flags (`flag_table.win_flags()`), made by `_flags()`."""

    def __init__(self) -> None:
        declared = flag_table.win_flags()
        self.defaults: dict[str, Any] = {f.name: f.default for f in declared}  # every declared flag's "absent"
        self.bools: frozenset[str] = frozenset(f.name for f in declared if f.kind == "bool")
        by_name = flag_table.by_name()
        self.parse_order: tuple[Field, ...] = tuple(by_name[name] for name in WinContext.__dataclass_fields__)  # WinContext's order
        # each flag's "absent", parsed (parsing an absent value never fails)
        self.absent_facts: dict[str, Any] = {f.name: _parsed(f, f.default, "field") for f in self.parse_order}
        self.implying: tuple[Field, ...] = tuple(f for f in self.parse_order if f.implies)  # in parse order
        self.implied_by: dict[str, tuple[str, ...]] = {f.name: f.implies for f in self.implying}
        self.parse_rank: dict[str, int] = {f.name: i for i, f in enumerate(self.parse_order)}
        self.needing: tuple[Field, ...] = tuple(f for f in self.parse_order if f.needs)  # in parse order


_FLAGS: Final = _Flags()


def _check_implied_clashes(on: set[str], spelling: Spelling, table: _Flags) -> None:
    """The clashes a flag reaches through what it implies (--after-kong is a self-draw, so it
    clashes with --discarder): after the given flags' own, named by the flag that was given."""
    by_name = flag_table.by_name()
    source = {name: name for name in on}
    for name in sorted(on & table.implied_by.keys(), key=table.parse_rank.__getitem__):
        for implied in table.implied_by[name]:
            source.setdefault(implied, name)
    for name, others in flag_table.clashes():
        if name in source:
            hit = [n for n in others if n in source]
            if hit:
                given = [source[n] for n in (name, *hit)]
                if len(set(given)) > 1:  # a flag never clashes with what it implies itself
                    first, *rest = (by_name[n].named(spelling) for n in given)
                    raise InputError("conflicting_flags", "{first} and {others} cannot both be given", first=first, others="/".join(rest))


def make_context(*, spelling: Spelling = "cli", **flags: Any) -> WinContext:
    """Check that the flags (keywords named as in `flags.win_flags()`) describe one possible win.

    Each is parsed by its kind; `flags.clashes()` are refused, and implied flags are filled
    in (`Field.implies`: --after-kong and --heavenly imply --self-draw); `spelling` says
    how messages name a flag: `--piao` (cli) or `piao` (field). A flag not given (or
    None) is its field's "absent", so only the given ones are looked at.
    """
    table = _FLAGS
    if not flags.keys() <= table.defaults.keys():
        unknown = sorted(flags.keys() - table.defaults.keys())
        raise TypeError(f"make_context() got an unexpected keyword argument {unknown[0]!r}")
    by_name = flag_table.by_name()
    given = {name: bool(value) if name in table.bools else value for name, value in flags.items() if value is not None}
    on = {name for name, value in given.items() if by_name[name].is_set(value)}
    for name, others in flag_table.clashes():
        if name in on and not on.isdisjoint(others):
            first, *rest = (by_name[n].named(spelling) for n in (name, *others))
            raise InputError("conflicting_flags", "{first} and {others} cannot both be given", first=first, others="/".join(rest))
    if not on.isdisjoint(table.implied_by):
        _check_implied_clashes(on, spelling, table)
    facts = dict(table.absent_facts)
    for f in table.parse_order:
        if f.name in given:
            facts[f.name] = _parsed(f, given[f.name], spelling)
    for f in table.implying:
        if f.name in on:
            facts.update(dict.fromkeys(f.implies, True))
    for f in table.needing:
        if f.is_set(facts[f.name]) and not by_name[f.needs].is_set(facts[f.needs]):  # type: ignore[index]
            # a count of nobody's 飘 would be ignored
            raise InputError("conflicting_flags", "{flag} needs {needed}: {hint}", flag=f.named(spelling),
                             needed=by_name[f.needs].named(spelling), hint=N_(f.needs_hint))  # type: ignore[index]
    return WinContext(**facts)


WAITS_HINT: Final = "{n} tiles: to see what each winning tile scores, run `mjcalc waits ...`"


def tile_count_message(concealed: Sequence[int], melds: int, expected: int) -> Text:
    """The `wrong_tile_count` message, with what the player probably meant."""
    n = len(concealed)
    if n == expected - 1:
        return N_(WAITS_HINT, n=n)
    base = N_("the hand has {count} concealed tiles; with {melds} meld(s) it needs {expected}", count=n, melds=melds, expected=expected)
    extra = n - expected
    if extra > 0:
        fours = sorted({t for t in concealed if concealed.count(t) == 4})
        if fours and extra <= len(fours):
            kongs = " ".join(f"-k {format_tiles([t] * 4)}" for t in fours[:extra])
            return N_("{base}; a concealed kong goes in a flag, not in HAND: {kongs}", base=base, kongs=kongs)
    return base
