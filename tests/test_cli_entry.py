"""The installed `mjcalc` entry point runs `mjcalc batch FILE [options]` through the one Typer command:
each line's exit status, rows and stderr, for good runs and failed ones."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from installed import _WORKDIR, MJCALC, child_env, run_installed

HAND = "123456m13m99p555p2m"


@pytest.fixture
def records(tmp_path: Path) -> Path:
    path = tmp_path / "r.jsonl"
    rows = [{"id": 1, "hand": HAND, "self_draw": True}, {"id": 2, "hand": "123456m99p555p44s4s"}, {"id": 3, "hand": "12x"},
            {"hand": HAND, "bogus": 1}, {"id": 5, "hand": "111m222p333s444s3m7z", "variant": "pujiang", "wild": "3m"}]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows) + "not json\n", encoding="utf-8")
    return path


FAILED = "mjcalc: 3 of 6 records failed (unknown_character 1, unknown_field 1, bad_json 1); their rows say why"


@pytest.mark.parametrize(("extra", "status", "rows", "stderr"), [
    ([], 1, 6, FAILED),
    (["--jobs", "2"], 1, 6, FAILED),
    (["--jobs=2"], 1, 6, FAILED),
    (["--fail-fast"], 1, 3, "mjcalc: 1 of 3 records failed (unknown_character 1); their rows say why"),
    (["-o", "csv"], 1, 7, FAILED),
    (["--format=csv"], 1, 7, FAILED),
    (["--lang", "zh"], 1, 6, "mjcalc: 6 条记录里有 3 条出错 (`unknown_character 1, unknown_field 1, bad_json 1`); 出错的行说明了原因"),
    (["-l", "en"], 1, 6, FAILED),
    (["--extra-fields", "keep"], 1, 6, "mjcalc: 2 of 6 records failed (unknown_character 1, bad_json 1); their rows say why"),
    (["--extra-fields", "nope"], 2, 0, "mjcalc: error [bad_extra_fields]: --extra-fields must be one of error, keep, not 'nope'"),
    (["--set", "numbers.base=5"], 2, 0, "mjcalc: error [ruleset_invalid]: --set: numbers.base: unknown key"),
    (["--set", "nonsense"], 2, 0, "mjcalc: error [bad_set_option]: --set nonsense: expected KEY=VALUE"),
    (["--jobs", "999999"], 2, 0, "mjcalc: error [bad_jobs]: --jobs must be between 1 and"),
    (["--rules", "missing.yaml"], 2, 0, "mjcalc: error [ruleset_not_found]: missing.yaml: cannot read ruleset"),
    (["-i", "csv"], 1, 5, "mjcalc: 5 of 5 records failed (bad_csv_row 5); their rows say why"),
    (["--jobs", "two"], 2, 0, "mjcalc: error [usage_error]: Invalid value for '--jobs'"),
    (["--bogus"], 2, 0, "mjcalc: error [usage_error]: No such option: --bogus"),
    (["-o", "xml"], 2, 0, "mjcalc: error [bad_format]: --format must be one of jsonl, csv, summary, json, not 'xml'"),
])
def test_a_batch_line_runs_with_its_status_rows_and_stderr(records: Path, tmp_path: Path, extra: list[str], status: int, rows: int,
                                                           stderr: str) -> None:
    """Written to a file, as a script's run is (stderr then counts the failed records)."""
    out = tmp_path / "out.txt"
    with out.open("w", encoding="utf-8") as sink:
        done = subprocess.run([*MJCALC, "batch", str(records), *extra], cwd=_WORKDIR, env=child_env(), stdout=sink, stderr=subprocess.PIPE,
                              text=True, encoding="utf-8", timeout=300, check=False)
    assert done.returncode == status, done.stderr
    assert len(out.read_text(encoding="utf-8").splitlines()) == rows
    assert done.stderr.startswith(stderr), done.stderr
    assert "Traceback" not in done.stderr


def test_rows_are_in_input_order_with_their_ids(records: Path) -> None:
    done = run_installed(["batch", str(records), "--jobs", "2"])
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row.get("id") for row in lines] == [1, 2, 3, None, 5, None]
    assert [row.get("line") for row in lines] == [1, 2, 3, 4, 5, 6]
    assert lines[0]["valid"] and lines[2]["error"]["code"] == "unknown_character"


def test_the_same_in_chinese_from_the_environment_and_from_stdin(records: Path) -> None:
    zh = run_installed(["batch", str(records)], env={"MJCALC_LANG": "zh"})
    assert zh.returncode == 1 and "不是有效的 JSON" in zh.stdout
    piped = run_installed(["batch", "-"], input=records.read_text(encoding="utf-8"))
    assert (piped.returncode, piped.stdout) == (1, run_installed(["batch", str(records)]).stdout)


def test_a_file_that_cannot_be_read_and_a_format_that_cannot_be_told(tmp_path: Path) -> None:
    missing = run_installed(["batch", str(tmp_path / "none.jsonl")])
    assert missing.returncode == 2 and missing.stdout == "" and "none.jsonl" in missing.stderr
    unknown = run_installed(["batch", str(tmp_path / "records.txt")])
    assert unknown.returncode == 2 and unknown.stdout == "" and "records.txt" in unknown.stderr


def test_batch_without_a_file_and_its_help() -> None:
    bare = run_installed(["batch"])
    assert bare.returncode == 2 and "Missing argument 'FILE'." in bare.stderr and "(see mjcalc batch --help)" in bare.stderr
    helped = run_installed(["batch", "-h"])
    assert helped.returncode == 0 and helped.stdout.startswith("Usage: mjcalc batch [OPTIONS] FILE")
