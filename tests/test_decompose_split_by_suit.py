"""`splits` and `waits` work suit by suit; they must give what a whole-hand search gives, in the same order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_calc.core.shapes import SetKind, splits
from mahjong_calc.core.suits import arrangements_and_waits, code_arrangements, suit_shapes, waits
from mahjong_calc.core.tiles import NUM_TILES, is_honour


def _sets_only(counts: list[int], start: int) -> list[tuple[tuple[SetKind, int], ...]]:
    """All ways to cut `counts` (tiles from `start` on) into pungs and chows."""
    i = start
    while i < NUM_TILES and counts[i] == 0:
        i += 1
    if i == NUM_TILES:
        return [()]
    found: list[tuple[tuple[SetKind, int], ...]] = []
    if counts[i] >= 3:
        counts[i] -= 3
        found += [(("pung", i),) + rest for rest in _sets_only(counts, i)]
        counts[i] += 3
    if not is_honour(i) and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for j in (i, i + 1, i + 2):
            counts[j] -= 1
        found += [(("chow", i),) + rest for rest in _sets_only(counts, i)]
        for j in (i, i + 1, i + 2):
            counts[j] += 1
    return found


def reference_splits(counts: tuple[int, ...]) -> tuple[object, ...]:
    """The whole-hand search `splits` used before it was split by suit."""
    if sum(counts) % 3 != 2:
        return ()
    work = list(counts)
    out: list[object] = []
    for pair in range(NUM_TILES):
        if work[pair] >= 2:
            work[pair] -= 2
            out += [(pair, sets) for sets in _sets_only(work, 0)]
            work[pair] += 2
    return tuple(out)


def reference_waits(counts13: tuple[int, ...], held: tuple[int, ...]) -> tuple[int, ...]:
    out = []
    for t in range(NUM_TILES):
        if held[t] >= 4:
            continue
        work = list(counts13)
        work[t] += 1
        if reference_splits(tuple(work)):
            out.append(t)
    return tuple(out)


# Hands built from a few suits' worth of tiles, so that complete hands are common.
tiles = st.lists(st.sampled_from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 26, 27, 33]), min_size=2, max_size=14)


def _counts(chosen: list[int]) -> tuple[int, ...] | None:
    counts = [0] * NUM_TILES
    for t in chosen:
        counts[t] += 1
    return tuple(counts) if max(counts) <= 4 else None


@pytest.mark.slow
@settings(max_examples=400)
@given(tiles)
def test_splits_match_the_whole_hand_search(chosen: list[int]) -> None:
    counts = _counts(chosen)
    if counts is not None:
        assert splits(counts) == reference_splits(counts)


@settings(max_examples=400)
@given(tiles)
def test_waits_match_the_whole_hand_search(chosen: list[int]) -> None:
    counts = _counts(chosen)
    if counts is not None and sum(counts) % 3 == 1:
        assert waits(counts, counts) == reference_waits(counts, counts)


@settings(max_examples=400)
@given(tiles, st.integers(0, 13), st.sampled_from([(), (2 * 34 + 30,), (26, 1 * 34 + 9)]))
def test_the_kernels_one_pass_gives_the_arrangements_and_the_waits_of_the_search(chosen: list[int], last: int, melds: tuple[int, ...]) -> None:
    """arrangements_and_waits (the 14 tiles' arrangements and the waits of the 13 before the winning
    tile, from one lookup of each suit) gives code_arrangements and the whole-hand search's waits."""
    counts = _counts(chosen)
    if counts is None or sum(counts) % 3 != 2:
        return
    win = chosen[last % len(chosen)]
    held = list(counts)
    held[win] -= 1
    for code in melds:  # a kong of 4z, or a pung of 9s and a chow of 1p-3p, held besides
        first = code % 34
        for t in ((first,) * 4 if code >= 68 else (first, first + 1, first + 2) if code >= 34 else (first,) * 3):
            held[t] += 1
    if max(held) > 4:
        return
    arrs, waited = arrangements_and_waits(suit_shapes(counts), melds, win, tuple(held))
    assert arrs == code_arrangements(counts, melds, win)
    before = list(counts)
    before[win] -= 1
    assert waited == (reference_waits(tuple(before), tuple(held)) if arrs else ())
    if arrs:
        assert win in waited or held[win] >= 4


def test_known_split_order() -> None:
    counts = [0] * NUM_TILES
    for t in (0, 0, 0, 1, 1, 1, 2, 2, 2, 9, 9, 18, 19, 20):
        counts[t] += 1
    got = splits(tuple(counts))
    assert got == reference_splits(tuple(counts))
    assert [sets for _, sets in got] == [
        (("pung", 0), ("pung", 1), ("pung", 2), ("chow", 18)),
        (("chow", 0), ("chow", 0), ("chow", 0), ("chow", 18)),
    ]


@st.composite
def any_suit(draw: st.DrawFn) -> tuple[int, tuple[int, ...]]:
    """A suit (0-2 a number suit, 3 the honours) and any counts of its tiles (0-4 each, up to 14 in all)."""
    suit = draw(st.integers(0, 3))
    size = 9 if suit < 3 else 7
    return suit, tuple(draw(st.lists(st.integers(0, 4), min_size=size, max_size=size).filter(lambda p: sum(p) <= 14)))


@st.composite
def one_suit(draw: st.DrawFn) -> tuple[int, ...]:
    """Every tile of one suit (a number suit or the honours) 0-4 times, up to 14 tiles in all, as 34 counts."""
    suit, part = draw(any_suit())
    counts = [0] * NUM_TILES
    counts[suit * 9 : suit * 9 + len(part)] = part
    return tuple(counts)


@settings(max_examples=500)
@given(one_suit())
def test_a_suit_s_tables_match_the_search(counts: tuple[int, ...]) -> None:
    """The per-suit arithmetic (sets only, a pair plus sets, the tiles that complete a suit)
    and the tile-by-tile cuts give what the search over the whole hand gives, in its order."""
    size = sum(counts) % 3
    if size == 2:
        assert splits(counts) == reference_splits(counts)
    elif size == 1:
        assert waits(counts, counts) == reference_waits(counts, counts)
    else:  # sets only: with a pair of another suit added, every cut of this one
        work = list(counts)
        pair = 27 if counts[0:27] != (0,) * 27 else 0
        work[pair] += 2
        if max(work) <= 4:
            assert splits(tuple(work)) == reference_splits(tuple(work))


@pytest.mark.parametrize("text", ["11112233m", "11112222333355m", "111123m55p", "11122223333444m", "1112345678999m", "1111222333m"])
def test_four_alike_cut_every_way_in_the_search_s_order(text: str) -> None:
    """Four of a tile start a pung and a chow, a chow and a pung, or four chows: the search's order."""
    from mahjong_calc.core.tiles import counts_of, parse_tiles

    counts = tuple(counts_of(parse_tiles(text)))
    assert splits(counts) == reference_splits(counts)
    if sum(counts) % 3 == 1:
        assert waits(counts, counts) == reference_waits(counts, counts)
    if text == "11112222333355m":
        assert [sets for _, sets in splits(counts)] == [
            (("pung", 0), ("chow", 0), ("pung", 1), ("pung", 2)),
            (("chow", 0), ("pung", 0), ("pung", 1), ("pung", 2)),
            (("chow", 0), ("chow", 0), ("chow", 0), ("chow", 0)),
        ]


@st.composite
def near_whole_suit(draw: st.DrawFn) -> tuple[int, tuple[int, ...]]:
    """A suit (0-2 a number suit, 3 the honours) of up to four sets and a pair, with a tile taken
    away or added at random: shapes that are whole, or one tile from it, are what the tables hold."""
    suit = draw(st.integers(0, 3))
    size = 9 if suit < 3 else 7
    part = [0] * size
    for _ in range(draw(st.integers(0, 4))):
        if suit < 3 and draw(st.booleans()):
            first = draw(st.integers(0, 6))
            for t in (first, first + 1, first + 2):
                part[t] += 1
        else:
            part[draw(st.integers(0, size - 1))] += 3
    if draw(st.booleans()):
        part[draw(st.integers(0, size - 1))] += 2
    change = draw(st.sampled_from([-1, 0, 1]))
    tile = draw(st.integers(0, size - 1))
    if (change < 0 and part[tile]) or change > 0:
        part[tile] += change
    if max(part) > 4:
        part = [min(n, 4) for n in part]
    return suit, tuple(part)


@settings(max_examples=1500)
@given(st.one_of(near_whole_suit(), any_suit()))
def test_a_suit_s_whole_shapes_table_matches_the_search(shape: tuple[int, tuple[int, ...]]) -> None:
    """Whether a suit is whole, and the tiles that complete it, read from the table of whole
    shapes, are what the cut-by-cut search (still used for a suit too large for the table) says."""
    from mahjong_calc.core.suits import SuitShape, _ok_now, _searched_completions

    suit, part = shape
    honour = suit == 3
    shaped = SuitShape(suit, part)
    assert shaped.ok() == _ok_now(list(part), honour)
    if sum(part) < 14:
        assert shaped.completions() == _searched_completions(part, honour)
