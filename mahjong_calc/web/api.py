"""What the JSON API answers, without HTTP: one function per endpoint, plain values in and out.

Each returns `(status, body)`, where `body` is the same JSON text the matching CLI
command prints: `score` is `mjcalc score --json`, `waits` is `mjcalc waits --json`,
a game's state is `mjcalc game settle FILE --json`. A request the CLI would refuse
gives its error object, `{"valid": false, "error": {"code", "message"}}`, with a 4xx
status (`reason` instead of `error` for a hand that is not a win, status 422).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..core.errors import InputError, MjcalcError, NotAWin
from ..core.words import N_, Text

if TYPE_CHECKING:
    from ..core.flags import Field

Answer = tuple[int, str]

# error codes that are not "bad request" (400)
STATUS = {"unknown_game": 404, "no_game": 404, "nothing_to_undo": 409, "nothing_to_redo": 409, "stale_version": 409,
          "unknown_hand": 404, "missing_token": 401, "bad_token": 403,
          "bad_host": 403, "bad_origin": 403, "bad_content_type": 415, "body_too_large": 413, "not_found": 404,
          "method_not_allowed": 405, "internal_error": 500, "db_busy": 503, "bad_db": 503, "db_too_new": 503,
          "too_many_streams": 429, "busy": 503, "too_many_requests": 429, "too_many_games": 429,
          "too_many_hands": 409, "too_many_events": 409, "db_full": 507}


class ApiError(MjcalcError):
    """A refusal of the API: its code, message (a msgid of the catalogue, with its named
    parameters, rendered in the request's language), HTTP status and any headers (`Retry-After`)."""

    def __init__(self, code: str, message: str | Text, status: int | None = None, headers: Mapping[str, str] | None = None,
                 **params: object) -> None:
        super().__init__(code, message, None, None, **params)
        self.status = status if status is not None else STATUS.get(code, 400)
        self.headers = dict(headers or {})


def error_body(code: str, message: str | Text) -> str:
    """The CLI's error object: `{"valid": false, "error": {"code", "message"}}`, the message in the
    language of the request (core/words.speaking)."""
    from ..present.errors import clean

    return json.dumps({"valid": False, "error": {"code": code, "message": clean(str(message))}}, ensure_ascii=False)


def error_answer(err: MjcalcError) -> Answer:
    """A library error as the CLI prints it with --json, and its status."""
    from ..present.errors import error_json

    if isinstance(err, NotAWin):
        return 422, error_json(err)
    return STATUS.get(err.code, 400), error_json(err)


def json_kind(value: Any) -> Text:
    """What a JSON value is, in words of the catalogue: `a list`, `a string`, ..."""
    if isinstance(value, bool):
        return N_("true or false")
    if isinstance(value, int | float):
        return N_("a number")
    if isinstance(value, str):
        return N_("a string")
    if isinstance(value, list):
        return N_("a list")
    return N_("null") if value is None else N_("a JSON object")


def _mapping(body: Any, what: Text) -> Mapping[str, Any]:
    if not isinstance(body, dict):
        raise InputError("bad_record", "{what} must be a JSON object, not {name}", what=what, name=json_kind(body))
    return body


def answer_score(body: Any) -> Answer:
    """`POST /api/score`: one batch record → what `mjcalc score --json` prints for it."""
    from ..api import score_hand
    from ..core.batch_record import normalize, score_kwargs
    from ..present.render import to_json

    try:
        key, _ = normalize(_mapping(body, N_("a record")))
        kwargs = score_kwargs(key)
        return 200, to_json(score_hand(kwargs.pop("hand"), **kwargs))
    except MjcalcError as err:
        return error_answer(err)


_NOT_FOR_WAITS = ("win", "self_draw")


def answer_waits(body: Any) -> Answer:
    """`POST /api/waits`: a record of the 13 tiles before the win → what `mjcalc waits --json` prints."""
    from ..api.waits import hand_waits
    from ..core.batch_record import normalize, score_kwargs

    try:
        record = _mapping(body, N_("a record"))
        for name in _NOT_FOR_WAITS:
            if record.get(name) not in (None, False):
                raise InputError("unknown_field", "{name!r} does not apply to waits: every winning tile is tried, on a discard and on a self-draw", name=name)
        key, _ = normalize({k: v for k, v in record.items() if k not in _NOT_FOR_WAITS})
        kwargs = {k: v for k, v in score_kwargs(key).items() if k not in _NOT_FOR_WAITS}
        result = hand_waits(kwargs.pop("hand"), **kwargs)
    except MjcalcError as err:
        return error_answer(err)
    return (422 if result.reason is not None else 200), json.dumps(result.to_dict(), ensure_ascii=False)


def _page_flags(scorer: str) -> list[Field]:
    """The flags of a win the page offers as controls: the declared flags this scorer takes, less
    those a game works out itself (`computed`), the table's (asked with the others' fields) and
    those the page asks for its own way (`Field.on_page`)."""
    from ..core.flags import win_flags

    return [f for f in win_flags() if (f.variants is None or scorer in f.variants) and f.game in ("winner", "hand") and f.on_page]


def _others_fields(scorer: str) -> list[str]:
    """What the page asks about the other players for this scorer: the declared table fields
    (`game="table"`) whose settlement reads them, the game's own (`role="table"`) first."""
    from ..core.flags import fields

    def read(f: Field) -> bool:
        scorers = f.settled_by if f.settled_by is not None else f.variants
        return f.game == "table" and scorers is not None and scorer in scorers

    return [f.name for f in fields() if read(f) and f.role == "table"] + [f.name for f in fields() if read(f) and f.role != "table"]


def answer_variants() -> Answer:
    """`GET /api/variants`: `mjcalc variants --json`, with what the page needs of each variant:
    its tiles (the palette), its scorer and whether it has discard wins at all (`flags.SELF_DRAW_ONLY`), whether it
    has chow melds, whether one discard may make several winners (一炮多响), its own word for the discarder, the other
    flags of a win it takes, with what each implies (a flag implying self_draw is a self-drawn win), and the others'
    fields it asks for (all from `flags.fields()`)."""
    from ..api.settle import settlement_options
    from ..core.flags import SELF_DRAW_ONLY
    from ..core.tiles import parse_tiles, tile_name
    from ..rules.loader import load_ruleset, shipped_names

    rows = []
    for name in shipped_names():
        rs = load_ruleset(name)
        tiles = [f"{n}{s}" for s in rs.tiles.suits for n in range(1, 10)] + [f"{n}z" for n in rs.tiles.honours]
        flags = _page_flags(rs.scorer)
        rows.append({
            "name": name, "version": rs.version, "zh": rs.data["title"]["zh"], "en": rs.data["title"]["en"],
            "tiles": [{"tile": t, "zh": tile_name(parse_tiles(t)[0], "zh"), "en": tile_name(parse_tiles(t)[0], "en")} for t in tiles],
            "scorer": rs.scorer, "self_draw_only": rs.scorer in SELF_DRAW_ONLY,  # (the page's word for a discard win)
            "chow_melds": rs.tiles.chow_melds,
            "multiple_winners": rs.variant.settlement is not None and bool(settlement_options(rs).multiple_winners),
            # the table's own word for the discarder (labels.discard: Wuhu 点炮, Chizhou 放冲), where the ruleset has one
            "discarder": dict(word) if isinstance(word := rs.data.get("labels", {}).get("discard"), Mapping) else None,
            "flags": [{"name": f.name, "kind": f.kind, "zh": f.zh, "en": f.en, "max": f.maximum,
                       "label": dict(zip(("zh", "en"), f.short or (f.zh, f.en))), "implies": list(f.implies)} for f in flags],
            "others": _others_fields(rs.scorer),
        })
    return 200, json.dumps(rows, ensure_ascii=False)


# the fields of an advise request: each a string, or a list of strings for the melds
_ADVISE_FIELDS = {"hand": str, "variant": str, "melds": list, "concealed_kongs": list, "wild": str, "seen": str}


def answer_advise(body: Any) -> Answer:
    """`POST /api/advise`: `{"hand", "variant"?, "melds"?, "concealed_kongs"?, "wild"?, "seen"?}`
    → what `mjcalc advise --json` prints."""
    from ..api.advise import hand_advice

    try:
        record = _mapping(body, N_("an advise request"))
        for name, value in record.items():
            kind = _ADVISE_FIELDS.get(name)
            if kind is None:
                raise InputError("unknown_field", "{name!r} is not a field of an advise request (hand, variant, melds, concealed_kongs, wild, seen)", name=name)
            if value is None:
                continue
            if not isinstance(value, kind) or (kind is list and not all(isinstance(m, str) for m in value)):
                want = N_("a list of meld strings") if kind is list else N_("a string")
                raise InputError("bad_field", "{name!r} must be {want}", name=name, want=want)
        if not isinstance(record.get("hand"), str):
            raise InputError("missing_field", "an advise request needs 'hand': the 14 tiles after the draw")
        given = {k: v for k, v in record.items() if v is not None}
        result = hand_advice(given.pop("hand"), **given)
    except MjcalcError as err:
        return error_answer(err)
    return 200, json.dumps(result.to_dict(), ensure_ascii=False)
