"""Properties of settled games, over generated games of every variant.

Every hand's changes sum to zero: liability (包牌, 承包, 反包, 生张, 飘包) only moves money
between the players, and the last hand of a Wuhu game takes from the winner what the
losers could not pay (seed 000 §5 最后一局…赢的玩家少赢). No seed rule creates or destroys
money, so there is no exception.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_game_helpers import PLAYERS, settle_hands

# winning tiles per variant: (fields, how it may be won)
POOLS: dict[str, list[tuple[dict[str, Any], str]]] = {
    "wuhu315": [
        ({"hand": "123456m13m99p555p2m"}, "any"),
        ({"hand": "456m99m", "melds": ["111m", "222m", "333m"]}, "any"),
        ({"hand": "123m99m", "melds": ["1111p", "9999p", "555m"]}, "any"),
        ({"hand": "678m99m345m", "win": "3m", "melds": ["333m", "444m"]}, "any"),
        ({"hand": "99m", "melds": ["111m", "222m", "333m", "555m"]}, "any"),
        ({"hand": "555m99m", "melds": ["111m", "777z", "333m"]}, "any"),
    ],
    "chizhou": [
        ({"hand": "789m99m", "melds": ["123m", "456m", "777m"]}, "any"),
        ({"hand": "111s222s333m444m55p"}, "any"),
        ({"hand": "123m456p789s55m", "concealed_kongs": ["1111z"]}, "any"),
    ],
    "pujiang": [
        ({"hand": "111m222p333s456s77z"}, "self"),
        ({"hand": "111m222p333s444s3m7z", "wild": "3m"}, "self"),
        ({"hand": "111m222p333s3m7z", "melds": ["4444s"], "wild": "3m", "piao": 2}, "self"),
        ({"hand": "111m222p456s77z7s8s9s", "robbing_kong": True}, "discard"),
    ],
}
OTHERS_MELDS = ["123p", "456p", "789p", "111m", "777z", "555s"]


@st.composite
def hands(draw: st.DrawFn, variant: str) -> dict[str, Any]:
    if draw(st.integers(0, 9)) == 0:
        return {"draw": True}
    fields, how = draw(st.sampled_from(POOLS[variant]))
    winner = draw(st.sampled_from(PLAYERS))
    others = [p for p in PLAYERS if p != winner]
    hand: dict[str, Any] = {"winner": winner, **fields}
    if "melds" in fields:
        hand["melds"] = [m + (f"@{s}" if (s := draw(st.sampled_from([None, *others]))) else "") for m in fields["melds"]]
    self_draw = how == "self" or (how == "any" and draw(st.booleans()))
    if self_draw:
        hand["self_draw"] = True
    else:
        hand["discarder"] = draw(st.sampled_from(others))
    if draw(st.booleans()):
        owner = draw(st.sampled_from(others))
        feeders = [p for p in PLAYERS if p != owner]
        n = draw(st.integers(1, 4))
        hand["exposed"] = {owner: [f"{m}@{draw(st.sampled_from(feeders))}" for m in OTHERS_MELDS[:n]]}
    if variant == "pujiang" and draw(st.booleans()):
        hand["piao_by"] = draw(st.sampled_from(PLAYERS))
        hand["piao_count"] = draw(st.integers(0, 3))
        hand["sheng_zhang"] = draw(st.sampled_from(others))
    return hand


@st.composite
def games(draw: st.DrawFn) -> tuple[str, list[dict[str, Any]], int | None]:
    variant = draw(st.sampled_from(sorted(POOLS)))
    chips = draw(st.sampled_from([None, 20, 60])) if variant.startswith("wuhu") else None
    return variant, draw(st.lists(hands(variant), min_size=1, max_size=12)), chips


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_every_hand_sums_to_zero_and_transfers_settle_the_totals(game: tuple[str, list[dict[str, Any]], int | None]) -> None:
    variant, hand_list, chips = game
    header = {"chips": chips} if chips else {}
    report = settle_hands(variant, hand_list, **header)
    totals = dict.fromkeys(PLAYERS, 0)
    for row in report["hands"]:
        changes = row["settlement"]["changes"]
        assert sum(changes.values()) == 0, row
        for p in PLAYERS:
            totals[p] += changes[p]
        if "error" in row:
            assert all(v == 0 for v in changes.values())
    assert report["totals"] == totals
    balance = dict(totals)
    for t in report["transfers"]:
        assert t["amount"] > 0
        balance[t["from"]] += t["amount"]
        balance[t["to"]] -= t["amount"]
    assert all(v == 0 for v in balance.values())
    assert len(report["transfers"]) <= max(0, sum(1 for v in totals.values() if v) - 1)
    if report["chips"] is not None:
        assert sum(report["chips"].values()) == 4 * (chips or 30)
        assert min(report["chips"].values()) >= 0
        if report["ended_at"] is not None:
            after = report["hands"][report["ended_at"]:]
            assert all(h["error"]["code"] == "game_over" for h in after)
