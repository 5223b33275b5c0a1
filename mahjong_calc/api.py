"""From strings to a ScoreResult: the one pipeline behind `mjcalc score` and `mjcalc batch`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .errors import InputError
from .hand import build_hand, make_context, seat
from .result import ScoreResult
from .ruleset import Ruleset, load_ruleset
from .scoring import score


def resolve_ruleset(variant: str | None = None, rules: str | Path | None = None, overrides: Sequence[str] = ()) -> Ruleset:
    """`--variant` names a shipped ruleset; `--rules` a file. Not both."""
    if variant is not None and rules is not None:
        raise InputError("conflicting_flags", "--variant and --rules cannot both be given (a rules file says `extends:`)")
    return load_ruleset(variant, rules, overrides)


def score_hand(
    hand: str,
    *,
    variant: str | None = None,
    rules: str | Path | None = None,
    overrides: Sequence[str] = (),
    win: str | None = None,
    melds: Sequence[str] = (),
    concealed_kongs: Sequence[str] = (),
    self_draw: bool = False,
    dealer: bool = False,
    after_kong: bool = False,
    robbing_kong: bool = False,
    heavenly: bool = False,
    earthly: bool = False,
    discarder: str | None = None,
    dealer_seat: str | None = None,
    wild: str | None = None,
    piao: int = 0,
    opponent_pungs: Sequence[int] | str | None = None,
    piao_by: str | None = None,
    piao_count: int = 0,
) -> ScoreResult:
    """Parse a hand written in tile notation and score it; raises MjcalcError subclasses.

    A meld may name the seat that fed it (`555p@opposite`); then the hand is also
    settled (liability, issue 12) and the result gains `liability`.
    """
    ruleset = resolve_ruleset(variant, rules, overrides)
    sourced = piao_by is not None or any("@" in m for m in (*melds, *concealed_kongs))  # issue 12: meld sources
    if sourced:
        from .settlement import split_meld_sources

        melds, sources = split_meld_sources(melds, concealed_kongs)
    parsed = build_hand(hand, melds, concealed_kongs, win)
    ctx = make_context(
        self_draw=self_draw,
        dealer=dealer,
        after_kong=after_kong,
        robbing_kong=robbing_kong,
        heavenly=heavenly,
        earthly=earthly,
        discarder=discarder,
        dealer_seat=dealer_seat,
        wild=wild,
        piao=piao,
        opponent_pungs=opponent_pungs,
    )
    result = score(parsed, ctx, ruleset)
    if not sourced:
        return result
    from .settlement import Table, with_settlement  # issue 12: settle (liability)

    table = Table(sources=sources, piao_by=seat(piao_by, "--piao-by"), piao_count=piao_count)
    return with_settlement(result, ctx, table, ruleset)
