"""`mjcalc game add|edit`: a hand described by `score`'s flags (the winner's tiles, --winner,
--discarder, --draw, --note, --fields), made a game-record hand and written to a live game.

The options are built from the flag table (core/flags.py), so a new flag of `score` is an
option here too; errors name these flags, not the record's fields (`in_flag_words`).
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from ..core import flags as flag_table
from ..core.flags import Field
from .app import errors_to_exit
from .live import DbOption, hand_number, open_store, print_change, wants_json
from .options import FlagCommand, FormatOption, Lang, LangOption, flag_option

# `score`'s flags that a game works out itself (the dealer, the variant) or names by player (the discarder)
_NOT_FOR_ADD = frozenset({"hand", "discarder"})


def add_fields() -> tuple[Field, ...]:
    """`score`'s flags that `game add` takes: all but those a game works out (flags.Field.game)."""
    return tuple(f for f in flag_table.fields() if f.cli and f.game != "computed" and f.name not in _NOT_FOR_ADD)


def _option(field: Field) -> inspect.Parameter:
    """A `game add` option for one of `score`'s declared flags (flags.fields()): score's own, with a game's wording."""
    if field.name == "melds":
        return flag_option(field, " A source may follow: 555p@王 (a player or a seat E/S/W/N).")
    if field.kind == "seat":  # in a game, a seat is named by its player
        return flag_option(field, " In a game: the player's name.", metavar="NAME")
    return flag_option(field)


def _more_fields(text: str | None) -> dict[str, Any]:
    """`--fields '{"exposed": {...}}'`: other fields of a game-record hand, as one JSON object."""
    from ..core.errors import InputError

    if text is None:
        return {}
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise InputError("bad_json", "--fields must be one JSON object, e.g. '{\"sheng_zhang\": \"王\"}'") from None
    if not isinstance(value, dict):
        raise InputError("bad_json", "--fields must be a JSON object, not {name}", name=type(value).__name__)
    return value


def hand_record(values: dict[str, Any], hand: str | None, winner: str | None, discarder: str | None, draw: bool,
                more: str | None = None) -> dict[str, Any]:
    """The game-record hand that `game add`'s flags describe (only what was given)."""
    from ..core.errors import InputError
    from ..core.flags import by_name, parse_count

    extra = _more_fields(more)

    if draw:
        given = [f"--{k.replace('_', '-')}" for k, v in values.items() if by_name()[k].is_set(v) and v != []]
        given += [name for name, v in (("HAND", hand), ("--winner", winner), ("--discarder", discarder)) if v]
        if given:
            raise InputError("conflicting_flags", "--draw: a drawn hand (流局) takes no {given}", given=', '.join(given))
        return {"draw": True, **extra}
    several = "winners" in extra  # 一炮多响: each winner, with their own tiles, in --fields
    if several:
        from ..game.fields import winner_fields

        own = [name for name, v in (("HAND", hand), ("--winner", winner)) if v]
        own += [by_name()[k].cli[0] for k, v in values.items() if k in winner_fields() and by_name()[k].is_set(v) and v != []]
        if own:
            raise InputError("conflicting_flags", "--fields winners: gives each winner their own tiles and flags; move {own} into that winner's entry",
                own=', '.join(own))
    elif not winner:
        raise InputError("missing_field", "name the winner with --winner NAME (or give --draw for a drawn hand)")
    elif not hand:
        raise InputError("missing_field", "give the winner's tiles: mjcalc game add --winner NAME HAND")
    record: dict[str, Any] = {"winners": extra["winners"]} if several else {"winner": winner}
    if discarder:
        record["discarder"] = discarder
    if not several:
        record["hand"] = hand
    for name, value in values.items():
        field = by_name()[name]
        if value is None or value is False or value == []:
            continue
        if field.kind in ("count", "maybe_count"):  # the CLI gives text; a game record holds the number
            value = parse_count(value, field)
        elif field.kind == "melds":
            value = list(value)
        record[name] = value
    clash = sorted(record.keys() & extra.keys() - {"winners"})
    if clash:
        raise InputError("conflicting_flags", "--fields repeats {clash}, given by its own flag", clash=', '.join(clash))
    return {**record, **extra}


def _hand_params(params: dict[str, Any]) -> tuple[list[str], Path | None, bool, str, dict[str, Any]]:
    """The words (GAME, N, HAND), --db, --json, --lang and the hand's record of `game add`'s parameters."""
    words: list[str] = params.pop("words") or []
    db, json_out, lang = params.pop("db"), wants_json(params.pop("out_format"), params.pop("json_out")), params.pop("lang").value
    return words, db, json_out, lang, params


def _record(params: dict[str, Any], words: list[str]) -> dict[str, Any]:
    winner, discarder, draw, more, note = params.pop("winner"), params.pop("discarder"), params.pop("draw"), params.pop("more"), params.pop("note")
    record = hand_record(params, "".join(words) or None, winner, discarder, draw, more)
    if note:
        if "note" in record:
            from ..core.errors import InputError

            raise InputError("conflicting_flags", "--fields repeats {clash}, given by its own flag", clash="note")
        record["note"] = note
    return record


def _add(**params: Any) -> None:
    """Score one hand, record it in a live game, and print the standings.

    GAME is the game's number (default: the most recent game); HAND the winner's
    concealed tiles, in one word or several. A hand that is not a win, or bad input,
    is refused (exit 1 or 2) and nothing is written.

    Example: mjcalc game add --winner 李 --discarder 王 123456m13m99p555p2m
    """
    words, db, json_out, lang, params = _hand_params(params)
    game: str | None = None
    if words and words[0].isascii() and words[0].isdigit() and (len(words) > 1 or params["draw"]):
        game, words = words[0], words[1:]
    with errors_to_exit(json_out), in_flag_words():
        record = _record(params, words)
        with open_store(db) as store:
            change = store.add(game, record)
    print_change(change, json_out, lang)


_FIELD_AS_FLAG = re.compile(r"(?<![-\w])(discarder|self_draw: true)\b")


def _flag_words(text: str) -> str:
    return _FIELD_AS_FLAG.sub(lambda m: "--discarder" if m.group(1) == "discarder" else "--self-draw", text)


@contextmanager
def in_flag_words() -> Iterator[None]:
    """The game engine's errors in the words of `game add`/`edit`: its flags, not the record's
    fields (`--discarder`, `--self-draw`), and, when the game is over, what to do next."""
    from ..core.errors import InputError, MjcalcError

    try:
        yield
    except MjcalcError as err:
        if err.code == "missing_discarder":
            raise err.rewritten(_flag_words) from None
        if err.code == "conflicting_flags" and {str(err.params.get("first")), str(err.params.get("others"))} == {"heavenly", "dealer_seat"}:
            # the game names the dealer: --heavenly (the dealer's) for another winner
            raise InputError("conflicting_flags", "--heavenly: a heavenly hand (天胡) is the dealer's, and the winner is not this hand's "
                             "dealer") from None
        if err.code == "game_over":
            raise InputError("game_over", "the game ended at hand {ended_at}, when a player's 子 ran out; to play on, start the next "
                             "game with `mjcalc game new` (or take the last hand back: `mjcalc game undo`)",
                             ended_at=err.params.get("ended_at", "?")) from None
        raise


def _edit(**params: Any) -> None:
    """Change a hand of a live game: replace hand N with the hand the flags describe.

    One number before the tiles is N (of the most recent game); two are GAME, then N.
    The new hand is checked against the game before it (refused, nothing written, if it
    is not a win or bad input); a later hand it makes impossible (after the end of the
    game, a player without 子) becomes an error row, and the output says so.

    Example: mjcalc game edit 1 --winner 张 --discarder 王 123456m13m99p555p2m
    """
    from ..core.errors import InputError

    words, db, json_out, lang, params = _hand_params(params)
    numbers: list[str] = []
    while words and len(numbers) < 2 and words[0].isascii() and words[0].isdigit():
        numbers.append(words.pop(0))
    with errors_to_exit(json_out), in_flag_words():
        if not numbers:
            raise InputError("missing_field", "name the hand to change: mjcalc game edit [GAME] N HAND")
        game, no = (None, numbers[0]) if len(numbers) == 1 else (numbers[0], numbers[1])
        record = _record(params, words)
        with open_store(db) as store:
            change = store.edit(game, hand_number(no), record)
    print_change(change, json_out, lang)


def _add_signature(words: str = "[GAME] HAND...", words_help: str = "The game's number (default: the most recent), then the winner's tiles.",
                   json_help: str = "Print the game's state: the object `mjcalc game settle FILE --json` prints.") -> inspect.Signature:
    kw = inspect.Parameter.KEYWORD_ONLY
    return inspect.Signature([
        inspect.Parameter("words", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None, annotation=Annotated[
            list[str] | None, typer.Argument(metavar=words, show_default=False, help=words_help)]),
        inspect.Parameter("winner", kw, default=None, annotation=Annotated[str | None, typer.Option(
            "--winner", metavar="NAME", show_default=False, help="Who won (a player's name, or a seat E/S/W/N).")]),
        inspect.Parameter("discarder", kw, default=None, annotation=Annotated[str | None, typer.Option(
            "--discarder", "-f", metavar="NAME", show_default=False, help="Who discarded the winning tile (or whose kong was robbed).")]),
        inspect.Parameter("draw", kw, default=False, annotation=Annotated[bool, typer.Option(
            "--draw", help="Nobody won (流局 / 黄庄).")]),
        *(_option(f) for f in add_fields()),
        inspect.Parameter("note", kw, default=None, annotation=Annotated[str | None, typer.Option(
            "--note", metavar="TEXT", show_default=False, help="The hand's note (kept with it, shown by `game history`, exported).")]),
        inspect.Parameter("more", kw, default=None, annotation=Annotated[str | None, typer.Option(
            "--fields", metavar="JSON", show_default=False,
            help="Other fields of a game-record hand as one JSON object, e.g. '{\"exposed\": {\"赵\": [\"666s@李\"]}}'; "
                 "several winners on one discard (一炮多响): '{\"winners\": [{\"winner\": NAME, \"hand\": TILES, ...}, ...]}', without --winner and HAND.")]),
        inspect.Parameter("db", kw, default=None, annotation=DbOption),
        inspect.Parameter("out_format", kw, default=None, annotation=FormatOption),
        inspect.Parameter("json_out", kw, default=False, annotation=Annotated[bool, typer.Option(
            "--json", "-j", help=json_help)]),
        inspect.Parameter("lang", kw, default=Lang.zh, annotation=LangOption),
    ])


def _edit_signature() -> inspect.Signature:
    return _add_signature(
        "[GAME] N HAND...", "The game's number (default: the most recent), the hand's number N, then the winner's tiles.",
        "Print the game's state after the change: the object `mjcalc game settle FILE --json` prints.")


add = FlagCommand(_add, _add_signature)
edit = FlagCommand(_edit, _edit_signature)
