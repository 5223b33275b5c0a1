"""Every `mjcalc` example in README.md runs and exits as it says (0 unless marked `# exit N`)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.S)
MJCALC = f"{shlex.quote(sys.executable)} -m mahjong_calc"


def _blocks() -> list[tuple[str, str]]:
    return BLOCK.findall(README.read_text(encoding="utf-8"))


def _examples() -> list[str]:
    lines = []
    for lang, body in _blocks():
        if lang == "sh":
            lines += [line for line in body.splitlines() if line.lstrip().startswith("mjcalc ") or " | mjcalc " in line]
    return lines


def _files() -> dict[str, str]:
    """Code blocks that start with a `# name.ext` comment are files the examples use."""
    files = {}
    for _, body in _blocks():
        first, _, _ = body.partition("\n")
        match = re.fullmatch(r"# ([\w.-]+\.\w+)", first.strip())
        if match:
            files[match.group(1)] = body
    return files


EXAMPLES = _examples()


def test_readme_has_examples_for_every_command() -> None:
    used = {line.split()[1] for line in EXAMPLES if line.startswith("mjcalc ")}
    assert {"score", "variants", "batch", "waits", "options"} <= used


@pytest.mark.parametrize("line", EXAMPLES)
def test_readme_example_runs(line: str, tmp_path: Path) -> None:
    for name, body in _files().items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    examples = README.parent / "examples"
    if examples.is_dir():
        (tmp_path / "examples").symlink_to(examples)
    command, _, comment = line.partition("  #")
    expected = int(m.group(1)) if (m := re.search(r"exit (\d)", comment)) else 0
    shell = re.sub(r"(^|\|\s*)mjcalc ", lambda m: f"{m.group(1)}{MJCALC} ", command.strip())
    proc = subprocess.run(shell, shell=True, cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == expected, proc.stderr
    assert "Traceback" not in proc.stderr
