"""Pujiang readings of 抢杠 and 真13 (docs/rules/pujiang.md), each option on both sides, from tiles.

7. 抢杠 is a hand with 番 (`options.qiang_gang_fan`, 1), and that 番 is the one a wild hand needs.
8. 抢杠's amount by the robbed player's 番 (`options.qiang_gang_amount`, `--robbed-fan N`).
9. 真13 with wide gaps (`options.zhen_13_wide_gaps`, default false: 标准间隔两张 read literally).
See docs/rules/pujiang.md.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from mahjong_calc import score_hand
from mahjong_calc.cli.app import app
from mahjong_calc.core.batch_record import normalize, score_kwargs
from mahjong_calc.core.errors import InputError, NotAWin

V = "pujiang"
ROB = {"robbing_kong": True, "discarder": "next", "win": "4m"}  # the hand: 4 + 3 pungs = 7 子
HAND = "111m222p333s456m77z"


def _pays(result: Any) -> tuple[int, int, int]:
    return (result.payments["next"], result.payments["opposite"], result.payments["previous"])


# --- 7: 抢杠 is one 番 ----------------------------------------------------------------

# (id, hand, flags, overrides, value, fan, patterns, payments)
QIANG_GANG_FAN = [
    ("issue_hand_one_fan", HAND, ROB, [], 14, 1, ("qiang_gang",), (42, 0, 0)),
    ("issue_hand_no_fan", HAND, ROB, ["options.qiang_gang_fan=0"], 7, 0, (), (21, 0, 0)),
    ("issue_hand_two_fan", HAND, ROB, ["options.qiang_gang_fan=2"], 28, 2, ("qiang_gang",), (84, 0, 0)),
    ("self_draw_has_none", HAND, {}, [], 7, 0, (), (7, 7, 7)),
    # a wild hand with no other 番: 抢杠's 番 is the one it needs, even when 抢杠 alone would not do
    ("wild_hand_fan_from_qiang_gang", "111m222p456s7z5z", {"wild": "5z", "melds": ["444p"], "robbing_kong": True, "discarder": "next", "win": "5z"},
     ["options.robbing_kong_wild_needs_fan=true"], 14, 1, ("qiang_gang",), (42, 0, 0)),
]


@pytest.mark.parametrize(("hand", "flags", "overrides", "value", "fan", "patterns", "pays"), [r[1:] for r in QIANG_GANG_FAN], ids=[r[0] for r in QIANG_GANG_FAN])
def test_qiang_gang_fan(hand: str, flags: dict[str, Any], overrides: list[str], value: int, fan: int, patterns: tuple[str, ...], pays: tuple[int, int, int]) -> None:
    result = score_hand(hand, variant=V, overrides=overrides, **flags)
    assert (result.value, result.to_dict()["fan"], tuple(result.patterns)) == (value, fan, patterns)
    assert _pays(result) == pays
    assert [i.value for i in result.items if i.key == "qiang_gang"] == ([fan] if patterns else [])


def test_wild_hand_without_the_qiang_gang_fan_is_refused() -> None:
    with pytest.raises(NotAWin) as info:
        score_hand("111m222p456s7z5z", variant=V, wild="5z", melds=["444p"], robbing_kong=True, discarder="next", win="5z",
                   overrides=["options.robbing_kong_wild_needs_fan=true", "options.qiang_gang_fan=0"])
    assert info.value.code == "wild_needs_fan"


# --- 8: 抢杠's amount by the robbed player's 番 ------------------------------------------

# (id, flags, overrides, payments next/opposite/previous); the winner's hand is worth 7 子 × 2 (抢杠 1 番)
ROBBED_FAN = [
    ("winner_value", {}, [], (42, 0, 0)),
    ("robbed_fan_3", {"robbed_fan": 3}, ["options.qiang_gang_amount=robbed_fan"], (63, 0, 0)),  # 3 × 7 × 3
    ("robbed_fan_0", {"robbed_fan": 0}, ["options.qiang_gang_amount=robbed_fan"], (0, 0, 0)),
    ("robbed_fan_doubling_3", {"robbed_fan": 3}, ["options.qiang_gang_amount=robbed_fan_doubling"], (168, 0, 0)),  # 7 × 2³ × 3
    ("robbed_fan_doubling_0", {"robbed_fan": 0}, ["options.qiang_gang_amount=robbed_fan_doubling"], (21, 0, 0)),
    # each payer's own exposed pungs come off, as for every 抢杠 (opposite is robbed)
    ("pungs_before", {"robbed_fan": 3, "discarder": "opposite", "opponent_pungs": "1,2,0"}, ["options.qiang_gang_amount=robbed_fan"], (0, 54, 0)),
    ("pungs_after", {"robbed_fan": 3, "discarder": "opposite", "opponent_pungs": "1,2,0"},
     ["options.qiang_gang_amount=robbed_fan", "options.subtract_pungs=after_fan"], (0, 60, 0)),
]


@pytest.mark.parametrize(("flags", "overrides", "pays"), [r[1:] for r in ROBBED_FAN], ids=[r[0] for r in ROBBED_FAN])
def test_qiang_gang_amount(flags: dict[str, Any], overrides: list[str], pays: tuple[int, int, int]) -> None:
    result = score_hand(HAND, variant=V, overrides=overrides, **{**ROB, **flags})
    assert _pays(result) == pays
    assert result.value == 14  # the hand's own value does not change
    detail = str(result.items[0].detail)  # the 子 line shows how the amount came about
    assert ("robbed player's" in detail and f"pays {sum(pays)} for all three" in detail) == ("robbed_fan" in flags)


@pytest.mark.parametrize(
    ("flags", "overrides", "code"),
    [
        ({**ROB}, ["options.qiang_gang_amount=robbed_fan"], "missing_robbed_fan"),
        ({**ROB, "robbed_fan": 2}, [], "robbed_fan_unused"),
        ({"robbed_fan": 2}, ["options.qiang_gang_amount=robbed_fan"], "conflicting_flags"),
        ({**ROB, "robbed_fan": -1}, ["options.qiang_gang_amount=robbed_fan"], "bad_robbed_fan"),
    ],
)
def test_robbed_fan_errors(flags: dict[str, Any], overrides: list[str], code: str) -> None:
    with pytest.raises(InputError) as info:
        score_hand(HAND, variant=V, overrides=overrides, **flags)
    assert info.value.code == code


def test_cli_robbed_fan(runner: CliRunner) -> None:
    args = ["score", HAND, "-v", V, "--robbing-kong", "-f", "next", "--win", "4m", "--json"]
    on = runner.invoke(app, [*args, "--robbed-fan", "3", "--set", "options.qiang_gang_amount=robbed_fan"])
    assert on.exit_code == 0, on.output
    assert json.loads(on.stdout)["payments"] == {"next": 63, "opposite": 0, "previous": 0}
    missing = runner.invoke(app, [*args, "--set", "options.qiang_gang_amount=robbed_fan"])
    assert missing.exit_code == 2
    assert json.loads(missing.stdout)["error"]["code"] == "missing_robbed_fan"
    assert "--robbed-fan" in missing.stderr


def test_record_field_robbed_fan(runner: CliRunner) -> None:
    record = {"variant": V, "hand": HAND, "robbing_kong": True, "discarder": "next", "win": "4m", "robbed_fan": 3}
    key, _ = normalize(record)
    result = score_hand(**score_kwargs(key), overrides=["options.qiang_gang_amount=robbed_fan"])
    assert result.payments["next"] == 63
    with pytest.raises(InputError) as info:
        normalize({**record, "robbed_fan": "3"})
    assert info.value.code == "bad_field"
    # through `mjcalc batch` (shipped ruleset: the winner's value, so the field is refused, not dropped)
    out = runner.invoke(app, ["batch", "-"], input=json.dumps(record) + "\n" + json.dumps({**record, "robbed_fan": None}) + "\n")
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert rows[0]["error"]["code"] == "robbed_fan_unused"
    assert rows[1]["payments"]["next"] == 42


# --- 9: 真13 with wide gaps -----------------------------------------------------------

# (id, hand, flags, value or a NotAWin code with zhen_13_wide_gaps on, the same with it off)
THIRTEEN = [
    ("issue_159m_5_honours", "159m258p369s12345z", {}, ("zhen_13", 10), "not_a_winning_hand"),
    ("standard_5_honours_is_zhen_zhen", "147m258p369s12345z", {}, ("zhen_zhen_13", 20), ("zhen_zhen_13", 20)),
    ("standard_7_honours", "14m25p369s1234567z", {"win": "1z"}, ("zhen_13", 10), ("zhen_13", 10)),
    ("wide_6_honours", "159m16p369s123456z", {}, ("zhen_13", 10), "not_a_winning_hand"),
    ("gap_of_two_is_not_wide", "13m25p369s1234567z", {}, "not_a_winning_hand", "not_a_winning_hand"),
    ("wild_fills_a_wide_gap", "15m258p369s12345z9m", {"wild": "9m"}, ("zhen_13", 10), "not_a_winning_hand"),
    ("wild_completes_zhen_zhen", "147m258p36s12345z9m", {"wild": "9m"}, ("zhen_zhen_13", 20), ("zhen_zhen_13", 20)),
    ("four_honours_never", "147m258p369s1234z5m", {"wild": "5m"}, "not_a_winning_hand", "not_a_winning_hand"),
]


@pytest.mark.parametrize("wide", [True, False])
@pytest.mark.parametrize(("hand", "flags", "on", "off"), [r[1:] for r in THIRTEEN], ids=[r[0] for r in THIRTEEN])
def test_zhen_13_wide_gaps(hand: str, flags: dict[str, Any], on: Any, off: Any, wide: bool) -> None:
    expected = on if wide else off
    overrides = [f"options.zhen_13_wide_gaps={'true' if wide else 'false'}"]
    if isinstance(expected, str):
        with pytest.raises(NotAWin) as info:
            score_hand(hand, variant=V, overrides=overrides, **flags)
        assert info.value.code == expected
        return
    result = score_hand(hand, variant=V, overrides=overrides, **flags)
    assert (tuple(result.patterns), result.value) == ((expected[0],), expected[1])


# L59 "真13是一翻牌，需要每一组万、筒、条是标准间隔两张加5个风以上组合的牌属于真13": "标准间隔两张" is
# exactly two tiles between (147/258/369), and the seed says "以上" where it means "or more" (5个风以上),
# not of the gaps. So by default 159m is no 真13, and 6 or 7 honours over partial 147/258/369 are.
@pytest.mark.parametrize(("hand", "expected"), [
    ("159m258p369s12345z", "not_a_winning_hand"),  # 159m: gaps of three tiles
    ("14m258p369s123456z", ("zhen_13", 10)),  # 6 honours, 14m part of 147
    ("17m258p369s123456z", ("zhen_13", 10)),  # 17m: 147 without its 4
    ("147m258p369s12345z", ("zhen_zhen_13", 20)),  # 5 honours: every suit full, so 真真13
])
def test_literal_gaps_are_the_default(hand: str, expected: Any) -> None:
    if isinstance(expected, str):
        with pytest.raises(NotAWin) as info:
            score_hand(hand, variant=V)
        assert info.value.code == expected
        return
    result = score_hand(hand, variant=V)
    assert (tuple(result.patterns), result.value) == ((expected[0],), expected[1])


def test_liability_row_under_the_robbed_fan_reading() -> None:
    """With meld sources the settler shows what the robbed player pays beyond their own share."""
    args: dict[str, Any] = {"win": "4s", "robbing_kong": True, "discarder": "opposite", "melds": ["555p@next"]}
    plain = score_hand("111m222p456s77z", variant=V, **args).to_dict()  # 7 子 × 2 (抢杠 1 番) each
    assert plain["payments"]["opposite"] == 42 and plain["liability"][0]["amount"] == 42 - 14
    robbed = score_hand("111m222p456s77z", variant=V, robbed_fan=3, overrides=["options.qiang_gang_amount=robbed_fan"], **args).to_dict()
    assert robbed["payments"]["opposite"] == 63 and robbed["liability"][0]["amount"] == 63 - 21  # own share 3 × 7
