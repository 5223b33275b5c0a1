"""docs/architecture.md's "Adding a variant", done as a maintainer does it, in a copy of the tree
(tests/tree_copy.py), through every door.

A copy of the Chizhou variant with another cap (封顶 2 番, not 3), `chizhou_cap`, is added as a
package beside the others: its modules copied, its settler renamed (a settle function need not
be called `settle_<name>`) and its Variant given the new name; a copy of chizhou.yaml with
`scorer: chizhou_cap` and `cap: 2` beside the shipped rulesets. Then the edits the recipe lists,
and nothing else: it is scored, waited on, advised, batched, settled in a game file and in a live
game, offered by `/api/variants` with its others' fields, and shown by `mjcalc options`. The
counts the doc states are the ones this test measures (tests/test_toy_flag.py does the same for a flag).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from tree_copy import REPO, Tree

from mahjong_calc.core.flags import fields

pytestmark = pytest.mark.slow  # a copy of the tree, and a child Python that imports it

CHIZHOU = REPO / "mahjong_calc" / "variants" / "chizhou"
DOC = REPO / "docs" / "architecture.md"
NAME = "chizhou_cap"
MODULES = tuple(sorted(p.name for p in CHIZHOU.glob("*.py")))  # the variant's package, copied
# the flags Chizhou reads: one edit each in core/flags.py (its name in `variants=`, or in `settled_by=` for `exposed`)
FLAGS = tuple(f.name for f in fields() if "chizhou" in ((f.variants or ()) + (f.settled_by or ())))

HAND = "111m333m555m777m11z"  # 对对胡 混一色: above either cap
SMALL = "123m456p111z222z55s"  # below either cap

DOORS = r'''
import json
from pathlib import Path
from typer.testing import CliRunner
from mahjong_calc.cli.app import app
from mahjong_calc.live.store import Store
from mahjong_calc.rules.loader import load_ruleset
from mahjong_calc.web.api import answer_variants

NAME, HAND, SMALL = "chizhou_cap", "111m333m555m777m11z", "123m456p111z222z55s"
PLAYERS = ["王", "李", "张", "赵"]
run = CliRunner().invoke
def js(args, input=None):
    r = run(app, args, input=input)
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.stdout)
out = {}
out["package"] = load_ruleset(NAME).variant.score.__module__
out["score"] = [[js(["score", "--variant", v, "-s", "--json", h])["value"] for h in (HAND, SMALL)] for v in (NAME, "chizhou")]
out["la_zi"] = "la_zi" in js(["score", "--variant", NAME, "-s", "--json", HAND])["patterns"]
out["waits"] = [[w["tile"] for w in js(["waits", "--variant", v, "--json", "111m333m555m777m1z"])["waits"]] for v in (NAME, "chizhou")]
advice = [js(["advise", "--variant", v, "--json", "111m333m555m777m17z"]) for v in (NAME, "chizhou")]
out["advise"] = [[a["shanten"], [(d["tile"], d["shanten"], d["ukeire"]) for d in a["discards"]]] for a in advice]
out["advise_values"] = sorted({w["discard"]["value"] for d in advice[0]["discards"] for w in d.get("waits", ()) if w["discard"]["valid"]})
records = [{"hand": HAND, "self_draw": True, "variant": NAME}, {"hand": HAND, "self_draw": True, "variant": NAME, "robbing_kong": True}]
rows = [json.loads(line) for line in run(app, ["batch", "-o", "jsonl", "-"], input="".join(json.dumps(r) + "\n" for r in records)).stdout.splitlines()]
out["batch"] = [rows[0]["value"], rows[1]["error"]["code"]]
hands = [{"winner": "李", "self_draw": True, "hand": HAND},
         {"winner": "张", "discarder": "王", "hand": "123m456m789m11z", "melds": ["222z@王"], "hua": {"赵": 1}, "la_zi": ["王"],
          "exposed": {"赵": ["345p@王"]}},
         {"winner": "李", "discarder": "王", "hand": HAND, "piao_by": "赵"}]
Path("game.json").write_text(json.dumps({"variant": NAME, "players": PLAYERS, "dealer": "王", "hands": hands}, ensure_ascii=False), encoding="utf-8")
first, second, third = js(["game", "settle", "game.json", "--json"])["hands"]
out["settle"] = [first["result"]["value"], "error" in second, third["error"]["code"]]
with Store("games.sqlite3") as store:
    store.new_game({"variant": NAME, "players": PLAYERS, "dealer": "王"})
out["add"] = js(["game", "add", "--db", "games.sqlite3", "--winner", "李", "--self-draw", "--json", HAND])["hands"][-1]["result"]["value"]
status, body = answer_variants()
offered = {row["name"]: row for row in json.loads(body)}
out["api_variants"] = [status, offered[NAME]["others"], offered["chizhou"]["others"], offered[NAME]["flags"] == offered["chizhou"]["flags"]]
keys = {row["key"]: row["value"] for row in js(["options", NAME, "--json"])["options"]}
shipped = {row["key"]: row["value"] for row in js(["options", "chizhou", "--json"])["options"]}
out["options"] = [keys.keys() == shipped.keys(), keys["numbers.cap"], shipped["numbers.cap"], run(app, ["options", NAME]).exit_code]
print(json.dumps(out, ensure_ascii=False))
'''


def recipe(tree: Tree) -> None:
    """Adding a variant, as docs/architecture.md gives it."""
    for name in MODULES:
        text = (CHIZHOU / name).read_text(encoding="utf-8").replace("settle_chizhou", "pay_at_the_cap")
        text = text.replace('Variant(\n    "chizhou",', f'Variant(\n    "{NAME}",')
        tree.add(f"mahjong_calc/variants/{NAME}/{name}", text)
    yaml = (REPO / "rulesets" / "chizhou.yaml").read_text(encoding="utf-8")
    yaml = re.sub(r"(?m)^name: chizhou$", f"name: {NAME}", yaml)
    yaml = re.sub(r"(?m)^scorer: chizhou$", f"scorer: {NAME}", yaml)
    yaml = re.sub(r"(?m)^  cap: 3 ", "  cap: 2 ", yaml)
    assert yaml.count(NAME) == 2 and "cap: 2" in yaml
    tree.add(f"rulesets/{NAME}.yaml", yaml)
    tree.edit("mahjong_calc/rules/registry.py", '("wuhu", "chizhou", "pujiang")', f'("wuhu", "chizhou", "pujiang", "{NAME}")')
    flags = tree.root / "mahjong_calc" / "core" / "flags.py"
    for name in FLAGS:  # each flag's `variants=` (`exposed`: the settlers', `settled_by=`) gains the name
        text = flags.read_text(encoding="utf-8")
        start = text.index(f'    Field("{name}", ')
        key = "settled_by=(" if name == "exposed" else "variants=("
        inner = text.index(key, start) + len(key)
        close = text.index(")", inner)
        tree.edit("mahjong_calc/core/flags.py", text[start:close + 1], text[start:inner] + text[inner:close].rstrip(", ") + f', "{NAME}")')


@pytest.fixture(scope="module")
def doors(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tree = Tree(tmp_path_factory.mktemp("recipe"))
    recipe(tree)
    answers: dict[str, Any] = tree.run(DOORS)
    answers["tree"] = tree
    return answers


def test_the_copy_is_the_variants_own_package(doors: dict[str, Any]) -> None:
    assert doors["package"] == f"mahjong_calc.variants.{NAME}.score"


def test_score_applies_the_new_cap(doors: dict[str, Any]) -> None:
    capped, shipped = doors["score"]
    assert capped == [min(v, 2) for v in shipped] and shipped[1] < 2 < shipped[0]  # one hand below the new cap, one above it
    assert doors["la_zi"]


def test_waits_and_advise(doors: dict[str, Any]) -> None:
    assert doors["waits"][0] == doors["waits"][1] != []
    assert doors["advise"][0] == doors["advise"][1]  # through the variant's shanten rules
    assert doors["advise_values"] and max(doors["advise_values"]) == 2  # scored under the new cap


def test_batch_game_settle_and_a_live_game(doors: dict[str, Any]) -> None:
    assert doors["batch"] == [2, "conflicting_flags"]  # robbing_kong is the copy's flag too: checked, not refused as foreign
    assert doors["settle"] == [2, False, "flag_not_in_variant"]  # the settler, whatever its name, ran; piao_by stays refused
    assert doors["add"] == 2


def test_api_variants_and_options(doors: dict[str, Any]) -> None:
    assert doors["api_variants"] == [200, ["exposed", "hua", "la_zi"], ["exposed", "hua", "la_zi"], True]
    assert doors["options"] == [True, 2, 3, 0]


def test_the_doc_gives_the_counts_this_test_measures(doors: dict[str, Any]) -> None:
    tree: Tree = doors["tree"]
    text = DOC.read_text(encoding="utf-8")
    recipe_text = text[text.index("## Adding a variant"):]
    recipe_text = recipe_text[: recipe_text.index("\n## ", 3)]
    assert f"New files ({len(tree.added)}" in recipe_text
    assert f"Edits to existing files ({len(tree.edits)} in {len(set(tree.edits))} files" in recipe_text
    for name in MODULES:
        assert f"/{name}`" in recipe_text, name
    assert "tests/test_recipes.py" in recipe_text
