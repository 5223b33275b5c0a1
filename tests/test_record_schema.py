"""The shipped record JSON Schema: it accepts the real records and agrees with the parser."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from mahjong_calc.api import score_hand
from mahjong_calc.core.batch_record import load_schema, normalize, record_kinds, schema_path, score_kwargs
from mahjong_calc.core.errors import InputError
from mahjong_calc.core.flag_docs import record_schema, schema_text
from mahjong_calc.core.flags import MAX_PIAO, MAX_PUNGS

WIN_315 = {"id": "a", "hand": "123456m13m99p555p2m", "self_draw": True}  # value 8
WIN_525 = {"id": 2, "hand": "123m456m789m11p999p", "variant": "wuhu525"}  # value 12, 通天
NOT_WIN = {"id": "c", "hand": "123456m99p555p44s4s"}  # not 八支
MELDED = {"id": "m", "hand": "123456m13m99p2m", "melds": ["555p"], "self_draw": True, "dealer": True}
RECORDS = [WIN_315, WIN_525, NOT_WIN, MELDED]

VALIDATOR = jsonschema.Draft202012Validator(load_schema())

GOOD: list[dict[str, Any]] = [
    *RECORDS,
    {"hand": "123m456m789m11p999p", "discarder": "next", "dealer_seat": "opposite", "win": "9p"},
    {"hand": "123m456m789m11p999p", "wild": "3m", "piao": 2, "opponent_pungs": [2, 0, 1]},
    {"hand": "123m456m789m11p999p", "opponent_pungs": "2,0,1", "id": None, "melds": None},
    {"hand": "123m567m99p", "concealed_kongs": ["4444m", "9999s"], "after_kong": True, "heavenly": False},
    {"hand": "123m567m99p", "robbing_kong": True, "earthly": False},
]

# Records the parser rejects as a whole-record shape problem; the schema must reject them too.
BAD: list[Any] = [
    {"hand": "123m456m789m11p999p", "colour": "red"},
    {"id": "no hand"},
    {"hand": 123},
    {"hand": "123m456m789m11p999p", "self_draw": "yes"},
    {"hand": "123m456m789m11p999p", "melds": "555p"},
    {"hand": "123m456m789m11p999p", "melds": [555]},
    {"hand": "123m456m789m11p999p", "piao": "2"},
    {"hand": "123m456m789m11p999p", "piao": True},
    {"hand": "123m456m789m11p999p", "id": True},
    {"hand": "123m456m789m11p999p", "id": [1]},
    {"hand": "123m456m789m11p999p", "opponent_pungs": [True, 0, 1]},
    ["123m"],
]


@pytest.mark.parametrize("record", GOOD)
def test_real_records_are_valid(record: dict[str, Any]) -> None:
    VALIDATOR.validate(record)
    normalize(record)  # the parser accepts them too


@pytest.mark.parametrize("record", BAD)
def test_schema_and_parser_both_reject(record: Any) -> None:
    assert not VALIDATOR.is_valid(record)
    with pytest.raises(InputError):
        normalize(record)


def test_schema_names_exactly_the_parser_fields() -> None:
    schema = load_schema()
    assert set(schema["properties"]) == set(record_kinds())
    assert schema["required"] == ["hand"]
    assert schema["additionalProperties"] is False


def test_examples_used_elsewhere_are_covered() -> None:
    assert {WIN_315["id"], WIN_525["id"], NOT_WIN["id"], MELDED["id"]} <= {r.get("id") for r in GOOD}


def test_the_shipped_schema_is_the_generated_one() -> None:
    """record.schema.json is made from mahjong_calc/core/flags.py (`python -m mahjong_calc.generate`)."""
    shipped = schema_path().read_text(encoding="utf-8")
    assert shipped == schema_text()
    assert json.loads(shipped) == record_schema() == load_schema()


@pytest.mark.parametrize(
    ("record", "code"),
    [
        ({"hand": "111m222p333s444s3m7z", "variant": "pujiang", "wild": "3m", "piao": MAX_PIAO + 1}, "bad_piao"),
        ({"hand": "111m222p333s444s3m7z", "variant": "pujiang", "opponent_pungs": [MAX_PUNGS + 1, 0, 0]}, "bad_opponent_pungs"),
        ({"hand": "111m222p333s444s3m7z", "variant": "pujiang", "opponent_pungs": f"{MAX_PUNGS + 1},0,0"}, "bad_opponent_pungs"),
    ],
)
def test_schema_bounds_are_the_scorer_bounds(record: dict[str, Any], code: str) -> None:
    assert not VALIDATOR.is_valid(record)
    key, _ = normalize(record)
    with pytest.raises(InputError) as info:
        score_hand(**score_kwargs(key))
    assert info.value.code == code
    at_bound = json.loads(json.dumps(record).replace(str(MAX_PIAO + 1), str(MAX_PIAO)).replace(str(MAX_PUNGS + 1), str(MAX_PUNGS)))
    VALIDATOR.validate(at_bound)
