"""A stdout whose encoding cannot write the output (`PYTHONIOENCODING=ascii`, a C locale):
the text output is `output_error` (exit 3) saying how to get UTF-8, and `--json` is written
with ASCII escapes, the same JSON value as on a UTF-8 stdout."""

from __future__ import annotations

import codecs
import json

import pytest
from installed import REPO, run_installed

HAND = ["13m456m678m11p555p2m", "--self-draw"]


@pytest.mark.parametrize(("encoding", "lang"), [("ascii", "en"), ("ascii", "zh"), ("latin-1", "zh")])
def test_a_table_the_terminal_cannot_show_is_an_output_error(encoding: str, lang: str) -> None:
    done = run_installed(["score", *HAND, "--lang", lang], env={"PYTHONIOENCODING": encoding})
    assert done.returncode == 3, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "[output_error]" in lines[0], done.stderr
    assert f"encoding ({codecs.lookup(encoding).name})" in lines[0] and "UTF-8" in lines[0] and "--json" in lines[0]
    assert "internal_error" not in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(("args", "code"), [
    (["score", *HAND, "--json"], 0),
    (["score", *HAND, "--json", "--explain"], 0),
    (["options", "wuhu315", "--json"], 0),
    (["stats", str(REPO / "examples" / "club-season.csv"), "--json"], 0),
    (["score", "13m456m678m11p55p2m", "--self-draw", "--json", "--lang", "zh"], 2),  # an error object in Chinese
])
@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_json_is_written_with_ascii_escapes(args: list[str], code: int, encoding: str) -> None:
    utf8 = run_installed(args, env={"PYTHONIOENCODING": "utf-8"})
    escaped = run_installed(args, env={"PYTHONIOENCODING": encoding}, text=False)
    assert utf8.returncode == escaped.returncode == code, escaped.stderr
    assert escaped.stdout.isascii()
    assert json.loads(escaped.stdout) == json.loads(utf8.stdout)
    assert not utf8.stdout.isascii()  # there was something to escape


def test_text_that_is_ascii_is_still_written() -> None:
    done = run_installed(["variants", "--json"], env={"PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0 and json.loads(done.stdout)
