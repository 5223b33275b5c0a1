"""The facts of a win: the tiles (Hand), and how it was won (WinContext, in context.py) checked.

Plain typed Python that mypyc compiles where it can (compiled.MODULES); WinContext stays in
its own module, because reading a registered flag as an attribute needs `__getattr__`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from . import flags as flag_table
from .context import SEATS, Seat, WinContext
from .errors import InputError, shown
from .flags import Field, Spelling, parse_count, parse_pungs
from .tiles import NUM_TILES, format_tiles, is_honour, parse_tile, parse_tiles, tile_str
from .words import N_, Text

MeldKind = Literal["pung", "kong", "chow"]


@dataclass(frozen=True)
class Meld:
    """A declared set: exposed pung/kong/chow, or a concealed kong."""

    kind: MeldKind
    tiles: tuple[int, ...]
    concealed: bool = False

    @property
    def first(self) -> int:
        return self.tiles[0]

    def notation(self) -> str:
        return format_tiles(self.tiles)


@dataclass(frozen=True)
class Hand:
    """Concealed tiles (winning tile included), declared melds and the winning tile."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int

    @property
    def all_tiles(self) -> tuple[int, ...]:
        return self.concealed + tuple(t for m in self.melds for t in m.tiles)

    def to_dict(self) -> dict[str, object]:
        out = tiles_dict(self.concealed, self.melds)
        out["win"] = tile_str(self.win_tile)
        return out


def hand_of_counts(counts: Sequence[int], melds: tuple[Meld, ...], win: int) -> Hand:
    """The Hand whose concealed tiles (the winning tile among them) are these 34 counts, lowest first."""
    return Hand(tuple([t for t in range(NUM_TILES) for _ in range(counts[t])]), melds, win)


def tiles_dict(concealed: Sequence[int], melds: Sequence[Meld]) -> dict[str, object]:
    """The JSON form of concealed tiles and declared melds: the `hand` of every answer."""
    return {
        "concealed": format_tiles(concealed),
        "melds": [{"kind": m.kind, "tiles": m.notation(), "concealed": m.concealed} for m in melds],
    }


_FACTS: Final[frozenset[str]] = frozenset(f for f in WinContext.__dataclass_fields__ if f != "registered")



def parse_meld(text: str, concealed: bool = False) -> Meld:
    """'555p' pung, '5555p' kong, '123m' chow; a concealed meld must be a kong."""
    flag = "--concealed-kong" if concealed else "--meld"
    tiles = sorted(parse_tiles(text))
    if len(tiles) == 4 and len(set(tiles)) == 1:
        return Meld("kong", tuple(tiles), concealed)
    if not concealed and len(tiles) == 3:
        if len(set(tiles)) == 1:
            return Meld("pung", tuple(tiles))
        a, b, c = tiles
        if not is_honour(a) and a // 9 == c // 9 and b == a + 1 and c == a + 2:
            return Meld("chow", tuple(tiles))
    if not concealed and len(tiles) == 3 and all(is_honour(t) for t in tiles):
        raise InputError("bad_meld", "{flag} {meld}: honours cannot form a chow (吃); only pungs and kongs", flag=flag, meld=shown(text))
    shape = N_("four identical tiles") if concealed else N_("a pung (555p), a kong (5555p) or a chow (123m)")
    raise InputError("bad_meld", "{flag} {meld} is not {shape}", flag=flag, meld=shown(text), shape=shape)


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


def build_hand(
    text: str,
    melds: Sequence[str] = (),
    concealed_kongs: Sequence[str] = (),
    win: str | None = None,
) -> Hand:
    """Parse and check the variant-independent shape: 14 tiles (kongs count 3), ≤4 copies."""
    concealed = parse_tiles(text)
    if not concealed:
        raise InputError("empty_hand", "the hand has no tiles")
    parsed = tuple(parse_meld(m) for m in melds) + tuple(parse_meld(k, concealed=True) for k in concealed_kongs)
    expected = 14 - 3 * len(parsed)
    if len(concealed) != expected:
        raise InputError("wrong_tile_count", tile_count_message(concealed, len(parsed), expected))
    win_tile = parse_tile(win) if win is not None else concealed[-1]
    if win_tile not in concealed:
        raise InputError("win_tile_not_in_hand", "winning tile {tile} is not among the concealed tiles", tile=tile_str(win_tile))
    hand = Hand(tuple(concealed), parsed, win_tile)
    counts: dict[int, int] = {}
    for t in hand.all_tiles:
        counts[t] = counts.get(t, 0) + 1
    for t, n in sorted(counts.items()):
        if n > 4:
            raise InputError("too_many_copies", "{tile} appears {count} times across hand and melds; there are only 4", tile=tile_str(t), count=n)
    return hand


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
        order = [name for name in WinContext.__dataclass_fields__ if name in self.defaults]
        by_name = flag_table.by_name()
        # WinContext's order, then any registered flag
        self.parse_order: tuple[Field, ...] = tuple(by_name[name] for name in (*order, *(n for n in self.defaults if n not in order)))
        # each flag's "absent", parsed (parsing an absent value never fails)
        self.absent_facts: dict[str, Any] = {f.name: _parsed(f, f.default, "field") for f in self.parse_order}
        self.implying: tuple[Field, ...] = tuple(f for f in self.parse_order if f.implies)  # in parse order
        self.implied_by: dict[str, tuple[str, ...]] = {f.name: f.implies for f in self.implying}
        self.parse_rank: dict[str, int] = {f.name: i for i, f in enumerate(self.parse_order)}
        self.needing: tuple[Field, ...] = tuple(f for f in self.parse_order if f.needs)  # in parse order


_flags: Final[flag_table.Derived[_Flags]] = flag_table.derived(_Flags)


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


def win_context(facts: dict[str, Any]) -> WinContext:
    """A WinContext of parsed facts (a registered flag's go to `registered`); no checks."""
    if facts.keys() <= _FACTS:
        return WinContext(**facts)
    known = {k: v for k, v in facts.items() if k in _FACTS}
    return WinContext(**known, registered=tuple((k, v) for k, v in facts.items() if k not in _FACTS))


def make_context(*, spelling: Spelling = "cli", **flags: Any) -> WinContext:
    """Check that the flags (keywords named as in `flags.win_flags()`) describe one possible win.

    Each is parsed by its kind; `flags.clashes()` are refused, and implied flags are filled
    in (`Field.implies`: --after-kong and --heavenly imply --self-draw); `spelling` says
    how messages name a flag: `--piao` (cli) or `piao` (field). A flag not given (or
    None) is its field's "absent", so only the given ones are looked at.
    """
    table = _flags()
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
    return win_context(facts)


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
