"""Correcting a live game: `mjcalc game edit|delete|redo|history`, each an event of its own.

Whatever the corrections, the standings are the fold over the hands as they now stand:
`game show --json` is what `game settle` gives for `game export`.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.core.errors import InputError, NotAWin
from mahjong_calc.live import Store
from mahjong_calc.live.store import StoreError

PLAYERS = ["王", "李", "张", "赵"]
HEADER = {"variant": "wuhu315", "players": PLAYERS, "dealer": "王"}
WIN = "123456m13m99p555p2m"
NOT_A_WIN = "123456m13m99p556p2m"
POOL = [
    {"winner": "李", "discarder": "王", "hand": WIN},
    {"draw": True},
    {"winner": "张", "hand": WIN, "self_draw": True},
    {"winner": "赵", "discarder": "李", "hand": "123m456m678m11p555p"},
    {"winner": "王", "discarder": "赵", "hand": "111m444m777m99m777z"},
]


def game_cmd(runner: CliRunner, db: Path, *args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["game", args[0], "--db", str(db), *args[1:]])


def exported_settles_to_shown(runner: CliRunner, db: Path, tmp_path: Path) -> dict:  # type: ignore[type-arg]
    shown = game_cmd(runner, db, "show", "--json")
    assert shown.exit_code == 0, shown.stderr
    export = game_cmd(runner, db, "export")
    assert export.exit_code == 0, export.stderr
    path = tmp_path / "game.yaml"
    path.write_text(export.stdout, encoding="utf-8")
    settled = runner.invoke(app, ["game", "settle", str(path), "--json"])
    assert settled.exit_code in (0, 1), settled.stderr  # 1: a hand became an error row
    state: dict = json.loads(shown.stdout)  # type: ignore[type-arg]
    assert json.loads(settled.stdout) == state
    return state


def test_edit_delete_undo_redo_are_events(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        game = store.new_game(HEADER)
        for hand in POOL[:3]:
            store.add(game.id, hand)
        change = store.edit(game.id, 1, POOL[3])
        assert store.hands(game.id) == [POOL[3], POOL[1], POOL[2]]
        assert (change.no, change.version, change.broken) == (1, 4, ())
        change = store.delete(game.id, 2)
        assert change.hand == POOL[1] and store.hands(game.id) == [POOL[3], POOL[2]]
        store.take_back(game.id)
        assert store.hands(game.id) == [POOL[3]]
        change = store.redo(game.id)
        assert change.no == 2 and store.hands(game.id) == [POOL[3], POOL[2]]
        with pytest.raises(StoreError) as err:
            store.redo(game.id)
        assert err.value.code == "nothing_to_redo"
        store.take_back(game.id)
        store.edit(game.id, 1, POOL[4])  # a change after an undo ends what redo can put back
        with pytest.raises(StoreError) as err:
            store.redo(game.id)
        assert err.value.code == "nothing_to_redo"
        assert [e.kind for e in store.events(game.id)] == ["hand"] * 3 + ["edit", "delete", "undo", "redo", "undo", "edit"]
        events = store.history(game.id)
        assert [(e["kind"], e["no"]) for e in events] == [
            ("hand", 1), ("hand", 2), ("hand", 3), ("edit", 1), ("delete", 2), ("undo", 2), ("redo", 2), ("undo", 2), ("edit", 1)]
        assert events[3]["hand"] == POOL[3] and events[5]["hand"] == POOL[2] and all(e["at"] for e in events)


@pytest.mark.parametrize(("act", "args", "code", "error"), [
    ("edit", (1, {"winner": "李", "discarder": "王", "hand": NOT_A_WIN}), "not_a_winning_hand", NotAWin),
    ("edit", (1, {"winner": "钱", "discarder": "王", "hand": WIN}), "unknown_player", InputError),
    ("edit", (3, POOL[0]), "unknown_hand", StoreError),
    ("edit", (0, POOL[0]), "unknown_hand", StoreError),
    ("delete", (3,), "unknown_hand", StoreError),
])
def test_a_refused_correction_writes_nothing(tmp_path: Path, act: str, args: tuple, code: str, error: type) -> None:  # type: ignore[type-arg]
    with Store(tmp_path / "g.db") as store:
        game = store.new_game(HEADER)
        store.add(game.id, POOL[0])
        store.add(game.id, POOL[1])
        before = store.events(game.id)
        with pytest.raises(error) as err:
            getattr(store, act)(game.id, *args)
        assert err.value.code == code
        assert store.events(game.id) == before


def test_a_stale_version_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        game = store.new_game(HEADER)
        assert store.add(game.id, POOL[0], expect=0).version == 1
        for write in (lambda: store.add(game.id, POOL[1], expect=0), lambda: store.edit(game.id, 1, POOL[2], expect=0),
                      lambda: store.delete(game.id, 1, expect=0), lambda: store.take_back(game.id, expect=0)):
            with pytest.raises(StoreError) as err:
                write()
            assert err.value.code == "stale_version" and "version 1" in err.value.message
        assert store.game_version(game.id) == 1
        assert store.edit(game.id, 1, POOL[2], expect=1).version == 2


def test_an_edit_that_ends_the_game_earlier_makes_later_hands_error_rows(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    assert game_cmd(runner, db, "new", "--players", ",".join(PLAYERS), "--chips", "8").exit_code == 0
    for args in (["--winner", "李", "--discarder", "王", WIN], ["--draw"], ["--draw"]):
        assert game_cmd(runner, db, "add", *args).exit_code == 0
    edited = game_cmd(runner, db, "edit", "1", "--winner", "张", "--self-draw", WIN, "--lang", "en")
    assert edited.exit_code == 0, edited.stderr  # the edit is made, and says what it did to the later hands
    assert "hand 2 is now an error row [game_over]" in edited.stdout and "hand 3 is now an error row [game_over]" in edited.stdout
    state = exported_settles_to_shown(runner, db, tmp_path)
    assert [h.get("error", {}).get("code") for h in state["hands"]] == [None, "game_over", "game_over"]
    assert state["ended_at"] == 1
    js = game_cmd(runner, db, "delete", "1", "--json")  # the hands settle again once the edited hand is gone
    assert js.exit_code == 0 and "error" not in js.stderr
    assert [h.get("draw") for h in json.loads(js.stdout)["hands"]] == [True, True]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_the_fold_after_corrections_is_game_settle_of_the_export(runner: CliRunner, tmp_path: Path, seed: int) -> None:
    """Random adds, edits, deletes, undos and redos: after each, `game show` is `game settle` of `game export`."""
    rng = random.Random(seed)
    db = tmp_path / "g.db"
    assert game_cmd(runner, db, "new", "--players", ",".join(PLAYERS), "--chips", str(rng.choice([0, 20, 30]))).exit_code == 0
    expected: list[dict] = []  # type: ignore[type-arg]
    undone: list[dict] = []  # type: ignore[type-arg]
    for _ in range(12):
        act = rng.choice(["add", "add", "edit", "delete", "undo", "redo"])
        hand = rng.choice(POOL)
        flags = (["--draw"] if hand.get("draw") else
                 ["--winner", hand["winner"], *(["--self-draw"] if hand.get("self_draw") else ["--discarder", hand["discarder"]]), hand["hand"]])
        if act == "add" or (not expected and act in ("edit", "delete")):
            done = game_cmd(runner, db, "add", *flags)
            if done.exit_code == 0:
                expected.append(hand)
                undone = []
        elif act == "edit":
            n = rng.randrange(len(expected)) + 1
            done = game_cmd(runner, db, "edit", str(n), *flags)
            if done.exit_code == 0:
                expected[n - 1] = hand
                undone = []
        elif act == "delete":
            n = rng.randrange(len(expected)) + 1
            done = game_cmd(runner, db, "delete", str(n))
            assert done.exit_code == 0, done.stderr
            del expected[n - 1]
            undone = []
        elif act == "undo":
            done = game_cmd(runner, db, "undo")
            assert done.exit_code == (0 if expected else 2)
            if expected:
                undone.append(expected.pop())
        else:
            done = game_cmd(runner, db, "redo")
            assert done.exit_code == (0 if undone else 2), done.stderr
            if undone:
                expected.append(undone.pop())
        state = exported_settles_to_shown(runner, db, tmp_path)
        assert len(state["hands"]) == len(expected)
    with Store(db) as store:
        assert store.hands(store.game().id) == expected


def test_edit_and_delete_take_game_then_hand(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    for _ in range(2):
        assert game_cmd(runner, db, "new", "--players", ",".join(PLAYERS)).exit_code == 0
    assert game_cmd(runner, db, "add", "1", "--winner", "李", "--discarder", "王", WIN).exit_code == 0
    assert game_cmd(runner, db, "add", "1", "--draw").exit_code == 0
    edited = game_cmd(runner, db, "edit", "1", "2", "--winner", "张", "--self-draw", WIN, "--json")
    assert edited.exit_code == 0, edited.stderr
    assert [h.get("winner") for h in json.loads(edited.stdout)["hands"]] == ["李", "张"]
    assert game_cmd(runner, db, "edit", "1", "--draw").exit_code == 2  # game 2 (the most recent) has no hand 1
    assert "unknown_hand" in game_cmd(runner, db, "edit", "1", "--draw").stderr
    assert game_cmd(runner, db, "delete", "1", "1").exit_code == 0
    assert game_cmd(runner, db, "delete", "x").exit_code == 2
    history = game_cmd(runner, db, "history", "1", "--json")
    assert [e["kind"] for e in json.loads(history.stdout)] == ["hand", "hand", "edit", "delete"]
    text = game_cmd(runner, db, "history", "1", "--lang", "en")
    assert text.exit_code == 0 and "hand 2 changed to: 张 wins, self-draw" in text.stdout and "hand 1 removed" in text.stdout
    assert "修改第 2 局" in game_cmd(runner, db, "history", "1").stdout
    assert game_cmd(runner, db, "edit", "--draw").exit_code == 2  # no N
