"""`mjcalc game settle`: game records, bad hands as error rows, dealer rotation, 子, transfers, CLI."""

from __future__ import annotations

import json
from functools import reduce
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator
from test_game_helpers import settle_hands
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.game import fewest_transfers, load_schema, read_game, settle_game, start, step
from mahjong_calc.game.fields import hand_kinds

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
WIN = {"hand": "123456m13m99p555p2m", "self_draw": True}  # Wuhu 315: 8 each


def run(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=stdin)


def write(tmp_path: Path, data: dict[str, Any], name: str = "game.yaml") -> str:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return str(path)


# --- the examples ---------------------------------------------------------------------


def test_two_examples_per_variant() -> None:
    names = [p.name for p in EXAMPLES]
    for prefix in ("wuhu", "chizhou", "pujiang"):
        assert len([n for n in names if n.startswith(prefix)]) >= 2, names


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_settles(path: Path) -> None:
    res = run("game", "settle", str(path), "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert set(data) >= {"players", "hands", "totals", "chips", "transfers", "ended_at"}
    assert all("error" not in h for h in data["hands"])
    assert sum(data["totals"].values()) == 0
    table = run("game", "settle", str(path))
    assert table.exit_code == 0 and "Traceback" not in table.output


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_examples_match_the_schema(path: Path) -> None:
    schema = load_schema()
    Draft202012Validator.check_schema(schema)
    assert list(Draft202012Validator(schema).iter_errors(yaml.safe_load(path.read_text(encoding="utf-8")))) == []


def test_schema_names_every_hand_field() -> None:
    schema = load_schema()["$defs"]
    named = set(schema["hand"]["properties"]) | set(schema["hand_fields"]["properties"])
    assert named == set(hand_kinds())


# --- the JSON contract --------------------------------------------------------------------


def test_json_contract(tmp_path: Path) -> None:
    game = {"variant": "wuhu315", "players": ["王", "李", "张", "赵"], "dealer": "王", "hands": [
        {"winner": "李", "hand": "13m456m678m11p2m", "melds": ["555p@王"], "self_draw": True},
        {"draw": True},
    ]}
    data = json.loads(run("game", "settle", write(tmp_path, game), "--json").stdout)
    first = data["hands"][0]
    assert first["no"] == 1 and first["dealer"] == "王" and first["winner"] == "李"
    assert first["result"]["payments"] == {"next": 8, "opposite": 8, "previous": 8}
    assert first["settlement"] == {"changes": {"王": -8, "李": 24, "张": -8, "赵": -8}, "liability": [], "chips_after": {"王": 22, "李": 54, "张": 22, "赵": 22}}
    assert data["hands"][1]["draw"] is True and data["hands"][1]["dealer"] == "李"
    assert data["totals"] == {"王": -8, "李": 24, "张": -8, "赵": -8}
    assert data["chips"] == {"王": 22, "李": 54, "张": 22, "赵": 22}
    assert data["ended_at"] is None
    assert sorted((t["from"], t["to"], t["amount"]) for t in data["transfers"]) == [("张", "李", 8), ("王", "李", 8), ("赵", "李", 8)]


def test_jsonl_with_a_header_line_from_stdin() -> None:
    lines = [
        {"variant": "wuhu315", "players": ["a", "b", "c", "d"], "dealer": "a"},
        {"winner": "b", **WIN},
        {"winner": "c", **WIN},
    ]
    res = run("game", "settle", "-", "--json", stdin="\n".join(json.dumps(x) for x in lines) + "\n")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["totals"] == {"a": -16, "b": 16, "c": 16, "d": -16}


def test_jsonl_bad_line_is_an_error_row(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    header = json.dumps({"variant": "wuhu315", "players": ["a", "b", "c", "d"], "dealer": "a"})
    path.write_text(header + "\n" + json.dumps({"winner": "b", **WIN}) + "\noops\n" + json.dumps({"winner": "c", **WIN}) + "\n", encoding="utf-8")
    res = run("game", "settle", str(path), "--json")
    assert res.exit_code == 1
    hands = json.loads(res.stdout)["hands"]
    # hand 2's winner cannot be read: b or c deals hand 3, c's self-draw is worth more as the dealer's, so it is not settled on a guess
    assert [h.get("error", {}).get("code") for h in hands] == [None, "bad_json", "dealer_unknown"]
    assert "hand 2: error [bad_json]" in res.stderr and "fix line 3" in hands[2]["error"]["message"]


# --- bad game files: an error row with the hand number; no other hand lost -------------------


BAD_HANDS = [
    ("unknown player", {"winner": "钱", **WIN}, "unknown_player"),
    ("unknown discarder", {"winner": "b", "hand": WIN["hand"], "discarder": "x"}, "unknown_player"),
    ("meld fed by the winner themself", {"winner": "b", "hand": "13m456m678m11p2m", "melds": ["555p@b"], "self_draw": True}, "self_fed_meld"),
    ("meld fed by the winner's seat", {"winner": "b", "hand": "13m456m678m11p2m", "melds": ["555p@S"], "self_draw": True}, "self_fed_meld"),
    ("two dealers", {"winner": "b", "dealer": "c", **WIN}, "two_dealers"),
    ("source on a concealed kong", {"winner": "b", "hand": "13m456m678m11p2m", "concealed_kongs": ["5555p@c"], "self_draw": True}, "source_on_concealed_kong"),
    ("not a win", {"winner": "b", "hand": "123456m99p555p44s4s", "self_draw": True}, "no_ba_zhi"),
    ("Wuhu has no 一炮多响", {"winners": [{"winner": "b", "hand": WIN["hand"]}, {"winner": "c", "hand": WIN["hand"]}], "discarder": "a"}, "multiple_winners_not_allowed"),
    ("a variant per hand", {"winner": "b", "variant": "wuhu525", **WIN}, "computed_field"),
    ("unknown field", {"winner": "b", "colour": "red", **WIN}, "unknown_field"),
    ("no winner", {"hand": WIN["hand"]}, "missing_field"),
    ("not a mapping", ["b"], "bad_record"),
]


@pytest.mark.parametrize(("case", "bad", "code"), BAD_HANDS, ids=[c[0] for c in BAD_HANDS])
def test_bad_hand_is_an_error_row(case: str, bad: Any, code: str, tmp_path: Path) -> None:
    game = {"variant": "wuhu315", "players": ["a", "b", "c", "d"], "dealer": "a", "hands": [{"winner": "c", **WIN}, bad, {"winner": "d", **WIN}]}
    res = run("game", "settle", write(tmp_path, game), "--json")
    assert res.exit_code == 1
    hands = json.loads(res.stdout)["hands"]
    assert hands[1]["no"] == 2 and hands[1]["error"]["code"] == code
    assert f"hand 2: error [{code}]" in res.stderr
    assert "result" in hands[0] and "result" in hands[2]  # no other hand is lost
    assert json.loads(res.stdout)["totals"] == {"a": -16, "b": -16, "c": 16, "d": 16}


def test_hand_after_the_game_ended(tmp_path: Path) -> None:
    game = {"variant": "wuhu315", "players": ["a", "b", "c", "d"], "dealer": "a", "chips": 8, "hands": [{"winner": "b", **WIN}, {"winner": "c", **WIN}, {"draw": True}]}
    res = run("game", "settle", write(tmp_path, game), "--json")
    assert res.exit_code == 1
    data = json.loads(res.stdout)
    assert data["ended_at"] == 1
    assert [h.get("error", {}).get("code") for h in data["hands"]] == [None, "game_over", "game_over"]
    assert "the game ended at hand 1" in data["hands"][1]["error"]["message"]


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ({"players": ["a", "b", "c", "d"], "dealer": "a"}, "bad_game"),  # no variant
        ({"variant": "wuhu315", "players": ["a", "b", "c"], "dealer": "a"}, "bad_game"),
        ({"variant": "wuhu315", "players": ["a", "b", "c", "c"], "dealer": "a"}, "bad_game"),
        ({"variant": "wuhu315", "players": ["a", "b", "c", "d"], "dealer": "x"}, "unknown_player"),
        ({"variant": "wuhu315", "players": ["a", "b", "c", "d"], "dealer": ["a", "b"]}, "two_dealers"),
        ({"variant": "wuhu315", "players": ["a", "b", "c", "d"]}, "missing_dealer"),
        ({"variant": "nope", "players": ["a", "b", "c", "d"], "dealer": "a"}, "unknown_variant"),
        ({"variant": "wuhu315", "players": ["a", "b", "c", "d"], "dealer": "a", "chips": -1}, "bad_game"),
        ({"variant": "wuhu315", "players": ["a", "b", "c", "d"], "dealer": "a", "round": 1}, "bad_game"),
    ],
)
def test_bad_header_exits_2(header: dict[str, Any], code: str, tmp_path: Path) -> None:
    res = run("game", "settle", write(tmp_path, {**header, "hands": [{"winner": "b", **WIN}]}), "--json")
    assert res.exit_code == 2
    assert json.loads(res.stdout)["error"]["code"] == code
    assert res.stderr.count("\n") == 1 and code in res.stderr


def test_unreadable_files_exit_2(tmp_path: Path) -> None:
    assert run("game", "settle", str(tmp_path / "missing.yaml")).exit_code == 2
    bad = tmp_path / "bad.yaml"
    bad.write_text("variant: [wuhu315\n", encoding="utf-8")
    res = run("game", "settle", str(bad))
    assert res.exit_code == 2 and "bad_yaml" in res.stderr
    dup = tmp_path / "dup.yaml"
    dup.write_text("variant: wuhu315\nvariant: chizhou\nplayers: [a, b, c, d]\ndealer: a\nhands: []\n", encoding="utf-8")
    assert run("game", "settle", str(dup)).exit_code == 2


# --- dealer rotation, 子, 交 -----------------------------------------------------------------


def test_wuhu_dealer_keeps_the_deal_on_a_win_or_a_draw() -> None:
    hands = [{"winner": "D", **WIN}, {"draw": True}, {"winner": "A", **WIN}, {"winner": "C", **WIN}]
    report = settle_hands("wuhu315", hands)
    assert [h["dealer"] for h in report["hands"]] == ["D", "D", "D", "A"]


def test_chizhou_dealer_stays_after_huang_zhuang() -> None:
    # 黄庄：摸完，继续原来做庄的人，做庄 (seed 001 §20)
    win = {"hand": "111s222s333m444m55p", "self_draw": True}
    report = settle_hands("chizhou", [{"draw": True}, {"winner": "A", **win}, {"draw": True}])
    assert [h["dealer"] for h in report["hands"]] == ["D", "D", "A"]


def test_dealer_rotation_is_an_option() -> None:
    hands = [{"winner": "D", **WIN}, {"draw": True}, {"draw": True}]
    report = settle_hands("wuhu315", hands, settlement={"dealer_after_win": "next", "dealer_after_draw": "next"})
    assert [h["dealer"] for h in report["hands"]] == ["D", "A", "B"]


def test_dealer_bonus_follows_the_computed_dealer() -> None:
    # the dealer wins: 庄家需多加一个底番 (seed 000 §5), with no --dealer typed by hand
    dealer_win = settle_hands("wuhu315", [{"winner": "D", **WIN}])["hands"][0]
    other_win = settle_hands("wuhu315", [{"winner": "A", **WIN}])["hands"][0]
    assert dealer_win["result"]["value"] > other_win["result"]["value"]


def test_jiao_moves_the_score_not_the_chips() -> None:
    # 交算输赢分，不扣底分 (seed 000 §5)
    jiao = {"winner": "A", "hand": "456m99m", "melds": ["111m", "222m", "333m"], "discarder": "B"}
    report = settle_hands("wuhu315", [jiao])
    assert report["totals"]["A"] == 90 and report["chips"] == {"A": 30, "B": 30, "C": 30, "D": 30}
    both = settle_hands("wuhu315", [jiao], settlement={"jiao_chips": "chips_too"})
    assert both["chips"]["A"] == 120 and both["chips"]["B"] == 0 and both["ended_at"] == 1


def test_last_loser_pays_only_what_they_have() -> None:
    # 最后一局有几个子就输几个子 …赢的玩家少赢3个子 (seed 000 §5)
    report = settle_hands("wuhu315", [{"winner": "A", **WIN}, {"winner": "A", **WIN}], chips=12)
    last = report["hands"][1]["settlement"]
    assert last["changes"] == {"A": 12, "B": -4, "C": -4, "D": -4}
    assert last["chips_after"] == {"A": 48, "B": 0, "C": 0, "D": 0}
    assert report["ended_at"] == 2


# --- a game is a fold -------------------------------------------------------------------------


def test_settle_is_a_fold_and_undo_drops_the_last_hand() -> None:
    game = read_game(str(ROOT / "examples" / "wuhu315-club.yaml"))
    folded = reduce(lambda st, raw: step(game, st, raw)[0], game.hands, start(game))
    assert folded == settle_game(game).state
    undone = settle_game(game, game.hands[:-1]).state
    assert undone == reduce(lambda st, raw: step(game, st, raw)[0], game.hands[:-1], start(game))


@pytest.mark.parametrize(
    ("totals", "count"),
    [([0, 0, 0, 0], 0), ([5, -5, 3, -3], 2), ([10, -4, -3, -3], 3), ([6, -2, -2, -2], 3), ([7, -7, 0, 0], 1), ([4, 1, -3, -2], 3)],
)
def test_fewest_transfers(totals: list[int], count: int) -> None:
    out = fewest_transfers(totals)
    assert len(out) == count
    balance = list(totals)
    for payer, to, amount in out:
        assert amount > 0
        balance[payer] += amount
        balance[to] -= amount
    assert balance == [0, 0, 0, 0]


def test_help_has_an_example() -> None:
    res = run("game", "settle", "--help")
    assert res.exit_code == 0 and "Example: mjcalc game settle" in res.stdout


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_report_json_is_the_report_dict(path: Path) -> None:
    from mahjong_calc.game import report_dict, report_json

    report = settle_game(read_game(str(path)))
    assert json.loads(report_json(report)) == report_dict(report)
    assert report_json(report) == json.dumps(report_dict(report), ensure_ascii=False)


def test_a_flag_the_variant_does_not_use_is_an_error_row() -> None:
    report = settle_hands("chizhou", [{"winner": "A", "hand": "111s222s333m444m55p", "self_draw": True, "heavenly": True}])
    assert report["hands"][0]["error"]["code"] == "flag_not_in_variant"


def test_table_shows_error_rows_and_escapes_names(tmp_path: Path) -> None:
    game = {"variant": "wuhu315", "players": ["[b]a", "b", "c", "d"], "dealer": "[b]a", "hands": [
        {"winner": "b", "hand": "13m456m678m11p2m", "melds": ["555p@b"], "self_draw": True},
        {"winner": "c", **WIN},
    ]}
    res = run("game", "settle", write(tmp_path, game), "--lang", "en")
    assert res.exit_code == 1
    assert "[self_fed_meld]" in res.stdout and "[b]a" in res.stdout
    assert "hand 1: error [self_fed_meld]" in res.stderr


def test_the_installed_package_settles_games_and_ships_the_schema() -> None:
    from installed import REPO, run_installed

    done = run_installed(["game", "settle", str(REPO / "examples" / "wuhu315-club.yaml"), "--json"])
    assert done.returncode == 0, done.stderr
    here = settle_game(read_game(str(REPO / "examples" / "wuhu315-club.yaml")))
    assert json.loads(done.stdout)["totals"] == dict(zip(here.game.players, here.state.totals, strict=True))
    code = "from mahjong_calc.game import load_schema; print(load_schema()['title'])"
    import subprocess
    import sys

    from installed import _WORKDIR, child_env

    shown = subprocess.run([sys.executable, "-c", code], cwd=_WORKDIR, env=child_env(), capture_output=True, text=True, check=False)
    assert shown.stdout.strip() == "mjcalc game record", shown.stderr


# --- a game file is bounded: regular files and stdin, 64 MiB, read a hand at a time ---------


def test_a_fifo_or_a_device_is_refused() -> None:
    import os
    import tempfile

    from installed import run_installed

    with tempfile.TemporaryDirectory() as tmp:
        fifo = Path(tmp) / "game.fifo"
        os.mkfifo(fifo)
        for name in (str(fifo), "/dev/null"):
            done = run_installed(["game", "settle", name, "--json"], timeout=60)
            assert done.returncode == 2, done.stderr
            assert json.loads(done.stdout)["error"]["code"] == "game_not_a_file"
            assert f"{name}: not a regular file" in done.stderr and done.stderr.count("\n") == 1


def test_a_game_file_over_the_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mahjong_calc.game import game_file

    big = tmp_path / "big.yaml"
    with big.open("wb") as f:
        f.truncate(game_file.MAX_GAME_BYTES + 1)  # sparse: refused by its size before a byte is read
    res = run("game", "settle", str(big), "--json")
    assert res.exit_code == 2 and json.loads(res.stdout)["error"]["code"] == "game_too_large"
    assert "67,108,864 bytes (64 MiB" in res.stderr
    monkeypatch.setattr(game_file, "MAX_GAME_BYTES", 200)
    lines = ['{"variant": "wuhu315", "players": ["a", "b", "c", "d"], "dealer": "a"}'] + ['{"draw": true}'] * 20
    res = run("game", "settle", "-", "--json", stdin="\n".join(lines))
    assert res.exit_code == 2 and json.loads(res.stdout)["error"]["code"] == "game_too_large"
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    res = run("game", "settle", str(path), "--json")
    assert res.exit_code == 2 and json.loads(res.stdout)["error"]["code"] == "game_too_large"
    assert run("game", "settle", "-", stdin="\n".join(lines[:5])).exit_code == 0


def _long_game(tmp_path: Path, hands: list[str], end: str = "\n") -> Path:
    path = tmp_path / "long.jsonl"
    head = '{"variant": "wuhu315", "players": ["王", "李", "张", "赵"], "dealer": "王", "chips": 1000}'
    path.write_text(end.join([head, *hands]) + end, encoding="utf-8")
    return path


LONG = ['{"winner": "李", "hand": "123456m13m99p555p2m", "self_draw": true}', '{"draw": true}', "{bad json",
        '{"winner": "张", "discarder": "王", "hand": "111m444m777m99m777z"}', '{"winner": "王", "hand": "123456m"}']


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_jsonl_read_a_hand_at_a_time_settles_as_the_whole(end: str, tmp_path: Path) -> None:
    from mahjong_calc.game import open_game, report_dict

    path = _long_game(tmp_path, LONG * 40, end)
    game = open_game(str(path))
    assert not isinstance(game.hands, tuple)  # read as the fold reaches each hand
    whole = settle_game(read_game(str(path)))
    assert len(whole.rows) == 200
    res = run("game", "settle", str(path), "--json")
    assert res.exit_code == 1
    assert res.stdout == json.dumps(report_dict(whole), ensure_ascii=False) + "\n"
    assert res.stderr.count("error [bad_json]") == 40 and res.stderr.count("\n") == 80


def test_the_table_of_a_long_game_is_the_table_of_its_report(tmp_path: Path) -> None:
    import io

    from mahjong_calc.game import report_dict
    from mahjong_calc.present.render_game import print_game

    for path in [_long_game(tmp_path, LONG * 3), *EXAMPLES]:
        expected = io.StringIO()
        print_game(report_dict(settle_game(read_game(str(path)))), "en", file=expected)
        res = run("game", "settle", str(path), "--lang", "en")
        assert res.stdout == expected.getvalue(), path


def test_a_bad_byte_late_in_a_long_game_refuses_it_before_any_hand(tmp_path: Path) -> None:
    path = _long_game(tmp_path, LONG * 40)
    path.write_bytes(path.read_bytes() + b'{"draw": true, "id": "\xff"}\n')
    res = run("game", "settle", str(path), "--json")
    assert res.exit_code == 2
    assert json.loads(res.stdout)["error"]["code"] == "bad_encoding"  # one JSON object: no hand was printed


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("variant: wuhu315\nplayers: [a, b, c, d]\ndealer: a\nchips: " + "9" * 5000 + "\nhands: []\n", "too many digits"),
        ("variant: wuhu315\nplayers: [a, b, c, d]\ndealer: a\nchips: " + "9" * 4000 + "\nhands: []\n", "to 1,000,000,000"),
        ("variant: wuhu315\nplayers: [a, b, c, d]\ndealer: a\nchips: 1000000001\nhands: []\n", "to 1,000,000,000"),
        ("variant: wuhu315\nplayers: [a, b, c, d]\ndealer: a\nhands: [{draw: true, id: " + "9" * 5000 + "}]\n", "too many digits"),
        ('{"variant": "wuhu315", "players": ["a", "b", "c", "d"], "dealer": "a", "chips": ' + "9" * 5000 + "}\n", "header is not valid JSON"),
    ],
    ids=["yaml-5000-digits", "yaml-4000-digits", "yaml-over-the-bound", "yaml-hand-5000-digits", "jsonl-5000-digits"],
)
def test_a_huge_number_is_bad_game(text: str, words: str, tmp_path: Path) -> None:
    path = tmp_path / ("game.jsonl" if text.startswith("{") else "game.yaml")
    path.write_text(text, encoding="utf-8")
    res = run("game", "settle", str(path), "--json")
    assert res.exit_code == 2, res.stderr
    assert json.loads(res.stdout)["error"]["code"] == "bad_game"
    assert words in res.stderr and res.stderr.count("\n") == 1 and len(res.stderr) < 400


def test_yaml_aliases_are_refused_as_a_game_file(tmp_path: Path) -> None:
    path = tmp_path / "alias.yaml"
    path.write_text("variant: wuhu315\nplayers: &p [a, b, c, d]\ndealer: a\nhands: [{draw: true, id: *p}]\n", encoding="utf-8")
    res = run("game", "settle", str(path))
    assert res.exit_code == 2 and "[bad_game]" in res.stderr
    assert "not allowed in a game file" in res.stderr and "ruleset" not in res.stderr


SHIPPED = [p for p in EXAMPLES if "rules" not in yaml.safe_load(p.read_text(encoding="utf-8"))][:3]  # no ruleset file beside them


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_yaml_read_a_hand_at_a_time_settles_as_the_whole_document(path: Path, tmp_path: Path) -> None:
    from mahjong_calc.game import RawHand, check_header, open_game, report_dict

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    long = {**data, "hands": [json.loads(json.dumps(h)) for h in data["hands"] * 50]}  # copies: no YAML aliases
    game_path = write(tmp_path, long)
    assert not isinstance(open_game(game_path).hands, tuple)  # constructed as the fold reaches each hand
    header = {k: v for k, v in long.items() if k != "hands"}
    whole = report_dict(settle_game(check_header(header, [RawHand(i + 1, h) for i, h in enumerate(long["hands"])], game_path)))
    res = run("game", "settle", game_path, "--json")
    assert res.stdout == json.dumps(whole, ensure_ascii=False) + "\n"


def test_a_yaml_value_that_cannot_be_read_is_bad_game(tmp_path: Path) -> None:
    path = tmp_path / "date.yaml"
    path.write_text("variant: wuhu315\nplayers: [a, b, c, d]\ndealer: a\nhands: [{draw: true, id: 2026-02-30}]\n", encoding="utf-8")
    res = run("game", "settle", str(path), "--json")
    assert res.exit_code == 2 and json.loads(res.stdout)["error"]["code"] == "bad_game"
