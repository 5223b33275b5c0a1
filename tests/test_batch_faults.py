"""`mjcalc batch` under faults: nothing lost, nothing hangs.

Each kind of bad record is put at a random line of a large file; for --jobs 1 and
--jobs 2 the run must give one row per record, in order, an error row for the bad
line, exit 1, and end (every run has a timeout). Then the run-level faults: a dead
worker, a killed parent, a full disk, closed standard streams, a record without end.
These run the installed package (tests/installed.py).
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from installed import needs_compiled, popen_installed, run_installed

GOOD = {"hand": "13m456m678m11p555p2m"}  # a Wuhu win the compiled scorer answers
LIMIT = 1 << 20  # RECORD_LIMIT: one record's bytes
TIMEOUT = 300
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux only)")


def _good_line(i: int) -> bytes:
    return json.dumps({**GOOD, "id": i}).encode() + b"\n"


# one bad JSON Lines record of each kind that once lost records or hung a run
BAD_JSONL: dict[str, bytes] = {
    "lone_surrogate_id": b'{"id": "\\udcff", "hand": "13m456m678m11p555p2m"}',
    "lone_surrogate_variant": b'{"id": "v", "variant": "\\udcff", "hand": "13m456m678m11p555p2m"}',
    "long_number": b'{"id": "n", "hand": "13m456m678m11p555p2m", "piao": ' + b"9" * 5000 + b"}",
    "piao_20000": b'{"id": "p", "variant": "pujiang", "hand": "111m222p333s444s3m7z", "wild": "3m", "piao": 20000}',
    "nested_100000": b"[" * 100_000,
    "not_utf8": b'{"id": "e", "hand": "13m456m678m11p555p2m\xff"}',
    "over_1mb": b'{"id": "big", "hand": "' + b"1" * (LIMIT + 10) + b'"}',
    "not_json": b"oops",
}


def _jsonl_with_bad(tmp_path: Path, bad: bytes, n: int, seed: int) -> tuple[Path, int]:
    """`n` records, the one at a random line (1-based, returned) being `bad`."""
    at = random.Random(seed).randrange(1, n + 1)
    lines = [_good_line(i) for i in range(n)]
    lines[at - 1] = bad + b"\n"
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"".join(lines))
    return path, at


def _rows(stdout: bytes, out_format: str) -> list[dict[str, Any]]:
    if out_format == "csv":
        return list(csv.DictReader(io.StringIO(stdout.decode("utf-8"))))
    return [json.loads(line) for line in stdout.decode("utf-8").splitlines()]


def _is_error(row: dict[str, Any], out_format: str) -> bool:
    return row["status"] == "error" if out_format == "csv" else row["valid"] is False and "error" in row


@needs_compiled
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("kind", sorted(BAD_JSONL))
def test_a_bad_jsonl_record_at_a_random_line_is_its_own_error_row(tmp_path: Path, kind: str, jobs: str) -> None:
    n = 3000  # six chunks of 500
    seed = sum(map(ord, kind))
    path, at = _jsonl_with_bad(tmp_path, BAD_JSONL[kind], n, seed)
    for out_format in ("jsonl", "csv"):
        done = run_installed(["batch", str(path), "--jobs", jobs, "--format", out_format], text=False, timeout=TIMEOUT)
        assert done.returncode == 1, (kind, at, done.stderr)
        assert done.stderr == b""
        rows = _rows(done.stdout, out_format)
        assert [int(r["line"]) for r in rows] == list(range(1, n + 1)), (kind, at)
        assert [_is_error(r, out_format) for r in rows] == [i == at for i in range(1, n + 1)], (kind, at)


BAD_YAML: dict[str, bytes] = {
    "long_integer": b"- {id: i, hand: 13m456m678m11p555p2m, piao: " + b"9" * 5000 + b"}\n",
    "not_utf8": b"- {id: e\xff, hand: 13m456m678m11p555p2m}\n",
    "control_character": b"- {id: c\x01, hand: 13m456m678m11p555p2m}\n",
    "nested_5000_flow": b"- " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "nested_5000_block": b"".join(b"  " * d + b"- \n" for d in range(300)) + b"  " * 300 + b"- x\n",
    "alias_bomb": b"- id: bomb\n  hand: 13m456m678m11p555p2m\n  x0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    + b"".join(b"  x%d: &a%d [" % (i, i) + b", ".join([b"*a%d" % (i - 1)] * 10) + b"]\n" for i in range(1, 10))
    + b"  melds: *a9\n",
    "duplicate_key": b"- {id: d, hand: 13m456m678m11p555p2m, hand: 13m456m678m11p555p2m}\n",
}


@needs_compiled
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("kind", sorted(BAD_YAML))
def test_a_bad_yaml_record_at_a_random_position_is_its_own_error_row(tmp_path: Path, kind: str, jobs: str) -> None:
    n = 600
    at = random.Random(sum(map(ord, kind))).randrange(n)
    parts = [b"- {id: %d, hand: 13m456m678m11p555p2m}\n" % i for i in range(n)]
    parts[at] = BAD_YAML[kind]
    path = tmp_path / "in.yaml"
    path.write_bytes(b"".join(parts))
    done = run_installed(["batch", str(path), "--jobs", jobs], text=False, timeout=TIMEOUT)
    assert done.returncode == 1, (kind, done.stderr)
    assert done.stderr == b""
    rows = _rows(done.stdout, "jsonl")
    assert len(rows) == n, kind
    assert [r["line"] for r in rows] == sorted(r["line"] for r in rows)
    assert [_is_error(r, "jsonl") for r in rows] == [i == at for i in range(n)], kind
    assert [r["id"] for i, r in enumerate(rows) if i != at] == [i for i in range(n) if i != at]
    assert len(done.stdout) < 10 * n * 1000  # no message echoes an expanded value


BAD_CSV: dict[str, bytes] = {
    "cell_over_131072": b"big," + b"1" * 200_000 + b"\n",
    "cell_over_1mb": b"huge," + b"1" * (LIMIT + 10) + b"\n",
    "unclosed_quote": b'"open,13m456m678m11p555p2m\n',
    "not_utf8": b"e\xff,13m456m678m11p555p2m\n",
    "quote_in_cell": b'x"y,13m456m678m11p555p2m\n',
}


@needs_compiled
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("kind", sorted(BAD_CSV))
def test_a_bad_csv_row_at_a_random_line_is_its_own_error_row(tmp_path: Path, kind: str, jobs: str) -> None:
    n = 2000
    at = random.Random(sum(map(ord, kind))).randrange(n)
    rows_in = [b"%d,13m456m678m11p555p2m\n" % i for i in range(n)]
    rows_in[at] = BAD_CSV[kind]
    path = tmp_path / "in.csv"
    path.write_bytes(b"id,hand\n" + b"".join(rows_in))
    done = run_installed(["batch", str(path), "--jobs", jobs], text=False, timeout=TIMEOUT)
    assert done.returncode == 1, (kind, done.stderr)
    rows = _rows(done.stdout, "jsonl")
    assert [r["line"] for r in rows] == list(range(2, n + 2)), kind
    assert [_is_error(r, "jsonl") for r in rows] == [i == at for i in range(n)], kind


def test_csv_output_neutralises_formulas(tmp_path: Path) -> None:
    ids = ["=cmd|' /C calc'!A0", "+SUM(1)", "-2+3", "@SUM(1)", "\tx", "\rx", "plain"]
    records = [{**GOOD, "id": rid} for rid in ids] + [{**GOOD, "id": "v", "variant": "=HYPERLINK(1)"}]
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    done = run_installed(["batch", str(path), "--format", "csv"], text=False, timeout=TIMEOUT)
    rows = list(csv.DictReader(io.StringIO(done.stdout.decode("utf-8"), newline="")))
    assert [r["id"] for r in rows[:-1]] == ["'" + rid for rid in ids[:-1]] + ["plain"]
    assert rows[-1]["variant"] == "'=HYPERLINK(1)" and rows[-1]["status"] == "error"
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for row in rows for cell in row.values())


# --- run-level faults -------------------------------------------------------------------------------


def _big_jsonl(tmp_path: Path, n: int = 100_000) -> Path:
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"".join(_good_line(i) for i in range(n)))
    return path


def _children(pid: int) -> list[int]:
    """Live (not zombie) processes whose parent is `pid`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        state, ppid = stat[stat.rindex(")") + 2 :].split()[:2]
        if int(ppid) == pid and state != "Z":
            found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def _workers(proc: subprocess.Popen[bytes], jobs: int) -> list[int]:
    deadline = time.monotonic() + 60
    while len(kids := _children(proc.pid)) < jobs:
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.05)
    return kids


@pytest.mark.slow
@linux_only
def test_a_worker_that_dies_stops_the_run_with_exit_3_and_where_to_resume(tmp_path: Path) -> None:
    path = _big_jsonl(tmp_path)
    proc = popen_installed(["batch", str(path), "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()  # running; the parent now waits for us to read
    os.kill(_workers(proc, 2)[0], signal.SIGKILL)
    rest = proc.stdout.read()
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=TIMEOUT) == 3
    written = (first + rest).count(b"\n")
    assert written < 100_000
    assert stderr.count("\n") == 1 and "worker_died" in stderr, stderr
    assert f"{written:,} records were written" in stderr
    assert f"resume from line {written + 1}" in stderr  # one record a line here


@pytest.mark.slow
@linux_only
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_killing_the_parent_leaves_no_worker(tmp_path: Path, sig: signal.Signals) -> None:
    path = _big_jsonl(tmp_path)
    proc = popen_installed(["batch", str(path), "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert proc.stdout is not None
    proc.stdout.readline()
    workers = _workers(proc, 2)
    os.kill(proc.pid, sig)
    proc.wait(timeout=TIMEOUT)
    deadline = time.monotonic() + 30
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [w for w in workers if _alive(w)] == []
    proc.stdout.close()


@linux_only
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_full_disk_is_exit_3_with_one_line(tmp_path: Path, jobs: str) -> None:
    path = _big_jsonl(tmp_path, 5000)
    with open("/dev/full", "wb") as full:
        proc = popen_installed(["batch", str(path), "--jobs", jobs], stdout=full, stderr=subprocess.PIPE)
        _, stderr = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 3
    text = stderr.decode()
    assert text.count("\n") == 1 and "output_error" in text and "resume from line 1" in text, text


@pytest.mark.parametrize(("stream", "code", "word"), [(0, 2, "cannot_read_input"), (1, 3, "output_error")])
def test_closed_standard_streams_are_one_line_errors(tmp_path: Path, stream: int, code: int, word: str) -> None:
    path = _big_jsonl(tmp_path, 10)
    target = "-" if stream == 0 else str(path)
    proc = popen_installed(["batch", target], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, preexec_fn=lambda: os.close(stream))
    _, stderr = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == code
    assert stderr.decode().count("\n") == 1 and word in stderr.decode() and "Traceback" not in stderr.decode()


def test_too_many_jobs_is_refused(tmp_path: Path) -> None:
    path = _big_jsonl(tmp_path, 10)
    done = run_installed(["batch", str(path), "--jobs", "1000"], timeout=TIMEOUT)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "bad_jobs" in done.stderr and "--jobs" in done.stderr


def test_a_line_longer_than_the_record_limit_is_one_error_row(tmp_path: Path) -> None:
    path = tmp_path / "zeros.jsonl"
    path.write_bytes(b"\0" * (5 * LIMIT) + b"\n" + _good_line(1))
    done = run_installed(["batch", str(path)], timeout=TIMEOUT)
    rows = _rows(done.stdout.encode(), "jsonl")
    assert done.returncode == 1
    assert [(r["line"], r.get("error", {}).get("code")) for r in rows] == [(1, "record_too_large"), (2, None)]


@linux_only
def test_an_endless_line_is_read_in_bounded_memory() -> None:
    """`mjcalc batch /dev/zero --input-format jsonl` reads on without holding the line."""
    proc = popen_installed(["batch", "/dev/zero", "--input-format", "jsonl"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + TIMEOUT
        read = 0
        while read < 64 * LIMIT:  # 64 MiB of one line
            assert time.monotonic() < deadline and proc.poll() is None
            io_stats = Path(f"/proc/{proc.pid}/io").read_text()
            read = int(next(line.split()[1] for line in io_stats.splitlines() if line.startswith("rchar:")))
            time.sleep(0.05)
        status = Path(f"/proc/{proc.pid}/status").read_text()
        peak_kib = int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))
        assert peak_kib < 48 * 1024  # far less than the 64 MiB read
    finally:
        proc.kill()
        proc.wait()
        assert proc.stdout is not None
        proc.stdout.close()


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # a flow-style list on one line longer than the record limit: one error row, never silence
        (b"[" + b", ".join(b"{id: %d, hand: 13m456m678m11p555p2m}" % i for i in range(40000)) + b"]\n",
         [(1, "record_too_large")]),
        # bad bytes in a comment after the last record still make a row
        (b"- {id: 1, hand: 13m456m678m11p555p2m}\n# \xff\n", [(1, None), (2, "bad_encoding")]),
    ],
)
def test_yaml_problems_outside_any_record_are_rows(tmp_path: Path, data: bytes, expected: list[tuple[int, Any]]) -> None:
    path = tmp_path / "in.yaml"
    path.write_bytes(data)
    done = run_installed(["batch", str(path)], timeout=TIMEOUT)
    assert done.returncode == 1
    rows = _rows(done.stdout.encode(), "jsonl")
    assert [(r["line"], r.get("error", {}).get("code")) for r in rows] == expected
