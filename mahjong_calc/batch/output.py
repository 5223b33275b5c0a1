"""Rendering one record's outcome: a JSON Lines line or a CSV row, always valid UTF-8.

JSON Lines: `{"line": …, "id": …, <the score --json object>}`. A string that
cannot be written as UTF-8 (a lone surrogate such as JSON's `"\\udcff"`) is
written as a JSON escape instead, so the line stays valid UTF-8 and the value
round-trips. CSV: cells that a spreadsheet would run as a formula (starting with
`=`, `+`, `-`, `@`, a tab or a carriage return) get a leading `'` (OWASP's advice);
a control character a terminal acts on (ESC, BEL, the C1 controls: an escape sequence in
an id could write a terminal's clipboard) is written as its `\\uXXXX` escape (also in a
cell holding JSON, whose value it keeps); a string that cannot be written as UTF-8 is
written with backslash escapes.
"""

from __future__ import annotations

import bisect
import csv
import io
import json
import re
from collections.abc import Iterable, Sequence
from typing import Any, Final

from ..core.batch_record import RecordId
from ..present.errors import inert
from .evaluate import ERROR, WIN, Outcome

CSV_COLUMNS = ("line", "id", "status", "variant", "value", "total", "next", "opposite", "previous", "patterns", "code", "message")
FORMULA_START: Final = ("=", "+", "-", "@", "\t", "\r")


def _id_text(rid: RecordId) -> bytes:
    if type(rid) is int:
        return b"%d" % rid
    text = inert(json.dumps(rid, ensure_ascii=False))  # JSON leaves DEL and the C1 controls raw
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: keep it as a JSON escape
        return json.dumps(rid).encode("ascii")


def jsonl_line(line: int, rid: RecordId, outcome: Outcome) -> bytes:
    """One JSON Lines result: `{"line": …, "id": …, <the score --json object>}`, UTF-8
    (and `"extra": {…}` last, with --extra-fields keep)."""
    if outcome.extra is not None:
        return b'{"line": %d, "id": %s, %s, "extra": %s}\n' % (line, _id_text(rid), outcome.body[:-1], _json_bytes(outcome.extra))
    return b'{"line": %d, "id": %s, %s\n' % (line, _id_text(rid), outcome.body)


def _json_bytes(value: Any) -> bytes:
    text = json.dumps(value, ensure_ascii=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: keep it as a JSON escape
        return json.dumps(value).encode("ascii")


def extra_header(columns: tuple[str, ...] | None) -> list[str]:
    """The trailing CSV columns of --extra-fields keep: the input CSV's own, or one `extra` (JSON) column."""
    return ["extra"] if columns is None else [neutralise(c) for c in columns]


def extra_cells(outcome: Outcome, columns: tuple[str, ...] | None) -> list[str]:
    """A row's trailing CSV cells under --extra-fields keep."""
    extra = outcome.extra or {}
    if columns is None:
        return [inert(json.dumps(extra, ensure_ascii=False)) if extra else ""]
    return [neutralise(str(extra.get(c, ""))) for c in columns]


def head_json(line: int | None, rid: RecordId) -> bytes:
    """The opening of a result object: `{"line": …, "id": …, ` (no `line` when None)."""
    if line is None:
        return b'{"id": %s, ' % _id_text(rid)
    return b'{"line": %d, "id": %s, ' % (line, _id_text(rid))


def neutralise(cell: str) -> str:
    """A cell a spreadsheet would take for a formula, made inert with a leading `'`; a cell that already
    looks so marked (`'=x`) gets one more, so that `unneutralise` gives every cell back as it was.
    A control character a terminal acts on is written as its escape (`inert`)."""
    cell = inert(cell)
    return "'" + cell if cell.lstrip("'").startswith(FORMULA_START) else cell


def unneutralise(cell: str) -> str:
    """`neutralise` undone: the one `'` it put before a cell that (after its `'`s) starts like a formula."""
    return cell[1:] if cell.startswith("'") and cell.lstrip("'").startswith(FORMULA_START) else cell


def csv_row(line: int, rid: RecordId, outcome: Outcome, extra: tuple[str, ...] | bool | None = False) -> list[Any]:
    """One CSV result row, in `CSV_COLUMNS` order, text cells neutralised; then, unless `extra`
    is False, the --extra-fields keep cells (`extra`: the input's own columns, or None: one JSON cell)."""
    win = outcome.status == WIN
    pays = outcome.payments if win else ("", "", "")
    row = [
        line, "" if rid is None else neutralise(str(rid)), outcome.status, neutralise(outcome.variant or ""),
        outcome.value if win else "", outcome.total if win else "", *pays,
        " ".join(outcome.patterns), outcome.code, neutralise(outcome.message + outcome.where),
    ]
    if extra is not False:
        row += extra_cells(outcome, extra if not isinstance(extra, bool) else None)
    return row


def csv_text(rows: Iterable[Sequence[Any]]) -> bytes:
    """CSV rows as UTF-8 text, one per line (backslash escapes for what UTF-8 cannot hold)."""
    rows = list(rows)
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    if "\r" in text.getvalue():  # csv quotes only the line terminator's "\n": quote a cell's "\r" too
        text = io.StringIO()
        plain, quoted = csv.writer(text, lineterminator="\n"), csv.writer(text, lineterminator="\n", quoting=csv.QUOTE_ALL)
        for row in rows:
            (quoted if any(isinstance(cell, str) and "\r" in cell for cell in row) else plain).writerow(row)
    return text.getvalue().encode("utf-8", "backslashreplace")


def rows_written(data: bytes, size: int, out_format: str, first_line: int) -> tuple[int, int]:
    """How many whole rows the first `size` bytes of a chunk's `data` hold, and the line to resume from:
    the line of the first row not written whole (each row starts with its record's line)."""
    ends = []  # the offset just past each row
    offset = quotes = 0
    for piece in data.split(b"\n")[:-1]:
        offset += len(piece) + 1
        quotes += piece.count(b'"') if out_format == "csv" else 0
        if quotes % 2 == 0:  # a CSV row ends at a line end outside quotes (a quote in a cell is doubled)
            ends.append(offset)
    whole = bisect.bisect_right(ends, size)
    start = ends[whole - 1] if whole else 0
    found = re.match(rb'\{"line": (\d+),' if out_format == "jsonl" else rb"(\d+),", data[start:start + 40])
    if found is None:  # not a row of ours: claim nothing from this chunk
        return 0, first_line
    return whole, int(found[1])


__all__ = ["CSV_COLUMNS", "ERROR", "csv_row", "csv_text", "head_json", "jsonl_line", "neutralise", "rows_written"]
