"""One table of the API (web/table.py), two thin adapters: `mjcalc serve` (Starlette) and a site's
worker (web/pocket.py) route every request through the table's rows and answer a session alike."""

from __future__ import annotations

import ast
import json
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette suggests httpx2; httpx is what the test extra installs
    from starlette.testclient import TestClient

from starlette.routing import Route

from mahjong_calc.web import pocket, table
from mahjong_calc.web.app import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

WEB = Path(__file__).resolve().parent.parent / "mahjong_calc" / "web"
PLAYERS = ["王", "李", "张", "赵"]
WIN = {"winner": "李", "hand": "123456m13m99p555p2m", "self_draw": True}
LOCAL = "http://127.0.0.1:8315"
SERVER_ONLY = {("GET", "/api/games/{game}/events"), ("GET", "/api/games/{game}/join"), ("GET", "/api/season")}


def test_the_server_s_api_routes_are_the_table_s_rows() -> None:
    routes = {(method, r.path) for r in create_app(":memory:").routes if isinstance(r, Route) and r.path.startswith("/api/")
              for method in (r.methods or ()) if method != "HEAD"}
    rows = {(row.method, row.path) for row in table.ROWS if row.serve}
    assert routes - SERVER_ONLY == rows
    assert {(row.method, row.path) for row in table.ROWS if not row.serve} == {("POST", "/api/games/import")}


@pytest.mark.parametrize("module", ["pocket.py", "rows.py", "app.py"])
def test_the_adapters_hold_no_route_of_their_own(module: str) -> None:
    """No adapter matches a path with a pattern or calls the store: the table's rows do."""
    text = (WEB / module).read_text(encoding="utf-8")
    tree = ast.parse(text)
    store_calls = [node.func.attr for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                   and isinstance(node.func.value, ast.Name) and node.func.value.id in ("s", "store")]
    assert store_calls == []
    assert "re.compile(" not in text.replace("re.compile(b", "")  # (rows.py's one pattern finds raw controls in a body)


@pytest.mark.parametrize(("method", "path", "row", "params"), [
    ("GET", "/api/games/7", "/api/games/{game}", {"game": "7"}),
    ("PUT", "/api/games/7/hands/2", "/api/games/{game}/hands/{n}", {"game": "7", "n": "2"}),
    ("POST", "/api/games", "/api/games", {}),
    ("POST", "/api/games/import", "/api/games/import", {}),
])
def test_find_names_the_row_and_the_path_s_parts(method: str, path: str, row: str, params: dict[str, str]) -> None:
    found, got = table.find(method, path, "site")
    assert (found.method, found.path, got) == (method, row, params)


@pytest.mark.parametrize(("method", "path", "home", "code"), [
    ("GET", "/api/nowhere", "site", "not_found"),
    ("PATCH", "/api/games/1", "site", "method_not_allowed"),
    ("GET", "/api/games/x1", "site", "unknown_game"),
    ("POST", "/api/games/import", "serve", "method_not_allowed"),  # as Starlette says: /api/games/{game} is GET only
])
def test_find_refuses_what_no_row_answers(method: str, path: str, home: Any, code: str) -> None:
    with pytest.raises(table.ApiError) as refused:
        table.find(method, path, home)
    assert refused.value.code == code


def _same(text: str, db: Path) -> str:
    """An answer with what differs by nature between two databases blotted: their names, times, tokens."""
    text = text.replace(str(db), "DB")
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", "T", text)
    return re.sub(r'"token": "[^"]+"', '"token": "K"', text)


SESSION: list[tuple[str, str, Any, dict[str, str]]] = [
    ("POST", "/api/games", {"variant": "wuhu315", "players": PLAYERS, "dealer": "王"}, {}),
    ("POST", "/api/games", {"variant": "wuhu315", "players": PLAYERS, "dealer": "王", "colour": 1}, {}),
    ("POST", "/api/games", [1], {}),
    ("POST", "/api/games/1/hands", WIN, {}),
    ("POST", "/api/games/1/hands", {**WIN, "version": 0}, {}),  # stale: 409 with the state
    ("POST", "/api/games/1/hands", {**WIN, "version": "x"}, {}),
    ("POST", "/api/games/1/hands", {"draw": True, "version": 1}, {}),
    ("POST", "/api/games/1/hands", {**WIN, "id": "x" * 65}, {}),
    ("POST", "/api/games/1/hands", [WIN], {}),
    ("PUT", "/api/games/1/hands/1", {**WIN, "winner": "张"}, {}),
    ("PUT", "/api/games/1/hands/9", WIN, {}),
    ("DELETE", "/api/games/1/hands/2", None, {}),
    ("POST", "/api/games/1/undo", None, {}),
    ("POST", "/api/games/1/redo", None, {}),
    ("POST", "/api/games/1/redo", None, {}),
    ("GET", "/api/games/1", None, {}),
    ("GET", "/api/games/1/hands", None, {}),
    ("GET", "/api/games/1/history", None, {}),
    ("GET", "/api/games/1/export", None, {}),
    ("GET", "/api/games/1/export", None, {"format": "csv"}),
    ("GET", "/api/games/1/export", None, {"format": "xml"}),
    ("GET", "/api/games/2", None, {}),
    ("GET", "/api/games", None, {}),
    ("POST", "/api/score", {"hand": "123456m13m99p555p2m", "self_draw": True}, {}),
    ("POST", "/api/waits", {"hand": "123456m13m99p555p"}, {}),
]


def test_a_server_and_a_site_answer_a_session_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site, serve = tmp_path / "site.sqlite3", tmp_path / "serve.sqlite3"
    monkeypatch.setattr(pocket, "DB", str(site))
    monkeypatch.setattr(pocket, "_FOLDS", [])
    server = TestClient(create_app(serve), base_url=LOCAL)
    for method, path, body, query in SESSION:
        answer = server.request(method, path, params=query, content=None if body is None else json.dumps(body, ensure_ascii=False),
                                headers={"content-type": "application/json"} if body is not None else {})
        etag = answer.headers.get("etag")
        status, site_etag, text = pocket.answer(method, path, None if body is None else json.dumps(body, ensure_ascii=False), None, query)
        assert (status, site_etag) == (answer.status_code, etag.strip('"') if etag else None), (method, path, body)
        assert _same(text, site) == _same(answer.text, serve), (method, path, body)
