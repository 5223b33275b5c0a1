"""Peak memory reading a workbook (.xlsx): `mjcalc game settle` and `mjcalc batch` of a long sheet.

    python bench/xlsx_memory.py                  # 10,000 and 100,000 rows
    python bench/xlsx_memory.py --rows 20000 200000

A club's log as one sheet: a game of ROWS hands (its header on the first row, no 子 ledger, so
it never ends), the winners going round the table, a note on every tenth row, and a date cell;
and the same rows as `mjcalc batch` records. Each is written with openpyxl (write-only) and read
by the installed `mjcalc` in a process of its own; the figures are that process's peak RSS and
wall time, beside the same rows as a CSV file. Workbooks are read in openpyxl's read-only mode,
a row at a time, so the peak stays flat in the number of rows. Nothing is asserted; it prints
what it measured.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HANDS = [("123456m13m99p555p2m", "", ""), ("13m456m678m11p2m", "", "555p@{payer}"), ("111m444m777m99m777z", "{payer}", "")]
PLAYERS = ["王", "李", "张", "赵"]


def log_rows(n: int) -> Iterator[list[Any]]:
    """A game of `n` hands as a CSV log's rows (the column names first)."""
    yield ["game", "date", "variant", "players", "dealer", "chips", "winner", "discarder", "self_draw", "hand", "melds", "备注"]
    for i in range(n):
        winner, payer = PLAYERS[i % 4], PLAYERS[(i + 1) % 4]
        hand, discarder, melds = HANDS[i % 3]
        head = [1, dt.datetime(2026, 12, 5, 19, 30), "wuhu315", ",".join(PLAYERS), "王", 0] if i == 0 else [1, None, None, None, None, None]
        yield [*head, winner, discarder.format(payer=payer) or None, None if discarder else True, hand, melds.format(payer=payer) or None,
               f"第 {i // 10} 轮" if i % 10 == 0 else None]


def record_rows(n: int) -> Iterator[list[Any]]:
    yield ["id", "hand", "self_draw", "melds"]
    for i in range(n):
        hand, discarder, melds = HANDS[i % 3]
        yield [f"r{i}", hand, not discarder, melds.split("@")[0] or None]


def write_xlsx(path: Path, rows: Iterator[list[Any]]) -> None:
    import openpyxl

    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("log")
    for row in rows:
        sheet.append(row)
    book.save(path)


def write_csv(path: Path, rows: Iterator[list[Any]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        for row in rows:
            writer.writerow(["" if c is None else c.isoformat() if isinstance(c, dt.datetime) else "true" if c is True else c for c in row])


def peak_rss(command: list[str]) -> tuple[int, int, float]:
    """(peak RSS in bytes, exit status, wall seconds) of `command` with its output to /dev/null, in a process of its own."""
    probe = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode; "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc, time.perf_counter() - t)"
    )
    out = subprocess.run([sys.executable, "-c", probe, *command], capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]) * 1024, int(out[1]), float(out[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000, 100_000])
    args = parser.parse_args()
    os.chdir(tempfile.gettempdir())  # the installed package, not a checkout's source tree
    mjcalc = [sys.executable, "-m", "mahjong_calc"]
    print(subprocess.run([*mjcalc, "--version"], capture_output=True, text=True, check=True).stdout.splitlines()[-1][:100])
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.rows:
            for kind, rows, command in (("game settle --json", log_rows, ["game", "settle"]), ("batch", record_rows, ["batch"])):
                book, text = Path(tmp) / f"{n}.xlsx", Path(tmp) / f"{n}.csv"
                start = time.perf_counter()
                write_xlsx(book, rows(n))
                made = time.perf_counter() - start
                write_csv(text, rows(n))
                extra = ["--json"] if command[0] == "game" else []
                for path in (book, text):
                    rss, rc, wall = peak_rss([*mjcalc, *command, str(path), *extra])
                    print(f"{kind:<19} {n:>8,} rows {path.suffix:<5} {path.stat().st_size / 2**20:6.1f} MiB file: "
                          f"peak RSS {rss / 2**20:6.1f} MiB, {wall:6.1f} s, exit {rc}" + (f"  (written in {made:.1f} s)" if path == book else ""))
    print(f"this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB peak (writing the files)")


if __name__ == "__main__":
    main()
