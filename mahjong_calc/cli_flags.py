"""The Typer option of a declared flag (flags.FIELDS), shared by `score`, `waits` and `game add`."""

from __future__ import annotations

import inspect
from typing import Annotated, Any

import typer

from .flags import Field


def flag_option(field: Field, extra_help: str = "", metavar: str | None = None) -> inspect.Parameter:
    """The `score` parameter for one declared field: its Typer option, type and default.

    `game add` reuses it with `extra_help` and its own `metavar` (a seat is a player's name there).
    """
    help_text = field.en + ("" if field.variants is None else f" [{', '.join(field.variants)} only]") + extra_help
    if field.argument:  # several words are one hand: `13m 456m 2m`
        return inspect.Parameter(field.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Annotated[
            list[str], typer.Argument(help=help_text + " Several words are joined.", metavar="HAND...", show_default=False)])
    info = typer.Option(*field.cli, help=help_text, metavar=metavar or field.metavar, show_default=False)
    kind: Any
    default: Any = None
    if field.kind == "bool":
        kind, default = bool, False
    elif field.kind == "melds":
        kind, default = list[str], []
    else:  # text, tiles, counts, seats: the library parses them, so a bad one gets its own code (bad_piao, bad_seat)
        kind = str | None
    return inspect.Parameter(field.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=Annotated[kind, info])
