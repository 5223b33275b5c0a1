"""Shared fixtures: a CLI runner and small helpers for table-driven tests."""

from __future__ import annotations

import sys
from collections.abc import Iterator

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
    (and its lean path) would be scored under them. Imports nothing a test did not."""
    yield
    evaluate = sys.modules.get("mahjong_calc.batch.evaluate")
    if evaluate is not None:
        left = evaluate.current_defaults()
        assert left == evaluate.Defaults(), f"the test left the batch configured: {left}"
