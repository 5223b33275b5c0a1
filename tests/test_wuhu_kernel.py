"""The Wuhu kernel on random legal wins: batch equals the library, byte for byte; its
integer arithmetic and suit tables equal their references.

Each example is a real winning hand (a pair plus four sets, some declared as melds
or concealed kongs, 八支 satisfied, the winning tile among the concealed ones) with
random flags, a random set of the Wuhu options, and random non-negative numbers
(`--set numbers.…`, zhi_factor values such as 0.3, 0.25 or 1.5 included).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import fields
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from mahjong_calc.api import score_hand
from mahjong_calc.api.explain import explain
from mahjong_calc.batch.evaluate import Defaults, configure, current_defaults, outcome
from mahjong_calc.core import sets as set_codes
from mahjong_calc.core import shapes as decompose
from mahjong_calc.core import suits
from mahjong_calc.core.batch_record import normalize
from mahjong_calc.core.flags import key_fields
from mahjong_calc.core.tiles import format_tiles, tile_str
from mahjong_calc.variants.common.reading import round_half_up
from mahjong_calc.variants.wuhu import kernel as wuhu_kernel
from mahjong_calc.variants.wuhu.ruleset_schema import WuhuDiFan, WuhuOptions

RED = 33  # 红中 7z, Wuhu's only honour
DI_FAN = [f"numbers.di_fan.{f.name}" for f in fields(WuhuDiFan)]
AMOUNTS = [f"numbers.{k}" for k in ("zui_zi", "zui_zi_self_draw_multiplier", "jiao", "jiao_extra_zui_zi", "jiao_self_draw", "ming_gang", "an_gang")]
OPTIONS = [f.name for f in fields(WuhuOptions)]
FACTORS = ["numbers.zhi_factor.discard", "numbers.zhi_factor.self_draw"]
# round_half_up meets exact halves with these: 0.25 × 14 = 3.5, 0.3 × 15 = 4.5, 1.5 × 9 = 13.5
SPECIAL_FACTORS = ["0", "0.1", "0.2", "0.25", "0.3", "0.4", "0.5", "0.75", "1", "1.5", "2", "0.35", "0.45", "0.125", "2.5"]
FACTOR = st.one_of(
    st.sampled_from(SPECIAL_FACTORS),
    st.integers(0, 300).map(lambda n: str(n / 100)),
    st.integers(0, 20000).map(lambda n: str(n / 1000)),
)


@st.composite
def legal_wins(draw: st.DrawFn) -> tuple[dict[str, Any], tuple[str, ...]]:
    """(record, overrides): a winning Wuhu hand with flags, options and numbers at random."""
    held = Counter[int]()
    main = draw(st.integers(0, 2))
    others = [s for s in range(3) if s != main]

    def pick(size: int, chow: bool = False, where: str = "") -> int:
        """A first tile for `size` copies (or a chow) with copies to spare: mostly in the main
        suit, else another suit or 红中; `where` = "main" or "other" forces the choice."""
        in_main = where == "main" or (where != "other" and draw(st.integers(0, 3)) > 0)
        suits = [main] if in_main else others
        starts = [s * 9 + n for s in suits for n in range(7 if chow else 9)]
        if not chow and not where and not in_main and draw(st.integers(0, 2)) == 0:
            starts = [RED]  # 红中 often enough for 混一色
        def room(t: int) -> bool:
            return all(held[u] + (1 if chow else size) <= 4 for u in (range(t, t + 3) if chow else [t]))

        fits = [t for t in starts if room(t)]
        if not fits:  # any tile of the number suits with room; a chow within its suit (8m 9m 1p is none)
            fits = [t for t in range(27) if (not chow or t % 9 <= 6) and room(t)]
        first = draw(st.sampled_from(fits))
        for u in range(first, first + 3) if chow else [first] * size:
            held[u] += 1
        return first

    # Most hands are free; some are shaped for the patterns that free hands rarely make.
    shape = draw(st.sampled_from(["free"] * 6 + ["tong_tian", "shuang_ba_zhi"]))
    if shape == "tong_tian":  # 通天: 123, 456, 789 of the main suit as sequences
        for first in (main * 9, main * 9 + 3, main * 9 + 6):
            held.update(range(first, first + 3))
        planned = [("chow", main * 9), ("chow", main * 9 + 3), ("chow", main * 9 + 6), ("", "")]
    elif shape == "shuang_ba_zhi":  # 双八支: 8 支 in the main suit, two kongs in the others
        planned = [("", "main"), ("", "main"), ("kong", "other"), ("kong", "other")]
    else:
        planned = [("", "")] * 4
    concealed: list[int] = [pick(2, where="main" if shape == "shuang_ba_zhi" else "")] * 2  # the pair
    melds: list[str] = []
    kongs: list[str] = []
    for kind_or_none, fixed in draw(st.permutations(planned)):
        kind = kind_or_none or draw(st.sampled_from(["chow", "chow", "pung", "pung", "kong"]))
        where = fixed if isinstance(fixed, str) else ""
        if kind == "chow":
            first = fixed if isinstance(fixed, int) else pick(3, chow=True, where=where)
            concealed += [first, first + 1, first + 2]
        elif kind == "pung":
            tiles = [pick(3, where=where)] * 3
            if draw(st.booleans()):
                melds.append(format_tiles(tiles))  # exposed pung (碰)
            else:
                concealed += tiles
        else:
            tiles = [pick(4, where=where)] * 4
            (kongs if draw(st.booleans()) else melds).append(format_tiles(tiles))
    zhi = max(sum(held[t] for t in range(s * 9, s * 9 + 9)) for s in range(3))
    min_zhi = draw(st.sampled_from([8, 8, 8, None]))  # None: overridden below, at most the hand's 支
    if min_zhi is not None and zhi < min_zhi:
        min_zhi = None
    record = _record(draw, concealed, melds, kongs)
    return record, _overrides(draw, zhi if min_zhi is None else None)


def _record(draw: st.DrawFn, concealed: list[int], melds: list[str], kongs: list[str]) -> dict[str, Any]:
    win = draw(st.sampled_from(sorted(set(concealed))))
    rest = list(concealed)
    rest.remove(win)
    style = draw(st.sampled_from(["last", "field", "single"]))
    if style == "last":  # the winning tile written last, as people type it
        hand = format_tiles(rest) + tile_str(win)
    elif style == "field":
        hand = format_tiles(concealed)
    else:  # one suit letter per tile, winning tile last
        hand = "".join(tile_str(t) for t in draw(st.permutations(rest))) + tile_str(win)
    record: dict[str, Any] = {"variant": draw(st.sampled_from(["wuhu315", "wuhu525"])), "hand": hand}
    if style == "field":
        record["win"] = tile_str(win)
    if melds:
        record["melds"] = melds
    if kongs:
        record["concealed_kongs"] = kongs
    how = draw(st.sampled_from(["discard", "discard", "self_draw", "after_kong", "heavenly", "earthly"]))
    if how == "after_kong" and not (kongs or any(len(m) == 5 for m in melds)):
        how = "self_draw"
    if how != "discard":
        record[how] = True
    if how == "earthly" and draw(st.booleans()):
        record["self_draw"] = True
    if how in ("discard", "earthly") and "self_draw" not in record and draw(st.booleans()):
        record["discarder"] = draw(st.sampled_from(["next", "opposite", "previous"]))
    if draw(st.integers(0, 3)) == 0:
        record["dealer"] = True
    elif draw(st.booleans()) and how != "heavenly":  # 天胡 is the dealer's own hand: it implies --dealer
        record["dealer_seat"] = draw(st.sampled_from(["next", "opposite", "previous"]))
    return record


def _overrides(draw: st.DrawFn, zhi: int | None) -> tuple[str, ...]:
    """--set items: each option absent, true or false; some numbers changed; min_zhi ≤ 支 if given."""
    out = [f"options.{name}={value}" for name in OPTIONS if (value := draw(st.sampled_from([None, "true", "false"])))]
    if zhi is not None:
        out.append(f"numbers.min_zhi={draw(st.integers(0, zhi))}")
    for key in draw(st.lists(st.sampled_from(DI_FAN + AMOUNTS + FACTORS), unique=True, max_size=6)):
        value = draw(FACTOR) if key in FACTORS else str(draw(st.one_of(st.integers(0, 60), st.integers(0, 10**6))))
        out.append(f"{key}={value}")
    return tuple(out)


def _library(record: dict[str, Any], overrides: tuple[str, ...]) -> tuple[bytes, int, int, tuple[int, ...], tuple[str, ...]]:
    """`score_hand`'s answer as batch keeps it: (body bytes, value, total, payments, patterns)."""
    key, _ = normalize(record)
    result = score_hand(**dict(zip(key_fields(), key)), overrides=overrides)
    pays = tuple(result.payments[seat] for seat in ("next", "opposite", "previous"))
    body = json.dumps(result.to_dict(), ensure_ascii=False)[1:].encode("utf-8")
    return body, result.value, result.total, pays, tuple(result.patterns)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(legal_wins())
@example(  # a zero multiplier once read as "not doubled" in a detail text
    ({"variant": "wuhu315", "hand": "11123m11112233p1m", "self_draw": True, "dealer": True},
     ("numbers.di_fan.discard=0", "numbers.zui_zi_self_draw_multiplier=0")),
)
def test_batch_equals_the_library_on_legal_wins(case: tuple[dict[str, Any], tuple[str, ...]]) -> None:
    record, overrides = case
    library = _library(record, overrides)  # score_hand raising here would be a bad generator: it must be a win
    before = current_defaults()
    configure(Defaults(overrides=overrides))
    try:
        got = outcome(normalize(record)[0])
    finally:
        configure(before)
    assert got.status == "win", (record, overrides, got)
    assert got.body == library[0], f"{record} {overrides}\nbatch:   {got.body!r}\nlibrary: {library[0]!r}"
    assert (got.body, got.value, got.total, got.payments, got.patterns) == library


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(legal_wins())
def test_the_chosen_reading_is_the_first_of_the_highest_value(case: tuple[dict[str, Any], tuple[str, ...]]) -> None:
    record, overrides = case
    result = score_hand(**dict(zip(key_fields(), normalize(record)[0])), overrides=overrides)
    explained = explain(result)
    values = [r["value"] for r in explained["readings"]]
    assert explained["chosen"] == values.index(max(values)) and result.value == max(values)
    chosen = explained["readings"][explained["chosen"]]
    assert chosen["items"] == result.to_dict()["items"] and chosen["patterns"] == list(result.patterns)


@given(st.integers(0, 10**6), FACTOR)
def test_integer_half_up_rounding_equals_decimal(n: int, factor: str) -> None:
    exact = wuhu_kernel.factor_of(float(factor))
    assert wuhu_kernel.round_half_up(n, exact.as_integer_ratio()) == round_half_up(n * exact)




@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.lists(st.integers(0, 33), min_size=2, max_size=14))
def test_the_suit_tables_split_as_the_search_does(tiles: list[int]) -> None:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    if max(counts) > 4:
        return
    wanted = tuple((pair, tuple(set_codes.of_name(kind, first) for kind, first in found)) for pair, found in decompose.splits(tuple(counts)))
    assert suits.split_codes(tuple(counts)) == wanted  # the set codes the Wuhu kernel reads


@pytest.mark.slow
def test_the_generator_reaches_what_matters() -> None:
    """The property above proves little unless its hands cover the scoring's branches."""
    seen: Counter[str] = Counter()

    @settings(max_examples=500, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(legal_wins())
    def collect(case: tuple[dict[str, Any], tuple[str, ...]]) -> None:
        record, overrides = case
        result = score_hand(**dict(zip(key_fields(), normalize(record)[0])), overrides=overrides)
        data = result.to_dict()
        seen.update(item["key"] for item in data["items"])
        seen.update(result.patterns)
        seen["ya_dang"] += bool(data.get("ya_dang"))
        seen["zhi_factor_changed"] += any(o.startswith("numbers.zhi_factor") for o in overrides)
        seen["dealer_paid_extra"] += len(set(data["payments"].values())) > 1

    collect()
    wanted = {"di_fan", "zhi_fan", "ming_gang", "an_gang", "dealer", "jiao", "jiao_self_draw", "ya_dang",
              "dui_dui_hu", "hun_yi_se", "qing_yi_se", "gang_hou_kai_hua", "tian_hu", "di_hu",
              "tong_tian", "si_he", "shuang_si_he", "shuang_ba_zhi",
              "zhi_factor_changed", "dealer_paid_extra"}
    assert wanted <= set(seen), f"never reached: {sorted(wanted - set(seen))}"


@pytest.mark.parametrize(
    ("hand", "kwargs"),
    [
        ("13m456m678m11p555p2m", {"variant": "wuhu315", "self_draw": True}),
        ("123m456m99m", {"variant": "wuhu315", "melds": ["1111p@next", "9999s@opposite"], "after_kong": True}),
        ("111222333m777z55p", {"variant": "chizhou", "self_draw": True}),
        ("111m222m333m444m5s5p", {"variant": "pujiang", "wild": "5s", "self_draw": True}),
    ],
)
def test_the_result_json_is_json_dumps_of_its_dict(hand: str, kwargs: dict[str, Any]) -> None:
    result = score_hand(hand, **kwargs)
    assert result.to_json() == json.dumps(result.to_dict(), ensure_ascii=False)
