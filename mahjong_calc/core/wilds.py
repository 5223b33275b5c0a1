"""Wild tiles (财神, jokers): every way to read concealed tiles when some are wild.

The core splitter (`shapes.splits`) knows nothing of wilds. Here the wilds are
taken out of the counts and the rest is cut into a pair plus sets with up to `w`
jokers filling gaps: each suit's distinct cuts are computed once per (suit counts, jokers)
and looked up (`_cuts`), a hand's readings combine its suits' (`split_ids`). Each group
records which tile every joker in it stands for, so a scorer can say so and detectors
never recompute it; a group is also a small int (`GROUPS`, `GROUP_ID`) for the kernel.

A joker in a group made of jokers only (two wilds as the pair, three as a pung)
stands for no tile in particular: its face is `ANY` (-1) and the scorer picks one
for display.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, pairwise
from typing import Final, Literal

from .counting import tiles_in
from .tiles import NUM_TILES, is_honour

ANY: Final = -1
GroupKind = Literal["pair", "pung", "chow"]


@dataclass(frozen=True)
class Group:
    """A pair, pung or chow cut from concealed tiles; `wild_faces` are what its jokers stand for."""

    kind: GroupKind
    first: int  # the face of a pair/pung, the lowest tile of a chow; ANY for jokers only
    wild_faces: tuple[int, ...] = ()

    @property
    def wilds(self) -> int:
        return len(self.wild_faces)

    def naturals(self) -> tuple[int, ...]:
        """The faces of the tiles in the group that are not jokers."""
        if self.kind == "chow":
            faces = [self.first, self.first + 1, self.first + 2]
        else:
            faces = [self.first] * (2 if self.kind == "pair" else 3)
        for face in self.wild_faces:
            faces.remove(face)
        return tuple(faces)


@dataclass(frozen=True)
class WildSplit:
    """A pair plus sets of concealed tiles with jokers placed."""

    pair: Group
    sets: tuple[Group, ...]

    @property
    def set_wilds(self) -> int:
        return sum(s.wilds for s in self.sets)


def _groups_with(i: int, counts: tuple[int, ...], jokers: int, need_pair: bool) -> list[tuple[Group, tuple[int, ...], int]]:
    """Every group that holds a natural tile i: (group, naturals used, jokers used)."""
    c = counts[i]
    options: list[tuple[Group, tuple[int, ...], int]] = []
    if need_pair:
        if c >= 2:
            options.append((Group("pair", i), (i, i), 0))
        if jokers >= 1:
            options.append((Group("pair", i, (i,)), (i,), 1))
    for used in range(min(c, 3), 0, -1):
        fill = 3 - used
        if fill <= jokers:
            options.append((Group("pung", i, (i,) * fill), (i,) * used, fill))
    if is_honour(i):
        return options
    pos = i % 9
    for start in (i - 2, i - 1, i):
        if start < i - pos or start % 9 > 6:
            continue
        # tiles below i are jokers (no natural tile lies below i); i is natural;
        # each tile above i is natural if held, or a joker.
        variants: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((), ())]
        for t in (start, start + 1, start + 2):
            grown: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
            for nat, wild in variants:
                if t < i:
                    grown.append((nat, wild + (t,)))
                elif t == i:
                    grown.append((nat + (t,), wild))
                else:
                    if counts[t]:
                        grown.append((nat + (t,), wild))
                    grown.append((nat, wild + (t,)))
            variants = grown
        for nat, wild in variants:
            if len(wild) <= jokers:
                options.append((Group("chow", start, wild), nat, len(wild)))
    return options


def _all_groups() -> list[Group]:
    """Every group `_groups_with` (or the jokers left over) can make, in the order split sets sort in."""
    out = [Group("pair", ANY, (ANY, ANY)), Group("pung", ANY, (ANY, ANY, ANY))]
    for t in range(NUM_TILES):
        out.append(Group("pair", t))
        out.append(Group("pair", t, (t,)))
        for fill in range(3):
            out.append(Group("pung", t, (t,) * fill))
        if not is_honour(t) and t % 9 <= 6:
            for mask in range(8):
                out.append(Group("chow", t, tuple([t + d for d in range(3) if mask >> d & 1])))
    out.sort(key=lambda g: (g.first, g.kind, g.wild_faces))
    return out


# Every group as a small int: its index here, in the order a split's sets are sorted
# (first tile, kind, jokers' faces), so sorting ids sorts the groups.
GROUPS: Final[tuple[Group, ...]] = tuple(_all_groups())
GROUP_ID: Final[dict[Group, int]] = {g: i for i, g in enumerate(GROUPS)}
GROUP_PAIR: Final[tuple[bool, ...]] = tuple([g.kind == "pair" for g in GROUPS])
GROUP_CHOW: Final[tuple[bool, ...]] = tuple([g.kind == "chow" for g in GROUPS])
GROUP_FIRST: Final[tuple[int, ...]] = tuple([g.first for g in GROUPS])
GROUP_WILDS: Final[tuple[int, ...]] = tuple([g.wilds for g in GROUPS])
GROUP_NATURALS: Final[tuple[tuple[int, ...], ...]] = tuple([g.naturals() for g in GROUPS])
GROUP_FACES: Final[tuple[tuple[int, ...], ...]] = tuple([g.wild_faces for g in GROUPS])
_ANY_PAIR: int = GROUP_ID[Group("pair", ANY, (ANY, ANY))]
_ANY_PUNG: int = GROUP_ID[Group("pung", ANY, (ANY, ANY, ANY))]
_SUITS: Final = ((0, 9), (9, 18), (18, 27), (27, NUM_TILES))

Option = tuple[int, tuple[int, ...], int, tuple[tuple[int, int], ...]]  # (group id, naturals, jokers, (tile, copies) needed)


def _option_table() -> tuple[tuple[Option, ...], ...]:
    """`_groups_with` of every tile (with and without the pair still to place) as if every tile
    were held and jokers plenty, each group as its id with the natural tiles it needs: the
    groups a hand may use at tile i are these, in this order, less those it cannot fill."""
    full = tuple([4] * NUM_TILES)
    table: list[tuple[Option, ...]] = []
    for i in range(NUM_TILES):
        for need_pair in (False, True):
            options: list[Option] = []
            for group, naturals, used in _groups_with(i, full, 3, need_pair):
                needs = tuple(sorted((t, naturals.count(t)) for t in set(naturals)))
                options.append((GROUP_ID[group], naturals, used, needs))
            table.append(tuple(options))
    return tuple(table)


_OPTIONS: Final[tuple[tuple[Option, ...], ...]] = _option_table()  # index: tile * 2 + need_pair

SuitCut = tuple[tuple[int, ...], int, int]  # (the sets' group ids sorted, the pair's id or -1, jokers used)


def _option_deltas() -> tuple[tuple[int, ...], ...]:
    """Each option of `_OPTIONS` as the amount its natural tiles take off a suit's key (a
    suit's counts as base-8 digits, its first tile the lowest digit)."""
    table: list[tuple[int, ...]] = []
    for index, options in enumerate(_OPTIONS):
        base = index // 2 // 9 * 9
        table.append(tuple([sum([1 << 3 * (t - base) for t in naturals]) for _, naturals, _, _ in options]))
    return tuple(table)


_DELTAS: Final[tuple[tuple[int, ...], ...]] = _option_deltas()
# `_OPTIONS` with the pair still to place (the search's), field by field, by tile: each option's group id,
# jokers, natural tiles, and the (tile, copies) it needs flattened
_GIDS: Final[tuple[tuple[int, ...], ...]] = tuple([tuple([o[0] for o in _OPTIONS[t * 2 + 1]]) for t in range(NUM_TILES)])
_USED: Final[tuple[tuple[int, ...], ...]] = tuple([tuple([o[2] for o in _OPTIONS[t * 2 + 1]]) for t in range(NUM_TILES)])
_NATURALS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple([tuple([o[1] for o in _OPTIONS[t * 2 + 1]]) for t in range(NUM_TILES)])
_NEEDS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple([tuple([tuple([x for pair in o[3] for x in pair]) for o in _OPTIONS[t * 2 + 1]])
                                                               for t in range(NUM_TILES)])
_MAX_OPTIONS: Final = max([len(options) for options in _OPTIONS])  # the tables' keys hold the first option allowed below this
_MAX_JOKERS: Final = 63  # the tables' keys hold the jokers in six bits
_CUTS: Final[dict[int, tuple[SuitCut, ...]]] = {}  # (suit key, jokers, suit, first option allowed) -> its cuts
_CUTS_LIMIT: Final = 1 << 18  # entries kept before the table starts again (a bound on memory)


def _with(sets: tuple[int, ...], gid: int) -> tuple[int, ...]:
    """`sets` (sorted) with `gid` put in its place."""
    n = len(sets)
    if n == 0 or sets[0] >= gid:
        return (gid,) + sets
    k = 1
    while k < n and sets[k] < gid:
        k += 1
    return sets[:k] + (gid,) + sets[k:]


def _cuts(work: list[int], key: int, i: int, end: int, suit: int, jokers: int, least: int) -> tuple[SuitCut, ...]:
    """One suit's distinct cuts with at most `jokers` jokers, the pair in it or not: `work` holds
    the suit's tiles from `i` to `end` (restored on return), `key` their counts as base-8
    digits. The search takes the lowest tile first, its groups in `_groups_with`'s order
    (through `_OPTIONS`); a state's cuts are memoised.

    Each cut is made once: the groups that hold the same lowest tile are taken in the order of
    their options (`least`: the first option still allowed at tile `i`, if tile `i` is still
    held), so that of a cut's orders only the first in the search is followed. The cuts
    therefore come in the order in which they first appear among every order of the groups.

    Why one list serves every caller: with fewer jokers, or with the pair placed already, the
    search skips options and keeps the same order for the rest, so its cuts are this list's
    cuts that use no more jokers and hold no pair, in this order (callers skip the others)."""
    if least and work[i] == 0:
        least = 0
    memo = ((key * (_MAX_JOKERS + 1) + jokers) * 4 + suit) * _MAX_OPTIONS + least
    found = _CUTS.get(memo)
    if found is not None:
        return found
    while i < end and work[i] == 0:
        i += 1
    if i == end:
        found = (((), -1, 0),)
        _CUTS[memo] = found
        return found
    out: list[SuitCut] = []
    gids = _GIDS[i]
    useds = _USED[i]
    naturals_of = _NATURALS[i]
    needs_of = _NEEDS[i]
    deltas = _DELTAS[i * 2 + 1]
    for o in range(least, len(gids)):
        used = useds[o]
        if used > jokers:
            continue
        needs = needs_of[o]
        held = True
        for k in range(0, len(needs), 2):
            if work[needs[k]] < needs[k + 1]:
                held = False
                break
        if not held:
            continue
        gid = gids[o]
        naturals = naturals_of[o]
        for t in naturals:
            work[t] = work[t] - 1
        rest = _cuts(work, key - deltas[o], i, end, suit, jokers - used, o)
        for t in naturals:
            work[t] = work[t] + 1
        if GROUP_PAIR[gid]:
            for sets, pair, more in rest:
                if pair < 0:
                    out.append((sets, gid, used + more))
        else:
            for sets, pair, more in rest:
                out.append((_with(sets, gid), pair, used + more))
    found = tuple(out)
    _CUTS[memo] = found
    return found


def _suit_key(counts: tuple[int, ...], a: int, b: int) -> int:
    """Tiles a to b of `counts` as base-8 digits (a the lowest); ValueError past 7 copies."""
    key = 0
    for t in range(b - 1, a - 1, -1):
        n = counts[t]
        if not 0 <= n <= 7:
            raise ValueError(f"{n} copies of a tile")
        key = key << 3 | n
    return key


def suit_cuts(counts: tuple[int, ...], jokers: int, need_pair: bool) -> tuple[SuitCut, ...]:
    """One suit's distinct cuts (`counts`: 34 counts, the other suits 0; each cut kept where it
    first appears in the search): its sets' group ids sorted, the pair's id (-1: not in this
    suit) and the jokers used."""
    if jokers > _MAX_JOKERS:
        raise ValueError(f"at most {_MAX_JOKERS} jokers")
    for suit in range(4):
        a, b = _SUITS[suit]
        if any(counts[a:b]):
            every = _cuts(list(counts), _suit_key(counts, a, b), a, b, suit, jokers, 0)
            return tuple([cut for cut in every if need_pair or cut[1] < 0])
    return (((), -1, 0),)


def clear_tables() -> None:
    """Forget every memoised cut and reading (to time a cold start)."""
    _CUTS.clear()
    wild_splits.cache_clear()


def _combine(work: list[int], parts: list[tuple[int, int, int, int]], g: int, left: int, pair: int, sets: tuple[int, ...],
             out: list[tuple[int, tuple[int, ...]]]) -> None:
    """Suit `parts[g]`'s cuts (its key, first tile, end, suit) with at most the `left` jokers and
    the pair if none yet, each followed by the later suits' (the search order of the whole
    hand); at the end, the jokers left make the pair (if none yet) and pungs of jokers only.
    A suit is searched with the jokers left, not the hand's: that search is smaller, and its
    cuts are the same, in the same order, less those that use more.

    A hand's reading is its suits' cuts (groups of different suits never share an id, and
    group ids sort by first tile, jokers-only groups first), so distinct combinations are
    distinct readings and their sets, concatenated, are sorted."""
    if g == len(parts):
        if pair < 0:
            if left < 2:
                return
            pair = _ANY_PAIR
            left -= 2
        if left % 3:
            return
        out.append((pair, (_ANY_PUNG,) * (left // 3) + sets if left else sets))
        return
    key, a, b, suit = parts[g]
    last = g + 1 == len(parts)  # the last suit's readings are finished here, not one call each
    for cut, here, used in _cuts(work, key, a, b, suit, left, 0):
        now = pair
        if here >= 0:
            if pair >= 0:
                continue
            now = here
        rest = left - used
        if not last:
            _combine(work, parts, g + 1, rest, now, sets + cut, out)
            continue
        if now < 0:
            if rest < 2:
                continue
            now = _ANY_PAIR
            rest -= 2
        if rest % 3:
            continue
        whole = sets + cut
        out.append((now, (_ANY_PUNG,) * (rest // 3) + whole if rest else whole))


def split_ids(counts: tuple[int, ...], jokers: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every pair + sets reading of `counts` (34 counts, no wilds) with `jokers` wilds, deduplicated,
    as (pair's group id, sets' group ids sorted): suit by suit from the memoised cuts."""
    if (tiles_in(counts, 0, NUM_TILES) + jokers) % 3 != 2:
        return ()
    if jokers > _MAX_JOKERS:
        raise ValueError(f"at most {_MAX_JOKERS} jokers")
    if len(_CUTS) > _CUTS_LIMIT:
        _CUTS.clear()
    parts: list[tuple[int, int, int, int]] = []  # the suits that hold tiles (an empty one adds nothing)
    for suit in range(4):
        a, b = _SUITS[suit]
        key = _suit_key(counts, a, b)
        if key:
            parts.append((key, a, b, suit))
    out: list[tuple[int, tuple[int, ...]]] = []
    _combine(list(counts), parts, 0, jokers, -1, (), out)
    return tuple(out)


@lru_cache(maxsize=65536)
def wild_splits(counts: tuple[int, ...], jokers: int) -> tuple[WildSplit, ...]:
    """Every pair + sets reading of `counts` (34 counts, no wilds) with `jokers` wilds, deduplicated."""
    return tuple(WildSplit(GROUPS[pair], tuple([GROUPS[gid] for gid in sets])) for pair, sets in split_ids(counts, jokers))


def seven_pairs(counts: tuple[int, ...], jokers: int, four_as_two: bool) -> tuple[tuple[int, int], ...] | None:
    """七对 with jokers: seven (face, jokers in it) pairs, or None. Jokers-only pairs have face ANY."""
    held = 0
    odd = 0
    for n in counts:  # most hands are not 七对: told from the counts before a pair is made
        if n > 2 and not four_as_two:
            return None
        held += n
        odd += n & 1
    if held + jokers != 14 or odd > jokers or (jokers - odd) % 2:
        return None
    pairs: list[tuple[int, int]] = []
    for face in range(len(counts)):
        n = counts[face]
        for _ in range(n // 2):
            pairs.append((face, 0))
        if n % 2:
            pairs.append((face, 1))
    for _ in range((jokers - odd) // 2):
        pairs.append((ANY, 2))
    return tuple(pairs)


THIRTEEN_GROUPS: Final = ((0, 3, 6), (1, 4, 7), (2, 5, 8))  # 147, 258, 369 as offsets in a suit


def _wide(numbers: list[int]) -> bool:
    """Each two of a suit's tiles at least three apart (间隔两张: two tiles between)."""
    return all(b - a >= 3 for a, b in pairwise(numbers))


def thirteen(counts: tuple[int, ...], jokers: int, wide_gaps: bool = False) -> tuple[int, tuple[int, ...]] | None:
    """真13-shaped tiles: (number of honours, faces the jokers take), or None.

    Every tile differs; each suit's tiles lie in one of 147/258/369 (or, with
    `wide_gaps`, are at least three apart); jokers fill missing suited tiles only
    (never honours). Filling 147/258/369 is tried first, lowest gaps first, so a
    hand that can be 真真13 is read so.
    """
    tiles = 0
    for n in counts:
        if n > 1:
            return None
        tiles += n
    if tiles + jokers != 14:
        return None
    honours = sum(counts[27:])
    free: list[int] = []
    standard = True
    for suit in range(3):
        held = [o for o in range(9) if counts[suit * 9 + o]]
        group = next((g for g in THIRTEEN_GROUPS if set(held) <= set(g)), None)
        if group is None:
            standard = False
            break
        free += [suit * 9 + o for o in group if not counts[suit * 9 + o]]
    if standard and len(free) >= jokers:
        return honours, tuple(sorted(free)[:jokers])
    if not wide_gaps:
        return None
    suits = [[o for o in range(9) if counts[s * 9 + o]] for s in range(3)]
    if not all(_wide(held) for held in suits):
        return None
    empty = [t for t in range(27) if not counts[t]]
    for faces in combinations(empty, jokers):  # lowest first
        if all(_wide(sorted(suits[s] + [t % 9 for t in faces if t // 9 == s])) for s in range(3)):
            return honours, faces
    return None
