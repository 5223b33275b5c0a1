"""`mjcalc batch` for the person reading it: field names in messages, close-match hints, the summary."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mahjong_calc.cli import app

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
