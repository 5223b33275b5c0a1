"""game.schema.json, generated: the header and the hand fields of a game record.

A hand's fields are game/fields.py's (declared flags by their `Field.game`, and the
game's own); `python -m mahjong_calc.generate` writes the file, and a test fails when
it is stale.
"""

from __future__ import annotations

import json
from typing import Any

from ..core import flags as flag_table
from ..core.flags import Field
from . import fields as hand_fields

_PLAYER = {"$ref": "#/$defs/player"}
# the game's own fields of one hand (hand_fields.hand_kinds() names them)
OWN: dict[str, dict[str, Any]] = {
    "winner": _PLAYER,
    "winners": {
        "type": "array",
        "minItems": 1,
        "items": {
            "type": "object",
            "allOf": [{"$ref": "#/$defs/hand_fields"}],
            "properties": {"winner": _PLAYER},
            "required": ["winner", "hand"],
            "unevaluatedProperties": False,
        },
        "description": "一炮多响: each winner with their own tiles; they share the discarder.",
    },
    "draw": {"type": ["boolean", "null"], "description": "流局 / 黄庄: nobody won."},
    "dealer": {"$ref": "#/$defs/player", "description": "Optional check: the game works out the dealer; a different name is an error (two_dealers)."},
    "note": {"type": ["string", "null"], "description": "The hand's note (a spreadsheet's note or 备注 column): kept, shown and exported, never scored."},
}

_KIND_SCHEMA: dict[str, dict[str, Any]] = {
    "id": {"type": ["string", "integer", "null"]},
    "text": {"type": ["string", "null"]},
    "tile": {"type": ["string", "null"]},
    "seat": _PLAYER,
    "bool": {"type": ["boolean", "null"]},
    "count": {"type": ["integer", "null"], "minimum": 0},
    "maybe_count": {"type": ["integer", "null"], "minimum": 0},
    "melds": {"type": ["array", "null"], "items": {"type": "string"}},
}


def _declared(field: Field) -> dict[str, Any]:
    """A declared field's schema in a game record: its own, or its kind's, with its description."""
    out = dict(field.game_schema if field.game_schema is not None else _KIND_SCHEMA[field.kind])
    if field.name == "hand":
        out["type"] = "string"
    if field.game_en is not None:
        out["description"] = field.game_en
    elif field.role == "table":  # a game record's own field: its text says the variant
        out["description"] = field.en
    elif field.role != "id":
        out["description"] = flag_table.in_field_words(field.en) + ("" if field.variants is None else f" Variants: {', '.join(field.variants)}.")
    return out


def _property(name: str) -> dict[str, Any]:
    return OWN[name] if name in OWN else _declared(flag_table.by_name()[name])


def game_schema() -> dict[str, Any]:
    """The JSON Schema of a game file for `mjcalc game settle`, as shipped in game.schema.json."""
    winner = [name for name in hand_fields.winner_fields() if name != "winner"]
    hand = [name for name in hand_fields.hand_kinds() if name not in winner]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "mjcalc game record",
        "description": (
            "A recorded game for `mjcalc game settle`: the header (variant or rules, four players in seat order E S W N, "
            "the first dealer, optionally the starting 子) and the hands in order. In JSON Lines the first line is the "
            "header (`#/$defs/header`) and each further line one hand (`#/$defs/hand`). A player is named by name or by "
            "absolute seat E/S/W/N (东/南/西/北). null means absent. Unknown keys are an error. Generated from "
            "mahjong_calc/flags.py and mahjong_calc/game/ by `python -m mahjong_calc.generate`."
        ),
        "type": "object",
        "allOf": [{"$ref": "#/$defs/header"}],
        "required": ["players", "dealer", "hands"],
        "properties": {
            "hands": {"type": "array", "items": {"$ref": "#/$defs/hand"}, "description": "The hands, in the order they were played; numbered from 1."},
        },
        "unevaluatedProperties": False,
        "$defs": {
            "player": {"type": "string", "minLength": 1, "description": "A player's name, or an absolute seat E S W N / 东 南 西 北."},
            "meld": {"type": "string", "pattern": "^[^@]+(@.+)?$",
                     "description": "An exposed meld, with the player (or seat) who fed it after @: 555p@王, 123m@N."},
            "header": {
                "type": "object",
                "properties": {
                    "variant": {"type": "string", "description": "A shipped ruleset (see `mjcalc variants`).", "examples": ["wuhu315", "chizhou"]},
                    "rules": {"type": "string",
                              "description": "A ruleset YAML file instead of variant (relative to the game file); it may say `extends:`."},
                    "players": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 4, "maxItems": 4, "uniqueItems": True,
                                "description": "The four players in seat order E S W N."},
                    "dealer": {"$ref": "#/$defs/player", "description": "The first hand's dealer."},
                    "chips": {"type": "integer", "minimum": 0, "description": (
                        "子 each player starts with (Wuhu: default from the ruleset, 30 or 50). 0 keeps no 子 ledger: `chips` is null "
                        "in the report and the game never ends for 子.")},
                    "date": {"type": "string",
                             "description": "When the game was played, YYYY-MM-DD (or an ISO date and time): `mjcalc stats --since/--until` select by it."},
                    "hands": True,
                },
                "oneOf": [{"required": ["variant"]}, {"required": ["rules"]}],
            },
            "hand_fields": {"type": "object", "properties": {name: _property(name) for name in winner}},
            "hand": {
                "type": "object",
                "description": "One hand: a winner (or several, where the variant allows 一炮多响), or draw: true.",
                "allOf": [{"$ref": "#/$defs/hand_fields"}],
                "properties": {name: _property(name) for name in hand},
                "oneOf": [{"required": ["winner", "hand"]}, {"required": ["winners"]}, {"required": ["draw"]}],
                "unevaluatedProperties": False,
            },
        },
    }


def _text(value: Any, indent: str) -> str:
    """JSON, an object or array on one line when it fits in 150 characters, else one member a line."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(indent) + len(flat) <= 150 or not isinstance(value, (dict, list)) or not value:
        return flat
    inner = indent + "  "
    if isinstance(value, dict):
        rows = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_text(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(rows) + f"\n{indent}}}"
    return "[\n" + ",\n".join(inner + _text(v, inner) for v in value) + f"\n{indent}]"


def schema_text() -> str:
    """game.schema.json as shipped."""
    return _text(game_schema(), "") + "\n"
