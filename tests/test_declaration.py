"""The declaration is closed: what a door accepts, the page is told and a scorer assumes follows
core/flags.py, the game's table fields included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.core import flags as flag_table
from mahjong_calc.core.flags import by_name, fields

WUHU_HAND = "13m456m678m11p555p2m"
PLAYERS = ["A", "B", "C", "D"]


def _settle(tmp_path: Path, variant: str, hand: dict[str, object]) -> dict[str, object]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"variant": variant, "players": PLAYERS, "dealer": "A", "hands": [hand]}), encoding="utf-8")
    out = CliRunner().invoke(app, ["game", "settle", str(path), "--json"])
    body: dict[str, object] = json.loads(out.stdout)
    return {"exit": out.exit_code, **body["hands"][0]}  # type: ignore[index]


@pytest.mark.parametrize(("variant", "extra", "field"), [
    ("wuhu315", {"hua": {"C": 3}, "la_zi": ["D"]}, "hua"),
    ("wuhu315", {"la_zi": ["D"]}, "la_zi"),
    ("wuhu315", {"piao_by": "D", "sheng_zhang": "C"}, "piao_by"),
    ("chizhou", {"piao_by": "D", "sheng_zhang": "C"}, "piao_by"),
])
def test_a_table_field_the_variant_does_not_use_is_an_error_row(tmp_path: Path, variant: str, extra: dict[str, object], field: str) -> None:
    row = _settle(tmp_path, variant, {"winner": "B", "discarder": "C", "hand": WUHU_HAND, **extra})
    assert row["exit"] == 1
    assert row["error"]["code"] == "flag_not_in_variant", row  # type: ignore[index]
    assert row["error"]["message"].startswith(f"{field} does not apply to {variant}"), row  # type: ignore[index]


def test_exposed_is_taken_everywhere_for_the_copy_check(tmp_path: Path) -> None:
    row = _settle(tmp_path, "wuhu315", {"winner": "B", "discarder": "C", "hand": WUHU_HAND, "exposed": {"D": ["2222m@A", "222p@C"]}})
    assert row["error"]["code"] == "too_many_copies", row  # type: ignore[index]
    assert by_name()["exposed"].variants is None and by_name()["exposed"].settled_by == ("chizhou", "pujiang")


def test_every_field_a_game_record_takes_is_declared() -> None:
    from mahjong_calc.game import fields as hand_fields

    own = {"winner", "winners", "draw", "dealer", "note"}  # who won, and a note: the game's own, not facts of a win
    assert set(hand_fields.hand_kinds()) - own <= {f.name for f in fields()}
    assert [f.name for f in fields() if f.role == "table"] == ["exposed", "sheng_zhang", "hua", "la_zi"]


def test_a_batch_record_does_not_take_the_tables_fields() -> None:
    rows = CliRunner().invoke(app, ["batch", "-o", "jsonl", "-"], input=json.dumps({"hand": WUHU_HAND, "hua": {"C": 3}}) + "\n").stdout
    assert json.loads(rows)["error"]["code"] == "unknown_field"


def test_api_variants_sends_implies_and_the_others_fields_from_the_declaration() -> None:
    from mahjong_calc.web.api import answer_variants

    rows = {row["name"]: row for row in json.loads(answer_variants()[1])}
    flags = {f["name"]: f for f in rows["wuhu315"]["flags"]}
    assert flags["after_kong"]["implies"] == ["self_draw"] and flags["heavenly"]["implies"] == ["self_draw", "dealer"]
    assert flags["earthly"]["implies"] == []
    assert rows["wuhu315"]["others"] == []
    assert rows["chizhou"]["others"] == ["exposed", "hua", "la_zi"]
    assert rows["pujiang"]["others"] == ["exposed", "sheng_zhang", "piao_by", "piao_count"]
    shown = {f["name"] for row in rows.values() for f in row["flags"]}
    assert shown.isdisjoint(f.name for f in fields() if not f.on_page or f.game in ("computed", "table"))


def test_waits_says_which_declared_flags_are_self_drawn() -> None:
    from mahjong_calc.api.waits import hand_waits

    waits = hand_waits("13m456m678m11p555p", heavenly=True).to_dict()["waits"]
    message = waits[0]["discard"]["error"]["message"]
    implying = [f.spelled for f in flag_table.win_flags() if "self_draw" in f.implies]
    assert implying == ["--after-kong", "--heavenly"]
    assert message == "--after-kong and --heavenly are self-drawn wins: there is no discard win"


def test_the_wuhu_kernel_takes_its_undoubled_zui_zi_from_the_declaration() -> None:
    from mahjong_calc.rules.loader import load_ruleset

    kn = load_ruleset("wuhu315").tables
    undoubled = {key for key, doubles in zip(kn.keys, kn.doubles, strict=True) if not doubles}
    assert undoubled == set(by_name()["after_kong"].not_doubled) == {"gang_hou_kai_hua"}
