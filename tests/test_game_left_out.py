"""A log never gives wrong money silently: a refused hand whose winner is readable passes the deal on as
that winner says; an unreadable winner leaves who deals unsure, and a later hand whose money depends on
it is an error row (`dealer_unknown`) naming the line to fix, never settled on a guess; totals and 结算
that leave hands out say so, in each language, and the JSON says `"complete": false` with the lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mahjong_calc.cli.app import app

HEAD = "game,variant,players,dealer,chips,winner,discarder,self_draw,draw,hand,melds\n"
FIRST = '1,wuhu315,"A,B,C,D",A,0,'  # the first row's header cells (no 子 ledger: a long log never ends), then its hand's
WIN = "123456m13m99p555p2m"  # a self-drawn win whose value is more when its winner deals (庄)
B_WINS = "13m456m678m11p2m"


def run(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(app, list(args), env=env)


def log(tmp_path: Path, rows: list[str], name: str = "log.csv") -> Path:
    """A CSV log of one game: players A,B,C,D, A deals first; `rows` are each hand's cells after the header's."""
    path = tmp_path / name
    path.write_text(HEAD + "".join((FIRST if i == 0 else "1,,,,,") + row + "\n" for i, row in enumerate(rows)), encoding="utf-8")
    return path


def table_row(table: str, no: int) -> list[str]:
    """The cells of hand `no`'s row of a `game settle` table: number, dealer, winner, how, value, ..."""
    row = next(line for line in table.splitlines() if line.startswith(f"| {no} "))
    return [cell.strip() for cell in row.strip("|").split("|")]


def settle(path: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    res = run("game", "settle", str(path), "--json", *args)
    return res.exit_code, json.loads(res.stdout), res.stderr


def test_cascade_csv_settles_hand_3_with_c_dealing_and_hand_1_an_error_row(tmp_path: Path) -> None:
    """The issue's cascade.csv: hand 1 is B's self-draw with a typo in its tiles; hands 2 and 3 are C's self-draws."""
    cascade = log(tmp_path, [f"B,,true,,{B_WINS[:3]}x{B_WINS[3:]},555p", f"C,,true,,{WIN},", f"C,,true,,{WIN},"], "cascade.csv")
    fixed = log(tmp_path, [f"B,,true,,{B_WINS},555p", f"C,,true,,{WIN},", f"C,,true,,{WIN},"], "fixed.csv")
    code, got, _ = settle(cascade)
    assert code == 1
    _, want, _ = settle(fixed)
    assert got["hands"][0]["error"]["code"] == "unknown_character"
    assert [h["dealer"] for h in got["hands"]] == [h["dealer"] for h in want["hands"]] == ["A", "B", "C"]
    for g, w in zip(got["hands"][1:], want["hands"][1:], strict=True):
        g["settlement"].pop("chips_after"), w["settlement"].pop("chips_after")  # hand 1 moved 子 in the fixed log only
        assert g == w  # hands 2 and 3 as in the fixed log: the error row passed the deal on as B won
    first = want["hands"][0]["settlement"]["changes"]
    assert got["totals"] == {p: n - first[p] for p, n in want["totals"].items()}  # the fixed totals, less hand 1 alone
    table = run("game", "settle", str(cascade)).stdout
    value = want["hands"][2]["result"]["value"]
    assert table_row(table, 3)[:5] == ["3", "C", "C", "自摸", str(value)]
    assert value > want["hands"][1]["result"]["value"]  # C won more as the dealer: a guessed dealer would have shown it wrong


UNREADABLE = [  # hand 1's row: its winner (or draw) cannot be read
    ("unknown winner", f"Bx,,true,,{WIN},", "unknown_player"),
    ("no winner nor draw", f",,true,,{WIN},", "missing_field"),
    ("a draw cell that is no yes/no", "B,,,maybe,,", "bad_field"),
    ("a row of the wrong width", "B,,true", "bad_csv_row"),
    ("a draw and a winner", f"B,,true,true,{WIN},", "conflicting_fields"),
]


@pytest.mark.parametrize(("why", "row", "code"), UNREADABLE, ids=[u[0] for u in UNREADABLE])
def test_an_unreadable_winner_never_settles_a_later_hand_on_a_guessed_dealer(tmp_path: Path, why: str, row: str, code: str) -> None:
    # hand 1: A wins and keeps the deal; after hand 2 (line 3) A deals again (A won, or a draw) or B does (anyone else won)
    path = log(tmp_path, [f"A,,true,,{WIN},", row, f"C,,true,,{WIN},", f"C,,true,,{WIN},", f"A,,true,,{WIN},", f"A,,true,,{WIN},"])
    status, data, stderr = settle(path)
    hands = data["hands"]
    assert status == 1
    assert hands[1]["error"]["code"] == code and hands[1]["dealer"] == "A"
    # hand 3: C is neither A nor B, so C's self-draw pays the same whoever deals: settled, with no dealer named
    assert "error" not in hands[2] and hands[2]["dealer"] is None
    # hand 4: B deals (C then wins as a player) or C does (C wins as the dealer): the money depends on it
    assert hands[3]["error"]["code"] == "dealer_unknown" and hands[3]["dealer"] is None
    assert "fix line 3" in hands[3]["error"]["message"] and "hand 4: error [dealer_unknown]" in stderr
    # C won hand 4 whoever dealt it (B passes the deal to C; C keeps it): C deals hand 5, known again
    assert [h["dealer"] for h in hands[4:]] == ["C", "D"] and all("error" not in h for h in hands[4:])
    assert data["complete"] is False and data["left_out"] == [{"no": 2, "line": 3}, {"no": 4, "line": 5}]
    table = run("game", "settle", str(path)).stdout
    assert table_row(table, 3)[:4] == ["3", "?", "C", "自摸"] and table_row(table, 4)[:4] == ["4", "?", "", "[dealer_unknown]"]


def test_a_later_hand_that_names_its_dealer_makes_the_deal_known_again(tmp_path: Path) -> None:
    path = log(tmp_path, [f"Bx,,true,,{WIN},", f"B,,true,,{WIN},"])
    text = path.read_text(encoding="utf-8").replace("1,,,,,B,", "1,,,B,,B,")  # hand 2's dealer cell: B (A or B may deal it)
    path.write_text(text, encoding="utf-8")
    _, data, _ = settle(path)
    assert data["hands"][1]["dealer"] == "B" and "error" not in data["hands"][1]
    wrong = path.read_text(encoding="utf-8").replace("1,,,B,,B,", "1,,,C,,B,")  # C cannot deal hand 2: whoever deals, not C
    path.write_text(wrong, encoding="utf-8")
    _, data, _ = settle(path)
    assert data["hands"][1]["error"]["code"] == "two_dealers"


NOT_FINAL = [
    ("en", "1 hand left out (line 2): these totals are not final", "Transfers:"),
    ("zh", "1 局未计入 (第 2 行): 这些合计还不是最终结果", "结算:"),
]


@pytest.mark.parametrize(("lang", "line", "transfers"), NOT_FINAL, ids=[n[0] for n in NOT_FINAL])
def test_totals_that_leave_a_hand_out_say_so_in_each_language(tmp_path: Path, lang: str, line: str, transfers: str) -> None:
    path = log(tmp_path, [f"B,,true,,{B_WINS[:3]}x{B_WINS[3:]},555p", f"C,,true,,{WIN},"])
    res = run("game", "settle", str(path), "--lang", lang)
    assert res.exit_code == 1
    lines = res.stdout.splitlines()
    assert line in lines and lines.index(line) < lines.index(transfers)  # with the totals, before who pays whom
    complete = log(tmp_path, [f"B,,true,,{B_WINS},555p", f"C,,true,,{WIN},"], "complete.csv")
    res = run("game", "settle", str(complete), "--lang", lang)
    assert res.exit_code == 0 and transfers in res.stdout
    assert not any("not final" in x or "最终" in x for x in res.stdout.splitlines())


def test_the_not_final_line_counts_and_names_every_hand_left_out(tmp_path: Path) -> None:
    bad = (1, 4, 6, 7, 8, 9, 10, 11)  # hands 2, 5, 7, ... (on lines 3, 6, 8, ...): a typo in each
    path = log(tmp_path, [f"C,,true,,{WIN}x," if i in bad else f"C,,true,,{WIN}," for i in range(12)])
    _, data, _ = settle(path)
    lines = [h["line"] for h in data["left_out"]]
    assert lines == [3, 6, 8, 9, 10, 11, 12, 13]
    res = run("game", "settle", str(path), "--lang", "en")
    assert "8 hands left out (lines 3, 6, 8, 9, 10, 11, 12, 13): these totals are not final" in res.stdout.splitlines()


def test_several_games_say_which_games_left_hands_out_and_the_json_is_not_complete(tmp_path: Path) -> None:
    path = tmp_path / "two.csv"
    path.write_text(HEAD + f'1,wuhu315,"A,B,C,D",A,0,C,,true,,{WIN},\n2,wuhu315,"A,B,C,D",A,0,C,,true,,{WIN}x,\n2,,,,,B,,true,,{WIN},\n',
                    encoding="utf-8")
    res = run("game", "settle", str(path), "--json")
    data = json.loads(res.stdout)
    assert res.exit_code == 1 and data["complete"] is False
    assert data["left_out"] == [{"game": "2", "no": 1, "line": 3}]
    assert [g["complete"] for g in data["games"]] == [True, False]
    table = run("game", "settle", str(path), "--lang", "en").stdout
    assert table.count("1 hand left out (line 3): these totals are not final") == 2  # game 2's table, and the totals over both


def test_a_season_that_leaves_hands_out_says_its_standings_are_not_final(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    log(tmp_path, [f"C,,true,,{WIN}x,", f"C,,true,,{WIN},"])
    res = run("stats", "log.csv", "--json")
    data = json.loads(res.stdout)
    assert res.exit_code == 1 and data["complete"] is False
    assert data["left_out"] == [{"game": "log.csv", "no": 1, "line": 2}]
    assert "1 hand left out (game log.csv): these totals are not final" in run("stats", "log.csv", "--lang", "en").stdout
    assert "1 局未计入 (牌局 log.csv): 这些合计还不是最终结果" in run("stats", "log.csv", "--lang", "zh").stdout
    whole = log(tmp_path, [f"C,,true,,{WIN},"], "whole.csv")
    assert json.loads(run("stats", str(whole), "--json").stdout)["complete"] is True


@pytest.mark.parametrize("kind", ["yaml", "jsonl"])
def test_a_game_file_without_rows_names_hands_and_json_lines_names_lines(tmp_path: Path, kind: str) -> None:
    header = {"variant": "wuhu315", "players": ["A", "B", "C", "D"], "dealer": "A", "chips": 0}
    hands = [{"winner": "C", "self_draw": True, "hand": WIN}, {"winner": "C", "self_draw": True, "hand": WIN + "x"}]
    path = tmp_path / f"g.{kind}"
    if kind == "yaml":
        path.write_text(json.dumps({**header, "hands": hands}, ensure_ascii=False), encoding="utf-8")  # JSON is YAML
        said, left = "1 hand left out (hand 2): these totals are not final", [{"no": 2, "line": None}]
    else:
        path.write_text("\n".join(json.dumps(x) for x in (header, *hands)) + "\n", encoding="utf-8")
        said, left = "1 hand left out (line 3): these totals are not final", [{"no": 2, "line": 3}]
    assert settle(path)[1]["left_out"] == left
    assert said in run("game", "settle", str(path), "--lang", "en").stdout.splitlines()
