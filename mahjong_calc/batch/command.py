"""`mjcalc batch FILE`: open the input, pick the formats, run the engine, map the outcome to an exit status."""

from __future__ import annotations

import os
import sys
from typing import IO

from ..errors import InputError
from .engine import BatchStopped, run_batch
from .readers import Position, detect_format, read_items

JOBS_PER_CPU = 4


def max_jobs() -> int:
    """The most worker processes `--jobs` may ask for: 4 per CPU."""
    return JOBS_PER_CPU * (os.cpu_count() or 1)


def _silence_stdout() -> None:
    """Point fd 1 at /dev/null, so that the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass


def run_file(name: str, input_format: str | None, out_format: str | None, jobs: int = 1, fail_fast: bool = False) -> int:
    """`mjcalc batch NAME`: read, score, write to stdout; return the exit status.

    0: every record scored (a hand that is not a win is an answer); 1: some record is
    an error row. Raises InputError (exit 2) before anything is read when the request
    is wrong, and BatchStopped (exit 3) when the run cannot go on.
    """
    if jobs < 1 or jobs > max_jobs():
        raise InputError("bad_jobs", f"--jobs must be between 1 and {max_jobs()} (4 per CPU), not {jobs}")
    fmt = detect_format(name, input_format)
    if sys.stdout is None:
        raise BatchStopped("output_error", "standard output is closed", 0, 1)
    if out_format is None:
        out_format = "summary" if sys.stdout.isatty() else "jsonl"
    if name == "-":
        if sys.stdin is None:
            raise InputError("cannot_read_input", "standard input is closed (give a file, or a pipe to '-')")
        stream: IO[bytes] = sys.stdin.buffer
    else:
        try:
            stream = open(name, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise InputError("cannot_read_input", f"cannot read {name!r}: {exc.strerror}") from None
    try:
        pos = Position()
        items = read_items(stream, fmt, pos)
        out = None if out_format == "summary" else sys.stdout
        if sys.stderr is not None and sys.stderr.isatty():
            from .progress import progress_bar

            size = os.fstat(stream.fileno()).st_size if name != "-" else 0
            with progress_bar(size or None, pos) as advance:
                tally = run_batch(items, out, out_format, jobs, fail_fast, advance)
        else:
            tally = run_batch(items, out, out_format, jobs, fail_fast)
    except BrokenPipeError:  # the reader of our output went away (`| head`): stop quietly
        _silence_stdout()
        return 0
    except BatchStopped:
        _silence_stdout()
        raise
    finally:
        if name != "-":
            stream.close()
    if out_format == "summary":
        from ..render import print_summary

        print_summary(tally)
    return 1 if tally.errors else 0
