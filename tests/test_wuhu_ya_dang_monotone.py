"""压档 never lowers a Wuhu hand.

A 压档 hand and its twin hold the same 14 tiles and melds; the twin wins on another
tile of the same hand and is not 压档. Over generated real hands (a pair plus four
sets, some declared, with random flags, variant and options), the 压档 one never
scores less.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

from mahjong_calc import MjcalcError, score_hand
from mahjong_calc.core.result import ScoreResult
from mahjong_calc.core.tiles import format_tiles, parse_tiles, tile_str

pytestmark = pytest.mark.slow  # long: `pytest -m "not slow"` leaves it out (README)

RED = 33  # 红中, Wuhu's only honour
TOGGLES = (  # options that change how 压档 or 交 are scored, flipped from the shipped value
    "options.ya_dang_edge_wait=true",
    "options.ya_dang_single_wait=false",
    "options.gang_hou_ya_dang_jiao=false",
    "options.jiao_count_each_source=true",
    "options.hun_yi_se_self_draw_jiao=true",
    "options.jiao_self_draw_after_kong=true",
    "options.tong_tian_overlapping=true",
)


@st.composite
def ya_dang_pairs(draw: st.DrawFn) -> dict[str, Any]:
    """A complete Wuhu hand with a concealed sequence whose middle tile can be the winning tile."""
    suit = draw(st.integers(0, 2))  # most tiles in one suit, so that 八支 is often reached
    in_suit = st.integers(suit * 9, suit * 9 + 8)
    if draw(st.booleans()):  # one suit (清一色, or 混一色 with 红中): the 交 hands
        any_tile = st.one_of(in_suit, in_suit, in_suit, st.just(RED))
        other_chows = st.integers(suit * 9, suit * 9 + 6)
    else:
        any_tile = st.one_of(in_suit, in_suit, st.integers(0, 26), st.just(RED))
        other_chows = st.one_of(st.integers(suit * 9, suit * 9 + 6), st.integers(0, 26).filter(lambda t: t % 9 <= 6))
    start = draw(st.integers(suit * 9, suit * 9 + 6))
    chow = [start, start + 1, start + 2]  # the sequence the 压档 tile fills
    pair = draw(any_tile)
    concealed = chow + [pair, pair]
    melds: list[str] = []
    kongs: list[str] = []
    for _ in range(3):
        kind = draw(st.sampled_from(["chow", "pung", "kong"]))
        if kind == "chow":
            base = draw(other_chows)
            concealed += [base, base + 1, base + 2]
            continue
        tile = draw(any_tile)
        where = draw(st.sampled_from(["hand", "meld", "concealed_kong"] if kind == "kong" else ["hand", "meld"]))
        if kind == "pung" and where == "hand":
            concealed += [tile] * 3
        elif kind == "pung":
            melds.append(format_tiles([tile] * 3))
        elif where == "concealed_kong":
            kongs.append(format_tiles([tile] * 4))
        else:
            melds.append(format_tiles([tile] * 4))
    declared = [t for text in melds + kongs for t in parse_tiles(text)]
    everything = concealed + declared
    assume(all(everything.count(t) <= 4 for t in set(everything)))
    has_kong = any(len(text) == 5 for text in melds) or bool(kongs)
    ways = ["after_kong", "after_kong", "discard", "self_draw", "heavenly"] if has_kong else ["discard", "self_draw", "heavenly"]
    how = draw(st.sampled_from(ways))
    return {
        "concealed": concealed,
        "middle": start + 1,
        "melds": melds,
        "concealed_kongs": kongs,
        "flags": {how: True} if how != "discard" else {},
        "dealer": draw(st.booleans()),
        "variant": draw(st.sampled_from(["wuhu315", "wuhu525"])),
        "overrides": tuple(sorted(draw(st.lists(st.sampled_from(TOGGLES), unique=True, max_size=3)))),
    }


def _score(case: dict[str, Any], win: int) -> ScoreResult | None:
    try:
        return score_hand(
            format_tiles(case["concealed"]),
            win=tile_str(win),
            melds=case["melds"],
            concealed_kongs=case["concealed_kongs"],
            dealer=case["dealer"],
            variant=case["variant"],
            overrides=case["overrides"],
            **case["flags"],
        )
    except MjcalcError:  # too many copies, no 八支, ...: no such hand
        return None


def _compare(case: dict[str, Any]) -> int:
    """Assert the property for one hand; return how many twins it was checked against."""
    ya = _score(case, case["middle"])
    if ya is None or not ya.to_dict()["ya_dang"]:
        return 0
    checked = 0
    for win in sorted(set(case["concealed"]) - {case["middle"]}):
        twin = _score(case, win)
        if twin is None or twin.to_dict()["ya_dang"]:
            continue
        note(f"{format_tiles(case['concealed'])} {case}: 压档 on {tile_str(case['middle'])} = {ya.value}, on {tile_str(win)} = {twin.value}")
        assert ya.value >= twin.value
        checked += 1
    return checked


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(ya_dang_pairs())
def test_ya_dang_never_scores_less_than_its_twin(case: dict[str, Any]) -> None:
    _compare(case)


def test_the_generator_makes_real_pairs() -> None:
    """The property is empty if the strategy never makes a 压档 hand with a twin."""
    checked: list[int] = []
    run = settings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))(
        given(ya_dang_pairs())(lambda case: checked.append(_compare(case)))
    )
    run()
    assert sum(1 for n in checked if n) >= 20


def test_the_issue_example() -> None:
    # 清一色 with 杠后开花: on the 压档 tile 2m, and on 3m (not 压档)
    ya = score_hand("13m345m678m55m2m", melds=["9999m"], after_kong=True)
    twin = score_hand("12m345m678m55m3m", melds=["9999m"], after_kong=True)
    assert ya.to_dict()["ya_dang"] == 2 and twin.to_dict()["ya_dang"] == 0
    assert ya.value >= twin.value
