"""How far tiles are from a target shape, one suit at a time (the arithmetic behind 向听).

A target is what a winning hand's concealed part could be: `m` sets (`k` of them pungs,
the rest chows) and `p` pairs in one suit. `group_table` gives, for every (m, p, k), the most
of the held tiles such a target can keep; the tiles it lacks are the ones still to draw.
A drawn tile lowers the distance of a target shape exactly when some best target lacks it, so
each entry also says which tiles its best targets lack (the 有效牌 need no second search).
A target never needs a copy that is not there: `avail` counts the copies of each tile a
target may hold (4 less the melded copies, 0 for a tile the variant lacks), so 1111m cannot
wait on a fifth 1m. `combine` adds the suits' tables up under a variant's constraints.

Everything is plain typed Python on tuples of ints, memoised on counts: the variants'
`goals.py` and `plan.py` modules ask the questions, this module only counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

MAX_SETS: Final = 4
# A table maps (sets, pairs, pungs) to the most tiles kept and the tiles (bit i: the group's
# tile i) that some target keeping that many lacks; sets <= 4, pairs <= 1, pungs <= 4. Both are
# packed in ints, no tuple made per cover: the key as sets << 4 | pairs << 3 | pungs, the value
# as kept << KEPT | lacking (a group has at most 9 tiles).
Table = dict[int, int]
KEPT: Final = 12
LACKING: Final = (1 << KEPT) - 1
Entry = tuple[int, int, int, int, int]  # sets, pairs, pungs, tiles kept, lacking tiles


@dataclass(eq=False)
class _Search:
    """One suit's block covers: the limits it searches under (`n` tiles, the `spare` copies) and
    the covers it has found."""

    n: int
    spare: tuple[int, ...]
    chows: bool
    pair_keep: int
    max_sets: int
    pung_cap: int
    memo: dict[tuple[int, tuple[int, ...], int, int, int], Table] = field(default_factory=dict)

    def add(self, into: Table, sub: Table, dm: int, dp: int, dk: int, kept: int, lacks: int) -> None:
        """Merge `sub` shifted by one block (dm sets, dp pairs, dk pungs, `kept` held tiles,
        `lacks` the tiles it lacks) into `into`."""
        max_sets = self.max_sets
        cap = self.pung_cap
        shift = kept << KEPT
        for key, c in sub.items():
            m2 = (key >> 4) + dm
            p2 = (key >> 3 & 1) + dp
            if m2 > max_sets or p2 > 1:
                continue
            k2 = (key & 7) + dk
            if k2 > cap:
                k2 = cap
            new = m2 << 4 | p2 << 3 | k2
            c2 = (c + shift) | lacks
            old = into.get(new)
            if old is None or old >> KEPT < c2 >> KEPT:
                into[new] = c2
            elif old >> KEPT == c2 >> KEPT:
                into[new] = old | c2

    def rec(self, i: int, cnt: tuple[int, ...], d0: int, d1: int, d2: int) -> Table:
        """Covers of the tiles left in `cnt` from i on; d0-d2: missing copies already asked of i, i+1, i+2."""
        n = self.n
        while i < n and cnt[i] == 0:
            i, d0, d1, d2 = i + 1, d1, d2, 0
        if i == n:
            return {0: 0}
        key = (i, cnt[i : i + 3], d0, d1, d2)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        spare = self.spare
        out: Table = {}
        c = cnt[i]
        self.add(out, self.rec(i, _minus(cnt, i, 1), d0, d1, d2), 0, 0, 0, 0, 0)  # the tile is not kept
        bit = 1 << i
        for used in range(1, min(c, 3) + 1):
            if d0 + 3 - used <= spare[i]:
                self.add(out, self.rec(i, _minus(cnt, i, used), d0 + 3 - used, d1, d2), 1, 0, 1, used, bit if used < 3 else 0)
        for used in range(1, min(c, self.pair_keep) + 1):
            if d0 + self.pair_keep - used <= spare[i]:  # a wild, not a copy, is the other half of a pair keeping 1
                # a pair keeping `pair_keep` held tiles lacks nothing that a draw could bring (a wild is its other half)
                self.add(out, self.rec(i, _minus(cnt, i, used), d0 + 2 - used, d1, d2), 0, 1, 0, used, bit if used < self.pair_keep else 0)
        if self.chows:
            self.chow_blocks(out, i, cnt, d0, d1, d2)
        self.memo[key] = out
        return out

    def chow_blocks(self, out: Table, i: int, cnt: tuple[int, ...], d0: int, d1: int, d2: int) -> None:
        """Every chow holding tile i, the lowest tile left: tiles below i lacking, tiles above kept
        when held (or lacking). Where it starts changes only what it lacks, not what it keeps."""
        n = self.n
        spare = self.spare
        for start in (i - 2, i - 1, i):
            if start < 0 or start > n - 3 or any(spare[j] < 1 for j in range(start, i)):
                continue
            below = sum(1 << j for j in range(start, i))
            ups = [j for j in (i + 1, i + 2) if j <= start + 2]
            for take in range(1 << len(ups)):
                work = list(cnt)
                work[i] -= 1
                lacks = below
                kept = 1
                e1, e2 = d1, d2
                ok = True
                for bit, j in enumerate(ups):
                    if take >> bit & 1:
                        if not cnt[j]:
                            ok = False
                            break
                        work[j] -= 1
                        kept += 1
                    else:
                        lacks |= 1 << j
                        if j == i + 1:
                            e1 += 1
                            ok = e1 <= spare[j]
                        else:
                            e2 += 1
                            ok = e2 <= spare[j]
                        if not ok:
                            break
                if ok:
                    self.add(out, self.rec(i, tuple(work), d0, e1, e2), 1, 0, 0, kept, lacks)


def _minus(cnt: tuple[int, ...], i: int, used: int) -> tuple[int, ...]:
    work = list(cnt)
    work[i] -= used
    return tuple(work)


@lru_cache(maxsize=65536)
def group_table(part: tuple[int, ...], avail: tuple[int, ...], chows: bool, pair_keep: int = 2,
                max_sets: int = MAX_SETS, pung_cap: int = 0) -> tuple[Entry, ...]:
    """(sets, pairs, pungs, tiles kept, tiles lacking) for every target of one suit (or the
    honours), best first: `tiles lacking` has bit i set when some target keeping that many
    lacks the group's tile i.

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
    free_pairs = sum(1 for s in untouched if s >= pair_keep)
    # what free blocks lack: any tile with a spare copy (a chow), or an untouched honour (a pung)
    set_lacks = sum(1 << i for i, (s, h) in enumerate(zip(spare, part)) if s >= 1 and (chows or (h == 0 and s >= 3)))
    pair_lacks = sum(1 << i for i, (s, h) in enumerate(zip(spare, part)) if h == 0 and s >= pair_keep)
    out: dict[tuple[int, int, int], tuple[int, int]] = {}
    for code, c in found.items():
        m, p, k = code >> 4, code >> 3 & 1, code & 7
        kept, mask = c >> KEPT, c & LACKING
        for extra in range(0, min(max_sets - m, free_pungs) + 1):
            for pair in range(0, 2 - p):
                if pair and free_pairs - (0 if chows else extra) < 1:
                    continue
                key = (m + extra, p + pair, min(k + extra, pung_cap))
                lacks = mask | (set_lacks if extra else 0) | (pair_lacks if pair else 0)
                old = out.get(key)
                if old is None or old[0] < kept:
                    out[key] = (kept, lacks)
                elif old[0] == kept:
                    out[key] = (kept, old[1] | lacks)
    return tuple(sorted(((m, p, k, v, mask) for (m, p, k), (v, mask) in out.items()), key=lambda e: -e[3]))


@lru_cache(maxsize=65536)
def merged(a: tuple[Entry, ...], b: tuple[Entry, ...], sets: int, pungs: int) -> tuple[Entry, ...]:
    """The targets of two groups together (at most `sets` sets, one pair; pungs counted up to
    `pungs`); the lacking tiles are not kept (0). Keys packed as in `Table`."""
    out: dict[int, int] = {}
    for e0 in a:
        m0, p0, k0, v0 = e0[0], e0[1], e0[2], e0[3]
        for e in b:
            m2 = m0 + e[0]
            p2 = p0 + e[1]
            if m2 > sets or p2 > 1:
                continue
            k2 = k0 + e[2]
            key = m2 << 4 | p2 << 3 | (k2 if k2 < pungs else pungs)
            v2 = v0 + e[3]
            if out.get(key, -1) < v2:
                out[key] = v2
    return tuple((key >> 4, key >> 3 & 1, key & 7, v, 0) for key, v in out.items())


def kept_index(table: tuple[Entry, ...], pungs: int) -> dict[int, int]:
    """(sets, pairs, pungs wanted), packed as in `Table`, -> the most kept by a target of
    `table` with at least that many pungs (`pungs` at most)."""
    out: dict[int, int] = {}
    for e in table:
        for want in range(0, min(e[2], pungs) + 1):
            key = e[0] << 4 | e[1] << 3 | want
            if out.get(key, -1) < e[3]:
                out[key] = e[3]
    return out


def combine(tables: list[tuple[Entry, ...]], sets: int, pairs: int, pungs: int = 0) -> int:
    """The most held tiles a whole target keeps: `sets` sets and `pairs` pairs over the four
    groups, at least `pungs` of the sets pungs; -1 when no target fits. Each target of the
    first two groups looks up the best of the last two that completes it, rather than trying
    every pair of them."""
    left = merged(tables[0], tables[1], sets, pungs)
    right = kept_index(merged(tables[2], tables[3], sets, pungs), pungs)
    best = -1
    for e0 in left:
        k = pungs - e0[2]
        m, p = sets - e0[0], pairs - e0[1]
        if m < 0 or p < 0:
            continue
        other = right.get(m << 4 | p << 3 | (k if k > 0 else 0), -1)
        if other >= 0 and e0[3] + other > best:
            best = e0[3] + other
    return best
