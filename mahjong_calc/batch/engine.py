"""The batch engine: chunks of items in, scored and rendered, written in input order.

With `jobs` > 1 the chunks are scored and rendered by a `ProcessPoolExecutor`
(fork where the platform has it); each chunk's rendered bytes come back through an
unnamed temporary file (its slot) and its tally as a small message, and only this
process writes. A bounded window of chunks is in flight, bounded in number and
in bytes (a chunk itself ends at 500 records or 2 MiB), so memory stays flat
however large the records. The pool reports a worker that dies (BrokenProcessPool):
the run then stops with `BatchStopped` (exit 3), saying how many records were
written and from which line to resume. Workers end when this process ends
(PR_SET_PDEATHSIG on Linux, a watcher thread elsewhere).
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import IO, TYPE_CHECKING, Any, NamedTuple, TypeVar

from ..core.collector import YOUNG, FreezeAsItGoes
from ..core.errors import MjcalcError
from ..core.stdout import OutputError, write_all, write_file
from .evaluate import ERROR, Defaults, configure, current_defaults, error_outcome, internal_error, outcomes
from .items import LINES, RawRecord, item_size
from .output import CSV_COLUMNS, csv_row, csv_text, extra_header, jsonl_line, rows_written
from .readers import BLOCK, BLOCK_BYTES
from .tally import Tally

if TYPE_CHECKING:  # imported where a pool starts: --jobs 1 never needs multiprocessing
    from concurrent.futures import Future, ProcessPoolExecutor

CHUNK = BLOCK  # records per chunk: the unit of work, of output and of the progress bar
CHUNK_BYTES = BLOCK_BYTES  # ... or fewer: a chunk ends at the record that brings it to 2 MiB
WINDOW_PER_JOB = 8  # chunks in flight per worker (besides two spare): enough that a worker need not idle while the next chunk in order is still being scored
IN_FLIGHT_BYTES = 1 << 25  # ... and at most 32 MiB of records in flight, whatever --jobs, so that large records keep memory flat
FREEZE_EVERY = 4  # chunks between two freezes of what the run keeps (its memos), so the collector's full passes walk only what is new

T = TypeVar("T")
H = TypeVar("H")
R = TypeVar("R")


class BatchStopped(MjcalcError):
    """The run could not go on (a worker died, the output cannot be written): exit 3.

    The message says how many records were written and where to resume.
    """

    exit_code = 3

    def __init__(self, code: str, what: str, written: int, resume_line: int | None) -> None:
        where = f"resume from line {resume_line}" if resume_line is not None else "nothing is left to score"
        super().__init__(code, f"{what}; {written:,} records were written in full; {where}")
        self.written = written
        self.resume_line = resume_line


class _Halted(BaseException):
    """The run was asked to stop (`run_batch`'s `stop`) while it read: the line of the first record not written.
    A BaseException, so that no `except Exception` on the way (a record's own) takes it for a record's error."""

    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


def halted(signum: int, written: int, resume_line: int | None) -> BatchStopped:
    """The run stopped by the signal `signum` (SIGINT, SIGTERM, SIGHUP): the rows written are whole;
    exit status 128 + the signal's number, as a shell reports a process the signal ended."""
    what = f"stopped by {signal.Signals(signum).name}"
    err = BatchStopped("interrupted", what, written, resume_line)
    err.exit_code = 128 + signum
    return err


class ChunkResult(NamedTuple):
    """One chunk scored and rendered (in a worker process, with --jobs)."""

    data: bytes  # the chunk's output (JSON Lines or CSV rows), UTF-8; empty for the summary
    tally: Tally
    stopped: bool  # fail-fast: the chunk ends at its first error record
    first_line: int  # where the chunk starts (to resume from, if it is not written)


def process_chunk(items: list[RawRecord], out_format: str, fail_fast: bool = False) -> ChunkResult:
    """Score a chunk of items and render it for `out_format` (jsonl, csv or summary).

    The worker does the rendering and the counting, so that the parent only writes
    bytes and adds up tallies.
    """
    tally = Tally()
    rendered: list[Any] = []
    stopped = False
    defaults = current_defaults()
    extra: tuple[str, ...] | bool | None = defaults.extra_columns if defaults.extra_fields == "keep" else False
    for line, rid, out in outcomes(items):
        try:
            if out_format == "jsonl":
                rendered.append(jsonl_line(line, rid, out))
            elif out_format == "csv":
                rendered.append(csv_row(line, rid, out, extra))
        except Exception as exc:
            out = error_outcome(internal_error(exc), None)
            rendered.append(jsonl_line(line, None, out) if out_format == "jsonl" else csv_row(line, None, out, extra))
        tally.add(out, line, rid)
        if fail_fast and out.status == ERROR:
            stopped = True
            break
    data = b"".join(rendered) if out_format == "jsonl" else csv_text(rendered) if rendered else b""
    return ChunkResult(data, tally, stopped, items[0][0] if items else 0)


def chunks(items: Iterable[RawRecord], size: int = CHUNK, max_bytes: int = CHUNK_BYTES) -> Iterator[list[RawRecord]]:
    """Items in chunks of `size` records; a block of JSON Lines is a chunk by itself."""
    for _, chunk in sized_chunks(items, size, max_bytes):
        yield chunk


def sized_chunks(items: Iterable[RawRecord], size: int = CHUNK, max_bytes: int = CHUNK_BYTES,
                 stop: Callable[[], int | None] | None = None) -> Iterator[tuple[int, list[RawRecord]]]:
    """(bytes, chunk) of `size` records or fewer: a chunk also ends at the record that brings it
    to `max_bytes`. A block of JSON Lines is a chunk by itself (the reader bounds it alike).
    Once `stop()` says so, reading ends (`_Halted`, with the line of the first record not in a chunk yet)."""
    chunk: list[RawRecord] = []
    held = 0
    for item in items:
        if stop is not None and stop() is not None:
            raise _Halted(chunk[0][0] if chunk else item[0])
        if item[1] == LINES:
            if chunk:
                yield held, chunk
                chunk, held = [], 0
            yield item_size(item), [item]
            continue
        chunk.append(item)
        held += item_size(item)
        if len(chunk) >= size or held >= max_bytes:
            yield held, chunk
            chunk, held = [], 0
    if chunk:
        yield held, chunk


def in_order(
    sized: Iterable[tuple[int, T]],
    start: Callable[[int, T], H],
    finish: Callable[[H], R],
    cancel: Callable[[H], object],
    most_chunks: int,
    most_bytes: int,
) -> Iterator[R]:
    """Start each chunk (`start(index, chunk)`) and finish them in input order, with at most
    `most_chunks` chunks and `most_bytes` bytes started and not yet finished (a chunk larger
    than `most_bytes` is in flight alone). `cancel` is called on those left when the caller stops."""
    pending: deque[tuple[int, H]] = deque()
    held = 0
    try:
        for index, (size, chunk) in enumerate(sized):
            while pending and (len(pending) >= most_chunks or held + size > most_bytes):
                done, handle = pending.popleft()
                held -= done
                yield finish(handle)
            pending.append((size, start(index, chunk)))
            held += size
        while pending:
            done, handle = pending.popleft()
            held -= done
            yield finish(handle)
    finally:
        for _, handle in pending:
            cancel(handle)


# --- workers ---------------------------------------------------------------------------------


def _end_with_parent(parent: int) -> None:
    """Make this worker end when `parent` does: the kernel's parent-death signal on Linux,
    else (or if that fails) a thread that watches for the parent to change."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0:  # PR_SET_PDEATHSIG
                if os.getppid() != parent:  # the parent died before prctl took effect
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        import time

        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="mjcalc-parent-watch", daemon=True).start()


STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def worker_init(parent: int, defaults: Defaults | None = None) -> None:
    """In each worker: Ctrl-C, SIGTERM and SIGHUP are the parent's to handle (it stops the run
    between chunks); end when the parent ends; `--rules`/`--set`."""
    global _worker_pace
    for number in STOP_SIGNALS:
        signal.signal(number, signal.SIG_IGN)
    _end_with_parent(parent)
    configure(defaults or Defaults())
    gc.set_threshold(YOUNG, *gc.get_threshold()[1:])  # as the parent's run (core/collector)
    _worker_pace = FreezeAsItGoes(FREEZE_EVERY)


_worker_pace: FreezeAsItGoes | None = None  # a worker's own: it freezes as it goes (it ends with the run)


def _fork_context() -> Any:
    import multiprocessing

    return multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None


def _executor(jobs: int, context: Any) -> ProcessPoolExecutor:
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(jobs, mp_context=context, initializer=worker_init, initargs=(os.getpid(), current_defaults()))


def process_chunk_into(fd: int, items: list[RawRecord], out_format: str, fail_fast: bool) -> tuple[int, ChunkResult]:
    """In a worker: process a chunk, put its output in the file `fd` (from offset 0), and
    return its length with the result (without the output). The answer stays a few hundred
    bytes, which a pipe carries in one write: a worker killed while answering cannot leave
    half an answer in the pipe for the pool to wait on forever."""
    result = process_chunk(items, out_format, fail_fast)
    if _worker_pace is not None:
        _worker_pace.step()
    view, offset = memoryview(result.data), 0
    while offset < len(view):
        offset += os.pwrite(fd, view[offset:], offset)
    return len(view), result._replace(data=b"")


class _Failed(NamedTuple):
    """A chunk that could not be processed: the pool broke under it."""

    first_line: int
    error: BaseException


def _in_pool(
    sized: Iterator[tuple[int, list[RawRecord]]], out_format: str, jobs: int, fail_fast: bool,
) -> Iterator[ChunkResult | _Failed]:
    """Chunks processed by `jobs` worker processes; results in input order.

    With fork, each chunk in flight has a slot: an unnamed temporary file, inherited by
    the workers, that carries the chunk's output back (see `process_chunk_into`).
    """
    import tempfile
    from concurrent.futures import Future

    window = WINDOW_PER_JOB * jobs + 2
    context = _fork_context()
    slots = [tempfile.TemporaryFile() for _ in range(window)] if context is not None else []  # noqa: SIM115
    pool = _executor(jobs, context)
    Handle = tuple[int, int, "Future[Any]"]

    def start(index: int, chunk: list[RawRecord]) -> Handle:
        slot = index % window  # free: at most `window` chunks are in flight
        future: Future[Any]
        try:
            if slots:
                future = pool.submit(process_chunk_into, slots[slot].fileno(), chunk, out_format, fail_fast)
            else:
                future = pool.submit(process_chunk, chunk, out_format, fail_fast)
        except Exception as exc:
            future = Future()
            future.set_exception(exc)
        return (chunk[0][0], slot, future)

    def finish(handle: Handle) -> ChunkResult | _Failed:
        return _result(slots, *handle)

    try:
        yield from in_order(sized, start, finish, lambda handle: handle[2].cancel(), window, IN_FLIGHT_BYTES)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        for file in slots:
            file.close()


def _failure(error: BaseException) -> str:
    from concurrent.futures.process import BrokenProcessPool

    if isinstance(error, BrokenProcessPool):
        return "a worker process died"
    return f"a chunk could not be scored ({type(error).__name__}: {str(error)[:200]})"


def _result(slots: list[Any], first_line: int, slot: int, future: Future[Any]) -> ChunkResult | _Failed:
    try:
        answer = future.result()
        if not slots:
            return answer  # type: ignore[no-any-return]
        size, result = answer
        fd = slots[slot].fileno()
        data = os.pread(fd, size, 0)  # one read, no copies, for all but a short read
        if len(data) < size:
            parts = [data]
            got = len(data)
            while got < size:
                part = os.pread(fd, size - got, got)
                if not part:
                    raise OSError(f"the output of a chunk is {got} bytes, not {size}")
                parts.append(part)
                got += len(part)
            data = b"".join(parts)
        return result._replace(data=data)  # type: ignore[no-any-return]
    except Exception as exc:
        return _Failed(first_line, exc)


# --- writing ---------------------------------------------------------------------------------


def byte_writer(out: IO[str]) -> Callable[[bytes], None]:
    """Write UTF-8 to a text stream: every byte, or an `OutputError` that says how many went.

    Straight to its descriptor where it has one (stdout), else to its binary buffer, else as text.
    """
    try:
        fd = out.fileno()
    except (OSError, ValueError):  # no descriptor (a test's buffer)
        fd = -1
    buffer: IO[bytes] | None = getattr(out, "buffer", None)
    if fd >= 0:
        out.flush()
        return partial(write_all, fd)
    if buffer is not None:
        out.flush()
        return partial(write_file, buffer)

    def write_text(data: bytes) -> None:
        try:
            out.write(data.decode("utf-8"))
            out.flush()
        except OSError as exc:
            raise OutputError(exc) from None

    return write_text


def run_batch(
    items: Iterable[RawRecord],
    out: IO[str] | None,
    out_format: str = "jsonl",
    jobs: int = 1,
    fail_fast: bool = False,
    on_chunk: Callable[[int], None] | None = None,
    chunk_size: int = CHUNK,
    pace: FreezeAsItGoes | None = None,
    stop: Callable[[], int | None] | None = None,
) -> Tally:
    """Score `items`, writing results to `out` as each chunk is done; return the tally.

    `out_format` is jsonl, csv or summary (write nothing). With `fail_fast` the run
    stops after writing the first error record. `on_chunk(n)` is told of every n
    records done (the progress bar); `pace` is stepped once a chunk (where the caller keeps the
    run frozen: core/collector). Raises `BatchStopped` if a worker dies or the
    output cannot be written (BrokenPipeError, a reader gone away, is left to the caller).
    `stop()` is asked before each chunk is written and each record read: once it names a signal,
    the run ends there, its rows whole, with `BatchStopped` (`halted`) naming the line to resume from.
    """
    tally = Tally()
    write = byte_writer(out) if out is not None and out_format != "summary" else None
    unwritten: deque[int] = deque()  # the first line of each chunk read and not yet written, in order

    def read() -> Iterator[tuple[int, list[RawRecord]]]:
        for size, chunk in sized_chunks(items, chunk_size, stop=stop):
            unwritten.append(chunk[0][0])
            yield size, chunk

    sized = read()
    results: Iterator[ChunkResult | _Failed]
    if jobs <= 1:
        results = (process_chunk(chunk, out_format, fail_fast) for _, chunk in sized)
    else:
        results = _in_pool(sized, out_format, jobs, fail_fast)
    try:
        if write is not None and out_format == "csv":
            defaults = current_defaults()
            tail = extra_header(defaults.extra_columns) if defaults.extra_fields == "keep" else []
            _write(write, csv_text([[*CSV_COLUMNS, *tail]]), tally, 1)
        for chunk in results:
            signum = stop() if stop is not None else None
            if signum is not None:
                raise halted(signum, tally.records, unwritten[0])
            if isinstance(chunk, _Failed):
                raise BatchStopped("worker_died", _failure(chunk.error), tally.records, chunk.first_line)
            if write is not None and chunk.data:
                _write(write, chunk.data, tally, chunk.first_line, out_format)
            unwritten.popleft()
            tally.merge(chunk.tally)
            if on_chunk is not None:
                on_chunk(chunk.tally.records)
            if pace is not None:
                pace.step()
            if chunk.stopped:
                break
    except _Halted as stopped:
        signum = stop() if stop is not None else None
        raise halted(signum or signal.SIGTERM, tally.records, unwritten[0] if unwritten else stopped.line) from None
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    signum = stop() if stop is not None else None
    if signum is not None:  # asked to stop while the last rows were written: they are all there
        raise halted(signum, tally.records, None)
    return tally


def _write(write: Callable[[bytes], None], data: bytes, tally: Tally, first_line: int, out_format: str | None = None) -> None:
    """Write one chunk's rows (`out_format` None: the CSV header); if the output fails, stop, counting
    the rows that reached it whole and resuming at the first that did not."""
    try:
        write(data)
    except OutputError as err:
        if isinstance(err.cause, BrokenPipeError):
            raise err.cause from None
        whole, resume = (0, first_line) if out_format is None else rows_written(data, err.written, out_format, first_line)
        what = f"cannot write the output: {err.cause.strerror or err.cause}"
        raise BatchStopped("output_error", what, tally.records + whole, resume) from None
