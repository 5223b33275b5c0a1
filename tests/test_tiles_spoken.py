"""Tiles as players write and say them: full-width digits and letters, Chinese punctuation and the
ideographic space between words, and the tiles' own names (幺鸡, 两万, 白板, 发财, 红中, 东风); each
reads as its mpsz notation does, and scores alike. A character that is not read is named, with
where it is and what it may be."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from mahjong_calc import score_hand
from mahjong_calc.cli.app import app
from mahjong_calc.core.errors import InputError
from mahjong_calc.core.tiles import format_tiles, parse_tiles


@pytest.mark.parametrize(("text", "mpsz"), [
    ("１２３万", "123m"),
    ("１２３ｍ４５６ｐ７８９ｓ１１ｚ", "123m456p789s11z"),
    ("123万，456万、789万；11p。55z", "123456789m11p55z"),
    ("123m\u3000456m", "123456m"),
    ("幺鸡", "1s"),
    ("幺鸡幺鸡幺鸡", "111s"),
    ("幺万 幺筒", "1m1p"),
    ("两万二万", "22m"),
    ("两筒两条", "2p2s"),
    ("白板白", "55z"),
    ("发财发發財", "666z"),
    ("红中中紅中", "777z"),
    ("东风东東風南风南西风西北风北", "111223344z"),
    ("一万，二万，三万", "123m"),
    ("東風 發財 紅中 白板 兩萬", "2m1567z"),
])
def test_spoken_and_full_width_tiles_read_as_mpsz(text: str, mpsz: str) -> None:
    assert format_tiles(parse_tiles(text)) == format_tiles(parse_tiles(mpsz))


@pytest.mark.parametrize(("text", "char", "column", "like"), [
    ("12鸡3m", "鸡", 3, "幺鸡 (1s)"),
    ("123m风", "风", 5, "东风 南风 西风 北风"),
    ("板", "板", 1, "白板 (5z)"),
    ("财", "财", 1, "发财 (6z)"),
    ("壹万", "壹", 1, "一"),
    ("１２３万　肆万", "肆", 6, "四"),
    ("十万", "十", 1, "1-9"),
])
def test_a_character_not_read_is_named_with_its_column_and_what_it_may_be(text: str, char: str, column: int, like: str) -> None:
    with pytest.raises(InputError) as info:
        parse_tiles(text)
    assert (info.value.code, info.value.position + 1 if info.value.position is not None else None) == ("unknown_character", column)
    assert repr(char) in info.value.message and like in info.value.message


@pytest.mark.parametrize(("text", "code", "position"), [
    ("１２３", "missing_suit", 0),  # full-width digits without a suit are still digits without a suit
    ("１２，３ｍ", "missing_suit", 0),  # a Chinese comma parts words as a space does
    ("０万", "invalid_tile", 0),
    ("８ｚ", "invalid_tile", 0),
    ("红", "unknown_character", 0),
    ("1幺鸡", "missing_suit", 0),
])
def test_the_parser_stays_strict(text: str, code: str, position: int) -> None:
    with pytest.raises(InputError) as info:
        parse_tiles(text)
    assert (info.value.code, info.value.position) == (code, position)


FULL = {str(d): chr(0xFF10 + d) for d in range(10)} | {c: chr(ord(c) + 0xFEE0) for c in "mpsz"}
NUMBERS = "一二三四五六七八九"
HONOURS = [["东", "东风", "東風"], ["南", "南风"], ["西", "西风"], ["北", "北风"], ["白", "白板"], ["发", "发财", "發財"], ["中", "红中", "紅中"]]


@st.composite
def spelling(draw: st.DrawFn, tile: int) -> str:
    """One tile in any of the ways players write it."""
    suit, number = "mpsz"[tile // 9], tile % 9 + 1
    ways = [f"{number}{suit}", f"{FULL[str(number)]}{FULL[suit]}"]
    if suit == "z":
        ways += HONOURS[number - 1]
    else:
        zh_suit = draw(st.sampled_from({"m": ["万", "萬"], "p": ["筒", "饼"], "s": ["条", "索"]}[suit]))
        ways += [f"{NUMBERS[number - 1]}{zh_suit}", f"{FULL[str(number)]}{zh_suit}"]
        if number == 2:
            ways.append(f"两{zh_suit}")
        if number == 1:
            ways.append(f"幺{zh_suit}")
        if tile == 18:
            ways.append("幺鸡")
    return draw(st.sampled_from(ways))


@st.composite
def written(draw: st.DrawFn) -> tuple[list[int], str]:
    tiles = draw(st.lists(st.integers(0, 33), min_size=1, max_size=14))
    words = [draw(spelling(t)) for t in tiles]
    seps = [draw(st.sampled_from(["", " ", "，", "、", "\u3000", "；"])) for _ in words[1:]]
    return tiles, words[0] + "".join(s + w for s, w in zip(seps, words[1:], strict=True))


@given(written())
def test_any_spelling_reads_as_its_tiles(case: tuple[list[int], str]) -> None:
    tiles, text = case
    assert parse_tiles(text) == tiles


@pytest.mark.parametrize(("spoken", "mpsz", "flags"), [
    ("一万三万四五六万六七八万幺筒幺筒五五五筒两万", "13m456m678m11p555p2m", {"self_draw": True}),
    ("１３４５６６７８万１１５５５ｐ２ｍ", "13m456m678m11p555p2m", {"self_draw": True}),
    ("一二三万，四五六万，七八九万，白板白板，东风东风东风", "123456789m55111z", {"variant": "chizhou", "self_draw": True}),
    ("幺鸡幺鸡幺鸡 两条两条两条 三条三条三条 九万九万九万 红中红中", "111222333s999m77z", {"variant": "pujiang", "self_draw": True}),
])
def test_spoken_hands_score_as_their_mpsz(spoken: str, mpsz: str, flags: dict[str, object]) -> None:
    said, plain = score_hand(spoken, **flags).to_dict(), score_hand(mpsz, **flags).to_dict()  # type: ignore[arg-type]
    assert said == plain and said["valid"]


def test_the_json_error_carries_the_column_stderr_names() -> None:
    done = CliRunner().invoke(app, ["score", "12鸡3m", "--json"])
    assert done.exit_code == 2
    error = json.loads(done.stdout)["error"]
    assert (error["code"], error["position"], error["column"]) == ("unknown_character", 2, 3)
    assert "at column 3: 12[鸡]3m" in done.stderr and "幺鸡 (1s)" in done.stderr


def test_a_meld_in_chinese_tiles_with_its_source() -> None:
    said = score_hand("一万二万三万456万789万1筒1p", melds=["五五五筒@对家"])
    plain = score_hand("123m456m789m1p1p", melds=["555p@opposite"])
    assert said.to_dict() == plain.to_dict()
