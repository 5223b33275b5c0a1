"""Split concealed tiles into a pair plus sets, find waits, place the winning tile.

Everything here works on 34-int count tuples and is memoised on them, so a batch
that sees the same shapes again pays for the search once.
"""

from __future__ import annotations

from collections.abc import Sequence
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
GroupSets = tuple[tuple[tuple[SetKind, int], ...], ...]


@lru_cache(maxsize=32768)
def _relative_sets(part: tuple[int, ...], honour: bool) -> GroupSets:
    """Every way to cut one suit's counts into pungs and chows, tiles counted from 0, in search order."""
    base = 27 if honour else 0
    work = [0] * NUM_TILES
    work[base : base + len(part)] = part
    if honour:
        return tuple(tuple((kind, first - base) for kind, first in sets) for sets in _sets_only(work, base))
    return tuple(_sets_only(work, 0))


def _group_sets(base: int, part: tuple[int, ...]) -> GroupSets:
    """Every way to cut one suit's counts (tiles from `base`) into pungs and chows, in search order."""
    found = _relative_sets(part, base >= 27)
    if base == 0:
        return found
    return tuple(tuple((kind, first + base) for kind, first in sets) for sets in found)


@lru_cache(maxsize=32768)
def _group_ok(part: tuple[int, ...], honour: bool) -> bool:
    """Whether one suit's counts are sets only (size 3k) or a pair plus sets (size 3k+2)."""
    size = sum(part) % 3
    if size == 0:
        return bool(_relative_sets(part, honour))
    if size == 1:
        return False
    work = list(part)
    for i, n in enumerate(part):
        if n >= 2:
            work[i] -= 2
            found = bool(_relative_sets(tuple(work), honour))
            work[i] += 2
            if found:
                return True
    return False


PUNG_CODE = 0  # a set as one int: kind * 34 + its first tile (pung, chow, kong)
CHOW_CODE = 1
KONG_CODE = 2
_KIND_CODES: dict[str, int] = {"pung": PUNG_CODE, "chow": CHOW_CODE, "kong": KONG_CODE}
CODE_KINDS: tuple[SetKind, ...] = ("pung", "chow", "kong")  # a set code's kind (code // 34)


@lru_cache(maxsize=65536)
def _group_codes(base: int, part: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """`_group_sets` with each set as its code (`kind * 34 + first tile`)."""
    return tuple(tuple([_KIND_CODES[kind] * 34 + first for kind, first in sets]) for sets in _group_sets(base, part))


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


@lru_cache(maxsize=16384)
def _group_completions(part: tuple[int, ...], honour: bool) -> tuple[int, ...]:
    """Tiles of this suit (counted from 0) that, added to `part`, leave it sets only or a pair plus sets."""
    out: list[int] = []
    work = list(part)
    for i in range(len(part)):
        if not _near(part, i, honour):
            continue
        work[i] += 1
        if work[i] <= 4 and _group_ok(tuple(work), honour):
            out.append(i)
        work[i] -= 1
    return tuple(out)


@lru_cache(maxsize=4096)
def waits(counts13: tuple[int, ...], held: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """Tiles that complete `counts13` into pair + sets.

    `held` counts every tile the player holds (melds included); a tile of which all
    four copies are already held cannot be waited on.
    """
    held = held or counts13
    parts = [counts13[a:b] for a, b in _GROUPS]
    sizes = [sum(part) % 3 for part in parts]
    out: list[int] = []
    for g, (base, _) in enumerate(_GROUPS):
        # the tile goes to suit g: afterwards exactly one suit may hold the pair
        if sum(1 for h, size in enumerate(sizes) if (size + (h == g)) % 3 == 2) != 1:
            continue
        if not all(_group_ok(parts[h], h == 3) for h in range(4) if h != g):
            continue
        out += [base + i for i in _group_completions(parts[g], g == 3) if held[base + i] < 4]
    return tuple(out)


def _near(part: Sequence[int], i: int, honour: bool) -> bool:
    """Only a tile next to (or equal to) a held tile of its suit can complete a set or pair."""
    if part[i]:
        return True
    if honour:
        return False
    return any(part[i + d] for d in (-2, -1, 1, 2) if 0 <= i + d < len(part))


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


def waits_before_win(hand: Hand) -> tuple[int, ...]:
    """The waits of the 13 tiles that stood before the winning tile arrived."""
    counts = [0] * NUM_TILES
    for t in hand.concealed:
        counts[t] += 1
    counts[hand.win_tile] -= 1
    held = list(hand_counts(hand))
    held[hand.win_tile] -= 1
    return waits(tuple(counts), tuple(held))


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
