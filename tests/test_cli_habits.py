"""Habits of a well-made command line: one vocabulary of flags, stdin as `-`, suggestions for a
misspelt ruleset key, our own words for every message, and what a flag implies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.core import words

HAND = "123m456m789m11p555p"


@pytest.fixture(autouse=True)
def no_language_chosen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MJCALC_DB", str(tmp_path / "games.sqlite3"))
    for var in ("MJCALC_LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    words.set_language(None)


runner = CliRunner()


def test_heavenly_is_the_dealers() -> None:
    heavenly = runner.invoke(app, ["score", HAND, "--heavenly", "--json"])
    with_dealer = runner.invoke(app, ["score", HAND, "--heavenly", "--dealer", "--json"])
    alone = runner.invoke(app, ["score", HAND, "--self-draw", "--json"])
    assert heavenly.exit_code == with_dealer.exit_code == 0
    assert json.loads(heavenly.stdout) == json.loads(with_dealer.stdout)
    assert json.loads(heavenly.stdout)["payments"] != json.loads(alone.stdout)["payments"]
    clash = runner.invoke(app, ["score", HAND, "--heavenly", "--dealer-seat", "next"])
    assert clash.exit_code == 2 and "[conflicting_flags]: --heavenly and --dealer-seat cannot both be given" in clash.stderr


def test_a_heavenly_hand_of_a_winner_who_is_not_the_dealer_is_refused_in_a_game() -> None:
    assert runner.invoke(app, ["game", "new", "--players", "A,B,C,D", "--dealer", "A"]).exit_code == 0
    refused = runner.invoke(app, ["game", "add", "--winner", "B", "--heavenly", HAND])
    assert refused.exit_code == 2
    assert "[conflicting_flags]: --heavenly: a heavenly hand (天胡) is the dealer's, and the winner is not this hand's dealer" in refused.stderr
    assert runner.invoke(app, ["game", "add", "--winner", "A", "--heavenly", HAND]).exit_code == 0
