"""`POST /api/advise`: exactly what `mjcalc advise --json` prints, and bad bodies a 400."""

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


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(tmp_path / "games.sqlite3"), base_url="http://127.0.0.1:8315", raise_server_exceptions=False)


def cli(*args: str) -> tuple[int, Any]:
    done = CliRunner().invoke(app, list(args))
    return done.exit_code, json.loads(done.stdout)


@pytest.mark.parametrize(
    ("body", "flags", "status"),
    [
        ({"hand": "1234567m139p777z5m"}, [], 200),
        ({"hand": "123456m13p99p5m", "melds": ["777z"]}, ["--meld", "777z"], 200),
        ({"hand": "111m222p33s456s7z6m1z", "variant": "pujiang", "wild": "6m", "seen": "3s"},
         ["--variant", "pujiang", "--wild", "6m", "--seen", "3s"], 200),
        ({"hand": "123m456p11z222z3z4z5z", "variant": "chizhou"}, ["--variant", "chizhou"], 200),
        ({"hand": "1234567m139p777z"}, [], 400),
        ({"hand": "1234567m139p777z5x"}, [], 400),
    ],
)
def test_advise_mirrors_the_cli(client: TestClient, body: dict[str, Any], flags: list[str], status: int) -> None:
    response = client.post("/api/advise", json=body)
    code, printed = cli("advise", body["hand"], *flags, "--json")
    assert response.status_code == status, response.text
    assert code == (0 if status == 200 else 2)
    assert response.json() == printed


@pytest.mark.parametrize(
    ("body", "code"),
    [([1], "bad_record"), ({}, "missing_field"), ({"hand": 5}, "bad_field"), ({"hand": "1m", "win": "1m"}, "unknown_field"),
     ({"hand": "1234567m139p777z5m", "melds": "777z"}, "bad_field")],
)
def test_advise_bad_bodies(client: TestClient, body: Any, code: str) -> None:
    response = client.post("/api/advise", json=body)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code
