"""The `mjcalc` command: a thin shell over the library.

It parses arguments, calls `score_hand`, and renders; every library error is
mapped to an exit code in one place (`_errors_to_exit`): 2 for bad input,
1 for a hand that is not a win.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from . import __version__
from .api import score_hand
from .errors import MjcalcError
from .game_cli import game_app
from .render import error_json, error_line, print_table, to_json

app = typer.Typer(
    name="mjcalc",
    help="Score Chinese regional mahjong hands: Wuhu 315/525, Chizhou, Pujiang.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class Lang(str, Enum):
    zh = "zh"
    en = "en"


class SeatChoice(str, Enum):
    next = "next"
    opposite = "opposite"
    previous = "previous"


@contextmanager
def _errors_to_exit(json_mode: bool) -> Iterator[None]:
    """The one place where library errors become exit codes and messages."""
    try:
        yield
    except MjcalcError as err:
        typer.echo(error_line(err), err=True)
        if json_mode:
            typer.echo(error_json(err))
        raise typer.Exit(err.exit_code) from None


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mjcalc {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Score Chinese regional mahjong hands: Wuhu 315/525, Chizhou, Pujiang."""


@app.command()
def score(
    hand: Annotated[str, typer.Argument(help="Concealed tiles including the winning tile, e.g. 123456m13m99p555p2m.")],
    variant: Annotated[Optional[str], typer.Option("--variant", "-v", help="Shipped ruleset (see `mjcalc variants`). Default wuhu315.")] = None,
    rules: Annotated[Optional[Path], typer.Option("--rules", "-r", help="A ruleset YAML file; it may say `extends: wuhu315`.")] = None,
    set_: Annotated[list[str], typer.Option("--set", help="Override one ruleset key, e.g. options.ya_dang_edge_wait=true. Repeatable.")] = [],  # noqa: B006
    win: Annotated[Optional[str], typer.Option("--win", "-w", help="The winning tile (default: the last tile written).")] = None,
    meld: Annotated[list[str], typer.Option("--meld", "-m", help="An exposed meld: 555p pung, 5555p kong, 123m chow. Repeatable.")] = [],  # noqa: B006
    concealed_kong: Annotated[list[str], typer.Option("--concealed-kong", "-k", help="A concealed kong, e.g. 5555p. Repeatable.")] = [],  # noqa: B006
    self_draw: Annotated[bool, typer.Option("--self-draw", "-s", help="Won by self-draw (自摸).")] = False,
    dealer: Annotated[bool, typer.Option("--dealer", "-d", help="The winner is the dealer (庄家).")] = False,
    dealer_seat: Annotated[Optional[SeatChoice], typer.Option("--dealer-seat", help="Which payer is the dealer, when the winner is not.")] = None,
    after_kong: Annotated[bool, typer.Option("--after-kong", help="Won on a kong replacement tile (杠后开花); implies --self-draw.")] = False,
    robbing_kong: Annotated[bool, typer.Option("--robbing-kong", help="Won by robbing a kong (抢杠).")] = False,
    heavenly: Annotated[bool, typer.Option("--heavenly", help="Heavenly hand (天胡); implies --self-draw.")] = False,
    earthly: Annotated[bool, typer.Option("--earthly", help="Earthly hand (地胡).")] = False,
    discarder: Annotated[Optional[SeatChoice], typer.Option("--discarder", "-f", help="Who discarded the winning tile (or whose kong was robbed).")] = None,
    wild: Annotated[Optional[str], typer.Option("--wild", help="The wild-tile indicator (财神), e.g. 3m (Pujiang).")] = None,
    piao: Annotated[int, typer.Option("--piao", help="Number of 飘财神 (Pujiang).")] = 0,
    opponent_pungs: Annotated[Optional[str], typer.Option("--opponent-pungs", help="Exposed pungs of NEXT,OPPOSITE,PREVIOUS, e.g. 2,0,1 (Pujiang).")] = None,
    json_out: Annotated[bool, typer.Option("--json", "-j", help="Print one JSON object instead of a table.")] = False,
    lang: Annotated[Lang, typer.Option("--lang", "-l", help="Language of the table.")] = Lang.zh,
    # issue 12 (game helper): the Pujiang 飘 round of another player, for its limits and liability
    piao_by: Annotated[Optional[SeatChoice], typer.Option("--piao-by", help="Pujiang: the seat in a 飘 round (its limits apply to this win).")] = None,
    piao_count: Annotated[int, typer.Option("--piao-count", min=0, help="Pujiang: how many 飘 that seat has made (with --piao-by).")] = 0,
) -> None:
    """Score one winning hand and show what each seat pays.

    A meld may name who fed it, --meld 555p@opposite (@next, @previous, @下家 @对家 @上家):
    then liability (包牌, 承包, 反包) applies and JSON gains `liability`.

    Example: mjcalc score 123456m13m99p555p2m --variant wuhu315 --self-draw
    """
    with _errors_to_exit(json_out):
        result = score_hand(
            hand,
            variant=variant,
            rules=rules,
            overrides=set_,
            win=win,
            melds=meld,
            concealed_kongs=concealed_kong,
            self_draw=self_draw,
            dealer=dealer,
            dealer_seat=dealer_seat.value if dealer_seat else None,
            after_kong=after_kong,
            robbing_kong=robbing_kong,
            heavenly=heavenly,
            earthly=earthly,
            discarder=discarder.value if discarder else None,
            wild=wild,
            piao=piao,
            opponent_pungs=opponent_pungs,
            piao_by=piao_by.value if piao_by else None,  # issue 12
            piao_count=piao_count,  # issue 12
        )
    if json_out:
        typer.echo(to_json(result))
    else:
        print_table(result, lang.value)


@app.command()
def variants(
    json_out: Annotated[bool, typer.Option("--json", "-j", help="Print JSON.")] = False,
) -> None:
    """List the shipped rulesets.

    Example: mjcalc variants
    """
    from .ruleset import load_ruleset, shipped_names

    with _errors_to_exit(json_out):
        rows = []
        for name in shipped_names():
            rs = load_ruleset(name)
            rows.append({"name": name, "version": rs.version, "zh": rs.data["title"]["zh"], "en": rs.data["title"]["en"]})
    if json_out:
        typer.echo(json.dumps(rows, ensure_ascii=False))
        return
    for row in rows:
        typer.echo(f"{row['name']:<10} {row['version']:<8} {row['zh']}  ({row['en']})")


class InFormat(str, Enum):
    jsonl = "jsonl"
    yaml = "yaml"
    csv = "csv"


class OutFormat(str, Enum):
    jsonl = "jsonl"
    csv = "csv"
    summary = "summary"


@app.command()
def batch(
    file: Annotated[str, typer.Argument(help="Records to score: a .jsonl/.ndjson, .yaml/.yml or .csv file; - reads stdin.")],
    input_format: Annotated[Optional[InFormat], typer.Option("--input-format", "-i", help="Input format (default: from the extension; JSON Lines for stdin).")] = None,
    out_format: Annotated[Optional[OutFormat], typer.Option("--format", "-o", help="Output: jsonl (default when stdout is not a terminal), csv, or summary (default on a terminal).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Worker processes (output order is unchanged).")] = 1,
    fail_fast: Annotated[bool, typer.Option("--fail-fast", help="Stop at the first record that is an error.")] = False,
) -> None:
    """Score many hands: one result per record, in input order.

    Each record has the fields of `score`'s flags (hand, variant, win, self_draw,
    melds, …) plus an optional id that is echoed back. Exit status 1 if any record
    is an error (a hand that is not a win is an answer, not an error), else 0.

    Example: printf '{"id": 1, "hand": "123456m13m99p555p2m", "self_draw": true}\\n' | mjcalc batch -
    """
    from .batch import run_file

    with _errors_to_exit(False):
        code = run_file(file, input_format.value if input_format else None, out_format.value if out_format else None, jobs, fail_fast)
    raise typer.Exit(code)


app.add_typer(game_app, name="game")  # issue 12: `mjcalc game settle`


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app; usage errors honour --json; no traceback ever reaches a user."""
    args = sys.argv[1:] if argv is None else argv
    json_mode = "--json" in args or "-j" in args
    command = typer.main.get_command(app)
    try:
        code = command.main(args=args, prog_name="mjcalc", standalone_mode=False)
    except typer.TyperException as exc:  # usage errors: unknown option, missing argument, bad choice
        message = exc.format_message()
        if json_mode:
            typer.echo(json.dumps({"valid": False, "error": {"code": "usage_error", "message": message}}))
        typer.echo(f"mjcalc: error [usage_error]: {message} (see mjcalc --help)", err=True)
        sys.exit(2)
    except typer.Abort:
        typer.echo("mjcalc: aborted", err=True)
        sys.exit(130)
    except Exception as exc:  # a bug: say so in one line, never a traceback
        message = f"internal error ({type(exc).__name__}: {exc}); please report this hand"
        if json_mode:
            typer.echo(json.dumps({"valid": False, "error": {"code": "internal_error", "message": message}}))
        typer.echo(f"mjcalc: error [internal_error]: {message}", err=True)
        sys.exit(3)
    sys.exit(code if isinstance(code, int) else 0)
