"""A games database file that is damaged, cut short or someone else's: every command, a write
as much as a read, refuses it with `bad_db` (exit 2) and leaves it as it was; the API answers 503."""

from __future__ import annotations

import json
import shutil
import sqlite3
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest
from installed import run_installed

HAND = ["--winner", "B", "--self-draw", "13m456m678m11p555p2m"]


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("good") / "g.sqlite3"
    assert run_installed(["game", "new", "--db", str(db), "--players", "A,B,C,D"]).returncode == 0
    for _ in range(3):
        assert run_installed(["game", "add", "--db", str(db), *HAND]).returncode == 0
    return db


def _truncate(by: int) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(path.read_bytes()[:-by])


def _to(size: int) -> Callable[[Path], None]:
    return lambda path: path.write_bytes(path.read_bytes()[:size])


def _poke(at: int, value: bytes) -> Callable[[Path], None]:
    def poke(path: Path) -> None:
        data = bytearray(path.read_bytes())
        data[at:at + len(value)] = value
        path.write_bytes(bytes(data))
    return poke


def _foreign(path: Path) -> None:
    path.unlink()
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
        db.execute("INSERT INTO notes VALUES ('mine')")


DAMAGE = {
    "truncated by one byte": _truncate(1),
    "truncated by one page": _truncate(4096),
    "truncated to one byte": _to(1),
    "truncated to 100 bytes": _to(100),
    "page size zeroed": _poke(16, b"\x00\x00"),
    "format bytes changed": _poke(21, b"\x41"),
    "magic changed": _poke(0, b"Sqlite"),
    "another program's database": _foreign,
}
COMMANDS = {
    "list": ["game", "list"],
    "show": ["game", "show"],
    "export": ["game", "export"],
    "new": ["game", "new", "--players", "E,F,G,H"],
    "add": ["game", "add", *HAND],
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_file_is_refused_by_reads_and_writes_alike(good: Path, tmp_path: Path, damage: str) -> None:
    db = tmp_path / "g.sqlite3"
    shutil.copy(good, db)
    DAMAGE[damage](db)
    before = db.read_bytes()
    for name, args in COMMANDS.items():
        done = run_installed([*args, "--db", str(db)])
        assert done.returncode == 2, (name, done.stdout, done.stderr)
        assert done.stderr.startswith("mjcalc: error [bad_db]: ") and len(done.stderr.splitlines()) == 1, (name, done.stderr)
        assert done.stdout == ""
        assert db.read_bytes() == before, f"{name} wrote into the damaged file"
        assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0, name


def test_an_empty_file_is_a_new_database(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    db.write_bytes(b"")
    done = run_installed(["game", "new", "--db", str(db), "--players", "A,B,C,D", "--json"])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"id": 1}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_api_answers_a_damaged_database_with_503(good: Path, tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
    pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from mahjong_calc.web.app import create_app

    db = tmp_path / "g.sqlite3"
    shutil.copy(good, db)
    _truncate(1)(db)
    client = TestClient(create_app(db), base_url="http://127.0.0.1:8315", raise_server_exceptions=False)
    for method, path, body in (("GET", "/api/games", None), ("GET", "/api/games/1", None),
                               ("POST", "/api/games/1/hands", {"winner": "B", "self_draw": True, "hand": "13m456m678m11p555p2m"})):
        answer = client.request(method, path, json=body)
        assert answer.status_code == 503, (path, answer.text)
        assert answer.json()["error"]["code"] == "bad_db"
