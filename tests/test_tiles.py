"""Notation: strict parsing, errors that point at the problem, formatting round-trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mahjong_calc.core.errors import InputError
from mahjong_calc.core.tiles import format_tiles, parse_tiles, tile_name


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123m", "123m"),
        ("1m2m3m", "123m"),
        ("77z", "77z"),
        ("C中红中", "777z"),
        ("ESWNPFC", "1234567z"),
        ("东南西北白发中", "1234567z"),
        ("9s 1p 5m", "5m1p9s"),
        ("11m 22p\t33s", "11m22p33s"),
    ],
)
def test_parse_and_normalise(text: str, expected: str) -> None:
    assert format_tiles(parse_tiles(text)) == expected


@pytest.mark.parametrize(
    ("text", "code", "position"),
    [
        ("12x3m", "unknown_character", 2),
        ("123", "missing_suit", 0),
        ("123m45", "missing_suit", 4),
        ("102m", "invalid_tile", 1),
        ("8z", "invalid_tile", 0),
        ("m", "missing_number", 0),
        ("12E", "missing_suit", 0),
        ("红1m", "unknown_character", 0),
        ("1m" * 101, "input_too_long", 200),
    ],
)
def test_parse_errors_point_at_the_problem(text: str, code: str, position: int) -> None:
    with pytest.raises(InputError) as info:
        parse_tiles(text)
    assert info.value.code == code
    assert info.value.position == position


@pytest.mark.parametrize(
    ("tile_text", "zh", "en"),
    [("5p", "五筒", "5-Dot"), ("7z", "红中", "Red Dragon"), ("1s", "一条", "1-Bamboo"), ("9m", "九万", "9-Character")],
)
def test_tile_names(tile_text: str, zh: str, en: str) -> None:
    (tile,) = parse_tiles(tile_text)
    assert tile_name(tile, "zh") == zh
    assert tile_name(tile, "en") == en


@given(st.lists(st.integers(min_value=0, max_value=33), min_size=1, max_size=40))
def test_format_round_trips_through_parse(tiles: list[int]) -> None:
    text = format_tiles(tiles)
    assert parse_tiles(text) == sorted(tiles)
    assert format_tiles(parse_tiles(text)) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("13万456万", "13456m"),
        ("一万二万三万", "123m"),
        ("五条", "5s"),
        ("九筒", "9p"),
        ("三饼", "3p"),
        ("七索", "7s"),
        ("一二三万", "123m"),
        ("123m四五六万白", "123456m5z"),
        ("九萬 1条 2條 3餅", "9m3p12s"),
        ("13万 99p 红中", "13m99p7z"),
    ],
)
def test_chinese_numbers_and_suits(text: str, expected: str) -> None:
    assert format_tiles(parse_tiles(text)) == expected


@pytest.mark.parametrize(
    ("text", "code", "position", "words"),
    [
        ("13M", "unknown_character", 2, ["lower case", "13m"]),
        ("13P", "missing_suit", 2, ["13p", "白"]),
        ("12S", "missing_suit", 2, ["12s", "南"]),
        ("ZZ", "unknown_character", 0, ["lower case"]),
        ("一二三", "missing_suit", 0, ["万"]),
        ("万", "missing_number", 0, ["万"]),
        ("十万", "unknown_character", 0, ["十"]),
        ("9万8z", "invalid_tile", 2, ["8z"]),
    ],
)
def test_upper_case_and_chinese_errors_point_at_the_character(text: str, code: str, position: int, words: list[str]) -> None:
    with pytest.raises(InputError) as info:
        parse_tiles(text)
    assert (info.value.code, info.value.position) == (code, position)
    for word in words:
        assert word in info.value.message


@given(st.lists(st.integers(0, 26), min_size=1, max_size=14))
def test_chinese_notation_reads_as_mpsz(tiles: list[int]) -> None:
    zh = "".join("一二三四五六七八九"[t % 9] + "万筒条"[t // 9] for t in tiles)
    assert parse_tiles(zh) == tiles


@pytest.mark.parametrize(
    ("text", "position", "hint"),
    [
        ("13m 456 678m11p555p2m", 4, "the word 456 has no suit: write 456m, or join the words"),
        ("13m45 6m78m11p555p2m", 3, "the word 13m45 ends in digits with no suit: write 45m, or join the words"),
        ("一二三万 四五 六万", 5, "the word 四五 has no suit: write 四五万, or join the words"),
    ],
)
def test_a_word_of_digits_never_takes_the_next_words_suit(text: str, position: int, hint: str) -> None:
    with pytest.raises(InputError) as err:
        parse_tiles(text)
    assert (err.value.code, err.value.position, err.value.message) == ("missing_suit", position, hint)


def test_one_word_and_words_that_each_end_in_a_suit_read_as_before() -> None:
    assert parse_tiles("13m456678m11p555p2m") == parse_tiles("13m 456m 678m11p555p2m") == parse_tiles("13m456m678m11p555p2m")
