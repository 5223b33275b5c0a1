"""The `mjcalc` entry point (cli/entry.py): a plain `batch` line runs without Typer, exactly as Typer runs it.

`BATCH_OPTIONS` is held to the Typer command's own options; every line `batch_request` does not
read is Typer's; and the installed `mjcalc` (the entry point) is held to `cli.app.main` (Typer)
on the same lines: the same stdout, stderr and exit status, for good runs and failed ones.
"""

from __future__ import annotations

import json
import subprocess
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
from installed import _WORKDIR, MJCALC, child_env, run_installed

from mahjong_calc.cli.app import COMMANDS, build_command
from mahjong_calc.cli.entry import BATCH_OPTIONS, FLAG, MANY, NUMBER, PATH, TEXT, BatchRequest, batch_request

HAND = "123456m13m99p555p2m"


def _typer_options() -> dict[str, Any]:
    """The batch command's options, by option string (its click parameters)."""
    command = build_command("batch", COMMANDS["batch"])
    return {opt: param for param in command.params if param.param_type_name == "option" for opt in param.opts}


def _choices(param: Any) -> tuple[str, ...] | None:
    """An option's choices (an Enum's values), or None for any other type."""
    annotation = param.type_descriptor.annotation if hasattr(param, "type_descriptor") else None
    for arg in getattr(annotation, "__args__", (annotation,)):
        if isinstance(arg, type) and issubclass(arg, Enum):
            return tuple(str(member.value) for member in arg)
    choices = getattr(getattr(param, "type", None), "choices", None)
    return tuple(choices) if choices else None


def test_batch_options_are_the_typer_commands_options() -> None:
    typer_options = _typer_options()
    assert set(BATCH_OPTIONS) == set(typer_options)
    for opt, (name, takes) in BATCH_OPTIONS.items():
        param = typer_options[opt]
        assert param.name == name, opt
        assert bool(param.is_flag) == (takes == FLAG), opt
        assert bool(param.multiple) == (takes == MANY), opt
        assert _choices(param) == (takes if isinstance(takes, tuple) else None), opt
        assert takes in (FLAG, MANY, NUMBER, PATH, TEXT) or isinstance(takes, tuple), opt


@pytest.mark.parametrize(("args", "request_"), [
    (["batch", "x.jsonl"], BatchRequest("x.jsonl")),
    (["batch", "-"], BatchRequest("-")),
    (["batch", "x.jsonl", "--jobs", "2", "--fail-fast"], BatchRequest("x.jsonl", jobs=2, fail_fast=True)),
    (["batch", "--jobs=3", "x"], BatchRequest("x", jobs=3)),
    (["batch", "x", "-o", "csv", "-i", "yaml", "--lang", "en"], BatchRequest("x", "yaml", "csv", lang="en")),
    (["batch", "x", "--format=summary", "--input-format=csv", "-l", "zh"], BatchRequest("x", "csv", "summary", lang="zh")),
    (["batch", "x", "--set", "a=1", "--set=b=2"], BatchRequest("x", set_=("a=1", "b=2"))),
    (["batch", "x", "--rules", "./r.yaml", "--extra-fields", "keep"], BatchRequest("x", rules="r.yaml", extra_fields="keep")),
    (["batch", "x", "-r", "dir//r.yaml"], BatchRequest("x", rules="dir/r.yaml")),
])
def test_a_plain_batch_line_is_read(args: list[str], request_: BatchRequest) -> None:
    assert batch_request(args) == request_


@pytest.mark.parametrize("args", [
    [], ["score", HAND], ["--version"], ["--lang", "en", "batch", "x"], ["batch"], ["batch", "--help"], ["batch", "-h"],
    ["batch", "x", "y"], ["batch", ""], ["batch", "x", "--"], ["batch", "x", "--bogus"], ["batch", "x", "--jobs"],
    ["batch", "x", "--jobs", "two"], ["batch", "x", "--jobs", "0"], ["batch", "x", "--jobs", "01"], ["batch", "x", "--jobs", "-1"],
    ["batch", "x", "--jobs", "１"], ["batch", "x", "--jobs", "1", "--jobs", "2"], ["batch", "x", "-o", "JSONL"],
    ["batch", "x", "-ojsonl"], ["batch", "x", "-o=csv"], ["batch", "x", "--format", "xml"], ["batch", "x", "--lang", "fr"],
    ["batch", "x", "--fail-fast=yes"], ["batch", "x", "--fail-fast", "--fail-fast"], ["batch", "x", "--rules="],
    ["batch", "x", "--set", "--fail-fast"], ["batch", "x", "--extra-fields", "-x"], ["batch", "-x"], ["batch", "x", "--jobs", " 1"],
])
def test_every_other_line_is_typers(args: list[str]) -> None:
    assert batch_request(args) is None


def test_a_shell_completion_request_is_typers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_MJCALC_COMPLETE", "bash_complete")
    assert batch_request(["batch", "x"]) is None


# --- the installed entry point against Typer's main, line by line ---------------------------------

TYPER_MAIN = "from mahjong_calc.cli.app import main; main()"


def _run_both(args: list[str], env: dict[str, str] | None = None, stdin: str | None = None) -> None:
    quick = run_installed(args, env=env, input=stdin)
    typer_run = subprocess.run([MJCALC[0], "-c", TYPER_MAIN, *args], cwd=_WORKDIR, env=child_env(env), input=stdin,
                               capture_output=True, text=True, encoding="utf-8", timeout=300, check=False)
    assert (quick.returncode, quick.stdout, quick.stderr) == (typer_run.returncode, typer_run.stdout, typer_run.stderr), args



@pytest.fixture
def records(tmp_path: Path) -> Path:
    path = tmp_path / "r.jsonl"
    rows = [{"id": 1, "hand": HAND, "self_draw": True}, {"id": 2, "hand": "123456m99p555p44s4s"}, {"id": 3, "hand": "12x"},
            {"hand": HAND, "bogus": 1}, {"id": 5, "hand": "111m222p333s444s3m7z", "variant": "pujiang", "wild": "3m"}]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows) + "not json\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("extra", [
    [], ["--jobs", "2"], ["--fail-fast"], ["-o", "csv"], ["--format", "summary"], ["--lang", "zh"], ["-l", "en"],
    ["--extra-fields", "keep"], ["--extra-fields", "nope"], ["--set", "numbers.base=5"], ["--set", "nonsense"],
    ["--jobs", "999999"], ["--rules", "missing.yaml"], ["-i", "csv"],
])
def test_the_entry_point_runs_a_batch_line_as_typer_does(records: Path, extra: list[str]) -> None:
    assert batch_request(["batch", str(records), *extra]) is not None
    _run_both(["batch", str(records), *extra])


def test_the_same_in_chinese_from_the_environment_and_from_stdin(records: Path) -> None:
    _run_both(["batch", str(records)], env={"MJCALC_LANG": "zh"})
    _run_both(["batch", "-"], stdin=records.read_text(encoding="utf-8"))


def test_a_file_that_cannot_be_read_and_a_format_that_cannot_be_told(tmp_path: Path) -> None:
    _run_both(["batch", str(tmp_path / "none.jsonl")])
    _run_both(["batch", str(tmp_path / "records.txt")])


def test_a_plain_batch_line_imports_neither_typer_nor_pydantic_nor_multiprocessing(records: Path, tmp_path: Path) -> None:
    proc = run_installed(["batch", str(records)], env={"PYTHONPROFILEIMPORTTIME": "1"})
    assert proc.returncode == 1, proc.stderr[-2000:]
    modules = {line.rsplit("|", 1)[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    assert "mahjong_calc.batch.engine" in modules
    assert not {"typer", "pydantic", "rich", "multiprocessing", "concurrent.futures.process", "mahjong_calc.cli.app"} & modules
