"""The garbage collector's pace over a long run (a batch, a game's fold, a season).

`kept_frozen()` bounds a run in which objects are frozen (`gc.freeze`: left out of the
collector's full passes) and lets them go at its end. A fold keeps what it scores (a game's, or a season's, cache of scored hands), so each of the
collector's full passes walks more of it than the last. `FreezeAsItGoes.step()`, called once a
hand or a game, collects the young generations every `every` steps (so no cyclic garbage of the
steps before is kept) and then freezes what is left: the full passes walk only what is new. Whatever
became garbage while frozen is freed at the end of `kept_frozen`, or by its reference count as usual.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG = 50_000  # allocations between two collections of the youngest generation during a run (Python's default: 700)


@contextmanager
def kept_frozen(now: bool = False, young: int | None = None) -> Iterator[None]:
    """A run whose frozen objects are unfrozen when it ends, unless the caller had frozen some
    before it (those, and the run's, then stay the caller's). `now`: freeze what is loaded already.
    `young`: the run collects its youngest generation after that many allocations, not Python's 700:
    a record's objects die young by their reference counts, and each collection walks those alive."""
    before = gc.get_freeze_count()
    thresholds = gc.get_threshold()
    if now:
        gc.freeze()
    if young is not None:
        gc.set_threshold(young, *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        if not before:
            gc.unfreeze()


class FreezeAsItGoes:
    """Every `every` steps: a collection of the young generations, then `gc.freeze()`."""

    def __init__(self, every: int) -> None:
        self.every = every
        self.count = 0

    def step(self) -> None:
        self.count += 1
        if self.count >= self.every:
            self.count = 0
            gc.collect(1)
            gc.freeze()
