"""`mjcalc game new|delete|show|undo|redo|history|list|export|import`: live games, a thin shell over
`live.Store`; `game add` and `edit`, which read a hand from flags, are in cli/live_hand.py.

Errors go through `cli.errors_to_exit` (exit 2 bad input, 1 not a win). Importing this
module imports neither sqlite3 nor YAML: `mjcalc score` does not pay for it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .app import emit, emit_json, errors_to_exit
from .options import TABLE_OR_JSON, FormatOption, Lang, LangOption, chosen_format, complete_variant, format_option

if TYPE_CHECKING:
    from ..live.store import Change, Store

DbOption = Annotated[Path | None, typer.Option(
    "--db", envvar="MJCALC_DB", metavar="FILE", show_default=False,
    help="The games database (default $MJCALC_DB, else $XDG_DATA_HOME/mjcalc/games.sqlite3).")]
JsonOption = Annotated[bool, typer.Option("--json", "-j", help="Print JSON (the same as --format json).")]
GameArg = Annotated[str | None, typer.Argument(metavar="[GAME]", help="The game's number (default: the most recent game).", show_default=False)]


def wants_json(out_format: str | None, json_out: bool) -> bool:
    """Whether the line asks for JSON: --json, or --format json (`options.chosen_format`)."""
    return chosen_format(out_format, TABLE_OR_JSON, "table", json=json_out) == "json"


def open_store(db: Path | None) -> Store:
    from ..live.store import Store

    return Store(db)


@contextmanager
def _opened(db: Path | None, json_out: bool) -> Iterator[Store]:
    """The games database, open, with the library's errors mapped to exit codes (`errors_to_exit`)."""
    with errors_to_exit(json_out), open_store(db) as store:
        yield store


def _change(db: Path | None, json_out: bool, lang: Lang, said: str, write: Callable[[Store], Change]) -> None:
    """Make one change to a live game (`write`) and print what was done and the standings (`print_change`)."""
    with _opened(db, json_out) as store:
        change = write(store)
    print_change(change, json_out, lang.value, said)


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
    json_out = wants_json(out_format, json_out)
    names = [p.strip() for p in players.replace("，", ",").split(",")]
    header: dict[str, Any] = {"variant": variant, "players": names, "dealer": dealer or names[0], "chips": chips}
    with _opened(db, json_out) as store:
        info = store.new_game(header)
    emit(json.dumps({"id": info.id}) if json_out else str(info.id))


def print_change(change: Change, json_out: bool, lang: str, said: str | None = None) -> None:
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


def hand_number(text: str) -> int:
    """N of `game edit`/`delete`: a hand's number as `mjcalc game show` lists them."""
    from ..core.errors import InputError, shown

    if not (text.isascii() and text.isdigit() and len(text) < 10) or int(text) < 1:
        raise InputError("unknown_hand", "a hand is named by its number (1, 2, ... as `mjcalc game show` lists them), not {text}", text=shown(text, 40))
    return int(text)


def show(game: GameArg = None, db: DbOption = None, out_format: FormatOption = None, json_out: Annotated[bool, typer.Option(
        "--json", "-j", help="Print the object `mjcalc game settle FILE --json` prints.")] = False, lang: LangOption = Lang.zh) -> None:
    """Show a live game: every hand, the totals, the 子, who pays whom.

    Example: mjcalc game show
    """
    from ..game import report_dict, report_json

    json_out = wants_json(out_format, json_out)
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
    _change(db, wants_json(out_format, json_out), lang, "undone", lambda store: store.take_back(game))


def redo(game: GameArg = None, db: DbOption = None, out_format: FormatOption = None, json_out: Annotated[bool, typer.Option(
        "--json", "-j", help="Print the game's state after the redo.")] = False, lang: LangOption = Lang.zh) -> None:
    """Take back the last undo: put the hand back, while nothing else changed since.

    Example: mjcalc game redo
    """
    _change(db, wants_json(out_format, json_out), lang, "redone", lambda store: store.redo(game))


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
    json_out = wants_json(out_format, json_out)
    game, no = (None, first) if second is None else (first, second)
    with errors_to_exit(json_out):
        number = hand_number(no)
    _change(db, json_out, lang, "deleted", lambda store: store.delete(game, number))


def history(game: GameArg = None, db: DbOption = None, out_format: FormatOption = None, json_out: Annotated[bool, typer.Option(
        "--json", "-j", help="Print the events as a JSON list: seq, kind, at, no, hand, ...")] = False, lang: LangOption = Lang.zh) -> None:
    """Show what was entered, changed and removed in a live game, and when (every event, in order).

    Example: mjcalc game history
    """
    from ..live.text import history_lines
    from ..present.layout import asked_width

    json_out = wants_json(out_format, json_out)
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

    json_out = wants_json(out_format, json_out)
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

    json_out = wants_json(out_format, json_out)
    with _opened(db, json_out) as store:
        made = import_games(store, file, once=not again)
    emit(json.dumps({"ids": made}) if json_out else "\n".join(str(n) for n in made))
