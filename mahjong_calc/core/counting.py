"""How many tiles a count vector holds: loops, written for the compiled kernels.

Compiled, a loop over ints runs natively, while sum() is a call through the builtins module
that reads each int as an object (about 900 instructions a call, where a kernel counts often).
"""

from __future__ import annotations


def tiles_in(counts: tuple[int, ...], start: int, stop: int) -> int:
    """How many tiles counts[start:stop] holds."""
    total = 0
    for i in range(start, stop):
        total += counts[i]
    return total


def tiles_held(counts: list[int], start: int, stop: int) -> int:
    """`tiles_in` of a list."""
    total = 0
    for i in range(start, stop):
        total += counts[i]
    return total
