"""The page's season view: `GET /api/season` counts the live games as `mjcalc stats --db` does, plus each game's totals."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from mahjong_calc.cli.app import app
from mahjong_calc.web.app import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
LOCAL = "http://127.0.0.1:8315"


def _games(db: Path) -> None:
    runner = CliRunner()
    for players, hands in (("王,李,张,赵", [["--winner", "李", "-s", "123456m13m99p555p2m"]]),
                           ("王,李,张,钱", [["--winner", "钱", "--discarder", "王", "123m456m789m11p999p"], ["--draw"]])):
        assert runner.invoke(app, ["game", "new", "--db", str(db), "--variant", "wuhu315", "--players", players]).exit_code == 0
        for args in hands:
            assert runner.invoke(app, ["game", "add", "--db", str(db), *args]).exit_code == 0


def test_the_season_is_what_stats_counts_with_each_games_totals(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    _games(db)
    client = TestClient(create_app(db), base_url=LOCAL, raise_server_exceptions=False)
    answer = client.get("/api/season")
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    stats = json.loads(CliRunner().invoke(app, ["stats", "--db", str(db), "--json"]).stdout)
    assert {k: data[k] for k in ("players", "patterns", "games", "variants", "complete", "left_out")} == stats
    assert [g["totals"] for g in data["history"]] == [{"王": -8, "李": 24, "张": -8, "赵": -8}, {"王": -5, "李": -5, "张": -5, "钱": 15}]
    assert [(s["player"], s["net"], s["variant"]) for s in data["standings"]] == [
        ("李", 19, "wuhu315"), ("钱", 15, "wuhu315"), ("赵", -8, "wuhu315"), ("王", -13, "wuhu315"), ("张", -13, "wuhu315")]
    assert [g["variant"] for g in data["history"]] == ["wuhu315", "wuhu315"]
    assert client.get("/api/season", params={"until": "2000-01-01"}).json()["games"] == 0
    bad = client.get("/api/season", params={"since": "soon"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_date"
    page = client.get("/season")
    assert page.status_code == 200 and "/static/season.js" in page.text and "season-chart" in page.text
    assert client.get("/static/season.js").status_code == 200


def test_with_tokens_the_season_has_only_the_games_the_token_opens(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    _games(db)
    client = TestClient(create_app(db, tokens=True), base_url="http://192.168.1.5:8315", raise_server_exceptions=False)
    assert client.get("/api/season").status_code == 401
    listed = json.loads(CliRunner().invoke(app, ["game", "list", "--db", str(db), "--json"]).stdout)
    from mahjong_calc.live import Store

    with Store(db) as store:
        token = store.tokens()[listed[-1]["id"]]  # the first game's
    data = client.get("/api/season", params={"token": token}).json()
    assert data["games"] == 1 and set(data["players"]) == {"王", "李", "张", "赵"}


def test_points_of_two_variants_stand_apart(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    runner = CliRunner()
    for variant, hands in (("chizhou", [["--winner", "李", "--discarder", "王", "-m", "111m@王", "-m", "777z@张", "-m", "999s@赵", "123p55p"]]),
                           ("pujiang", [["--winner", "李", "-s", "123456m13m99p555p2m"]])):
        assert runner.invoke(app, ["game", "new", "--db", str(db), "--variant", variant, "--players", "王,李,张,赵"]).exit_code == 0
        for args in hands:
            runner.invoke(app, ["game", "add", "--db", str(db), *args])
    data = TestClient(create_app(db), base_url=LOCAL, raise_server_exceptions=False).get("/api/season").json()
    played = [v for v, part in data["variants"].items() if part["games"]]
    assert sorted(played) == ["chizhou", "pujiang"]
    for variant in played:
        mine = [s for s in data["standings"] if s["variant"] == variant]
        assert [s["player"] for s in mine] == [s["player"] for s in data["variants"][variant]["standings"]]
        assert {s["player"]: s["net"] for s in mine} == {n: p["by_variant"][variant]["net"] for n, p in data["players"].items()}
    assert len(data["standings"]) == 8  # each player once per variant, never one net of both
