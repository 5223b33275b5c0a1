"""docs/errors.md's error-code table lists every code any command can emit, and nothing else."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "mahjong_calc"
# Callables whose first argument is an error code.
CODE_TAKERS = {"InputError", "NotAWin", "RuleRefused", "RulesetError", "MjcalcError", "BatchStopped", "_fail", "fail", "hand_error", "file_error", "not_a_win",
               "StoreError", "ApiError", "_error", "SiteError"}  # live games, the JSON API, the site build
SNAKE = re.compile(r"[a-z][a-z0-9_]*\Z")


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _is_message(node: ast.expr) -> bool:
    """A message: an f-string, a sentence, or a variable called message."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return " " in node.value
    return isinstance(node, ast.Name) and node.id in ("message", "msg")


def codes_in_code() -> tuple[set[str], list[re.Pattern[str]]]:
    """Literal codes, and patterns for codes built with an f-string (`bad_{field.name}`)."""
    literal: set[str] = set()
    patterns: list[re.Pattern[str]] = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            first: ast.expr | None = None
            if isinstance(node, ast.Call) and _name(node.func) in CODE_TAKERS and node.args:
                first = node.args[0]
            elif isinstance(node, ast.Dict):  # {"code": "usage_error", ...}
                for key, value in zip(node.keys, node.values):
                    if isinstance(key, ast.Constant) and key.value == "code":
                        first = value
            elif (isinstance(node, ast.Tuple) and len(node.elts) == 2 and isinstance(node.elts[0], ast.Constant)
                  and isinstance(node.elts[0].value, str) and _is_message(node.elts[1])):
                first = node.elts[0]  # the batch readers' (code, message) pairs
            elif (isinstance(node, ast.Assign) and isinstance(node.value, (ast.Constant, ast.IfExp))
                  and any(isinstance(t, ast.Name) and t.id == "code" for t in node.targets)):
                first = node.value  # code = "a" if ... else "b"
            if first is None:
                continue
            if not isinstance(first, ast.JoinedStr):  # an f-string's literal parts are not codes
                for sub in ast.walk(first):
                    if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and SNAKE.match(sub.value):
                        literal.add(sub.value)
            else:
                parts = [re.escape(v.value) if isinstance(v, ast.Constant) else "[a-z_]+" for v in first.values]
                patterns.append(re.compile("".join(parts) + r"\Z"))
    return literal, patterns


def codes_in_doc() -> set[str]:
    text = (REPO / "docs" / "errors.md").read_text(encoding="utf-8")
    table = text.split("\n## Error codes\n", 1)[1].split("\n#", 1)[0]
    codes: set[str] = set()
    for line in table.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            cells = line.split("|")
            if len(cells) > 2:
                codes |= set(re.findall(r"`([a-z][a-z0-9_]*)`", cells[2]))
    return codes


def test_every_code_in_the_code_is_in_the_doc_table() -> None:
    literal, _ = codes_in_code()
    missing = sorted(literal - codes_in_doc())
    assert not missing, f"add to the error-code table in docs/errors.md: {missing}"


def test_every_code_in_the_doc_table_is_emitted_somewhere() -> None:
    literal, patterns = codes_in_code()
    stale = sorted(c for c in codes_in_doc() if c not in literal and not any(p.match(c) for p in patterns))
    assert not stale, f"docs/errors.md lists codes nothing emits: {stale}"
