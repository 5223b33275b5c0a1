"""Chizhou 承包 and 反包 (seed 001 §19 and the 承包 section), built from tiles and meld sources.

In the games below A B C D sit E S W N; the winner is A unless said otherwise, so B is
A's 下家 (next), C 对家, D 上家.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_game_helpers import changes, settle_hands

from mahjong_calc import score_hand

LA_ZI = "789m99m"  # with 123m 456m 777m: 清一色, 拉子 (value 3)
FED = ["123m@previous", "456m@previous", "777m@previous"]  # 给你吃碰一色3口 (all from 上家)


def payments(hand: str, **kw: Any) -> tuple[int, int, int]:
    p = score_hand(hand, variant="chizhou", **kw).payments
    return p["next"], p["opposite"], p["previous"]


# 二 自己胡牌 (1): 如果有一玩家给你吃碰一色3口以上，你胡出蜡子
@pytest.mark.parametrize(
    ("case", "flags", "expected"),
    [
        # (1) 别人放冲你，那放冲的人要给你3个，并且给你吃碰3口的人也要给你3个
        ("another discards: discarder 3, feeder 3", {"discarder": "next"}, (3, 0, 3)),
        # (2) 如果是给你吃的玩家放冲你，那他就要给你9个
        ("the feeder discards: 9", {"discarder": "previous"}, (0, 0, 9)),
        # (3) 如果你自摸，给你吃碰3口的人就要给你9个，其他2个玩家给3个
        ("self-draw: feeder 9, the others 3", {"self_draw": True}, (3, 3, 9)),
    ],
)
def test_cheng_bao_forward(case: str, flags: dict[str, Any], expected: tuple[int, int, int]) -> None:
    assert payments(LA_ZI, melds=FED, **flags) == expected


def test_cheng_bao_needs_la_zi() -> None:
    # (4) 你胡的牌不是蜡子不考虑上面的规则: 大吊车 (2番) with 3 花 from a concealed 东 kong
    flags = {"melds": ["123m@previous", "456m@previous", "789m@previous"], "concealed_kongs": ["1111z"], "discarder": "next"}
    plain = {**flags, "melds": ["123m", "456m", "789m"]}
    assert payments("55p", **flags) == payments("55p", **plain) == (2, 0, 0)


def test_cheng_bao_row() -> None:
    r = score_hand(LA_ZI, variant="chizhou", melds=FED, discarder="next").to_dict()
    assert r["liability"] == [{"payer": "previous", "code": "cheng_bao", "zh": "承包", "en": "feeder's liability", "amount": 3}]


# 一 别人胡牌情况: B took melds from A; A wins. A's small hand: 3 花 from a concealed 东 kong, value 1.
SMALL = {"hand": "123m456p789s55m", "concealed_kongs": ["1111z"]}
BIG = {"hand": "111s222s333m444m55p"}  # 对对胡: 拉子, value 3
ONE_SUIT = ["123p@A", "456p@A", "789p@A"]  # 吃碰一色的3口
THREE_PUNGS = ["666p@A", "777s@A", "999m@A"]  # 给你碰3碰 (tiles neither of A's hands holds: 4 copies at most)


def _fan_bao(winning: dict[str, Any], how: dict[str, Any], b_melds: list[str], settlement: dict[str, Any] | None = None, **extra: Any) -> dict[str, int]:
    return changes("chizhou", {"winner": "A", **winning, **how, "exposed": {"B": b_melds}, **extra}, settlement=settlement)


def test_fan_bao_section_table() -> None:
    # 反包：A独供B 4口，A不管怎样胡，B都要赔付给A 1*3 其余两家按规则正常赔付
    got = _fan_bao(SMALL, {"discarder": "C"}, [*ONE_SUIT, "111m@A"], settlement={"cheng_bao_table": "cheng_bao_section"})
    assert (got["B"], got["C"], got["D"]) == (-3, -1, 0)


HOW = [
    ({"discarder": "C"}, 1),  # (1) 别的玩家放冲给他，你就要给1个
    ({"discarder": "B"}, 2),  # (2) 你放冲给他，那你就要给他2个
    ({"self_draw": True}, 3),  # (3) 他自摸，你就要给他3个
]


@pytest.mark.parametrize(("how", "units"), HOW)
@pytest.mark.parametrize(("winning", "v"), [(SMALL, 1), (BIG, 3)], ids=["small", "la_zi"])  # 本来是1，2，3，现在就是3，6，9
@pytest.mark.parametrize("fed", [ONE_SUIT, THREE_PUNGS], ids=["case1_one_suit", "case4_three_pungs"])
def test_fan_bao_without_hua(how: dict[str, Any], units: int, winning: dict[str, Any], v: int, fed: list[str]) -> None:
    got = _fan_bao(winning, how, fed)
    assert got["B"] == -units * v
    if "self_draw" in how:
        assert got["C"] == got["D"] == -v
    else:
        assert got["C"] == (-v if how["discarder"] == "C" else 0)
        assert got["D"] == 0
    assert sum(got.values()) == 0


@pytest.mark.parametrize(("how", "units"), HOW)
@pytest.mark.parametrize("fed", [ONE_SUIT, THREE_PUNGS], ids=["case2_one_suit", "case5_three_pungs"])
def test_fan_bao_with_hua_at_la_zi(how: dict[str, Any], units: int, fed: list[str]) -> None:
    # (2)/(5) 并且有花，如果手上的牌形成了蜡子: B's 中 pung (字碰, 1 花) and B at 拉子
    got = _fan_bao(SMALL, how, [*fed, "777z@C"], la_zi=["B"])
    assert got["B"] == -units


@pytest.mark.parametrize("fed", [ONE_SUIT, THREE_PUNGS], ids=["case3_one_suit", "case6_three_pungs"])
def test_fan_bao_with_hua_not_la_zi(fed: list[str]) -> None:
    # (3)/(6) 并且有花，但手上的牌形成不了蜡子 …你是不需要给钱的
    assert _fan_bao(SMALL, {"discarder": "C"}, [*fed, "777z@C"])["B"] == 0
    assert _fan_bao(SMALL, {"discarder": "C"}, fed, hua={"B": 2})["B"] == 0  # 花 in B's concealed tiles


@pytest.mark.parametrize(("how", "units"), [({"discarder": "C"}, 2), ({"discarder": "B"}, 4), ({"self_draw": True}, 6)])
def test_fan_bao_four_melds(how: dict[str, Any], units: int) -> None:
    # (7) 如果有一家玩家给你吃碰4口，不管你是不是蜡子…2个…4个…6个
    got = _fan_bao(SMALL, how, [*ONE_SUIT, "111m@A", "777z@D"])
    assert got["B"] == -units


def test_fan_bao_amounts_extra_option() -> None:
    # fan_bao_amounts: extra reads "你就要给他2个" as on top of the normal payment
    got = _fan_bao(SMALL, {"discarder": "B"}, ONE_SUIT, settlement={"fan_bao_amounts": "extra"})
    assert got["B"] == -(1 + 2)


# The 承包 section (A独供B 4口), as a second table: `cheng_bao_table: cheng_bao_section` (its figures
# as written) or `cheng_bao_section_scaled` (each a unit of the winner's value).
FOUR = ["123m@previous", "456m@previous", "777m@previous", "789m@previous"]


@pytest.mark.parametrize(
    ("flags", "written", "scaled"),
    [
        # 1、B自摸胡，A赔付给B 3*3 其余两家赔付2
        ({"self_draw": True}, (3, 3, 27), (6, 6, 27)),
        # 2、A放冲给B，A赔付给B 3*3 其余两家不用付
        ({"discarder": "previous"}, (0, 0, 27), (0, 0, 27)),
        # 3、非A放冲，A赔付1*3 放冲玩家赔付2
        ({"discarder": "next"}, (3, 0, 9), (6, 0, 9)),
    ],
)
def test_cheng_bao_section_table(flags: dict[str, Any], written: tuple[int, int, int], scaled: tuple[int, int, int]) -> None:
    # 清一色 on four fed melds, 拉子 (3): as written A pays 按3番 and the others their own 3;
    # scaled, every figure is a unit of 3 (the others' "2" too)
    unit = score_hand("99m", variant="chizhou", melds=[m.split("@")[0] for m in FOUR], **flags).value
    assert unit == 3
    assert payments("99m", melds=FOUR, overrides=["settlement.cheng_bao_table=cheng_bao_section"], **flags) == written
    assert payments("99m", melds=FOUR, overrides=["settlement.cheng_bao_table=cheng_bao_section_scaled"], **flags) == scaled


def test_several_winners_settle_each_with_the_discarder() -> None:
    # 3、可以一炮多响 (L83): each winner settles with the discarder on their own, 承包 included
    hand = {
        "winners": [
            {"winner": "A", "hand": "123p456p789p11p999p"},  # 清一色: 拉子, 3
            {"winner": "B", "hand": LA_ZI, "melds": ["123m@A", "456m@A", "777m@A"]},  # 拉子, and A fed B: 承包
        ],
        "discarder": "C",
    }
    got = changes("chizhou", hand)
    # C pays A 3 and B 3; A, B's feeder, pays B 3 more and collects 3 from C
    assert got == {"A": 3 - 3, "B": 3 + 3, "C": -6, "D": 0}


def test_several_winners_need_a_discarder() -> None:
    hand = {"winners": [{"winner": "A", "hand": "123m456m789m11m999m"}, {"winner": "B", "hand": "111s222s333m444m55p"}], "self_draw": True}
    assert settle_hands("chizhou", [hand])["hands"][0]["error"]["code"] == "missing_discarder"
