"""A game's fold kept between writes (live/fold.py): its state is always what `mjcalc game settle`
gives for the game's export, whoever wrote last (this process, another one, a file copied over
the database), and a write settles only the hands it changes."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import mahjong_calc.game as game_module
from mahjong_calc.core.words import speaking
from mahjong_calc.game import report_json, settle_game
from mahjong_calc.live import Store
from mahjong_calc.live.fold import Folds

PLAYERS = ["王", "李", "张", "赵"]
HEADER = {"variant": "wuhu315", "players": PLAYERS, "dealer": "王", "chips": 30}
HANDS = [
    {"winner": "李", "hand": "123456m13m99p555p2m", "self_draw": True},
    {"winner": "张", "discarder": "王", "hand": "123456m13m99p555p2m"},
    {"draw": True},
    {"winner": "赵", "hand": "111m444m777m99m555p", "self_draw": True},
    {"winner": "王", "discarder": "李", "hand": "123m456m678m11p555p"},
]


def settled(store: Store, game: int) -> str:
    """What `mjcalc game settle` gives for the game's hands, settled afresh."""
    return report_json(settle_game(store.game_file(store.game(game))))


def test_every_change_s_state_is_the_whole_game_settled(tmp_path: Path) -> None:
    folds = Folds()
    path = tmp_path / "g.sqlite3"
    rnd = random.Random(45)
    with Store(path, folds=folds) as store:
        store.new_game(HEADER)
    for step in range(60):
        lang, other = rnd.choice([("en", "zh"), ("zh", "en")])  # a write in one language, a read in the other
        with Store(path, folds=folds) as store, speaking(lang):
            count = len(store.hands(1))
            kind = rnd.choice(["add", "add", "add", "edit", "delete", "undo", "redo"])
            try:
                if kind == "add":
                    change = store.add(1, rnd.choice(HANDS))
                elif kind == "edit" and count:
                    change = store.edit(1, rnd.randint(1, count), rnd.choice(HANDS))
                elif kind == "delete" and count:
                    change = store.delete(1, rnd.randint(1, count))
                elif kind == "undo" and count:
                    change = store.take_back(1)
                else:
                    change = store.redo(1)
            except Exception as err:  # a hand the game refuses (the game over, nothing to redo): nothing written
                assert getattr(err, "code", None) in ("game_over", "nothing_to_redo"), err
                continue
            assert change.fold is not None
            assert change.fold.state_json(lang).decode() == settled(store, 1) == report_json(change.report), (step, kind)
        with Store(path, folds=folds) as store, speaking(other):
            assert store.folded(1).state_json(other).decode() == settled(store, 1), (step, kind)


def test_another_writer_is_seen(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    mine, theirs = Folds(), Folds()
    with Store(path, folds=mine) as store:
        store.new_game(HEADER)
        store.add(1, HANDS[0])
        store.add(1, HANDS[1])
        assert store.folded(1).version == 2
    with Store(path, folds=theirs) as other:  # another process: its own folds
        other.take_back(1)
        other.add(1, HANDS[3])
    with Store(path, folds=mine) as store:
        fold = store.folded(1)
        assert fold.version == 4 and fold.state_json(None).decode() == settled(store, 1)
        assert [h for h in fold.hands] == [HANDS[0], HANDS[3]]


def test_a_file_copied_over_the_database_is_seen(tmp_path: Path) -> None:
    """The same file (inode), the same count of events, other events: folded afresh."""
    path, other = tmp_path / "g.sqlite3", tmp_path / "other.sqlite3"
    for where, hand in ((path, HANDS[0]), (other, HANDS[3])):
        with Store(where) as store:
            store.new_game(HEADER)
            store.add(1, hand)
        with sqlite3.connect(where) as con:
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    folds = Folds()
    with Store(path, folds=folds) as store:
        assert store.folded(1).hands == [HANDS[0]]
    shutil.copyfile(other, path)  # written into the same inode
    with Store(path, folds=folds) as store:
        assert store.folded(1).hands == [HANDS[3]]


def test_a_write_settles_only_the_hands_it_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Steps of the fold per write, with 5 and with 200 hands before it: the same (cost measured in bench/serve.py)."""
    folds = Folds()
    path = tmp_path / "g.sqlite3"
    with Store(path, folds=folds) as store:
        store.new_game({**HEADER, "chips": 0})
    with sqlite3.connect(path) as con:  # 200 hands written straight in
        con.executemany("INSERT INTO events (game, seq, kind, body, at) VALUES (1, ?, 'hand', ?, '2026-12-01T00:00:00+00:00')",
                        [(i + 1, json.dumps(HANDS[i % 3], ensure_ascii=False)) for i in range(200)])
        con.execute("UPDATE games SET events = 200 WHERE id = 1")
    steps: list[Any] = []
    real = game_module.step

    def counted(*args: Any) -> Any:
        steps.append(args[2].no)
        return real(*args)

    monkeypatch.setattr(game_module, "step", counted)
    with Store(path, folds=folds) as store:
        store.folded(1)
        assert len(steps) == 200
        for act, settles in ((lambda: store.add(1, HANDS[0]), [201, 201]), (lambda: store.take_back(1), []),
                             (lambda: store.redo(1), [201]), (lambda: store.edit(1, 199, HANDS[2]), [199, 199, 200, 201]),
                             (lambda: store.delete(1, 201), [])):
            steps.clear()
            act()
            assert steps == settles
