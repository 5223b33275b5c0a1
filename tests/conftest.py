"""Shared fixtures: a CLI runner and small helpers for table-driven tests."""

from __future__ import annotations

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
