"""`mjcalc game`: whole games. A thin shell over `mahjong_calc.game`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Annotated

import typer

from ..core.errors import MjcalcError
from ..present.render import error_json, error_line
from .app import lazy_group
from .options import Lang, lang_given

if TYPE_CHECKING:
    from ..game import Fold, HandRow

# built when used, as `mjcalc`'s own commands are (cli/app.py's COMMANDS)
GAME_COMMANDS = {
    "settle": "mahjong_calc.cli.game:settle_command",
    # live games, kept in SQLite
    "new": "mahjong_calc.cli.live:new",
    "add": "mahjong_calc.cli.live:add",
    "edit": "mahjong_calc.cli.live:edit",
    "delete": "mahjong_calc.cli.live:delete",
    "show": "mahjong_calc.cli.live:show",
    "undo": "mahjong_calc.cli.live:undo",
    "redo": "mahjong_calc.cli.live:redo",
    "history": "mahjong_calc.cli.live:history",
    "list": "mahjong_calc.cli.live:list_games",
    "export": "mahjong_calc.cli.live:export",
}

game_app = typer.Typer(
    name="game",
    invoke_without_command=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    cls=lazy_group(GAME_COMMANDS),
)


@game_app.callback()
def _game(ctx: typer.Context) -> None:
    """Whole games: players, seats, who fed which meld, liability and the running ledger.

    Example: mjcalc game settle examples/wuhu315-club.yaml
    """
    if ctx.invoked_subcommand is None:  # bare `mjcalc game`: its command list, not an error
        typer.echo(ctx.get_help())


def settle_command(
    file: Annotated[str, typer.Argument(help="A game record: YAML, or JSON Lines with a header line; - reads stdin.")],
    json_out: Annotated[bool, typer.Option("--json", "-j", help="Print one JSON object instead of the table.")] = False,
    lang: Annotated[Lang, typer.Option("--lang", "-l", callback=lang_given, help="Language of the table and, when given, of error messages.")] = Lang.zh,
) -> None:
    """Settle a recorded game: each hand's payments and liability, the totals, the 子, who pays whom.

    Exit status 1 if any hand is an error row (the others are still settled), 2 if the
    file cannot be read or its header is wrong.

    Example: mjcalc game settle examples/wuhu315-club.yaml
    """
    import tempfile

    from ..game import Fold, open_game

    try:
        fold = Fold(open_game(file))
        errors = tempfile.SpooledTemporaryFile(1 << 20, "w+", encoding="utf-8")  # noqa: SIM115 - closed below
        with errors:
            if json_out:
                _print_json(fold, errors)
            else:
                _print_table(fold, errors, lang.value)
            errors.seek(0)
            for line in errors:  # each bad hand, after the output, as before
                typer.echo(line, err=True, nl=False)
    except MjcalcError as err:
        typer.echo(error_line(err), err=True)
        if json_out:
            typer.echo(error_json(err))
        raise typer.Exit(err.exit_code if err.exit_code != 1 else 2) from None
    raise typer.Exit(1 if fold.failed else 0)


def _rows(fold: Fold, errors: IO[str]) -> Iterator[HandRow]:
    """The fold's rows; each error row's stderr line is kept aside, to be written after the output."""
    for row in fold:
        if row.error is not None:
            errors.write(f"mjcalc: hand {row.no}: error [{row.error.code}]: {row.error.message}\n")
        yield row


def _print_json(fold: Fold, errors: IO[str]) -> None:
    """The report, written a hand at a time (a long game is never held whole, nor its text)."""
    from ..game.report import report_chunks

    buffer: list[str] = []
    size = 0
    for chunk in report_chunks(fold.game, _rows(fold, errors), lambda: (fold.state, fold.transfers)):
        buffer.append(chunk)
        size += len(chunk)
        if size > 1 << 16:
            typer.echo("".join(buffer), nl=False)
            buffer, size = [], 0
    typer.echo("".join(buffer))


def _print_table(fold: Fold, errors: IO[str], lang: str) -> None:
    """The table; each hand keeps only what the table shows of it (its value, not its full result)."""
    from ..game.report import report_tail, row_dict
    from ..present.render_game import print_game

    players = fold.game.players
    hands = []
    for row in _rows(fold, errors):
        hand = row_dict(row, players, results=False)
        if row.results:
            values = [{"value": r.result.value} for r in row.results]
            hand["result"] = values[0] if len(values) == 1 else values
        hands.append(hand)
    data = {"variant": fold.game.ruleset.name, "players": list(players), "hands": hands,
            **report_tail(players, fold.state, fold.transfers)}
    print_game(data, lang)
