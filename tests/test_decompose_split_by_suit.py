"""`splits` and `waits` work suit by suit; they must give what a whole-hand search gives, in the same order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_calc.core.shapes import SetKind, splits, waits
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
