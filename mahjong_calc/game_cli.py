"""`mjcalc game`: whole games (issue 12). A thin shell over `mahjong_calc.game`."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from .errors import MjcalcError
from .live.commands import register as register_live_commands
from .render import error_json, error_line

game_app = typer.Typer(
    name="game",
    help="Whole games: players, seats, who fed which meld, liability and the running ledger.\n\nExample: mjcalc game settle examples/wuhu315-club.yaml",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class Lang(str, Enum):
    zh = "zh"
    en = "en"


@game_app.command()
def settle(
    file: Annotated[str, typer.Argument(help="A game record: YAML, or JSON Lines with a header line; - reads stdin.")],
    json_out: Annotated[bool, typer.Option("--json", "-j", help="Print one JSON object instead of the table.")] = False,
    lang: Annotated[Lang, typer.Option("--lang", "-l", help="Language of the table.")] = Lang.zh,
) -> None:
    """Settle a recorded game: each hand's payments and liability, the totals, the 子, who pays whom.

    Exit status 1 if any hand is an error row (the others are still settled), 2 if the
    file cannot be read or its header is wrong.

    Example: mjcalc game settle examples/wuhu315-club.yaml
    """
    from .game import read_game, report_dict, report_json, settle_game

    try:
        report = settle_game(read_game(file))
    except MjcalcError as err:
        typer.echo(error_line(err), err=True)
        if json_out:
            typer.echo(error_json(err))
        raise typer.Exit(err.exit_code if err.exit_code != 1 else 2) from None
    if json_out:
        typer.echo(report_json(report))
    else:
        from .render_game import print_game

        print_game(report_dict(report), lang.value)
    for row in report.rows:
        if row.error is not None:
            typer.echo(f"mjcalc: hand {row.no}: error [{row.error.code}]: {row.error.message}", err=True)
    raise typer.Exit(1 if report.failed else 0)


register_live_commands(game_app)  # issue 14: live games (new, add, show, undo, list, export)
