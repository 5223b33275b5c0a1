"""Run the *installed* mjcalc in a subprocess, and say which copy really ran.

From the repository root, `python -m mahjong_calc` imports the source tree, which
has no compiled module. These helpers start the child in a temporary directory, so
it imports the package that pip installed, and `which_ran()` reports the package
directory the child imported, whether its compiled scorer is on, and which modules
it runs compiled by mypyc.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
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
    """{'package': dir the child imported, 'compiled': the mypyc-compiled modules it imports} in a child like run_installed's."""
    code = "import json, mahjong_calc, mahjong_calc.compiled as c; print(json.dumps({'package': mahjong_calc.__path__[0], 'compiled': c.compiled_modules()}))"
    done = subprocess.run([sys.executable, "-c", code], cwd=_WORKDIR, env=child_env(), capture_output=True, text=True, check=True)
    info: dict[str, Any] = json.loads(done.stdout)
    return info


def compiled_in_child() -> bool:
    """Whether the installed package runs the Wuhu kernel compiled (mypyc)."""
    return "mahjong_calc.variants.wuhu.kernel" in which_ran()["compiled"]


def mypyc_in_child() -> tuple[str, ...]:
    """The modules of mahjong_calc.compiled.MODULES that the installed package runs compiled."""
    return tuple(which_ran()["compiled"])


needs_mypyc = pytest.mark.skipif(
    not mypyc_in_child(),
    reason="the installed package has no mypyc-compiled modules (no C compiler at install time, or MJCALC_NO_COMPILE=1)",
)

needs_compiled = pytest.mark.skipif(
    not compiled_in_child(),
    reason="the Wuhu kernel is not mypyc-compiled in the installed package (no C compiler at install time, or MJCALC_NO_COMPILE=1)",
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


def free_port(host: str = "127.0.0.1") -> int:
    """A port nobody uses on `host` now: for a server on 0.0.0.0, one no connection on any
    address holds (a loopback-free port can be another address's client port)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def wait_until_serving(proc: subprocess.Popen[bytes], port: int, seconds: float = 30) -> None:
    """Wait for `mjcalc serve` on `port` to answer; if it exits or takes too long, kill it and
    fail the test with what it wrote on stderr."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/variants", timeout=2):
                return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                _, err = proc.communicate()
                pytest.fail(f"mjcalc serve did not start: {(err or b'').decode(errors='replace')}")
            time.sleep(0.1)


def stderr_of(tmp_path: Path) -> str:
    """What the server that conftest's `servers` started last in `tmp_path` wrote on stderr."""
    return (tmp_path / "stderr.txt").read_text(encoding="utf-8", errors="replace")


def stop(proc: subprocess.Popen[Any], timeout: float = 20) -> None:
    """Terminate a child, and kill it if it has not gone within `timeout` seconds."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
