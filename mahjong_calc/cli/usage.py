"""A usage error of the command line (Click's) as a catalogue text, in the chosen language.

Click writes its own English sentences; these are the ones a person meets (an unknown option
or command, a missing argument or value), rebuilt from the exception's parts so that they read
in Chinese too, while the English stays what Click writes. Suggestions keep Click's order, the
closest first (`--selfdraw`: `--self-draw`, then `--meld`), not the alphabetical order Click
prints them in. Anything else keeps Click's sentence.
"""

from __future__ import annotations

import re
from typing import Any

from ..core.words import N_, Text

_COMMAND = re.compile(r"No such command '(?P<name>.+?)'\.(?: Did you mean (?P<like>.+)\?)?", re.S)
_NEEDS_VALUE = re.compile(r"Option '(?P<name>.+?)' requires an argument\.")
_INVALID = re.compile(r"Invalid value for (?P<name>.+?): (?P<detail>.*)", re.S)
# what Typer's coercion says of a value it refuses (a choice, a number), to be said in our words
_NOT_A_CHOICE = re.compile(r"Value error, (?P<value>.+) is not one of (?P<choices>.+?)\.?", re.S)
_NOT_A_NUMBER = re.compile(r"Input should be a valid integer.*", re.S)


def _is(exc: Any, name: str) -> bool:
    """Whether `exc` is of Click's class `name` (Typer ships its own copy of Click: matched by name)."""
    return any(cls.__name__ == name for cls in type(exc).__mro__)


def missing_value(ctx: Any, option: str) -> Exception:
    """The usage error of an option given no value, as Click words it (raised by `ctx.fail`)."""
    try:
        ctx.fail(f"Option {option!r} requires an argument.")
    except Exception as exc:  # Click's UsageError, of the copy of Click that Typer uses
        return exc
    raise AssertionError("ctx.fail returned")


def is_usage_error(exc: Any) -> bool:
    return _is(exc, "UsageError")


def usage_text(exc: Any) -> Text:
    """The problem, then where help is: `(see mjcalc score --help)` for the command that failed."""
    ctx = getattr(exc, "ctx", None)
    command = ctx.command_path if ctx is not None else "mjcalc"
    return N_("{problem} (see {command} --help)", problem=_problem(exc), command=command)


def _problem(exc: Any) -> Text:
    if _is(exc, "NoSuchOption"):
        options = list(exc.possibilities or ())
        if not options:
            return N_("No such option: {option}", option=exc.option_name)
        if len(options) == 1:
            return N_("No such option: {option} Did you mean {like}?", option=exc.option_name, like=options[0])
        return N_("No such option: {option} (Possible options: {options})", option=exc.option_name, options=", ".join(options))
    message = str(exc.format_message())
    if _is(exc, "MissingParameter") and message.startswith(("Missing argument ", "Missing option ")) and message.endswith("."):
        kind, _, name = message[:-1].partition(" ")[2].partition(" ")
        if kind == "argument":
            return N_("Missing argument {name}.", name=name)
        return N_("Missing option {name}.", name=name)
    match = _COMMAND.fullmatch(message)
    if match:
        like = match.group("like")
        return N_("No such command {name!r}. Did you mean {like}?", name=match.group("name"), like=like) if like else \
            N_("No such command {name!r}.", name=match.group("name"))
    match = _NEEDS_VALUE.fullmatch(message)
    if match:
        return N_("Option {name!r} requires an argument.", name=match.group("name"))
    match = _INVALID.fullmatch(message)
    if match:
        name, detail = match.group("name"), match.group("detail")
        choice = _NOT_A_CHOICE.fullmatch(detail)
        if choice:
            return N_("Invalid value for {name}: {value} is not one of {choices}", name=name, value=choice.group("value"),
                      choices=choice.group("choices"))
        if _NOT_A_NUMBER.fullmatch(detail):
            return N_("Invalid value for {name}: not a whole number", name=name)
        return N_("Invalid value for {name}: {detail}", name=name, detail=detail)
    return N_("{detail}", detail=message)
