"""Chizhou's 承包 section (seed 001 L99-117), row by row: each row built from tiles and players,
with the amounts docs/rules/chizhou.md gives for it under both readings of its figures.

A fed B 4 melds (A独供B 4口). B's win on four fed melds is always 大吊车 (×2), which L85 calls a
small hand (大吊车属小胡，但结算时与小胡结算有差异).

- `cheng_bao_table: cheng_bao_section` (as written, the section's own reading): A pays the
  figure in 底 ("按1番"; 按3番 when B is at 拉子), and the others pay what they pay anyway: the
  "其余两家赔付2" of L103 is a 大吊车's own 2 番 × 底 1.
- `cheng_bao_table: cheng_bao_section_scaled`: every figure is a unit of the winner's value, so
  a bare 大吊车 doubles them (A 18, the others 4) and 拉子 triples them.

The 反包 rows are about A's own hand and pay the same under both.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_game_helpers import settle_hands

AS_WRITTEN = {"cheng_bao_table": "cheng_bao_section"}
SCALED = {"cheng_bao_table": "cheng_bao_section_scaled"}

# B wins on four melds A fed
DA_DIAO_CHE_2HUA = {"hand": "99s", "melds": ["111z@A", "2222p@A", "345m@A", "678s@A"]}  # 字碰 + 明杠: 2 花, self-draw
DA_DIAO_CHE_3HUA = {"hand": "99s", "melds": ["1111z@A", "2222p@A", "345m@A", "678s@A"]}  # 字明杠 + 明杠: 3 花, 冲
LA_ZI_B = {"hand": "99m", "melds": ["123m@A", "456m@A", "777m@A", "789m@A"]}  # 清一色 + 大吊车: 拉子
# A wins, having fed B four melds
B_FED = {"exposed": {"B": ["789s@A", "555p@A", "678p@A", "111s@A"]}}
XIAO_A = {"hand": "123m456p789s55m", "concealed_kongs": ["1111z"]}  # 小牌: 3 花 from a concealed 东 kong, unit 1

# (row, hand, winner's value, changes A B C D as written, changes scaled)
ROWS: list[tuple[str, dict[str, Any], int, dict[str, int], dict[str, int]]] = [
    # 1. L103 "A独供B 4口，B自摸胡，A赔付给B 3*3 其余两家赔付2": A 9 底, C and D their own 2 (大吊车)
    ("1 B self-draws, 大吊车", {"winner": "B", **DA_DIAO_CHE_2HUA, "self_draw": True}, 2,
     {"A": -9, "B": 13, "C": -2, "D": -2}, {"A": -18, "B": 26, "C": -4, "D": -4}),
    # at 拉子 (按3番) A pays 3 × 9, the others still their own 3
    ("1 B self-draws, 拉子", {"winner": "B", **LA_ZI_B, "self_draw": True}, 3,
     {"A": -27, "B": 33, "C": -3, "D": -3}, {"A": -27, "B": 39, "C": -6, "D": -6}),
    # 2. L105 "A独供B 4口，A放冲给B ，A赔付给B 3*3 其余两家不用付": A 9 底
    ("2 A discards, 大吊车", {"winner": "B", **DA_DIAO_CHE_3HUA, "discarder": "A"}, 2,
     {"A": -9, "B": 9, "C": 0, "D": 0}, {"A": -18, "B": 18, "C": 0, "D": 0}),
    ("2 A discards, 拉子", {"winner": "B", **LA_ZI_B, "discarder": "A"}, 3,
     {"A": -27, "B": 27, "C": 0, "D": 0}, {"A": -27, "B": 27, "C": 0, "D": 0}),
    # 3. L107 "A独供B 4口，非A放冲， A赔付1*3 放冲玩家赔付2": A 3 底, the discarder its own 2
    ("3 C discards, 大吊车", {"winner": "B", **DA_DIAO_CHE_3HUA, "discarder": "C"}, 2,
     {"A": -3, "B": 5, "C": -2, "D": 0}, {"A": -6, "B": 10, "C": -4, "D": 0}),
    ("3 C discards, 拉子", {"winner": "B", **LA_ZI_B, "discarder": "C"}, 3,
     {"A": -9, "B": 12, "C": -3, "D": 0}, {"A": -9, "B": 15, "C": -6, "D": 0}),
    # 4. L111 "反包：A独供B 4口，A不管怎样胡，B都要赔付给A 1*3 其余两家按规则正常赔付" (A 小牌, 按1番)
    ("4 A self-draws, 小牌", {"winner": "A", "hand": "111z222z123m456m99p", "self_draw": True, **B_FED}, 1,
     {"A": 5, "B": -3, "C": -1, "D": -1}, {"A": 5, "B": -3, "C": -1, "D": -1}),
    ("4 B discards, 小牌", {"winner": "A", **XIAO_A, "discarder": "B", **B_FED}, 1,
     {"A": 3, "B": -3, "C": 0, "D": 0}, {"A": 3, "B": -3, "C": 0, "D": 0}),
    ("4 C discards, 小牌", {"winner": "A", **XIAO_A, "discarder": "C", **B_FED}, 1,
     {"A": 4, "B": -3, "C": -1, "D": 0}, {"A": 4, "B": -3, "C": -1, "D": 0}),
    # 5. L113-115 "2、供口方为特殊牌型时(按2番)…杠开胡或是大吊车牌形胡牌，B要赔付给A 2*3 其余两家按规则赔付"
    ("5 A 大吊车 self-draw", {"winner": "A", "hand": "99s", "melds": ["111z@C", "2222p@C", "345m@D", "678s@D"], "self_draw": True,
                             "exposed": {"B": ["789m@A", "555p@A", "678p@A", "111s@A"]}}, 2,
     {"A": 10, "B": -6, "C": -2, "D": -2}, {"A": 10, "B": -6, "C": -2, "D": -2}),
    ("5 A 杠开", {"winner": "A", "hand": "123m456p789s55m", "concealed_kongs": ["2222p"], "after_kong": True, **B_FED}, 2,
     {"A": 10, "B": -6, "C": -2, "D": -2}, {"A": 10, "B": -6, "C": -2, "D": -2}),
    # 6. L117 "3、承包与被承包方都为拉子牌形时（按3番）": the same 反包 row at 3 units
    ("6 A 拉子 self-draw", {"winner": "A", "hand": "111s222s333m444m55p", "self_draw": True,
                           "exposed": {"B": ["123p@A", "456p@A", "789p@A", "777p@A"]}}, 3,
     {"A": 15, "B": -9, "C": -3, "D": -3}, {"A": 15, "B": -9, "C": -3, "D": -3}),
]


@pytest.mark.parametrize(("reading", "column"), [(AS_WRITTEN, 3), (SCALED, 4)], ids=["as written", "scaled"])
@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_section_row(row: tuple[Any, ...], reading: dict[str, str], column: int) -> None:
    hand, unit, expected = row[1], row[2], row[column]
    got = settle_hands("chizhou", [hand], settlement=reading)["hands"][0]
    assert "error" not in got, got.get("error")
    assert got["result"]["value"] == unit
    assert got["settlement"]["changes"] == expected
    codes = {line["code"] for line in got["settlement"]["liability"]}
    assert codes == ({"cheng_bao"} if hand["winner"] == "B" else {"fan_bao"})


def test_as_written_never_raises_a_bystanders_payment() -> None:
    # the seed's "其余两家赔付2" and "放冲玩家赔付2" are what those players pay for B's 大吊车 anyway
    plain = {"cheng_bao": False, "fan_bao": False}
    for _, hand, _, as_written, scaled in ROWS:
        if hand["winner"] == "B":
            normal = settle_hands("chizhou", [hand], settlement=plain)["hands"][0]["settlement"]["changes"]
            assert [as_written[p] for p in "CD"] == [normal[p] for p in "CD"], hand
            assert scaled["C"] <= normal["C"] and scaled["D"] <= normal["D"]


def test_a_win_on_four_fed_melds_is_always_da_diao_che() -> None:
    # why the scaled reading doubles the 承包 rows: no such win is worth less than 2 units
    for _, hand, unit, _, _ in ROWS:
        if hand["winner"] == "B":
            report = settle_hands("chizhou", [hand], settlement=SCALED)["hands"][0]
            assert "da_diao_che" in report["result"]["patterns"] and unit >= 2


def test_the_default_is_the_cases() -> None:
    # 大吊车 on four fed melds, not 拉子: §19's 承包 asks 拉子, so everyone pays their own share
    hand = ROWS[0][1]
    got = settle_hands("chizhou", [hand])["hands"][0]["settlement"]
    assert got["changes"] == {"A": -2, "B": 6, "C": -2, "D": -2} and got["liability"] == []
