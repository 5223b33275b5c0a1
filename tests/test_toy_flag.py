"""A flag declared once reaches every door: docs/architecture.md's recipe for a win flag, carried
out in a copy of the tree (tests/tree_copy.py), and measured.

`hai_di_lao_yue` (海底捞月, the last tile drawn from the wall) is added as a real flag is: one
`Field` in core/flags.py (it `implies` self_draw and has no clash line of its own), its fact on
`WinContext` (core/context.py), a detector and its `DETECTORS` entry in variants/wuhu/patterns.py,
and its pattern in rulesets/wuhu315.yaml (a 嘴子); then `python -m mahjong_calc.generate`. With
nothing else, it reaches `score_hand`, `mjcalc score`, `waits`, `batch`, `game settle`, `game
add`, `POST /api/score` and `/api/waits`, `/api/variants` and the generated documents; the
implication alone refuses a discarder and settles it as a self-draw that all three pay.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from tree_copy import REPO, Tree

pytestmark = pytest.mark.slow  # a copy of the tree, and a child Python that imports it

HAND = "123456m13m99p555p2m"
CLASH = "hai_di_lao_yue and discarder cannot both be given"
SELF_DRAWN = "--after-kong, --heavenly and --hai-di-lao-yue are self-drawn wins: there is no discard win"

# What the child tries at every door: each answer under a name.
DOORS = r'''
import json, sys
from pathlib import Path
from typer.testing import CliRunner
from mahjong_calc.api import score_hand
from mahjong_calc.cli.app import app
from mahjong_calc.core.errors import InputError
from mahjong_calc.core.hand import make_context
from mahjong_calc.live.store import Store
from mahjong_calc.web import api

HAND = "123456m13m99p555p2m"
run = CliRunner().invoke
out = {}
moon = score_hand(HAND, variant="wuhu315", hai_di_lao_yue=True)
drawn = score_hand(HAND, variant="wuhu315", hai_di_lao_yue=True, self_draw=True)
out["library"] = [list(moon.patterns), moon.payments == drawn.payments, sorted(set(moon.payments.values()))]
out["plain"] = list(score_hand(HAND, variant="wuhu315", self_draw=True).patterns)
out["context"] = [make_context(hai_di_lao_yue=True).hai_di_lao_yue, make_context(hai_di_lao_yue=True).self_draw]
for spelling in ("cli", "field"):
    try:
        make_context(spelling=spelling, hai_di_lao_yue=True, discarder="next")
    except InputError as err:
        out["clash_" + spelling] = [err.code, err.message]
try:
    score_hand(HAND, variant="chizhou", hai_di_lao_yue=True)
except InputError as err:
    out["other_variant"] = err.code
r = run(app, ["score", "--variant", "wuhu315", "--hai-di-lao-yue", "--json", HAND])
out["score"] = [r.exit_code, json.loads(r.stdout)["patterns"]]
r = run(app, ["score", "--hai-di-lao-yue", "--discarder", "next", "--json", HAND])
out["score_clash"] = [r.exit_code, json.loads(r.stdout)["error"]["message"]]
out["help"] = ["--hai-di-lao-yue" in run(app, [command, "--help"]).stdout for command in ("score", "waits")]
r = run(app, ["waits", "--hai-di-lao-yue", "--json", HAND[:-2]])
waits = json.loads(r.stdout)["waits"]
out["waits"] = [r.exit_code, len(waits), sorted({w["discard"]["error"]["message"] for w in waits}), all(w["self_draw"]["valid"] for w in waits)]
records = [{"hand": HAND, "hai_di_lao_yue": True, "discarder": "next"}, {"hand": HAND, "hai_di_lao_yue": True}, {"hand": HAND, "hai_di_lao_yue": "yes"}]
r = run(app, ["batch", "-o", "jsonl", "-"], input="".join(json.dumps(x) + "\n" for x in records))
rows = [json.loads(line) for line in r.stdout.splitlines()]
out["batch"] = [rows[0]["error"]["message"], rows[1]["patterns"], sorted(set(rows[1]["payments"].values())), rows[2]["error"]["code"]]
game = {"variant": "wuhu315", "players": ["王", "李", "张", "赵"], "dealer": "王",
        "hands": [{"winner": "李", "discarder": "王", "hand": HAND, "hai_di_lao_yue": True}, {"winner": "李", "hand": HAND, "hai_di_lao_yue": True}]}
Path("game.json").write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
hands = json.loads(run(app, ["game", "settle", "game.json", "--json"]).stdout)["hands"]
out["settle"] = [hands[0]["error"]["message"], hands[1]["result"]["patterns"], hands[1]["self_draw"]]
with Store("games.sqlite3") as store:
    store.new_game({"variant": "wuhu315", "players": ["王", "李", "张", "赵"], "dealer": "王"})
args = ["game", "add", "--db", "games.sqlite3", "--winner", "李", "--hai-di-lao-yue", "--json"]
r = run(app, [*args, "--discarder", "王", HAND])
out["add_clash"] = [r.exit_code, json.loads(r.stdout)["error"]["message"]]
r = run(app, [*args, HAND])
added = json.loads(r.stdout)["hands"][-1]
out["add"] = [r.exit_code, added["self_draw"], added["result"]["patterns"], "--hai-di-lao-yue" in run(app, ["game", "add", "--help"]).stdout]
status, body = api.answer_score({"hand": HAND, "hai_di_lao_yue": True, "discarder": "next"})
out["api_clash"] = [status, json.loads(body)["error"]["message"]]
status, body = api.answer_score({"hand": HAND, "hai_di_lao_yue": True})
out["api_score"] = [status, json.loads(body)["patterns"]]
status, body = api.answer_waits({"hand": HAND[:-2], "hai_di_lao_yue": True})
out["api_waits"] = [status, all(not w["discard"]["valid"] for w in json.loads(body)["waits"])]
rows = json.loads(api.answer_variants()[1])
out["api_variants"] = {row["name"]: [f for f in row["flags"] if f["name"] == "hai_di_lao_yue"] for row in rows}
from mahjong_calc.core.flag_docs import readme_table, record_schema
from mahjong_calc.game.json_schema import game_schema
out["documents"] = ["hai_di_lao_yue" in record_schema()["properties"], "hai_di_lao_yue" in game_schema()["$defs"]["hand_fields"]["properties"],
                    "`--hai-di-lao-yue`" in readme_table()]
print(json.dumps(out, ensure_ascii=False))
'''


def recipe(tree: Tree) -> None:
    """The recipe for a win flag, as docs/architecture.md gives it."""
    tree.edit("mahjong_calc/core/flags.py", '    Field("earthly", ', '    Field("hai_di_lao_yue", "bool", "Won on the last tile of the wall, drawn '
              '(海底捞月); implies --self-draw.", "海底捞月 (算自摸)", cli=("--hai-di-lao-yue",), variants=("wuhu",), implies=("self_draw",),\n'
              '          short=("海底捞月", "Last tile")),\n    Field("earthly", ')
    tree.edit("mahjong_calc/core/context.py", "    earthly: bool = False\n", "    earthly: bool = False\n    hai_di_lao_yue: bool = False\n")
    tree.edit("mahjong_calc/variants/wuhu/patterns.py", "WuhuDetector = Callable", 'def hai_di_lao_yue(r: WuhuRead) -> int:\n    """海底捞月: the last tile, '
              'drawn."""\n    return int(r.ctx.hai_di_lao_yue)\n\n\nWuhuDetector = Callable')
    tree.edit("mahjong_calc/variants/wuhu/patterns.py", '    "di_hu": common.di_hu,\n', '    "di_hu": common.di_hu,\n    "hai_di_lao_yue": hai_di_lao_yue,\n')
    tree.edit("rulesets/wuhu315.yaml", "  di_hu: {zh: 地胡, en: earthly hand, role: jiao}\n",
              "  di_hu: {zh: 地胡, en: earthly hand, role: jiao}\n  hai_di_lao_yue: {zh: 海底捞月, en: the last tile drawn from the wall, role: zui_zi}\n")


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Tree:
    made = Tree(tmp_path_factory.mktemp("flag"))
    recipe(made)
    (made.root / "docs").mkdir()
    (made.root / "docs" / "cli.md").write_text((REPO / "docs" / "cli.md").read_text(encoding="utf-8"), encoding="utf-8")
    done = made.python("-m", "mahjong_calc.generate")
    assert done.returncode == 0, done.stderr
    return made


@pytest.fixture(scope="module")
def doors(tree: Tree) -> dict[str, Any]:
    answers: dict[str, Any] = tree.run(DOORS)
    return answers


def test_the_library_and_the_detector_see_it(doors: dict[str, Any]) -> None:
    patterns, same_as_drawn, paid = doors["library"]
    assert "hai_di_lao_yue" in patterns and same_as_drawn and len(paid) == 1  # a self-draw: all three pay alike
    assert "hai_di_lao_yue" not in doors["plain"]
    assert doors["context"] == [True, True]
    assert doors["other_variant"] == "flag_not_in_variant"


def test_its_implication_refuses_a_discarder_at_every_door(doors: dict[str, Any]) -> None:
    assert doors["clash_cli"] == ["conflicting_flags", "--hai-di-lao-yue and --discarder cannot both be given"]
    assert doors["clash_field"] == ["conflicting_flags", CLASH]
    assert doors["score_clash"] == [2, "--hai-di-lao-yue and --discarder cannot both be given"]
    assert doors["batch"][0] == CLASH and doors["settle"][0] == CLASH and doors["api_clash"] == [400, CLASH]
    assert doors["add_clash"] == [2, CLASH]


def test_every_door_takes_it(doors: dict[str, Any]) -> None:
    assert doors["score"][0] == 0 and "hai_di_lao_yue" in doors["score"][1]
    assert doors["help"] == [True, True]
    exit_code, n, messages, self_drawn = doors["waits"]
    assert exit_code == 0 and n and messages == [SELF_DRAWN] and self_drawn
    _, patterns, paid, bad = doors["batch"]
    assert "hai_di_lao_yue" in patterns and len(paid) == 1 and bad == "bad_field"  # checked by its kind, like every declared field
    assert "hai_di_lao_yue" in doors["settle"][1] and doors["settle"][2] is True
    exit_code, self_draw, patterns, in_help = doors["add"]
    assert exit_code == 0 and self_draw is True and "hai_di_lao_yue" in patterns and in_help
    assert doors["api_score"][0] == 200 and "hai_di_lao_yue" in doors["api_score"][1]
    assert doors["api_waits"] == [200, True]
    offered = doors["api_variants"]
    assert all(offered[name] == [] for name in offered if not name.startswith("wuhu")), offered
    assert all(row[0]["implies"] == ["self_draw"] for name, row in offered.items() if name.startswith("wuhu"))
    assert doors["documents"] == [True, True, True]


def test_the_shipped_tree_has_no_such_flag() -> None:
    from mahjong_calc.api import score_hand
    from mahjong_calc.core.flags import by_name

    assert "hai_di_lao_yue" not in by_name()
    with pytest.raises(TypeError, match="hai_di_lao_yue"):
        score_hand(HAND, hai_di_lao_yue=True)


def test_the_recipe_is_what_this_test_took(tree: Tree) -> None:
    edits, files = len(tree.edits), len(set(tree.edits))
    doc = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    stated = re.search(r"- \*\*A win flag\*\* \((\d+) edits in (\d+) files", doc)
    assert stated is not None and (int(stated.group(1)), int(stated.group(2))) == (edits, files) == (5, 4)
    assert not tree.added
    assert Path(tree.root / "mahjong_calc" / "record.schema.json").read_text(encoding="utf-8").count("hai_di_lao_yue") >= 1
