"""From strings to a ScoreResult: `score_hand`, the library's door into the one path (api/session.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from ..core.flags import Spelling, check_variant
from ..core.result import ScoreResult
from ..rules.ruleset import Ruleset
from .session import ABSENT, DEFAULT, FLAG_NAMES, Session, resolve_ruleset

__all__ = ["Session", "checked_ruleset", "resolve_ruleset", "score_hand"]


def checked_ruleset(variant: str | None, rules: str | Path | None, overrides: Sequence[str], flags: Mapping[str, Any],
                    spelling: Spelling) -> Ruleset[Any, Any, Any]:
    """The ruleset named (`resolve_ruleset`), whose variant uses every flag `flags` sets (else `flag_not_in_variant`):
    how `hand_waits` and `hand_advice` start."""
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
    session: Session | None = None,
    **flags: Any,
) -> ScoreResult:
    """Parse a hand written in tile notation and score it; raises MjcalcError subclasses.

    `flags` are the win-situation flags, named as core/flags.py declares them (`self_draw=True`,
    `discarder="next"`, `wild="3m"`, ...); any other keyword is a TypeError. One that the
    ruleset's variant does not use is `flag_not_in_variant`. `spelling` says how messages name a
    flag: `piao` (field, the default) or `--piao` (cli). A meld may name the seat that fed it
    (`555p@opposite`); then, or with `piao_by`, the hand is also settled (liability: 包牌, 承包)
    and the result gains `liability`. `session` keeps a run's caches (api/session.py).
    """
    if not flags.keys() <= _FLAG_SET:
        raise TypeError(f"score_hand() got an unexpected keyword argument {sorted(flags.keys() - _FLAG_SET)[0]!r}")
    values = tuple([flags.get(name, absent) for name, absent in zip(FLAG_NAMES, ABSENT)])
    return (session or DEFAULT).score(hand, win, melds, concealed_kongs, values, variant, rules, overrides, spelling)


_FLAG_SET: Final = frozenset(FLAG_NAMES)
