"""The one reader (core/hand.read_hand): plain mpsz in one pass, any other spelling by
tiles.parse_tiles; both give the same Hand, and every error comes from the careful reading.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_calc.core import sets
from mahjong_calc.core.errors import InputError
from mahjong_calc.core.hand import _last_tile, _plain_counts, _plain_meld, _read_spelled, parse_meld, read_hand
from mahjong_calc.core.tiles import MAX_INPUT, parse_tiles

PLAIN = r"(?:[1-9]+[mps]|[1-7]+z)+"  # the notation read in one pass


def _plain(text: str) -> bool:
    """Whether `text` is plain notation of at most four of each tile."""
    if len(text) > MAX_INPUT or re.fullmatch(PLAIN, text) is None:
        return False
    tiles = parse_tiles(text)
    return all(tiles.count(t) <= 4 for t in range(34))


@pytest.mark.parametrize("text", [
    "123456m13m99p555p2m", "7z8p6p3m7z9p7p9p3m6p9p9p3m7z", "1234567z", "1m", "", "m", "12", "0m", "8z", "9z1m", "11mm",
    "1m2", "１m", "1M", "123m ", " 123m", "1x", "12m3", "z1", "1p" * 101, "1p" * 100, "٣m", "1m\n", "11111m", "1111m1m",
    "1111m2222p3333s44z",
])
def test_the_one_pass_reads_exactly_the_plain_notation(text: str) -> None:
    counts = [0] * 34
    read = _plain_counts(text, counts)
    assert (read >= 0) == _plain(text), text
    if read >= 0:
        tiles = parse_tiles(text)
        assert counts == [tiles.count(t) for t in range(34)] and read == len(tiles) and _last_tile(text) == tiles[-1]


def test_the_one_pass_on_random_texts() -> None:
    rng = random.Random(7)
    for _ in range(20000):
        text = "".join(rng.choice("0123456789mpsz x") for _ in range(rng.randint(0, 12)))
        assert (_plain_counts(text, [0] * 34) >= 0) == _plain(text), text


@pytest.mark.parametrize(("text", "code"), [("555p", sets.pung(13)), ("5555p", sets.kong(13)), ("123m", sets.chow(0)),
                                            ("789s", sets.chow(24)), ("777z", sets.pung(33)), ("7777z", sets.kong(33)),
                                            ("5p5p5p", sets.pung(13)), ("1p2p3p", sets.chow(9)), ("321m", sets.chow(0)),
                                            ("123z", -1), ("890m", -1), ("556p", -1), ("5555", -1), ("88z", -1), ("789m1p", -1), ("55555p", -1)])
def test_a_plain_meld_is_read_in_one_pass(text: str, code: int) -> None:
    assert _plain_meld(text) == code
    if code >= 0:
        assert parse_meld(text).code == code


# a hand's text: tiles in any order and spelling, sometimes too many or too few, sometimes a stray character
_TILE = st.sampled_from([f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)] + ["东", "中", "一万", "九条", "x"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_TILE, min_size=0, max_size=16), st.sampled_from([(), ("555p",), ("123m", "7777z")]), st.sampled_from([None, "5p", "1m"]))
def test_the_one_pass_reads_as_the_careful_reading_does(tiles: list[str], melds: tuple[str, ...], win: str | None) -> None:
    """Whatever the text, the one pass gives the careful reading's Hand, or the careful reading's error."""
    text = "".join(tiles)
    try:
        want = _read_spelled(text, melds, (), win)
    except InputError as err:
        with pytest.raises(InputError) as got:
            read_hand(text, melds, (), win)
        assert (got.value.code, got.value.message, got.value.position) == (err.code, err.message, err.position)
        return
    assert read_hand(text, melds, (), win) == want
