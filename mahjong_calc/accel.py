"""Whether the scorer runs compiled, for `mjcalc --version`.

There is one scorer, in Python (the Wuhu kernel, scoring/wuhu_kernel.py); an install
may compile its modules with mypyc, and runs the same code as Python where it did not.
`COMPILED` names the modules that may be compiled; `compiled()` says which of them are.
"""

from __future__ import annotations

import importlib

COMPILED = ("mahjong_calc.scoring.wuhu_kernel", "mahjong_calc.patterns.wuhu")


def compiled() -> tuple[str, ...]:
    """The modules of COMPILED that this install loads as compiled extensions (not .py files)."""
    out = []
    for name in COMPILED:
        path = getattr(importlib.import_module(name), "__file__", None) or ""
        if not path.endswith(".py"):
            out.append(name)
    return tuple(out)


def available() -> bool:
    """Whether every module of COMPILED was compiled."""
    return len(compiled()) == len(COMPILED)


def status() -> str:
    """One line for `mjcalc --version`: whether the scorer is compiled."""
    done = compiled()
    if not done:
        return "compiled scorer: off (pure Python)"
    if len(done) < len(COMPILED):
        return f"compiled scorer: partly ({len(done)} of {len(COMPILED)} modules)"
    return "compiled scorer: on"
