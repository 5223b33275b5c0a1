"""Batch records: the fields a record may carry, strict checks, and CSV cell decoding.

A record is a mapping with the same fields as the `score` command's flags (plus an
optional `id` that is echoed back). `normalize` turns one into a hashable `Key`
(every field but `id`, in a fixed order), which is both what the scorer is called
with and the key of the batch result cache. Nothing is ever dropped: an unknown
field, or a value of the wrong type, is an `InputError` for that record.
The same contract, as JSON Schema, ships in `mahjong_calc/record.schema.json`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .errors import InputError

# field -> kind. Kinds: str, bool, int, count (an integer, absent = None), list (of strings), pungs (3 counts), id.
FIELDS: dict[str, str] = {
    "id": "id",
    "variant": "str",
    "hand": "str",
    "win": "str",
    "self_draw": "bool",
    "dealer": "bool",
    "dealer_seat": "str",
    "melds": "list",
    "concealed_kongs": "list",
    "after_kong": "bool",
    "robbing_kong": "bool",
    "heavenly": "bool",
    "earthly": "bool",
    "discarder": "str",
    "wild": "str",
    "piao": "int",
    "opponent_pungs": "pungs",
    "robbed_fan": "count",
}
KEY_FIELDS: tuple[str, ...] = tuple(name for name in FIELDS if name != "id")
_DEFAULTS: dict[str, Any] = {"bool": False, "list": (), "int": 0, "count": None, "str": None, "pungs": None}
_INDEX = {name: i for i, name in enumerate(KEY_FIELDS)}
_HAND = _INDEX["hand"]
_EMPTY_KEY = [_DEFAULTS[FIELDS[name]] for name in KEY_FIELDS]  # every field absent
_KIND_TEXT = {
    "str": "a string",
    "bool": "true or false",
    "int": "an integer",
    "count": "an integer",
    "list": "a list of strings",
    "pungs": "three counts NEXT,OPPOSITE,PREVIOUS (a list of 3 integers or a string such as '2,0,1')",
    "id": "a string or an integer",
}

Key = tuple[Any, ...]  # values of KEY_FIELDS, in that order
RecordId = str | int | None

_TRUE = frozenset({"true", "1"})
_FALSE = frozenset({"false", "0"})


def _bad(name: str, value: Any) -> InputError:
    return InputError("bad_field", f"field {name!r} must be {_KIND_TEXT[FIELDS[name]]}, not {value!r}")


def _check(name: str, kind: str, value: Any) -> Any:
    """The value of one typed (JSON/YAML) field, checked and made hashable."""
    if kind == "str":
        if isinstance(value, str):
            return value
    elif kind == "bool":
        if isinstance(value, bool):
            return value
    elif kind in ("int", "count"):
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


def record_id(raw: Any) -> RecordId:
    """The record's `id`, if it has a usable one (so that even a bad record echoes it)."""
    if isinstance(raw, Mapping):
        value = raw.get("id")
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            return value
    return None


def normalize(raw: Any) -> tuple[Key, RecordId]:
    """Check a JSON/YAML record; return its cache key and its `id`.

    `null` (YAML `~`) means "absent" for every field; `hand` is required.
    """
    if type(raw) is not dict and not isinstance(raw, Mapping):  # the ABC check is slow; most are dicts
        raise InputError("bad_record", f"a record must be a mapping of fields, not {type(raw).__name__}")
    values = _EMPTY_KEY.copy()
    rid: RecordId = None
    for name, value in raw.items():
        kind = FIELDS.get(name) if isinstance(name, str) else None
        if kind is None:
            raise InputError("unknown_field", f"unknown field {name!r}; fields are: {', '.join(FIELDS)}")
        if value is None:
            continue
        if kind == "id":
            if not isinstance(value, (str, int)) or isinstance(value, bool):
                raise _bad(name, value)
            rid = value
        elif (kind == "str" and type(value) is str) or (kind == "bool" and type(value) is bool):
            values[_INDEX[name]] = value  # the common fields, checked inline
        else:
            values[_INDEX[name]] = _check(name, kind, value)
    return _finish(values), rid


def _finish(values: list[Any]) -> Key:
    if values[_HAND] is None:
        raise InputError("missing_field", "the record has no 'hand'")
    return tuple(values)


def _cell(name: str, kind: str, text: str) -> Any:
    """Decode one CSV cell (already known to be non-empty)."""
    if kind == "bool":
        low = text.strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise InputError("bad_field", f"column {name!r} must be true/false/1/0, not {text!r}")
    if kind in ("int", "count"):
        try:
            return int(text.strip())
        except ValueError:
            raise InputError("bad_field", f"column {name!r} must be an integer, not {text!r}") from None
    if kind == "list":
        return tuple(text.split())
    return text  # str, pungs ('2,0,1'), id


def normalize_csv(row: Mapping[str, str]) -> tuple[Key, RecordId]:
    """Check a CSV record (every cell a string; an empty cell means absent).

    Booleans are true/false/1/0 (any case); `melds` and `concealed_kongs` hold
    melds separated by spaces; `opponent_pungs` is written 2,0,1.
    """
    values = _EMPTY_KEY.copy()
    rid: RecordId = None
    for name, text in row.items():
        kind = FIELDS.get(name)
        if kind is None:
            raise InputError("unknown_field", f"unknown column {name!r}; columns are: {', '.join(FIELDS)}")
        if text == "":
            continue
        if kind == "id":
            rid = text
        else:
            values[_INDEX[name]] = _cell(name, kind, text)
    return _finish(values), rid


def csv_id(row: Mapping[str, str]) -> RecordId:
    """The `id` cell of a CSV row, if any."""
    return row.get("id") or None


def score_kwargs(key: Key) -> dict[str, Any]:
    """Keyword arguments for `score_hand` from a record key."""
    return dict(zip(KEY_FIELDS, key))


def schema_path() -> Path:
    """The JSON Schema of a record, shipped inside the package."""
    return Path(__file__).resolve().parent / "record.schema.json"


def load_schema() -> dict[str, Any]:
    """The record JSON Schema as a dict (for `jsonschema` or any other validator)."""
    import json

    schema: dict[str, Any] = json.loads(schema_path().read_text(encoding="utf-8"))
    return schema
