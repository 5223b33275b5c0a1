"""Batch scoring: many records in, one result per record out, in input order.

Two faces:

* `score_record` / `score_records` / `score_partition`: pure functions from records
  (mappings) to result dicts, with no I/O. They pickle, so they run as they are
  under Dask (`bag.map_partitions(score_partition)`), Spark
  (`rdd.mapPartitions(score_partition)`) or a process pool, and they take the same
  fast path as `mjcalc batch`: the Wuhu kernel (compiled where built) and the
  result cache.
* `run_batch` / `run_file`: the engine behind `mjcalc batch`.

A result is the object `mjcalc score --json` prints with `line` and `id` in front;
a record that cannot be scored gives `{"line", "id", "valid": false, "error": …}`
(bad input) or `"reason"` (a well-formed hand that is not a win).

The package, one concern a module: `readers` (bytes to items, bounded),
`evaluate` (an item to an outcome: checks, scoring, the cache),
`output` (JSON Lines and CSV rendering), `tally` (the summary's counts),
`engine` (chunks, the worker pool, ordered writing), `command` (`mjcalc batch FILE`),
`progress` (the progress bar).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..core.errors import MjcalcError
from ..core.records import normalize
from .command import max_jobs, run_file
from .engine import CHUNK, BatchStopped, ChunkResult, process_chunk, run_batch
from .evaluate import ERROR, NOT_A_WIN, WIN, Outcome, check_id, echo_id, error_outcome, internal_error, key_text, scored
from .items import RECORD_LIMIT
from .output import CSV_COLUMNS, csv_row, csv_text, jsonl_line
from .tally import Tally

__all__ = [
    "CHUNK", "CSV_COLUMNS", "ERROR", "NOT_A_WIN", "RECORD_LIMIT", "WIN", "BatchStopped", "ChunkResult", "Outcome",
    "Tally", "csv_row", "csv_text", "jsonl_line", "max_jobs", "process_chunk", "run_batch", "run_file",
    "score_partition", "score_record", "score_records",
]


def _failure(record: Any, err: MjcalcError) -> dict[str, Any]:
    return {"id": echo_id(record), **json.loads(b"{" + error_outcome(err).body)}


def score_record(record: Mapping[str, Any], line: int | None = None) -> dict[str, Any]:
    """Score one record: the `score --json` object plus `id` (and `line`, when given).

    Never raises: a bad record gives `{"valid": false, "error": …}`. The same result
    `mjcalc batch` prints for it, through the same scorer and result cache.
    """
    try:
        key, rid = normalize(record)
        check_id(rid)
        result = {"id": rid, **json.loads(b"{" + scored(key, key_text(key)).body)}
    except MjcalcError as err:
        result = _failure(record, err)
    except Exception as exc:
        result = _failure(record, internal_error(exc))
    return result if line is None else {"line": line, **result}


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
