"""Plain mpsz notation takes a one-pass parser; it must agree with the careful one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mahjong_calc.core.tiles import format_tiles, parse_tiles

runs = st.lists(
    st.one_of(
        st.tuples(st.text("123456789", min_size=1, max_size=5), st.sampled_from("mps")),
        st.tuples(st.text("1234567", min_size=1, max_size=5), st.just("z")),
    ),
    min_size=1,
    max_size=8,
)


@given(runs)
def test_plain_notation_parses_as_the_careful_parser_does(parts: list[tuple[str, str]]) -> None:
    text = "".join(digits + suit for digits, suit in parts)
    expected = [("mpsz".index(suit)) * 9 + int(d) - 1 for digits, suit in parts for d in digits]
    assert parse_tiles(text) == expected
    assert parse_tiles(" " + text) == expected  # a space forces the careful path


def test_format_tiles_groups_by_suit() -> None:
    assert format_tiles([33, 0, 9, 1, 33, 26]) == "12m1p9s77z"
    assert format_tiles([]) == ""
