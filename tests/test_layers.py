"""The floors of mahjong_calc hold: no import cycle, and no floor imports one above it.

The graph is read from the AST of every module, so it counts every import alike: at the
top, inside functions and under `TYPE_CHECKING` (a type used only by mypy still ties the
two modules together), absolute and relative, `from . import x` resolved to the module x.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "mahjong_calc"

# Lowest first: a module may import its own floor and the ones below, never one above.
# A module's floor is the longest prefix listed here.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("core", ("mahjong_calc.core", "mahjong_calc.compiled")),  # compiled.py: which modules mypyc built; imports nothing
    ("rules", ("mahjong_calc.rules",)),
    ("variants", ("mahjong_calc.variants",)),
    # the entry points every floor above shares: score(), settle(), score_hand, waits, explain;
    # the package root re-exports them (`from mahjong_calc import score_hand`)
    ("api", ("mahjong_calc.api", "mahjong_calc")),
    ("present", ("mahjong_calc.present",)),
    ("floors", ("mahjong_calc.batch", "mahjong_calc.game", "mahjong_calc.live", "mahjong_calc.web")),
    ("cli", ("mahjong_calc.cli", "mahjong_calc.__main__", "mahjong_calc.generate")),
)
RANK = {name: i for i, (name, _) in enumerate(LAYERS)}


def module_names(package: Path) -> dict[str, Path]:
    """Dotted name -> file, for every module (a .pyi stub stands for a compiled module)."""
    out: dict[str, Path] = {}
    for path in sorted([*package.rglob("*.py"), *package.rglob("*.pyi")]):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out.setdefault(".".join(parts), path)
    return out


def imports_of(name: str, path: Path, known: Iterable[str]) -> set[str]:
    """The package's modules that `name` imports, anywhere in its file."""
    modules = set(known)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        for target in targets:
            while target and target not in modules:  # `import a.b.c` of an attribute: the module that has it
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    modules = module_names(package)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def layer_of(module: str, layers: tuple[tuple[str, tuple[str, ...]], ...] = LAYERS) -> str | None:
    best: tuple[int, str] | None = None
    for layer, prefixes in layers:
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > best[0]):
                best = (len(prefix), layer)
    return best[1] if best else None


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Every strongly connected block of more than one module (or a module importing itself), each as one cycle through it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    blocks: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan; the package is small enough for recursion
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            block = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                block.append(w)
                if w == v:
                    break
            if len(block) > 1 or v in graph.get(v, ()):
                blocks.append(block)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_one_cycle(graph, set(block)) for block in blocks]


def _one_cycle(graph: Mapping[str, Iterable[str]], block: set[str]) -> list[str]:
    """A shortest path from the block's first module back to itself, inside the block."""
    start = min(block)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph.get(v, ())):
                if w == start:
                    return [*paths[v], start]
                if w in block and w not in paths:
                    paths[w] = [*paths[v], w]
                    nxt.append(w)
        frontier = nxt
    raise AssertionError("a strongly connected block without a cycle")


def upward_edges(graph: Mapping[str, Iterable[str]], layers: tuple[tuple[str, tuple[str, ...]], ...] = LAYERS) -> list[str]:
    rank = {name: i for i, (name, _) in enumerate(layers)}
    out = []
    for source in sorted(graph):
        for target in sorted(graph[source]):
            low, high = layer_of(source, layers), layer_of(target, layers)
            if low is not None and high is not None and rank[high] > rank[low]:
                out.append(f"{source} ({low}) imports {target} ({high})")
    return out


# --- the package ------------------------------------------------------------------


def test_every_module_has_a_floor() -> None:
    assert [m for m in import_graph() if layer_of(m) is None] == []


def test_no_import_cycle() -> None:
    found = cycles(import_graph())
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_no_floor_imports_one_above_it() -> None:
    found = upward_edges(import_graph())
    assert not found, "imports from a lower floor into a higher one:\n" + "\n".join(found)


def test_the_graph_sees_function_level_and_type_checking_imports() -> None:
    graph = import_graph()
    assert "mahjong_calc.variants.common.settlement" in graph["mahjong_calc.api.settle"]  # inside __getattr__ and under TYPE_CHECKING
    assert "mahjong_calc.core.errors" in graph["mahjong_calc.api.settle"]  # inside a function
    assert "mahjong_calc.rules.cache" in graph["mahjong_calc.rules.loader"]  # `from . import cache as ruleset_cache`


# --- the checker itself, on tiny fake graphs ----------------------------------------

FAKE = (("low", ("pkg.low",)), ("high", ("pkg.high",)))


def test_the_checker_finds_a_cycle() -> None:
    graph = {"pkg.low.a": {"pkg.low.b"}, "pkg.low.b": {"pkg.low.c"}, "pkg.low.c": {"pkg.low.a"}, "pkg.low.d": {"pkg.low.a"}}
    assert cycles(graph) == [["pkg.low.a", "pkg.low.b", "pkg.low.c", "pkg.low.a"]]
    assert cycles({"pkg.low.a": {"pkg.low.b"}, "pkg.low.b": set()}) == []


def test_the_checker_finds_an_upward_edge() -> None:
    graph = {"pkg.low.a": {"pkg.high.b"}, "pkg.high.b": {"pkg.low.c"}, "pkg.low.c": set()}
    assert upward_edges(graph, FAKE) == ["pkg.low.a (low) imports pkg.high.b (high)"]
    assert upward_edges({"pkg.high.b": {"pkg.low.c"}, "pkg.low.c": set()}, FAKE) == []


def test_the_checker_reads_every_kind_of_import(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "low").mkdir(parents=True)
    (pkg / "high").mkdir()
    for init in (pkg, pkg / "low", pkg / "high"):
        (init / "__init__.py").write_text("")
    (pkg / "high" / "b.py").write_text("X = 1\n")
    (pkg / "low" / "c.py").write_text("Y = 2\n")
    (pkg / "low" / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from ..high.b import X\n"
        "def f() -> None:\n    from . import c\n"
    )
    modules = module_names(pkg)
    assert imports_of("pkg.low.a", modules["pkg.low.a"], modules) == {"pkg.high.b", "pkg.low.c"}


@pytest.mark.parametrize(("module", "layer"), [
    ("mahjong_calc.core.tiles", "core"),
    ("mahjong_calc", "api"),
    ("mahjong_calc.api.waits", "api"),
    ("mahjong_calc.cli.app", "cli"),
    ("mahjong_calc.web.app", "floors"),
])
def test_a_module_s_floor_is_its_longest_listed_prefix(module: str, layer: str) -> None:
    assert layer_of(module) == layer
