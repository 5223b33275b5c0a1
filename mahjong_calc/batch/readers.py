"""Read batch input as a stream of items, never the whole file at once, never one record unbounded.

An item is `(line, kind, payload)`: `line` is the 1-based line where the record
starts; `kind` says what `payload` is: `LINES` (a block of raw JSON Lines lines,
the first at `line`, parsed later, possibly in a worker process), `JSON` (one such
line), `CSV` (a mapping of column to cell text), `OBJ` (an already parsed YAML
value) or `ERR` (the `(code, message)` of an InputError, for a record that could not
even be read; a tuple, since exceptions do not pickle well to worker processes). Blank
lines are not records: readers skip them, and so does whoever expands a block.

Every reader goes on after a bad record: one record is at most `RECORD_LIMIT`
bytes (a longer one is an error item, and is skipped without being held in
memory), bytes that are not UTF-8 spoil only the record that holds them, a CSV
quote left open spoils only the row that opens it, and a YAML record nested too
deeply or expanding (through aliases) beyond the limit is an error item.
"""

from __future__ import annotations

import csv
import re
from collections import deque
from collections.abc import Iterator
from typing import IO, Any

from ..errors import InputError, MjcalcError

JSON, LINES, CSV, OBJ, ERR = "json", "lines", "csv", "obj", "err"
BLOCK = 500  # JSON Lines per block
READ_SIZE = 1 << 16
RECORD_LIMIT = 1 << 20  # bytes in one record (1 MiB): a longer record is an error row
YAML_DEPTH = 64  # nesting of collections in one YAML record
FORMATS = ("jsonl", "yaml", "csv")
_EXTENSIONS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".yaml": "yaml", ".yml": "yaml", ".csv": "csv"}

Item = tuple[int, str, Any]


def too_large() -> tuple[str, str]:
    return ("record_too_large", f"the record is longer than {RECORD_LIMIT:,} bytes (the limit for one record)")


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


def read_items(stream: IO[bytes], fmt: str, pos: Position | None = None, block: int = BLOCK, read_size: int = READ_SIZE) -> Iterator[Item]:
    """The records of `stream` (opened in binary mode) in `fmt`, in order."""
    pos = pos or Position()
    if fmt == "jsonl":
        return read_jsonl(stream, pos, block, read_size)
    if fmt == "csv":
        return read_csv(stream, pos)
    return read_yaml(stream, pos)


def read_jsonl(stream: IO[bytes], pos: Position, block: int = BLOCK, read_size: int = READ_SIZE) -> Iterator[Item]:
    """Blocks of up to `block` lines, as one bytes object each (cheap to send to a
    worker process); whoever scores a block splits it, parses each line and skips
    the blank ones. A line longer than RECORD_LIMIT is an error item, skipped as it is read."""
    line = 1  # the number of pending[0]
    pending: list[bytes] = []
    tail = b""  # a line not yet ended
    skipping = False  # inside an over-long line, already reported
    while data := stream.read(read_size):
        pos.bytes += len(data)
        if skipping:
            cut = data.find(b"\n")
            if cut < 0:
                continue
            data, skipping = data[cut + 1 :], False
        lines = (tail + data).split(b"\n")
        tail = lines.pop()
        pending.extend(lines)
        while len(pending) >= block:
            yield (line, LINES, b"\n".join(pending[:block]))
            line += block
            del pending[:block]
        if len(tail) > RECORD_LIMIT:
            if pending:
                yield (line, LINES, b"\n".join(pending))
                line += len(pending)
                pending = []
            yield (line, ERR, too_large())
            line += 1
            tail, skipping = b"", True
    if tail:
        pending.append(tail)
    if pending:
        yield (line, LINES, b"\n".join(pending))


# --- CSV -------------------------------------------------------------------------------


def _physical_lines(stream: IO[bytes], pos: Position) -> Iterator[tuple[int, str, str | None]]:
    """(number, text, problem) per line, each read with a bound; problem is None, 'encoding' or 'size'."""
    number = 0
    while raw := stream.readline(RECORD_LIMIT + 1):
        number += 1
        pos.bytes += len(raw)
        if len(raw) > RECORD_LIMIT:
            if not raw.endswith(b"\n"):
                while rest := stream.readline(READ_SIZE):
                    pos.bytes += len(rest)
                    if rest.endswith(b"\n"):
                        break
            yield number, "\n", "size"
            continue
        problem = None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            problem, text = "encoding", raw.decode("utf-8", "replace")
        if number == 1 and text.startswith("\ufeff"):
            text = text[1:]
        yield number, text, problem


def read_csv(stream: IO[bytes], pos: Position) -> Iterator[Item]:
    """A header row naming fields, then one record per row (a quoted cell may span lines).

    A row is complete when its quotes are balanced. A row that cannot be parsed,
    has the wrong number of cells, is not UTF-8, or exceeds RECORD_LIMIT (an unclosed
    quote, say) is an error item at the line where it starts; when such a row spans
    several lines, reading starts again at its second line, so a stray quote never
    swallows the records after it.
    """
    if csv.field_size_limit() < RECORD_LIMIT:
        csv.field_size_limit(RECORD_LIMIT)  # process-wide; a record is bounded anyway
    source = _physical_lines(stream, pos)
    again: deque[tuple[int, str, str | None]] = deque()  # lines to read again after a bad row
    header: list[str] | None = None
    header_error: tuple[str, str] | None = None
    rows: list[tuple[int, str, str | None]] = []
    quotes = size = 0

    def restart(error: tuple[str, str]) -> Item:
        nonlocal quotes, size
        start = rows[0][0]
        again.extendleft(reversed(rows[1:]))
        rows.clear()
        quotes = size = 0
        return (start, ERR, error)

    while True:
        if again:
            entry: tuple[int, str, str | None] | None = again.popleft()
        else:
            entry = next(source, None)
        if entry is None:
            if not rows:
                return
            yield restart(("bad_csv", "CSV cannot be read: a quote is never closed"))
            continue
        _, text, problem = entry
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
            parsed = list(csv.reader(["".join(t for _, t, _ in rows)], strict=True))
        except csv.Error as exc:
            yield restart(("bad_csv", f"CSV cannot be read: {exc}"))
            continue
        if len(parsed) != 1:  # not one row: a stray line break inside (csv reads "\r" as one)
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
        elif any(p == "encoding" for _, _, p in rows):
            yield restart(("bad_encoding", "the record is not valid UTF-8"))
        elif len(row) != len(header):
            yield restart(("bad_csv_row", f"the row has {len(row)} cells; the header has {len(header)} columns"))
        else:
            rows.clear()
            quotes = size = 0
            yield (start, CSV, dict(zip(header, row)))


# --- YAML ------------------------------------------------------------------------------

# What YAML 1.1 does not allow in a stream (PyYAML's Reader.NON_PRINTABLE)
_NON_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class _Text:
    """A binary stream as text for PyYAML, a line at a time and bounded: a line that is
    not UTF-8, holds a character YAML forbids, or is longer than RECORD_LIMIT is replaced
    (so the parser goes on) and remembered, to make the record holding it an error."""

    def __init__(self, stream: IO[bytes], pos: Position) -> None:
        self.lines = _physical_lines(stream, pos)
        self.bad: dict[int, str] = {}  # 0-based line -> problem
        self.buffer = ""

    def read(self, size: int = -1) -> str:
        while len(self.buffer) < max(size, 1):
            entry = next(self.lines, None)
            if entry is None:
                break
            number, text, problem = entry
            if problem is None and _NON_PRINTABLE.search(text):
                problem, text = "character", _NON_PRINTABLE.sub("\ufffd", text)
            if problem is None and text.count("[") + text.count("{") > YAML_DEPTH:
                problem, text = _flatten(text)
            if problem is not None:
                self.bad[number - 1] = problem
                if problem == "size":
                    text = "\n"
            self.buffer += text
        out, self.buffer = (self.buffer[:size], self.buffer[size:]) if size >= 0 else (self.buffer, "")
        return out


def _flatten(text: str) -> tuple[str | None, str]:
    """A line whose flow collections nest more than YAML_DEPTH deep, cut at its first
    bracket (PyYAML's scanner takes time quadratic in that depth); else the line as it is."""
    depth = deepest = 0
    quote = ""
    for char in text:
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    if deepest <= YAML_DEPTH:
        return None, text
    cut = min(i for i in (text.find("["), text.find("{")) if i >= 0)
    return "nesting", text[:cut] + "~\n"


class _TooDeep(Exception):
    pass


_BAD_TEXT = {
    "nesting": ("bad_record", f"the record is nested more than {YAML_DEPTH} deep"),
    "encoding": ("bad_encoding", "the record is not valid UTF-8"),
    "character": ("bad_encoding", "the record holds a control character that YAML does not allow"),
}


def _weight(node: Any, memo: dict[int, int], limit: int) -> int:
    """Nodes plus scalar characters of `node` with every alias expanded (shared nodes memoised)."""
    known = memo.get(id(node))
    if known is not None:
        return known
    if isinstance(node.value, str):
        total = 1 + len(node.value)
    else:
        total = 1
        for child in node.value:
            for part in child if isinstance(child, tuple) else (child,):
                total += _weight(part, memo, limit)
                if total > limit:
                    break
            if total > limit:
                break
    memo[id(node)] = total
    return total


def read_yaml(stream: IO[bytes], pos: Position) -> Iterator[Item]:
    """A YAML list of records, composed one item at a time so memory stays flat."""
    import yaml

    from ..ruleset import _construct_mapping

    class Loader(yaml.SafeLoader):
        """Pure-Python SafeLoader (it composes one node at a time), with a nesting bound;
        duplicate keys are errors."""

        depth = 0

        def compose_node(self, parent: Any, index: Any) -> Any:
            self.depth += 1
            try:
                if self.depth > YAML_DEPTH:
                    raise _TooDeep
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)

    text = _Text(stream, pos)
    loader: Any = Loader(text)  # PyYAML's event API is untyped
    claimed = -1  # bad lines up to here belong to records already given

    def bad_text(upto: int) -> tuple[str, str] | None:
        nonlocal claimed
        found = [text.bad[n] for n in text.bad if claimed < n <= upto]
        claimed = max(claimed, upto)
        if "size" in found:
            return too_large()
        return _BAD_TEXT[found[0]] if found else None

    def leftover() -> Iterator[Item]:
        """Bad lines that no record held (an over-long line that was the whole list, say)."""
        for number in sorted(n for n in text.bad if n > claimed):
            problem = text.bad[number]
            yield (number + 1, ERR, too_large() if problem == "size" else _BAD_TEXT.get(problem, ("bad_yaml", problem)))

    def skip_rest(open_collections: int) -> None:
        while open_collections:
            event = loader.get_event()
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                open_collections += 1
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                open_collections -= 1

    try:
        loader.get_event()  # stream start
        if loader.check_event(yaml.StreamEndEvent):
            yield from leftover()
            return
        loader.get_event()  # document start
        if not loader.check_event(yaml.SequenceStartEvent):
            event = loader.peek_event()
            if isinstance(event, yaml.ScalarEvent) and event.value in ("", "~", "null"):
                yield from leftover()
                return  # an empty document: no records
            yield (event.start_mark.line + 1, ERR, ("bad_yaml", "a YAML batch must be a list of records"))
            return
        loader.get_event()
        index = 0
        while not loader.check_event(yaml.SequenceEndEvent):
            line = loader.peek_event().start_mark.line + 1
            try:
                node = loader.compose_node(None, index)
            except _TooDeep:
                skip_rest(YAML_DEPTH)
                bad_text(loader.peek_event().start_mark.line)
                yield (line, ERR, ("bad_record", f"the record is nested more than {YAML_DEPTH} deep"))
                continue
            index += 1
            problem = bad_text(node.end_mark.line)
            if problem is not None:
                yield (line, ERR, problem)
                continue
            if node.end_mark.index - node.start_mark.index > RECORD_LIMIT or _weight(node, {}, RECORD_LIMIT) > RECORD_LIMIT:
                message = (f"the record is larger than {RECORD_LIMIT:,} characters with its aliases expanded "
                           "(the limit for one record)")
                yield (line, ERR, ("record_too_large", message))
                continue
            try:
                value = loader.construct_document(node)
            except MjcalcError as exc:  # duplicate key
                yield (line, ERR, ("bad_record", exc.message))
            except yaml.YAMLError as exc:
                yield (line, ERR, ("bad_yaml", f"YAML value cannot be read: {exc}"))
            except (ValueError, RecursionError, MemoryError) as exc:  # e.g. an integer of 5,000 digits
                yield (line, ERR, ("bad_yaml", f"YAML value cannot be read: {type(exc).__name__}"))
            else:
                yield (line, OBJ, value)
        loader.get_event()  # sequence end
        loader.get_event()  # document end
        yield from leftover()
        if not loader.check_event(yaml.StreamEndEvent):
            event = loader.peek_event()
            yield (event.start_mark.line + 1, ERR, ("bad_yaml", "a YAML batch is one document; found another"))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 0
        yield (line, ERR, ("bad_yaml", f"not valid YAML: {exc.problem or exc.context}"))
    except yaml.YAMLError as exc:
        yield (0, ERR, ("bad_yaml", f"not valid YAML: {exc}"))
    finally:
        loader.dispose()
