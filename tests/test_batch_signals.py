"""A batch stopped by SIGINT, SIGTERM or SIGHUP, with --jobs 1 or 2, leaves whole rows on stdout and
one stderr line with the line to resume from (each record's line is its id here: the rows written are
records 1 to N-1, whole and in order, and line N is the first record not written)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from installed import popen_installed

HANDS = ["123456m13m99p555p2m", "111m444m777m99m555p", "123m456p789s11p555s", "12x"]
STOPPED = re.compile(r"mjcalc: error \[interrupted\]: stopped by (SIG[A-Z]+); ([\d,]+) records were written in full; resume from line (\d+)")


def record(i: int) -> bytes:
    return (json.dumps({"id": i, "hand": HANDS[i % len(HANDS)], "self_draw": i % 2 == 0}) + "\n").encode()


def feed(proc: subprocess.Popen[bytes], done: threading.Event) -> None:
    """Records into the batch's stdin, for as long as it reads them (it is stopped mid-stream)."""
    assert proc.stdin is not None
    i = 1
    try:
        while not done.is_set() and i < 5_000_000:
            proc.stdin.write(b"".join(record(j) for j in range(i, i + 1000)))
            i += 1000
        proc.stdin.close()
    except (BrokenPipeError, OSError, ValueError):
        pass


def stopped_run(tmp_path: Path, number: signal.Signals, jobs: int) -> tuple[int, list[dict[str, object]], str]:
    """Run `mjcalc batch - --jobs N` on an endless stream, send `number` once rows have come out:
    (exit status, the rows written, stderr)."""
    out = tmp_path / "rows.jsonl"
    with out.open("wb") as sink:
        proc = popen_installed(["batch", "-", "--jobs", str(jobs)], stdin=subprocess.PIPE, stdout=sink, stderr=subprocess.PIPE)
        done = threading.Event()
        writer = threading.Thread(target=feed, args=(proc, done), daemon=True)
        writer.start()
        deadline = time.monotonic() + 120
        while out.stat().st_size < 100_000 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        proc.send_signal(number)
        try:
            _, err = proc.communicate(timeout=120)
        finally:
            done.set()
            proc.kill()
    rows = [json.loads(line) for line in out.read_bytes().splitlines()]  # every row whole: each parses
    return proc.returncode, rows, err.decode("utf-8")


@pytest.mark.parametrize(("number", "jobs"), [(signal.SIGTERM, 2)])
def test_sigterm_with_two_jobs_says_where_to_resume(tmp_path: Path, number: signal.Signals, jobs: int) -> None:
    status, rows, err = stopped_run(tmp_path, number, jobs)
    assert status == 128 + number, err
    lines = err.splitlines()
    assert len(lines) == 1, err
    match = STOPPED.fullmatch(lines[0])
    assert match is not None, err
    name, written, resume = match.group(1), int(match.group(2).replace(",", "")), int(match.group(3))
    assert name == number.name and written == len(rows) > 0
    assert [row["line"] for row in rows] == list(range(1, written + 1))  # in order, none missing, none cut
    assert [row["id"] for row in rows] == list(range(1, written + 1))
    assert resume == written + 1


@pytest.mark.slow
@pytest.mark.parametrize(("number", "jobs"), [(signal.SIGINT, 1), (signal.SIGINT, 2), (signal.SIGTERM, 1), (signal.SIGHUP, 1),
                                              (signal.SIGHUP, 2)])
def test_every_stop_signal_with_one_or_two_jobs(tmp_path: Path, number: signal.Signals, jobs: int) -> None:
    test_sigterm_with_two_jobs_says_where_to_resume(tmp_path, number, jobs)
