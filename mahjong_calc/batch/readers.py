"""Read batch input as a stream of items, never the whole file at once, never one record unbounded.

The items are those of `items.py`. Every reader goes on after a bad record: bytes that are
not UTF-8 spoil only the record that holds them, a CSV quote left open spoils only the row
that opens it (`csv_reader.py`), a YAML item that cannot be parsed spoils only itself
(`yaml_reader.py`), and a JSON Lines line longer than `RECORD_LIMIT` is one error item.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO

from ..core.errors import InputError
from .items import ERR, LINES, READ_SIZE, RECORD_LIMIT, BytesRead, RawRecord, too_large

BLOCK = 500  # JSON Lines per block
BLOCK_BYTES = 1 << 21  # ... or fewer: a block ends at the line that brings it to 2 MiB
FORMATS = ("jsonl", "yaml", "csv", "xlsx")
_EXTENSIONS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".yaml": "yaml", ".yml": "yaml", ".csv": "csv", ".xlsx": "xlsx", ".xlsm": "xlsx"}


def detect_format(name: str, explicit: str | None) -> str:
    """`--input-format` if given, else the file's extension; stdin (`-`) defaults to JSON Lines."""
    if explicit is not None:
        if explicit not in FORMATS:
            raise InputError("bad_input_format", "--input-format must be one of {formats}, not {explicit!r}", formats=', '.join(FORMATS), explicit=explicit)
        return explicit
    if name == "-":
        return "jsonl"
    dot = name.rfind(".")
    fmt = _EXTENSIONS.get(name[dot:].lower()) if dot >= 0 else None
    if fmt is None:
        raise InputError(
            "bad_input_format",
            "cannot tell the format of {name!r} from its extension (.jsonl, .ndjson, .yaml, .yml, .csv, .xlsx); give --input-format", name=name,
        )
    return fmt


def read_items(stream: IO[bytes], fmt: str, pos: BytesRead | None = None, block: int = BLOCK, read_size: int = READ_SIZE,
               sheet: str | None = None, name: str = "-") -> Iterator[RawRecord]:
    """The records of `stream` (opened in binary mode) in `fmt`, in order (a CSV file in UTF-8 or GB18030,
    `pos.encoding` says which; a workbook's first sheet, `sheet` by name, or every sheet: `all`)."""
    pos = pos or BytesRead()
    if fmt == "jsonl":
        return read_jsonl(stream, pos, block, read_size)
    if fmt == "csv":  # each reader imported where its format is read
        from .csv_reader import read_csv
        from .items import DETECT

        return read_csv(stream, pos, DETECT)
    if fmt == "xlsx":
        from .xlsx import read_xlsx

        return read_xlsx(stream, pos, sheet, name)
    from .yaml_reader import read_yaml

    return read_yaml(stream, pos)


def read_jsonl(
    stream: IO[bytes], pos: BytesRead, block: int = BLOCK, read_size: int = READ_SIZE, block_bytes: int = BLOCK_BYTES,
) -> Iterator[RawRecord]:
    """Blocks of up to `block` lines, as one bytes object each (cheap to send to a
    worker process); whoever scores a block splits it, parses each line and skips
    the blank ones. A block ends early at the line that brings it to `block_bytes`,
    so large records make small blocks. A line longer than RECORD_LIMIT is an error
    item, skipped as it is read."""
    line = 1  # the number of pending[0]
    pending: list[bytes] = []
    held = 0  # bytes in pending, with their line ends
    tail: list[bytes] = []  # a line not yet ended, in pieces (joined once, when it ends)
    tail_size = 0
    skipping = False  # inside an over-long line, already reported
    while data := stream.read(read_size):
        pos.bytes += len(data)
        if skipping:
            cut = data.find(b"\n")
            if cut < 0:
                continue
            data, skipping = data[cut + 1 :], False
        if b"\n" in data:
            lines = (b"".join([*tail, data]) if tail else data).split(b"\n")
            last = lines.pop()
            tail, tail_size = ([last] if last else []), len(last)
            pending.extend(lines)
            held += sum(map(len, lines)) + len(lines)
            while len(pending) >= block or held >= block_bytes:
                count = block if held < block_bytes else _block_end(pending, block, block_bytes)
                size = sum(map(len, pending[:count])) + count
                yield (line, LINES, b"\n".join(pending[:count]))
                line += count
                held -= size
                del pending[:count]
        elif data:
            tail.append(data)
            tail_size += len(data)
        if tail_size > RECORD_LIMIT:
            if pending:
                yield (line, LINES, b"\n".join(pending))
                line += len(pending)
                pending, held = [], 0
            yield (line, ERR, too_large())
            line += 1
            tail, tail_size, skipping = [], 0, True
    if tail:
        pending.append(b"".join(tail))
    if pending:
        yield (line, LINES, b"\n".join(pending))


def _block_end(lines: list[bytes], block: int, block_bytes: int) -> int:
    """How many of `lines` make a block: up to `block`, ending at the line that brings it to `block_bytes`."""
    size = 0
    for count, text in enumerate(lines[:block], 1):
        size += len(text) + 1
        if size >= block_bytes:
            return count
    return min(block, len(lines))
