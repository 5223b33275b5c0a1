"""docs/architecture.md's "Adding a variant", done as a maintainer does it, through every door.

A copy of the Chizhou variant with another cap (封顶 2 番, not 3) is made under a new name,
`chizhou_cap`, in a temporary package: its modules copied, only its imports made absolute, its
settler renamed (a settle function need not be called `settle_<name>`) and its Variant given the
new name; a copy of chizhou.yaml with `scorer: chizhou_cap` and `cap: 2` beside the shipped
rulesets. Then the edits below, and nothing else: it is scored, waited on, advised, batched,
settled in a game file and in a live game, offered by `/api/variants` with its others' fields,
and shown by `mjcalc options`. The counts at the top are what docs/architecture.md states
(tests/test_toy_flag.py does the same for a flag).
"""

from __future__ import annotations

import importlib
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mahjong_calc.cli.app import app
from mahjong_calc.core.flags import also_for, fields
from mahjong_calc.rules import loader
from mahjong_calc.rules.registry import register_variant

REPO = Path(__file__).resolve().parent.parent
CHIZHOU = REPO / "mahjong_calc" / "variants" / "chizhou"
DOC = REPO / "docs" / "architecture.md"
NAME = "chizhou_cap"
PACKAGE = "recipe_variants"

# What the recipe took, counted as this test makes it.
NEW_MODULES = tuple(sorted(p.name for p in CHIZHOU.glob("*.py")))  # the variant's package, copied
NEW_FILES = len(NEW_MODULES) + 1  # and rulesets/<name>.yaml
# the flags Chizhou reads, each one edit in core/flags.py (its name in `variants=`, or in
# `settled_by=` for `exposed`, which every variant takes for the copy check)
FLAG_EDITS = tuple(f.name for f in fields() if "chizhou" in ((f.variants or ()) + (f.settled_by or ())))
REGISTRY_EDITS = 1  # register_variant: in the tree, the name in rules/registry.py's shipped tuple
EDITS = len(FLAG_EDITS) + REGISTRY_EDITS

HAND = "111m333m555m777m11z"  # 对对胡 混一色: above either cap
SMALL = "123m456p111z222z55s"  # below either cap
PLAYERS = ["王", "李", "张", "赵"]


@pytest.fixture(scope="module")
def variant(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    root = tmp_path_factory.mktemp("recipe")
    package = root / PACKAGE / NAME
    package.mkdir(parents=True)
    (root / PACKAGE / "__init__.py").write_text("", encoding="utf-8")
    for name in NEW_MODULES:
        text = (CHIZHOU / name).read_text(encoding="utf-8")
        text = text.replace("from ...", "from mahjong_calc.").replace("from ..common", "from mahjong_calc.variants.common")
        text = text.replace("settle_chizhou", "pay_at_the_cap").replace('Variant(\n    "chizhou",', f'Variant(\n    "{NAME}",')
        (package / name).write_text(text, encoding="utf-8")
    rulesets = root / "rulesets"
    shutil.copytree(loader.rulesets_dir(), rulesets)
    yaml = (rulesets / "chizhou.yaml").read_text(encoding="utf-8")
    yaml = re.sub(r"(?m)^name: chizhou$", f"name: {NAME}", yaml)
    yaml = re.sub(r"(?m)^scorer: chizhou$", f"scorer: {NAME}", yaml)
    yaml = re.sub(r"(?m)^  cap: 3 ", "  cap: 2 ", yaml)
    assert yaml.count(NAME) == 2 and "cap: 2" in yaml
    (rulesets / f"{NAME}.yaml").write_text(yaml, encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(root))
        mp.setattr(loader, "rulesets_dir", lambda: rulesets)
        mp.setenv("MJCALC_NO_CACHE", "1")
        module = importlib.import_module(f"{PACKAGE}.{NAME}")
        assert module.VARIANT.name == NAME
        with register_variant(module.VARIANT), also_for(NAME, FLAG_EDITS):
            yield module.VARIANT


def _json(args: list[str], input: str | None = None) -> Any:
    out = CliRunner().invoke(app, args, input=input)
    assert out.exit_code in (0, 1), out.output
    return json.loads(out.stdout)


def test_the_copy_is_the_variants_own_package(variant: Any) -> None:
    assert variant.score.__module__ == f"{PACKAGE}.{NAME}.score"
    assert loader.load_ruleset(NAME).variant is variant


def test_score_applies_the_new_cap(variant: Any) -> None:
    values = []
    for hand in (HAND, SMALL):
        capped = _json(["score", "--variant", NAME, "-s", "--json", hand])
        shipped = _json(["score", "--variant", "chizhou", "-s", "--json", hand])
        assert capped["value"] == min(shipped["value"], 2), hand
        values.append(shipped["value"])
    assert values[1] < 2 < values[0]  # one hand below the new cap, one above it
    assert "la_zi" in _json(["score", "--variant", NAME, "-s", "--json", HAND])["patterns"]


def test_waits_and_advise(variant: Any) -> None:
    def tiles(args: list[str]) -> list[str]:
        return [w["tile"] for w in _json(args)["waits"]]

    assert tiles(["waits", "--variant", NAME, "--json", "111m333m555m777m1z"]) == tiles(["waits", "--variant", "chizhou", "--json", "111m333m555m777m1z"]) != []
    advice = _json(["advise", "--variant", NAME, "--json", "111m333m555m777m17z"])  # through the variant's shanten rules
    shipped = _json(["advise", "--variant", "chizhou", "--json", "111m333m555m777m17z"])
    def plan(answer: Any) -> list[Any]:
        return [(d["tile"], d["shanten"], d["ukeire"]) for d in answer["discards"]]

    assert (advice["shanten"], plan(advice)) == (shipped["shanten"], plan(shipped))
    values = [w["discard"]["value"] for d in advice["discards"] for w in d.get("waits", ()) if w["discard"]["valid"]]
    assert values and max(values) == 2  # scored under the new cap


def test_batch(variant: Any) -> None:
    records = [{"hand": HAND, "self_draw": True, "variant": NAME}, {"hand": HAND, "self_draw": True, "variant": NAME, "robbing_kong": True}]
    out = CliRunner().invoke(app, ["batch", "-o", "jsonl", "-"], input="".join(json.dumps(r) + "\n" for r in records))
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert rows[0]["value"] == 2
    assert rows[1]["error"]["code"] == "conflicting_flags"  # robbing_kong is the copy's flag too: checked, not refused as foreign


def test_game_settle_with_the_others_fields(variant: Any, tmp_path: Path) -> None:
    hands = [{"winner": "李", "self_draw": True, "hand": HAND},
             {"winner": "张", "discarder": "王", "hand": "123m456m789m11z", "melds": ["222z@王"], "hua": {"赵": 1}, "la_zi": ["王"],
              "exposed": {"赵": ["345p@王"]}},
             {"winner": "李", "discarder": "王", "hand": HAND, "piao_by": "赵"}]
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"variant": NAME, "players": PLAYERS, "dealer": "王", "hands": hands}, ensure_ascii=False), encoding="utf-8")
    report = _json(["game", "settle", str(path), "--json"])
    first, second, third = report["hands"]
    assert first["result"]["value"] == 2 and "error" not in second, report  # the settler, whatever its name, ran
    assert third["error"]["code"] == "flag_not_in_variant"  # a field Chizhou does not read stays refused


def test_live_game_add(variant: Any, tmp_path: Path) -> None:
    from mahjong_calc.live.store import Store

    db = tmp_path / "games.sqlite3"
    with Store(db) as store:
        store.new_game({"variant": NAME, "players": PLAYERS, "dealer": "王"})
    out = _json(["game", "add", "--db", str(db), "--winner", "李", "--self-draw", "--json", HAND])
    assert out["hands"][-1]["result"]["value"] == 2


def test_api_variants_offers_it_with_its_others_fields(variant: Any) -> None:
    from mahjong_calc.web.api import answer_variants

    status, body = answer_variants()
    rows = {row["name"]: row for row in json.loads(body)}
    assert status == 200 and NAME in rows
    assert rows[NAME]["others"] == rows["chizhou"]["others"] == ["exposed", "hua", "la_zi"]
    assert rows[NAME]["flags"] == rows["chizhou"]["flags"]


def test_options_shows_its_keys(variant: Any) -> None:
    keys = {row["key"]: row for row in _json(["options", NAME, "--json"])["options"]}
    shipped = {row["key"]: row for row in _json(["options", "chizhou", "--json"])["options"]}
    assert keys.keys() == shipped.keys() and (keys["numbers.cap"]["value"], shipped["numbers.cap"]["value"]) == (2, 3)
    assert CliRunner().invoke(app, ["options", NAME]).exit_code == 0


# --- the doc states these counts ------------------------------------------------------------


def _paragraph(start: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    at = text.index(start)
    end = re.search(r"\n(?:- \*\*|## )", text[at + len(start):])
    return text[at: at + len(start) + (end.start() if end else len(text))]


def test_the_doc_gives_the_counts_this_test_measures() -> None:
    recipe = _paragraph("## Adding a variant")
    assert f"New files ({NEW_FILES}" in recipe
    assert f"Edits to existing files ({EDITS} in 2 files" in recipe
    for name in NEW_MODULES:
        assert f"/{name}`" in recipe, name
    assert "tests/test_recipes.py" in recipe
