"""Settling a scored hand: who really pays whom, and why (liability, 包牌 / 承包 / 反包).

Scoring and settling are two steps. A scorer answers "what is this hand worth"
(`ScoreResult.payments`, every payer as if nobody were liable); a settler takes that
result plus the facts of the table a scorer never sees (who fed each meld, the other
players' exposed melds, the 飘 state) and answers "who pays what", recording every
shift as a `Liability`. A settler never decomposes tiles.

Everything here is relative to the winner: payers are `next`, `opposite`, `previous`;
a meld's source is one of those, or `winner` for another player's meld the winner fed.

Each variant's settler and the frozen dataclass of its `settlement:` options are in the
variants table (`Variant.settle`, `Variant.settlement`; the class sits with the variant's
other ruleset sections in `variants/<variant>/score.py`). The settlers and the shared types load
on first use: `mjcalc score` without meld sources never needs them (start-up time).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..core.context import WinContext
    from ..core.result import ScoreResult
    from ..core.seats import Position
    from ..rules.ruleset import Ruleset
    from ..variants.common.settlement import Liability, Settlement, Settler, Sourced, Table, options_of

_FROM_BASE = ("Liability", "Settlement", "Settler", "Sourced", "Table", "options_of")


def __getattr__(name: str) -> Any:
    """Load the shared types on first use (PEP 562)."""
    if name in _FROM_BASE:
        from ..variants.common import settlement as base

        return getattr(base, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def settle(result: ScoreResult, ctx: WinContext, table: Table, ruleset: Ruleset[Any, Any, Any]) -> Settlement:
    """Who pays what for a scored hand, given the facts of the table."""
    settler = ruleset.variant.settle
    if settler is None:
        raise _no_settlement(ruleset)
    settled: Settlement = settler(result, ctx, table, ruleset)
    return settled


def settlement_options(ruleset: Ruleset[Any, Any, Any]) -> Any:
    """The typed settlement options of a ruleset (its variant's dataclass), made once (kept on the ruleset)."""
    made = ruleset.memo.get("settlement_options")
    if made is None:
        from ..variants.common.settlement import options_of

        if ruleset.variant.settlement is None:
            raise _no_settlement(ruleset)
        made = ruleset.memo.keep("settlement_options", options_of(ruleset.variant.settlement, ruleset))
    return made


def _no_settlement(ruleset: Ruleset[Any, Any, Any]) -> Exception:
    from ..core.errors import RulesetError

    return RulesetError("no_settlement", "{file}: the {scorer} variant has no settler: its hands are scored, but liability and whole games are not settled",
        file=ruleset.source, scorer=ruleset.scorer)


def split_meld_sources(melds: Sequence[str], concealed_kongs: Sequence[str] = ()) -> tuple[list[str], tuple[Position | None, ...]]:
    """`--meld 555p@opposite` → ('555p', 'opposite'); a concealed kong may not name a source."""
    from ..core.errors import InputError
    from ..core.seats import relative_source, split_source

    for kong in concealed_kongs:
        if "@" in kong:
            raise InputError("source_on_concealed_kong", "--concealed-kong {kong!r}: a concealed kong was fed by nobody; drop the @source", kong=kong)
    texts: list[str] = []
    sources: list[Position | None] = []
    for text in melds:
        meld, source = split_source(text)
        texts.append(meld)
        sources.append(relative_source(meld, source) if source is not None else None)
    return texts, tuple(sources)


def with_settlement(result: ScoreResult, ctx: WinContext, table: Table, ruleset: Ruleset[Any, Any, Any]) -> ScoreResult:
    """The result with the settled `payments` and a `liability` list (its JSON gains the key)."""
    import json

    from ..core.result import pays_of

    settled = settle(result, ctx, table, ruleset)
    liability = json.dumps([row.to_dict() for row in settled.liability], ensure_ascii=False)
    return result.settled(pays_of(dict(settled.payments)), liability)


__all__ = [
    "Liability",
    "Settlement",
    "Settler",
    "Sourced",
    "Table",
    "options_of",
    "settle",
    "settlement_options",
    "split_meld_sources",
    "with_settlement",
]
