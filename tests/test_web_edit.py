"""Correcting a game through the API: `PUT` / `DELETE /api/games/{id}/hands/{n}`, `POST .../redo`,
and the version every change may name (`If-Match` or `"version"`): a stale one is 409
`stale_version` with the current state, so two phones never overwrite each other unseen."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
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

PLAYERS = ["王", "李", "张", "赵"]
WIN = "123456m13m99p555p2m"
LOCAL = "http://127.0.0.1:8315"
HANDS = [{"winner": "李", "discarder": "王", "hand": WIN}, {"draw": True}, {"winner": "张", "hand": WIN, "self_draw": True}]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db: Path) -> TestClient:
    return TestClient(create_app(db), base_url=LOCAL, raise_server_exceptions=False)


def started(client: TestClient, hands: list[dict[str, Any]]) -> int:
    gid: int = client.post("/api/games", json={"variant": "wuhu315", "players": PLAYERS, "dealer": "王"}).json()["id"]
    for hand in hands:
        assert client.post(f"/api/games/{gid}/hands", json=hand).status_code == 200
    return gid


def cli_state(db: Path, gid: int) -> Any:
    done = CliRunner().invoke(app, ["game", "show", str(gid), "--db", str(db), "--json"])
    return json.loads(done.stdout)


def test_put_delete_redo_answer_the_new_state_and_version(client: TestClient, db: Path) -> None:
    gid = started(client, HANDS)
    got = client.get(f"/api/games/{gid}")
    assert got.headers["etag"] == '"3"'
    edited = client.put(f"/api/games/{gid}/hands/1", json={"winner": "赵", "discarder": "王", "hand": WIN})
    assert edited.status_code == 200 and edited.headers["etag"] == '"4"'
    assert edited.json() == cli_state(db, gid) and edited.json()["hands"][0]["winner"] == "赵"
    deleted = client.delete(f"/api/games/{gid}/hands/2")
    assert deleted.status_code == 200 and [h.get("winner") for h in deleted.json()["hands"]] == ["赵", "张"]
    assert client.post(f"/api/games/{gid}/undo").status_code == 200
    redone = client.post(f"/api/games/{gid}/redo")
    assert redone.status_code == 200 and redone.headers["etag"] == '"7"' and len(redone.json()["hands"]) == 2
    assert client.post(f"/api/games/{gid}/redo").json()["error"]["code"] == "nothing_to_redo"
    assert client.put(f"/api/games/{gid}/hands/9", json=HANDS[1]).json()["error"]["code"] == "unknown_hand"
    assert client.delete(f"/api/games/{gid}/hands/x").status_code == 404
    bad = client.put(f"/api/games/{gid}/hands/1", json={"winner": "李", "discarder": "王", "hand": "123456m13m99p556p2m"})
    assert bad.status_code == 422 and bad.json()["reason"]["code"] == "not_a_winning_hand"
    kinds = [e["kind"] for e in client.get(f"/api/games/{gid}/history").json()]
    assert kinds == ["hand", "hand", "hand", "edit", "delete", "undo", "redo"]


@pytest.mark.parametrize("how", ["if-match", "body"])
def test_a_stale_version_is_409_with_the_current_state(client: TestClient, db: Path, how: str) -> None:
    gid = started(client, HANDS[:2])

    def send(method: str, path: str, body: dict[str, Any] | None, version: int) -> Any:
        if how == "if-match":
            return client.request(method, path, json=body, headers={"if-match": f'"{version}"'})
        return client.request(method, path, json={**(body or {}), "version": version})

    writes = [("POST", f"/api/games/{gid}/hands", HANDS[2]), ("PUT", f"/api/games/{gid}/hands/1", HANDS[1]),
              ("DELETE", f"/api/games/{gid}/hands/1", None), ("POST", f"/api/games/{gid}/undo", None),
              ("POST", f"/api/games/{gid}/redo", None)]
    for method, path, body in writes:
        refused = send(method, path, body, 1)
        assert refused.status_code == 409, (method, path, refused.text)
        answer = refused.json()
        assert answer["error"]["code"] == "stale_version" and answer["version"] == 2
        assert answer["state"] == cli_state(db, gid) and refused.headers["etag"] == '"2"'
    assert [e["kind"] for e in client.get(f"/api/games/{gid}/history").json()] == ["hand", "hand"]  # nothing written
    done = send("PUT", f"/api/games/{gid}/hands/2", HANDS[2], 2)
    assert done.status_code == 200 and done.headers["etag"] == '"3"'
    assert client.post(f"/api/games/{gid}/undo", headers={"if-match": "*"}).status_code == 200  # any version


@pytest.mark.parametrize("given", ['"x"', "-1", "1.5"])
def test_a_version_that_is_not_one_is_bad_field(client: TestClient, given: str) -> None:
    gid = started(client, [])
    answer = client.post(f"/api/games/{gid}/hands", json={**HANDS[1], "version": json.loads(given)})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_field"
    assert client.post(f"/api/games/{gid}/undo", headers={"if-match": given}).json()["error"]["code"] == "bad_field"


def test_two_concurrent_editors_get_one_409(tmp_path: Path, servers: Any) -> None:
    """Two phones edit hand 1 at once, each against the version it saw: one change is made,
    the other is refused with the state that change made (a real server, two threads)."""
    db = tmp_path / "g.sqlite3"
    port, _ = servers(db=db)
    base = f"http://127.0.0.1:{port}"

    def send(method: str, path: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, Any, str]:
        request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode(),
                                         headers={"content-type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read()), answer.headers["etag"]
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read()), err.headers["etag"]

    gid = send("POST", "/api/games", {"variant": "wuhu315", "players": PLAYERS, "dealer": "王"})[1]["id"]
    status, _, etag = send("POST", f"/api/games/{gid}/hands", HANDS[0])
    assert status == 200 and etag == '"1"'
    edits = [{"winner": "张", "discarder": "王", "hand": WIN}, {"winner": "赵", "discarder": "王", "hand": WIN}]
    barrier = threading.Barrier(2)
    answers: list[tuple[int, Any, str]] = []

    def editor(hand: dict[str, Any]) -> None:
        barrier.wait()
        answers.append(send("PUT", f"/api/games/{gid}/hands/1", hand, {"if-match": etag}))

    threads = [threading.Thread(target=editor, args=(hand,)) for hand in edits]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(a[0] for a in answers) == [200, 409]
    won = next(a for a in answers if a[0] == 200)
    lost = next(a for a in answers if a[0] == 409)
    assert lost[1]["error"]["code"] == "stale_version" and lost[1]["state"] == won[1] and lost[2] == won[2] == '"2"'
    assert send("GET", f"/api/games/{gid}/history", None)[1][-1]["kind"] == "edit"
    assert len(send("GET", f"/api/games/{gid}/history", None)[1]) == 2  # one edit made, the other not


@pytest.mark.slow
def test_the_event_stream_has_one_event_per_change_wherever_made(tmp_path: Path, servers: Any) -> None:
    """`GET /api/games/{id}/events`: `ready` with the version now, then one `change` per new
    version, for changes made through this server and by the CLI in another process alike."""
    from installed import run_installed

    db = tmp_path / "g.sqlite3"
    port, _ = servers(db=db)
    base = f"http://127.0.0.1:{port}"
    gid = json.loads(run_installed(["game", "new", "--players", ",".join(PLAYERS), "--db", str(db), "--json"]).stdout)["id"]
    with urllib.request.urlopen(f"{base}/api/games/{gid}/events", timeout=30) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")

        def events() -> Any:
            kind = None
            for raw in stream:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    yield kind, json.loads(line[6:])

        seen = events()
        assert next(seen) == ("ready", {"game": gid, "version": 0})
        assert run_installed(["game", "add", str(gid), "--draw", "--db", str(db)]).returncode == 0
        assert run_installed(["game", "add", str(gid), "--draw", "--db", str(db)]).returncode == 0
        request = urllib.request.Request(f"{base}/api/games/{gid}/hands/1", method="DELETE")
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 200
        assert [next(seen) for _ in range(3)] == [("change", {"game": gid, "version": v}) for v in (1, 2, 3)]
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{base}/api/games/99/events", timeout=30)
    assert missing.value.code == 404


def test_the_join_link_carries_the_token_on_a_network(db: Path) -> None:
    client = TestClient(create_app(db, tokens=True, public="http://192.168.1.20:8315/"), base_url="http://192.168.1.20:8315",
                        raise_server_exceptions=False)
    seed = CliRunner().invoke(app, ["game", "new", "--players", ",".join(PLAYERS), "--db", str(db), "--json"])
    from mahjong_calc.live import Store

    with Store(db) as store:
        token = store.tokens()[json.loads(seed.stdout)["id"]]
    made = client.post("/api/games", json={"variant": "wuhu315", "players": PLAYERS, "dealer": "王"}, headers={"x-mjcalc-token": token})
    gid, own = made.json()["id"], made.json()["token"]
    join = client.get(f"/api/games/{gid}/join", headers={"x-mjcalc-token": own}).json()
    assert join["url"] == f"http://192.168.1.20:8315/?game={gid}&token={own}"
    assert join["svg"].startswith("<svg") and "xmlns" in join["svg"]
    assert client.get(f"/api/games/{gid}/join", headers={"x-mjcalc-token": token}).status_code == 403
