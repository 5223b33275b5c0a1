"""`mjcalc batch` for the person reading it: field names in messages, close-match hints, the summary."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
from pathlib import Path

import pytest
from installed import MJCALC, child_env
from typer.testing import CliRunner

from mahjong_calc.cli.app import app

runner = CliRunner()


def _rows(records: list[dict], *args: str) -> list[dict]:
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    out = runner.invoke(app, ["batch", "-", "-o", "jsonl", *args], input=text)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


@pytest.mark.parametrize(
    ("record", "code", "field"),
    [
        ({"hand": "123m456p22z", "variant": "chizhou", "concealed_kongs": ["5555m", "1111z"]}, "missing_discarder", "discarder"),
        ({"hand": "111m222p333s456m77z", "variant": "pujiang", "robbing_kong": True}, "robbed_player_required", "discarder"),
        ({"hand": "123456m13m99p555p2m", "after_kong": True}, "after_kong_without_kong", "after_kong"),
        ({"hand": "123456m13m99p555p2m", "discarder": "左"}, "bad_seat", "discarder"),
        ({"hand": "123456m13m99p555p2m", "piao": 2}, "flag_not_in_variant", "piao"),
    ],
)
def test_record_messages_name_fields_not_flags(record: dict, code: str, field: str) -> None:
    (row,) = _rows([record])
    assert row["error"]["code"] == code
    assert field in row["error"]["message"]
    assert "--" not in row["error"]["message"]


def test_the_cli_still_names_flags() -> None:
    out = runner.invoke(app, ["score", "123456m13m99p555p2m", "--after-kong"])
    assert out.exit_code == 2 and "--after-kong" in out.output


@pytest.mark.parametrize(
    ("wrong", "right"),
    [("selfdraw", "self_draw"), ("self-draw", "self_draw"), ("meld", "melds"), ("dealerseat", "dealer_seat"), ("discard", "discarder")],
)
def test_an_unknown_field_suggests_the_close_one(wrong: str, right: str) -> None:
    (row,) = _rows([{"hand": "123456m13m99p555p2m", wrong: True}])
    assert row["error"]["code"] == "unknown_field"
    assert f"did you mean '{right}'?" in row["error"]["message"]


def test_an_unknown_field_far_from_any_gets_the_list_only() -> None:
    (row,) = _rows([{"hand": "123456m13m99p555p2m", "colour": "red"}])
    assert "did you mean" not in row["error"]["message"] and "self_draw" in row["error"]["message"]


def test_an_unknown_csv_column_suggests_the_close_one() -> None:
    out = runner.invoke(app, ["batch", "-", "-i", "csv", "-o", "jsonl"], input="hand,selfdraw\n123456m13m99p555p2m,true\n")
    row = json.loads(out.stdout.splitlines()[0])
    assert row["error"]["code"] == "unknown_field" and "did you mean 'self_draw'?" in row["error"]["message"]


RECORDS = [
    {"id": 1, "hand": "123456m13m99p555p2m", "self_draw": True},
    {"id": "b", "hand": "12x3m"},
    {"id": 3, "hand": "1112345678999m1m", "win": "1m"},
    {"id": 4, "hand": "123m456p789s11z22z2z", "variant": "chizhou", "self_draw": True},
    {"id": 5, "hand": "123456m13m99p555p"},
]


def _input(records: list[dict], extra: str = "") -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records) + extra


def test_summary_lists_failures_codes_and_pattern_names() -> None:
    out = runner.invoke(app, ["batch", "-", "-o", "summary"], input=_input(RECORDS, "not json\n"), env={"COLUMNS": "120"})
    assert out.exit_code == 1
    text = out.stdout
    assert "failed records" in text
    failed = text.split("failed records", 1)[1]
    for line, rid, code in (("2", "b", "unknown_character"), ("5", "5", "wrong_tile_count"), ("6", "", "bad_json")):
        cells = [[c.strip() for c in r.strip("|").split("|")] for r in failed.splitlines() if f" {code} " in r]
        assert [line, rid, code] in [c[:3] for c in cells]
    assert "12[x]3m" in text  # where in the hand
    assert "error code" in text and re.search(r"unknown_character\s*\|\s*1", text)
    assert "清一色" in text and "pure one suit" in text  # names, not keys
    assert "qing_yi_se" not in text
    assert "total value: the sum of each win's value" in text


def test_summary_lists_each_failure_message_once_with_its_count_and_first_lines() -> None:
    bad = [{"id": i, "hand": "12x3m"} for i in range(25)] + [{"id": f"u{i}", "hand": "1" * (i + 1) + "x3m"} for i in range(30)]
    out = runner.invoke(app, ["batch", "-", "-o", "summary"], input=_input(bad), env={"COLUMNS": "160"})
    assert re.search(r"unknown_character\s*\|\s*55", out.stdout)
    failed = out.stdout.split("failed records")[1]
    assert "the first 20 messages; 11 more records" in failed
    listed = [r for r in failed.splitlines() if "unknown_character" in r]
    assert len(listed) == 20  # 1 message for the 25 alike, then 19 distinct ones
    assert re.search(r"\|\s*1, 2, 3, …\s*\|\s*0, 1, 2\s*\|\s*unknown_character\s*\|\s*25\s*\|", failed)
    assert failed.count("12[x]3m") == 1


def test_jsonl_to_a_file_says_on_stderr_how_many_failed(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(_input(RECORDS), encoding="utf-8")
    target = tmp_path / "out.jsonl"
    with target.open("w") as sink:
        proc = subprocess.run([*MJCALC, "batch", str(source)], stdout=sink, stderr=subprocess.PIPE, text=True,
                              env=child_env(), cwd=tmp_path, check=False)
    assert proc.returncode == 1
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and "2 of 5 records failed" in lines[0] and "unknown_character 1" in lines[0]
    assert len(target.read_text(encoding="utf-8").splitlines()) == 5


def test_csv_error_rows_keep_the_column_of_a_notation_error() -> None:
    out = runner.invoke(app, ["batch", "-", "-o", "csv"], input=_input(RECORDS[:2]))
    rows = list(csv.reader(io.StringIO(out.stdout)))
    (bad,) = [r for r in rows if r[1] == "b"]
    assert bad[-2] == "unknown_character" and "at column 3: 12[x]3m" in bad[-1]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_batch_rules_file_and_set(tmp_path: Path, jobs: str) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: wuhu315\nname: house\nnumbers: {jiao: 40}\n", encoding="utf-8")
    records = [{"id": i, "hand": "1112345678999m1m", "win": "1m"} for i in range(300)]
    records.append({"id": "named", "hand": "1112345678999m1m", "win": "1m", "variant": "wuhu525"})
    out = runner.invoke(app, ["batch", "-", "-o", "jsonl", "--jobs", jobs, "--rules", str(house), "--set", "numbers.jiao_self_draw=15"],
                        input=_input(records))
    assert out.exit_code == 0, out.output
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    direct = json.loads(runner.invoke(app, ["score", "1112345678999m1m", "-w", "1m", "--rules", str(house), "--json"]).stdout)
    assert rows[0]["variant"] == "house" and rows[0]["value"] == direct["value"]
    assert all(r["value"] == direct["value"] for r in rows[:300])
    assert rows[-1]["variant"] == "wuhu525"


def test_a_batch_run_leaves_no_rules_behind(tmp_path: Path) -> None:
    """A run's --rules, --set and --extra-fields hold for its own records: the process (a library
    caller, the next test) goes on scoring as before."""
    from mahjong_calc.batch import score_record
    from mahjong_calc.batch.evaluate import Defaults, current_defaults

    house = tmp_path / "house.yaml"
    house.write_text("extends: wuhu315\nname: house\nnumbers: {jiao: 40}\n", encoding="utf-8")
    record = {"hand": "1112345678999m1m", "win": "1m"}
    chizhou = {"hand": "123456m13m99p555p2m", "variant": "chizhou", "discarder": "next"}
    before = score_record(record), score_record(chizhou)
    values = []
    for args in (["--rules", str(house), "--set", "numbers.jiao_self_draw=15"], ["--extra-fields", "keep"]):
        out = runner.invoke(app, ["batch", "-", "-o", "jsonl", *args], input=_input([record]))
        assert out.exit_code == 0, out.output
        values.append(json.loads(out.stdout)["value"])
        assert current_defaults() == Defaults(), args
        assert (score_record(record), score_record(chizhou)) == before, args
    assert values[0] != before[0]["value"] == values[1]  # the run itself did score under its --rules and --set


def test_batch_bad_rules_file_is_exit_2_before_reading() -> None:
    out = runner.invoke(app, ["batch", "-", "--rules", "/nonexistent/house.yaml"], input="{}\n")
    assert out.exit_code == 2 and "ruleset_not_found" in out.output
    out = runner.invoke(app, ["batch", "-", "--set", "numbers.nothing=1"], input="{}\n")
    assert out.exit_code == 2 and "ruleset_invalid" in out.output
