"""The JSON API of `mjcalc serve`: every endpoint answers what the matching CLI
command prints, and every bad request is a 4xx with a JSON error in the CLI's shape."""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette suggests httpx2; httpx is what the test extra installs
    from starlette.testclient import TestClient

from mahjong_calc.cli.app import app
from mahjong_calc.web import is_loopback
from mahjong_calc.web.app import MAX_BODY, create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PLAYERS = ["王", "李", "张", "赵"]
WIN = "123456m13m99p555p2m"
LOCAL = "http://127.0.0.1:8315"  # a loopback server answers only requests for a loopback host


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db: Path) -> TestClient:
    return TestClient(create_app(db), base_url=LOCAL, raise_server_exceptions=False)


def cli(*args: str) -> tuple[int, Any]:
    done = CliRunner().invoke(app, list(args))
    return done.exit_code, json.loads(done.stdout)


def assert_error(response: Any, status: int, code: str | None = None) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert body["valid"] is False
    error = body.get("error") or body.get("reason")
    assert set(error) >= {"code", "message"}
    if code is not None:
        assert error["code"] == code
    assert "Traceback" not in response.text


# --- /api/score: exactly `mjcalc score --json` ------------------------------------------------

SCORE_CASES = [
    ({"hand": WIN, "self_draw": True}, ["--self-draw"], 200, 0),
    ({"hand": WIN, "discarder": "next", "variant": "wuhu525"}, ["--discarder", "next", "--variant", "wuhu525"], 200, 0),
    ({"hand": "123m456m99m789p", "melds": ["1111s"], "after_kong": True}, ["-m", "1111s", "--after-kong"], 200, 0),
    ({"hand": "123456m13m99p556p2m"}, [], 422, 1),
    ({"hand": "12x"}, [], 400, 2),
    ({"hand": WIN, "variant": "nowhere"}, ["--variant", "nowhere"], 400, 2),
]


@pytest.mark.parametrize(("record", "flags", "status", "exit_code"), SCORE_CASES)
def test_score_mirrors_the_cli(client: TestClient, record: dict, flags: list[str], status: int, exit_code: int) -> None:  # type: ignore[type-arg]
    response = client.post("/api/score", json=record)
    assert response.status_code == status
    code, printed = cli("score", record["hand"], *flags, "--json")
    assert code == exit_code
    assert response.json() == printed


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ([WIN], "bad_record"),
        ("123m", "bad_record"),
        ({"hand": WIN, "self_draw": 3}, "bad_field"),
        ({"hand": 5}, "bad_field"),
        ({"self_draw": True}, "missing_field"),
        ({"hand": WIN, "selfdraw": True}, "unknown_field"),
        ({"hand": WIN, "piao": 1}, "flag_not_in_variant"),
    ],
)
def test_score_bad_records(client: TestClient, body: Any, code: str) -> None:
    assert_error(client.post("/api/score", json=body), 400, code)


JSON = {"content-type": "application/json"}


def test_bodies_that_are_not_json_or_too_big(client: TestClient) -> None:
    assert_error(client.post("/api/score", content=b"{not json", headers=JSON), 400, "bad_json")
    assert_error(client.post("/api/score", content=b"\xff\xfe", headers=JSON), 400, "bad_json")
    assert_error(client.post("/api/score", content=b"[" * 100_000, headers=JSON), 400, "bad_json")
    big = json.dumps({"hand": WIN, "id": "x" * MAX_BODY}).encode()
    assert_error(client.post("/api/score", content=big, headers=JSON), 413, "body_too_large")

    def chunks():  # type: ignore[no-untyped-def]  # no content-length: the limit holds while reading
        for _ in range(20):
            yield b" " * 100_000

    assert_error(client.post("/api/score", content=chunks(), headers=JSON), 413, "body_too_large")


@pytest.mark.parametrize(
    ("content_type", "status"),
    [
        ("application/json", 200),
        ("application/json; charset=utf-8", 200),
        ("Application/JSON", 200),
        (None, 415),
        ("text/plain", 415),
        ("text/plain; application/json", 415),
        ("application/x-www-form-urlencoded", 415),
        ("multipart/form-data; boundary=x", 415),
        ("application/jsonx", 415),
    ],
)
def test_json_bodies_must_say_so(client: TestClient, content_type: str | None, status: int) -> None:
    """A form or a `no-cors` fetch can only send text/plain, form or multipart bodies: none is JSON here."""
    headers = {} if content_type is None else {"content-type": content_type}
    body = json.dumps({"hand": WIN, "self_draw": True})
    response = client.post("/api/score", content=body, headers=headers)
    if status == 200:
        assert response.status_code == 200, response.text
    else:
        assert_error(response, 415, "bad_content_type")


def test_unknown_routes_and_methods(client: TestClient) -> None:
    assert_error(client.get("/api/nothing"), 404, "not_found")
    assert_error(client.get("/api/score"), 405, "method_not_allowed")
    assert_error(client.delete("/api/games"), 405, "method_not_allowed")


# --- /api/waits: exactly `mjcalc waits --json` ------------------------------------------------


@pytest.mark.parametrize(
    ("record", "flags", "status", "exit_code"),
    [
        ({"hand": "123456m13m99p555p"}, [], 200, 0),
        ({"hand": "123456m13m99p555p", "discarder": "next"}, ["--discarder", "next"], 200, 0),
        ({"hand": "1234567m1p3s5s7z9z9z"}, [], 400, 2),
    ],
)
def test_waits_mirrors_the_cli(client: TestClient, record: dict, flags: list[str], status: int, exit_code: int) -> None:  # type: ignore[type-arg]
    response = client.post("/api/waits", json=record)
    code, printed = cli("waits", record["hand"], *flags, "--json")
    assert (response.status_code, code) == (status, exit_code), response.text
    assert response.json() == printed


def test_waits_that_cannot_win_are_422(client: TestClient) -> None:
    hand = "1234m5678p9s1357z"
    response = client.post("/api/waits", json={"hand": hand, "variant": "chizhou"})
    code, printed = cli("waits", hand, "--variant", "chizhou", "--json")
    assert code == 1 and response.status_code == 422
    assert response.json() == printed and "reason" in printed


@pytest.mark.parametrize("body", [{"hand": "123456m13m99p555p", "win": "2m"}, {"hand": "123456m13m99p555p", "self_draw": True}, [1], {"hand": None}])
def test_waits_bad_bodies(client: TestClient, body: Any) -> None:
    assert_error(client.post("/api/waits", json=body), 400)


def test_variants_have_their_tiles(client: TestClient) -> None:
    rows = {v["name"]: v for v in client.get("/api/variants").json()}
    _, printed = cli("variants", "--json")
    assert set(rows) == {v["name"] for v in printed}
    assert [t["tile"] for t in rows["wuhu315"]["tiles"]][-1] == "7z"  # 红中, the only honour
    assert len(rows["chizhou"]["tiles"]) == 34 and rows["chizhou"]["chow_melds"] is True
    flags = {name: [f["name"] for f in v["flags"]] for name, v in rows.items()}
    assert "wild" in flags["pujiang"] and "piao" in flags["pujiang"] and "wild" not in flags["wuhu315"]
    assert "heavenly" in flags["wuhu315"] and "heavenly" not in flags["chizhou"]
    assert not {"self_draw", "dealer", "dealer_seat", "discarder"} & {f for names in flags.values() for f in names}


def test_the_page_names_each_flag_as_flags_py_declares_it(client: TestClient) -> None:
    from mahjong_calc.core.flags import by_name

    shown = {f["name"]: f["label"] for v in client.get("/api/variants").json() for f in v["flags"]}
    assert shown["heavenly"] == {"zh": "天胡", "en": "Heavenly"}  # its `short` words
    for name, label in shown.items():
        field = by_name()[name]
        assert label == dict(zip(("zh", "en"), field.short or (field.zh, field.en))), name


# --- /api/games: the game commands ----------------------------------------------------------


def new_game(client: TestClient, **extra: Any) -> dict:  # type: ignore[type-arg]
    response = client.post("/api/games", json={"variant": "wuhu315", "players": PLAYERS, "dealer": "王", **extra})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def test_a_game_through_the_api_matches_the_cli(client: TestClient, db: Path, tmp_path: Path) -> None:
    game = new_game(client)
    gid = game["id"]
    hands = [{"winner": "李", "discarder": "王", "hand": WIN}, {"draw": True}, {"winner": "张", "hand": WIN, "self_draw": True}]
    for hand in hands:
        response = client.post(f"/api/games/{gid}/hands", json=hand)
        assert response.status_code == 200, response.text
    state = client.get(f"/api/games/{gid}").json()
    assert response.json() == state
    assert cli("game", "show", str(gid), "--db", str(db), "--json") == (0, state)

    export = client.get(f"/api/games/{gid}/export")
    assert export.status_code == 200 and export.headers["content-type"].startswith("application/yaml")
    path = tmp_path / "game.yaml"
    path.write_text(export.text, encoding="utf-8")
    code, settled = cli("game", "settle", str(path), "--json")
    assert code == 0 and settled == state and settled["totals"] == state["totals"]

    listed = client.get("/api/games").json()
    assert listed == cli("game", "list", "--db", str(db), "--json")[1]
    assert listed[0]["hands"] == 3

    undone = client.post(f"/api/games/{gid}/undo")
    assert undone.status_code == 200 and len(undone.json()["hands"]) == 2
    history = client.get(f"/api/games/{gid}/history").json()
    assert [e["kind"] for e in history] == ["hand", "hand", "hand", "undo"]
    assert history[2]["hand"] == hands[2] and history[3]["undoes"] == 3


def test_refused_hands_write_nothing(client: TestClient) -> None:
    gid = new_game(client)["id"]
    assert_error(client.post(f"/api/games/{gid}/hands", json={"winner": "李", "discarder": "王", "hand": "123456m13m99p556p2m"}), 422, "not_a_winning_hand")
    assert_error(client.post(f"/api/games/{gid}/hands", json={"winner": "钱", "hand": WIN, "self_draw": True}), 400, "unknown_player")
    assert_error(client.post(f"/api/games/{gid}/hands", json={"winner": "李", "hand": WIN, "self_draw": "yes"}), 400, "bad_field")
    assert_error(client.post(f"/api/games/{gid}/hands", json=["winner"]), 400, "bad_record")
    assert_error(client.post(f"/api/games/{gid}/hands", json={"winner": "李", "hand": WIN, "colour": 1}), 400, "unknown_field")
    assert_error(client.post(f"/api/games/{gid}/undo"), 409, "nothing_to_undo")
    assert client.get(f"/api/games/{gid}").json()["hands"] == []
    assert client.get(f"/api/games/{gid}/history").json() == []


@pytest.mark.parametrize(
    "body",
    [
        {"variant": "wuhu315", "players": PLAYERS[:3], "dealer": "王"},
        {"variant": "wuhu315", "players": "王李张赵", "dealer": "王"},
        {"variant": "wuhu315", "players": PLAYERS, "dealer": "钱"},
        {"variant": 315, "players": PLAYERS, "dealer": "王"},
        {"variant": "nowhere", "players": PLAYERS, "dealer": "王"},
        {"variant": "wuhu315", "players": PLAYERS, "dealer": "王", "chips": "many"},
        {"variant": "wuhu315", "players": PLAYERS, "dealer": "王", "rules": "/etc/passwd"},
        [1, 2],
    ],
)
def test_bad_new_games(client: TestClient, body: Any) -> None:
    assert_error(client.post("/api/games", json=body), 400)
    assert client.get("/api/games").json() == []


@pytest.mark.parametrize("path", ["/api/games/99", "/api/games/abc", "/api/games/99/export", "/api/games/99/history"])
def test_unknown_game(client: TestClient, path: str) -> None:
    new_game(client)
    assert_error(client.get(path), 404, "unknown_game")


def test_unknown_game_on_writes(client: TestClient) -> None:
    assert_error(client.post("/api/games/5/hands", json={"draw": True}), 404, "unknown_game")
    assert_error(client.post("/api/games/5/undo"), 404, "unknown_game")


# --- tokens, when the server is open to the network -----------------------------------------


def test_tokens_guard_every_route(db: Path) -> None:
    local = TestClient(create_app(db), base_url=LOCAL)
    one, two = new_game(local), new_game(local)
    remote = TestClient(create_app(db, tokens=True), raise_server_exceptions=False)
    hand = {"winner": "李", "discarder": "王", "hand": WIN}
    for method, path, body in [
        ("GET", f"/api/games/{one['id']}", None),
        ("POST", f"/api/games/{one['id']}/hands", hand),
        ("POST", f"/api/games/{one['id']}/undo", None),
        ("GET", f"/api/games/{one['id']}/export", None),
        ("GET", f"/api/games/{one['id']}/join", None),
        ("GET", f"/api/games/{one['id']}/events", None),
        ("POST", "/api/score", {"hand": WIN}),
        ("POST", "/api/waits", {"hand": "123456m13m99p555p"}),
        ("GET", "/api/season", None),
    ]:
        assert_error(remote.request(method, path, json=body), 401, "missing_token")
        assert_error(remote.request(method, path, json=body, params={"token": "wrong"}), 403, "bad_token")
    # what a phone needs to begin a game answers without a token, and shows no game
    assert remote.get("/api/games").json() == []
    assert_error(remote.get("/api/games", params={"token": "wrong"}), 403, "bad_token")
    assert remote.get("/api/variants").status_code == remote.get("/api/messages").status_code == 200
    # a game's token opens that game, not another one
    assert remote.get(f"/api/games/{one['id']}", params={"token": one["token"]}).status_code == 200
    assert remote.get(f"/api/games/{one['id']}", headers={"x-mjcalc-token": one["token"]}).status_code == 200
    assert_error(remote.get(f"/api/games/{two['id']}", params={"token": one["token"]}), 403, "bad_token")
    added = remote.post(f"/api/games/{one['id']}/hands", json=hand, headers={"x-mjcalc-token": one["token"]})
    assert added.status_code == 200
    # the list shows only the games the token opens; the page itself needs no token
    assert [g["id"] for g in remote.get("/api/games", params={"token": two["token"]}).json()] == [two["id"]]
    assert remote.get("/").status_code == 200
    assert remote.get("/static/main.js").status_code == 200


@pytest.mark.parametrize("stored", [None, "", " ", "None", "short", 7], ids=["null", "empty", "blank", "None", "short", "integer"])
def test_a_game_without_a_valid_token_opens_for_no_token(db: Path, stored: Any) -> None:
    """A damaged or hand-made row: its token is NULL, empty or not one `mjcalc` makes; no request opens it."""
    import sqlite3

    local = TestClient(create_app(db), base_url=LOCAL)
    game, other = new_game(local), new_game(local)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE games SET token = ? WHERE id = ?", (stored, game["id"]))
    remote = TestClient(create_app(db, tokens=True), raise_server_exceptions=False)
    path = f"/api/games/{game['id']}"
    assert_error(remote.get(path), 401, "missing_token")
    for given in ("None", "", " ", "short", "7", "null", other["token"]):
        answer = remote.get(path, params={"token": given})
        assert answer.status_code in (401, 403), (given, answer.text)
        listed = remote.get("/api/games", params={"token": given})
        assert listed.status_code in (200, 401, 403), (given, listed.text)
        if listed.status_code == 200:
            assert game["id"] not in [g["id"] for g in listed.json()]
    assert remote.get(f"/api/games/{other['id']}", params={"token": other["token"]}).status_code == 200
    served = CliRunner().invoke(app, ["game", "list", "--db", str(db)])
    assert served.exit_code == 0


def test_the_page_is_served_offline(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    from mahjong_calc.web.app import STATIC

    assets = ["/static/app.css", *(f"/static/{p.name}" for p in sorted(STATIC.glob("*.js")))]  # the page's modules
    assert "/static/main.js" in assets
    for asset in assets:
        assert client.get(asset).status_code == 200
    text = page.text + "".join(client.get(asset).text for asset in assets)
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text  # no CDN


def test_both_pages_are_whole_documents_under_the_one_head(client: TestClient) -> None:
    """`/` and `/season` are web/pages.py's head over their bodies: the same head but for where each finds
    its stylesheet, which is served."""
    heads = []
    for path, css, served in (("/", "static/app.css", "/static/app.css"), ("/season", "/static/app.css", "/static/app.css")):
        head, body = client.get(path).text.split("</head>\n", 1)
        assert head.startswith('<!doctype html>\n<html lang="zh">\n<head>\n<meta charset="utf-8">') and f'href="{css}"' in head
        assert body.startswith("<body>\n") and body.endswith("</body>\n</html>\n") and "<head>" not in body
        assert client.get(served).status_code == 200
        heads.append(head.replace(css, "CSS"))
    assert heads[0] == heads[1]


@pytest.mark.parametrize(
    ("host", "answered"),
    [
        ("127.0.0.1:8315", True),
        ("localhost:8315", True),
        ("LocalHost:8315", True),
        ("[::1]:8315", True),
        ("[0:0:0:0:0:0:0:1]:8315", True),
        ("127.0.0.2:8315", True),
        ("evil.example:8315", False),
        ("192.168.1.5", False),
        ("", False),
        # strictly a host (a name, IPv4 or [IPv6]) and, if any, a port of digits that is this server's
        ("127.0.0.1:8315@evil.example", False),
        ("127.0.0.1@evil.example:8315", False),
        ("[::1", False),
        ("[::1]x:8315", False),
        ("::1", False),
        ("[::1]:8315]", False),
        ("127.0.0.1:abc", False),
        ("127.0.0.1:", False),
        ("127.0.0.1:+8315", False),
        ("127.0.0.1:8315:8315", False),
        ("127.0.0.1: 8315", False),
        (" 127.0.0.1:8315", False),
        ("127.0.0.1:8315/", False),
        ("127.0.0.1:8315\n", False),
        ("127.0.0.1:99999", False),
        ("localhost:1", False),  # another port
        ("localhost", False),  # no port: 80, not this server's
        ("localhost.evil.example:8315", False),
        ("[v1.x]:8315", False),
        ("[fe80::1%25lo]:8315", False),
    ],
)
def test_a_loopback_server_answers_loopback_hosts_only(db: Path, host: str, answered: bool) -> None:
    """A page elsewhere cannot reach a loopback server through DNS rebinding: its Host header gives it away."""
    client = TestClient(create_app(db), base_url=LOCAL, raise_server_exceptions=False)
    response = client.post("/api/score", json={"hand": WIN}, headers={"host": host})
    if answered:
        assert response.status_code == 200
    else:
        assert_error(response, 403, "bad_host")


def test_a_loopback_server_on_port_80_takes_a_host_without_port(db: Path) -> None:
    client = TestClient(create_app(db), base_url="http://127.0.0.1", raise_server_exceptions=False)
    for host in ("localhost", "127.0.0.1", "127.0.0.1:80"):
        assert client.post("/api/score", json={"hand": WIN}, headers={"host": host}).status_code == 200
    assert_error(client.post("/api/score", json={"hand": WIN}, headers={"host": "127.0.0.1:8315"}), 403, "bad_host")


# --- writes come from the server's own page only --------------------------------------------

ORIGIN_CASES = [
    # (Origin, Referer, answered): neither header (curl, scripts) is let through
    (LOCAL, None, True),
    ("http://127.0.0.1:8315/", None, True),
    ("HTTP://127.0.0.1:8315", None, True),
    (None, f"{LOCAL}/?game=1&token=x", True),
    (None, None, True),
    (LOCAL, "http://evil.example/", True),  # Origin decides when there is one
    ("http://127.0.0.1:8316", None, False),  # another port is another origin
    ("http://localhost:8315", None, False),  # another name is another origin
    ("https://127.0.0.1:8315", None, False),
    ("http://evil.example", None, False),
    ("http://evil.example", LOCAL + "/", False),
    ("null", None, False),  # a sandboxed frame, a data: URL, a file
    ("", None, False),
    ("http://127.0.0.1:8315@evil.example", None, False),
    ("http://user@127.0.0.1:8315", None, False),
    (None, "http://evil.example/page", False),
    (None, "http://127.0.0.1:9999/", False),
    (None, "about:blank", False),
    (None, "", False),
]


@pytest.mark.parametrize(("origin", "referer", "answered"), ORIGIN_CASES)
def test_writes_come_from_the_servers_own_origin(client: TestClient, origin: str | None, referer: str | None, answered: bool) -> None:
    gid = new_game(client)["id"]
    assert client.post(f"/api/games/{gid}/hands", json={"draw": True}).status_code == 200
    headers = {k: v for k, v in (("origin", origin), ("referer", referer)) if v is not None}
    hand = {"winner": "李", "discarder": "王", "hand": WIN}
    writes = [
        ("/api/games", {"variant": "wuhu315", "players": PLAYERS, "dealer": "王"}, 201),
        (f"/api/games/{gid}/hands", hand, 200),
        (f"/api/games/{gid}/undo", None, 200),
        ("/api/score", {"hand": WIN, "self_draw": True}, 200),
        ("/api/waits", {"hand": "123456m13m99p555p"}, 200),
    ]
    for path, body, status in writes:
        response = client.post(path, json=body, headers=headers)
        if answered:
            assert response.status_code == status, response.text
        else:
            assert_error(response, 403, "bad_origin")
    if not answered:  # nothing was written
        assert [g["id"] for g in client.get("/api/games", headers=headers).json()] == [gid]
        assert [e["kind"] for e in client.get(f"/api/games/{gid}/history", headers=headers).json()] == ["hand"]


def test_reads_from_elsewhere_are_answered(client: TestClient) -> None:
    """A read changes nothing (and a page elsewhere cannot read the answer without CORS)."""
    gid = new_game(client)["id"]
    assert client.get(f"/api/games/{gid}", headers={"origin": "http://evil.example"}).status_code == 200


def test_origin_is_checked_with_tokens_too(db: Path) -> None:
    game = new_game(TestClient(create_app(db), base_url=LOCAL))
    remote = TestClient(create_app(db, tokens=True), base_url="http://192.168.1.20:8315", raise_server_exceptions=False)
    url, auth = f"/api/games/{game['id']}/hands", {"x-mjcalc-token": game["token"]}
    assert_error(remote.post(url, json={"draw": True}, headers={**auth, "origin": "http://evil.example"}), 403, "bad_origin")
    assert remote.post(url, json={"draw": True}, headers={**auth, "origin": "http://192.168.1.20:8315"}).status_code == 200


@pytest.mark.parametrize(("host", "loopback"), [("127.0.0.1", True), ("localhost", True), ("::1", True), ("[::1]", True),
                                                ("127.0.0.2", True), ("0.0.0.0", False), ("192.168.1.5", False), ("::", False)])
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_serve_without_the_extra_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if the web extra were not installed
    done = CliRunner().invoke(app, ["serve", "--port", "1"])
    assert done.exit_code == 2
    assert "pip install 'mjcalc[web]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_serve_on_the_network_prints_each_games_link(db: Path) -> None:
    """`mjcalc serve --host 0.0.0.0`: a link with each game's token; no token, no answer."""
    import re
    import subprocess
    import time
    import urllib.error
    import urllib.request

    from installed import free_port, popen_installed

    pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install '.[web]')")
    local = TestClient(create_app(db), base_url=LOCAL)
    game = new_game(local)
    port = free_port("0.0.0.0")
    proc = popen_installed(["serve", "--host", "0.0.0.0", "--port", str(port), "--db", str(db)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline(), proc.stdout.readline()]
        link = re.search(r"(http://\S+/)\?game=(\d+)&token=(\S+)", lines[1])
        assert link is not None, lines
        assert (int(link.group(2)), link.group(3)) == (game["id"], game["token"])
        url = f"http://127.0.0.1:{port}/api/games/{game['id']}"
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(url, timeout=2)
                pytest.fail("a request without a token was answered")
            except urllib.error.HTTPError as refused:
                assert refused.code == 401
                assert json.loads(refused.read())["error"]["code"] == "missing_token"
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "mjcalc serve did not start"
                time.sleep(0.1)
        with urllib.request.urlopen(f"{url}?token={game['token']}", timeout=5) as answer:
            assert json.loads(answer.read())["players"] == PLAYERS
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_serve_on_a_taken_port_is_one_line(db: Path) -> None:
    import socket

    from installed import run_installed

    pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install '.[web]')")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        done = run_installed(["serve", "--port", str(taken.getsockname()[1]), "--db", str(db)], timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("mjcalc: error [cannot_listen]: cannot listen on 127.0.0.1 port")
    assert len(done.stderr.splitlines()) == 1
