"""How far tiles are from a target shape, one suit at a time (the arithmetic behind 向听).

A target is what a winning hand's concealed part could be: `m` sets (`k` of them pungs,
the rest chows) and `p` pairs in one suit. `group_table` gives, for every (m, p, k), the most
of the held tiles such a target can keep; the tiles it lacks are the ones still to draw.
A target never needs a copy that is not there: `avail` counts the copies of each tile a
target may hold (4 less the melded copies, 0 for a tile the variant lacks), so 1111m cannot
wait on a fifth 1m. `combine` adds the suits' tables up under a variant's constraints.

Everything is plain typed Python on tuples of ints, memoised on counts: the variants'
`shanten.py` modules ask the questions, this module only counts.
"""

from __future__ import annotations

from functools import lru_cache

MAX_SETS = 4
# A table maps (sets, pairs, pungs) to the most tiles kept; sets <= 4, pairs <= 1.
Table = dict[tuple[int, int, int], int]
Entry = tuple[int, int, int, int]  # sets, pairs, pungs, tiles kept


class _Search:
    """One suit's block covers: the limits it searches under and the covers it has found."""

    def __init__(self, n: int, spare: tuple[int, ...], chows: bool, pair_keep: int, max_sets: int, pung_cap: int) -> None:
        self.n = n
        self.spare = spare
        self.chows = chows
        self.pair_keep = pair_keep
        self.max_sets = max_sets
        self.pung_cap = pung_cap
        self.memo: dict[tuple[int, tuple[int, ...], int, int, int], Table] = {}

    def add(self, into: Table, sub: Table, dm: int, dp: int, dk: int, kept: int) -> None:
        """Merge `sub` shifted by one block (dm sets, dp pairs, dk pungs, `kept` held tiles) into `into`."""
        max_sets = self.max_sets
        cap = self.pung_cap
        for key, v in sub.items():
            m2 = key[0] + dm
            p2 = key[1] + dp
            if m2 > max_sets or p2 > 1:
                continue
            k2 = key[2] + dk
            if k2 > cap:
                k2 = cap
            new = (m2, p2, k2)
            v2 = v + kept
            if into.get(new, -1) < v2:
                into[new] = v2

    def rec(self, i: int, cnt: tuple[int, ...], d0: int, d1: int, d2: int) -> Table:
        """Covers of the tiles left in `cnt` from i on; d0-d2: missing copies already asked of i, i+1, i+2."""
        n = self.n
        while i < n and cnt[i] == 0:
            i, d0, d1, d2 = i + 1, d1, d2, 0
        if i == n:
            return {(0, 0, 0): 0}
        key = (i, cnt[i : i + 3], d0, d1, d2)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        spare = self.spare
        out: Table = {}
        c = cnt[i]
        self.add(out, self.rec(i, _minus(cnt, i, 1), d0, d1, d2), 0, 0, 0, 0)  # the tile is not kept
        for used in range(1, min(c, 3) + 1):
            if d0 + 3 - used <= spare[i]:
                self.add(out, self.rec(i, _minus(cnt, i, used), d0 + 3 - used, d1, d2), 1, 0, 1, used)
        for used in range(1, min(c, self.pair_keep) + 1):
            if d0 + 2 - used <= spare[i]:
                self.add(out, self.rec(i, _minus(cnt, i, used), d0 + 2 - used, d1, d2), 0, 1, 0, used)
        if self.chows:
            self.chow_blocks(out, i, cnt, d0, d1, d2)
        self.memo[key] = out
        return out

    def chow_blocks(self, out: Table, i: int, cnt: tuple[int, ...], d0: int, d1: int, d2: int) -> None:
        n = self.n
        spare = self.spare
        if i <= n - 3:
            # a chow from i: i+1 and i+2 kept when held, else asked for
            for take1 in (1, 0) if cnt[i + 1] else (0,):
                if not take1 and d1 + 1 > spare[i + 1]:
                    continue
                for take2 in (1, 0) if cnt[i + 2] else (0,):
                    if not take2 and d2 + 1 > spare[i + 2]:
                        continue
                    work = list(cnt)
                    work[i] -= 1
                    work[i + 1] -= take1
                    work[i + 2] -= take2
                    sub = self.rec(i, tuple(work), d0, d1 + 1 - take1, d2 + 1 - take2)
                    self.add(out, sub, 1, 0, 0, 1 + take1 + take2)
        elif i == n - 2 and spare[n - 3] >= 1:
            # 8 (the lowest tile left): the chow 789, 7 asked for, 9 kept when held
            for take in (1, 0) if cnt[n - 1] else (0,):
                if not take and d1 + 1 > spare[n - 1]:
                    continue
                work = list(cnt)
                work[i] -= 1
                work[n - 1] -= take
                self.add(out, self.rec(i, tuple(work), d0, d1 + 1 - take, d2), 1, 0, 0, 1 + take)
        elif i == n - 1 and spare[n - 3] >= 1 and spare[n - 2] >= 1:
            self.add(out, self.rec(i, _minus(cnt, i, 1), d0, d1, d2), 1, 0, 0, 1)


def _minus(cnt: tuple[int, ...], i: int, used: int) -> tuple[int, ...]:
    work = list(cnt)
    work[i] -= used
    return tuple(work)


@lru_cache(maxsize=65536)
def group_table(part: tuple[int, ...], avail: tuple[int, ...], chows: bool, pair_keep: int = 2,
                max_sets: int = MAX_SETS, pung_cap: int = 0) -> tuple[Entry, ...]:
    """(sets, pairs, pungs, tiles kept) for every target of one suit (or the honours), best first.

    `chows`: whether the group has sequences (suits do, honours do not); `pair_keep`: how many
    held tiles the pair may keep (1 when a wild is to be its other half). Sets and pairs that
    keep no held tile are added where spare tiles allow them (free pungs for the honours,
    counted as pungs everywhere: a variant that wants pungs may have them).
    """
    spare = tuple(a - h for a, h in zip(avail, part))
    found = _Search(len(part), spare, chows, pair_keep, max_sets, pung_cap).rec(0, part, 0, 0, 0)
    # free blocks keep no held tile: a pung needs 3 spare copies of an untouched tile, a pair 2;
    # a suit always has room for a chow, an honour pung and the pair need distinct tiles
    untouched = [s for s, h in zip(spare, part) if h == 0]
    free_pungs = MAX_SETS if chows else sum(1 for s in untouched if s >= 3)
    free_pairs = sum(1 for s in untouched if s >= 2)
    out: Table = {}
    for (m, p, k), kept in found.items():
        for extra in range(0, min(max_sets - m, free_pungs) + 1):
            for pair in range(0, 2 - p):
                if pair and free_pairs - (0 if chows else extra) < 1:
                    continue
                key = (m + extra, p + pair, min(k + extra, pung_cap))
                if out.get(key, -1) < kept:
                    out[key] = kept
    return tuple(sorted(((m, p, k, v) for (m, p, k), v in out.items()), key=lambda e: -e[3]))


@lru_cache(maxsize=65536)
def merged(a: tuple[Entry, ...], b: tuple[Entry, ...], sets: int, pungs: int) -> tuple[Entry, ...]:
    """The targets of two groups together (at most `sets` sets, one pair; pungs counted up to `pungs`)."""
    out: Table = {}
    for m0, p0, k0, v0 in a:
        for m, p, k, v in b:
            m2 = m0 + m
            p2 = p0 + p
            if m2 > sets or p2 > 1:
                continue
            k2 = k0 + k
            key = (m2, p2, k2 if k2 < pungs else pungs)
            v2 = v0 + v
            if out.get(key, -1) < v2:
                out[key] = v2
    return tuple((m, p, k, v) for (m, p, k), v in out.items())


def combine(tables: list[tuple[Entry, ...]], sets: int, pairs: int, pungs: int = 0) -> int:
    """The most held tiles a whole target keeps: `sets` sets and `pairs` pairs over the four
    groups, at least `pungs` of the sets pungs; -1 when no target fits."""
    left = merged(tables[0], tables[1], sets, pungs)
    right = merged(tables[2], tables[3], sets, pungs)
    best = -1
    for m0, p0, k0, v0 in left:
        for m, p, k, v in right:
            if m0 + m == sets and p0 + p == pairs and k0 + k >= pungs and v0 + v > best:
                best = v0 + v
    return best
