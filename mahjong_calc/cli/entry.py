"""The `mjcalc` entry point: `mjcalc batch FILE [options]` in its plain form starts without Typer.

Typer (with the Pydantic it coerces every parameter through) is most of a batch run's start-up,
yet a batch command line is a file and a few options. `batch_request` reads such a line into
`run_file`'s arguments; anything else it does not read exactly as the Typer command would (an
option it does not know, `--help`, a value that needs coercing or checking, a shell-completion
request) is None, and `cli.app.main` runs the line. A plain line runs as Typer would run it: the
same language set from --lang or the environment, the same error line and exit status, and its
rarer failures (an interrupt, a broken pipe, a bug) handed to `cli.app`'s own handlers.
tests/test_cli_entry.py holds `BATCH_OPTIONS` to the Typer command's options.
"""

from __future__ import annotations

import atexit
import errno
import os
import sys
from typing import Any, NamedTuple, NoReturn

# batch's options: each option string -> (the parameter it sets, the values it takes: a tuple of
# choices, or FLAG, NUMBER, TEXT, PATH, or MANY: a text that repeats)
FLAG, NUMBER, TEXT, PATH, MANY = "flag", "number", "text", "path", "many"
BATCH_OPTIONS: dict[str, tuple[str, tuple[str, ...] | str]] = {
    "--input-format": ("input_format", ("jsonl", "yaml", "csv", "xlsx")),
    "-i": ("input_format", ("jsonl", "yaml", "csv", "xlsx")),
    "--format": ("out_format", ("jsonl", "csv", "summary")),
    "-o": ("out_format", ("jsonl", "csv", "summary")),
    "--jobs": ("jobs", NUMBER),
    "--fail-fast": ("fail_fast", FLAG),
    "--rules": ("rules", PATH),
    "-r": ("rules", PATH),
    "--set": ("set_", MANY),
    "--extra-fields": ("extra_fields", TEXT),
    "--sheet": ("sheet", TEXT),
    "--verbose": ("verbose", FLAG),
    "--lang": ("lang", ("zh", "en")),
    "-l": ("lang", ("zh", "en")),
}
COMPLETE_VAR = "_MJCALC_COMPLETE"  # the shell-completion request Typer answers before parsing


class BatchRequest(NamedTuple):
    """A plain `mjcalc batch` command line, read."""

    file: str
    input_format: str | None = None
    out_format: str | None = None
    jobs: int = 1
    fail_fast: bool = False
    rules: str | None = None
    set_: tuple[str, ...] = ()
    extra_fields: str = "error"
    sheet: str | None = None
    verbose: bool = False
    lang: str | None = None  # given on the command line


def batch_request(args: list[str]) -> BatchRequest | None:
    """`args` (after `mjcalc`) as a plain batch command line, or None: Typer must read them."""
    if not args or args[0] != "batch" or COMPLETE_VAR in os.environ:
        return None
    values: dict[str, Any] = {}
    overrides: list[str] = []
    file: str | None = None
    rest = iter(args[1:])
    for arg in rest:
        if not arg.startswith("-") or arg == "-":
            if file is not None or not arg:
                return None
            file = arg
            continue
        name, eq, value = arg.partition("=")
        entry = BATCH_OPTIONS.get(name if name.startswith("--") else arg)
        if entry is None:
            return None
        param, takes = entry
        if takes == FLAG:
            if eq or param in values:
                return None
            values[param] = True
            continue
        if not eq:
            value = next(rest, "")
        if not value or value.startswith("-") or (param in values and takes != MANY):
            return None
        if takes == MANY:
            overrides.append(value)
            values[param] = True
        elif takes == NUMBER:
            if not (value.isascii() and value.isdigit() and value[0] != "0" and len(value) < 7):
                return None
            values[param] = int(value)
        elif takes == PATH:
            from pathlib import Path

            values[param] = str(Path(value))
        elif takes == TEXT or value in takes:
            values[param] = value
        else:
            return None
    if file is None:
        return None
    values["set_"] = tuple(overrides)
    return BatchRequest(file, **values)


def main(argv: list[str] | None = None) -> None:
    """Entry point: a plain batch line runs here, every other line through Typer (`cli.app.main`)."""
    args = sys.argv[1:] if argv is None else list(argv)
    request = batch_request(args)
    if request is None:
        from .app import main as typer_main

        typer_main(args)
        return
    from ..core.stdout import OutputError, install

    install()
    try:
        code = _run(request)
        if sys.stdout is not None:  # as cli.app.emit(None)
            try:
                sys.stdout.flush()
            except OSError as exc:
                raise OutputError(exc) from None
    except SystemExit:
        raise
    except BaseException as exc:  # what cli.app.main ends a failed line with, it ends this one with
        from .app import handle_failure

        handle_failure(exc, args)
    _exit(code)


def _exit(code: int) -> NoReturn:
    """`sys.exit(code)`; where the interpreter has nothing left to do at exit (no atexit callback, no
    other thread) but free every object one by one (a run's caches: tens of milliseconds), it ends
    at once, once stdout and stderr are flushed."""
    threading = sys.modules.get("threading")
    callbacks = getattr(atexit, "_ncallbacks", None)
    if callbacks is None or callbacks() or (threading is not None and threading.active_count() > 1):
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            sys.exit(code)  # as the interpreter's own flush at exit would have it
    os._exit(code)


def _run(request: BatchRequest) -> int:
    """Run `request` as Typer runs the batch command (`standalone_mode=False`): its exit status."""
    from ..core.errors import MjcalcError
    from ..core.words import language_from_env, set_language

    try:
        set_language(language_from_env())  # the root callback
        set_language(request.lang if request.lang is not None else language_from_env())  # --lang's callback
        from ..batch import run_file

        try:
            return run_file(request.file, request.input_format, request.out_format, request.jobs, request.fail_fast,
                            request.rules, list(request.set_), request.extra_fields, request.sheet, request.verbose)
        except MjcalcError as err:  # as cli.app.errors_to_exit(False)
            import typer

            from ..present.errors import error_line

            typer.echo(error_line(err), err=True)
            return err.exit_code
    except EOFError as exc:
        import typer

        typer.echo(file=sys.stderr)
        raise typer.Abort() from exc
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        import typer.core

        click: Any = getattr(typer.core, "_click", None) or getattr(typer.core, "click")  # noqa: B009 - Typer's own click
        sys.stdout = click.utils.PacifyFlushWrapper(sys.stdout)
        sys.stderr = click.utils.PacifyFlushWrapper(sys.stderr)
        sys.exit(1)
