"""The bounds of live games, each at its edge and one past it: a hand's id and size, a game's hands
and events, the database's size, the games a client begins; each refusal has its own code and
writes nothing. Through the store, the CLI and the API."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.core.errors import MjcalcError
from mahjong_calc.live import Store
from mahjong_calc.live.limits import MAX_EVENTS, MAX_HANDS, MAX_RECORD, StoreLimits, db_size

PLAYERS = ["王", "李", "张", "赵"]
HEADER = {"variant": "wuhu315", "players": PLAYERS, "dealer": "王", "chips": 0}
WIN = {"winner": "李", "hand": "123456m13m99p555p2m", "self_draw": True}


def refused(act: Any) -> MjcalcError:
    with pytest.raises(MjcalcError) as caught:
        act()
    return caught.value


def game(path: Path, limits: StoreLimits | None = None) -> Store:
    store = Store(path, limits=limits)
    store.new_game(HEADER)
    return store


ID_CASES = [
    ("x" * 64, None),
    ("王" * 64, None),
    ("x" * 65, "at most 64 characters, not 65"),
    ("王" * 65, "at most 64 characters, not 65"),
    ("a\x1b]52;c;aGk=\x07", "U+001B"),  # OSC 52: writes a terminal's clipboard
    ("a\x07", "U+0007"),
    ("a\x9b31m", "U+009B"),  # C1 CSI
    ("a\u202eb", "U+202E"),  # a bidi override turns the text around
    ("a\nb", "U+000A"),
    (2**64 - 1, None),
    (-(2**63), None),
    (2**64, "at most 64 bits"),
    (-(2**63) - 1, "at most 64 bits"),
    (True, "a string or an integer"),
]


@pytest.mark.parametrize(("rid", "said"), ID_CASES)
def test_an_id_is_a_short_line_of_text(tmp_path: Path, rid: Any, said: str | None) -> None:
    with game(tmp_path / "g.sqlite3") as store:
        if said is None:
            assert store.add(1, {**WIN, "id": rid}).hand == {**WIN, "id": rid}
            return
        err = refused(lambda: store.add(1, {**WIN, "id": rid}))
        assert err.code == "bad_field" and said in err.message, err.message
        assert store.game_version(1) == 0


def test_a_game_file_s_ids_are_bounded_alike(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(json.dumps({**HEADER, "hands": [{**WIN, "id": "x" * 64}, {**WIN, "id": "x" * 65}, {**WIN, "id": "\x1b]0;x\x07"}]}),
                    encoding="utf-8")
    done = CliRunner().invoke(app, ["game", "settle", str(path), "--json"])
    assert done.exit_code == 1
    rows = json.loads(done.stdout)["hands"]
    assert ["error" in r for r in rows] == [False, True, True]
    assert {r["error"]["code"] for r in rows[1:]} == {"bad_field"}
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout


NOTE_CASES = [
    ("x" * 500, None),
    ("王" * 500, None),
    ("第一行\n第二行\twith a tab\r\n", None),  # a note may break lines
    ("x" * 501, "at most 500 characters, not 501"),
    ("a\x1b]52;c;aGk=\x07", "U+001B"),
    ("a\x07", "U+0007"),
    ("a\x9b31m", "U+009B"),
    ("a\u202eb", "U+202E"),
]


@pytest.mark.parametrize(("note", "said"), NOTE_CASES)
def test_a_note_is_bounded_and_breaks_lines_only(tmp_path: Path, note: str, said: str | None) -> None:
    with game(tmp_path / "g.sqlite3") as store:
        if said is None:
            assert store.add(1, {**WIN, "note": note}).hand == {**WIN, "note": note}
            return
        err = refused(lambda: store.add(1, {**WIN, "note": note}))
        assert err.code == "bad_field" and said in err.message, err.message
        assert store.game_version(1) == 0
    path = tmp_path / "g.yaml"  # a game file's note alike: an error row
    path.write_text(json.dumps({**HEADER, "hands": [{**WIN, "note": note}]}), encoding="utf-8")
    done = CliRunner().invoke(app, ["game", "settle", str(path), "--json"])
    assert done.exit_code == 1 and json.loads(done.stdout)["hands"][0]["error"]["code"] == "bad_field"


def test_a_hand_is_bounded_as_stored(tmp_path: Path) -> None:
    size = len(json.dumps(WIN, ensure_ascii=False).encode("utf-8"))
    with game(tmp_path / "at.sqlite3", StoreLimits(record=size)) as store:
        assert store.add(1, WIN).version == 1
    with game(tmp_path / "past.sqlite3", StoreLimits(record=size - 1)) as store:
        err = refused(lambda: store.add(1, WIN))
        assert err.code == "bad_field" and f"at most {size - 1:,} bytes" in err.message
        assert store.game_version(1) == 0
    assert MAX_RECORD == StoreLimits().record == 4096


def test_a_game_holds_so_many_hands(tmp_path: Path) -> None:
    with game(tmp_path / "g.sqlite3", StoreLimits(hands=3)) as store:
        for _ in range(3):
            store.add(1, WIN)
        err = refused(lambda: store.add(1, {"draw": True}))
        assert err.code == "too_many_hands" and "3 hands" in err.message
        assert store.game_version(1) == 3
        store.edit(1, 3, {"draw": True})  # a change that adds no hand is let through
        store.take_back(1)
        store.add(1, WIN)  # one hand less: room for one
        store.take_back(1)
        store.redo(1)
        store.take_back(1)
        store.add(1, {"draw": True})
        assert refused(lambda: store.add(1, WIN)).code == "too_many_hands"
        assert len(store.hands(1)) == 3
    assert (MAX_HANDS, StoreLimits().hands) == (1000, 1000)


def test_a_game_keeps_so_many_events(tmp_path: Path) -> None:
    with game(tmp_path / "g.sqlite3", StoreLimits(events=4)) as store:
        store.add(1, WIN)
        store.take_back(1)
        store.redo(1)
        store.add(1, {"draw": True})  # the 4th event: the last one room is left for
        for act in (lambda: store.take_back(1), lambda: store.add(1, WIN), lambda: store.delete(1, 1), lambda: store.edit(1, 1, WIN)):
            err = refused(act)
            assert err.code == "too_many_events" and "4 events" in err.message
        assert store.game_version(1) == 4
        assert store.report(1).state.totals != (0, 0, 0, 0)  # read as ever
    assert (MAX_EVENTS, StoreLimits().events) == (10_000, 10_000)


def test_past_its_size_a_database_takes_no_write_and_reads_go_on(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    with game(path) as held:  # held open: its log is not folded into the file between the stores below
        held.add(1, WIN)
        size = db_size(held.db, path)
        with Store(path, limits=StoreLimits(db_bytes=size + 1)) as store:
            store.add(1, {"draw": True})  # under the limit: written (the database grows past it)
            grown = db_size(store.db, path)
        assert grown > size
        with Store(path, limits=StoreLimits(db_bytes=grown)) as store:
            for act in (lambda: store.add(1, WIN), lambda: store.new_game(HEADER), lambda: store.take_back(1)):
                err = refused(act)
                assert err.code == "db_full" and str(path) in err.message
            assert store.game_version(1) == 2 and len(store.games()) == 1
            assert len(store.history(1)) == 2 and len(store.report(1).rows) == 2


def test_the_cli_refuses_a_long_id(tmp_path: Path) -> None:
    db = str(tmp_path / "g.sqlite3")
    runner = CliRunner()
    assert runner.invoke(app, ["game", "new", "--players", ",".join(PLAYERS), "--chips", "0", "--db", db]).exit_code == 0
    done = runner.invoke(app, ["game", "add", "--draw", "--fields", json.dumps({"id": "x" * 65}), "--db", db, "--json"])
    assert done.exit_code == 2 and json.loads(done.stdout)["error"]["code"] == "bad_field"


# --- the API ------------------------------------------------------------------------------------

LOCAL = "http://127.0.0.1:8315"
LAN = "http://192.168.1.20:8315"


def _client(app: Any, base: str = LOCAL, address: str = "testclient") -> Any:
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
    pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    return TestClient(app, base_url=base, raise_server_exceptions=False, client=(address, 50000))


def _app(db: Path, **kwargs: Any) -> Any:
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
    from mahjong_calc.web.app import create_app

    return create_app(db, **kwargs)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_api_says_each_bound_with_its_code_and_status(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    client = _client(_app(db, limits=StoreLimits(hands=1, events=2)))
    assert client.post("/api/games", json=HEADER).status_code == 201
    assert client.post("/api/games/1/hands", json={**WIN, "id": "x" * 65}).json()["error"]["code"] == "bad_field"
    assert client.post("/api/games/1/hands", json=WIN).status_code == 200
    answer = client.post("/api/games/1/hands", json={"draw": True})
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "too_many_hands")
    assert client.post("/api/games/1/undo").status_code == 200
    answer = client.post("/api/games/1/redo")
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "too_many_events")
    with Store(db) as store:
        size = db_size(store.db, db)
    client = _client(_app(db, limits=StoreLimits(db_bytes=size)))
    answer = client.post("/api/games", json=HEADER)
    assert (answer.status_code, answer.json()["error"]["code"]) == (507, "db_full")
    assert client.get("/api/games/1").status_code == 200 and client.get("/api/games/1/history").status_code == 200


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_one_phone_cannot_lock_the_others_out(tmp_path: Path) -> None:
    from mahjong_calc.web.starts import StartLimits, Starts

    limits = StartLimits()
    assert limits.per_client_hour < limits.total  # one device alone never reaches the cap of all
    now = [0.0]
    starts = Starts(StartLimits(per_client=2, per_client_hour=3, total=100), clock=lambda: now[0])
    for _ in range(2):
        starts.admit("a")
    assert "minute" in refused(lambda: starts.admit("a")).message
    now[0] += 61
    starts.admit("a")  # the 3rd of the hour
    now[0] += 61
    err = refused(lambda: starts.admit("a"))
    assert "hour" in err.message and getattr(err, "headers", {})["retry-after"] == str(3600 - 122)
    starts.admit("b")  # another phone is not held back


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("proxy", [False, True])
def test_x_forwarded_for_is_read_only_when_asked(tmp_path: Path, proxy: bool) -> None:
    """A process on this machine naming many clients in X-Forwarded-For is one client, unless the
    server is told it sits behind a proxy (`--proxy-headers`)."""
    from mahjong_calc.web.starts import StartLimits

    app = _app(tmp_path / "g.sqlite3", tokens=True, starts=StartLimits(per_client=1, total=100), proxy_headers=proxy)
    local = _client(app, LAN, "127.0.0.1")
    made = [local.post("/api/games", json=HEADER, headers={"x-forwarded-for": f"192.168.1.{n}"}).status_code for n in (31, 32, 31)]
    assert made == ([201, 201, 429] if proxy else [201, 429, 429])
    other = _client(app, LAN, "192.168.1.40")  # a phone that is no proxy: its header is never read
    assert [other.post("/api/games", json=HEADER, headers={"x-forwarded-for": f"10.0.0.{n}"}).status_code for n in (1, 2)] == [201, 429]


@pytest.mark.parametrize(("hands", "code"), [(3, 0), (4, 2)])
def test_a_game_file_past_the_bounds_is_not_imported_at_all(tmp_path: Path, hands: int, code: int) -> None:
    source = tmp_path / "g.yaml"
    source.write_text(json.dumps({**HEADER, "hands": [{"draw": True}] * hands}), encoding="utf-8")
    with Store(tmp_path / "g.sqlite3", limits=StoreLimits(hands=3)) as store:
        from mahjong_calc.live.transfer import import_games

        if code == 0:
            assert import_games(store, str(source)) == [1]
        else:
            err = refused(lambda: import_games(store, str(source)))
            assert err.code == "too_many_hands" and "4 hands" in err.message
        assert len(store.games()) == (code == 0)
