"""Live games: the SQLite store, `mjcalc game new|add|show|undo|list|export`,
forward migrations, and two processes adding to one game at once."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from installed import REPO, run_installed
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.core.errors import InputError, NotAWin
from mahjong_calc.live import SCHEMA_VERSION, Store
from mahjong_calc.live.store import StoreError

PLAYERS = ["王", "李", "张", "赵"]
HEADER = {"variant": "wuhu315", "players": PLAYERS, "dealer": "王"}
WIN = "123456m13m99p555p2m"  # a Wuhu win (14 tiles)
NOT_A_WIN = "123456m13m99p556p2m"
HANDS = [
    {"winner": "李", "discarder": "王", "hand": WIN},
    {"draw": True},
    {"winner": "张", "hand": WIN, "self_draw": True},
    {"winner": "赵", "discarder": "李", "hand": "123m456m678m11p555p"},
]


def game_cmd(runner: CliRunner, db: Path, *args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["game", args[0], "--db", str(db), *args[1:]])


def settle_file(runner: CliRunner, path: Path) -> dict:  # type: ignore[type-arg]
    done = runner.invoke(app, ["game", "settle", str(path), "--json"])
    assert done.exit_code == 0, done.stderr
    return json.loads(done.stdout)


# --- the store ---------------------------------------------------------------------


def test_store_folds_hands_and_undo_keeps_history(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        game = store.new_game(HEADER)
        for hand in HANDS:
            store.add(game.id, hand)
        assert store.hands(game.id) == HANDS
        change = store.take_back(game.id)
        undone, report = change.hand, change.report
        assert undone == HANDS[-1]
        assert store.hands(game.id) == HANDS[:-1]
        assert [e.kind for e in store.events(game.id)] == ["hand"] * 4 + ["undo"]
        assert store.events(game.id)[3].body == HANDS[-1]  # the undone hand is still in the history
        assert len(report.rows) == 3
        store.add(game.id, HANDS[-1])
        assert store.hands(game.id) == HANDS


def test_refused_hand_writes_nothing(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        game = store.new_game(HEADER)
        store.add(game.id, HANDS[0])
        before = store.events(game.id)
        with pytest.raises(NotAWin):
            store.add(game.id, {"winner": "李", "discarder": "王", "hand": NOT_A_WIN})
        with pytest.raises(InputError) as bad:
            store.add(game.id, {"winner": "钱", "discarder": "王", "hand": WIN})
        assert bad.value.code == "unknown_player"
        with pytest.raises(InputError) as bad:
            store.add(game.id, {"winner": "李", "hand": WIN, "dealer_seat": "next"})
        assert bad.value.code == "computed_field"
        assert store.events(game.id) == before


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ({**HEADER, "players": ["王", "李", "张"]}, "bad_game"),
        ({**HEADER, "dealer": "钱"}, "unknown_player"),
        ({**HEADER, "variant": "nowhere"}, None),
    ],
)
def test_bad_new_game_is_refused(tmp_path: Path, header: dict, code: str | None) -> None:  # type: ignore[type-arg]
    with Store(tmp_path / "g.db") as store:
        with pytest.raises(InputError) as err:
            store.new_game(header)
        if code:
            assert err.value.code == code
        assert store.games() == []


def test_unknown_game_and_nothing_to_undo(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        with pytest.raises(StoreError) as err:
            store.game()
        assert err.value.code == "no_game"
        game = store.new_game(HEADER)
        for wrong in (game.id + 1, "x1", "-1"):
            with pytest.raises(StoreError) as err:
                store.report(wrong)
            assert err.value.code == "unknown_game"
        with pytest.raises(StoreError) as err:
            store.take_back(game.id)
        assert err.value.code == "nothing_to_undo"


def test_schema_migrates_forward(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with Store(path, migrate_to=1) as old:  # a database as version 1 wrote it: no tokens
        assert old.version == 1
        old.db.execute("INSERT INTO games (created, header) VALUES ('2026-01-01T00:00:00+00:00', ?)", (json.dumps(HEADER),))
        old.db.execute("INSERT INTO events VALUES (1, 1, 'hand', ?, 'x')", (json.dumps(HANDS[0]),))
    with Store(path) as store:
        assert store.version == SCHEMA_VERSION == 4
        (game,) = store.games()
        assert len(game.token) >= 16
        assert store.hands(game.id) == [HANDS[0]]
        store.edit(game.id, 1, HANDS[2])  # version 4's events: an edit
        assert store.hands(game.id) == [HANDS[2]]


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError) as err:
        Store(path)
    assert err.value.code == "db_too_new"


def test_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError) as err:
        Store(path)
    assert err.value.code == "bad_db"


# --- the commands --------------------------------------------------------------------


def test_game_commands_round_trip(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    new = game_cmd(runner, db, "new", "--variant", "wuhu315", "--players", ",".join(PLAYERS), "--dealer", "王", "--json")
    assert new.exit_code == 0, new.stderr
    game_id = json.loads(new.stdout)["id"]
    added = game_cmd(runner, db, "add", "--winner", "李", "--discarder", "王", WIN)
    assert added.exit_code == 0, added.stderr
    assert "李" in added.stdout and "王" in added.stdout
    assert game_cmd(runner, db, "add", str(game_id), "--draw").exit_code == 0
    selfdraw = game_cmd(runner, db, "add", str(game_id), "--winner", "张", "-s", "123456m", "13m99p", "555p2m", "--lang", "en")
    assert selfdraw.exit_code == 0, selfdraw.stderr
    assert "standings after 3 hands" in selfdraw.stdout
    exposed = game_cmd(runner, db, "add", "--winner", "李", "--discarder", "王", "--fields", '{"exposed": {"赵": ["666s@张"]}}', WIN)
    assert exposed.exit_code == 0, exposed.stderr
    assert game_cmd(runner, db, "undo").exit_code == 0
    assert game_cmd(runner, db, "export").stdout.count("exposed") == 0  # the undone hand is not exported
    shown = game_cmd(runner, db, "show", "--json")
    assert shown.exit_code == 0
    state = json.loads(shown.stdout)
    assert [h.get("winner") for h in state["hands"]] == ["李", None, "张"]
    assert sum(state["totals"].values()) == 0

    export = game_cmd(runner, db, "export", str(game_id))
    assert export.exit_code == 0
    path = tmp_path / "game.yaml"
    path.write_text(export.stdout, encoding="utf-8")
    assert settle_file(runner, path) == state  # an export settles to the same object, totals and all

    listed = game_cmd(runner, db, "list", "--json")
    assert json.loads(listed.stdout) == [{"id": game_id, "created": json.loads(listed.stdout)[0]["created"],
                                          "variant": "wuhu315", "players": PLAYERS, "dealer": "王", "hands": 3}]
    undone = game_cmd(runner, db, "undo", "--json")
    assert undone.exit_code == 0
    assert len(json.loads(undone.stdout)["hands"]) == 2
    table = game_cmd(runner, db, "show")
    assert table.exit_code == 0 and "李" in table.stdout


def test_add_refuses_with_the_usual_codes(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    assert game_cmd(runner, db, "new", "--players", ",".join(PLAYERS)).exit_code == 0
    cases = [
        (["--winner", "李", "--discarder", "王", NOT_A_WIN], 1, "not_a_winning_hand"),
        (["--winner", "李", "--discarder", "王", "12x"], 2, None),
        (["--discarder", "王", WIN], 2, "missing_field"),
        (["--winner", "李", "--discarder", "王"], 2, "missing_field"),
        (["--draw", "--winner", "李"], 2, "conflicting_flags"),
        (["--winner", "钱", "--discarder", "王", WIN], 2, "unknown_player"),
        (["--winner", "李", "--discarder", "王", "--piao", "1", WIN], 2, "flag_not_in_variant"),
        (["--winner", "李", "--discarder", "王", "--piao", "x", WIN], 2, "bad_piao"),
        (["7", "--winner", "李", "--discarder", "王", WIN], 2, "unknown_game"),
        (["--winner", "李", "--discarder", "王", "--fields", "[1]", WIN], 2, "bad_json"),
        (["--winner", "李", "--discarder", "王", "--fields", "{", WIN], 2, "bad_json"),
        (["--winner", "李", "--discarder", "王", "--fields", '{"hand": "1m"}', WIN], 2, "conflicting_flags"),
        (["--winner", "李", "--discarder", "王", "--fields", '{"colour": 1}', WIN], 2, "unknown_field"),
    ]
    for args, code, error in cases:
        done = game_cmd(runner, db, "add", *args, "--json")
        assert done.exit_code == code, (args, done.stdout, done.stderr)
        body = json.loads(done.stdout)
        assert body["valid"] is False
        if error:
            assert (body.get("error") or body.get("reason"))["code"] == error, args
        assert "Traceback" not in done.stderr
    state = json.loads(game_cmd(runner, db, "show", "--json").stdout)
    assert state["hands"] == []


def test_empty_store_says_how_to_start(runner: CliRunner, tmp_path: Path) -> None:
    done = game_cmd(runner, tmp_path / "g.db", "show")
    assert done.exit_code == 2
    assert "mjcalc game new" in done.stderr
    assert game_cmd(runner, tmp_path / "g.db", "list").stdout.strip() == "还没有牌局"


def test_db_from_environment(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJCALC_DB", str(tmp_path / "env.db"))
    assert runner.invoke(app, ["game", "new", "--players", ",".join(PLAYERS)]).exit_code == 0
    assert (tmp_path / "env.db").exists()
    monkeypatch.delenv("MJCALC_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert runner.invoke(app, ["game", "new", "--players", ",".join(PLAYERS)]).exit_code == 0
    assert (tmp_path / "xdg" / "mjcalc" / "games.sqlite3").exists()


# --- two processes at once ---------------------------------------------------------------

WRITER = textwrap.dedent(
    """
    import sys, time
    from mahjong_calc.live import Store
    db, game, who, n, start = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
    while time.time() < start:
        time.sleep(0.001)
    store = Store(db)
    for k in range(n):
        store.add(game, {"draw": True, "id": f"{who}-{k}"})
    """
)


@pytest.mark.slow
def test_concurrent_writers_never_lose_or_duplicate_a_hand(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    with Store(db) as store:
        game = store.new_game(HEADER)
    writers, per_writer = 4, 15
    start = time.time() + 1.5  # every process starts adding at the same moment
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(db), str(game.id), f"w{w}", str(per_writer), str(start)], cwd=REPO)
        for w in range(writers)
    ]
    assert [p.wait(timeout=120) for p in procs] == [0] * writers
    with Store(db) as store:
        ids = [h["id"] for h in store.hands(game.id)]
        seqs = [e.seq for e in store.events(game.id)]
    assert sorted(ids) == sorted(f"w{w}-{k}" for w in range(writers) for k in range(per_writer))
    assert seqs == list(range(1, writers * per_writer + 1))
    for w in range(writers):  # each writer's hands are in its own order
        mine = [i for i in ids if i.startswith(f"w{w}-")]
        assert mine == [f"w{w}-{k}" for k in range(per_writer)]


@pytest.mark.slow
def test_concurrent_cli_processes(tmp_path: Path) -> None:
    """The installed `mjcalc game add`, several at once on one game: every hand lands once."""
    db = str(tmp_path / "g.db")
    new = run_installed(["game", "new", "--db", db, "--players", ",".join(PLAYERS), "--json"])
    assert new.returncode == 0, new.stderr
    procs = [
        subprocess.Popen([sys.executable, "-m", "mahjong_calc", "game", "add", "--db", db, "--draw"],
                         cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for _ in range(6)
    ]
    assert [p.wait(timeout=120) for p in procs] == [0] * 6
    shown = run_installed(["game", "show", "--db", db, "--json"])
    assert [h["no"] for h in json.loads(shown.stdout)["hands"]] == [1, 2, 3, 4, 5, 6]


# --- README's game session ---------------------------------------------------------------


def _session() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```shell\n(.*?)```", text, re.DOTALL)
    return [line for block in blocks for line in block.splitlines() if line.startswith("mjcalc game ")]


@pytest.mark.slow
def test_readme_game_session(tmp_path: Path) -> None:
    """README's live-game session runs in order against one database, and its export settles the same."""
    lines = _session()
    assert any(" new " in line for line in lines) and any(" export " in line for line in lines)
    env = {"MJCALC_DB": str(tmp_path / "games.sqlite3")}
    for line in lines:
        command = line.partition("  #")[0].split(">")[0].split()
        done = run_installed(command[1:], env=env)
        assert done.returncode == 0, (line, done.stderr)
    shown = json.loads(run_installed(["game", "show", "--json"], env=env).stdout)
    export = run_installed(["game", "export"], env=env).stdout
    (tmp_path / "game.yaml").write_text(export, encoding="utf-8")
    settled = run_installed(["game", "settle", str(tmp_path / "game.yaml"), "--json"])
    assert settled.returncode == 0, settled.stderr
    assert json.loads(settled.stdout)["totals"] == shown["totals"]
