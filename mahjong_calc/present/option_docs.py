"""What each ruleset key means: the data behind `mjcalc options VARIANT`.

Every number, option, settlement and tile switch is described where it is declared: the
`Doc(zh, en, section)` on its field in the variant's schema (`variants/<v>/ruleset_schema.py`),
the section being the `## ` heading of the variant's docs/rules page (`Variant.docs`)
that records the reading and its seed line. Pattern entries, labels and titles are names
and amounts whose meaning follows from the field (`ENTRY_FIELD_DOCS`).
`tests/test_options.py` checks the descriptions against the shipped rulesets and the
docs, both ways.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..rules.registry import variant_for
from ..rules.ruleset import Variant
from ..rules.schema import LIABILITY, Doc, Tiles, key_docs


def key_docs_of(variant: Variant[Any, Any, Any]) -> dict[str, Doc]:
    """What each `tiles:`, `numbers:`, `options:` and `settlement:` key of a variant means: the
    `Doc` on its field in the variant's schema (variants/<v>/ruleset_schema.py, rules/schema.py); a `Doc`
    that names no section is in its group's: a nested group's `Section`, `Variant.sections["tiles"]`, and
    LIABILITY for every settlement key."""
    out = key_docs(Tiles, "tiles", variant.sections.get("tiles", ""))
    out.update(key_docs(variant.numbers, "numbers"))
    out.update(key_docs(variant.options, "options"))
    if variant.settlement is not None:
        out.update(key_docs(variant.settlement, "settlement", LIABILITY))
    return out


# The fields of pattern entries, labels and titles: names and amounts, described by the field.
ENTRY_FIELD_DOCS: dict[str, tuple[str, str]] = {
    "zh": ("中文名", "Chinese name"),
    "en": ("英文名", "English name"),
    "fan": ("番数", "fan (番) it scores"),
    "fan_with_wild": ("有财神时的番数", "fan (番) when the hand holds a wild"),
    "base": ("成此牌型时的底子", "base 子 when it fires"),
    "role": ("嘴子 (zui_zi) 或 交 (jiao)", "a 嘴子 (zui_zi) or 交 by itself (jiao)"),
}
_TOP = ("title", "labels", "patterns")  # sections named by ENTRY_FIELD_DOCS, not by a Doc


@dataclass(frozen=True)
class OptionRow:
    """One key `--set` and `--rules` can change: its value now, what it means, where the docs explain it."""

    key: str
    value: Any
    zh: str
    en: str
    section: str

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "value": self.value, "zh": self.zh, "en": self.en, "docs": self.section}

    @property
    def shown(self) -> str:
        """The value as `--set` takes it (YAML flow style for lists and text)."""
        return json.dumps(self.value, ensure_ascii=False) if not isinstance(self.value, str) else self.value


def _leaves(node: Any, prefix: str) -> Iterator[tuple[str, Any]]:
    if isinstance(node, Mapping):
        for key, value in node.items():
            yield from _leaves(value, f"{prefix}.{key}" if prefix else str(key))
    else:
        yield prefix, list(node) if isinstance(node, tuple) else node


def _plain(value: Any) -> Any:
    """Read-only containers (tuples, mapping proxies) as JSON takes them."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def describe(document: Mapping[str, Any], scorer: str) -> list[OptionRow]:
    """Every changeable key of a ruleset document (`Ruleset.data`), in document order, described."""
    variant = variant_for(scorer)
    keys = key_docs_of(variant) if variant is not None else {}
    doc = variant.docs if variant is not None else ""
    groups = variant.sections if variant is not None else {}
    rows: list[OptionRow] = []
    for section, body in document.items():
        if section in ("name", "version", "scorer", "description") or not isinstance(body, Mapping):
            continue
        for key, value in _leaves(body, section):
            described = keys.get(key)
            zh, en, where = (described.zh, described.en, described.section) if described else ("", "", "")
            field = key.rsplit(".", 1)[-1]
            if section in _TOP and field in ENTRY_FIELD_DOCS:
                owner = key.split(".")[1] if section != "title" else "title"
                zh, en = (f"{owner}: {ENTRY_FIELD_DOCS[field][0]}", f"{owner}: {ENTRY_FIELD_DOCS[field][1]}")
                where = groups.get(section, "")
            rows.append(OptionRow(key, _plain(value), zh, en, f"{doc} § {where}" if where and doc else ""))
    return sorted(rows, key=_order)


_SECTION_ORDER = ("options", "numbers", "patterns", "tiles")


def _order(row: OptionRow) -> int:
    """Switches and amounts first, then pattern amounts and tiles; names (zh/en) last. Stable within."""
    if row.key.rsplit(".", 1)[-1] in ("zh", "en"):
        return len(_SECTION_ORDER) + 1
    section = row.key.split(".", 1)[0]
    return _SECTION_ORDER.index(section) if section in _SECTION_ORDER else len(_SECTION_ORDER)
