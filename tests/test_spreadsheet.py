"""A club's own spreadsheet read as meant: a dealer column filled down, a note column, Excel's dates and
yes/no cells, a CSV saved as GBK, a workbook (.xlsx) of several sheets; and what is still refused says
how to go on (`--extra-fields keep`, the line that is not text, the sheets a workbook has)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.game.log import open_games

ROOT = Path(__file__).resolve().parent.parent
SEASON = ROOT / "examples" / "club-season.csv"
WIN = "123456m13m99p555p2m"  # a self-drawn win anyone can have


def run(*args: str, env: dict[str, str] | None = None, stdin: str | bytes | None = None) -> Any:
    return CliRunner().invoke(app, list(args), env=env, input=stdin)


def settled(path: Path | str, *args: str) -> dict[str, Any]:
    res = run("game", "settle", str(path), "--json", *args)
    assert res.exit_code == 0, res.output
    data: dict[str, Any] = json.loads(res.stdout)
    return data


def rows_of(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))


def write_rows(path: Path, rows: list[list[str]], encoding: str = "utf-8") -> Path:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_bytes(out.getvalue().encode(encoding))
    return path


# --- a dealer column filled down ----------------------------------------------------------------

WINNERS = ["李", "张", "张", "赵", None, "王", "李", "李", "赵", "张", None, "王"] * 2  # 24 hands, the deal moving round the table


def _evening(tmp_path: Path, dealers: list[str] | None) -> Path:
    """24 hands of one game, `dealers` in the dealer column of every row (None: only on the first row)."""
    rows = [["game", "variant", "players", "chips", "dealer", "winner", "self_draw", "draw", "hand"]]
    for i, winner in enumerate(WINNERS):
        head = ["1", "wuhu315", "王,李,张,赵", "0"] if i == 0 else ["1", "", "", ""]
        dealer = "王" if i == 0 else (dealers[i] if dealers is not None else "")
        rows.append([*head, dealer, winner or "", "true" if winner else "", "" if winner else "true", WIN if winner else ""])
    return write_rows(tmp_path / f"evening-{'x' if dealers is None else dealers[1]}.csv", rows)


def test_a_dealer_column_filled_down_is_the_first_dealer_said_once_and_all_24_hands_settle(tmp_path: Path) -> None:
    plain = settled(_evening(tmp_path, None))
    assert len({h["dealer"] for h in plain["hands"]}) == 4  # the deal went round: a per-hand check would refuse most rows
    filled = _evening(tmp_path, ["王"] * 24)
    res = run("game", "settle", str(filled), "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert len(data["hands"]) == 24 and data["complete"] is True and all("error" not in h for h in data["hands"])
    assert data == plain
    assert res.stderr.count("the dealer column repeats one name on every row of game(s) 1") == 1


def test_a_dealer_column_that_changes_stays_each_hands_check(tmp_path: Path) -> None:
    worked_out = [h["dealer"] for h in settled(_evening(tmp_path, None))["hands"]]
    assert settled(_evening(tmp_path, worked_out))["complete"] is True
    wrong = [*worked_out[:5], "赵" if worked_out[5] != "赵" else "王", *worked_out[6:]]
    res = run("game", "settle", str(_evening(tmp_path, wrong)), "--json")
    codes = [h.get("error", {}).get("code") for h in json.loads(res.stdout)["hands"]]
    assert res.exit_code == 1 and codes == [None] * 5 + ["two_dealers"] + [None] * 18
    assert "repeats one name" not in res.stderr


# --- a note column ------------------------------------------------------------------------------


@pytest.mark.parametrize("column", ["note", "notes", "comment", "备注", "说明", "Note", "COMMENT"])
def test_a_note_column_is_each_hands_note(tmp_path: Path, column: str) -> None:
    rows = rows_of(SEASON)
    rows[0].append(column)
    for i, row in enumerate(rows[1:], 1):
        row.append(f"桌 {i}" if i % 2 else "")
    data = settled(write_rows(tmp_path / "noted.csv", rows))
    hands = [h for game in data["games"] for h in game["hands"]]
    assert [h.get("note") for h in hands] == [f"桌 {i}" if i % 2 else None for i in range(1, len(rows))]
    plain = settled(SEASON)
    for game in data["games"]:
        for hand in game["hands"]:
            hand.pop("note", None)
    assert data == plain  # a note changes nothing else


def test_a_note_round_trips_through_a_live_game_and_its_exports(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl", reason="openpyxl reads and writes the workbook")
    db = str(tmp_path / "games.db")
    log = write_rows(tmp_path / "log.csv", [
        ["variant", "players", "dealer", "winner", "discarder", "self_draw", "draw", "hand", "melds", "备注"],
        ["wuhu315", "王,李,张,赵", "王", "李", "", "是", "", "13m456m678m11p2m", "555p@王", "李 的好牌"],
        ["", "", "", "张", "王", "", "", "111m444m777m99m777z", "", ""],
        ["", "", "", "", "", "", "true", "", "", "流局, 没人和"]])
    want = settled(log)
    assert [h.get("note") for h in want["hands"]] == ["李 的好牌", None, "流局, 没人和"]
    assert run("game", "import", str(log), "--db", db).exit_code == 0
    history = run("game", "history", "--db", db, "--lang", "en").stdout
    assert "(note: 李 的好牌)" in history and "(note: 流局, 没人和)" in history
    assert "(备注: 李 的好牌)" in run("game", "history", "--db", db, "--lang", "zh").stdout
    for fmt, name in (("yaml", "back.yaml"), ("csv", "back.csv"), ("xlsx", "back.xlsx")):
        res = run("game", "export", "--db", db, "-o", fmt)
        assert res.exit_code == 0, res.output
        path = tmp_path / name
        path.write_bytes(res.stdout_bytes)
        assert settled(path) == want, fmt
    sheet = openpyxl.load_workbook(tmp_path / "back.xlsx").active
    header = [c.value for c in sheet[1]]
    assert sheet.cell(2, header.index("note") + 1).value == "李 的好牌"
    added = run("game", "add", "--db", db, "--winner", "赵", "--self-draw", WIN, "--note", "最后一局")
    assert added.exit_code == 0, added.output
    assert "(note: 最后一局)" in run("game", "history", "--db", db, "--lang", "en").stdout


# --- columns that are not fields ----------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_any_other_unknown_column_names_extra_fields_keep(tmp_path: Path, lang: str) -> None:
    rows = rows_of(SEASON)
    rows[0].append("table")
    for row in rows[1:]:
        row.append("7")
    path = write_rows(tmp_path / "table.csv", rows)
    res = run("game", "settle", str(path), "--json", "--lang", lang)
    errors = [h["error"] for g in json.loads(res.stdout)["games"] for h in g["hands"]]
    assert res.exit_code == 1 and {e["code"] for e in errors} == {"unknown_field"}
    assert all("`--extra-fields keep`" in e["message"] for e in errors)
    batch = write_rows(tmp_path / "records.csv", [["hand", "self_draw", "table"], [WIN, "是", "7"]])
    res = run("batch", str(batch), "--lang", lang)
    assert res.exit_code == 1 and "`--extra-fields keep`" in json.loads(res.stdout)["error"]["message"]


# --- dates and yes/no cells ---------------------------------------------------------------------

DATES = [
    ("2026-12-05", "2026-12-05"), ("2026/12/5", "2026-12-05"), ("2026-12-5", "2026-12-05"), ("2026.12.5", "2026-12-05"),
    ("2026年12月5日", "2026-12-05"), ("2026-12-05T20:30", "2026-12-05T20:30:00"),
    ("2026/12/5 20:30", "2026-12-05T20:30:00"), ("2026-12-5 9:05:07", "2026-12-05T09:05:07"), ("2026.12.5 20:30", "2026-12-05T20:30:00"),
    ("2026年12月5日 20:30", "2026-12-05T20:30:00"),
]


@pytest.mark.parametrize(("cell", "iso"), DATES, ids=[d[0] for d in DATES])
def test_the_date_forms_a_spreadsheet_writes(tmp_path: Path, cell: str, iso: str) -> None:
    rows = rows_of(SEASON)
    rows[1][1] = cell
    path = write_rows(tmp_path / "dated.csv", rows)
    assert next(iter(open_games(str(path)))).header["date"] == iso
    res = run("stats", str(path), "--since", "2026/12/5", "--until", "2026年12月5日", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["games"] == 1  # the stats' --since/--until read the same forms


@pytest.mark.parametrize("cell", ["2026/13/5", "2026/2/30", "5/12/2026", "2026-12/5", "明天"])
def test_a_date_that_is_none_is_refused_naming_its_place_once_in_each_language(tmp_path: Path, cell: str) -> None:
    rows = rows_of(SEASON)
    rows[1][1] = cell
    path = write_rows(tmp_path / "club-excel.csv", rows)
    for env in ({"LANG": "zh_CN.UTF-8", "MJCALC_LANG": ""}, {"LANG": "C.UTF-8", "MJCALC_LANG": ""}):
        res = run("game", "settle", str(path), env=env)
        assert res.exit_code == 2
        line = res.stderr.strip()
        assert "[bad_game]" in line and line.count("club-excel.csv") == 1, line
    assert "第 2 行 (牌局 1)" in run("game", "settle", str(path), "--lang", "zh").stderr


YES_NO = [("true", True), ("false", False), ("TRUE", True), ("FALSE", False), ("1", True), ("0", False), ("yes", True), ("no", False),
          ("Yes", True), ("NO", False), ("Y", True), ("n", False), ("是", True), ("否", False), ("√", True), ("×", False)]


def test_yes_no_cells_as_spreadsheets_write_them(tmp_path: Path) -> None:
    rows = [["id", "hand", "self_draw"], *([cell, WIN, cell] for cell, _ in YES_NO)]
    res = run("batch", str(write_rows(tmp_path / "yes.csv", rows)), "--lang", "en")
    assert res.exit_code == 0, res.output
    results = [json.loads(line) for line in res.stdout.splitlines()]
    alone = {flag: json.loads(run("batch", "-", "--lang", "en", stdin=json.dumps({"hand": WIN, "self_draw": flag})).stdout) for flag in (True, False)}
    for (cell, flag), got in zip(YES_NO, results, strict=True):
        assert got["payments"] == alone[flag]["payments"] and got["items"] == alone[flag]["items"], cell
    rows = rows_of(SEASON)
    rows[3][8] = "是"  # game 1's drawn hand
    rows[1][7] = "√"
    assert settled(write_rows(tmp_path / "yes-log.csv", rows)) == settled(SEASON)
    bad = run("batch", "-", "-i", "csv", stdin=f"hand,self_draw\n{WIN},maybe\n")
    assert "must be yes or no" in json.loads(bad.stdout)["error"]["message"]


# --- encodings ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("encoding", "said"), [("gbk", "GB18030 (GBK)"), ("gb18030", "GB18030 (GBK)"), ("utf-8-sig", "UTF-8 (BOM)"),
                                                ("utf-8", "UTF-8")])
def test_a_csv_in_gbk_or_with_a_bom_settles_as_its_utf8_twin(tmp_path: Path, encoding: str, said: str) -> None:
    path = tmp_path / "club.csv"
    path.write_bytes(SEASON.read_text(encoding="utf-8").encode(encoding))
    assert settled(path) == settled(SEASON)
    res = run("game", "settle", str(path), "--verbose")
    assert f"mjcalc: {path}: read as {said}" in res.stderr.splitlines()
    assert "read as" not in run("game", "settle", str(path)).stderr  # only with --verbose
    stats = run("stats", str(path), "--json", "--verbose")
    season = run("stats", str(SEASON), "--json").stdout
    assert json.loads(stats.stdout.replace(str(path), str(SEASON))) == json.loads(season) and f"read as {said}" in stats.stderr


def test_bytes_in_neither_encoding_are_bad_encoding_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "club.csv"
    lines = SEASON.read_text(encoding="utf-8").encode("gbk").split(b"\n")
    lines[3] += b"\x80\xff"  # line 4: neither GB18030 nor UTF-8
    path.write_bytes(b"\n".join(lines))
    res = run("game", "settle", str(path))
    assert res.exit_code == 2 and "[bad_encoding]" in res.stderr and "line 4: neither UTF-8 nor GB18030" in res.stderr
    yaml_file = tmp_path / "g.jsonl"
    yaml_file.write_bytes(b'{"variant": "wuhu315", "players": ["a", "b", "c", "d"], "dealer": "a"}\n{"winner": "\xe6\x9d"}\n')
    res = run("game", "settle", str(yaml_file))
    assert res.exit_code == 2 and "line 2: not UTF-8 text" in res.stderr


def test_a_batch_csv_in_gbk_scores_as_its_utf8_twin_and_a_bad_line_spoils_only_itself(tmp_path: Path) -> None:
    text = f"id,hand,self_draw\n红中,{WIN},是\n白板,{WIN},否\n"
    utf8 = tmp_path / "u.csv"
    utf8.write_text(text, encoding="utf-8")
    gbk = tmp_path / "g.csv"
    gbk.write_bytes(text.encode("gbk") + b"\xff\xfe,1m,1\n" + f"发财,{WIN},1\n".encode("gbk"))
    want = run("batch", str(utf8)).stdout.splitlines()
    res = run("batch", str(gbk), "--verbose")
    got = res.stdout.splitlines()
    assert got[:2] == want and res.exit_code == 1
    assert json.loads(got[2])["error"]["code"] == "bad_encoding" and json.loads(got[2])["line"] == 4
    assert json.loads(got[3])["id"] == "发财"
    assert f"mjcalc: {gbk}: read as GB18030 (GBK)" in res.stderr.splitlines()


# --- workbooks ----------------------------------------------------------------------------------


def _workbook(path: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    openpyxl = pytest.importorskip("openpyxl", reason="openpyxl writes the test's workbook")
    book = openpyxl.Workbook()
    book.remove(book.active)
    for title, rows in sheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    book.save(path)
    return path


def _typed(row: list[str]) -> list[Any]:
    """A CSV row as Excel would hold it: numbers as numbers, dates as dates, TRUE as a yes/no cell, empty as nothing."""
    out: list[Any] = []
    for cell in row:
        if cell.isdigit():
            out.append(int(cell))
        elif len(cell) == 10 and cell[4] == "-":
            out.append(dt.datetime.fromisoformat(cell))
        elif cell == "true":
            out.append(True)
        else:
            out.append(cell or None)
    return out


def test_a_workbook_of_two_evenings_settles_as_its_csv(tmp_path: Path) -> None:
    rows = rows_of(SEASON)
    head, body = rows[0], [_typed(r) for r in rows[1:]]
    one = _workbook(tmp_path / "season.xlsx", {"赛季": [head, *body]})
    assert settled(one) == settled(SEASON)
    evenings = _workbook(tmp_path / "evenings.xlsx", {"第一晚": [head, *body[:4]], "第二晚": [head, *body[4:]]})
    both = settled(evenings, "--sheet", "all")
    assert both["totals"] == settled(SEASON)["totals"]
    assert [g["hands"] for g in both["games"]] == [g["hands"] for g in settled(SEASON)["games"]]
    first = run("game", "settle", str(evenings), "--json")
    assert first.exit_code == 0 and len(json.loads(first.stdout)["hands"]) == 4  # the first sheet alone, one game
    assert f"mjcalc: {evenings}: the workbook's other sheet(s) 第二晚 were not read (--sheet NAME or --sheet all reads them)" in first.stderr
    second = run("game", "settle", str(evenings), "--sheet", "第二晚", "--json", "--verbose")
    assert [g["totals"] for g in json.loads(second.stdout)["games"]] == [g["totals"] for g in settled(SEASON)["games"][1:]]
    assert "were not read" not in second.stderr and f"{evenings}: read sheet(s) 第二晚" in second.stderr
    table = run("game", "settle", str(evenings), "--sheet", "all", "--lang", "en").stdout
    assert "game 第一晚:1 · wuhu315 · 2026-11-06" in table and "game 第二晚:3" in table
    stats = run("stats", str(evenings), "--sheet", "all", "--json")
    season = json.loads(run("stats", str(SEASON), "--json").stdout)
    assert json.loads(stats.stdout)["variants"] == season["variants"]


def test_a_workbooks_bad_rows_are_error_rows_at_their_row_numbers(tmp_path: Path) -> None:
    head = ["variant", "players", "dealer", "chips", "winner", "self_draw", "hand"]
    path = _workbook(tmp_path / "bad.xlsx", {"Sheet": [
        head, ["wuhu315", "A,B,C,D", "A", 0, "B", True, WIN], [], ["", "", "", None, "C", "maybe", WIN], ["", "", "", None, "C", "是", WIN],
        ["", "", "", None, "D", True, WIN, "a cell past the header"]]})
    res = run("game", "settle", str(path), "--json")
    hands = json.loads(res.stdout)["hands"]
    assert res.exit_code == 1
    assert [h.get("error", {}).get("code") for h in hands] == [None, "bad_field", None, "bad_csv_row"]
    assert hands[1]["error"]["message"].startswith("line 4: ") and hands[3]["error"]["message"].startswith("line 6: ")
    assert json.loads(res.stdout)["left_out"] == [{"no": 2, "line": 4}, {"no": 4, "line": 6}]


def test_a_workbook_that_cannot_be_read_or_a_sheet_it_lacks_is_exit_2(tmp_path: Path) -> None:
    path = _workbook(tmp_path / "one.xlsx", {"A": [["hand"], [WIN]]})
    for command in (["game", "settle"], ["stats"], ["batch"]):
        res = run(*command, str(path), "--sheet", "B")
        assert res.exit_code == 2 and "[unknown_sheet]" in res.stderr and "its sheets are A" in res.stderr, command
    fake = tmp_path / "fake.xlsx"
    fake.write_text("game,variant\n", encoding="utf-8")
    for command in (["game", "settle"], ["batch"]):
        res = run(*command, str(fake))
        assert res.exit_code == 2 and "[bad_xlsx]" in res.stderr, command


def test_batch_reads_a_workbook_as_its_csv(tmp_path: Path) -> None:
    rows = [["id", "hand", "self_draw", "melds"], ["r1", WIN, "true", ""], ["r2", "123m456m789m11p999p", "", ""], ["r3", "13m456m678m11p2m", "是", "555p"]]
    want = run("batch", str(write_rows(tmp_path / "r.csv", rows))).stdout
    path = _workbook(tmp_path / "r.xlsx", {"hands": [_typed(r) for r in rows], "more": [["hand"], [WIN]]})
    res = run("batch", str(path))
    assert res.exit_code == 0 and res.stdout == want
    assert "the workbook's other sheet(s) more were not read" in res.stderr
    both = run("batch", str(path), "--sheet", "all", "-o", "csv").stdout.splitlines()
    assert len(both) == 1 + 3 + 1 and both[-1].startswith("2,,win,")  # the second sheet's record, at its own row 2
    piped = run("batch", "-", "-i", "xlsx", stdin=path.read_bytes())
    assert piped.stdout == want


def test_stats_writes_its_csv_rows_as_a_workbook(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl", reason="openpyxl reads the workbook written")
    out = tmp_path / "season.xlsx"
    res = run("stats", str(SEASON), "--xlsx", str(out), "--csv")
    assert res.exit_code == 0, res.output
    want = list(csv.reader(io.StringIO(res.stdout)))
    got = [["" if v is None else str(v) for v in row] for row in openpyxl.load_workbook(out).active.iter_rows(values_only=True)]
    assert len(got) == len(want) and got[0] == want[0]
    for g, w in zip(got[1:], want[1:], strict=True):
        assert [float(a) if a.replace(".", "").isdigit() else a for a in g] == [float(b) if b.replace(".", "").isdigit() else b for b in w]
    res = run("stats", str(SEASON), "--xlsx", str(tmp_path / "no" / "such" / "dir.xlsx"))
    assert res.exit_code == 3 and "[output_error]" in res.stderr
