"""The table of variants: what a ruleset's `scorer:` names.

A `Variant` (ruleset.py) is a value: its schema (the frozen dataclasses its YAML's
`numbers`, `options` and pattern entries must fit), its detectors (pattern key →
function, its own namespace: two variants may use one key differently), its scorer and
settler. A loaded `Ruleset` carries its Variant, so scoring needs no look-up. The table
names each shipped variant by a "module:attr" string, so this floor imports no variant;
adding one is a package under variants/ and one name below (see docs/architecture.md). A test's
toy variant is an entry a fixture adds to the table (`monkeypatch.setitem(VARIANTS, ...)`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from importlib import import_module
from typing import Any

from .ruleset import Variant


class VariantTable(MutableMapping[str, "Variant[Any, Any, Any]"]):
    """Name → Variant, each shipped entry a "module:attr" string resolved (its package imported) on
    first use: `mjcalc score` of one Wuhu hand need not import the Chizhou and Pujiang scorers."""

    def __init__(self, shipped: Mapping[str, str]) -> None:
        self._entries: dict[str, Variant[Any, Any, Any] | str] = dict(shipped)

    def __getitem__(self, name: str) -> Variant[Any, Any, Any]:
        entry = self._entries[name]
        if not isinstance(entry, Variant):
            module, _, attr = entry.partition(":")
            entry = self._entries[name] = getattr(import_module(module), attr)
        return entry

    def __setitem__(self, name: str, variant: Variant[Any, Any, Any]) -> None:
        self._entries[name] = variant

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


# The shipped variants: each package (variants/<name>/__init__.py) declares its VARIANT.
VARIANTS: VariantTable = VariantTable({name: f"mahjong_calc.variants.{name}:VARIANT" for name in ("wuhu", "chizhou", "pujiang")})


def variant_for(scorer: str, table: Mapping[str, Variant[Any, Any, Any]] = VARIANTS) -> Variant[Any, Any, Any] | None:
    """The variant a ruleset's `scorer:` names, or None."""
    return table.get(scorer)
