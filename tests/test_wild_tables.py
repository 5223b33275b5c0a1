"""The wild tables (core/wilds.py): each suit's cuts looked up by its counts, combined suit by
suit, give exactly the readings of a plain search over the whole hand, in the same order.

The oracle is the search as one recursion over all 34 tiles (the way the scorer once cut
every hand), built on the same rule for which groups may hold a tile (`_groups_with`).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_calc.core.tiles import NUM_TILES, counts_of, parse_tiles
from mahjong_calc.core.wilds import ANY, GROUPS, Group, WildSplit, _groups_with, clear_tables, split_ids, suit_cuts, wild_splits


def _first_nonzero(counts: tuple[int, ...]) -> int:
    for i, n in enumerate(counts):
        if n:
            return i
    return NUM_TILES


def _minus(counts: tuple[int, ...], tiles: tuple[int, ...]) -> tuple[int, ...]:
    work = list(counts)
    for t in tiles:
        work[t] -= 1
    return tuple(work)


def search(counts: tuple[int, ...], jokers: int, need_pair: bool) -> list[tuple[Group, ...]]:
    """Every way to cut the whole hand plus exactly `jokers` jokers into groups, tile by tile."""
    i = _first_nonzero(counts)
    if i == len(counts):
        groups: list[Group] = []
        if need_pair:
            if jokers < 2:
                return []
            groups.append(Group("pair", ANY, (ANY, ANY)))
            jokers -= 2
        if jokers % 3:
            return []
        return [tuple(groups + [Group("pung", ANY, (ANY, ANY, ANY))] * (jokers // 3))]
    out: list[tuple[Group, ...]] = []
    for group, naturals, used in _groups_with(i, counts, jokers, need_pair):
        for rest in search(_minus(counts, naturals), jokers - used, need_pair and group.kind != "pair"):
            out.append((group, *rest))
    return out


def oracle(counts: tuple[int, ...], jokers: int) -> list[WildSplit]:
    """The search's readings, the sets sorted, each kept where it first appears."""
    if (sum(counts) + jokers) % 3 != 2:
        return []
    out: list[WildSplit] = []
    for groups in search(counts, jokers, True):
        pair = next(g for g in groups if g.kind == "pair")
        split = WildSplit(pair, tuple(sorted((g for g in groups if g.kind != "pair"), key=lambda g: (g.first, g.kind, g.wild_faces))))
        if split not in out:
            out.append(split)
    return out


@st.composite
def hands(draw: st.DrawFn) -> tuple[tuple[int, ...], int]:
    """Up to 14 tiles of one to three suits (at most four of each), and 0-4 jokers."""
    jokers = draw(st.integers(0, 4))
    size = draw(st.sampled_from([2, 5, 8, 11, 14])) - jokers
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True))
    counts = [0] * 34
    while sum(counts) < max(size, 0):
        suit = draw(st.sampled_from(suits))
        tile = suit * 9 + draw(st.integers(0, 8 if suit < 3 else 6))
        if counts[tile] < 4:
            counts[tile] += 1
    return tuple(counts), jokers


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(hands())
def test_the_tables_give_the_search_s_readings_in_its_order(hand: tuple[tuple[int, ...], int]) -> None:
    counts, jokers = hand
    assert list(wild_splits(counts, jokers)) == oracle(counts, jokers)


@settings(max_examples=200, deadline=None)
@given(hands(), st.booleans())
def test_a_suit_searched_with_fewer_jokers_gives_the_same_cuts_less_those_that_use_more(hand: tuple[tuple[int, ...], int], cold: bool) -> None:
    counts, jokers = hand
    first = _first_nonzero(counts)
    if first == NUM_TILES:
        return
    lo, hi = (27, NUM_TILES) if first >= 27 else (first // 9 * 9, first // 9 * 9 + 9)
    suit = tuple(n if lo <= t < hi else 0 for t, n in enumerate(counts))
    for need_pair in (True, False):
        every = suit_cuts(suit, jokers, need_pair)
        assert len(set(every)) == len(every)  # each cut once
        for fewer in range(jokers):
            if cold:  # searched afresh, not read from the larger search's states
                clear_tables()
            assert list(suit_cuts(suit, fewer, need_pair)) == [cut for cut in every if cut[2] <= fewer]


def test_a_reading_is_group_ids_and_the_ids_sort_as_the_groups() -> None:
    counts = tuple(counts_of(parse_tiles("111m222p77z8p")))
    readings = split_ids(counts, 2)
    assert [WildSplit(GROUPS[pair], tuple(GROUPS[g] for g in sets)) for pair, sets in readings] == list(wild_splits(counts, 2))
    keys = [(g.first, g.kind, g.wild_faces) for g in GROUPS]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


@pytest.mark.parametrize(("tiles", "jokers"), [
    ("11122223333488m", 0),  # a pung and a chow at one tile, or chows alone; the pair elsewhere
    ("1112223334455m", 1),
    ("22233344455m", 0),
    ("11122233344m77z", 0),
    ("111222333m44455p", 0),
])
def test_a_hand_without_jokers_gives_the_search_s_readings_in_its_order(tiles: str, jokers: int) -> None:
    """A suit with no jokers is cut from its SuitShape (core/suits.py), whose order differs where a
    pair is held: the readings are still the search's, in its order."""
    counts = tuple(counts_of(parse_tiles(tiles)))
    clear_tables()
    assert list(wild_splits(counts, jokers)) == oracle(counts, jokers)
