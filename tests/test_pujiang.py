"""Pujiang 浦江麻将: patterns, wilds and 白板, refusals, seed numbers, payments.

Hands are written in tile notation; the winning tile is the last one written
unless a row gives `win`. See docs/rules/pujiang.md for every reading.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from mahjong_calc import score_hand
from mahjong_calc.cli.app import app
from mahjong_calc.core.errors import InputError, NotAWin
from mahjong_calc.core.tiles import counts_of, parse_tiles
from mahjong_calc.core.wilds import wild_splits

V = "pujiang"

# (id, hand, flags, value, zi, fan, patterns)
SCORED: list[tuple[str, str, dict[str, Any], int, int, int, tuple[str, ...]]] = [
    # the seed's worked numbers
    ("seed_4_plus_3_is_7", "111m222p333s456m77z", {}, 7, 7, 0, ()),
    ("seed_kong_gang_kai_16", "111m222p456s77z", {"melds": ["3333s"], "after_kong": True}, 16, 8, 1, ("gang_kai",)),
    # every pattern
    ("cai_shen_tou", "111m222p333s77z3m3m4m", {"wild": "3m"}, 16, 8, 1, ("cai_shen_tou",)),
    ("quan_peng_zi_no_wild", "1m1m1m5s5s", {"melds": ["222p", "333p", "444p"]}, 16, 8, 1, ("quan_peng_zi",)),
    ("quan_peng_zi_wild_in_pair", "111p222p999s55z5z34m", {"wild": "3m", "win": "5z"}, 16, 8, 1, ("quan_peng_zi",)),
    ("quan_peng_zi_and_cai_shen_tou", "111m222p333s444s3m7z", {"wild": "3m"}, 32, 8, 2, ("cai_shen_tou", "quan_peng_zi")),
    # a drawn wild pairing a natural tile is not 财神头; a natural drawn tile pairing a wild is
    ("drawn_wild_pairs_7z", "1113m222p333s7z", {"wild": "3m", "melds": ["4444s"], "after_kong": True, "win": "3m"}, 36, 9, 2, ("quan_peng_zi", "gang_kai")),
    ("drawn_7z_pairs_wild", "1113m222p333s7z", {"wild": "3m", "melds": ["4444s"], "after_kong": True, "win": "7z"}, 72, 9, 3, ("cai_shen_tou", "quan_peng_zi", "gang_kai")),
    ("qi_dui_no_wild", "11m22m33p44p55s66s7z7z", {}, 10, 5, 1, ("qi_dui",)),
    ("qi_dui_four_alike", "11m11m33p44p55s66s7z7z", {}, 10, 5, 1, ("qi_dui",)),
    ("qi_dui_wild_pairs_win", "11m22m33p44p55s66s3m7z", {"wild": "3m"}, 20, 5, 2, ("qi_dui",)),
    ("qi_dui_two_wilds", "11m22m33p44p55s6s3m3m7z", {"wild": "3m"}, 20, 5, 2, ("qi_dui",)),
    ("piao_2", "111m222p333s444s3m7z", {"wild": "3m", "piao": 2}, 128, 8, 4, ("cai_shen_tou", "quan_peng_zi", "piao_cai")),
    ("zhen_13", "14m25p369s1234567z", {"win": "1z"}, 10, 5, 1, ("zhen_13",)),
    ("zhen_13_wild", "14m25p36s1234567z9m", {"wild": "9m", "win": "1z"}, 10, 5, 1, ("zhen_13",)),
    ("zhen_zhen_13", "147m258p369s12345z", {}, 20, 5, 2, ("zhen_zhen_13",)),
    ("zhen_zhen_13_wild", "147m258p36s12345z9m", {"wild": "9m"}, 20, 5, 2, ("zhen_zhen_13",)),
    ("san_cai_shen_alone", "159m159p159s12z3m3m3m", {"wild": "3m"}, 10, 5, 1, ("san_cai_shen",)),
    ("san_cai_shen_stacks", "1m3m3m3m5s", {"wild": "3m", "melds": ["222p", "333p", "444p"]}, 36, 9, 2, ("cai_shen_tou", "san_cai_shen")),
    # 白板: the 财神's face, or itself; a 5z 财神 makes the whites wild
    ("white_as_wild_face_in_chow", "111p222p999s2m5z4m77z", {"wild": "3m"}, 7, 7, 0, ()),
    ("white_as_itself_pung", "111p222p999s55z5z34m", {"wild": "3m", "win": "5z"}, 16, 8, 1, ("quan_peng_zi",)),
    ("white_win_tile_as_wild_face", "111p222p999s2m4m77z5z", {"wild": "3m"}, 7, 7, 0, ()),
    ("white_is_the_wild", "111m222p333s5z7z", {"wild": "5z", "melds": ["444p"]}, 32, 8, 2, ("cai_shen_tou", "quan_peng_zi")),
    # wilds in sets and in the pair
    ("one_wild_in_a_set", "111m456s77z33s3m", {"wild": "3m", "melds": ["2222p"], "after_kong": True}, 16, 8, 1, ("gang_kai",)),
    ("wild_in_pair_and_in_set", "111m222p456s99s3m3m7z", {"wild": "3m"}, 14, 7, 1, ("cai_shen_tou",)),
    ("two_wilds_the_pair", "111m222p333s444s3m3m", {"wild": "3m"}, 32, 8, 2, ("cai_shen_tou", "quan_peng_zi")),
    ("two_wilds_in_one_set", "111m222p8p3m3m3m7z", {"wild": "3m", "melds": ["4444s"]}, 40, 10, 2, ("cai_shen_tou", "san_cai_shen")),
    ("two_wilds_in_two_sets", "111m222p46s79s77z3m3m", {"wild": "3m", "robbing_kong": True, "discarder": "next"}, 12, 6, 1, ("qiang_gang",)),
    ("two_wilds_equal_readings", "111m222p77z8p3m3m", {"wild": "3m", "melds": ["3333s"], "after_kong": True, "win": "7z"}, 18, 9, 1, ("gang_kai",)),
    # 抢杠 is one 番 (options.qiang_gang_fan), may have sequences, and is the 番 a wild hand needs
    ("robbing_kong_sequences", "123m456p789s77z7s8s9s", {"robbing_kong": True, "discarder": "opposite"}, 8, 4, 1, ("qiang_gang",)),
    ("robbing_kong_wild_no_fan", "111m222p456s7z5z", {"wild": "5z", "melds": ["444p"], "robbing_kong": True, "discarder": "next", "win": "5z"}, 14, 7, 1, ("qiang_gang",)),
]


@pytest.mark.parametrize(("hand", "flags", "value", "zi", "fan", "patterns"), [row[1:] for row in SCORED], ids=[row[0] for row in SCORED])
def test_scores(hand: str, flags: dict[str, Any], value: int, zi: int, fan: int, patterns: tuple[str, ...]) -> None:
    result = score_hand(hand, variant=V, **flags)
    out = result.to_dict()
    assert (result.value, out["zi"], out["fan"]) == (value, zi, fan)
    assert tuple(result.patterns) == patterns


# (id, hand, flags, [(tile, as), ...] in output order)
WILDS = [
    ("cai_shen_tou", "111m222p333s77z3m3m4m", {"wild": "3m"}, [("3m", "4m"), ("3m", "7z")]),
    ("white_as_3m", "111p222p999s2m5z4m77z", {"wild": "3m"}, [("5z", "3m")]),
    ("white_as_itself", "111p222p999s55z5z34m", {"wild": "3m", "win": "5z"}, [("3m", "4m"), ("5z", "5z"), ("5z", "5z"), ("5z", "5z")]),
    ("two_wilds_pair", "111m222p333s444s3m3m", {"wild": "3m"}, [("3m", "3m"), ("3m", "3m")]),
    ("two_wilds_one_pung", "111m222p8p3m3m3m7z", {"wild": "3m", "melds": ["4444s"]}, [("3m", "7z"), ("3m", "8p"), ("3m", "8p")]),
    ("two_wilds_two_chows", "111m222p46s79s77z3m3m", {"wild": "3m", "robbing_kong": True, "discarder": "next"}, [("3m", "5s"), ("3m", "8s")]),
    ("zhen_13_wild_is_suited", "14m25p36s1234567z9m", {"wild": "9m", "win": "1z"}, [("9m", "7m"), ("5z", "5z")]),
    ("san_cai_shen_stands_for_nothing", "159m159p159s12z3m3m3m", {"wild": "3m"}, [("3m", None)] * 3),
    ("no_wild_flag_nothing_wild", "111m222p333s456m77z", {}, []),
]


@pytest.mark.parametrize(("hand", "flags", "expected"), [row[1:] for row in WILDS], ids=[row[0] for row in WILDS])
def test_output_says_what_wilds_stood_for(hand: str, flags: dict[str, Any], expected: list[tuple[str, str | None]]) -> None:
    rows = score_hand(hand, variant=V, **flags).to_dict()["wilds"]
    assert [(r["tile"], r["as"]) for r in rows] == expected


def test_white_chow_decomposition() -> None:
    out = score_hand("111p222p999s2m5z4m77z", variant=V, wild="3m").to_dict()
    assert "234m" in out["decomposition"]["sets"]


REFUSED = [
    ("wild_needs_fan", "111m222p333s45m77z3m", {"wild": "3m", "win": "3m"}, "wild_needs_fan"),
    ("wild_needs_fan_melds", "1m1m3m5s5s", {"wild": "3m", "melds": ["222p", "333p", "444p"]}, "wild_needs_fan"),
    ("needs_three_pungs", "123m456p789s77z7s8s9s", {}, "needs_three_pungs"),
    ("needs_three_pungs_two", "111m222p456s789s77z", {}, "needs_three_pungs"),
    ("qi_dui_wild_not_on_win", "11m22m33p44p55s66s7z3m", {"wild": "3m"}, "qi_dui_needs_cai_diao"),
    ("thirteen_wild_not_honour", "147m258p369s1234z5m", {"wild": "5m"}, "not_a_winning_hand"),
    ("white_alone_is_not_wild", "111p222p999s2m5z4m77z", {}, "not_a_winning_hand"),
    ("piao_without_cai_shen_tou", "111m222p333s456m77z", {"piao": 1}, "piao_needs_cai_shen_tou"),
    ("discard", "111m222p333s456m77z", {"discarder": "next"}, "discard_win_not_allowed"),
    ("two_wilds_are_not_san_cai_shen", "159m159p159s12z3m3m4m", {"wild": "3m"}, "not_a_winning_hand"),
]


@pytest.mark.parametrize(("hand", "flags", "code"), [row[1:] for row in REFUSED], ids=[row[0] for row in REFUSED])
def test_refusals(hand: str, flags: dict[str, Any], code: str) -> None:
    with pytest.raises(NotAWin) as info:
        score_hand(hand, variant=V, **flags)
    assert info.value.code == code


INPUT_ERRORS = [
    ("fourth_wild", "111m222p333s4s3m3m3m3m", {"wild": "3m"}, "too_many_wilds"),
    ("fourth_white_wild", "111m222p333s4s5z5z5z5z", {"wild": "5z"}, "too_many_wilds"),
    ("robbed_needs_seat", "123m456p789s77z7s8s9s", {"robbing_kong": True}, "robbed_player_required"),
]


@pytest.mark.parametrize(("hand", "flags", "code"), [row[1:] for row in INPUT_ERRORS], ids=[row[0] for row in INPUT_ERRORS])
def test_input_errors(hand: str, flags: dict[str, Any], code: str) -> None:
    with pytest.raises(InputError) as info:
        score_hand(hand, variant=V, **flags)
    assert info.value.code == code


# (id, hand, flags, overrides, payments next/opposite/previous)
PAYMENTS: list[tuple[str, str, dict[str, Any], list[str], tuple[int, int, int]]] = [
    ("seed_7_minus_2_is_5", "111m222p333s456m77z", {"opponent_pungs": "0,2,0"}, [], (7, 5, 7)),
    ("each_subtracts_own", "111m222p333s456m77z", {"opponent_pungs": "2,0,1"}, [], (5, 7, 6)),
    ("subtract_before_fan", "111m222p456s77z", {"melds": ["3333s"], "after_kong": True, "opponent_pungs": "2,0,1"}, [], (12, 16, 14)),
    ("subtract_after_fan", "111m222p456s77z", {"melds": ["3333s"], "after_kong": True, "opponent_pungs": "2,0,1"}, ["options.subtract_pungs=after_fan"], (14, 16, 15)),
    ("floor_at_zero", "111m222p333s456m77z", {"opponent_pungs": "8,0,0"}, [], (0, 7, 7)),
    ("no_floor", "111m222p333s456m77z", {"opponent_pungs": "8,0,0"}, ["options.floor_payment_at_zero=false"], (-1, 7, 7)),
    ("robbed_pays_all_three", "111m222p456s77z7s8s9s", {"robbing_kong": True, "discarder": "opposite", "opponent_pungs": "1,2,0"}, [], (0, 30, 0)),
    ("robbed_pays_fan_hand", "111m222p333s444s3m7z", {"wild": "3m", "robbing_kong": True, "discarder": "previous"}, [], (0, 0, 192)),
]


@pytest.mark.parametrize(("hand", "flags", "overrides", "expected"), [row[1:] for row in PAYMENTS], ids=[row[0] for row in PAYMENTS])
def test_payments(hand: str, flags: dict[str, Any], overrides: list[str], expected: tuple[int, int, int]) -> None:
    result = score_hand(hand, variant=V, overrides=overrides, **flags)
    assert (result.payments["next"], result.payments["opposite"], result.payments["previous"]) == expected


OPTIONS = [
    ("two_wilds_pair_off", "111m222p333s444s3m3m", {"wild": "3m"}, ["options.two_wilds_pair_is_cai_shen_tou=false"], 16),
    ("san_cai_shen_not_stacked", "1m3m3m3m5s", {"wild": "3m", "melds": ["222p", "333p", "444p"]}, ["options.san_cai_shen_stacks=false"], 16),
]


@pytest.mark.parametrize(("hand", "flags", "overrides", "value"), [row[1:] for row in OPTIONS], ids=[row[0] for row in OPTIONS])
def test_options_change_the_reading(hand: str, flags: dict[str, Any], overrides: list[str], value: int) -> None:
    assert score_hand(hand, variant=V, overrides=overrides, **flags).value == value


@pytest.mark.parametrize(
    ("hand", "flags", "overrides", "code"),
    [
        ("111p222p999s2m5z4m77z", {"wild": "3m"}, ["options.white_as_wild_face=false"], "not_a_winning_hand"),
        ("123m456p789s77z7s8s9s", {"robbing_kong": True, "discarder": "next"}, ["options.robbing_kong_needs_three_pungs=true"], "needs_three_pungs"),
        ("111m222p456s7z5z", {"wild": "5z", "melds": ["444p"], "robbing_kong": True, "discarder": "next", "win": "5z"}, ["options.robbing_kong_wild_needs_fan=true", "options.qiang_gang_fan=0"], "wild_needs_fan"),
        ("11m11m33p44p55s66s7z7z", {}, ["options.qi_dui_four_as_two_pairs=false"], "not_a_winning_hand"),
    ],
)
def test_options_refuse(hand: str, flags: dict[str, Any], overrides: list[str], code: str) -> None:
    with pytest.raises(NotAWin) as info:
        score_hand(hand, variant=V, overrides=overrides, **flags)
    assert info.value.code == code


def test_two_wilds_can_share_one_set() -> None:
    """The splitter offers 8p + two wilds as one pung beside a natural pair."""
    counts = tuple(counts_of(parse_tiles("111m222p77z8p")))
    found = {(s.pair.first, s.pair.wilds, tuple((g.kind, g.first, g.wilds) for g in s.sets)) for s in wild_splits(counts, 2)}
    assert (33, 0, (("pung", 0, 0), ("pung", 10, 0), ("pung", 16, 2))) in found


def test_decomposition_names_special_shapes() -> None:
    out = score_hand("147m258p369s12345z", variant=V).to_dict()
    assert out["decomposition"] == {"shape": "zhen_zhen_13", "text": "147m258p369s12345z"}


def test_cli_refuses_a_discard_win(runner: CliRunner) -> None:
    res = runner.invoke(app, ["score", "111m222p333s456m77z", "--variant", V, "--discarder", "next", "--json"])
    assert res.exit_code == 1
    assert json.loads(res.stdout.strip().splitlines()[-1])["reason"]["code"] == "discard_win_not_allowed"


def test_cli_readme_example(runner: CliRunner) -> None:
    """The Pujiang command in docs/scoring.md, and the numbers it states."""
    args = ["score", "111m222p333s77z3m3m4m", "--variant", V, "--wild", "3m", "--opponent-pungs", "2,0,1", "--json"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0
    out = json.loads(res.stdout)
    assert (out["value"], out["zi"], out["fan"]) == (16, 8, 1)
    assert out["payments"] == {"next": 12, "opposite": 16, "previous": 14}
    assert [w["as"] for w in out["wilds"]] == ["4m", "7z"]


def test_cli_table_shows_wilds(runner: CliRunner) -> None:
    res = runner.invoke(app, ["score", "111m222p333s77z3m3m4m", "--variant", V, "--wild", "3m", "--lang", "en"])
    assert res.exit_code == 0
    assert "3m → 4m" in res.stdout
