"""What a loaded ruleset is: `Ruleset` and the `Variant` it carries.

The two refer to each other (a Ruleset carries its Variant, a Variant scores under a
Ruleset), so they live in one module; loading (loader.py) and the table of variants
(registry.py) import them. Nothing here imports a variant: the rules floor sits below
the variants, which register themselves through the registry's "module:attr" strings.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import KW_ONLY, dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..core.memo import Memo
from .schema import Label, Tiles

if TYPE_CHECKING:
    from ..core.context import WinContext
    from ..core.errors import MjcalcError
    from ..core.hand import Hand
    from ..core.result import ScoreResult

N = TypeVar("N")  # the numbers class
O = TypeVar("O")  # the options class
P = TypeVar("P")  # one entry of `patterns:`

# A detector counts its pattern in one reading (a `SetsRead`, variants/common/read.py; Wuhu a `WuhuRead`).
# The rules floor holds detectors without naming that class, which sits on the floor above.
Detector = Callable[[Any], int]
Detectors = Mapping[str, Detector]
# A settler: (result, ctx, table, ruleset) -> Settlement; its types are in variants/common/settlement.py.
Settler = Callable[["ScoreResult", "WinContext", Any, "Ruleset[Any, Any, Any]"], Any]
# The shanten rules `advise` plans with: (melds, ctx, ruleset) -> a Plan (variants/common/plan.py).
PlanRules = Callable[[Any, "WinContext", "Ruleset[Any, Any, Any]"], Any]


def on_first_call(package: str, target: str) -> Callable[..., Any]:
    """A plug-in that is a value: the function `target` ("module:function", a module of `package`),
    its module imported only when it is first called (start-up time):
    `on_first_call(__name__, "liability:settle_wuhu")` in a variant's `__init__.py`."""
    module, _, attribute = target.partition(":")
    loaded: list[Callable[..., Any]] = []

    def call(*args: Any, **kwargs: Any) -> Any:
        if not loaded:
            loaded.append(getattr(importlib.import_module(f"{package}.{module}"), attribute))
        return loaded[0](*args, **kwargs)

    call.__qualname__ = call.__name__ = attribute
    return call


@dataclass(frozen=True, eq=False)
class Ruleset(Generic[N, O, P]):
    """A validated ruleset, frozen. The fields before `source` are its YAML's top-level keys.

    Scorers read `rs.numbers.jiao`, `rs.options.ya_dang_edge_wait`, `rs.patterns[key].fan`:
    the classes are the variant's (see `registry.VARIANTS`).
    """

    name: str
    version: str
    scorer: str
    title: Label
    tiles: Tiles
    labels: Mapping[str, Label]
    patterns: Mapping[str, P]
    numbers: N
    options: O
    description: str | None = None
    settlement: Any = None  # the `settlement:` section, as the variant's `Variant.settlement` dataclass (None: no settler)
    _: KW_ONLY
    source: str = field(metadata={"loaded": True})
    variant: Variant[N, O, P] = field(metadata={"loaded": True}, repr=False)
    detectors: tuple[tuple[str, Detector], ...] = field(metadata={"loaded": True}, repr=False)  # in YAML order
    data: Mapping[str, Any] = field(metadata={"loaded": True}, repr=False)  # the document, read-only
    # what the variant's kernel reads besides the numbers and options themselves (`Variant.tables`),
    # made once at load; and what is made from this ruleset later (an item's text and JSON, the
    # settlement options, the hands a game scored), each once per key
    tables: Any = field(default=None, metadata={"loaded": True}, repr=False)
    memo: Memo = field(default_factory=Memo, metadata={"loaded": True}, repr=False)

    def __post_init__(self) -> None:
        if self.tables is None and self.variant.tables is not None:
            object.__setattr__(self, "tables", self.variant.tables(self))

    def label(self, key: str) -> tuple[str, str]:
        """(zh, en) for a pattern or item key."""
        entry: Label | None = self.patterns.get(key) or self.labels.get(key)  # type: ignore[assignment]
        if entry is None:
            return key, key
        return entry.zh, entry.en


@dataclass(frozen=True, eq=False)
class Variant(Generic[N, O, P]):
    """One variant's schema, detectors and plug-ins: its scorer, settler and shanten rules, each a
    function (`on_first_call` keeps a module off start-up until it is needed)."""

    name: str  # the `scorer:` value its rulesets give
    numbers: type[N]
    options: type[O]
    pattern: type[P]
    detectors: Detectors
    score: Callable[[Hand, WinContext, Ruleset[N, O, P]], ScoreResult | MjcalcError]  # the result, or why it does not win
    # the `settlement:` section's dataclass and the settler (variants/<variant>/liability.py); None for a
    # variant whose hands are scored but not settled
    settlement: type | None = None
    settle: Settler | None = None
    # the shanten rules `advise` plans with (variants/<variant>/plan.py's `plan`); None: no advise
    plan: PlanRules | None = None
    # its docs/rules page (`mjcalc options` points into it), and the section there of each group of
    # keys whose `Doc` names none: "tiles", and the "patterns" and "labels" entries
    docs: str = ""
    sections: Mapping[str, str] = field(default_factory=dict)
    # what its kernel reads of a ruleset besides the numbers and options (pattern indexes, detectors
    # in YAML order, ...): made once when a ruleset is loaded, as `Ruleset.tables`; None: nothing
    tables: Callable[[Ruleset[Any, Any, Any]], Any] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "detectors", MappingProxyType(dict(self.detectors)))  # a read-only copy
        object.__setattr__(self, "sections", MappingProxyType(dict(self.sections)))
