"""A set as one int, its *code*: a pung, chow or kong (a meld, or a set of the concealed tiles)
is `kind * 34 + its first tile`, so that codes sort by kind, then tile, and index flat tables.

    pung(4) == 4 (555m)    chow(9) == 43 (123p)    kong(31) == 99 (白白白白)

The only module that knows the layout: everything else asks `kind_of`, `first_of`,
`is_chow`, ... or builds a code with `pung`, `chow`, `kong`, `make`. Compiled with mypyc.
"""

from __future__ import annotations

from typing import Final, Literal

PUNG: Final = 0
CHOW: Final = 1
KONG: Final = 2
KINDS: Final[tuple[Literal["pung", "chow", "kong"], ...]] = ("pung", "chow", "kong")  # each kind's name, by kind
N_CODES: Final = 3 * 34  # every code is below this
FIRST_CHOW: Final = CHOW * 34  # the lowest chow code: codes below it are pungs
FIRST_KONG: Final = KONG * 34  # the lowest kong code: codes below it and from FIRST_CHOW on are chows


def make(kind: int, first: int) -> int:
    """The code of a set of `kind` (PUNG, CHOW, KONG) starting at tile `first`."""
    return kind * 34 + first


def pung(tile: int) -> int:
    return tile


def chow(first: int) -> int:
    return FIRST_CHOW + first


def kong(tile: int) -> int:
    return FIRST_KONG + tile


def of_name(kind: Literal["pung", "chow", "kong"], first: int) -> int:
    """The code of a set of kind "pung", "chow" or "kong"."""
    return KINDS.index(kind) * 34 + first


def kind_of(code: int) -> int:
    """PUNG, CHOW or KONG."""
    return code // 34


def kind_name(code: int) -> Literal["pung", "chow", "kong"]:
    return KINDS[code // 34]


def first_of(code: int) -> int:
    """The set's first (lowest) tile."""
    return code % 34


def is_pung(code: int) -> bool:
    return code < FIRST_CHOW


def is_chow(code: int) -> bool:
    return FIRST_CHOW <= code < FIRST_KONG


def is_kong(code: int) -> bool:
    return code >= FIRST_KONG


def holds(code: int, tile: int) -> bool:
    """Whether the set holds a copy of `tile`."""
    first = code % 34
    if FIRST_CHOW <= code < FIRST_KONG:
        return first <= tile <= first + 2
    return first == tile


def tiles_of(code: int) -> tuple[int, ...]:
    """The set's tiles, lowest first."""
    first = code % 34
    if code < FIRST_CHOW:
        return (first, first, first)
    if code < FIRST_KONG:
        return (first, first + 1, first + 2)
    return (first, first, first, first)


def is_real(code: int) -> bool:
    """Whether a code names a set that exists: a chow starts at 1-7 of a number suit."""
    if not 0 <= code < N_CODES:
        return False
    return not (FIRST_CHOW <= code < FIRST_KONG) or (code % 34 < 27 and code % 34 % 9 <= 6)
