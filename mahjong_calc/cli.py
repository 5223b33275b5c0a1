"""The `mjcalc` command: a thin shell over the library.

It parses arguments, calls `score_hand`, and renders; every library error is
mapped to an exit code in one place (`_errors_to_exit`): 2 for bad input,
1 for a hand that is not a win.
"""

from __future__ import annotations

import contextlib
import errno
import inspect
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from . import __version__
from .api import score_hand
from .cli_flags import flag_option
from .commands_table import register as register_table_commands
from .errors import MjcalcError
from .explain import explain as explain_result
from .flags import FIELDS
from .game_cli import game_app
from .hand import seat
from .render import clean, error_json, error_line, print_explain, print_table, to_json
from .web.command import serve


def _argument_usage(self: typer.core.TyperArgument) -> str:
    name = self.metavar or self.name.upper()
    return name if self.required else f"[{name}]"


# Typer prints an argument's Python type and braces (`{hand}`, `HAND... <list[str]>`) in help;
# each argument's metavar already says what it takes.
typer.core.TyperArgument.display_type_rich = lambda self, ctx: None  # type: ignore[method-assign]
typer.core.TyperArgument._usage_display_name = _argument_usage  # type: ignore[method-assign]

app = typer.Typer(
    name="mjcalc",
    help="Score Chinese regional mahjong hands: Wuhu 315/525, Chizhou, Pujiang.",
    no_args_is_help=False,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


class Lang(str, Enum):
    zh = "zh"
    en = "en"


class _OutputError(Exception):
    """Stdout could not be written; main() turns it into one line and exit 3."""

    def __init__(self, cause: OSError) -> None:
        super().__init__(str(cause))
        self.cause = cause


def _stdout_open() -> None:
    if sys.stdout is None:  # started with stdout closed (>&-)
        raise _OutputError(OSError(errno.EBADF, "stdout is closed"))


def _emit(text: str | None) -> None:
    """Write one line to stdout (None: only flush), so that a write error is told apart from a bug."""
    _stdout_open()
    try:
        if text is not None:
            typer.echo(text)
        sys.stdout.flush()
    except OSError as exc:
        raise _OutputError(exc) from None


@contextmanager
def _errors_to_exit(json_mode: bool) -> Iterator[None]:
    """The one place where library errors become exit codes and messages."""
    try:
        yield
    except MjcalcError as err:
        typer.echo(error_line(err), err=True)
        if json_mode:
            with contextlib.suppress(_OutputError):  # the error is on stderr already, and it is the one to report
                _emit(error_json(err))
        raise typer.Exit(err.exit_code) from None


def _version(value: bool) -> None:
    if value:
        from . import accel  # only here: importing it loads the compiled scorer

        typer.echo(f"mjcalc {__version__}")
        typer.echo(accel.status())
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Score Chinese regional mahjong hands: Wuhu 315/525, Chizhou, Pujiang."""
    if ctx.invoked_subcommand is None:  # bare `mjcalc`: the command list, not an error
        typer.echo(ctx.get_help())


_FIXED_BEFORE = [
    inspect.Parameter("rules", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Annotated[
        Path | None, typer.Option("--rules", "-r", metavar="FILE", help="A ruleset YAML file; it may say `extends: wuhu315`.")]),
    inspect.Parameter("set_", inspect.Parameter.KEYWORD_ONLY, default=[], annotation=Annotated[
        list[str], typer.Option("--set", metavar="KEY=VALUE", show_default=False,
                                help="Override one ruleset key, e.g. options.ya_dang_edge_wait=true (see `mjcalc options`). Repeatable.")]),
]
_FIXED_AFTER = [
    inspect.Parameter("json_out", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=Annotated[
        bool, typer.Option("--json", "-j", help="Print one JSON object instead of a table.")]),
    inspect.Parameter("lang", inspect.Parameter.KEYWORD_ONLY, default=Lang.zh, annotation=Annotated[
        Lang, typer.Option("--lang", "-l", metavar="zh|en", help="Language of the table (default zh).", show_default=False)]),
    inspect.Parameter("explain", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=Annotated[
        bool, typer.Option("--explain", help="Also show every reading the scorer considered, its value, and why the chosen one won.")]),
]


def _score_signature() -> inspect.Signature:
    """HAND, --variant, --rules, --set, then every declared flag in table order, then --json, --lang."""
    declared = {f.name: flag_option(f) for f in FIELDS if f.cli}
    hand, variant = declared.pop("hand"), declared.pop("variant")
    return inspect.Signature([hand, variant, *_FIXED_BEFORE, *declared.values(), *_FIXED_AFTER])


def hand_inputs(params: dict[str, Any]) -> tuple[bool, Lang, Path | None, list[str], str, dict[str, Any]]:
    """What `score` and `waits` were given: --json, --lang, --rules, --set, HAND (its words
    joined) and the declared flags' values (enums as their text)."""
    json_out: bool = params.pop("json_out")
    lang: Lang = params.pop("lang")
    rules, overrides = params.pop("rules"), params.pop("set_")
    values = {name: value.value if isinstance(value, Enum) else value for name, value in params.items()}
    return json_out, lang, rules, overrides, " ".join(values.pop("hand")), values


def score(**params: Any) -> None:
    """Score one winning hand and show what each seat pays.

    HAND is the concealed tiles with the winning tile last: digits then a suit,
    m 万 p 筒 s 条 z 字 (1z-7z 东南西北白发中), or 汉字, or several words:

    \b
      mjcalc score 123456m13m99p555p2m --self-draw
      mjcalc score 一万二万三万456万13万99筒555饼2万
      mjcalc score 13m 456m 678m 11p 555p 2m

    A meld may name who fed it, --meld 555p@opposite (@next, @previous, @下家 @对家 @上家):
    then liability (包牌, 承包, 反包) applies and JSON gains `liability`.

    Example: mjcalc score 123456m13m99p555p2m --variant wuhu315 --self-draw
    """
    explain: bool = params.pop("explain")
    json_out, lang, rules, overrides, hand, values = hand_inputs(params)
    with _errors_to_exit(json_out):
        result = score_hand(hand, rules=rules, overrides=overrides, spelling="cli", **values)
    if json_out:
        _emit(to_json(result, explain=explain))
    else:
        _stdout_open()
        try:
            print_table(result, lang.value, dealer_seat=seat(values.get("dealer_seat")), rules_name=rules is not None)
            if explain:
                print_explain(explain_result(result), lang.value)
        except OSError as exc:
            raise _OutputError(exc) from None


score.__signature__ = _score_signature()  # type: ignore[attr-defined]
score.__annotations__ = {p.name: p.annotation for p in score.__signature__.parameters.values()}  # type: ignore[attr-defined]
score.__annotations__["return"] = None
app.command()(score)


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
    input_format: Annotated[InFormat | None, typer.Option("--input-format", "-i", metavar="jsonl|yaml|csv", help="Input format (default: from the extension; JSON Lines for stdin).")] = None,
    out_format: Annotated[OutFormat | None, typer.Option("--format", "-o", metavar="jsonl|csv|summary", help="Output: jsonl (default when stdout is not a terminal), csv, or summary (default on a terminal).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", metavar="N", help="Worker processes, 1 to 4 per CPU (output order is unchanged).")] = 1,
    fail_fast: Annotated[bool, typer.Option("--fail-fast", help="Stop at the first record that is an error.")] = False,
    rules: Annotated[Path | None, typer.Option("--rules", "-r", metavar="FILE", help="A ruleset YAML file for the records that name no variant.")] = None,
    set_: Annotated[list[str], typer.Option("--set", metavar="KEY=VALUE", show_default=False, help="Override one ruleset key for every record (see `mjcalc options`). Repeatable.")] = [],  # noqa: B006
) -> None:
    """Score many hands: one result per record, in input order.

    Each record has the fields of `score`'s flags (hand, variant, win, self_draw,
    melds, …) plus an optional id that is echoed back. Exit status 1 if any record
    is an error row (a hand that is not a win is an answer, not an error), else 0;
    2 if the request is wrong (nothing is read); 3 if the run had to stop (a worker
    died, the output cannot be written): stderr then says from which line to resume.

    Example: printf '{"id": 1, "hand": "123456m13m99p555p2m", "self_draw": true}\\n' | mjcalc batch -
    """
    from .batch import run_file

    with _errors_to_exit(False):
        code = run_file(file, input_format.value if input_format else None, out_format.value if out_format else None, jobs, fail_fast,
                        str(rules) if rules is not None else None, set_)
    raise typer.Exit(code)


register_table_commands(app, flag_option)
app.command()(serve)  # issue 14: the page and its JSON API (the `web` extra)


def _json_requested(args: list[str], command: Any) -> bool:
    """Whether the command line asks for --json, read the way the parser would read it.

    Used where the parser itself failed (a usage error), so that scripts still get JSON:
    `-sj` is `-s -j`, while in `-vj` the `j` is the value of `-v`.
    """
    commands: dict[str, Any] = getattr(command, "commands", {})
    index = next((i for i, a in enumerate(args) if a in commands), None)
    if index is None:
        return False
    takes_value: dict[str, bool] = {}
    json_opts: set[str] = set()
    for param in commands[args[index]].params:
        if getattr(param, "param_type_name", "") != "option":
            continue
        for opt in (*param.opts, *param.secondary_opts):
            takes_value[opt] = not (param.is_flag or param.count)
        if param.name == "json_out":
            json_opts.update(param.opts)
    skip = False
    for arg in args[index + 1:]:
        if skip:
            skip = False
        elif arg == "--":
            break
        elif arg.startswith("--"):
            name = arg.split("=", 1)[0]
            if name in json_opts:
                return True
            skip = takes_value.get(name, False) and "=" not in arg
        elif arg.startswith("-") and len(arg) > 1:
            for k, letter in enumerate(arg[1:]):
                if f"-{letter}" in json_opts:
                    return True
                if takes_value.get(f"-{letter}", False):
                    skip = k == len(arg) - 2  # the value is the next argument only if nothing follows
                    break
    return False


def _fail(code: str, message: str, exit_code: int, json_mode: bool) -> None:
    """A failure outside the library's errors: one clean line on stderr (and JSON if asked), then exit."""
    message = clean(message)
    if json_mode:
        with contextlib.suppress(OSError):
            typer.echo(json.dumps({"valid": False, "error": {"code": code, "message": message}}))
    typer.echo(f"mjcalc: error [{code}]: {message}", err=True)
    sys.exit(exit_code)


def _output_failed(exc: OSError) -> None:
    """Stdout cannot be written (a full disk, a closed descriptor): say so once, exit 3."""
    try:  # nothing more may reach stdout, not even the interpreter's flush at exit
        if sys.stdout is not None:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    if isinstance(exc, BrokenPipeError):  # the reader went away (| head): not an error
        sys.exit(0)
    _fail("output_error", f"cannot write the output: {exc.strerror or exc}", 3, False)


app.add_typer(game_app, name="game")  # issue 12: `mjcalc game settle`


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app; usage errors honour --json; no traceback ever reaches a user."""
    args = sys.argv[1:] if argv is None else argv
    command = typer.main.get_command(app)
    try:
        code = command.main(args=args, prog_name="mjcalc", standalone_mode=False)
        if sys.stdout is not None:
            _emit(None)
    except typer.TyperException as exc:  # usage errors: unknown option, missing argument, bad choice
        _fail("usage_error", f"{exc.format_message()} (see mjcalc --help)", 2, _json_requested(args, command))
    except typer.Abort:
        typer.echo("mjcalc: aborted", err=True)
        sys.exit(130)
    except _OutputError as exc:
        _output_failed(exc.cause)
    except Exception as exc:  # a bug: say so in one line, never a traceback
        message = f"internal error ({type(exc).__name__}: {exc}); please report this hand"
        _fail("internal_error", message, 3, _json_requested(args, command))
    sys.exit(code if isinstance(code, int) else 0)
