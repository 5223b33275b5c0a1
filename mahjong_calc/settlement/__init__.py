"""Settling a scored hand: who really pays whom, and why (liability, 包牌 / 承包 / 反包).

Scoring and settling are two steps. A scorer answers "what is this hand worth"
(`ScoreResult.payments`, every payer as if nobody were liable); a settler takes that
result plus the facts of the table a scorer never sees (who fed each meld, the other
players' exposed melds, the 飘 state) and answers "who pays what", recording every
shift as a `Liability`. A settler never decomposes tiles.

Everything here is relative to the winner: payers are `next`, `opposite`, `previous`;
a meld's source is one of those, or `winner` for another player's meld the winner fed.

`SETTLERS` maps a ruleset's `scorer:` value to its settler; `OPTIONS` to the frozen
dataclass of its `settlement:` options.
"""

from __future__ import annotations

from typing import Any

from ..hand import WinContext
from ..result import ScoreResult
from ..ruleset import Ruleset
from . import chizhou, pujiang, wuhu
from .base import Liability, Settlement, Settler, Sourced, Table, options_of, schema_of

SETTLERS: dict[str, Settler] = {"wuhu": wuhu.settle, "chizhou": chizhou.settle, "pujiang": pujiang.settle}
OPTIONS: dict[str, type] = {
    "wuhu": wuhu.WuhuSettlement,
    "chizhou": chizhou.ChizhouSettlement,
    "pujiang": pujiang.PujiangSettlement,
}


def settle(result: ScoreResult, ctx: WinContext, table: Table, ruleset: Ruleset) -> Settlement:
    """Who pays what for a scored hand, given the facts of the table."""
    return SETTLERS[ruleset.scorer](result, ctx, table, ruleset)


def settlement_options(ruleset: Ruleset) -> Any:
    """The typed settlement options of a ruleset (its variant's dataclass)."""
    return options_of(OPTIONS[ruleset.scorer], ruleset)


__all__ = ["OPTIONS", "SETTLERS", "Liability", "Settlement", "Sourced", "Table", "schema_of", "settle", "settlement_options"]
