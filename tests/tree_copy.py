"""A copy of the source tree with a recipe of docs/architecture.md carried out in it, as a
maintainer would: files added and existing ones edited, each edit counted. The declaration in
the product is frozen at import, so a test's own flag or variant lives in such a copy, and the
doors are tried in a child Python that imports it (plain Python: nothing compiled is copied).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


class Tree:
    """`mahjong_calc/` and `rulesets/` copied under `root`, and the edits made to them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.edits: list[str] = []  # the file of each edit to an existing file
        self.added: list[str] = []  # new files
        shutil.copytree(REPO / "mahjong_calc", root / "mahjong_calc", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.mo"))
        shutil.copytree(REPO / "rulesets", root / "rulesets")

    def edit(self, name: str, old: str, new: str) -> None:
        """One edit of an existing file: `old`, found exactly once, becomes `new`."""
        path = self.root / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{name}: {old!r} found {text.count(old)} times"
        path.write_text(text.replace(old, new), encoding="utf-8")
        self.edits.append(name)

    def add(self, name: str, text: str) -> None:
        """A new file."""
        path = self.root / name
        assert not path.exists(), name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        self.added.append(name)

    def env(self) -> dict[str, str]:
        return {**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, "PYTHONPATH": str(self.root), "MJCALC_NO_CACHE": "1",
                "MJCALC_PURE_PYTHON": "1", "COLUMNS": "120"}

    def python(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        """The child Python, importing this copy."""
        return subprocess.run([sys.executable, *args], cwd=self.root, env=self.env(), input=stdin, capture_output=True, text=True,
                              timeout=600, check=False)

    def run(self, script: str) -> Any:
        """Run `script` in the child (its last line of output is JSON) and give what it printed."""
        done = self.python("-c", script)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.splitlines()[-1])
