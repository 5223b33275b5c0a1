"""Build real Wuhu hands for a given 支 and 压档, checked by an independent oracle.

The oracle below is deliberately naive and separate from `mahjong_calc.core.shapes`,
so a bug there cannot make a fixture look right.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product


def _m(n: int) -> str:
    return f"{n}m"


def complete(counts: list[int]) -> bool:
    """Naive check: can `counts` be cut into one pair plus sets?"""

    def sets_only(c: list[int]) -> bool:
        i = next((j for j, n in enumerate(c) if n), None)
        if i is None:
            return True
        if c[i] >= 3:
            c[i] -= 3
            ok = sets_only(c)
            c[i] += 3
            if ok:
                return True
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for j in (i, i + 1, i + 2):
                c[j] -= 1
            ok = sets_only(c)
            for j in (i, i + 1, i + 2):
                c[j] += 1
            return ok
        return False

    if sum(counts) % 3 != 2:
        return False
    for t in range(34):
        if counts[t] >= 2:
            counts[t] -= 2
            ok = sets_only(counts)
            counts[t] += 2
            if ok:
                return True
    return False


def oracle_waits(tiles13: list[int], held_elsewhere: list[int]) -> list[int]:
    counts = [0] * 34
    for t in tiles13:
        counts[t] += 1
    out = []
    for t in range(34):
        if counts[t] + held_elsewhere.count(t) >= 4:
            continue
        counts[t] += 1
        if complete(counts):
            out.append(t)
        counts[t] -= 1
    return out


def idx(text: str) -> int:
    return "mpsz".index(text[-1]) * 9 + int(text[0]) - 1


@dataclass(frozen=True)
class Case:
    hand: str  # concealed tiles, winning tile last
    melds: tuple[str, ...]
    kongs: int  # exposed kongs among the melds (they add kong points)


def build(zhi: int, ya: int) -> Case:
    """A hand with exactly `zhi` 万 (kongs count 4) that is 压`ya` (0: no 压档) and has no 嘴子."""
    rest = zhi - 3
    for kongs, pungs, m_pair in product(range(3), range(4), (False, True)):
        all_wan = m_pair and kongs + pungs == 3  # that would be 清一色, a 交 hand
        if 4 * kongs + 3 * pungs + 2 * m_pair == rest and kongs + pungs <= 3 and not all_wan:
            case = _fill(ya, kongs, pungs, m_pair)
            if case is not None:
                return case
    raise AssertionError(f"no fixture for {zhi}支 压{ya}")


def _fill(ya: int, kongs: int, pungs: int, m_pair: bool) -> Case | None:
    """Concealed: a 万 sequence holding the winning tile, a pair, 筒 pungs; melds: 万 pungs/kongs."""
    chow = (ya - 1, ya, ya + 1) if ya else (4, 5, 6)  # 456m won on 6m: a two-sided wait
    win = ya if ya else 6
    spare = [n for n in (1, 9, 2, 8, 3, 7, 4, 6, 5) if n not in chow]
    need = kongs + pungs + m_pair
    for start in range(len(spare) - need + 1):
        picked = spare[start : start + need]
        kong_tiles, pung_tiles = picked[:kongs], picked[kongs : kongs + pungs]
        pair = _m(picked[-1]) if m_pair else "3p"
        p_pungs = ["1p", "9p", "5p"][: 3 - kongs - pungs]
        before_win = [_m(n) for n in chow if n != win] + [pair] * 2 + [p for p in p_pungs for _ in range(3)]
        melds = tuple(f"{n}{n}{n}{n}m" for n in kong_tiles) + tuple(f"{n}{n}{n}m" for n in pung_tiles)
        held = [idx(_m(n)) for n in kong_tiles for _ in range(4)] + [idx(_m(n)) for n in pung_tiles for _ in range(3)]
        waits = oracle_waits([idx(t) for t in before_win], held)
        if (waits == [idx(_m(win))]) if ya else len(waits) >= 2:
            return Case("".join(before_win) + _m(win), melds, kongs)
    return None
