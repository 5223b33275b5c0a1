"""Chizhou 池州麻将: 花 sources, win thresholds, patterns and the cap, payments, errors.

Every case is a real hand in tile notation; expected values are worked out by
hand from the seed (see docs/rules/chizhou.md), never read back from the code.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from typer.testing import CliRunner

from mahjong_calc import NotAWin, score_hand
from mahjong_calc.cli.app import app
from mahjong_calc.core.errors import InputError

SEATS = ("next", "opposite", "previous")
# Thresholds off, so a 花 count can be read from any hand.
NO_THRESHOLDS = (
    "numbers.min_flowers.self_draw=0",
    "numbers.min_flowers.discard=0",
    "numbers.min_flowers.qiang_gang=0",
    "numbers.chow_free_min_flowers=0",
)


@dataclass(frozen=True)
class Win:
    """One winning hand and how it was won."""

    hand: str
    melds: tuple[str, ...] = ()
    kongs: tuple[str, ...] = ()
    win: str | None = None
    how: str = "self_draw"  # self_draw | discard | after_kong | robbing_kong
    discarder: str | None = "next"
    overrides: tuple[str, ...] = field(default=())

    def score(self) -> dict[str, Any]:
        return score_hand(
            self.hand,
            variant="chizhou",
            overrides=self.overrides,
            win=self.win,
            melds=self.melds,
            concealed_kongs=self.kongs,
            self_draw=self.how == "self_draw",
            after_kong=self.how == "after_kong",
            robbing_kong=self.how == "robbing_kong",
            discarder=self.discarder if self.how in ("discard", "robbing_kong") else None,
        ).to_dict()

    def args(self) -> list[str]:
        """The same win as `mjcalc score` arguments."""
        out = ["score", self.hand, "--variant", "chizhou", "--json"]
        for m in self.melds:
            out += ["--meld", m]
        for k in self.kongs:
            out += ["--concealed-kong", k]
        if self.win:
            out += ["--win", self.win]
        out += {"self_draw": ["--self-draw"], "after_kong": ["--after-kong"], "robbing_kong": ["--robbing-kong"]}.get(
            self.how, []
        )
        if self.how in ("discard", "robbing_kong") and self.discarder:
            out += ["--discarder", self.discarder]
        for o in self.overrides:
            out += ["--set", o]
        return out


def _flower_items(result: dict[str, Any]) -> list[tuple[str, int]]:
    keys = {"zi_peng", "zi_an_ke", "ming_gang", "an_gang", "zi_ming_gang", "zi_an_gang"}
    return [(i["key"], i["value"]) for i in result["items"] if i["key"] in keys]


# --- 花 sources (seed lines 5-10) -------------------------------------------------

FLOWER_CASES = [
    ("字碰 exposed honour pung", Win("123m456p789s55m", melds=("111z",)), [("zi_peng", 1)]),
    ("字暗刻 concealed honour triplet", Win("111z123m456p789s55m"), [("zi_an_ke", 1)]),
    ("字暗刻 completed by self-draw", Win("123m456p789s55m111z", win="1z"), [("zi_an_ke", 1)]),
    ("honour triplet completed by a discard is 字碰", Win("123m456p789s55m111z", win="1z", how="discard"), [("zi_peng", 1)]),
    (
        "... or 字暗刻 with discard_triplet_is_exposed off",
        Win("123m456p789s55m111z", win="1z", how="discard", overrides=("options.discard_triplet_is_exposed=false",)),
        [("zi_an_ke", 1)],
    ),
    ("明杠 exposed suited kong", Win("123m456p789s11z", melds=("5555m",)), [("ming_gang", 1)]),
    ("暗杠 concealed suited kong", Win("123m456p789s11z", kongs=("5555m",)), [("an_gang", 2)]),
    ("字明杠 exposed honour kong", Win("123m456p789s55m", melds=("1111z",)), [("zi_ming_gang", 2)]),
    ("字暗杠 concealed honour kong", Win("123m456p789s55m", kongs=("1111z",)), [("zi_an_gang", 3)]),
    ("suited pungs, exposed or concealed, bring none", Win("222p123m789s66m", melds=("555m",)), []),
    ("an honour pair brings none", Win("123m456p789s555m11z"), []),
    ("honour pung as a concealed triplet with a kong elsewhere", Win("777z456p789s55m", kongs=("2222s",)), [("zi_an_ke", 1), ("an_gang", 2)]),
    (
        "every kind at once adds up",
        Win("333z44z", melds=("1111z", "5555m"), kongs=("2222z",)),
        [("zi_an_ke", 1), ("zi_ming_gang", 2), ("ming_gang", 1), ("zi_an_gang", 3)],
    ),
]


@pytest.mark.parametrize(("case", "win", "expected"), FLOWER_CASES, ids=[c[0] for c in FLOWER_CASES])
def test_flower_sources(case: str, win: Win, expected: list[tuple[str, int]]) -> None:
    result = Win(**{**win.__dict__, "overrides": win.overrides + NO_THRESHOLDS}).score()
    assert _flower_items(result) == expected
    assert result["flowers"] == sum(v for _, v in expected)


def test_flower_numbers_come_from_the_ruleset() -> None:
    win = Win("123m456p789s55m", kongs=("1111z",), overrides=("numbers.flowers.zi_an_gang=5",))
    result = win.score()
    assert result["flowers"] == 5
    assert _flower_items(result) == [("zi_an_gang", 5)]


def test_flower_items_carry_both_names() -> None:
    (item,) = [i for i in Win("123m456p789s55m", kongs=("1111z",)).score()["items"] if i["key"] == "zi_an_gang"]
    assert (item["zh"], item["en"]) == ("字暗杠", "concealed honour kong")
    assert "1111z" in item["detail"]


# --- win thresholds (seed lines 4, 16, 18; 和牌方式 2) ------------------------------

THRESHOLD_CASES = [
    # (case, win, flowers, needed or None when it wins)
    ("自摸 at 2 花", Win("123m456p789s11z", kongs=("5555m",)), 2, None),
    ("自摸 one below", Win("123m456p789s11z", melds=("5555m",)), 1, 2),
    ("冲 at 3 花", Win("123m456p789s55m", kongs=("1111z",), how="discard"), 3, None),
    ("冲 at 3 花 from two sources", Win("123m789s55p", melds=("1111z", "5555m"), how="discard"), 3, None),
    ("冲 one below", Win("123m456p789s55m", melds=("1111z",), how="discard"), 2, 3),
    ("冲 with 2 花 is still a self-draw win", Win("123m456p789s55m", melds=("1111z",)), 2, None),
    ("抢杠 at 2 花", Win("123m456p789s11z", kongs=("5555m",), how="robbing_kong"), 2, None),
    ("抢杠 one below", Win("123m456p789s11z", melds=("5555m",), how="robbing_kong"), 1, 2),
    ("抢杠 on a 拉子 hand still needs 2", Win("123m456m789m234m55m", how="robbing_kong"), 0, 2),
    ("拉子 (清一色) wins by discard with no 花", Win("123m456m789m234m55m", how="discard"), 0, None),
    ("拉子 (对对胡) wins by self-draw with no 花", Win("111m222p333s444m55p"), 0, None),
    ("大吊车 alone (×2) is not 拉子 and needs 花", Win("55s", melds=("123m", "456m", "789m", "222m")), 0, 2),
    ("大吊车 + 杠开 is 拉子 (seed line 22)", Win("11s", melds=("9999p", "123p", "456p", "678p"), how="after_kong"), 1, None),
    (
        "拉子 needs 花 when la_zi_needs_no_flowers is off",
        Win("123m456m789m234m55m", how="discard", overrides=("options.la_zi_needs_no_flowers=false",)),
        0,
        3,
    ),
    (
        "the thresholds are YAML numbers",
        Win("123m456p789s55m", melds=("1111z",), how="discard", overrides=("numbers.min_flowers.discard=2",)),
        2,
        None,
    ),
]


@pytest.mark.parametrize(("case", "win", "flowers", "needed"), THRESHOLD_CASES, ids=[c[0] for c in THRESHOLD_CASES])
def test_thresholds(case: str, win: Win, flowers: int, needed: int | None) -> None:
    if needed is None:
        assert win.score()["flowers"] == flowers
        return
    with pytest.raises(NotAWin) as info:
        win.score()
    assert info.value.code == "not_enough_flowers"
    assert f"needs {needed} 花" in info.value.message
    assert f"has {flowers}" in info.value.message
    assert ("unless 拉子" in info.value.message) == (win.how != "robbing_kong" and not win.overrides)


# --- patterns, fan and the cap (seed lines 1, 11-17, 22) -----------------------------

PATTERN_CASES = [
    # (case, win, patterns, multiplier)
    ("no pattern", Win("123m456p789s11z", kongs=("5555m",)), [], 1),
    ("对对胡 alone", Win("111m222p333s444m55p"), ["dui_dui_hu", "la_zi"], 3),
    ("one chow: no 对对胡", Win("123m222p333s55p", kongs=("1111z",)), [], 1),
    ("清一色 alone", Win("123m456m789m234m55m", how="discard"), ["qing_yi_se", "la_zi"], 3),
    ("清一色 + 对对胡 is capped", Win("111m333m555m777m99m"), ["dui_dui_hu", "qing_yi_se", "la_zi"], 3),
    ("混一色 alone", Win("123m456m789m111z55m"), ["hun_yi_se", "la_zi"], 3),
    ("混一色 + 对对胡", Win("111m333m555m111z22z"), ["dui_dui_hu", "hun_yi_se", "la_zi"], 3),
    ("字一色 (with 对对胡, never 混一色)", Win("111z222z333z444z55z"), ["dui_dui_hu", "zi_yi_se", "la_zi"], 3),
    ("大吊车 alone", Win("55p", melds=("1111z", "123m", "456m", "789m")), ["da_diao_che"], 2),
    ("大吊车 with a concealed kong", Win("55p", melds=("123m", "456m", "789m"), kongs=("1111z",)), ["da_diao_che"], 2),
    (
        "no 大吊车 through a concealed kong when the option is off",
        Win("55p", melds=("123m", "456m", "789m"), kongs=("1111z",), overrides=("options.da_diao_che_concealed_kong=false",)),
        [],
        1,
    ),
    ("three melds: no 大吊车", Win("789m55p", melds=("1111z", "123m", "456m")), [], 1),
    ("大吊车 + 混一色", Win("55m", melds=("1111z", "123m", "456m", "789m")), ["hun_yi_se", "da_diao_che", "la_zi"], 3),
    ("杠开 alone", Win("123m456p789s11z", kongs=("5555m",), how="after_kong"), ["gang_kai"], 2),
    ("杠开 + 大吊车", Win("11s", melds=("9999p", "123p", "456p", "678p"), how="after_kong"), ["da_diao_che", "gang_kai", "la_zi"], 3),
    ("杠开 + 清一色", Win("123m678m789m11m", kongs=("5555m",), how="after_kong"), ["qing_yi_se", "gang_kai", "la_zi"], 3),
    ("抢杠 alone", Win("123m456p789s11z", kongs=("5555m",), how="robbing_kong"), ["qiang_gang", "la_zi"], 3),
    ("抢杠 + 清一色", Win("123m678m789m11m", kongs=("5555m",), how="robbing_kong"), ["qing_yi_se", "qiang_gang", "la_zi"], 3),
]


@pytest.mark.parametrize(("case", "win", "patterns", "multiplier"), PATTERN_CASES, ids=[c[0] for c in PATTERN_CASES])
def test_patterns(case: str, win: Win, patterns: list[str], multiplier: int) -> None:
    result = win.score()
    assert result["patterns"] == patterns
    assert result["multiplier"] == multiplier
    assert result["value"] == multiplier  # 底 1
    fans = {i["key"]: i["value"] for i in result["items"]}
    assert fans["di"] == 1
    for key in patterns:
        assert key in fans


def test_the_all_pungs_reading_wins_over_the_chow_reading() -> None:
    result = Win("111m222m333m55p", kongs=("1111z",)).score()  # 111m222m333m = three chows or three pungs
    assert result["patterns"] == ["dui_dui_hu", "la_zi"]


@pytest.mark.parametrize(
    ("overrides", "value", "multiplier", "la_zi"),
    [
        ((), 3, 3, True),
        (("numbers.cap=27",), 9, 9, False),
        (("numbers.cap=9",), 9, 9, True),
        (("numbers.base=2",), 6, 3, True),
    ],
)
def test_cap_and_base_come_from_the_ruleset(overrides: tuple[str, ...], value: int, multiplier: int, la_zi: bool) -> None:
    result = Win("111m333m555m99m", kongs=("7777m",), overrides=overrides).score()  # 对对胡 × 清一色 = 9; 2 花
    assert (result["value"], result["multiplier"], "la_zi" in result["patterns"]) == (value, multiplier, la_zi)


# --- chow restriction (seed line 18) ------------------------------------------------


@pytest.mark.parametrize(
    ("case", "win", "restricted"),
    [
        ("two chow suits with 1 花", Win("789s111z55m", melds=("123m", "456p")), True),
        ("two chow suits with 1 花 from a 明杠", Win("789s11z", melds=("123m", "456p", "5555s")), True),
        ("two chow suits at 2 花", Win("789s11z", melds=("123m", "456p"), kongs=("5555s",)), False),
        ("one chow suit with 0 花 (then too few 花 to win)", Win("789m111p22s", melds=("123m", "456m")), False),
        ("pungs are not restricted", Win("123m789s55m", melds=("222p", "333s")), False),
        # after a chow, no pung or kong of another suit either (大吊车 × 杠开 = 拉子, 1 花)
        ("a chow in m, then a pung in p and a kong in s", Win("99m", melds=("123m", "456m", "555p", "5555s"), how="after_kong"), True),
        ("a chow in m, then a kong in s", Win("99m", melds=("123m", "456m", "789m", "5555s"), how="after_kong"), True),
        ("a chow in m, then a pung in p, at 2 花", Win("456m99m", melds=("123m", "555p", "1111z")), False),
        ("a chow and a pung of one suit", Win("456m77m", melds=("123m", "999m", "111z")), False),
        # 混一色 (拉子) with 1 花 from 字碰: honours are not another suit unless the option says so
        ("a chow in m, then an honour pung", Win("789m55m", melds=("123m", "456m", "111z")), False),
        (
            "a chow in m, then an honour pung, honour_pung_is_another_suit",
            Win("789m55m", melds=("123m", "456m", "111z"), overrides=("options.honour_pung_is_another_suit=true",)),
            True,
        ),
        (
            "the rule is off at chow_free_min_flowers=0",
            Win("789s111z55m", melds=("123m", "456p"), overrides=("numbers.chow_free_min_flowers=0", "numbers.min_flowers.self_draw=1")),
            False,
        ),
    ],
)
def test_chow_restriction(case: str, win: Win, restricted: bool) -> None:
    try:
        win.score()
    except InputError as err:
        assert restricted, err
        assert err.code == "chow_restricted"
        assert "one suit" in err.message
    except NotAWin as err:
        assert not restricted
        assert err.code == "not_enough_flowers"
    else:
        assert not restricted


# --- payments ----------------------------------------------------------------------


@pytest.mark.parametrize("seat", SEATS)
def test_discard_win_the_discarder_alone_pays(seat: str) -> None:
    result = Win("123m456m789m234m55m", how="discard", discarder=seat).score()
    assert result["payments"] == {s: 3 if s == seat else 0 for s in SEATS}
    assert result["total"] == 3


@pytest.mark.parametrize("seat", SEATS)
def test_robbing_kong_the_robbed_player_pays(seat: str) -> None:
    result = Win("123m456p789s11z", kongs=("5555m",), how="robbing_kong", discarder=seat).score()
    assert result["payments"] == {s: 3 if s == seat else 0 for s in SEATS}


@pytest.mark.parametrize(
    ("win", "each"),
    [
        (Win("123m456p789s11z", kongs=("5555m",)), 1),
        (Win("123m456p789s11z", kongs=("5555m",), how="after_kong"), 2),
        (Win("111m333m555m777m99m"), 3),
    ],
)
def test_self_draw_each_of_three_pays(win: Win, each: int) -> None:
    result = win.score()
    assert result["payments"] == {s: each for s in SEATS}
    assert result["total"] == 3 * each


# 大吊车: "结算时与小胡结算有差异", the seed gives no amount: ×1 unless a table sets one
@pytest.mark.parametrize(
    ("win", "times", "value", "payments"),
    [
        (Win("55m", melds=("123m", "456p", "789s", "1111z")), 1, 2, {"next": 2, "opposite": 2, "previous": 2}),
        (Win("55m", melds=("123m", "456p", "789s", "1111z")), 3, 2, {"next": 6, "opposite": 6, "previous": 6}),
        (Win("55m", melds=("123m", "456p", "789s"), kongs=("1111z",), how="discard", discarder="opposite"), 1, 2, {"next": 0, "opposite": 2, "previous": 0}),
        (Win("55m", melds=("123m", "456p", "789s"), kongs=("1111z",), how="discard", discarder="opposite"), 2, 2, {"next": 0, "opposite": 4, "previous": 0}),
        (Win("123m456p789s11z", kongs=("5555m",)), 3, 1, {"next": 1, "opposite": 1, "previous": 1}),  # not 大吊车
    ],
)
def test_da_diao_che_payment_multiplier(win: Win, times: int, value: int, payments: dict[str, int]) -> None:
    result = Win(win.hand, win.melds, win.kongs, win.win, win.how, win.discarder, (f"options.da_diao_che_payment_multiplier={times}",)).score()
    assert result["value"] == value
    assert result["payments"] == payments
    shown = [i["value"] for i in result["items"] if i["key"] == "da_diao_che_payment"]
    assert shown == ([times] if times != 1 and "da_diao_che" in result["patterns"] else [])


# --- every Chizhou error from the CLI ---------------------------------------------------

CLI_ERRORS = [
    # (case, args, exit code, code, words the message must hold)
    ("honours in a chow", Win("123m456p789s55m", melds=("123z",)).args(), 2, "bad_meld", ["123z"]),
    ("discard win without --discarder", Win("123m456p789s55m", kongs=("1111z",), how="discard", discarder=None).args(), 2, "missing_discarder", ["--discarder"]),
    ("抢杠 without --discarder", Win("123m456p789s11z", kongs=("5555m",), how="robbing_kong", discarder=None).args(), 2, "missing_discarder", ["--robbing-kong"]),
    ("--discarder on a self-draw", Win("123m456p789s11z", kongs=("5555m",)).args() + ["--discarder", "next"], 2, "conflicting_flags", ["--self-draw"]),
    ("too few 花", Win("123m456p789s55m", melds=("1111z",), how="discard").args(), 1, "not_enough_flowers", ["needs 3", "has 2"]),
    ("chow restriction", Win("789s111z55m", melds=("123m", "456p")).args(), 2, "chow_restricted", ["1 花"]),
    ("a pung after a chow", Win("99m", melds=("123m", "456m", "555p", "5555s"), how="after_kong").args(), 2, "chow_restricted", ["1 花", "pung --meld 555p", "123m"]),
    ("no seven pairs", Win("11223344m5566p77s").args(), 1, "not_a_winning_hand", ["seven pairs"]),
    ("--after-kong without a kong", Win("123m456p789s111z55m", how="after_kong").args(), 2, "after_kong_without_kong", ["kong"]),
]


@pytest.mark.parametrize(("case", "args", "exit_code", "code", "words"), CLI_ERRORS, ids=[c[0] for c in CLI_ERRORS])
def test_cli_errors(runner: CliRunner, case: str, args: list[str], exit_code: int, code: str, words: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == exit_code, result.output
    body = json.loads(result.stdout)
    assert body["valid"] is False
    problem = body["reason" if exit_code == 1 else "error"]
    assert problem["code"] == code
    for word in words:
        assert word in problem["message"]
    assert f"[{code}]" in result.stderr


def test_cli_scores_a_win(runner: CliRunner) -> None:
    result = runner.invoke(app, Win("55m", melds=("1111z", "123m", "456m", "789m"), how="discard", discarder="opposite").args())
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert body["variant"] == "chizhou"
    assert body["value"] == 3
    assert body["flowers"] == 2
    assert body["payments"] == {"next": 0, "opposite": 3, "previous": 0}


def test_cli_table_renders(runner: CliRunner) -> None:
    args = [a for a in Win("123m456p789s11z", kongs=("5555m",)).args() if a != "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "池州麻将" in result.stdout
    assert "暗杠" in result.stdout


def test_chizhou_is_listed(runner: CliRunner) -> None:
    result = runner.invoke(app, ["variants", "--json"])
    assert "chizhou" in [row["name"] for row in json.loads(result.stdout)]


def test_ruleset_types_are_checked(runner: CliRunner) -> None:
    result = runner.invoke(app, Win("111m222p333s444m55p").args() + ["--set", "options.la_zi_needs_no_flowers=3"])
    assert result.exit_code == 2
    assert "la_zi_needs_no_flowers" in json.loads(result.stdout)["error"]["message"]


def test_the_kernels_flower_sources_follow_the_schemas_order() -> None:
    # numbers.flowers is declared once (ChizhouFlowers); the kernel indexes it by ZI_PENG... and build.py names them
    from mahjong_calc.rules.loader import load_ruleset
    from mahjong_calc.variants.chizhou import build
    from mahjong_calc.variants.chizhou import kernel as k

    assert build.FLOWER_KEYS == ("zi_peng", "zi_an_ke", "ming_gang", "an_gang", "zi_ming_gang", "zi_an_gang")
    assert [getattr(k, key.upper()) for key in build.FLOWER_KEYS] == list(range(len(build.FLOWER_KEYS)))
    rs = load_ruleset("chizhou", overrides=[f"numbers.flowers.{key}={10 + i}" for i, key in enumerate(build.FLOWER_KEYS)])
    assert rs.tables.flowers == tuple(10 + i for i in range(len(build.FLOWER_KEYS)))
