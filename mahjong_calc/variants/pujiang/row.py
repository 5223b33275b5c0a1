"""A Pujiang batch row: score.py's checks and the kernel, with the Hand made from the counts.

A Pujiang win's text (what each wild stood for, the 子 sums) is build.py's; the row is its
ScoreResult's JSON. What the lean path saves here is the record's parsing and the checks that
do not depend on the hand, and on a hand that does not win, the whole result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.context import WinContext
from ...core.errors import InputError, NotAWin
from ...core.hand import Hand
from ..common.row import RowAnswer, meld_of
from . import build
from . import kernel as k
from .score import check_win_kind

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset

def row(rs: Ruleset[Any, Any, Any], counts: tuple[int, ...], melds: tuple[int, ...], melds_concealed: tuple[bool, ...], win: int,
        ctx: WinContext) -> RowAnswer:
    """The ScoreResult of a Pujiang hand, or why it does not win, or the InputError of score.py's checks."""
    concealed = tuple([t for t in range(34) for _ in range(counts[t])])
    hand = Hand(concealed, tuple([meld_of(code, conc) for code, conc in zip(melds, melds_concealed)]), win)
    try:
        check_win_kind(hand, ctx, rs)
    except NotAWin as refusal:
        return refusal
    except InputError as err:
        return err
    out = k.score(k.numbers_for(rs), counts, melds, melds_concealed, win, ctx)
    if out.code != k.WIN:
        return build.refusal(rs, out.best)
    return build.result(hand, ctx, rs, out)
