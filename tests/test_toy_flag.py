"""A flag declared once reaches every door: a toy flag and a toy detector, and no other edit.

`toy_last_tile` (海底, won on the last tile of the wall) is declared here, as one `Field`, and
read by one detector of a Wuhu-based variant that lives only in this test (its YAML is
tests/data/toy_flag.yaml). With `register_flag` and `register_variant` alone, the flag
reaches `score_hand`, `mjcalc score`, `mjcalc batch`, `mjcalc game settle`, `mjcalc game
add`, `POST /api/score` and the detector (so the scorer sees it).

`toy_moon` (海底捞月, the last tile drawn from the wall: a 嘴子 of the toy variant) implies
`self_draw` and has no clash line of its own: the implication alone makes it refuse a
discarder, and settle as a self-draw that all three pay, at every door (score, waits, batch,
game settle, game add, POST /api/score and /api/waits), and `/api/variants` tells the page.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

# every module that derives something from flags.fields(), imported before the flag is registered:
# what each derived must follow the registration, not only a first import
import mahjong_calc.batch.evaluate
import mahjong_calc.cli.live
import mahjong_calc.cli.score
import mahjong_calc.cli.tables
import mahjong_calc.game.engine
import mahjong_calc.web.api  # noqa: F401
from mahjong_calc.api import score_hand
from mahjong_calc.cli.app import app
from mahjong_calc.core.errors import InputError
from mahjong_calc.core.flags import Field, fields, register_flag
from mahjong_calc.core.hand import make_context
from mahjong_calc.rules.registry import register_variant
from mahjong_calc.rules.ruleset import Variant
from mahjong_calc.variants import wuhu as wuhu_variant
from mahjong_calc.variants.wuhu import patterns as wuhu_patterns
from mahjong_calc.variants.wuhu import ruleset_schema as wuhu
from mahjong_calc.variants.wuhu.patterns import WuhuRead
from mahjong_calc.variants.wuhu.score import score_wuhu

YAML = Path(__file__).parent / "data" / "toy_flag.yaml"
HAND = "123456m13m99p555p2m"

LAST_TILE = Field("toy_last_tile", "bool", "Won on the last tile of the wall (海底).", "海底", cli=("--toy-last-tile",),
                  variants=("wuhu_hai_di",))


def hai_di(r: WuhuRead) -> int:
    """The toy detector: 海底 is there when the win was on the last tile."""
    return int(getattr(r.ctx, "toy_last_tile"))  # noqa: B009 (a registered flag: mypy knows only the declared facts)


# every variant takes it (as --after-kong), so the shipped doors can be tried with it too
MOON = Field("toy_moon", "bool", "Won on the last tile of the wall, drawn (海底捞月); implies --self-draw.", "海底捞月 (算自摸)",
             cli=("--toy-moon",), implies=("self_draw",))


def lao_yue(r: WuhuRead) -> int:
    """海底捞月: the last tile, drawn."""
    return int(getattr(r.ctx, "toy_moon"))  # noqa: B009


HAI_DI: Variant[Any, Any, Any] = Variant(
    "wuhu_hai_di", wuhu.WuhuNumbers, wuhu.WuhuOptions, wuhu.WuhuPattern, {**wuhu_patterns.DETECTORS, "hai_di": hai_di, "lao_yue": lao_yue},
    score_wuhu, wuhu.WuhuSettlement, wuhu_variant.VARIANT.settle)


@pytest.fixture(autouse=True)
def toy_flag() -> Iterator[None]:
    with register_variant(HAI_DI), register_flag(LAST_TILE, clashes=[("toy_last_tile", ("heavenly",))]), register_flag(MOON):
        yield
    assert not {"toy_last_tile", "toy_moon"} & {f.name for f in fields()}


def _patterns(text: str) -> list[str]:
    return list(json.loads(text)["patterns"])


def _hand_patterns(hand: dict[str, Any]) -> list[str]:
    """A settled hand's patterns (one winner's `result`, or the first of `results`)."""
    result = hand["result"] if "result" in hand else hand["results"][0]
    return list(result["patterns"])


def test_the_library_and_the_detector_see_it() -> None:
    assert "hai_di" in score_hand(HAND, rules=YAML, self_draw=True, toy_last_tile=True).patterns
    assert "hai_di" not in score_hand(HAND, rules=YAML, self_draw=True).patterns
    assert make_context(toy_last_tile=True).toy_last_tile is True  # type: ignore[attr-defined]
    assert make_context().toy_last_tile is False  # type: ignore[attr-defined]


def test_its_clash_and_its_variant_are_checked() -> None:
    with pytest.raises(InputError) as info:
        make_context(toy_last_tile=True, heavenly=True)
    assert (info.value.code, info.value.message) == ("conflicting_flags", "--toy-last-tile and --heavenly cannot both be given")
    with pytest.raises(InputError) as info:
        score_hand(HAND, variant="wuhu315", self_draw=True, toy_last_tile=True)
    assert info.value.code == "flag_not_in_variant"


def test_mjcalc_score_takes_the_option() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["score", "--rules", str(YAML), "--self-draw", "--toy-last-tile", "--json", HAND])
    assert out.exit_code == 0, out.output
    assert "hai_di" in _patterns(out.stdout)
    assert "--toy-last-tile" in runner.invoke(app, ["score", "--help"]).stdout
    assert "--toy-last-tile" in runner.invoke(app, ["waits", "--help"]).stdout


def test_mjcalc_batch_takes_the_field() -> None:
    records = [{"hand": HAND, "self_draw": True, "toy_last_tile": True}, {"hand": HAND, "self_draw": True, "toy_last_tile": "yes"}]
    out = CliRunner().invoke(app, ["batch", "--rules", str(YAML), "-o", "jsonl", "-"], input="".join(json.dumps(r) + "\n" for r in records))
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert "hai_di" in rows[0]["patterns"]
    assert rows[1]["error"]["code"] == "bad_field"  # checked by its kind, like every declared field


def test_mjcalc_game_settle_takes_the_field(tmp_path: Path) -> None:
    game = {"rules": str(YAML), "players": ["王", "李", "张", "赵"], "dealer": "王",
            "hands": [{"winner": "李", "hand": HAND, "self_draw": True, "toy_last_tile": True},
                      {"winners": [{"winner": "张", "hand": HAND, "toy_last_tile": True}], "discarder": "李"}]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    out = CliRunner().invoke(app, ["game", "settle", str(path), "--json"])
    assert out.exit_code == 0, out.output
    hands = json.loads(out.stdout)["hands"]
    assert all("hai_di" in _hand_patterns(hand) for hand in hands), hands


def test_mjcalc_game_add_takes_the_option(tmp_path: Path) -> None:
    from mahjong_calc.live.store import Store

    db = tmp_path / "games.sqlite3"
    with Store(db) as store:
        store.new_game({"rules": str(YAML), "players": ["王", "李", "张", "赵"], "dealer": "王"})
    out = CliRunner().invoke(app, ["game", "add", "--db", str(db), "--winner", "李", "--self-draw", "--toy-last-tile", "--json", HAND])
    assert out.exit_code == 0, out.output
    assert "hai_di" in _hand_patterns(json.loads(out.stdout)["hands"][-1])
    assert "--toy-last-tile" in CliRunner().invoke(app, ["game", "add", "--help"]).stdout


def test_post_api_score_takes_the_field() -> None:
    from mahjong_calc.web import api

    status, body = api.answer_score({"hand": HAND, "variant": "wuhu315", "self_draw": True, "toy_last_tile": True})
    assert (status, json.loads(body)["error"]["code"]) == (400, "flag_not_in_variant")  # known, and checked
    status, body = api.answer_score({"hand": HAND, "self_draw": True, "toy_last_tile": False})
    assert status == 200


def test_the_generated_documents_follow_it() -> None:
    from mahjong_calc.core.flag_docs import readme_table, record_schema
    from mahjong_calc.game.json_schema import game_schema

    assert "toy_last_tile" in record_schema()["properties"]
    assert "toy_last_tile" in game_schema()["$defs"]["hand_fields"]["properties"]  # each winner's own, by default
    assert "`--toy-last-tile`" in readme_table()


# --- the shipped flags: a game takes every one it does not work out itself ---------------------


def test_a_game_record_takes_every_declared_field_it_does_not_compute() -> None:
    from mahjong_calc.game import fields as hand_fields

    for field in fields():
        assert (field.name in hand_fields.hand_kinds()) != (field.name in hand_fields.computed_fields()) or field.name == "dealer", field.name
    assert set(hand_fields.winner_fields()) - {"winner"} <= set(hand_fields.hand_kinds())


def test_game_add_robbed_fan_reaches_the_pujiang_settler(tmp_path: Path) -> None:
    """`game add --robbed-fan` was offered, but a game record refused `robbed_fan` (unknown_field)."""
    from mahjong_calc.live.store import Store

    rules = tmp_path / "pujiang-robbed.yaml"
    rules.write_text("extends: pujiang\noptions:\n  qiang_gang_amount: robbed_fan\n", encoding="utf-8")
    db = tmp_path / "games.sqlite3"
    with Store(db) as store:
        store.new_game({"rules": str(rules), "players": ["王", "李", "张", "赵"], "dealer": "王"})
    args = ["game", "add", "--db", str(db), "--winner", "王", "--discarder", "李", "--robbing-kong", "--win", "4m", "--json"]
    out = CliRunner().invoke(app, [*args, "--robbed-fan", "3", "111m222p333s456m77z"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["totals"]["王"] == 63  # 3 × 7 子 × 3, as `mjcalc score --robbed-fan 3` pays
    out = CliRunner().invoke(app, [*args, "111m222p333s456m77z"])
    assert (out.exit_code, json.loads(out.stdout)["error"]["code"]) == (2, "missing_robbed_fan")


# --- a flag with `implies` and no clash line: every door refuses a discarder ------------------

CLASH = "toy_moon and discarder cannot both be given"


def _error(text: str) -> tuple[str, str]:
    body = json.loads(text)
    return body["error"]["code"], body["error"]["message"]


def test_implies_is_expanded_before_the_clashes() -> None:
    assert make_context(toy_moon=True).self_draw is True
    for spelling, message in (("cli", "--toy-moon and --discarder cannot both be given"), ("field", CLASH)):
        with pytest.raises(InputError) as info:
            make_context(spelling=spelling, toy_moon=True, discarder="next")  # type: ignore[arg-type]
        assert (info.value.code, info.value.message) == ("conflicting_flags", message)
    with pytest.raises(InputError) as info:  # a clash among given flags still comes first
        make_context(toy_moon=True, self_draw=True, discarder="next")
    assert info.value.message == "--self-draw and --discarder cannot both be given"


def test_score_hand_and_mjcalc_score() -> None:
    moon = score_hand(HAND, rules=YAML, toy_moon=True)
    drawn = score_hand(HAND, rules=YAML, toy_moon=True, self_draw=True)
    assert "lao_yue" in moon.patterns and moon.payments == drawn.payments and len(set(moon.payments.values())) == 1
    with pytest.raises(InputError) as info:
        score_hand(HAND, rules=YAML, toy_moon=True, discarder="next")
    assert (info.value.code, info.value.message) == ("conflicting_flags", CLASH)
    out = CliRunner().invoke(app, ["score", "--rules", str(YAML), "--toy-moon", "--discarder", "next", "--json", HAND])
    assert (out.exit_code, _error(out.stdout)) == (2, ("conflicting_flags", "--toy-moon and --discarder cannot both be given"))


def test_waits_has_no_discard_column() -> None:
    out = CliRunner().invoke(app, ["waits", "--toy-moon", "--json", HAND[:-2]])
    assert out.exit_code == 0, out.output
    waits = json.loads(out.stdout)["waits"]
    assert waits and all(w["discard"]["error"]["message"] == "--after-kong, --heavenly and --toy-moon are self-drawn wins: there is no discard win"
                         for w in waits)
    assert all(w["self_draw"]["valid"] for w in waits)


def test_batch() -> None:
    records = [{"hand": HAND, "toy_moon": True, "discarder": "next"}, {"hand": HAND, "toy_moon": True}]
    out = CliRunner().invoke(app, ["batch", "-o", "jsonl", "-"], input="".join(json.dumps(r) + "\n" for r in records))
    first, second = (json.loads(line) for line in out.stdout.splitlines())
    assert (first["error"]["code"], first["error"]["message"]) == ("conflicting_flags", CLASH)
    assert len(set(second["payments"].values())) == 1  # a self-draw: all three pay alike


def test_game_settle_and_game_add(tmp_path: Path) -> None:
    from mahjong_calc.live.store import Store

    game = {"rules": str(YAML), "players": ["王", "李", "张", "赵"], "dealer": "王",
            "hands": [{"winner": "李", "discarder": "王", "hand": HAND, "toy_moon": True}, {"winner": "李", "hand": HAND, "toy_moon": True}]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    out = CliRunner().invoke(app, ["game", "settle", str(path), "--json"])
    refused, drawn = json.loads(out.stdout)["hands"]
    assert (refused["error"]["code"], refused["error"]["message"]) == ("conflicting_flags", CLASH)
    assert "lao_yue" in drawn["result"]["patterns"] and drawn["self_draw"] is True
    db = tmp_path / "games.sqlite3"
    with Store(db) as store:
        store.new_game({"rules": str(YAML), "players": ["王", "李", "张", "赵"], "dealer": "王"})
    args = ["game", "add", "--db", str(db), "--winner", "李", "--toy-moon", "--json"]
    out = CliRunner().invoke(app, [*args, "--discarder", "王", HAND])
    assert (out.exit_code, _error(out.stdout)) == (2, ("conflicting_flags", CLASH))
    out = CliRunner().invoke(app, [*args, HAND])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["hands"][-1]["self_draw"] is True


def test_the_web_api() -> None:
    from mahjong_calc.web import api

    status, body = api.answer_score({"hand": HAND, "toy_moon": True, "discarder": "next"})
    assert (status, _error(body)) == (400, ("conflicting_flags", CLASH))
    status, body = api.answer_score({"hand": HAND, "toy_moon": True})
    assert status == 200 and len(set(json.loads(body)["payments"].values())) == 1
    status, body = api.answer_waits({"hand": HAND[:-2], "toy_moon": True})
    assert status == 200 and all(not w["discard"]["valid"] for w in json.loads(body)["waits"])
    rows = json.loads(api.answer_variants()[1])
    assert all({"name": "toy_moon", "implies": ["self_draw"]}.items() <= next(f for f in row["flags"] if f["name"] == "toy_moon").items()
               for row in rows)


# --- what it took, as docs/architecture.md counts it ------------------------------------------

# a Field (core/flags.py), a WinContext fact (core/context.py: registered flags go without), a
# detector and its DETECTORS entry (patterns.py) and a YAML pattern entry: and no clashes() line
FLAG_EDITS, FLAG_FILES = 5, 4


def test_the_recipe_is_what_this_test_took() -> None:
    import dataclasses

    from mahjong_calc.core import flags as flag_table
    from mahjong_calc.core.context import WinContext

    assert "lao_yue" in YAML.read_text(encoding="utf-8") and HAI_DI.detectors["lao_yue"] is lao_yue
    assert not any("toy_moon" in (name, *others) for name, others in flag_table.clashes())
    assert "toy_moon" not in {f.name for f in dataclasses.fields(WinContext)}  # the tree's fifth edit
    doc = (Path(__file__).resolve().parent.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert f"- **A win flag** ({FLAG_EDITS} edits in {FLAG_FILES} files" in doc
