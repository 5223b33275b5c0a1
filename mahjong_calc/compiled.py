"""Which modules mypyc compiles at install, and which of them this process really runs compiled.

MODULES is the one list: setup.py reads it (without importing the package) and compiles
each with mypyc where a C compiler works; the plain `.py` files are installed either way,
and Python imports the extension when it is there. Adding a module is one line here.
mypyc type-checks what a listed module imports in the build environment, which holds
mypy, setuptools and types-PyYAML only: a module whose imports reach typer or rich
(the CLI, the terminal's tables) cannot be listed. MJCALC_REQUIRE_COMPILE=1 at install makes any
skipped compilation an error (setup.py).

MJCALC_PURE_PYTHON=1 in the environment makes this process import the plain Python of
every listed module even where compiled ones are installed: the same files a machine
without a C compiler runs (to compare outputs, or to time the no-compiler path).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from functools import cache
from importlib.machinery import ModuleSpec
from types import ModuleType

MODULES: tuple[str, ...] = (
    "mahjong_calc.core.language",
    "mahjong_calc.core.sets",
    "mahjong_calc.core.memo",
    "mahjong_calc.core.tiles",
    "mahjong_calc.core.context",
    "mahjong_calc.core.flags",
    "mahjong_calc.core.hand",
    "mahjong_calc.core.batch_record",
    "mahjong_calc.core.result",
    "mahjong_calc.core.counting",
    "mahjong_calc.core.suit_tables",
    "mahjong_calc.core.suits",
    "mahjong_calc.core.shapes",
    "mahjong_calc.core.wilds",
    "mahjong_calc.core.shanten",
    "mahjong_calc.variants.common.goals",
    "mahjong_calc.variants.wuhu.patterns",
    "mahjong_calc.variants.wuhu.kernel",
    "mahjong_calc.variants.wuhu.build",
    "mahjong_calc.variants.wuhu.score",
    "mahjong_calc.variants.common.read",
    "mahjong_calc.variants.common.best",
    "mahjong_calc.variants.common.detectors",
    "mahjong_calc.variants.chizhou.patterns",
    "mahjong_calc.variants.chizhou.kernel",
    "mahjong_calc.variants.chizhou.build",
    "mahjong_calc.variants.chizhou.score",
    "mahjong_calc.variants.pujiang.patterns",
    "mahjong_calc.variants.pujiang.kernel",
    "mahjong_calc.variants.pujiang.build",
    "mahjong_calc.variants.pujiang.score",
    "mahjong_calc.api.score",
    "mahjong_calc.api.session",
    "mahjong_calc.batch.evaluate",
    "mahjong_calc.batch.output",
    "mahjong_calc.batch.tally",
    "mahjong_calc.game.engine",
    "mahjong_calc.game.winner",
    "mahjong_calc.core.seats",
    "mahjong_calc.game.stats",
    "mahjong_calc.variants.common.settlement",
    "mahjong_calc.variants.wuhu.liability",
    "mahjong_calc.variants.chizhou.liability",
    "mahjong_calc.variants.pujiang.liability",
)

PURE_ENV = "MJCALC_PURE_PYTHON"


def pure_requested() -> bool:
    """Whether MJCALC_PURE_PYTHON asks for the plain Python modules."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


class _SourceOnly:
    """A meta-path finder that finds the `.py` file of a listed module, never its extension."""

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in MODULES or not path:
            return None
        loaders = [(importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)]
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, *loaders).find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


def install_pure_finder() -> None:
    """Put the source-only finder first on sys.meta_path if MJCALC_PURE_PYTHON is set (once)."""
    if pure_requested() and not any(isinstance(f, _SourceOnly) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceOnly())


def _is_extension(origin: str | None) -> bool:
    return origin is not None and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def _runs_compiled(name: str) -> bool:
    """Whether this process imports (or has imported) the module `name` as a compiled extension.

    Finding a module not yet imported imports its parent packages (a variant's, for its kernel)."""
    module = sys.modules.get(name)
    if module is not None:
        origin = getattr(module, "__file__", None)
    else:
        spec = importlib.util.find_spec(name)
        origin = None if spec is None else spec.origin
    return _is_extension(origin)


def compiled_modules() -> tuple[str, ...]:
    """The listed modules this process imports (or has imported) as compiled extensions."""
    return tuple(name for name in MODULES if _runs_compiled(name))


@cache
def kernel_compiled(scorer: str) -> bool:
    """Whether the kernel of the variant scorer `scorer` (variants/<scorer>/kernel.py) runs compiled
    (asking imports that variant's package alone, not every variant's)."""
    name = f"mahjong_calc.variants.{scorer}.kernel"
    return name in MODULES and _runs_compiled(name)


def status() -> str:
    """One line for `mjcalc --version`: the compiled modules, or why there are none."""
    names = compiled_modules()
    if names:
        return "compiled: " + ", ".join(names)
    if pure_requested():
        return f"compiled: off ({PURE_ENV} is set)"
    return "compiled: off (not built: no C compiler at install time, MJCALC_NO_COMPILE=1, or the source tree)"


install_pure_finder()  # on import: the package root imports this module before any listed one
