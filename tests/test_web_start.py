"""A game begun from a phone: on a server open to the network `POST /api/games` needs no token
and answers the new game's token, every other request about a game needs it, beginning games
is bounded (429 `too_many_games` with `Retry-After`), the join answer says whether another
device can open the link (no QR of a loopback address), and `serve` prints the link that
begins a game."""

from __future__ import annotations

import subprocess
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from test_web_api import LOCAL, PLAYERS, WIN, assert_error

from mahjong_calc.core.errors import MESSAGES
from mahjong_calc.web.app import create_app
from mahjong_calc.web.starts import HOUR, MINUTE, StartLimits, Starts

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LAN = "http://192.168.1.20:8315"
GAME = {"variant": "wuhu315", "players": PLAYERS, "dealer": "王"}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


def phone(app: Any, address: str = "192.168.1.31") -> TestClient:
    return TestClient(app, base_url=LAN, raise_server_exceptions=False, client=(address, 50000))


def test_a_phone_without_a_token_begins_a_game_and_only_its_token_opens_it(db: Path) -> None:
    app = create_app(db, tokens=True, public=f"{LAN}/")
    a, stranger = phone(app), phone(app, "192.168.1.66")
    made = a.post("/api/games", json=GAME, headers={"origin": LAN})
    assert made.status_code == 201, made.text
    game = made.json()
    assert set(game) == {"id", "token"} and len(game["token"]) >= 16
    gid, token = game["id"], game["token"]
    own = {"x-mjcalc-token": token}
    assert a.get(f"/api/games/{gid}", headers=own).json()["players"] == PLAYERS
    assert [g["id"] for g in a.get("/api/games", headers=own).json()] == [gid]
    join = a.get(f"/api/games/{gid}/join", headers=own).json()
    assert join["url"] == f"{LAN}/?game={gid}&token={token}" and join["shared"] is True
    assert join["svg"].startswith("<svg")

    # without the token: nothing of the game is read or changed
    hand = {"winner": "李", "discarder": "王", "hand": WIN}
    for method, path, body in [("GET", f"/api/games/{gid}", None), ("GET", f"/api/games/{gid}/hands", None),
                               ("GET", f"/api/games/{gid}/history", None), ("GET", f"/api/games/{gid}/export", None),
                               ("GET", f"/api/games/{gid}/join", None), ("GET", f"/api/games/{gid}/events", None),
                               ("POST", f"/api/games/{gid}/hands", hand), ("PUT", f"/api/games/{gid}/hands/1", hand),
                               ("DELETE", f"/api/games/{gid}/hands/1", None), ("POST", f"/api/games/{gid}/undo", None),
                               ("POST", f"/api/games/{gid}/redo", None), ("GET", "/api/season", None)]:
        assert_error(stranger.request(method, path, json=body), 401, "missing_token")
    assert stranger.get("/api/games").json() == []  # the list shows a phone without a token no game
    # another phone's own new game does not open this one
    theirs = stranger.post("/api/games", json=GAME).json()
    assert_error(stranger.get(f"/api/games/{gid}", params={"token": theirs["token"]}), 403, "bad_token")
    assert [g["id"] for g in stranger.get("/api/games", params={"token": theirs["token"]}).json()] == [theirs["id"]]
    assert a.get(f"/api/games/{gid}/history", headers=own).json() == []  # nothing was written


def test_a_new_game_from_another_page_is_still_refused(db: Path) -> None:
    app = create_app(db, tokens=True, public=f"{LAN}/")
    assert_error(phone(app).post("/api/games", json=GAME, headers={"origin": "http://evil.example"}), 403, "bad_origin")
    assert_error(phone(app).post("/api/games", content=b"{}", headers={"content-type": "text/plain"}), 415, "bad_content_type")


def test_games_per_phone_a_minute_are_bounded_with_retry_after(db: Path) -> None:
    app = create_app(db, tokens=True, starts=StartLimits(per_client=2, total=100))
    a, b = phone(app), phone(app, "192.168.1.32")
    for _ in range(2):
        assert a.post("/api/games", json=GAME).status_code == 201
    refused = a.post("/api/games", json=GAME)
    assert_error(refused, 429, "too_many_games")
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert "2 games in the last minute" in refused.json()["error"]["message"]
    assert b.post("/api/games", json=GAME).status_code == 201  # another phone is not held back
    listed = TestClient(create_app(db), base_url=LOCAL).get("/api/games").json()
    assert len(listed) == 3  # the refused one was not written


def test_games_in_all_an_hour_are_bounded(db: Path) -> None:
    app = create_app(db, tokens=True, starts=StartLimits(per_client=10, total=3))
    made = [phone(app, f"192.168.1.{40 + i}").post("/api/games", json=GAME).status_code for i in range(4)]
    assert made == [201, 201, 201, 429]
    refused = phone(app, "192.168.1.99").post("/api/games", json=GAME)
    assert_error(refused, 429, "too_many_games")
    assert 60 < int(refused.headers["retry-after"]) <= 3600
    assert "`mjcalc game new`" in refused.json()["error"]["message"]


def test_a_refused_game_counts_nothing(db: Path) -> None:
    app = create_app(db, tokens=True, starts=StartLimits(per_client=1, total=100))
    a = phone(app)
    assert_error(a.post("/api/games", json={**GAME, "players": ["王", "王", "张", "赵"]}), 400)
    assert a.post("/api/games", json=GAME).status_code == 201


@pytest.mark.parametrize(("name", "said"), [
    ("王\x1b[2J", "U+001B"),  # an escape would drive serve's terminal and `game list`
    ("王\u202e李", "U+202E"),  # a bidi override turns a name around on every screen
    ("王\n李", "U+000A"),
    ("王" * 33, "at most 32"),  # a name is a line, not a megabyte a tokenless phone may store
])
def test_a_name_is_a_short_line_of_text(db: Path, name: str, said: str) -> None:
    app = create_app(db, tokens=True, starts=StartLimits(per_client=10, total=100))
    refused = phone(app).post("/api/games", json={**GAME, "players": [name, "李", "张", "赵"], "dealer": "李"})
    assert_error(refused, 400, "bad_game")
    assert said in refused.json()["error"]["message"]
    assert phone(app).post("/api/games", json={**GAME, "players": ["王" * 32, "李", "张", "赵"], "dealer": "李"}).status_code == 201


def test_the_windows_free_as_time_goes_by() -> None:
    now = [1000.0]
    starts = Starts(StartLimits(per_client=2, total=3), clock=lambda: now[0])
    starts.admit("a")
    now[0] += 30
    starts.admit("a")
    with pytest.raises(Exception) as refused:
        starts.admit("a")
    assert getattr(refused.value, "headers", {})["retry-after"] == "30"  # the first leaves the minute in 30 s
    now[0] += 30
    starts.admit("a")  # the first has left the minute
    with pytest.raises(Exception) as all_taken:
        starts.admit("b")
    assert getattr(all_taken.value, "headers", {})["retry-after"] == str(int(HOUR - MINUTE))
    now[0] += HOUR
    starts.admit("b")
    assert set(starts.by_client) == {"b"}  # a client with nothing in the minute is forgotten


def test_on_loopback_beginning_games_is_not_counted(db: Path) -> None:
    client = TestClient(create_app(db, starts=StartLimits(per_client=1, total=1)), base_url=LOCAL)
    assert [client.post("/api/games", json=GAME).status_code for _ in range(3)] == [201] * 3


def test_on_loopback_the_join_answer_has_no_qr(db: Path) -> None:
    client = TestClient(create_app(db), base_url=LOCAL)
    gid = client.post("/api/games", json=GAME).json()["id"]
    join = client.get(f"/api/games/{gid}/join").json()
    assert join == {"game": gid, "url": f"{LOCAL}/?game={gid}", "shared": False, "svg": None}


def test_too_many_games_is_in_the_catalogue() -> None:
    zh, en = MESSAGES["too_many_games"]
    assert en == "too many games were begun lately: try again later" and zh != en and "牌局" in zh


def test_serve_on_the_network_prints_the_link_that_begins_a_game(db: Path) -> None:
    from installed import free_port, popen_installed, run_installed, stop, wait_until_serving

    pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install '.[web]')")
    run_installed(["game", "new", "--players", ",".join(PLAYERS), "--db", str(db), "--json"])
    port = free_port()
    proc = popen_installed(["serve", "--host", "0.0.0.0", "--port", str(port), "--db", str(db)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_until_serving(proc, port)  # /api/variants answers without a token now
        assert proc.stdout is not None
        lines = [proc.stdout.readline().decode().strip() for _ in range(3)]
        assert lines[0].startswith("mjcalc: serving ")
        base = lines[0].split(" on ", 1)[1].split()[0]
        assert base.startswith("http://") and "127.0.0.1" not in base and base.endswith(f":{port}/")
        assert lines[1].startswith("game 1 (") and "&token=" in lines[1]
        assert lines[2] == f"mjcalc: begin a game on any phone of this network: {base}?new=1  (each game's link then shows here)"
    finally:
        stop(proc, timeout=10)


def test_serve_on_loopback_prints_what_it_printed(db: Path) -> None:
    from installed import free_port, popen_installed, stop, wait_until_serving

    pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install '.[web]')")
    port = free_port()
    proc = popen_installed(["serve", "--port", str(port), "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_until_serving(proc, port)
    finally:
        stop(proc, timeout=10)
    out = proc.stdout.read().decode() if proc.stdout is not None else ""
    assert out == f"mjcalc: serving {db} on http://127.0.0.1:{port}/  (Ctrl-C stops)\n"


@pytest.mark.slow
def test_a_change_event_names_the_player_the_phone_named(db: Path) -> None:
    """`X-Mjcalc-Player` (percent-encoded): the change's event carries `by` when it is one of the
    game's players, and nothing otherwise; a change by the CLI has no `by`."""
    import json
    import urllib.request
    from urllib.parse import quote

    from installed import free_port, popen_installed, run_installed, stop, wait_until_serving

    pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install '.[web]')")
    port = free_port()
    proc = popen_installed(["serve", "--port", str(port), "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_until_serving(proc, port)
        base = f"http://127.0.0.1:{port}"
        gid = json.loads(run_installed(["game", "new", "--players", ",".join(PLAYERS), "--db", str(db), "--json"]).stdout)["id"]
        with urllib.request.urlopen(f"{base}/api/games/{gid}/events", timeout=30) as stream:
            def events() -> Any:
                for raw in stream:
                    line = raw.decode().rstrip("\n")
                    if line.startswith("data: "):
                        yield json.loads(line[6:])

            seen = events()
            assert next(seen) == {"game": gid, "version": 0}
            for who in ("李", "nobody", "%FF"):
                name = quote(who) if who != "%FF" else who  # not UTF-8 once decoded: ignored
                sent = urllib.request.Request(f"{base}/api/games/{gid}/hands", data=b'{"draw": true}', method="POST",
                                              headers={"content-type": "application/json", "x-mjcalc-player": name})
                with urllib.request.urlopen(sent, timeout=30) as answer:
                    assert answer.status == 200
            assert run_installed(["game", "add", str(gid), "--draw", "--db", str(db)]).returncode == 0
            assert [next(seen) for _ in range(4)] == [{"game": gid, "version": 1, "by": "李"}] + [
                {"game": gid, "version": v} for v in (2, 3, 4)]
    finally:
        stop(proc, timeout=10)


@pytest.mark.parametrize(("host", "status"), [("192.168.1.20:8315", 201), ("[fe80::1]:8315", 201), ("laptop:8315", 201),
                                              ("laptop.local:8315", 201), ("evil.example:8315", 403), ("evil.example", 403),
                                              ("a b", 403)])
def test_without_a_token_only_a_local_name_begins_a_game(db: Path, host: str, status: int) -> None:
    """A page elsewhere that rebinds its own name to this server sends its name as Host and as
    Origin (so the origin check passes): a token-free request must name the server as the local
    network does."""
    client = phone(create_app(db, tokens=True))
    origin = {"origin": f"http://{host}"} if " " not in host else {}  # `a b`: as curl would send it
    answer = client.post("/api/games", json=GAME, headers={"host": host, **origin})
    if status == 201:
        assert answer.status_code == 201, answer.text
    else:
        assert_error(answer, 403, "bad_host")
        assert_error(client.get("/api/variants", headers={"host": host}), 403, "bad_host")
