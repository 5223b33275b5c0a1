"""Typer's coercion of a command-line value, without Pydantic where the value needs none.

Typer (0.29 and later) coerces every parameter that is not a flag through a Pydantic
TypeAdapter, built when the command line is parsed: importing Pydantic and building the
adapters is about a third of a command's start-up. `install()` gives each parameter a
coercion that answers a plain text (`str`, a list of texts) and a choice of an Enum at once,
with the value Typer's own adapter would give, and builds Typer's adapter only for anything
else, such as a value it refuses: every message and exit status stays Typer's own. A Typer
without these internals (one that coerces through click's types) is left as it is.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, get_args, get_origin

_INSTALLED: list[bool] = []


def _plain_text(value: Any) -> bool:
    """A text that Typer's `str` adapter gives back as it is (a lone surrogate, from bytes argv could
    not decode, is refused by Pydantic: that one goes to the adapter)."""
    if type(value) is not str:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def install() -> None:
    """Put the quick coercion in front of Typer's, once (nothing if this Typer has no runtime adapters)."""
    if _INSTALLED:
        return
    _INSTALLED.append(True)
    try:
        from typer import _coercion
        from typer._param_types import coerce_cli_choice
        from typer.core import _TyperParameter
    except ImportError:
        return
    runtime: Any = getattr(_coercion, "RuntimeParam", None)
    build: Any = getattr(_coercion, "build_runtime_param", None)
    if runtime is None or build is None or not hasattr(_TyperParameter, "get_runtime_param"):
        return

    class Quick(runtime):  # type: ignore[misc]
        """Coerce a plain text or an Enum's choice directly; build Typer's own coercion for anything else."""

        def __init__(self, descriptor: Any) -> None:
            super().__init__(parameter_info=descriptor.parameter_info, annotation=descriptor.annotation)
            object.__setattr__(self, "descriptor", descriptor)
            object.__setattr__(self, "full", None)

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            annotation: Any = self.annotation
            if annotation is str and _plain_text(value):
                return value
            if get_origin(annotation) is list and get_args(annotation) == (str,) and isinstance(value, (list, tuple)) \
                    and all(_plain_text(v) for v in value):
                return list(value)
            if isinstance(annotation, type) and issubclass(annotation, Enum):
                if isinstance(value, annotation):
                    return value
                if _plain_text(value):
                    try:
                        return coerce_cli_choice(value, choices=list(annotation), case_sensitive=self.parameter_info.case_sensitive, ctx=ctx)
                    except ValueError:
                        pass  # Typer's adapter words the refusal
            full = self.full
            if full is None:
                full = build(self.descriptor)
                object.__setattr__(self, "full", full)
            return full._coerce_value(value, param=param, ctx=ctx)

    def quick(descriptor: Any) -> Any:
        if descriptor.file_annotation is not None or descriptor.parameter_info.parser is not None:
            return build(descriptor)
        return Quick(descriptor)

    def get_runtime_param(self: Any) -> Any:
        if self._runtime_param is None:
            self._runtime_param = quick(self.type_descriptor)
        return self._runtime_param

    setattr(_TyperParameter, "get_runtime_param", get_runtime_param)  # noqa: B010 - mypy refuses assigning to a method
