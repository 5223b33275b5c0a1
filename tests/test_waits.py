"""`waits`: every completing tile, copies left, and the same score `score` gives the 14 tiles."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mahjong_calc import score_hand
from mahjong_calc.api.waits import hand_waits
from mahjong_calc.cli.app import app
from mahjong_calc.core.errors import InputError, MjcalcError
from mahjong_calc.core.tiles import parse_tile, tile_str

runner = CliRunner()


@pytest.mark.parametrize(
    ("hand", "flags", "tiles"),
    [
        ("123456m13m99p555p", {}, ["2m"]),  # 压档
        ("1112345678999m", {}, ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"]),  # 九莲
        ("123456789m1p555p", {}, ["1p"]),  # 单钓
        ("1112223334445m", {"variant": "pujiang"}, ["3m", "4m", "5m", "6m"]),
        ("1112223335678m", {"variant": "pujiang", "wild": "9s"}, ["5m", "8m"]),
        ("11m456m789m11p", {"melds": ["777z"]}, ["1m", "1p"]),
    ],
)
def test_waits_are_the_tiles_that_win(hand: str, flags: dict, tiles: list[str]) -> None:
    result = hand_waits(hand, **flags)
    assert [tile_str(w.tile) for w in result.waits] == tiles


@pytest.mark.parametrize(
    ("hand", "flags"),
    [
        ("123456m13m99p555p", {}),
        ("1112345678999m", {"dealer": True}),
        ("1112223334445m", {"variant": "pujiang", "opponent_pungs": "1,0,2"}),
        ("1112223335678m", {"variant": "pujiang", "wild": "9s"}),
        ("11m456m789m11p", {"melds": ["777z"], "variant": "wuhu525"}),
    ],
)
def test_each_wait_scores_what_score_gives_the_fourteen_tiles(hand: str, flags: dict) -> None:
    result = hand_waits(hand, **flags)
    assert result.waits
    for wait in result.waits:
        tile = tile_str(wait.tile)
        for outcome, how in ((wait.self_draw, {"self_draw": True}), (wait.discard, {"discarder": "previous"})):
            try:
                expected = score_hand(hand + tile, win=tile, **flags, **how).to_dict()
            except MjcalcError as err:
                assert isinstance(outcome, MjcalcError) and outcome.code == err.code
            else:
                assert not isinstance(outcome, MjcalcError)
                assert outcome.to_dict() == expected


@pytest.mark.parametrize(
    ("hand", "flags", "tile", "left"),
    [
        ("1112345678999m", {}, "1m", 1),  # three in hand
        ("1112345678999m", {}, "5m", 3),
        ("11m456m789m11p", {"melds": ["111s"]}, "1m", 2),
        ("1112223335678m", {"variant": "pujiang", "wild": "8m"}, "8m", 2),  # the indicator shows one more copy
    ],
)
def test_left_counts_the_copies_not_in_sight(hand: str, flags: dict, tile: str, left: int) -> None:
    result = hand_waits(hand, **flags)
    wait = next(w for w in result.waits + result.blocked if w.tile == parse_tile(tile))
    assert wait.left == left


@pytest.mark.parametrize(
    ("hand", "flags", "code"),
    [
        ("123456m99p555p12s", {}, "no_ba_zhi"),  # Wuhu: 6 支, completes on 3s but no 八支
        ("111m234m567p99s45s", {"variant": "pujiang"}, "needs_three_pungs"),
        ("1234567m99p555p3s", {}, "no_waits"),  # not ready at all
    ],
)
def test_a_hand_that_cannot_win_says_why(hand: str, flags: dict, code: str) -> None:
    result = hand_waits(hand, **flags)
    assert result.waits == ()
    assert result.reason is not None and result.reason.code == code
    options = [word for k, v in flags.items() for word in (f"--{k}", v)]
    out = runner.invoke(app, ["waits", hand, *options])
    assert out.exit_code == 1
    assert out.stderr.startswith(f"mjcalc: no waits [{code}]: "), out.stderr  # no refused win: nothing was won


# Seed 000 §2 "和牌必须够八支": 123m 11p 456p 55s 789s completes its shape on 1p or 5s, but no suit has 8
# tiles. Waiting on nothing is no refused win: the line says no waits, which tiles complete the shape and why
# they do not win; the JSON keeps the rule's code.
@pytest.mark.parametrize(("lang", "line"), [
    ("en", "mjcalc: no waits [no_ba_zhi]: 1p 5s complete the shape but do not win: not ba zhi: the longest suit has 6 tiles (zhi); a win needs 8"),
    ("zh", "mjcalc: 没听牌 [no_ba_zhi]: 一筒 五条 能凑成牌型, 但不能和: 不够八支: 最长的一门只有 6 支; 和牌要 8 支"),
])
def test_a_hand_that_waits_on_nothing_is_not_a_refused_win(lang: str, line: str) -> None:
    out = runner.invoke(app, ["waits", "123m11456p55789s", "--lang", lang])
    assert out.exit_code == 1 and out.stderr == line + "\n"
    data = json.loads(runner.invoke(app, ["waits", "123m11456p55789s", "--lang", lang, "--json"]).stdout)
    assert data["waits"] == [] and [b["tile"] for b in data["blocked"]] == ["1p", "5s"]
    assert data["reason"]["code"] == "no_ba_zhi" and data["reason"]["message"] == line.split("]: ", 1)[1]


def test_fourteen_tiles_point_to_score() -> None:
    with pytest.raises(InputError) as info:
        hand_waits("123456m13m99p555p2m")
    assert info.value.code == "wrong_tile_count" and "mjcalc score" in info.value.message


def test_cli_json_contract() -> None:
    out = runner.invoke(app, ["waits", "123456m", "13m", "99p555p", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    (wait,) = data["waits"]
    assert set(wait) == {"tile", "left", "discard", "self_draw"}
    assert wait["tile"] == "2m" and wait["left"] == 3
    direct = score_hand("123456m13m99p555p2m", self_draw=True)
    assert wait["self_draw"]["value"] == direct.value and wait["self_draw"]["total"] == direct.total
    assert wait["self_draw"]["patterns"] == list(direct.patterns)


def test_cli_table_lists_waits_with_both_scores() -> None:
    out = runner.invoke(app, ["waits", "1112345678999m", "--lang", "en"])
    assert out.exit_code == 0, out.output
    for tile in "123456789":
        assert f"{tile}m" in out.output
    assert "Self-draw" in out.output and "Discard" in out.output
    assert "pure one suit" in out.output  # names from the ruleset, not keys


def test_cli_waits_with_a_wild() -> None:
    out = runner.invoke(app, ["waits", "1112223335678m", "-v", "pujiang", "--wild", "9s", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert [w["tile"] for w in data["waits"]] == ["5m", "8m"]
    assert all(w["discard"]["valid"] is False for w in data["waits"])  # Pujiang: self-draw only
    assert all(w["self_draw"]["valid"] for w in data["waits"])


def test_cli_waits_bad_input_is_exit_2() -> None:
    out = runner.invoke(app, ["waits", "12x3m"])
    assert out.exit_code == 2
    assert "unknown_character" in out.output


def test_tiles_the_variant_lacks_are_one_error_with_the_hint() -> None:
    out = runner.invoke(app, ["waits", "123m456p789s11z22z"])
    assert out.exit_code == 2
    assert "tile_not_in_variant" in out.output and "`--variant chizhou`" in out.output


@pytest.mark.parametrize(("zh", "en"), [("下家", "next"), ("上家", "previous")])
def test_waits_takes_chinese_seat_names(zh: str, en: str) -> None:
    args = ["waits", "11m456m789m11p", "-m", "777z", "--json", "--dealer-seat"]
    assert runner.invoke(app, [*args, zh]).stdout == runner.invoke(app, [*args, en]).stdout
