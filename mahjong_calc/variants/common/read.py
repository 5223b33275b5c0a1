"""One reading of a hand as the detectors see it: small ints and tuples.

`HandRead` holds what every variant's reading has, and so what the shared detectors
(detectors.py) read; Wuhu's `WuhuRead` (wuhu/patterns.py) and `SetsRead` (Chizhou, Pujiang)
add their own facts. A Chizhou or Pujiang kernel keeps one `SetsRead` per hand and points it at each way of reading the tiles
(`arrange`, or `shape` for Pujiang's other shapes); every detector has the same
signature, `SetsRead -> times the pattern occurs`. A set is one int, `kind * 34 +
first tile` (core/sets.py). Plain typed Python, so
that mypyc can compile it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, final

from ...core import sets
from ...core.shapes import Arrangement

if TYPE_CHECKING:
    from ...core.context import WinContext
    from ...core.hand import Hand

# Pujiang's shapes: what a reading that is not pair + sets is
STANDARD: Final = 0
QI_DUI: Final = 1
ZHEN_13: Final = 2
ZHEN_ZHEN_13: Final = 3
SAN_CAI_SHEN: Final = 4
SHAPE_NAMES: Final = ("standard", "qi_dui", "zhen_13", "zhen_zhen_13", "san_cai_shen")


class HandRead:
    """The facts every variant's reading has: the suits (m, p, s) among every held tile, melds
    included, whether an honour is held, how the hand was won, and the reading being looked at
    (`sets`, the concealed sets first; `arranged` is False for a shape that is not pair + sets)."""

    def __init__(self, suits: int, honours: bool, heavenly: bool, earthly: bool, after_kong: bool) -> None:
        self.suits = suits
        self.honours = honours
        self.heavenly = heavenly
        self.earthly = earthly
        self.after_kong = after_kong
        self.arranged = True
        self.sets: tuple[int, ...] = ()
        self.n_concealed = 0


@final
class SetsRead(HandRead):
    """A hand being read: its facts (fixed per hand) and the reading being looked at.

    `sets` holds the concealed sets first, then the declared melds (from `n_concealed` on);
    `win_in` is the index of the set the winning tile completed (-1: the pair). `arranged`
    is False for a shape that is not pair + sets. `options` is the variant's options object.
    The Pujiang facts: `wilds` held, `set_wilds` standing in sets, `cai_diao` (a wild pairs
    the winning tile, or two wilds pair) and `san_cai_shen` (every wild held).
    """

    def __init__(self, ctx: WinContext, options: Any, suits: int, honours: bool, melds_concealed: tuple[bool, ...]) -> None:
        super().__init__(suits, honours, ctx.heavenly, ctx.earthly, ctx.after_kong)
        self.ctx = ctx
        self.options = options
        self.melds_concealed = melds_concealed  # which declared melds are concealed kongs
        self.arranged = False
        self.win_in = -1
        self.shape = STANDARD
        self.wilds = 0
        self.set_wilds = 0
        self.cai_diao = False
        self.san_cai_shen = False

    def arrange(self, sets: tuple[int, ...], n_concealed: int, win_in: int) -> None:
        """Look at another pair + sets reading of the same hand."""
        self.arranged = True
        self.sets = sets
        self.n_concealed = n_concealed
        self.win_in = win_in


def chows(r: SetsRead) -> int:
    """The first tiles of the reading's sequences, as bits."""
    bits = 0
    for code in r.sets:
        if sets.is_chow(code):
            bits |= 1 << sets.first_of(code)
    return bits


def read_arrangement(hand: Hand, ctx: WinContext, arr: Arrangement, held: tuple[int, ...], options: Any) -> SetsRead:
    """A SetsRead of one Arrangement (for a scorer that builds Arrangements, such as a test's variant)."""
    suits = int(any(held[0:9])) + int(any(held[9:18])) + int(any(held[18:27]))
    r = SetsRead(ctx, options, suits, any(held[27:34]), tuple(m.concealed for m in hand.melds))
    declared = len(hand.melds)
    r.arrange(tuple(s.code for s in arr.sets), len(arr.sets) - declared, arr.win_in)
    return r
