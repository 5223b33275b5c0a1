"""The one thing pyproject.toml cannot say: the optional C extension.

`optional=True`: where there is no C compiler the build still succeeds, and
`mjcalc batch` scores Wuhu with the Python scorer alone (slower, same output).
The build says so on stderr, but pip shows a build's output only with `pip install -v`;
whatever pip shows, `mjcalc --version` reports "compiled scorer: on" or "off".
"""

from __future__ import annotations

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ACCEL = "mahjong_calc._wuhu_accel"


class OptionalBuildExt(build_ext):
    """build_ext that says plainly when the compiled scorer was skipped."""

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # setuptools skips an optional extension on any build error
            if ext.name == ACCEL:
                print(
                    f"\nWARNING: mjcalc: the compiled Wuhu scorer ({ACCEL}) was skipped: {exc}\n"
                    "WARNING: mjcalc works without it and gives the same output, but `mjcalc batch` is slower.\n"
                    "WARNING: install a C compiler (e.g. gcc) and reinstall to build it; "
                    "`mjcalc --version` shows whether it is on.\n",
                    file=sys.stderr,
                    flush=True,
                )
            raise


setup(
    ext_modules=[Extension(ACCEL, ["mahjong_calc/_wuhu_accel.c"], optional=True)],
    cmdclass={"build_ext": OptionalBuildExt},
)
