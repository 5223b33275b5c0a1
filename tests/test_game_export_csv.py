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


def test_every_name_exports_and_reads_back_as_itself_and_formulas_are_inert(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    names = ["Wang, Jr.", " c", "=1+1", "@SUM(A1)"]
    from mahjong_calc.live import Store

    with Store(db) as store:  # as POST /api/games makes it: `game new --players` splits at commas
        store.new_game({"variant": "wuhu315", "players": names, "dealer": names[0]})
    for args in (("--winner", "=1+1", "--discarder", "Wang, Jr.", "123m456m789m11p999p"),
                 ("--winner", " c", "-m", "111m@@SUM(A1)", "-s", "456m99m123p555s"),
                 ("--winner", "@SUM(A1)", "--discarder", " c", "--fields", '{"id": "+cmd"}', "123m456m789m11p999p")):
        added = game(db, "add", *args)
        assert added.exit_code == 0, added.output
    exported = game(db, "export", "--format", "csv")
    assert exported.exit_code == 0, exported.output
    for row in csv.reader(io.StringIO(exported.stdout)):
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@")), cell  # a spreadsheet takes none of them for a formula
    path = tmp_path / "game.csv"
    path.write_text(exported.stdout, encoding="utf-8")
    yaml_path = tmp_path / "game.yaml"
    yaml_path.write_text(game(db, "export").stdout, encoding="utf-8")
    from_csv = json.loads(runner.invoke(app, ["game", "settle", str(path), "--json"]).stdout)
    from_yaml = json.loads(runner.invoke(app, ["game", "settle", str(yaml_path), "--json"]).stdout)
    assert from_csv["players"] == from_yaml["players"] == names
    assert from_csv["totals"] == from_yaml["totals"] and set(from_csv["totals"]) == set(names)
    assert [h.get("winner") for h in from_csv["hands"]] == ["=1+1", " c", "@SUM(A1)"]
    assert all("error" not in h for h in from_csv["hands"])
