"""The msgids the source marks for the catalogue, found the way Babel's extractor finds them
(`pybabel extract -k N_ -k InputError:2 ...`), with the standard library's ast alone.

A message is the string literal given as an error's message (the second argument of the error
classes and of `hand_error` and `file_error`, the first of `bad_file`, `_bad` and `_damaged`) or as the first argument of `N_`.
An f-string (or a sum of strings) in that place is a message not yet in the catalogue:
`unconverted` lists them.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "mahjong_calc"
CODE_FIRST = {"ApiError", "InputError", "NotAWin", "RuleRefused", "SiteError", "RulesetError", "StoreError", "GameFileError", "HandError", "MjcalcError", "BatchStopped", "_fail", "hand_error", "file_error"}
MESSAGE_FIRST = {"_bad", "bad_file", "_damaged", "N_"}


def _calls(tree: ast.AST) -> list[tuple[ast.Call, ast.expr]]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        index = 1 if name in CODE_FIRST else 0 if name in MESSAGE_FIRST else None
        if index is not None and len(node.args) > index:
            found.append((node, node.args[index]))
    return found


def msgids() -> dict[str, str]:
    """{msgid: where} over the package."""
    out: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for _call, arg in _calls(tree):
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value:
                out.setdefault(arg.value, f"{path.relative_to(PACKAGE.parent)}:{arg.lineno}")
    return out


def unconverted() -> list[str]:
    """`file:line` of every error message still written as an f-string or built by `+`."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        out += [f"{path.relative_to(PACKAGE.parent)}:{arg.lineno}" for _call, arg in _calls(tree)
                if isinstance(arg, ast.JoinedStr | ast.BinOp)]
    return out
