"""Typed errors with stable snake_case codes.

`InputError` means the request itself is wrong (CLI exit 2); `NotAWin` means the
input is well formed but the hand does not win under the variant (CLI exit 1).
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Callable, Mapping
from typing import Any, Self

from .words import Text, language, translated

_HAN = re.compile("[\u4e00-\u9fff]")  # a finished message already in Chinese needs no Chinese in front


class MjcalcError(Exception):
    """Base error: a stable `code`, a catalogue message with its named parameters, optionally where it is.

    `InputError("bad_seat", "{flag} must be one of {choices}, not {value}", flag=..., ...)`: the
    message is a msgid of the catalogue (core/words.py) and the keywords its parameters; it is
    rendered, in the language chosen then, only when `.message` is read. The older form with a
    finished English sentence and no parameters still works: it is shown as given (in Chinese
    after the code's general Chinese message, as it was before the catalogue).
    """

    exit_code = 2

    def __init__(self, code: str, message: str | Text, position: int | None = None, source: str | None = None,
                 **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.text = message if isinstance(message, Text) else Text(message, params)
        self.position = position
        self.source = source
        self.winner: str | None = None  # which of several winners (一炮多响) the error is about
        self.context: tuple[Text, ...] = ()  # where, outermost first: `line 3`, a file name, a winner
        self.rewrites: tuple[Callable[[str], str], ...] = ()  # e.g. flags named as record fields

    @property
    def params(self) -> dict[str, object]:
        return dict(self.text.params)

    @property
    def message(self) -> str:
        """The message in the chosen language (core/words.set_language), with its context first."""
        return self.render()

    def render(self, lang: str | None = None) -> str:
        """The message in `lang` (default: the chosen language)."""
        lang = language() if lang is None else lang
        body = self.text.render(lang)
        if lang == "zh" and self.code in GENERAL and translated(self.text.msgid, lang) is None and not _HAN.search(body):
            body = f"{translated(GENERAL[self.code], lang) or GENERAL[self.code]}: {body}"  # not yet in the catalogue
        for rewrite in self.rewrites:
            body = rewrite(body)
        return "".join(f"{part.render(lang)}: " for part in self.context) + body

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.text!r})"

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"code": self.code, "message": self.message}
        if self.position is not None:  # where in the text: from 0, and the column stderr names (`at column 3`), from 1
            out["position"] = self.position
            out["column"] = self.position + 1
        if self.winner is not None:
            out["winner"] = self.winner
        return out

    def _copy(self, cls: type[MjcalcError] | None = None) -> MjcalcError:
        named = (cls or type(self)).__new__(cls or type(self))
        named.__dict__.update(self.__dict__)
        named.args = self.args
        return named

    def within(self, where: Text, cls: type[MjcalcError] | None = None, *, keep_position: bool = False) -> MjcalcError:
        """A copy said to be in `where` (`line 3: ...`, `rules.yaml: ...`), optionally of another class.

        The copy forgets the position in the text unless `keep_position`, as a message about a
        larger whole does not point into the tiles any more.
        """
        named = self._copy(cls)
        named.context = (where, *self.context)
        if not keep_position:
            named.position = named.source = None
        return named

    def signature(self) -> tuple[Any, ...] | None:
        """What its words depend on, as a key: its class, code, msgid and parameters (each with its type:
        0 and False are equal, but written apart) and its rewrites; None where it knows a place (a
        position, a context) or a parameter cannot be hashed. Made once; a copy shares it."""
        if self.position is not None or self.source is not None or self.winner is not None or self.context:
            return None
        made: tuple[Any, ...] | bool | None = self.__dict__.get("_signature")
        if made is None:
            text = self.text
            made = (type(self), self.code, text.msgid, _plain(text.params))
            try:
                hash(made)
            except TypeError:
                made = False
            self.__dict__["_signature"] = made
        return (*made, self.rewrites) if isinstance(made, tuple) else None

    def fresh(self) -> Self:
        """A copy to raise: an error a cache shares must not be raised itself, since raising gives it
        a traceback, which would keep the frames of its last raise (and all they hold) alive."""
        return self._copy()  # type: ignore[return-value]

    def rewritten(self, rewrite: Callable[[str], str]) -> Self:
        """A copy whose message, once rendered, goes through `rewrite` (`--discarder` → `discarder`)."""
        named = self._copy()
        named.rewrites = (*self.rewrites, rewrite)
        return named  # type: ignore[return-value]

    def about_winner(self, winner: str) -> Self:
        """A copy naming one of several winners: `李: ...` and `winner` among its fields.

        A copy, since scored hands (and their errors) are cached and shared between hands.
        """
        named = self._copy()
        named.context = (Text("{winner}", {"winner": winner}), *self.context)
        named.winner = winner
        return named  # type: ignore[return-value]


def _plain(params: Mapping[str, object]) -> tuple[Any, ...]:
    """A message's parameters as a key: each (name, type, value), a Text as its msgid and parameters,
    so that hashing the key runs no Python."""
    return tuple([(name, type(value), (value.msgid, _plain(value.params)) if isinstance(value, Text) else value)
                  for name, value in params.items()])


class InputError(MjcalcError):
    """The hand, a flag or a record cannot be understood (exit 2)."""


class RuleRefused(InputError):
    """Well-formed tiles that a variant's rule refuses for this hand (Chizhou's chow restriction):
    bad input to `score` (exit 2), and a hand that does not win to a search over hands (`advise`)."""


class RulesetError(InputError):
    """A ruleset file or `--set` override is invalid; the message names file and key."""


class NotAWin(MjcalcError):
    """A well-formed hand that is not a win under the variant's rules (exit 1)."""

    exit_code = 1


def shown(value: object, limit: int = 80) -> str:
    """A short, one-line repr of `value` for an error message: at most `limit` characters.

    Bounded however large or deeply shared the value is (an alias bomb, a 5,000-digit
    integer), and control characters come out escaped, as `repr` writes them.
    """
    try:
        text = _SHORT.repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    text = "".join(ch if ch.isprintable() or ch == " " else ascii(ch)[1:-1] for ch in text)
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


class _ShortRepr(reprlib.Repr):
    """reprlib with room for one message line, and huge integers summarised, not converted."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxother = self.maxlong = 100

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 300:  # str() of a 5,000-digit integer raises, and is slow well before
            return f"<an integer of about {int(x.bit_length() * 0.30103) + 1} digits>"
        return super().repr_int(x, level)

    def repr_str(self, x: str, level: int) -> str:
        return super().repr_str(x[: self.maxstring + 1], level)


_SHORT = _ShortRepr()


# Every error code's general message, in English (its Chinese is in the catalogue, core/words.py):
# what went wrong, in general; the error's own message says where and with what. Codes never change.
GENERAL: dict[str, str] = {
    # tiles and hands
    "unknown_character": "a character in the tiles cannot be read",
    "missing_suit": "numbers without a suit (m/p/s/z)",
    "missing_number": "a suit without numbers",
    "invalid_tile": "no such tile",
    "not_one_tile": "exactly one tile is needed here",
    "input_too_long": "the tiles are too long",
    "empty_hand": "no tiles were given",
    "wrong_tile_count": "the number of tiles is wrong",
    "too_many_copies": "more than 4 copies of a tile",
    "win_tile_not_in_hand": "the winning tile is not in the hand",
    "bad_meld": "a meld that is not a pung, kong or chow",
    "chow_not_allowed": "this ruleset has no chows",
    "tile_not_in_variant": "this ruleset does not use this tile",
    "conflicting_flags": "these options cannot be given together",
    "bad_seat": "not a seat",
    "bad_piao": "the piao count must be a whole number from 0 to 7",
    "bad_opponent_pungs": "the other players' pung counts are wrong",
    "after_kong_without_kong": "a win after a kong, without a kong",
    "flag_not_in_variant": "this ruleset does not use this option",
    "bad_source": "a meld's source is not a seat or a player",
    "source_on_concealed_kong": "a concealed kong has no source",
    "too_many_wilds": "more than 3 wild tiles (cai shen)",
    "robbed_player_required": "robbing a kong needs the robbed player",
    "bad_robbed_fan": "the robbed kong's value must be 0 to 16",
    "missing_robbed_fan": "the robbed kong's value is missing",
    "robbed_fan_unused": "this ruleset does not use the robbed kong's value",
    "missing_discarder": "a win that is not self-drawn must name who discarded (or whose kong was robbed)",
    "chow_restricted": "with too few flowers (hua), this call is not allowed",
    # not a win
    "not_a_winning_hand": "this hand does not win",
    "no_ba_zhi": "no suit reaches 8 zhi",
    "discard_win_not_allowed": "this ruleset has no discard wins",
    "needs_three_pungs": "three pungs are needed",
    "wild_needs_fan": "with a wild tile, the hand needs a scoring pattern",
    "qi_dui_needs_cai_diao": "seven pairs needs the wild tile as the wait (cai diao)",
    "piao_needs_cai_shen_tou": "piao needs the wild tile as the pair (cai shen tou)",
    "not_enough_flowers": "not enough flowers (hua) for this kind of win",
    "no_waits": "no tile completes this hand",
    "win_not_allowed_during_piao": "another player's piao round forbids this win",
    # rulesets
    "unknown_variant": "no such ruleset",
    "ruleset_not_found": "the ruleset file cannot be found",
    "ruleset_invalid": "the ruleset is invalid",
    "ruleset_duplicate_key": "the ruleset repeats a key",
    "bad_set_option": "a --set option is not key=value",
    "no_settlement": "this ruleset has no settlement",
    # the command line and output
    "usage_error": "the command is not used that way",
    "output_error": "the output cannot be written",
    "internal_error": "a bug: please report it",
    # batch
    "bad_input_format": "an unknown input format",
    "cannot_read_input": "the input cannot be read",
    "bad_jobs": "--jobs is out of range",
    "record_too_large": "a record is too long",
    "worker_died": "a worker process died",
    "interrupted": "the run was stopped by a signal",
    "bad_extra_fields": "--extra-fields is error or keep",
    "bad_date": "a date is written YYYY-MM-DD",
    "bad_encoding": "not UTF-8 text",
    "bad_json": "not valid JSON",
    "bad_yaml": "not valid YAML",
    "bad_csv": "not valid CSV",
    "bad_csv_row": "a CSV row is wrong",
    "bad_record": "a record is not a mapping of fields",
    "missing_field": "a field is missing",
    "unknown_field": "an unknown field",
    "bad_field": "a field has a wrong value",
    # games
    "game_over": "the game has ended (a player's chips ran out)",
    "multiple_winners_not_allowed": "this ruleset has no several winners on one discard",
    "unknown_player": "no such player",
    "self_fed_meld": "a meld cannot be fed by its owner",
    "two_dealers": "the dealer is not the one the game works out",
    "computed_field": "the game works this field out itself",
    "conflicting_fields": "these fields cannot be given together",
    "bad_game": "the game file is wrong",
    "game_not_found": "the game file cannot be found",
    "game_not_a_file": "the game is not a regular file",
    "game_too_large": "the game file is too large",
    "missing_dealer": "the first dealer is missing",
    "dealer_unknown": "who deals this hand is not known: an earlier hand's winner cannot be read",
    "bad_xlsx": "the workbook (.xlsx) cannot be read",
    "unknown_sheet": "the workbook has no such sheet",
    # live games
    "no_game": "no game yet",
    "unknown_game": "no such game",
    "already_imported": "this game is already a live game",
    "bad_format": "no such output format",
    "unknown_hand": "the game has no such hand",
    "advise_not_supported": "this ruleset's scorer has no shanten rules to advise with",
    "nothing_to_undo": "no hand to take back",
    "nothing_to_redo": "no undo to take back",
    "stale_version": "someone else changed the game first: look again",
    "bad_db": "the games database cannot be used",
    "db_too_new": "the games database is newer than this mjcalc",
    "db_busy": "the games database is busy: try again",
    "too_many_hands": "the game holds the most hands one game may: begin a new game",
    "too_many_events": "the game has kept the most changes one game may: begin a new game",
    "db_full": "the games database has reached its size limit: nothing more is written",
    # mjcalc serve
    "missing_extra": "the web extra is not installed",
    "cannot_listen": "cannot listen on that address or port",
    "body_too_large": "the request body is too large",
    "missing_token": "the access token is missing",
    "bad_token": "the access token does not open this game",
    "bad_host": "this server does not answer for that host name",
    "bad_origin": "a change must come from this server's own page",
    "bad_content_type": "the request must be sent as JSON",
    "not_found": "no such address",
    "method_not_allowed": "this address does not take that method",
    "bad_request": "a bad request",
    # mjcalc site build
    "npm_unavailable": "npm is not installed: Pyodide cannot be fetched",
    "npm_failed": "npm could not fetch Pyodide",
    "bad_pyodide": "not a usable copy of the Pyodide package",
    "site_dir_not_empty": "the site folder is not empty",
    "site_dir_not_writable": "the site folder cannot be written",
    "missing_package": "a Python package the page ships is not installed",
    "too_many_streams": "too many pages follow games at once: close some, then try again",
    "busy": "the server is busy: try again in a moment",
    "too_many_requests": "too many costly requests at once: wait for the answers",
    "too_many_games": "too many games were begun lately: try again later",
}


def __getattr__(name: str) -> Any:
    if name == "MESSAGES":  # {code: (Chinese, English)}, read from the catalogue
        return {code: (translated(en, "zh") or en, en) for code, en in GENERAL.items()}
    raise AttributeError(name)
