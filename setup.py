"""The one thing pyproject.toml cannot say: the optional compiled modules.

1. mypyc compiles the pure-Python modules listed in `mahjong_calc/compiled.py` (MODULES)
   where a C compiler works. The `.py` files are installed in every case, and Python
   imports an extension before the `.py` beside it, so an install without a compiler runs
   the same Python with the same output, only slower. Compilation is skipped, with a
   warning, when MJCALC_NO_COMPILE=1 is set at build time, when no C compiler works,
   when mypyc is missing, or when building fails; MJCALC_REQUIRE_COMPILE=1 turns any of
   these into a build error instead (for a CI job that must test the compiled path).
   A listed module whose file does not exist is always a build error: a typo must not
   turn compilation off unnoticed. Editable installs compile nothing (the source tree
   stays what runs).

2. The message catalogues: each `mahjong_calc/locale/<lang>/LC_MESSAGES/mjcalc.po` is compiled
   into the `.mo` beside it in the build (with Babel, a build requirement); the standard
   library's gettext reads it at run time. Nothing compiled is committed: a source tree or an
   editable install reads the `.po` itself (mahjong_calc/core/words.py).

pip shows a build's output only with `pip install -v`; whatever pip shows,
`mjcalc --version` reports which modules are compiled.
"""

from __future__ import annotations

import ast
import importlib.machinery
import os
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
LIST_FILE = "mahjong_calc/compiled.py"
BUILDS = ("bdist_wheel", "build", "build_ext", "install")  # commands that build extensions (not egg_info, sdist, editable_wheel)


def warn(*lines: str) -> None:
    print("", *(f"WARNING: mjcalc: {line}" for line in lines), "", sep="\n", file=sys.stderr, flush=True)


def skip_compiling(reason: str) -> None:
    """Say that the modules stay plain Python, or fail if MJCALC_REQUIRE_COMPILE=1 asks for them."""
    if os.environ.get("MJCALC_REQUIRE_COMPILE", "") not in ("", "0"):
        raise SystemExit(f"mjcalc: MJCALC_REQUIRE_COMPILE is set, but the modules were not compiled: {reason}")
    warn(
        f"the mypyc-compiled modules were skipped: {reason}",
        "mjcalc works without them and gives the same output, only slower.",
        "install a C compiler (e.g. gcc) and reinstall to build them; `mjcalc --version` shows which are on.",
    )


def listed_modules() -> tuple[str, ...]:
    """MODULES from mahjong_calc/compiled.py, read without importing the package."""
    tree = ast.parse((HERE / LIST_FILE).read_text(encoding="utf-8"))
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0] if isinstance(node, ast.Assign) else None
        if isinstance(target, ast.Name) and target.id == "MODULES" and node.value is not None:  # type: ignore[union-attr]
            return tuple(ast.literal_eval(node.value))  # type: ignore[union-attr]
    raise SystemExit(f"setup.py: no MODULES tuple in {LIST_FILE}")


def module_paths(names: tuple[str, ...]) -> list[str]:
    """Each listed module's source file (a package's __init__.py), relative to this directory;
    a missing one stops the build."""
    stems = [name.replace(".", "/") for name in names]
    paths = [f"{stem}/__init__.py" if (HERE / stem).is_dir() else f"{stem}.py" for stem in stems]
    missing = [f"{name} ({path})" for name, path in zip(names, paths) if not (HERE / path).is_file()]
    if missing:
        raise SystemExit(f"setup.py: {LIST_FILE} lists modules with no source file: {', '.join(missing)}")
    return paths


def compiler_problem() -> str | None:
    """Why no C compiler can build a Python extension here, or None if one can."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    compiler: Any = new_compiler()
    customize_compiler(compiler)  # honours CC and CFLAGS, as the real build does
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.c"
        probe.write_text("#include <Python.h>\nint probe(void) { return 0; }\n", encoding="utf-8")
        try:
            compiler.compile([str(probe)], output_dir=tmp, include_dirs=[sysconfig.get_paths()["include"]])
        except Exception as exc:
            return f"no working C compiler ({type(exc).__name__}: {exc})"
    return None


def mypyc_extensions(paths: list[str]) -> list[Extension]:
    """The mypyc extensions of the listed modules, or [] (with a warning) where they cannot be built."""
    if os.environ.get("MJCALC_NO_COMPILE", "") not in ("", "0"):
        skip_compiling("MJCALC_NO_COMPILE is set")
        return []
    problem = compiler_problem()
    if problem is not None:
        skip_compiling(problem)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        skip_compiling(f"mypyc is not installed ({exc}); it comes with mypy, see [build-system] in pyproject.toml")
        return []
    try:
        return list(mypycify(paths, opt_level="3", group_name="mahjong_calc"))
    except (Exception, SystemExit) as exc:  # mypyc reports its own errors and exits
        skip_compiling(f"mypyc could not compile them ({type(exc).__name__}: {exc})")
        return []


class CleanBuildPy(build_py):
    """build_py that first removes extensions left in build/ by an earlier build.

    pip builds in the source tree, and the wheel takes all of build/lib: a module compiled
    last time must not ship in a build that compiles nothing (or builds it anew).
    """

    def run(self) -> None:
        root = Path(self.build_lib)
        suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
        for path in [*root.glob("mahjong_calc/**/*"), *root.glob("*__mypyc*")]:
            if path.is_file() and path.name.endswith(suffixes):
                path.unlink()
        super().run()
        compile_catalogues(root)


def compile_catalogues(build_lib: Path) -> None:
    """Compile every `.po` of mahjong_calc/locale into the `.mo` gettext reads, under `build_lib`."""
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError as exc:
        raise SystemExit(f"setup.py: Babel compiles the message catalogues; install it (see [build-system] in pyproject.toml): {exc}") from None
    for po in sorted((HERE / "mahjong_calc" / "locale").glob("*/LC_MESSAGES/*.po")):
        target = build_lib / po.relative_to(HERE).with_suffix(".mo")
        target.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as src:
            catalog = read_po(src)
        with target.open("wb") as out:
            write_mo(out, catalog)


class OptionalBuildExt(build_ext):
    """build_ext that installs plain Python where compiling fails, and says so."""

    def build_extensions(self) -> None:
        self.check_extensions_list(self.extensions)
        try:
            for ext in self.extensions:  # all or none: a module's shim without the shared library would not import
                self.build_extension(ext)
        except Exception as exc:
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            skip_compiling(f"building them failed ({type(exc).__name__}: {exc})")


paths = module_paths(listed_modules())  # checked by every command, whatever happens next
compiled = mypyc_extensions(paths) if any(cmd in sys.argv[1:] for cmd in BUILDS) else []

setup(
    ext_modules=compiled,
    cmdclass={"build_py": CleanBuildPy, "build_ext": OptionalBuildExt},
)
