"""`mjcalc stats`: a season's statistics over game files and/or the live games. A thin shell over `game.stats`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..present.errors import clean
from .app import emit, emit_json, errors_to_exit
from .options import GameFiles, Lang, LangOption, chosen_format, format_option, reads_game_files

STATS_FORMATS = ("table", "json", "csv")

if TYPE_CHECKING:
    from ..game.stats import Season


@reads_game_files
def stats(
    files: Annotated[list[str] | None, typer.Argument(metavar="[FILES]...", show_default=False,
                                                      help="Game files (YAML, JSON Lines, CSV logs; - reads stdin). None: the live games.")] = None,
    db: Annotated[Path | None, typer.Option("--db", metavar="FILE", show_default=False,
                                            help="Count the live games of this database too (without FILES and --db: $MJCALC_DB, "
                                            "else the default database).")] = None,
    since: Annotated[str | None, typer.Option("--since", metavar="DATE", show_default=False,
                                              help="Only games played on or after DATE (YYYY-MM-DD).")] = None,
    until: Annotated[str | None, typer.Option("--until", metavar="DATE", show_default=False,
                                              help="Only games played on or before DATE (YYYY-MM-DD).")] = None,
    player: Annotated[str | None, typer.Option("--player", metavar="NAME", show_default=False,
                                               help="Only this player (and the games they played).")] = None,
    out_format: format_option(STATS_FORMATS, "table (the default), json, or csv: one row per player.") = None,  # type: ignore[valid-type]
    json_out: Annotated[bool, typer.Option("--json", "-j", help="The same as --format json.")] = False,
    csv_out: Annotated[bool, typer.Option("--csv", help="The same as --format csv.")] = False,
    xlsx: Annotated[Path | None, typer.Option("--xlsx", metavar="FILE", show_default=False,
                                              help="Also write the --csv rows to FILE as a workbook (.xlsx).")] = None,
    lang: LangOption = Lang.zh,
    *,
    files_read: GameFiles,
) -> None:
    """Season statistics: per player games, hands, wins, self-draws, deal-ins, draws, rates, net, liability and
    the biggest win; per variant how often each pattern was won.

    A game's date is its `date` header field (game files) or the day it was begun (live games);
    --since/--until leave out games without one (stderr counts them). FILES are read as
    `game settle` reads them: --variant, --players, --dealer and --extra-fields mean the same.

    Example: mjcalc stats examples/club-season.csv
    """
    import sys

    from ..game.stats import Season, check_player, parse_day, season_dict

    chosen = chosen_format(out_format, STATS_FORMATS, "table", json=json_out, csv=csv_out)
    json_out, csv_out = chosen == "json", chosen == "csv"
    with errors_to_exit(json_out):
        start, end = parse_day(since, "--since"), parse_day(until, "--until")
        season = Season()
        if db is None and not files:
            db = _default_db()
            db = db if db.exists() else None  # no live games yet: nothing to count, and no database made for it
        undated = _collect(season, files or [], db, start, end, player, files_read)
        if player is not None:
            check_player(season, player)
        if undated:
            sys.stderr.write(f"mjcalc: {undated} game(s) without a date were left out by --since/--until\n")
        if season.errors:
            sys.stderr.write(f"mjcalc: {season.errors} hand(s) are error rows and count for nothing "
                             "(`mjcalc game settle FILE` says why)\n")
            for code, n in season.error_codes.most_common():
                sys.stderr.write(f"mjcalc:   {n} {code}, the first {clean(season.first_errors[code])}\n")
                if code == "unknown_field" and files_read.extra_fields == "error":
                    sys.stderr.write("mjcalc:   a column that is not a field: --extra-fields keep counts such hands and reads past it\n")
        names = [player] if player is not None else list(season.players)
        if xlsx is not None:
            _xlsx(season, names, xlsx)
        if json_out:
            import json

            emit_json(json.dumps(season_dict(season, player), ensure_ascii=False))
        elif csv_out:
            emit(_csv(season, names))
        else:
            _table(season, names, lang.value)
    raise typer.Exit(1 if season.errors else 0)


FREEZE_GAMES = 64  # games between two freezes of what the season keeps (core/collector.py)


def _default_db() -> Path:
    """The database `game list` reads: $MJCALC_DB, else the default path."""
    from ..live.store import default_db_path

    return default_db_path()


def _collect(season: Season, files: list[str], db: Path | None, start: str | None, end: str | None, player: str | None,
             files_read: GameFiles) -> int:
    """Add the selected games of the files, then of the database, to `season`; return how many had no date."""
    from ..core.collector import FreezeAsItGoes, kept_frozen
    from ..game.stats import within

    undated = 0
    pace = FreezeAsItGoes(FREEZE_GAMES)
    with kept_frozen():
        for name in _once(files):
            games = files_read.open(name)
            for i, game in enumerate(games, 1):
                pace.step()
                date = game.header.get("date")
                chosen = within(date, start, end)
                undated += chosen is None
                if not chosen or (player is not None and player not in game.players):
                    for _ in game.hands:  # read past it
                        pass
                    continue
                label = game.label if game.label is not None else str(i)
                season.add(game, name if games.count == 1 else f"{name}#{label}", date)
    if db is not None:
        from ..live.store import Store

        with Store(db) as store:
            for info in reversed(store.games()):  # the oldest first
                date = info.header.get("date") or info.created[:10]
                chosen = within(date, start, end)
                if not chosen or (player is not None and player not in info.header.get("players", ())):
                    continue
                season.add(store.game_file(info), f"live {info.id}", date)
    return undated


def _once(files: list[str]) -> list[str]:
    """The files, each read once: a name that is the same file as an earlier one (by device and inode) is left out, with a warning."""
    import os
    import sys

    seen: dict[tuple[int, int] | str, str] = {}
    out = []
    for name in files:
        try:
            st = os.stat(name) if name != "-" else None
        except (OSError, ValueError):
            out.append(name)  # open_games says what is wrong with it
            continue
        key: tuple[int, int] | str = "-" if st is None else (st.st_dev, st.st_ino)
        if key in seen:
            sys.stderr.write(f"mjcalc: warning: {name} is the same file as {seen[key]}: it is read once\n")
            continue
        seen[key] = name
        out.append(name)
    return out


def _csv(season: Season, names: list[str]) -> str:
    import csv
    import io

    from ..batch.output import neutralise
    from ..game.stats import csv_rows

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in csv_rows(season, names):
        writer.writerow([neutralise(c) if isinstance(c, str) else c for c in row])
    return out.getvalue().rstrip("\n")


def _xlsx(season: Season, names: list[str], path: Path) -> None:
    """`--xlsx FILE`: the --csv rows as a workbook, the rates and means as numbers."""
    from ..batch.xlsx import write_xlsx
    from ..game.stats import CSV_COLUMNS, csv_rows

    numbers = {CSV_COLUMNS.index(k) for k in ("win_rate", "deal_in_rate", "mean_win")}
    rows = csv_rows(season, names)
    cells = [rows[0], *([float(c) if i in numbers else c for i, c in enumerate(row)] for row in rows[1:])]
    try:
        write_xlsx(str(path), cells, "mjcalc stats")
    except OSError as exc:
        from ..core.errors import MjcalcError

        failed = MjcalcError("output_error", "--xlsx {path}: cannot be written ({reason})", path=str(path), reason=exc.strerror or str(exc))
        failed.exit_code = 3  # as stdout that cannot be written
        raise failed from None


def _table(season: Season, names: list[str], lang: str) -> None:
    from ..game.stats import view
    from ..present.render_stats import print_stats

    print_stats(view(season, names), lang)
