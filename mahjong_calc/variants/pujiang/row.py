"""A Pujiang batch row: score.py's checks and the kernel, with the Hand made from the counts.

A Pujiang win's text (what each wild stood for, the 子 sums) is build.py's; the row is its
ScoreResult's JSON. What the lean path saves here is the record's parsing and the checks that
do not depend on the hand, and on a hand that does not win, the whole result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.context import WinContext
from ...core.errors import InputError, NotAWin
from ...core.hand import Hand, Meld
from ...core.shapes import CODE_KINDS
from ..common.row import RowAnswer
from . import build
from . import kernel as k
from .score import check_win_kind

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset

_MELDS: dict[tuple[int, bool], Meld] = {}


def _meld(code: int, concealed: bool) -> Meld:
    """The Meld of a set code, as core.hand.parse_meld makes it."""
    meld = _MELDS.get((code, concealed))
    if meld is None:
        kind, first = CODE_KINDS[code // 34], code % 34
        tiles = (first, first + 1, first + 2) if kind == "chow" else (first,) * (4 if kind == "kong" else 3)
        meld = _MELDS[(code, concealed)] = Meld(kind, tiles, concealed)
    return meld


def row(rs: Ruleset[Any, Any, Any], counts: tuple[int, ...], melds: tuple[int, ...], melds_concealed: tuple[bool, ...], win: int,
        ctx: WinContext) -> RowAnswer:
    """The ScoreResult of a Pujiang hand, or why it does not win; None where the full path answers."""
    concealed = tuple([t for t in range(34) for _ in range(counts[t])])
    hand = Hand(concealed, tuple([_meld(code, conc) for code, conc in zip(melds, melds_concealed)]), win)
    try:
        check_win_kind(hand, ctx, rs)
    except NotAWin as refusal:
        return refusal
    except InputError:
        return None
    out = k.score(k.numbers_for(rs), counts, melds, melds_concealed, win, ctx)
    if out.code != k.WIN:
        return build.refusal(rs, out.best)
    return build.result(hand, ctx, rs, out)
