"""Wuhu liability (报警 / 包牌), built from tiles and meld sources; each case cites seed 000.

Payments are what each seat relative to the winner pays: (next, opposite, previous).
"""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from mahjong_calc import score_hand
from mahjong_calc.cli.app import app


def pays(hand: str, **kw: Any) -> tuple[tuple[int, int, int], list[tuple[str, str, int]], int]:
    r = score_hand(hand, variant=kw.pop("variant", "wuhu315"), **kw).to_dict()
    p = r["payments"]
    rows = [(row["payer"], row["code"], row["amount"]) for row in r.get("liability", [])]
    return (p["next"], p["opposite"], p["previous"]), rows, r["value"]


# (case, hand, flags, who pays all three (None: normal), code)
CASES = [
    # §4.1 如果是同一家打给另一家3对造成报警的,如果是交的话,不管谁放炮都由打三对的人包牌
    ("one feeder of 3, another discards", "456m99m", {"melds": ["111m@next", "222m@next", "333m@next"], "discarder": "previous"}, "next", "san_dui_bao_pai"),
    ("one feeder of 3, the feeder discards", "456m99m", {"melds": ["111m@next", "222m@next", "333m@next"], "discarder": "next"}, "next", "san_dui_bao_pai"),
    ("one feeder of 3, self-draw (不管谁放炮: option san_dui_bao_on_self_draw)", "456m99m", {"melds": ["111m@opposite", "222m@opposite", "333m@opposite"], "self_draw": True}, "opposite", "san_dui_bao_pai"),
    # 混一色 alarm: one suit plus 红中 (清一色或混一色3对报警)
    ("混一色 alarm with 中 (对对胡 + 混一色: 交)", "555m99m", {"melds": ["111m@next", "777z@next", "333m@next"], "discarder": "opposite"}, "next", "san_dui_bao_pai"),
    # §4.1 如果不是同一个人打的3对,谁放炮谁包牌
    ("several feeders: the discarder", "456m99m", {"melds": ["111m@next", "222m@opposite", "333m@next"], "discarder": "previous"}, "previous", "san_dui_bao_pai"),
    ("several feeders, self-draw: nobody (the seed is silent)", "456m99m", {"melds": ["111m@next", "222m@opposite", "333m@next"], "self_draw": True}, None, None),
    # 报警有个前提,不一定是交牌,是交就包: not 交, no liability
    ("alarm but not 交", "456p99p", {"melds": ["111m@next", "222m@next", "333m@next"], "discarder": "previous"}, None, None),
    # §3.14 / §4.2 四对转包: 任一玩家打出第四对,若和交牌则由打四对的人包
    ("四对转包: the 4th pung's feeder", "99m", {"melds": ["111m@next", "222m@next", "333m@next", "555m@opposite"], "discarder": "previous"}, "opposite", "si_dui_zhuan_bao"),
    # §4.3 双八支报警: 如果对下来另一个颜色的牌,谁放炮就由谁包
    ("双八支 + a pung of another suit: the discarder", "123m99m", {"melds": ["1111p", "9999p", "555m@next"], "discarder": "opposite"}, "opposite", "shuang_ba_zhi_bao"),
    ("双八支 + pung, self-draw: nobody", "123m99m", {"melds": ["1111p", "9999p", "555m@next"], "self_draw": True}, None, None),
    # 如果没有对下来别的牌,只算交牌,不包牌
    ("双八支 without another pung: just 交", "123m456m99m", {"melds": ["1111p@next", "9999p@next"], "discarder": "opposite"}, None, None),
    # 另一个颜色 is a 花色 (万/筒/条): 红中 has none
    ("two 筒 kongs and a 红中 pung (对对胡 + 混一色): just 交", "555p33p", {"concealed_kongs": ["1111p", "9999p"], "melds": ["777z@opposite"], "discarder": "next"}, None, None),
    ("two 筒 kongs and a 筒 pung (the kongs' own suit; 清一色): just 交", "345p77p", {"melds": ["1111p", "9999p", "555p@next"], "discarder": "opposite"}, None, None),
    ("concealed 筒 kongs and a 万 pung: the discarder", "123m99m", {"concealed_kongs": ["1111p", "9999p"], "melds": ["555m@next"], "discarder": "previous"}, "previous", "shuang_ba_zhi_bao"),
    # §4.4 双四核报警: 谁顶嘴子打谁包 (333,444: 打3或4成牌)
    ("双四核: the key tile's discarder", "678m99m345m", {"win": "3m", "melds": ["333m@next", "444m@opposite"], "discarder": "previous"}, "previous", "shuang_si_he_bao"),
    ("双四核, another winning tile: just 交 (不顶嘴子,只算交牌)", "345m678m99m", {"win": "9m", "melds": ["333m@next", "444m@opposite"], "discarder": "previous"}, None, None),
]


@pytest.mark.parametrize(("case", "hand", "flags", "liable", "code"), CASES, ids=[c[0] for c in CASES])
def test_wuhu_liability(case: str, hand: str, flags: dict[str, Any], liable: str | None, code: str | None) -> None:
    plain_flags = {**flags, "melds": [m.split("@")[0] for m in flags["melds"]]}
    normal, _, _ = pays(hand, **plain_flags)
    got, rows, _ = pays(hand, **flags)
    assert sum(got) == sum(normal)  # liability moves money between payers, never creates it
    if liable is None:
        assert got == normal and rows == []
        return
    seats = ("next", "opposite", "previous")
    expected = tuple(sum(normal) if s == liable else 0 for s in seats)
    assert got == expected
    assert rows == [(liable, code, sum(normal) - normal[seats.index(liable)])]


def test_liability_needs_jiao_is_an_option() -> None:
    flags = {"melds": ["111m@next", "222m@next", "333m@next"], "discarder": "previous"}
    got, rows, value = pays("456p99p", overrides=["settlement.liability_needs_jiao=false"], **flags)
    assert got == (3 * value, 0, 0) and rows[0][1] == "san_dui_bao_pai"


def test_no_sources_no_liability_key() -> None:
    r = score_hand("456m99m", melds=["111m", "222m", "333m"], discarder="previous").to_dict()
    assert "liability" not in r and r["payments"] == {"next": 30, "opposite": 30, "previous": 30}


def test_score_cli_json_liability_and_chinese_seats() -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["score", "456m99m", "-m", "111m@下家", "-m", "222m@下家", "-m", "333m@下家", "-f", "opposite", "--json"])
    assert res.exit_code == 0, res.output
    import json

    data = json.loads(res.stdout)
    assert data["payments"] == {"next": 90, "opposite": 0, "previous": 0}
    assert data["liability"] == [{"payer": "next", "code": "san_dui_bao_pai", "zh": "三对包牌", "en": "three-pung alarm: one player pays for all three", "amount": 60}]


def test_score_cli_table_shows_liability() -> None:
    res = CliRunner().invoke(app, ["score", "456m99m", "-m", "111m@next", "-m", "222m@next", "-m", "333m@next", "-f", "previous", "-l", "en"])
    assert res.exit_code == 0
    assert "next +60  three-pung alarm: one player pays for all three" in res.stdout  # English alone
    zh = CliRunner().invoke(app, ["score", "456m99m", "-m", "111m@next", "-m", "222m@next", "-m", "333m@next", "-f", "previous", "-l", "zh"])
    assert "下家 +60  三对包牌\n" in zh.stdout, zh.stdout
    plain = CliRunner().invoke(app, ["score", "456m99m", "-m", "111m@next", "-m", "222m@next", "-m", "333m@next", "-f", "previous"],
                               env={"MJCALC_LANG": "", "LC_ALL": "", "LANG": "C.UTF-8"})
    assert "下家 +60  三对包牌 san_dui_bao_pai" in plain.stdout, plain.stdout  # no language chosen: as always


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["-k", "5555p@next"], "source_on_concealed_kong"),
        (["-m", "555p@nobody"], "bad_source"),
        (["-m", "555p@"], "bad_source"),
    ],
)
def test_score_cli_bad_sources(args: list[str], code: str) -> None:
    res = CliRunner().invoke(app, ["score", "13m456m678m11p2m", *args, "--self-draw", "--json"])
    assert res.exit_code == 2
    assert f'"code": "{code}"' in res.stdout


def test_batch_records_take_meld_sources() -> None:
    # batch records accept meld sources and settle each hand's liability
    import json as _json

    records = [
        {"id": 1, "hand": "456m99m", "melds": ["111m@next", "222m@next", "333m@next"], "discarder": "previous"},
        {"id": 2, "hand": "456m99m", "melds": ["111m", "222m", "333m"], "discarder": "previous"},
        {"id": 3, "hand": "13m456m678m11p2m", "concealed_kongs": ["5555p@next"], "self_draw": True},
    ]
    res = CliRunner().invoke(app, ["batch", "-"], input="\n".join(_json.dumps(r) for r in records) + "\n")
    rows = [_json.loads(line) for line in res.stdout.splitlines()]
    assert rows[0]["payments"] == {"next": 90, "opposite": 0, "previous": 0}
    assert rows[0]["liability"][0]["code"] == "san_dui_bao_pai"
    assert rows[1]["payments"] == {"next": 30, "opposite": 30, "previous": 30} and "liability" not in rows[1]
    assert rows[2]["error"]["code"] == "source_on_concealed_kong"
    assert res.exit_code == 1


def test_score_cli_red_dragon_pung_is_no_shuang_ba_zhi_alarm() -> None:
    # seed 000 §4.3 "如果对下来另一个颜色的牌": 红中 is no 花色; the discarder (-f next) pays only their share
    import json

    res = CliRunner().invoke(app, ["score", "555p33p", "-k", "1111p", "-k", "9999p", "-m", "777z@opposite", "-f", "next", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["patterns"] == ["dui_dui_hu", "hun_yi_se", "jiao"]
    assert data["payments"] == {"next": 30, "opposite": 30, "previous": 30} and data["liability"] == []


def test_shuang_ba_zhi_example_game() -> None:
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "wuhu315-shuang-ba-zhi.yaml"
    res = CliRunner().invoke(app, ["game", "settle", str(path), "--json"])
    assert res.exit_code == 0, res.output
    hands = json.loads(res.stdout)["hands"]
    changes = [h["settlement"]["changes"] for h in hands]
    codes = [[row["code"] for row in h["settlement"]["liability"]] for h in hands]
    assert changes == [
        {"A": -30, "B": 90, "C": -30, "D": -30},  # 红中 pung: 只算交牌,不包牌
        {"A": -90, "B": 0, "C": 90, "D": 0},  # a 万 pung beside two 筒 kongs: 谁放炮就由谁包
        {"A": -40, "B": -40, "C": -40, "D": 120},  # self-draw: nobody discarded
    ]
    assert codes == [[], ["shuang_ba_zhi_bao"], []]
