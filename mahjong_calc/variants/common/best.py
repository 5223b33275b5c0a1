"""The choice every scorer makes among the readings of a hand, written once.

A reading takes the place of the best so far when it is worth more, or as much with a higher
rank (Chizhou's: more 花); among equals the first stays, so the order in which a scorer
produces its readings is part of its rules. The kernels (compiled by mypyc) and
`reading.best_result` (a variant without a kernel) call the same function.
"""

from __future__ import annotations


def better(value: int, rank: int, best_value: int, best_rank: int) -> bool:
    """Whether a reading of (`value`, `rank`) replaces the best so far, of (`best_value`, `best_rank`)."""
    return value > best_value or (value == best_value and rank > best_rank)
