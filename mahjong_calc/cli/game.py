"""`mjcalc game`: whole games. A thin shell over `mahjong_calc.game`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import partial
from typing import IO, TYPE_CHECKING, Annotated, Any

import typer

from ..core.errors import MjcalcError
from ..core.words import N_
from ..present.errors import error_json, error_line, error_where
from .app import lazy_group
from .options import JSON_HELP, TABLE_OR_JSON, FormatOption, GameFiles, Lang, LangOption, chosen_format, reads_game_files

if TYPE_CHECKING:
    from ..game import Fold, GameFile, HandRow, State
    from ..game.log import Games
    from ..present.render_game import Screen

# built when used, as `mjcalc`'s own commands are (cli/app.py's COMMANDS)
GAME_COMMANDS = {
    "settle": "mahjong_calc.cli.game:settle_command",
    # live games, kept in SQLite
    "new": "mahjong_calc.cli.live:new",
    "add": "mahjong_calc.cli.live_hand:add",
    "edit": "mahjong_calc.cli.live_hand:edit",
    "delete": "mahjong_calc.cli.live:delete",
    "show": "mahjong_calc.cli.live:show",
    "undo": "mahjong_calc.cli.live:undo",
    "redo": "mahjong_calc.cli.live:redo",
    "history": "mahjong_calc.cli.live:history",
    "list": "mahjong_calc.cli.live:list_games",
    "export": "mahjong_calc.cli.live:export",
    "import": "mahjong_calc.cli.live:import_file",
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


@reads_game_files
def settle_command(
    file: Annotated[str, typer.Argument(help="A game file: YAML (a game, or a list of games), JSON Lines with a header line per game, "
                                        "or a CSV log (one row per hand); - reads stdin.")],
    out_format: FormatOption = None,
    json_out: Annotated[bool, typer.Option("--json", "-j", help=JSON_HELP)] = False,
    lang: LangOption = Lang.zh,
    *,
    files_read: GameFiles,
) -> None:
    """Settle recorded games: each hand's payments and liability, the totals, the 子, who pays whom.

    A file of several games settles them one after another, then the totals over all of
    them and the fewest transfers. Exit status 1 if any hand is an error row (the others
    are still settled), 2 if the file cannot be read or a header is wrong.

    Example: mjcalc game settle examples/wuhu315-club.yaml
    """
    import gc
    import tempfile

    from ..core.collector import kept_frozen
    from ..game import Fold

    json_out = chosen_format(out_format, TABLE_OR_JSON, "table", json=json_out) == "json"
    failed = False
    try:
        games = files_read.open(file)
        errors = tempfile.SpooledTemporaryFile(1 << 20, "w+", encoding="utf-8")  # noqa: SIM115 - closed below
        bar = Bar()
        with errors:
            try:
                with kept_frozen():
                    if games.count == 1:
                        fold = Fold(next(iter(games)))
                        gc.freeze()  # what is loaded by now lives through the fold: keep it out of the collector's walks
                        if json_out:
                            _print_json(fold, errors, bar)
                        else:
                            _print_table(fold, errors, lang.value, bar=bar)
                        failed = fold.failed
                    elif json_out:
                        failed = _print_games_json(games, errors, bar)
                    else:
                        failed = _print_games_table(games, errors, lang.value, bar)
            finally:
                bar.stop()
            errors.seek(0)
            for line in errors:  # each bad hand, after the output, as before
                typer.echo(line, err=True, nl=False)
    except MjcalcError as err:
        typer.echo(error_line(err), err=True)
        if json_out:
            typer.echo(error_json(err))
        raise typer.Exit(err.exit_code if err.exit_code != 1 else 2) from None
    raise typer.Exit(1 if failed else 0)


def _game_name(game: GameFile, number: int) -> str:
    return N_("game {name}", name=game.label if game.label is not None else number).render()


def _print_games_json(games: Games, errors: IO[str], bar: Bar | None = None) -> bool:
    """`{"games": [each game's object], "totals": {...}, "transfers": [...]}`, a hand at a time."""
    from ..game import Fold
    from ..game.ledger import fewest_transfers, season_totals
    from ..game.report import report_chunks

    done: list[tuple[tuple[str, ...], tuple[int, ...]]] = []
    left_out: list[dict[str, Any]] = []
    writer = _Writer()
    writer.write('{"games": [')
    for i, game in enumerate(games, 1):
        fold = Fold(game)
        if i > 1:
            writer.write(", ")
        for chunk in report_chunks(game, _rows(fold, errors, f"{_game_name(game, i)}: ", bar), partial(_end, fold)):
            writer.write(chunk)
        done.append((game.players, fold.state.totals))
        left_out += _left_out(game, i, fold)
    totals = season_totals(done)
    names = list(totals)
    transfers = [{"from": names[a], "to": names[b], "amount": n} for a, b, n in fewest_transfers(list(totals.values()))]
    tail = {"totals": totals, "transfers": transfers, "complete": not left_out, "left_out": left_out}
    writer.write("], " + json.dumps(tail, ensure_ascii=False)[1:])
    writer.flush(last=True)
    return bool(left_out)


def _left_out(game: GameFile, number: int, fold: Fold) -> list[dict[str, Any]]:
    """The hands of one game of several that are error rows: its name, and each one's number and line."""
    label = game.label if game.label is not None else str(number)
    return [{"game": label, "no": no, "line": line} for no, line in fold.left_out]


def _end(fold: Fold) -> tuple[State, tuple[tuple[int, int, int], ...]]:
    return fold.state, fold.transfers


class _Writer:
    """Text to stdout in chunks of 64 KiB."""

    def __init__(self) -> None:
        self.buffer: list[str] = []
        self.size = 0

    def write(self, text: str) -> None:
        self.buffer.append(text)
        self.size += len(text)
        if self.size > 1 << 16:
            self.flush()

    def flush(self, last: bool = False) -> None:
        typer.echo("".join(self.buffer), nl=last)
        self.buffer, self.size = [], 0


def _print_games_table(games: Games, errors: IO[str], lang: str, bar: Bar | None = None) -> bool:
    """Each game's table in turn, then the totals over all of them and who pays whom."""
    from ..game import Fold
    from ..game.ledger import fewest_transfers, season_totals
    from ..present.render_game import Screen, print_totals

    done: list[tuple[tuple[str, ...], tuple[int, ...]]] = []
    left_out: list[dict[str, Any]] = []
    screen = Screen()  # found once: a log may hold thousands of games
    for i, game in enumerate(games, 1):
        fold = Fold(game)
        _print_table(fold, errors, lang, f"{_game_name(game, i)}: ", _game_title(game, i, lang), bar, screen)
        typer.echo("")
        done.append((game.players, fold.state.totals))
        left_out += _left_out(game, i, fold)
    totals = season_totals(done)
    names = list(totals)
    transfers = [{"from": names[a], "to": names[b], "amount": n} for a, b, n in fewest_transfers(list(totals.values()))]
    print_totals({"games": len(done), "totals": totals, "transfers": transfers, "left_out": left_out}, lang)
    return bool(left_out)


def _game_title(game: GameFile, number: int, lang: str) -> str:
    from ..present.layout import variant_name

    date = game.header.get("date")
    return " · ".join(str(p) for p in (_game_name(game, number), variant_name(game.ruleset.name, lang), date) if p is not None)


PROGRESS_EVERY = 256  # hands between two updates of the progress bar
FREEZE_EVERY = 1024  # hands between two freezes of what the fold keeps (core/collector.py)


class Bar:
    """A Rich bar on a terminal's stderr (or `file`) counting hands and hands/s; does nothing elsewhere."""

    def __init__(self, file: IO[str] | None = None) -> None:
        import sys
        import time

        self.progress: Any = None
        self.done = 0
        self.start = time.perf_counter()
        if file is None and (sys.stderr is None or not sys.stderr.isatty()):
            return
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        console = Console(file=file, force_terminal=True) if file is not None else Console(stderr=True)
        self.progress = Progress(SpinnerColumn(), TextColumn("{task.fields[hands]:,} hands"), TextColumn("{task.fields[rate]:,.0f} hands/s"),
                                 TimeElapsedColumn(), console=console, transient=True)
        self.task = self.progress.add_task("settle", total=None, hands=0, rate=0.0)
        self.progress.start()

    def advance(self, hands: int) -> None:
        import time

        self.done += hands
        if self.progress is not None:
            elapsed = time.perf_counter() - self.start
            self.progress.update(self.task, hands=self.done, rate=self.done / elapsed if elapsed else 0.0)

    def pause(self) -> None:
        """Take the bar away while a table is printed to the same terminal."""
        if self.progress is not None:
            self.progress.stop()

    def resume(self) -> None:
        if self.progress is not None:
            self.progress.start()

    def stop(self) -> None:
        self.pause()
        self.progress = None


def _rows(fold: Fold, errors: IO[str], where: str = "", bar: Bar | None = None) -> Iterator[HandRow]:
    """The fold's rows; each error row's stderr line is kept aside, to be written after the output."""
    from ..core.collector import FreezeAsItGoes

    count = 0
    pace = FreezeAsItGoes(FREEZE_EVERY)
    for row in fold:
        pace.step()
        if row.error is not None:
            errors.write(f"mjcalc: {where}" + N_("hand {no}: error [{code}]: {message}", no=row.no, code=row.error.code, message=row.error).render()
                         + error_where(row.error) + "\n")
        count += 1
        if count == PROGRESS_EVERY and bar is not None:
            bar.advance(count)
            count = 0
        yield row


def _print_json(fold: Fold, errors: IO[str], bar: Bar | None = None) -> None:
    """The report, written a hand at a time (a long game is never held whole, nor its text)."""
    from ..game.report import report_chunks

    buffer: list[str] = []
    size = 0
    for chunk in report_chunks(fold.game, _rows(fold, errors, "", bar), lambda: (fold.state, fold.transfers)):
        buffer.append(chunk)
        size += len(chunk)
        if size > 1 << 16:
            typer.echo("".join(buffer), nl=False)
            buffer, size = [], 0
    typer.echo("".join(buffer))


def _print_table(fold: Fold, errors: IO[str], lang: str, where: str = "", title: str | None = None, bar: Bar | None = None,
                 screen: Screen | None = None) -> None:
    """The table; each hand keeps only what the table shows of it (its value, not its full result)."""
    from ..game.report import report_tail, row_dict
    from ..present.render_game import print_game

    players = fold.game.players
    hands = []
    for row in _rows(fold, errors, where, bar):
        hand = row_dict(row, players, results=False)
        if row.results:
            values = [{"value": r.result.value} for r in row.results]
            hand["result"] = values[0] if len(values) == 1 else values
        hands.append(hand)
    data = {"variant": fold.game.ruleset.name, "players": list(players), "hands": hands,
            **report_tail(players, fold.state, fold.transfers, fold.left_out)}
    if bar is not None:
        bar.pause()
    print_game(data, lang, title=title, screen=screen)
    if bar is not None:
        bar.resume()
