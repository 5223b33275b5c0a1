"""mjcalc: scoring for Chinese regional mahjong (Wuhu 315/525, Chizhou, Pujiang).

    >>> from mahjong_calc import score_hand
    >>> score_hand("123456m13m99p555p2m", variant="wuhu315", self_draw=True).value
    8
"""

from __future__ import annotations

from . import compiled  # noqa: F401  (first: MJCALC_PURE_PYTHON must act before any listed module loads)
from .api import resolve_ruleset, score_hand
from .api.score import score
from .core import __version__ as __version__
from .core.context import WinContext
from .core.errors import InputError, MjcalcError, NotAWin, RulesetError
from .core.hand import Hand, Meld, build_hand, make_context, read_hand
from .core.result import Item, ScoreResult
from .core.tiles import format_tiles, parse_tiles
from .rules.loader import load_ruleset, shipped_names
from .rules.ruleset import Ruleset

__all__ = [
    "Hand",
    "InputError",
    "Item",
    "Meld",
    "MjcalcError",
    "NotAWin",
    "Ruleset",
    "RulesetError",
    "ScoreResult",
    "WinContext",
    "build_hand",
    "format_tiles",
    "load_ruleset",
    "make_context",
    "parse_tiles",
    "read_hand",
    "resolve_ruleset",
    "score",
    "score_hand",
    "shipped_names",
]
