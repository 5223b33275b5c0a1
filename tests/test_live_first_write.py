"""A process reads the whole games database once before its first write (`PRAGMA quick_check`):
a file damaged in any page (its games, its events, their index, the free list) refuses every
write with `bad_db`, and its bytes are exactly as they were."""

from __future__ import annotations

import hashlib
import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.live import Store

PLAYERS = ["王", "李", "张", "赵"]
PAGE = 4096


def _game(store: Store, hands: int) -> int:
    game = store.new_game({"variant": "wuhu315", "players": PLAYERS, "dealer": "王", "chips": 0})
    for i in range(hands):
        store.add(game.id, {"draw": True} if i % 3 == 2 else {"winner": PLAYERS[(i + 1) % 4], "hand": "123456m13m99p555p2m",
                                                              "self_draw": True, "id": f"hand-{i}"})
    return game.id


def _one_file(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode = DELETE")  # everything in the one file that is damaged
    con.close()


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seven pages: the schema, the games, the sequence of game numbers, the events (two leaves and
    their parent) and their index; none free."""
    path = tmp_path_factory.mktemp("db") / "small.sqlite3"
    with Store(path) as store:
        first = _game(store, 36)
        _game(store, 36)
        store.take_back(first)  # so that redo has something to do
    _one_file(path)
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA page_count").fetchone() == (7,) and con.execute("PRAGMA freelist_count").fetchone() == (0,)
        assert con.execute("PRAGMA page_size").fetchone() == (PAGE,)
    return path


@pytest.fixture(scope="module")
def with_free_pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new database: the pages the schema's last migration freed are its free list."""
    path = tmp_path_factory.mktemp("db") / "free.sqlite3"
    with Store(path) as store:
        first = _game(store, 3)
        store.take_back(first)
    _one_file(path)
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA freelist_count").fetchone()[0] > 0
    return path


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("file") / "g.yaml"
    path.write_text("variant: wuhu315\nplayers: [王, 李, 张, 赵]\ndealer: 王\nhands:\n- {draw: true}\n", encoding="utf-8")
    return path


WRITES = {
    "new": ["new", "--players", "甲,乙,丙,丁"],
    "add": ["add", "1", "--draw"],
    "edit": ["edit", "1", "1", "--draw"],
    "delete": ["delete", "1", "1"],
    "undo": ["undo", "1"],
    "redo": ["redo", "1"],
    "import": ["import", "{file}"],
}


def _write(path: Path, write: str, game_file: Path) -> tuple[int, str]:
    args = [a.replace("{file}", str(game_file)) for a in WRITES[write]]
    done = CliRunner().invoke(app, ["game", *args, "--db", str(path)])
    return done.exit_code, done.stderr


def _damaged(source: Path, target: Path, page: int) -> str:
    """`source` copied to `target` with page `page` (1-based) overwritten by noise; the copy's sha256."""
    data = bytearray(source.read_bytes())
    data[(page - 1) * PAGE:page * PAGE] = random.Random(page).randbytes(PAGE)
    target.write_bytes(bytes(data))
    return hashlib.sha256(target.read_bytes()).hexdigest()


@pytest.mark.parametrize("write", list(WRITES))
def test_every_write_works_on_the_whole_file(small: Path, game_file: Path, tmp_path: Path, write: str) -> None:
    path = tmp_path / "whole.sqlite3"
    shutil.copy(small, path)
    code, err = _write(path, write, game_file)
    assert code == 0, err


@pytest.mark.parametrize("write", list(WRITES))
@pytest.mark.parametrize("page", range(2, 8))
def test_a_page_damaged_refuses_every_write_and_the_file_is_untouched(small: Path, game_file: Path, tmp_path: Path,
                                                                      page: int, write: str) -> None:
    path = tmp_path / f"page-{page}-{write}.sqlite3"
    before = _damaged(small, path, page)
    code, err = _write(path, write, game_file)
    assert code == 2 and "[bad_db]" in err and "please report" not in err, (page, write, err)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


@pytest.mark.parametrize("write", list(WRITES))
def test_a_damaged_free_list_refuses_every_write(with_free_pages: Path, game_file: Path, tmp_path: Path, write: str) -> None:
    trunk = int.from_bytes(with_free_pages.read_bytes()[32:36], "big")  # the header's first free-list page
    path = tmp_path / f"free-{write}.sqlite3"
    before = _damaged(with_free_pages, path, trunk)
    code, err = _write(path, write, game_file)
    assert code == 2 and "[bad_db]" in err, (write, err)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


def test_a_server_refuses_a_write_to_a_damaged_file(small: Path, tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed (pip install '.[web]')")
    pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (the test extra)")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from mahjong_calc.web.app import create_app

    path = tmp_path / "served.sqlite3"
    before = _damaged(small, path, 7)  # the events' index: reading a game does not need it
    client = TestClient(create_app(path), base_url="http://127.0.0.1:8315")
    for method, route in (("POST", "/api/games/1/hands"), ("POST", "/api/games"), ("POST", "/api/games/1/undo")):
        answer = client.request(method, route, json={"draw": True} if route.endswith("hands") else
                                {"variant": "wuhu315", "players": PLAYERS, "dealer": "王"} if route == "/api/games" else None)
        assert (answer.status_code, answer.json()["error"]["code"]) == (503, "bad_db"), answer.text
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
