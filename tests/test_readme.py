"""Every `mjcalc` example in README.md and docs/ runs and exits as it says (0 unless marked `# exit N`).

An example is a line of a ```sh block that starts with `mjcalc ` or pipes into `| mjcalc `;
a code block whose first line is `# name.ext` is a file the examples may use (by that name,
in the directory they run in, beside a link to examples/). A ```python block runs whole, with
`records` (a list of batch records) defined and a `hands-1.jsonl` beside it.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.core import TyperGroup

from mahjong_calc.cli.app import app
from mahjong_calc.generate import command_paths

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = [README, *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.S)
MJCALC = f"{shlex.quote(sys.executable)} -m mahjong_calc"


def _blocks(doc: Path) -> list[tuple[str, str]]:
    return BLOCK.findall(doc.read_text(encoding="utf-8"))


def _examples(doc: Path) -> list[str]:
    lines = []
    for lang, body in _blocks(doc):
        if lang == "sh":
            lines += [line for line in body.splitlines() if line.lstrip().startswith("mjcalc ") or " | mjcalc " in line]
    return lines


def _files() -> dict[str, str]:
    """Code blocks that start with a `# name.ext` comment, in any of the docs."""
    files: dict[str, str] = {}
    for doc in DOCS:
        for _, body in _blocks(doc):
            first, _, _ = body.partition("\n")
            match = re.fullmatch(r"# ([\w.-]+\.\w+)", first.strip())
            if match:
                assert files.setdefault(match.group(1), body) == body, f"two different files named {match.group(1)}"
                files[match.group(1)] = body
    return files


EXAMPLES = [(doc, line) for doc in DOCS for line in _examples(doc)]
PYTHON = [(doc, body) for doc in DOCS for lang, body in _blocks(doc) if lang == "python"]
RECORDS = [{"id": "r1", "hand": "123456m13m99p555p2m", "self_draw": True}, {"id": 2, "hand": "123m456m789m11p999p"}]


def test_the_docs_have_examples() -> None:
    assert {doc.name for doc, _ in EXAMPLES} >= {"README.md", "scoring.md", "batch.md", "games.md"}


def test_readme_has_an_example_for_every_command() -> None:
    """Every command and subcommand `mjcalc --help` lists, in a ```sh or ```shell block of README."""
    shown = "\n".join(body for lang, body in _blocks(README) if lang in ("sh", "shell"))
    root = typer.main.get_command(app)
    assert isinstance(root, TyperGroup)
    paths = command_paths(root)
    assert ("game", "settle") in paths and ("serve",) in paths
    missing = [" ".join(p) for p in paths if not re.search(rf"(^|[|&;]\s*)mjcalc {' '.join(p)}\b", shown, re.M)]
    assert not missing, f"README has no example of: {missing}"


@pytest.mark.slow
@pytest.mark.parametrize(("doc", "line"), EXAMPLES, ids=[f"{d.relative_to(ROOT)}: {line[:60]}" for d, line in EXAMPLES])
def test_example_runs(doc: Path, line: str, tmp_path: Path) -> None:
    for name, body in _files().items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    examples = ROOT / "examples"
    if examples.is_dir():
        (tmp_path / "examples").symlink_to(examples)
    command, _, comment = line.partition("  #")
    expected = int(m.group(1)) if (m := re.search(r"exit (\d)", comment)) else 0
    shell = re.sub(r"(^|\|\s*)mjcalc ", lambda m: f"{m.group(1)}{MJCALC} ", command.strip())
    proc = subprocess.run(shell, shell=True, cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == expected, proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize(("doc", "body"), PYTHON, ids=[f"{d.relative_to(ROOT)}: {b.splitlines()[0][:50]}" for d, b in PYTHON])
def test_python_example_runs(doc: Path, body: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hands-1.jsonl").write_text("".join(json.dumps(r) + "\n" for r in RECORDS), encoding="utf-8")
    exec(compile(body, f"{doc.name} example", "exec"), {"records": list(RECORDS)})


def test_the_python_examples_are_found() -> None:
    assert {d.name for d, _ in PYTHON} >= {"README.md", "batch.md", "scoring.md"}
