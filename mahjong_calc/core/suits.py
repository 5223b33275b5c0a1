"""One suit at a time: the cuts of a suit's counts into sets, whether it is whole, the tiles
that complete it, and from these a hand's splits, arrangements and waits, all in set codes.

A hand splits suit by suit (no set spans two suits), and even a batch of distinct hands
sees the same suits again and again: each distinct suit's counts gets one SuitShape, which
works out each answer when it is first asked for. Plain typed Python over ints and tuples,
so that mypyc can compile it.
"""

from __future__ import annotations

from typing import Final, final

from . import sets
from .counting import tiles_held, tiles_in
from .suit_tables import MAX_TABLED, TILE_BITS, whole_shapes
from .tiles import NUM_TILES

_SUIT_MEMO_LIMIT: Final = 1 << 17  # entries a per-suit table keeps before it starts again (a bound on memory)
_RUNS: Final[tuple[tuple[str, ...], ...]] = tuple([tuple([str(i + 1) * n for n in range(8)]) for i in range(9)])  # [i][n]: n copies of digit i + 1


def _fits(c: list[int], n: int, suited: bool) -> bool:
    """Whether c[0:n], one suit's counts, cuts into pungs and chows. No search: at each tile the
    chows that start there are its count left, mod 3 (three alike chows hold the tiles of three
    pungs), so the cut is found rank by rank."""
    if not suited:
        return all(c[i] in (0, 3) for i in range(n))
    a = b = 0  # the chows that start at the tile before this one (a), and two before (b)
    for i in range(n):
        r = c[i] - a - b
        if r < 0:
            return False
        k = r % 3
        if k and i + 2 >= n:
            return False
        b = a
        a = k
    return True


def _weight(c: list[int]) -> int:
    """The sum of (tile x count) over a suit: a set adds 0 to it mod 3, a pair of tile p 2p."""
    weight = 0
    for i in range(len(c)):
        weight += i * c[i]
    return weight


def _fits_with_pair(c: list[int], n: int, suited: bool, weight: int) -> bool:
    """Whether c[0:n] is a pair plus pungs and chows (c is restored; `weight` is its `_weight`,
    read in a number suit only): there only a pair's tile p with 2p = weight mod 3 can do."""
    for p in range(n):
        if c[p] >= 2 and (not suited or (2 * p - weight) % 3 == 0):
            c[p] -= 2
            ok = _fits(c, n, suited)
            c[p] += 2
            if ok:
                return True
    return False


def _cut_all(c: list[int], i: int, n: int, suited: bool, base: int, prefix: list[int], out: list[tuple[int, ...]]) -> None:
    """Append to `out` every way to cut c[i:n] into pungs and chows, as set codes (tile `base`
    + offset), in the order of a search that takes the lowest tile first, a pung before a chow:
    tile by tile, the sets that start at a tile are one of a few words (pung P, chow C: 1 C;
    2 CC; 3 P or CCC; 4 PC, CP or CCCC), tried in that order. c is restored."""
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        out.append(tuple(prefix))
        return
    r = c[i]
    pung = sets.pung(base + i)
    chow = sets.chow(base + i)
    can_chow = suited and i + 2 < n
    held = len(prefix)
    c[i] = 0
    if r >= 3 and (r == 3 or (can_chow and c[i + 1] and c[i + 2])):  # P, or PC
        prefix.append(pung)
        if r == 4:
            prefix.append(chow)
            c[i + 1] -= 1
            c[i + 2] -= 1
        _cut_all(c, i + 1, n, suited, base, prefix, out)
        if r == 4:
            c[i + 1] += 1
            c[i + 2] += 1
        del prefix[held:]
    if can_chow:
        if r == 4 and c[i + 1] and c[i + 2]:  # CP
            prefix.append(chow)
            prefix.append(pung)
            c[i + 1] -= 1
            c[i + 2] -= 1
            _cut_all(c, i + 1, n, suited, base, prefix, out)
            c[i + 1] += 1
            c[i + 2] += 1
            del prefix[held:]
        if c[i + 1] >= r and c[i + 2] >= r:  # r chows
            for _ in range(r):
                prefix.append(chow)
            c[i + 1] -= r
            c[i + 2] -= r
            _cut_all(c, i + 1, n, suited, base, prefix, out)
            c[i + 1] += r
            c[i + 2] += r
            del prefix[held:]
    c[i] = r


def _cuts(g: int, part: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every way to cut suit g's counts into pungs and chows, as set codes, in search order
    (lowest tile first, pung before chow)."""
    out: list[tuple[int, ...]] = []
    _cut_all(list(part), 0, len(part), g < 3, g * 9, [], out)
    return tuple(out)


def _pair_cuts(g: int, part: tuple[int, ...]) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    """Suit g's counts as a pair plus sets, by a search (for a suit too large for the tables):
    (pair tile, its cuts as `_cuts`) for each pair that leaves sets, in tile order."""
    c = list(part)
    n = len(c)
    suited = g < 3
    weight = _weight(c)
    pairs: list[tuple[int, tuple[tuple[int, ...], ...]]] = []
    for p in range(n):
        if c[p] >= 2 and (not suited or (2 * p - weight) % 3 == 0):  # no other pair leaves sets
            c[p] -= 2
            out: list[tuple[int, ...]] = []
            _cut_all(c, 0, n, suited, g * 9, [], out)
            c[p] += 2
            if out:
                pairs.append((g * 9 + p, tuple(out)))
    return tuple(pairs)


def _ok_now(c: list[int], honour: bool) -> bool:
    """Whether one suit's counts are sets only (size 3k) or a pair plus sets (size 3k+2)."""
    size = tiles_held(c, 0, len(c)) % 3
    if size == 0:
        return _fits(c, len(c), not honour)
    return size == 2 and _fits_with_pair(c, len(c), not honour, 0 if honour else _weight(c))


def _group_completions(part: tuple[int, ...], honour: bool, key: int, held: int) -> tuple[int, ...]:
    """Tiles of this suit (counted from 0) that, added to `part` (whose suit key is `key`, and
    which holds `held` tiles), leave it sets only or a pair plus sets."""
    size = len(part)
    after = (held + 1) % 3  # the suit's size with the tile, mod 3
    if after == 1:
        return ()
    if held >= MAX_TABLED:
        return _searched_completions(part, honour)
    whole = whole_shapes(honour, after == 2)
    out: list[int] = []
    for i in range(size):
        if key + (1 << (TILE_BITS * i)) in whole:
            out.append(i)
    return tuple(out)


def _searched_completions(part: tuple[int, ...], honour: bool) -> tuple[int, ...]:
    """`_group_completions` by a search, for a suit too large for the tables."""
    size = len(part)
    after = (tiles_in(part, 0, size) + 1) % 3
    if after == 1:
        return ()
    out: list[int] = []
    work = list(part)
    weight = 0 if honour else _weight(work)
    for i in range(size):
        if after == 0 and not honour and (weight + i) % 3:
            continue  # sets only: a number suit's weight with the tile must be 0 mod 3
        # only a tile next to (or equal to) a held tile of its suit can complete a set or pair
        near = part[i] > 0
        if not near and not honour:
            for d in (-2, -1, 1, 2):
                if 0 <= i + d < size and part[i + d]:
                    near = True
                    break
        if not near or work[i] >= 4:
            continue
        work[i] += 1
        if _fits(work, size, not honour) if after == 0 else _fits_with_pair(work, size, not honour, weight + i):
            out.append(i)
        work[i] -= 1
    return tuple(out)


@final
class SuitShape:
    """What one suit's counts can be: its size, its cuts (sets only, or pair plus sets), whether
    it is whole, and the tiles that would complete it. One per distinct counts (`_suit`), each
    part worked out when it is first asked for."""

    def __init__(self, g: int, part: tuple[int, ...]) -> None:
        self.group = g
        self.part = part
        size = 0
        key = 0
        for i in range(len(part)):
            size += part[i]
            key |= part[i] << (TILE_BITS * i)
        self.size = size
        self.key = key  # the suit key: three bits a tile
        self._cuts: tuple[tuple[int, ...], ...] | None = None
        self._pairs: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...] | None = None
        self._ok = -1  # -1: not yet known
        self._completions: tuple[int, ...] | None = None
        self._text: str | None = None

    def text(self) -> str:
        """Its tiles as mpsz, lowest first, one suit letter (`11234m`; '' for no tile)."""
        found = self._text
        if found is None:
            part = self.part
            digits = "".join([_RUNS[i][part[i]] for i in range(len(part))])
            found = self._text = digits + "mpsz"[self.group] if digits else ""
        return found

    def cuts(self) -> tuple[tuple[int, ...], ...]:
        """Its cuts into sets only (for a size of 3k)."""
        found = self._cuts
        if found is None:
            if self.size <= MAX_TABLED and self.key not in whole_shapes(self.group == 3, False):
                found = self._cuts = ()  # not whole: nothing to search
            else:
                found = self._cuts = _cuts(self.group, self.part)
        return found

    def pairs(self) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
        """Its cuts into a pair plus sets (for a size of 3k + 2), pair by pair."""
        found = self._pairs
        if found is None:
            if self.size > MAX_TABLED:
                found = self._pairs = _pair_cuts(self.group, self.part)
            elif self.key not in whole_shapes(self.group == 3, True):
                found = self._pairs = ()  # not a pair plus sets: nothing to search
            else:
                found = self._pairs = self._paired()
        return found

    def _paired(self) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
        """`pairs` of a suit the tables hold: each pair whose rest is whole, with the rest's cuts (its
        own SuitShape's, so that a rest is cut once for every suit it is the rest of)."""
        part = self.part
        g = self.group
        sets_only = whole_shapes(g == 3, False)
        out: list[tuple[int, tuple[tuple[int, ...], ...]]] = []
        for p in range(len(part)):
            if part[p] >= 2 and self.key - (2 << (TILE_BITS * p)) in sets_only:
                rest = list(part)
                rest[p] -= 2
                out.append((g * 9 + p, suit_shape(g, tuple(rest)).cuts()))
        return tuple(out)

    def ok(self) -> bool:
        """Whether it is sets only (size 3k) or a pair plus sets (size 3k + 2)."""
        if self._ok < 0:
            size = self.size % 3
            if size == 0 and self._cuts is not None:
                self._ok = 1 if self._cuts else 0
            elif size == 2 and self._pairs is not None:
                self._ok = 1 if self._pairs else 0
            elif self.size <= MAX_TABLED:
                self._ok = 1 if size != 1 and self.key in whole_shapes(self.group == 3, size == 2) else 0
            else:
                self._ok = 1 if _ok_now(list(self.part), self.group == 3) else 0
        return self._ok == 1

    def completions(self) -> tuple[int, ...]:
        """The tiles of the suit (counted from its first) that would leave it `ok`."""
        found = self._completions
        if found is None:
            found = self._completions = _group_completions(self.part, self.group == 3, self.key, self.size)
        return found


_SUITS: Final[tuple[dict[tuple[int, ...], SuitShape], ...]] = ({}, {}, {}, {})


def suit_shape(g: int, part: tuple[int, ...]) -> SuitShape:
    """Suit g's SuitShape for these counts (its first tile first), made once."""
    memo = _SUITS[g]
    found = memo.get(part)
    if found is None:
        if len(memo) > _SUIT_MEMO_LIMIT:
            memo.clear()
        found = memo[part] = SuitShape(g, part)
    return found


def suit_shapes(counts: tuple[int, ...]) -> list[SuitShape]:
    """The SuitShape of each suit of a 34-count tuple (m, p, s, z)."""
    return [suit_shape(0, counts[0:9]), suit_shape(1, counts[9:18]), suit_shape(2, counts[18:27]), suit_shape(3, counts[27:NUM_TILES])]


def _split(suits: list[SuitShape]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """`split_codes` of the hand whose suits these are."""
    pair_group = -1
    for g in range(4):
        size = suits[g].size % 3
        if size == 1 or (size == 2 and pair_group >= 0):
            return ()
        if size == 2:
            pair_group = g
    if pair_group < 0:
        return ()
    lists: list[tuple[tuple[int, ...], ...]] = []
    for g in range(4):
        if g != pair_group:
            found = suits[g].cuts()
            if not found:
                return ()
            lists.append(found)
        else:
            lists.append(())
    out: list[tuple[int, tuple[int, ...]]] = []
    for pair, cuts in suits[pair_group].pairs():
        lists[pair_group] = cuts
        for m in lists[0]:
            for p in lists[1]:
                for s in lists[2]:
                    for z in lists[3]:
                        out.append((pair, m + p + s + z))
    return tuple(out)


def split_codes(counts: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every pair + sets split of the concealed tiles (count tuple of 34), each set as its code.

    Splits come pair by pair in tile order, each pair's sets in search order
    (lowest tile first, pung before chow); the work is done per suit and memoised there.
    """
    return _split(suit_shapes(counts))


def clear_suits() -> None:
    """Forget every memoised suit (to time a cold start)."""
    for memo in _SUITS:
        memo.clear()


def _waits(suits: list[SuitShape], have: tuple[int, ...]) -> tuple[int, ...]:
    """`waits` of the 13 tiles whose suits these are."""
    # With the tile, every suit must be sets only (size 3k) but one, the pair's (3k + 2): so
    # before it, one suit is 3k + 1 and the rest 3k (the tile goes there), or two are 3k + 2
    # and the rest 3k (it goes to either). No other sizes can wait.
    ones = 0
    twos = 0
    for g in range(4):
        size = suits[g].size % 3
        if size == 1:
            ones += 1
        elif size == 2:
            twos += 1
    if not ((ones == 1 and twos == 0) or (ones == 0 and twos == 2)):
        return ()
    out: list[int] = []
    for g in range(4):
        if suits[g].size % 3 == 0:
            continue
        ok = True
        for h in range(4):
            if h != g and not suits[h].ok():
                ok = False
                break
        if ok:
            base = g * 9
            for i in suits[g].completions():
                if have[base + i] < 4:
                    out.append(base + i)
    return tuple(out)


def waits(counts13: tuple[int, ...], held: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """Tiles that complete `counts13` into pair + sets.

    `held` counts every tile the player holds (melds included); a tile of which all
    four copies are already held cannot be waited on.
    """
    return _waits(suit_shapes(counts13), held or counts13)


def _placed(splits: tuple[tuple[int, tuple[int, ...]], ...], melds: tuple[int, ...], win: int) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """Each split with every place the winning tile can sit (`code_arrangements`)."""
    out: list[tuple[int, tuple[int, ...], int]] = []
    for pair, raw in splits:
        arranged = raw + melds
        if pair == win:
            out.append((pair, arranged, -1))
        for index in range(len(raw)):
            code = raw[index]
            if sets.holds(code, win):
                seen = False  # each distinct set once
                for k in range(index):
                    if raw[k] == code:
                        seen = True
                        break
                if not seen:
                    out.append((pair, arranged, index))
    return tuple(out)


def code_arrangements(counts: tuple[int, ...], melds: tuple[int, ...], win: int) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """`arrangements` as (pair, set codes: concealed then melds, win_in), in the same order:
    each split with every place the winning tile can sit (-1: the pair; else the index of a
    concealed set, each distinct set once)."""
    return _placed(split_codes(counts), melds, win)


def arrangements_and_waits(suits: list[SuitShape], melds: tuple[int, ...], win: int,
                           held: tuple[int, ...]) -> tuple[tuple[tuple[int, tuple[int, ...], int], ...], tuple[int, ...]]:
    """`code_arrangements(counts, melds, win)` and, where there are any, the `waits` of the
    tiles before the winning one (`held`: every tile held then, melds included), in one pass
    over the suits (`suit_shapes(counts)`): only the winning tile's suit differs between the two."""
    arrs = _placed(_split(suits), melds, win)
    if not arrs:
        return arrs, ()
    g = 0 if win < 9 else 1 if win < 18 else 2 if win < 27 else 3
    before = list(suits[g].part)
    before[win - g * 9] -= 1
    suits_before = suits.copy()
    suits_before[g] = suit_shape(g, tuple(before))
    return arrs, _waits(suits_before, held)
