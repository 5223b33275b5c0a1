"""Peak RSS of `mjcalc batch`'s whole process tree on inputs of large records.

    python bench/batch_memory.py                       # every case below
    python bench/batch_memory.py --scale 0.2 --jobs 1  # a fifth of the records, --jobs 1 only

Each record is within the 1 MiB limit, so each is scored (or is its own error row):

- JSON Lines, 1,000 records just under 1 MiB: a win padded with spaces (valid JSON);
- JSON Lines, 500 records of about 1 MB whose `hand` is that long (each an error row,
  each a different hand: the result cache must not keep them);
- CSV, 500 rows with a cell of about 1 MB; YAML, 100 items with a scalar of about 1 MB.

The parent and every worker are sampled every few milliseconds (VmRSS from /proc) and the
largest sum is printed, with the parent's own peak (VmHWM). Linux only. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

LIMIT = 1 << 20  # RECORD_LIMIT
GOOD = '"hand": "13m456m678m11p555p2m"'
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _padded_win(i: int) -> bytes:
    head = f'{{"id": {i}, {GOOD}'.encode()
    return head + b" " * (LIMIT - 100 - len(head)) + b"}\n"


def _long_hand(i: int) -> bytes:
    return b'{"id": %d, "hand": "%d' % (i, i) + b"1" * (1_000_000 - 40) + b'"}\n'


def _csv_row(i: int) -> bytes:
    return b"%d,13m456m678m11p555p2m," % i + b"x" * (1_000_000 - 40) + b"\n"


def _yaml_item(i: int) -> bytes:
    return b"- id: %d\n  hand: 13m456m678m11p555p2m\n  wild: '" % i + b"x" * (1_000_000 - 60) + b"'\n"


# name -> (extension, header, record maker, records at scale 1)
CASES: dict[str, tuple[str, bytes, Callable[[int], bytes], int]] = {
    "jsonl-padded-win": (".jsonl", b"", _padded_win, 1000),
    "jsonl-long-hand": (".jsonl", b"", _long_hand, 500),
    "csv-long-cell": (".csv", b"id,hand,wild\n", _csv_row, 500),
    "yaml-long-scalar": (".yaml", b"", _yaml_item, 100),
}


def _children() -> dict[int, list[int]]:
    """Every process's live children, from /proc/*/stat."""
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2 :].split()
        if fields[0] != b"Z":
            kids.setdefault(int(fields[1]), []).append(int(entry))
    return kids


def _tree_rss(root: int) -> int:
    """Bytes resident in `root` and all its descendants now."""
    kids = _children()
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo.extend(kids.get(pid, ()))
        try:
            with open(f"/proc/{pid}/statm", "rb") as f:
                total += int(f.read().split()[1]) * PAGE
        except OSError:
            pass
    return total


def _hwm(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmHWM:"))


def measure(cmd: list[str]) -> tuple[float, int, int, int]:
    """(wall seconds, peak tree RSS, parent's peak RSS, exit status) of one run; output to /dev/null."""
    start = time.perf_counter()
    with open(os.devnull, "wb") as devnull:
        proc = subprocess.Popen(cmd, stdout=devnull, stderr=subprocess.DEVNULL)
        peak = parent = 0
        while proc.poll() is None:
            try:
                peak = max(peak, _tree_rss(proc.pid))
                parent = max(parent, _hwm(proc.pid))
            except (OSError, StopIteration):
                pass
            time.sleep(0.005)
    return time.perf_counter() - start, peak, parent, proc.returncode


def mjcalc_cmd() -> list[str]:
    exe = Path(sys.executable).with_name("mjcalc")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mahjong_calc"]


def report(scale: float = 1.0, jobs: list[int] | None = None, cases: list[str] | None = None) -> Iterator[str]:
    """One JSON line per case and --jobs: what `measure` found."""
    jobs = jobs or [1, 2, 4 * (os.cpu_count() or 1)]
    with tempfile.TemporaryDirectory() as tmp:
        for name in cases or list(CASES):
            ext, header, record, count = CASES[name]
            n = max(1, round(count * scale))
            path = Path(tmp) / f"{name}{ext}"
            with path.open("wb") as f:
                f.write(header)
                for i in range(n):
                    f.write(record(i))
            size = path.stat().st_size
            for j in jobs:
                wall, peak, parent, code = measure([*mjcalc_cmd(), "batch", str(path), "--jobs", str(j)])
                yield json.dumps({"case": name, "records": n, "MiB_in": round(size / LIMIT), "jobs": j, "exit": code,
                                  "seconds": round(wall, 1), "peak_tree_MiB": round(peak / LIMIT),
                                  "parent_peak_MiB": round(parent / LIMIT)})
            path.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="records as a share of each case's count")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2, 4 * (os.cpu_count() or 1)])
    parser.add_argument("--cases", nargs="+", choices=sorted(CASES), default=list(CASES))
    args = parser.parse_args()
    if not sys.platform.startswith("linux"):
        raise SystemExit("reads /proc: Linux only")
    for line in report(args.scale, args.jobs, args.cases):
        print(line, flush=True)


if __name__ == "__main__":
    main()
