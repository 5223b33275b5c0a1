"""`mjcalc game new|add|edit|delete|show|undo|redo|history|list|export`: live games, a thin shell over `live.Store`.

Errors go through `cli.errors_to_exit` (exit 2 bad input, 1 not a win). Importing this
module imports neither sqlite3 nor YAML: `mjcalc score` does not pay for it.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..core import flags as flag_table
from ..core.flags import Field
from .app import emit, emit_json, errors_to_exit
from .options import TABLE_OR_JSON, FlagCommand, FormatOption, Lang, LangOption, chosen_format, complete_variant, flag_option, format_option

if TYPE_CHECKING:
    from ..live.store import Change, Store

# `score`'s flags that a game works out itself (the dealer, the variant) or names by player (the discarder)
_NOT_FOR_ADD = frozenset({"hand", "discarder"})


def add_fields() -> tuple[Field, ...]:
    """`score`'s flags that `game add` takes: all but those a game works out (flags.Field.game)."""
    return tuple(f for f in flag_table.fields() if f.cli and f.game != "computed" and f.name not in _NOT_FOR_ADD)


DbOption = Annotated[Path | None, typer.Option(
    "--db", envvar="MJCALC_DB", metavar="FILE", show_default=False,
    help="The games database (default $MJCALC_DB, else $XDG_DATA_HOME/mjcalc/games.sqlite3).")]
JsonOption = Annotated[bool, typer.Option("--json", "-j", help="Print JSON (the same as --format json).")]
GameArg = Annotated[str | None, typer.Argument(metavar="[GAME]", help="The game's number (default: the most recent game).", show_default=False)]


def _json(out_format: str | None, json_out: bool) -> bool:
    """Whether the line asks for JSON: --json, or --format json (`options.chosen_format`)."""
    return chosen_format(out_format, TABLE_OR_JSON, "table", json=json_out) == "json"


def _store(db: Path | None) -> Store:
    from ..live.store import Store

    return Store(db)


@contextmanager
def _opened(db: Path | None, json_out: bool) -> Iterator[Store]:
    """The games database, open, with the library's errors mapped to exit codes (`errors_to_exit`)."""
    with errors_to_exit(json_out), _store(db) as store:
        yield store


def _change(db: Path | None, json_out: bool, lang: Lang, said: str, write: Callable[[Store], Change]) -> None:
    """Make one change to a live game (`write`) and print what was done and the standings (`_print_change`)."""
    with _opened(db, json_out) as store:
        change = write(store)
    _print_change(change, json_out, lang.value, said)


def new(
    players: Annotated[str, typer.Option(
        "--players", "-p", metavar="A,B,C,D", help="The four players in seat order E S W N, comma-separated.")],
    variant: Annotated[str, typer.Option(
        "--variant", "-v", metavar="NAME", autocompletion=complete_variant, help="Shipped ruleset (see `mjcalc variants`).")] = "wuhu315",
    dealer: Annotated[str | None, typer.Option(
        "--dealer", "-d", metavar="NAME", help="Who deals the first hand (default: the first player).", show_default=False)] = None,
    chips: Annotated[int | None, typer.Option(
        "--chips", metavar="N", help="Starting 子 per player (Wuhu; default from the ruleset; 0: no 子 ledger).", show_default=False)] = None,
    db: DbOption = None,
    out_format: FormatOption = None,
    json_out: JsonOption = False,
    lang: LangOption = Lang.zh,
) -> None:
    """Start a live game and print its number.

    Example: mjcalc game new --variant wuhu315 --players 王,李,张,赵 --dealer 王
    """
    json_out = _json(out_format, json_out)
    names = [p.strip() for p in players.replace("，", ",").split(",")]
    header: dict[str, Any] = {"variant": variant, "players": names, "dealer": dealer or names[0], "chips": chips}
    with _opened(db, json_out) as store:
        info = store.new_game(header)
    emit(json.dumps({"id": info.id}) if json_out else str(info.id))


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
    db, json_out, lang = params.pop("db"), _json(params.pop("out_format"), params.pop("json_out")), params.pop("lang").value
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


def _print_change(change: Change, json_out: bool, lang: str, said: str | None = None) -> None:
    """A write's answer: the game's state (--json), or the hand it was about (or, with `said`, the
    line of `live.text.done_line` that says what was done to it), the hands it made error rows (also on
    stderr with --json) and the standings."""
    from ..game import report_dict, report_json
    from ..live.text import broken_line, done_line, hand_line, standings

    head = None if said is None else done_line(said, change.no, lang)
    data = report_dict(change.report)
    broken = [broken_line(no, data["hands"][no - 1]["error"]["code"], data["hands"][no - 1]["error"]["message"], lang)
              for no in change.broken]
    if json_out:
        for line in broken:
            typer.echo(f"mjcalc: {line}", err=True)
        emit_json(report_json(change.report))
        return
    lines = [] if head is None else [head]
    if change.no is not None and change.no <= len(data["hands"]) and head is None:
        lines.append(hand_line(data["hands"][change.no - 1], lang, data["variant"]))
    emit("\n".join([*lines, *broken, standings(data, lang)]))


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
        with _store(db) as store:
            change = store.add(game, record)
    _print_change(change, json_out, lang)


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


def _hand_number(text: str) -> int:
    from ..core.errors import InputError, shown

    if not (text.isascii() and text.isdigit() and len(text) < 10) or int(text) < 1:
        raise InputError("unknown_hand", "a hand is named by its number (1, 2, ... as `mjcalc game show` lists them), not {text}", text=shown(text, 40))
    return int(text)


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
        with _store(db) as store:
            change = store.edit(game, _hand_number(no), record)
    _print_change(change, json_out, lang)


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


def show(game: GameArg = None, db: DbOption = None, out_format: FormatOption = None, json_out: Annotated[bool, typer.Option(
        "--json", "-j", help="Print the object `mjcalc game settle FILE --json` prints.")] = False, lang: LangOption = Lang.zh) -> None:
    """Show a live game: every hand, the totals, the 子, who pays whom.

    Example: mjcalc game show
    """
    from ..game import report_dict, report_json

    json_out = _json(out_format, json_out)
    with _opened(db, json_out) as store:
        report = store.report(game)
    if json_out:
        emit_json(report_json(report))
        return
    from ..present.render_game import print_game

    print_game(report_dict(report), lang.value)


def undo(game: GameArg = None, db: DbOption = None, out_format: FormatOption = None, json_out: Annotated[bool, typer.Option(
        "--json", "-j", help="Print the game's state after the undo.")] = False, lang: LangOption = Lang.zh) -> None:
    """Take back the last hand of a live game (it stays in the game's history; `game redo` puts it back).

    Example: mjcalc game undo
    """
    _change(db, _json(out_format, json_out), lang, "undone", lambda store: store.take_back(game))


def redo(game: GameArg = None, db: DbOption = None, out_format: FormatOption = None, json_out: Annotated[bool, typer.Option(
        "--json", "-j", help="Print the game's state after the redo.")] = False, lang: LangOption = Lang.zh) -> None:
    """Take back the last undo: put the hand back, while nothing else changed since.

    Example: mjcalc game redo
    """
    _change(db, _json(out_format, json_out), lang, "redone", lambda store: store.redo(game))


def delete(
    first: Annotated[str, typer.Argument(metavar="[GAME] N", help="The game's number (default: the most recent), then the hand's number N.")],
    second: Annotated[str | None, typer.Argument(metavar="", hidden=True, show_default=False)] = None,
    db: DbOption = None,
    out_format: FormatOption = None,
    json_out: Annotated[bool, typer.Option("--json", "-j", help="Print the game's state after the change.")] = False,
    lang: LangOption = Lang.zh,
) -> None:
    """Remove hand N of a live game (it stays in the history); the later hands are settled again without it.

    Example: mjcalc game delete 2
    """
    json_out = _json(out_format, json_out)
    game, no = (None, first) if second is None else (first, second)
    with errors_to_exit(json_out):
        number = _hand_number(no)
    _change(db, json_out, lang, "deleted", lambda store: store.delete(game, number))


def history(game: GameArg = None, db: DbOption = None, out_format: FormatOption = None, json_out: Annotated[bool, typer.Option(
        "--json", "-j", help="Print the events as a JSON list: seq, kind, at, no, hand, ...")] = False, lang: LangOption = Lang.zh) -> None:
    """Show what was entered, changed and removed in a live game, and when (every event, in order).

    Example: mjcalc game history
    """
    from ..live.text import history_lines
    from ..present.layout import asked_width

    json_out = _json(out_format, json_out)
    with _opened(db, json_out) as store:
        events = store.history(game)
        variant = None if json_out else store.game(game).header.get("variant")
    from ..present.errors import inert

    emit_json(inert(json.dumps(events, ensure_ascii=False))) if json_out else emit(history_lines(events, lang.value, variant, asked_width()))


def list_games(db: DbOption = None, out_format: FormatOption = None, json_out: JsonOption = False, lang: LangOption = Lang.zh) -> None:
    """List the live games, the most recent first.

    Example: mjcalc game list
    """
    from ..live.text import game_rows
    from ..present.layout import asked_width

    json_out = _json(out_format, json_out)
    with _opened(db, json_out) as store:
        rows = [g.to_dict() for g in store.games()]
    emit_json(json.dumps(rows, ensure_ascii=False)) if json_out else emit(game_rows(rows, lang.value, asked_width()))


EXPORT_FORMATS = ("yaml", "csv", "xlsx")


def export(game: GameArg = None, db: DbOption = None,
           fmt: format_option(EXPORT_FORMATS, "yaml: a game record (the default); csv: a CSV log, one row per hand; xlsx: that log as a "  # type: ignore[valid-type]
                              "workbook (redirect it to a file).") = None,
           csv_out: Annotated[bool, typer.Option("--csv", help="The same as --format csv.")] = False,
           lang: LangOption = Lang.zh) -> None:
    """Print a live game in the game-record format (YAML) that `mjcalc game settle FILE` reads.

    Example: mjcalc game export 1 > game.yaml && mjcalc game settle game.yaml
    """
    from ..live.export import export_yaml

    chosen = chosen_format(fmt, EXPORT_FORMATS, "yaml", csv=csv_out)
    if chosen == "xlsx":
        _export_xlsx(game, db)
        return
    with _opened(db, False) as store:
        info = store.game(game)
        if chosen == "csv":
            from ..game.csv_log import live_csv

            text = live_csv(info.id, info.header, info.created, store.hands(info.id))
        else:
            text = export_yaml(info, store.hands(info.id))
    emit(text.rstrip("\n"))


def _export_xlsx(game: str | None, db: Path | None) -> None:
    """`game export --format xlsx`: the workbook's bytes to stdout, never to a terminal (they would garble it)."""
    import sys

    from ..core.errors import InputError
    from ..live.export import export_xlsx

    with _opened(db, False) as store:
        if sys.stdout is not None and sys.stdout.isatty():
            raise InputError("usage_error", "--format xlsx writes a workbook, not text: redirect it to a file (mjcalc game export -o xlsx > game.xlsx)")
        info = store.game(game)
        data = export_xlsx(info, store.hands(info.id))
    typer.echo(data, nl=False)


def import_file(file: Annotated[str, typer.Argument(metavar="FILE", help="A game file: YAML, JSON Lines or a CSV log; - reads stdin.")],
                db: DbOption = None,
                again: Annotated[bool, typer.Option("--again", help="Import a game that is already a live game (the same header and "
                                                    "hands) once more.")] = False,
                out_format: FormatOption = None, json_out: JsonOption = False, lang: LangOption = Lang.zh) -> None:
    """Store the games of a game file as live games (a phone's game moved to `mjcalc serve`) and print their numbers.

    Every hand is settled first: a file with an error row is refused whole, nothing stored. A
    game already imported (the same header and hands as a live game) is refused, unless --again.

    Example: mjcalc game import mjcalc-game-1.yaml
    """
    from ..live.transfer import import_games

    json_out = _json(out_format, json_out)
    with _opened(db, json_out) as store:
        made = import_games(store, file, once=not again)
    emit(json.dumps({"ids": made}) if json_out else "\n".join(str(n) for n in made))
