"""Shared fixtures: a CLI runner and small helpers for table-driven tests."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture(autouse=True)
def _no_language_chosen_after() -> object:
    """A command run in-process with `--lang` chooses the language for the process: choose none again
    after each test, so that the next one starts with today's default (bilingual tables)."""
    yield
    from mahjong_calc.core import words

    words.set_language(None)


@pytest.fixture(autouse=True)
def _batch_defaults_as_found() -> Iterator[None]:
    """Every test leaves the batch-wide --rules/--set as it found them: a later test's records
    would be scored under them. Imports nothing a test did not."""
    yield
    evaluate = sys.modules.get("mahjong_calc.batch.evaluate")
    if evaluate is not None:
        left = evaluate.current_defaults()
        assert left == evaluate.Defaults(), f"the test left the batch configured: {left}"


def _low_files(n: int) -> Callable[[], None]:
    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (n, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    return limit


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Callable[..., tuple[int, subprocess.Popen[bytes]]]]:
    """`servers()` starts `mjcalc serve` (installed.py's copy) on a free loopback port with the database
    `db` (default tmp_path/g.sqlite3), its stderr in tmp_path/stderr.txt (installed.stderr_of), and returns (port, process)
    once it answers; `servers(code)` runs `python -c code DB PORT` instead (a server with other limits).
    `files`: its open-file limit. Every server started is stopped after the test."""
    from installed import child_env, free_port, popen_installed, stop, wait_until_serving

    procs: list[subprocess.Popen[bytes]] = []

    def start(code: str | None = None, *, db: Path | None = None, files: int | None = None,
              stdout: Any = subprocess.DEVNULL) -> tuple[int, subprocess.Popen[bytes]]:
        port = free_port()
        db = db or tmp_path / "g.sqlite3"
        extra: dict[str, Any] = {"preexec_fn": _low_files(files)} if files else {}
        with (tmp_path / "stderr.txt").open("wb") as err:  # the child keeps its own copy
            if code is None:
                proc = popen_installed(["serve", "--port", str(port), "--db", str(db)], stdout=stdout, stderr=err, **extra)
            else:
                proc = subprocess.Popen([sys.executable, "-c", code, str(db), str(port)], cwd=tmp_path, env=child_env(),
                                        stdout=stdout, stderr=err, **extra)
        procs.append(proc)
        wait_until_serving(proc, port)
        return port, proc

    yield start
    for proc in procs:
        stop(proc)

