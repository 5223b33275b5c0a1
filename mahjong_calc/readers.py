"""Read batch input as a stream of items, never the whole file at once.

An item is `(line, kind, payload)`: `line` is the 1-based line where the record
starts; `kind` says what `payload` is: `LINES` (a block of raw JSON Lines lines,
the first at `line`, parsed later, possibly in a worker process), `JSON` (one such
line), `CSV` (a mapping of column to cell text), `OBJ` (an already parsed YAML
value) or `ERR` (an `InputError` for a record that could not even be read). Blank
lines are not records: readers skip them, and so does whoever expands a block.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from itertools import islice
from typing import IO, Any

from .errors import InputError, MjcalcError

JSON, LINES, CSV, OBJ, ERR = "json", "lines", "csv", "obj", "err"
BLOCK = 500  # JSON Lines read at a time
FORMATS = ("jsonl", "yaml", "csv")
_EXTENSIONS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".yaml": "yaml", ".yml": "yaml", ".csv": "csv"}

Item = tuple[int, str, Any]


class Position:
    """How many bytes a reader has consumed (for the progress bar)."""

    __slots__ = ("bytes",)

    def __init__(self) -> None:
        self.bytes = 0


def detect_format(name: str, explicit: str | None) -> str:
    """`--input-format` if given, else the file's extension; stdin (`-`) defaults to JSON Lines."""
    if explicit is not None:
        if explicit not in FORMATS:
            raise InputError("bad_input_format", f"--input-format must be one of {', '.join(FORMATS)}, not {explicit!r}")
        return explicit
    if name == "-":
        return "jsonl"
    dot = name.rfind(".")
    fmt = _EXTENSIONS.get(name[dot:].lower()) if dot >= 0 else None
    if fmt is None:
        raise InputError(
            "bad_input_format",
            f"cannot tell the format of {name!r} from its extension (.jsonl, .ndjson, .yaml, .yml, .csv); "
            "give --input-format",
        )
    return fmt


def read_items(stream: IO[bytes], fmt: str, pos: Position | None = None, block: int = BLOCK) -> Iterator[Item]:
    """The records of `stream` (opened in binary mode) in `fmt`, in order."""
    pos = pos or Position()
    if fmt == "jsonl":
        return read_jsonl(stream, pos, block)
    if fmt == "csv":
        return read_csv(stream, pos)
    return read_yaml(stream, pos)


def read_jsonl(stream: IO[bytes], pos: Position, block: int = BLOCK) -> Iterator[Item]:
    """Blocks of up to `block` lines, as one bytes object each (cheap to send to a
    worker process); whoever scores a block splits it, parses each line and skips
    the blank ones."""
    lines = iter(stream)
    first = 1
    while chunk := list(islice(lines, block)):
        data = b"".join(chunk)
        pos.bytes += len(data)
        yield (first, LINES, data)
        first += len(chunk)


def read_csv(stream: IO[bytes], pos: Position) -> Iterator[Item]:
    """A header row naming fields, then one record per row (a quoted cell may span lines).

    A line that is not valid UTF-8 makes the record holding it an error; a row with
    the wrong number of cells is an error; a broken file structure (or a repeated
    column name) ends the reading with one error item.
    """
    bad_lines: set[int] = set()

    def lines() -> Iterator[str]:
        number = 0
        for raw in stream:
            number += 1
            pos.bytes += len(raw)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                bad_lines.add(number)
                text = raw.decode("utf-8", "replace")
            if number == 1 and text.startswith("\ufeff"):
                text = text[1:]
            yield text

    reader = csv.reader(lines(), strict=True)
    header: list[str] | None = None
    last = 0
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield (reader.line_num, ERR, InputError("bad_csv", f"CSV cannot be read: {exc}"))
            return
        start, last = last + 1, reader.line_num
        if not row:
            continue
        if header is None:
            header = row
            repeated = sorted({c for c in header if header.count(c) > 1})
            if repeated:
                yield (start, ERR, InputError("bad_csv", f"the header repeats column(s) {', '.join(repeated)}"))
                return
            continue
        if any(n in bad_lines for n in range(start, last + 1)):
            yield (start, ERR, InputError("bad_encoding", "the record is not valid UTF-8"))
        elif len(row) != len(header):
            message = f"the row has {len(row)} cells; the header has {len(header)} columns"
            yield (start, ERR, InputError("bad_csv_row", message))
        else:
            yield (start, CSV, dict(zip(header, row)))


def read_yaml(stream: IO[bytes], pos: Position) -> Iterator[Item]:
    """A YAML list of records, composed one item at a time so memory stays flat."""
    import yaml

    from .ruleset import _construct_mapping

    class Loader(yaml.SafeLoader):
        """Pure-Python SafeLoader (it lets us compose one node at a time); duplicate keys are errors."""

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)

    loader = Loader(stream)
    try:
        loader.get_event()  # stream start
        if loader.check_event(yaml.StreamEndEvent):
            return
        loader.get_event()  # document start
        if not loader.check_event(yaml.SequenceStartEvent):
            event = loader.peek_event()
            if isinstance(event, yaml.ScalarEvent) and event.value in ("", "~", "null"):
                return  # an empty document: no records
            yield (event.start_mark.line + 1, ERR, InputError("bad_yaml", "a YAML batch must be a list of records"))
            return
        loader.get_event()
        index = 0
        while not loader.check_event(yaml.SequenceEndEvent):
            node = loader.compose_node(None, index)  # type: ignore[arg-type]
            index += 1
            line = node.start_mark.line + 1
            try:
                value = loader.construct_document(node)
            except MjcalcError as exc:  # duplicate key
                yield (line, ERR, InputError("bad_record", exc.message))
            except yaml.YAMLError as exc:
                yield (line, ERR, InputError("bad_yaml", f"YAML value cannot be read: {exc}"))
            else:
                yield (line, OBJ, value)
        loader.get_event()  # sequence end
        loader.get_event()  # document end
        if not loader.check_event(yaml.StreamEndEvent):
            event = loader.peek_event()
            yield (event.start_mark.line + 1, ERR, InputError("bad_yaml", "a YAML batch is one document; found another"))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 0
        yield (line, ERR, InputError("bad_yaml", f"not valid YAML: {exc.problem or exc.context}"))
    except yaml.YAMLError as exc:
        yield (0, ERR, InputError("bad_yaml", f"not valid YAML: {exc}"))
    finally:
        loader.dispose()
