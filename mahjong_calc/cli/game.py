"""`mjcalc game`: whole games. A thin shell over `mahjong_calc.game`."""

from __future__ import annotations

from typing import Annotated

import typer

from ..core.errors import MjcalcError
from ..present.render import error_json, error_line
from .app import lazy_group
from .options import Lang

# built when used, as `mjcalc`'s own commands are (cli/app.py's COMMANDS)
GAME_COMMANDS = {
    "settle": "mahjong_calc.cli.game:settle_command",
    # live games, kept in SQLite
    "new": "mahjong_calc.cli.live:new",
    "add": "mahjong_calc.cli.live:add",
    "show": "mahjong_calc.cli.live:show",
    "undo": "mahjong_calc.cli.live:undo",
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
    lang: Annotated[Lang, typer.Option("--lang", "-l", help="Language of the table.")] = Lang.zh,
) -> None:
    """Settle a recorded game: each hand's payments and liability, the totals, the 子, who pays whom.

    Exit status 1 if any hand is an error row (the others are still settled), 2 if the
    file cannot be read or its header is wrong.

    Example: mjcalc game settle examples/wuhu315-club.yaml
    """
    from ..game import read_game, report_dict, report_json, settle_game

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
        from ..present.render_game import print_game

        print_game(report_dict(report), lang.value)
    for row in report.rows:
        if row.error is not None:
            typer.echo(f"mjcalc: hand {row.no}: error [{row.error.code}]: {row.error.message}", err=True)
    raise typer.Exit(1 if report.failed else 0)
