"""README stays a short guide; docs/cli.md is the commands' own help; every relative link resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mahjong_calc.generate import cli_text

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
LINKED = [README, *sorted((ROOT / "docs").rglob("*.md")), ROOT / "bench" / "RESULTS.md"]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"```.*?```", re.S)
MAX_README = 12 * 1024


def test_cli_doc_is_the_help_of_every_command() -> None:
    """In the source tree (which CI may not import: it tests the installed package)."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert text == cli_text(), "docs/cli.md is stale: run python -m mahjong_calc.generate"


def test_cli_doc_has_every_command() -> None:
    text = cli_text()
    for title in ("mjcalc score", "mjcalc batch", "mjcalc game settle", "mjcalc game add", "mjcalc serve"):
        assert f"\n## `{title}`\n\n```text\nUsage: {title} " in text, title
    assert "\x1b" not in text  # no colour


def test_readme_is_short() -> None:
    size = len(README.read_bytes())
    assert size <= MAX_README, f"README.md is {size:,} bytes; the reference belongs in docs/"


def _ci_commands() -> list[str]:
    """The lines .ci/run says it runs from README verbatim."""
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    return [lines[i + 1] for i, line in enumerate(lines) if line.startswith("# README's") and "verbatim" in line]


@pytest.mark.skipif(not (ROOT / ".ci" / "run").exists(), reason="not a git checkout: no .ci/run")
def test_readme_shows_the_commands_ci_runs_verbatim() -> None:
    commands = _ci_commands()
    assert len(commands) == 2 and commands[0].endswith("&& pytest")
    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    lines = {line for block in blocks for line in block.splitlines()}
    for command in commands:
        assert command in lines, command


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def anchors(doc: Path) -> set[str]:
    text = FENCE.sub("", doc.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    out = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def links() -> list[tuple[Path, str]]:
    out = []
    for doc in LINKED:
        text = FENCE.sub("", doc.read_text(encoding="utf-8"))
        out += [(doc, target) for target in LINK.findall(text) if not re.match(r"[a-z]+:", target)]
    return out


@pytest.mark.parametrize("doc", LINKED[1:], ids=lambda d: str(d.relative_to(ROOT)))
def test_every_doc_is_linked_from_another(doc: Path) -> None:
    targets = {(d.parent / t.partition("#")[0]).resolve() for d, t in links() if d != doc and t.partition("#")[0]}
    assert doc.resolve() in targets, f"nothing links to {doc.relative_to(ROOT)}"


@pytest.mark.parametrize(("doc", "target"), links(), ids=[f"{d.relative_to(ROOT)} -> {t}" for d, t in links()])
def test_relative_link_resolves(doc: Path, target: str) -> None:
    path, _, anchor = target.partition("#")
    file = (doc.parent / path).resolve() if path else doc
    assert file.exists(), f"{doc.relative_to(ROOT)}: {target}: no such file"
    if anchor and file.suffix == ".md":
        assert anchor in anchors(file), f"{doc.relative_to(ROOT)}: {target}: no such heading in {file.name}"
