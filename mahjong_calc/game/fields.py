"""Reading one hand of a game record: its fields, their kinds, the players they name.

The fields a hand may give are derived from the declaration (core/flags.fields() and each
Field's `game`); every check here raises a HandError, which the hand's row shows. The engine
(engine.py) folds the hands it reads.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache
from typing import Any, Final

from ..core import flags as flag_table
from ..core.context import SEATS
from ..core.errors import InputError, shown
from ..core.flags import MAX_PUNGS, parse_pungs
from ..core.seats import absolute, seat_index, split_source
from ..core.words import N_

# A game record's own fields (who won, a drawn hand), by kind: the head of the list of fields
# that an error message gives; the declared ones (flags.fields()) follow.
_OWN_HEAD: dict[str, str] = {"winner": "player", "winners": "winners", "draw": "bool", "dealer": "player", "note": "str"}
# a declared field's kind in a game record (a seat is named by its player there)
_GAME_KIND = {"id": "id", "text": "str", "tile": "str", "seat": "player", "bool": "bool", "count": "int",
              "maybe_count": "int", "melds": "list", "pungs": "pungs", "exposed": "exposed", "hua": "hua",
              "player": "player", "players": "players"}

class GameFields:
    """The game record's fields, from the declared ones (flags.fields() and each Field's `game`)."""

    def __init__(self) -> None:
        declared = flag_table.fields()
        by_name = flag_table.by_name()
        kind = {f.name: _GAME_KIND[f.kind] for f in declared if f.game != "computed"}
        head = ("id", *_OWN_HEAD)  # and the discarder, after `winners`
        tiles = [f.name for f in declared if f.role == "hand" and f.game != "computed"]
        flags = [f.name for f in declared if f.role == "flag" and f.game in ("winner", "hand") and f.name not in head and f.name != "discarder"]
        table = [f.name for f in declared if f.game == "table"]
        order = ("id", "winner", "winners", "discarder", "draw", "dealer", *tiles, *flags, *table, "note")
        # field -> kind, for one hand of a game record
        self.hand_kinds: dict[str, str] = {name: ({**kind, **_OWN_HEAD})[name] for name in order}
        # what one winner of several (`winners: [...]`) may say for themself
        self.winner_fields: tuple[str, ...] = ("winner", *(f.name for f in declared if f.game == "winner"))
        # declared fields a game works out itself, and how
        self.computed: dict[str, str] = {f.name: f.game_note for f in declared if f.game == "computed" and f.name not in self.hand_kinds}
        # declared flags a game record gives, checked against the variant
        self.record_flags: tuple[str, ...] = tuple(f.name for f in declared if f.role == "flag" and f.game in ("winner", "hand") and f.name != "discarder")
        self.table_fields: tuple[str, ...] = tuple(table)  # declared fields a game reads into the Table, not the WinContext
        self.needs: tuple[tuple[str, str], ...] = tuple((f.name, f.needs) for f in declared if f.needs and f.game == "table")
        self.self_drawn: tuple[str, ...] = tuple(f.name for f in declared if "self_draw" in f.implies)  # after_kong, heavenly
        self.drawn: tuple[str, ...] = ("self_draw", *self.self_drawn)  # any of them set: the winner drew the tile
        # each of record_flags with its default and whether it is a bool
        self.given: tuple[tuple[str, Any, bool], ...] = tuple((n, by_name[n].default, by_name[n].kind == "bool") for n in self.record_flags)
        # a winner's values of them when the record gives none, in that order; and which of them are bools
        self.flag_defaults: dict[str, Any] = {n: (bool(default) if is_bool else default) for n, default, is_bool in self.given}
        self.flag_bools: dict[str, bool] = {n: is_bool for n, _, is_bool in self.given}
        self.checked: tuple[str, ...] = (*self.record_flags, *self.table_fields)  # the fields that check_variant checks
        self.dealer_variants: tuple[str, ...] | None = by_name["dealer"].variants  # None: every variant
        # scorer -> the fields a record may give that its variant does not take
        self.foreign: dict[str, frozenset[str]] = {}
        # field -> the type of a value that needs no further check (a text, a flag, a player's name)
        self.plain: dict[str, type] = {n: {"str": str, "bool": bool, "player": str}[k] for n, k in self.hand_kinds.items()
                                       if k in ("str", "bool", "player")}
        self.lists: frozenset[str] = frozenset(n for n, k in self.hand_kinds.items() if k == "list")  # melds, concealed_kongs


game_fields: Final = cache(GameFields)


def hand_kinds() -> dict[str, str]:
    """Each field of one hand of a game record, and its kind."""
    return game_fields().hand_kinds


def winner_fields() -> tuple[str, ...]:
    """What one winner of several (`winners: [...]`) may say for themself."""
    return game_fields().winner_fields


def computed_fields() -> dict[str, str]:
    """The declared fields a game works out itself, and how."""
    return game_fields().computed


_KIND_TEXT = {
    "str": "a string",
    "bool": "true or false",
    "int": "an integer ≥ 0",
    "list": "a list of strings",
    "player": "a player's name or a seat E/S/W/N",
    "players": "a list of players",
    "pungs": "three counts for the players after the winner in turn, or {player: count}",
    "exposed": "{player: [meld@source, ...]}",
    "hua": "{player: count}",
    "winners": "a list of {winner, hand, melds, ...}",
    "id": "a string or an integer",
}



MAX_ID = 64  # characters in a hand's `id`: a label a table gives a hand, shown beside it
# Unicode categories no line of text a person gives (a name, an id) may hold: controls (an escape
# would drive a terminal), formats (bidi overrides turn a text around), line and paragraph separators
NOT_IN_A_LINE = frozenset(("Cc", "Cf", "Zl", "Zp"))


def not_in_a_line(text: str) -> str | None:
    """The first character of `text` a line of text may not hold (NOT_IN_A_LINE), or None."""
    if text.isprintable():
        return None
    return next((ch for ch in text if unicodedata.category(ch) in NOT_IN_A_LINE), None)


def check_id(value: Any, name: str = "id") -> None:
    """A hand's `id`: a string of at most MAX_ID characters, one line without control characters,
    or an integer of at most 64 bits (bad_field)."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise hand_error("bad_field", "{name}: must be {kind_text}, not {value!r}", name=name, kind_text=N_(_KIND_TEXT["id"]), value=value)
    if isinstance(value, int):
        if not -(1 << 63) <= value < 1 << 64:
            raise hand_error("bad_field", "{name}: an integer id is at most 64 bits, not {value}", name=name, value=shown(value))
        return
    if len(value) > MAX_ID:
        raise hand_error("bad_field", "{name}: an id is at most {most} characters, not {length} ({start}…)",
                    name=name, most=MAX_ID, length=len(value), start=shown(value[:12], 40))
    bad = not_in_a_line(value)
    if bad is not None:
        raise hand_error("bad_field", "{name}: {value} holds the control character U+{point:04X}; an id is one line of text",
                    name=name, value=shown(value, 40), point=ord(bad))


MAX_NOTE = 500  # characters in a hand's note


def check_note(value: str, name: str = "note") -> None:
    """A hand's note: at most MAX_NOTE characters, with no control or format character but line breaks and tabs (bad_field)."""
    if len(value) > MAX_NOTE:
        raise hand_error("bad_field", "{name}: a note is at most {most} characters, not {length} ({start}…)",
                         name=name, most=MAX_NOTE, length=len(value), start=shown(value[:12], 40))
    bad = not_in_a_line(value.replace("\n", " ").replace("\r", " ").replace("\t", " "))
    if bad is not None:
        raise hand_error("bad_field", "{name}: {value} holds the control character U+{point:04X}; a note may break lines, nothing more",
                         name=name, value=shown(value, 40), point=ord(bad))


class HandError(InputError):
    """A hand of a game record that cannot be settled (its row says why)."""


def hand_error(code: str, message: str, **params: object) -> HandError:
    return HandError(code, message, None, None, **params)


def player_seat(value: Any, name: str, players: tuple[str, ...]) -> int:
    name = name.rstrip(":")
    if not isinstance(value, str):
        raise hand_error("bad_field", "{name}: must be {kind_text}, not {value!r}", name=name, kind_text=N_(_KIND_TEXT['player']), value=value)
    seat = seat_index(value, players)
    if seat is None:
        raise hand_error("unknown_player", "{name}: {value!r} is not one of the players {players} (or E/S/W/N)", name=name, value=value,
                         players=', '.join(players))
    return seat


def _is_count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _strings(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


_KIND_OK: dict[str, Any] = {
    "str": lambda v: isinstance(v, str),
    "bool": lambda v: isinstance(v, bool),
    "int": _is_count,
    "list": _strings,
    "players": _strings,
    "pungs": lambda v: isinstance(v, (str, list, dict)),
    "exposed": lambda v: isinstance(v, dict) and all(_strings(x) for x in v.values()),
    "hua": lambda v: isinstance(v, dict) and all(_is_count(x) for x in v.values()),
    "winners": lambda v: isinstance(v, list) and len(v) > 0 and all(isinstance(x, dict) for x in v),
    "player": lambda v: True,  # checked against the players
}


def check_kind(name: str, kind: str, value: Any) -> None:
    if kind == "id":
        check_id(value, name)
    elif not _KIND_OK[kind](value):
        raise hand_error("bad_field", "{name}: must be {kind_text}, not {value!r}", name=name, kind_text=N_(_KIND_TEXT[kind]), value=value)


def fields_of(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise hand_error("bad_record", "a hand must be a mapping of fields, not {name}", name=type(raw).__name__)
    out: dict[str, Any] = {}
    table = game_fields()
    plain, lists = table.plain, table.lists
    for key, value in raw.items():
        # most of a hand's fields (a text, a flag, a player's name, a list of texts): nothing more to check
        if type(value) is plain.get(key) or (type(value) is list and key in lists and all([type(x) is str for x in value])):
            out[key] = value
            continue
        if key in table.computed:
            raise hand_error("computed_field", "{key}: {computed}; drop it from the hand", key=key, computed=N_(table.computed[key]))
        kind = table.hand_kinds.get(key) if isinstance(key, str) else None
        if kind is None:
            raise hand_error("unknown_field", "unknown field {key!r} (`--extra-fields keep` reads past a column or key that is not a field); "
                             "fields are: {hand_kinds}", key=key, hand_kinds=', '.join(table.hand_kinds))
        if value is None:
            continue
        check_kind(key, kind, value)
        out[key] = value
    note = out.get("note")
    if isinstance(note, str):
        check_note(note)
    return out


def sourced_melds(texts: Sequence[str], owner: int, players: tuple[str, ...], where: str) -> list[tuple[str, int | None]]:
    """Meld texts with their absolute source seat; nobody feeds their own meld."""
    out: list[tuple[str, int | None]] = []
    for text in texts:
        meld, source = split_source(text)
        seat = None
        if source is not None:
            seat = seat_index(source, players)
            if seat is None:
                player_seat(source, f"{where} {text!r}", players)  # raises unknown_player
            if seat == owner:
                raise hand_error("self_fed_meld", "{where} {text!r}: {player} cannot feed their own meld", where=where, text=text, player=players[owner])
        out.append((meld, seat))
    return out



def opponent_pungs_of(counts: Any, given: Any, winner: int, players: tuple[str, ...]) -> tuple[int, int, int]:
    """The payers' exposed pungs, checked; the message names the players the counts are for."""
    try:
        return parse_pungs(counts, "field")
    except InputError:
        if isinstance(given, dict):
            raise hand_error("bad_opponent_pungs", "opponent_pungs: {given}: a player's count is 0 to {max_pungs} (a kong counts 2)",
                given=shown(given), max_pungs=MAX_PUNGS) from None
        order = ", ".join(players[absolute(winner, seat)] for seat in SEATS)
        raise hand_error("bad_opponent_pungs",
                         "opponent_pungs: {given} is not three counts from 0 to {max_pungs} for {order} in that order, nor {{player: count}}",
            given=shown(given), max_pungs=MAX_PUNGS, order=order) from None
