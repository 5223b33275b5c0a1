"""From strings to a ScoreResult: the one pipeline behind `mjcalc score` and `mjcalc batch`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core import flags as flag_table
from ..core.errors import InputError, MjcalcError
from ..core.flags import Spelling, check_variant, in_field_words
from ..core.hand import build_hand, make_context
from ..core.result import ScoreResult
from ..rules.loader import load_ruleset
from ..rules.ruleset import Ruleset
from .score import score


def resolve_ruleset(variant: str | None = None, rules: str | Path | None = None, overrides: Sequence[str] = ()) -> Ruleset[Any, Any, Any]:
    """`--variant` names a shipped ruleset; `--rules` a file. Not both."""
    if variant is not None and rules is not None:
        raise InputError("conflicting_flags", "--variant and --rules cannot both be given (a rules file says `extends:`)")
    return load_ruleset(variant, rules, overrides)


def checked_ruleset(variant: str | None, rules: str | Path | None, overrides: Sequence[str], flags: Mapping[str, Any],
                    spelling: Spelling) -> Ruleset[Any, Any, Any]:
    """The ruleset named (`resolve_ruleset`), whose variant uses every flag `flags` sets (else `flag_not_in_variant`):
    how `score_hand`, `hand_waits` and `hand_advice` start."""
    ruleset = resolve_ruleset(variant, rules, overrides)
    check_variant(flags, ruleset.scorer, ruleset.name, spelling)
    return ruleset


def score_hand(
    hand: str,
    *,
    variant: str | None = None,
    rules: str | Path | None = None,
    overrides: Sequence[str] = (),
    win: str | None = None,
    melds: Sequence[str] = (),
    concealed_kongs: Sequence[str] = (),
    spelling: Spelling = "field",
    # the win-situation keywords, one per declared flag (flags.FLAGS, in order; tests/test_flags.py
    # checks them against the declaration, kind for kind)
    self_draw: bool = False,
    dealer: bool = False,
    dealer_seat: str | None = None,
    after_kong: bool = False,
    robbing_kong: bool = False,
    heavenly: bool = False,
    earthly: bool = False,
    discarder: str | None = None,
    wild: str | None = None,
    piao: int = 0,
    opponent_pungs: Sequence[int] | str | None = None,
    robbed_fan: int | None = None,
    piao_by: str | None = None,
    piao_count: int = 0,
    **registered: Any,
) -> ScoreResult:
    """Parse a hand written in tile notation and score it; raises MjcalcError subclasses.

    The keywords after `spelling` are the win-situation flags of `flags.FLAGS` (`registered`:
    any that `flags.register_flag` added). One that the ruleset's variant does not use is
    `flag_not_in_variant`. `spelling` says how messages name a flag: `piao` (field, the
    default) or `--piao` (cli). A meld may name the seat that fed it (`555p@opposite`); then,
    or with `piao_by`, the hand is also settled (liability: 包牌, 承包) and the result gains
    `liability`.
    """
    names = flag_table.BY_NAME
    if registered and not all(name in names and names[name].role == "flag" for name in registered):
        unknown = sorted(name for name in registered if name not in names or names[name].role != "flag")
        raise TypeError(f"score_hand() got an unexpected keyword argument {unknown[0]!r}")
    flags: dict[str, Any] = {
        "self_draw": self_draw, "dealer": dealer, "dealer_seat": dealer_seat, "after_kong": after_kong, "robbing_kong": robbing_kong,
        "heavenly": heavenly, "earthly": earthly, "discarder": discarder, "wild": wild, "piao": piao,
        "opponent_pungs": opponent_pungs, "robbed_fan": robbed_fan, "piao_by": piao_by, "piao_count": piao_count, **registered,
    }
    ruleset = checked_ruleset(variant, rules, overrides, flags, spelling)
    sourced = flags.get("piao_by") is not None or any("@" in m for m in (*melds, *concealed_kongs))  # the facts only a settler reads
    try:
        if sourced:
            from .settle import split_meld_sources

            melds, sources = split_meld_sources(melds, concealed_kongs)
        parsed = build_hand(hand, melds, concealed_kongs, win)
        ctx = make_context(spelling=spelling, **flags)
        result = score(parsed, ctx, ruleset)
        if not sourced:
            return result
        from .settle import Table, with_settlement  # here: unsourced hands never load the settlers

        table = Table(sources=sources, piao_by=ctx.piao_by, piao_count=ctx.piao_count)
        return with_settlement(result, ctx, table, ruleset)
    except MjcalcError as err:
        if spelling == "cli":
            raise
        raise err.rewritten(in_field_words) from None
