"""A variant's settler, loaded on its first call: the settlement types (settle.py) and the
settler module stay off the start-up of `mjcalc score` for hands whose melds name no feeder."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...core.context import WinContext
    from ...core.result import ScoreResult
    from ...rules.ruleset import Ruleset
    from .settle import Settlement, Settler, Table


def lazy_settler(scorer: str) -> Settler:
    """The settler of `scorer` (variants/<scorer>/settle.py), imported on its first call: scoring a
    hand without meld sources never loads it (start-up time)."""

    loaded: list[Settler] = []

    def settle_lazily(result: ScoreResult, ctx: WinContext, table: Table, ruleset: Ruleset[Any, Any, Any]) -> Settlement:
        if not loaded:
            from importlib import import_module

            loaded.append(getattr(import_module(f"mahjong_calc.variants.{scorer}.settle"), f"settle_{scorer}"))
        return loaded[0](result, ctx, table, ruleset)

    settle_lazily.__qualname__ = f"settle_{scorer}"
    return settle_lazily
