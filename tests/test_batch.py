"""`mjcalc batch`: formats, stdin, ordering, error records, exit codes, --jobs, --fail-fast.

The subprocess tests run the *installed* package (tests/installed.py), where the
compiled Wuhu scorer is built, and check through the summary's `compiled` count that
it really answered; faults (bad records, dead workers, signals) are in
tests/test_batch_faults.py.
"""

from __future__ import annotations

import csv
import io
import json
import re
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from installed import needs_compiled, popen_installed, run_installed, which_ran
from typer.testing import CliRunner

from mahjong_calc.batch import CSV_COLUMNS, run_batch, score_record, score_records
from mahjong_calc.batch.evaluate import outcome, outcome_cache_info
from mahjong_calc.batch.readers import read_items
from mahjong_calc.cli.app import app
from mahjong_calc.compiled import kernel_compiled
from mahjong_calc.core.batch_record import normalize

WIN_315 = {"id": "a", "hand": "123456m13m99p555p2m", "self_draw": True}  # value 8
WIN_525 = {"id": 2, "hand": "123m456m789m11p999p", "variant": "wuhu525"}  # value 12, 通天
NOT_WIN = {"id": "c", "hand": "123456m99p555p44s4s"}  # not 八支
MELDED = {"id": "m", "hand": "123456m13m99p2m", "melds": ["555p"], "self_draw": True, "dealer": True}
RECORDS = [WIN_315, WIN_525, NOT_WIN, MELDED]


def _write_jsonl(path: Path, records: list[Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _results(output: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in output.splitlines()]


def _invoke(runner: CliRunner, *args: str, stdin: str | None = None) -> Any:
    return runner.invoke(app, ["batch", *args], input=stdin)


def _score_json(record: dict[str, Any]) -> dict[str, Any]:
    """What `mjcalc score --json` prints for the same record."""
    args = ["score", record["hand"], "--json"]
    if "variant" in record:
        args += ["--variant", record["variant"]]
    for meld in record.get("melds", []):
        args += ["--meld", meld]
    for flag in ("self_draw", "dealer"):
        if record.get(flag):
            args.append("--" + flag.replace("_", "-"))
    out = CliRunner().invoke(app, args).stdout
    return dict(json.loads(out))


# --- JSON Lines ------------------------------------------------------------------------


def test_jsonl_results_are_score_json_plus_line_and_id(runner: CliRunner, tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "in.jsonl", RECORDS)
    result = _invoke(runner, str(path))
    assert result.exit_code == 0, result.output
    got = _results(result.stdout)
    assert [r["line"] for r in got] == [1, 2, 3, 4]
    assert [r["id"] for r in got] == ["a", 2, "c", "m"]
    for record, res in zip(RECORDS, got):
        expected = _score_json(record)
        assert {k: v for k, v in res.items() if k not in ("line", "id")} == expected
    assert got[0]["value"] == 8
    assert got[1]["patterns"] == ["tong_tian"]
    assert got[2]["reason"]["code"] == "no_ba_zhi"


def test_a_run_paces_the_collector_and_leaves_it_as_it_found_it(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from mahjong_calc.batch import command
    from mahjong_calc.core import collector

    seen: list[tuple[int, int]] = []  # (gen-0 threshold, frozen objects) at each chunk's freeze
    step = collector.FreezeAsItGoes.step

    def watched(self: collector.FreezeAsItGoes) -> None:
        step(self)
        seen.append((gc.get_threshold()[0], gc.get_freeze_count()))

    monkeypatch.setattr(collector.FreezeAsItGoes, "step", watched)
    monkeypatch.setattr(command, "FREEZE_EVERY", 1)  # every chunk (the file is one)
    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count()
    result = _invoke(runner, str(_write_jsonl(tmp_path / "in.jsonl", RECORDS * 3)), "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert len(_results(result.stdout)) == 12
    assert seen and all(young == collector.YOUNG and count > 0 for young, count in seen)
    assert (gc.get_threshold(), gc.get_freeze_count()) == (thresholds, frozen)


def test_blank_lines_are_skipped_but_counted(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(f"\n{json.dumps(WIN_315)}\n   \n{json.dumps(WIN_525)}\n", encoding="utf-8")
    got = _results(_invoke(runner, str(path)).stdout)
    assert [(r["line"], r["id"]) for r in got] == [(2, "a"), (4, 2)]


def test_stdin_is_read_with_dash(runner: CliRunner) -> None:
    text = "".join(json.dumps(r) + "\n" for r in RECORDS)
    result = _invoke(runner, "-", stdin=text)
    assert result.exit_code == 0
    assert [r["id"] for r in _results(result.stdout)] == ["a", 2, "c", "m"]


def test_stdin_honours_input_format(runner: CliRunner) -> None:
    text = "id,hand,self_draw\nx,123456m13m99p555p2m,true\n"
    result = _invoke(runner, "-", "--input-format", "csv", stdin=text)
    assert _results(result.stdout)[0]["value"] == 8


# --- error records -----------------------------------------------------------------------

BAD_LINES = [
    ('{"id": "u", "hand": "123m456m789m11p999p", "colour": "red"}', "u", "unknown_field"),
    ("not json", None, "bad_json"),
    ('["123m"]', None, "bad_record"),
    ('{"id": "t", "hand": "123m456m789m11p999p", "self_draw": "yes"}', "t", "bad_field"),
    ('{"id": "l", "hand": "123m456m789m11p999p", "melds": "555p"}', "l", "bad_field"),
    ('{"id": "h"}', "h", "missing_field"),
    ('{"id": "x", "hand": "12x3m"}', "x", "unknown_character"),
    ('{"id": "v", "hand": "123m456m789m11p999p", "variant": "nowhere"}', "v", "unknown_variant"),
    ('{"id": "k", "hand": "123m456m789m11p999p", "self_draw": true, "discarder": "next"}', "k", "conflicting_flags"),
    ('{"id": true, "hand": "123m456m789m11p999p"}', None, "bad_field"),
]


@pytest.mark.parametrize(("bad", "rid", "code"), BAD_LINES)
def test_a_bad_record_is_an_error_object_and_the_rest_is_scored(
    runner: CliRunner, tmp_path: Path, bad: str, rid: Any, code: str
) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(f"{json.dumps(WIN_315)}\n{bad}\n{json.dumps(WIN_525)}\n", encoding="utf-8")
    result = _invoke(runner, str(path))
    assert result.exit_code == 1
    first, error, last = _results(result.stdout)
    assert first["value"] == 8 and last["value"] == 12
    assert error["line"] == 2
    assert error["id"] == rid
    assert error["valid"] is False
    assert error["error"]["code"] == code
    assert error["error"]["message"]


def test_not_a_win_does_not_fail_the_run(runner: CliRunner, tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "in.jsonl", [NOT_WIN, NOT_WIN])
    result = _invoke(runner, str(path))
    assert result.exit_code == 0
    assert [r["reason"]["code"] for r in _results(result.stdout)] == ["no_ba_zhi", "no_ba_zhi"]


def test_fail_fast_stops_after_the_first_error(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(f"{json.dumps(WIN_315)}\noops\n{json.dumps(WIN_525)}\n{{}}\n", encoding="utf-8")
    result = _invoke(runner, str(path), "--fail-fast")
    assert result.exit_code == 1
    assert [r["line"] for r in _results(result.stdout)] == [1, 2]
    assert [r["line"] for r in _results(_invoke(runner, str(path)).stdout)] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["missing.jsonl"], 2),
        (["in.txt"], 2),
        (["in.txt", "--input-format", "jsonl"], 0),
        (["in.txt", "--jobs", "0"], 2),
        (["in.txt", "--input-format", "jsonl", "--jobs", "100000"], 2),
    ],
)
def test_exit_codes_for_the_run(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], code: int) -> None:
    monkeypatch.chdir(tmp_path)
    _write_jsonl(tmp_path / "in.txt", [WIN_315])
    assert _invoke(runner, *args).exit_code == code


# --- YAML and CSV --------------------------------------------------------------------------


def test_yaml_list_gives_the_same_results_with_its_own_lines(runner: CliRunner, tmp_path: Path) -> None:
    yaml_path = tmp_path / "in.yaml"
    yaml_path.write_text(yaml.safe_dump(RECORDS, allow_unicode=True, sort_keys=False), encoding="utf-8")
    jsonl = _results(_invoke(runner, str(_write_jsonl(tmp_path / "in.jsonl", RECORDS))).stdout)
    result = _invoke(runner, str(yaml_path))
    assert result.exit_code == 0
    got = _results(result.stdout)
    strip = [{k: v for k, v in r.items() if k != "line"} for r in got]
    assert strip == [{k: v for k, v in r.items() if k != "line"} for r in jsonl]
    lines = yaml_path.read_text(encoding="utf-8").splitlines()
    for res in got:  # each record's line is where its list item starts
        assert lines[res["line"] - 1].startswith("- ")


def test_yaml_errors_have_line_numbers(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "in.yml"
    path.write_text(
        "- {id: a, hand: 123456m13m99p555p2m, self_draw: true}\n"
        "- id: dup\n  hand: 123m456m789m11p999p\n  hand: 123m456m789m11p999p\n"
        "- {id: f, hand: 123m456m789m11p999p, extra: 1}\n"
        "- 42\n",
        encoding="utf-8",
    )
    result = _invoke(runner, str(path))
    assert result.exit_code == 1
    got = _results(result.stdout)
    assert [(r["line"], r.get("error", {}).get("code")) for r in got] == [
        (1, None), (2, "bad_record"), (5, "unknown_field"), (6, "bad_record"),
    ]
    assert got[2]["id"] == "f"


def test_yaml_that_is_not_a_list_is_one_error(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "in.yaml"
    path.write_text("hand: 123m456m789m11p999p\n", encoding="utf-8")
    result = _invoke(runner, str(path))
    assert result.exit_code == 1
    (error,) = _results(result.stdout)
    assert error["error"]["code"] == "bad_yaml"


CSV_TEXT = (
    "id,variant,hand,self_draw,dealer,melds,concealed_kongs,discarder\n"
    "a,,123456m13m99p555p2m,true,,,,\n"
    "2,wuhu525,123m456m789m11p999p,0,FALSE,,,next\n"
    "m,,123456m13m99p2m,1,True,555p,,\n"
    "k,,123m567m99p,,,,4444m 9999s,\n"
    "b,,123m456m789m11p999p,maybe,,,,\n"
    "short,123m\n"
)


def test_csv_cells_are_decoded_and_bad_cells_are_errors(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "in.csv"
    path.write_text(CSV_TEXT, encoding="utf-8")
    result = _invoke(runner, str(path))
    assert result.exit_code == 1
    got = _results(result.stdout)
    assert [r["line"] for r in got] == [2, 3, 4, 5, 6, 7]
    assert [r["id"] for r in got] == ["a", "2", "m", "k", "b", None]
    assert got[0]["value"] == 8
    assert got[1]["variant"] == "wuhu525" and got[1]["value"] == 12
    assert got[2] == {"line": 4, "id": "m", **_score_json(MELDED)}
    assert [m["tiles"] for m in got[3]["hand"]["melds"]] == ["4444m", "9999s"]
    assert got[4]["error"]["code"] == "bad_field"
    assert got[5]["error"]["code"] == "bad_csv_row"


def test_csv_unknown_column_is_an_error_for_each_record(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "in.csv"
    path.write_text("hand,colour\n123m456m789m11p999p,red\n123m456m789m11p999p,\n", encoding="utf-8")
    got = _results(_invoke(runner, str(path)).stdout)
    assert [r["error"]["code"] for r in got] == ["unknown_field", "unknown_field"]


def test_csv_output(runner: CliRunner, tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "in.jsonl", [*RECORDS, {"hand": "x"}])
    result = _invoke(runner, str(path), "--format", "csv")
    assert result.exit_code == 1
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(rows[0]) == list(CSV_COLUMNS)
    assert [r["status"] for r in rows] == ["win", "win", "not_a_win", "win", "error"]
    assert rows[0]["value"] == "8" and rows[0]["total"] == "24" and rows[0]["next"] == "8"
    assert rows[1]["patterns"] == "tong_tian"
    assert rows[2]["code"] == "no_ba_zhi"
    assert rows[4]["line"] == "5" and rows[4]["code"] == "unknown_character"


def test_summary_counts(runner: CliRunner, tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "in.jsonl", [*RECORDS, WIN_525, {"hand": "x"}])
    result = _invoke(runner, str(path), "--format", "summary")
    assert result.exit_code == 1
    text = result.stdout
    compiled = 5 if kernel_compiled("wuhu") else 0  # every record but the bad hand is plain Wuhu
    for label, number in (("records", 6), ("wins", 4), ("not wins", 1), ("errors", 1), ("compiled", compiled)):
        assert any(line.split() == [*label.split(), str(number)] for line in text.splitlines()), label
    assert "通天" in text and "pure straight" in text  # pattern names in zh and en, not the key
    assert any("wuhu525" in line and "24" in line for line in text.splitlines())


# --- the library face and processes -----------------------------------------------------------


def test_score_records_matches_the_command(runner: CliRunner, tmp_path: Path) -> None:
    records: list[Any] = [*RECORDS, {"hand": "123m", "bogus": 1}, "not a mapping", {"id": "\udcff", "hand": "123m"}]
    path = _write_jsonl(tmp_path / "in.jsonl", records)
    assert _results(_invoke(runner, str(path)).stdout) == list(score_records(records))


def test_the_memo_answers_each_record_in_the_language_chosen_now() -> None:
    """One process may score in several languages (a library user, a test run): a row memoised in
    one language is never the answer in another."""
    from mahjong_calc.core import words

    records = [WIN_315, NOT_WIN]
    rows = {}
    for lang in ("zh", None, "en", "zh"):
        words.set_language(lang)
        rows.setdefault(lang, []).append([json.dumps(r, ensure_ascii=False) for r in score_records(records)])
    words.set_language(None)
    assert rows["zh"][0] == rows["zh"][1]
    zh, plain, en = rows["zh"][0], rows[None][0], rows["en"][0]
    assert len({zh[0], plain[0], en[0]}) == 3 and len({zh[1], plain[1], en[1]}) == 3  # each worded in its language
    assert "self-draw" in plain[0] and "自摸" in plain[0]  # no language chosen: the bilingual detail
    assert not re.search(r"[\u4e00-\u9fff]", en[1].split('"message"')[1])  # English alone


def test_the_library_path_takes_the_cache_and_the_compiled_scorer() -> None:
    """score_record (the Dask recipe's path) goes through the batch engine's cached outcome."""
    record = {**WIN_315, "id": "lib"}
    before = outcome_cache_info()
    first, second = score_record(record), score_record(record)
    after = outcome_cache_info()
    assert first == second and first["value"] == 8
    assert after.hits + after.misses == before.hits + before.misses + 2
    assert after.hits >= before.hits + 1
    key, _ = normalize(record)
    assert outcome(key).compiled is kernel_compiled("wuhu")


@pytest.mark.parametrize("record", [
    {"id": "\udcff", "hand": "123456m13m99p555p2m"},
    {"id": 1, "hand": "123456m13m99p555p2m", "variant": "\udcff"},
    {"id": 2, "variant": "pujiang", "hand": "111m222p333s444s3m7z", "wild": "3m", "piao": 20000},
    {"id": 3, "hand": {"not": "a string"}},
])
def test_score_record_never_raises(record: dict[str, Any]) -> None:
    got = score_record(record)
    assert got["valid"] is False and got["error"]["code"]
    json.dumps(got).encode("utf-8")  # writable as UTF-8 JSON


def test_run_batch_streams_chunk_by_chunk() -> None:
    """Each chunk is written before much more of the input is read."""
    data = (json.dumps(WIN_315) + "\n").encode() * 7
    stream = io.BytesIO(data)
    out = io.StringIO()
    seen: list[tuple[int, int]] = []
    line_bytes = len(data) // 7
    run_batch(read_items(stream, "jsonl", block=3, read_size=line_bytes), out,
              on_chunk=lambda n: seen.append((stream.tell() // line_bytes, out.getvalue().count("\n"))))
    assert [written for _, written in seen] == [3, 6, 7]
    assert all(read <= written + 1 for read, written in seen[:-1])  # at most a line ahead


def _many(n: int) -> list[dict[str, Any]]:
    base = [WIN_315, WIN_525, NOT_WIN, MELDED, {"hand": "bad"}]
    return [{**base[i % len(base)], "id": i} for i in range(n)]


def _summary_counts(text: str) -> dict[str, int]:
    """The counts table of `--format summary`: label -> number."""
    counts: dict[str, int] = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 2 and words[-1].isdigit() and words[0] in ("records", "wins", "not", "errors", "compiled"):
            counts[" ".join(words[:-1])] = int(words[-1])
    return counts


@needs_compiled
def test_jobs_keep_the_order_and_the_output(tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "in.jsonl", _many(2600))  # several chunks per worker

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        return run_installed(["batch", str(path), *extra], timeout=300)

    one, two = run(), run("--jobs", "2")
    assert one.returncode == two.returncode == 1
    assert one.stderr == two.stderr == ""  # no progress bar when stderr is not a terminal
    assert two.stdout == one.stdout
    got = _results(two.stdout)
    assert [r["id"] for r in got] == list(range(2600))
    assert [r["line"] for r in got] == list(range(1, 2601))
    csv_one, csv_two = run("--format", "csv"), run("--format", "csv", "--jobs", "2")
    assert csv_two.stdout == csv_one.stdout
    assert csv_two.stdout.count("\n") == 2601  # the header once, then one row per record
    for jobs in ("1", "2"):  # the installed copy's compiled scorer answered every plain Wuhu record
        counts = _summary_counts(run("--format", "summary", "--jobs", jobs).stdout)
        assert counts["records"] == 2600
        assert counts["compiled"] == counts["records"] - counts["errors"] == 2080
    assert "mahjong_calc.variants.wuhu.kernel" in which_ran()["compiled"]


def test_jobs_through_a_pool_when_the_output_has_no_descriptor(runner: CliRunner, tmp_path: Path) -> None:
    """CliRunner's stdout has no file descriptor: the workers send their output back instead."""
    path = _write_jsonl(tmp_path / "in.jsonl", _many(1300))
    one, two = _invoke(runner, str(path)), _invoke(runner, str(path), "--jobs", "2")
    assert one.exit_code == two.exit_code == 1
    assert two.stdout == one.stdout
    assert [r["id"] for r in _results(two.stdout)] == list(range(1300))


def _error_after(good: int, then: int) -> list[dict[str, Any]]:
    return [{**WIN_315, "id": i} for i in range(good)] + [{"hand": "bad", "id": good}] + [
        {**WIN_525, "id": good + 1 + i} for i in range(then)
    ]


@needs_compiled
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_fail_fast_with_jobs_in_a_subprocess(tmp_path: Path, jobs: str) -> None:
    path = _write_jsonl(tmp_path / "in.jsonl", _error_after(1600, 1500))  # the error is in the fourth chunk
    done = run_installed(["batch", str(path), "--fail-fast", "--jobs", jobs], timeout=300)
    assert done.returncode == 1
    assert [r["id"] for r in _results(done.stdout)] == list(range(1601))
    assert done.stderr == ""
    summary = run_installed(["batch", str(path), "--fail-fast", "--jobs", jobs, "--format", "summary"], timeout=300)
    assert _summary_counts(summary.stdout)["compiled"] == 1600  # the bad hand takes the Python path


def test_fail_fast_with_jobs_through_a_pool(runner: CliRunner, tmp_path: Path) -> None:
    path = _write_jsonl(tmp_path / "in.jsonl", _error_after(1600, 1500))
    result = _invoke(runner, str(path), "--fail-fast", "--jobs", "2")
    assert result.exit_code == 1
    assert [r["id"] for r in _results(result.stdout)] == list(range(1601))


@needs_compiled
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_reader_that_goes_away_stops_the_run_quietly(tmp_path: Path, jobs: str) -> None:
    """`mjcalc batch big.jsonl | head -1`: no traceback, no error, from the parent or a worker."""
    path = _write_jsonl(tmp_path / "in.jsonl", [{**WIN_315, "id": i} for i in range(20000)])
    proc = popen_installed(["batch", str(path), "--jobs", jobs], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    stderr = proc.stderr.read()
    assert proc.wait(timeout=120) == 0
    assert json.loads(first)["id"] == 0
    assert stderr == b""


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_exits_130_without_a_traceback(tmp_path: Path, jobs: str) -> None:
    path = _write_jsonl(tmp_path / "in.jsonl", [{**WIN_315, "id": i} for i in range(50000)])
    proc = popen_installed(["batch", str(path), "--jobs", jobs], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           start_new_session=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()  # running
    import os

    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does: the whole foreground group
    proc.stdout.read()
    stderr = proc.stderr.read()
    assert proc.wait(timeout=120) == 130
    assert b"Traceback" not in stderr


@pytest.mark.parametrize(
    ("name", "data", "lines", "codes"),
    [
        ("in.jsonl", b'{"hand": "\xff"}\n{"hand": "123m456m789m11p999p"}\n', [1, 2], ["bad_encoding", None]),
        ("in.csv", b"hand,id\n123m456m789m11p999p,\xff\n123m456m789m11p999p,ok\n", [2, 3], ["bad_encoding", None]),
        ("in.csv", "\ufeffhand,id\n123m456m789m11p999p,bom\n".encode(), [2], [None]),  # a UTF-8 BOM is not a column
        ("in.csv", b'hand,id\n"123m456m789m11p999p",a\n"open quote,b\n', [2, 3], [None, "bad_csv"]),
    ],
)
def test_bytes_that_cannot_be_read_are_error_records(
    runner: CliRunner, tmp_path: Path, name: str, data: bytes, lines: list[int], codes: list[str | None]
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    got = _results(_invoke(runner, str(path)).stdout)
    assert [r["line"] for r in got] == lines
    assert [r.get("error", {}).get("code") for r in got] == codes


def test_yaml_from_stdin(runner: CliRunner) -> None:
    result = _invoke(runner, "-", "--input-format", "yaml", stdin="- {id: y, hand: 123456m13m99p555p2m, self_draw: true}\n")
    assert result.exit_code == 0
    assert [(r["id"], r["value"]) for r in _results(result.stdout)] == [("y", 8)]


