"""The plug-ins a variant names by a string (`on_first_call(__name__, "module:function")`, imported
on their first call) are checked here, since mypy cannot read the string: each names a module
of its package that imports and a function in it, so that a rename fails a test, not a user."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import mahjong_calc
from mahjong_calc.rules.ruleset import on_first_call

PACKAGE = Path(mahjong_calc.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def lazy_targets() -> list[tuple[str, str, int]]:
    """(package, "module:function", line) of every on_first_call in the package's source."""
    found: list[tuple[str, str, int]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "on_first_call":
                where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"
                package, target = node.args
                assert isinstance(package, ast.Name) and package.id == "__name__", f"{where}: the package is __name__"
                assert isinstance(target, ast.Constant) and isinstance(target.value, str), f"{where}: the target is a string"
                found.append((module_name(path), target.value, node.lineno))
    return found


TARGETS = lazy_targets()


def test_the_variants_name_their_plug_ins_by_string() -> None:
    assert len(TARGETS) >= 5  # a settler for each shipped variant, and the shanten rules of advise


@pytest.mark.parametrize(("package", "target", "line"), TARGETS, ids=[f"{p}:{t}" for p, t, _ in TARGETS])
def test_each_string_names_a_function_that_imports(package: str, target: str, line: int) -> None:
    module, colon, attribute = target.partition(":")
    assert colon and module and attribute, f"{package} line {line}: {target!r} is not 'module:function'"
    loaded = importlib.import_module(f"{package}.{module}")
    assert callable(getattr(loaded, attribute, None)), f"{package} line {line}: {loaded.__name__} has no function {attribute!r}"


def test_a_wrong_string_fails_when_called_not_when_declared() -> None:
    """What the tests above guard against: the declaration itself cannot tell."""
    wrong = on_first_call("mahjong_calc.variants.wuhu", "liability:settle_wuhoo")
    with pytest.raises(AttributeError):
        wrong()
