"""CSV batch input: a header row naming fields, then one record per row, read line by line."""

from __future__ import annotations

import csv
from collections import deque
from collections.abc import Iterator
from typing import IO

from ..core.words import N_, Text
from .items import CSV, DETECT, ENCODING_NAMES, ERR, RECORD_LIMIT, UTF8, BytesRead, Line, RawRecord, physical_lines, too_large


def csv_problem(exc: csv.Error) -> str:
    """What the csv module's refusal of a row means, in our words (its own are for programmers): a
    msgid of the catalogue, worded when the error row is shown."""
    said = str(exc)
    text: Text
    if said.startswith("new-line character seen in unquoted field"):
        text = N_("CSV cannot be read: a line break inside a cell that is not in quotes (put the cell in double quotes)")
    elif "expected after" in said:
        text = N_("CSV cannot be read: a cell goes on after its closing quote (a quote inside a quoted cell is written twice: \"\")")
    elif "end of data" in said:
        text = N_("CSV cannot be read: a quote is never closed")
    else:
        text = N_("CSV cannot be read: the row is not CSV")
    return text.msgid


def read_csv(stream: IO[bytes], pos: BytesRead, encoding: str = UTF8) -> Iterator[RawRecord]:
    """A header row naming fields, then one record per row (a quoted cell may span lines).

    `encoding`: the file's (`items.physical_lines`); DETECT: UTF-8, else GB18030 (Chinese Excel's
    CSV), decided by its first line that is not ASCII.

    A line ends at LF, CR LF or a lone CR (old Mac exports), and each counts one line.
    A row is complete when its quotes are balanced. A row that cannot be parsed,
    has the wrong number of cells, is not UTF-8, or exceeds RECORD_LIMIT (an unclosed
    quote, say) is an error item at the line where it starts; when such a row spans
    several lines, reading starts again at its second line, so a stray quote never
    swallows the records after it.
    """
    if csv.field_size_limit() < RECORD_LIMIT:
        csv.field_size_limit(RECORD_LIMIT)  # process-wide; a record is bounded anyway
    source = physical_lines(stream, pos, encoding=encoding)
    again: deque[Line] = deque()  # lines to read again after a bad row
    header: list[str] | None = None
    header_error: tuple[str, str] | None = None
    rows: list[Line] = []
    quotes = size = 0

    def restart(error: tuple[str, str]) -> RawRecord:
        nonlocal quotes, size
        start = rows[0][0]
        again.extendleft(reversed(rows[1:]))
        rows.clear()
        quotes = size = 0
        return (start, ERR, error)

    while True:
        if again:
            entry: Line | None = again.popleft()
        else:
            entry = next(source, None)
        if entry is None:
            if not rows:
                return
            yield restart(("bad_csv", "CSV cannot be read: a quote is never closed"))
            continue
        _, text, problem, _ = entry
        if not rows and not text.strip() and problem is None:
            continue  # a blank line is not a record
        rows.append(entry)
        if problem == "size":
            yield restart(too_large())
            continue
        quotes += text.count('"')
        size += len(text)
        if quotes % 2:
            if size > RECORD_LIMIT:
                yield restart(too_large())
            continue
        start = rows[0][0]
        try:
            parsed = list(csv.reader(["".join(e[1] for e in rows)], strict=True))
        except csv.Error as exc:
            yield restart(("bad_csv", csv_problem(exc)))
            continue
        if len(parsed) != 1:  # not one row: a line break the lines above did not see
            yield restart(("bad_csv", "CSV cannot be read: the row does not end where its quotes close"))
            continue
        row = parsed[0]
        if header is None:
            header = row
            repeated = sorted({c for c in header if header.count(c) > 1})
            if repeated:
                header_error = ("bad_csv", f"the header repeats column(s) {', '.join(repeated)}")
                yield restart(header_error)
            else:
                rows.clear()
                quotes = size = 0
            continue
        if header_error is not None:
            yield restart(header_error)
        elif any(e[2] == "encoding" for e in rows):
            yield restart(("bad_encoding", _not_encoded(pos, encoding)))
        elif len(row) != len(header):
            yield restart(("bad_csv_row", f"the row has {len(row)} cells; the header has {len(header)} columns"))
        else:
            rows.clear()
            quotes = size = 0
            yield (start, CSV, dict(zip(header, row)))


def _not_encoded(pos: BytesRead, encoding: str) -> str:
    """Why a row's bytes cannot be read: not in the file's encoding, or (not yet decided) in neither."""
    if encoding == DETECT and pos.encoding is None:
        return "the record is neither UTF-8 nor GB18030 (GBK) text"
    return f"the record is not valid {ENCODING_NAMES[pos.encoding if encoding == DETECT else encoding]} text, the file's encoding"
