"""cli/coerce.py: a command-line value coerced without Pydantic gives what Typer's own adapter gives.

Each case is coerced twice, by the quick coercion and by Typer's `build_runtime_param`
(its Pydantic adapter): the same value, or the same refusal with the same message.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

import pytest
import typer

pytest.importorskip("typer._coercion", reason="this Typer coerces through click's types: nothing to compare")
from typer import _coercion
from typer.core import _TyperParameter
from typer.models import OptionInfo

from mahjong_calc.cli import app as _app  # noqa: F401  (installs the quick coercion)
from mahjong_calc.cli.options import Lang


class Colour(str, Enum):
    red = "red"
    Blue = "Blue"


CASES: list[tuple[Any, Any]] = [
    (str, "123m456m"),
    (str, "王"),
    (str, ""),
    (str, "\udcff"),  # a byte argv could not decode: Pydantic refuses it
    (list[str], ("a.jsonl", "b.yaml")),
    (list[str], ()),
    (list[str], ("ok", "\udcfe")),
    (Lang, Lang.zh),
    (Lang, "en"),
    (Lang, "zh"),
    (Lang, "EN"),
    (Lang, "xx"),
    (Colour, "blue"),
    (Colour, "Blue"),
    (Colour, Colour.red),
    (int, "7"),
    (int, "seven"),
]


def _coerce(runtime: Any, value: Any, command: typer.core.TyperCommand) -> tuple[str, Any]:
    param = command.params[0]
    ctx = command.make_context("t", [], resilient_parsing=True)
    try:
        return "value", runtime._coerce_value(value, param=param, ctx=ctx)
    except typer.BadParameter as exc:
        return "refused", exc.format_message()


@pytest.mark.parametrize(("annotation", "value"), CASES)
@pytest.mark.parametrize("case_sensitive", [True, False])
def test_quick_coercion_gives_what_typers_adapter_gives(annotation: Any, value: Any, case_sensitive: bool) -> None:
    info = OptionInfo(case_sensitive=case_sensitive)
    descriptor = _coercion.resolve_type_descriptor(annotation, info)
    holder = typer.Typer()

    @holder.command()
    def one(x: str | None = None) -> None: ...  # its descriptor is replaced below

    command = typer.main.get_command(holder)
    param = command.params[0]
    assert isinstance(param, _TyperParameter)
    param.type_descriptor = descriptor
    param._runtime_param = None
    quick = param.get_runtime_param()
    assert type(quick).__name__ == "Quick"
    assert _coerce(quick, value, command) == _coerce(_coercion.build_runtime_param(descriptor), value, command)
