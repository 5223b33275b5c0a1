"""The `mjcalc` command: the root of a thin shell over the library.

Each command lives in its own module and is imported, and its Typer options built, only
when it runs or help lists it (`COMMANDS`), so `mjcalc score` starts without the game,
live and web commands. Every library error becomes an exit code in one place
(`errors_to_exit`): 2 for bad input, 1 for a hand that is not a win.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import json
import sys
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from ..core import __version__
from ..core.errors import MjcalcError
from ..core.stdout import EncodingError, OutputError, ascii_json, can_show, encoding, install, silence
from ..core.words import N_, Text, language_from_env, set_language
from ..present.errors import clean, error_json, error_line, message_of
from .coerce import install as install_quick_coercion

install_quick_coercion()  # plain values without Typer's Pydantic adapters (start-up time)

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


def build_command(name: str, target: str) -> typer.core.TyperCommand | TyperGroup:
    """The click command for a `module:attribute` target, named `name`."""
    module, attribute = target.split(":")
    obj = getattr(importlib.import_module(module), attribute)
    holder = obj
    if not isinstance(obj, typer.Typer):
        holder = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
        holder.command(name)(obj)
    command = typer.main.get_command(holder)
    command.name = name
    return command  # type: ignore[return-value]


class LazyCommands(MutableMapping[str, Any]):
    """A group's commands, built from their table on first lookup (listing names builds nothing)."""

    def __init__(self, table: dict[str, str], built: MutableMapping[str, Any]) -> None:
        self._table = table
        self._built = dict(built)

    def __getitem__(self, name: str) -> Any:
        if name not in self._built:
            self._built[name] = build_command(name, self._table[name])  # KeyError: no such command
        return self._built[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        raise TypeError("a command cannot be removed")

    def __iter__(self) -> Iterator[str]:
        return iter({**dict.fromkeys(self._table), **dict.fromkeys(self._built)})

    def __len__(self) -> int:
        return len(self._table.keys() | self._built.keys())

    def __contains__(self, name: object) -> bool:
        return name in self._table or name in self._built


def lazy_group(table: dict[str, str]) -> type[TyperGroup]:
    """A Typer group class whose commands come from `table`, each built when first used."""

    class LazyGroup(TyperGroup):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.commands = LazyCommands(table, self.commands)

    return LazyGroup


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
    commands: MutableMapping[str, Any] = getattr(command, "commands", {})
    index = next((i for i, a in enumerate(args) if a in commands), None)
    if index is None:  # no command to read the options by (`mjcalc scor --json`): take the words as they are
        return "--json" in args or "-j" in args
    sub = commands[args[index]]
    if hasattr(sub, "commands"):  # a group: `game add ... --json`
        return _json_requested(args[index + 1:], sub)
    takes_value: dict[str, bool] = {}
    json_opts: set[str] = set()
    for param in sub.params:
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
    """Run a command line through Typer: usage errors honour --json; no traceback ever reaches a user.

    The `mjcalc` entry point is cli/entry.py's `main`, which runs a plain batch line itself."""
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
