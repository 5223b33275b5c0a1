"""Tables that fit: `mjcalc options` never breaks a key (the key `--set` takes is typed as shown),
`game history` and `game list` fit 40 columns as `score` does, and a table written to a pipe or a
file ends no line with spaces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.core import words
from mahjong_calc.present.layout import cells

runner = CliRunner()
VARIANTS = ["wuhu315", "wuhu525", "chizhou", "pujiang"]
LANGS: list[list[str]] = [[], ["--lang", "zh"], ["--lang", "en"]]


@pytest.fixture(autouse=True)
def no_language_chosen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MJCALC_DB", str(tmp_path / "games.sqlite3"))
    for var in ("MJCALC_LANG", "LC_ALL", "LC_MESSAGES", "COLUMNS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    words.set_language(None)


@pytest.mark.parametrize("lang", LANGS, ids=["default", "zh", "en"])
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("width", [80, 100, 60, 40])
def test_options_never_breaks_a_key(variant: str, lang: list[str], width: int) -> None:
    keys = [row["key"] for row in json.loads(runner.invoke(app, ["options", variant, "--json"]).stdout)["options"]]
    shown = runner.invoke(app, ["options", variant, *lang], env={"COLUMNS": str(width)})
    assert shown.exit_code == 0
    lines = shown.stdout.splitlines()
    broken = [key for key in keys if not any(key in line for line in lines)]
    assert not broken, broken[:5]
    assert max(cells(line) for line in lines) <= width


@pytest.fixture
def games() -> None:
    for args in (["new", "--variant", "wuhu315", "--players", "王,李,张,赵", "--dealer", "王"],
                 ["add", "--winner", "李", "--discarder", "王", "123456m13m99p555p2m"],
                 ["add", "--winner", "张", "--self-draw", "--meld", "555s@李", "123456789m11p"],
                 ["add", "--draw"], ["undo"], ["edit", "1", "--winner", "李", "--self-draw", "123456m13m99p555p2m"],
                 ["new", "--variant", "chizhou", "--players", "Alexandra,Bartholomew,Christopher,Dominique"]):
        assert runner.invoke(app, ["game", *args]).exit_code == 0, args


@pytest.mark.parametrize("lang", LANGS, ids=["default", "zh", "en"])
@pytest.mark.parametrize("command", [["history", "1"], ["list"]])
def test_history_and_list_fit_40_columns(games: None, command: list[str], lang: list[str]) -> None:
    narrow = runner.invoke(app, ["game", *command, *lang], env={"COLUMNS": "40"})
    assert narrow.exit_code == 0
    assert max(cells(line) for line in narrow.stdout.splitlines()) <= 40, narrow.stdout
    piped = runner.invoke(app, ["game", *command, *lang])  # a pipe: a line each, as a program reads them
    entries = [line for line in piped.stdout.splitlines() if not line.startswith(" " * 6)]
    assert len(entries) == len(piped.stdout.splitlines())
    assert "".join(narrow.stdout.split()) == "".join(piped.stdout.split())  # the same words, only wrapped (a long one cut)


TABLES = [
    ["score", "13m456m678m11p555p2m", "-s"], ["score", "13m456m678m11p555p2m", "-s", "--explain"], ["waits", "123456m13m99p555p"],
    ["advise", "1234567m234p56p99s"], ["options"], ["variants"], ["game", "show"], ["game", "list"], ["game", "history"],
]


@pytest.mark.parametrize("lang", LANGS, ids=["default", "zh", "en"])
@pytest.mark.parametrize("command", TABLES, ids=[" ".join(c[:2]) for c in TABLES])
def test_a_piped_table_ends_no_line_with_spaces(games: None, command: list[str], lang: list[str]) -> None:
    for env in ({}, {"COLUMNS": "40"}, {"COLUMNS": "100"}):
        done = runner.invoke(app, [*command, *lang], env=env)
        assert done.exit_code == 0, done.stderr
        padded = [line for line in done.stdout.splitlines() if line != line.rstrip(" ")]
        assert not padded, padded[:3]


def test_a_settled_log_and_the_season_piped_end_no_line_with_spaces() -> None:
    root = Path(__file__).resolve().parent.parent / "examples"
    for command in (["game", "settle", str(root / "club-season.csv")], ["stats", str(root / "club-season.csv")],
                    ["game", "settle", str(root / "wuhu315-club.yaml")]):
        for env in ({}, {"COLUMNS": "40"}):
            done = runner.invoke(app, command, env=env)
            assert [line for line in done.stdout.splitlines() if line != line.rstrip(" ")] == [], command
