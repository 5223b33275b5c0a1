"""Tiles as ints 0..33 and strict parsing/formatting of the compact notation.

0-8 are 1m-9m (万), 9-17 1p-9p (筒), 18-26 1s-9s (条), 27-33 1z-7z
(东 南 西 北 白 发 中). Parsing never drops input: anything it does not
understand is an `InputError` that points at the offending character.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from .errors import InputError
from .words import N_, Text, language

SUITS: Final = "mpsz"
NUM_TILES: Final = 34
MAX_INPUT: Final = 200

HONOUR_LETTERS: Final = {"E": 27, "S": 28, "W": 29, "N": 30, "P": 31, "F": 32, "C": 33}
HONOUR_CHARS: Final = {"东": 27, "南": 28, "西": 29, "北": 30, "白": 31, "发": 32, "發": 32, "中": 33}
# Players write suits in 汉字 too: 万 (萬) characters, 筒 or 饼 (餅) dots, 条 (條) or 索 bamboos.
SUIT_CHARS: Final = {"万": "m", "萬": "m", "筒": "p", "饼": "p", "餅": "p", "条": "s", "條": "s", "索": "s"}
NUMBER_CHARS: Final = {c: n for n, c in enumerate("一二三四五六七八九", start=1)}
_UPPER_SUITS: Final = "MPSZ"

_SUIT_ZH: Final = {"m": "万", "p": "筒", "s": "条"}
_SUIT_EN: Final = {"m": "Character", "p": "Dot", "s": "Bamboo"}
_NUM_ZH: Final = "一二三四五六七八九"
_HONOUR_ZH: Final = ["东", "南", "西", "北", "白", "发", "中"]
_HONOUR_EN: Final = ["East", "South", "West", "North", "White Dragon", "Green Dragon", "Red Dragon"]

_DIGITS: Final = "123456789"
# Plain mpsz notation (the common case) is parsed in one pass; anything else takes the careful path.
_PLAIN: Final = re.compile(r"(?:[1-9]+[mps]|[1-7]+z)+")
_RUN: Final = re.compile(r"([1-9]+)([mpsz])")

WHITE: Final = 31
RED: Final = 33


def tile_of(number: int, suit: str) -> int:
    """The tile index of e.g. (5, 'p')."""
    return SUITS.index(suit) * 9 + number - 1


def suit_of(tile: int) -> str:
    return SUITS[tile // 9]


def number_of(tile: int) -> int:
    """1..9 for suited tiles, 1..7 for honours."""
    return tile % 9 + 1


def is_honour(tile: int) -> bool:
    return tile >= 27


def tile_str(tile: int) -> str:
    return f"{number_of(tile)}{suit_of(tile)}"


def tile_name(tile: int, lang: str = "zh") -> str:
    """Human name: 五筒 / 5-Dot, 红中 / Red Dragon."""
    if is_honour(tile):
        index = tile - 27
        if lang == "zh":
            return "红中" if tile == RED else _HONOUR_ZH[index]
        return _HONOUR_EN[index]
    suit, number = suit_of(tile), number_of(tile)
    if lang == "zh":
        return f"{_NUM_ZH[number - 1]}{_SUIT_ZH[suit]}"
    return f"{number}-{_SUIT_EN[suit]}"


_HONOUR_SAID: Final = ("东风", "南风", "西风", "北风", "白板", "发财", "红中")  # one honour, as players name it
_SAID_RUN: Final = re.compile(r"([1-9]+)([mpsz])")


def _said_run(match: re.Match[str]) -> str:
    digits, suit = match.group(1), match.group(2)
    if suit == "z":
        if len(digits) == 1:
            return _HONOUR_SAID[int(digits) - 1]
        return "".join(_HONOUR_ZH[int(d) - 1] for d in digits)
    return "".join(_NUM_ZH[int(d) - 1] for d in digits) + _SUIT_ZH[suit]


def tiles_said(notation: str) -> str:
    """Notation as players say the tiles: `2m` 二万, `123m 555p` 一二三万 五五五筒, `7z` 红中, `777z` 中中中,
    `[5555p concealed]` [五五五五筒 暗杠], `111m28p` 一一一万 二八筒; whatever is not notation stays as it is."""
    said = _SAID_RUN.sub(lambda m: _said_run(m) + "\0", notation).replace(" concealed]", " 暗杠]")
    return re.sub("\0(?=[一二三四五六七八九东南西北白发中])", " ", said).replace("\0", "")  # a space between two suits


def tiles_text(notation: str) -> Text:
    """`notation` as a detail text: the tiles as players say them on a Chinese screen, else as written."""
    return Text("{tiles}", {"tiles": TileWords(notation)})


class TileWords:
    """Tiles the program names (a set, a wait, what a wild stood for), as a parameter of a `Text`:
    as players say them on a Chinese screen (`tiles_said`), in notation otherwise."""

    __slots__ = ("notation",)

    def __init__(self, notation: str) -> None:
        self.notation = notation

    def render(self, lang: str | None = None) -> str:
        return tiles_said(self.notation) if (language() if lang is None else lang) == "zh" else self.notation

    def __str__(self) -> str:
        return self.render()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TileWords) and self.notation == other.notation

    def __hash__(self) -> int:
        return hash(self.notation)


# What the careful path reads a character as, one for one (so that a column stays a column):
# full-width digits and letters as ASCII, Chinese punctuation and the ideographic space as a
# space (words apart), traditional characters as simplified.
_READ_AS: Final = str.maketrans({
    **{chr(c): chr(c - 0xFEE0) for c in range(0xFF10, 0xFF5B) if chr(c - 0xFEE0).isalnum()},
    **dict.fromkeys("\u3000，、；。：", " "),
    "東": "东", "風": "风", "紅": "红", "財": "财", "兩": "两", "發": "发", "萬": "万", "條": "条", "餅": "饼",
    "麼": "幺", "雞": "鸡", "闆": "板",
})
# an honour's second character as players name it: 东风, 白板, 发财, 红中
_SECOND: Final = {"东": "风", "南": "风", "西": "风", "北": "风", "白": "板", "发": "财", "红": "中"}
_NUMBER_WORDS: Final = {**NUMBER_CHARS, "两": 2, "幺": 1}
YAO_JI: Final = 18  # 幺鸡, the 1 of bamboos
# What a character we do not read may have meant
_LIKE: Final = {
    "鸡": "幺鸡 (1s)", "风": "东风 南风 西风 北风 (1z-4z)", "板": "白板 (5z)", "财": "发财 (6z)",
    **{c: f"{n}" for c, n in zip("壹贰叁肆伍陆柒捌玖", "一二三四五六七八九", strict=True)},
    "十": "1-9", "〇": "1-9", "零": "1-9", "花": "m p s z",
}


def parse_tiles(text: str) -> list[int]:
    """Parse mpsz / ESWNPFC / 汉字 notation (东, 红中, 13万, 一万, 五条, 九筒, 幺鸡, 两万, 白板, 东风) into tiles,
    in the order written; full-width digits and letters read as ASCII, Chinese punctuation as a space."""
    if len(text) > MAX_INPUT:
        raise InputError(
            "input_too_long",
            "tile string is {length} characters long; the limit is {limit}",
            MAX_INPUT,
            text[: MAX_INPUT + 10],
            length=len(text), limit=MAX_INPUT,
        )
    if _PLAIN.fullmatch(text):
        return [SUITS.index(suit) * 9 + int(d) - 1 for digits, suit in _RUN.findall(text) for d in digits]
    return _careful(text, text.translate(_READ_AS))


def _careful(text: str, view: str) -> list[int]:
    """`text` read character by character, as `view` (`_READ_AS`) reads each; errors name `text`'s own."""
    tiles: list[int] = []
    pending: list[tuple[int, int]] = []  # (number, position) awaiting a suit
    i = 0
    while i < len(view):
        ch = view[i]
        if ch.isspace():
            # `13m 456 678m`: a word's digits never take the next word's suit (words are joined with spaces)
            if pending and ch == " " and view[i:].strip():
                raise _word_without_suit(pending, text, view, i)
            i += 1
            continue
        if ch in "0123456789":
            if ch == "0":
                raise InputError("invalid_tile", "0 is not a tile (numbers run 1-9)", i, text)
            pending.append((int(ch), i))
        elif ch == "幺" and view[i + 1 : i + 2] == "鸡":
            if pending:
                raise _missing_suit(pending, text)
            tiles.append(YAO_JI)
            i += 1
        elif ch in _NUMBER_WORDS:
            pending.append((_NUMBER_WORDS[ch], i))
        elif ch in SUITS or ch in SUIT_CHARS:
            suit = SUIT_CHARS.get(ch, ch)
            if not pending:
                raise InputError("missing_number", "suit {suit!r} has no numbers before it", i, text, suit=text[i])
            for number, pos in pending:
                if suit == "z" and number > 7:
                    raise InputError("invalid_tile", "{number}z is not a tile (honours run 1z-7z)", pos, text, number=number)
                tiles.append(tile_of(number, suit))
            pending = []
        elif pending and ch in _UPPER_SUITS:
            raise _upper_case_suit(ch, pending, i, text)
        elif ch in HONOUR_LETTERS or ch in HONOUR_CHARS or ch == "红":
            if pending:
                raise _missing_suit(pending, text)
            if ch == "红":
                if view[i + 1 : i + 2] != "中":
                    raise InputError("unknown_character", "'红' must be followed by '中' (红中)", i, text)
                i += 1
                tiles.append(RED)
            else:
                tiles.append(HONOUR_LETTERS.get(ch, HONOUR_CHARS.get(ch, -1)))
                if ch in _SECOND and view[i + 1 : i + 2] == _SECOND[ch]:
                    i += 1  # 东风, 白板, 发财: one tile
        elif ch in _UPPER_SUITS:
            raise InputError("unknown_character", "unknown character {char!r} in tiles; suits are lower case: m p s z", i, text, char=text[i])
        elif ch in _LIKE:
            raise InputError("unknown_character", "unknown character {char!r} in tiles; did you mean {like}?", i, text,
                             char=text[i], like=_LIKE[ch])
        else:
            raise InputError("unknown_character", "unknown character {char!r} in tiles", i, text, char=text[i])
        i += 1
    if pending:
        raise _missing_suit(pending, text)
    return tiles


def _missing_suit(pending: list[tuple[int, int]], text: str) -> InputError:
    return InputError("missing_suit", "digits without a suit (m, p, s, z or 万 筒 条)", pending[0][1], text)


def _word_without_suit(pending: list[tuple[int, int]], text: str, view: str, end: int) -> InputError:
    """Digits that end a word with more words after it: which suit they meant is not written."""
    digits = "".join(text[pos] for _, pos in pending)
    later = next((ch for ch in view[end:] if ch in SUITS or ch in SUIT_CHARS), "m")
    start = view.rfind(" ", 0, end) + 1
    word = text[start:end].strip()
    if word == digits:
        return InputError("missing_suit", "the word {word} has no suit: write {digits}{suit}, or join the words", pending[0][1], text,
                          word=word, digits=digits, suit=later)
    return InputError("missing_suit", "the word {word} ends in digits with no suit: write {digits}{suit}, or join the words",
                      pending[0][1], text, word=word, digits=digits, suit=later)


def _upper_case_suit(ch: str, pending: list[tuple[int, int]], i: int, text: str) -> InputError:
    """`13M`: suits are lower case; P and S after digits are a suit typed in capitals, not 白 or South."""
    digits = "".join(str(n) for n, _ in pending)
    honour = {"P": N_(" (upper-case P means 白, the White Dragon)"), "S": N_(" (upper-case S means 南, South)")}.get(ch, "")
    code = "unknown_character" if ch in "MZ" else "missing_suit"
    return InputError(code, "suits are lower case: write {digits}{lower}, not {digits}{upper}{honour}", i, text,
                      digits=digits, lower=ch.lower(), upper=ch, honour=honour)


def parse_tile(text: str) -> int:
    """Parse exactly one tile (for --win, --wild)."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise InputError("not_one_tile", "expected exactly one tile, got {count} in {text!r}", count=len(tiles), text=text)
    return tiles[0]


def format_tiles(tiles: Iterable[int]) -> str:
    """Normalized mpsz: sorted, one suit letter per run, e.g. 123m55p7z."""
    out: list[str] = []
    suit = -1
    for t in sorted(tiles):
        if t // 9 != suit:
            if suit >= 0:
                out.append(SUITS[suit])
            suit = t // 9
        out.append(_DIGITS[t % 9])
    if suit >= 0:
        out.append(SUITS[suit])
    return "".join(out)


def counts_of(tiles: Iterable[int]) -> list[int]:
    counts = [0] * NUM_TILES
    for t in tiles:
        counts[t] += 1
    return counts
