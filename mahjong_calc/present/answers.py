"""The JSON text `mjcalc score --json`, `waits --json` and `advise --json` print, made from a
batch record (the keys of a `mjcalc batch` JSON Lines record) instead of the command line.

The CLI and the page's engine (`window.mjcalc`, Python on Pyodide) call these, so an
answer in the browser is the CLI's answer byte for byte, a refused hand's error object
included (`{"valid": false, "error": {...}}`, as `--json` prints it).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..core.errors import InputError, MjcalcError
from .errors import error_json
from .render import to_json

if TYPE_CHECKING:
    from ..api.advise import Advice
    from ..api.waits import WaitsResult

# fields of a record that `waits` and `advise` do not take: every winning tile is tried, both ways
NOT_FOR_WAITS = ("win", "self_draw")
ADVISE_FIELDS = frozenset({"hand", "variant", "melds", "concealed_kongs", "wild", "id"})


def waits_json(result: WaitsResult) -> str:
    """`mjcalc waits --json`."""
    return json.dumps(result.to_dict(), ensure_ascii=False)


def advise_json(result: Advice) -> str:
    """`mjcalc advise --json`."""
    return json.dumps(result.to_dict(), ensure_ascii=False)


def _record(record: Any) -> Mapping[str, Any]:
    if not isinstance(record, Mapping):
        raise InputError("bad_record", "a record must be a mapping of fields, not {kind}", kind=type(record).__name__)
    return record


def _kwargs(record: Mapping[str, Any], skip: tuple[str, ...] = ()) -> dict[str, Any]:
    from ..core.batch_record import normalize, score_kwargs

    key, _ = normalize({k: v for k, v in record.items() if k not in skip})
    return score_kwargs(key)


def score_record(record: Any) -> str:
    """What `mjcalc score --json` prints for the hand of this record."""
    from ..api import score_hand

    try:
        kwargs = _kwargs(_record(record))
        return to_json(score_hand(kwargs.pop("hand"), spelling="cli", **kwargs))
    except MjcalcError as err:
        return error_json(err)


def waits_record(record: Any) -> str:
    """What `mjcalc waits --json` prints for the 13 tiles (and flags) of this record."""
    from ..api.waits import hand_waits

    try:
        given = _record(record)
        for name in NOT_FOR_WAITS:
            if given.get(name) not in (None, False):
                raise InputError("unknown_field", "{name!r} does not apply to waits: every winning tile is tried, on a discard and on a self-draw", name=name)
        kwargs = _kwargs(given, NOT_FOR_WAITS)
        return waits_json(hand_waits(kwargs.pop("hand"), spelling="cli", **kwargs))
    except MjcalcError as err:
        return error_json(err)


def advise_record(record: Any) -> str:
    """What `mjcalc advise --json` prints for the 14 tiles of this record (hand, variant, melds,
    concealed_kongs, wild: the record fields `advise` takes; any other field is `unknown_field`)."""
    from ..api.advise import hand_advice

    try:
        given = _record(record)
        other = sorted(k for k, v in given.items() if v is not None and k not in ADVISE_FIELDS)
        if other:
            raise InputError("unknown_field", "{name!r} does not apply to advise, which takes {fields}", name=other[0],
                             fields=", ".join(sorted(ADVISE_FIELDS - {"id"})))
        kwargs = _kwargs(given)
        taken = {k: v for k, v in kwargs.items() if k in ADVISE_FIELDS and k != "id"}
        return advise_json(hand_advice(taken.pop("hand"), spelling="cli", **taken))
    except MjcalcError as err:
        return error_json(err)
