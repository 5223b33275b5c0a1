"""Split concealed tiles into a pair plus sets, find waits, place the winning tile.

Everything here works on 34-int count tuples and is memoised on them, so a batch
that sees the same shapes again pays for the search once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from typing import Literal

from .hand import Hand
from .tiles import NUM_TILES, format_tiles, is_honour

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


# The suits never share a set, so a hand splits suit by suit: (first tile, last tile + 1).
_GROUPS = ((0, 9), (9, 18), (18, 27), (27, NUM_TILES))


PUNG_CODE = 0  # a set as one int: kind * 34 + its first tile (pung, chow, kong)
CHOW_CODE = 1
KONG_CODE = 2
_KIND_CODES: dict[str, int] = {"pung": PUNG_CODE, "chow": CHOW_CODE, "kong": KONG_CODE}
CODE_KINDS: tuple[SetKind, ...] = ("pung", "chow", "kong")  # a set code's kind (code // 34)


@lru_cache(maxsize=65536)
def _group_codes(base: int, part: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every way to cut one suit's counts (its first tile is `base`) into pungs and chows, as set codes, in search order."""
    found = _relative_sets(part, base >= 27)
    if base == 0:
        return found
    return tuple(tuple([code + base for code in sets]) for sets in found)


def _code_sets(work: list[int], start: int, end: int, suited: bool) -> list[tuple[int, ...]]:
    """All ways to cut work[start:end] into pungs and chows, as set codes: lowest tile first, pung before chow."""
    i = start
    while i < end and work[i] == 0:
        i += 1
    if i == end:
        return [()]
    found: list[tuple[int, ...]] = []
    if work[i] >= 3:
        work[i] -= 3
        for rest in _code_sets(work, i, end, suited):
            found.append((PUNG_CODE * 34 + i,) + rest)
        work[i] += 3
    if suited and i % 9 <= 6 and work[i + 1] and work[i + 2]:
        work[i] -= 1
        work[i + 1] -= 1
        work[i + 2] -= 1
        for rest in _code_sets(work, i, end, suited):
            found.append((CHOW_CODE * 34 + i,) + rest)
        work[i] += 1
        work[i + 1] += 1
        work[i + 2] += 1
    return found


@lru_cache(maxsize=32768)
def _relative_sets(part: tuple[int, ...], honour: bool) -> tuple[tuple[int, ...], ...]:
    """Every way to cut one suit's counts into pungs and chows, as set codes counted from the
    suit's first tile, in search order (the three suits share these entries)."""
    base = 27 if honour else 0
    work = [0] * NUM_TILES
    for offset, n in enumerate(part):
        work[base + offset] = n
    found = _code_sets(work, base, base + len(part), not honour)
    if not honour:
        return tuple(found)
    return tuple(tuple([code - base for code in sets]) for sets in found)


def _sets_possible(work: list[int], i: int, end: int, suited: bool) -> bool:
    """Whether work[i:end] cuts into pungs and chows at all (the search of `_code_sets`, stopping at the first)."""
    while i < end and work[i] == 0:
        i += 1
    if i == end:
        return True
    if work[i] >= 3:
        work[i] -= 3
        found = _sets_possible(work, i, end, suited)
        work[i] += 3
        if found:
            return True
    if suited and i % 9 <= 6 and i + 2 < end and work[i + 1] and work[i + 2]:
        work[i] -= 1
        work[i + 1] -= 1
        work[i + 2] -= 1
        found = _sets_possible(work, i, end, suited)
        work[i] += 1
        work[i + 1] += 1
        work[i + 2] += 1
        return found
    return False


@lru_cache(maxsize=131072)
def _group_ok(part: tuple[int, ...], honour: bool) -> bool:
    """Whether one suit's counts are sets only (size 3k) or a pair plus sets (size 3k+2)."""
    size = sum(part) % 3
    if size == 1:
        return False
    work = list(part)
    end = len(work)
    if size == 0:
        return _sets_possible(work, 0, end, not honour)
    for i in range(end):
        if work[i] >= 2:
            work[i] -= 2
            found = _sets_possible(work, 0, end, not honour)
            work[i] += 2
            if found:
                return True
    return False




@lru_cache(maxsize=4096)
def split_codes(counts: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every pair + sets split of the concealed tiles (count tuple of 34), each set as its code.

    Splits come pair by pair in tile order, each pair's sets in search order
    (lowest tile first, pung before chow); the work is done per suit and memoised there.
    """
    if sum(counts) % 3 != 2:
        return ()
    parts = [counts[a:b] for a, b in _GROUPS]
    pair_group = -1
    for g in range(4):
        size = sum(parts[g]) % 3
        if size == 1 or (size == 2 and pair_group >= 0):
            return ()
        if size == 2:
            pair_group = g
    lists: list[tuple[tuple[int, ...], ...]] = []
    for g in range(4):
        if g != pair_group:
            found = _group_codes(_GROUPS[g][0], parts[g])
            if not found:
                return ()
            lists.append(found)
        else:
            lists.append(())
    base = _GROUPS[pair_group][0]
    work = list(parts[pair_group])
    out: list[tuple[int, tuple[int, ...]]] = []
    for i in range(len(work)):
        if work[i] < 2:
            continue
        work[i] -= 2
        lists[pair_group] = _group_codes(base, tuple(work))
        work[i] += 2
        for m in lists[0]:
            for p in lists[1]:
                for s in lists[2]:
                    for z in lists[3]:
                        out.append((base + i, m + p + s + z))
    return tuple(out)


@lru_cache(maxsize=4096)
def splits(counts: tuple[int, ...]) -> tuple[Split, ...]:
    """Every pair + sets split of the concealed tiles (count tuple of 34): `split_codes` with
    each set as (kind, first tile), in the same order."""
    return tuple((pair, tuple([(CODE_KINDS[c // 34], c % 34) for c in codes])) for pair, codes in split_codes(counts))


@lru_cache(maxsize=65536)
def _group_completions(part: tuple[int, ...], honour: bool) -> tuple[int, ...]:
    """Tiles of this suit (counted from 0) that, added to `part`, leave it sets only or a pair plus sets."""
    out: list[int] = []
    work = list(part)
    size = len(part)
    for i in range(size):
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
        if _group_ok(tuple(work), honour):
            out.append(i)
        work[i] -= 1
    return tuple(out)


@lru_cache(maxsize=4096)
def waits(counts13: tuple[int, ...], held: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """Tiles that complete `counts13` into pair + sets.

    `held` counts every tile the player holds (melds included); a tile of which all
    four copies are already held cannot be waited on.
    """
    have = held or counts13
    parts = [counts13[a:b] for a, b in _GROUPS]
    sizes = [sum(part) % 3 for part in parts]
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
            if holds and code not in raw[:index]:
                out.append((pair, sets, index))
    return tuple(out)


def code_arrangement(melds: tuple[TileSet, ...], pair: int, codes: tuple[int, ...], win_in: int) -> Arrangement:
    """A kernel's (pair, set codes, win_in) as an Arrangement: concealed sets from their codes, then `melds`."""
    concealed = tuple([_tile_set(CODE_KINDS[c // 34], c % 34) for c in codes[: len(codes) - len(melds)]])
    return Arrangement(pair, concealed + melds, win_in)
