"""Run the *installed* mjcalc in a subprocess, and say which copy really ran.

From the repository root, `python -m mahjong_calc` imports the source tree, which
has no compiled module. These helpers start the child in a temporary directory, so
it imports the package that pip installed, and `which_ran()` reports the package
directory the child imported and whether its compiled scorer is on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
MJCALC = [sys.executable, "-m", "mahjong_calc"]
_WORKDIR = Path(tempfile.mkdtemp(prefix="mjcalc-installed-"))  # outside the repository


def child_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a child: ours, minus anything that would put the source tree first."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(extra or {})
    return env


@cache
def which_ran() -> dict[str, Any]:
    """{'package': dir the child imported, 'accel': scorer compiled} in a child like run_installed's."""
    code = "import json, mahjong_calc, mahjong_calc.accel as a; print(json.dumps({'package': mahjong_calc.__path__[0], 'accel': a.available()}))"
    done = subprocess.run([sys.executable, "-c", code], cwd=_WORKDIR, env=child_env(), capture_output=True, text=True, check=True)
    info: dict[str, Any] = json.loads(done.stdout)
    return info


def compiled_in_child() -> bool:
    return bool(which_ran()["accel"])


needs_compiled = pytest.mark.skipif(
    not compiled_in_child(),
    reason="the scorer is not compiled (mypyc) in the installed package",
)


def run_installed(
    args: Sequence[str],
    *,
    input: bytes | str | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 300,
    text: bool = True,
) -> subprocess.CompletedProcess[Any]:
    """`python -m mahjong_calc ARGS` run from a directory outside the repository."""
    return subprocess.run(
        [*MJCALC, *args],
        cwd=_WORKDIR,
        env=child_env(env),
        input=input,
        capture_output=True,
        text=text,
        encoding="utf-8" if text else None,
        timeout=timeout,
        check=False,
    )


def popen_installed(args: Sequence[str], *, env: Mapping[str, str] | None = None, **kwargs: Any) -> subprocess.Popen[bytes]:
    """Like run_installed, as a Popen (for pipes that close early, or signals)."""
    return subprocess.Popen([*MJCALC, *args], cwd=_WORKDIR, env=child_env(env), **kwargs)
