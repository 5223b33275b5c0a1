"""Batch records: the fields a record may carry, strict checks, and CSV cell decoding.

A record is a mapping with the same fields as the `score` command's flags (plus an
optional `id` that is echoed back). `normalize` turns one into a hashable `Key`
(every field but `id`, in a fixed order), which is both what the scorer is called
with and the key of the batch result cache. Nothing is ever dropped: an unknown
field, or a value of the wrong type, is an `InputError` for that record.
The same contract, as JSON Schema, ships in `mahjong_calc/record.schema.json`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from . import flags as flag_table
from .errors import InputError, shown
from .words import N_, Text


class _Fields:
    """What a record's checks read of the declared fields (flags.fields()), made once: `_FIELD_TABLE`."""

    def __init__(self) -> None:
        # field -> kind. Kinds: str, bool, int, list (of strings), pungs (3 counts), id.
        self.kinds: dict[str, str] = {f.name: f.record_kind for f in flag_table.fields() if f.in_record}
        self.names: tuple[str, ...] = flag_table.key_fields()
        self.index: dict[str, int] = {name: i for i, name in enumerate(self.names)}
        self.hand: int = self.index["hand"]
        by_name = flag_table.by_name()
        self.empty_key: list[Any] = [by_name[name].default for name in self.names]  # every field absent


_FIELD_TABLE: Final = _Fields()


def record_kinds() -> dict[str, str]:
    """Each field a batch record may give, and its kind: str, bool, int, list (of strings), pungs (3 counts), id."""
    return _FIELD_TABLE.kinds


_KIND_TEXT: Final = {
    "str": N_("a string"),
    "bool": N_("true or false"),
    "int": N_("an integer"),
    "list": N_("a list of strings"),
    "pungs": N_("three counts NEXT,OPPOSITE,PREVIOUS (a list of 3 integers or a string such as '2,0,1')"),
    "id": N_("a string or an integer of at most 64 bits"),
}

Key = tuple[Any, ...]  # values of flags.key_fields(), in that order
RecordId = str | int | None

EXTRA_FIELDS: Final = ("error", "keep")  # --extra-fields: a field that is not one is an unknown_field error row, or echoed under "extra"


def check_extra_fields(mode: str) -> str:
    """An --extra-fields value (`batch`, `game settle`, `stats`), or bad_extra_fields."""
    if mode not in EXTRA_FIELDS:
        raise InputError("bad_extra_fields", "--extra-fields must be one of {extra_fields}, not {value}",
            extra_fields=", ".join(EXTRA_FIELDS), value=shown(mode))
    return mode


# a yes/no cell as spreadsheets write it (any case): true/false, 1/0, yes/no, y/n, 是/否, √/×
_TRUE: Final = frozenset({"true", "1", "yes", "y", "是", "√", "✓", "✔"})
_FALSE: Final = frozenset({"false", "0", "no", "n", "否", "×", "✗", "✘"})


def _bad(name: str, value: Any) -> InputError:
    return InputError("bad_field", "field {name!r} must be {kind}, not {value}", name=name, kind=_KIND_TEXT[record_kinds()[name]], value=shown(value))


def _check(name: str, kind: str, value: Any) -> Any:
    """The value of one typed (JSON/YAML) field, checked and made hashable."""
    if kind == "str":
        if isinstance(value, str):
            return value
    elif kind == "bool":
        if isinstance(value, bool):
            return value
    elif kind == "int":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif kind == "list":
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return tuple(value)
    elif kind == "pungs":
        if isinstance(value, str):
            return value
        if isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return tuple(value)
    raise _bad(name, value)


def is_text(value: str) -> bool:
    """Whether `value` is Unicode text (no lone surrogate, which UTF-8 cannot hold)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _usable_id(value: Any) -> bool:
    """A string, or an integer that fits in 64 bits (a longer one could not even be printed)."""
    if isinstance(value, str):
        return True
    low, high = flag_table.ID_RANGE
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def record_id(raw: Any) -> RecordId:
    """The record's `id`, if it has a usable one (so that even a bad record echoes it)."""
    if isinstance(raw, Mapping):
        value = raw.get("id")
        if _usable_id(value):
            return value
    return None


def normalize(raw: Any) -> tuple[Key, RecordId]:
    """Check a JSON/YAML record; return its cache key and its `id`.

    `null` (YAML `~`) means "absent" for every field; `hand` is required.
    """
    if type(raw) is not dict and not isinstance(raw, Mapping):  # the ABC check is slow; most are dicts
        raise InputError("bad_record", "a record must be a mapping of fields, not {type}", type=type(raw).__name__)
    table = _FIELD_TABLE
    kinds, index = table.kinds, table.index
    values = table.empty_key.copy()
    rid: RecordId = None
    for name, value in raw.items():
        kind = kinds.get(name) if isinstance(name, str) else None
        if kind is None:
            raise InputError("unknown_field", "unknown field {name}{suggestion} (`--extra-fields keep` echoes a field that is not a record's); "
                             "fields are: {fields}",
                                 name=shown(name), suggestion=_did_you_mean(name), fields=", ".join(kinds))
        if value is None:
            continue
        if kind == "id":
            if not _usable_id(value):
                raise _bad(name, value)
            rid = value
        elif (kind == "str" and type(value) is str) or (kind == "bool" and type(value) is bool):
            values[index[name]] = value  # the common fields, checked inline
        else:
            values[index[name]] = _check(name, kind, value)
    return _finish(values, table.hand), rid


def _did_you_mean(name: object) -> Text | str:
    """` (did you mean 'self_draw'?)` for `selfdraw`, `self-draw`, `Self_Draw`; '' when nothing is close."""
    if not isinstance(name, str):
        return ""
    import difflib

    kinds = record_kinds()
    folded = {f.replace("_", ""): f for f in kinds}
    plain = name.lower().replace("-", "").replace("_", "").replace(" ", "")
    match = folded.get(plain) or next(iter(difflib.get_close_matches(name.lower(), list(kinds), n=1, cutoff=0.75)), None)
    return N_(" (did you mean {field!r}?)", field=match) if match else ""


def _finish(values: list[Any], hand: int) -> Key:
    if values[hand] is None:
        raise InputError("missing_field", "the record has no 'hand'")
    return tuple(values)


def cell(name: str, kind: str, text: str) -> Any:
    """Decode one CSV cell (already known to be non-empty)."""
    if kind == "bool":
        low = text.strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise InputError("bad_field", "column {name!r} must be yes or no (true/false, 1/0, yes/no, Y/N, 是/否, √/×), not {value}",
                         name=name, value=shown(text))
    if kind == "int":
        digits = text.strip()
        if not re.fullmatch(r"[+-]?[0-9]+", digits):
            raise InputError("bad_field", "column {name!r} must be an integer, not {value}", name=name, value=shown(text))
        if len(digits) > 18:  # far out of any bound, and too long to convert safely
            field = flag_table.by_name()[name]
            raise InputError(f"bad_{name}", "column {name!r} must be from {low} to {high}, not {value}",
                             name=name, low=field.minimum, high=field.maximum, value=shown(text))
        return int(digits)
    if kind == "list":
        return tuple(text.split())
    return text  # str, pungs ('2,0,1'), id


def normalize_csv(row: Mapping[str, str]) -> tuple[Key, RecordId]:
    """Check a CSV record (every cell a string; an empty cell means absent).

    Booleans are yes or no as spreadsheets write them (true/false, 1/0, yes/no, Y/N, 是/否, √/×, any case);
    `melds` and `concealed_kongs` hold
    melds separated by spaces; `opponent_pungs` is written 2,0,1.
    """
    table = _FIELD_TABLE
    kinds, index = table.kinds, table.index
    values = table.empty_key.copy()
    rid: RecordId = None
    for name, text in row.items():
        kind = kinds.get(name)
        if kind is None:
            raise InputError("unknown_field", "unknown column {name}{suggestion} (`--extra-fields keep` echoes a column that is not a field); "
                             "columns are: {fields}",
                                 name=shown(name), suggestion=_did_you_mean(name), fields=", ".join(kinds))
        if text == "":
            continue
        if kind == "id":
            rid = text
        else:
            values[index[name]] = cell(name, kind, text)
    return _finish(values, table.hand), rid


def score_kwargs(key: Key) -> dict[str, Any]:
    """Keyword arguments for `score_hand` from a record key: the fields it gives (an absent
    one is its default in `score_hand` too, so leaving it out changes nothing and is faster)."""
    table = _FIELD_TABLE
    return {name: value for name, value, absent in zip(table.names, key, table.empty_key) if value is not absent and value != absent}


def schema_path() -> Path:
    """The JSON Schema of a record, shipped inside the package."""
    return Path(__file__).resolve().parent.parent / "record.schema.json"


def load_schema() -> dict[str, Any]:
    """The record JSON Schema as a dict (for `jsonschema` or any other validator)."""
    import json

    schema: dict[str, Any] = json.loads(schema_path().read_text(encoding="utf-8"))
    return schema
