"""Hands as players write them, through the CLI: 汉字 numbers, capitals, several words, seat names, hints."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mahjong_calc.cli.app import app

runner = CliRunner()


def _json(args: list[str]) -> tuple[int, dict]:
    out = runner.invoke(app, [*args, "--json"])
    return out.exit_code, json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    "written",
    [
        ["一万二万三万四万五万六万13万99筒555饼2万"],
        ["123456万13m99p555筒二万"],
        ["123m", "456m", "13m", "99p", "555p", "2m"],
        ["123456m", "13万", "九九筒", "555p", "2m"],
    ],
)
def test_written_forms_score_the_same(written: list[str]) -> None:
    code, data = _json(["score", *written, "-s"])
    reference = _json(["score", "123456m13m99p555p2m", "-s"])[1]
    assert code == 0
    assert data == reference


def test_several_words_from_the_issue() -> None:
    one = runner.invoke(app, ["score", "13m456m678m11p555p2m", "--json"])
    many = runner.invoke(app, ["score", "13m", "456m", "678m", "11p", "555p", "2m", "--json"])
    assert many.exit_code == one.exit_code
    assert many.stdout == one.stdout
    assert "unexpected extra argument" not in many.output


def test_bamboo_suits_in_chinese() -> None:
    code, data = _json(["score", "五五五条一索二索三索四条五条六条七条八条九条九条九条", "-s"])
    assert code == 0, data
    assert data["hand"]["concealed"] == "12345555678999s"


@pytest.mark.parametrize(
    ("hand", "words"),
    [("123456M13m99p555p2m", ["lower case", "123456m"]), ("123456m13m99P555p2m", ["99p", "白"])],
)
def test_capital_suits_hint_lower_case(hand: str, words: list[str]) -> None:
    out = runner.invoke(app, ["score", hand])
    assert out.exit_code == 2
    assert "unknown character 'M'" not in out.output
    for word in words:
        assert word in out.output


@pytest.mark.parametrize(("zh", "en"), [("下家", "next"), ("对家", "opposite"), ("上家", "previous")])
def test_chinese_seat_names(zh: str, en: str) -> None:
    hand = ["123m456p22z", "-v", "chizhou", "-k", "5555m", "-k", "1111z"]
    code, data = _json(["score", *hand, "--discarder", zh])
    assert code == 0, data
    assert data == _json(["score", *hand, "--discarder", en])[1]
    code, data = _json(["score", "123456m13m99p555p2m", "--dealer-seat", zh])
    assert code == 0 and data == _json(["score", "123456m13m99p555p2m", "--dealer-seat", en])[1]


def test_a_bad_seat_names_the_choices_in_our_words() -> None:
    out = runner.invoke(app, ["score", "123456m13m99p555p2m", "--discarder", "左家"])
    assert out.exit_code == 2
    assert "Value error" not in out.output and "is not one of" not in out.output.replace("must be one of", "")
    assert "下家" in out.output and "next" in out.output


def test_thirteen_tiles_point_to_waits() -> None:
    out = runner.invoke(app, ["score", "123456m13m99p555p"])
    assert out.exit_code == 2
    assert "wrong_tile_count" in out.output
    assert "13 tiles: to see what each winning tile scores, run `mjcalc waits ...`" in out.output


def test_concealed_kong_inside_hand_hints_at_k() -> None:
    out = runner.invoke(app, ["score", "1111m456m789m55p666p"])
    assert out.exit_code == 2
    assert "wrong_tile_count" in out.output and "-k 1111m" in out.output


@pytest.mark.parametrize(
    ("args", "accepts"),
    [
        (["score", "123m456p789s11z22z2z"], ["chizhou", "pujiang"]),  # winds in the default Wuhu
        (["score", "456p789s11z22z2z", "-m", "123m"], ["chizhou"]),  # a chow meld: Chizhou alone has them
    ],
)
def test_forgotten_variant_names_the_variants_that_accept_it(args: list[str], accepts: list[str]) -> None:
    out = runner.invoke(app, args)
    assert out.exit_code == 2
    for name in accepts:
        assert f"`--variant {name}`" in out.output
    assert "did you mean" in out.output
