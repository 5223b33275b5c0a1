"""From strings to a ScoreResult: the one pipeline behind `mjcalc score` and `mjcalc batch`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import InputError, MjcalcError
from .flags import FLAGS, Spelling, check_variant, in_field_words
from .hand import build_hand, make_context
from .result import ScoreResult
from .ruleset import Ruleset, load_ruleset
from .scoring import score

_FLAG_NAMES = frozenset(f.name for f in FLAGS)


def resolve_ruleset(variant: str | None = None, rules: str | Path | None = None, overrides: Sequence[str] = ()) -> Ruleset[Any, Any, Any]:
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
    spelling: Spelling = "field",
    **flags: Any,
) -> ScoreResult:
    """Parse a hand written in tile notation and score it; raises MjcalcError subclasses.

    `flags` are the win-situation keywords of `flags.FLAGS` (self_draw, dealer, discarder,
    piao, ...). One that the ruleset's variant does not use is `flag_not_in_variant`.
    `spelling` says how messages name a flag: `piao` (field, the default) or `--piao` (cli).
    """
    if not flags.keys() <= _FLAG_NAMES:
        unknown = sorted(flags.keys() - _FLAG_NAMES)
        raise TypeError(f"score_hand() got an unexpected keyword argument {unknown[0]!r}")
    ruleset = resolve_ruleset(variant, rules, overrides)
    check_variant(flags, ruleset.scorer, ruleset.name, spelling)
    try:
        parsed = build_hand(hand, melds, concealed_kongs, win)
        ctx = make_context(spelling=spelling, **flags)
        return score(parsed, ctx, ruleset)
    except MjcalcError as err:
        if spelling == "cli":
            raise
        raise type(err)(err.code, in_field_words(err.message), err.position, err.source) from None
