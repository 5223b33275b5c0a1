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
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import IO, Any

from .api import score_hand
from .errors import InputError, MjcalcError, NotAWin
from .readers import CSV, JSON, OBJ, Item
from .records import Key, RecordId, normalize, normalize_csv, record_id, score_kwargs
from .render import error_dict

WIN, NOT_A_WIN, ERROR = "win", "not_a_win", "error"
CSV_COLUMNS = ("line", "id", "status", "variant", "value", "total", "next", "opposite", "previous", "patterns", "code", "message")
CHUNK = 500
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


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the engine keeps of one result: its JSON body text and summary facts."""

    status: str
    text: str  # json.dumps(body) without its opening brace
    variant: str | None = None
    value: int = 0
    total: int = 0
    payments: tuple[int, ...] = ()
    patterns: tuple[str, ...] = ()
    code: str = ""
    message: str = ""


def _dumps(body: dict[str, Any]) -> str:
    return json.dumps(body, ensure_ascii=False)[1:]


def _error_outcome(err: MjcalcError, variant: str | None = None) -> Outcome:
    status = NOT_A_WIN if isinstance(err, NotAWin) else ERROR
    return Outcome(status, _dumps(error_dict(err)), variant, code=err.code, message=err.message)


@lru_cache(maxsize=CACHE_SIZE)
def _outcome(key: Key) -> Outcome:
    """Score a normalized record; memoised, since batches repeat hands."""
    variant = key[0] or "wuhu315"
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


def _evaluate(item: Item) -> tuple[int, RecordId, Outcome]:
    line, kind, payload = item
    raw: Any = None
    try:
        if kind == JSON:
            try:
                raw = json.loads(payload)
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


# --- output ------------------------------------------------------------------------


def jsonl_line(line: int, rid: RecordId, outcome: Outcome) -> str:
    """One JSON Lines result: `{"line": …, "id": …, <the score --json object>}`."""
    return f'{{"line": {line}, "id": {json.dumps(rid, ensure_ascii=False)}, {outcome.text}\n'


def csv_row(line: int, rid: RecordId, outcome: Outcome) -> list[Any]:
    """One CSV result row, in `CSV_COLUMNS` order."""
    win = outcome.status == WIN
    pays = outcome.payments if win else ("", "", "")
    return [
        line, "" if rid is None else rid, outcome.status, outcome.variant or "",
        outcome.value if win else "", outcome.total if win else "", *pays,
        " ".join(outcome.patterns), outcome.code, outcome.message,
    ]


Row = tuple[Any, str, str | None, int, tuple[str, ...]]  # (output, status, variant, value, patterns)


def process_chunk(items: list[Item], out_format: str) -> list[Row]:
    """Score a chunk of items and render each one for `out_format` (jsonl, csv or summary)."""
    rows: list[Row] = []
    for item in items:
        line, rid, out = _evaluate(item)
        if out_format == "jsonl":
            rendered: Any = jsonl_line(line, rid, out)
        elif out_format == "csv":
            rendered = csv_row(line, rid, out)
        else:
            rendered = None
        rows.append((rendered, out.status, out.variant, out.value, out.patterns))
    return rows


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


# --- the engine ----------------------------------------------------------------------


def _chunks(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    chunk: list[Item] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _results(chunks: Iterator[list[Item]], out_format: str, jobs: int) -> Iterator[list[Row]]:
    """Processed chunks in input order; with jobs > 1 at most 2·jobs+2 chunks are in flight."""
    if jobs <= 1:
        for chunk in chunks:
            yield process_chunk(chunk, out_format)
        return
    import multiprocessing

    window = 2 * jobs + 2
    with multiprocessing.Pool(jobs) as pool:  # leaving the block terminates the workers
        pending: deque[Any] = deque()
        for chunk in chunks:
            pending.append(pool.apply_async(process_chunk, (chunk, out_format)))
            if len(pending) >= window:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


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
    writer = None
    if out_format == "csv" and out is not None:
        import csv

        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
    results = _results(_chunks(items, chunk_size), out_format, jobs)
    try:
        for rows in results:
            if fail_fast:
                for index, row in enumerate(rows):
                    if row[1] == ERROR:
                        rows = rows[: index + 1]
                        break
            for _, status, variant, value, patterns in rows:
                tally.add(status, variant, value, patterns)
            if out is not None and out_format == "jsonl":
                out.write("".join(row[0] for row in rows))
                out.flush()
            elif writer is not None and out is not None:
                writer.writerows(row[0] for row in rows)
                out.flush()
            if on_chunk is not None:
                on_chunk(len(rows))
            if fail_fast and tally.errors:
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
