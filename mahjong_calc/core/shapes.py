"""Split concealed tiles into a pair plus sets, find waits, place the winning tile.

Everything here works on 34-int count tuples, suit by suit; each suit's cuts and checks
are memoised on its counts, which even a batch of distinct hands sees again and again.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from typing import Literal

from .counting import suit_sizes, tiles_held, tiles_in
from .hand import Hand
from .tiles import NUM_TILES, format_tiles

SetKind = Literal["pung", "kong", "chow"]


@dataclass(frozen=True)
class TileSet:
    """One set of a winning hand: from the concealed tiles, or a declared meld."""

    kind: SetKind
    first: int
    declared: bool = False
    concealed: bool = True

    @cached_property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == "chow":
            return (self.first, self.first + 1, self.first + 2)
        return (self.first,) * (4 if self.kind == "kong" else 3)

    def notation(self) -> str:
        return self._notation

    @cached_property
    def _notation(self) -> str:
        text = format_tiles(self.tiles)
        if not self.declared:
            return text
        return f"[{text}]" if not self.concealed else f"[{text} concealed]"


@cache  # at most 3 kinds x 34 tiles x 2 x 2 flags
def _tile_set(kind: SetKind, first: int, declared: bool = False, concealed: bool = True) -> TileSet:
    """A shared TileSet (they are immutable), so its tiles and notation are worked out once."""
    return TileSet(kind, first, declared, concealed)


@cache  # 34 tiles
def _pair_text(tile: int) -> str:
    return format_tiles((tile, tile))


@dataclass(frozen=True)
class Arrangement:
    """A pair, four sets (concealed first, then melds) and where the winning tile sits."""

    pair: int
    sets: tuple[TileSet, ...]
    win_in: int  # index into `sets`, or -1 when the winning tile completed the pair

    @property
    def win_set(self) -> TileSet | None:
        return None if self.win_in < 0 else self.sets[self.win_in]

    def to_dict(self) -> dict[str, object]:
        win_set = self.win_set
        return {
            "pair": _pair_text(self.pair),
            "sets": [s.notation() for s in self.sets],
            "win_in": "pair" if win_set is None else win_set.notation(),
        }

    def text(self) -> str:
        parts = [_pair_text(self.pair)] + [s.notation() for s in self.sets]
        return " ".join(parts)


Split = tuple[int, tuple[tuple[SetKind, int], ...]]  # (pair tile, ((kind, first tile), ...))


# The suits never share a set, so a hand splits suit by suit: (first tile, last tile + 1).
_GROUPS = ((0, 9), (9, 18), (18, 27), (27, NUM_TILES))


PUNG_CODE = 0  # a set as one int: kind * 34 + its first tile (pung, chow, kong)
CHOW_CODE = 1
KONG_CODE = 2
_KIND_CODES: dict[str, int] = {"pung": PUNG_CODE, "chow": CHOW_CODE, "kong": KONG_CODE}
CODE_KINDS: tuple[SetKind, ...] = ("pung", "chow", "kong")  # a set code's kind (code // 34)


_SUIT_MEMO_LIMIT = 1 << 17  # entries a per-suit table keeps before it starts again (a bound on memory)


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
    pung = PUNG_CODE * 34 + base + i
    chow = CHOW_CODE * 34 + base + i
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


_CUT_MEMO: tuple[dict[tuple[int, ...], tuple[tuple[int, ...], ...]], ...] = ({}, {}, {}, {})
_PAIR_MEMO: tuple[dict[tuple[int, ...], tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]], ...] = ({}, {}, {}, {})


def _group_cuts(g: int, part: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every way to cut suit g's counts into pungs and chows, as set codes, in search order
    (lowest tile first, pung before chow); memoised on the counts."""
    memo = _CUT_MEMO[g]
    found = memo.get(part)
    if found is None:
        if len(memo) > _SUIT_MEMO_LIMIT:
            memo.clear()
        out: list[tuple[int, ...]] = []
        _cut_all(list(part), 0, len(part), g < 3, g * 9, [], out)
        found = tuple(out)
        memo[part] = found
    return found


def _pair_cuts(g: int, part: tuple[int, ...]) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    """Suit g's counts as a pair plus sets: (pair tile, its cuts as `_group_cuts`) for each pair
    that leaves sets, in tile order; memoised on the counts."""
    memo = _PAIR_MEMO[g]
    found = memo.get(part)
    if found is None:
        if len(memo) > _SUIT_MEMO_LIMIT:
            memo.clear()
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
        found = tuple(pairs)
        memo[part] = found
    return found


_OK_MEMO: tuple[dict[tuple[int, ...], bool], dict[tuple[int, ...], bool]] = ({}, {})  # number suits, honours


def _ok_now(c: list[int], honour: bool) -> bool:
    size = tiles_held(c, 0, len(c)) % 3
    if size == 0:
        return _fits(c, len(c), not honour)
    return size == 2 and _fits_with_pair(c, len(c), not honour, 0 if honour else _weight(c))


def _group_ok(part: tuple[int, ...], honour: bool) -> bool:
    """Whether one suit's counts are sets only (size 3k) or a pair plus sets (size 3k+2)."""
    memo = _OK_MEMO[1 if honour else 0]
    found = memo.get(part)
    if found is None:
        if len(memo) > _SUIT_MEMO_LIMIT:
            memo.clear()
        found = _ok_now(list(part), honour)
        memo[part] = found
    return found


def split_codes(counts: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every pair + sets split of the concealed tiles (count tuple of 34), each set as its code.

    Splits come pair by pair in tile order, each pair's sets in search order
    (lowest tile first, pung before chow); the work is done per suit and memoised there.
    """
    sizes = suit_sizes(counts)
    if (sizes[0] + sizes[1] + sizes[2] + sizes[3]) % 3 != 2:
        return ()
    parts = [counts[a:b] for a, b in _GROUPS]
    pair_group = -1
    for g in range(4):
        size = sizes[g] % 3
        if size == 1 or (size == 2 and pair_group >= 0):
            return ()
        if size == 2:
            pair_group = g
    lists: list[tuple[tuple[int, ...], ...]] = []
    for g in range(4):
        if g != pair_group:
            found = _group_cuts(g, parts[g])
            if not found:
                return ()
            lists.append(found)
        else:
            lists.append(())
    out: list[tuple[int, tuple[int, ...]]] = []
    for pair, cuts in _pair_cuts(pair_group, parts[pair_group]):
        lists[pair_group] = cuts
        for m in lists[0]:
            for p in lists[1]:
                for s in lists[2]:
                    for z in lists[3]:
                        out.append((pair, m + p + s + z))
    return tuple(out)


@lru_cache(maxsize=4096)
def splits(counts: tuple[int, ...]) -> tuple[Split, ...]:
    """Every pair + sets split of the concealed tiles (count tuple of 34): `split_codes` with
    each set as (kind, first tile), in the same order."""
    return tuple((pair, tuple([(CODE_KINDS[c // 34], c % 34) for c in codes])) for pair, codes in split_codes(counts))


_COMPLETION_MEMO: tuple[dict[tuple[int, ...], tuple[int, ...]], dict[tuple[int, ...], tuple[int, ...]]] = ({}, {})


def _group_completions(part: tuple[int, ...], honour: bool) -> tuple[int, ...]:
    """Tiles of this suit (counted from 0) that, added to `part`, leave it sets only or a pair plus sets."""
    memo = _COMPLETION_MEMO[1 if honour else 0]
    found = memo.get(part)
    if found is not None:
        return found
    if len(memo) > _SUIT_MEMO_LIMIT:
        memo.clear()
    out: list[int] = []
    work = list(part)
    size = len(part)
    after = (tiles_in(part, 0, size) + 1) % 3  # the suit's size with the tile, mod 3
    if after == 1:
        memo[part] = ()
        return ()
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
    found = tuple(out)
    memo[part] = found
    return found


def clear_tables() -> None:
    """Forget every memoised suit and hand (to time a cold start)."""
    for memos in (_CUT_MEMO, _PAIR_MEMO, _OK_MEMO, _COMPLETION_MEMO):
        for memo in memos:
            memo.clear()
    splits.cache_clear()


def waits(counts13: tuple[int, ...], held: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """Tiles that complete `counts13` into pair + sets.

    `held` counts every tile the player holds (melds included); a tile of which all
    four copies are already held cannot be waited on.
    """
    have = held or counts13
    parts = [counts13[a:b] for a, b in _GROUPS]
    sizes = [size % 3 for size in suit_sizes(counts13)]
    out: list[int] = []
    for g in range(4):
        # the tile goes to suit g: afterwards exactly one suit may hold the pair
        pairs = 0
        for h in range(4):
            if (sizes[h] + (1 if h == g else 0)) % 3 == 2:
                pairs += 1
        if pairs != 1:
            continue
        ok = True
        for h in range(4):
            if h != g and not _group_ok(parts[h], h == 3):
                ok = False
                break
        if ok:
            base = _GROUPS[g][0]
            for i in _group_completions(parts[g], g == 3):
                if have[base + i] < 4:
                    out.append(base + i)
    return tuple(out)


def meld_sets(hand: Hand) -> tuple[TileSet, ...]:
    return tuple(_tile_set(m.kind, m.first, True, m.concealed) for m in hand.melds)


def arrangements(hand: Hand) -> list[Arrangement]:
    """Every (split, winning-tile position) of a standard hand; empty if none."""
    counts = [0] * NUM_TILES
    for t in hand.concealed:
        counts[t] += 1
    melds = meld_sets(hand)
    win = hand.win_tile
    out: list[Arrangement] = []
    for pair, raw in splits(tuple(counts)):
        sets = tuple(_tile_set(kind, first) for kind, first in raw) + melds
        seen: set[TileSet] = set()
        if pair == win:
            out.append(Arrangement(pair, sets, -1))
        for index, s in enumerate(sets[: len(raw)]):
            if win in s.tiles and s not in seen:
                seen.add(s)
                out.append(Arrangement(pair, sets, index))
    return out


def hand_counts(hand: Hand) -> tuple[int, ...]:
    """Counts of every tile the player holds, melds included (kongs count 4)."""
    counts = [0] * NUM_TILES
    for t in hand.all_tiles:
        counts[t] += 1
    return tuple(counts)


# --- the same splits as set codes, for the variants' kernels -------------------------------

def set_code(kind: str, first: int) -> int:
    """A set (or meld) as one int: `kind * 34 + first tile`."""
    return _KIND_CODES[kind] * 34 + first


def kernel_input(hand: Hand) -> tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...]]:
    """A hand as the kernels take it: the concealed tiles' counts, each meld's set code, and
    which melds are concealed kongs."""
    counts = [0] * 34
    for t in hand.concealed:
        counts[t] += 1
    return tuple(counts), tuple([set_code(m.kind, m.first) for m in hand.melds]), tuple([m.concealed for m in hand.melds])


def code_arrangements(counts: tuple[int, ...], melds: tuple[int, ...], win: int) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """`arrangements` as (pair, set codes: concealed then melds, win_in), in the same order:
    each split with every place the winning tile can sit (-1: the pair; else the index of a
    concealed set, each distinct set once)."""
    out: list[tuple[int, tuple[int, ...], int]] = []
    for pair, raw in split_codes(counts):
        sets = raw + melds
        if pair == win:
            out.append((pair, sets, -1))
        for index in range(len(raw)):
            code = raw[index]
            if code >= CHOW_CODE * 34:
                first = code - CHOW_CODE * 34
                holds = first <= win <= first + 2
            else:
                holds = code == win
            if holds and all(raw[k] != code for k in range(index)):  # each distinct set once
                out.append((pair, sets, index))
    return tuple(out)


def code_arrangement(melds: tuple[TileSet, ...], pair: int, codes: tuple[int, ...], win_in: int) -> Arrangement:
    """A kernel's (pair, set codes, win_in) as an Arrangement: concealed sets from their codes, then `melds`."""
    concealed = tuple([_tile_set(CODE_KINDS[c // 34], c % 34) for c in codes[: len(codes) - len(melds)]])
    return Arrangement(pair, concealed + melds, win_in)
