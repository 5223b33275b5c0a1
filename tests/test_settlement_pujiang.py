"""Pujiang 承包 and the 飘 limits (seed 002 §12 承包, 4 抢杠, 9 保飘, 出牌规则 2), from tiles and sources.

In the games A B C D sit E S W N.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_game_helpers import changes, settle_hands
from typer.testing import CliRunner

from mahjong_calc import NotAWin, score_hand
from mahjong_calc.cli.app import app

FAN_HAND = {"hand": "111m222p333s444s3m7z", "wild": "3m"}  # 财神吊头 + 全碰子: 2 番
PLAIN_HAND = {"hand": "111m222p333s456s77z"}  # three pungs, no 番
ROBBING_HAND = {"hand": "111m222p456s77z7s8s9s"}  # 抢杠的牌可以手里有 1 2 3 这样的组合


def test_qiang_gang_bao_robbed_pays_all_three() -> None:
    # 抢杠属于承包牌，被抢的人承包付三家的钱 … 除掉碰出来的子
    got = changes("pujiang", {"winner": "A", **ROBBING_HAND, "robbing_kong": True, "discarder": "C", "exposed": {"B": ["555p@C"], "C": ["3333m@D"]}})
    # 子 6, 抢杠 1 番 (options.qiang_gang_fan): B owes (6-1)×2, C (6-2)×2 (an exposed kong counts as
    # two pungs), D 6×2: C pays all three
    assert got == {"A": 30, "B": 0, "C": -30, "D": 0}


def test_qiang_gang_bao_row_on_score() -> None:
    r = score_hand(ROBBING_HAND["hand"], variant="pujiang", robbing_kong=True, discarder="opposite", melds=[], opponent_pungs="1,2,0").to_dict()
    assert "liability" not in r  # no sources: as before
    r = score_hand("111m222p456s77z", variant="pujiang", win="4s", robbing_kong=True, discarder="opposite", melds=["555p@next"]).to_dict()
    assert r["payments"]["opposite"] == sum(r["payments"].values())
    assert [row["code"] for row in r["liability"]] == ["qiang_gang_bao"]


def test_sheng_zhang_bao() -> None:
    # 在飘财的一小圈内，如果有人打桌面没打过的牌，给别人正好有加翻胡掉的，…打桌面上没打过那张牌的人承包
    hand = {"winner": "C", **FAN_HAND, "self_draw": True, "piao_by": "A", "piao_count": 1, "sheng_zhang": "D"}
    got = changes("pujiang", hand)
    value = score_hand(FAN_HAND["hand"], variant="pujiang", wild="3m", self_draw=True).value
    assert got == {"A": 0, "B": 0, "C": 3 * value, "D": -3 * value}


def test_sheng_zhang_needs_fan_and_a_piao_round() -> None:
    no_fan = changes("pujiang", {"winner": "C", **PLAIN_HAND, "self_draw": True, "piao_by": "A", "piao_count": 1, "sheng_zhang": "D"})
    assert no_fan["A"] == no_fan["B"] == no_fan["D"] < 0  # 有加翻 only: payment is normal
    no_round = changes("pujiang", {"winner": "C", **FAN_HAND, "self_draw": True, "piao_by": "A", "piao_count": 0, "sheng_zhang": "D"})
    assert no_round["A"] == no_round["B"] == no_round["D"] < 0
    nobody = settle_hands("pujiang", [{"winner": "C", **FAN_HAND, "self_draw": True, "sheng_zhang": "D"}])["hands"][0]
    assert nobody["error"]["code"] == "conflicting_fields"  # a 生张 outside anyone's 飘 round means nothing


def test_piao_bao_feeder_pays_the_later_piao() -> None:
    # 有人打了飘财的人再碰再杠有条件2飘，后一飘的钱要那个打杠或打碰的人承包 … 一个人付三家后2飘的钱
    hand = {"winner": "D", "hand": "111m222p333s3m7z", "melds": ["4444s@B"], "wild": "3m", "piao": 2, "self_draw": True}
    got = changes("pujiang", hand)
    plain = changes("pujiang", {**hand, "melds": ["4444s"]})
    each = -plain["A"]  # each payer's normal share; the second 飘 doubled it
    later = each // 2
    assert got == {"A": -(each - later), "B": -(each + 2 * later), "C": -(each - later), "D": 3 * each}


@pytest.mark.parametrize(
    ("count", "flags", "allowed"),
    [
        (1, {**PLAIN_HAND, "self_draw": True}, True),  # 1飘后其它人能自摸
        (1, {**ROBBING_HAND, "robbing_kong": True, "discarder": "previous"}, False),  # …only self-draw
        (2, {**PLAIN_HAND, "self_draw": True}, False),  # 2飘后其它人只能胡有番的牌
        (2, {**FAN_HAND, "self_draw": True}, True),
        (3, {**FAN_HAND, "self_draw": True}, False),  # 3飘以后就是其他三家任何牌都不能胡
    ],
)
def test_piao_limits(count: int, flags: dict[str, Any], allowed: bool) -> None:
    kw = {k: v for k, v in flags.items() if k != "hand"}
    if allowed:
        score_hand(flags["hand"], variant="pujiang", piao_by="next", piao_count=count, **kw)
    else:
        with pytest.raises(NotAWin) as err:
            score_hand(flags["hand"], variant="pujiang", piao_by="next", piao_count=count, **kw)
        assert err.value.code == "win_not_allowed_during_piao"


def test_piao_limits_exit_1_on_the_cli() -> None:
    res = CliRunner().invoke(app, ["score", "111m222p333s456s77z", "-v", "pujiang", "-s", "--piao-by", "opposite", "--piao-count", "3", "--json"])
    assert res.exit_code == 1
    assert '"code": "win_not_allowed_during_piao"' in res.stdout


def test_piao_limits_in_a_game_are_an_error_row() -> None:
    report = settle_hands("pujiang", [{"winner": "B", **PLAIN_HAND, "self_draw": True, "piao_by": "A", "piao_count": 3}, {"winner": "A", **FAN_HAND, "self_draw": True, "piao_by": "A", "piao_count": 3}])
    assert report["hands"][0]["error"]["code"] == "win_not_allowed_during_piao"
    assert "result" in report["hands"][1]  # the 飘 player themself may win


def test_pujiang_dealer_is_the_winner() -> None:
    # 庄家是谁胡谁做庄; 连庄：无连庄
    report = settle_hands("pujiang", [{"winner": "B", **PLAIN_HAND, "self_draw": True}, {"winner": "C", **PLAIN_HAND, "self_draw": True}, {"draw": True}, {"winner": "A", **PLAIN_HAND, "self_draw": True}])
    assert [h["dealer"] for h in report["hands"]] == ["D", "B", "C", "C"]


def test_piao_one_needs_fan_option() -> None:
    # L50: 在飘财神的一小圈内…其他的人不能碰与平胡，但如果碰到有翻的牌就可以平胡
    hand = {"winner": "B", **PLAIN_HAND, "self_draw": True, "piao_by": "A", "piao_count": 1}
    assert "error" not in settle_hands("pujiang", [hand])["hands"][0]
    strict = settle_hands("pujiang", [hand], settlement={"piao_one_needs_fan": True})["hands"][0]
    assert strict["error"]["code"] == "win_not_allowed_during_piao"
