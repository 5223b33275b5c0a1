"""`advise`'s shanten and 有效牌 against an exhaustive search that asks only the scorer.

For 13 tiles: 听牌 (shanten 0) when some tile drawn wins by self-draw; shanten 1 when some
replaced tile and some drawn tile win; otherwise at least 2. The 有效牌 of a shanten-0 row
are the tiles that win; of a shanten-1 row, the tiles after which some discard is 听牌.
Hands are seeded random ones of every variant, with and without melds and wilds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from functools import cache

import pytest

from mahjong_calc.api import resolve_ruleset
from mahjong_calc.api.advise import advise_of
from mahjong_calc.api.score import score
from mahjong_calc.core import sets as set_codes
from mahjong_calc.core.context import WinContext
from mahjong_calc.core.errors import MjcalcError
from mahjong_calc.core.hand import Meld, hand_of_tiles, make_context, meld_of
from mahjong_calc.core.shapes import splits
from mahjong_calc.core.tiles import NUM_TILES, format_tiles, is_honour, tile_str
from mahjong_calc.core.wilds import seven_pairs, thirteen, wild_splits
from mahjong_calc.rules.schema import tile_in_variant

pytestmark = pytest.mark.slow  # long: `pytest -m "not slow"` leaves it out (README)

Counts = tuple[int, ...]


class Oracle:
    """Whether tiles win, asked of `score` alone (a shape test first only skips hopeless calls)."""

    def __init__(self, variant: str, melds: tuple[Meld, ...], wild: int | None) -> None:
        self.rs = resolve_ruleset(variant)
        self.melds = melds
        self.ctx = replace(make_context(**({"wild": tile_str(wild)} if wild is not None else {})), self_draw=True)
        self.wild = wild
        self.tiles = [t for t in range(NUM_TILES) if tile_in_variant(t, self.rs.tiles)]
        self.melded = [0] * NUM_TILES
        for m in melds:
            for t in m.tiles:
                self.melded[t] += 1
        if wild is not None:
            self.melded[wild] += 1
        self.wins: Callable[[Counts, int], bool] = cache(self._wins)
        self.tenpai: Callable[[Counts], bool] = cache(self._tenpai)

    def drawable(self, counts: Counts, t: int) -> bool:
        return counts[t] + self.melded[t] < 4

    def _could(self, counts: Counts) -> bool:
        if self.rs.scorer != "pujiang":
            return bool(splits(counts))
        jokers = counts[self.wild] if self.wild is not None else 0
        faces = list(counts)
        if self.wild is None:
            return bool(splits(counts)) or (not self.melds and (seven_pairs(counts, 0, True) or thirteen(counts, 0, True)))
        faces[self.wild] = 0
        if jokers >= 3:
            return True
        for k in range(faces[31] + 1):  # 白板 as the wild's face
            work = list(faces)
            work[31] -= k
            work[self.wild] += k
            ft = tuple(work)
            if wild_splits(ft, jokers) or (not self.melds and (seven_pairs(ft, jokers, True) or thirteen(ft, jokers, True))):
                return True
        return False

    def _wins(self, counts: Counts, last: int) -> bool:
        if not self._could(counts):
            return False
        concealed = tuple(t for t in range(NUM_TILES) for _ in range(counts[t]))
        try:
            score(hand_of_tiles(concealed, self.melds, last), self.ctx, self.rs)
        except MjcalcError:
            return False
        return True

    def winning_draws(self, counts: Counts) -> set[int]:
        out = set()
        for t in self.tiles:
            if self.drawable(counts, t):
                work = list(counts)
                work[t] += 1
                if self.wins(tuple(work), t):
                    out.add(t)
        return out

    def _tenpai(self, counts: Counts) -> bool:
        return bool(self.winning_draws(counts))

    def one_away(self, counts: Counts) -> set[int]:
        """Draws after which some discard leaves 听牌."""
        out = set()
        for t in self.tiles:
            if not self.drawable(counts, t):
                continue
            work = list(counts)
            work[t] += 1
            for d in range(NUM_TILES):
                if work[d]:
                    work[d] -= 1
                    if self.tenpai(tuple(work)):
                        out.add(t)
                        work[d] += 1
                        break
                    work[d] += 1
        return out

    def shanten(self, counts: Counts) -> int:
        """0, 1, or 2 meaning at least 2."""
        if self.tenpai(counts):
            return 0
        return 1 if self.one_away(counts) else 2


def _sets(rng: random.Random, oracle: Oracle, n: int) -> list[int]:
    """n random sets (pungs, chows where the variant's concealed tiles allow them) and a pair."""
    tiles = oracle.tiles
    out: list[int] = []
    for _ in range(n):
        first = rng.choice(tiles)
        if not is_honour(first) and first % 9 <= 6 and rng.random() < 0.5:
            out += [first, first + 1, first + 2]
        else:
            out += [first] * 3
    out += [rng.choice(tiles)] * 2
    return out


def random_hand(rng: random.Random, variant: str, with_meld: bool | str, wild: int | None) -> tuple[list[int], tuple[Meld, ...]]:
    """A legal 14-tile hand: near a win (one to three tiles replaced) or plain random.

    `with_meld`: one meld; "wild_pung", the 财神's own tile melded as a pung (no wild may be held
    then); "chow_restricted", a Chizhou chow, a meld of another suit and often a third meld."""
    rs = resolve_ruleset(variant)
    tiles = [t for t in range(NUM_TILES) if tile_in_variant(t, rs.tiles)]
    while True:
        melds: tuple[Meld, ...] = ()
        if with_meld == "wild_pung" and wild is not None:
            melds = (meld_of(set_codes.pung(wild)),)
        elif with_meld == "chow_restricted":
            suit, other = rng.sample(range(3), 2)
            first, start = suit * 9 + rng.randrange(7), other * 9 + rng.randrange(7)
            melds = (meld_of(set_codes.chow(first)), meld_of(set_codes.chow(start)) if rng.random() < 0.5 else meld_of(set_codes.pung(start)))
            if rng.random() < 0.6:
                third = rng.choice(tiles)
                melds += (meld_of(set_codes.pung(third)),)
        elif with_meld:
            first = rng.choice(tiles)
            if variant == "chizhou" and not is_honour(first) and first % 9 <= 6 and rng.random() < 0.5:
                melds = (meld_of(set_codes.chow(first)),)
            else:
                melds = (meld_of(set_codes.pung(first)),)
        size = 14 - 3 * len(melds)
        oracle_tiles = Oracle.__new__(Oracle)
        oracle_tiles.tiles = tiles
        if rng.random() < 0.7:
            hand = _sets(rng, oracle_tiles, (size - 2) // 3)
            for _ in range(rng.randint(1, 3)):
                hand[rng.randrange(size)] = rng.choice(tiles)
        else:
            hand = [rng.choice(tiles) for _ in range(size)]
        if wild is not None and with_meld != "wild_pung" and rng.random() < 0.6:
            for _ in range(rng.randint(1, 2)):
                hand[rng.randrange(size)] = wild
        counts = [0] * NUM_TILES
        for t in hand + [t for m in melds for t in m.tiles] + ([wild] if wild is not None else []):
            counts[t] += 1
        if max(counts) <= 4:
            rng.shuffle(hand)
            return hand, melds


CASES = [
    ("wuhu315", False, None),
    ("wuhu315", True, None),
    ("chizhou", False, None),
    ("chizhou", True, None),
    ("pujiang", False, None),
    ("pujiang", True, None),
    ("pujiang", False, 5),  # 6m is the 财神
    ("pujiang", True, 31),  # 白板 itself the 财神
    ("pujiang", False, 27),
    ("pujiang", "wild_pung", 5),  # 6m the 财神, melded as a pung
    ("pujiang", "wild_pung", 33),
    ("chizhou", "chow_restricted", None),
]
HANDS = 12  # per case: each checks two rows (the best and one other)


@pytest.mark.parametrize(("variant", "with_meld", "wild"), CASES)
def test_shanten_and_ukeire_agree_with_the_exhaustive_search(variant: str, with_meld: bool | str, wild: int | None) -> None:
    rng = random.Random(f"{variant}-{with_meld}-{wild}")
    for _ in range(HANDS):
        hand, melds = random_hand(rng, variant, with_meld, wild)
        oracle = Oracle(variant, melds, wild)
        ctx: WinContext = oracle.ctx
        advice = advise_of(hand, melds, replace(ctx, self_draw=False), oracle.rs)
        rows = [advice.rows[0], rng.choice(advice.rows[1:] or advice.rows)]
        for row in rows:
            counts = [0] * NUM_TILES
            for t in hand:
                counts[t] += 1
            counts[row.tile] -= 1
            c13 = tuple(counts)
            where = f"{variant} {format_tiles(sorted(hand))} melds {[m.notation() for m in melds]} wild {wild} discard {row.tile}"
            truth = oracle.shanten(c13)
            assert (2 if row.shanten is None else min(row.shanten, 2)) == truth, where  # None: out of reach
            if truth == 0:
                assert {t for t, _ in row.ukeire} == oracle.winning_draws(c13), where
            elif truth == 1:
                assert {t for t, _ in row.ukeire} == oracle.one_away(c13), where


def standard_shanten(counts: list[int]) -> int:
    """The classic regular-hand shanten (8 − 2·sets − partial sets − pair), by search."""
    best = 8

    def go(i: int, sets: int, partial: int, pair: int) -> None:
        nonlocal best
        while i < NUM_TILES and counts[i] == 0:
            i += 1
        if i == NUM_TILES:
            best = min(best, 8 - 2 * sets - min(partial, 4 - sets) - pair)
            return
        suited = not is_honour(i)
        pos = i % 9
        if counts[i] >= 3:
            counts[i] -= 3
            go(i, sets + 1, partial, pair)
            counts[i] += 3
        if suited and pos <= 6 and counts[i + 1] and counts[i + 2]:
            for j in (i, i + 1, i + 2):
                counts[j] -= 1
            go(i, sets + 1, partial, pair)
            for j in (i, i + 1, i + 2):
                counts[j] += 1
        if counts[i] >= 2:
            counts[i] -= 2
            if not pair:
                go(i, sets, partial, 1)
            go(i, sets, partial + 1, pair)
            counts[i] += 2
        for step in (1, 2):
            if suited and pos + step <= 8 and counts[i + step]:
                counts[i] -= 1
                counts[i + step] -= 1
                go(i, sets, partial + 1, pair)
                counts[i] += 1
                counts[i + step] += 1
        counts[i] -= 1
        go(i, sets, partial, pair)
        counts[i] += 1

    go(0, 0, 0, 0)
    return best


def test_wuhu_hands_holding_ba_zhi_have_the_standard_shanten() -> None:
    rng = random.Random("ba-zhi")
    rs = resolve_ruleset("wuhu315")
    tiles = [t for t in range(NUM_TILES) if tile_in_variant(t, rs.tiles)]
    checked = 0
    while checked < 40:
        suit = rng.randrange(3)
        hand = [suit * 9 + rng.randrange(9) for _ in range(11)] + [rng.choice(tiles) for _ in range(3)]
        counts = [0] * NUM_TILES
        for t in hand:
            counts[t] += 1
        if max(counts) > 3:  # the classic count knows nothing of a fifth copy
            continue
        advice = advise_of(hand, (), make_context(), rs)
        for row in advice.rows:
            counts[row.tile] -= 1
            assert row.shanten == standard_shanten(counts), (format_tiles(sorted(hand)), row.tile)
            counts[row.tile] += 1
        checked += 1

