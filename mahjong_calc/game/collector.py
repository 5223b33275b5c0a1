"""The garbage collector's pace over a long fold.

A fold keeps what it scores (a game's, or a season's, cache of scored hands), so each of the
collector's full passes walks more of it than the last. `FreezeAsItGoes.step()`, called once a
hand or a game, collects the young generations every `every` steps (so no cyclic garbage of the
steps before is kept) and then freezes what is left: the full passes walk only what is new. The
caller unfreezes it all at the end (`gc.unfreeze()`); whatever became garbage while frozen is
freed then, or by its reference count as usual.
"""

from __future__ import annotations

import gc


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
