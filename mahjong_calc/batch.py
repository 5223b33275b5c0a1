"""Batch scoring: many records in, one result per record out, in input order.

Two faces:

* `score_record` / `score_records`: pure functions from records (mappings) to
  result dicts, with no I/O. They pickle, so they run as they are under Dask
  (`bag.map_partitions(score_partition)`), Spark (`rdd.mapPartitions(score_partition)`)
  or a process pool.
* `run_batch`: the engine behind `mjcalc batch`: it streams items from a reader,
  scores them in chunks (in this process, or in `jobs` worker processes with a
  bounded window of chunks in flight so memory stays flat), and writes each
  chunk's output as soon as it is ready.

A result is the object `mjcalc score --json` prints with `line` and `id` in front;
a record that cannot be scored gives `{"line", "id", "valid": false, "error": …}`
(bad input) or `"reason"` (a well-formed hand that is not a win).
"""

from __future__ import annotations

import json
import os
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import IO, Any, NamedTuple

from .accel import plan_for
from .api import score_hand
from .errors import InputError, MjcalcError, NotAWin
from .readers import BLOCK, CSV, JSON, LINES, OBJ, Item
from .records import Key, RecordId, normalize, normalize_csv, record_id, score_kwargs
from .render import error_dict
from .ruleset import Ruleset
from .scoring import wuhu

WIN, NOT_A_WIN, ERROR = "win", "not_a_win", "error"
CSV_COLUMNS = ("line", "id", "status", "variant", "value", "total", "next", "opposite", "previous", "patterns", "code", "message")
CHUNK = BLOCK  # records per chunk: the unit of work, of output and of the progress bar
CACHE_SIZE = 8192


# --- the pure per-record function ------------------------------------------------


def _head(line: int | None, rid: RecordId) -> dict[str, Any]:
    return {"id": rid} if line is None else {"line": line, "id": rid}


def _body(key: Key) -> dict[str, Any]:
    try:
        return score_hand(**score_kwargs(key)).to_dict()
    except MjcalcError as err:
        return error_dict(err)


def score_record(record: Mapping[str, Any], line: int | None = None) -> dict[str, Any]:
    """Score one record: the `score --json` object plus `id` (and `line`, when given).

    Never raises for bad input: a bad record gives `{"valid": false, "error": …}`.
    """
    try:
        key, rid = normalize(record)
    except MjcalcError as err:
        return {**_head(line, record_id(record)), **error_dict(err)}
    return {**_head(line, rid), **_body(key)}


def score_records(records: Iterable[Mapping[str, Any]], start: int | None = 1) -> Iterator[dict[str, Any]]:
    """Score records in order; `line` counts from `start` (None: no `line` key).

    Use `start=None` where records are split into partitions (Dask, Spark), since a
    partition does not know where it starts; echo an `id` to match results up.
    """
    for index, record in enumerate(records):
        yield score_record(record, None if start is None else start + index)


def score_partition(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`score_records` for one partition, as a list and without `line` (Dask's `map_partitions`)."""
    return list(score_records(records, start=None))


# --- the engine's compact per-record outcome -------------------------------------


class Outcome(NamedTuple):
    """What the engine keeps of one result: its JSON body text and summary facts.

    A NamedTuple, not a dataclass: one is made per record, and tuples are made fastest.
    """

    status: str
    body: bytes  # json.dumps(result) without its opening brace, UTF-8
    variant: str | None = None
    value: int = 0
    total: int = 0
    payments: tuple[int, ...] = ()
    patterns: tuple[str, ...] = ()
    code: str = ""
    message: str = ""


def _dumps(body: dict[str, Any]) -> bytes:
    return json.dumps(body, ensure_ascii=False)[1:].encode("utf-8")


def _error_outcome(err: MjcalcError, variant: str | None = None) -> Outcome:
    status = NOT_A_WIN if isinstance(err, NotAWin) else ERROR
    return Outcome(status, _dumps(error_dict(err)), variant, code=err.code, message=err.message)


def _compiled_outcome(rs: Ruleset, answer: tuple[Any, ...]) -> Outcome:
    """An Outcome from the compiled scorer's answer: a win, or (code, zhi) for a hand that is not one."""
    if len(answer) == 2:
        return _error_outcome(wuhu.not_a_win(answer[0], answer[1], rs), rs.name)
    body, value, total, payments, patterns = answer
    return Outcome(WIN, body, rs.name, value, total, payments, patterns)


@lru_cache(maxsize=CACHE_SIZE)
def _outcome(key: Key) -> Outcome:
    """Score a normalized record; memoised, since batches repeat hands.

    Wuhu records go to the compiled scorer first, where it is built (see `accel`).
    """
    variant = key[0] or "wuhu315"
    compiled = plan_for(variant)
    if compiled is not None:
        answer = compiled[1].score(key)
        if answer is not None:
            return _compiled_outcome(compiled[0], answer)
    try:
        result = score_hand(**score_kwargs(key))
    except MjcalcError as err:
        return _error_outcome(err, variant)
    except Exception as exc:  # a bug must not stop the batch; report it on the record
        message = f"internal error ({type(exc).__name__}: {exc}); please report this hand"
        return _error_outcome(InputError("internal_error", message), variant)
    body = result.to_dict()
    pays = body["payments"]
    return Outcome(
        WIN, _dumps(body), result.variant, result.value, body["total"],
        (pays["next"], pays["opposite"], pays["previous"]), tuple(result.patterns),
    )


_DECODER = json.JSONDecoder()


def _loads(payload: bytes) -> Any:
    """json.loads, with a shortcut for the usual line: UTF-8, one value, nothing around it.

    Anything else (leading blanks, a BOM, trailing data, bad JSON) goes to json.loads
    itself, so that errors read exactly as it words them.
    """
    try:
        text = payload.decode("utf-8")
        value, end = _DECODER.raw_decode(text)
    except ValueError:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return json.loads(payload)
    if end != len(text) and text[end:].strip(" \t\r\n"):
        return json.loads(payload)
    return value


def _evaluate(item: Item) -> tuple[int, RecordId, Outcome]:
    line, kind, payload = item
    raw: Any = None
    try:
        if kind == JSON:
            try:
                raw = _loads(payload)
            except UnicodeDecodeError:
                raise InputError("bad_encoding", "the line is not valid UTF-8") from None
            except json.JSONDecodeError as exc:
                raise InputError("bad_json", f"not valid JSON: {exc.msg} (column {exc.colno})") from None
            key, rid = normalize(raw)
        elif kind == CSV:
            raw = payload
            key, rid = normalize_csv(payload)
        elif kind == OBJ:
            raw = payload
            key, rid = normalize(payload)
        else:
            raise payload
    except MjcalcError as err:
        rid = record_id(raw)
        variant = raw.get("variant") if isinstance(raw, Mapping) else None
        return line, rid, _error_outcome(err, variant if isinstance(variant, str) and variant else None)
    return line, rid, _outcome(key)


def _outcomes(items: list[Item]) -> Iterator[tuple[int, RecordId, Outcome]]:
    """Each record's (line, id, outcome), a block of JSON Lines giving one per non-blank line."""
    for item in items:
        if item[1] != LINES:
            yield _evaluate(item)
            continue
        first = item[0]
        for offset, raw in enumerate(item[2].split(b"\n")):
            if raw and not raw.isspace():
                yield _evaluate((first + offset, JSON, raw))


# --- output ------------------------------------------------------------------------


def jsonl_line(line: int, rid: RecordId, outcome: Outcome) -> bytes:
    """One JSON Lines result: `{"line": …, "id": …, <the score --json object>}`, UTF-8."""
    rid_text = str(rid) if type(rid) is int else json.dumps(rid, ensure_ascii=False)
    return b'{"line": %d, "id": %s, %s\n' % (line, rid_text.encode("utf-8"), outcome.body)


def csv_row(line: int, rid: RecordId, outcome: Outcome) -> list[Any]:
    """One CSV result row, in `CSV_COLUMNS` order."""
    win = outcome.status == WIN
    pays = outcome.payments if win else ("", "", "")
    return [
        line, "" if rid is None else rid, outcome.status, outcome.variant or "",
        outcome.value if win else "", outcome.total if win else "", *pays,
        " ".join(outcome.patterns), outcome.code, outcome.message,
    ]


def csv_text(rows: Iterable[Sequence[Any]]) -> bytes:
    """CSV rows as UTF-8 text, one per line."""
    import csv
    import io

    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    return text.getvalue().encode("utf-8")


# --- the summary -------------------------------------------------------------------


@dataclass
class Tally:
    """Counts for the terminal summary and the exit status."""

    records: int = 0
    wins: int = 0
    not_wins: int = 0
    errors: int = 0
    value_by_variant: Counter[str] = field(default_factory=Counter)
    wins_by_variant: Counter[str] = field(default_factory=Counter)
    patterns: Counter[str] = field(default_factory=Counter)

    def add(self, status: str, variant: str | None, value: int, patterns: tuple[str, ...]) -> None:
        self.records += 1
        if status == WIN:
            self.wins += 1
            self.value_by_variant[variant or "?"] += value
            self.wins_by_variant[variant or "?"] += 1
            self.patterns.update(patterns)
        elif status == NOT_A_WIN:
            self.not_wins += 1
        else:
            self.errors += 1

    def merge(self, other: Tally) -> None:
        """Add a chunk's counts to these."""
        self.records += other.records
        self.wins += other.wins
        self.not_wins += other.not_wins
        self.errors += other.errors
        self.value_by_variant.update(other.value_by_variant)
        self.wins_by_variant.update(other.wins_by_variant)
        self.patterns.update(other.patterns)


# --- the engine ----------------------------------------------------------------------


class ChunkResult(NamedTuple):
    """One chunk scored and rendered (in a worker process, with --jobs)."""

    data: bytes  # the chunk's output (JSON Lines or CSV rows), UTF-8; empty for the summary
    tally: Tally
    stopped: bool  # fail-fast: the chunk ends at its first error record


def process_chunk(items: list[Item], out_format: str, fail_fast: bool = False) -> ChunkResult:
    """Score a chunk of items and render it for `out_format` (jsonl, csv or summary).

    The worker does the rendering and the counting, so that the parent only writes
    bytes and adds up tallies: that is what lets --jobs scale.
    """
    tally = Tally()
    rendered: list[Any] = []
    stopped = False
    for line, rid, out in _outcomes(items):
        tally.add(out.status, out.variant, out.value, out.patterns)
        if out_format == "jsonl":
            rendered.append(jsonl_line(line, rid, out))
        elif out_format == "csv":
            rendered.append(csv_row(line, rid, out))
        if fail_fast and out.status == ERROR:
            stopped = True
            break
    data = b"".join(rendered) if out_format == "jsonl" else csv_text(rendered) if rendered else b""
    return ChunkResult(data, tally, stopped)


def _chunks(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    """Items in chunks of `size` records; a block of JSON Lines is a chunk by itself."""
    chunk: list[Item] = []
    for item in items:
        if item[1] == LINES:
            if chunk:
                yield chunk
                chunk = []
            yield [item]
            continue
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


# With --jobs and a real output file descriptor, the workers write their chunks'
# output to it themselves, one after another in input order (a turn counter under
# a lock), so that the bytes never pass through the parent: receiving them there,
# through multiprocessing.Pool's threads, costs as much CPU as a worker spends
# scoring. These workers are plain forked processes (they inherit the descriptor)
# fed round-robin over pipes; a worker whose turn has not come keeps its output and
# scores its next chunk meanwhile. The parent gets back each chunk's tally once the
# chunk is written. Elsewhere (no descriptor, or no fork), a Pool sends the output
# back to the parent, which writes it.
BROKEN, STOPPED = 1, 2
IN_FLIGHT = 8  # chunks per worker: enough that a worker ahead of its turn need not idle
Shared = tuple[Any, Any, Any, int]  # (turn, flags, condition, fd)


def _write_in_turn(shared: Shared, index: int, result: ChunkResult) -> None:
    """Write chunk `index`'s output (its turn has come), then pass the turn on."""
    turn, flags, turn_changed, fd = shared
    with turn_changed:
        try:
            if not flags.value and result.data:
                view = memoryview(result.data)
                while view:
                    view = view[os.write(fd, view):]
            if result.stopped:
                flags.value |= STOPPED
        except BrokenPipeError:
            flags.value |= BROKEN
        finally:
            turn.value = index + 1
            turn_changed.notify_all()


def _ignore_ctrl_c() -> None:
    """In a worker: Ctrl-C is the parent's to handle (it stops the workers), not ours."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _writer_loop(tasks: Any, results: Any, shared: Shared, out_format: str, fail_fast: bool) -> None:
    """A forked worker: (index, chunk) messages in, tallies out, until None or the parent is gone."""
    _ignore_ctrl_c()
    turn, _, turn_changed, _ = shared
    outbox: deque[tuple[int, ChunkResult]] = deque()  # scored, waiting for their turn
    more = True
    while more or outbox:
        if outbox and turn.value == outbox[0][0]:
            index, result = outbox.popleft()
            _write_in_turn(shared, index, result)
            results.send(result._replace(data=b""))
        elif more and (not outbox or tasks.poll()):
            try:
                message = tasks.recv()
            except EOFError:  # the parent is gone
                return
            if message is None:
                more = False
                continue
            index, items = message
            try:
                outbox.append((index, process_chunk(items, out_format, fail_fast)))
            except Exception as exc:  # noqa: BLE001 - handed to the parent, which raises it
                results.send(exc)
                return
        else:  # nothing to score: wait for our turn, looking for new work now and then
            with turn_changed:
                turn_changed.wait_for(lambda: turn.value == outbox[0][0], timeout=0.005)


def _output_fd(out: IO[str] | None, out_format: str) -> int | None:
    """The descriptor workers may write to directly, if there is one."""
    import io
    import multiprocessing

    if out is None or out_format == "summary" or "fork" not in multiprocessing.get_all_start_methods():
        return None
    try:
        out.flush()
        return out.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return None


def _writing_workers(chunks: Iterator[list[Item]], out_format: str, jobs: int, fail_fast: bool, fd: int) -> Iterator[ChunkResult]:
    """Chunks processed, and written to `fd`, by `jobs` forked workers; their results in order."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    flags = ctx.Value("i", 0, lock=False)
    shared: Shared = (ctx.Value("q", 0, lock=False), flags, ctx.Condition(), fd)
    workers = []
    for _ in range(jobs):
        task_out, task_in = ctx.Pipe(duplex=False)
        result_out, result_in = ctx.Pipe(duplex=False)
        process = ctx.Process(target=_writer_loop, args=(task_out, result_in, shared, out_format, fail_fast), daemon=True)
        process.start()
        workers.append((process, task_in, result_out))

    def done(worker: tuple[Any, Any, Any]) -> ChunkResult:
        result = worker[2].recv()
        if isinstance(result, Exception):
            raise result
        if flags.value & BROKEN:
            raise BrokenPipeError
        return result  # type: ignore[no-any-return]

    # at most IN_FLIGHT chunks per worker in flight (scored and waiting for their turn, or queued)
    pending: deque[tuple[Any, Any, Any]] = deque()
    try:
        for index, chunk in enumerate(chunks):
            if len(pending) >= IN_FLIGHT * jobs:
                yield done(pending.popleft())
            worker = workers[index % jobs]
            worker[1].send((index, chunk))
            pending.append(worker)
        while pending:
            yield done(pending.popleft())
        for _, task_in, _ in workers:
            task_in.send(None)
        for process, _, _ in workers:
            process.join()
    finally:
        for process, _, _ in workers:
            if process.is_alive():
                process.terminate()


def _pool(chunks: Iterator[list[Item]], out_format: str, jobs: int, fail_fast: bool) -> Iterator[ChunkResult]:
    """Chunks processed by a pool of `jobs` processes that send their output back; in order."""
    import multiprocessing

    window = 2 * jobs + 2
    pool = multiprocessing.Pool(jobs, initializer=_ignore_ctrl_c)
    pending: deque[Any] = deque()
    try:
        for chunk in chunks:
            pending.append(pool.apply_async(process_chunk, (chunk, out_format, fail_fast)))
            if len(pending) >= window:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()
    finally:
        # Stopped early (--fail-fast, a closed pipe, an error): let the workers finish the
        # few chunks they hold before closing. Pool.terminate() deadlocks when a worker is
        # blocked sending a large result that nobody will read.
        for result in pending:
            result.wait(timeout=60)
        if all(result.ready() for result in pending):
            pool.close()
            pool.join()
        else:  # a worker is gone or stuck: nothing more to save
            pool.terminate()


def _results(
    chunks: Iterator[list[Item]], out_format: str, jobs: int, fail_fast: bool, fd: int | None = None
) -> Iterator[ChunkResult]:
    """Processed chunks in input order. With `fd`, workers have written their output there (data is empty)."""
    if jobs <= 1:
        return (process_chunk(chunk, out_format, fail_fast) for chunk in chunks)
    if fd is not None:
        return _writing_workers(chunks, out_format, jobs, fail_fast, fd)
    return _pool(chunks, out_format, jobs, fail_fast)


def _byte_writer(out: IO[str]) -> Callable[[bytes], None]:
    """Write UTF-8 to a text stream, straight to its binary buffer where it has one (stdout)."""
    buffer = getattr(out, "buffer", None)
    if buffer is None:

        def write_text(data: bytes) -> None:
            out.write(data.decode("utf-8"))
            out.flush()

        return write_text
    out.flush()

    def write_bytes(data: bytes) -> None:
        buffer.write(data)
        buffer.flush()

    return write_bytes


def run_batch(
    items: Iterable[Item],
    out: IO[str] | None,
    out_format: str = "jsonl",
    jobs: int = 1,
    fail_fast: bool = False,
    on_chunk: Callable[[int], None] | None = None,
    chunk_size: int = CHUNK,
) -> Tally:
    """Score `items`, writing results to `out` as each chunk is done; return the tally.

    `out_format` is jsonl, csv or summary (write nothing). With `fail_fast` the run
    stops after writing the first error record. `on_chunk(n)` is told of every n
    records done (the progress bar).
    """
    tally = Tally()
    write = _byte_writer(out) if out is not None and out_format != "summary" else None
    if write is not None and out_format == "csv":
        write(csv_text([CSV_COLUMNS]))
    fd = _output_fd(out, out_format) if jobs > 1 else None
    results = _results(_chunks(items, chunk_size), out_format, jobs, fail_fast, fd)
    try:
        for chunk in results:
            tally.merge(chunk.tally)
            if write is not None and chunk.data:
                write(chunk.data)
            if on_chunk is not None:
                on_chunk(chunk.tally.records)
            if chunk.stopped:
                break
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return tally


# --- the command ---------------------------------------------------------------------


def run_file(name: str, input_format: str | None, out_format: str | None, jobs: int = 1, fail_fast: bool = False) -> int:
    """`mjcalc batch NAME`: read, score, write to stdout; return the exit status (1 if any error record)."""
    import os
    import sys

    from .readers import Position, detect_format, read_items

    fmt = detect_format(name, input_format)
    if out_format is None:
        out_format = "summary" if sys.stdout.isatty() else "jsonl"
    if name == "-":
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
        if sys.stderr.isatty():
            from .progress import progress_bar

            size = os.fstat(stream.fileno()).st_size if name != "-" else 0
            with progress_bar(size or None, pos) as advance:
                tally = run_batch(items, out, out_format, jobs, fail_fast, advance)
        else:
            tally = run_batch(items, out, out_format, jobs, fail_fast)
    except BrokenPipeError:  # the reader of our output went away (`| head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    if out_format == "summary":
        from .render import print_summary

        print_summary(tally)
    return 1 if tally.errors else 0
