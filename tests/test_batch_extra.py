"""`mjcalc batch --extra-fields keep`: fields that are not record fields are echoed, never dropped."""

from __future__ import annotations

import csv
import io
import json

import pytest
from typer.testing import CliRunner

from mahjong_calc.cli.app import app

runner = CliRunner()
CLUB_CSV = "id,date,hand,self_draw,note\n1,2026-11-06,123456m13m99p555p2m,true,=cmd\n2,2026-11-06,12x3m,,\n"


def test_the_default_stays_an_unknown_field_row() -> None:
    out = runner.invoke(app, ["batch", "-", "-i", "csv"], input=CLUB_CSV)
    assert out.exit_code == 1
    assert [json.loads(line)["error"]["code"] for line in out.stdout.splitlines()] == ["unknown_field", "unknown_field"]


def test_keep_echoes_them_under_extra_in_json_lines() -> None:
    out = runner.invoke(app, ["batch", "-", "-i", "csv", "--extra-fields", "keep"], input=CLUB_CSV)
    assert out.exit_code == 1  # the second record is still a bad hand
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert rows[0]["valid"] is True and rows[0]["value"] == 8 and list(rows[0])[-1] == "extra"
    assert rows[0]["extra"] == {"date": "2026-11-06", "note": "=cmd"}
    assert rows[1]["error"]["code"] == "unknown_character" and rows[1]["extra"] == {"date": "2026-11-06", "note": ""}
    plain = runner.invoke(app, ["batch", "-"], input='{"id": "1", "hand": "123456m13m99p555p2m", "self_draw": true}\n')
    rows[0].pop("extra")
    assert rows[0] == json.loads(plain.stdout) | {"line": 2}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_keep_adds_the_input_columns_to_csv_output(jobs: str) -> None:
    out = runner.invoke(app, ["batch", "-", "-i", "csv", "-o", "csv", "--extra-fields", "keep", "--jobs", jobs], input=CLUB_CSV)
    rows = list(csv.reader(io.StringIO(out.stdout)))
    assert rows[0][-3:] == ["message", "date", "note"]
    assert rows[1][-2:] == ["2026-11-06", "'=cmd"]  # neutralised, as every text cell
    assert rows[2][-2:] == ["2026-11-06", ""]


def test_keep_from_json_lines_to_csv_is_one_json_column() -> None:
    text = '{"hand": "123456m13m99p555p2m", "self_draw": true, "table": 3}\n{"hand": "123456m13m99p555p2m", "self_draw": true}\n'
    out = runner.invoke(app, ["batch", "-", "-o", "csv", "--extra-fields", "keep"], input=text)
    assert out.exit_code == 0, out.output
    rows = list(csv.reader(io.StringIO(out.stdout)))
    assert rows[0][-1] == "extra" and json.loads(rows[1][-1]) == {"table": 3} and rows[2][-1] == ""
    yaml_out = runner.invoke(app, ["batch", "-", "-i", "yaml", "--extra-fields", "keep"], input="- {hand: 123456m13m99p555p2m, self_draw: true, seat: 2}\n")
    assert json.loads(yaml_out.stdout)["extra"] == {"seat": 2}


def test_a_bad_mode_is_exit_2() -> None:
    out = runner.invoke(app, ["batch", "-", "--extra-fields", "drop"], input="")
    assert out.exit_code == 2 and "bad_extra_fields" in out.stderr
