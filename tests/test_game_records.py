"""Game records say what they mean: a discard win names its discarder, `chips: 0` keeps no
子 ledger, the 飘 fields come together, messages name players and fields, meld order."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from test_game_helpers import settle_hands
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.game import load_schema

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["王", "李", "张", "赵"]
TONG_TIAN = "123456789m55s777z"  # Wuhu: 通天 on a 红中 wait
PUJIANG_FAN = {"hand": "111m222p333s444s3m7z", "wild": "3m"}  # 全碰子 with a 财神: has 番


def game(runner: CliRunner, db: Path, *args: str) -> Any:
    return runner.invoke(app, ["game", args[0], "--db", str(db), *args[1:]])


def error_of(report: dict[str, Any], no: int = 1) -> dict[str, Any]:
    row = report["hands"][no - 1]
    assert "error" in row, row
    error: dict[str, Any] = row["error"]
    return error


# --- a discard win names its discarder --------------------------------------------------

NO_DISCARDER = [
    ("wuhu315", {"winner": "B", "hand": TONG_TIAN}),
    ("wuhu525", {"winner": "B", "hand": TONG_TIAN, "earthly": True}),  # 地胡 is won on a discard
    ("chizhou", {"winner": "B", "hand": "111m222p333s456s77p"}),
    ("chizhou", {"winner": "B", "hand": "111s222s333m444m55p", "robbing_kong": True}),
    ("pujiang", {"winner": "B", **PUJIANG_FAN}),
    ("pujiang", {"winner": "B", "hand": "111m222p456s77z7s8s9s", "robbing_kong": True}),
]


@pytest.mark.parametrize(("variant", "hand"), NO_DISCARDER, ids=[f"{v}-{i}" for i, (v, _) in enumerate(NO_DISCARDER)])
def test_a_win_neither_self_drawn_nor_discarded_is_refused(variant: str, hand: dict[str, Any]) -> None:
    error = error_of(settle_hands(variant, [hand]))
    assert error["code"] == "missing_discarder"
    assert "B" in error["message"] and "discarder" in error["message"] and "--" not in error["message"]


def test_self_drawn_wins_need_no_discarder() -> None:
    for variant, hand in [("wuhu315", {"hand": TONG_TIAN, "self_draw": True}), ("pujiang", {**PUJIANG_FAN, "self_draw": True}),
                          ("wuhu315", {"hand": "123m456m789m55s", "concealed_kongs": ["1111p"], "after_kong": True})]:
        report = settle_hands(variant, [{"winner": "B", **hand}])
        assert "error" not in report["hands"][0], (variant, report["hands"][0])


def test_game_add_and_the_api_refuse_a_win_without_a_discarder(tmp_path: Path) -> None:
    runner = CliRunner()
    db = tmp_path / "g.db"
    assert game(runner, db, "new", "--players", ",".join(PLAYERS)).exit_code == 0
    done = game(runner, db, "add", "--winner", "李", TONG_TIAN)
    assert done.exit_code == 2, done.output
    assert "[missing_discarder]" in done.stderr and "李" in done.stderr and "None" not in done.output
    done = game(runner, db, "add", "--winner", "李", TONG_TIAN, "--json")
    assert json.loads(done.stdout)["error"]["code"] == "missing_discarder"
    shown = game(runner, db, "show")
    assert shown.exit_code == 0 and "None" not in shown.output and "?" not in shown.output
    assert json.loads(game(runner, db, "show", "--json").stdout)["hands"] == []

    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from mahjong_calc.web.app import create_app

    client = TestClient(create_app(tmp_path / "web.db"), base_url="http://127.0.0.1:8315", raise_server_exceptions=False)
    gid = client.post("/api/games", json={"variant": "wuhu315", "players": PLAYERS, "dealer": "王"}).json()["id"]
    answer = client.post(f"/api/games/{gid}/hands", json={"winner": "李", "hand": TONG_TIAN})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "missing_discarder"
    assert client.get(f"/api/games/{gid}").json()["hands"] == []


def test_every_settled_hand_has_its_discarder_and_no_line_prints_none() -> None:
    report = settle_hands("wuhu315", [{"winner": "B", "hand": TONG_TIAN}, {"winner": "C", "hand": TONG_TIAN, "discarder": "A"}])
    for row in report["hands"]:
        assert "error" in row or row["self_draw"] or row["discarder"] is not None, row
    from mahjong_calc.live.text import hand_line

    settled = report["hands"][1]
    for lang in ("zh", "en"):  # a renderer never puts a missing fact in its text
        assert "None" not in hand_line({**settled, "discarder": None}, lang)
        assert "None" not in hand_line(settled, lang) and "A" in hand_line(settled, lang)


# --- chips: 0 ----------------------------------------------------------------------------


def test_chips_zero_keeps_no_ledger_and_the_game_never_ends() -> None:
    lose_all = {"winner": "A", "hand": "123456m13m99p555p2m", "self_draw": True}  # 8 子 from each, over and over
    report = settle_hands("wuhu315", [lose_all] * 12, chips=0)
    assert report["chips"] is None and report["ended_at"] is None
    assert all("error" not in h and h["settlement"]["chips_after"] is None for h in report["hands"])
    with_chips = settle_hands("wuhu315", [lose_all] * 12, chips=10)
    assert with_chips["ended_at"] is not None


def test_game_new_chips_zero(tmp_path: Path) -> None:
    runner = CliRunner()
    db = tmp_path / "g.db"
    done = game(runner, db, "new", "--players", ",".join(PLAYERS), "--chips", "0")
    assert done.exit_code == 0, done.output
    assert game(runner, db, "add", "--winner", "李", "--self-draw", "123456m13m99p555p2m").exit_code == 0
    state = json.loads(game(runner, db, "show", "--json").stdout)
    assert state["chips"] is None
    assert game(runner, db, "new", "--players", ",".join(PLAYERS), "--chips", "-1").exit_code == 2


def test_schema_allows_chips_zero() -> None:
    assert load_schema()["$defs"]["header"]["properties"]["chips"]["minimum"] == 0


# --- the 飘 fields come together ----------------------------------------------------------


@pytest.mark.parametrize("field", ["piao_count", "sheng_zhang"])
def test_piao_fields_need_piao_by(field: str) -> None:
    hand = {"winner": "C", **PUJIANG_FAN, "self_draw": True, field: 1 if field == "piao_count" else "D"}
    error = error_of(settle_hands("pujiang", [hand]))
    assert error["code"] == "conflicting_fields"
    assert error["message"].startswith(f"{field} needs piao_by")


def test_piao_count_needs_piao_by_on_the_command_line_too() -> None:
    done = CliRunner().invoke(app, ["score", "111m222p333s444s3m7z", "-v", "pujiang", "--wild", "3m", "-s", "--piao-count", "1"])
    assert done.exit_code == 2 and "[conflicting_flags]" in done.stderr and "--piao-by" in done.stderr


def test_piao_fields_do_not_apply_to_wuhu() -> None:
    error = error_of(settle_hands("wuhu315", [{"winner": "B", "hand": TONG_TIAN, "self_draw": True, "piao_by": "A", "piao_count": 1}]))
    assert error["code"] == "flag_not_in_variant"


# --- messages name players and fields -------------------------------------------------------

MESSAGES = [
    # another player's 飘 round names that player, never the seat relative to the winner
    ("pujiang", {"winner": "B", **PUJIANG_FAN, "self_draw": True, "piao_by": "C", "piao_count": 3}, "win_not_allowed_during_piao", "C has 3 飘"),
    ("pujiang", {"winner": "B", "hand": "111m222p333s456s77z", "self_draw": True, "piao_by": "A", "piao_count": 2}, "win_not_allowed_during_piao", "A has 2 飘"),
    ("wuhu315", {"winner": "B", "hand": TONG_TIAN, "discarder": "A", "self_draw": True}, "conflicting_flags", "self_draw and discarder"),
    ("wuhu315", {"winner": "B", "hand": "123m456m789m55s", "melds": ["1111p"], "after_kong": True, "discarder": "A"}, "conflicting_flags", "after_kong and discarder"),
    ("wuhu315", {"winner": "B", "hand": "123456789m55s", "after_kong": True, "melds": ["777z"]}, "after_kong_without_kong", "after_kong needs a kong among the melds (melds 5555p or concealed_kongs)"),
    ("wuhu315", {"winner": "B", "hand": "123456789m55s", "melds": ["777"], "self_draw": True}, "missing_suit", None),
    ("wuhu315", {"winner": "B", "hand": "123456789m55s", "melds": ["789z"], "self_draw": True}, "invalid_tile", None),
    ("wuhu315", {"winner": "B", "hand": "123456789m55s", "melds": ["778m"], "self_draw": True}, "bad_meld", "melds '778m' is not"),
    ("wuhu315", {"winner": "B", "hand": "1111m234567m99m555s", "self_draw": True}, "wrong_tile_count", "not in hand: concealed_kongs 1111m"),
    ("chizhou", {"winner": "B", "hand": "11m234m", "melds": ["123p", "555s", "789p"], "discarder": "A"}, "chow_restricted", "the pung melds 555s"),
    ("pujiang", {"winner": "B", "hand": "111m222p333s456s77z", "discarder": "A"}, "discard_win_not_allowed", "or give robbing_kong"),
    ("pujiang", {"winner": "B", **PUJIANG_FAN, "self_draw": True, "opponent_pungs": [9, 0, 0]}, "bad_opponent_pungs", "for C, D, A in that order"),
    ("pujiang", {"winner": "B", **PUJIANG_FAN, "self_draw": True, "opponent_pungs": "1,2"}, "bad_opponent_pungs", "for C, D, A in that order"),
    ("pujiang", {"winner": "B", **PUJIANG_FAN, "self_draw": True, "opponent_pungs": {"C": 9}}, "bad_opponent_pungs", "{'C': 9}: a player's count"),
]


@pytest.mark.parametrize(("variant", "hand", "code", "words"), MESSAGES, ids=[m[2] + str(i) for i, m in enumerate(MESSAGES)])
def test_game_messages_name_players_and_fields(variant: str, hand: dict[str, Any], code: str, words: str | None) -> None:
    error = error_of(settle_hands(variant, [hand]))
    assert error["code"] == code, error
    message = error["message"]
    if words is not None:
        assert words in message
    assert not re.search(r"(?<![\w-])--?[a-z]", message), message  # no CLI flag
    assert not re.search(r"\b(next|opposite|previous|NEXT|OPPOSITE|PREVIOUS|HAND)\b", message), message  # no relative seat, no CLI argument


def test_the_score_command_keeps_its_flag_wording() -> None:
    done = CliRunner().invoke(app, ["score", "111m222p333s444s3m7z", "-v", "pujiang", "--wild", "3m", "-s", "--piao-by", "opposite", "--piao-count", "3"])
    assert done.exit_code == 1 and "opposite has 3 飘" in done.stderr
    done = CliRunner().invoke(app, ["score", TONG_TIAN, "-s", "-f", "next"])
    assert "--self-draw and --discarder cannot both be given" in done.stderr


# --- the order of melds: says which pung came fourth ----------------------------------------------


def test_the_fourth_pung_is_the_last_listed() -> None:
    """四对转包: after the alarm of 李's first three pungs, the feeder of the fourth pays all three."""
    hand = {"winner": "B", "discarder": "D", "hand": "99m"}
    first_three_by_a = {**hand, "melds": ["111m@A", "222m@A", "333m@A", "444m@C"]}
    fourth_by_a = {**hand, "melds": ["444m@C", "111m@A", "222m@A", "333m@A"]}
    for melds, liable in ((first_three_by_a, "C"), (fourth_by_a, "A")):
        report = settle_hands("wuhu315", [melds])
        rows = report["hands"][0]["settlement"]["liability"]
        assert [(r["code"], r["payer"]) for r in rows] == [("si_dui_zhuan_bao", liable)], rows


def test_the_order_of_melds_is_kept_from_game_add_to_export(tmp_path: Path) -> None:
    runner = CliRunner()
    db = tmp_path / "g.db"
    assert game(runner, db, "new", "--players", ",".join(PLAYERS)).exit_code == 0
    melds = ["444m@张", "111m@王", "222m@王", "333m@王"]
    args = [a for m in melds for a in ("-m", m)]
    done = game(runner, db, "add", "--winner", "李", "--discarder", "赵", *args, "99m", "--json")
    assert done.exit_code == 0, done.output
    rows = json.loads(done.stdout)["hands"][0]["settlement"]["liability"]
    assert [(r["code"], r["payer"]) for r in rows] == [("si_dui_zhuan_bao", "王")]
    exported = game(runner, db, "export").stdout
    assert "[444m@张, 111m@王, 222m@王, 333m@王]" in exported


def test_the_meld_order_is_documented() -> None:
    description = load_schema()["$defs"]["hand_fields"]["properties"]["melds"]["description"]
    assert "四对转包" in description and "last" in description
    doc = (ROOT / "docs" / "games.md").read_text(encoding="utf-8")
    record_format = doc[doc.index("\n## A game record\n"):doc.index("\n## Output\n")]
    assert "四对转包" in record_format
    assert "0: no 子 ledger" in record_format


@pytest.mark.parametrize(
    ("variant", "hand", "says", "never"),
    [
        # Pujiang wins by self-draw or 抢杠 only (seed 002): there is no discard win to name a discarder for
        ("pujiang", PUJIANG_FAN, ["pujiang has no discard wins", "self-draw (self_draw: true)", "robbing_kong: true", "抢杠"], ["a discard win needs"]),
        # Wuhu has discard wins and no 抢杠
        ("wuhu315", {"hand": TONG_TIAN}, ["a discard win needs discarder", "self_draw: true"], ["抢杠", "robbing"]),
        ("chizhou", {"hand": "111m222p333s456s77p"}, ["a discard win needs discarder", "抢杠", "self_draw: true"], ["no discard wins"]),
    ],
)
def test_a_win_without_discarder_says_how_this_variant_wins(variant: str, hand: dict[str, Any], says: list[str],
                                                             never: list[str]) -> None:
    error = error_of(settle_hands(variant, [{"winner": "B", **hand}]))
    assert error["code"] == "missing_discarder"
    for text in says:
        assert text in error["message"], (variant, error["message"])
    for text in never:
        assert text not in error["message"], (variant, error["message"])


def test_the_catalogue_text_of_missing_discarder_fits_a_variant_without_discard_wins() -> None:
    from mahjong_calc.core.errors import MESSAGES

    zh, en = MESSAGES["missing_discarder"]
    assert "discard win" not in en and "self-drawn" in en and "点炮" not in zh and "自摸" in zh
