"""Wuhu 315/525: every pattern with positive and negative hands, 交, kongs, dealer, options."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mahjong_calc import NotAWin, load_ruleset, score_hand
from mahjong_calc.core.errors import RulesetError


def run(hand: str, variant: str = "wuhu315", **kw: Any) -> dict[str, Any]:
    return score_hand(hand, variant=variant, **kw).to_dict()


# hand, flags, expected patterns, expected value (wuhu315)
PATTERN_CASES: list[tuple[str, dict[str, Any], list[str], int]] = [
    # 对对胡: 1 底 + round(11×0.2)=2 + 嘴子 2; self-draw: 3 + round(4.4)=4 + 嘴子 2×2
    ("111m444m777m99m555p", {}, ["dui_dui_hu"], 5),
    ("111m444m777m99m555p", {"self_draw": True}, ["dui_dui_hu"], 11),
    ("123m444m777m99m555p", {}, [], 3),
    # 通天: 123 456 789 of one suit as three sequences
    ("123456789m11p555p", {}, ["tong_tian"], 5),
    ("123456m678m11p555p", {}, [], 3),
    ("123456789p11m555m", {}, ["tong_tian"], 5),  # in 筒: the 9 支 are 筒
    # 四核: four copies as a pung plus one tile of a sequence
    ("111123m456m789p55p", {}, ["si_he"], 5),
    ("123m456m567p55p", {"melds": ["111m"]}, ["si_he"], 5),
    ("123m456m567p55p", {"melds": ["111m"], "overrides": ["options.si_he_exposed_pung=false"]}, [], 3),
    ("111m234m567m99p555p", {}, [], 3),  # a pung beside, not inside, a sequence
    # 混一色: one suit plus 红中
    ("123m345m678m99m777z", {}, ["hun_yi_se"], 5),
    ("123m345m678m99m777p", {}, [], 3),
    # 清一色 is 交 by itself; a 嘴子 beside it adds 10
    ("123m345m678m999m11m", {}, ["qing_yi_se", "jiao"], 30),
    ("111m333m555m777m99m", {}, ["dui_dui_hu", "qing_yi_se", "jiao"], 40),
    # 双四核 is 交; self-draw adds 10
    ("111m333m123m456p55p", {}, ["shuang_si_he", "jiao"], 30),
    ("111m333m123m456p55p", {"self_draw": True}, ["shuang_si_he", "jiao"], 40),
    # 双八支: 8 万 and two kongs of one other suit
    ("123m456m99m", {"melds": ["1111p", "9999p"]}, ["shuang_ba_zhi", "jiao"], 30),
    ("123m456m99m", {"melds": ["1111p", "9999s"]}, [], 5),  # 1 + round(1.6)=2 + two 明杠
    ("123m456m99m", {"melds": ["1111p", "9999s"], "overrides": ["options.shuang_ba_zhi_kongs_same_suit=false"]}, ["shuang_ba_zhi", "jiao"], 30),
    # 杠后开花 without 压档 is a 嘴子, never doubled: 3 + round(3.2)=3 + 2 + 明杠 1
    ("123m456m789p99m", {"melds": ["1111s"], "after_kong": True}, ["gang_hou_kai_hua"], 9),
    # 杠后开花 with 压档 is 交: 30; no self-draw bonus after a kong unless jiao_self_draw_after_kong
    ("13m456m99m789p2m", {"melds": ["1111s"], "after_kong": True}, ["gang_hou_kai_hua", "jiao"], 30),
    ("13m456m99m789p2m", {"melds": ["1111s"], "after_kong": True, "overrides": ["options.jiao_self_draw_after_kong=true"]}, ["gang_hou_kai_hua", "jiao"], 40),
    # 压档 never lowers a hand: 清一色 is the 交, 杠后压档 a 嘴子 beyond it, as 杠后开花 on 3m is
    ("13m345m678m55m2m", {"melds": ["9999m"], "after_kong": True}, ["gang_hou_kai_hua", "qing_yi_se", "jiao"], 40),
    ("12m345m678m55m3m", {"melds": ["9999m"], "after_kong": True}, ["gang_hou_kai_hua", "qing_yi_se", "jiao"], 40),
    ("13m345m678m55m2m", {"melds": ["9999m"], "after_kong": True, "overrides": ["options.jiao_self_draw_after_kong=true"]}, ["gang_hou_kai_hua", "qing_yi_se", "jiao"], 50),
    ("12m345m678m55m3m", {"melds": ["9999m"], "after_kong": True, "overrides": ["options.jiao_self_draw_after_kong=true"]}, ["gang_hou_kai_hua", "qing_yi_se", "jiao"], 50),
    # a self-drawn 交 with no kong keeps its bonus either way: 清一色 30 + 10
    ("123m345m678m999m11m", {"self_draw": True}, ["qing_yi_se", "jiao"], 40),
    # hun_yi_se_self_draw_jiao: off, a self-drawn 混一色 is a doubled 嘴子: 3 + round(4.4) + 2×2
    ("123m345m678m99m777z", {"self_draw": True}, ["hun_yi_se"], 11),
    ("123m345m678m99m777z", {"self_draw": True, "overrides": ["options.hun_yi_se_self_draw_jiao=true"]}, ["hun_yi_se", "jiao"], 40),
    ("123m345m678m99m777z", {"overrides": ["options.hun_yi_se_self_draw_jiao=true"]}, ["hun_yi_se"], 5),  # on a discard: a 嘴子
    # with it on, 混一色 is the 交 and 对对胡 a 嘴子 beyond: 30 + 10 + 10 (off: two 嘴子 make 交, 30 + 10)
    ("111m444m777m99m777z", {"self_draw": True, "overrides": ["options.hun_yi_se_self_draw_jiao=true"]}, ["dui_dui_hu", "hun_yi_se", "jiao"], 50),
    # tong_tian_overlapping: 123 345 567 789 covers 1-9
    ("123m345m567m789m11p", {}, [], 3),
    ("123m345m567m789m11p", {"overrides": ["options.tong_tian_overlapping=true"]}, ["tong_tian"], 5),
    ("123m456m789m99m555p", {"overrides": ["options.tong_tian_overlapping=true"]}, ["tong_tian"], 5),  # the plain one still is
    ("123m345m567m99m", {"melds": ["555p"], "overrides": ["options.tong_tian_overlapping=true"]}, [], 3),  # 8m missing
    # ... unless the option says otherwise: 4 + round((8+2)×0.4)=4 + 2 + 1
    ("13m456m99m789p2m", {"melds": ["1111s"], "after_kong": True, "overrides": ["options.gang_hou_ya_dang_jiao=false"]}, ["gang_hou_kai_hua"], 11),
    # 天胡 / 地胡
    ("123m456m678m11p555p", {"heavenly": True}, ["tian_hu", "jiao"], 40),
    ("123m456m678m11p555p", {"earthly": True}, ["di_hu", "jiao"], 30),
    # two 嘴子 make 交; a third adds 10
    ("111m444m777m99m777z", {}, ["dui_dui_hu", "hun_yi_se", "jiao"], 30),
    ("111m444m777m99m777z", {"self_draw": True}, ["dui_dui_hu", "hun_yi_se", "jiao"], 40),
    ("111123456789m77z", {}, ["tong_tian", "si_he", "hun_yi_se", "jiao"], 40),
    # one 交 per hand by default; the option counts each source
    ("123m345m678m999m11m", {"heavenly": True}, ["qing_yi_se", "tian_hu", "jiao"], 40),
    ("123m345m678m999m11m", {"heavenly": True, "overrides": ["options.jiao_count_each_source=true"]}, ["qing_yi_se", "tian_hu", "jiao"], 70),
]


@pytest.mark.parametrize(("hand", "flags", "patterns", "value"), PATTERN_CASES)
def test_patterns_and_values(hand: str, flags: dict[str, Any], patterns: list[str], value: int) -> None:
    result = run(hand, **flags)
    assert result["patterns"] == patterns
    assert result["value"] == value


def test_525_doubles_zui_zi_on_self_draw_and_pays_50_for_jiao() -> None:
    # 6 底 + 11 支 + 嘴子 5×2
    assert run("111m444m777m99m555p", "wuhu525", self_draw=True)["value"] == 27
    # 交 50 + one extra 嘴子 20 + self-draw 20
    assert run("111m333m555m777m99m", "wuhu525", self_draw=True)["value"] == 90


@pytest.mark.parametrize(
    ("kongs", "value"),
    [
        ({"melds": ["1111s"]}, 4),  # 1 + 2 + 明杠 1
        ({"concealed_kongs": ["1111s"]}, 5),  # 1 + 2 + 暗杠 2
        ({"melds": ["1111s"], "self_draw": True}, 7),  # 3 + round(3.2) + 1: kongs never double
    ],
)
def test_kongs(kongs: dict[str, Any], value: int) -> None:
    result = run("123m456m789p99m", **kongs)
    assert result["value"] == value
    assert any(i["key"] in ("ming_gang", "an_gang") for i in result["items"])


def test_jiao_adds_no_kong_or_dealer_amounts() -> None:
    plain = run("123m456m99m", melds=["1111p", "9999p"])
    dealer = run("123m456m99m", melds=["1111p", "9999p"], dealer=True)
    assert plain["value"] == dealer["value"] == 30
    assert {i["key"] for i in dealer["items"]} == {"jiao"}


def test_dealer_adds_one_more_di_fan() -> None:
    result = run("123m456m678m11p555p", self_draw=True, dealer=True)
    assert [(i["key"], i["value"]) for i in result["items"]] == [("di_fan", 3), ("zhi_fan", 4), ("dealer", 3)]


def test_paying_dealer_extra_is_an_option() -> None:
    off = run("123m456m678m11p555p", dealer_seat="opposite")
    on = run("123m456m678m11p555p", dealer_seat="opposite", overrides=["options.dealer_payer_extra=true"])
    assert off["payments"] == {"next": 3, "opposite": 3, "previous": 3}
    assert on["payments"] == {"next": 3, "opposite": 4, "previous": 3}
    assert on["value"] == 3


# 压档: the wait must be single, and the winning tile the middle of a sequence
@pytest.mark.parametrize(
    ("hand", "flags", "ya"),
    [
        ("13m456m678m11p555p2m", {}, 2),  # 嵌张 1_3
        ("46m123m789m11p555p5m", {}, 5),
        ("45m123m789m11p555p6m", {}, 0),  # two-sided 45 waits 3/6
        ("12m456m678m11p555p3m", {}, 0),  # 边张 counts only with the option
        ("12m456m678m11p555p3m", {"overrides": ["options.ya_dang_edge_wait=true"]}, 3),
        ("89m123m456m11p555p7m", {"overrides": ["options.ya_dang_edge_wait=true"]}, 7),
        ("123m456m789m1p555p1p", {}, 0),  # 单钓: a single wait, but on the pair
        # waits 2m and 3m, but all four 3m are held (one in hand, three in the pung): single wait
        ("111m3m666m123p2m", {"melds": ["333m"]}, 2),
        ("111m3m666m123p2m", {"melds": ["999m"]}, 0),
        # 1333m waits on 1m and 2m; 2m fills the middle of 123m: 压档 only by shape
        ("1333m456m678m555p2m", {}, 0),
        ("1333m456m678m555p2m", {"overrides": ["options.ya_dang_single_wait=false"]}, 2),
        ("45m123m789m11p555p6m", {"overrides": ["options.ya_dang_single_wait=false"]}, 0),  # an edge of 456, not its middle
        ("12m456m678m11p555p3m", {"overrides": ["options.ya_dang_single_wait=false"]}, 0),
        ("12m456m678m11p555p3m", {"overrides": ["options.ya_dang_single_wait=false", "options.ya_dang_edge_wait=true"]}, 3),
    ],
)
def test_ya_dang(hand: str, flags: dict[str, Any], ya: int) -> None:
    assert run(hand, **flags)["ya_dang"] == ya


def test_best_decomposition_is_chosen_and_reported() -> None:
    # 1233345m: 123 + 345 + 33? or 123 + 33 + 345 - the 压档 reading of 4m pays more
    result = run("123m35m789m11p555p4m")
    assert result["ya_dang"] == 4
    assert result["decomposition"]["win_in"] == "345m"


@pytest.mark.parametrize(
    ("hand", "flags", "code"),
    [
        ("123m456p789s11p555s", {}, "no_ba_zhi"),
        ("123m456m11p555p789s", {}, "no_ba_zhi"),  # 6 万, 5 筒
        ("123m456m789m11p556p", {}, "not_a_winning_hand"),
    ],
)
def test_not_a_win(hand: str, flags: dict[str, Any], code: str) -> None:
    with pytest.raises(NotAWin) as info:
        run(hand, **flags)
    assert info.value.code == code


# Two readings, each an option, default off:
# hand, flags, the option set true or false, expected patterns, expected value (wuhu315, wuhu525)
DU_DIAO = ("123m345m678m55s", {"melds": ["1111s"], "after_kong": True, "win": "5s"})  # 杠后开花 on a 独吊 of 5s
DU_DIAO_PLUS = ("1112m345m678m2m", {"melds": ["1111s"], "after_kong": True, "win": "2m"})  # the pair 22m, but 3m 5m 6m 8m 9m wait too
THREE_SI_HE = ("111122223333m55p", {})  # 111m 222m 333m + 123m: three 四核 tiles
NEW_OPTION_CASES: list[tuple[str, dict[str, Any], str, bool, list[str], tuple[int, int]]] = [
    # off: a plain 杠后开花, one 嘴子: 3 + round(9 × 0.4)=4 + 2 + 明杠 1 (525: 6 + 9 + 5 + 2)
    (*DU_DIAO, "gang_hou_du_diao_jiao", False, ["gang_hou_kai_hua"], (10, 22)),
    # on: 交 by itself, like 杠后压档; no 交 self-draw bonus after a kong
    (*DU_DIAO, "gang_hou_du_diao_jiao", True, ["gang_hou_kai_hua", "jiao"], (30, 50)),
    # a pair wait among others is no 独吊: 3 + round(11 × 0.4)=4 + 2 + 1 (525: 6 + 11 + 5 + 2)
    (*DU_DIAO_PLUS, "gang_hou_du_diao_jiao", False, ["gang_hou_kai_hua"], (10, 24)),
    (*DU_DIAO_PLUS, "gang_hou_du_diao_jiao", True, ["gang_hou_kai_hua"], (10, 24)),
    # where 清一色 is the 交, the 独吊 杠后开花 is a 嘴子 beyond it either way, as any 杠后开花 is:
    # 30 + 对对胡 10 + 杠后开花 10 (525: 50 + 20 + 20)
    *[("111m333m555m99m", {"melds": ["8888m"], "after_kong": True, "win": "9m"}, "gang_hou_du_diao_jiao", on,
       ["dui_dui_hu", "gang_hou_kai_hua", "qing_yi_se", "jiao"], (50, 90)) for on in (False, True)],
    # off: 双四核, 交 30 and nothing for the third tile
    (*THREE_SI_HE, "si_he_three_extra", False, ["shuang_si_he", "jiao"], (30, 50)),
    # on: 双四核 plus one more 四核, a 嘴子 beyond the 交: 30 + 10 (525: 50 + 20)
    (*THREE_SI_HE, "si_he_three_extra", True, ["si_he", "shuang_si_he", "jiao"], (40, 70)),
    ("123m55p", {"melds": ["111m", "222m", "333m"]}, "si_he_three_extra", True, ["si_he", "shuang_si_he", "jiao"], (40, 70)),
    # two 四核 tiles stay 双四核 alone
    ("111m333m123m456p55p", {}, "si_he_three_extra", True, ["shuang_si_he", "jiao"], (30, 50)),
]


@pytest.mark.parametrize(("hand", "flags", "option", "on", "patterns", "values"), NEW_OPTION_CASES, ids=str)
@pytest.mark.parametrize("variant", ["wuhu315", "wuhu525"])
def test_du_diao_and_three_si_he_options(variant: str, hand: str, flags: dict[str, Any], option: str, on: bool,
                                         patterns: list[str], values: tuple[int, int]) -> None:
    result = run(hand, variant, **flags, overrides=[f"options.{option}={str(on).lower()}"])
    assert (result["patterns"], result["value"]) == (patterns, values[variant == "wuhu525"])
    if not on:  # off is the shipped default: the same result without the override
        assert run(hand, variant, **flags) == result


# The three readings of gang_hou_du_diao_jiao on the hands (wuhu315): each (hand, flags), then
# the value under off, da_diao_che and any_single_wait. 大吊车 (all four sets melded, one tile left)
# is the independent implementation's reading (its isDaDiaoChe).
DA_DIAO_CHE = ("4m4m", {"melds": ["5555m", "7777p", "777m", "777z"], "after_kong": True, "win": "4m"})
TWO_KONGS = ("8p1s1s2s2s3s3s8p", {"melds": ["6666p"], "concealed_kongs": ["5555p"], "after_kong": True, "dealer": True, "win": "8p"})
DU_DIAO_READINGS = [
    # a 独吊 with one meld: a plain 杠后开花 (10) unless any single wait counts (交 30)
    (*DU_DIAO, {"off": 10, "da_diao_che": 10, "any_single_wait": 30}),
    # the dealer's 独吊 with two kongs: 15 each, or 交 30
    (*TWO_KONGS, {"off": 15, "da_diao_che": 15, "any_single_wait": 30}),
    # 大吊车: 对对胡 and 杠后开花 make 交 30 when off; as 交 by itself, 对对胡 is a 嘴子 beyond it: 30 + 10
    (*DA_DIAO_CHE, {"off": 30, "da_diao_che": 40, "any_single_wait": 40}),
]


@pytest.mark.parametrize(("hand", "flags", "values"), DU_DIAO_READINGS, ids=str)
def test_the_three_readings_of_gang_hou_du_diao_jiao(hand: str, flags: dict[str, Any], values: dict[str, int]) -> None:
    for reading, value in values.items():
        result = run(hand, "wuhu315", **flags, overrides=[f"options.gang_hou_du_diao_jiao={reading}"])
        assert result["value"] == value, reading
        assert set(result["payments"].values()) == {value}, reading
    # true and false load as the old switch meant them; the default is off
    assert run(hand, "wuhu315", **flags, overrides=["options.gang_hou_du_diao_jiao=true"])["value"] == values["any_single_wait"]
    assert run(hand, "wuhu315", **flags, overrides=["options.gang_hou_du_diao_jiao=false"])["value"] == values["off"]
    assert run(hand, "wuhu315", **flags)["value"] == values["off"]


def test_gang_hou_du_diao_jiao_refuses_another_value_naming_the_choices() -> None:
    with pytest.raises(RulesetError) as info:
        run(DU_DIAO[0], **DU_DIAO[1], overrides=["options.gang_hou_du_diao_jiao=maybe"])
    assert info.value.code == "ruleset_invalid"
    assert "'off', 'da_diao_che', 'any_single_wait'" in info.value.message and "maybe" in info.value.message


def test_the_new_options_through_mjcalc_score() -> None:
    from typer.testing import CliRunner

    from mahjong_calc.cli.app import app

    def score(*args: str) -> Any:
        done = CliRunner().invoke(app, ["score", *args, "--json"])
        assert done.exit_code == 0, done.output
        return json.loads(done.stdout)

    du_diao = ["123m345m678m55s", "-m", "1111s", "--after-kong", "--win", "5s"]
    assert score(*du_diao)["value"] == 10
    on = score(*du_diao, "--set", "options.gang_hou_du_diao_jiao=true")
    assert [(i["key"], i["value"], i["detail"]) for i in on["items"]] == [("jiao", 30, "杠后开花 on a 独吊 is 交 (gang_hou_du_diao_jiao)")]
    assert score("111122223333m55p")["value"] == 30
    on = score("111122223333m55p", "--set", "options.si_he_three_extra=true")
    assert [(i["key"], i["value"], i["detail"]) for i in on["items"]] == [("jiao", 30, "双四核 is 交 by itself"),
                                                                          ("si_he", 10, "嘴子 beyond 交")]


def test_an_integral_factor_prints_without_a_point() -> None:
    # wuhu525's self-draw factor is written `1` and loads as the float 1.0; the text stays `11 × 1`
    assert load_ruleset("wuhu525").numbers.zhi_factor.self_draw == 1.0
    items = run("123m456m789m11m555p", "wuhu525", self_draw=True)["items"]
    assert [i["detail"] for i in items if i["key"] == "zhi_fan"] == ["11 × 1 = 11"]
    items = run("123m456m789m11m555p", "wuhu525", self_draw=True, overrides=["numbers.zhi_factor.self_draw=2.0"])["items"]
    assert [i["detail"] for i in items if i["key"] == "zhi_fan"] == ["11 × 2 = 22"]
    items = run("123m456m789m11m555p", "wuhu315")["items"]
    assert [i["detail"] for i in items if i["key"] == "zhi_fan"] == ["11 × 0.2 = 2.2 → 2"]


def test_mjcalc_options_shows_the_three_readings_of_gang_hou_du_diao_jiao() -> None:
    from typer.testing import CliRunner

    from mahjong_calc.cli.app import app

    done = CliRunner().invoke(app, ["options", "wuhu315", "--json"])
    assert done.exit_code == 0, done.output
    (row,) = [r for r in json.loads(done.stdout)["options"] if r["key"] == "options.gang_hou_du_diao_jiao"]
    assert row["value"] == "off"
    assert all(word in row["en"] for word in ("off", "da_diao_che", "any_single_wait", "大吊车"))
    assert "大吊车" in row["zh"] and row["docs"].startswith("docs/rules/wuhu.md")
    assert load_ruleset("wuhu315").options.gang_hou_du_diao_jiao == "off"
    assert load_ruleset("wuhu525").options.gang_hou_du_diao_jiao == "off"


@pytest.mark.parametrize(("given", "shown"), [("true", "any_single_wait"), ("false", "off"), ("da_diao_che", "da_diao_che")])
def test_mjcalc_options_shows_an_old_spelling_as_the_value_it_loads_as(given: str, shown: str) -> None:
    from typer.testing import CliRunner

    from mahjong_calc.cli.app import app

    done = CliRunner().invoke(app, ["options", "wuhu315", "--set", f"options.gang_hou_du_diao_jiao={given}", "--json"])
    assert done.exit_code == 0, done.output
    (row,) = [r for r in json.loads(done.stdout)["options"] if r["key"] == "options.gang_hou_du_diao_jiao"]
    assert row["value"] == shown


# What makes a hand 交, in the item's detail, as the seed says it (§4 "嘴子有混一色,通天,四核,对对胡,杠后开花
# (杠后压档也交)"; §5.2 "交：超过2个嘴子，清一色、双八支、双四核、压档杠后开花、天胡、地胡直接算交"): a plain
# 杠后开花 is a 嘴子, so its detail never says it is 交 by itself; only 压档杠后开花 is, and the options'.
JIAO_DETAILS = [
    ("13m456m99m789p2m", {"melds": ["1111s"], "after_kong": True},
     "压档杠后开花算交", "win on a kong replacement with ya dang is a jiao"),
    ("123m345m678m55s", {"melds": ["1111s"], "after_kong": True, "win": "5s", "overrides": ["options.gang_hou_du_diao_jiao=any_single_wait"]},
     "独吊杠后开花算交 (`gang_hou_du_diao_jiao`)", "win on a kong replacement on a single wait (du diao) is a jiao (gang_hou_du_diao_jiao)"),
    ("123m345m678m99m777z", {"self_draw": True, "overrides": ["options.hun_yi_se_self_draw_jiao=true"]},
     "自摸混一色算交 (`hun_yi_se_self_draw_jiao`)", "self-drawn one suit plus red dragons is a jiao (hun_yi_se_self_draw_jiao)"),
    ("123m345m678m999m11m", {}, "清一色 本身就是交", "pure one suit is a jiao by itself"),
]


@pytest.mark.parametrize(("hand", "flags", "zh", "en"), JIAO_DETAILS, ids=[c[0] for c in JIAO_DETAILS])
def test_the_jiao_detail_says_why(hand: str, flags: dict[str, Any], zh: str, en: str) -> None:
    from mahjong_calc.core.language import speaking

    result = score_hand(hand, variant="wuhu315", **flags)
    details = {}
    for lang in ("zh", "en"):
        with speaking(lang):
            details[lang] = next(i["detail"] for i in result.to_dict()["items"] if i["key"] == "jiao")
    assert details == {"zh": zh, "en": en}
