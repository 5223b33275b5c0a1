"""Chizhou: one player owes 承包 (fed the winner) and 反包 (was fed by the winner) in one win.

By default (`cheng_bao_and_fan_bao: both`) they pay both, each its own liability line: their
own share once, plus what each rule adds. `larger` pays only the larger of the two amounts.
The example game examples/chizhou-cheng-bao-and-fan-bao.yaml works the seed's arithmetic.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_game_helpers import settle_hands
from typer.testing import CliRunner

from mahjong_calc.cli.app import app

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "chizhou-cheng-bao-and-fan-bao.yaml"


def _hands() -> list[dict[str, Any]]:
    """The example's hands, its players renamed A B C D (Ann Bo Cy Di)."""
    text = EXAMPLE.read_text(encoding="utf-8")
    for old, new in (("Ann", "A"), ("Bo", "B"), ("Cy", "C"), ("Di", "D")):
        text = text.replace(old, new)
    hands: list[dict[str, Any]] = yaml.safe_load(text)["hands"]
    return hands


def test_the_example_game() -> None:
    done = CliRunner().invoke(app, ["game", "settle", str(EXAMPLE), "--json"])
    assert done.exit_code == 0, done.output
    hands = json.loads(done.stdout)["hands"]
    assert [h["settlement"]["changes"] for h in hands] == [
        {"Ann": -6, "Bo": 9, "Cy": -3, "Di": 0},  # C discards: 承包 3 + 反包 1×3
        {"Ann": -12, "Bo": 12, "Cy": 0, "Di": 0},  # Ann discards: share 3 + 承包 6 (9) + 反包 3 (2×3)
        {"Ann": -15, "Bo": 21, "Cy": -3, "Di": -3},  # self-draw: share 3 + 承包 6 (9) + 反包 6 (3×3)
    ]
    lines = [[(x["payer"], x["code"], x["amount"]) for x in h["settlement"]["liability"]] for h in hands]
    assert lines == [
        [("Ann", "cheng_bao", 3), ("Ann", "fan_bao", 3)],
        [("Ann", "cheng_bao", 6), ("Ann", "fan_bao", 3)],
        [("Ann", "cheng_bao", 6), ("Ann", "fan_bao", 6)],
    ]


@pytest.mark.parametrize(
    ("settlement", "a_pays"),
    [
        ({"cheng_bao_and_fan_bao": "larger"}, [3, 9, 9]),  # the larger of 承包 and 反包
        ({"fan_bao_amounts": "extra"}, [6, 15, 18]),  # 反包 on top of the share, and 承包 besides (the reading before, too)
        ({"fan_bao_amounts": "extra", "cheng_bao_and_fan_bao": "larger"}, [3, 9, 12]),  # larger of 9 and 3 + 6, of 9 and 3 + 9
    ],
)
def test_the_options(settlement: dict[str, Any], a_pays: list[int]) -> None:
    report = settle_hands("chizhou", _hands(), dealer="B", settlement=settlement)
    assert [-h["settlement"]["changes"]["A"] for h in report["hands"]] == a_pays


def test_one_obligation_alone_is_unchanged_by_the_option() -> None:
    # 反包 alone (A fed nobody's melds to B): both readings pay the same
    hand = {"winner": "B", "discarder": "C", "hand": "789m99m", "melds": ["123m", "456m", "777m"], "exposed": {"A": ["123p@B", "456p@B", "789p@B"]}}
    both = settle_hands("chizhou", [hand], dealer="B")["hands"][0]["settlement"]["changes"]
    larger = settle_hands("chizhou", [hand], dealer="B", settlement={"cheng_bao_and_fan_bao": "larger"})["hands"][0]["settlement"]["changes"]
    assert both == larger == {"A": -3, "B": 6, "C": -3, "D": 0}


def test_the_section_table_pays_both_too() -> None:
    # A fed B 4 melds (承包) and B fed A 4 (反包 1*3); B 清一色 + 大吊车 (拉子, 3) self-draws
    hand = {"winner": "B", "self_draw": True, "hand": "99m", "melds": ["123m@A", "456m@A", "777m@A", "789m@A"],
            "exposed": {"A": ["123p@B", "456p@B", "789p@B", "111s@B"]}}
    both = settle_hands("chizhou", [hand], dealer="B", settlement={"cheng_bao_table": "cheng_bao_section"})["hands"][0]["settlement"]["changes"]
    assert both["A"] == -(3 + 24 + 6)  # share 3, 承包 3*3 units = 27 (+24), 反包 1*3 units = 9 (+6)
    larger = settle_hands("chizhou", [hand], dealer="B", settlement={"cheng_bao_table": "cheng_bao_section", "cheng_bao_and_fan_bao": "larger"})
    assert larger["hands"][0]["settlement"]["changes"]["A"] == -27
