"""Stdout takes every byte, or the run fails with `output_error` (exit 3), never exit 0 with rows lost.

Whatever the buffering (`PYTHONUNBUFFERED=1` makes stdout a raw file, whose writes may take
part of the bytes) and whether the descriptor blocks (a non-blocking pipe with a slow reader
refuses writes with EAGAIN); and after a full disk, batch's resume line counts only the rows
that reached the file whole.
"""

from __future__ import annotations

import csv
import errno
import fcntl
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from installed import popen_installed, run_installed

from mahjong_calc.batch.engine import BatchStopped, run_batch
from mahjong_calc.batch.readers import read_items

REPO = Path(__file__).resolve().parent.parent
TIMEOUT = 300
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pipe sizes, tmpfs and /dev/full are Linux's")
BUFFERING = {"unbuffered": {"PYTHONUNBUFFERED": "1"}, "buffered": {"PYTHONUNBUFFERED": ""}}
WIN = {"hand": "123456m13m99p555p2m", "self_draw": True}


def _records(n: int, odd_ids: bool = False) -> bytes:
    """`n` JSON Lines records, one a line; `odd_ids`: some ids hold quotes and line ends (multi-line CSV cells)."""
    lines = []
    for i in range(n):
        rid: Any = f'r"{i}"\nsecond line' if odd_ids and i % 7 == 0 else i
        lines.append(json.dumps({**WIN, "id": rid}) + "\n")
    return "".join(lines).encode()


def _big_game(path: Path, rounds: int = 1000) -> Path:
    """A Pujiang game of 3 * `rounds` hands as JSON Lines (`game settle --json` prints megabytes)."""
    import yaml

    game = yaml.safe_load((REPO / "examples" / "pujiang-piao.yaml").read_text(encoding="utf-8"))
    hands = game.pop("hands")
    with path.open("w", encoding="utf-8") as f:
        f.write(json.dumps(game, ensure_ascii=False) + "\n")
        for _ in range(rounds):
            for hand in hands:
                f.write(json.dumps(hand, ensure_ascii=False) + "\n")
    return path


@pytest.fixture(scope="module")
def files() -> Iterator[dict[str, str]]:
    """The inputs the commands below read: records, a big game file, a live game of 60 hands."""
    from mahjong_calc.live.store import Store

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        (base / "big.jsonl").write_bytes(_records(20_000))
        (base / "odd.jsonl").write_bytes(_records(20_000, odd_ids=True))
        _big_game(base / "game.jsonl")
        _big_game(base / "small.jsonl", 100)  # Rich takes long over a table of thousands of rows
        db = base / "games.sqlite3"
        import yaml

        game = yaml.safe_load((REPO / "examples" / "pujiang-piao.yaml").read_text(encoding="utf-8"))
        hands = game.pop("hands")
        with Store(db) as store:
            info = store.new_game(game)
            for _ in range(20):
                for hand in hands:
                    store.add(info.id, hand)
        yield {"big": str(base / "big.jsonl"), "odd": str(base / "odd.jsonl"), "game": str(base / "game.jsonl"), "small": str(base / "small.jsonl"),
               "db": str(db), "newdb": str(base / "new.sqlite3"), "example": str(REPO / "examples" / "wuhu315-club.yaml")}


# every writer of the project: (name, arguments with {placeholders} from `files`)
WRITERS = [
    ("batch_jsonl", ["batch", "{big}"]),
    ("batch_csv", ["batch", "{big}", "-o", "csv"]),
    ("batch_jobs", ["batch", "{big}", "--jobs", "2"]),
    ("batch_summary", ["batch", "{big}", "-o", "summary"]),
    ("settle_json", ["game", "settle", "{game}", "--json"]),
    ("settle_table", ["game", "settle", "{small}"]),
    ("show_json", ["game", "show", "--db", "{db}", "--json"]),
    ("show_table", ["game", "show", "--db", "{db}"]),
    ("export", ["game", "export", "--db", "{db}"]),
    ("list", ["game", "list", "--db", "{db}"]),
    ("score_json", ["score", "123456m13m99p555p2m", "-s", "--json", "--explain"]),
    ("score_table", ["score", "123456m13m99p555p2m", "-s", "--explain"]),
    ("waits_json", ["waits", "123456m13m99p555p", "--json"]),
    ("waits_table", ["waits", "123456m13m99p555p"]),
    ("options", ["options", "pujiang"]),
    ("variants", ["variants"]),
]


def _args(template: list[str], files: dict[str, str]) -> list[str]:
    return [a.format(**files) for a in template]


def _slow_nonblocking_read(args: list[str], env: dict[str, str]) -> tuple[int, bytes, str]:
    """Run mjcalc with stdout a non-blocking pipe of one page, read a little at a time."""
    r, w = os.pipe()
    fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, 4096)
    fcntl.fcntl(w, fcntl.F_SETFL, fcntl.fcntl(w, fcntl.F_GETFL) | os.O_NONBLOCK)  # the child's stdout, shared
    with tempfile.TemporaryFile() as err:
        proc = popen_installed(args, env=env, stdout=w, stderr=err)
        os.close(w)
        got = bytearray()
        with os.fdopen(r, "rb", buffering=0) as reader:
            while chunk := reader.read(4096):
                got += chunk
                time.sleep(0.0005)  # slower than the writer: its writes find the pipe full
        code = proc.wait(timeout=TIMEOUT)
        err.seek(0)
        return code, bytes(got), err.read().decode()


@pytest.mark.slow
@linux_only
@pytest.mark.parametrize("buffering", list(BUFFERING))
@pytest.mark.parametrize(("name", "template"), WRITERS, ids=[w[0] for w in WRITERS])
def test_a_slow_nonblocking_pipe_gets_every_byte(files: dict[str, str], name: str, template: list[str], buffering: str) -> None:
    args = _args(template, files)
    env = BUFFERING[buffering]
    expected = run_installed(args, env=env, text=False, timeout=TIMEOUT)
    assert expected.returncode == 0, expected.stderr
    code, got, stderr = _slow_nonblocking_read(args, env)
    assert (code, stderr) == (0, ""), stderr
    assert got == expected.stdout
    if name in ("batch_jsonl", "batch_jobs"):
        assert [json.loads(line)["line"] for line in got.splitlines()] == list(range(1, 20_001))
    elif name == "batch_csv":
        assert len(list(csv.reader(io.StringIO(got.decode("utf-8"), newline="")))) == 20_001
    elif name == "settle_json":
        assert len(json.loads(got)["hands"]) == 3000


# --- a full disk -----------------------------------------------------------------------------


@linux_only
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("buffering", list(BUFFERING))
@pytest.mark.parametrize(("name", "template"), [
    *WRITERS,
    ("version", ["--version"]),
    ("game_help", ["game"]),
    ("new", ["game", "new", "--db", "{newdb}", "--players", "a,b,c,d"]),
    ("new_json", ["game", "new", "--db", "{newdb}", "--players", "a,b,c,d", "--json"]),
], ids=[*(w[0] for w in WRITERS), "version", "game_help", "new", "new_json"])
@pytest.mark.slow
def test_a_full_disk_is_output_error_exit_3(files: dict[str, str], name: str, template: list[str], buffering: str) -> None:
    with open("/dev/full", "wb") as full:
        proc = popen_installed(_args(template, files), env=BUFFERING[buffering], stdout=full, stderr=subprocess.PIPE)
        _, err = proc.communicate(timeout=TIMEOUT)
    stderr = err.decode()
    assert proc.returncode == 3, stderr
    assert stderr.startswith("mjcalc: error [output_error]: cannot write the output: No space left on device"), stderr
    assert stderr.count("\n") == 1, stderr  # no "Exception ignored in", no traceback
    if name.startswith("batch") and name != "batch_summary":
        assert stderr.endswith("; 0 records were written in full; resume from line 1\n")


def _mount_tmpfs(where: Path, size: str) -> bool:
    where.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True, check=False)
    except OSError:
        return False
    return done.returncode == 0


def _complete_rows(data: bytes, out_format: str) -> list[int]:
    """The line of each row the output holds whole (a last, partly written row is not one)."""
    if out_format == "jsonl":
        return [json.loads(line)["line"] for line in data.split(b"\n")[:-1]]
    rows = list(csv.reader(io.StringIO(data.decode("utf-8", "replace"), newline="")))
    ends_whole = data.endswith(b"\n") and data.count(b'"') % 2 == 0
    whole = rows if ends_whole else rows[:-1]
    return [int(row[0]) for row in whole[1:]]  # without the header


@pytest.mark.slow
@linux_only
@pytest.mark.parametrize(("out_format", "jobs", "size"), [("jsonl", "1", "2m"), ("jsonl", "2", "2m"), ("csv", "1", "256k"), ("csv", "2", "256k")])
def test_after_a_full_disk_the_resume_line_counts_the_rows_on_disk(files: dict[str, str], tmp_path: Path, out_format: str, jobs: str, size: str) -> None:
    disk = tmp_path / "disk"
    if not _mount_tmpfs(disk, size):
        pytest.skip("cannot mount a tmpfs here (not root?): test_a_short_write_then_enospc covers the count")
    try:
        with (disk / "out").open("wb") as out:
            proc = popen_installed(["batch", files["odd"] if out_format == "csv" else files["big"], "-o", out_format, "--jobs", jobs],
                                   env=BUFFERING["unbuffered"], stdout=out, stderr=subprocess.PIPE)
            _, err = proc.communicate(timeout=TIMEOUT)
        data = (disk / "out").read_bytes()
    finally:
        subprocess.run(["umount", str(disk)], check=False)
    stderr = err.decode()
    assert proc.returncode == 3, stderr
    lines = _complete_rows(data, out_format)
    assert lines == list(range(1, len(lines) + 1))  # one record a line in the input
    assert f"; {len(lines):,} records were written in full; resume from line {len(lines) + 1}\n" in stderr, (stderr, len(lines))


class _Disk(io.RawIOBase):
    """A binary file that takes at most `step` bytes a write and `room` bytes in all, then ENOSPC."""

    def __init__(self, room: int, step: int) -> None:
        super().__init__()
        self.room, self.step, self.data = room, step, bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        if self.room == 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = min(len(b), self.step, self.room)
        self.data += bytes(b[:n])
        self.room -= n
        return n


class _Text(io.TextIOBase):
    """A text stream with no descriptor over a `_Disk` (a test's stand-in for stdout)."""

    def __init__(self, disk: _Disk) -> None:
        super().__init__()
        self.buffer = disk

    def write(self, s: str) -> int:
        raise AssertionError("batch writes bytes to the buffer")


@pytest.mark.parametrize("out_format", ["jsonl", "csv"])
@pytest.mark.parametrize(("room", "step"), [(0, 1), (1, 1), (5_000, 7), (30_000, 4096), (50_000, 65_536)])
def test_a_short_write_then_enospc_counts_only_whole_rows(out_format: str, room: int, step: int) -> None:
    disk = _Disk(room, step)
    items = read_items(io.BytesIO(_records(2_000, odd_ids=True)), "jsonl")
    with pytest.raises(BatchStopped) as stopped:
        run_batch(items, _Text(disk), out_format, chunk_size=100)  # type: ignore[arg-type]
    lines = _complete_rows(bytes(disk.data), out_format)
    assert lines == list(range(1, len(lines) + 1))
    assert (stopped.value.code, stopped.value.written, stopped.value.resume_line) == ("output_error", len(lines), len(lines) + 1)


def test_write_all_waits_for_a_full_nonblocking_pipe() -> None:
    import threading

    from mahjong_calc.core.stdout import write_all

    r, w = os.pipe()
    os.set_blocking(w, False)
    data = os.urandom(1 << 20)
    got = bytearray()

    def read() -> None:
        while chunk := os.read(r, 1000):
            got.extend(chunk)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        write_all(w, data)
    finally:
        os.close(w)
        reader.join()
        os.close(r)
    assert got == data


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_write_all_says_how_much_reached_the_output() -> None:
    from mahjong_calc.core.stdout import OutputError, write_all

    fd = os.open("/dev/full", os.O_WRONLY)
    try:
        with pytest.raises(OutputError) as failed:
            write_all(fd, b"row\n")
    finally:
        os.close(fd)
    assert (failed.value.cause.errno, failed.value.written) == (errno.ENOSPC, 0)
