"""What batch's readers give, and the lines they read: an item is `(line, kind, payload)`.

`line` is the 1-based line where the record starts; `kind` says what `payload` is: `LINES`
(a block of raw JSON Lines lines, the first at `line`, parsed later, possibly in a worker
process), `JSON` (one such line), `CSV` (a mapping of column to cell text), `OBJ` (an
already parsed YAML value) or `ERR` (the `(code, message)` of an InputError, for a record
that could not even be read; a tuple, since exceptions do not pickle well to worker
processes). Blank lines are not records: readers skip them, and so does whoever expands a block.

One record is at most `RECORD_LIMIT` bytes: a longer one is an error item, skipped without
being held in memory. CSV and YAML read physical lines (`physical_lines`), which end at LF,
CR LF or a lone CR, each read with that bound.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

JSON, LINES, CSV, OBJ, ERR = "json", "lines", "csv", "obj", "err"
READ_SIZE = 1 << 16
RECORD_LIMIT = 1 << 20  # bytes in one record (1 MiB): a longer record is an error row

RawRecord = tuple[int, str, Any]


def too_large() -> tuple[str, str]:
    return ("record_too_large", f"the record is longer than {RECORD_LIMIT:,} bytes (the limit for one record)")


class BytesRead:
    """What a reader finds out as it reads: how many bytes it consumed (for the progress bar), the encoding
    a CSV file turned out to be in, and a workbook's sheets read and left out (for stderr and --verbose)."""

    __slots__ = ("bytes", "encoding", "sheets")

    def __init__(self) -> None:
        self.bytes = 0
        self.encoding: str | None = None  # UTF8, UTF8_BOM or GB18030 once a line that is not ASCII decided it
        self.sheets: tuple[list[str], list[str]] | None = None  # a workbook's sheets read, and the others



def item_size(item: RawRecord) -> int:
    """About how many bytes an item holds (for bounding the bytes in flight)."""
    kind, payload = item[1], item[2]
    if kind in (LINES, JSON):
        return len(payload)
    if kind == CSV:
        return sum(map(len, payload.values()))
    if kind == OBJ:
        return _value_size(payload)
    return 64


def _value_size(value: Any) -> int:
    """Characters of text in a parsed YAML value, and a few for every other scalar."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        return sum(_value_size(k) + _value_size(v) for k, v in value.items())
    if isinstance(value, list):
        return sum(map(_value_size, value))
    return 8



_HEAD = 16  # bytes kept of a line longer than the record limit (enough to tell what starts it)


def raw_lines(stream: IO[bytes], pos: BytesRead) -> Iterator[tuple[bytes, int]]:
    """(bytes, length) of each physical line with its end: LF, CR LF or a lone CR (old Mac files).

    A line longer than RECORD_LIMIT (with its end) is given as its first _HEAD bytes
    and its length as RECORD_LIMIT + 1; the rest is skipped as it is read, never held.
    """
    buf, start, eof, skipping = b"", 0, False, False
    lf = cr = -1  # the next LF and CR at or after `start`, len(buf) if there is none (-1: not looked for yet)
    while True:
        if lf < start:
            lf = buf.find(b"\n", start) % (len(buf) + 1)  # -1 (none) becomes len(buf)
        if cr < start:
            cr = buf.find(b"\r", start) % (len(buf) + 1)
        cut = min(lf, cr)
        end = cut + 1 if cut == lf else cut + 2 if buf[cut + 1 : cut + 2] == b"\n" else cut + 1
        if cut < len(buf) and (end < len(buf) or eof or cut == lf or end == cut + 2):  # a final CR may be half of CR LF
            if skipping:
                skipping = False
            elif end - start > RECORD_LIMIT:
                yield buf[start : start + _HEAD], RECORD_LIMIT + 1
            else:
                yield buf[start:end], end - start
            start = end
            continue
        if eof:
            if start < len(buf) and not skipping:
                size = len(buf) - start
                yield (buf[start : start + _HEAD], RECORD_LIMIT + 1) if size > RECORD_LIMIT else (buf[start:], size)
            return
        if not skipping and len(buf) - start > RECORD_LIMIT:
            yield buf[start : start + _HEAD], RECORD_LIMIT + 1
            skipping = True
        buf = (b"\r" if buf.endswith(b"\r") else b"") if skipping else buf[start:]
        start, lf, cr = 0, -1, -1
        data = stream.read(max(READ_SIZE, len(buf)))  # reads grow with a long line: copying stays linear
        pos.bytes += len(data)
        eof = not data
        buf += data


Line = tuple[int, str, str | None, int]  # (number, text, problem, bytes)
_BREAKS = ("\x85", "\u2028", "\u2029")  # line breaks to YAML besides CR and LF
UTF8, UTF8_BOM, GB18030 = "utf-8", "utf-8-sig", "gb18030"  # what a CSV file may be written in (GB18030 reads GBK and GB2312)
ENCODING_NAMES = {UTF8: "UTF-8", UTF8_BOM: "UTF-8 (BOM)", GB18030: "GB18030 (GBK)", None: "ASCII"}
DETECT = "detect"  # physical_lines' encoding: UTF-8, else GB18030, decided by the first line that is not ASCII


def line_encoding(raw: bytes) -> str | None:
    """The encoding one line is in: UTF-8 (with a BOM), else GB18030 (Chinese Excel's CSV), else None: neither."""
    for encoding in (UTF8, GB18030):
        try:
            raw.decode(encoding)
        except UnicodeDecodeError:
            continue
        return UTF8_BOM if encoding == UTF8 and raw.startswith(b"\xef\xbb\xbf") else encoding
    return None


def physical_lines(stream: IO[bytes], pos: BytesRead, yaml_breaks: bool = False, encoding: str = UTF8) -> Iterator[Line]:
    """(number, text, problem, bytes) per line, each read with a bound; problem is None,
    'encoding' or 'size' (the text is then the line's first characters only).

    `encoding` DETECT: the first line that is not ASCII decides between UTF-8 and GB18030
    (`pos.encoding` says which); a later line not in it is an 'encoding' problem.
    With `yaml_breaks`, the numbers also count the line breaks YAML knows inside a line
    (NEL, LS, PS), as PyYAML's own line numbers do."""
    number = 0
    chosen = None if encoding == DETECT else encoding
    for raw, size in raw_lines(stream, pos):
        number += 1
        problem = "size" if size > RECORD_LIMIT else None
        if chosen is None and problem is None and not raw.isascii():
            chosen = pos.encoding = line_encoding(raw)
        try:
            text = raw.decode(chosen or UTF8)
        except UnicodeDecodeError:
            problem, text = problem or "encoding", raw.decode(chosen or UTF8, "replace")
        if number == 1 and text.startswith("\ufeff"):
            text = text[1:]
        yield number, text, problem, size
        if yaml_breaks and not text.isascii():
            number += sum(text.count(b) for b in _BREAKS)

