"""`mjcalc game export --format csv`: a live game as a CSV log, which settles to the same totals."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from mahjong_calc.cli.app import app

runner = CliRunner()
PLAYERS = "王,李,张,赵"


def game(db: Path, *args: str) -> Any:
    return runner.invoke(app, ["game", args[0], "--db", str(db), *args[1:]])


def test_export_csv_then_settle_gives_the_same_totals(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    assert game(db, "new", "--variant", "wuhu315", "--players", PLAYERS, "--dealer", "王").exit_code == 0
    for args in (("--winner", "李", "--discarder", "王", "123m456m789m11p999p"),
                 ("--draw",),
                 ("--winner", "赵", "--discarder", "李", "-m", "111m@王", "-m", "222m@王", "-m", "333m@王", "456m99m"),
                 ("--winner", "张", "-s", "123456m13m99p555p2m"),
                 ("--winner", "李", "--discarder", "王", "--fields", '{"exposed": {"赵": ["666s@张"]}}', "123m456m789m11p999p")):
        added = game(db, "add", *args)
        assert added.exit_code == 0, added.output
    shown = json.loads(game(db, "show", "--json").stdout)
    exported = game(db, "export", "--format", "csv")
    assert exported.exit_code == 0, exported.output
    rows = list(csv.DictReader(io.StringIO(exported.stdout)))
    assert len(rows) == 5 and rows[0]["players"] == PLAYERS and rows[0]["variant"] == "wuhu315" and len(rows[0]["date"]) == 10
    assert rows[2]["melds"] == "111m@王 222m@王 333m@王" and json.loads(rows[4]["exposed"]) == {"赵": ["666s@张"]}
    assert all(r["game"] == rows[0]["game"] for r in rows)
    path = tmp_path / "game.csv"
    path.write_text(exported.stdout, encoding="utf-8")
    settled = runner.invoke(app, ["game", "settle", str(path), "--json"])
    assert settled.exit_code == 0, settled.output
    assert json.loads(settled.stdout) == shown  # the same object, totals and all
    assert game(db, "export", "--format", "yaml").stdout == game(db, "export").stdout


def test_an_empty_live_game_is_not_exported_as_csv(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    assert game(db, "new", "--variant", "wuhu315", "--players", PLAYERS).exit_code == 0
    out = game(db, "export", "--format", "csv")
    assert out.exit_code == 2 and "bad_game" in out.stderr and out.stdout == ""
