"""The lean record path (api/row.py, variants/<v>/row.py) against the full path (score_hand).

On seeded random records of every shipped variant, with every flag the variant takes, melds,
concealed kongs, a chosen winning tile, 财神, clashing flags and hands that do not win, the
batch outcome that the lean path gives must be the full path's, field for field and byte for
byte; and the lean path must answer most records itself (else it is not being tested).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from mahjong_calc.batch import evaluate
from mahjong_calc.batch.evaluate import Defaults, configure, current_defaults, full_outcome, outcome
from mahjong_calc.core.batch_record import normalize
from mahjong_calc.core.flags import by_name
from mahjong_calc.rules.loader import load_ruleset, shipped_names

SEATS = ("next", "opposite", "previous", "下家")
RECORDS = 1500  # a variant


def _text(tiles: list[int]) -> str:
    return "".join(f"{t % 9 + 1}{'mpsz'[t // 9]}" for t in tiles)


def _takes(flag: str, scorer: str) -> bool:
    variants = by_name()[flag].variants
    return variants is None or scorer in variants


def random_record(rng: random.Random, variant: str) -> dict[str, Any]:
    """A hand of a pair and four sets (now and then a broken one), melds, and random flags."""
    rs = load_ruleset(variant)
    suits = ["mps".index(s) for s in rs.data["tiles"]["suits"]]
    honours = [26 + n for n in rs.data["tiles"]["honours"]]
    chow_melds = rs.data["tiles"]["chow_melds"]
    counts = [0] * 34
    main = rng.choice(suits)
    concealed: list[int] = []
    melds: list[str] = []
    kongs: list[str] = []
    for _ in range(4):
        for _attempt in range(30):
            if honours and rng.random() < 0.15:
                kind, first = "pung", rng.choice(honours)
            else:
                suit = main if rng.random() < 0.6 else rng.choice(suits)
                kind = "chow" if rng.random() < 0.5 else "pung"
                first = suit * 9 + rng.randrange(7 if kind == "chow" else 9)
            tiles = [first, first + 1, first + 2] if kind == "chow" else [first] * 3
            if all(counts[t] + tiles.count(t) <= 4 for t in tiles):
                break
        for t in tiles:
            counts[t] += 1
        roll = rng.random()
        if kind == "pung" and roll < 0.12 and counts[first] == 3:
            counts[first] += 1
            (kongs if rng.random() < 0.5 else melds).append(_text([first] * 4))
        elif roll < 0.25 and (kind == "pung" or chow_melds or rng.random() < 0.1):
            melds.append(_text(tiles))
        else:
            concealed += tiles
    pair = rng.choice([t for t in range(34) if counts[t] <= 2 and (t // 9 in suits or t in honours)])
    concealed += [pair, pair]
    if rng.random() < 0.08:  # a broken hand: not a win, or not 14 tiles
        concealed[rng.randrange(len(concealed))] = rng.choice(suits) * 9 + rng.randrange(9)
    rng.shuffle(concealed)
    record: dict[str, Any] = {"variant": variant, "hand": _text(concealed)}
    if melds:
        record["melds"] = melds
    if kongs:
        record["concealed_kongs"] = kongs
    scorer = rs.scorer
    roll = rng.random()  # self-drawn, won on a discard, both (a clash) or neither
    if roll < 0.5 or roll > 0.95:
        record["self_draw"] = True
    if roll >= 0.5 and roll < 0.97:
        record["discarder"] = rng.choice(SEATS)
    if rng.random() < 0.2:
        record["win"] = _text([rng.choice(concealed)])
    for flag in ("dealer", "after_kong", "robbing_kong", "heavenly", "earthly"):
        if _takes(flag, scorer) and rng.random() < (0.5 if flag == "after_kong" and kongs else 0.06):
            record[flag] = True
    if _takes("dealer_seat", scorer) and rng.random() < 0.15:
        record["dealer_seat"] = rng.choice(SEATS)
    if _takes("wild", scorer) and rng.random() < 0.4:
        record["wild"] = _text([rng.choice(concealed)])
    if _takes("piao", scorer) and rng.random() < 0.15:
        record["piao"] = rng.randint(0, 3)
    if _takes("opponent_pungs", scorer) and rng.random() < 0.15:
        record["opponent_pungs"] = [rng.randint(0, 2) for _ in range(3)]
    if _takes("robbed_fan", scorer) and rng.random() < 0.05:
        record["robbed_fan"] = rng.randint(0, 4)
    return record


def _keys(variant: str, seed: int) -> Iterator[tuple[Any, ...]]:
    rng = random.Random(seed)
    for _ in range(RECORDS):
        yield normalize(random_record(rng, variant))[0]


def _compare(variant: str, seed: int) -> tuple[int, int]:
    """(records the lean path answered, records), asserting each outcome is the full path's."""
    lean = 0
    n = 0
    for key in _keys(variant, seed):
        n += 1
        rs = evaluate._lean_ruleset(key[0], current_defaults())
        if rs is not None and evaluate.score_row(key, rs) is not None:
            lean += 1
        assert evaluate.fresh_outcome(key) == full_outcome(key), key
    return lean, n


@pytest.mark.parametrize("variant", shipped_names())
def test_lean_rows_are_the_full_paths(variant: str) -> None:
    lean, n = _compare(variant, seed=len(variant))
    assert lean >= n // 2, f"the lean path answered {lean} of {n} records"


@pytest.mark.parametrize(
    ("variant", "overrides"),
    [
        ("wuhu315", ("options.ya_dang_edge_wait=true", "options.ya_dang_single_wait=true", "numbers.jiao=20")),
        ("chizhou", ("options.la_zi_needs_no_flowers=false", "numbers.cap=4")),
        ("pujiang", ("numbers.fan_multiplier=3",)),
    ],
)
def test_lean_rows_follow_set(variant: str, overrides: tuple[str, ...]) -> None:
    """Under `--set`, both paths score under the overridden ruleset."""
    before = current_defaults()
    configure(Defaults(overrides=overrides))
    try:
        lean, n = _compare(variant, seed=7)
    finally:
        configure(before)
    assert lean >= n // 2, f"the lean path answered {lean} of {n} records"


def test_rules_file_takes_the_full_path(tmp_path: Any) -> None:
    """A record read under --rules FILE is left to the full path (it reads the file)."""
    path = tmp_path / "house.yaml"
    path.write_text("extends: wuhu315\nname: house\n", encoding="utf-8")
    before = current_defaults()
    configure(Defaults(rules=str(path)))
    try:
        assert evaluate._lean_ruleset(None, current_defaults()) is None
        key = normalize({"hand": "123456m13m99p555p2m", "self_draw": True})[0]
        assert outcome(key).variant == "house"
    finally:
        configure(before)


# --- the hand text read without a regex: exactly the one-pass notation, nothing else -------------

PLAIN = r"(?:[1-9]+[mps]|[1-7]+z)+"  # what tiles.parse_tiles reads in one pass


def _plain(text: str, allowed: tuple[bool, ...] = (True,) * 34) -> bool:
    """Whether `text` is the plain notation, of at most four of each tile, all of them `allowed`."""
    import re

    from mahjong_calc.core.tiles import MAX_INPUT, parse_tiles

    if len(text) > MAX_INPUT or re.fullmatch(PLAIN, text) is None:
        return False
    tiles = parse_tiles(text)
    return all(tiles.count(t) <= 4 and (allowed[t] or not tiles.count(t)) for t in range(34))


@pytest.mark.parametrize("text", [
    "123456m13m99p555p2m", "7z8p6p3m7z9p7p9p3m6p9p9p3m7z", "1234567z", "1m", "", "m", "12", "0m", "8z", "9z1m", "11mm",
    "1m2", "１m", "1M", "123m ", " 123m", "1x", "12m3", "z1", "1p" * 101, "1p" * 100, "٣m", "1m\n", "11111m", "1111m1m",
    "1111m2222p3333s44z",
])
def test_the_hand_text_reader_takes_exactly_the_plain_notation(text: str) -> None:
    from mahjong_calc.api.row import _last_tile, _tile_counts
    from mahjong_calc.core.tiles import parse_tiles

    counts = [0] * 34
    read = _tile_counts(text, counts, (True,) * 34)
    plain = _plain(text)
    assert (read >= 0) == plain, text
    if plain:
        tiles = parse_tiles(text)
        assert counts == [tiles.count(t) for t in range(34)] and read == len(tiles) and _last_tile(text) == tiles[-1]


@pytest.mark.parametrize(("text", "read"), [("123m", 3), ("99s", 2), ("123m11z", -1), ("5z123m", -1), ("1z", -1)])
def test_the_hand_text_reader_refuses_a_tile_the_variant_lacks(text: str, read: int) -> None:
    from mahjong_calc.api.row import _tile_counts

    allowed = tuple(t < 27 for t in range(34))  # a variant of the number suits only
    assert _tile_counts(text, [0] * 34, allowed) == read


def test_the_hand_text_reader_on_random_texts() -> None:
    from mahjong_calc.api.row import _tile_counts

    rng = random.Random(7)
    allowed = tuple(t != 20 for t in range(34))  # 3s is missing
    for _ in range(20000):
        text = "".join(rng.choice("0123456789mpsz x") for _ in range(rng.randint(0, 12)))
        assert (_tile_counts(text, [0] * 34, (True,) * 34) >= 0) == _plain(text), text
        assert (_tile_counts(text, [0] * 34, allowed) >= 0) == _plain(text, allowed), text


# --- Pujiang: 财神 and 白板 readings, 七对, 三财神, 飘 and 抢杠, drawn on purpose ------------------

def pujiang_record(rng: random.Random) -> dict[str, Any]:
    """A Pujiang hand that often wins: mostly pungs, or seven pairs, with 财神 (some held, some 白板
    that may play as its face, now and then three), and self-draw or 抢杠, 飘, opponents' pungs."""
    wild = rng.randrange(34)
    tiles: list[int] = []
    if rng.random() < 0.3:  # 七对
        faces = rng.sample(range(34), 7)
        if rng.random() < 0.2:
            faces[1] = faces[0]  # four alike
        for face in faces:
            tiles += [face, face]
    else:
        for _ in range(4):
            first = rng.randrange(34)
            if rng.random() < 0.25 and first % 9 <= 6 and first < 27:
                tiles += [first, first + 1, first + 2]
            else:
                tiles += [first] * 3
        pair = rng.randrange(34)
        tiles += [pair, pair]
    for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):  # wilds in place of some tiles
        tiles[rng.randrange(len(tiles))] = wild
    if rng.random() < 0.2:  # 白板, which may stand for the 财神's face
        tiles[rng.randrange(len(tiles))] = 33
    if rng.random() < 0.05:
        tiles[:3] = [wild] * 3  # 三财神
    rng.shuffle(tiles)
    record: dict[str, Any] = {"variant": "pujiang", "hand": _text(tiles)}
    if rng.random() < 0.7:
        record["wild"] = _text([wild])
    if rng.random() < 0.3:
        record["win"] = _text([rng.choice(tiles)])
    if rng.random() < 0.2:
        record["robbing_kong"] = True
        record["discarder"] = rng.choice(SEATS[:3])
        if rng.random() < 0.5:
            record["robbed_fan"] = rng.randint(0, 3)
    else:
        record["self_draw"] = True
    for flag in ("dealer", "after_kong"):
        if rng.random() < 0.15:
            record[flag] = True
    if rng.random() < 0.2:
        record["piao"] = rng.randint(1, 3)
    if rng.random() < 0.3:
        record["opponent_pungs"] = [rng.randint(0, 2) for _ in range(3)]
    return record


@pytest.mark.parametrize("overrides", [(), ("options.qiang_gang_amount=robbed_fan", "options.subtract_pungs=before_fan"),
                                       ("options.qiang_gang_amount=robbed_fan_doubling", "options.white_as_wild_face=false")])
def test_pujiang_lean_rows_are_the_full_paths(overrides: tuple[str, ...]) -> None:
    """Pujiang's lean rows on hands that win with 财神 and 白板 readings, 七对, 飘 and 抢杠."""
    from mahjong_calc.variants.pujiang import row as pujiang_row

    before = current_defaults()
    configure(Defaults(overrides=overrides))
    try:
        rng = random.Random(31 + len(overrides))
        rs = evaluate._lean_ruleset("pujiang", current_defaults())
        assert rs is not None
        lean = 0
        for _ in range(RECORDS):
            key = normalize(pujiang_record(rng))[0]
            if evaluate.score_row(key, rs) is not None:
                lean += 1
            assert evaluate.fresh_outcome(key) == full_outcome(key), key
        made = pujiang_row._texts.of(rs)
    finally:
        configure(before)
    assert lean >= RECORDS // 2, f"the lean path answered {lean} of {RECORDS} records"
    # the row's own texts were made for each kind of case
    assert any(key[0] == "qi_dui" for key in made)
    assert any(key[0] == "faces" and key[3] for key in made) or "options.white_as_wild_face=false" in overrides, "no 白板 reading"
    assert any(key[0] == "faces" and key[2] for key in made), "no 财神 reading"
    assert any(key[0] == "faces" and None in key[2] for key in made), "no 三财神 row"
    assert any(key[0] == "base" and key[5] for key in made), "no 抢杠"
    assert any(key[0] == "base" and key[8] is not None for key in made), "no opponents' pungs"
    if overrides:
        assert any(key[0] == "base" and key[7] is not None for key in made), "no robbed 番"


@pytest.mark.parametrize("record, code", [
    ({"variant": "chizhou", "hand": "123m456p789s111z22z"}, "missing_discarder"),
    ({"variant": "chizhou", "hand": "6z6z6z6m6m1p2p3p", "melds": ["234m", "333p"], "self_draw": True}, "chow_restricted"),
    ({"variant": "pujiang", "hand": "111m222p333s444z55z", "discarder": "next"}, "discard_win_not_allowed"),
    ({"variant": "pujiang", "hand": "111m222p333s55z", "melds": ["4444z"], "self_draw": True, "wild": "4z"}, "too_many_wilds"),
])
def test_a_check_a_row_answers_carries_no_traceback(record: dict[str, Any], code: str) -> None:
    """A check the row scorer catches and answers (or keeps) holds no traceback: its frames, and the
    game or the chunk they hold, would live as long as the answer is kept."""
    variant = record["variant"]
    rs = evaluate._lean_ruleset(variant, current_defaults())
    assert rs is not None
    answer = evaluate.score_row(normalize(record)[0], rs)
    assert getattr(answer, "code", None) == code, answer
    assert answer.__traceback__ is None  # type: ignore[union-attr]


@pytest.mark.parametrize("record, shape", [
    ({"hand": "147m258p369s12345z", "self_draw": True}, "zhen_zhen_13"),
    ({"hand": "147m25p36s1234567z", "robbing_kong": True, "discarder": "next"}, "zhen_13"),
    ({"hand": "147m258p3s1234567z", "self_draw": True, "wild": "3s"}, "zhen_13"),  # a wild, and a 白板 as itself
    ({"hand": "3s3s3s147m2p5p9p1z1z", "melds": ["555z"], "self_draw": True, "wild": "3s"}, "san_cai_shen"),  # with a meld
    ({"hand": "3s3s3s147m2p5p9p1z1z", "concealed_kongs": ["5555z"], "self_draw": True, "wild": "3s", "opponent_pungs": [1, 0, 2]}, "san_cai_shen"),
])
def test_pujiang_rows_of_the_tiles_held_are_the_lean_paths(record: dict[str, Any], shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """真13 and 三财神, whose decomposition is the tiles held, are joined by the lean row, not by build.result."""
    from mahjong_calc.variants.pujiang import build

    rs = evaluate._lean_ruleset("pujiang", current_defaults())
    assert rs is not None
    key = normalize({"variant": "pujiang", **record})[0]

    def full_path(*_: Any) -> None:
        raise AssertionError("the lean row fell back to build.result")

    with monkeypatch.context() as patched:
        patched.setattr(build, "result", full_path)
        row = evaluate.score_row(key, rs)
    assert type(row) is tuple and f'"shape": "{shape}"'.encode() in row[0], row
    assert evaluate.fresh_outcome(key) == full_outcome(key), key


@pytest.mark.parametrize("record", [
    {"hand": "111m222p333s444z5z", "discarder": "next"},  # a discard win
    {"hand": "111m222p333s444z5z", "robbing_kong": True},  # 抢杠 naming nobody
    {"hand": "111m222p333s444z5z", "self_draw": True, "robbed_fan": 2},
    {"hand": "111m222p333s444z5z", "robbing_kong": True, "discarder": "previous"},
    {"hand": "111m222p333s4444z", "self_draw": True, "wild": "4z"},  # four wilds held
    {"hand": "111m222p333s55z", "melds": ["4444z"], "self_draw": True, "wild": "4z"},  # four, in a kong
    {"hand": "123m222p333s55z", "melds": ["444z"], "self_draw": True, "wild": "4z"},  # three, in a pung
    {"hand": "111m222p333s4455z", "melds": ["345s"], "self_draw": True, "wild": "4s"},  # one in a chow
])
def test_pujiang_lean_checks_are_score_pys(record: dict[str, Any]) -> None:
    """The lean row's checks of the facts and the wilds held answer as score.check_win_kind raises."""
    rs = evaluate._lean_ruleset("pujiang", current_defaults())
    assert rs is not None
    key = normalize({"variant": "pujiang", **record})[0]
    assert evaluate.fresh_outcome(key) == full_outcome(key), key
