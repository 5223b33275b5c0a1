"""The ruleset schema, read from frozen dataclasses: one declaration per section.

A variant declares its `numbers`, `options` and pattern entries as frozen
dataclasses with type hints (see `variants/wuhu/score.py`). `convert` checks a YAML value
against such a hint and builds the frozen, typed object from it, so scorers read
`rs.numbers.jiao` (a typo is a type-checker error) and nothing can change a loaded
ruleset. The hints mean:

* `int`: an integer from 0 to 1,000,000,000 (amounts are never negative unless a
  key says `Annotated[int, SIGNED]`, and documents why); `Annotated[int, Range(a, b)]`
  narrows it.
* `float`: a finite number from 0 to 1,000,000; an integer is converted (`1` loads as
  `1.0`, so every value has its declared type; text that shows a factor writes an
  integral one without `.0`, see `variants.wuhu.kernel.factor_of`).
* `bool`, `str`, `Literal[...]`; `tuple[X, ...]` (a YAML list); `Mapping[str, X]`
  (a mapping with snake_case keys, frozen); a nested dataclass (a mapping with
  exactly its fields; a field with a default may be left out).

Every error is a `RulesetError("ruleset_invalid")` naming the source (file or
`--set`) and the dotted key.
"""

from __future__ import annotations

import math
import re
import types
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields, is_dataclass
from functools import cache
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

from ..core.errors import RulesetError, shown
from ..core.tiles import number_of, suit_of
from ..core.words import N_, Text

# the docs/rules section that records every variant's settlement keys (a settlement key's Doc names no section)
LIABILITY = "Liability and settlement"


@dataclass(frozen=True)
class Range:
    """`Annotated[int, Range(lo, hi)]`: the inclusive bounds of a number."""

    lo: int | float
    hi: int | float


@dataclass(frozen=True)
class Aliases:
    """`Annotated[Literal[...], Aliases({True: "on_value", ...})]`: older spellings a ruleset may
    still give for a value (a switch that became a choice keeps `true`/`false`); loaded as the value."""

    of: Mapping[object, str]


INTEGERS = Range(0, 1_000_000_000)
NUMBERS = Range(0, 1_000_000)
SIGNED = Range(-1_000_000_000, 1_000_000_000)  # only for a key whose docs say why it may be negative
MAX_TEXT = 2000  # characters in a name, label or description
KEY = re.compile(r"[a-z][a-z0-9_]{0,63}\Z")


@dataclass(frozen=True)
class Doc:
    """`Annotated[T, Doc(zh, en, section)]`: what a ruleset key means, in Chinese and English, and
    the `## ` section of the variant's docs/rules page that records its reading ("": its group's,
    the `Section` of a nested group, `Variant.sections` for the shared `tiles:` keys, LIABILITY
    for every `settlement:` key)."""

    zh: str
    en: str
    section: str = ""


@dataclass(frozen=True)
class Section:
    """`Annotated[Group, Section(name)]` on a nested group: the docs section of each of its keys whose
    `Doc` names none, written once for the group."""

    name: str


@dataclass(frozen=True)
class Label:
    """A name in Chinese and English."""

    zh: str
    en: str


@dataclass(frozen=True)
class Tiles:
    """Which tiles a variant plays with."""

    suits: Annotated[tuple[Literal["m", "p", "s"], ...], Doc("用哪几门数牌", "the suits played (m 万, p 筒, s 条)")]
    honours: Annotated[
        tuple[Annotated[int, Range(1, 7)], ...],
        Doc("用哪些字牌 (1-7 = 东南西北白发中)", "the honours played (1-7 = E S W N, white, green, red)"),
    ]
    chow_melds: Annotated[bool, Doc("可否吃牌", "whether chow melds (吃) are allowed")]


@dataclass(frozen=True)
class GameRules:
    """Options every variant's game needs: dealer rotation, 一炮多响, the 子 ledger.

    Values live only in the rulesets' `settlement:` sections (no defaults here); each variant's settlement class extends it.
    """

    # who deals next after a win: the dealer stays if the dealer won (else the next seat deals),
    # the winner deals, or the deal always passes to the next seat
    dealer_after_win: Annotated[Literal["stay_if_dealer_else_next", "winner", "next"], Doc("和牌后谁坐庄", "who deals next after a win")]
    dealer_after_draw: Annotated[Literal["stay", "next"], Doc("流局后谁坐庄", "who deals next after a drawn hand (流局)")]
    multiple_winners: Annotated[bool, Doc("一炮多响", "one discard may make several winners (一炮多响)")]
    # 子 each player starts with; 0 keeps no 子 ledger (the game never ends by itself)
    chips: Annotated[int, Doc("每人起始子数 (0 = 不记子)", "子 (chips) each player starts with (0: no 子 ledger)")]


@cache
def hints(cls: type) -> dict[str, Any]:
    """A dataclass's field types, `Annotated` kept; read once per class."""
    return get_type_hints(cls, include_extras=True)


def key_docs(cls: type, prefix: str, section: str = "") -> dict[str, Doc]:
    """The `Doc` of every key under a section dataclass, dotted (`numbers.di_fan.discard`), in field order,
    each naming its docs section: its own, else its group's (`section` for `cls`, a nested group's `Section`).
    A nested dataclass's keys are its fields'; a key without a `Doc` is left out (a test finds it)."""
    out: dict[str, Doc] = {}
    for f in fields(cls):
        hint = hints(cls)[f.name]
        meta = get_args(hint)[1:] if get_origin(hint) is Annotated else ()
        base, _ = _unwrap(hint)
        if is_dataclass(base) and isinstance(base, type):
            group = next((m.name for m in meta if isinstance(m, Section)), section)
            out.update(key_docs(base, f"{prefix}.{f.name}", group))
            continue
        docs = [m for m in meta if isinstance(m, Doc)]
        if docs:
            out[f"{prefix}.{f.name}"] = docs[0] if docs[0].section or not section else Doc(docs[0].zh, docs[0].en, section)
    return out


def optional_fields(cls: type) -> frozenset[str]:
    """The fields of `cls` a ruleset may leave out (those with a default)."""
    return frozenset(f.name for f in fields(cls) if f.default is not MISSING or f.default_factory is not MISSING)


def _aliases(hint: Any) -> Mapping[object, str]:
    if get_origin(hint) is Annotated:
        for m in get_args(hint)[1:]:
            if isinstance(m, Aliases):
                return m.of
    return {}


def describe(hint: Any) -> Text:
    """What a value of type `hint` must be, in words (of the catalogue)."""
    aliases = _aliases(hint)
    hint, bounds = _unwrap(hint)
    if aliases and get_origin(hint) is Literal:
        old = ", ".join(f"{'true' if k is True else 'false' if k is False else k} for {v!r}" for k, v in aliases.items())
        return N_("one of {choices} (or {aliases})", choices=", ".join(repr(v) for v in get_args(hint)), aliases=old)
    if hint is bool:
        return N_("true or false")
    if hint is int:
        lo, hi = bounds or (INTEGERS.lo, INTEGERS.hi)
        return N_("an integer from {low} to {high}", low=lo, high=hi)
    if hint is float:
        lo, hi = bounds or (NUMBERS.lo, NUMBERS.hi)
        return N_("a number from {low} to {high}", low=lo, high=hi)
    if hint is str:
        return N_("a string")
    origin = get_origin(hint)
    if origin is Literal:
        return N_("one of {choices}", choices=", ".join(repr(v) for v in get_args(hint)))
    if origin is tuple:
        return N_("a list")
    if origin in (types.UnionType, Union):
        parts = [describe(a) for a in get_args(hint) if a is not type(None)]
        out = parts[0]
        for part in parts[1:]:
            out = N_("{first} or {second}", first=out, second=part)
        return out
    return N_("a mapping")


def _unwrap(hint: Any) -> tuple[Any, tuple[int | float, int | float] | None]:
    if get_origin(hint) is Annotated:
        base, *meta = get_args(hint)
        for m in meta:
            if isinstance(m, Range):
                return base, (m.lo, m.hi)
        return base, None
    return hint, None


def _join(where: str, key: object) -> str:
    return f"{where}.{key}" if where else str(key)


def convert(value: Any, hint: Any, where: str, source: str, partial: bool = False) -> Any:
    """`value` (plain YAML/JSON data) checked against `hint` and built into its frozen, typed form.

    With `partial` (an `extends:` file before the merge), missing keys are allowed and
    nothing is built: the result is None for a dataclass.
    """

    def fail(problem: Text) -> RulesetError:
        return RulesetError("ruleset_invalid", "{file}: {key}: {problem}", file=source, key=where or "<top>", problem=problem)

    base, bounds = _unwrap(hint)
    for old, new in _aliases(hint).items():
        if type(value) is type(old) and value == old:
            value = new
    if base is bool or base is int or base is float:
        number = base is not bool and isinstance(value, int | float) and not isinstance(value, bool)
        if base is bool:
            ok = isinstance(value, bool)
        elif base is int:
            ok = number and isinstance(value, int)
        else:
            ok = number and math.isfinite(value)
        if ok and base is not bool:
            default = INTEGERS if base is int else NUMBERS
            lo, hi = bounds or (default.lo, default.hi)
            ok = lo <= value <= hi
        if not ok:
            raise fail(N_("must be {what}, got {value}", what=describe(hint), value=shown(value)))
        return float(value) if base is float else value
    if base is str:
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise fail(N_("must be {what} of at most {limit} characters, got {value}", what=describe(hint), limit=MAX_TEXT, value=shown(value)))
        return value
    origin = get_origin(base)
    if origin is Literal:
        if not any(value == choice and type(value) is type(choice) for choice in get_args(base)):
            raise fail(N_("must be {what}, got {value}", what=describe(hint), value=shown(value)))
        return value
    if origin in (types.UnionType, Union):  # `X | None`: an optional key, or null
        if value is None:
            return None
        (inner,) = (a for a in get_args(base) if a is not type(None))
        return convert(value, inner, where, source, partial)
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise fail(N_("must be a list, got {value}", value=shown(value)))
        (item, _ellipsis) = get_args(base)
        return tuple(convert(v, item, f"{where}[{i}]", source, partial) for i, v in enumerate(value))
    if not isinstance(value, Mapping):
        raise fail(N_("must be a mapping, got {value}", value=shown(value)))
    if origin is not None and issubclass(origin, Mapping):  # Mapping[str, X]: free snake_case keys
        _, item = get_args(base)
        out: dict[str, Any] = {}
        for key, sub in value.items():
            if not isinstance(key, str) or not KEY.match(key):
                raise fail(N_("{key} is not a snake_case key (a-z, 0-9, _; at most 64 characters)", key=shown(key)))
            out[key] = convert(sub, item, _join(where, key), source, partial)
        return types.MappingProxyType(out)
    if is_dataclass(base) and isinstance(base, type):
        return _dataclass(value, base, where, source, partial)
    raise TypeError(f"bad schema type {hint!r}")  # pragma: no cover - a bug in a schema, not in a ruleset


def _dataclass(value: Mapping[Any, Any], cls: type, where: str, source: str, partial: bool) -> Any:
    types_ = hints(cls)
    for key in value:
        if key not in types_:
            raise RulesetError("ruleset_invalid", "{file}: {key}: unknown key", file=source,
                               key=_join(where, shown(key) if not isinstance(key, str) else key))
    optional = optional_fields(cls)
    built: dict[str, Any] = {}
    for name, hint in types_.items():
        if name in value:
            built[name] = convert(value[name], hint, _join(where, name), source, partial)
        elif not partial and name not in optional:
            raise RulesetError("ruleset_invalid", "{file}: {key}: missing key", file=source, key=_join(where, name))
    return None if partial else cls(**built)


def unaliased(value: Any, hint: Any) -> Any:
    """Plain YAML/JSON data with every older spelling (`Aliases`) written as the value it loads as,
    so that what a ruleset shows (`mjcalc options`) is what it means."""
    for old, new in _aliases(hint).items():
        if type(value) is type(old) and value == old:
            return new
    base, _ = _unwrap(hint)
    if is_dataclass(base) and isinstance(base, type) and isinstance(value, Mapping):
        types_ = hints(base)
        return {k: unaliased(v, types_[k]) if k in types_ else v for k, v in value.items()}
    return value


def frozen(value: Any) -> Any:
    """A read-only deep copy of plain YAML/JSON data: mappings become read-only, lists tuples."""
    if isinstance(value, Mapping):
        return types.MappingProxyType({k: frozen(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(frozen(v) for v in value)
    return value


def tile_in_variant(tile: int, tiles: Tiles) -> bool:
    """Whether a ruleset's `tiles` section (suits, honour numbers) includes `tile`."""
    suit = suit_of(tile)
    return number_of(tile) in tiles.honours if suit == "z" else suit in tiles.suits
