"""`game settle` and `game show` at 40 and 80 columns: nothing cut; piped, the table is as it always was."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

from mahjong_calc.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
runner = CliRunner()


def _fits(out: Any, width: int) -> str:
    assert out.exit_code == 0, out.output
    text: str = out.stdout
    assert max(cell_len(line) for line in text.splitlines()) <= width
    assert "…" not in text
    return text


@pytest.mark.parametrize("width", [40, 80])
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_game_settle_fits_without_cutting(path: Path, lang: str, width: int) -> None:
    text = _fits(runner.invoke(app, ["game", "settle", str(path), "--lang", lang], env={"COLUMNS": str(width)}), width)
    flat = re.sub(r"\s+", " ", text)
    data = runner.invoke(app, ["game", "settle", str(path), "--json"]).stdout
    import json

    report = json.loads(data)
    for player, total in report["totals"].items():
        shown = f"{total:+d}" if total else "0"
        assert f"{player} {shown}" in flat or re.search(rf"\|\s*{re.escape(shown)}\b", text), (player, shown)
    for t in report["transfers"]:
        assert f"{t['from']} → {t['to']} {t['amount']}" in text
    for hand in report["hands"]:
        for row in hand["settlement"]["liability"]:
            assert f"{row['payer']} +{row['amount']}" in flat


def test_piped_without_columns_the_table_is_unchanged() -> None:
    doc = (ROOT / "docs" / "games.md").read_text(encoding="utf-8")
    expected = doc.split("```text\n", 1)[1].split("```", 1)[0]
    out = runner.invoke(app, ["game", "settle", str(ROOT / "examples" / "wuhu315-club.yaml")], env={"COLUMNS": ""})
    assert [line.rstrip() for line in out.stdout.splitlines()] == expected.splitlines()  # the docs keep no trailing spaces
    assert out.stdout.splitlines()[1].startswith("+------+----+")  # the ASCII table, one hand a line


@pytest.mark.parametrize("width", [40, 80])
def test_game_show_fits_without_cutting(width: int, tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    assert runner.invoke(app, ["game", "new", "--db", db, "--variant", "wuhu315", "--players", "王,李,张,赵", "--dealer", "王"]).exit_code == 0
    for args in (["--winner", "李", "--discarder", "王", "123m456m789m11p999p"],
                 ["--winner", "赵", "--discarder", "李", "-m", "111m@王", "-m", "222m@王", "-m", "333m@王", "456m99m"]):
        assert runner.invoke(app, ["game", "add", "--db", db, *args]).exit_code == 0
    text = _fits(runner.invoke(app, ["game", "show", "--db", db], env={"COLUMNS": str(width)}), width)
    assert "三对包牌 王 +60" in text


@pytest.mark.parametrize("width", [40, 80])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_several_games_fit_without_cutting(lang: str, width: int) -> None:
    log = ROOT / "examples" / "club-season.csv"
    text = _fits(runner.invoke(app, ["game", "settle", str(log), "--lang", lang], env={"COLUMNS": str(width)}), width)
    for line in ("王 → 张 93", "钱 → 李 16", "-150", "+93"):
        assert line in text
