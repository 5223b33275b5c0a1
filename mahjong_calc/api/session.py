"""A scoring session: the one path every door scores a hand through, and the caches of one run.

    ruleset (rules/loader.py) -> the facts of the win (by the flags' values: checked once)
    -> read_hand (the one reader) -> score (the variant's kernel) -> ScoreResult

`score_hand` (the library), `mjcalc score`, `batch`, `game settle`, `stats`, live games, the
server and the site all call `Session.score` (a batch `judge_under`, which returns the error a
hand's row shows instead of raising it); a door that runs long (a batch, a game, the server)
keeps one Session, so that a combination of flags is checked once.
Every cache here is a core.memo.Memo, keyed by values.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, final

from ..core.context import WinContext
from ..core.errors import InputError, MjcalcError
from ..core.flags import Spelling, check_variant, in_field_words, win_flags
from ..core.hand import make_context, read_hand
from ..core.memo import Memo
from ..core.result import ScoreResult
from ..rules.loader import load_ruleset
from ..rules.ruleset import Ruleset
from .score import judge

FLAG_NAMES: Final[tuple[str, ...]] = tuple(f.name for f in win_flags())  # the win flags, in declaration order
ABSENT: Final[tuple[Any, ...]] = tuple(f.default for f in win_flags())  # each one's "not given"
_PIAO_BY: Final = FLAG_NAMES.index("piao_by")

def resolve_ruleset(variant: str | None = None, rules: str | Path | None = None, overrides: Sequence[str] = ()) -> Ruleset[Any, Any, Any]:
    """`--variant` names a shipped ruleset; `--rules` a file. Not both."""
    if variant is not None and rules is not None:
        raise InputError("conflicting_flags", "--variant and --rules cannot both be given (a rules file says `extends:`)")
    return load_ruleset(variant, rules, overrides)


def _given(values: tuple[Any, ...]) -> dict[str, Any]:
    """The flags these values set (FLAG_NAMES' order), by name."""
    return {name: value for name, value, absent in zip(FLAG_NAMES, values, ABSENT) if value is not absent and value != absent}


@final
class Facts:
    """What a combination of flags' values comes to under a ruleset: the flag its variant refuses
    (`check_variant`), else None; and the WinContext (`make_context`), else why not. `values` are
    the values it was made of (their types tell True from 1)."""

    def __init__(self, values: tuple[Any, ...], refused: MjcalcError | None, context: WinContext | MjcalcError) -> None:
        self.values = values
        self.refused = refused
        self.context = context

    def win_context(self) -> WinContext:
        """The WinContext, or raise (a copy of) why there is none."""
        made = self.context
        if isinstance(made, MjcalcError):
            raise made.fresh()
        return made

    def made_of(self, values: tuple[Any, ...]) -> bool:
        """Whether `values` (equal to this one's) are of the same types too."""
        mine = self.values
        return all(type(values[i]) is type(mine[i]) for i in range(len(values)))


def _facts(rs: Ruleset[Any, Any, Any], values: tuple[Any, ...], spelling: Spelling) -> Facts:
    given = _given(values)
    refused: MjcalcError | None = None
    made: WinContext | MjcalcError
    try:
        check_variant(given, rs.scorer, rs.name, spelling)
    except MjcalcError as err:
        refused = err.with_traceback(None)  # kept: its traceback would keep this call's frames alive
    try:
        made = make_context(spelling=spelling, **given)
    except MjcalcError as err:
        made = err.with_traceback(None)
    return Facts(values, refused, made)


class Session:
    """One run's caches and the one scoring path: the facts of each combination of flags, checked
    once, and `kept`, what a door keeps of its own (a game's seat names, a batch's rows). Rulesets
    are the loader's (each loaded once, rules/loader.py)."""

    def __init__(self) -> None:
        self.facts = Memo()
        self.kept = Memo()

    def facts_of(self, rs: Ruleset[Any, Any, Any], values: tuple[Any, ...], spelling: Spelling) -> Facts:
        """The Facts of these flag values (FLAG_NAMES' order) under `rs`, once per distinct values: found by
        the values, then checked for their types (True == 1, but a count of True is refused), a record's
        list as a tuple."""
        if any(type(v) is list for v in values):
            values = tuple([tuple(v) if type(v) is list else v for v in values])
        key = (rs.scorer, rs.name, spelling, values)
        try:
            made: Facts | None = self.facts.get(key)
        except TypeError:  # a value that cannot be hashed: worked out afresh
            return _facts(rs, values, spelling)
        if made is None:
            return self.facts.keep(key, _facts(rs, values, spelling))  # type: ignore[no-any-return]
        if made.made_of(values):
            return made
        typed = (key, tuple([type(v) for v in values]))  # equal values of other types (1 for True): kept apart
        made = self.facts.get(typed)
        if made is None:
            made = self.facts.keep(typed, _facts(rs, values, spelling))
        return made

    def score(self, text: str, win: str | None, melds: Sequence[str], concealed_kongs: Sequence[str], values: tuple[Any, ...],
              variant: str | None = None, rules: str | Path | None = None, overrides: Sequence[str] = (),
              spelling: Spelling = "field") -> ScoreResult:
        """Score one hand: its text, winning tile, melds and concealed kongs, and the win flags' values
        (FLAG_NAMES' order), under the ruleset named (`score_under`)."""
        return self.score_under(resolve_ruleset(variant, rules, overrides), text, win, melds, concealed_kongs, values, spelling)

    def score_under(self, rs: Ruleset[Any, Any, Any], text: str, win: str | None, melds: Sequence[str], concealed_kongs: Sequence[str],
                    values: tuple[Any, ...], spelling: Spelling = "field") -> ScoreResult:
        """Score one hand under `rs`. Raises MjcalcError subclasses: a flag the variant does not take,
        then the hand's, then the facts', then the variant's (worded with `spelling`)."""
        made = self.judge_under(rs, text, win, melds, concealed_kongs, values, spelling)
        if isinstance(made, MjcalcError):
            raise worded(made, spelling)
        return made

    def judge_under(self, rs: Ruleset[Any, Any, Any], text: str, win: str | None, melds: Sequence[str], concealed_kongs: Sequence[str],
                    values: tuple[Any, ...], spelling: Spelling = "field") -> ScoreResult | MjcalcError:
        """`score_under`'s result, or the error it would raise before `worded` names its flags as
        `spelling` says: returned, not raised (a batch words each distinct error once, for its row).
        An error may be shared: a caller raises a copy."""
        facts = self.facts_of(rs, values, spelling)
        if facts.refused is not None:
            return facts.refused
        # the facts only a settler reads: who fed a meld (`555p@opposite`), another seat's 飘 round
        sourced = values[_PIAO_BY] is not None or _fed(melds) or _fed(concealed_kongs)
        try:
            if sourced:
                from .settle import split_meld_sources

                melds, sources = split_meld_sources(melds, concealed_kongs)
            hand = read_hand(text, melds, concealed_kongs, win)
            ctx = facts.context
            if isinstance(ctx, MjcalcError):
                return ctx
            made = judge(hand, ctx, rs)
            if not sourced or isinstance(made, MjcalcError):
                return made
            from .settle import Table, with_settlement  # here: unsourced hands never load the settlers

            return with_settlement(made, ctx, Table(sources=sources, piao_by=ctx.piao_by, piao_count=ctx.piao_count), rs)
        except MjcalcError as err:
            return err


def worded(err: MjcalcError, spelling: Spelling) -> MjcalcError:
    """A copy of an error `Session.judge_under` returned, to raise: its flags named as `spelling` says
    (a record's fields, `discarder`, where `score` says `--discarder`)."""
    return err.fresh() if spelling == "cli" else err.rewritten(in_field_words)


def _fed(melds: Sequence[str]) -> bool:
    """Whether a meld names who fed it (`555p@opposite`)."""
    return any("@" in meld for meld in melds)


DEFAULT: Final = Session()  # the library's session, for a caller that keeps none of its own
