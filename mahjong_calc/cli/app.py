"""The `mjcalc` command: the root of a thin shell over the library.

Each command lives in its own module and is imported, and its Typer options built, only
when it runs or help lists it (`COMMANDS`), so `mjcalc score` starts without the game,
live and web commands. Every library error becomes an exit code in one place
(`errors_to_exit`): 2 for bad input, 1 for a hand that is not a win.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import importlib
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any, ClassVar, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

from ..core import __version__
from ..core.errors import MjcalcError
from ..core.stdout import EncodingError, OutputError, ascii_json, can_show, encoding, install, silence
from ..core.words import N_, Text, language, language_from_env, set_language
from ..present.errors import clean, error_json, error_line, message_of

# the commands that answer for one hand (or list a ruleset) and end: they run without the collector
ONE_HAND = frozenset({"score", "waits", "advise", "options", "variants"})

# name -> "module:attribute": a command function, or a Typer app for a group of commands
COMMANDS = {
    "score": "mahjong_calc.cli.score:score_command",
    "variants": "mahjong_calc.cli.score:variants",
    "batch": "mahjong_calc.cli.score:batch",
    "waits": "mahjong_calc.cli.tables:waits",
    "options": "mahjong_calc.cli.tables:options",
    "advise": "mahjong_calc.cli.tables:advise",
    "game": "mahjong_calc.cli.game:game_app",  # a group: game files (settle) and live games
    "serve": "mahjong_calc.cli.serve:serve",  # the page and its JSON API (the `web` extra)
    "stats": "mahjong_calc.cli.stats:stats",  # a season: per player and per pattern, over game files and live games
    "site": "mahjong_calc.cli.site:site_app",  # the page as a static site, offline, Python on Pyodide (no server)
}


def build_command(name: str, target: str) -> Any:
    """The command for a `module:attribute` target, named `name` (Typer's `get_command` over it)."""
    module, attribute = target.split(":")
    obj = getattr(importlib.import_module(module), attribute)
    holder = obj
    if not isinstance(obj, typer.Typer):
        holder = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
        holder.command(name, cls=Command)(obj)
    command = typer.main.get_command(holder)
    command.name = name
    return command


def _language_of_line(args: list[str]) -> None:
    """The language a command line's texts are in, chosen before it is parsed (its help, a usage
    error): its own `--lang`, else the environment's (`--lang`'s callback says the same later)."""
    set_language(_lang_in(args) or language_from_env())


class Command(TyperCommand):
    """A command whose help and usage errors are in the language its line asks for (`--lang`, else
    the environment): Click's `parse_args` and `format_help`, extended."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        _language_of_line(args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: Any) -> Any:
        # The collector is off while the command line is read (cli/__init__.py); a command that may
        # run long turns it on, one that answers for one hand ends before it would free anything.
        named = ctx.command_path.split()  # `mjcalc score`, `mjcalc game add`
        if len(named) < 2 or named[1] not in ONE_HAND:
            gc.enable()
        return super().invoke(ctx)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        from .help import usage_pieces

        return usage_pieces(self, ctx)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        from .help import write_options

        write_options(self, ctx, formatter)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        if language() == "zh":
            from .help import write_help

            write_help(self, ctx, formatter)
            return
        super().format_help(ctx, formatter)


class Group(TyperGroup):
    """A group of commands built from its table (name -> "module:attribute") when first looked up, as
    Click's lazily loaded groups are: `list_commands` names them without importing any, `get_command`
    builds one. Its help, like `Command`'s, is in the language of the line."""

    table: ClassVar[dict[str, str]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._built: dict[str, Any] = {}

    def list_commands(self, ctx: Any) -> list[str]:
        return [*self.table, *(name for name in super().list_commands(ctx) if name not in self.table)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.table:
            return super().get_command(ctx, cmd_name)
        if cmd_name not in self._built:
            self._built[cmd_name] = build_command(cmd_name, self.table[cmd_name])
        return self._built[cmd_name]

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """Click's, with the closest names of the table suggested for a command it does not have."""
        if args and not args[0].startswith("-") and not ctx.resilient_parsing:
            names = self.list_commands(ctx)
            if args[0] not in names:
                from difflib import get_close_matches

                like = get_close_matches(args[0], names)
                if like:
                    ctx.fail(f"No such command {args[0]!r}. Did you mean {', '.join(repr(n) for n in like)}?")
        return super().resolve_command(ctx, args)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        _language_of_line(args)
        return super().parse_args(ctx, args)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        if language() == "zh":
            from .help import write_help

            write_help(self, ctx, formatter)
            return
        super().format_help(ctx, formatter)


def lazy_group(table: dict[str, str]) -> type[Group]:
    """The group class (`typer.Typer(cls=...)`) whose commands are `table`'s."""
    return type("LazyGroup", (Group,), {"table": table})


app = typer.Typer(
    name="mjcalc",
    help="Score Chinese regional mahjong hands: Wuhu 315/525, Chizhou, Pujiang.",
    no_args_is_help=False,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    cls=lazy_group(COMMANDS),
)


def stdout_open() -> None:
    if sys.stdout is None:  # started with stdout closed (>&-)
        raise OutputError(OSError(errno.EBADF, "stdout is closed"))


def emit(text: str | None) -> None:
    """Write one line to stdout (None: only flush), so that a write error is told apart from a bug;
    a text stdout's encoding cannot write is an `EncodingError` before any of it is written."""
    stdout_open()
    if text is not None and not can_show(text):
        raise EncodingError(encoding())
    try:
        if text is not None:
            typer.echo(text)
        sys.stdout.flush()
    except OSError as exc:
        raise OutputError(exc) from None


def emit_json(text: str) -> None:
    """Write one JSON text: as it is, or, where stdout's encoding cannot write it, with ASCII escapes."""
    emit(text if can_show(text) else ascii_json(text))


@contextmanager
def errors_to_exit(json_mode: bool) -> Iterator[None]:
    """The one place where library errors become exit codes and messages."""
    try:
        yield
    except MjcalcError as err:
        typer.echo(error_line(err), err=True)
        if json_mode:
            try:
                emit_json(error_json(err))
            except OutputError:  # the error is on stderr already, and it is the one to report
                silence()
        raise typer.Exit(err.exit_code) from None


def _version(value: bool) -> None:
    if value:
        from .. import compiled

        typer.echo(f"mjcalc {__version__}")
        typer.echo(compiled.status())
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Score Chinese regional mahjong hands: Wuhu 315/525, Chizhou, Pujiang."""
    set_language(language_from_env())  # MJCALC_LANG or the locale, until a command's --lang says otherwise
    if ctx.invoked_subcommand is None:  # bare `mjcalc`: the command list, not an error
        typer.echo(ctx.get_help())


def _json_requested(args: list[str], command: Any) -> bool:
    """Whether the command line asks for --json, read the way the parser would read it.

    Used where the parser itself failed (a usage error), so that scripts still get JSON:
    `-sj` is `-s -j`, while in `-vj` the `j` is the value of `-v`.
    """
    ctx = typer.Context(command)
    names = set(command.list_commands(ctx)) if isinstance(command, TyperGroup) else set()
    index = next((i for i, a in enumerate(args) if a in names), None)
    if index is None:  # no command to read the options by (`mjcalc scor --json`): take the words as they are
        return "--json" in args or "-j" in args
    sub = command.get_command(ctx, args[index])
    if isinstance(sub, TyperGroup):  # a group: `game add ... --json`
        return _json_requested(args[index + 1:], sub)
    takes_value: dict[str, bool] = {}
    json_opts: set[str] = set()
    format_opts: set[str] = set()
    for param in sub.params:
        if getattr(param, "param_type_name", "") != "option":
            continue
        for opt in (*param.opts, *param.secondary_opts):
            takes_value[opt] = not (param.is_flag or param.count)
        if param.name == "json_out":
            json_opts.update(param.opts)
        if param.name == "out_format":  # --format json, -o json
            format_opts.update(param.opts)
    rest = args[index + 1:]
    skip = False
    for i, arg in enumerate(rest):
        if skip:
            skip = False
        elif arg == "--":
            break
        elif arg.startswith("--"):
            name, eq, value = arg.partition("=")
            if name in json_opts or (name in format_opts and (value if eq else rest[i + 1] if i + 1 < len(rest) else "") == "json"):
                return True
            skip = takes_value.get(name, False) and not eq
        elif arg.startswith("-") and len(arg) > 1:
            for k, letter in enumerate(arg[1:]):
                if f"-{letter}" in json_opts:
                    return True
                if takes_value.get(f"-{letter}", False):
                    value = arg[k + 2:] or (rest[i + 1] if i + 1 < len(rest) else "")
                    if f"-{letter}" in format_opts and value == "json":
                        return True
                    skip = k == len(arg) - 2  # the value is the next argument only if nothing follows
                    break
    return False


def fail(code: str, message: str | Text, exit_code: int, json_mode: bool) -> None:
    """A failure outside the library's errors: one clean line on stderr (and JSON if asked), then exit."""
    message = clean(message_of(code, message))
    if json_mode:
        with contextlib.suppress(OSError, OutputError):
            typer.echo(json.dumps({"valid": False, "error": {"code": code, "message": message}}))
    typer.echo(f"mjcalc: {N_('error')} [{code}]: {message}", err=True)
    _flush_or_silence()
    sys.exit(exit_code)


def _flush_or_silence() -> None:
    """Flush stdout now, or silence it: the interpreter's flush at exit must not fail."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except (OSError, OutputError, ValueError):
        silence()


def _output_failed(exc: OSError, encoding_error: bool = False) -> None:
    """Stdout cannot be written (a full disk, a closed descriptor, an encoding that cannot show
    the text): say so once, exit 3."""
    silence()
    if encoding_error:
        fail("output_error", exc.strerror or str(exc), 3, False)
    if isinstance(exc, BrokenPipeError):  # the reader went away (| head): not an error
        sys.exit(0)
    fail("output_error", N_("cannot write the output: {reason}", reason=exc.strerror or exc), 3, False)


def _lang_in(args: list[str]) -> str | None:
    """The language a command line asks for with `--lang X`, `--lang=X`, `-l X` or `-lX` (None: none, or not zh/en)."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        value = None
        if arg in ("--lang", "-l") and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        elif arg.startswith("-l") and not arg.startswith("--") and len(arg) > 2:
            value = arg[2:]
        if value in ("zh", "en"):
            return value
    return None


def main(argv: list[str] | None = None) -> None:
    """The `mjcalc` entry point: run a command line through Typer; usage errors honour --json; no
    traceback ever reaches a user."""
    args = sys.argv[1:] if argv is None else argv
    command = typer.main.get_command(app)
    install()  # every write to stdout takes all its bytes, or fails as an OutputError
    try:
        code = command.main(args=args, prog_name="mjcalc", standalone_mode=False)
        if sys.stdout is not None:
            emit(None)
    except Exception as exc:
        handle_failure(exc, args, command)
    sys.exit(code if isinstance(code, int) else 0)


def handle_failure(exc: BaseException, args: list[str], command: Any = None) -> NoReturn:
    """What running the command line `args` that raised `exc` ends with: one clean line on stderr
    and an exit status (`exc` itself again where it is none of these)."""
    try:
        raise exc
    except typer.TyperException as exc:  # usage errors: unknown option, missing argument, bad choice
        from .usage import is_usage_error, usage_text

        chosen = _lang_in(args)
        if chosen is not None:  # the parser stopped before --lang took effect
            set_language(chosen)
        fail("usage_error", usage_text(exc) if is_usage_error(exc) else exc.format_message(),
             2, _json_requested(args, command or typer.main.get_command(app)))
    except typer.Abort:
        typer.echo(f"mjcalc: {N_('aborted')}", err=True)
        _flush_or_silence()
        sys.exit(130)
    except OutputError as exc:
        _output_failed(exc.cause, isinstance(exc, EncodingError))
    except UnicodeEncodeError as exc:  # Rich writes to stdout itself
        if exc.encoding.replace("-", "").lower() == "utf8":  # not the terminal's doing (a lone surrogate): a bug
            fail("internal_error", f"internal error (UnicodeEncodeError: {exc}); please report this hand", 3,
                 _json_requested(args, command or typer.main.get_command(app)))
        _output_failed(EncodingError(encoding()).cause, True)
    except Exception as exc:  # a bug: say so in one line, never a traceback
        message = N_("internal error ({type}: {detail}); please report this hand", type=type(exc).__name__, detail=str(exc))
        fail("internal_error", message, 3, _json_requested(args, command or typer.main.get_command(app)))
    raise AssertionError("unreachable")  # every branch above exits
