"""A damaged games database is `bad_db` (exit 2) naming what is wrong, a held lock `db_busy`
(exit 2) after a bounded wait: never an internal error, and never a game shown with hands missing."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.live import Store

PLAYERS = ["王", "李", "张", "赵"]
WIN = "123456m13m99p555p2m"
HANDS = 60
STORE_CODES = {"bad_db", "db_busy"}


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database of one game of 60 hands (wins and drawn hands), everything in the main file."""
    path = tmp_path_factory.mktemp("db") / "games.sqlite3"
    with Store(path) as store:
        game = store.new_game({"variant": "wuhu315", "players": PLAYERS, "dealer": "王", "chips": 100_000})
        for i in range(HANDS):
            hand = {"draw": True} if i % 3 == 2 else {"winner": PLAYERS[(i + 1) % 4], "hand": WIN, "self_draw": True, "id": f"hand-{i}"}
            store.add(game.id, hand)
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode = DELETE")  # one file holds it all (the store sets WAL again when it writes)
    con.close()
    return path


def copy(pristine: Path, tmp_path: Path) -> Path:
    path = tmp_path / "games.sqlite3"
    shutil.copy(pristine, path)
    return path


def run(path: Path, *args: str) -> tuple[int, str, str]:
    done = CliRunner().invoke(app, ["game", args[0], "--db", str(path), *args[1:]])
    return done.exit_code, done.stdout, done.stderr


def assert_nothing_lost(path: Path) -> None:
    """Every command either works with the whole game, or refuses with a store code (exit 2)."""
    for args in (("show", "--json"), ("list", "--json"), ("export",), ("add", "--json", "--draw"), ("undo", "--json")):
        code, out, err = run(path, *args)
        assert code in (0, 2), (args, code, err)
        if code == 2:
            first = json.loads(out)["error"]["code"] if "--json" in args else err.split("[", 1)[1].split("]", 1)[0]
            assert first in STORE_CODES | {"no_game", "unknown_game"}, (args, err)
            assert "please report" not in err
            assert err.count("\n") == 1
        elif args[0] == "show":
            assert len(json.loads(out)["hands"]) == HANDS, "a game shown with hands missing"


def _sql(*statements: str) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        con = sqlite3.connect(path)
        con.execute("PRAGMA ignore_check_constraints = ON")
        for statement in statements:
            con.execute(statement)
        con.commit()
        con.close()

    return damage


def _truncate(fraction: float) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        os.truncate(path, int(path.stat().st_size * fraction))

    return damage


def _shm_directory(path: Path) -> None:
    with Store(path):  # WAL mode again, as any write leaves it
        pass
    Path(f"{path}-shm").unlink(missing_ok=True)
    Path(f"{path}-shm").mkdir()


DAMAGE: dict[str, Callable[[Path], None]] = {
    "truncated to 100 bytes": _truncate(100 / 40960),
    "truncated to a quarter": _truncate(0.25),
    "truncated to a half": _truncate(0.5),
    "last byte cut": lambda p: os.truncate(p, p.stat().st_size - 1),
    "header is not JSON": _sql("UPDATE games SET header = 'not json {'"),
    "header is not a mapping": _sql("UPDATE games SET header = '[1, 2]'"),
    "a hand is not JSON": _sql("UPDATE events SET body = '{\"winner\"' WHERE seq = 7"),
    "a hand is not a mapping": _sql("UPDATE events SET body = '3' WHERE seq = 7"),
    "an event of no kind": _sql("UPDATE events SET kind = 'lost' WHERE seq = 9"),
    "an event gone": _sql("DELETE FROM events WHERE seq = 30"),
    "the last events gone": _sql("DELETE FROM events WHERE seq > 28"),
    "no events table": _sql("DROP TABLE events"),
    "no games table": _sql("PRAGMA foreign_keys = OFF", "DROP TABLE games"),
    "-shm is a directory": _shm_directory,
}


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_damage_is_bad_db(kind: str, pristine: Path, tmp_path: Path) -> None:
    path = copy(pristine, tmp_path)
    DAMAGE[kind](path)
    assert_nothing_lost(path)


def test_the_damage_is_named(pristine: Path, tmp_path: Path) -> None:
    for kind, words in [("header is not JSON", "header"), ("no events table", "events"), ("an event gone", "hand"),
                        ("truncated to a half", "damaged")]:
        path = copy(pristine, tmp_path)
        DAMAGE[kind](path)
        code, _, err = run(path, "show")
        assert code == 2 and "[bad_db]" in err and words in err and str(path) in err, (kind, err)
        path.unlink()


@pytest.mark.slow
def test_flipped_bytes_never_lose_a_hand(pristine: Path, tmp_path: Path) -> None:
    """A byte flipped anywhere in the file: the game is shown whole, or refused; never shown short."""
    size = pristine.stat().st_size
    data = pristine.read_bytes()
    for offset in range(0, size, 61):
        path = tmp_path / f"flip-{offset}.sqlite3"
        damaged = bytearray(data)
        damaged[offset] ^= 0x5A
        path.write_bytes(bytes(damaged))
        code, out, err = run(path, "show", "--json")
        assert code in (0, 2), (offset, err)
        if code == 0:
            assert len(json.loads(out)["hands"]) == HANDS, f"flip at {offset}: a game shown with hands missing"
        else:
            assert "please report" not in err and json.loads(out)["error"]["code"] in STORE_CODES | {"unknown_game", "no_game"}, (offset, err)
        path.unlink()


def test_a_read_only_file_is_bad_db(pristine: Path, tmp_path: Path) -> None:
    path = copy(pristine, tmp_path)
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True, check=False) if shutil.which("chattr") else None
    if done is None or done.returncode != 0:
        pytest.skip(f"chattr +i is not permitted here ({done.stderr.strip() if done else 'no chattr'})")
    try:
        code, out, err = run(path, "add", "--json", "--draw")
        assert code == 2 and json.loads(out)["error"]["code"] == "bad_db", err
        assert "read-only" in err or "readonly" in err
        assert_nothing_lost(path)
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=False)


def test_a_lock_held_past_the_wait_is_db_busy(pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("mahjong_calc.live.store.BUSY_TIMEOUT_MS", 200)
    path = copy(pristine, tmp_path)
    with Store(path):
        pass
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        code, out, err = run(path, "add", "--json", "--draw")
        assert code == 2 and json.loads(out)["error"]["code"] == "db_busy", err
        assert "0.2 s" in err
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    code, out, _ = run(path, "show", "--json")
    assert code == 0 and len(json.loads(out)["hands"]) == HANDS


def test_a_damaged_older_database_is_not_migrated_short(tmp_path: Path) -> None:
    """Migrating counts each game's events: a version-2 file whose index lost rows is refused, not counted short."""
    from mahjong_calc.core.errors import MjcalcError

    old = tmp_path / "v2.sqlite3"
    with Store(old, migrate_to=2):  # the tables as version 2 made them, filled as version 2 wrote them
        pass
    con = sqlite3.connect(old)
    header = json.dumps({"variant": "wuhu315", "players": PLAYERS, "dealer": "王", "chips": 100_000}, ensure_ascii=False)
    con.execute("INSERT INTO games (created, header, token) VALUES ('2026-01-01T00:00:00+00:00', ?, 'abcdefghijklmnop')", (header,))
    for i in range(HANDS):
        hand = {"draw": True} if i % 3 == 2 else {"winner": PLAYERS[(i + 1) % 4], "hand": WIN, "self_draw": True}
        con.execute("INSERT INTO events VALUES (1, ?, 'hand', ?, '2026-01-01T00:00:00+00:00')", (i + 1, json.dumps(hand, ensure_ascii=False)))
    con.commit()
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode = DELETE")
    (root,) = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_events_1'").fetchone()
    (page,) = con.execute("PRAGMA page_size").fetchone()
    con.close()
    data = old.read_bytes()
    seen = set()
    for offset in range(root * page - 400, root * page, 3):  # the end of the index's page: its cells
        path = tmp_path / f"flip-{offset}.sqlite3"
        damaged = bytearray(data)
        damaged[offset] ^= 0xFF
        path.write_bytes(bytes(damaged))
        try:
            with Store(path) as store:
                shown = len(store.report(None).rows)
            assert shown == HANDS, f"flip at {offset}: migrated with {shown} of {HANDS} hands"
            seen.add("whole")
        except MjcalcError as err:
            assert err.code == "bad_db", (offset, err.code, err.message)
            seen.add(err.code)
        path.unlink()
    assert "bad_db" in seen
