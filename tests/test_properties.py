"""Properties over random hands: scoring never crashes, and tile order never matters."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mahjong_calc import MjcalcError, score_hand
from mahjong_calc.core.tiles import format_tiles, tile_str

WUHU_TILES = list(range(27)) + [33]


SEQUENCE_STARTS = [t for t in range(27) if t % 9 <= 6]


@st.composite
def complete_wuhu_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    """A pair plus four pungs/sequences from Wuhu's tiles, at most four copies each."""
    pair = draw(st.sampled_from(WUHU_TILES))
    tiles = [pair, pair]
    for _ in range(4):
        if draw(st.booleans()):
            t = draw(st.sampled_from(WUHU_TILES))
            tiles += [t, t, t]
        else:
            t = draw(st.sampled_from(SEQUENCE_STARTS))
            tiles += [t, t + 1, t + 2]
    assume(all(tiles.count(t) <= 4 for t in set(tiles)))
    order = draw(st.permutations(tiles))
    return list(order), draw(st.sampled_from(tiles))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(WUHU_TILES), min_size=14, max_size=14),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["wuhu315", "wuhu525"]),
)
def test_random_tiles_score_or_raise_a_typed_error(tiles: list[int], self_draw: bool, dealer: bool, variant: str) -> None:
    try:
        result = score_hand("".join(tile_str(t) for t in tiles), variant=variant, self_draw=self_draw, dealer=dealer)
    except MjcalcError as err:
        assert err.code
    else:
        assert result.value > 0


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(complete_wuhu_hands(), st.booleans(), st.sampled_from(["wuhu315", "wuhu525"]))
def test_complete_hands_win_unless_short_of_ba_zhi(hand: tuple[list[int], int], self_draw: bool, variant: str) -> None:
    tiles, win = hand
    text = "".join(tile_str(t) for t in tiles)
    try:
        result = score_hand(text, variant=variant, win=tile_str(win), self_draw=self_draw)
    except MjcalcError as err:
        assert err.code == "no_ba_zhi"
        return
    assert result.value > 0
    assert sum(result.payments.values()) == 3 * result.value
    # writing the tiles in another order never changes the result
    again = score_hand(format_tiles(tiles), variant=variant, win=tile_str(win), self_draw=self_draw)
    assert again.to_dict() == result.to_dict()
