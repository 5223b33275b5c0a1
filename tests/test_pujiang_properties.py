"""Pujiang properties: random legal hands with 0-3 wilds never crash, and tile order never matters."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mahjong_calc import score_hand
from mahjong_calc.core.errors import MjcalcError
from mahjong_calc.core.tiles import WHITE, tile_str

pytestmark = pytest.mark.slow  # long: `pytest -m "not slow"` leaves it out (README)

TILES = list(range(34))


@st.composite
def near_wins(draw: st.DrawFn) -> tuple[list[int], int | None]:
    """A pair plus four sets, then up to three tiles turned into copies of the 财神 (and some 白板)."""
    tiles: list[int] = []
    first, *bases = draw(st.lists(st.sampled_from(TILES), min_size=5, max_size=5, unique=True))
    tiles += [first, first]
    for t in bases:
        if t < 27 and t % 9 <= 6 and draw(st.booleans()):
            tiles += [t, t + 1, t + 2]
        else:
            tiles += [t] * 3
    wild = draw(st.one_of(st.none(), st.sampled_from(TILES)))
    if wild is not None:
        swaps = draw(st.integers(0, 3))
        for index in draw(st.lists(st.integers(0, 13), min_size=swaps, max_size=swaps, unique=True)):
            tiles[index] = wild
        if draw(st.booleans()):
            tiles[draw(st.integers(0, 13))] = WHITE
    return tiles, wild


@st.composite
def random_hands(draw: st.DrawFn) -> tuple[list[int], int | None]:
    """Any 14 tiles with at most four of each, and any 财神."""
    return draw(st.lists(st.sampled_from(TILES), min_size=14, max_size=14)), draw(st.one_of(st.none(), st.sampled_from(TILES)))


def _legal(tiles: list[int], wild: int | None) -> bool:
    ok = all(tiles.count(t) <= 4 for t in set(tiles))
    return ok and (wild is None or tiles.count(wild) <= 3)


FLAGS = st.fixed_dictionaries(
    {
        "piao": st.integers(0, 2),
        "robbing": st.booleans(),
        "opponent_pungs": st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4)),
    }
)


def _score(tiles: list[int], wild: int | None, win: int, flags: dict[str, Any]) -> dict[str, Any] | str:
    text = "".join(tile_str(t) for t in tiles)
    try:
        result = score_hand(
            text,
            variant="pujiang",
            wild=tile_str(wild) if wild is not None else None,
            win=tile_str(win),
            piao=flags["piao"],
            robbing_kong=flags["robbing"],
            discarder="opposite" if flags["robbing"] else None,
            opponent_pungs=",".join(map(str, flags["opponent_pungs"])),
        )
    except MjcalcError as err:  # a typed refusal is fine; anything else fails the test
        return err.code
    return result.to_dict()


@settings(max_examples=300, deadline=None)
@given(st.one_of(near_wins(), random_hands()), FLAGS, st.data())
def test_random_hands_never_crash(hand: tuple[list[int], int | None], flags: dict[str, Any], data: st.DataObject) -> None:
    tiles, wild = hand
    assume(_legal(tiles, wild))
    win = data.draw(st.sampled_from(tiles))
    out = _score(tiles, wild, win, flags)
    if isinstance(out, dict):
        assert out["value"] >= 0
        assert len(out["wilds"]) == (tiles.count(wild) if wild is not None else 0) + (
            tiles.count(WHITE) if wild is not None and wild != WHITE else 0
        )


@settings(max_examples=200, deadline=None)
@given(near_wins(), FLAGS, st.data())
def test_tile_order_never_changes_the_result(hand: tuple[list[int], int | None], flags: dict[str, Any], data: st.DataObject) -> None:
    tiles, wild = hand
    assume(_legal(tiles, wild))
    win = data.draw(st.sampled_from(tiles))
    shuffled = data.draw(st.permutations(tiles))
    assert _score(list(shuffled), wild, win, flags) == _score(tiles, wild, win, flags)
