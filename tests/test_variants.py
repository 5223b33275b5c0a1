"""Variants are explicit values: one table, per-variant detectors, one reading loop, and a fourth
variant that lives only in the tests (tests/toy_variant.py, tests/data/toy.yaml)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from toy_variant import TOY, YAML, registered
from typer.testing import CliRunner

import mahjong_calc
from mahjong_calc import RulesetError, load_ruleset, score_hand, shipped_names
from mahjong_calc.cli.app import app
from mahjong_calc.rules.registry import VARIANTS
from mahjong_calc.variants.chizhou import patterns as chizhou_patterns
from mahjong_calc.variants.common import detector_types as patterns_package
from mahjong_calc.variants.common import detectors as common
from mahjong_calc.variants.common.reading import Reading
from mahjong_calc.variants.pujiang import patterns as pujiang_patterns
from mahjong_calc.variants.wuhu import patterns as wuhu_patterns

PACKAGE = Path(mahjong_calc.__file__).parent


def test_the_table_holds_the_three_shipped_variants() -> None:
    assert sorted(VARIANTS) == ["chizhou", "pujiang", "wuhu"]
    for key, variant in VARIANTS.items():
        assert variant.name == key


@pytest.mark.parametrize("name", shipped_names())
def test_each_shipped_ruleset_carries_its_variant_and_its_detectors(name: str) -> None:
    rs = load_ruleset(name)
    assert rs.variant is VARIANTS[rs.scorer]
    assert [key for key, _ in rs.detectors] == list(rs.patterns)  # in YAML order
    assert all(fn is rs.variant.detectors[key] for key, fn in rs.detectors)


def test_one_after_kong_detector_under_each_variants_own_key() -> None:
    # Wuhu's WuhuRead and the others' SetsRead are both a HandRead (variants/common/read.py), which the shared detectors read
    assert wuhu_patterns.DETECTORS["gang_hou_kai_hua"] is common.after_kong is VARIANTS["wuhu"].detectors["gang_hou_kai_hua"]
    assert chizhou_patterns.DETECTORS["gang_kai"] is common.after_kong
    assert pujiang_patterns.DETECTORS["gang_kai"] is common.after_kong
    assert "gang_kai" not in wuhu_patterns.DETECTORS and "gang_hou_kai_hua" not in chizhou_patterns.DETECTORS


@pytest.mark.parametrize("key", ["dui_dui_hu", "qing_yi_se", "hun_yi_se", "tian_hu", "di_hu"])
def test_a_pattern_every_variant_reads_alike_is_one_detector(key: str) -> None:
    shared = getattr(common, key)
    assert wuhu_patterns.DETECTORS[key] is shared
    assert all(patterns.DETECTORS.get(key, shared) is shared for patterns in (chizhou_patterns, pujiang_patterns))


def test_no_registration_by_import_side_effect() -> None:
    assert not hasattr(patterns_package, "REGISTRY")
    assert not hasattr(patterns_package, "detector")


def _runtime_imports(path: Path) -> set[str]:
    """Modules `path` imports when it runs: everything but `if TYPE_CHECKING:` blocks, functions included."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return
        if isinstance(node, ast.ImportFrom):
            names.update(f"{node.module or ''}.{a.name}".strip(".") for a in node.names)
            names.add(node.module or "")
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return names


VARIANT_MODULES = sorted((PACKAGE / "variants").rglob("*.py"))


@pytest.mark.parametrize("path", VARIANT_MODULES, ids=str)
def test_scorers_and_detectors_never_import_the_loader(path: Path) -> None:
    """The loader looks variants up in the registry; no variant imports the loader or the registry back."""
    imported = _runtime_imports(path)
    banned = {"loader", "registry", "importlib"}  # a plug-in is a value (Variant), never found by its name
    assert not {name for name in imported if name.split(".")[-1] in banned}


@pytest.mark.parametrize("name", ["loader.py", "registry.py", "ruleset.py"])
def test_the_rules_floor_imports_no_variant(name: str) -> None:
    tree = ast.parse((PACKAGE / "rules" / name).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.module == "yaml" or not (node.module or "").startswith(("variants", "api")), ast.dump(node)


# --- the shared reading loop ------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "hand", "flags"),
    [
        ("wuhu315", "111222333m456m77m", {"self_draw": True}),  # pungs or three chows
        ("chizhou", "111222333m777z55p", {"self_draw": True}),  # pungs (拉子) win; chows lack 花
        ("pujiang", "111m222m333m444m5s5p", {"wild": "5s", "self_draw": True}),  # the wild stands for many tiles
    ],
)
def test_every_reading_stays_on_the_result_but_not_in_its_json(variant: str, hand: str, flags: dict[str, object]) -> None:
    result = score_hand(hand, variant=variant, **flags)  # type: ignore[arg-type]
    assert len(result.readings) >= 2
    assert all(isinstance(r, Reading) for r in result.readings)
    winning = [r for r in result.readings if r.wins]
    assert result.value == max(r.value for r in winning)
    first_best = next(r for r in winning if (r.value, r.rank) == max((w.value, w.rank) for w in winning))
    assert (result.items, result.patterns) == (first_best.items, first_best.patterns)
    assert "readings" not in result.to_dict()


def test_a_refused_reading_says_why() -> None:
    result = score_hand("111m222m333m444m5s5p", variant="pujiang", wild="5s", self_draw=True)
    refused = [r for r in result.readings if not r.wins]
    assert refused and all(r.refusal is not None and r.refusal.code for r in refused)


# --- a fourth variant, from the tests alone ---------------------------------------------


def test_a_test_variant_loads_and_scores_through_the_public_api() -> None:
    with registered(TOY):
        rs = load_ruleset(rules_file=YAML)
        assert rs.variant is TOY and rs.numbers.per_pung == 2 and rs.options.count_kongs_as_pungs is True
        result = score_hand("111m222m333m456m77m", rules=YAML, self_draw=True)
    # base 1 + the toy's dui_dui_hu counts pungs (3 in the best reading) + 清一色 5
    assert result.value == 1 + 3 + 5
    assert result.patterns == ("dui_dui_hu", "qing_yi_se")
    assert result.to_dict()["variant"] == "toy"
    assert "toy" not in VARIANTS  # the shipped table is back as it was


def test_one_key_two_meanings() -> None:
    """`dui_dui_hu` is all-pungs in Wuhu and a count of pungs in the toy: each variant's own namespace."""
    with registered(TOY):
        toy = score_hand("111m222m456m789m77m", rules=YAML, self_draw=True)
    assert toy.patterns[0] == "dui_dui_hu" and toy.items[1].value == 2  # two pungs, no 对对胡 shape
    wuhu = score_hand("111m222m456m789m77m", variant="wuhu315", self_draw=True)
    assert "dui_dui_hu" not in wuhu.patterns


def test_a_test_variant_through_the_cli(runner: CliRunner) -> None:
    with registered(TOY):
        result = runner.invoke(app, ["score", "111m222m333m456m77m", "--rules", str(YAML), "--self-draw", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["value"] == 9


def test_a_test_variant_supplies_its_shanten_rules_and_one_without_cannot_advise(tmp_path: Path) -> None:
    """A plug-in is a value on the Variant: the toy's `plan` advises; the same toy without one cannot."""
    import dataclasses

    from mahjong_calc.api.advise import hand_advice
    from mahjong_calc.core.errors import InputError

    with registered(TOY):
        advice = hand_advice("123456m13m99p555p2m", rules=YAML)
        drawn = score_hand("123456m13m99p555p2m", rules=YAML, self_draw=True)
    assert advice.variant == "toy" and advice.shanten == -1 and advice.win is not None and advice.win.value == drawn.value
    assert [row.shanten for row in advice.rows] and min(row.shanten for row in advice.rows) == 0  # every discard planned
    rules = tmp_path / "toy.yaml"  # a ruleset once loaded keeps its variant: load the same file afresh
    rules.write_text(YAML.read_text(encoding="utf-8"), encoding="utf-8")
    with registered(dataclasses.replace(TOY, plan=None)), pytest.raises(InputError) as info:
        hand_advice("123456m13m99p555p2m", rules=rules)
    assert info.value.code == "advise_not_supported"


def test_a_variant_without_a_settler_says_so_when_a_meld_names_its_feeder(runner: CliRunner) -> None:
    with registered(TOY):
        result = runner.invoke(app, ["score", "222m333m456m77m", "-m", "111m@next", "--rules", str(YAML), "--json"])
    assert result.exit_code == 2, result.output
    assert json.loads(result.stdout)["error"]["code"] == "no_settlement"
    assert "the toy variant has no settler" in result.stderr


def test_a_test_variant_is_checked_like_any_other(tmp_path: object) -> None:
    with registered(TOY), pytest.raises(RulesetError) as info:
        load_ruleset(rules_file=YAML, overrides=["patterns.qing_yi_se.fan=many"])
    assert "patterns.qing_yi_se.fan: must be an integer" in info.value.message


def test_without_registration_the_scorer_is_unknown() -> None:
    with pytest.raises(RulesetError, match="scorer: 'toy' is not one of chizhou, pujiang, wuhu"):
        load_ruleset(rules_file=YAML, overrides=["numbers.base=2"])  # a fresh load, not a memoised one
