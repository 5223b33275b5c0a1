"""A lone surrogate (`"\\udcff"` in JSON) in a hand's fields or a player's name, at every door
that writes a game: exit 2 / HTTP 400 `bad_encoding` naming the field, nothing written."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from installed import run_installed

HAND = ["--winner", "B", "--self-draw", "13m456m678m11p555p2m"]
BAD = '"\\udcff"'  # JSON text: a lone surrogate once parsed


def _new(db: Path) -> None:
    done = run_installed(["game", "new", "--db", str(db), "--players", "A,B,C,D"])
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("fields", "named"), [
    (f'{{"id": {BAD}}}', "id"),
    (f'{{"exposed": {{{BAD}: ["666s"]}}}}', "exposed"),
    (f'{{"note": [1, {{"x": {BAD}}}]}}', "note[1].x"),
])
@pytest.mark.parametrize("command", ["add", "edit"])
def test_game_add_and_edit_refuse_a_lone_surrogate(tmp_path: Path, command: str, fields: str, named: str) -> None:
    db = tmp_path / "g.sqlite3"
    _new(db)
    if command == "edit":
        assert run_installed(["game", "add", "--db", str(db), *HAND]).returncode == 0
    where = ["edit", "1"] if command == "edit" else ["add"]
    done = run_installed(["game", *where, "--db", str(db), *HAND, "--fields", fields, "--json"])
    assert done.returncode == 2, done.stderr
    error = json.loads(done.stdout)["error"]
    assert error["code"] == "bad_encoding" and named in error["message"], error
    assert "internal_error" not in done.stderr and len(done.stderr.splitlines()) == 1
    history = run_installed(["game", "history", "--db", str(db), "--json"])
    assert len(json.loads(history.stdout)) == (1 if command == "edit" else 0)  # nothing written


def test_game_new_refuses_a_lone_surrogate_in_a_name(tmp_path: Path) -> None:
    from mahjong_calc.live import Store
    from mahjong_calc.live.store import StoreError

    with Store(tmp_path / "g.sqlite3") as store:
        with pytest.raises(StoreError) as caught:
            store.new_game({"variant": "wuhu315", "players": ["A", "B", "C", "\udcff"], "dealer": "A"})
        assert caught.value.code == "bad_encoding" and "players[3]" in caught.value.message
        assert store.games() == []


pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")


def _client(db: Path) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from mahjong_calc.web.app import create_app

    return TestClient(create_app(db), base_url="http://127.0.0.1:8315", raise_server_exceptions=False)


def _json(text: str) -> dict[str, Any]:
    return {"content": text.encode(), "headers": {"content-type": "application/json"}}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_api_refuses_a_lone_surrogate_naming_the_field(tmp_path: Path) -> None:
    client = _client(tmp_path / "g.sqlite3")
    answer = client.post("/api/games", **_json(f'{{"variant": "wuhu315", "players": ["A", "B", {BAD}, "D"], "dealer": "A"}}'))
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "bad_encoding" and "players[2]" in answer.json()["error"]["message"]
    assert client.get("/api/games").json() == []
    assert client.post("/api/games", json={"variant": "wuhu315", "players": list("ABCD"), "dealer": "A"}).status_code == 201
    hand = '{"winner": "B", "self_draw": true, "hand": "13m456m678m11p555p2m", "id": %s}'
    for method, path in (("POST", "/api/games/1/hands"), ("PUT", "/api/games/1/hands/1")):
        if method == "PUT":
            assert client.post("/api/games/1/hands", **_json(hand % '"ok"')).status_code == 200
        answer = client.request(method, path, **_json(hand % BAD))
        assert answer.status_code == 400, (method, answer.text)
        error = answer.json()["error"]
        assert error["code"] == "bad_encoding" and "id" in error["message"], error
    assert client.get("/api/games/1/hands").json() == [{"winner": "B", "self_draw": True, "hand": "13m456m678m11p555p2m", "id": "ok"}]
