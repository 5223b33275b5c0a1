"""Every option of every shipped ruleset is recorded in its variant's docs/rules page."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from mahjong_calc.rules.loader import load_ruleset, shipped_names

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", shipped_names())
def test_every_option_is_documented(name: str) -> None:
    rs = load_ruleset(name)
    page = rs.variant.docs
    assert page.startswith("docs/rules/"), (name, page)
    text = (REPO / page).read_text(encoding="utf-8")
    missing = [f.name for f in dataclasses.fields(rs.options) if f.name not in text]
    assert not missing, f"{name}: options not in {page}: {missing}"
